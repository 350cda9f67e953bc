//! What a run ran on, for every report: the sweep, the parameters every
//! profile shares and those that differ by profile (given in the spec,
//! filled in by a preset, or the scenario's default), and the rule
//! variants in force; the fixed conditions of one chart, for its
//! subtitle; and the one-line answer a report opens with.

use super::escape;
use super::escape::html as html_escape;
use super::labels::{axis_value_words, metric_label, value_text, value_words};
use crate::experiment::{Experiment, Input, Results, Source};
use crate::systems::ParamValue;
use serde_json::{Value, json};
use std::fmt::Write;

/// Where a value came from, in words: `base`, `profile`, `--variant`,
/// `preset weapon = shoota`, `default`.
pub fn source_text(source: &Source) -> String {
    match source {
        Source::Base => "base".into(),
        Source::Profile => "profile".into(),
        Source::Override => "--variant".into(),
        Source::Preset { param, preset } => format!("preset {param} = {preset}"),
        Source::Default => "default".into(),
    }
}

/// A parameter's value as the spec writes it, or what stands for one that
/// changes with the sweep.
pub fn value_of(input: &Input) -> String {
    match &input.value {
        Some(v) => v.to_string(),
        None => "changes with the sweep".into(),
    }
}

/// The scenario's one-line description of parameter `name`, if any; an
/// attacker's own (`boyz.bs`) is its `attacker.` declaration's, named for
/// whose it is.
fn about(exp: &Experiment, name: &str) -> String {
    let Some(decls) = crate::systems::rule_set(&exp.system)
        .ok()
        .and_then(|r| r.scenario(&exp.scenario).ok())
        .map(|sc| (sc.params)())
    else {
        return String::new();
    };
    if let Some(d) = decls.iter().find(|d| d.name == name) {
        return d.about.clone();
    }
    let each = crate::systems::attackers::EACH;
    name.split_once('.')
        .and_then(|(who, own)| {
            let d = decls.iter().find(|d| d.name == format!("{each}{own}"))?;
            Some(format!("{who}: {}", d.about))
        })
        .unwrap_or_default()
}

/// The parameters of the profiles `which`: those every one of them ran
/// on with the same value from the same place, and the rest (by name,
/// one `Option<&Input>` per profile in `which`).
pub struct Split<'a> {
    /// Shared by all: one input each.
    pub common: Vec<&'a Input>,
    /// Differing: the name, then each profile's input (None: not set).
    pub differing: Vec<(String, Vec<Option<&'a Input>>)>,
}

/// Splits the inputs of profiles `which` (see [`Split`]).
pub fn split<'a>(exp: &'a Experiment, which: &[usize]) -> Split<'a> {
    let mut names: Vec<&str> = which
        .iter()
        .flat_map(|&p| exp.inputs[p].iter().map(|i| i.name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut common = Vec::new();
    let mut differing = Vec::new();
    for name in names {
        let each: Vec<Option<&Input>> = which
            .iter()
            .map(|&p| exp.inputs[p].iter().find(|i| i.name == name))
            .collect();
        match each.first() {
            Some(Some(first)) if each.iter().all(|i| *i == Some(*first)) => common.push(*first),
            _ => differing.push((name.to_string(), each)),
        }
    }
    Split { common, differing }
}

/// A profile's cell in the by-profile table: the value, with where it came
/// from unless the profile set it itself.
fn cell(input: Option<&Input>) -> String {
    match input {
        None => "not set".into(),
        Some(i) if i.source == Source::Profile => value_of(i),
        Some(i) => format!("{} ({})", value_of(i), source_text(&i.source)),
    }
}

fn all(exp: &Experiment) -> Vec<usize> {
    (0..exp.profiles.len()).collect()
}

/// The variants in force as `name=value` with what each means.
fn variants(exp: &Experiment) -> Vec<(String, String, &'static str)> {
    let rules = crate::systems::rule_set(&exp.system).ok();
    exp.variants_in_use()
        .into_iter()
        .map(|(k, v)| {
            let about = rules
                .and_then(|r| r.variants.iter().find(|d| d.name == k))
                .map_or("", |d| d.about);
            (k, v, about)
        })
        .collect()
}

/// The sweep in one line: `` `range` = 6, 12, 18; `cover` = none, partial ``.
fn sweep_text(exp: &Experiment, code: impl Fn(&str) -> String) -> String {
    exp.axes
        .iter()
        .map(|a| {
            let values: Vec<String> = a.values.iter().map(ToString::to_string).collect();
            format!("{} = {}", code(&a.name), values.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The `## Inputs` section of `summary.md`.
pub fn markdown(exp: &Experiment) -> String {
    let md = |s: &str| escape::markdown(s).into_owned();
    let mut out = String::from("## Inputs\n\n");
    if !exp.axes.is_empty() {
        let _ = writeln!(out, "Swept: {}.\n", sweep_text(exp, |n| format!("`{n}`")));
    }
    let split = split(exp, &all(exp));
    if !split.common.is_empty() {
        let _ = writeln!(
            out,
            "{}\n\n| parameter | value | from | what it is |\n|---|---|---|---|",
            if exp.profiles.len() == 1 {
                "The profile ran on:"
            } else {
                "Every profile ran on:"
            }
        );
        for i in &split.common {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                i.name,
                md(&value_of(i)),
                md(&source_text(&i.source)),
                md(&about(exp, &i.name))
            );
        }
        out.push('\n');
    }
    if !split.differing.is_empty() {
        let _ = write!(out, "By profile:\n\n| parameter |");
        for p in &exp.profiles {
            let _ = write!(out, " {} |", md(p));
        }
        let _ = write!(out, "\n|---|");
        for _ in &exp.profiles {
            out.push_str("---|");
        }
        out.push('\n');
        for (name, each) in &split.differing {
            let _ = write!(out, "| `{name}` |");
            for i in each {
                let _ = write!(out, " {} |", md(&cell(*i)));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    let v = variants(exp);
    if v.is_empty() {
        out.push_str("Rule variants in force: none (this scenario reads none).\n\n");
    } else {
        out.push_str("Rule variants in force:\n\n");
        for (k, val, about) in v {
            let _ = writeln!(out, "- `{k}={val}`: {}", md(about));
        }
        out.push('\n');
    }
    for (p, profile) in exp.profiles.iter().enumerate() {
        let own = exp.profile_variants_in_use(p);
        if own != exp.variants_in_use() {
            let _ = writeln!(
                out,
                "Profile **{}** runs with variants `{}`.\n",
                md(profile),
                crate::experiment::variants_text(&own)
            );
        }
    }
    out
}

/// The inputs section of `report.html`.
pub fn html(exp: &Experiment) -> String {
    let mut out = String::from("<h2>Inputs</h2>\n");
    if !exp.axes.is_empty() {
        let _ = writeln!(
            out,
            "<p>Swept: {}.</p>",
            sweep_text(exp, |n| format!("<code>{}</code>", html_escape(n)))
        );
    }
    let split = split(exp, &all(exp));
    let code = |s: &str| format!("<code>{}</code>", html_escape(s));
    if !split.common.is_empty() {
        let _ = writeln!(
            out,
            "<p>{}</p>\n<table class=\"inputs\">\n<thead><tr><th>parameter</th><th>value</th><th>from</th><th>what it is</th></tr></thead>\n<tbody>",
            if exp.profiles.len() == 1 {
                "The profile ran on:"
            } else {
                "Every profile ran on:"
            }
        );
        for i in &split.common {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                code(&i.name),
                html_escape(&value_of(i)),
                html_escape(&source_text(&i.source)),
                html_escape(&about(exp, &i.name))
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    if !split.differing.is_empty() {
        out.push_str("<p>By profile:</p>\n<table class=\"inputs\">\n<thead><tr><th>parameter</th>");
        for p in &exp.profiles {
            let _ = write!(out, "<th>{}</th>", html_escape(p));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (name, each) in &split.differing {
            let _ = write!(out, "<tr><td>{}</td>", code(name));
            for i in each {
                let _ = write!(out, "<td>{}</td>", html_escape(&cell(*i)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out
}

fn param_json(v: &ParamValue) -> Value {
    match v {
        ParamValue::Int(i) => json!(i),
        ParamValue::Float(f) => json!(f),
        ParamValue::Str(s) => json!(s),
        ParamValue::Bool(b) => json!(b),
    }
}

/// The `inputs` object of `results.json`: the spec's `[base]` as written,
/// then per profile every parameter it ran on (value, or null where it
/// changes with the sweep; and where it came from) and its variants.
pub fn inputs_json(exp: &Experiment) -> Value {
    let base: serde_json::Map<String, Value> = exp
        .base
        .iter()
        .map(|(k, v)| (k.clone(), param_json(v)))
        .collect();
    let profiles: Vec<Value> = exp
        .profiles
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let params: serde_json::Map<String, Value> = exp.inputs[p]
                .iter()
                .map(|i| {
                    (
                        i.name.clone(),
                        json!({
                            "value": i.value.as_ref().map(param_json),
                            "from": source_text(&i.source),
                        }),
                    )
                })
                .collect();
            let variants: serde_json::Map<String, Value> = exp
                .profile_variants_in_use(p)
                .into_iter()
                .map(|(k, v)| (k, json!(v)))
                .collect();
            json!({"profile": name, "params": params, "variants": variants})
        })
        .collect();
    json!({"base": base, "profiles": profiles})
}

/// The fixed conditions of a chart that draws profiles `which`, in words:
/// every parameter they share that the spec set (a preset by its name,
/// not its stats), the rule variants in force (when `with_variants`), and
/// how many more parameters are at the scenario's defaults. The sweep
/// axes a chart holds fixed are in its title.
pub fn chart_fixed(exp: &Experiment, which: &[usize], with_variants: bool) -> String {
    chart_fixed_beside(exp, which, with_variants, None)
}

/// [`chart_fixed`], leaving out what `other` (the other side of a
/// comparison) runs on otherwise in any of the profiles.
pub fn chart_fixed_beside(
    exp: &Experiment,
    which: &[usize],
    with_variants: bool,
    other: Option<&Experiment>,
) -> String {
    let split = split(exp, which);
    let mut set = Vec::new();
    let mut defaults = 0;
    let same_in_other = |i: &Input| {
        other.is_none_or(|o| {
            which.iter().all(|&p| {
                o.inputs
                    .get(p)
                    .and_then(|list| list.iter().find(|x| x.name == i.name))
                    .is_some_and(|x| x.value == i.value)
            })
        })
    };
    for i in split.common.iter().filter(|i| same_in_other(i)) {
        match (&i.source, &i.value) {
            (Source::Default, _) => defaults += 1,
            (Source::Preset { .. }, _) | (_, None) => {}
            (_, Some(v)) => set.push(axis_value_words(exp, &i.name, v)),
        }
    }
    let mut parts = Vec::new();
    if !set.is_empty() {
        parts.push(format!("Fixed: {}", set.join("; ")));
    }
    let shared_variants: Vec<String> = exp
        .variants_in_use()
        .into_iter()
        .filter(|(k, v)| {
            which.iter().all(|&p| {
                exp.profile_variants_in_use(p)
                    .iter()
                    .any(|(k2, v2)| k2 == k && v2 == v)
            })
        })
        .map(|(k, v)| {
            format!(
                "{}: {}",
                k.replace('_', " "),
                value_words(&ParamValue::Str(v))
            )
        })
        .collect();
    if with_variants && !shared_variants.is_empty() {
        parts.push(format!("rules: {}", shared_variants.join("; ")));
    }
    if defaults > 0 {
        parts.push(format!(
            "{defaults} other parameter{} at {} default",
            if defaults == 1 { "" } else { "s" },
            if defaults == 1 { "its" } else { "their" }
        ));
    }
    parts.join(" · ")
}

/// The one-line answer a report opens with: the first chart's metric (or
/// the first metric) for each profile, over the sweep from its first
/// cell to its last where there is one.
pub fn answer(exp: &Experiment, results: &Results) -> String {
    let metric = exp
        .charts
        .first()
        .map(|c| c.metric().to_string())
        .or_else(|| exp.metrics.first().cloned())
        .unwrap_or_default();
    let value = |p: &str, cell: usize| {
        results
            .rows
            .iter()
            .find(|r| r.profile == p && r.cell_index == cell && r.metric == metric)
            .map(|r| {
                let v = r.exact.unwrap_or(r.value);
                let text = value_text(exp, &metric, v);
                if r.exact.is_some() {
                    text
                } else {
                    format!("≈{text}")
                }
            })
    };
    let last = exp.models.len().saturating_sub(1);
    let shown = 8;
    let mut parts: Vec<String> = exp
        .profiles
        .iter()
        .take(shown)
        .filter_map(|p| {
            let first = value(p, 0)?;
            Some(if last == 0 {
                format!("{p} {first}")
            } else {
                let end = value(p, last).unwrap_or_else(|| "—".into());
                format!("{p} {first} → {end}")
            })
        })
        .collect();
    if exp.profiles.len() > shown {
        parts.push(format!("and {} more profiles", exp.profiles.len() - shown));
    }
    let over = if last == 0 {
        String::new()
    } else {
        let cell = |c: usize| super::labels::cell_text(exp, &exp.cell_values(c));
        if exp.axes.len() == 1 {
            let a = &exp.axes[0];
            format!(
                " as {} goes {} → {}",
                a.name,
                a.values[0],
                a.values[a.values.len() - 1]
            )
        } else {
            format!(" from ({}) to ({})", cell(0), cell(last))
        }
    };
    format!(
        "{}{over}: {}.",
        metric_label(exp, &metric),
        parts.join("; ")
    )
}
