//! Rule sets, one folder each. A rule set turns named parameters into
//! [`Model`]s that the experiment runner can sample and evaluate exactly.
//! Nothing here reads files or knows about the command line.

pub mod bfg;
pub mod gce;
mod params;
pub mod repeat_model;
#[cfg(test)]
mod seed_text;
pub mod step_model;

pub use params::{ParamError, ParamValue, Params};

use crate::dice::{BatchedRoller, Tally};

/// How a metric's value is summarised and how its interval is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricKind {
    /// A probability: each trial records 0 or 1 (Wilson interval).
    Probability,
    /// A mean of a non-negative count (normal interval on the mean).
    Mean,
}

/// One quantity a model reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricDef {
    /// Stable name used in specs and CSV (`p_hit`, `mean_wounds`, `hits=2`).
    pub name: String,
    /// How it is summarised.
    pub kind: MetricKind,
    /// One line saying what it measures.
    pub about: &'static str,
}

impl MetricDef {
    /// A probability metric.
    pub fn probability(name: impl Into<String>, about: &'static str) -> Self {
        MetricDef {
            name: name.into(),
            kind: MetricKind::Probability,
            about,
        }
    }

    /// A mean metric.
    pub fn mean(name: impl Into<String>, about: &'static str) -> Self {
        MetricDef {
            name: name.into(),
            kind: MetricKind::Mean,
            about,
        }
    }
}

/// A fully specified situation that can be simulated and, where the state
/// space allows, evaluated exactly.
pub trait Model: Send + Sync {
    /// The metrics this model reports, in tally order.
    fn metrics(&self) -> &[MetricDef];

    /// Runs `trials` Monte Carlo trials on `roller`, adding to `tally`.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally);

    /// Exact expected value of every metric, or `None` where the state space
    /// is too large to evaluate exactly.
    fn exact(&self) -> Option<Vec<f64>>;

    /// One trial, writing each metric's value into `values` (zeroed by the
    /// caller). `krunch compare` runs both sides of a change trial by trial
    /// on the same dice through this.
    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]);
}

/// A [`MetricSink`](crate::dice::MetricSink) writing one trial's values
/// into a slice.
pub struct TrialValues<'a>(pub &'a mut [u64]);

impl crate::dice::MetricSink for TrialValues<'_> {
    fn record(&mut self, index: usize, value: u64) {
        self.0[index] += value;
    }
}

/// A rule option with its allowed values, the default first.
#[derive(Clone, Debug)]
pub struct VariantDef {
    /// Name used in specs and on the command line.
    pub name: &'static str,
    /// Allowed values; the first is the default.
    pub values: &'static [&'static str],
    /// What it changes and where the seed says so.
    pub about: &'static str,
}

/// What a rule set offers, for `krunch list` and spec validation.
pub struct SystemInfo {
    /// Short name used in specs (`gce`).
    pub name: &'static str,
    /// Full title.
    pub title: &'static str,
    /// Scenario names.
    pub scenarios: &'static [&'static str],
    /// Preset names (weapons, ships ...).
    pub presets: Vec<String>,
    /// Rule variants.
    pub variants: &'static [VariantDef],
    /// Metric names with one-line descriptions (distribution rows elided).
    pub metrics: Vec<(String, &'static str)>,
}

/// Every rule set krunch knows.
pub fn catalog() -> Vec<SystemInfo> {
    vec![gce::info(), bfg::info()]
}

/// Builds the model for `system`/`scenario` from `params` and `variants`.
/// Every parameter must be used: an unknown one is an error naming it.
pub fn build(
    system: &str,
    scenario: &str,
    params: &Params,
    variants: &Params,
) -> Result<Box<dyn Model>, ParamError> {
    match system {
        "gce" => gce::build(scenario, params, variants),
        "bfg" => bfg::build(scenario, params, variants),
        other => Err(ParamError::new(
            "system",
            format!(
                "unknown rule set '{other}' (known: {})",
                catalog()
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}
