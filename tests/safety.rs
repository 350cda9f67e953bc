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
