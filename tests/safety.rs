//! Regression tests for the bad-input audit (issue 15): each test reproduces
//! one finding and fails on the code that had it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-safety-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SPEC_BODY: &str = r#"system = "gce"
scenario = "shooting"
trials = 1000
seed = 1
metrics = ["p_hit"]

[base]
bs = 3
toughness = 3
wounds = 1
save = 0
range = 6
target_ws = 3
target_bs = 3

[[profile]]
name = "Shoota"
weapon = "shoota"
"#;

fn write(dir: &Path, file: &str, text: &str) -> PathBuf {
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path
}

/// Item 1: a name that is empty or reaches outside --out is refused before
/// anything runs, naming the file, line and field, and nothing is deleted.
#[test]
fn names_outside_out_are_refused_and_nothing_is_deleted() {
    let dir = scratch("names");
    let out = dir.join("reports");
    let keep = out.join("someone_elses_report");
    std::fs::create_dir_all(&keep).unwrap();
    std::fs::write(keep.join("data.csv"), "precious").unwrap();
    // the spec is valid with a plain name, so the refusals below are the name's
    let good = write(&dir, "good.toml", &format!("name = \"fine\"\n{SPEC_BODY}"));
    let o = krunch(&[
        "run",
        good.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(out.join("fine")).unwrap();
    let abs = dir.join("abs").display().to_string();
    for name in [
        "",
        ".",
        "..",
        "a/../..",
        "../x",
        "/",
        abs.as_str(),
        "a/b",
        ".hidden",
    ] {
        let spec = write(
            &dir,
            "bad.toml",
            &format!("title = \"t\"\nname = {name:?}\n{SPEC_BODY}"),
        );
        let o = krunch(&[
            "run",
            spec.to_str().unwrap(),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "name {name:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("bad.toml:2: name:"), "name {name:?}: {e}");
        assert_eq!(
            std::fs::read_to_string(keep.join("data.csv")).unwrap(),
            "precious",
            "name {name:?} touched another report"
        );
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1, "name {name:?}");
    }
    // a file whose stem is not a valid name, with no `name`, is refused too
    let spec = write(&dir, "bad name.toml", SPEC_BODY);
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad name.toml: name:"),
        "{}",
        stderr(&o)
    );
}

/// A process id that no running process has.
fn dead_pid() -> u32 {
    (900_000..4_000_000)
        .step_by(7919)
        .find(|p| !Path::new(&format!("/proc/{p}")).exists())
        .unwrap()
}

/// Item 7: what killed runs left (staging folders, a report set aside
/// mid-swap, temporary files, and the `.tmp-PID-`/`.old-PID-` folders of
/// older versions) is cleaned or put back by the next run.
#[test]
fn the_next_run_cleans_what_killed_runs_left() {
    let dir = scratch("stale");
    let out = dir.join("reports");
    let pid = dead_pid();
    // left by a krunch without lock files (issue 23): stale only once an
    // hour old, whatever its PID says (a PID from another container's
    // namespace looks dead here), so these are made two hours old
    let age = |path: &Path| {
        let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        std::fs::File::open(path)
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
    };
    let mk = |name: &str, file: &str| {
        let d = out.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("data.csv"), file).unwrap();
        if name.starts_with('.') && !name.ends_with("-busy") {
            age(&d);
        }
    };
    mk(&format!(".krunch-stage-{pid}-fine"), "half");
    mk(&format!(".tmp-{pid}-fine"), "half");
    mk(&format!(".old-{pid}-legacy"), "old legacy report");
    mk(&format!(".krunch-old-{pid}-gone"), "old report");
    mk("gone2", "new report");
    mk(&format!(".krunch-old-{pid}-gone2"), "older report");
    std::fs::write(out.join(format!(".krunch-tmp-{pid}-x.csv")), "x").unwrap();
    age(&out.join(format!(".krunch-tmp-{pid}-x.csv")));
    // left by a killed krunch with lock files: its lock file is there but
    // no longer locked, so it is stale at once, however new
    std::fs::write(out.join(".krunch-lock-00000000deadbeef"), "").unwrap();
    let d = out.join(".krunch-stage-00000000deadbeef-killed");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("data.csv"), "half").unwrap();
    // someone else's hidden files are not ours to touch
    std::fs::write(out.join(".tmp-notapid-keep"), "keep").unwrap();
    mk(
        &format!(".krunch-stage-{}-busy", std::process::id()),
        "in use",
    );
    let spec = write(&dir, "fine.toml", SPEC_BODY);
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let busy = format!(".krunch-stage-{}-busy", std::process::id());
    assert_eq!(
        names,
        [
            busy.as_str(),
            ".tmp-notapid-keep",
            "fine",
            "gone",
            "gone2",
            "legacy"
        ]
    );
    let read = |n: &str| std::fs::read_to_string(out.join(n).join("data.csv")).unwrap();
    assert_eq!(read("gone"), "old report");
    assert_eq!(read("gone2"), "new report");
    assert_eq!(read("legacy"), "old legacy report");
}

/// Item 6: a baseline whose standard error no run can have does not let a
/// wrong value hold: a probability's is refused as input (exit 2), and a
/// mean's, checked against this run's own error, fails the check (exit 1).
#[test]
fn a_corrupt_baseline_does_not_pass() {
    let dir = scratch("baseline");
    let spec = write(
        &dir,
        "b.toml",
        &SPEC_BODY.replace(
            "metrics = [\"p_hit\"]",
            "metrics = [\"p_hit\", \"mean_damage\"]",
        ),
    );
    let s = spec.to_str().unwrap();
    std::fs::create_dir_all(dir.join("baselines")).unwrap();
    let entry = |metric: &str, value: &str, se: &str| {
        format!(
            "[[expect]]\nprofile = \"Shoota\"\nmetric = \"{metric}\"\nvalue = {value}\nstd_error = {se}\n"
        )
    };
    let baseline = dir.join("baselines/b.toml");
    // sanity: the true values with honest errors hold
    let o = krunch(&["check", "--update", s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = krunch(&["check", s]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (metric, value, se, code) in [
        ("p_hit", "0.01", "1e300", 2),
        ("p_hit", "0.01", "inf", 2),
        ("p_hit", "0.01", "0.3", 2),
        ("mean_damage", "99.0", "1e300", 1),
        ("mean_damage", "99.0", "1e3", 1),
        ("mean_damage", "99.0", "inf", 2),
        ("mean_damage", "99.0", "nan", 2),
    ] {
        std::fs::write(&baseline, entry(metric, value, se)).unwrap();
        let o = krunch(&["check", s]);
        let text = format!("{}{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
        assert_eq!(o.status.code(), Some(code), "{metric} {se}: {text}");
        if code == 2 {
            assert!(text.contains("b.toml:1: expect.std_error:"), "{text}");
        } else {
            assert!(text.contains("re-run `krunch check --update`"), "{text}");
        }
    }
}
