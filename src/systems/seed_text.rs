//! Test helper: reads tables straight out of the seed texts so encoded
//! tables are checked against their source, not against a copy.

use std::path::PathBuf;

/// The Battlefleet Gothic advanced rules.
pub const BFG: &str = "004_d4c8740a73a9c193.txt";

/// A seed file: `$KRUNCH_SEEDS/<file>` or `../shared/seeds/<file>` beside
/// the crate.
pub fn seed_path(file: &str) -> PathBuf {
    let dir = std::env::var_os("KRUNCH_SEEDS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds"));
    dir.join(file)
}

/// Whether the seed file can be read. A user's clone has no `../shared`:
/// tests that need a seed then say they were skipped and why; under
/// `CI=true` a missing seed fails instead, so CI never skips silently.
pub fn available(file: &str) -> bool {
    let path = seed_path(file);
    if path.is_file() {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "CI=true but the seed text is missing at {} (set KRUNCH_SEEDS)",
        path.display()
    );
    let why = format!(
        "the seed text {} is not here (a clone without ../shared; set KRUNCH_SEEDS to check tables against it)",
        path.display()
    );
    eprintln!("skipped: {why}");
    record_skip(&why);
    false
}

/// Records a skipped test in the file `KRUNCH_SKIP_LOG` names (`make test`
/// sets it and prints the list at the end, so a skip shows in the summary
/// instead of passing as "ok"): one line, the test's name and why.
pub fn record_skip(why: &str) {
    let Some(log) = std::env::var_os("KRUNCH_SKIP_LOG") else {
        return;
    };
    let name = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        use std::io::Write;
        let _ = writeln!(f, "{name}: {why}");
    }
}

/// Asserts that each quoted sentence a rule rests on stands in the seed
/// `file`, whitespace squashed on both sides (the seeds wrap lines where a
/// doc comment does not); skipped, and said so, where the seed is absent.
pub fn assert_quoted(file: &str, quotes: &[&str]) {
    if !available(file) {
        return;
    }
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = squash(&seed(file));
    for quote in quotes {
        assert!(
            text.contains(&squash(quote)),
            "not in the seed {file}: {quote}"
        );
    }
}

/// The text of a seed file.
pub fn seed(file: &str) -> String {
    let path = seed_path(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the seed must be readable at {}: {e}", path.display()))
}

/// The lines of `file` from the one starting with `start` up to (not
/// including) the first line starting with `end`, tab-separated into cells.
pub fn tab_rows(file: &str, start: &str, end: &str) -> Vec<Vec<String>> {
    let text = seed(file);
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip_while(|l| !l.starts_with(start))
        .take_while(|l| !l.starts_with(end))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(|c| c.trim().to_string()).collect())
        .collect();
    assert!(!rows.is_empty(), "{file} has a table starting '{start}'");
    rows
}

/// The cells of the `|`-ruled table in seed `file` that starts at `start`
/// and ends before `end`, in reading order (`|` separators and blanks
/// dropped).
pub fn table_cells(file: &str, start: &str, end: &str) -> Vec<String> {
    let text = seed(file);
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("seed has '{start}'"));
    let body = &text[from..];
    let to = body
        .find(end)
        .unwrap_or_else(|| panic!("'{end}' follows '{start}'"));
    body[..to]
        .lines()
        .flat_map(|l| l.split('|'))
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.starts_with("---"))
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    /// Runs one seed-table test of this binary alone, with no seed texts
    /// (`KRUNCH_SEEDS` an empty folder), `CI` as given, its skip log in a
    /// file of its own: (passed, its output, the skip log).
    fn without_seeds(ci: Option<&str>, name: &str) -> (bool, String, String) {
        let dir =
            std::env::temp_dir().join(format!("krunch-noseeds-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("skipped.txt");
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args(["--exact", name, "--nocapture", "--test-threads", "1"])
            .env("KRUNCH_SEEDS", &dir)
            .env("KRUNCH_SKIP_LOG", &log);
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
        let _ = std::fs::remove_dir_all(&dir);
        (o.status.success(), out, skipped)
    }

    /// A seed-table check with no seed skips and says so (in its output
    /// and in the skip log `make test` lists); under `CI=true` (which
    /// `.ci/run` exports) it fails instead, naming the missing file.
    #[test]
    fn a_missing_seed_skips_with_a_note_and_fails_under_ci() {
        let name = "systems::gce::tables::tests::hit_table_matches_the_seed_text";
        let (ok, out, skipped) = without_seeds(None, name);
        assert!(ok, "{out}");
        assert!(out.contains("1 passed"), "the test ran: {out}");
        assert!(out.contains("skipped: the seed text"), "{out}");
        assert!(
            skipped.starts_with(&format!("{name}: the seed text")),
            "{skipped}"
        );
        for ci in ["true", "1"] {
            let (ok, out, _) = without_seeds(Some(ci), name);
            assert!(!ok, "CI={ci} passed without the seed: {out}");
            assert!(
                out.contains("CI=true but the seed text is missing at"),
                "{out}"
            );
            assert!(out.contains(crate::systems::gce::tables::SEED), "{out}");
        }
    }
}
