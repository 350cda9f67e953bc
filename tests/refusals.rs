//! Every scenario's own bad inputs (`Scenario::refusals`, declared in its
//! `<NAME>_SCENARIO` beside its builder), each written as a spec and run through the
//! command line as a user would: refused with exit code 2, the message
//! naming the file, the line and the field (where the spec gives it) and
//! the words the case asks for, nothing printed on standard output,
//! nothing written, no panic. Generic spec errors (names, sweeps, charts,
//! expects) stay in `tests/bad_input.rs`.

use krunch::systems::{ParamValue, RULE_SETS, Refusal, Scenario};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `[base]` line of `name = value`, as a user would write it.
fn toml_line(name: &str, value: &str) -> String {
    let value = match ParamValue::from_text(value) {
        ParamValue::Int(v) => v.to_string(),
        ParamValue::Float(v) => toml::Value::Float(v).to_string(),
        ParamValue::Bool(v) => v.to_string(),
        ParamValue::Str(v) => toml::Value::String(v).to_string(),
    };
    format!("{name} = {value}")
}

/// The spec of `refusal`: the scenario's test point it names changed as it
/// says, and the line `field` lands on (`None` where the spec leaves it
/// out).
fn spec_of(system: &str, sc: &Scenario, refusal: &Refusal) -> (String, Option<usize>) {
    let point: &[(&str, &str)] = sc.test_points.get(refusal.point).copied().unwrap_or(&[]);
    let mut base: Vec<(&str, &str)> = point
        .iter()
        .filter(|(k, _)| !refusal.unset.contains(k))
        .copied()
        .collect();
    for &(k, v) in refusal.set {
        match base.iter_mut().find(|(name, _)| *name == k) {
            Some(slot) => slot.1 = v,
            None => base.push((k, v)),
        }
    }
    let head = format!(
        "name = \"cat\"\ntitle = \"Refusals\"\nsystem = \"{system}\"\nscenario = \"{}\"\ntrials = 2000\nseed = 1\n\n[base]\n",
        sc.name
    );
    let volley = krunch::systems::attackers::is_volley(&(sc.params)());
    // (parameter, its line's text): [base], then a volley's attackers as
    // [[attacker]] entries, each `<name>.<parameter>` under its name
    let listed: Vec<&str> = base
        .iter()
        .find(|(k, _)| volley && *k == "attackers")
        .map(|(_, v)| v.split(',').collect())
        .unwrap_or_default();
    let own = |k: &str| k.split_once('.').is_some_and(|(w, _)| listed.contains(&w));
    // (a dotted name no listed attacker owns stays in [base], as written)
    let mut lines: Vec<(&str, String)> = base
        .iter()
        .filter(|(k, _)| !(own(k) || (volley && *k == "attackers")))
        .map(|(k, v)| (*k, toml_line(k, v)))
        .collect();
    if let Some((_, names)) = base.iter().find(|(k, _)| volley && *k == "attackers") {
        for who in names.split(',') {
            lines.push(("", String::new()));
            lines.push(("", "[[attacker]]".to_string()));
            lines.push(("", toml_line("name", who)));
            for (k, v) in &base {
                if let Some(own) = k.strip_prefix(&format!("{who}.")) {
                    lines.push((k, toml_line(own, v)));
                }
            }
        }
    }
    let first_base_line = head.lines().count() + 1;
    let line = lines
        .iter()
        .position(|(k, _)| *k == refusal.field)
        .map(|i| first_base_line + i);
    let text: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    let text = format!("{head}{}\n\n[[profile]]\nname = \"one\"\n", text.join("\n"));
    (text, line)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-refusal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn krunch(dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(["run", "cat.toml", "--quiet", "--out", "out"])
        .current_dir(dir)
        .output()
        .expect("krunch runs")
}

/// A refusal that can fail: what it leaves out is in the test point, and
/// it asks for words beyond the place the error is named at.
fn well_formed(sc: &Scenario, refusal: &Refusal, place: &str) -> Result<(), String> {
    let Some(point) = sc.test_points.get(refusal.point) else {
        return Err(format!(
            "changes test point {}, which it lacks",
            refusal.point
        ));
    };
    if let Some(k) = refusal
        .unset
        .iter()
        .find(|k| !point.iter().any(|(name, _)| name == *k))
    {
        return Err(format!(
            "leaves out '{k}', which the test point does not give"
        ));
    }
    if refusal.words.is_empty() {
        return Err("asks for no words".into());
    }
    match refusal.words.iter().find(|w| place.contains(*w)) {
        Some(w) => Err(format!("the word {w:?} is part of the place {place:?}")),
        None => Ok(()),
    }
}

/// What is wrong with how `refusal` was refused, if anything.
fn refused_as_it_should(system: &str, sc: &Scenario, refusal: &Refusal) -> Result<(), String> {
    let (text, line) = spec_of(system, sc, refusal);
    let dir = scratch(&format!("{system}-{}", sc.name));
    std::fs::write(dir.join("cat.toml"), &text).expect("the spec is written");
    let o = krunch(&dir);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    // a field the spec gives is named at its line; one it leaves out (a
    // missing parameter) at the table's, without the `base.` of a value
    // (an attacker's value is named `<attacker>.<parameter>` at its entry)
    let point: &[(&str, &str)] = sc.test_points.get(refusal.point).copied().unwrap_or(&[]);
    let listed = point
        .iter()
        .find(|(k, _)| *k == "attackers")
        .map_or("", |(_, v)| *v);
    let owned = refusal
        .field
        .split_once('.')
        .is_some_and(|(w, _)| listed.split(',').any(|l| l == w));
    let section = if owned { "" } else { "base." };
    let place = match line {
        Some(n) => format!("cat.toml:{n}: {section}{}:", refusal.field),
        None => format!(": {}: ", refusal.field),
    };
    let result = if let Err(e) = well_formed(sc, refusal, &place) {
        Err(e)
    } else if !err.contains("cat.toml:") {
        Err(format!("message lacks the file: {err}"))
    } else if o.status.code() != Some(2) {
        Err(format!("exit {:?}, wanted 2: {err}", o.status.code()))
    } else if err.contains("panicked") {
        Err(format!("panicked: {err}"))
    } else if !err.contains(&place) {
        Err(format!("message lacks {place:?}: {err}"))
    } else if let Some(w) = refusal.words.iter().find(|w| !err.contains(*w)) {
        Err(format!("message lacks {w:?}: {err}"))
    } else if !o.stdout.is_empty() {
        Err(format!(
            "printed before refusing: {}",
            String::from_utf8_lossy(&o.stdout)
        ))
    } else if dir.join("out").exists() {
        Err("wrote an output folder".to_string())
    } else {
        Ok(())
    };
    let _ = std::fs::remove_dir_all(&dir);
    result.map_err(|e| format!("{e}\n--- the spec ---\n{text}"))
}

#[test]
fn every_scenario_refuses_its_bad_inputs_at_their_line() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for r in RULE_SETS {
        for sc in r.scenarios {
            for refusal in sc.refusals {
                cases += 1;
                if let Err(e) = refused_as_it_should(r.name, sc, refusal) {
                    failures.push(format!("{}/{} ({}): {e}", r.name, sc.name, refusal.what));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} refusals failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The spec a refusal starts from, unchanged, runs: a refusal is refused
/// for what it changes, not for how the test writes specs.
#[test]
fn every_first_test_point_written_as_a_spec_runs() {
    let untouched = Refusal {
        what: "nothing",
        point: 0,
        set: &[],
        unset: &[],
        field: "",
        words: &[],
    };
    let mut failures = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let (text, _) = spec_of(r.name, sc, &untouched);
            let dir = scratch(&format!("good-{}-{}", r.name, sc.name));
            std::fs::write(dir.join("cat.toml"), &text).expect("the spec is written");
            let o = krunch(&dir);
            if !o.status.success() {
                failures.push(format!(
                    "{}/{}: {}\n{text}",
                    r.name,
                    sc.name,
                    String::from_utf8_lossy(&o.stderr)
                ));
            } else if !dir.join("out/cat/data.csv").exists() {
                failures.push(format!("{}/{}: no data.csv", r.name, sc.name));
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every registered scenario has test points (the conformance suite runs
/// them) and bad inputs it refuses (run above), so a new scenario cannot
/// land without either; its naive loop (the benchmarks' "1x",
/// `tests/naive_loops.rs`) it cannot lack: `Scenario::naive` is not
/// optional.
#[test]
fn every_registered_scenario_has_test_points_and_refusals() {
    let mut lacking = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            if sc.test_points.is_empty() {
                lacking.push(format!("{}/{}: no test points", r.name, sc.name));
            }
            if sc.refusals.is_empty() {
                lacking.push(format!(
                    "{}/{}: no refusals in its {}_SCENARIO",
                    r.name,
                    sc.name,
                    sc.name.to_uppercase()
                ));
            }
        }
    }
    assert!(lacking.is_empty(), "{}", lacking.join("\n"));
}
