//! Charts with plotters, each drawn once per backend: SVG and PNG.
//!
//! Every chart reads without the spec open: its title says what the spec is
//! and what the chart shows in words (sweep axes by what they mean, not their
//! ids), the exact value is drawn where there is one with the Monte Carlo
//! interval as its check, legends sit where they cover no data (or beside
//! the plot), lines with the same values are drawn once and named together,
//! and nothing is left out silently: what does not fit is named on the chart.
//!
//! This module names the charts of a spec and draws each into its files;
//! one module per kind of chart ([`line`](mod@line), [`bar`], [`heatmap`],
//! [`distribution`], and compare's [`pairs`]) on what they share: the
//! [`frame`] around the plot, the [`layout`] of panels, the [`legend`], the
//! [`palette`] and the result [`rows`].

mod bar;
mod distribution;
pub(super) mod frame;
mod heatmap;
mod layout;
pub(super) mod legend;
mod line;
pub(super) mod pairs;
pub(super) mod palette;
mod rows;

use crate::experiment::{ChartSpec, Experiment, Results};
use crate::report::labels::{axis_value_words, axis_words, metric_label};
use bar::draw_bar;
use distribution::{distribution_subject, draw_distribution};
use frame::DrawResult;
use heatmap::draw_heatmap;
use line::draw_line;
use plotters::coord::Shift;
use plotters::prelude::*;
use rows::Lookup;
use std::path::Path;

/// Every chart's size in pixels, SVG and PNG alike.
const SIZE: (u32, u32) = (960, 600);

/// Registers the embedded DejaVu Sans so text renders with no system fonts.
pub fn register_fonts() {
    // A second registration of the same font is harmless; an error only means
    // the bytes were not a font, which the embedded file always is.
    let _ =
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
}

/// A chart written: its file stem and what it shows, in words.
pub struct Drawn {
    /// File stem (without extension), ids only.
    pub file: String,
    /// What it shows (`P(out of action) by inches to the target`).
    pub title: String,
    /// The SVG text (for `report.html`, which carries it inline).
    pub svg: String,
}

/// Draws every chart of the spec into `dir` as SVG and PNG; returns what
/// was written.
pub fn write_charts(dir: &Path, exp: &Experiment, results: &Results) -> anyhow::Result<Vec<Drawn>> {
    use rayon::prelude::*;
    let data = Lookup::new(results);
    // each chart (its SVG and its PNG) drawn on rayon's pool: a spec of
    // many charts would otherwise keep one core drawing at the end of a
    // suite; collected in the spec's order
    exp.charts
        .par_iter()
        .map(|chart| {
            let name = chart_name(exp, chart);
            let draw_svg = || -> anyhow::Result<String> {
                let mut svg = String::new();
                render(
                    SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
                    exp,
                    results,
                    &data,
                    chart,
                )
                .map_err(|e| anyhow::anyhow!("drawing {name}.svg: {e}"))?;
                super::files::write_atomic(&dir.join(format!("{name}.svg")), svg.as_bytes())?;
                Ok(svg)
            };
            let draw_png = || -> anyhow::Result<()> {
                super::files::write_via(&dir.join(format!("{name}.png")), |tmp| {
                    render(
                        BitMapBackend::new(tmp, SIZE).into_drawing_area(),
                        exp,
                        results,
                        &data,
                        chart,
                    )
                    .map_err(|e| anyhow::anyhow!("drawing {name}.png: {e}"))
                })
            };
            let (svg, png) = rayon::join(draw_svg, draw_png);
            let svg = svg?;
            png?;
            Ok(Drawn {
                title: chart_title(exp, chart),
                file: name,
                svg,
            })
        })
        .collect()
}

/// Draws `chart` on `root` by its kind and finishes the picture.
fn render<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    exp: &Experiment,
    results: &Results,
    data: &Lookup,
    chart: &ChartSpec,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    match chart {
        ChartSpec::Bar { metric } => draw_bar(&root, exp, results, data, metric),
        ChartSpec::Line { metric, x, by, at } => {
            draw_line(&root, exp, results, data, metric, x, by.as_deref(), at)
        }
        ChartSpec::Distribution { family, .. } => {
            draw_distribution(&root, exp, results, data, family)
        }
        ChartSpec::Heatmap {
            metric,
            x,
            y,
            profile,
        } => draw_heatmap(&root, exp, results, data, metric, x, y, profile),
    }?;
    root.present()?;
    Ok(())
}

/// A chart file stem: ids only, every run of characters other than ASCII
/// letters, digits, `-` and `_` made one `_` (no commas, spaces or
/// parentheses to quote in a shell or a Markdown link).
fn chart_name(exp: &Experiment, chart: &ChartSpec) -> String {
    let clean = |s: &str| {
        let mut out = String::new();
        for c in s.chars() {
            if c.is_ascii_alphanumeric() || c == '-' {
                out.push(c);
            } else if !out.ends_with('_') {
                out.push('_');
            }
        }
        out.trim_matches('_').to_string()
    };
    match chart {
        ChartSpec::Bar { metric } => format!("bar_{}", clean(metric)),
        ChartSpec::Line { metric, x, by, at } => {
            let mut name = format!("line_{}_by_{}", clean(metric), clean(x));
            if let Some(b) = by {
                name = format!("{name}_per_{}", clean(b));
            }
            for (a, v) in at {
                name = format!(
                    "{name}_at_{}_{}",
                    clean(&exp.axes[*a].name),
                    clean(&exp.axes[*a].values[*v].to_string())
                );
            }
            name
        }
        ChartSpec::Distribution { family, .. } => format!("distribution_{}", clean(family)),
        ChartSpec::Heatmap {
            metric,
            x,
            y,
            profile,
        } => format!(
            "heatmap_{}_{}_x_{}_{}",
            clean(metric),
            clean(x),
            clean(y),
            clean(profile)
        ),
    }
}

/// The chart's subject in words, for links to it.
fn chart_title(exp: &Experiment, chart: &ChartSpec) -> String {
    match chart {
        ChartSpec::Bar { metric } => metric_label(exp, metric),
        ChartSpec::Line { metric, x, by, at } => {
            let mut title = format!("{} by {}", metric_label(exp, metric), axis_words(exp, x));
            if let Some(b) = by {
                title = format!("{title}, lines by {}", axis_words(exp, b));
            }
            for (a, v) in at {
                title = format!(
                    "{title}, {}",
                    axis_value_words(exp, &exp.axes[*a].name, &exp.axes[*a].values[*v])
                );
            }
            title
        }
        ChartSpec::Distribution { family, .. } => distribution_subject(exp, family),
        ChartSpec::Heatmap {
            metric,
            x,
            y,
            profile,
        } => format!(
            "{profile}: {} by {} and {}",
            metric_label(exp, metric),
            axis_words(exp, x),
            axis_words(exp, y)
        ),
    }
}

/// What the charts' unit tests share.
#[cfg(test)]
mod testing {
    use crate::experiment::Experiment;
    use std::path::PathBuf;

    /// A bundled spec from experiments/, loaded as `krunch run` loads it:
    /// the charts' tests plan and name real charts.
    pub(super) fn bundled(name: &str) -> Experiment {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("experiments")
            .join(format!("{name}.toml"));
        crate::experiment::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}
