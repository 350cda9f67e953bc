//! Rule sets, one folder each, listed once in [`registry::RULE_SETS`]. A
//! rule set turns named parameters into [`Model`]s that the experiment
//! runner can sample and evaluate exactly. Nothing here reads files or
//! knows about the command line.
//!
//! The layers, bottom up: [`value`] (a parameter's value, its errors),
//! [`decl`] (a parameter's declaration), [`params`] (values read through
//! declarations) and typed parameters (`param_struct!`) and variants (`variant_enum!`), [`scenario`] (what a rule set declares); the rule sets
//! build on those; [`registry`] lists the rule sets on top and builds
//! models. A rule set never imports the registry.

pub mod attackers;
pub mod bfg;
pub mod crisis;
pub mod decl;
pub mod gce;
pub mod krygothic;
pub mod naive;
pub mod named_dice;
mod params;
pub mod registry;
pub mod scenario;
#[cfg(test)]
mod seed_text;
pub mod skirmish20;
#[cfg(test)]
mod testing;
mod typed;
pub mod value;
mod variant;

pub use crate::engine::{
    MetricDecl, MetricDef, MetricKind, MetricList, Model, Sampler, TrialValues,
};
pub use decl::{Need, Needed, ParamDecl, ParamKind, did_you_mean};
pub use params::Params;
pub use registry::{RULE_SETS, build, rule_set};
pub use scenario::{PresetDecl, Refusal, RuleSet, Scenario, VariantDef};
pub use typed::{Declared, FromParam, Given, Opt, ParamGroup};
pub use value::{ParamError, ParamErrorKind, ParamValue};
pub use variant::Variant;
