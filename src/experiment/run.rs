//! Runs an experiment: every (sweep cell, profile) model, Monte Carlo in
//! fixed-size chunks across rayon's threads, plus exact values.

use super::spec::Experiment;
use crate::dice::{BatchedRoller, Tally, stats};
use crate::systems::{MetricKind, ParamValue};
use rayon::prelude::*;

/// Trials per chunk. Each chunk has its own random stream keyed by its index,
/// so the answer does not depend on how chunks are spread over threads.
pub const CHUNK: u64 = 1 << 16;

/// One row of results: a metric for one profile at one sweep cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Profile name.
    pub profile: String,
    /// Index of the sweep cell (row-major over the axes).
    pub cell_index: usize,
    /// Sweep values, one per axis.
    pub cell: Vec<ParamValue>,
    /// Metric name.
    pub metric: String,
    /// Monte Carlo estimate.
    pub value: f64,
    /// Exact value, where the model has one.
    pub exact: Option<f64>,
    /// Interval low end.
    pub ci_low: f64,
    /// Interval high end.
    pub ci_high: f64,
    /// Trials behind the estimate.
    pub trials: u64,
    /// Rule variants in force, `name=value` joined by `;`.
    pub variants: String,
}

/// All results of a run, in cell, profile, metric order.
pub struct Results {
    /// The rows.
    pub rows: Vec<Row>,
}

/// Runs one model's Monte Carlo: chunk `c` always uses the stream keyed by
/// `c` under the seed. Profiles and cells share the streams (common random
/// numbers), which makes their differences less noisy.
pub fn simulate(
    model: &dyn crate::systems::Model,
    seed: u64,
    trials: u64,
    on_chunk: &(dyn Fn(u64) + Sync),
) -> Tally {
    let chunks = trials.div_ceil(CHUNK);
    let metrics = model.metrics().len();
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let n = CHUNK.min(trials - c * CHUNK);
            let mut roller = BatchedRoller::new(seed, &[c]);
            let mut tally = Tally::new(metrics);
            model.run_chunk(&mut roller, n, &mut tally);
            on_chunk(n);
            tally
        })
        .reduce(
            || Tally::new(metrics),
            |mut a, b| {
                a += &b;
                a
            },
        )
}

/// Runs the whole experiment, calling `on_progress(trials_done)` as chunks finish.
pub fn run(exp: &Experiment, on_progress: &(dyn Fn(u64) + Sync)) -> Results {
    let mut rows = Vec::new();
    for (ci, models) in exp.models.iter().enumerate() {
        let cell = exp.cell_values(ci);
        for (pi, model) in models.iter().enumerate() {
            let mut variants = variants_text(&exp.profile_variants[pi]);
            for (k, v) in &exp.overrides {
                variants.push_str(&format!(";{k}={v}"));
            }
            let tally = simulate(model.as_ref(), exp.seed, exp.trials, on_progress);
            let exact = model.exact();
            for name in &exp.metrics {
                let Some(mi) = model.metrics().iter().position(|m| &m.name == name) else {
                    continue;
                };
                let n = tally.trials();
                let (value, lo, hi) = match model.metrics()[mi].kind {
                    MetricKind::Probability => {
                        let (lo, hi) = stats::wilson(tally.sum(mi), n, exp.confidence);
                        (tally.sum(mi) as f64 / n as f64, lo, hi)
                    }
                    MetricKind::Mean => stats::mean_interval(
                        tally.sum(mi) as f64,
                        tally.sum_sq(mi) as f64,
                        n,
                        exp.confidence,
                    ),
                };
                rows.push(Row {
                    profile: exp.profiles[pi].clone(),
                    cell_index: ci,
                    cell: cell.clone(),
                    metric: name.clone(),
                    value,
                    exact: exact.as_ref().map(|e| e[mi]),
                    ci_low: lo,
                    ci_high: hi,
                    trials: n,
                    variants: variants.clone(),
                });
            }
        }
    }
    Results { rows }
}

/// `name=value` pairs joined by `;`, the form outputs record variants in.
pub fn variants_text(variants: &[(String, String)]) -> String {
    variants
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}
