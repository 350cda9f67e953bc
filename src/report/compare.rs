//! Outputs of `krunch compare`: a plain-language summary, Markdown and
//! MediaWiki tables, CSV, and a before/after chart.

use super::labels::{
    axis_metric_title, cell_text, change_text, is_probability, metric_label, signed, value_text,
};
use super::write_atomic;
use crate::experiment::Experiment;
use crate::experiment::compare::Change;
use plotters::prelude::*;
use polars::prelude::Column;
use std::fmt::Write;
use std::path::Path;

fn cell_label(exp: &Experiment, c: &Change) -> String {
    cell_text(exp, &c.cell)
}

/// A relative change (`−50.0%`), or a dash where there is none.
fn pct(x: Option<f64>) -> String {
    x.map_or("—".into(), |r| format!("{}%", signed(r * 100.0, 1)))
}

/// The interval on a change, in the change's own units.
fn change_interval(exp: &Experiment, c: &Change) -> String {
    if is_probability(exp, &c.metric) {
        format!(
            "{} to {} points",
            signed(c.ci_low * 100.0, 1),
            signed(c.ci_high * 100.0, 1)
        )
    } else {
        format!("{} to {}", signed(c.ci_low, 3), signed(c.ci_high, 3))
    }
}

fn verdict(c: &Change) -> String {
    match (c.exact, c.significant, c.p_value) {
        (true, true, _) => "yes (exact)".into(),
        (true, false, _) => "no change (exact)".into(),
        (false, s, Some(p)) => format!("{} ({})", if s { "yes" } else { "no" }, p_text(p)),
        (false, s, None) => if s { "yes" } else { "no" }.into(),
    }
}

/// A p-value as a phrase: `p = 3.1e-4`, or `p < 1e-12`.
pub(super) fn p_text(p: f64) -> String {
    if p < 1e-12 {
        "p < 1e-12".into()
    } else {
        format!("p = {p:.2e}")
    }
}

/// The largest significant changes, in words.
pub fn summary(exp: &Experiment, changes: &[Change], change_name: &str) -> String {
    let mut sig: Vec<&Change> = changes.iter().filter(|c| c.significant).collect();
    sig.sort_by(|a, b| b.diff.abs().total_cmp(&a.diff.abs()));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{change_name}: {} of {} results change significantly{}.",
        sig.len(),
        changes.len(),
        if sig.len() > 8 {
            "; the 8 largest below, every one in compare.md, compare.wiki and compare.csv"
        } else {
            ""
        }
    );
    for c in sig.iter().take(8) {
        let _ = writeln!(
            out,
            "- {} for {}{}: {} → {} ({}, {} relative){}",
            metric_label(exp, &c.metric),
            c.profile,
            if c.cell.is_empty() {
                String::new()
            } else {
                format!(" at {}", cell_label(exp, c))
            },
            value_text(exp, &c.metric, c.before),
            value_text(exp, &c.metric, c.after),
            change_text(exp, &c.metric, c.diff),
            pct(c.relative),
            if c.exact {
                ", exact".to_string()
            } else {
                format!(", {}", p_text(c.p_value.unwrap_or(1.0)))
            }
        );
    }
    out
}

fn header(exp: &Experiment) -> Vec<String> {
    let mut h = vec!["profile".to_string()];
    h.extend(exp.axes.iter().map(|a| a.name.clone()));
    h.extend(
        [
            "metric",
            "before",
            "after",
            "change",
            "relative change",
            "interval on the change",
            "significant",
        ]
        .iter()
        .map(ToString::to_string),
    );
    h
}

fn cells(exp: &Experiment, c: &Change) -> Vec<String> {
    let mut r = vec![c.profile.clone()];
    r.extend(c.cell.iter().map(ToString::to_string));
    r.extend([
        metric_label(exp, &c.metric),
        value_text(exp, &c.metric, c.before),
        value_text(exp, &c.metric, c.after),
        change_text(exp, &c.metric, c.diff),
        pct(c.relative),
        if c.exact {
            "exact".into()
        } else {
            change_interval(exp, c)
        },
        verdict(c),
    ]);
    r
}

/// A Markdown table of every change.
pub fn markdown(exp: &Experiment, changes: &[Change]) -> String {
    let h = header(exp);
    let mut out = format!("| {} |\n|{}\n", h.join(" | "), "---|".repeat(h.len()));
    for c in changes {
        let _ = writeln!(out, "| {} |", cells(exp, c).join(" | "));
    }
    out
}

/// A MediaWiki table (`{| class="wikitable sortable"`) an editor can paste.
pub fn mediawiki(exp: &Experiment, changes: &[Change], caption: &str) -> String {
    let mut out = String::from("{| class=\"wikitable sortable\"\n");
    let _ = writeln!(out, "|+ {caption}");
    for h in header(exp) {
        let _ = writeln!(out, "! {h}");
    }
    for c in changes {
        out.push_str("|-\n");
        let row = cells(exp, c);
        let _ = writeln!(out, "| {}", row.join(" || "));
    }
    out.push_str("|}\n");
    out
}

fn csv(exp: &Experiment, changes: &[Change]) -> anyhow::Result<Vec<u8>> {
    let n = changes.len();
    let mut columns = vec![Column::new(
        "profile".into(),
        changes
            .iter()
            .map(|c| c.profile.clone())
            .collect::<Vec<_>>(),
    )];
    for (i, a) in exp.axes.iter().enumerate() {
        columns.push(Column::new(
            a.name.as_str().into(),
            changes
                .iter()
                .map(|c| c.cell[i].to_string())
                .collect::<Vec<_>>(),
        ));
    }
    columns.extend([
        Column::new(
            "metric".into(),
            changes.iter().map(|c| c.metric.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "before".into(),
            changes.iter().map(|c| c.before).collect::<Vec<_>>(),
        ),
        Column::new(
            "after".into(),
            changes.iter().map(|c| c.after).collect::<Vec<_>>(),
        ),
        Column::new(
            "diff".into(),
            changes.iter().map(|c| c.diff).collect::<Vec<_>>(),
        ),
        Column::new(
            "relative".into(),
            changes.iter().map(|c| c.relative).collect::<Vec<_>>(),
        ),
        Column::new(
            "diff_ci_low".into(),
            changes.iter().map(|c| c.ci_low).collect::<Vec<_>>(),
        ),
        Column::new(
            "diff_ci_high".into(),
            changes.iter().map(|c| c.ci_high).collect::<Vec<_>>(),
        ),
        Column::new(
            "p_value".into(),
            changes.iter().map(|c| c.p_value).collect::<Vec<_>>(),
        ),
        Column::new(
            "significant".into(),
            changes.iter().map(|c| c.significant).collect::<Vec<_>>(),
        ),
        Column::new(
            "exact".into(),
            changes.iter().map(|c| c.exact).collect::<Vec<_>>(),
        ),
        Column::new(
            "trials".into(),
            changes.iter().map(|c| c.trials).collect::<Vec<_>>(),
        ),
    ]);
    super::csv::frame_csv(n, columns)
}

/// Writes `compare.csv`, `compare.md`, `compare.wiki`, and a chart for the
/// metric that changed most, into `dir`; returns the summary text.
pub fn write_compare(
    dir: &Path,
    before: &Experiment,
    changes: &[Change],
    change_name: &str,
) -> anyhow::Result<String> {
    let text = summary(before, changes, change_name);
    // all five files are staged together and replace the folder in one step
    super::write_folder(dir, |dir| {
        write_atomic(&dir.join("compare.csv"), &csv(before, changes)?)?;
        let md = format!(
            "# {}: {change_name}\n\n{}\nSeed {}; paired trials on common random numbers; significance: exact values differ, or p below the chosen level.\n\n![chart](compare.svg)\n\n{}",
            before.title,
            text,
            before.seed,
            markdown(before, changes)
        );
        write_atomic(&dir.join("compare.md"), md.as_bytes())?;
        write_atomic(
            &dir.join("compare.wiki"),
            mediawiki(before, changes, &format!("{}: {change_name}", before.title)).as_bytes(),
        )?;
        let metric = changes
            .iter()
            .max_by(|a, b| a.diff.abs().total_cmp(&b.diff.abs()))
            .map(|c| c.metric.clone());
        if let Some(metric) = metric {
            super::register_fonts();
            for ext in ["svg", "png"] {
                let path = dir.join(format!("compare.{ext}"));
                super::write_via(&path, |tmp| {
                    let drawn = if ext == "svg" {
                        draw(
                            SVGBackend::new(tmp, (960, 600)).into_drawing_area(),
                            before,
                            changes,
                            &metric,
                            change_name,
                        )
                    } else {
                        draw(
                            BitMapBackend::new(tmp, (960, 600)).into_drawing_area(),
                            before,
                            changes,
                            &metric,
                            change_name,
                        )
                    };
                    drawn.map_err(|e| anyhow::anyhow!("drawing {}: {e}", path.display()))
                })?;
            }
        }
        Ok(())
    })?;
    Ok(text)
}

/// Paired bars, before and after, for `metric` across cells and profiles
/// (the first 24).
fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    exp: &Experiment,
    changes: &[Change],
    metric: &str,
    change_name: &str,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let rows: Vec<&Change> = changes
        .iter()
        .filter(|c| c.metric == metric)
        .take(24)
        .collect();
    let top = rows
        .iter()
        .map(|c| c.before.max(c.after))
        .fold(0.0, f64::max);
    let top = if top <= 0.0 { 1.0 } else { top * 1.3 };
    let probability = is_probability(exp, metric);
    let labels: Vec<String> = rows
        .iter()
        .map(|c| {
            let cell = cell_label(exp, c);
            if exp.profiles.len() > 1 {
                format!("{}, {cell}", c.profile)
            } else {
                cell
            }
        })
        .collect();
    let (wrapped, label_room) = super::charts::category_labels(&labels);
    let caption = format!("{}: {change_name}", metric_label(exp, metric));
    let style = super::charts::caption_style(&caption, 22);
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, style)
        .margin(15)
        .x_label_area_size(label_room)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..rows.len() as f64, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(rows.len() * 2 + 1)
        .x_label_formatter(&|_| String::new())
        .y_desc(axis_metric_title(exp, metric))
        .y_label_formatter(&|v| super::charts::y_tick(probability, *v))
        .label_style(("sans-serif", 12))
        .draw()?;
    super::charts::draw_category_labels(&root, &chart, &wrapped)?;
    let before = super::charts::colour(0);
    let after = super::charts::colour(1);
    chart
        .draw_series(rows.iter().enumerate().map(|(i, c)| {
            Rectangle::new(
                [(i as f64 + 0.1, 0.0), (i as f64 + 0.48, c.before)],
                before.filled(),
            )
        }))?
        .label("before")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], before.filled()));
    chart
        .draw_series(rows.iter().enumerate().map(|(i, c)| {
            Rectangle::new(
                [(i as f64 + 0.52, 0.0), (i as f64 + 0.9, c.after)],
                after.filled(),
            )
        }))?
        .label("after")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], after.filled()));
    super::charts::draw_legend(&mut chart)?;
    root.present()?;
    Ok(())
}
