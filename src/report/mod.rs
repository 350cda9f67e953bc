//! Outputs: CSV, charts (plotters, SVG and PNG) and a Markdown
//! summary, each written atomically into `reports/<spec name>/`; compare's
//! tables and chart; check's lines, JUnit XML and baselines; prob's tables.

mod baseline;
mod charts;
mod check;
mod compare;
mod csv;
mod distribution;
pub mod html;
mod json;
pub mod labels;
mod list;
mod summary;

pub use baseline::write_baseline;
pub use charts::{register_fonts, write_charts};
pub use check::{describe_outcome, junit, summary as check_summary};
pub use compare::{
    markdown as compare_markdown, mediawiki, summary as compare_summary, write_compare,
};
pub use csv::{csv_bytes, write_csv};
pub use distribution::{
    Named, check_chart_path, json as distribution_json, text as distribution_text,
    write_chart as write_distribution_chart,
};
pub use json::{results_json, write_json};
pub use list::list_json;
pub use summary::write_summary;

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// Hidden name prefixes of everything krunch stages; nothing else in a
/// folder is ever cleaned.
const TMP: &str = ".krunch-tmp-";
const STAGE: &str = ".krunch-stage-";
const OLD: &str = ".krunch-old-";

/// A test hook: `KRUNCH_TEST_FAIL_AT_WRITE=N` makes the N-th file write or
/// rename of this process fail with an error, and `N:kill` makes it end
/// the process there and then (exit code 70, no clean-up), as a crash or
/// a kill would. Unset, it costs one counter increment per file.
pub(crate) fn fail_point(what: &Path) -> std::io::Result<()> {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static PLAN: OnceLock<Option<(usize, bool)>> = OnceLock::new();
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let plan = PLAN.get_or_init(|| {
        let v = std::env::var("KRUNCH_TEST_FAIL_AT_WRITE").ok()?;
        let (n, kill) = match v.split_once(':') {
            Some((n, "kill")) => (n, true),
            _ => (v.as_str(), false),
        };
        Some((n.trim().parse().ok()?, kill))
    });
    let n = COUNT.fetch_add(1, Ordering::SeqCst) + 1;
    match plan {
        Some((at, kill)) if *at == n => {
            if *kill {
                eprintln!(
                    "KRUNCH_TEST_FAIL_AT_WRITE: killed at write {n} ({})",
                    what.display()
                );
                std::process::exit(70);
            }
            Err(std::io::Error::other(format!(
                "KRUNCH_TEST_FAIL_AT_WRITE: failure injected at write {n} ({})",
                what.display()
            )))
        }
        _ => Ok(()),
    }
}

/// Writes `path` through `write`, which gets a hidden temporary name in the
/// same folder (keeping the extension: plotters picks the image format from
/// it), then renames it over `path`: an interrupted run leaves either the
/// old file or the new one, never half of one, and a failed write removes
/// its temporary file.
pub fn write_via(
    path: &Path,
    write: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    fail_point(path)?;
    let tmp = temp_path(path);
    let result = write(&tmp).and_then(|()| {
        fail_point(path)?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("writing {}", path.display()))
}

/// Writes `bytes` to `path` atomically (see [`write_via`]), synced to disk.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_via(path, |tmp| {
        let mut f = std::fs::File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        Ok(())
    })
}

/// A hidden temporary name beside `path` that keeps its extension.
pub(crate) fn temp_path(path: &Path) -> std::path::PathBuf {
    path.with_file_name(format!("{TMP}{}-{}", std::process::id(), file_name(path)))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The folder `name` directly inside `out`. Refuses any name that is not
/// one plain path component (empty, `.`, `..`, a path with separators, an
/// absolute path, a hidden name), so a report can never replace `out`
/// itself or anything outside it.
pub fn folder_in(out: &Path, name: &str) -> anyhow::Result<std::path::PathBuf> {
    let mut parts = Path::new(name).components();
    let plain = matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(n)), None) if n == std::ffi::OsStr::new(name)
    );
    anyhow::ensure!(
        plain && !name.starts_with('.'),
        "report name '{name}' is not a plain folder name inside {}",
        out.display()
    );
    Ok(out.join(name))
}

/// The report folder of each experiment inside `out` (see [`folder_in`]),
/// refusing two experiments that would write the same one. Checked before
/// anything runs.
pub fn report_folders(
    out: &Path,
    exps: &[crate::experiment::Experiment],
) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    for exp in exps {
        let dir = folder_in(out, &exp.name)?;
        if let Some(first) = dirs.iter().position(|d| *d == dir) {
            anyhow::bail!(
                "{}: name: '{}' is also the name of {}; both would write {}",
                exp.file.display(),
                exp.name,
                exps[first].file.display(),
                dir.display()
            );
        }
        dirs.push(dir);
    }
    Ok(dirs)
}

/// Creates the output folder `out` (so a bad `--out` fails before any
/// computing) and cleans what interrupted runs left in it ([`recover`]).
/// Returns what the cleaning did.
pub fn prepare_out(out: &Path) -> anyhow::Result<Vec<String>> {
    std::fs::create_dir_all(out).with_context(|| format!("--out {}", out.display()))?;
    recover(out).with_context(|| format!("cleaning {}", out.display()))
}

/// Whether process `pid` still runs (on systems without `/proc`, only this
/// process counts as running, so another's leftovers are treated as stale).
fn alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc_fs = Path::new("/proc");
    proc_fs.join("self").exists() && proc_fs.join(pid.to_string()).exists()
}

/// Splits `<prefix><pid>-<name>` into the pid and name.
fn staged(entry: &str, prefix: &str) -> Option<(u32, String)> {
    let rest = entry.strip_prefix(prefix)?;
    let (pid, name) = rest.split_once('-')?;
    Some((pid.parse().ok()?, name.to_string()))
}

/// Cleans what interrupted runs left in `dir`: staging folders and
/// temporary files of processes that no longer run are removed, and a
/// previous report set aside for a swap that never finished is put back
/// when its folder is missing (else removed). Also cleans the `.tmp-PID-`
/// and `.old-PID-` folders older versions left. Returns what it did.
pub fn recover(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut done = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(done);
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for entry in names {
        let path = dir.join(&entry);
        let remove = |path: &Path| {
            if path.is_dir() {
                std::fs::remove_dir_all(path)
            } else {
                std::fs::remove_file(path)
            }
        };
        let old = staged(&entry, OLD).or_else(|| staged(&entry, ".old-").filter(|_| path.is_dir()));
        if let Some((pid, name)) = old.filter(|(pid, _)| !alive(*pid)) {
            let target = dir.join(&name);
            if target.exists() || name.is_empty() {
                remove(&path)?;
                done.push(format!("removed {}", path.display()));
            } else {
                std::fs::rename(&path, &target)?;
                done.push(format!(
                    "restored {} (process {pid} stopped mid-swap)",
                    target.display()
                ));
            }
            continue;
        }
        let tmp = staged(&entry, STAGE)
            .or_else(|| staged(&entry, TMP))
            .or_else(|| staged(&entry, ".tmp-").filter(|_| path.is_dir()));
        if tmp.is_some_and(|(pid, _)| !alive(pid)) {
            remove(&path)?;
            done.push(format!("removed {}", path.display()));
        }
    }
    Ok(done)
}

/// Builds the folder `dir` whole through `fill`, which writes into a hidden
/// staging folder beside it; the staging folder then replaces `dir`. A
/// failure removes the staging folder and leaves `dir` as it was; a crash
/// at any point leaves either the previous folder or the new one, possibly
/// set aside under a hidden name that [`recover`] puts back on the next
/// start.
pub fn write_folder<T>(
    dir: &Path,
    fill: impl FnOnce(&Path) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    let name = file_name(dir);
    anyhow::ensure!(!name.is_empty(), "{} is not a folder name", dir.display());
    std::fs::create_dir_all(parent)?;
    let pid = std::process::id();
    let stage = parent.join(format!("{STAGE}{pid}-{name}"));
    let old = parent.join(format!("{OLD}{pid}-{name}"));
    let _ = std::fs::remove_dir_all(&stage);
    let filled = fail_point(&stage)
        .map_err(anyhow::Error::from)
        .and_then(|()| Ok(std::fs::create_dir(&stage)?))
        .and_then(|()| fill(&stage));
    let value = match filled {
        Ok(v) => v,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(e);
        }
    };
    let swap = || -> std::io::Result<()> {
        let had_old = dir.exists();
        if had_old {
            fail_point(dir)?;
            std::fs::rename(dir, &old)?;
        }
        if let Err(e) = fail_point(dir).and_then(|()| std::fs::rename(&stage, dir)) {
            if had_old {
                let _ = std::fs::rename(&old, dir);
            }
            return Err(e);
        }
        // the new folder is in place: a previous one that cannot be removed
        // now is removed by the next run's `recover`
        if had_old {
            if let Err(e) = fail_point(&old).and_then(|()| std::fs::remove_dir_all(&old)) {
                eprintln!(
                    "warning: could not remove {} ({e}); the next run will",
                    old.display()
                );
            }
        }
        Ok(())
    };
    if let Err(e) = swap() {
        let _ = std::fs::remove_dir_all(&stage);
        return Err(anyhow::Error::from(e).context(format!("replacing {}", dir.display())));
    }
    Ok(value)
}

/// Writes the whole report of one experiment into `dir` (CSV, charts and
/// summary, staged and swapped in whole by [`write_folder`]), so a report
/// folder always holds one run's files, never a mix of two or a
/// half-written set.
pub fn write_report(
    dir: &Path,
    exp: &crate::experiment::Experiment,
    results: &crate::experiment::Results,
) -> anyhow::Result<()> {
    write_folder(dir, |stage| {
        write_csv(stage, exp, results)?;
        json::write_json(stage, exp, results)?;
        let charts = write_charts(stage, exp, results)?;
        write_summary(stage, exp, results, &charts)?;
        html::write_html(stage, exp, results, &charts)?;
        Ok(())
    })
}

/// Provenance shared by every output.
pub struct Provenance {
    /// krunch version.
    pub version: &'static str,
    /// SHA-256 of the spec.
    pub spec_hash: String,
    /// Seed.
    pub seed: u64,
    /// The rule variants the scenario reads, `name=value` joined by `;`
    /// (a variant it never reads cannot change a result).
    pub variants: String,
}

impl Provenance {
    /// Provenance of an experiment.
    pub fn of(exp: &crate::experiment::Experiment) -> Self {
        Provenance {
            version: env!("CARGO_PKG_VERSION"),
            spec_hash: exp.spec_hash.clone(),
            seed: exp.seed,
            variants: crate::experiment::variants_text(&exp.variants_in_use()),
        }
    }
}
