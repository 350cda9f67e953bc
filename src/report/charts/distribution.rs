//! Distribution charts: a family of metrics along k, per profile a solid
//! line of P(= k) and a dashed one of P(≥ k), a panel per sweep cell (the
//! default chart for a family).

use super::frame::{DrawResult, fitting, frame, marks_note, whisker, y_tick};
use super::layout::{PanelAxes, build, layout};
use super::legend::{LEGEND_TEXT_MAX, LegendEntry, along, draw_legend_box, legend_box};
use super::palette::{Marker, colour};
use super::rows::{Lookup, shown};
use crate::experiment::{Experiment, Results, Row, at_least};
use crate::report::inputs;
use crate::report::labels::{axis_value_words, cell_text, family_label};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Most sweep cells a distribution chart draws, a panel each.
const MAX_DISTRIBUTION_PANELS: usize = 6;

/// The family `family` as the spec lists it.
fn listed_family(exp: &Experiment, family: &str) -> Option<at_least::Listed> {
    at_least::listed(exp).into_iter().find(|f| f.head == family)
}

/// A distribution chart's subject: `P(k hits): exactly k (solid) and at
/// least k (dashed)`.
pub(super) fn distribution_subject(exp: &Experiment, family: &str) -> String {
    let label = listed_family(exp, family)
        .map_or_else(|| family.to_string(), |f| family_label(exp, f.id, &f.head));
    format!("{label}: P(= k), solid, and P(≥ k), dashed")
}

/// A distribution family along `k`: per profile a solid line of P(= k)
/// and a dashed one of P(≥ k) in its colour and marker; a panel per sweep
/// cell (the first [`MAX_DISTRIBUTION_PANELS`], the rest named as left out).
pub(super) fn draw_distribution<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    results: &Results,
    data: &Lookup,
    family: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let Some(f) = listed_family(exp, family) else {
        return Err(format!("no distribution family '{family}' among the metrics").into());
    };
    let cells = exp.models.len();
    let shown_cells = cells.min(MAX_DISTRIBUTION_PANELS);
    let (lo, hi) = (
        f.ks.first().copied().unwrap_or(0),
        f.ks.last().copied().unwrap_or(0),
    );
    let mut ymax: f64 = 0.0;
    for c in 0..shown_cells {
        for p in &exp.profiles {
            for &k in &f.ks {
                for m in [f.equal(k), f.at_least(k)] {
                    if let Some(r) = data.get(p, c, &m) {
                        ymax = ymax.max(shown(r).0).max(r.ci_high);
                    }
                }
            }
        }
    }
    let ymax = if ymax <= 0.0 {
        1.0
    } else {
        (ymax * 1.08).min(1.0).max(ymax * 1.03)
    };
    let mut subject = distribution_subject(exp, family);
    if shown_cells < cells {
        subject = format!(
            "{subject} (the first {shown_cells} of {cells} sweep cells; every cell in data.csv)"
        );
    }
    let all: Vec<usize> = (0..exp.profiles.len()).collect();
    let fixed = inputs::chart_fixed(exp, &all, true);
    let what = marks_note(exp, results, &f.at_least(lo), false);
    let body = frame(root, exp, &subject, &fixed, &what)?;
    let entries: Vec<LegendEntry> = exp
        .profiles
        .iter()
        .enumerate()
        .map(|(p, name)| LegendEntry {
            lines: vec![name.clone()],
            colour: colour(p),
            bar: false,
            marker: Some(Marker::nth(p)),
        })
        .collect();
    let legend = (exp.profiles.len() > 1).then(|| legend_box(root, &entries, LEGEND_TEXT_MAX));
    let small = shown_cells > 1;
    let axes = PanelAxes {
        x: lo as f64 - 0.3..hi as f64 + 0.3,
        y: -0.025 * ymax..ymax,
        x_room: if small { 36 } else { 50 },
        y_room: if small { 60 } else { 70 },
        margin: if small { 8 } else { 15 },
    };
    let mut occupied = Vec::new();
    for p in &exp.profiles {
        for m in [
            f.ks.iter().map(|&k| f.equal(k)).collect::<Vec<_>>(),
            f.ks.iter().map(|&k| f.at_least(k)).collect(),
        ] {
            let line: Vec<(f64, f64)> =
                f.ks.iter()
                    .zip(&m)
                    .filter_map(|(&k, m)| data.get(p, 0, m).map(|r| (k as f64, shown(r).0)))
                    .collect();
            occupied.extend(along(&line));
        }
    }
    let cols = (shown_cells > 1).then_some(if shown_cells <= 4 { 2 } else { 3 });
    let placed = layout(&body, shown_cells, cols, legend.as_ref(), &axes, &occupied)?;
    let span = (hi - lo) as usize;
    let ticks = if span <= 13 { span + 1 } else { 10 };
    let x_words = format!("k, as in {}", family_label(exp, f.id, &f.head));
    for (c, area) in (0..shown_cells).zip(&placed.areas) {
        // the cell in words where that fits the panel, else by ids
        let values = exp.cell_values(c);
        let words: Vec<String> = exp
            .axes
            .iter()
            .zip(&values)
            .map(|(a, v)| axis_value_words(exp, &a.name, v))
            .collect();
        let (width, _) = area.dim_in_pixel();
        let title = fitting(
            root,
            &[words.join(", "), cell_text(exp, &values)],
            15,
            width as i32 - 20,
        );
        let mut chart = build(area, &axes, &title)?;
        let desc_size = if small { 13 } else { 15 };
        let (xr, _) = chart.plotting_area().get_pixel_range();
        let x_desc = fitting(
            root,
            &[x_words.clone(), "k".into()],
            desc_size,
            xr.end - xr.start,
        );
        chart
            .configure_mesh()
            .x_labels(ticks)
            .x_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-6 {
                    format!("{:.0}", v.round())
                } else {
                    String::new()
                }
            })
            .x_desc(x_desc)
            .y_desc("probability")
            .y_label_formatter(&|v| y_tick(true, *v))
            .label_style(("sans-serif", if small { 12 } else { 14 }))
            .axis_desc_style(("sans-serif", desc_size))
            .draw()?;
        for (p, profile) in exp.profiles.iter().enumerate() {
            let colour = colour(p);
            let marker = Marker::nth(p);
            for dashed in [false, true] {
                let pts: Vec<(f64, &Row)> =
                    f.ks.iter()
                        .filter_map(|&k| {
                            let m = if dashed { f.at_least(k) } else { f.equal(k) };
                            data.get(profile, c, &m).map(|r| (k as f64, r))
                        })
                        .collect();
                let line: Vec<(f64, f64)> = pts.iter().map(|(x, r)| (*x, shown(r).0)).collect();
                if dashed {
                    chart.draw_series(DashedLineSeries::new(line, 7, 5, colour.stroke_width(2)))?;
                } else {
                    chart.draw_series(LineSeries::new(line, colour.stroke_width(3)))?;
                }
                for &(x, r) in &pts {
                    whisker(root, &chart, x, (r.ci_low, r.ci_high), colour)?;
                }
                for &(x, r) in &pts {
                    let (v, exact) = shown(r);
                    let radius = if dashed { 4 } else { 5 };
                    marker.draw(root, chart.backend_coord(&(x, v)), radius, colour, exact)?;
                }
            }
        }
    }
    if let (Some(legend), Some(at)) = (&legend, placed.legend_at) {
        draw_legend_box(root, &entries, legend, at)?;
    }
    Ok(())
}
