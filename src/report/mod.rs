//! Outputs: CSV, charts (plotters, SVG and PNG) and a Markdown
//! summary, each written atomically into `reports/<spec name>/`; compare's
//! tables and chart; check's lines, JUnit XML and baselines; prob's tables.

mod baseline;
mod charts;
mod check;
mod compare;
mod csv;
mod distribution;
pub mod escape;
mod files;
pub mod html;
pub mod inputs;
mod json;
pub mod labels;
mod list;
mod provenance;
mod summary;

pub use baseline::write_baseline;
pub use charts::{register_fonts, write_charts};
pub use check::{describe_outcome, junit, summary as check_summary};
pub use compare::{
    CompareOptions, markdown as compare_markdown, markdown_document as compare_markdown_document,
    mediawiki, mediawiki_document, method_text as compare_method_text, rules_described,
    summary as compare_summary, summary_document as compare_summary_document, write_compare,
};
pub use csv::{csv_bytes, write_csv};
pub use distribution::{
    Named, check_chart_path, csv as distribution_csv, json as distribution_json,
    text as distribution_text, write_chart as write_distribution_chart,
};
pub use files::{
    check_replaceable, folder_in, prepare_out, recover, report_folders, write_atomic, write_folder,
    write_via,
};
pub use json::{results_json, write_json};
pub use list::{list_json, list_text, reference_markdown};
pub use provenance::Provenance;
pub use summary::write_summary;

use std::path::Path;

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
