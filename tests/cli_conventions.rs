//! Issue 24 item 12: the conventions of the shell. A man page per
//! sub-command, completions that offer rule-set and scenario names, a spec
//! on standard input (`krunch run -`), and `krunch prob --format csv`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn krunch_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("krunch runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-conv-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn every_page_the_manual_names_exists() {
    let dir = scratch("man");
    ok(&krunch(&["man", "--dir", dir.to_str().unwrap()]));
    let top = std::fs::read_to_string(dir.join("krunch.1")).unwrap();
    // roff writes `krunch\-run(1)`
    let named: Vec<String> = top
        .split("krunch\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(n, _)| n.to_string()))
        .filter(|n| n.chars().all(|c| c.is_ascii_lowercase()))
        .collect();
    assert!(named.len() >= 8, "{named:?}");
    for sub in &named {
        let page = std::fs::read_to_string(dir.join(format!("krunch-{sub}.1")))
            .unwrap_or_else(|_| panic!("krunch.1 names krunch-{sub}(1), not written"));
        assert!(page.contains(&format!(".TH krunch-{sub} 1")), "{page}");
    }
    // no page for a help sub-command that is no command
    assert!(!named.iter().any(|n| n == "help"), "{named:?}");
    // one page to stdout, and the same text as its file
    let run = ok(&krunch(&["man", "run"]));
    assert_eq!(
        run,
        std::fs::read_to_string(dir.join("krunch-run.1")).unwrap()
    );
    assert!(
        run.contains("standard input"),
        "run's page says `-` reads stdin"
    );
    let o = krunch(&["man", "runn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean 'run'"));
}

#[test]
fn completions_offer_rule_sets_and_scenarios() {
    for shell in ["bash", "zsh", "fish"] {
        let script = ok(&krunch(&["completions", shell]));
        for rules in krunch::systems::RULE_SETS {
            assert!(script.contains(rules.name), "{shell}: {}", rules.name);
            for sc in rules.scenarios {
                assert!(
                    script.contains(sc.name),
                    "{shell}: scenario {} of {}",
                    sc.name,
                    rules.name
                );
            }
        }
    }
    // parsing stays krunch's own: a misspelt rule set gets its suggestion
    let o = krunch(&["list", "gcee"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("did you mean 'gce'"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

const SPEC: &str = r#"
title = "Leadership from stdin"
system = "crisis"
scenario = "check"
trials = 1000
seed = 1

[[profile]]
name = "skill 2"
skill = 2
"#;

#[test]
fn a_spec_on_standard_input_runs_like_a_file() {
    let out = scratch("stdin");
    let o = krunch_stdin(&["run", "-", "-q", "--out", out.to_str().unwrap()], SPEC);
    ok(&o);
    let md = std::fs::read_to_string(out.join("stdin/summary.md")).unwrap();
    assert!(md.starts_with("# Leadership from stdin"), "{md}");
    assert!(md.contains("spec `<stdin>`"), "{md}");
    // the same bytes as a file give the same numbers
    let file = out.join("same.toml");
    std::fs::write(&file, SPEC).unwrap();
    ok(&krunch(&[
        "run",
        file.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]));
    let a = std::fs::read_to_string(out.join("stdin/data.csv")).unwrap();
    let b = std::fs::read_to_string(out.join("same/data.csv")).unwrap();
    assert_eq!(a, b);
    // a spec that names itself keeps its name
    let named = format!("name = \"piped\"\n{SPEC}");
    ok(&krunch_stdin(
        &["run", "-", "-q", "--out", out.to_str().unwrap()],
        &named,
    ));
    assert!(out.join("piped/report.html").exists());
    // bad input from stdin names <stdin>, its line and field, exit 2
    let bad = SPEC.replace("skill = 2", "skill = \"two\"");
    let o = krunch_stdin(&["run", "-", "-q", "--out", out.to_str().unwrap()], &bad);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("<stdin>:10: profile[0].skill"), "{err}");
    let o = krunch_stdin(&["run", "-", "-q", "--out", out.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("standard input is empty"));
}

#[test]
fn prob_writes_csv_a_spreadsheet_reads() {
    let text = ok(&krunch(&[
        "prob", "2d6", "2d6>=8", "d{1,1,2}", "--format", "csv",
    ]));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("expression,value,p,p_at_least,p_at_most")
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| {
            // the only quoted field is a `d{...}` expression with commas
            if let Some(rest) = l.strip_prefix("\"d{1,1,2}\",") {
                std::iter::once("d{1,1,2}".to_string())
                    .chain(rest.split(',').map(String::from))
                    .collect()
            } else {
                l.split(',').map(String::from).collect()
            }
        })
        .collect();
    // 2d6 counted over its 36 rolls, here, without krunch
    let count = |pred: &dyn Fn(i64) -> bool| {
        let mut n = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                if pred(a + b) {
                    n += 1;
                }
            }
        }
        n as f64 / 36.0
    };
    let two_d6: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "2d6").collect();
    assert_eq!(two_d6.len(), 11);
    for r in &two_d6 {
        let v: i64 = r[1].parse().unwrap();
        let num = |i: usize| r[i].parse::<f64>().unwrap();
        assert!((num(2) - count(&|s| s == v)).abs() < 1e-15, "{r:?}");
        assert!((num(3) - count(&|s| s >= v)).abs() < 1e-15, "{r:?}");
        assert!((num(4) - count(&|s| s <= v)).abs() < 1e-15, "{r:?}");
    }
    // a comparison: outcomes 0 and 1, P(1) = 15/36
    let cmp: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "2d6>=8").collect();
    assert_eq!(cmp.len(), 2);
    assert_eq!(cmp[1][1], "1");
    assert!((cmp[1][2].parse::<f64>().unwrap() - 15.0 / 36.0).abs() < 1e-15);
    // commas inside an expression are quoted, not new columns
    let faces: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "d{1,1,2}").collect();
    assert_eq!(faces.len(), 2);
    assert!((faces[0][2].parse::<f64>().unwrap() - 2.0 / 3.0).abs() < 1e-15);
}
