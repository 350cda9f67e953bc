//! `krunch compare` and `krunch check`: a changed rule is caught, an
//! unchanged one stays within the promised false-alarm rate, the pasted
//! markup is exact, and bad input is named.

use krunch::experiment::{self, check, compare};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-cc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SPEC: &str = r#"name = "pinned"
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

[[profile]]
name = "on Overwatch"
overwatch = true

[sweep]
cover = ["none", "in"]

[[expect]]
metric = "p_hit"
profile = "on Overwatch"
cell = { cover = "none" }
value = 0.8333333333333334
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_changed_rule_fails_check_and_is_flagged_by_compare() {
    let dir = scratch("changed");
    let good = write(&dir, "pinned.toml", SPEC);
    let o = krunch(&["check", good.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // the same spec under the original -1 Overwatch rule
    let changed = write(
        &dir,
        "changed.toml",
        &SPEC.replace("[base]", "[variants]\noverwatch = \"original\"\n\n[base]"),
    );
    let junit = dir.join("junit.xml");
    let o = krunch(&[
        "check",
        changed.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAIL p_hit [on Overwatch, cover=none]: expected 0.833333, got 0.500000"),
        "{out}"
    );
    assert!(
        out.contains("changed.toml:27"),
        "the diff names where the expectation is written: {out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("tests=\"1\" failures=\"1\"") && xml.contains("<failure message="),
        "{xml}"
    );
    // compare flags the same change, exactly and by the paired test
    for extra in [&[][..], &["--monte-carlo"][..]] {
        let mut args = vec![
            "compare",
            good.to_str().unwrap(),
            "--variant",
            "overwatch=original",
            "-q",
        ];
        args.extend(["--out", dir.to_str().unwrap()]);
        args.extend(extra);
        let o = krunch(&args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            out.contains("P(hit) for on Overwatch at cover none: ") && out.contains(" points, "),
            "{out}"
        );
        // The count of results that move, and the size of the move: the
        // Shoota's +1 at 8" with BS 3 needs 2+ on Overwatch +1 (5/6) and
        // 4+ on the original -1 (1/2): 33.3 points down, 40% relative.
        // Ten results cannot move (no ammo, explosion or fire effect
        // depends on the hit modifier, and P(at least 0 hits) is 100%).
        assert!(
            out.starts_with("overwatch=current -> original: 36 of 46 results change significantly"),
            "{out}"
        );
        if extra.is_empty() {
            assert!(
                out.contains(
                    "- P(hit) for on Overwatch at cover none: 83.3% → 50.0% (−33.3 points, −40.0% relative), exact"
                ),
                "{out}"
            );
            assert!(
                out.contains(
                    "- P(hit) for on Overwatch at cover in: 50.0% → 16.7% (−33.3 points, −66.7% relative), exact"
                ),
                "{out}"
            );
        } else {
            assert!(
                out.contains("- P(hit) for on Overwatch at cover none: ")
                    && out.contains("p < 1e-12"),
                "{out}"
            );
        }
    }
    for f in [
        "compare.md",
        "compare.wiki",
        "compare.csv",
        "compare.svg",
        "compare.png",
    ] {
        assert!(dir.join("pinned-compare").join(f).exists(), "{f}");
    }
}

#[test]
fn an_unchanged_rule_stays_within_the_false_alarm_rate() {
    // Run the check of every metric of a model under 300 seeds at a
    // family-wise level of 0.05 against its exact values, forcing the Monte
    // Carlo test. Bonferroni promises P(any false alarm) <= 0.05 per run;
    // 300 runs at that rate give at most 30 failing runs except with
    // probability below 1e-6 (binomial tail), so more than 30 means the
    // promise is broken.
    let dir = scratch("alarm");
    let path = write(
        &dir,
        "pinned.toml",
        &SPEC.replace("trials = 20000", "trials = 4000"),
    );
    let exp = experiment::load(&path).unwrap();
    let model = &exp.models[0][0];
    let exact = model.exact().unwrap();
    let expectations: Vec<experiment::Expected> = model
        .metrics()
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            exact[*i] > 0.0 && exact[*i] < 1.0
                || model.metrics()[*i].kind == krunch::systems::MetricKind::Mean
        })
        .map(|(i, m)| experiment::Expected {
            profile: 0,
            cell: 0,
            metric: m.name.clone(),
            value: exact[i],
            std_error: 0.0,
            tolerance: None,
            source: "test".into(),
        })
        .collect();
    assert!(expectations.len() >= 10);
    let runs = 300;
    let mut failing_runs = 0;
    for seed in 0..runs {
        let options = check::CheckOptions {
            family_alpha: 0.05,
            monte_carlo_only: true,
            seed: Some(1000 + seed),
        };
        let outcomes = check::check(&exp, &expectations, expectations.len(), options);
        failing_runs += usize::from(outcomes.iter().any(|o| !o.passed));
    }
    println!("false alarms: {failing_runs} of {runs} runs at family-wise 0.05");
    assert!(
        failing_runs <= 30,
        "{failing_runs} of {runs} runs raised a false alarm"
    );
    // and a real change is caught at the same level
    let moved: Vec<_> = expectations
        .iter()
        .cloned()
        .map(|mut e| {
            e.value *= 1.2;
            e
        })
        .collect();
    let options = check::CheckOptions {
        family_alpha: 0.05,
        monte_carlo_only: true,
        seed: Some(1),
    };
    let caught = check::check(&exp, &moved, moved.len(), options)
        .iter()
        .filter(|o| !o.passed)
        .count();
    assert!(
        caught >= moved.len() / 2,
        "a 20% move caught in {caught} of {}",
        moved.len()
    );
}

#[test]
fn markdown_and_mediawiki_markup_is_exact() {
    let dir = scratch("markup");
    let path = write(&dir, "pinned.toml", SPEC);
    let before = experiment::load(&path).unwrap();
    let after = experiment::load_with(&path, &[("overwatch".into(), "original".into())]).unwrap();
    let changes: Vec<_> = compare::compare(&before, &after, 0.01, false, &|_| {})
        .unwrap()
        .into_iter()
        .filter(|c| c.metric == "p_hit")
        .collect();
    let sides = compare::Sides::of_overrides(&before, &after);
    assert_eq!(
        sides,
        compare::Sides {
            change: "overwatch=current -> original".into(),
            before: "overwatch=current".into(),
            after: "overwatch=original".into(),
        }
    );
    let md = krunch::report::compare_markdown(&before, &changes, &sides);
    assert_eq!(
        md,
        "| profile | cover | metric | before (overwatch=current) | after (overwatch=original) | change | relative change | interval on the change | significant |\n\
         |---|---|---|---|---|---|---|---|---|\n\
         | on Overwatch | none | P(hit) | 83.3% | 50.0% | −33.3 points | −40.0% | exact | yes (exact) |\n\
         | on Overwatch | in | P(hit) | 50.0% | 16.7% | −33.3 points | −66.7% | exact | yes (exact) |\n"
    );
    let wiki = krunch::report::mediawiki(&before, &changes, &sides);
    assert_eq!(
        wiki,
        "{| class=\"wikitable sortable\"\n|+ pinned: overwatch=current -> original\n! profile\n! cover\n! metric\n! before (overwatch=current)\n! after (overwatch=original)\n! change\n! relative change\n! interval on the change\n! significant\n\
         |-\n| on Overwatch || none || P(hit) || 83.3% || 50.0% || −33.3 points || −40.0% || exact || yes (exact)\n\
         |-\n| on Overwatch || in || P(hit) || 50.0% || 16.7% || −33.3 points || −66.7% || exact || yes (exact)\n|}\n"
    );
}

#[test]
fn sides_name_the_change_that_really_happens() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let over = [("overwatch".to_string(), "original".to_string())];
    // one profile of the bundled overwatch spec already plays the original
    // rule: the change is current -> original, and that profile is named
    let spec = root.join("overwatch_rule_change.toml");
    let before = experiment::load(&spec).unwrap();
    let after = experiment::load_with(&spec, &over).unwrap();
    assert_eq!(
        compare::Sides::of_overrides(&before, &after).change,
        "overwatch=current -> original (already so in 'Overwatch -1 (original)')"
    );
    // a variant the scenario never reads changes nothing, and says so
    let spec = root.join("vehicle_collisions.toml");
    let before = experiment::load(&spec).unwrap();
    let after = experiment::load_with(&spec, &over).unwrap();
    assert!(
        before.variants_read.contains("large_rake"),
        "{:?}",
        before.variants_read
    );
    assert!(!before.variants_read.contains("overwatch"));
    assert_eq!(
        compare::Sides::of_overrides(&before, &after).change,
        "overwatch=current -> original (the ram scenario never reads overwatch: no result can change)"
    );
    // and the report's provenance names only the variants the scenario reads
    assert_eq!(
        krunch::report::Provenance::of(&before).variants,
        "large_rake=versus_small"
    );
}

#[test]
fn a_spec_with_nothing_pinned_is_refused_unless_allowed() {
    let dir = scratch("unpinned");
    let loose = &SPEC[..SPEC.find("[[expect]]").unwrap()];
    let path = write(&dir, "loose.toml", loose);
    let s = path.to_str().unwrap();
    let o = krunch(&["check", s]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("nothing pinned") && err.contains("loose.toml") && err.contains("--update"),
        "{err}"
    );
    let o = krunch(&["check", s, "--allow-unpinned"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("passed over"));
    // once pinned, it checks
    assert!(krunch(&["check", "--update", s]).status.success());
    assert_eq!(krunch(&["check", s]).status.code(), Some(0));
}

#[test]
fn a_moved_exact_value_prints_digits_that_differ() {
    let dir = scratch("digits");
    // off by 2e-8: beyond the 1e-9 tolerance, invisible at six decimals
    let path = write(
        &dir,
        "close.toml",
        &SPEC.replace("value = 0.8333333333333334", "value = 0.83333335"),
    );
    let o = krunch(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("expected 0.83333335, got 0.83333333333333"),
        "{out}"
    );
}

#[test]
fn bad_input_is_named_with_exit_2() {
    let dir = scratch("bad");
    let spec = write(&dir, "pinned.toml", SPEC);
    let s = spec.to_str().unwrap();
    // a variant (or parameter) that does not exist
    let o = krunch(&[
        "compare",
        s,
        "--variant",
        "hyperdrive=on",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--variant hyperdrive") && err.contains("unknown parameter 'hyperdrive'"),
        "{err}"
    );
    let o = krunch(&["compare", s, "--variant", "overwatch=sideways", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("'sideways' is not one of: current, original")
    );
    // specs with different sweeps
    let other = write(
        &dir,
        "other.toml",
        &SPEC
            .replace(
                "cover = [\"none\", \"in\"]",
                "cover = [\"none\", \"partial\"]",
            )
            .replace("name = \"pinned\"", "name = \"other\""),
    );
    let o = krunch(&["compare", s, other.to_str().unwrap(), "-q"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("different sweeps"), "{err}");
    // in words, never Rust debug text
    assert!(
        err.contains("cover = none, in") && err.contains("cover = none, partial"),
        "{err}"
    );
    assert!(!err.contains("[(") && !err.contains("\""), "{err}");
    // a baseline for a metric that is gone
    let baselines = dir.join("baselines");
    std::fs::create_dir_all(&baselines).unwrap();
    write(
        &baselines,
        "pinned.toml",
        "[[expect]]\nprofile = \"on Overwatch\"\ncell = { cover = \"none\" }\nmetric = \"p_teleported\"\nvalue = 0.5\nstd_error = 0.0\n",
    );
    let o = krunch(&["check", s]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("baselines/pinned.toml:1")
            && err.contains("p_teleported")
            && err.contains("no longer has"),
        "{err}"
    );
    // an expectation for a cell that is not swept
    let bad = write(
        &dir,
        "badcell.toml",
        &SPEC.replace(
            "cell = { cover = \"none\" }",
            "cell = { cover = \"behind a wall\" }",
        ),
    );
    let o = krunch(&["check", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("badcell.toml:24") && err.contains("not among the sweep's values"),
        "{err}"
    );
}

#[test]
fn update_writes_baselines_that_then_hold() {
    let dir = scratch("update");
    let spec = write(&dir, "pinned.toml", SPEC);
    let o = krunch(&["check", "--update", spec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let baseline = dir.join("baselines/pinned.toml");
    assert!(
        std::fs::read_to_string(&baseline)
            .unwrap()
            .contains("[[expect]]")
    );
    for extra in [&[][..], &["--monte-carlo", "--seed", "77"][..]] {
        let mut args = vec!["check", spec.to_str().unwrap()];
        args.extend(extra);
        let o = krunch(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

#[test]
fn update_refuses_while_the_specs_own_expectation_fails_unless_forced() {
    let dir = scratch("refuse");
    let wrong = SPEC.replace("value = 0.8333333333333334", "value = 0.5");
    let spec = write(&dir, "pinned.toml", &wrong);
    let o = krunch(&["check", "--update", spec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("no baseline was written") && out.contains("p_hit"),
        "{out}"
    );
    assert!(!dir.join("baselines/pinned.toml").exists());
    let o = krunch(&["check", "--update", "--force", spec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(dir.join("baselines/pinned.toml").exists());
}

#[test]
fn a_stated_tolerance_applies_to_exact_values_too() {
    let dir = scratch("tolerance");
    // 5/6 = 0.833333...: 0.8333 is off by 3.3e-5, within 1e-4 but not 1e-9
    let near = SPEC.replace("value = 0.8333333333333334", "value = 0.8333");
    let spec = write(&dir, "loose.toml", &near);
    assert_eq!(
        krunch(&["check", spec.to_str().unwrap()]).status.code(),
        Some(1)
    );
    let loose = near.replace("value = 0.8333\n", "value = 0.8333\ntolerance = 0.0001\n");
    let spec = write(&dir, "loose.toml", &loose);
    let o = krunch(&["check", spec.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_closed_stdout_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["prob", "1000d6"][..],
        &["roll", "3d6", "-n", "1000000", "--seed", "1"][..],
        &["completions", "fish"][..],
        &["man"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_krunch"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // the pipe is closed here, before krunch has written everything
        let o = child.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
