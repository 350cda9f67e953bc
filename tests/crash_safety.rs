//! Crash safety (issue 15): a failure is injected at each file write of
//! `run`, `compare` and `check --update` in turn (`KRUNCH_TEST_FAIL_AT_WRITE`,
//! as an error and as a kill), then the next run must find the previous
//! output whole (or the new one whole, when the kill came after the swap)
//! and no staging folder or temporary file left.

use std::collections::BTreeMap;

type Files = BTreeMap<String, Vec<u8>>;

/// Which files differ between two snapshots (for messages: never the bytes).
fn diff(a: &Files, b: &Files) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SPEC: &str = r#"system = "gce"
scenario = "shooting"
trials = 3000
seed = 1
metrics = ["p_hit", "p_out_of_action"]

[base]
bs = 3
toughness = 3
wounds = 1
save = 0
target_ws = 3
target_bs = 3

[[profile]]
name = "Shoota"
weapon = "shoota"

[sweep]
range = [3, 6]

[[expect]]
metric = "p_hit"
cell = { range = 3 }
value = 0.5
tolerance = 0.5
"#;

fn krunch(args: &[&str], fail_at: Option<String>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_krunch"));
    c.args(args);
    match fail_at {
        Some(n) => c.env("KRUNCH_TEST_FAIL_AT_WRITE", n),
        None => c.env_remove("KRUNCH_TEST_FAIL_AT_WRITE"),
    };
    c.output().expect("krunch runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-crash-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir` with its bytes, by relative path.
fn snapshot(dir: &Path) -> Files {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Names under `dir` (recursively) that only staging makes.
fn leftovers(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            // the manifest marks a finished report folder: not staging
            if (name.starts_with(".krunch-") && name != ".krunch-report")
                || name.starts_with(".tmp-")
                || name.starts_with(".old-")
            {
                found.push(e.path().display().to_string());
            }
            if e.path().is_dir() {
                stack.push(e.path());
            }
        }
    }
    found
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `command` (the new output) with a failure at write 1, 2, ... until
/// a run gets through; after each, `next` (a run that cleans up) and then
/// `folder` must hold exactly `before` or exactly `after`, with nothing
/// staged left in `root`. Returns how many write points were tried.
fn inject_everywhere(
    root: &Path,
    folder: &Path,
    command: &[&str],
    next: &[&str],
    restore: &dyn Fn(),
    before: &Files,
    after: &Files,
) -> usize {
    assert!(before != after, "the new output must differ from the old");
    for n in 1.. {
        assert!(n < 200, "never got through");
        for kill in [false, true] {
            restore();
            let plan = if kill {
                format!("{n}:kill")
            } else {
                n.to_string()
            };
            let o = krunch(command, Some(plan.clone()));
            if o.status.success() {
                let now = snapshot(folder);
                assert!(
                    &now == after,
                    "{plan}: completed run differs in {:?}",
                    diff(&now, after)
                );
                if !kill {
                    // the run got past every write point
                    return n - 1;
                }
                continue;
            }
            let code = o.status.code();
            assert_eq!(code, Some(if kill { 70 } else { 3 }), "{plan}: {}", err(&o));
            if !kill {
                // an error cleans up at once: the old output, nothing staged
                let now = snapshot(folder);
                assert!(
                    &now == before,
                    "{plan}: {} differs in {:?}",
                    err(&o),
                    diff(&now, before)
                );
                assert_eq!(leftovers(root), Vec::<String>::new(), "{plan}");
            }
            let o = krunch(next, None);
            assert!(o.status.success(), "{plan}: next run: {}", err(&o));
            let now = snapshot(folder);
            assert!(
                &now == before || &now == after,
                "{plan}: after the next run the folder is neither the old output nor the new: {:?}",
                now.keys().collect::<Vec<_>>()
            );
            assert_eq!(
                leftovers(root),
                Vec::<String>::new(),
                "{plan}: staging left"
            );
        }
    }
    unreachable!()
}

#[test]
fn run_survives_a_failure_at_every_write() {
    let dir = scratch("run");
    let spec = dir.join("cat.toml");
    std::fs::write(&spec, SPEC).unwrap();
    std::fs::write(dir.join("other.toml"), SPEC).unwrap();
    let out = dir.join("out");
    let (s, o, other) = (
        spec.to_str().unwrap(),
        out.to_str().unwrap(),
        dir.join("other.toml"),
    );
    let new_out = dir.join("new");
    let run = |trials: &str, out: &str| {
        let r = krunch(
            &["run", s, "--quiet", "--trials", trials, "--out", out],
            None,
        );
        assert!(r.status.success(), "{}", err(&r));
    };
    run("2000", o);
    let before = snapshot(&out.join("cat"));
    run("2500", new_out.to_str().unwrap());
    let after = snapshot(&new_out.join("cat"));
    let saved = dir.join("saved");
    std::fs::rename(out.join("cat"), &saved).unwrap();
    let restore = || {
        let _ = std::fs::remove_dir_all(out.join("cat"));
        copy_dir(&saved, &out.join("cat"));
    };
    let points = inject_everywhere(
        &dir,
        &out.join("cat"),
        &["run", s, "--quiet", "--trials", "2500", "--out", o],
        &["run", other.to_str().unwrap(), "--quiet", "--out", o],
        &restore,
        &before,
        &after,
    );
    // stage, data.csv, 2 charts x (svg, png), summary (two points each), swap
    eprintln!("run: {points} write points, each failed and killed");
    assert!(points >= 10, "only {points} write points");
}

#[test]
fn compare_survives_a_failure_at_every_write() {
    let dir = scratch("compare");
    let spec = dir.join("cat.toml");
    std::fs::write(&spec, SPEC).unwrap();
    std::fs::write(dir.join("other.toml"), SPEC).unwrap();
    let out = dir.join("out");
    let (s, o) = (spec.to_str().unwrap(), out.to_str().unwrap());
    let compare = |variant: &str, out: &str| {
        let r = krunch(
            &["compare", s, "--variant", variant, "--quiet", "--out", out],
            None,
        );
        assert!(r.status.success(), "{}", err(&r));
    };
    compare("bs=4", o);
    let before = snapshot(&out.join("cat-compare"));
    let new_out = dir.join("new");
    compare("bs=2", new_out.to_str().unwrap());
    let after = snapshot(&new_out.join("cat-compare"));
    let saved = dir.join("saved");
    std::fs::rename(out.join("cat-compare"), &saved).unwrap();
    let restore = || {
        let _ = std::fs::remove_dir_all(out.join("cat-compare"));
        copy_dir(&saved, &out.join("cat-compare"));
    };
    let other = dir.join("other.toml");
    let points = inject_everywhere(
        &dir,
        &out.join("cat-compare"),
        &["compare", s, "--variant", "bs=2", "--quiet", "--out", o],
        &["run", other.to_str().unwrap(), "--quiet", "--out", o],
        &restore,
        &before,
        &after,
    );
    eprintln!("compare: {points} write points, each failed and killed");
    assert!(points >= 10, "only {points} write points");
}

#[test]
fn check_update_survives_a_failure_at_every_write() {
    let dir = scratch("check");
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("cat.toml"), SPEC).unwrap();
    std::fs::write(specs.join("dog.toml"), SPEC).unwrap();
    let sp = specs.to_str().unwrap();
    let update = |seed: &str| {
        let r = krunch(&["check", "--update", sp, "--seed", seed], None);
        assert!(r.status.success(), "{}", err(&r));
    };
    let baselines = specs.join("baselines");
    update("1");
    let before = snapshot(&baselines);
    update("2");
    let after = snapshot(&baselines);
    let saved = dir.join("saved");
    copy_dir(&baselines, &saved);
    std::fs::remove_dir_all(&baselines).unwrap();
    std::fs::rename(&saved, &baselines).unwrap();
    let saved_before = dir.join("saved_before");
    copy_dir(&baselines, &saved_before);
    let restore = || {
        let _ = std::fs::remove_dir_all(&baselines);
        copy_dir(&saved_before, &baselines);
    };
    // after a kill part way, each baseline file is whole: old or new
    let points = inject_everywhere_files(&specs, &baselines, sp, &restore, &before, &after);
    eprintln!("check --update: {points} write points, each failed and killed");
    assert!(points >= 4, "only {points} write points");
}

/// `check --update` writes one file per spec: after a failure each file
/// must be the old one or the new one, whole, and a plain `check` then
/// passes with nothing staged left.
fn inject_everywhere_files(
    root: &Path,
    baselines: &Path,
    specs: &str,
    restore: &dyn Fn(),
    before: &Files,
    after: &Files,
) -> usize {
    assert!(
        before != after,
        "the new baselines must differ from the old"
    );
    for n in 1.. {
        assert!(n < 100, "never got through");
        for kill in [false, true] {
            restore();
            let plan = if kill {
                format!("{n}:kill")
            } else {
                n.to_string()
            };
            let o = krunch(
                &["check", "--update", specs, "--seed", "2"],
                Some(plan.clone()),
            );
            if o.status.success() {
                assert!(&snapshot(baselines) == after, "{plan}");
                if !kill {
                    return n - 1;
                }
                continue;
            }
            assert_eq!(
                o.status.code(),
                Some(if kill { 70 } else { 3 }),
                "{plan}: {}",
                err(&o)
            );
            let o = krunch(&["check", specs], None);
            assert!(
                o.status.success(),
                "{plan}: next check: {}{}",
                err(&o),
                String::from_utf8_lossy(&o.stdout)
            );
            let now = snapshot(baselines);
            assert_eq!(
                now.keys().collect::<Vec<_>>(),
                before.keys().collect::<Vec<_>>(),
                "{plan}"
            );
            for (k, v) in &now {
                assert!(
                    v == &before[k] || v == &after[k],
                    "{plan}: {k} is neither old nor new"
                );
            }
            assert_eq!(
                leftovers(root),
                Vec::<String>::new(),
                "{plan}: staging left"
            );
        }
    }
    unreachable!()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

// --- issue 23, item 1: nothing a user wrote is replaced, moved or deleted ---

/// A scratch folder with `cat.toml` (the spec above) written as `<name>.toml`.
fn spec_named(dir: &Path, name: &str) -> String {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, SPEC).unwrap();
    path.display().to_string()
}

#[test]
fn a_users_folder_where_a_report_goes_is_refused_before_any_work() {
    let dir = scratch("users-folder");
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("docs")).unwrap();
    std::fs::write(out.join("docs").join("notes.md"), "mine").unwrap();
    std::fs::create_dir_all(out.join("docs-compare")).unwrap();
    std::fs::write(out.join("docs-compare").join("plan.txt"), "mine too").unwrap();
    let before = snapshot(&out);
    let spec = spec_named(&dir, "docs");
    let o = out.display().to_string();
    for args in [
        vec!["run", &spec, "--quiet", "--out", &o],
        vec![
            "compare",
            &spec,
            "--variant",
            "bs=4",
            "--quiet",
            "--out",
            &o,
        ],
    ] {
        let r = krunch(&args, None);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", err(&r));
        let e = err(&r);
        assert!(
            e.contains("out/docs") && e.contains("not a report folder krunch wrote"),
            "{args:?}: {e}"
        );
        // refused before any work: nothing written, nothing moved
        assert_eq!(snapshot(&out), before, "{args:?}");
        assert_eq!(leftovers(&dir), Vec::<String>::new(), "{args:?}");
        assert!(!e.contains("panicked"), "{e}");
    }
}

#[test]
fn a_users_file_where_a_report_goes_is_never_moved_or_deleted() {
    let dir = scratch("users-file");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes"), "my notes").unwrap();
    let spec = spec_named(&dir, "notes");
    let other = spec_named(&dir, "other");
    let o = out.display().to_string();
    let r = krunch(&["run", &spec, "--quiet", "--out", &o], None);
    assert_eq!(r.status.code(), Some(2), "{}", err(&r));
    assert!(
        err(&r).contains("out/notes exists and is a file"),
        "{}",
        err(&r)
    );
    // the next run (which cleans) leaves it too
    let r = krunch(&["run", &other, "--quiet", "--out", &o], None);
    assert!(r.status.success(), "{}", err(&r));
    assert_eq!(
        std::fs::read_to_string(out.join("notes")).unwrap(),
        "my notes"
    );
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}

#[test]
fn a_file_put_into_a_report_folder_stops_the_next_run_replacing_it() {
    let dir = scratch("added-file");
    let out = dir.join("out");
    let spec = spec_named(&dir, "cat");
    let o = out.display().to_string();
    let r = krunch(&["run", &spec, "--quiet", "--out", &o], None);
    assert!(r.status.success(), "{}", err(&r));
    assert!(out.join("cat").join(".krunch-report").exists());
    // krunch replaces its own folder
    let r = krunch(&["run", &spec, "--quiet", "--out", &o], None);
    assert!(r.status.success(), "{}", err(&r));
    std::fs::write(out.join("cat").join("my-notes.txt"), "mine").unwrap();
    let r = krunch(&["run", &spec, "--quiet", "--out", &o], None);
    assert_eq!(r.status.code(), Some(2), "{}", err(&r));
    assert!(err(&r).contains("my-notes.txt"), "{}", err(&r));
    assert_eq!(
        std::fs::read_to_string(out.join("cat").join("my-notes.txt")).unwrap(),
        "mine"
    );
}

#[cfg(unix)]
#[test]
fn a_live_writer_in_another_pid_namespace_keeps_its_staging_folder() {
    let dir = scratch("namespace");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    // another writer's claim: its lock file, held by this (live) process,
    // under a token no PID check could read, and its half-written stage
    let token = "00c0ffee00c0ffee";
    let lock = out.join(format!(".krunch-lock-{token}"));
    let stage = out.join(format!(".krunch-stage-{token}-big"));
    let held = std::fs::File::create(&lock).unwrap();
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on the descriptor `held` owns.
        assert_eq!(unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX) }, 0);
    }
    std::fs::create_dir_all(&stage).unwrap();
    std::fs::write(stage.join("data.csv"), "half").unwrap();
    // a stage staged by an older krunch (no lock file) under the PID of a
    // process that is gone here, written just now: left alone too
    let legacy = out.join(".krunch-stage-999999999-old");
    std::fs::create_dir_all(&legacy).unwrap();
    let spec = spec_named(&dir, "cat");
    let o = out.display().to_string();
    let r = krunch(&["run", &spec, "--quiet", "--out", &o], None);
    assert!(r.status.success(), "{}", err(&r));
    assert!(
        stage.join("data.csv").exists(),
        "a live writer's stage was removed"
    );
    assert!(lock.exists());
    assert!(legacy.exists(), "a fresh stage without a lock was removed");
    // the writer goes: its stage and lock are cleaned by the next run
    drop(held);
    let r = krunch(&["run", &spec, "--quiet", "--out", &o], None);
    assert!(r.status.success(), "{}", err(&r));
    assert!(!stage.exists(), "a dead writer's stage was kept");
    assert!(!lock.exists(), "a dead writer's lock file was kept");
}

// --- issue 23, item 8: durability ---

#[test]
fn every_file_and_folder_is_synced_before_the_swap_and_the_swap_after() {
    let dir = scratch("sync");
    let spec = spec_named(&dir, "cat");
    let out = dir.join("out");
    let log = dir.join("sync.log");
    for round in 0..2 {
        // the second run replaces the first's folder
        let _ = std::fs::remove_file(&log);
        let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
            .args(["run", &spec, "--quiet", "--out", out.to_str().unwrap()])
            .env("KRUNCH_TEST_SYNC_LOG", &log)
            .env_remove("KRUNCH_TEST_FAIL_AT_WRITE")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", err(&o));
        let lines: Vec<String> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let at = |want: &dyn Fn(&str) -> bool, what: &str| {
            lines
                .iter()
                .position(|l| want(l))
                .unwrap_or_else(|| panic!("round {round}: no {what} in {lines:#?}"))
        };
        let swap = at(&|l: &str| l.starts_with("swap "), "swap");
        let stage = lines[swap]
            .strip_prefix("swap ")
            .and_then(|l| l.split(" -> ").next())
            .unwrap()
            .to_string();
        let stage_synced = at(&|l: &str| l == format!("dir {stage}"), "sync of the stage");
        let parent_synced = at(
            &|l: &str| l == format!("dir {}", out.display()),
            "sync of --out",
        );
        assert!(stage_synced < swap && swap < parent_synced, "{lines:#?}");
        // every file of the report (the manifest too) was synced before
        for e in std::fs::read_dir(out.join("cat")).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let synced = at(
                &|l: &str| l.starts_with("file ") && l.ends_with(&format!("-{name}")),
                &format!("sync of {name}"),
            );
            assert!(synced < stage_synced, "{name}: {lines:#?}");
        }
    }
}

// --- issue 23, item 9: tests that skip say so in the summary ---

#[test]
fn make_test_lists_the_tests_that_skipped_at_the_end() {
    // `make test` with a stand-in cargo whose test run records one skip
    // the way the seed-text checks and the browser test do
    let dir = scratch("skips");
    let fake = dir.join("cargo");
    std::fs::write(
        &fake,
        "#!/bin/sh\nif [ \"$1\" = test ]; then\n  echo 'systems::gce::tables::tests::wound_chart: the seed text is not here' >> \"$KRUNCH_SKIP_LOG\"\n  echo 'systems::gce::tables::tests::wound_chart: the seed text is not here' >> \"$KRUNCH_SKIP_LOG\"\n  echo 'html_report::report_pages_render_in_a_browser: no Chromium' >> \"$KRUNCH_SKIP_LOG\"\n  exit \"${FAKE_STATUS:-0}\"\nfi\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let log = dir.join("skipped.txt");
    let make = |status: &str| {
        Command::new("make")
            .arg("-s")
            .arg("-C")
            .arg(env!("CARGO_MANIFEST_DIR"))
            .arg("test")
            .arg(format!("CARGO={}", fake.display()))
            .arg(format!("SKIP_LOG={}", log.display()))
            .env("FAKE_STATUS", status)
            .output()
            .expect("make runs")
    };
    let o = make("0");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", err(&o));
    assert!(out.contains("SKIPPED: 2 tests skipped"), "{out}");
    assert!(
        out.contains("systems::gce::tables::tests::wound_chart")
            && out.contains("html_report::report_pages_render_in_a_browser"),
        "{out}"
    );
    // a failing run still fails, and still lists its skips
    let o = make("1");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("SKIPPED: 2"));
}
