//! Rule sets, one folder each, listed once in [`registry::RULE_SETS`]. A
//! rule set turns named parameters into [`Model`]s that the experiment
//! runner can sample and evaluate exactly. Nothing here reads files or
//! knows about the command line.

pub mod bfg;
pub mod crisis;
pub mod gce;
pub mod krygothic;
mod metrics;
pub mod named_dice;
mod params;
pub mod registry;
pub mod repeat_model;
#[cfg(test)]
mod seed_text;
pub mod skirmish20;
pub mod step_model;

pub use metrics::{MetricDecl, MetricDef, MetricKind, MetricList};
pub use params::{ParamError, ParamErrorKind, ParamValue, Params};
pub use registry::{
    ParamDecl, ParamKind, PresetDecl, RULE_SETS, RuleSet, Scenario, VariantDef, build, rule_set,
};

use crate::dice::{BatchedRoller, Metric, Tally};

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
    fn record(&mut self, metric: Metric, value: u64) {
        self.0[metric.index()] += value;
    }
}
