//! `krunch run --shard I/N` and `krunch merge`: three shards merged give
//! the unsharded run's report byte for byte; missing, duplicate and
//! foreign shards are refused by name with exit code 2.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

fn ok(args: &[&str]) {
    let o = krunch(args);
    assert!(
        o.status.success(),
        "krunch {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file of a report folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// A spec whose 150000 trials make three chunks, one for each shard.
const SPEC: &str = r#"name = "sharded"
title = "Sharded"
system = "gce"
scenario = "shooting"
trials = 150000
seed = 17

[base]
weapon = "shoota"
bs = 3
toughness = 3
wounds = 1
save = 5
target_ws = 3
target_bs = 3

[[profile]]
name = "Shoota"

[sweep]
range = [3, 9]
"#;

fn shard_file(dir: &Path, i: u64) -> String {
    dir.join(format!("sharded.shard-{i}-of-3.json"))
        .display()
        .to_string()
}

fn refused(args: &[&str], must: &[&str]) {
    let o = krunch(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for m in must {
        assert!(err.contains(m), "{args:?}: lacks {m:?}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn three_shards_merge_into_the_unsharded_report_byte_for_byte() {
    let dir = scratch("merge");
    let spec = dir.join("sharded.toml");
    std::fs::write(&spec, SPEC).unwrap();
    let spec = spec.to_str().unwrap();
    let whole = dir.join("whole");
    let shards = dir.join("shards");
    let merged = dir.join("merged");
    ok(&["run", spec, "-q", "--out", whole.to_str().unwrap()]);
    for i in 1..=3 {
        ok(&[
            "run",
            spec,
            "-q",
            "--shard",
            &format!("{i}/3"),
            "--out",
            shards.to_str().unwrap(),
        ]);
    }
    let all: Vec<String> = (1..=3).map(|i| shard_file(&shards, i)).collect();
    // merged in any order
    let mut args = vec!["merge", spec, "-q", "--out", merged.to_str().unwrap()];
    args.extend([all[2].as_str(), all[0].as_str(), all[1].as_str()]);
    ok(&args);
    let (a, b) = (
        files(&whole.join("sharded")),
        files(&merged.join("sharded")),
    );
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (name, bytes) in &a {
        assert!(
            bytes == &b[name],
            "{name} differs between the run and the merge"
        );
    }

    let out = dir.join("refused");
    let o = out.to_str().unwrap();
    // a missing shard
    refused(
        &["merge", spec, "--out", o, &all[0], &all[2]],
        &["shards missing: 2/3"],
    );
    // a duplicate
    refused(
        &[
            "merge", spec, "--out", o, &all[0], &all[1], &all[1], &all[2],
        ],
        &["shard 2/3 is given twice"],
    );
    // a shard of another seed (the spec edited after the shards ran)
    let other = dir.join("other.toml");
    std::fs::write(&other, SPEC.replace("seed = 17", "seed = 18")).unwrap();
    refused(
        &[
            "merge",
            other.to_str().unwrap(),
            "--out",
            o,
            &all[0],
            &all[1],
            &all[2],
        ],
        &["sharded.shard-1-of-3.json", "another run", "spec sha256"],
    );
    // a shard of a run with another trial count
    let fewer = dir.join("fewer");
    ok(&[
        "run",
        spec,
        "-q",
        "--trials",
        "70000",
        "--shard",
        "2/3",
        "--out",
        fewer.to_str().unwrap(),
    ]);
    refused(
        &[
            "merge",
            spec,
            "--out",
            o,
            &all[0],
            &shard_file(&fewer, 2),
            &all[2],
        ],
        &[
            "sharded.shard-2-of-3.json",
            "trial count",
            "70000",
            "150000",
        ],
    );
    // not a shard file at all
    refused(
        &["merge", spec, "--out", o, spec],
        &["sharded.toml", "not a krunch shard file"],
    );
    refused(&["run", spec, "--shard", "4/3"], &["--shard 4/3"]);
    refused(&["run", spec, "--shard", "x"], &["--shard x"]);
    assert!(!out.exists(), "nothing written for refused merges");
    let _ = std::fs::remove_dir_all(&dir);
}
