//! `krunch list --format json`: the registry for programs (editors,
//! spec generators): rule sets, their variants and presets, and each
//! scenario's parameters and metrics, with the same words `krunch list` prints.

use crate::systems::registry::{Need, RULE_SETS, RuleSet, Scenario, rule_set};
use crate::systems::{MetricKind, ParamError};
use serde_json::{Value, json};

fn scenario_json(sc: &Scenario) -> Value {
    let params: Vec<Value> = (sc.params)()
        .iter()
        .map(|d| {
            json!({
                "name": d.name,
                "type": d.type_text(),
                "required": d.need == Need::Required,
                "default": match &d.need {
                    Need::Default(v) => Value::from(*v),
                    _ => Value::Null,
                },
                "about": d.about,
            })
        })
        .collect();
    let catalogue = (sc.metrics)();
    let metrics: Vec<Value> = catalogue
        .iter()
        .chain(&crate::experiment::at_least::derived_decls(&catalogue))
        .map(|m| {
            json!({
                "id": m.id,
                "label": m.label,
                "kind": match m.kind {
                    MetricKind::Probability => "probability",
                    MetricKind::Mean => "mean",
                },
                "about": m.about,
            })
        })
        .collect();
    json!({
        "name": sc.name,
        "about": sc.about,
        "seed_section": sc.seed_section,
        "parameters": params,
        "metrics": metrics,
    })
}

fn rule_set_json(r: &RuleSet, scenarios: &[&Scenario]) -> Value {
    json!({
        "name": r.name,
        "title": r.title,
        "seed": r.seed,
        "variants": r.variants.iter().map(|v| json!({
            "name": v.name,
            "values": v.values,
            "default": v.values.first(),
            "about": v.about,
        })).collect::<Vec<_>>(),
        "presets": r.presets.iter().map(|p| json!({
            "catalogue": p.catalogue,
            "name": p.name,
            "sets": p.sets.iter().map(|(k, v)| (k.to_string(), Value::from(*v))).collect::<serde_json::Map<_, _>>(),
            "source": p.source,
        })).collect::<Vec<_>>(),
        "scenarios": scenarios.iter().map(|s| scenario_json(s)).collect::<Vec<_>>(),
    })
}

/// What `krunch list [SYSTEM [SCENARIO]] --format json` prints: an array
/// of rule sets (every one, or the one named), each with its scenarios
/// (every one, or the one named) in full.
pub fn list_json(system: Option<&str>, scenario: Option<&str>) -> Result<Value, ParamError> {
    let sets: Vec<&RuleSet> = match system {
        Some(name) => vec![rule_set(name)?],
        None => RULE_SETS.to_vec(),
    };
    let mut out = Vec::new();
    for r in sets {
        let scenarios: Vec<&Scenario> = match scenario {
            Some(name) => vec![r.scenario(name)?],
            None => r.scenarios.iter().collect(),
        };
        out.push(rule_set_json(r, &scenarios));
    }
    Ok(Value::Array(out))
}
