//! The naive per-die loops behind the benchmark ratios (`benches/naive/`)
//! are held to each scenario's exact value at the registry's first test
//! point, so a ratio is always against a loop that plays the same rule.

#[allow(dead_code)] // the bench uses what the test does not
#[path = "../benches/naive/mod.rs"]
mod naive;

use krunch::dice::stats;
use krunch::systems::{MetricKind, ParamValue, Params, RULE_SETS, build};
use rand::SeedableRng;

/// Trials per loop: enough to see a rule mistake of a percent or so.
const TRIALS: u64 = 400_000;
/// Family-wise false-alarm rate over every loop (fixed seeds: a pass or a
/// fail is the same on every run).
const FAMILY_ALPHA: f64 = 1e-3;

fn first_point(system: &str, scenario: &str) -> Params {
    let sc = RULE_SETS
        .iter()
        .find(|r| r.name == system)
        .and_then(|r| r.scenarios.iter().find(|s| s.name == scenario))
        .unwrap_or_else(|| panic!("{system}/{scenario} is registered"));
    let mut p = Params::new();
    for (k, v) in sc.test_points.first().expect("a test point").iter() {
        p.set(*k, ParamValue::from_text(v));
    }
    p
}

#[test]
fn every_naive_loop_plays_its_scenarios_rule() {
    let loops: Vec<_> = naive::all().collect();
    let alpha = FAMILY_ALPHA / loops.len().max(1) as f64;
    let mut failures = Vec::new();
    for (seed, l) in loops.iter().enumerate() {
        let model = build(
            l.system,
            l.scenario,
            &first_point(l.system, l.scenario),
            &Params::new(),
        )
        .expect("the first test point builds");
        let at = model
            .metrics()
            .iter()
            .position(|m| m.name == l.metric)
            .unwrap_or_else(|| panic!("{}/{} has no metric {}", l.system, l.scenario, l.metric));
        let exact = model.exact().expect("the scenario has an exact value")[at];
        let mut rng = naive::Rng::seed_from_u64(0x6e61_6976_6500 + seed as u64);
        let sums = (l.run)(&mut rng, TRIALS);
        assert_eq!(
            sums.trials, TRIALS,
            "{}/{} counts every trial",
            l.system, l.scenario
        );
        let mean = sums.sum as f64 / TRIALS as f64;
        let p = match model.metrics()[at].kind {
            MetricKind::Probability => stats::binomial_p_value(sums.sum, TRIALS, exact),
            MetricKind::Mean => {
                let var = (sums.sum_sq as f64 / TRIALS as f64 - mean * mean).max(0.0);
                let se = (var / TRIALS as f64).sqrt();
                stats::mean_p_value(mean, se, exact)
            }
        };
        if p < alpha {
            failures.push(format!(
                "{}/{} {}: naive {mean:.6} against exact {exact:.6} (p = {p:.2e})",
                l.system, l.scenario, l.metric
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "naive loops that do not play their rule:\n{}",
        failures.join("\n")
    );
}

/// Every registered scenario has test points (the conformance suite runs
/// them) and a naive loop (the benchmark's "1x"), so a new scenario cannot
/// land without either.
#[test]
fn every_registered_scenario_has_test_points_and_a_naive_loop() {
    let mut lacking = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            if sc.test_points.is_empty() {
                lacking.push(format!("{}/{}: no test points", r.name, sc.name));
            }
            if naive::find(r.name, sc.name).is_none() {
                lacking.push(format!(
                    "{}/{}: no naive loop in benches/naive/{}.rs",
                    r.name, sc.name, r.name
                ));
            }
        }
    }
    assert!(lacking.is_empty(), "{}", lacking.join("\n"));
}
