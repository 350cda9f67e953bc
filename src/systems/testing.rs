//! Test helpers every rule set's unit tests share: a scenario's model from
//! `name = value` texts, as a spec gives them, built through its rule
//! set's declarations (not the registry, which the rule sets sit below),
//! and a model's exact value of one metric.

use super::{Model, ParamError, Params, RuleSet};

/// `scenario` of `rules` built from text pairs, with the default variants.
pub fn build(
    rules: &RuleSet,
    scenario: &str,
    pairs: &[(&str, &str)],
) -> Result<Box<dyn Model>, ParamError> {
    rules.build(scenario, &Params::from_pairs(pairs), &Params::new())
}

/// `scenario` of `rules` built from text pairs; panics if it is refused.
pub fn model(rules: &RuleSet, scenario: &str, pairs: &[(&str, &str)]) -> Box<dyn Model> {
    build(rules, scenario, pairs)
        .unwrap_or_else(|e| panic!("{} {scenario} {pairs:?}: {e}", rules.name))
}

/// The error `scenario` of `rules` is refused with; panics if it is built.
pub fn refused(rules: &RuleSet, scenario: &str, pairs: &[(&str, &str)]) -> ParamError {
    match build(rules, scenario, pairs) {
        Ok(_) => panic!("{} {scenario} {pairs:?} should be refused", rules.name),
        Err(e) => e,
    }
}

/// The exact value of metric `name` of `m`.
pub fn exact(m: &dyn Model, name: &str) -> f64 {
    let i = m
        .metrics()
        .iter()
        .position(|d| d.name == name)
        .unwrap_or_else(|| panic!("no metric {name}"));
    m.exact().unwrap()[i]
}
