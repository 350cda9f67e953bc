//! Issue 24 item 11: compare's outputs name what each side runs on with
//! its description, say what "significant" means and under which seed,
//! trials and version, say so when nothing changes, and keep only the
//! rows asked for (`--changed-only`, `--metric`).

use std::path::PathBuf;
use std::process::{Command, Output};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn spec(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("experiments")
        .join(name)
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-cmp24-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Table rows of a MediaWiki table: the lines after each `|-`.
fn wiki_rows(wiki: &str) -> Vec<&str> {
    let lines: Vec<&str> = wiki.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "|-")
        .map(|w| w[1])
        .collect()
}

#[test]
fn every_output_names_the_rule_the_test_and_the_run() {
    let out = scratch("named");
    let o = krunch(&[
        "compare",
        &spec("overwatch_rule_change.toml"),
        "--variant",
        "overwatch=original",
        "--trials",
        "4000",
        "--alpha",
        "0.02",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let summary = stdout(&o);
    let dir = out.join("overwatch_rule_change-compare");
    let md = std::fs::read_to_string(dir.join("compare.md")).unwrap();
    let wiki = std::fs::read_to_string(dir.join("compare.wiki")).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for (what, text) in [
        ("stdout", &summary),
        ("compare.md", &md),
        ("compare.wiki", &wiki),
        ("report.html", &html),
    ] {
        // the rule with its values and its description from the registry
        assert!(
            text.contains(
                "rule variant overwatch: before current; after original (Overwatch hit modifier"
            ),
            "{what}: {text}"
        );
        // the test and its level
        assert!(text.contains("McNemar"), "{what}");
        assert!(text.contains("where p is below 0.02 (--alpha)"), "{what}");
        // seed, trials, version
        assert!(
            text.contains("Seed 14; 4000 paired trials per cell and profile; krunch "),
            "{what}"
        );
    }
}

#[test]
fn a_comparison_where_nothing_changes_says_so_in_every_form() {
    let out = scratch("nothing");
    // the ram scenario never reads overwatch: no result can move
    let args = |print: &'static str| {
        vec![
            "compare".to_string(),
            spec("vehicle_collisions.toml"),
            "--variant".into(),
            "overwatch=original".into(),
            "--trials".into(),
            "2000".into(),
            "-q".into(),
            "--out".into(),
            out.display().to_string(),
            "--print".into(),
            print.into(),
        ]
    };
    for print in ["wiki", "markdown", "summary"] {
        let a = args(print);
        let o = krunch(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let text = stdout(&o);
        let said = text.contains("Nothing changes: all ")
            || text.contains(" 0 of ") && text.contains("results change significantly");
        assert!(said, "--print {print}: {text}");
    }
    // with --changed-only, no table at all, and the words instead
    let mut a = args("wiki");
    a.push("--changed-only".into());
    let o = krunch(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let text = stdout(&o);
    assert!(text.contains("Nothing changes: all "), "{text}");
    assert!(!text.contains("{|"), "{text}");
}

#[test]
fn changed_only_and_metric_keep_the_rows_asked_for() {
    let out = scratch("filter");
    let base = [
        "compare".to_string(),
        spec("overwatch_rule_change.toml"),
        "--variant".into(),
        "overwatch=original".into(),
        "--trials".into(),
        "4000".into(),
        "-q".into(),
        "--out".into(),
        out.display().to_string(),
        "--print".into(),
        "wiki".into(),
    ];
    let run = |extra: &[&str]| {
        let mut a: Vec<&str> = base.iter().map(String::as_str).collect();
        a.extend(extra);
        stdout(&krunch(&a))
    };
    let all = run(&[]);
    let rows = wiki_rows(&all);
    // every row ends in its verdict: `yes (...)` or `no ...`
    let significant: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|r| r.rsplit("|| ").next().unwrap().starts_with("yes"))
        .collect();
    assert!(!significant.is_empty() && significant.len() < rows.len());
    let changed = run(&["--changed-only"]);
    assert_eq!(wiki_rows(&changed), significant);
    let hit = run(&["--metric", "p_hit", "--metric", "p_pinned"]);
    let hit_rows = wiki_rows(&hit);
    assert_eq!(
        hit_rows,
        rows.iter()
            .copied()
            .filter(|r| r.contains("|| P(hit) ||") || r.contains("|| P(pinned) ||"))
            .collect::<Vec<_>>()
    );
    // compare.csv keeps every result of the metrics asked for
    let csv =
        std::fs::read_to_string(out.join("overwatch_rule_change-compare/compare.csv")).unwrap();
    assert_eq!(csv.lines().count() - 1, hit_rows.len());
    // a metric the spec does not have is bad input, named
    let mut a: Vec<&str> = base.iter().map(String::as_str).collect();
    a.extend(["--metric", "p_hitt"]);
    let o = krunch(&a);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--metric p_hitt") && err.contains("p_hit"),
        "{err}"
    );
    // and --help says what both do
    let help = stdout(&krunch(&["compare", "--help"]));
    assert!(
        help.contains("--changed-only") && help.contains("--metric <NAME>"),
        "{help}"
    );
}
