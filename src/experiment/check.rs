//! `krunch check`: pinned expectations, re-run and tested.
//!
//! Exact values must match within 1e-9, or within the expectation's
//! `tolerance` when it states one. Monte Carlo values are tested for
//! "unchanged" (an exact binomial test for a probability, a z test with a
//! variance bound that holds at zero sample variance for a mean: see
//! [`super::significance`]) at a level of `family_alpha / m` for
//! the `m` Monte Carlo checks of a run (Bonferroni), so the chance that any
//! check of an unchanged rule fails is at most `family_alpha`. A check with
//! a tolerance gets enough trials to catch a change of that size with 90%
//! power; baselines written by `--update` carry their own standard error,
//! which the test includes.

use super::quantiles::{Quantile, QuantileOf, Tails, quantile_p};
use super::run::simulate;
use super::significance;
use super::spec::{Expected, Experiment};
use crate::dice::stats;
use crate::limits::LimitError;
use crate::systems::MetricKind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Exact values must agree this closely.
pub const EXACT_TOLERANCE: f64 = 1e-9;
/// Power to detect a change of `tolerance`.
pub const POWER: f64 = 0.9;
/// Most trials a check raises a model to.
pub const MAX_TRIALS: u64 = 4_000_000_000;

/// The result of one expectation.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What was expected.
    pub expected: Expected,
    /// Profile name.
    pub profile: String,
    /// `axis=value` pairs of the cell.
    pub cell: String,
    /// The value now.
    pub got: f64,
    /// Whether `got` is exact.
    pub exact: bool,
    /// Interval of `got` (a point when exact).
    pub interval: (f64, f64),
    /// p-value of "unchanged" (Monte Carlo only).
    pub p_value: Option<f64>,
    /// The level it was tested at (Monte Carlo only).
    pub level: Option<f64>,
    /// Whether the expectation holds.
    pub passed: bool,
    /// Trials run.
    pub trials: u64,
    /// A note (trials raised, tolerance out of reach ...).
    pub note: Option<String>,
    /// `got` as words where a number would mislead: a quantile beyond
    /// the values its family lists ("more than 6").
    pub got_text: Option<String>,
}

/// A model's Monte Carlo tally and its exact values, if used.
type RunResult = (crate::dice::Tally, Option<Vec<f64>>);

/// Options of a check run.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    /// Family-wise false-alarm rate over all Monte Carlo checks.
    pub family_alpha: f64,
    /// Ignore exact values (tests the statistical path).
    pub monte_carlo_only: bool,
    /// Overrides the spec's seed.
    pub seed: Option<u64>,
}

fn cell_text(exp: &Experiment, cell: usize) -> String {
    exp.axes
        .iter()
        .zip(exp.cell_values(cell))
        .map(|(a, v)| format!("{}={v}", a.name))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks `expectations` against `exp`. `mc_checks` is the number of
/// Monte Carlo checks across the whole run (for the Bonferroni level).
pub fn check(
    exp: &Experiment,
    expectations: &[Expected],
    mc_checks: usize,
    options: CheckOptions,
) -> Vec<Outcome> {
    let level = options.family_alpha / mc_checks.max(1) as f64;
    let z_crit = stats::z_for(1.0 - level);
    let z_power = stats::z_for(2.0 * POWER - 1.0);
    let seed = options.seed.unwrap_or(exp.seed);
    // First every model at the spec's trials; then models whose tolerance
    // cannot be resolved at that size are re-run with enough trials, sized
    // from the variance just observed.
    let run = |cell: usize, profile: usize, trials: u64| {
        let model = exp.models[cell][profile].as_ref();
        let tally = simulate(model, seed, trials, &|_| {});
        let exact = if options.monte_carlo_only {
            None
        } else {
            super::exact_values(model)
        };
        (tally, exact)
    };
    let mut results: BTreeMap<(usize, usize), RunResult> = BTreeMap::new();
    for e in expectations {
        results
            .entry((e.cell, e.profile))
            .or_insert_with(|| run(e.cell, e.profile, exp.trials));
    }
    let mut notes: Vec<Option<String>> = vec![None; expectations.len()];
    let mut raise: BTreeMap<(usize, usize), u64> = BTreeMap::new();
    let mut unresolvable = vec![false; expectations.len()];
    for (i, e) in expectations.iter().enumerate() {
        let (tally, exact) = &results[&(e.cell, e.profile)];
        let (Some(tol), None) = (e.tolerance, exact) else {
            continue;
        };
        let se_total = tol / (z_crit + z_power);
        let se_new_sq = se_total * se_total - e.std_error * e.std_error;
        if se_new_sq <= 0.0 {
            notes[i] = Some(format!(
                "the expectation's own error ({:.2e}) is too large to resolve a tolerance of {tol}",
                e.std_error
            ));
            continue;
        }
        let model = &exp.models[e.cell][e.profile];
        let mi = model
            .metrics()
            .iter()
            .position(|m| m.name == e.metric)
            .unwrap_or(0);
        let n = tally.trials() as f64;
        let mean = tally.sum(mi) as f64 / n;
        let var = (tally.sum_sq(mi) as f64 / n - mean * mean).max(1.0 / n);
        let needed = (var / se_new_sq).ceil() as u64;
        if needed > MAX_TRIALS {
            // not raised: it would run for days and still not resolve it
            notes[i] = Some(format!(
                "tolerance {tol} needs about {needed:.1e} trials to resolve, more than the {MAX_TRIALS:.0e} a check runs: widen it"
            ));
            unresolvable[i] = true;
            continue;
        }
        if needed > tally.trials() {
            let capped = needed.min(MAX_TRIALS);
            let slot = raise.entry((e.cell, e.profile)).or_insert(0);
            *slot = (*slot).max(capped);
            notes[i] = Some(if needed > MAX_TRIALS {
                format!("tolerance {tol} needs {needed} trials; capped at {MAX_TRIALS}")
            } else {
                format!("trials raised to {needed} to resolve tolerance {tol}")
            });
        }
    }
    for ((cell, profile), trials) in raise {
        results.insert((cell, profile), run(cell, profile, trials));
    }
    expectations
        .iter()
        .zip(notes)
        .zip(unresolvable)
        .map(|((e, note), unresolvable)| {
            let model = &exp.models[e.cell][e.profile];
            let (tally, exact) = &results[&(e.cell, e.profile)];
            if let Some(q) = QuantileOf::parse(&e.metric) {
                return quantile_outcome(e, &q, exp, tally, exact.as_deref(), level, note);
            }
            let mi = model
                .metrics()
                .iter()
                .position(|m| m.name == e.metric)
                .unwrap_or(0);
            let n = tally.trials();
            let base = Outcome {
                expected: e.clone(),
                profile: exp.profiles[e.profile].clone(),
                cell: cell_text(exp, e.cell),
                got: 0.0,
                exact: false,
                interval: (0.0, 0.0),
                p_value: None,
                level: None,
                passed: false,
                trials: n,
                note,
                got_text: None,
            };
            let (got, se, interval) = match model.metrics()[mi].kind {
                MetricKind::Probability => {
                    let p = tally.sum(mi) as f64 / n as f64;
                    let se = (p * (1.0 - p) / n as f64).sqrt();
                    (p, se, stats::wilson(tally.sum(mi), n, 1.0 - level))
                }
                MetricKind::Mean => {
                    let (m, lo, hi) = stats::mean_interval(
                        tally.sum(mi) as f64,
                        tally.sum_sq(mi) as f64,
                        n,
                        1.0 - level,
                    );
                    (m, (hi - lo) / (2.0 * z_crit), (lo, hi))
                }
            };
            // A baseline's error far beyond what this run's trials give
            // would let any value hold: it was edited or is stale.
            // (Checked also when the value is exact now.)
            let most = 10.0 * se + 1.0 / (n as f64).sqrt();
            if e.std_error > most {
                let (got, interval) = exact.as_ref().map_or((got, interval), |v| (v[mi], (v[mi], v[mi])));
                return Outcome {
                    got,
                    interval,
                    note: Some(format!(
                        "the expectation's standard error {:.3e} is more than this run's can be ({most:.3e}): re-run `krunch check --update`",
                        e.std_error
                    )),
                    ..base
                };
            }
            if let Some(x) = exact.as_ref().map(|v| v[mi]) {
                if e.std_error == 0.0 {
                    return Outcome {
                        got: x,
                        exact: true,
                        interval: (x, x),
                        // a stated tolerance widens the exact match too
                        passed: (x - e.value).abs()
                            <= e.tolerance.unwrap_or(0.0).max(EXACT_TOLERANCE),
                        ..base
                    };
                }
                // exact now, but the expectation itself was estimated
                let p = stats::mean_p_value(x, e.std_error, e.value);
                return Outcome {
                    got: x,
                    exact: true,
                    interval: (x, x),
                    p_value: Some(p),
                    level: Some(level),
                    passed: p >= level,
                    ..base
                };
            }
            // an exact binomial test for a probability, a variance bound
            // that holds with no variance seen for a mean: neither cries
            // wolf at an estimate of 0 or 1 or a rare event not seen
            let p = match model.metrics()[mi].kind {
                MetricKind::Probability => significance::probability_p(
                    tally.sum(mi),
                    n,
                    e.value,
                    e.std_error,
                    level,
                ),
                MetricKind::Mean => {
                    let nf = n.max(1) as f64;
                    let var = (tally.sum_sq(mi) as f64 / nf - got * got).max(0.0);
                    significance::mean_p(got, var, n, e.value, e.std_error)
                }
            };
            Outcome {
                got,
                interval,
                p_value: Some(p),
                level: Some(level),
                passed: p >= level && !unresolvable,
                ..base
            }
        })
        .collect()
}

/// The outcome of an expected quantile (`median(hits) = 2`, see
/// [`super::quantiles`]): exact where the tails are, else the two
/// one-sided binomial tests at `level`; its interval is every `k` the
/// Monte Carlo counts do not reject.
fn quantile_outcome(
    e: &Expected,
    q: &QuantileOf,
    exp: &Experiment,
    tally: &crate::dice::Tally,
    exact: Option<&[f64]>,
    level: f64,
    note: Option<String>,
) -> Outcome {
    let model = &exp.models[e.cell][e.profile];
    let n = tally.trials();
    let mut out = Outcome {
        expected: e.clone(),
        profile: exp.profiles[e.profile].clone(),
        cell: cell_text(exp, e.cell),
        got: f64::NAN,
        exact: false,
        interval: (f64::NAN, f64::NAN),
        p_value: None,
        level: None,
        passed: false,
        trials: n,
        note,
        got_text: None,
    };
    // the spec's loader made sure the family is there
    let Some(tails) = Tails::of(model.metrics(), &q.head) else {
        out.note = Some(format!("the model has no family '{}'", q.head));
        return out;
    };
    let k = e.value as i64;
    let counts: Vec<u64> = (0..model.metrics().len()).map(|i| tally.sum(i)).collect();
    let (got, shown) = match exact {
        Some(values) => (tails.quantile(values, q.q()), values.to_vec()),
        None => {
            let estimates: Vec<f64> = counts.iter().map(|&c| c as f64 / n.max(1) as f64).collect();
            (tails.quantile(&estimates, q.q()), estimates)
        }
    };
    out.got_text = Some(got.to_string());
    if let Quantile::At(g) = got {
        out.got = g as f64;
    }
    // what the quantile was read from: the tails at k and k + 1
    let tail_text = |k: i64| {
        let at = tails.at_least.iter().find(|&&(at, _)| at >= k);
        let value = match at {
            Some(&(_, i)) => shown[i],
            None => tails.beyond.map_or(0.0, |i| shown[i]),
        };
        format!("P({} ≥ {k}) = {value:.6}", q.head)
    };
    let tails_note = format!(
        "{}, {}; the {} is the most k with P(≥ k) ≥ {}",
        tail_text(k),
        tail_text(k + 1),
        q.describe(),
        f64::from(100 - q.percent) / 100.0
    );
    out.note = Some(match out.note.take() {
        Some(n) => format!("{n}; {tails_note}"),
        None => tails_note,
    });
    if exact.is_some() {
        out.exact = true;
        out.interval = (out.got, out.got);
        out.passed = got == Quantile::At(k);
        return out;
    }
    let p_of = |k: i64| {
        quantile_p(
            tails.count_at_least(&counts, k),
            tails.count_at_least(&counts, k + 1),
            n,
            q.q(),
        )
    };
    let p = p_of(k);
    let held: Vec<i64> = tails
        .ks()
        .into_iter()
        .filter(|&k| p_of(k) >= level)
        .collect();
    out.interval = match (held.first(), held.last()) {
        (Some(&lo), Some(&hi)) => (lo as f64, hi as f64),
        _ => (f64::NAN, f64::NAN),
    };
    out.p_value = Some(p);
    out.level = Some(level);
    out.passed = p >= level;
    out
}

/// Where `--update` keeps the baseline of a spec: `baselines/<name>.toml`
/// beside it.
pub fn baseline_path(spec: &Path, exp: &Experiment) -> PathBuf {
    spec.parent()
        .unwrap_or(Path::new("."))
        .join("baselines")
        .join(format!("{}.toml", exp.name))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBaseline {
    #[serde(default)]
    expect: Vec<toml::Spanned<RawBaselineEntry>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBaselineEntry {
    profile: String,
    #[serde(default)]
    cell: toml::Table,
    metric: String,
    value: f64,
    std_error: f64,
}

/// Reads a baseline written by
/// [`report::write_baseline`](crate::report::write_baseline), matching each entry to
/// the experiment. A metric, profile or cell the spec no longer has is an
/// error naming the line.
pub fn read_baseline(path: &Path, exp: &Experiment) -> Result<Vec<Expected>, super::SpecError> {
    let err = |line: usize, field: &str, message: String| super::SpecError {
        file: path.to_path_buf(),
        line,
        field: field.to_string(),
        message,
    };
    let text = crate::limits::read_text(path, crate::limits::MAX_BASELINE_BYTES)
        .map_err(|e| err(0, "file", e.to_string()))?;
    let line_of = |offset: usize| super::spec::line_of(&text, &(offset..offset));
    let raw: RawBaseline = toml::from_str(&text).map_err(|e| {
        err(
            e.span().map_or(0, |s| line_of(s.start)),
            &e.span()
                .map_or("toml".into(), |s| super::spec::field_at(&text, s.start)),
            e.message().trim().to_string(),
        )
    })?;
    let mut out = Vec::new();
    for entry in raw.expect {
        let line = line_of(entry.span().start);
        let e = entry.into_inner();
        let (profile, cell) = exp
            .locate_metric(Some(&e.profile), &e.cell, &e.metric)
            .map_err(|e| {
                err(
                    line,
                    &format!("expect.{}", e.field()),
                    format!(
                        "the baseline expects what the spec no longer has: {e}; re-run --update"
                    ),
                )
            })?;
        // A baseline is input like a spec: a value the metric cannot have,
        // or a standard error no run of the spec's trials can give (which
        // would let any value "hold"), is refused.
        let kind = exp.models[cell][profile]
            .metrics()
            .iter()
            .find(|m| m.name == e.metric)
            .map(|m| m.kind);
        super::spec::check_expected_value(&e.metric, kind, e.value)
            .map_err(|e| err(line, "expect.value", e.to_string()))?;
        let max_se = match kind {
            // a Wilson interval's half-width over z is at most 0.5 / sqrt(n)
            Some(MetricKind::Probability) => 0.5 / (exp.trials as f64).sqrt(),
            _ => f64::INFINITY,
        };
        if !(e.std_error.is_finite() && e.std_error >= 0.0 && e.std_error <= max_se) {
            return Err(err(
                line,
                "expect.std_error",
                format!(
                    "{} is impossible: a standard error is finite, at least 0{}; re-run `krunch check --update`",
                    e.std_error,
                    if max_se.is_finite() {
                        format!(
                            ", and at most {max_se:.3e} for a probability estimated from the spec's {} trials",
                            exp.trials
                        )
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        out.push(Expected {
            profile,
            cell,
            metric: e.metric,
            value: e.value,
            std_error: e.std_error,
            tolerance: None,
            source: format!("{}:{line}", path.display()),
        });
    }
    Ok(out)
}

/// Expands `[SPEC|DIR]...` into spec files: a folder gives its `*.toml`
/// files (not those in sub-folders such as `baselines/`), sorted.
pub fn spec_files(targets: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for t in targets {
        if t.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(t)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(t.clone());
        }
    }
    Ok(out)
}

/// An option of `krunch compare` given as `NAME=VALUE` that is not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not NAME=VALUE")]
pub struct AssignmentError(pub String);

/// Parses `NAME=VALUE`, the form of `--variant`.
pub fn parse_assignment(text: &str) -> Result<(String, String), AssignmentError> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
            Ok((k.trim().to_string(), v.trim().to_string()))
        }
        _ => Err(AssignmentError(text.to_string())),
    }
}

/// Why `krunch check` cannot start.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// An option outside its limits (`--alpha`).
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// A folder of specs could not be listed.
    #[error("listing specs")]
    List(#[source] std::io::Error),
    /// The targets hold no spec.
    #[error("no specs found (no .toml files) in {}", paths_text(.0))]
    NoSpecs(Vec<PathBuf>),
}

/// Paths listed for a message: `experiments/, extra.toml`.
fn paths_text(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The spec files `krunch check` reads: `targets` expanded by
/// [`spec_files`], `experiments/` when there are none. Checks the options
/// first.
pub fn files_to_check(
    targets: &[PathBuf],
    options: CheckOptions,
) -> Result<Vec<PathBuf>, CheckError> {
    crate::limits::check_alpha(options.family_alpha)?;
    let default = [PathBuf::from("experiments")];
    let targets = if targets.is_empty() {
        &default[..]
    } else {
        targets
    };
    let files = spec_files(targets).map_err(CheckError::List)?;
    if files.is_empty() {
        return Err(CheckError::NoSpecs(targets.to_vec()));
    }
    Ok(files)
}

/// One spec under check: the experiment, where its baseline lives and
/// everything it is expected to give.
pub struct Target {
    /// The spec file.
    pub file: PathBuf,
    /// The experiment (with `--seed` applied).
    pub exp: Experiment,
    /// Where `--update` keeps its baseline ([`baseline_path`]).
    pub baseline: PathBuf,
    /// The spec's `[[expect]]`, then the baseline's entries once
    /// [`read_baseline`](Self::read_baseline) has run.
    pub expected: Vec<Expected>,
}

impl Target {
    /// Loads the spec at `file`, with `seed` (from `--seed`) in place of its
    /// own when given.
    pub fn load(file: &Path, seed: Option<u64>) -> Result<Target, super::SpecError> {
        let mut exp = super::load(file)?;
        if let Some(seed) = seed {
            exp.seed = seed;
        }
        let baseline = baseline_path(file, &exp);
        let expected = exp.expectations.clone();
        Ok(Target {
            file: file.to_path_buf(),
            exp,
            baseline,
            expected,
        })
    }

    /// The folder of its baseline, when it exists.
    pub fn baseline_dir(&self) -> Option<&Path> {
        self.baseline.parent().filter(|d| d.is_dir())
    }

    /// The spec's own `[[expect]]` that fail today: while any do, a
    /// baseline would pin numbers the spec itself says are wrong, so
    /// `--update` refuses (unless `--force`).
    pub fn own_failures(&self, options: CheckOptions) -> Vec<Outcome> {
        let exp = &self.exp;
        check(exp, &exp.expectations, exp.expectations.len(), options)
            .into_iter()
            .filter(|o| !o.passed)
            .collect()
    }

    /// Adds the entries of its baseline, if it has one.
    pub fn read_baseline(&mut self) -> Result<(), super::SpecError> {
        if self.baseline.exists() {
            self.expected
                .extend(read_baseline(&self.baseline, &self.exp)?);
        }
        Ok(())
    }

    /// Whether the check of `e` is a Monte Carlo one (counted for the
    /// Bonferroni level).
    fn is_monte_carlo(&self, e: &Expected, options: CheckOptions) -> bool {
        options.monte_carlo_only
            || e.std_error > 0.0
            || self.exp.models[e.cell][e.profile].exact().is_none()
    }
}

/// Refuses, before anything runs, a Monte Carlo check of a probability
/// whose `tolerance` no check within [`MAX_TRIALS`] trials can resolve
/// with [`POWER`] (the trials needed follow from the pinned value's own
/// variance v(1-v)): raising the trials that far would run for days. A
/// mean's variance is known only once it has run; such a check is not
/// raised past [`MAX_TRIALS`] and fails with a note instead.
pub fn check_tolerances(targets: &[Target], options: CheckOptions) -> Result<(), super::SpecError> {
    let mc_checks: usize = targets
        .iter()
        .map(|t| {
            t.expected
                .iter()
                .filter(|e| t.is_monte_carlo(e, options))
                .count()
        })
        .sum();
    let level = options.family_alpha / mc_checks.max(1) as f64;
    let z = stats::z_for(1.0 - level) + stats::z_for(2.0 * POWER - 1.0);
    for t in targets {
        for e in &t.expected {
            let Some(tol) = e.tolerance else { continue };
            if !t.is_monte_carlo(e, options) {
                continue;
            }
            let kind = t.exp.models[e.cell][e.profile]
                .metrics()
                .iter()
                .find(|m| m.name == e.metric)
                .map(|m| m.kind);
            if kind != Some(MetricKind::Probability) {
                continue;
            }
            let se = tol / z;
            let se_new_sq = se * se - e.std_error * e.std_error;
            let v = e.value.clamp(0.0, 1.0);
            let var = (v * (1.0 - v)).max(1.0 / t.exp.trials as f64);
            let needed = var / se_new_sq;
            if se_new_sq > 0.0 && needed > MAX_TRIALS as f64 {
                let (file, line) = e
                    .source
                    .rsplit_once(':')
                    .map_or((e.source.as_str(), 0), |(f, l)| (f, l.parse().unwrap_or(0)));
                return Err(super::SpecError {
                    file: PathBuf::from(file),
                    line,
                    field: "expect.tolerance".into(),
                    message: format!(
                        "{tol} is finer than a Monte Carlo check can resolve: about {needed:.1e} trials would be needed for {} at {v}, more than the {MAX_TRIALS:.0e} a check runs; widen it to at least {:.1e}",
                        e.metric,
                        z * (var / MAX_TRIALS as f64).sqrt()
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Everything `krunch check` found.
pub struct Checked {
    /// Each expectation's outcome, with the spec file it came from.
    pub outcomes: Vec<(String, Outcome)>,
    /// Specs checked.
    pub specs: usize,
    /// Monte Carlo checks in the run: each was tested at
    /// `family_alpha / mc_checks`.
    pub mc_checks: usize,
    /// The family-wise false-alarm rate.
    pub family_alpha: f64,
}

impl Checked {
    /// How many expectations moved.
    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|(_, o)| !o.passed).count()
    }
}

/// Checks every target's expectations, each Monte Carlo check at the level
/// that keeps the family-wise false-alarm rate of the whole run at
/// `options.family_alpha`.
pub fn check_all(targets: &[Target], options: CheckOptions) -> Checked {
    // The Bonferroni level counts every Monte Carlo check of the run.
    let mc_checks: usize = targets
        .iter()
        .map(|t| {
            t.expected
                .iter()
                .filter(|e| t.is_monte_carlo(e, options))
                .count()
        })
        .sum();
    let mut outcomes = Vec::new();
    for t in targets {
        for o in check(&t.exp, &t.expected, mc_checks, options) {
            outcomes.push((t.file.display().to_string(), o));
        }
    }
    Checked {
        outcomes,
        specs: targets.len(),
        mc_checks,
        family_alpha: options.family_alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::testing::{fire, scratch, spec};

    const OPTIONS: CheckOptions = CheckOptions {
        family_alpha: 1e-3,
        monte_carlo_only: false,
        seed: None,
    };

    fn expect(cell: usize, metric: &str, value: f64) -> Expected {
        Expected {
            profile: 0,
            cell,
            metric: metric.into(),
            value,
            std_error: 0.0,
            tolerance: None,
            source: "test".into(),
        }
    }

    /// Five helpers (cell 1) put the fire out on the first turn: P(out of
    /// action) 0 and one turn, exactly. Exact values match within 1e-9, or
    /// within a stated tolerance; a Monte Carlo check (exact values
    /// ignored) of a value every trial gives holds, and a different one
    /// fails, even with no variance seen.
    #[test]
    fn exact_and_monte_carlo_checks_hold_the_value_and_catch_a_change() {
        let (_, exp) = spec("check", &fire(20_000));
        let cases = [
            expect(1, "p_out_of_action", 0.0),
            expect(1, "p_out_of_action", 1e-6),
            Expected {
                tolerance: Some(1e-5),
                ..expect(1, "p_out_of_action", 1e-6)
            },
            expect(1, "mean_turns", 1.0),
            expect(1, "mean_turns", 1.1),
        ];
        let out = check(&exp, &cases, 2, OPTIONS);
        let passed: Vec<bool> = out.iter().map(|o| o.passed).collect();
        assert_eq!(passed, [true, false, true, true, false]);
        assert!(out.iter().all(|o| o.exact && o.p_value.is_none()));
        assert_eq!(out[0].cell, "helpers=5");
        assert_eq!(out[0].profile, "on fire");
        let mc = CheckOptions {
            monte_carlo_only: true,
            ..OPTIONS
        };
        let out = check(
            &exp,
            &[cases[0].clone(), cases[3].clone(), cases[4].clone()],
            3,
            mc,
        );
        let passed: Vec<bool> = out.iter().map(|o| o.passed).collect();
        assert_eq!(passed, [true, true, false]);
        assert!(out.iter().all(|o| !o.exact && o.level == Some(1e-3 / 3.0)));
        assert_eq!(out[1].got, 1.0);
    }

    /// Quantiles pinned in `[[expect]]`, held to values by hand. Necron
    /// repair ("On a roll of "5,6" they stand back up"): of 4 destroyed,
    /// the number repaired is Binomial(4, 1/3), so P(at least k) for k = 0
    /// to 4 is 81/81, 65/81, 33/81, 9/81, 1/81. The median (the most k
    /// reached with probability 0.5 or more) is 1, the 90th percentile
    /// (0.1 or more) 3, the 99th (0.01) 4 and the 10th (0.9) 0. Exact and
    /// Monte Carlo alike hold these and refuse their neighbours.
    #[test]
    fn quantile_checks_hold_the_value_by_hand_and_catch_a_neighbour() {
        let (_, exp) = spec(
            "quantiles",
            "title = \"repair\"\nsystem = \"skirmish20\"\nscenario = \"necron_repair\"\ntrials = 400000\nseed = 3\n\n[base]\ndestroyed = 4\n\n[[profile]]\nname = \"four down\"\n",
        );
        let cases = [
            expect(0, "median(repaired)", 1.0),
            expect(0, "p90(repaired)", 3.0),
            expect(0, "p99(repaired)", 4.0),
            expect(0, "p10(repaired)", 0.0),
            expect(0, "median(repaired)", 2.0),
            expect(0, "median(repaired)", 0.0),
            expect(0, "p90(repaired)", 2.0),
            expect(0, "p99(repaired)", 3.0),
        ];
        let held = [true, true, true, true, false, false, false, false];
        let out = check(&exp, &cases, cases.len(), OPTIONS);
        let passed: Vec<bool> = out.iter().map(|o| o.passed).collect();
        assert_eq!(passed, held);
        assert!(out.iter().all(|o| o.exact && o.p_value.is_none()));
        let got: Vec<f64> = out.iter().map(|o| o.got).collect();
        assert_eq!(got, [1.0, 3.0, 4.0, 0.0, 1.0, 1.0, 3.0, 4.0]);
        let note = out[1].note.as_deref().unwrap();
        assert!(
            note.contains("P(repaired ≥ 3) = 0.111111, P(repaired ≥ 4) = 0.012346"),
            "{note}"
        );
        let mc = CheckOptions {
            monte_carlo_only: true,
            ..OPTIONS
        };
        let out = check(&exp, &cases, cases.len(), mc);
        let passed: Vec<bool> = out.iter().map(|o| o.passed).collect();
        assert_eq!(passed, held);
        assert!(out.iter().all(|o| !o.exact && o.p_value.is_some()));
        // the values the counts do not reject: only the true one
        assert_eq!(out[0].interval, (1.0, 1.0));
        assert_eq!(out[4].interval, (1.0, 1.0));
        assert_eq!(out[0].got_text.as_deref(), Some("1"));
    }

    /// No helpers (cell 0): the exact value holds under Monte Carlo at a
    /// fixed seed; 0.05 more is caught; a tolerance raises the trials
    /// until it can be resolved; a baseline error past what the run can
    /// have fails with a note.
    #[test]
    fn monte_carlo_checks_have_power_and_refuse_a_stale_error() {
        let (_, exp) = spec("check-mc", &fire(20_000));
        let exact = exp.models[0][0].exact().unwrap();
        let i = exp.models[0][0]
            .metrics()
            .iter()
            .position(|m| m.name == "p_out_of_action")
            .unwrap();
        let p = exact[i];
        let mc = CheckOptions {
            monte_carlo_only: true,
            ..OPTIONS
        };
        let cases = [
            expect(0, "p_out_of_action", p),
            expect(0, "p_out_of_action", p + 0.05),
            Expected {
                tolerance: Some(0.002),
                ..expect(0, "p_out_of_action", p)
            },
            Expected {
                std_error: 0.5,
                ..expect(0, "p_out_of_action", p)
            },
        ];
        // a raise applies to every check of its cell: the tolerance apart
        let out = check(
            &exp,
            &[cases[0].clone(), cases[1].clone(), cases[3].clone()],
            4,
            mc,
        );
        let passed: Vec<bool> = out.iter().map(|o| o.passed).collect();
        assert_eq!(passed, [true, false, false]);
        assert_eq!(out[0].trials, 20_000);
        let note = out[2].note.as_deref().unwrap();
        assert!(note.contains("re-run `krunch check --update`"), "{note}");
        let out = check(&exp, &cases[2..3], 4, mc);
        assert!(out[0].passed);
        assert!(out[0].trials > 20_000, "{:?}", out[0].note);
        let note = out[0].note.as_deref().unwrap();
        assert!(note.starts_with("trials raised to"), "{note}");
    }

    #[test]
    fn assignments_and_spec_folders() {
        assert_eq!(
            parse_assignment(" overwatch = original ").unwrap(),
            ("overwatch".to_string(), "original".to_string())
        );
        for bad in ["overwatch", "=x", "x=", " = "] {
            assert_eq!(parse_assignment(bad), Err(AssignmentError(bad.into())));
        }
        let dir = scratch("spec-files");
        for f in ["b.toml", "a.toml", "notes.txt", "baselines/c.toml"] {
            std::fs::create_dir_all(dir.join(f).parent().unwrap()).unwrap();
            std::fs::write(dir.join(f), "").unwrap();
        }
        let extra = dir.join("notes.txt");
        let found = spec_files(&[dir.clone(), extra.clone()]).unwrap();
        assert_eq!(found, [dir.join("a.toml"), dir.join("b.toml"), extra]);
        let e = files_to_check(&[dir.join("baselines/none")], OPTIONS);
        assert!(matches!(e, Ok(ref f) if f.len() == 1));
        let empty = scratch("no-specs");
        assert!(matches!(
            files_to_check(std::slice::from_ref(&empty), OPTIONS),
            Err(CheckError::NoSpecs(ref p)) if p == std::slice::from_ref(&empty)
        ));
        let bad = CheckOptions {
            family_alpha: 0.5,
            ..OPTIONS
        };
        assert!(matches!(
            files_to_check(&[dir], bad),
            Err(CheckError::Limit(LimitError::Alpha(_)))
        ));
    }
}
