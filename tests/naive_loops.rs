//! The naive per-die loops behind the benchmark ratios (each scenario's
//! `naive`, in its rule set's `naive.rs`) are held to each scenario's
//! exact value at its first test point, so a ratio is always against a
//! loop that plays the same rule.

use krunch::dice::stats;
use krunch::systems::{MetricKind, Params, RULE_SETS, build, naive};
use rand::SeedableRng;

/// Trials per loop: enough to see a rule mistake of a percent or so.
const TRIALS: u64 = 400_000;
/// Family-wise false-alarm rate over every loop (fixed seeds: a pass or a
/// fail is the same on every run).
const FAMILY_ALPHA: f64 = 1e-3;

#[test]
fn every_naive_loop_plays_its_scenarios_rule() {
    let scenarios: Vec<_> = RULE_SETS
        .iter()
        .flat_map(|r| r.scenarios.iter().map(move |sc| (r.name, sc)))
        .collect();
    let alpha = FAMILY_ALPHA / scenarios.len().max(1) as f64;
    let mut failures = Vec::new();
    for (seed, (system, sc)) in scenarios.iter().enumerate() {
        let l = sc.naive;
        let point = Params::from_pairs(sc.test_points.first().expect("a test point"));
        let model =
            build(system, sc.name, &point, &Params::new()).expect("the first test point builds");
        let at = model
            .metrics()
            .iter()
            .position(|m| m.name == l.metric)
            .unwrap_or_else(|| panic!("{system}/{} has no metric {}", sc.name, l.metric));
        let exact = model.exact().expect("the scenario has an exact value")[at];
        let mut rng = naive::Rng::seed_from_u64(0x6e61_6976_6500 + seed as u64);
        let sums = (l.run)(&mut rng, TRIALS);
        assert_eq!(
            sums.trials, TRIALS,
            "{system}/{} counts every trial",
            sc.name
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
                "{system}/{} {}: naive {mean:.6} against exact {exact:.6} (p = {p:.2e})",
                sc.name, l.metric
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "naive loops that do not play their rule:\n{}",
        failures.join("\n")
    );
}
