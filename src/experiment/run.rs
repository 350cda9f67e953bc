//! Runs an experiment: every (sweep cell, profile) model, Monte Carlo in
//! fixed-size chunks across rayon's threads, plus exact values.

use super::spec::Experiment;
use crate::dice::{BatchedRoller, Tally, stats};
use crate::engine::NoExact;
use crate::systems::{MetricKind, Model, ParamValue};
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
    /// The models with no exact value and why: (cell index, profile, the
    /// reason), for the reports to say.
    pub no_exact: Vec<(usize, String, String)>,
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
    simulate_share(model, seed, trials, Shard::WHOLE, on_chunk)
}

/// One share of a run split over machines: shard `index` (from 1) of
/// `count` runs the chunks `c` with `c % count == index - 1` of every
/// model, so the shares cover each chunk once and their integer tallies
/// add up to the whole run's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1.
    pub index: u64,
    /// Of how many.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether chunk `c` is this shard's.
    pub fn owns(self, c: u64) -> bool {
        c % self.count == self.index - 1
    }

    /// The chunks of a `trials`-trial run that are this shard's.
    pub fn chunks(self, trials: u64) -> impl Iterator<Item = u64> {
        (0..trials.div_ceil(CHUNK)).filter(move |&c| self.owns(c))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// [`simulate`] over `shard`'s chunks only.
pub fn simulate_share(
    model: &dyn crate::systems::Model,
    seed: u64,
    trials: u64,
    shard: Shard,
    on_chunk: &(dyn Fn(u64) + Sync),
) -> Tally {
    let metrics = model.metrics().len();
    model.plan(trials);
    let chunks: Vec<u64> = shard.chunks(trials).collect();
    chunks
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

/// The Monte Carlo tallies of `shard`'s chunks of every model:
/// `tallies[cell][profile]`. Every (model, chunk) pair is one job on
/// rayon's pool, so both cores stay busy across cells and profiles, not
/// only within one model; each thread folds its chunks into one tally per
/// model, so memory does not grow with the trials. Integer sums add up the
/// same in any order: the tallies are identical for any thread count.
pub fn tally_share(
    exp: &Experiment,
    shard: Shard,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Vec<Vec<Tally>> {
    let models: Vec<&dyn Model> = exp.models.iter().flatten().map(|m| m.as_ref()).collect();
    for m in &models {
        m.plan(exp.trials);
    }
    let chunks: Vec<u64> = shard.chunks(exp.trials).collect();
    let jobs: Vec<(usize, u64)> = (0..models.len())
        .flat_map(|m| chunks.iter().map(move |&c| (m, c)))
        .collect();
    let empty = || -> Vec<Tally> {
        models
            .iter()
            .map(|m| Tally::new(m.metrics().len()))
            .collect()
    };
    let mut flat = jobs
        .into_par_iter()
        .fold(empty, |mut acc, (m, c)| {
            let n = CHUNK.min(exp.trials - c * CHUNK);
            let mut roller = BatchedRoller::new(exp.seed, &[c]);
            models[m].run_chunk(&mut roller, n, &mut acc[m]);
            on_progress(n);
            acc
        })
        .reduce(empty, |mut a, b| {
            for (x, y) in a.iter_mut().zip(&b) {
                *x += y;
            }
            a
        })
        .into_iter();
    exp.models
        .iter()
        .map(|row| flat.by_ref().take(row.len()).collect())
        .collect()
}

/// The exact values of every model (`None` where it has none), evaluated
/// side by side on rayon's pool: `exact[cell][profile]`.
pub fn exact_table(exp: &Experiment) -> Vec<Vec<Result<Vec<f64>, NoExact>>> {
    exp.models
        .par_iter()
        .map(|row| {
            row.par_iter()
                .map(|m| super::exact_or_why(m.as_ref()))
                .collect()
        })
        .collect()
}

/// Runs the whole experiment, calling `on_progress(trials_done)` as chunks
/// finish; the exact values are evaluated alongside the Monte Carlo.
pub fn run(exp: &Experiment, on_progress: &(dyn Fn(u64) + Sync)) -> Results {
    let (tallies, exact) = rayon::join(
        || tally_share(exp, Shard::WHOLE, on_progress),
        || exact_table(exp),
    );
    rows_from(exp, &tallies, &exact)
}

/// The results of the whole run from its tallies (`tallies[cell][profile]`,
/// every chunk counted once), with the exact values beside them.
pub fn results_from(exp: &Experiment, tallies: &[Vec<Tally>]) -> Results {
    rows_from(exp, tallies, &exact_table(exp))
}

fn rows_from(
    exp: &Experiment,
    tallies: &[Vec<Tally>],
    exact_values: &[Vec<Result<Vec<f64>, NoExact>>],
) -> Results {
    let mut rows = Vec::new();
    let mut no_exact = Vec::new();
    for (ci, models) in exp.models.iter().enumerate() {
        let cell = exp.cell_values(ci);
        for (pi, model) in models.iter().enumerate() {
            let mut variants = variants_text(&exp.profile_variants[pi]);
            for (k, v) in &exp.overrides {
                variants.push_str(&format!(";{k}={v}"));
            }
            let tally = &tallies[ci][pi];
            let exact = match &exact_values[ci][pi] {
                Ok(values) => Some(values),
                Err(why) => {
                    no_exact.push((ci, exp.profiles[pi].clone(), why.to_string()));
                    None
                }
            };
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
    Results { rows, no_exact }
}

/// `name=value` pairs joined by `;`, the form outputs record variants in.
pub fn variants_text(variants: &[(String, String)]) -> String {
    variants
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::testing::{fire, spec};

    /// The shards of a run cover each chunk exactly once, whatever the
    /// trials and the shard count (a last, short chunk included).
    #[test]
    fn shards_cover_every_chunk_once() {
        for trials in [1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK + 7] {
            let all: Vec<u64> = (0..trials.div_ceil(CHUNK)).collect();
            for count in 1..=4 {
                let mut seen: Vec<u64> = (1..=count)
                    .flat_map(|index| Shard { index, count }.chunks(trials))
                    .collect();
                seen.sort_unstable();
                assert_eq!(seen, all, "{trials} trials, {count} shards");
            }
        }
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
        let owned: Vec<u64> = Shard { index: 2, count: 3 }.chunks(7 * CHUNK).collect();
        assert_eq!(owned, [1, 4]);
    }

    /// The shares' tallies add up to the whole run's, sum for sum, and the
    /// trials are the run's whatever its last chunk holds.
    #[test]
    fn shares_add_up_to_the_whole_run() {
        let (_, exp) = spec("shares", &fire(3 * CHUNK + 5));
        let model = exp.models[0][0].as_ref();
        let whole = simulate(model, 11, exp.trials, &|_| {});
        assert_eq!(whole.trials(), 3 * CHUNK + 5);
        let mut sum = Tally::new(model.metrics().len());
        for index in 1..=3 {
            sum += &simulate_share(model, 11, exp.trials, Shard { index, count: 3 }, &|_| {});
        }
        assert_eq!(sum.trials(), whole.trials());
        for m in 0..model.metrics().len() {
            assert_eq!(sum.sum(m), whole.sum(m), "metric {m}");
            assert_eq!(sum.sum_sq(m), whole.sum_sq(m), "metric {m}");
        }
    }

    /// A run's rows: one per cell, profile and listed metric in that
    /// order, each the tally's mean with the model's exact value beside
    /// it; identical on one thread and two. Five helpers: the fire is out
    /// on the first turn, so P(out of action) is 0 exactly and estimated
    /// 0 in every trial, and the turns are 1.
    #[test]
    fn a_runs_rows_are_its_tallies_and_exact_values() {
        let (_, exp) = spec("rows", &fire(2 * CHUNK + 3));
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| run(&exp, &|_| {}))
        };
        let one = on(1);
        let two = on(2);
        assert_eq!(one.rows, two.rows);
        assert!(one.no_exact.is_empty());
        let rows = &one.rows;
        assert_eq!(rows.len(), 2 * exp.metrics.len());
        let tallies = tally_share(&exp, Shard::WHOLE, &|_| {});
        for (i, row) in rows.iter().enumerate() {
            let cell = i / exp.metrics.len();
            assert_eq!(row.cell_index, cell);
            assert_eq!(row.metric, exp.metrics[i % exp.metrics.len()]);
            assert_eq!(row.profile, "on fire");
            assert_eq!(row.trials, 2 * CHUNK + 3);
            let model = exp.models[cell][0].as_ref();
            let mi = model
                .metrics()
                .iter()
                .position(|m| m.name == row.metric)
                .unwrap();
            let t = &tallies[cell][0];
            assert_eq!(row.value, t.sum(mi) as f64 / t.trials() as f64);
            assert_eq!(row.exact, Some(model.exact().unwrap()[mi]));
            assert!(
                row.ci_low <= row.value && row.value <= row.ci_high,
                "{row:?}"
            );
        }
        let at = |cell: usize, metric: &str| {
            rows.iter()
                .find(|r| r.cell_index == cell && r.metric == metric)
                .unwrap()
        };
        assert_eq!(at(1, "p_out_of_action").value, 0.0);
        assert_eq!(at(1, "p_out_of_action").exact, Some(0.0));
        assert_eq!(at(1, "mean_turns").value, 1.0);
        assert_eq!(at(0, "p_out_of_action").cell, [ParamValue::Int(0)]);
    }

    #[test]
    fn variants_read_as_name_value_pairs() {
        assert_eq!(variants_text(&[]), "");
        let v = [
            ("overwatch".to_string(), "original".to_string()),
            ("ap".to_string(), "6".to_string()),
        ];
        assert_eq!(variants_text(&v), "overwatch=original;ap=6");
    }
}
