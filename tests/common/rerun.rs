//! Re-running one test of this test binary alone, in a changed environment
//! (no seed texts, no Chromium on PATH), to see how it skips or fails.

use std::path::Path;
use std::process::Command;

/// Runs test `name` of the current test binary alone with `env` set and
/// `CI` set to `ci` (removed when `None`), the skip log in a scratch folder
/// `scratch`; returns (passed, its output, the skip log's text). The
/// scratch folder is removed afterwards.
pub fn rerun_alone(
    name: &str,
    scratch: &Path,
    env: &[(&str, &Path)],
    ci: Option<&str>,
) -> (bool, String, String) {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch).unwrap();
    let log = scratch.join("skipped.txt");
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env("KRUNCH_SKIP_LOG", &log);
    for (k, v) in env {
        cmd.env(k, v);
    }
    match ci {
        Some(v) => cmd.env("CI", v),
        None => cmd.env_remove("CI"),
    };
    let o = cmd.output().unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let skipped = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(scratch);
    (o.status.success(), out, skipped)
}
