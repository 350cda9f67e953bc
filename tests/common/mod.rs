//! Helpers shared by the statistical test targets.
#![allow(dead_code)]

use krunch::dice::{Tally, stats};
use krunch::systems::{MetricKind, Model, ParamValue, Params};

/// A word parameter.
pub fn s(v: &str) -> ParamValue {
    ParamValue::Str(v.into())
}

/// A whole-number parameter.
pub fn i(v: i64) -> ParamValue {
    ParamValue::Int(v)
}

/// A flag parameter.
pub fn b(v: bool) -> ParamValue {
    ParamValue::Bool(v)
}

/// Parameters from pairs (later pairs override earlier ones).
pub fn params(pairs: &[(&str, ParamValue)]) -> Params {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, v.clone());
    }
    p
}

/// Two-sided p-value of every metric's Monte Carlo estimate against its
/// exact value: binomial for probabilities, z on the sample mean for means.
pub fn metric_p_values(model: &dyn Model, tally: &Tally, exact: &[f64]) -> Vec<(String, f64)> {
    let n = tally.trials();
    model
        .metrics()
        .iter()
        .enumerate()
        .map(|(m, def)| {
            let p = match def.kind {
                MetricKind::Probability => stats::binomial_p_value(tally.sum(m), n, exact[m]),
                MetricKind::Mean => {
                    let (mean, lo, hi) =
                        stats::mean_interval(tally.sum(m) as f64, tally.sum_sq(m) as f64, n, 0.95);
                    stats::mean_p_value(mean, (hi - lo) / (2.0 * stats::z_for(0.95)), exact[m])
                }
            };
            (def.name.clone(), p)
        })
        .collect()
}
