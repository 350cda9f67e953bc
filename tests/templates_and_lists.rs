//! Templates and lists that agree with the code (issue 24 item 8): every
//! value `krunch new` leaves commented out in `[base]` is accepted by a run
//! when uncommented (on the template's own set values, with the other
//! parameters its declaration says it is used with), and every metric
//! id a metric's description names is a column some test point writes.

use krunch::experiment::template::{self, new_spec};
use krunch::systems::{self, ParamValue, Params, RULE_SETS};
use krunch::systems::{Needed, ParamKind};

/// One parameter line of a template, set or commented out: (name, value
/// text, commented), or `None` for any other line.
fn param_line(line: &str) -> Option<(String, String, bool)> {
    let (text, commented) = match line.strip_prefix("# ") {
        Some(t) => (t, true),
        None => (line, false),
    };
    let (name, value) = text.split_once(" = ")?;
    if name.contains(' ') || name.is_empty() {
        return None;
    }
    let value = value.split("   #").next().unwrap_or(value).trim();
    Some((
        name.to_string(),
        value.trim_matches('"').to_string(),
        commented,
    ))
}

/// The `[base]` lines of a template: (name, value text, commented).
fn base_lines(spec: &str) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut in_base = false;
    for line in spec.lines() {
        if line.starts_with('[') {
            in_base = line == "[base]";
            continue;
        }
        if line == "# [sweep]" || line.starts_with("# [[") {
            in_base = false;
        }
        if in_base {
            out.extend(param_line(line));
        }
    }
    out
}

/// The `[[attacker]]` lines of a volley's template, each named
/// `<attacker>.<parameter>`: (name, value text, commented).
fn attacker_lines(spec: &str) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut who: Option<String> = None;
    let mut in_attacker = false;
    for line in spec.lines() {
        if line.starts_with('[') {
            in_attacker = line == "[[attacker]]";
            who = None;
            continue;
        }
        if !in_attacker || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix("name = ") {
            who = Some(name.trim_matches('"').to_string());
            continue;
        }
        if let (Some(w), Some((name, value, commented))) = (&who, param_line(line)) {
            out.push((format!("{w}.{name}"), value, commented));
        }
    }
    out
}

/// Every commented value is run on the template's own set values together
/// with what its declaration says it is used with (`needs`: "crew_ws"
/// with `crew = 1`, a custom weapon's stats with `a_weapons = "custom"`):
/// each must be accepted, so no refusal is excused.
#[test]
fn every_commented_template_value_is_accepted() {
    let mut refused = Vec::new();
    let mut with_needs = 0;
    for r in RULE_SETS {
        for sc in r.scenarios {
            let spec = new_spec(r.name, sc.name).unwrap();
            let decls = (sc.params)();
            let mut lines = base_lines(&spec);
            let attackers = attacker_lines(&spec);
            let who: Vec<String> = attackers
                .iter()
                .filter_map(|(k, _, _)| k.split_once('.').map(|(w, _)| w.to_string()))
                .fold(Vec::new(), |mut v, w| {
                    if !v.contains(&w) {
                        v.push(w);
                    }
                    v
                });
            if !who.is_empty() {
                lines.push(("attackers".into(), who.join(","), false));
            }
            lines.extend(attackers);
            let set: Vec<_> = lines.iter().filter(|l| !l.2).collect();
            for (name, value, _) in lines.iter().filter(|l| l.2) {
                let mut p = Params::new();
                for (k, v, _) in &set {
                    p.set(k, ParamValue::from_text(v));
                }
                // an attacker's value is read by `attacker.<parameter>`,
                // what it is used with that attacker's too
                let d = match name.split_once('.') {
                    Some((w, own)) => {
                        let mut d = decls
                            .iter()
                            .find(|d| d.name == format!("attacker.{own}"))
                            .unwrap()
                            .clone();
                        for (other, _) in &mut d.needs {
                            *other = other.replacen("attacker.", &format!("{w}."), 1);
                        }
                        d
                    }
                    None => decls.iter().find(|d| &d.name == name).unwrap().clone(),
                };
                let d = &d;
                if !d.needs.is_empty() {
                    with_needs += 1;
                }
                template::with_needs(&mut p, d);
                p.set(name, ParamValue::from_text(value));
                if let Err(e) = systems::build(r.name, sc.name, &p, &Params::new()) {
                    let with = d.needs_text();
                    refused.push(format!(
                        "{} {}: {name} = {value} {with}: {e}",
                        r.name, sc.name
                    ));
                }
            }
        }
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
    // the values that need another parameter are run, not skipped
    assert!(
        with_needs >= 90,
        "{with_needs} values run with what they need"
    );
}

/// Each parameter a declaration says a value needs is a parameter of the
/// same scenario, at a value its own declaration accepts; and the value
/// is refused without it (else the declaration says too much), so the
/// template's "with ..." note is the reason a run takes it.
#[test]
fn what_a_value_needs_is_declared_and_needed() {
    let mut wrong = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let spec = new_spec(r.name, sc.name).unwrap();
            let decls = (sc.params)();
            let lines = base_lines(&spec);
            for d in decls.iter().filter(|d| !d.needs.is_empty()) {
                for (other, needed) in &d.needs {
                    let Some(o) = decls.iter().find(|o| o.name == *other) else {
                        wrong.push(format!(
                            "{} {}: {} needs undeclared {other}",
                            r.name, sc.name, d.name
                        ));
                        continue;
                    };
                    if let Some(v) = needed.value()
                        && let Err(e) = o.check(&ParamValue::from_text(v))
                    {
                        wrong.push(format!(
                            "{} {}: {} needs {other} = {v}: {e}",
                            r.name, sc.name, d.name
                        ));
                    }
                }
                let Some((_, value, true)) = lines.iter().find(|l| l.0 == d.name) else {
                    continue;
                };
                let mut p = Params::new();
                for (k, v, _) in lines.iter().filter(|l| !l.2) {
                    p.set(k, ParamValue::from_text(v));
                }
                p.set(&d.name, ParamValue::from_text(value));
                let unmet = d.needs.iter().any(|(other, needed)| match needed {
                    Needed::Is(w) => p.given(other).is_none_or(|v| v.to_string() != *w),
                    Needed::Any(_) => !p.has(other),
                    Needed::Unset => p.has(other),
                });
                if unmet && systems::build(r.name, sc.name, &p, &Params::new()).is_ok() {
                    wrong.push(format!(
                        "{} {}: {} = {value} is accepted without {}",
                        r.name,
                        sc.name,
                        d.name,
                        d.needs_text()
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `krunch list` names metric ids in descriptions (a family's members, a
/// metric that another complements): each must be a column some test
/// point of the scenario writes, or a declared id ("p_dorsal_armament_damaged
/// ... p_bridge_smashed" named columns a run never wrote).
#[test]
fn metric_ids_named_in_descriptions_are_columns_a_run_writes() {
    let mut missing = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let decls = (sc.metrics)();
            // a choice parameter's values (payoff = "mean_wounds") are not metrics
            let choices: Vec<String> = (sc.params)()
                .iter()
                .filter_map(|d| match &d.kind {
                    ParamKind::Choice(values) => Some(values.iter()),
                    _ => None,
                })
                .flatten()
                .map(|v| v.to_string())
                .collect();
            let mut written: Vec<String> = decls.iter().map(|d| d.id.to_string()).collect();
            for point in sc.test_points {
                let mut p = Params::new();
                for (k, v) in point.iter() {
                    p.set(*k, ParamValue::from_text(v));
                }
                let model = systems::build(r.name, sc.name, &p, &Params::new()).unwrap();
                written.extend(model.metrics().iter().map(|m| m.name.clone()));
            }
            for d in &decls {
                for word in d
                    .about
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                {
                    let looks_like_id =
                        (word.starts_with("p_") || word.starts_with("mean_")) && word.len() > 3;
                    let known = written.iter().chain(&choices).any(|w| w == word);
                    if looks_like_id && !known {
                        missing.push(format!("{} {}: {} names {word}", r.name, sc.name, d.id));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
