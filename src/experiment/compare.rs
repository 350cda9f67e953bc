//! `krunch compare`: the effect of a rule change, trial by trial on common
//! random numbers, with its significance.

use super::check::AssignmentError;
use super::run::CHUNK;
use super::spec::{Experiment, SpecError};
use crate::dice::{BatchedRoller, stats};
use crate::limits::LimitError;
use crate::systems::{MetricKind, Model, ParamValue};
use rayon::prelude::*;
use std::path::PathBuf;

/// One metric at one sweep cell for one profile, before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Profile name.
    pub profile: String,
    /// Sweep cell index.
    pub cell_index: usize,
    /// Sweep values.
    pub cell: Vec<ParamValue>,
    /// Metric name.
    pub metric: String,
    /// Value before (exact where both sides have exact values, else the
    /// Monte Carlo estimate).
    pub before: f64,
    /// Value after.
    pub after: f64,
    /// `after - before`.
    pub diff: f64,
    /// `diff / before`, where `before` is not zero.
    pub relative: Option<f64>,
    /// Interval on the difference (a point when exact).
    pub ci_low: f64,
    /// See `ci_low`.
    pub ci_high: f64,
    /// Two-sided p-value of "no change" (`None` when exact).
    pub p_value: Option<f64>,
    /// Whether the change is significant at the chosen level (exact: any
    /// change beyond 1e-12).
    pub significant: bool,
    /// Whether both sides are exact.
    pub exact: bool,
    /// Paired trials behind the estimates.
    pub trials: u64,
}

/// Paired sums for one model pair.
#[derive(Clone, Debug, Default)]
struct PairTally {
    trials: u64,
    before: Vec<u64>,
    after: Vec<u64>,
    diff: Vec<i64>,
    diff_sq: Vec<u128>,
    /// before 0, after 1 (probabilities)
    up: Vec<u64>,
    /// before 1, after 0
    down: Vec<u64>,
}

impl PairTally {
    fn new(n: usize) -> Self {
        PairTally {
            trials: 0,
            before: vec![0; n],
            after: vec![0; n],
            diff: vec![0; n],
            diff_sq: vec![0; n],
            up: vec![0; n],
            down: vec![0; n],
        }
    }

    fn merge(mut self, other: PairTally) -> Self {
        self.trials += other.trials;
        for i in 0..self.before.len() {
            self.before[i] += other.before[i];
            self.after[i] += other.after[i];
            self.diff[i] += other.diff[i];
            self.diff_sq[i] += other.diff_sq[i];
            self.up[i] += other.up[i];
            self.down[i] += other.down[i];
        }
        self
    }
}

/// Why a comparison cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A spec is invalid.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An option outside its limits (`--alpha`, `--trials`).
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// A `--variant` that is not `NAME=VALUE`.
    #[error("--variant {0}")]
    Variant(AssignmentError),
    /// One spec and no `--variant`: nothing changes.
    #[error("{}: give --variant NAME=VALUE (the change to measure), or a second spec", .0.display())]
    NoChange(PathBuf),
    /// Two specs and a `--variant`.
    #[error("--variant goes with one spec; with two, the second spec is the change")]
    VariantWithTwoSpecs,
    /// Neither one spec nor two.
    #[error("compare takes one spec with --variant, or two specs")]
    SpecCount,
    /// The two sides sweep different axes or values.
    #[error(
        "the specs have different sweeps ({} sweeps {}; {} sweeps {}): compare needs the same axes and values",
        .before.display(), sweep_text(.before_axes), .after.display(), sweep_text(.after_axes)
    )]
    DifferentSweeps {
        /// The "before" spec.
        before: PathBuf,
        /// Its axes and their values.
        before_axes: Vec<(String, Vec<String>)>,
        /// The "after" spec.
        after: PathBuf,
        /// Its axes and their values.
        after_axes: Vec<(String, Vec<String>)>,
    },
    /// The two sides are different rule sets or scenarios: nothing in one
    /// is a change of the other.
    #[error(
        "{}: {what}: '{before_value}', but {}: {what}: '{after_value}': compare measures a change to one scenario, so both specs must be the same system and scenario",
        .before.display(), .after.display()
    )]
    DifferentScenarios {
        /// `system` or `scenario`.
        what: &'static str,
        /// The "before" spec.
        before: PathBuf,
        /// Its value.
        before_value: String,
        /// The "after" spec.
        after: PathBuf,
        /// Its value.
        after_value: String,
    },
    /// The two sides report different metrics.
    #[error(
        "{}: metrics: {}, but {}: metrics: {}: compare needs the same metrics on both sides",
        .before.display(), names_text(.before_metrics), .after.display(), names_text(.after_metrics)
    )]
    DifferentMetrics {
        /// The "before" spec.
        before: PathBuf,
        /// Its metrics.
        before_metrics: Vec<String>,
        /// The "after" spec.
        after: PathBuf,
        /// Its metrics.
        after_metrics: Vec<String>,
    },
    /// The two sides have different profiles.
    #[error(
        "the specs have different profiles ({} vs {}): compare matches them by name",
        names_text(.before), names_text(.after)
    )]
    DifferentProfiles {
        /// The "before" profiles.
        before: Vec<String>,
        /// The "after" profiles.
        after: Vec<String>,
    },
}

/// A sweep in words: `range = 2, 4, 6; cover = none, in`, or `nothing`.
fn sweep_text(axes: &[(String, Vec<String>)]) -> String {
    if axes.is_empty() {
        return "nothing".into();
    }
    axes.iter()
        .map(|(name, values)| format!("{name} = {}", values.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Profile names quoted and listed: `'Shoota', 'Slugga'`.
fn names_text(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks that the two experiments can be compared cell by cell.
pub fn comparable(before: &Experiment, after: &Experiment) -> Result<(), CompareError> {
    for (what, b, a) in [
        ("system", &before.system, &after.system),
        ("scenario", &before.scenario, &after.scenario),
    ] {
        if b != a {
            return Err(CompareError::DifferentScenarios {
                what,
                before: before.file.clone(),
                before_value: b.clone(),
                after: after.file.clone(),
                after_value: a.clone(),
            });
        }
    }
    let metrics = |e: &Experiment| {
        let mut m = e.metrics.clone();
        m.sort();
        m
    };
    // (one spec against itself under --variant may reach more or fewer
    // members of a metric family, `hits={k}`: only two specs must match)
    if before.file != after.file && metrics(before) != metrics(after) {
        return Err(CompareError::DifferentMetrics {
            before: before.file.clone(),
            before_metrics: before.metrics.clone(),
            after: after.file.clone(),
            after_metrics: after.metrics.clone(),
        });
    }
    let axes = |e: &Experiment| -> Vec<(String, Vec<String>)> {
        e.axes
            .iter()
            .map(|a| {
                (
                    a.name.clone(),
                    a.values.iter().map(ToString::to_string).collect(),
                )
            })
            .collect()
    };
    if axes(before) != axes(after) {
        return Err(CompareError::DifferentSweeps {
            before: before.file.clone(),
            before_axes: axes(before),
            after: after.file.clone(),
            after_axes: axes(after),
        });
    }
    if before.profiles != after.profiles {
        return Err(CompareError::DifferentProfiles {
            before: before.profiles.clone(),
            after: after.profiles.clone(),
        });
    }
    Ok(())
}

/// The two sides of a `krunch compare`, loaded and checked comparable.
pub struct Comparison {
    /// The rules as they are.
    pub before: Experiment,
    /// The rules changed.
    pub after: Experiment,
    /// The output folder's name: `<name>-compare` for one spec with
    /// `--variant`, `<before>-vs-<after>` for two specs.
    pub name: String,
    /// Both sides named by what changed.
    pub sides: Sides,
}

/// The two sides of a comparison named by what differs between them, so
/// no reader has to remember which of "before" and "after" is which rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    /// The change: `overwatch=current -> original`, or for two specs
    /// `a.toml -> b.toml` (with their differing variants after a colon).
    pub change: String,
    /// The rules as they are: `overwatch=current`, or `a.toml`.
    pub before: String,
    /// The rules changed: `overwatch=original`, or `b.toml`.
    pub after: String,
}

impl Sides {
    /// One spec against itself with command-line overrides: each rule
    /// variant named with its value on both sides, each stat override as
    /// `strength=4` against "strength as in the spec".
    pub fn of_overrides(before: &Experiment, after: &Experiment) -> Sides {
        let (mut was, mut is, mut change) = variant_differences(before, after);
        for (name, value) in after
            .overrides
            .iter()
            .filter(|o| !before.overrides.contains(o))
        {
            was.push(format!("{name} as in the spec"));
            is.push(format!("{name}={value}"));
            change.push(format!("{name}: as in the spec -> {value}"));
        }
        Sides {
            change: change.join(", "),
            before: was.join(", "),
            after: is.join(", "),
        }
    }

    /// Two specs: named by their files, and the variants that differ.
    pub fn of_specs(before: &Experiment, after: &Experiment) -> Sides {
        let file = |e: &Experiment| {
            e.file.file_name().map_or_else(
                || e.file.display().to_string(),
                |f| f.to_string_lossy().into(),
            )
        };
        let (mut was, mut is) = (file(before), file(after));
        if was == is {
            (was, is) = (
                before.file.display().to_string(),
                after.file.display().to_string(),
            );
        }
        let (_, _, differ) = variant_differences(before, after);
        let mut change = format!("{was} -> {is}");
        if !differ.is_empty() {
            change = format!("{change}: {}", differ.join(", "));
        }
        Sides {
            change,
            before: was,
            after: is,
        }
    }
}

/// The rule variants whose values differ between the sides: each side's
/// `name=value` and the change `name=old -> new`. Where profiles differ,
/// the change names the values that really change (`overwatch=current ->
/// original`) and the profiles it leaves alone; a variant the scenario
/// never reads is said to change nothing.
fn variant_differences(
    before: &Experiment,
    after: &Experiment,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let value_of = |e: &Experiment, p: usize, name: &str| -> String {
        e.profile_variants
            .get(p)
            .into_iter()
            .chain([&e.variants])
            .flatten()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let joined = |mut seen: Vec<String>| {
        seen.dedup();
        seen.join("/")
    };
    let (mut was, mut is, mut change) = (Vec::new(), Vec::new(), Vec::new());
    let profiles = before.profiles.len().max(1);
    for (name, _) in &before.variants {
        let pairs: Vec<(String, String)> = (0..profiles)
            .map(|p| (value_of(before, p, name), value_of(after, p, name)))
            .collect();
        let moved: Vec<&(String, String)> = pairs.iter().filter(|(o, n)| o != n).collect();
        if moved.is_empty() {
            continue;
        }
        let mut old: Vec<String> = moved.iter().map(|(o, _)| o.clone()).collect();
        let mut new: Vec<String> = moved.iter().map(|(_, n)| n.clone()).collect();
        old.sort();
        new.sort();
        let (old, new) = (joined(old), joined(new));
        was.push(format!("{name}={old}"));
        is.push(format!("{name}={new}"));
        let mut text = format!("{name}={old} -> {new}");
        let unchanged: Vec<String> = pairs
            .iter()
            .zip(&before.profiles)
            .filter(|((o, n), _)| o == n)
            .map(|(_, p)| format!("'{p}'"))
            .collect();
        if !unchanged.is_empty() {
            text = format!("{text} (already so in {})", unchanged.join(", "));
        }
        if !before.variants_read.contains(name) && !after.variants_read.contains(name) {
            text = format!(
                "{text} (the {} scenario never reads {name}: no result can change)",
                before.scenario
            );
        }
        change.push(text);
    }
    (was, is, change)
}

impl Comparison {
    /// Sets up a comparison: one spec with `--variant NAME=VALUE`s (the
    /// after side), or two specs; `trials` (from `--trials`) overrides
    /// both sides'. Options are checked before any spec is read.
    pub fn load(
        specs: &[PathBuf],
        variants: &[String],
        alpha: f64,
        trials: Option<u64>,
    ) -> Result<Comparison, CompareError> {
        crate::limits::check_alpha(alpha)?;
        let overrides = variants
            .iter()
            .map(|v| super::check::parse_assignment(v).map_err(CompareError::Variant))
            .collect::<Result<Vec<_>, _>>()?;
        let (mut before, mut after, name, sides) = match specs {
            [one] => {
                if overrides.is_empty() {
                    return Err(CompareError::NoChange(one.clone()));
                }
                let before = super::load(one)?;
                let after = super::load_with(one, &overrides)?;
                let name = format!("{}-compare", before.name);
                let mut sides = Sides::of_overrides(&before, &after);
                if sides.change.is_empty() {
                    // every --variant repeats what the spec already says
                    let asked = variants.join(", ");
                    sides = Sides {
                        change: format!("{asked} (as the spec already has it: no change)"),
                        before: "the spec".into(),
                        after: asked,
                    };
                }
                (before, after, name, sides)
            }
            [a, b] => {
                if !overrides.is_empty() {
                    return Err(CompareError::VariantWithTwoSpecs);
                }
                let before = super::load(a)?;
                let after = super::load(b)?;
                let name = format!("{}-vs-{}", before.name, after.name);
                let sides = Sides::of_specs(&before, &after);
                (before, after, name, sides)
            }
            _ => return Err(CompareError::SpecCount),
        };
        before.set_trials(trials)?;
        after.set_trials(trials)?;
        comparable(&before, &after)?;
        Ok(Comparison {
            before,
            after,
            name,
            sides,
        })
    }

    /// Trials the comparison runs in all (for a progress bar).
    pub fn total_trials(&self) -> u64 {
        let (before, after) = (&self.before, &self.after);
        before.trials.max(after.trials) * (before.models.len() * before.profiles.len()) as u64
    }

    /// Runs it: see [`compare`].
    pub fn run(
        &self,
        alpha: f64,
        monte_carlo_only: bool,
        on_progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Change>, CompareError> {
        compare(
            &self.before,
            &self.after,
            alpha,
            monte_carlo_only,
            on_progress,
        )
    }
}

/// Runs both experiments on the same dice, trial by trial: trial `t` of
/// chunk `c` draws from the stream keyed `(c, t)` on both sides, so where
/// the two rules roll the same dice they see the same results and the
/// difference carries far less noise than two independent runs.
/// With `monte_carlo_only`, exact values are ignored and every change is
/// judged by the paired test.
pub fn compare(
    before: &Experiment,
    after: &Experiment,
    alpha: f64,
    monte_carlo_only: bool,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Change>, CompareError> {
    comparable(before, after)?;
    let trials = before.trials.max(after.trials);
    let mut rows = Vec::new();
    for (ci, (row_a, row_b)) in before.models.iter().zip(&after.models).enumerate() {
        let cell = before.cell_values(ci);
        for (pi, (a, b)) in row_a.iter().zip(row_b).enumerate() {
            let shared: Vec<(String, MetricKind, usize, usize)> = before
                .metrics
                .iter()
                .filter(|m| after.metrics.contains(m))
                .filter_map(|m| {
                    let ia = a.metrics().iter().position(|d| &d.name == m)?;
                    let ib = b.metrics().iter().position(|d| &d.name == m)?;
                    Some((m.clone(), a.metrics()[ia].kind, ia, ib))
                })
                .collect();
            let tally = paired(
                a.as_ref(),
                b.as_ref(),
                &shared,
                before.seed,
                trials,
                on_progress,
            );
            let (ea, eb) = if monte_carlo_only {
                (None, None)
            } else {
                (
                    super::exact_values(a.as_ref()),
                    super::exact_values(b.as_ref()),
                )
            };
            for (k, (metric, kind, ia, ib)) in shared.iter().enumerate() {
                let n = tally.trials as f64;
                let (mc_before, mc_after) = (tally.before[k] as f64 / n, tally.after[k] as f64 / n);
                let exact = ea.as_ref().zip(eb.as_ref()).map(|(x, y)| (x[*ia], y[*ib]));
                let (before_v, after_v, diff, lo, hi, p, significant) = match exact {
                    Some((x, y)) => (x, y, y - x, y - x, y - x, None, (y - x).abs() > 1e-12),
                    None => {
                        let d = tally.diff[k] as f64 / n;
                        let var = match kind {
                            // paired binary outcomes: discordant pairs only
                            MetricKind::Probability => {
                                let (u, w) = (tally.up[k] as f64, tally.down[k] as f64);
                                ((u + w) / n - d * d).max(0.0)
                            }
                            MetricKind::Mean => (tally.diff_sq[k] as f64 / n - d * d).max(0.0),
                        } * n
                            / (n - 1.0).max(1.0);
                        let se = (var / n).sqrt();
                        let p = stats::mean_p_value(d, se, 0.0);
                        let z = stats::z_for(1.0 - alpha);
                        (
                            mc_before,
                            mc_after,
                            d,
                            d - z * se,
                            d + z * se,
                            Some(p),
                            p < alpha,
                        )
                    }
                };
                rows.push(Change {
                    profile: before.profiles[pi].clone(),
                    cell_index: ci,
                    cell: cell.clone(),
                    metric: metric.clone(),
                    before: before_v,
                    after: after_v,
                    diff,
                    relative: (before_v != 0.0).then(|| diff / before_v),
                    ci_low: lo,
                    ci_high: hi,
                    p_value: p,
                    significant,
                    exact: exact.is_some(),
                    trials: tally.trials,
                });
            }
        }
    }
    Ok(rows)
}

fn paired(
    a: &dyn Model,
    b: &dyn Model,
    shared: &[(String, MetricKind, usize, usize)],
    seed: u64,
    trials: u64,
    on_progress: &(dyn Fn(u64) + Sync),
) -> PairTally {
    let chunks = trials.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let n = CHUNK.min(trials - c * CHUNK);
            let mut t = PairTally::new(shared.len());
            let mut va = vec![0u64; a.metrics().len()];
            let mut vb = vec![0u64; b.metrics().len()];
            for i in 0..n {
                va.iter_mut().for_each(|x| *x = 0);
                vb.iter_mut().for_each(|x| *x = 0);
                a.sample_one(&mut BatchedRoller::new(seed, &[c, i]), &mut va);
                b.sample_one(&mut BatchedRoller::new(seed, &[c, i]), &mut vb);
                for (k, (_, _, ia, ib)) in shared.iter().enumerate() {
                    let (x, y) = (va[*ia], vb[*ib]);
                    t.before[k] += x;
                    t.after[k] += y;
                    let d = y as i64 - x as i64;
                    t.diff[k] += d;
                    t.diff_sq[k] += (d * d) as u128;
                    t.up[k] += u64::from(x == 0 && y == 1);
                    t.down[k] += u64::from(x == 1 && y == 0);
                }
            }
            t.trials = n;
            on_progress(n);
            t
        })
        .reduce(|| PairTally::new(shared.len()), PairTally::merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::testing::{fire, spec};

    /// The fire spec at Toughness 3 against 4 (`--variant toughness=4`):
    /// with exact values every row is the two models' exact values and
    /// their difference, significant only where they differ (five helpers
    /// put the fire out at once on both sides: no change); on the paired
    /// dice alone the same change is found where it is, its interval holds
    /// the exact difference, and the unchanged cell shows a difference of
    /// exactly 0.
    #[test]
    fn a_change_is_measured_exactly_and_on_paired_dice() {
        let (path, _) = spec("compare", &fire(20_000));
        let c = Comparison::load(&[path], &["toughness=4".into()], 1e-3, None).unwrap();
        assert_eq!(c.name, "compare-compare");
        assert!(!c.sides.change.is_empty());
        let exact = c.run(1e-3, false, &|_| {}).unwrap();
        assert_eq!(exact.len(), 2 * c.before.metrics.len());
        for row in &exact {
            let at = |e: &Experiment| {
                let m = &e.models[row.cell_index][0];
                let i = m
                    .metrics()
                    .iter()
                    .position(|d| d.name == row.metric)
                    .unwrap();
                m.exact().unwrap()[i]
            };
            assert_eq!(row.before, at(&c.before), "{row:?}");
            assert_eq!(row.after, at(&c.after), "{row:?}");
            assert_eq!(row.diff, row.after - row.before);
            assert!(row.exact && row.p_value.is_none());
            assert_eq!(row.significant, row.diff.abs() > 1e-12, "{row:?}");
            if row.cell_index == 1 {
                assert_eq!(row.diff, 0.0, "{row:?}");
            }
        }
        let out = |rows: &[Change], cell: usize| {
            rows.iter()
                .find(|r| r.cell_index == cell && r.metric == "p_out_of_action")
                .unwrap()
                .clone()
        };
        let tougher = out(&exact, 0);
        assert!(tougher.significant && tougher.diff < 0.0, "{tougher:?}");
        let mc = c.run(1e-3, true, &|_| {}).unwrap();
        let paired = out(&mc, 0);
        assert!(!paired.exact && paired.trials == 20_000);
        assert!(paired.significant, "{paired:?}");
        assert!(
            paired.ci_low <= tougher.diff && tougher.diff <= paired.ci_high,
            "{paired:?} against {}",
            tougher.diff
        );
        let same = out(&mc, 1);
        assert_eq!((same.diff, same.significant), (0.0, false));
    }

    /// A spec against itself on the same dice: every difference is 0 and
    /// none is significant.
    #[test]
    fn the_same_rules_on_the_same_dice_show_no_change() {
        let (_, exp) = spec("compare-same", &fire(20_000));
        let rows = compare(&exp, &exp, 1e-3, true, &|_| {}).unwrap();
        assert!(!rows.is_empty());
        for r in rows {
            assert_eq!((r.diff, r.significant), (0.0, false), "{r:?}");
        }
    }

    /// What cannot be compared is refused before anything runs.
    #[test]
    fn what_cannot_be_compared_is_refused() {
        let (a, _) = spec("cmp-a", &fire(1000));
        let (b, _) = spec("cmp-b", &fire(1000).replace("[0, 5]", "[0, 4]"));
        let (d, _) = spec(
            "cmp-d",
            &fire(1000).replace("name = \"on fire\"", "name = \"burning\""),
        );
        let load = |specs: &[PathBuf], variants: &[&str], alpha: f64| {
            let v: Vec<String> = variants.iter().map(ToString::to_string).collect();
            Comparison::load(specs, &v, alpha, None).err().unwrap()
        };
        assert!(matches!(
            load(std::slice::from_ref(&a), &[], 1e-3),
            CompareError::NoChange(_)
        ));
        assert!(matches!(
            load(&[a.clone(), b.clone()], &["toughness=4"], 1e-3),
            CompareError::VariantWithTwoSpecs
        ));
        assert!(matches!(load(&[], &[], 1e-3), CompareError::SpecCount));
        assert!(matches!(
            load(std::slice::from_ref(&a), &["toughness"], 1e-3),
            CompareError::Variant(_)
        ));
        assert!(matches!(
            load(std::slice::from_ref(&a), &["toughness=4"], 0.0),
            CompareError::Limit(_)
        ));
        assert!(matches!(
            load(&[a.clone(), b], &[], 1e-3),
            CompareError::DifferentSweeps { .. }
        ));
        assert!(matches!(
            load(&[a, d], &[], 1e-3),
            CompareError::DifferentProfiles { .. }
        ));
    }
}
