//! GCE hand-to-hand: both Monte Carlo samplers (the rule on real dice, and
//! the fast sampler drawing each round's sub-rolls from tables of their
//! exact laws) against the exact values, every metric, in situations that
//! reach every branch (psychology, Hatred's re-rolls, two weapons, draws,
//! multiple combats). Bonferroni over all comparisons at a family-wise
//! false-alarm rate of 1e-3, fixed seeds; and the same bound must reject a
//! rule that is slightly wrong.

mod common;

use common::{b, i, metric_p_values, params, s};
use krunch::dice::{BatchedRoller, Tally};
use krunch::systems::gce::melee::{duel_model, outnumbered_model};
use krunch::systems::{Model, ParamValue};

const TRIALS: u64 = 200_000;
const FAMILY_ALPHA: f64 = 1e-3;

fn fighter(prefix: &str, pairs: &[(&str, ParamValue)]) -> Vec<(String, ParamValue)> {
    let mut out: Vec<(String, ParamValue)> = [
        ("ws", i(3)),
        ("bs", i(3)),
        ("attacks", i(1)),
        ("initiative", i(3)),
        ("strength", i(3)),
        ("toughness", i(3)),
        ("wounds", i(1)),
    ]
    .into_iter()
    .map(|(k, v)| (format!("{prefix}{k}"), v))
    .collect();
    for (k, v) in pairs {
        let key = format!("{prefix}{k}");
        out.retain(|(n, _)| *n != key);
        out.push((key, v.clone()));
    }
    out
}

fn duel(
    a: &[(&str, ParamValue)],
    b_: &[(&str, ParamValue)],
    extra: &[(&str, ParamValue)],
) -> krunch::systems::Params {
    let mut all = fighter("a_", a);
    all.extend(fighter("b_", b_));
    all.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    let pairs: Vec<(&str, ParamValue)> = all.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    params(&pairs)
}

fn duels() -> Vec<(&'static str, krunch::systems::Params)> {
    vec![
        (
            "4 v 4 dice, 3 Wounds, saves",
            duel(
                &[
                    ("attacks", i(3)),
                    ("wounds", i(3)),
                    ("save", i(5)),
                    ("weapons", s("choppa")),
                ],
                &[
                    ("ws", i(4)),
                    ("attacks", i(3)),
                    ("wounds", i(3)),
                    ("save", i(5)),
                    ("weapons", s("choppa")),
                ],
                &[],
            ),
        ),
        (
            "Fear, Hatred best, Stupid, spear v 'Uge Choppa, obstacle",
            duel(
                &[
                    ("attacks", i(2)),
                    ("strength", i(4)),
                    ("wounds", i(2)),
                    ("weapons", s("uge_choppa")),
                    ("causes", s("fear")),
                    ("hatred", b(true)),
                ],
                &[
                    ("leadership", i(7)),
                    ("weapons", s("spear, choppa")),
                    ("stupid", b(true)),
                    ("higher_up", b(true)),
                    ("wounds", i(2)),
                ],
                &[("obstacle", b(true))],
            ),
        ),
        (
            "Terror on a charger, Frenzy, Hatred all when behind, D3 custom weapon",
            duel(
                &[
                    ("weapons", s("custom")),
                    ("custom_strength", s("AU+1")),
                    ("custom_damage", s("D3")),
                    ("frenzy", b(true)),
                    ("wounds", i(2)),
                ],
                &[
                    ("causes", s("terror")),
                    ("leadership", i(8)),
                    ("hatred", b(true)),
                    ("hatred_policy", s("all_when_behind")),
                    ("wounds", i(3)),
                    ("save", i(4)),
                ],
                &[("charger", s("b"))],
            ),
        ),
        (
            // issue 27 items 1, 2 and 6: Frenzy cancels A's Stupidity and
            // Hatred (no Leadership needed, no re-roll); B tests Stupidity
            // at Leadership 2 every round and is higher up in round one only
            "Frenzied, Stupid and Hating A v Stupid B at Ld 2, higher up in round one, obstacle",
            duel(
                &[
                    ("weapons", s("choppa")),
                    ("frenzy", b(true)),
                    ("stupid", b(true)),
                    ("hatred", b(true)),
                    ("wounds", i(2)),
                ],
                &[
                    ("ws", i(4)),
                    ("attacks", i(2)),
                    ("leadership", i(2)),
                    ("stupid", b(true)),
                    ("higher_up_first_round", b(true)),
                    ("wounds", i(2)),
                    ("save", i(5)),
                ],
                &[("obstacle", b(true))],
            ),
        ),
    ]
}

fn multis() -> Vec<(&'static str, krunch::systems::Params)> {
    let mut three = duel(
        &[("ws", i(2))],
        &[
            ("ws", i(4)),
            ("attacks", i(2)),
            ("strength", i(4)),
            ("wounds", i(2)),
            ("weapons", s("choppa")),
            ("save", i(6)),
        ],
        &[("attackers", i(3)), ("attackers_charged", b(true))],
    );
    three.set("a_weapons", s("choppa"));
    let six = duel(
        &[("ws", i(2))],
        &[
            ("ws", i(5)),
            ("attacks", i(3)),
            ("strength", i(4)),
            ("wounds", i(3)),
            ("weapons", s("uge_choppa")),
        ],
        &[("attackers", i(6))],
    );
    vec![
        ("3 Grots with Choppas v a Nob", three),
        ("6 Grots v an 'Uge Choppa Nob", six),
    ]
}

/// Every metric's p-value, for both samplers of every situation.
fn all_p_values(shift: f64) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let mut check = |what: &str, model: &dyn Model, fast: &Tally, general: &Tally| {
        let mut exact = model.exact().expect("exact");
        let first = model
            .metrics()
            .iter()
            .position(|m| m.name.starts_with("p_"))
            .unwrap();
        exact[first] = (exact[first] + shift).clamp(0.0, 1.0);
        for (sampler, t) in [("fast", fast), ("general", general)] {
            for (name, p) in metric_p_values(model, t, &exact) {
                out.push((format!("{what} / {sampler} / {name}"), p));
            }
        }
    };
    for (k, (what, p)) in duels().into_iter().enumerate() {
        let m = duel_model(&p).expect(what);
        let (mut fast, mut general) =
            (Tally::new(m.metrics().len()), Tally::new(m.metrics().len()));
        m.run_chunk(&mut BatchedRoller::new(21, &[k as u64]), TRIALS, &mut fast);
        m.run_reference(
            &mut BatchedRoller::new(22, &[k as u64]),
            TRIALS,
            &mut general,
        );
        check(what, &m, &fast, &general);
    }
    for (k, (what, p)) in multis().into_iter().enumerate() {
        let m = outnumbered_model(&p).expect(what);
        let (mut fast, mut general) =
            (Tally::new(m.metrics().len()), Tally::new(m.metrics().len()));
        m.run_chunk(&mut BatchedRoller::new(23, &[k as u64]), TRIALS, &mut fast);
        m.run_reference(
            &mut BatchedRoller::new(24, &[k as u64]),
            TRIALS,
            &mut general,
        );
        check(what, &m, &fast, &general);
    }
    out
}

#[test]
fn both_samplers_agree_with_the_exact_values() {
    let ps = all_p_values(0.0);
    let threshold = FAMILY_ALPHA / ps.len() as f64;
    let (worst, p) = ps
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("comparisons");
    assert!(
        *p > threshold,
        "{worst}: p = {p:.2e} below {threshold:.2e} ({} comparisons)",
        ps.len()
    );
}

#[test]
fn the_same_bound_rejects_a_rule_off_by_one_percent() {
    let ps = all_p_values(0.01);
    let threshold = FAMILY_ALPHA / ps.len() as f64;
    assert!(
        ps.iter().any(|(_, p)| *p < threshold),
        "a shift of 0.01 in one metric went unnoticed"
    );
}
