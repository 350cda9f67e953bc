//! End-to-end runs of the `krunch` binary: example specs, bad input, and
//! thread-count determinism.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_example_spec_runs_end_to_end() {
    let out = scratch("examples");
    let specs: Vec<PathBuf> = std::fs::read_dir(root().join("experiments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    assert!(specs.len() >= 3);
    let mut id_texts = Vec::new();
    let mut exact_rows: Vec<(String, f64)> = Vec::new();
    for spec in &specs {
        let o = krunch(&[
            "run",
            spec.to_str().unwrap(),
            "--trials",
            "20000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            o.status.success(),
            "{}: {}",
            spec.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let name = spec.file_stem().unwrap().to_str().unwrap();
        let dir = out.join(name);
        let csv = std::fs::read_to_string(dir.join("data.csv")).unwrap();
        let header = csv.lines().next().unwrap();
        for col in [
            "profile",
            "metric",
            "value",
            "exact",
            "ci_low",
            "ci_high",
            "trials",
            "seed",
            "variants",
            "spec_sha256",
            "krunch_version",
        ] {
            assert!(
                header.split(',').any(|c| c == col),
                "{name}: column {col} in {header}"
            );
        }
        let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        assert!(summary.contains("SHA-256"));
        if name == "shoota_vs_kannon" {
            // wide: a column per profile; the exact value first, the
            // Monte Carlo estimate beside it as its check
            assert!(
                summary.contains("## P(out of action)\n")
                    && summary.contains("| range | toughness | Shoota | Slugga | Kannon")
                    && summary.contains("| 66.67% (MC "),
                "{summary}"
            );
            assert!(summary.contains("the same random numbers"), "{summary}");
        }
        for file in ["report.html", "results.json"] {
            assert!(dir.join(file).exists(), "{name}: {file}");
        }
        // headings are the registry's labels, not metric ids
        for line in summary.lines().filter(|l| l.starts_with("## ")) {
            assert!(
                !line.contains('_') || line.contains(' '),
                "{name}: heading {line} reads as an id"
            );
        }
        let charts: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let axes = sweep_axes(spec);
        for chart in &charts {
            let file = chart.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                file.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)),
                "{name}: file name {file}"
            );
            // every title, legend, tick and axis in words, not ids
            if chart.extension().is_some_and(|x| x == "svg") {
                let svg = std::fs::read_to_string(chart).unwrap();
                for text in texts(&svg) {
                    for id in ids_in(&text, &axes) {
                        id_texts.push(format!("{name}/{file}: {id:?} in {text:?}"));
                    }
                }
            }
        }
        assert!(
            charts
                .iter()
                .any(|p| p.extension().is_some_and(|x| x == "svg"))
        );
        assert!(
            charts
                .iter()
                .any(|p| p.extension().is_some_and(|x| x == "png"))
        );
        assert!(
            !charts
                .iter()
                .any(|p| p.file_name().unwrap().to_string_lossy().starts_with(".tmp")),
            "no temporary files left"
        );
        // every row is a number inside its own interval, never NaN
        for line in csv.lines().skip(1) {
            assert!(!line.contains("NaN"), "{name}: {line}");
            let f: Vec<&str> = line.rsplitn(10, ',').collect();
            // from the right: version, sha, variants, seed, trials, ci_high, ci_low, exact, value
            let (value, lo, hi): (f64, f64, f64) = (
                f[8].parse().unwrap(),
                f[6].parse().unwrap(),
                f[5].parse().unwrap(),
            );
            assert!(lo <= value + 1e-12 && value <= hi + 1e-12, "{name}: {line}");
        }
        // results.json: the rows with an exact value, held to it below (an
        // interval built around the estimate always holds the estimate; the
        // exact value is what can fall outside)
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap())
                .unwrap();
        let confidence = json["confidence"].as_f64().unwrap();
        let kinds: std::collections::HashMap<String, String> = json["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["name"].as_str().unwrap().to_string(),
                    m["kind"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let rows = json["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{name}: results.json has rows");
        for r in rows {
            let Some(exact) = r["exact"].as_f64() else {
                continue;
            };
            let metric = r["metric"].as_str().unwrap();
            let (value, lo, hi) = (
                r["value"].as_f64().unwrap(),
                r["ci_low"].as_f64().unwrap(),
                r["ci_high"].as_f64().unwrap(),
            );
            let trials = r["trials"].as_u64().unwrap();
            let p = if kinds.get(metric).is_some_and(|k| k == "probability") {
                let hits = (value * trials as f64).round() as u64;
                krunch::dice::stats::binomial_p_value(hits, trials, exact)
            } else {
                let se = (hi - lo) / (2.0 * krunch::dice::stats::z_for(confidence));
                if se == 0.0 && value == 0.0 {
                    // every trial 0 (no spread to estimate): for a count
                    // (whole numbers >= 0) P(X > 0) <= E[X], so P(all
                    // zero) >= (1 - exact)^trials; that lower bound is
                    // the p-value used
                    (1.0 - exact.min(1.0)).powf(trials as f64)
                } else {
                    krunch::dice::stats::mean_p_value(value, se, exact)
                }
            };
            exact_rows.push((format!("{name}: {r}"), p));
        }
    }
    // Every exact value against its estimate: two-sided p-values
    // (binomial for probabilities, z for means), Bonferroni over all of
    // them at a family-wise 1e-3, fixed seeds.
    assert!(exact_rows.len() > 1000, "{} exact rows", exact_rows.len());
    let level = 1e-3 / exact_rows.len() as f64;
    let far: Vec<_> = exact_rows.iter().filter(|(_, p)| *p < level).collect();
    assert!(
        far.is_empty(),
        "estimates far from their exact values: {far:?}"
    );
    // the parameter id an axis title leads with (so a designer finds the
    // field) and the provenance line keep ids on purpose; nothing else does
    assert!(
        id_texts.is_empty(),
        "{} chart texts show ids instead of words:\n{}",
        id_texts.len(),
        id_texts.join("\n")
    );
}

/// The text nodes of an SVG, unescaped and trimmed.
fn texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        rest = &rest[start..];
        let Some(open_end) = rest.find('>') else {
            break;
        };
        let Some(close) = rest.find("</text>") else {
            break;
        };
        let body = &rest[open_end + 1..close];
        out.push(
            body.replace("&apos;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
                .trim()
                .to_string(),
        );
        rest = &rest[close + 7..];
    }
    out
}

/// What in `text` reads as an id rather than words: a snake_case token,
/// or a bare `true`/`false`. `axes` are the spec's sweep axes, whose ids
/// may lead an axis title.
fn ids_in(text: &str, axes: &[String]) -> Vec<String> {
    // the provenance line keeps ids on purpose
    if text.starts_with("krunch ") {
        return Vec::new();
    }
    // an axis title leads with its parameter id: `b_ws: B's Weapon Skill`
    let body = match text.split_once(": ") {
        Some((id, words)) if axes.iter().any(|a| a == id) => words,
        _ => text,
    };
    let mut found = Vec::new();
    for token in body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        let snake = token.contains('_') && token.split('_').filter(|p| !p.is_empty()).count() >= 2;
        if snake || token == "true" || token == "false" {
            found.push(token.to_string());
        }
    }
    found
}

#[test]
fn the_id_finder_sees_ids_and_lets_words_through() {
    let axes = ["b_ws".to_string()];
    assert_eq!(ids_in("P(attack head_butt), %", &axes), ["head_butt"]);
    assert_eq!(
        ids_in("others_under_template", &axes),
        ["others_under_template"]
    );
    assert!(ids_in("b_ws: B's Weapon Skill", &axes).is_empty());
    // only a swept axis may lead a text with its id
    assert_eq!(ids_in("a_ws: A's Weapon Skill", &axes), ["a_ws"]);
    assert_eq!(ids_in("false", &axes), ["false"]);
    assert!(ids_in("krunch 0.1.0 · seed 1 · large_rake=versus_small", &axes).is_empty());
    assert!(ids_in("P(attacker plays head butt), %", &axes).is_empty());
}

/// The `[sweep]` axes of the spec at `path`.
fn sweep_axes(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let spec: toml::Table = text.parse().unwrap();
    spec.get("sweep")
        .and_then(|s| s.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn one_thread_and_two_threads_give_identical_csv() {
    let spec = root().join("experiments/full_auto_vs_single.toml");
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = scratch(&format!("threads{threads}"));
        let o = krunch(&[
            "run",
            spec.to_str().unwrap(),
            "--threads",
            threads,
            "--trials",
            "300000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outputs.push(std::fs::read(out.join("full_auto_vs_single/data.csv")).unwrap());
    }
    assert!(
        outputs[0] == outputs[1],
        "data.csv differs between 1 and 2 threads"
    );
}

/// The vector kernels (AVX-512, where the machine has it) and their scalar
/// twins (`KRUNCH_NO_AVX512` set) draw the same: the same CSV for the
/// specs on the wide walk and on full auto's lane words, so a run gives the
/// same numbers on any machine. On a machine without AVX-512 both runs
/// take the twins and this compares a run with itself.
#[test]
fn vector_and_scalar_lanes_give_identical_csv() {
    for name in ["vehicle_fire_and_gate", "on_fire", "full_auto_vs_single"] {
        let spec = root().join(format!("experiments/{name}.toml"));
        let mut outputs = Vec::new();
        for scalar in [false, true] {
            let out = scratch(&format!("lanes-{name}-{scalar}"));
            let mut command = Command::new(env!("CARGO_BIN_EXE_krunch"));
            if scalar {
                command.env("KRUNCH_NO_AVX512", "1");
            } else {
                command.env_remove("KRUNCH_NO_AVX512");
            }
            let o = command
                .args([
                    "run",
                    spec.to_str().unwrap(),
                    "--trials",
                    "200000",
                    "--quiet",
                ])
                .args(["--out", out.to_str().unwrap()])
                .output()
                .expect("krunch runs");
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            outputs.push(std::fs::read(out.join(format!("{name}/data.csv"))).unwrap());
        }
        assert!(
            outputs[0] == outputs[1],
            "{name}: data.csv differs between the vector and scalar lanes"
        );
    }
}

fn write_spec(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, body).unwrap();
    p
}

const GOOD: &str = r#"system = "gce"
scenario = "shooting"
trials = 1000
seed = 1

[base]
weapon = "shoota"
bs = 3
range = 8
toughness = 3
wounds = 1
target_ws = 3
target_bs = 3

[[profile]]
name = "a"
"#;

/// Each bad spec with the line and the words its error must contain.
fn bad_cases() -> Vec<(&'static str, String, &'static str, &'static [&'static str])> {
    vec![
        (
            "malformed",
            GOOD.replace("trials = 1000", "trials = = 1000"),
            ":3:",
            &["toml", "expected"],
        ),
        (
            "unknown_top_key",
            format!("colour = \"red\"\n{GOOD}"),
            ":1:",
            &["colour"],
        ),
        (
            "unknown_param",
            GOOD.replace("\nbs = 3", "\nbs = 3\nbananas = 2"),
            ":9:",
            &["bananas", "unknown parameter"],
        ),
        (
            "wrong_type",
            GOOD.replace("\nbs = 3", "\nbs = \"three\""),
            ":8:",
            &["base.bs", "whole number"],
        ),
        (
            "toughness_zero",
            GOOD.replace("toughness = 3", "toughness = 0"),
            ":10:",
            &["base.toughness", "impossible"],
        ),
        (
            "save_one_plus",
            GOOD.replace("wounds = 1", "wounds = 1\nsave = 1"),
            ":12:",
            &["base.save", "1+"],
        ),
        (
            "negative_trials",
            GOOD.replace("trials = 1000", "trials = -5"),
            ":3:",
            &["trials", "impossible"],
        ),
        (
            "bad_damage_dice",
            GOOD.replace(
                "[[profile]]\nname = \"a\"",
                "[[profile]]\nname = \"a\"\ndamage = \"2d7\"",
            ),
            ":17:",
            &["profile[0].damage", "D3 or D6"],
        ),
        (
            "unknown_weapon",
            GOOD.replace("weapon = \"shoota\"", "weapon = \"lasgun\""),
            ":7:",
            &["base.weapon", "lasgun", "presets"],
        ),
        (
            "unknown_variant",
            format!("{GOOD}\n[variants]\nhyperdrive = \"on\"\n"),
            ":19:",
            &["variants.hyperdrive"],
        ),
        (
            "bad_variant_value",
            format!("{GOOD}\n[variants]\noverwatch = \"sideways\"\n"),
            ":19:",
            &["variants.overwatch", "current, original"],
        ),
        (
            "unknown_system",
            GOOD.replace("system = \"gce\"", "system = \"chess\""),
            ":1:",
            &["system", "chess"],
        ),
        (
            "unknown_metric",
            format!("metrics = [\"p_victory\"]\n{GOOD}"),
            ":1:",
            &["metrics", "p_victory"],
        ),
        (
            "full_auto_without_sf",
            GOOD.replace(
                "[[profile]]\nname = \"a\"",
                "[[profile]]\nname = \"a\"\nfire_mode = \"full_auto\"",
            ),
            ":17:",
            &["fire_mode", "Sustained Fire"],
        ),
        (
            "kannon_missing_strength",
            GOOD.replace("weapon = \"shoota\"", "weapon = \"kannon\"\nshort_hit = 0"),
            ":7:",
            &["strength", "invents none"],
        ),
        (
            "empty_sweep",
            format!("{GOOD}\n[sweep]\nrange = []\n"),
            ":19:",
            &["sweep.range", "non-empty"],
        ),
        (
            "no_profiles",
            GOOD.replace("[[profile]]\nname = \"a\"\n", ""),
            ": ",
            &["profile"],
        ),
    ]
}

#[test]
fn bad_input_names_file_line_and_field_and_exits_2() {
    let dir = scratch("bad");
    let cases = bad_cases();
    assert!(cases.len() >= 10);
    for (name, body, line, words) in cases {
        let spec = write_spec(&dir, name, &body);
        let o = krunch(&[
            "run",
            spec.to_str().unwrap(),
            "--quiet",
            "--out",
            dir.join("out").to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("{name}.toml{line}")),
            "{name}: expected file and line {line} in: {err}"
        );
        for w in words {
            assert!(err.contains(w), "{name}: expected '{w}' in: {err}");
        }
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(
            !dir.join("out").join(name).exists(),
            "{name}: nothing written on bad input"
        );
    }
}

/// Specs load side by side, but the error is the first bad spec's in the
/// order given, and nothing is run or written when any is bad.
#[test]
fn of_several_bad_specs_the_first_given_is_the_one_named() {
    let dir = scratch("first-bad");
    let good = write_spec(&dir, "good", GOOD);
    let bad_a = write_spec(&dir, "bad_a", &GOOD.replace("bs = 3", "bs = \"three\""));
    let bad_b = write_spec(&dir, "bad_b", &GOOD.replace("trials = 1000", "trials = -1"));
    let out = dir.join("out");
    for (order, named, other) in [
        ([&good, &bad_a, &bad_b], "bad_a.toml", "bad_b.toml"),
        ([&good, &bad_b, &bad_a], "bad_b.toml", "bad_a.toml"),
    ] {
        let mut args = vec!["run", "--quiet", "--out", out.to_str().unwrap()];
        args.extend(order.iter().map(|p| p.to_str().unwrap()));
        let o = krunch(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(named), "expected {named} in: {err}");
        assert!(!err.contains(other), "only the first bad spec named: {err}");
        assert!(!out.join("good").exists(), "nothing run on bad input");
    }
}

#[test]
fn missing_file_and_bad_flags_exit_non_zero() {
    let o = krunch(&["run", "/nonexistent/spec.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/spec.toml"));
    let o = krunch(&[
        "run",
        "--threads",
        "0",
        "experiments/overwatch_rule_change.toml",
    ]);
    // bad input is exit 2, with a message naming the flag and its range
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--threads 0: give 1 to 256"), "{err}");
}

#[test]
fn list_and_help_describe_the_tool() {
    let o = krunch(&["list"]);
    let text = String::from_utf8_lossy(&o.stdout);
    for w in ["gce", "bfg", "shooting", "boarding", "shoota", "agrippa"] {
        assert!(text.contains(w), "list mentions {w}");
    }
    let o = krunch(&["list", "gce", "shooting"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for w in [
        "overwatch",
        "p_out_of_action",
        "P(out of action)",
        "hits={k}",
        "toughness",
        "required",
        "default 3",
        "strength=3",
    ] {
        assert!(text.contains(w), "list gce shooting mentions {w}");
    }
    let o = krunch(&["list", "gce", "shootin"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean 'shooting'"));
    let o = krunch(&["--help"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("Examples:"));
}

#[test]
fn per_profile_variants_reach_the_rule_and_the_csv() {
    let out = scratch("variants");
    let spec = root().join("experiments/overwatch_rule_change.toml");
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "--trials",
        "1000",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("overwatch_rule_change/data.csv")).unwrap();
    // BS 3, Shoota short range +1, charging -1: 4+ (1/2); Overwatch +1 -> 3+
    // (2/3) under the current rule, -1 -> 5+ (1/3) under the original.
    let exact_hit = |profile: &str| -> (f64, String) {
        let line = csv
            .lines()
            .find(|l| l.contains(profile) && l.contains(",none,p_hit,"))
            .unwrap_or_else(|| panic!("row for {profile}"));
        let fields: Vec<&str> = line.rsplitn(12, ',').collect();
        // from the right: version, sha, variants, seed, trials, ci_high, ci_low, exact
        (fields[7].parse().unwrap(), fields[2].to_string())
    };
    let (current, v_current) = exact_hit("Overwatch +1 (current)");
    let (original, v_original) = exact_hit("Overwatch -1 (original)");
    let (plain, _) = exact_hit("not on Overwatch");
    assert!(
        (current - 2.0 / 3.0).abs() < 1e-12
            && (original - 1.0 / 3.0).abs() < 1e-12
            && (plain - 0.5).abs() < 1e-12
    );
    assert_eq!(
        (v_current.as_str(), v_original.as_str()),
        (
            "overwatch=current;large_rake=versus_small;boarding_bonus=cancelled;boarding_loser=every_loser;stationary_hits=attacks;second_weapon=only_with_bonus;multiple_first_round=phase;multiple_fear_tests=each_charge",
            "overwatch=original;large_rake=versus_small;boarding_bonus=cancelled;boarding_loser=every_loser;stationary_hits=attacks;second_weapon=only_with_bonus;multiple_first_round=phase;multiple_fear_tests=each_charge"
        )
    );
}

#[test]
fn a_report_folder_holds_one_runs_files() {
    let out = scratch("staging");
    let spec = root().join("experiments/overwatch_rule_change.toml");
    let stale = out.join("overwatch_rule_change/stale_chart.svg");
    let run = || {
        krunch(&[
            "run",
            spec.to_str().unwrap(),
            "--trials",
            "1000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    // an older run's report that drew a chart this run does not: krunch
    // wrote it, so its manifest lists it (a file it does not list would
    // be a user's, and stop the run instead: tests/crash_safety.rs)
    assert!(run().status.success());
    std::fs::write(&stale, "from an older run").unwrap();
    let manifest = out.join("overwatch_rule_change/.krunch-report");
    let listed = std::fs::read_to_string(&manifest).unwrap() + "stale_chart.svg\n";
    std::fs::write(&manifest, listed).unwrap();
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "--trials",
        "1000",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!stale.exists(), "the folder is replaced whole");
    assert!(out.join("overwatch_rule_change/data.csv").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn prob_prints_tables_json_and_charts() {
    let o = krunch(&["prob", "4d6k3"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(text.contains("mean 12.244599"), "{text}");
    assert!(text.contains("P(>=)") && text.contains("█"));
    // the table reads in percentages: P(=) 1/6, P(>=) 5/6, P(<=) 1/3 for a 2
    let o = krunch(&["prob", "d6"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let two = text
        .lines()
        .find(|l| l.trim_start().starts_with("2 "))
        .unwrap();
    assert!(
        two.contains("16.6667%") && two.contains("83.3333%") && two.contains("33.3333%"),
        "{text}"
    );
    let o = krunch(&["prob", "2d6<=7", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "expression",
            "outcomes",
            "mean",
            "sd",
            "probability",
            "fraction"
        ]
    );
    assert!((json["probability"].as_f64().unwrap() - 7.0 / 12.0).abs() < 1e-12);
    assert_eq!(json["fraction"], "7/12");
    // a comparison in one line, with its fraction
    let o = krunch(&["prob", "2d6<=7"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("P = 58.33% (7/12)"), "{text}");
    // far tails folded into a note
    let o = krunch(&["prob", "1000d6"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.lines().count() < 1000,
        "{} lines",
        text.lines().count()
    );
    assert!(text.contains("each tail is below 1e-12"), "{text}");
    let outcomes = json["outcomes"].as_array().unwrap();
    assert_eq!(outcomes[0]["value"], 0);
    assert!((outcomes[1]["p"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-12);
    let dir = scratch("probchart");
    let chart = dir.join("keep.svg");
    let o = krunch(&[
        "prob",
        "5d10!9k3",
        "4d6k3",
        "--chart",
        chart.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&chart).unwrap().contains("<svg"));
    // side by side, each column headed by its expression
    let text = String::from_utf8_lossy(&o.stdout);
    let header = text.lines().find(|l| l.contains("outcome")).unwrap();
    assert!(
        header.contains("5d10!9k3") && header.contains("4d6k3"),
        "{text}"
    );
}

#[test]
fn prob_and_roll_reject_bad_expressions_with_a_caret() {
    for (expr, words) in [
        ("2d6+", "ended"),
        ("4d6k9", "cannot keep"),
        ("1000000d6", "1 to 1000"),
        ("3d6 ? 2", "unexpected '?'"),
    ] {
        for cmd in ["prob", "roll"] {
            let o = krunch(&[cmd, expr]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{cmd} {expr}: {err}");
            assert!(
                err.contains(words) && err.contains('^'),
                "{cmd} {expr}: {err}"
            );
            assert!(!err.contains("panicked"));
        }
    }
    let o = krunch(&["prob", "500d1000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("krunch roll"));
}

/// One meaning for one syntax (issue 24, item 7): a comparison of a pool
/// with a number compares the total, `count(...)` counts the dice that
/// pass, and the old counting form, where its total is certain, is refused
/// with the `count(...)` to write.
#[test]
fn prob_compares_totals_and_counts_only_when_asked() {
    // Leadership 6 on 2D6: totals 2..=6 are 1+2+3+4+5 = 15 of 36 = 5/12
    let o = krunch(&["prob", "2d6<=6"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("P = 41.67% (5/12)"), "{text}");
    assert!(text.contains("P(total of 2d6 <= 6)"), "{text}");
    // the count it used to give: each die shows 3 or less with P 1/2, so
    // 0, 1, 2 dice with 1/4, 1/2, 1/4
    let o = krunch(&["prob", "count(2d6<=3)", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let p: Vec<f64> = json["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["p"].as_f64().unwrap())
        .collect();
    assert_eq!(p.len(), 3);
    for (got, want) in p.iter().zip([0.25, 0.5, 0.25]) {
        assert!((got - want).abs() < 1e-12, "{p:?}");
    }
    // the old form of a count: exit 2, what it means and what to write
    for cmd in ["prob", "roll"] {
        let o = krunch(&[cmd, "10d6>=5"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("10d6>=5 compares the total of 10 dice (10 to 60), so it is always true")
                && err.contains("to count the dice that show >= 5, write count(10d6>=5)"),
            "{err}"
        );
    }
    // the help says so
    let o = krunch(&["prob", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("count(10d6>=5)"), "{help}");
}

#[test]
fn roll_is_reproducible_with_a_seed() {
    let a = krunch(&["roll", "sf+sf", "-n", "50", "--seed", "7"]);
    let b = krunch(&["roll", "sf+sf", "-n", "50", "--seed", "7"]);
    let c = krunch(&["roll", "sf+sf", "-n", "50", "--seed", "8"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
    let values: Vec<i64> = String::from_utf8_lossy(&a.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(values.len(), 50);
    assert!(values.iter().all(|v| (0..=6).contains(v)));
}

#[test]
fn new_specs_run_as_written_for_every_scenario() {
    let dir = scratch("new");
    for rules in krunch::systems::RULE_SETS {
        for sc in rules.scenarios {
            let o = krunch(&["new", rules.name, sc.name]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let text = String::from_utf8_lossy(&o.stdout);
            // every parameter of the scenario is written, set or commented
            let volley = krunch::systems::attackers::is_volley(&(sc.params)());
            for d in (sc.params)() {
                // a volley's attackers are [[attacker]] entries, each
                // attacker's parameters under its own name
                if volley && d.name == "attackers" {
                    assert!(text.contains("\n[[attacker]]\nname = "));
                    continue;
                }
                let shown = d.name.strip_prefix("attacker.").unwrap_or(&d.name);
                assert!(
                    text.contains(&format!("\n{shown} = "))
                        || text.contains(&format!("\n# {shown} = ")),
                    "{} {}: {} missing",
                    rules.name,
                    sc.name,
                    d.name
                );
            }
            let spec = dir.join(format!("{}_{}.toml", rules.name, sc.name));
            std::fs::write(&spec, text.as_bytes()).unwrap();
            let o = krunch(&[
                "run",
                spec.to_str().unwrap(),
                "--trials",
                "1000",
                "-q",
                "--out",
                dir.join("out").to_str().unwrap(),
            ]);
            assert!(
                o.status.success(),
                "{} {}: {}",
                rules.name,
                sc.name,
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    // what the example's preset fills in is left to it (commented at the
    // preset's value), not overridden by a stand-in: a Shoota stays a Shoota
    let o = krunch(&["new", "gce", "shooting"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("\nweapon = \"shoota\"\n"), "{text}");
    assert!(
        text.contains("\n# strength = 3   # from the preset \"shoota\""),
        "{text}"
    );
    assert!(!text.contains("\nstrength = "), "{text}");
    // completions and the man page come from the same definition
    let o = krunch(&["completions", "bash"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("merge"));
    let o = krunch(&["man"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains(".TH krunch 1"));
}

/// A reader that stops early (`krunch compare ... --print wiki | head`)
/// ends krunch quietly: exit 0 and no panic, for every printing command.
#[test]
fn a_reader_that_goes_away_is_not_a_panic() {
    let dir = scratch("pipe");
    let spec = root().join("experiments/overwatch_rule_change.toml");
    let out = dir.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &[
            "compare",
            spec.to_str().unwrap(),
            "--variant",
            "overwatch=original",
            "--print",
            "wiki",
            "--trials",
            "2000",
            "-q",
            "--out",
            out,
        ],
        &["check", spec.to_str().unwrap(), "--verbose"],
        &["list", "gce", "shooting"],
    ];
    for args in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_krunch"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("krunch runs");
        // close the reading end before anything is printed
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(o.status.success(), "{args:?}: {:?} {stderr}", o.status);
    }
    // the printing stops, the verdict stands: a moved value still exits 1
    let text = std::fs::read_to_string(&spec).unwrap()
        + "\n[[expect]]\nmetric = \"p_hit\"\nprofile = \"not on Overwatch\"\ncell = { cover = \"none\" }\nvalue = 0.25\n";
    let moved = dir.join("moved.toml");
    std::fs::write(&moved, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(["check", moved.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("krunch runs");
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
