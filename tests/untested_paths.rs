//! Paths no test reached (issue 28, item 7): `list --format json`, `new
//! --output`, `compare --print markdown` and a valid `--alpha`, the
//! content of `results.json`, and the summary's "estimates disagree"
//! branch fed a disagreeing row. Expected numbers are derived here (3D6
//! against a Leadership, the Shoota on Overwatch), not read back.

#[path = "common/independent.rs"]
mod independent;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-up-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A warp rift swept over Leadership: "Ships moving into a warp rift must
/// pass a Leadership test on 3D6".
const RIFT: &str = r#"name = "rift"
system = "bfg"
scenario = "warp_rift"
trials = 20000
seed = 28

[base]
leadership = 8

[[profile]]
name = "ship"

[sweep]
leadership = [6, 8, 12]
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn list_format_json_is_the_registry() {
    let o = krunch(&["list", "--format", "json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let sets = v.as_array().unwrap();
    let names: Vec<&str> = sets.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["gce", "bfg", "krygothic", "skirmish20", "crisis"]);
    let scenarios: usize = sets
        .iter()
        .map(|s| s["scenarios"].as_array().unwrap().len())
        .sum();
    assert_eq!(scenarios, 65);
    let o = krunch(&["list", "bfg", "warp_rift", "--format", "json"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for word in ["warp_rift", "leadership", "p_navigates", "p_lost_forever"] {
        assert!(text.contains(word), "{word}: {text}");
    }
    serde_json::from_str::<serde_json::Value>(&text).unwrap();
}

/// `krunch list` as text and as JSON are one rendering of the registry:
/// the variants a scenario reads and a yes/no metric say the same in both.
#[test]
fn list_text_and_json_say_the_same() {
    let o = krunch(&["list", "krygothic", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = String::from_utf8_lossy(&krunch(&["list", "krygothic"]).stdout).to_string();
    let mut yes_no = 0;
    for sc in v[0]["scenarios"].as_array().unwrap() {
        let name = sc["name"].as_str().unwrap();
        let read: Vec<&str> = sc["variants_read"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let block = text
            .split(&format!("\nscenario {name}: "))
            .nth(1)
            .unwrap_or_else(|| panic!("{name} in the text"));
        let line = block
            .lines()
            .find(|l| l.trim_start().starts_with("variants it reads:"))
            .unwrap();
        let listed = line.split(": ").nth(1).unwrap();
        let want = if read.is_empty() {
            "none".to_string()
        } else {
            read.join(", ")
        };
        assert_eq!(listed, want, "{name}");
        yes_no += sc["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["yes_no"] == true)
            .count();
    }
    assert!(
        yes_no > 0,
        "Kry-Gothic declares yes/no metrics (the best fire mode)"
    );
}

#[test]
fn new_output_writes_the_spec_and_refuses_to_overwrite() {
    let dir = scratch("new");
    let file = dir.join("rift.toml");
    let o = krunch(&[
        "new",
        "bfg",
        "warp_rift",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = krunch(&["new", "bfg", "warp_rift"]);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        stdout.stdout,
        "--output writes what stdout shows"
    );
    let again = krunch(&[
        "new",
        "bfg",
        "warp_rift",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("the file exists"), "{err}");
}

/// The Shoota (+1 within 12") at 8" with BS 3, on Overwatch: +1 needs 2+
/// (5/6), the original -1 needs 4+ (1/2); a 5+ save and S3 against T3
/// (4+): unsaved wounds 5/6 * 1/2 * 4/6 = 0.278 against 1/6.
#[test]
fn compare_print_markdown_and_a_valid_alpha() {
    let dir = scratch("md");
    let spec = write(
        &dir,
        "ow.toml",
        r#"name = "ow"
system = "gce"
scenario = "shooting"
trials = 20000
seed = 5

[base]
weapon = "shoota"
bs = 3
range = 8
toughness = 3
wounds = 1
save = 5
target_ws = 3
target_bs = 3
overwatch = true

[[profile]]
name = "on Overwatch"
"#,
    );
    let out = dir.join("out");
    let o = krunch(&[
        "compare",
        spec.to_str().unwrap(),
        "--variant",
        "overwatch=original",
        "--print",
        "markdown",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8_lossy(&o.stdout);
    // what differs and what "significant" means, then the table
    assert!(md.starts_with("What differs between the sides:"), "{md}");
    assert!(md.contains("\n\n| profile |"), "{md}");
    assert!(
        md.contains("| P(hit) | 83.3% | 50.0% | −33.3 points | −40.0% | exact | yes (exact) |"),
        "{md}"
    );
    assert!(
        md.contains(
            "| mean unsaved wounds | 0.278 | 0.167 | −0.111 | −40.0% | exact | yes (exact) |"
        ),
        "{md}"
    );
    // A valid --alpha is taken (and reaches the Monte Carlo test).
    for alpha in ["0.05", "0.001"] {
        let o = krunch(&[
            "compare",
            spec.to_str().unwrap(),
            "--variant",
            "overwatch=original",
            "--monte-carlo",
            "--alpha",
            alpha,
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            o.status.success(),
            "--alpha {alpha}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let s = String::from_utf8_lossy(&o.stdout);
        assert!(s.contains("P(hit) for ") && s.contains("p < 1e-12"), "{s}");
    }
}

/// P(3D6 <= ld).
fn rift(ld: i64) -> f64 {
    independent::p_sum_at_most(3, ld)
}

#[test]
fn results_json_holds_the_rows_and_their_exact_values() {
    let dir = scratch("json");
    let spec = write(&dir, "rift.toml", RIFT);
    let out = dir.join("out");
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("rift").join("results.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["system"], "bfg");
    assert_eq!(v["scenario"], "warp_rift");
    assert_eq!(v["trials"], 20000);
    assert_eq!(v["seed"], 28);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3 * 3, "three cells, three metrics");
    // Bonferroni over the nine rows at a family-wise 1e-3.
    let level = 1e-3 / rows.len() as f64;
    for r in rows {
        let ld = r["cell"]["leadership"].as_i64().unwrap();
        let pass = rift(ld);
        let want = match r["metric"].as_str().unwrap() {
            "p_navigates" => pass,
            "p_lost_in_warp" => 1.0 - pass,
            "p_lost_forever" => (1.0 - pass) / 6.0,
            m => panic!("unexpected metric {m}"),
        };
        let exact = r["exact"].as_f64().unwrap();
        assert!((exact - want).abs() < 1e-12, "{r}");
        let value = r["value"].as_f64().unwrap();
        let hits = (value * 20000.0).round() as u64;
        let p = krunch::dice::stats::binomial_p_value(hits, 20000, want);
        assert!(p > level, "{r}: p = {p}");
        let (lo, hi) = (
            r["ci_low"].as_f64().unwrap(),
            r["ci_high"].as_f64().unwrap(),
        );
        assert!(lo <= value && value <= hi, "{r}");
    }
    assert_eq!(v["check"]["exact_values"], 9);
    assert_eq!(v["check"]["flagged"], 0);
}

/// The summary's check paragraph, fed a row whose estimate is far from its
/// exact value, says they disagree (and otherwise that they agree).
#[test]
fn summary_flags_an_estimate_that_disagrees() {
    let dir = scratch("disagree");
    let spec = write(&dir, "rift.toml", RIFT);
    let exp = krunch::experiment::load(&spec).unwrap();
    let mut results = krunch::experiment::run(&exp, &|_| {});
    krunch::report::write_summary(&dir, &exp, &results, &[]).unwrap();
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        md.contains("All 9 exact values agree with their Monte Carlo estimates"),
        "{md}"
    );
    // P(navigates) at Ld 8 is 56/216 = 0.259: an estimate of 0.5 from 20000
    // trials is dozens of standard errors out.
    let row = results
        .rows
        .iter_mut()
        .find(|r| {
            r.metric == "p_navigates" && r.exact.is_some_and(|e| (e - 56.0 / 216.0).abs() < 1e-12)
        })
        .unwrap();
    row.value = 0.5;
    krunch::report::write_summary(&dir, &exp, &results, &[]).unwrap();
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        md.contains("1 of 9 exact values disagree with their Monte Carlo estimates beyond z ="),
        "{md}"
    );
}
