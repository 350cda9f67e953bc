//! The registry rendered: `krunch list` as text for people, as JSON for
//! programs (editors, spec generators), and `docs/RULES.md` as Markdown,
//! all with the same words: rule sets, their variants and presets, each
//! scenario's parameters, metrics and the variants it reads.

use crate::experiment::at_least::derived_decls;
use crate::systems::registry::{RULE_SETS, rule_set};
use crate::systems::{MetricDecl, MetricKind, Need, ParamError, RuleSet, Scenario};
use serde_json::{Value, json};
use std::fmt::Write as _;

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
        .chain(&derived_decls(&catalogue))
        .map(|m| {
            json!({
                "id": m.id,
                "label": m.label,
                "kind": match m.kind {
                    MetricKind::Probability => "probability",
                    MetricKind::Mean => "mean",
                },
                "yes_no": m.yes_no,
                "about": m.about,
            })
        })
        .collect();
    json!({
        "name": sc.name,
        "about": sc.about,
        "seed_section": sc.seed_section,
        "variants_read": sc.variants.to_vec(),
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

/// `docs/RULES.md`: every rule set, scenario, parameter, metric (with those
/// derived from them), preset and variant, generated from the registry
/// (a test fails when the committed file is stale).
pub fn reference_markdown() -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Rule reference\n\nGenerated from the registry (`krunch list`); do not edit by hand.\n"
    );
    for r in RULE_SETS {
        let _ = writeln!(o, "## {} (`system = \"{}\"`)\n", r.title, r.name);
        let _ = writeln!(o, "Seed: `{}`.\n", r.seed);
        let _ = writeln!(
            o,
            "### Design and readings\n\n{}",
            readings_section(r.readings)
        );
        if !r.variants.is_empty() {
            let _ = writeln!(
                o,
                "### Rule variants\n\n| variant | values (default first) | meaning |\n|---|---|---|"
            );
            for v in r.variants {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} |",
                    v.name,
                    v.values.join(", "),
                    cell(v.about)
                );
            }
            o.push('\n');
        }
        if !r.presets.is_empty() {
            let _ = writeln!(
                o,
                "### Presets\n\n| catalogue | name | sets | seed |\n|---|---|---|---|"
            );
            for p in r.presets {
                let sets: Vec<String> = p.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let _ = writeln!(
                    o,
                    "| {} | `{}` | {} | {} |",
                    p.catalogue,
                    p.name,
                    sets.join(", "),
                    cell(p.source)
                );
            }
            o.push('\n');
        }
        for sc in r.scenarios {
            let _ = writeln!(
                o,
                "### `{}`: {}\n\nSeed: {}.\n",
                sc.name, sc.about, sc.seed_section
            );
            if !r.variants.is_empty() {
                let read: Vec<String> = sc.variants.iter().map(|v| format!("`{v}`")).collect();
                let _ = writeln!(
                    o,
                    "Rule variants it reads: {}.\n",
                    if read.is_empty() {
                        "none".to_string()
                    } else {
                        read.join(", ")
                    }
                );
            }
            if crate::systems::attackers::is_volley(&(sc.params)()) {
                let _ = writeln!(o, "Attackers: {VOLLEY_FORM}\n");
            }
            let _ = writeln!(
                o,
                "| parameter | type | need | meaning | seed |\n|---|---|---|---|---|"
            );
            for d in (sc.params)() {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} | {} | {} |",
                    d.name,
                    cell(&d.type_text()),
                    d.need_text(),
                    cell(&d.about),
                    cell(d.seed)
                );
            }
            let _ = writeln!(
                o,
                "\n| metric | label | kind | meaning |\n|---|---|---|---|"
            );
            let catalogue = (sc.metrics)();
            for m in catalogue.iter().chain(&derived_decls(&catalogue)) {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} | {} |",
                    m.id,
                    cell(m.label),
                    match (m.kind, m.yes_no) {
                        (_, true) => "yes/no",
                        (MetricKind::Probability, _) => "probability",
                        (MetricKind::Mean, _) => "mean",
                    },
                    cell(m.about)
                );
            }
            if let Some(q) = quantiles_text(&catalogue, "`") {
                let _ = writeln!(o, "\nQuantiles, for `[[expect]]`: {q}");
            }
            o.push('\n');
        }
    }
    o
}

/// What `krunch list` prints: every rule set with its scenarios; one rule
/// set in full; or one scenario's parameters, metrics (with those
/// derived from them), presets and variants.
pub fn list_text(system: Option<&str>, scenario: Option<&str>) -> Result<String, ParamError> {
    let mut o = String::new();
    let Some(system) = system else {
        let width = RULE_SETS
            .iter()
            .flat_map(|r| r.scenarios.iter().map(|sc| sc.name.len()))
            .max()
            .unwrap_or(0);
        for r in RULE_SETS {
            let _ = writeln!(o, "{} — {}", r.name, r.title);
            for sc in r.scenarios {
                let _ = writeln!(o, "  {:<width$} {}", sc.name, sc.about);
            }
            let mut catalogues: Vec<&str> = r.presets.iter().map(|p| p.catalogue).collect();
            catalogues.dedup();
            for c in catalogues {
                let names: Vec<&str> = r.presets_of(c).map(|p| p.name).collect();
                let _ = writeln!(o, "  presets ({c}): {}", names.join(", "));
            }
        }
        o.push_str("\nMore: krunch list SYSTEM [SCENARIO]   (e.g. krunch list gce shooting)\n");
        return Ok(o);
    };
    let r = rule_set(system)?;
    let scenarios: Vec<&Scenario> = match scenario {
        Some(name) => vec![r.scenario(name)?],
        None => r.scenarios.iter().collect(),
    };
    let _ = writeln!(o, "{} — {} (seed {})", r.name, r.title, r.seed);
    let _ = writeln!(
        o,
        "variants:{}",
        if r.variants.is_empty() { " none" } else { "" }
    );
    for v in r.variants {
        let _ = writeln!(
            o,
            "  {} = {} (default {}): {}",
            v.name,
            v.values.join(" | "),
            v.values[0],
            v.about
        );
    }
    let _ = writeln!(
        o,
        "presets:{}",
        if r.presets.is_empty() { " none" } else { "" }
    );
    for p in r.presets {
        let sets: Vec<String> = p.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(o, "  {} \"{}\": {}", p.catalogue, p.name, sets.join(", "));
    }
    for sc in scenarios {
        let _ = writeln!(o, "\nscenario {}: {}", sc.name, sc.about);
        let _ = writeln!(o, "  seed: {}", sc.seed_section);
        if !r.variants.is_empty() {
            let read = sc.variants.to_vec();
            let _ = writeln!(
                o,
                "  variants it reads: {}",
                if read.is_empty() {
                    "none".to_string()
                } else {
                    read.join(", ")
                }
            );
        }
        if crate::systems::attackers::is_volley(&(sc.params)()) {
            let _ = writeln!(o, "  attackers: {VOLLEY_FORM}");
        }
        let _ = writeln!(o, "  parameters:");
        for d in (sc.params)() {
            let _ = writeln!(
                o,
                "    {:<32} {:<40} {:<12} {}",
                d.name,
                d.type_text(),
                d.need_text(),
                d.about
            );
        }
        let _ = writeln!(o, "  metrics:");
        let catalogue = (sc.metrics)();
        for m in catalogue.iter().chain(&derived_decls(&catalogue)) {
            let _ = writeln!(o, "    {:<36} {:<40} {}", m.id, m.label, m.about);
        }
        if let Some(q) = quantiles_text(&catalogue, "") {
            let _ = writeln!(o, "  quantiles (for [[expect]]): {q}");
        }
    }
    Ok(o)
}

/// The quantiles an `[[expect]]` can pin, one pair per distribution
/// family (`median(hits)`, `p90(hits)`), or `None` for a scenario without
/// a family.
/// `tick` is the Markdown code quote, or nothing for the terminal.
fn quantiles_text(catalogue: &[MetricDecl], tick: &str) -> Option<String> {
    let heads: Vec<String> = derived_decls(catalogue)
        .iter()
        .filter_map(|d| d.id.strip_suffix(">={k}"))
        .map(|h| format!("{tick}median({h}){tick}, {tick}p90({h}){tick}"))
        .collect();
    (!heads.is_empty()).then(|| {
        format!(
            "{}; {tick}pN(X){tick} for N from 1 to 99: the most k that X reaches with probability at least 1 - N/100",
            heads.join(", ")
        )
    })
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A rule set's README as a section of RULES.md: its title dropped (the
/// rule set's heading stands for it), its headings two levels down.
fn readings_section(readme: &str) -> String {
    let mut out = String::new();
    for line in readme
        .lines()
        .skip_while(|l| l.starts_with("# ") || l.is_empty())
    {
        if line.starts_with('#') {
            out.push_str("##");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// How a volley's attackers are written, for `krunch list` and RULES.md.
const VOLLEY_FORM: &str = "one [[attacker]] entry each, in firing order: name = \"boyz\", count = 5, then its attacker.* parameters (weapon = \"shoota\", bs = 3); the target's parameters go in [base]. One attacker's value is addressed as boyz.count, boyz.bs in profiles, sweeps, charts and expects.";
