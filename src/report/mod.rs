//! Outputs: CSV (polars), charts (plotters, SVG and PNG) and a Markdown
//! summary, each written atomically into `reports/<spec name>/`.

mod charts;
mod compare;
mod csv;
mod distribution;
mod summary;

pub use charts::{register_fonts, write_charts};
pub use compare::{
    describe_outcome, junit, markdown as compare_markdown, mediawiki, summary as compare_summary,
    write_compare,
};
pub use csv::{csv_bytes, write_csv};
pub use distribution::{
    Named, json as distribution_json, text as distribution_text,
    write_chart as write_distribution_chart,
};
pub use summary::write_summary;

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// flushed, then renamed over the target, so an interrupted run leaves either
/// the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = temp_path(path);
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// A hidden temporary name beside `path` that keeps its extension (plotters
/// picks the image format from it).
pub(crate) fn temp_path(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".tmp-{}-{name}", std::process::id()))
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

/// Writes the whole report of one experiment into `dir`: CSV, charts and
/// summary are made in a hidden staging folder beside it, which then
/// replaces `dir`, so a report folder always holds one run's files, never a
/// mix of two or a half-written set.
pub fn write_report(
    dir: &Path,
    exp: &crate::experiment::Experiment,
    results: &crate::experiment::Results,
) -> anyhow::Result<()> {
    let stage = temp_path(dir);
    let _ = std::fs::remove_dir_all(&stage);
    std::fs::create_dir_all(&stage)?;
    write_csv(&stage, exp, results)?;
    let charts = write_charts(&stage, exp, results)?;
    write_summary(&stage, exp, results, &charts)?;
    let old = dir.with_file_name(format!(
        ".old-{}-{}",
        std::process::id(),
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let had_old = dir.exists();
    if had_old {
        std::fs::rename(dir, &old)?;
    }
    std::fs::rename(&stage, dir)?;
    if had_old {
        std::fs::remove_dir_all(&old)?;
    }
    Ok(())
}

/// Provenance shared by every output.
pub struct Provenance {
    /// krunch version.
    pub version: &'static str,
    /// SHA-256 of the spec.
    pub spec_hash: String,
    /// Seed.
    pub seed: u64,
    /// Rule variants, `name=value` joined by `;`.
    pub variants: String,
}

impl Provenance {
    /// Provenance of an experiment.
    pub fn of(exp: &crate::experiment::Experiment) -> Self {
        Provenance {
            version: env!("CARGO_PKG_VERSION"),
            spec_hash: exp.spec_hash.clone(),
            seed: exp.seed,
            variants: crate::experiment::variants_text(&exp.variants),
        }
    }
}
