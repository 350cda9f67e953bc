//! Line charts: a metric along one sweep axis (spaced by value where the
//! values are numbers), a line per profile and per value of a `by` axis or
//! a panel per value of another; lines with the same values drawn once and
//! named together; exact points filled, estimates hollow, with whiskers.

use super::frame::{DrawResult, fitting, frame, marks_note, whisker, y_tick, y_top};
use super::layout::{MAX_PANELS, PanelAxes, build, layout};
use super::legend::{LEGEND_TEXT_MAX, LegendEntry, along, draw_legend_box, legend_box};
use super::palette::{Marker, colour};
use super::rows::{Lookup, axis_index, shown};
use crate::experiment::{Experiment, Results, Row};
use crate::report::inputs;
use crate::report::labels::{
    axis_metric_title, axis_title, axis_value_words, axis_words, is_probability, metric_label,
    value_words,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// One line of a line chart: its legend text, colour, profile and the
/// cells along the x axis it runs through.
struct Series {
    label: String,
    colour: RGBAColor,
    profile: String,
    cells: Vec<usize>,
}

/// What a line chart draws: a panel per value of one axis (or a single
/// panel), each with its lines; and which axes are held at one value.
struct LinePlan {
    /// (panel title, lines); one untitled panel when there are no panels.
    panels: Vec<(String, Vec<Series>)>,
    /// `the target's armour: 0`: axes held at one value.
    held: Vec<String>,
    /// What the panels or `by` lines vary, for the caption.
    varies: Option<String>,
}

/// Lays out a line chart of axis `xi`: every profile gets a line; a `by`
/// axis (or, for one profile, the next free axis) gives a line per value
/// too; with several profiles and no `by`, the next free axis gives a panel
/// per value; axes in `at` are held at that value, any others at their first.
fn line_plan(exp: &Experiment, xi: usize, by: Option<usize>, at: &[(usize, usize)]) -> LinePlan {
    let mut free: Vec<usize> = (0..exp.axes.len())
        .filter(|&i| i != xi && Some(i) != by && !at.iter().any(|(a, _)| *a == i))
        .collect();
    let mut by = by;
    let mut panel_axis = None;
    if by.is_none() && !free.is_empty() {
        if exp.profiles.len() == 1 {
            by = Some(free.remove(0));
        } else {
            panel_axis = Some(free.remove(0));
        }
    }
    let mut base = vec![0; exp.axes.len()];
    for &(a, v) in at {
        base[a] = v;
    }
    let mut held: Vec<String> = Vec::new();
    for (a, (axis, &v)) in exp.axes.iter().zip(&base).enumerate() {
        if at.iter().any(|(i, _)| *i == a) || free.contains(&a) {
            held.push(axis_value_words(exp, &axis.name, &axis.values[v]));
        }
    }
    let by_values: Vec<Option<usize>> = match by {
        Some(b) => (0..exp.axes[b].values.len()).map(Some).collect(),
        None => vec![None],
    };
    let panel_values: Vec<Option<usize>> = match panel_axis {
        Some(p) => (0..exp.axes[p].values.len().min(MAX_PANELS))
            .map(Some)
            .collect(),
        None => vec![None],
    };
    let mut panels = Vec::new();
    for pv in &panel_values {
        let mut series = Vec::new();
        for (pi, profile) in exp.profiles.iter().enumerate() {
            for (bi, bv) in by_values.iter().enumerate() {
                let mut index = base.clone();
                if let (Some(p), Some(v)) = (panel_axis, pv) {
                    index[p] = *v;
                }
                if let (Some(b), Some(v)) = (by, bv) {
                    index[b] = *v;
                }
                let cells = (0..exp.axes[xi].values.len())
                    .map(|x| {
                        index[xi] = x;
                        cell_of(exp, &index)
                    })
                    .collect();
                let by_text = match (by, bv) {
                    (Some(b), Some(v)) => {
                        axis_value_words(exp, &exp.axes[b].name, &exp.axes[b].values[*v])
                    }
                    _ => String::new(),
                };
                let label = match (exp.profiles.len(), by_text.is_empty()) {
                    (_, true) => profile.clone(),
                    (1, false) => by_text,
                    _ => format!("{profile}, {by_text}"),
                };
                series.push(Series {
                    label,
                    colour: colour(pi * by_values.len() + bi),
                    profile: profile.clone(),
                    cells,
                });
            }
        }
        let title = match (panel_axis, pv) {
            (Some(p), Some(v)) => axis_value_words(exp, &exp.axes[p].name, &exp.axes[p].values[*v]),
            _ => String::new(),
        };
        panels.push((title, series));
    }
    let varies = match (by, panel_axis) {
        (Some(b), _) => Some(format!("lines by {}", axis_words(exp, &exp.axes[b].name))),
        (None, Some(p)) => {
            let n = exp.axes[p].values.len();
            let words = axis_words(exp, &exp.axes[p].name);
            Some(if n > MAX_PANELS {
                format!("panels by {words} (the first {MAX_PANELS} of {n}: use `at` for the rest)")
            } else {
                format!("panels by {words}")
            })
        }
        _ => None,
    };
    LinePlan {
        panels,
        held,
        varies,
    }
}

/// The cell index of one value index per axis.
fn cell_of(exp: &Experiment, index: &[usize]) -> usize {
    index
        .iter()
        .zip(&exp.axes)
        .fold(0, |acc, (i, a)| acc * a.values.len() + i)
}

/// The series of a line plan that draw the same values in every panel,
/// to within `within` (0 for equal): grouped, each group the series
/// indices in drawing order, the first drawn and the others named with it
/// in the legend.
fn coincident(plan: &LinePlan, data: &Lookup, metric: &str, within: f64) -> Vec<Vec<usize>> {
    let values = series_values(plan, data, metric);
    let same = |a: &[Option<f64>], b: &[Option<f64>]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => {
                    (x - y).abs() <= within.max(1e-9 * x.abs().max(y.abs()).max(1.0))
                }
                (None, None) => true,
                _ => false,
            })
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for s in 0..values.len() {
        match groups.iter_mut().find(|g| same(&values[g[0]], &values[s])) {
            Some(g) => g.push(s),
            None => groups.push(vec![s]),
        }
    }
    groups
}

/// The largest difference between series `a` and `b` of a line plan over
/// every point both draw.
fn largest_gap(plan: &LinePlan, data: &Lookup, metric: &str, a: usize, b: usize) -> f64 {
    let values = series_values(plan, data, metric);
    values[a]
        .iter()
        .zip(&values[b])
        .filter_map(|(x, y)| Some((x.as_ref()? - y.as_ref()?).abs()))
        .fold(0.0, f64::max)
}

/// Every series' shown values, panel after panel.
fn series_values(plan: &LinePlan, data: &Lookup, metric: &str) -> Vec<Vec<Option<f64>>> {
    let count = plan.panels.first().map_or(0, |p| p.1.len());
    (0..count)
        .map(|s| {
            plan.panels
                .iter()
                .flat_map(|(_, series)| {
                    let line = &series[s];
                    line.cells
                        .iter()
                        .map(|&c| data.get(&line.profile, c, metric).map(|r| shown(r).0))
                })
                .collect()
        })
        .collect()
}

/// Lines nearer than this share of the y axis at every point cannot be
/// told apart on the chart (about a line's width): drawn once, named
/// together with "≈".
const SAME_AT_THIS_SCALE: f64 = 0.004;

/// A gap between two lines of metric `metric`: percentage points for a
/// probability, else a number, with enough digits to show it is not 0.
fn gap_text(exp: &Experiment, metric: &str, gap: f64) -> String {
    let (x, unit) = if is_probability(exp, metric) {
        (gap * 100.0, " percentage points")
    } else {
        (gap, "")
    };
    if x < 1e-4 {
        return format!("{x:.1e}{unit}");
    }
    let digits = (-x.log10()).ceil().clamp(1.0, 6.0) as usize;
    format!("{x:.digits$}{unit}")
}

/// Where each value of axis `ai` sits along the x axis: at the value
/// itself when every value is a number (3, 6, 7, 9 spaced as numbers),
/// else at its position; and the range to draw.
fn x_positions(exp: &Experiment, ai: usize) -> (Vec<f64>, Range<f64>, bool) {
    use crate::systems::ParamValue;
    let values = &exp.axes[ai].values;
    let numbers: Option<Vec<f64>> = values
        .iter()
        .map(|v| match v {
            ParamValue::Int(i) => Some(*i as f64),
            ParamValue::Float(f) => Some(*f),
            _ => None,
        })
        .collect();
    match numbers {
        Some(xs) if xs.len() > 1 => {
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let pad = ((hi - lo) * 0.05).max(0.3);
            (xs, lo - pad..hi + pad, true)
        }
        _ => {
            let n = values.len();
            (
                (0..n).map(|i| i as f64).collect(),
                -0.5..n as f64 - 0.5,
                false,
            )
        }
    }
}

/// Line widths for `n` lines drawn in order: the first widest, so a line
/// drawn later over the same values leaves the earlier one's edges showing
/// (no line hides wholly under another).
fn line_widths(n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| 2 + ((n - 1 - i) as u32 * 5 / n.max(1) as u32).min(5))
        .collect()
}

/// A line chart of `metric` along axis `x` (see [`line_plan`]): `by` a
/// line per value of another axis, `at` axes held at a value.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_line<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    results: &Results,
    data: &Lookup,
    metric: &str,
    x: &str,
    by: Option<&str>,
    at: &[(usize, usize)],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let ai = axis_index(exp, x);
    let plan = line_plan(exp, ai, by.map(|b| axis_index(exp, b)), at);
    let (xs, x_range, numeric) = x_positions(exp, ai);
    let mut ymax: f64 = 0.0;
    for (_, series) in &plan.panels {
        for s in series {
            for &c in &s.cells {
                if let Some(r) = data.get(&s.profile, c, metric) {
                    ymax = ymax.max(shown(r).0).max(r.ci_high);
                }
            }
        }
    }
    let ymax = y_top(exp, metric, ymax, 1.1);
    // lines closer than a line's width everywhere are drawn once, and the
    // legend says how far apart they are
    let groups = coincident(&plan, data, metric, SAME_AT_THIS_SCALE * ymax);
    let probability = is_probability(exp, metric);
    let mut subject = format!("{} by {}", metric_label(exp, metric), axis_words(exp, x));
    if let Some(v) = &plan.varies {
        subject = format!("{subject}, {v}");
    }
    if !plan.held.is_empty() {
        subject = format!("{subject} ({})", plan.held.join(", "));
    }
    let what = marks_note(exp, results, metric, false);
    let all: Vec<usize> = (0..exp.profiles.len()).collect();
    let fixed = inputs::chart_fixed(exp, &all, true);
    let body = frame(root, exp, &subject, &fixed, &what)?;
    let entries: Vec<LegendEntry> = match plan.panels.first() {
        Some((_, series)) => groups
            .iter()
            .enumerate()
            .map(|(k, g)| LegendEntry {
                lines: g
                    .iter()
                    .enumerate()
                    .map(|(k, &s)| {
                        let gap = largest_gap(&plan, data, metric, g[0], s);
                        if k == 0 {
                            series[s].label.clone()
                        } else if gap <= 1e-9 * ymax.max(1.0) {
                            format!("= {}", series[s].label)
                        } else {
                            format!(
                                "\u{2248} {} (at most {} apart)",
                                series[s].label,
                                gap_text(exp, metric, gap)
                            )
                        }
                    })
                    .collect(),
                colour: series[g[0]].colour,
                bar: false,
                marker: Some(Marker::nth(k)),
            })
            .collect(),
        None => Vec::new(),
    };
    let legend = (!entries.is_empty()).then(|| legend_box(root, &entries, LEGEND_TEXT_MAX));
    let n = plan.panels.len();
    let small = n > 1;
    let axes = PanelAxes {
        x: x_range.clone(),
        // a little room under zero, so a line of zeros shows above the axis
        y: -0.025 * ymax..ymax,
        x_room: if small { 36 } else { 50 },
        y_room: if small { 60 } else { 70 },
        margin: if small { 8 } else { 15 },
    };
    // what the single panel covers: its lines, points and whiskers
    let mut occupied = Vec::new();
    if let Some((_, series)) = plan.panels.first() {
        for g in &groups {
            let s = &series[g[0]];
            let mut line = Vec::new();
            for (i, &c) in s.cells.iter().enumerate() {
                if let Some(r) = data.get(&s.profile, c, metric) {
                    line.push((xs[i], shown(r).0));
                    occupied.extend([(xs[i], r.ci_low), (xs[i], r.ci_high)]);
                }
            }
            occupied.extend(along(&line));
        }
    }
    let placed = layout(&body, n, None, legend.as_ref(), &axes, &occupied)?;
    let widths = line_widths(groups.len());
    let values = &exp.axes[ai].values;
    let integers = xs.iter().all(|x| x.fract() == 0.0);
    let tick = |v: &f64| -> String {
        if numeric {
            if integers {
                if (v - v.round()).abs() < 1e-6 {
                    format!("{:.0}", v.round())
                } else {
                    String::new()
                }
            } else {
                format!("{v}")
            }
        } else {
            let i = v.round();
            if (v - i).abs() < 0.01 && i >= 0.0 {
                values.get(i as usize).map(value_words).unwrap_or_default()
            } else {
                String::new()
            }
        }
    };
    let ticks = if numeric {
        let span = x_range.end - x_range.start;
        if span <= 13.0 {
            span.ceil() as usize + 1
        } else {
            10
        }
    } else {
        values.len()
    };
    for ((title, series), area) in plan.panels.iter().zip(&placed.areas) {
        let mut chart = build(area, &axes, title)?;
        let desc_size = if small { 13 } else { 15 };
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        let x_desc = fitting(
            root,
            &[axis_title(exp, x), axis_words(exp, x), x.to_string()],
            desc_size,
            xr.end - xr.start,
        );
        let y_desc = fitting(
            root,
            &[axis_metric_title(exp, metric)],
            desc_size,
            yr.end - yr.start,
        );
        chart
            .configure_mesh()
            .x_labels(ticks)
            .x_label_formatter(&tick)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|v| y_tick(probability, *v))
            .label_style(("sans-serif", if small { 12 } else { 14 }))
            .axis_desc_style(("sans-serif", desc_size))
            .draw()?;
        for (k, (g, &width)) in groups.iter().zip(&widths).enumerate() {
            let s = &series[g[0]];
            let marker = Marker::nth(k);
            let colour = s.colour;
            let pts: Vec<(f64, &Row)> = s
                .cells
                .iter()
                .enumerate()
                .filter_map(|(i, &c)| data.get(&s.profile, c, metric).map(|r| (xs[i], r)))
                .collect();
            let line: Vec<(f64, f64)> = pts.iter().map(|(x, r)| (*x, shown(r).0)).collect();
            chart.draw_series(LineSeries::new(line.clone(), colour.stroke_width(width)))?;
            for &(x, r) in &pts {
                whisker(root, &chart, x, (r.ci_low, r.ci_high), colour)?;
            }
            let radius = (width as i32 + 2).max(5);
            for &(x, r) in &pts {
                let (v, exact) = shown(r);
                marker.draw(root, chart.backend_coord(&(x, v)), radius, colour, exact)?;
            }
        }
    }
    if let (Some(legend), Some(at)) = (&legend, placed.legend_at) {
        draw_legend_box(root, &entries, legend, at)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::chart_title;
    use crate::report::charts::testing::bundled;

    /// Rows for every cell and profile of `exp`, `value(profile, cell)` exact.
    fn rows(exp: &Experiment, metric: &str, value: impl Fn(usize, usize) -> f64) -> Results {
        let cells: usize = exp.axes.iter().map(|a| a.values.len()).product();
        let mut rows = Vec::new();
        for c in 0..cells {
            for (p, profile) in exp.profiles.iter().enumerate() {
                let v = value(p, c);
                rows.push(Row {
                    profile: profile.clone(),
                    cell_index: c,
                    cell: exp.cell_values(c),
                    metric: metric.into(),
                    value: v,
                    exact: Some(v),
                    ci_low: v,
                    ci_high: v,
                    trials: 1,
                    variants: String::new(),
                });
            }
        }
        Results {
            rows,
            no_exact: Vec::new(),
        }
    }

    #[test]
    fn lines_with_the_same_values_are_drawn_once_and_named_together() {
        let exp = bundled("bfg_boarding");
        // profiles 0 and 2 agree in every cell; 1 differs in one cell only
        let results = rows(&exp, "p_hulk", |p, c| {
            if p == 1 && c == 7 {
                0.5
            } else {
                c as f64 / 40.0
            }
        });
        let data = Lookup::new(&results);
        let plan = line_plan(&exp, 0, None, &[]);
        assert_eq!(
            coincident(&plan, &data, "p_hulk", 0.0),
            vec![vec![0, 2], vec![1]]
        );
        // a difference in one panel keeps the lines apart
        let results = rows(&exp, "p_hulk", |p, c| c as f64 + p as f64);
        let data = Lookup::new(&results);
        assert_eq!(
            coincident(&plan, &data, "p_hulk", 0.0),
            vec![vec![0], vec![1], vec![2]]
        );
        // lines a line's width apart are drawn once, with their gap said
        let results = rows(&exp, "p_hulk", |p, c| {
            c as f64 / 40.0 + if p == 1 { 0.0014 } else { 0.0 }
        });
        let data = Lookup::new(&results);
        assert_eq!(
            coincident(&plan, &data, "p_hulk", 0.0),
            vec![vec![0, 2], vec![1]]
        );
        assert_eq!(
            coincident(&plan, &data, "p_hulk", SAME_AT_THIS_SCALE),
            vec![vec![0, 1, 2]]
        );
        assert!((largest_gap(&plan, &data, "p_hulk", 0, 1) - 0.0014).abs() < 1e-12);
        assert_eq!(gap_text(&exp, "p_hulk", 0.0014), "0.1 percentage points");
        assert_eq!(gap_text(&exp, "p_hulk", 3e-9), "3.0e-7 percentage points");
    }

    #[test]
    fn titles_and_legends_name_sweep_axes_in_words() {
        let exp = bundled("bfg_boarding");
        let plan = line_plan(&exp, 0, None, &[]);
        assert_eq!(plan.panels[0].0, "remaining turrets of the boarded ship: 0");
        assert_eq!(
            plan.varies.as_deref(),
            Some("panels by remaining turrets of the boarded ship")
        );
        let title = chart_title(&exp, &exp.charts[0]);
        assert_eq!(
            title,
            "P(boarded ship a hulk) by boarding ship 1's damage left"
        );
        // one profile: a line per value of the other axis, named in words
        let mut one = bundled("bfg_boarding");
        one.profiles.truncate(1);
        let plan = line_plan(&one, 0, None, &[]);
        let labels: Vec<&str> = plan.panels[0].1.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels[0], "remaining turrets of the boarded ship: 0");
        assert_eq!(labels.len(), 4);
    }
}
