//! Rule sets, one folder each, listed once in [`registry::RULE_SETS`]. A
//! rule set turns named parameters into [`Model`]s that the experiment
//! runner can sample and evaluate exactly. Nothing here reads files or
//! knows about the command line.

pub mod bfg;
pub mod crisis;
pub mod gce;
pub mod krygothic;
pub mod named_dice;
mod params;
pub mod registry;
#[cfg(test)]
mod seed_text;
pub mod skirmish20;

pub use crate::engine::{
    MetricDecl, MetricDef, MetricKind, MetricList, Model, Sampler, TrialValues,
};
pub use params::{ParamError, ParamErrorKind, ParamValue, Params};
pub use registry::{
    ParamDecl, ParamKind, PresetDecl, RULE_SETS, RuleSet, Scenario, VariantDef, build, rule_set,
};
