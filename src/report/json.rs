//! `results.json`: everything in `data.csv` for a program to read, with the
//! words a person reads beside the ids (metric labels and kinds), the
//! provenance once, and each estimate's check against its exact value.

use super::files::write_atomic;
use super::labels::metric_def;
use super::provenance::Provenance;
use super::summary::{FLAG_ALPHA, mc_check, z_score};
use crate::experiment::{Experiment, Results};
use crate::systems::{MetricKind, ParamValue};
use serde_json::{Value, json};
use std::path::Path;

fn param_json(v: &ParamValue) -> Value {
    match v {
        ParamValue::Int(i) => json!(i),
        ParamValue::Float(f) => json!(f),
        ParamValue::Str(s) => json!(s),
        ParamValue::Bool(b) => json!(b),
    }
}

/// The JSON document of `results` (keys in a fixed order; the same spec
/// and seed give the same bytes).
pub fn results_json(exp: &Experiment, results: &Results) -> Value {
    let prov = Provenance::of(exp);
    let metrics: Vec<Value> = exp
        .metrics
        .iter()
        .map(|m| {
            let def = metric_def(exp, m);
            json!({
                "name": m,
                "label": super::labels::metric_label(exp, m),
                "kind": match def.map(|d| d.kind) {
                    Some(MetricKind::Probability) => "probability",
                    _ => "mean",
                },
                "about": def.map_or("", |d| d.about),
            })
        })
        .collect();
    let axes: Vec<Value> = exp
        .axes
        .iter()
        .map(|a| json!({"name": a.name, "values": a.values.iter().map(param_json).collect::<Vec<_>>()}))
        .collect();
    let check = mc_check(exp, results);
    let rows: Vec<Value> = results
        .rows
        .iter()
        .map(|r| {
            let cell: serde_json::Map<String, Value> = exp
                .axes
                .iter()
                .zip(&r.cell)
                .map(|(a, v)| (a.name.clone(), param_json(v)))
                .collect();
            let z = z_score(exp, r).filter(|z| z.is_finite());
            json!({
                "profile": r.profile,
                "cell": cell,
                "metric": r.metric,
                "value": r.value,
                "exact": r.exact,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "trials": r.trials,
                "variants": r.variants,
                "z": z,
                "flagged": z_score(exp, r).is_some_and(|z| z.abs() > check.z_limit),
            })
        })
        .collect();
    json!({
        "name": exp.name,
        "title": exp.title,
        "spec": exp.file.display().to_string(),
        "spec_sha256": prov.spec_hash,
        "krunch_version": prov.version,
        "system": exp.system,
        "scenario": exp.scenario,
        "seed": prov.seed,
        "trials": exp.trials,
        "confidence": exp.confidence,
        "variants": exp.variants.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "variants_read": exp.variants_read,
        "profiles": exp.profiles,
        "inputs": super::inputs::inputs_json(exp),
        "axes": axes,
        "metrics": metrics,
        "check": {
            "exact_values": check.exact_rows,
            "outside_interval": check.outside_interval,
            "flag_alpha": FLAG_ALPHA,
            "z_limit": check.z_limit,
            "flagged": check.flagged.len(),
        },
        "no_exact": results.no_exact.iter().map(|(cell, profile, why)| json!({
            "cell": cell,
            "profile": profile,
            "reason": why,
        })).collect::<Vec<_>>(),
        "rows": rows,
    })
}

/// Writes `dir/results.json`.
pub fn write_json(dir: &Path, exp: &Experiment, results: &Results) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(&results_json(exp, results))?;
    text.push('\n');
    write_atomic(&dir.join("results.json"), text.as_bytes())
}
