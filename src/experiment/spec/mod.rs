//! Experiment specs: strict TOML with every error naming file, line and
//! field. A spec loads in three stages, each a type made by one function
//! (as ripgrep's flags go `LowArgs -> HiArgs`):
//!
//! - [`raw`]: the text read and parsed ([`raw::read`] -> `RawSpec`);
//! - [`checked`]: names, rule set, limits, variants, parameters, sweep and
//!   overrides checked without a model ([`checked::check`] -> `CheckedSpec`);
//! - [`built`]: the models built, then metrics, charts and expectations
//!   checked against them ([`built::build`] -> [`Experiment`]).
//!
//! This module holds what callers see: the [`Experiment`] and its parts,
//! the errors, and [`load_with`], which chains the stages.

mod built;
mod checked;
mod raw;

pub use built::ValueError;
pub(crate) use built::check_expected_value;
pub use checked::{MAX_NAME_LEN, NameError, check_name};
pub(super) use raw::{field_at, line_of};

use crate::limits::LimitError;
use crate::systems::{Model, ParamValue};
use std::path::{Path, PathBuf};

/// A spec that could not be read, parsed or validated.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {field}: {message}", file.display(), if *line > 0 { format!(":{line}") } else { String::new() })]
pub struct SpecError {
    /// The spec file.
    pub file: PathBuf,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// The offending field.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// An expected value for `krunch check`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// Profile index.
    pub profile: usize,
    /// Sweep cell index.
    pub cell: usize,
    /// Metric name.
    pub metric: String,
    /// The expected value.
    pub value: f64,
    /// Standard error of `value` (0 when it is exact or stated by hand).
    pub std_error: f64,
    /// Smallest change the check must be able to catch, if given: trials
    /// are raised until it can.
    pub tolerance: Option<f64>,
    /// Where it was written (`file:line`).
    pub source: String,
}

/// Kinds of chart a spec can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartSpec {
    /// One bar per profile for `metric` (at each sweep cell, grouped).
    Bar {
        /// Metric name.
        metric: String,
    },
    /// `metric` along sweep axis `x`, one line per profile. With more sweep
    /// axes: one line per value of `by` too, or (without `by`, several
    /// profiles) one panel per value of the next axis; axes fixed by `at`
    /// show that slice, any others their first value.
    Line {
        /// Metric name.
        metric: String,
        /// Sweep axis on the x axis.
        x: String,
        /// Sweep axis whose values get a line each.
        by: Option<String>,
        /// Axes held at one value: (axis index, value index).
        at: Vec<(usize, usize)>,
    },
    /// A distribution family (`hits={k}`) along `k`: P(= k) and P(>= k)
    /// per profile, a panel per sweep cell.
    Distribution {
        /// The family's name before `={k}` (`hits`).
        family: String,
        /// The metric it headlines (see [`at_least::Listed::headline`]).
        ///
        /// [`at_least::Listed::headline`]: super::at_least::Listed::headline
        metric: String,
    },
    /// `metric` over sweep axes `x` and `y` for one profile.
    Heatmap {
        /// Metric name.
        metric: String,
        /// Horizontal axis.
        x: String,
        /// Vertical axis.
        y: String,
        /// Profile shown.
        profile: String,
    },
}

/// One sweep axis: a parameter name and its values in order.
#[derive(Clone, Debug)]
pub struct Axis {
    /// The parameter swept.
    pub name: String,
    /// Its values.
    pub values: Vec<ParamValue>,
}

/// Where a parameter a profile ran on got its value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// The spec's `[base]`.
    Base,
    /// The profile's own table.
    Profile,
    /// `--variant NAME=VALUE` on the command line.
    Override,
    /// A preset's stat line: `param = preset` filled it in.
    Preset {
        /// The preset parameter (`weapon`).
        param: String,
        /// The preset chosen (`shoota`).
        preset: String,
    },
    /// The scenario's declared default (the spec does not set it).
    Default,
}

/// One parameter a profile ran on (sweep axes aside): its value, or
/// `None` where it changes with the sweep (a stat of a swept preset).
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Parameter name.
    pub name: String,
    /// Its value in every cell, or `None` when it changes with the sweep.
    pub value: Option<ParamValue>,
    /// Where the value came from.
    pub source: Source,
}

/// A validated experiment: every model is already built, so running it
/// cannot fail on input.
pub struct Experiment {
    /// Short name (output folder).
    pub name: String,
    /// Human title.
    pub title: String,
    /// Source file.
    pub file: PathBuf,
    /// Rule set.
    pub system: String,
    /// Scenario.
    pub scenario: String,
    /// Trials per cell and profile.
    pub trials: u64,
    /// Seed of all random streams.
    pub seed: u64,
    /// Confidence level of intervals.
    pub confidence: f64,
    /// Rule variants of the spec (defaults filled in).
    pub variants: Vec<(String, String)>,
    /// Rule variants in force for each profile (the spec's, then the
    /// profile's own overrides).
    pub profile_variants: Vec<Vec<(String, String)>>,
    /// The rule variants the scenario's models read: the ones that can
    /// change a result, and so the ones reports name.
    pub variants_read: std::collections::BTreeSet<String>,
    /// Profile names in order.
    pub profiles: Vec<String>,
    /// Sweep axes.
    pub axes: Vec<Axis>,
    /// Metric names to report (a subset of the models' metrics).
    pub metrics: Vec<String>,
    /// Charts to draw.
    pub charts: Vec<ChartSpec>,
    /// Hex SHA-256 of the spec file's bytes.
    pub spec_hash: String,
    /// Parameter overrides from the command line, applied to every profile.
    pub overrides: Vec<(String, ParamValue)>,
    /// `[[expect]]` entries.
    pub expectations: Vec<Expected>,
    /// `models[cell][profile]`, cells in row-major order of `axes`.
    pub models: Vec<Vec<Box<dyn Model>>>,
    /// What the spec should be told but is not wrong: preset stats the
    /// scenario does not read (left out), one line each, naming the file,
    /// line and field.
    pub notes: Vec<String>,
    /// The spec's `[base]` as written.
    pub base: Vec<(String, ParamValue)>,
    /// Every parameter each profile ran on, by name: given, filled in by a
    /// preset, or the scenario's default (sweep axes aside).
    pub inputs: Vec<Vec<Input>>,
}

/// Why an `[[expect]]` entry (or a baseline's) names nothing in the spec.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LocateError {
    /// No profile has this name.
    #[error("no profile named '{name}' (profiles: {})", .profiles.join(", "))]
    NoProfile {
        /// The name given.
        name: String,
        /// The spec's profiles.
        profiles: Vec<String>,
    },
    /// No profile named, and the spec has several.
    #[error("name the profile: the spec has several")]
    ProfileNeeded,
    /// The cell names an axis the sweep does not have.
    #[error("'{0}' is not a sweep axis")]
    NotAnAxis(String),
    /// The cell leaves out a sweep axis.
    #[error("give the sweep value of '{0}'")]
    AxisNeeded(String),
    /// The cell gives a value the axis does not sweep.
    #[error("{axis}={value} is not among the sweep's values")]
    NotSwept {
        /// The axis.
        axis: String,
        /// The value given.
        value: String,
    },
    /// The model there does not report the metric.
    #[error("unknown metric '{0}': the spec has no such metric (see `krunch list`)")]
    UnknownMetric(String),
}

impl LocateError {
    /// The entry's field at fault: `profile`, `cell` or `metric`.
    pub fn field(&self) -> &'static str {
        match self {
            LocateError::NoProfile { .. } | LocateError::ProfileNeeded => "profile",
            LocateError::NotAnAxis(_)
            | LocateError::AxisNeeded(_)
            | LocateError::NotSwept { .. } => "cell",
            LocateError::UnknownMetric(_) => "metric",
        }
    }
}

impl ChartSpec {
    /// The metric the chart draws.
    pub fn metric(&self) -> &str {
        match self {
            ChartSpec::Bar { metric }
            | ChartSpec::Line { metric, .. }
            | ChartSpec::Distribution { metric, .. }
            | ChartSpec::Heatmap { metric, .. } => metric,
        }
    }
}

impl Experiment {
    /// The spec's rule variants that its scenario reads (the others cannot
    /// change a result, so reports do not name them).
    pub fn variants_in_use(&self) -> Vec<(String, String)> {
        self.in_use(&self.variants)
    }

    /// Profile `p`'s rule variants that its scenario reads.
    pub fn profile_variants_in_use(&self, p: usize) -> Vec<(String, String)> {
        self.in_use(&self.profile_variants[p])
    }

    fn in_use(&self, list: &[(String, String)]) -> Vec<(String, String)> {
        list.iter()
            .filter(|(k, _)| self.variants_read.contains(k))
            .cloned()
            .collect()
    }

    /// [`locate`](Self::locate), then checks that the model there reports
    /// `metric`.
    pub fn locate_metric(
        &self,
        profile: Option<&str>,
        cell: &toml::Table,
        metric: &str,
    ) -> Result<(usize, usize), LocateError> {
        let (p, c) = self.locate(profile, cell)?;
        if self.models[c][p].metrics().iter().any(|m| m.name == metric) {
            Ok((p, c))
        } else {
            Err(LocateError::UnknownMetric(metric.to_string()))
        }
    }

    /// Finds the profile (by name; optional when there is one) and the sweep
    /// cell (by axis values; every axis must be given) an expectation names.
    pub fn locate(
        &self,
        profile: Option<&str>,
        cell: &toml::Table,
    ) -> Result<(usize, usize), LocateError> {
        let profile = match profile {
            Some(name) => self
                .profiles
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| LocateError::NoProfile {
                    name: name.to_string(),
                    profiles: self.profiles.clone(),
                })?,
            None if self.profiles.len() == 1 => 0,
            None => return Err(LocateError::ProfileNeeded),
        };
        if let Some(k) = cell
            .keys()
            .find(|k| !self.axes.iter().any(|a| &a.name == *k))
        {
            return Err(LocateError::NotAnAxis(k.clone()));
        }
        let mut index = 0;
        for axis in &self.axes {
            let given = cell
                .get(&axis.name)
                .ok_or_else(|| LocateError::AxisNeeded(axis.name.clone()))?;
            let wanted = raw::to_param(given)
                .map(|v| v.to_string())
                .unwrap_or_default();
            let pos = axis
                .values
                .iter()
                .position(|v| v.to_string() == wanted)
                .ok_or_else(|| LocateError::NotSwept {
                    axis: axis.name.clone(),
                    value: wanted.clone(),
                })?;
            index = index * axis.values.len() + pos;
        }
        Ok((profile, index))
    }

    /// Sets the trial count from `--trials`, if given, within
    /// [`MAX_TRIALS`](crate::limits::MAX_TRIALS).
    pub fn set_trials(&mut self, trials: Option<u64>) -> Result<(), LimitError> {
        if let Some(t) = trials {
            crate::limits::check_trials(t)?;
            self.trials = t;
        }
        Ok(())
    }

    /// The sweep values of cell `index`, one per axis.
    pub fn cell_values(&self, index: usize) -> Vec<ParamValue> {
        let mut rest = index;
        let mut out = vec![ParamValue::Int(0); self.axes.len()];
        for (i, axis) in self.axes.iter().enumerate().rev() {
            out[i] = axis.values[rest % axis.values.len()].clone();
            rest /= axis.values.len();
        }
        out
    }
}

/// Reads and validates the spec at `path` (`-`: standard input).
pub fn load(path: &Path) -> Result<Experiment, SpecError> {
    load_with(path, &[])
}

/// Turns `text` into the value a spec would give it: whole number, real
/// number, flag, or word.
pub fn param_from_text(text: &str) -> ParamValue {
    ParamValue::from_text(text)
}

/// Reads the spec at `path` with `overrides` (`NAME=VALUE` from the command
/// line) applied to every profile: a rule variant's name sets that variant,
/// any other name overrides that parameter.
pub fn load_with(path: &Path, overrides: &[(String, String)]) -> Result<Experiment, SpecError> {
    let raw = raw::read(path)?;
    let checked = checked::check(raw, overrides)?;
    built::build(checked)
}
