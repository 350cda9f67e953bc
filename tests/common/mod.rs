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

/// Two-sided p-value of every metric's difference between two Monte Carlo
/// tallies of the same model (a fast sampler against the reference): z on
/// the difference of the two sample means, each with its own variance.
/// Where both samples are constant the p-value is 1 if they agree, else 0.
pub fn two_sample_p_values(model: &dyn Model, a: &Tally, b: &Tally) -> Vec<(String, f64)> {
    let moments = |t: &Tally, m: usize| {
        let n = t.trials() as f64;
        let mean = t.sum(m) as f64 / n;
        let var = (t.sum_sq(m) as f64 / n - mean * mean).max(0.0) * n / (n - 1.0);
        (mean, var / n)
    };
    model
        .metrics()
        .iter()
        .enumerate()
        .map(|(m, def)| {
            let ((ma, va), (mb, vb)) = (moments(a, m), moments(b, m));
            let se = (va + vb).sqrt();
            let p = if se == 0.0 {
                if ma == mb { 1.0 } else { 0.0 }
            } else {
                stats::mean_p_value(ma - mb, se, 0.0)
            };
            (def.name.clone(), p)
        })
        .collect()
}
