//! One conformance suite for every registered scenario: registering a
//! scenario is enough to have it tested. For each scenario it builds the
//! scenario's own test points plus cells of every bundled example spec that
//! uses it, and checks:
//!
//! - every metric a model reports is declared in the scenario's catalogue,
//!   and every plain (non-family) declaration is reported by some model;
//! - exact probabilities lie in [0, 1]; each distribution (`x={k}` rows,
//!   with any `x>{k}` tail) sums to 1;
//! - Monte Carlo agrees with the exact value for every metric: two-sided
//!   p-values (binomial for probabilities, z for means) at fixed seeds,
//!   Bonferroni over every comparison in the suite, so a correct rule
//!   raises a false alarm with probability at most `FAMILY_ALPHA` over the
//!   choice of seeds (and, the seeds being fixed, never flakes);
//! - `docs/RULES.md` is what the registry generates.
//!
//! Run in release: `cargo test --release`.

mod common;

use common::{metric_p_values, two_sample_p_values};
use krunch::dice::{BatchedRoller, Tally};
use krunch::experiment::{self, CHUNK, simulate};
use krunch::systems::{self, MetricKind, Model, ParamValue, Params, RULE_SETS};
use std::collections::BTreeMap;
use std::path::Path;

const FAMILY_ALPHA: f64 = 1e-3;
const TRIALS: u64 = 200_000;
/// Cells taken from each bundled spec (spread across its sweep).
const CELLS_PER_SPEC: usize = 4;

/// Points run under a variant's non-default reading: (system, scenario,
/// parameters, variants).
type VariantPoint = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [(&'static str, &'static str)],
);

const VARIANT_POINTS: &[VariantPoint] = &[
    (
        "gce",
        "hand_to_hand",
        &[
            ("a", "grimgutz"),
            ("a_bs", "3"),
            ("a_initiative", "3"),
            ("a_strength", "3"),
            ("a_toughness", "4"),
            ("a_wounds", "1"),
            ("b_ws", "2"),
            ("b_bs", "3"),
            ("b_attacks", "1"),
            ("b_initiative", "2"),
            ("b_strength", "3"),
            ("b_toughness", "4"),
            ("b_wounds", "2"),
        ],
        &[("second_weapon", "always")],
    ),
    (
        "gce",
        "multiple_combat",
        &[
            ("a_ws", "3"),
            ("a_bs", "3"),
            ("a_attacks", "1"),
            ("a_initiative", "3"),
            ("a_strength", "3"),
            ("a_toughness", "3"),
            ("a_wounds", "1"),
            ("b_ws", "3"),
            ("b_bs", "3"),
            ("b_attacks", "1"),
            ("b_initiative", "3"),
            ("b_strength", "3"),
            ("b_toughness", "3"),
            ("b_wounds", "2"),
            ("b_weapons", "choppa"),
            ("b_higher_up_first_round", "true"),
            ("attackers", "3"),
            ("attackers_charged", "true"),
        ],
        &[("multiple_first_round", "first_attacker")],
    ),
    (
        "gce",
        "multiple_combat",
        &[
            ("a_ws", "3"),
            ("a_bs", "3"),
            ("a_attacks", "1"),
            ("a_initiative", "3"),
            ("a_strength", "3"),
            ("a_toughness", "3"),
            ("a_wounds", "1"),
            ("a_causes", "fear"),
            ("b_ws", "3"),
            ("b_bs", "3"),
            ("b_attacks", "1"),
            ("b_initiative", "3"),
            ("b_strength", "3"),
            ("b_toughness", "3"),
            ("b_wounds", "2"),
            ("b_leadership", "8"),
            ("b_weapons", "choppa"),
            ("attackers", "3"),
            ("attackers_charged", "true"),
        ],
        &[("multiple_fear_tests", "once")],
    ),
    (
        "gce",
        "boarding",
        &[
            ("vehicle", "ork_trukk"),
            ("stationary", "true"),
            ("boarders", "2"),
            ("crew", "1"),
            ("boarder_ws", "3"),
            ("boarder_bs", "3"),
            ("boarder_attacks", "1"),
            ("boarder_initiative", "3"),
            ("boarder_strength", "3"),
            ("boarder_toughness", "3"),
            ("boarder_wounds", "1"),
            ("defender_ws", "2"),
            ("defender_bs", "3"),
            ("defender_attacks", "1"),
            ("defender_initiative", "2"),
            ("defender_strength", "3"),
            ("defender_toughness", "3"),
            ("defender_wounds", "1"),
        ],
        &[("stationary_hits", "ws")],
    ),
    (
        "gce",
        "boarding",
        &[
            ("vehicle", "ork_trukk"),
            ("boarders", "2"),
            ("crew", "2"),
            ("boarder_ws", "3"),
            ("boarder_bs", "3"),
            ("boarder_attacks", "1"),
            ("boarder_initiative", "3"),
            ("boarder_strength", "3"),
            ("boarder_toughness", "3"),
            ("boarder_wounds", "1"),
            ("defender_ws", "3"),
            ("defender_bs", "3"),
            ("defender_attacks", "1"),
            ("defender_initiative", "3"),
            ("defender_strength", "3"),
            ("defender_toughness", "3"),
            ("defender_wounds", "1"),
        ],
        &[("boarding_loser", "down_or_out")],
    ),
    (
        "crisis",
        "fight",
        &[
            ("skill", "2"),
            ("kind", "area"),
            ("damage", "3"),
            ("target_health", "4"),
            ("target_athletics", "3"),
        ],
        &[("dodge_damage", "none")],
    ),
    (
        "krygothic",
        "close_combat",
        &[
            ("attacker", "average_joe"),
            ("defender", "average_joe"),
            ("defender_ranged_weapon", "true"),
            ("attack", "punch"),
            ("defence", "deflect"),
        ],
        &[("deflect_break", "example")],
    ),
    (
        "krygothic",
        "close_combat_fight",
        &[
            ("attacker", "average_joe"),
            ("defender", "average_joe"),
            ("defender_ranged_weapon", "true"),
            ("attack", "punch"),
            ("defence", "deflect"),
            ("attacker_ap", "4"),
            ("defender_ap", "3"),
        ],
        &[("deflect_break", "example")],
    ),
    (
        "krygothic",
        "fear",
        &[("will", "5"), ("cause", "pure_horror")],
        &[("horror_move", "halved")],
    ),
    (
        "krygothic",
        "close_combat",
        &[
            ("attacker", "average_joe"),
            ("attacker_cc", "3"),
            ("defender", "average_joe"),
            ("defender_cc", "3"),
            ("defender_speed", "2"),
            ("attack", "punch"),
            ("defence", "counter_attack"),
        ],
        &[("counter_roll", "dodge")],
    ),
    (
        "krygothic",
        "close_combat_fight",
        &[
            ("attacker", "average_joe"),
            ("attacker_cc", "3"),
            ("defender", "average_joe"),
            ("defender_cc", "3"),
            ("defender_speed", "2"),
            ("attack", "punch"),
            ("defence", "counter_attack"),
            ("attacker_ap", "4"),
            ("defender_ap", "3"),
        ],
        &[("counter_roll", "dodge")],
    ),
    (
        "krygothic",
        "close_combat_game",
        &[
            ("attacker", "average_joe"),
            ("defender", "average_joe"),
            ("defender_speed", "1"),
        ],
        &[("counter_roll", "dodge")],
    ),
    (
        "krygothic",
        "pinning",
        &[("will", "4"), ("shooters", "3"), ("ap_budget", "4")],
        &[("pinning_hit", "example")],
    ),
    (
        "krygothic",
        "pinning_fire",
        &[
            ("weapon", "autocannon"),
            ("weapon_strength", "2"),
            ("weapon_suppressive", "true"),
            ("fire_mode", "suppressive"),
            ("firer", "average_joe"),
            ("target", "average_joe"),
            ("range", "10"),
            ("units", "3"),
        ],
        &[("pinning_hit", "example")],
    ),
    (
        "krygothic",
        "volley",
        &[
            ("attackers", "sup,joes"),
            ("sup.weapon", "autocannon"),
            ("sup.weapon_strength", "2"),
            ("sup.weapon_suppressive", "true"),
            ("sup.fire_mode", "suppressive"),
            ("sup.firer", "average_joe"),
            ("sup.range", "10"),
            ("joes.count", "2"),
            ("joes.firer", "average_joe"),
            ("joes.weapon", "pistol"),
            ("joes.range", "5"),
            ("target", "average_joe"),
            ("target_will", "5"),
        ],
        &[("pinning_hit", "example"), ("seven_plus", "additive")],
    ),
    (
        "krygothic",
        "turns_to_kill",
        &[
            ("attackers", "joes"),
            ("joes.count", "3"),
            ("joes.firer", "average_joe"),
            ("joes.weapon", "pistol"),
            ("joes.range", "5"),
            ("target", "average_joe"),
            ("target_armour", "2"),
            ("until", "pinned_or_out"),
            ("turns", "6"),
        ],
        &[("pinning_hit", "example"), ("wound_target", "strength")],
    ),
    (
        "skirmish20",
        "shooting",
        &[
            ("weapon", "grenade_launcher"),
            ("armour", "storm"),
            ("range", "20"),
            ("others_under_template", "2"),
            ("others_partly_under", "2"),
        ],
        &[("blast_roll", "once")],
    ),
    (
        "skirmish20",
        "squad_under_fire",
        &[
            ("shooters", "3"),
            ("weapon", "necron_destroyer_gun"),
            ("range", "20"),
            ("firer_ap", "4"),
            ("armour", "std"),
            ("troopers", "6"),
            ("hero", "true"),
            ("others_under_template", "2"),
            ("others_partly_under", "1"),
            ("turns", "2"),
        ],
        &[("blast_roll", "once")],
    ),
    (
        "skirmish20",
        "squad_under_fire",
        &[
            ("shooters", "3"),
            ("weapon", "grenade_launcher"),
            ("range", "20"),
            ("armour", "power"),
            ("troopers", "5"),
            ("necrons", "true"),
            ("others_under_template", "3"),
            ("turns", "3"),
        ],
        &[("blast_roll", "once")],
    ),
    (
        "skirmish20",
        "squad_under_fire",
        &[
            ("shooters", "3"),
            ("weapon", "laser_assault_rifle"),
            ("range", "20"),
            ("armour", "std"),
            ("troopers", "7"),
            ("hero", "true"),
            ("squad_strength", "10"),
            ("troopers_wounded", "2"),
            ("turns", "3"),
        ],
        &[("wound_allocation", "stack")],
    ),
    (
        "bfg",
        "solar_flare",
        &[("turns", "3"), ("flares", "3"), ("ordnance", "2")],
        &[("flare_once", "one_per_game")],
    ),
    (
        "bfg",
        "radiation_burst",
        &[("leadership", "8"), ("bursts", "3")],
        &[("burst_interference", "highest")],
    ),
    (
        "bfg",
        "gas_cloud",
        &[("leadership", "8"), ("ships", "4"), ("escort", "true")],
        &[("gas_check", "squadron")],
    ),
    (
        "bfg",
        "low_orbit",
        &[("weapon", "lances"), ("strength", "4")],
        &[("orbit_fire_roll", "each_weapon")],
    ),
    (
        "bfg",
        "battlezone",
        &[("areas", "4"), ("generator", "outer_reaches")],
        &[("rings_on", "four_or_more")],
    ),
];

struct Case {
    label: String,
    model: Box<dyn Model>,
}

/// Every (system, scenario) with the models to test.
fn cases() -> BTreeMap<(String, String), Vec<Case>> {
    let mut out: BTreeMap<(String, String), Vec<Case>> = BTreeMap::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let list = out.entry((r.name.into(), sc.name.into())).or_default();
            for (i, point) in sc.test_points.iter().enumerate() {
                let mut p = Params::new();
                for (k, v) in point.iter() {
                    p.set(*k, ParamValue::from_text(v));
                }
                let model = systems::build(r.name, sc.name, &p, &Params::new())
                    .unwrap_or_else(|e| panic!("{} {} point {i}: {e}", r.name, sc.name));
                list.push(Case {
                    label: format!("{} {} point {i}", r.name, sc.name),
                    model,
                });
            }
        }
    }
    // Each rule variant's other reading at one point, so the samplers are
    // held to the exact evaluator under it too.
    for (system, scenario, point, variants) in VARIANT_POINTS {
        let mut p = Params::new();
        for (k, v) in point.iter() {
            p.set(*k, ParamValue::from_text(v));
        }
        let mut v = Params::new();
        for (k, x) in variants.iter() {
            v.set(*k, ParamValue::from_text(x));
        }
        let model = systems::build(system, scenario, &p, &v)
            .unwrap_or_else(|e| panic!("{system} {scenario} {variants:?}: {e}"));
        out.entry((system.to_string(), scenario.to_string()))
            .or_default()
            .push(Case {
                label: format!("{system} {scenario} under {variants:?}"),
                model,
            });
    }
    let mut specs: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments"))
            .expect("experiments/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
    specs.sort();
    for path in specs {
        let mut exp = experiment::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let key = (exp.system.clone(), exp.scenario.clone());
        // every variant its models read is one its scenario declares (what
        // `krunch new` and `list` offer)
        let declared = systems::rule_set(&exp.system)
            .and_then(|r| r.scenario(&exp.scenario))
            .expect("registered")
            .variants;
        for name in &exp.variants_read {
            assert!(
                declared.contains(&name.as_str()),
                "{}: {}/{} reads the variant {name}, which it does not declare",
                path.display(),
                exp.system,
                exp.scenario
            );
        }
        let cells = exp.models.len();
        let picks: Vec<usize> = (0..CELLS_PER_SPEC.min(cells))
            .map(|i| i * (cells - 1) / (CELLS_PER_SPEC - 1).max(1))
            .collect();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (c, row) in std::mem::take(&mut exp.models).into_iter().enumerate() {
            if !picks.contains(&c) {
                continue;
            }
            for (p, model) in row.into_iter().enumerate() {
                out.entry(key.clone()).or_default().push(Case {
                    label: format!("{name} cell {c} profile {p}"),
                    model,
                });
            }
        }
    }
    out
}

#[test]
fn every_registered_scenario_conforms() {
    let all = cases();
    let mut comparisons = Vec::new();
    // cases with no exact value: only their two samplers are compared
    let mut skipped: Vec<String> = Vec::new();
    for ((system, scenario), list) in &all {
        let sc = systems::rule_set(system)
            .unwrap()
            .scenario(scenario)
            .unwrap();
        let catalogue = (sc.metrics)();
        // a spec's models also carry each family's "at least k"
        let derived = experiment::at_least::derived_decls(&catalogue);
        assert!(!list.is_empty(), "{system} {scenario}: nothing to test");
        let mut reported = std::collections::BTreeSet::new();
        for (k, case) in list.iter().enumerate() {
            let model = case.model.as_ref();
            for m in model.metrics() {
                let decl = catalogue
                    .iter()
                    .chain(&derived)
                    .find(|d| d.id == m.declared_as)
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: {} is not declared by {system} {scenario}",
                            case.label, m.name
                        )
                    });
                assert!(
                    decl.matches(&m.name),
                    "{}: {} vs {}",
                    case.label,
                    m.name,
                    decl.id
                );
                assert_eq!(decl.kind, m.kind, "{}: {}", case.label, m.name);
                reported.insert(decl.id);
            }
            // the engine's sampler against the reference sampler (the rule
            // on real dice, trial by trial), on other streams
            let tally = simulate(model, 7_000 + k as u64, TRIALS, &|_| {});
            let reference = simulate_reference(model, 9_000 + k as u64, TRIALS);
            let exact = match model.exact_or_why() {
                Ok(exact) => exact,
                Err(why) => {
                    for (metric, p) in two_sample_p_values(model, &tally, &reference) {
                        comparisons
                            .push((format!("{}: fast vs reference: {metric}", case.label), p));
                    }
                    skipped.push(format!("{}: {why}", case.label));
                    continue;
                }
            };
            assert_eq!(exact.len(), model.metrics().len());
            // probabilities in [0, 1]; distributions sum to 1
            // a family is a distribution when it starts at k = 0 or ends in
            // a `>{k}` tail (`scatter=1..5` is only part of one)
            let mut sums: BTreeMap<String, f64> = BTreeMap::new();
            let mut whole: std::collections::BTreeSet<String> = Default::default();
            for (m, v) in model.metrics().iter().zip(&exact) {
                // a yes/no answer is 0 or 1 (up to the rounding of the
                // exact evaluator's sum over paths), never in between
                assert!(
                    !m.yes_no || v.abs() < 1e-12 || (v - 1.0).abs() < 1e-12,
                    "{}: yes/no {} = {v}",
                    case.label,
                    m.name
                );
                assert!(
                    v.is_finite() && *v >= -1e-12,
                    "{}: {} = {v}",
                    case.label,
                    m.name
                );
                if m.kind == MetricKind::Probability {
                    assert!(*v <= 1.0 + 1e-9, "{}: {} = {v}", case.label, m.name);
                }
                if m.declared_as.contains(">={k}") {
                    // a running sum, not a distribution
                    continue;
                }
                if let Some(head) = m.declared_as.split_once("={k}").map(|(h, _)| h) {
                    *sums.entry(head.to_string()).or_default() += v;
                    if m.name == format!("{head}=0") {
                        whole.insert(head.to_string());
                    }
                }
                if let Some(head) = m.declared_as.split_once(">{k}").map(|(h, _)| h) {
                    *sums.entry(head.to_string()).or_default() += v;
                    whole.insert(head.to_string());
                }
            }
            for (head, total) in sums.into_iter().filter(|(h, _)| whole.contains(h)) {
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "{}: {head}=k sums to {total}",
                    case.label
                );
            }
            for (metric, p) in metric_p_values(model, &tally, &exact) {
                comparisons.push((format!("{}: {metric}", case.label), p));
            }
            for (metric, p) in metric_p_values(model, &reference, &exact) {
                comparisons.push((format!("{}: reference: {metric}", case.label), p));
            }
        }
        for d in &catalogue {
            if !d.is_family() {
                assert!(
                    reported.contains(d.id),
                    "{system} {scenario}: no test point reports {} (add one to its test_points)",
                    d.id
                );
            }
        }
    }
    let threshold = FAMILY_ALPHA / comparisons.len() as f64;
    let worst = comparisons
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("comparisons");
    eprintln!(
        "{} comparisons over {} scenarios; smallest p = {:.2e} ({}), threshold {:.2e}",
        comparisons.len(),
        all.len(),
        worst.1,
        worst.0,
        threshold
    );
    report_skipped(&skipped);
    let failed: Vec<_> = comparisons.iter().filter(|(_, p)| *p < threshold).collect();
    assert!(
        failed.is_empty(),
        "Monte Carlo disagrees with exact: {failed:?}"
    );
}

/// The checks skipped for cases with no exact value (the exact values in
/// range, distributions summing to 1, each sampler against the exact
/// value; the two samplers are still held to each other): printed, and
/// written to the skip log `make test` lists at the end, one line a case.
fn report_skipped(skipped: &[String]) {
    const WHAT: &str = "no exact value, so exact-range, sums-to-1 and Monte Carlo against exact skipped (engine sampler against reference only)";
    if skipped.is_empty() {
        eprintln!("every case has exact values: no check skipped");
    } else {
        eprintln!("{} cases without exact values ({WHAT}):", skipped.len());
    }
    for s in skipped {
        eprintln!("  {s}");
    }
    let Some(log) = std::env::var_os("KRUNCH_SKIP_LOG") else {
        return;
    };
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        use std::io::Write;
        for s in skipped {
            let _ = writeln!(
                f,
                "conformance::every_registered_scenario_conforms (in part): {s}: {WHAT}"
            );
        }
    }
}

/// `trials` trials of the model's reference sampler, chunk by chunk as the
/// runner keys its streams.
fn simulate_reference(model: &dyn Model, seed: u64, trials: u64) -> Tally {
    let mut tally = Tally::new(model.metrics().len());
    for c in 0..trials.div_ceil(CHUNK) {
        let n = CHUNK.min(trials - c * CHUNK);
        model.run_reference(&mut BatchedRoller::new(seed, &[c]), n, &mut tally);
    }
    tally
}

/// The sampler the engine picks for each scenario at its first test point,
/// pinned: a change of shape that drops a scenario back to the reference
/// sampler (every metric recorded every trial) fails here, not only in the
/// benchmarks.
#[test]
fn the_engine_picks_the_sampler_the_design_names() {
    use krunch::engine::Sampler::*;
    let mut got = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let mut p = Params::new();
            for (k, v) in sc.test_points[0].iter() {
                p.set(*k, ParamValue::from_text(v));
            }
            let model = systems::build(r.name, sc.name, &p, &Params::new()).unwrap();
            got.push((r.name, sc.name, model.sampler()));
        }
    }
    // GCE shooting's full auto point (index 3, in range at 18"): shot tables
    let gce = RULE_SETS.iter().find(|r| r.name == "gce").unwrap();
    let shooting = gce.scenarios.iter().find(|s| s.name == "shooting").unwrap();
    let mut p = Params::new();
    for (k, v) in shooting.test_points[3].iter() {
        p.set(*k, ParamValue::from_text(v));
    }
    let full_auto = systems::build("gce", "shooting", &p, &Params::new()).unwrap();
    assert_eq!(
        full_auto.sampler(),
        Custom("shot tables (set-up, a burst's aims, each landing and the end a draw each)"),
        "full auto"
    );
    let want: &[(&str, &str, krunch::engine::Sampler)] = &[
        (
            "gce",
            "shooting",
            Custom("shot face tables (sixteen D6 a word)"),
        ),
        ("gce", "volley", StepLaws),
        ("gce", "turns_to_kill", WideRoundLaws),
        ("gce", "grenade", FaceTable),
        ("gce", "fire", WideRoundLaws),
        ("gce", "hand_to_hand", RoundLaws),
        ("gce", "multiple_combat", StepLaws),
        ("gce", "fall", FaceTable),
        ("gce", "jump", FaceTable),
        ("gce", "edge", FaceTable),
        ("gce", "bottle", StepLaws),
        ("gce", "terror", FaceTable),
        ("gce", "stupidity", FaceTable),
        ("gce", "vehicle_hits", FaceTable),
        ("gce", "vehicle_fire", WideRoundLaws),
        ("gce", "thrust", FaceTable),
        ("gce", "out_of_control", FaceTable),
        ("gce", "vehicle_hazard", FaceTable),
        ("gce", "ram", Custom("impact and damage face tables")),
        ("gce", "boarding", StepLaws),
        ("gce", "gate", WideRoundLaws),
        (
            "bfg",
            "ram",
            Custom("test face table, then both pools four D6 a look-up"),
        ),
        ("bfg", "boarding", RoundLaws),
        ("bfg", "hit_and_run", FaceTable),
        ("bfg", "disengage", FaceTable),
        ("bfg", "asteroid_field", FaceTable),
        ("bfg", "warp_rift", FaceTable),
        ("bfg", "solar_flare", FaceTable),
        ("bfg", "radiation_burst", FaceTable),
        ("bfg", "gas_cloud", StepLaws),
        ("bfg", "low_orbit", FaceTable),
        (
            "bfg",
            "battlezone",
            Custom(
                "step draws, branch-free (the generator, each area and the rings a 32-bit draw from the step's law; each part of the table counted on its own)",
            ),
        ),
        ("krygothic", "dice", FaceTable),
        (
            "krygothic",
            "ranged",
            Custom("attack face tables (an attack a word)"),
        ),
        (
            "krygothic",
            "close_combat",
            Custom("exchange face tables (each step's dice a face index)"),
        ),
        (
            "krygothic",
            "close_combat_game",
            Custom("mixes then exchange face tables (each step's dice a face index)"),
        ),
        (
            "krygothic",
            "close_combat_fight",
            Custom("exchange laws (the engine's walk over fight states)"),
        ),
        (
            "krygothic",
            "pinning",
            Custom("check runs (a check a 32-bit draw of its pass law)"),
        ),
        ("krygothic", "fear", FaceTable),
        ("krygothic", "action_points", FaceTable),
        (
            "krygothic",
            "order_combo",
            Custom("check runs (a check a 32-bit draw of its pass law)"),
        ),
        ("krygothic", "damaged_structure", FaceTable),
        (
            "krygothic",
            "pinning_fire",
            Custom("unit laws (a unit's fire and the test each half a word from its law)"),
        ),
        (
            "krygothic",
            "volley",
            Custom(
                "volley unit laws, branch-free (each attacker's units' fire and the test a 32-bit draw from its law on the target's wounds, an attacker after the target is out adding nothing)",
            ),
        ),
        (
            "krygothic",
            "turns_to_kill",
            Custom(
                "turn laws (a volley with its test and re-rolls a word, drawn from its law on the target's wounds and pinning)",
            ),
        ),
        (
            "skirmish20",
            "shooting",
            Custom("state face tables (a group of steps' dice drawn at once)"),
        ),
        ("skirmish20", "effect_of_hit", FaceTable),
        (
            "skirmish20",
            "vehicle_damage",
            Custom("state laws (a turn or step drawn from its law on the state, a word a draw)"),
        ),
        ("skirmish20", "quick_draw", FaceTable),
        (
            "skirmish20",
            "hit_allocation",
            Custom("state face tables (a group of steps' dice drawn at once)"),
        ),
        ("skirmish20", "necron_repair", FaceTable),
        (
            "skirmish20",
            "close_combat",
            Custom("state laws (a turn or step drawn from its law on the state, a word a draw)"),
        ),
        (
            "skirmish20",
            "squad_under_fire",
            Custom("state laws (a turn or step drawn from its law on the state, a word a draw)"),
        ),
        ("skirmish20", "volley", StepLaws),
        ("skirmish20", "turns_to_kill", WideRoundLaws),
        ("skirmish20", "overwatch", StepLaws),
        ("crisis", "check", FaceTable),
        ("crisis", "turn_order", FaceTable),
        ("crisis", "attack", FaceTable),
        ("crisis", "fight", WideRoundLaws),
        ("crisis", "damage", FaceTable),
        ("crisis", "scatter", FaceTable),
        (
            "crisis",
            "healing",
            Custom("blocks of days drawn at once (four a word) from face tables of each state"),
        ),
        ("crisis", "volley", StepLaws),
        ("crisis", "turns_to_kill", WideRoundLaws),
    ];
    // on a change, the whole list as it now stands, to read and paste
    let now: String = got
        .iter()
        .map(|(r, s, x)| format!("        (\"{r}\", \"{s}\", {x:?}),\n"))
        .collect();
    assert_eq!(
        got, want,
        "the engine's samplers changed; they now are:\n{now}"
    );
}

#[test]
fn every_scenario_of_the_registry_has_a_bundled_or_own_test_point() {
    let all = cases();
    for r in RULE_SETS {
        for sc in r.scenarios {
            assert!(
                all.contains_key(&(r.name.to_string(), sc.name.to_string())),
                "{} {}",
                r.name,
                sc.name
            );
        }
    }
}

/// Every rule variant changes something somewhere: some scenario reads it
/// at one of its test points (else `krunch new` and reports would never
/// offer it, and it would be a switch wired to nothing). And the reads are
/// the right ones where we know them: GCE shooting reads `overwatch` and
/// not the vehicle variants; and each scenario declares exactly what it
/// reads.
#[test]
fn every_rule_variant_is_read_by_a_scenario() {
    for r in krunch::systems::RULE_SETS {
        for v in r.variants {
            let readers: Vec<&str> = r
                .scenarios
                .iter()
                .filter(|sc| r.variants_found(sc).contains(&v.name))
                .map(|sc| sc.name)
                .collect();
            assert!(
                !readers.is_empty(),
                "{}: no scenario reads the variant {}",
                r.name,
                v.name
            );
        }
    }
    // Pinned: which variants each scenario reads at its test points. A
    // variant read only on a branch its test points stop reaching would
    // vanish from `krunch new`, `list` and the reports; this says so.
    let pinned: &[(&str, &str, &[&str])] = &[
        ("gce", "shooting", &["overwatch"]),
        ("gce", "volley", &["overwatch"]),
        ("gce", "turns_to_kill", &["overwatch"]),
        ("gce", "grenade", &["overwatch"]),
        ("gce", "vehicle_hits", &["overwatch"]),
        ("gce", "ram", &["large_rake"]),
        ("gce", "hand_to_hand", &["second_weapon"]),
        (
            "gce",
            "multiple_combat",
            &[
                "second_weapon",
                "multiple_first_round",
                "multiple_fear_tests",
            ],
        ),
        (
            "gce",
            "boarding",
            &[
                "boarding_bonus",
                "boarding_loser",
                "stationary_hits",
                "second_weapon",
            ],
        ),
        ("krygothic", "dice", &["seven_plus"]),
        (
            "krygothic",
            "ranged",
            &["seven_plus", "wound_target", "critical_pass"],
        ),
        (
            "krygothic",
            "close_combat",
            &[
                "seven_plus",
                "critical_pass",
                "deflect_break",
                "counter_roll",
            ],
        ),
        (
            "krygothic",
            "close_combat_game",
            &[
                "seven_plus",
                "critical_pass",
                "deflect_break",
                "counter_roll",
            ],
        ),
        (
            "krygothic",
            "close_combat_fight",
            &[
                "seven_plus",
                "critical_pass",
                "deflect_break",
                "counter_roll",
            ],
        ),
        ("krygothic", "pinning", &["seven_plus", "pinning_hit"]),
        ("krygothic", "fear", &["seven_plus", "horror_move"]),
        ("krygothic", "order_combo", &["seven_plus"]),
        (
            "krygothic",
            "pinning_fire",
            &["seven_plus", "wound_target", "critical_pass", "pinning_hit"],
        ),
        (
            "krygothic",
            "volley",
            &["seven_plus", "wound_target", "critical_pass", "pinning_hit"],
        ),
        (
            "krygothic",
            "turns_to_kill",
            &["seven_plus", "wound_target", "critical_pass", "pinning_hit"],
        ),
        ("crisis", "attack", &["dodge_damage"]),
        ("crisis", "fight", &["dodge_damage"]),
        ("crisis", "volley", &["dodge_damage"]),
        ("crisis", "turns_to_kill", &["dodge_damage"]),
        ("skirmish20", "shooting", &["no_minor_gun", "blast_roll"]),
        ("skirmish20", "vehicle_damage", &["no_minor_gun"]),
        ("skirmish20", "close_combat", &["no_minor_gun"]),
        ("skirmish20", "quick_draw", &["quick_draw_tie"]),
        (
            "skirmish20",
            "squad_under_fire",
            &["blast_roll", "wound_allocation"],
        ),
        ("skirmish20", "volley", &["blast_roll", "wound_allocation"]),
        (
            "skirmish20",
            "turns_to_kill",
            &["blast_roll", "wound_allocation"],
        ),
        ("bfg", "solar_flare", &["flare_once"]),
        ("bfg", "radiation_burst", &["burst_interference"]),
        ("bfg", "gas_cloud", &["gas_check"]),
        ("bfg", "low_orbit", &["orbit_fire_roll"]),
        ("bfg", "battlezone", &["rings_on"]),
    ];
    for r in krunch::systems::RULE_SETS {
        for sc in r.scenarios {
            let expected: &[&str] = pinned
                .iter()
                .find(|(sys, name, _)| *sys == r.name && *name == sc.name)
                .map_or(&[], |(_, _, v)| v);
            assert_eq!(
                r.variants_found(sc),
                expected,
                "{} {}: the rule variants it reads",
                r.name,
                sc.name
            );
            // its declaration (what `krunch new` and `list` offer) says so
            assert_eq!(
                sc.variants, expected,
                "{} {}: the rule variants it declares",
                r.name, sc.name
            );
        }
    }
}

#[test]
fn presets_set_only_declared_parameters_with_valid_values() {
    for r in RULE_SETS {
        for preset in r.presets {
            let users: Vec<_> = r
                .scenarios
                .iter()
                .flat_map(|sc| (sc.params)())
                .filter(|d| {
                    matches!(&d.kind, systems::ParamKind::Preset { catalogue, .. } if *catalogue == preset.catalogue)
                })
                .collect();
            assert!(
                !users.is_empty(),
                "{}: nobody uses {} presets",
                r.name,
                preset.catalogue
            );
            for (stat, value) in preset.sets {
                let checked = r.scenarios.iter().flat_map(|sc| (sc.params)()).any(|d| {
                    users.iter().any(|u| {
                        let systems::ParamKind::Preset { prefix, .. } = &u.kind else {
                            return false;
                        };
                        d.name == format!("{prefix}{stat}")
                            && d.check(&ParamValue::from_text(value)).is_ok()
                    })
                });
                assert!(checked, "{} preset {}: {stat}={value}", r.name, preset.name);
            }
        }
    }
}

#[test]
fn rules_reference_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/RULES.md");
    let want = krunch::report::reference_markdown();
    if std::env::var_os("KRUNCH_WRITE_RULES").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/RULES.md is stale: regenerate with `KRUNCH_WRITE_RULES=1 cargo test --release --test conformance rules_reference`"
    );
}

/// Cells whose exact evaluation would take minutes and gigabytes (measured
/// before the engine's budget: two 100-damage ships boarding, 167 s and 1.4
/// GB; full auto with 4 Sustained Fire dice, 109 s, is now exact by shot
/// laws, below) stop at the engine's work budget and say why, instead of running
/// for minutes or out of memory. A count, not a timing: the evaluation
/// reports `TooMuchWork`, whose budget is about a second of work.
#[test]
fn exact_cells_past_the_work_budget_are_skipped_with_their_reason() {
    use krunch::engine::{EXACT_WORK, NoExact};
    type Cell<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);
    let cells: &[Cell] = &[(
        "bfg",
        "boarding",
        &[
            ("attacker_starting_damage", "100"),
            ("defender_starting_damage", "100"),
            ("defender_turrets", "2"),
        ],
    )];
    for (system, scenario, point) in cells {
        let mut p = Params::new();
        for (k, v) in point.iter() {
            p.set(*k, ParamValue::from_text(v));
        }
        let model = systems::build(system, scenario, &p, &Params::new()).unwrap();
        let why = model.exact_or_why().expect_err("past the budget");
        assert_eq!(
            why,
            NoExact::TooMuchWork { limit: EXACT_WORK },
            "{system} {scenario}"
        );
        assert!(why.to_string().contains("Monte Carlo only"));
        assert!(model.exact().is_none());
    }
}

/// Full auto chained shot by shot (the shot laws): the cell that ran 109 s
/// through the whole-state chain, and every accepted maximum at once (six
/// Sustained Fire dice, 2D6 Damage on 20 Wounds, WS and BS 10, the firer's
/// explosion and the escape test), are exact and a law: each family sums
/// to 1. A count, not a timing: the evaluation stays inside the budget.
#[test]
fn full_auto_at_its_maxima_stays_exact() {
    type Cell<'a> = &'a [(&'a str, &'a str)];
    let cells: &[Cell] = &[
        &[
            ("weapon", "custom"),
            ("strength", "4"),
            ("save_mod", "0"),
            ("damage", "D6"),
            ("ammo", "auto"),
            ("sf_dice", "4"),
            ("fire_mode", "full_auto"),
            ("bs", "3"),
            ("range", "8"),
            ("long_range", "24"),
            ("toughness", "3"),
            ("wounds", "2"),
            ("save", "5"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        &[
            ("weapon", "custom"),
            ("strength", "10"),
            ("save_mod", "0"),
            ("damage", "2D6"),
            ("ammo", "auto"),
            ("sf_dice", "6"),
            ("fire_mode", "full_auto"),
            ("bs", "10"),
            ("range", "8"),
            ("long_range", "24"),
            ("toughness", "3"),
            ("wounds", "20"),
            ("save", "2"),
            ("target_ws", "10"),
            ("target_bs", "10"),
            ("firer_toughness", "3"),
            ("firer_save", "6"),
            ("friend_within_2in", "true"),
            ("target_initiative", "3"),
        ],
    ];
    for point in cells {
        let mut p = Params::new();
        for (k, v) in point.iter() {
            p.set(*k, ParamValue::from_text(v));
        }
        let model = systems::build("gce", "shooting", &p, &Params::new()).unwrap();
        let values = model.exact_or_why().expect("exact by shot laws");
        for family in ["hits=", "wounds="] {
            let total: f64 = model
                .metrics()
                .iter()
                .zip(&values)
                .filter(|(d, _)| d.name.starts_with(family))
                .map(|(_, v)| v)
                .sum();
            assert!((total - 1.0).abs() < 1e-9, "{family}: {total}");
        }
    }
}
