//! Issue 24 item 10: every report shows what it ran on. The parameters a
//! spec ran on are worked out here from the spec's own TOML and the
//! registry's declarations (base, profile and sweep keys, the stats of the
//! presets it names, the declared defaults), not from the report code.

use krunch::systems::Need;
use krunch::systems::{ParamKind, rule_set};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-inputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every parameter name a spec runs on, from its TOML: what `[base]`, the
/// profiles and `[sweep]` set, the stats each named preset fills in (where
/// the scenario declares them), and every declared default.
fn ran_on(spec: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(spec).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let system = doc["system"].as_str().unwrap();
    let scenario = doc["scenario"].as_str().unwrap();
    let rules = rule_set(system).unwrap();
    let decls = (rules.scenario(scenario).unwrap().params)();
    let mut names = BTreeSet::new();
    let mut given: Vec<(String, toml::Value)> = Vec::new();
    for table in ["base", "sweep"] {
        if let Some(t) = doc.get(table).and_then(|t| t.as_table()) {
            given.extend(t.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    if let Some(profiles) = doc.get("profile").and_then(|p| p.as_array()) {
        for p in profiles {
            for (k, v) in p.as_table().unwrap() {
                if k != "name" && k != "variants" {
                    given.push((k.clone(), v.clone()));
                }
            }
        }
    }
    // a volley's dotted keys (`boyz.count = [1, 2]` is a table in TOML)
    // and its [[attacker]] entries, named `<attacker>.<parameter>`
    let mut who: Vec<String> = Vec::new();
    if let Some(entries) = doc.get("attacker").and_then(|a| a.as_array()) {
        for e in entries {
            let e = e.as_table().unwrap();
            let name = e["name"].as_str().unwrap().to_string();
            for (k, v) in e.iter().filter(|(k, _)| *k != "name") {
                given.push((format!("{name}.{k}"), v.clone()));
            }
            who.push(name);
        }
        given.push(("attackers".into(), toml::Value::String(who.join(","))));
    }
    let given: Vec<(String, toml::Value)> = given
        .into_iter()
        .flat_map(|(k, v)| match v {
            toml::Value::Table(t) => t
                .into_iter()
                .map(|(ik, iv)| (format!("{k}.{ik}"), iv))
                .collect::<Vec<_>>(),
            v => vec![(k, v)],
        })
        .collect();
    // the declaration a name is read by, and the prefix its preset's stats
    // take (`boyz.` for an attacker's)
    let decl_of = |k: &str| -> Option<(&krunch::systems::ParamDecl, String)> {
        if let Some(d) = decls.iter().find(|d| d.name == k) {
            return Some((d, String::new()));
        }
        let (owner, own) = k.split_once('.')?;
        let d = decls.iter().find(|d| d.name == format!("attacker.{own}"))?;
        Some((d, format!("{owner}.")))
    };
    for (k, v) in &given {
        names.insert(k.clone());
        let Some((decl, owner)) = decl_of(k) else {
            continue;
        };
        if let ParamKind::Preset { catalogue, prefix } = &decl.kind {
            let chosen: Vec<String> = match v {
                toml::Value::Array(a) => a
                    .iter()
                    .filter_map(|x| x.as_str())
                    .map(String::from)
                    .collect(),
                other => other.as_str().map(String::from).into_iter().collect(),
            };
            for preset in rules
                .presets
                .iter()
                .filter(|p| p.catalogue == *catalogue && chosen.iter().any(|c| c == p.name))
            {
                for (stat, _) in preset.sets {
                    let name = format!("{prefix}{stat}");
                    // the scenario's own stat, or (for an attacker's
                    // preset) one each attacker sets
                    let read = decls.iter().any(|d| {
                        d.name == name
                            || (!owner.is_empty() && d.name == format!("attacker.{name}"))
                    });
                    if read {
                        names.insert(format!("{owner}{name}"));
                    }
                }
            }
        }
    }
    for d in &decls {
        if matches!(d.need, Need::Default(_)) {
            match d.name.strip_prefix("attacker.") {
                Some(own) => names.extend(who.iter().map(|w| format!("{w}.{own}"))),
                None => {
                    names.insert(d.name.clone());
                }
            }
        }
    }
    names
}

/// The names each of a report's three documents shows as a parameter:
/// `name` in summary.md, <code>name</code> in report.html, and a key of
/// `inputs` (or a sweep axis) in results.json.
fn missing_in(dir: &Path, names: &BTreeSet<String>) -> Vec<String> {
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    let mut in_json = BTreeSet::new();
    for p in json["inputs"]["profiles"].as_array().unwrap() {
        in_json.extend(p["params"].as_object().unwrap().keys().cloned());
    }
    for a in json["axes"].as_array().unwrap() {
        in_json.insert(a["name"].as_str().unwrap().to_string());
    }
    let mut missing = Vec::new();
    for n in names {
        if !md.contains(&format!("`{n}`")) {
            missing.push(format!("{}: summary.md lacks {n}", dir.display()));
        }
        if !html.contains(&format!("<code>{n}</code>")) {
            missing.push(format!("{}: report.html lacks {n}", dir.display()));
        }
        if !in_json.contains(n) {
            missing.push(format!("{}: results.json lacks {n}", dir.display()));
        }
    }
    missing
}

/// The bundled reports (as committed, which `make run` rewrites) name every
/// parameter their spec ran on, in all three documents.
#[test]
fn every_bundled_report_names_every_parameter_it_ran_on() {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(root().join("experiments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    assert!(specs.len() > 20);
    let mut missing = Vec::new();
    for spec in &specs {
        let name = spec.file_stem().unwrap().to_string_lossy().into_owned();
        let names = ran_on(spec);
        assert!(!names.is_empty(), "{name}: no parameters");
        missing.extend(missing_in(&root().join("reports").join(&name), &names));
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

const CONTEST: &str = r#"
title = "A contest"
system = "crisis"
scenario = "check"
trials = 2000
seed = 3

[base]
skill = 2
opponent_skill = 7

[[profile]]
name = "plain"

[[profile]]
name = "helped"
circumstance = 2
"#;

/// A parameter the spec sets is in every document with its value and
/// where it came from; a default is marked as one; the chart says what
/// it holds fixed.
#[test]
fn a_report_shows_the_parameters_its_spec_sets() {
    let dir = scratch("contest");
    let spec = dir.join("contest.toml");
    std::fs::write(&spec, CONTEST).unwrap();
    let out = dir.join("out");
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = out.join("contest");
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(md.contains("| `opponent_skill` | 7 | base |"), "{md}");
    assert!(md.contains("| `skill` | 2 | base |"), "{md}");
    // circumstance differs: the profile's own 2, the other's default 0
    assert!(md.contains("| `circumstance` | 0 (default) | 2 |"), "{md}");
    assert!(md.contains("| `difficulty` | 4 | default |"), "{md}");
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(html.contains("<td><code>opponent_skill</code></td><td>7</td><td>base</td>"));
    // the answer comes before the method text
    let answer = html.find("<b>Answer:</b> P(success): plain ").unwrap();
    assert!(answer < html.find("class=\"prov\"").unwrap());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("results.json")).unwrap())
            .unwrap();
    assert_eq!(json["inputs"]["base"]["opponent_skill"], 7);
    let p = &json["inputs"]["profiles"][1]["params"];
    assert_eq!(p["opponent_skill"]["value"], 7);
    assert_eq!(p["circumstance"]["value"], 2);
    assert_eq!(p["circumstance"]["from"], "profile");
    assert_eq!(
        json["inputs"]["profiles"][0]["params"]["circumstance"]["from"],
        "default"
    );
    // the chart's subtitle: the shared conditions in words, the defaults counted
    let svg = std::fs::read_dir(&report)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "svg"))
        .unwrap();
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.contains("Fixed: "), "{svg}");
    assert!(svg.contains(": 7"), "the opponent's skill in the subtitle");
    assert!(svg.contains("other parameters at their default"));
    let _ = std::fs::remove_dir_all(&dir);
}
