//! Battlefleet Gothic: exact against Monte Carlo for every metric of every
//! scenario (Bonferroni over all comparisons, family-wise 1e-4, fixed
//! seeds), and bad input named.

mod common;

use common::{b, i, metric_p_values, params, s};
use krunch::experiment::simulate;
use krunch::systems::{self, Model, Params};

const FAMILY_ALPHA: f64 = 1e-4;
const TRIALS: u64 = 300_000;

fn scenarios() -> Vec<(&'static str, &'static str, Params)> {
    vec![
        (
            "agrippa rams unclean",
            "ram",
            params(&[
                ("rammer", s("agrippa")),
                ("target", s("unclean")),
                ("rammer_leadership", i(8)),
            ]),
        ),
        (
            "escort rams battleship head on",
            "ram",
            params(&[
                ("rammer_type", s("escort")),
                ("rammer_starting_damage", i(1)),
                ("rammer_front_armour", i(5)),
                ("rammer_leadership", i(7)),
                ("target_type", s("battleship")),
                ("target_starting_damage", i(12)),
                ("target_damage", i(5)),
                ("target_front_armour", i(6)),
                ("head_on", b(true)),
            ]),
        ),
        (
            "plagueclaw boards hyperion",
            "boarding",
            params(&[
                ("attacker", s("plagueclaw")),
                ("defender", s("hyperion")),
                ("defender_turrets", i(2)),
                ("attacker_race", s("chaos")),
            ]),
        ),
        (
            "even boarding with crits that cannot apply",
            "boarding",
            params(&[
                ("attacker_damage", i(4)),
                ("attacker_starting_damage", i(8)),
                ("defender_damage", i(4)),
                ("defender_starting_damage", i(6)),
                ("defender_turrets", i(1)),
                ("defender_no_lances", b(true)),
                ("attacker_no_ordnance", b(true)),
                ("defender_race", s("space_marines")),
                ("attacker_has_blast_markers", b(true)),
            ]),
        ),
        (
            "two escorts board a cruiser",
            "boarding",
            params(&[
                ("boarding_ships", i(2)),
                ("attacker_damage", i(1)),
                ("attacker2_damage", i(1)),
                ("attacker_escorts", b(true)),
                ("defender_damage", i(2)),
                ("defender_starting_damage", i(8)),
                ("defender_turrets", i(0)),
            ]),
        ),
        (
            "hit and run +1, three attacks",
            "hit_and_run",
            params(&[
                ("attacks", i(3)),
                ("plus_one_fleet", b(true)),
                ("target_no_lances", b(true)),
            ]),
        ),
        (
            "teleport attack on an escort",
            "hit_and_run",
            params(&[
                ("attack", s("teleport")),
                ("attacker_damage", i(6)),
                ("target_damage", i(1)),
                ("target_escort", b(true)),
            ]),
        ),
        (
            "disengage",
            "disengage",
            params(&[
                ("leadership", i(7)),
                ("blast_markers_within_5cm", i(2)),
                ("enemy_ships_or_ordnance", i(1)),
            ]),
        ),
        (
            "asteroid field with shields",
            "asteroid_field",
            params(&[("leadership", i(6)), ("shields", i(2))]),
        ),
        (
            "attack craft in asteroids",
            "asteroid_field",
            params(&[("leadership", i(6)), ("attack_craft", b(true))]),
        ),
        ("warp rift", "warp_rift", params(&[("leadership", i(9))])),
    ]
}

fn build(scenario: &str, p: &Params) -> Box<dyn Model> {
    systems::build("bfg", scenario, p, &Params::new()).unwrap_or_else(|e| panic!("{scenario}: {e}"))
}

#[test]
fn monte_carlo_agrees_with_exact_for_every_metric() {
    let mut all = Vec::new();
    for (k, (name, scenario, p)) in scenarios().into_iter().enumerate() {
        let model = build(scenario, &p);
        let exact = model
            .exact()
            .unwrap_or_else(|| panic!("{name}: no exact evaluator"));
        let tally = simulate(model.as_ref(), 500 + k as u64, TRIALS, &|_| {});
        for (metric, pv) in metric_p_values(model.as_ref(), &tally, &exact) {
            all.push((format!("{name}: {metric}"), pv));
        }
    }
    let bound = FAMILY_ALPHA / all.len() as f64;
    let failures: Vec<_> = all.iter().filter(|(_, p)| *p < bound).collect();
    assert!(failures.is_empty(), "below p = {bound:e}: {failures:#?}");
    assert!(all.len() >= 150, "{} comparisons", all.len());
}

#[test]
fn seed_examples_by_hand() {
    // Agrippa (Ld 12 so the ram connects) rams the Unclean: 8D6 at armour 5
    // and 4D6 back at front armour 6.
    let model = build(
        "ram",
        &params(&[
            ("rammer", s("agrippa")),
            ("target", s("unclean")),
            ("rammer_leadership", i(12)),
        ]),
    );
    let exact = model.exact().unwrap();
    let at = |name: &str| exact[model.metrics().iter().position(|m| m.name == name).unwrap()];
    assert!((at("mean_damage_dealt") - 8.0 / 3.0).abs() < 1e-12);
    assert!((at("mean_damage_taken") - 4.0 / 6.0).abs() < 1e-12);
    // 3 damage as in the example: C(8,3) (1/3)^3 (2/3)^5
    assert!((at("dealt=3") - 56.0 * 32.0 / 6561.0).abs() < 1e-12);
    // Plagueclaw (+2 for twice the boarding value) against Hyperion (with 0
    // turrets, no races): P(first round won) = P(d6 + 2 > d6) = 26/36.
    let model = build(
        "boarding",
        &params(&[
            ("attacker", s("plagueclaw")),
            ("defender", s("hyperion")),
            ("defender_turrets", i(0)),
        ]),
    );
    let exact = model.exact().unwrap();
    let at = |name: &str| exact[model.metrics().iter().position(|m| m.name == name).unwrap()];
    assert!((at("p_win") - 26.0 / 36.0).abs() < 1e-12);
    assert!((at("p_draw") - 4.0 / 36.0).abs() < 1e-12);
}

#[test]
fn bad_input_is_named() {
    let cases: Vec<(&str, Params, &str, &str)> = vec![
        (
            "ram",
            params(&[
                ("rammer", s("agrippa")),
                ("target", s("unclean")),
                ("rammer_leadership", i(8)),
                ("target_damage", i(-2)),
            ]),
            "target_damage",
            "impossible",
        ),
        (
            "ram",
            params(&[
                ("rammer", s("agrippa")),
                ("target", s("unclean")),
                ("rammer_leadership", i(8)),
                ("target_armour", i(0)),
            ]),
            "target_armour",
            "impossible",
        ),
        (
            "boarding",
            params(&[
                ("attacker_damage", i(0)),
                ("defender", s("hyperion")),
                ("defender_turrets", i(1)),
            ]),
            "attacker_damage",
            "boarding value of zero",
        ),
        (
            "ram",
            params(&[
                ("rammer", s("agrippa")),
                ("target_type", s("dreadnought")),
                ("rammer_leadership", i(8)),
            ]),
            "target_type",
            "is not one of",
        ),
        (
            "ram",
            params(&[
                ("rammer", s("agrippa")),
                ("target", s("hyperion")),
                ("rammer_leadership", i(8)),
            ]),
            "target_type",
            "invents none",
        ),
        (
            "hit_and_run",
            params(&[
                ("attack", s("teleport")),
                ("attacker_damage", i(2)),
                ("target_damage", i(5)),
            ]),
            "target_damage",
            "more hits left",
        ),
        (
            "hit_and_run",
            params(&[
                ("attack", s("teleport")),
                ("attacker_damage", i(6)),
                ("target_damage", i(2)),
                ("target_shields", i(1)),
            ]),
            "target_shields",
            "shields are up",
        ),
        // "A ship may only make one teleport attack each turn."
        (
            "hit_and_run",
            params(&[
                ("attack", s("teleport")),
                ("attacks", i(2)),
                ("attacker_damage", i(8)),
                ("target_damage", i(6)),
            ]),
            "attacks",
            "only make one teleport attack each turn",
        ),
        (
            "ram",
            params(&[("rammer", s("galleon"))]),
            "rammer",
            "unknown ship",
        ),
    ];
    for (scenario, p, field, words) in cases {
        let e = systems::build("bfg", scenario, &p, &Params::new())
            .err()
            .unwrap_or_else(|| panic!("{field} accepted"));
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains(words), "{e}");
    }
}
