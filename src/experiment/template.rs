//! `krunch new SYSTEM SCENARIO`: a commented spec to start from, with every
//! parameter of the scenario from the registry (what it means, its type,
//! its default or "required"), the rule variants, the metrics, and a sweep
//! and charts left commented out. Required parameters are filled from the
//! scenario's first test point (or a value of the right type), so the spec
//! runs as written.

use crate::systems::ParamError;
use crate::systems::{Need, ParamDecl, ParamKind, RuleSet, rule_set};
use std::fmt::Write;

/// `text` as a TOML value: numbers and flags bare, anything else quoted. A
/// real number is written as Rust prints it (`1e3` as `1000.0`, `.5` as
/// `0.5`), always with a point or an exponent: a TOML float, never
/// `1e3.0`.
fn toml_value(text: &str) -> String {
    if text.parse::<i64>().is_ok() || text == "true" || text == "false" {
        text.to_string()
    } else if let Some(v) = text.parse::<f64>().ok().filter(|v| v.is_finite()) {
        format!("{v:?}")
    } else {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// A value of `d`'s type to fill in where it is required.
fn stand_in(rules: &RuleSet, d: &ParamDecl) -> String {
    match &d.kind {
        ParamKind::Int { lo, hi } => (*lo.max(&1)).min(*hi).to_string(),
        ParamKind::Real { lo, .. } => format!("{lo:?}"),
        ParamKind::Flag => "false".into(),
        ParamKind::Choice(values) => toml_value(values[0]),
        ParamKind::Text { example } => format!("\"{example}\""),
        ParamKind::Preset { catalogue, .. } => toml_value(
            rules
                .presets_of(catalogue)
                .next()
                .map_or("custom", |p| p.name),
        ),
    }
}

/// A whole number for an optional parameter that a run accepts on the
/// template's own values (a save of 1+ is refused, so the first score a
/// run takes is shown), or `None` when none of the first few is.
fn accepted_stand_in(
    rules: &RuleSet,
    scenario: &str,
    point: &[(&str, &str)],
    d: &ParamDecl,
) -> Option<String> {
    use crate::systems::{ParamValue, Params};
    let ParamKind::Int { lo, hi } = d.kind else {
        return None;
    };
    let first = lo.max(1).min(hi);
    // (the lowest, 0 say, only where no value from 1 up is taken)
    (first..=hi.min(first + 11))
        .chain(std::iter::once(lo))
        .map(|v| v.to_string())
        .find(|v| {
            let mut p = Params::new();
            for (k, x) in point {
                p.set(*k, ParamValue::from_text(x));
            }
            with_needs(&mut p, d);
            p.set(d.name.as_str(), ParamValue::from_text(v));
            crate::systems::build(rules.name, scenario, &p, &Params::new()).is_ok()
        })
}

/// Sets (or unsets) the other parameters `d` is used with.
pub fn with_needs(p: &mut crate::systems::Params, d: &ParamDecl) {
    for (name, needed) in &d.needs {
        match needed.value() {
            Some(v) => p.set(name.clone(), crate::systems::ParamValue::from_text(v)),
            None => {
                p.remove(name);
            }
        }
    }
}

/// The metric names a run of `scenario` at the template's `point` reports.
fn reported_metrics(rules: &RuleSet, scenario: &str, point: &[(&str, &str)]) -> Vec<String> {
    use crate::systems::{ParamValue, Params};
    let mut p = Params::new();
    for (k, x) in point {
        p.set(*k, ParamValue::from_text(x));
    }
    crate::systems::build(rules.name, scenario, &p, &Params::new())
        .map(|m| m.metrics().iter().map(|d| d.name.clone()).collect())
        .unwrap_or_default()
}

/// "   # with crew = 1" after a commented value that needs another
/// parameter, or nothing.
fn needs_note(d: &ParamDecl) -> String {
    if d.needs.is_empty() {
        String::new()
    } else {
        format!("   # {}", d.needs_text())
    }
}

/// One line of comment text, wrapped at about 76 columns.
fn comment(out: &mut String, text: &str) {
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 76 && line.len() > 1 {
            let _ = writeln!(out, "{line}");
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    let _ = writeln!(out, "{line}");
}

/// The spec text for `system`'s `scenario`.
pub fn new_spec(system: &str, scenario: &str) -> Result<String, ParamError> {
    let rules = rule_set(system)?;
    let sc = rules.scenario(scenario)?;
    let point: &[(&str, &str)] = sc.test_points.first().copied().unwrap_or(&[]);
    let params = (sc.params)();
    let mut o = String::new();
    comment(
        &mut o,
        &format!(
            "{} — {}: {} (seed text: {}, {}).",
            rules.title, sc.name, sc.about, rules.seed, sc.seed_section
        ),
    );
    comment(
        &mut o,
        &format!(
            "Written by `krunch new {system} {scenario}`. Run it with `krunch run FILE`; every field is explained in README.md, and `krunch list {system} {scenario}` lists the same parameters."
        ),
    );
    o.push('\n');
    let _ = writeln!(o, "title = \"{} {}\"", rules.name, sc.name);
    let _ = writeln!(o, "system = \"{system}\"");
    let _ = writeln!(o, "scenario = \"{scenario}\"");
    o.push_str("# Monte Carlo trials per sweep cell and profile; exact values are computed\n# besides wherever the model has them.\ntrials = 200000\n");
    o.push_str(
        "# The same seed gives byte-identical results on any number of threads.\nseed = 1\n",
    );
    let metrics = (sc.metrics)();
    o.push_str("# Metrics to report (all when left out):\n");
    // each distribution family's "at least k", derived from it
    for m in metrics
        .iter()
        .chain(&super::at_least::derived_decls(&metrics))
    {
        let _ = writeln!(o, "#   {:<30} {} — {}", m.id, m.label, m.about);
    }
    // the hints name metrics the template's own run reports (a metric
    // reported only under other parameters, such as Crisis healing's
    // P(Medicine succeeds) without a healer, would be refused)
    let reported = reported_metrics(rules, scenario, point);
    let shown: Vec<_> = metrics
        .iter()
        .filter(|m| !m.is_family() && reported.iter().any(|r| r == m.id))
        .collect();
    let ids: Vec<String> = shown
        .iter()
        .take(3)
        .map(|m| format!("\"{}\"", m.id))
        .collect();
    let _ = writeln!(o, "# metrics = [{}]", ids.join(", "));
    // only the variants this scenario reads: the others change nothing here
    let read = sc.variants.to_vec();
    if !read.is_empty() {
        o.push_str("\n# Rule variants (a choice of reading or of rule version); the first value is\n# the default.\n[variants]\n");
        for v in rules.variants.iter().filter(|v| read.contains(&v.name)) {
            comment(&mut o, &format!("{}: {}", v.name, v.about));
            let _ = writeln!(
                o,
                "# {} = \"{}\"   # {}",
                v.name,
                v.values[0],
                v.values.join(" | ")
            );
        }
    }
    o.push_str("\n# Parameters every profile starts from. Required ones are set (from an\n# example); the others are commented out at their default.\n[base]\n");
    // a volley's attackers go in [[attacker]] entries after [base]
    let each = crate::systems::attackers::EACH;
    let volley = crate::systems::attackers::is_volley(&params);
    let listed = |d: &ParamDecl| volley && d.name == crate::systems::attackers::ATTACKERS;
    let base: Vec<(String, String, &ParamDecl)> = params
        .iter()
        .filter(|d| !d.name.starts_with(each) && !listed(d))
        .map(|d| (d.name.clone(), d.name.clone(), d))
        .collect();
    let mut swept: Option<(String, &ParamDecl)> = None;
    write_block(&mut o, rules, sc.name, point, &base, &mut swept);
    let attackers = point
        .iter()
        .find(|(k, _)| volley && *k == crate::systems::attackers::ATTACKERS)
        .map(|(_, v)| v.split(',').map(str::trim).collect::<Vec<_>>())
        .unwrap_or_default();
    if !attackers.is_empty() {
        o.push_str("\n# The attackers, in the order they fire: one [[attacker]] entry each, with a\n# name (its parameters are then called boyz.count, boyz.bs in profiles,\n# sweeps, charts and expects), how many fire, and what each sets.\n");
    }
    for who in attackers {
        let _ = write!(o, "[[attacker]]\nname = \"{who}\"\n");
        let own: Vec<(String, String, &ParamDecl)> = params
            .iter()
            .filter_map(|d| {
                let stripped = d.name.strip_prefix(each)?;
                Some((stripped.to_string(), format!("{who}.{stripped}"), d))
            })
            .collect();
        write_block(&mut o, rules, sc.name, point, &own, &mut swept);
        o.push('\n');
    }
    o.push_str("\n# One [[profile]] per thing compared: a name, and the parameters that differ\n# from [base] (and `variants = { ... }` of its own, if any).\n[[profile]]\nname = \"first\"\n");
    o.push_str("\n# A sweep runs every combination of the values listed (one axis per line).\n");
    match swept {
        Some((name, d)) => {
            let ParamKind::Int { lo, hi } = d.kind else {
                unreachable!("only whole-number parameters are picked")
            };
            let values: Vec<String> = (lo.max(1)..=hi.min(lo.max(1) + 3))
                .map(|v| v.to_string())
                .collect();
            let _ = writeln!(o, "# [sweep]\n# {name} = [{}]", values.join(", "));
            // a metric a chart can name: not a family's `{k}` pattern, and
            // one the run reports
            let first = shown.first().map_or("", |m| m.id);
            let _ = writeln!(
                o,
                "\n# Charts: bar (every cell), line (along one sweep axis: x; `by` another axis\n# for a line per value, `at = {{ axis = value }}` for a slice), heatmap (x, y),\n# distribution (a family such as hits={{k}} along k: P(= k) and P(>= k)).\n# [[chart]]\n# kind = \"line\"\n# metric = \"{first}\"\n# x = \"{name}\""
            );
        }
        None => {
            o.push_str("# [sweep]\n# parameter = [value, value]\n");
        }
    }
    o.push_str("\n# Pinned expectations for `krunch check` (or let `krunch check --update` write\n# baselines):\n# [[expect]]\n# metric = \"...\"\n# value = 0.5\n");
    Ok(o)
}

/// Writes `entries` (the name shown, the key in the test point, the
/// declaration) as commented parameter lines: [base]'s, or one attacker's
/// under its [[attacker]] entry. The first required whole number becomes
/// the sweep suggested.
fn write_block<'a>(
    o: &mut String,
    rules: &RuleSet,
    scenario: &str,
    point: &[(&str, &str)],
    entries: &[(String, String, &'a ParamDecl)],
    swept: &mut Option<(String, &'a ParamDecl)>,
) {
    // what the presets chosen above fill in: those required parameters are
    // left commented at the preset's value (setting one overrides the preset)
    let mut from_preset: Vec<(String, &str, &str)> = Vec::new();
    for (_, key, d) in entries {
        let ParamKind::Preset { catalogue, prefix } = &d.kind else {
            continue;
        };
        let chosen = point
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.to_ascii_lowercase())
            .or_else(|| {
                rules
                    .presets_of(catalogue)
                    .next()
                    .map(|p| p.name.to_string())
            });
        if let Some(preset) = rules
            .presets_of(catalogue)
            .find(|p| Some(p.name) == chosen.as_deref())
        {
            for (stat, value) in preset.sets {
                from_preset.push((format!("{prefix}{stat}"), preset.name, value));
            }
        }
    }
    for (name, key, d) in entries {
        let d: &ParamDecl = d;
        let given = point
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| toml_value(v));
        let mut about = d.about.clone();
        if !d.seed.is_empty() {
            about = format!("{about} ({})", d.seed);
        }
        comment(
            o,
            &format!(
                "{}: {} [{}; {}]",
                name,
                about,
                d.type_text(),
                // what it is used with goes after its commented value
                d.need_alone_text()
            ),
        );
        let preset = from_preset.iter().find(|(stat, ..)| stat == name);
        match (&d.need, given) {
            (_, None) if preset.is_some() => {
                let (_, preset, value) = preset.expect("checked");
                let _ = writeln!(
                    o,
                    "# {name} = {}   # from the preset \"{preset}\"; set it to override",
                    toml_value(value)
                );
            }
            (Need::Required, given) => {
                let value = given.unwrap_or_else(|| stand_in(rules, d));
                let _ = writeln!(o, "{name} = {value}");
                if swept.is_none() && matches!(d.kind, ParamKind::Int { .. }) {
                    *swept = Some((key.clone(), d));
                }
            }
            (_, Some(value)) => {
                let _ = writeln!(o, "{name} = {value}");
            }
            (Need::Default(v), None) => {
                let _ = writeln!(o, "# {name} = {}{}", toml_value(v), needs_note(d));
            }
            (Need::Optional, None) => {
                // an attacker's value is tried as its own (`boyz.catch_fire`,
                // with what it needs of that attacker)
                let mut own = d.clone();
                if let Some((who, _)) = key.split_once('.') {
                    own.name = key.clone();
                    for (other, _) in &mut own.needs {
                        *other =
                            other.replacen(crate::systems::attackers::EACH, &format!("{who}."), 1);
                    }
                }
                let value = accepted_stand_in(rules, scenario, point, &own)
                    .unwrap_or_else(|| stand_in(rules, d));
                let _ = writeln!(o, "# {name} = {value}{}", needs_note(d));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::testing::spec;
    use crate::systems::RULE_SETS;

    #[test]
    fn values_are_written_as_toml_reads_them() {
        assert_eq!(toml_value("3"), "3");
        assert_eq!(toml_value("-2"), "-2");
        assert_eq!(toml_value("true"), "true");
        assert_eq!(toml_value("2.5"), "2.5");
        assert_eq!(toml_value("d6"), "\"d6\"");
        assert_eq!(toml_value("inf"), "\"inf\"");
        assert_eq!(toml_value("say \"hi\" \\"), "\"say \\\"hi\\\" \\\\\"");
        let read = |v: &str| -> toml::Value {
            let doc: toml::Table = toml::from_str(&format!("x = {}", toml_value(v))).unwrap();
            doc["x"].clone()
        };
        assert_eq!(read("3").as_integer(), Some(3));
        assert_eq!(read("2.5").as_float(), Some(2.5));
        assert_eq!(read("true").as_bool(), Some(true));
        assert_eq!(read("d6").as_str(), Some("d6"));
        assert_eq!(read("say \"hi\" \\").as_str(), Some("say \"hi\" \\"));
        // reals without a point: a float of the same value, valid TOML
        for (text, value) in [
            ("1e3", 1000.0),
            ("2.5e-3", 0.0025),
            ("1E3", 1000.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("+1.5", 1.5),
            ("1e300", 1e300),
            ("99999999999999999999", 1e20),
        ] {
            assert_eq!(read(text).as_float(), Some(value), "{text}");
        }
    }

    /// Comments wrap at about 76 columns and keep every word.
    #[test]
    fn comments_wrap_and_keep_every_word() {
        let text = "word ".repeat(40);
        let mut out = String::new();
        comment(&mut out, &text);
        assert!(
            out.lines().all(|l| l.starts_with('#') && l.len() <= 76),
            "{out}"
        );
        assert_eq!(out.matches("word").count(), 40);
    }

    /// The spec `krunch new` writes for every registered scenario loads as
    /// written, and again with its metrics, sweep and chart uncommented
    /// (each names metrics the run reports); it names
    /// every metric and parameter of the scenario.
    #[test]
    fn every_scenarios_new_spec_runs_as_written() {
        for r in RULE_SETS {
            for sc in r.scenarios {
                let text = new_spec(r.name, sc.name).unwrap();
                let name = format!("new-{}-{}", r.name, sc.name);
                let (_, exp) = spec(&name, &text);
                assert_eq!(exp.system, r.name);
                assert_eq!(exp.scenario, sc.name);
                for m in (sc.metrics)() {
                    assert!(text.contains(&format!("#   {}", m.id)), "{name}: {}", m.id);
                }
                for d in (sc.params)() {
                    // a volley's attackers are [[attacker]] entries, each
                    // attacker's parameters under its own name
                    let volley = crate::systems::attackers::is_volley(&(sc.params)());
                    if volley && d.name == crate::systems::attackers::ATTACKERS {
                        assert!(text.contains("\n[[attacker]]\nname = "), "{name}");
                        continue;
                    }
                    let shown = d.name.strip_prefix("attacker.").unwrap_or(&d.name);
                    assert!(text.contains(&format!("# {shown}: ")), "{name}: {}", d.name);
                }
                if text.contains("# [sweep]\n# parameter") {
                    continue;
                }
                // the sweep's two lines and the chart's four, uncommented
                let mut left: u32 = 0;
                let opened: String = text
                    .lines()
                    .map(|l| {
                        if l == "# [sweep]" {
                            left = 2;
                        } else if l == "# [[chart]]" {
                            left = 4;
                        }
                        if left > 0 || l.starts_with("# metrics = [") {
                            left = left.saturating_sub(1);
                            format!("{}\n", &l[2..])
                        } else {
                            format!("{l}\n")
                        }
                    })
                    .collect();
                let path =
                    crate::experiment::testing::scratch(&format!("{name}-swept")).join("s.toml");
                std::fs::write(&path, &opened).unwrap();
                match crate::experiment::load(&path) {
                    Ok(exp) => assert!(exp.models.len() > 1, "{name}: the sweep has one cell"),
                    Err(e) => panic!("{name} with its sweep and chart: {e}"),
                }
            }
        }
        assert!(new_spec("gce", "nonesuch").is_err());
        assert!(new_spec("nonesuch", "shooting").is_err());
    }
}
