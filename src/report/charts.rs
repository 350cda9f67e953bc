//! Charts with plotters, each drawn once per backend: SVG and PNG.

use super::labels::{axis_metric_title, axis_title, is_probability, metric_label, value_text};
use crate::experiment::{ChartSpec, Experiment, Results, Row};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const SIZE: (u32, u32) = (960, 600);

/// Okabe-Ito colours: distinct for colour-blind readers and on white.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

/// Colour `i` of the palette.
pub(crate) fn colour(i: usize) -> RGBAColor {
    PALETTE[i % PALETTE.len()].to_rgba()
}

/// A chart on `f64` coordinates, as every krunch chart is.
pub(crate) type Chart2d<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Font size of legend entries.
const LEGEND_FONT: u32 = 14;

/// The series legend every krunch chart uses: boxed, in the corner (or
/// side) of the plot that covers fewest of the `occupied` points (data
/// coordinates: the points, lines and bars drawn), so it hides no data
/// where there is room for it anywhere. `labels` are the entries, for its size.
pub(crate) fn draw_legend<'a, DB>(
    chart: &mut Chart2d<'a, DB>,
    labels: &[String],
    occupied: &[(f64, f64)],
) -> Result<(), Box<dyn std::error::Error>>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
{
    let font = ("sans-serif", LEGEND_FONT).into_font();
    let mut text = MultiLineText::<_, &str>::new((0, 0), font.clone());
    for l in labels {
        text.push_line(l.as_str());
    }
    let (tw, th) = text.estimate_dimension().unwrap_or((
        labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as i32 * 8,
        labels.len() as i32 * 18,
    ));
    // plotters' legend: 30 px of sample, 10 px margins all round
    let (w, h) = (tw + 30 + 20, th + 20);
    let (aw, ah) = chart.plotting_area().dim_in_pixel();
    let (aw, ah) = (aw as i32, ah as i32);
    let base = chart.plotting_area().get_base_pixel();
    let pixels: Vec<(i32, i32)> = occupied
        .iter()
        .map(|p| {
            let (x, y) = chart.backend_coord(p);
            (x - base.0, y - base.1)
        })
        .collect();
    use SeriesLabelPosition as At;
    let candidates = [
        (At::UpperRight, aw - w - 5, 5),
        (At::UpperLeft, 5, 5),
        (At::LowerRight, aw - w - 5, ah - h - 5),
        (At::LowerLeft, 5, ah - h - 5),
        (At::MiddleRight, aw - w - 5, (ah - h) / 2),
        (At::MiddleLeft, 5, (ah - h) / 2),
        (At::UpperMiddle, (aw - w) / 2, 5),
        (At::LowerMiddle, (aw - w) / 2, ah - h - 5),
    ];
    let covered = |x: i32, y: i32| {
        pixels
            .iter()
            .filter(|(px, py)| (x - 6..=x + w + 6).contains(px) && (y - 6..=y + h + 6).contains(py))
            .count()
    };
    let (position, ..) = candidates
        .into_iter()
        .min_by_key(|&(_, x, y)| covered(x, y))
        .unwrap_or((At::UpperRight, 0, 0));
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", LEGEND_FONT))
        .draw()?;
    Ok(())
}

/// Line widths for `n` lines drawn in order: the first widest, so a line
/// drawn later over the same values leaves the earlier one's edges showing
/// (no line hides wholly under another).
fn line_widths(n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| 2 + ((n - 1 - i) as u32 * 5 / n.max(1) as u32).min(5))
        .collect()
}

/// A legend drawn in an area of its own (beside small multiples): a
/// coloured line and the label for each entry, from the top left.
fn draw_legend_in<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBAColor)],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (w, _) = area.dim_in_pixel();
    for (i, (label, colour)) in entries.iter().enumerate() {
        let y = 30 + i as i32 * 22;
        area.draw(&PathElement::new(
            vec![(15, y), (40, y)],
            colour.stroke_width(4),
        ))?;
        let lines = wrap(label, f64::from(w) - 60.0);
        for (j, line) in lines.iter().take(2).enumerate() {
            area.draw(&Text::new(
                line.clone(),
                (48, y - 7 + j as i32 * 15),
                ("sans-serif", LEGEND_FONT).into_font().color(&BLACK),
            ))?;
        }
    }
    Ok(())
}

/// Points along the polyline `pts` (data coordinates), close enough
/// together that a legend box cannot sit on the line between two of them.
pub(crate) fn along(pts: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = pts.to_vec();
    for pair in pts.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        for k in 1..40 {
            let t = f64::from(k) / 40.0;
            out.push((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t));
        }
    }
    out
}

/// Points filling the bar from `(x0, 0)` to `(x1, top)`.
pub(crate) fn inside_bar(x0: f64, x1: f64, top: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for i in 0..=4 {
        for j in 0..=20 {
            out.push((
                x0 + (x1 - x0) * f64::from(i) / 4.0,
                top * f64::from(j) / 20.0,
            ));
        }
    }
    out
}

/// Registers the embedded DejaVu Sans so text renders with no system fonts.
pub fn register_fonts() {
    // A second registration of the same font is harmless; an error only means
    // the bytes were not a font, which the embedded file always is.
    let _ =
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
}

struct Lookup<'a> {
    rows: HashMap<(&'a str, usize, &'a str), &'a Row>,
}

impl<'a> Lookup<'a> {
    fn new(results: &'a Results) -> Self {
        Lookup {
            rows: results
                .rows
                .iter()
                .map(|r| ((r.profile.as_str(), r.cell_index, r.metric.as_str()), r))
                .collect(),
        }
    }
    fn get(&self, profile: &str, cell: usize, metric: &str) -> Option<&'a Row> {
        self.rows.get(&(profile, cell, metric)).copied()
    }
}

fn fixed_note(exp: &Experiment, free: &[usize]) -> String {
    let fixed: Vec<String> = exp
        .axes
        .iter()
        .enumerate()
        .filter(|(i, _)| !free.contains(i))
        .map(|(_, a)| format!("{} {}", a.name, a.values[0]))
        .collect();
    if fixed.is_empty() {
        String::new()
    } else {
        format!(" ({})", fixed.join(", "))
    }
}

fn axis_index(exp: &Experiment, name: &str) -> usize {
    exp.axes.iter().position(|a| a.name == name).unwrap_or(0)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// A Monte Carlo interval, low and high end.
type Interval = (f64, f64);

/// The value a chart draws: the exact one where the model has it, else the
/// Monte Carlo estimate with its interval.
fn shown(r: &Row) -> (f64, Option<Interval>) {
    match r.exact {
        Some(e) => (e, None),
        None => (r.value, Some((r.ci_low, r.ci_high))),
    }
}

/// Tick text of the value axis: percentages for a probability.
pub(crate) fn y_tick(probability: bool, v: f64) -> String {
    if probability {
        let x = v * 100.0;
        if (x - x.round()).abs() < 1e-6 {
            format!("{x:.0}%")
        } else {
            format!("{x:.1}%")
        }
    } else {
        format!("{v:.2}")
    }
}

/// A caption font size at most `size` at which `text` fits the chart's
/// width (DejaVu Sans averages about 0.55 em a character).
pub(crate) fn caption_size(text: &str, size: u32) -> u32 {
    let fits = (SIZE.0 as f64 - 40.0) / (text.chars().count().max(1) as f64 * 0.55);
    (fits.floor() as u32).clamp(8, size)
}

/// `text` as a caption style that fits the chart's width.
pub(crate) fn caption_style(text: &str, size: u32) -> TextStyle<'static> {
    ("sans-serif", caption_size(text, size).max(11)).into()
}

/// Font size and line height of the labels under bars.
const CATEGORY_FONT: u32 = 13;

/// `label` broken into lines of at most `slot` pixels at the category
/// font (a word longer than that keeps a line of its own).
fn wrap(label: &str, slot: f64) -> Vec<String> {
    let per_line = ((slot / (CATEGORY_FONT as f64 * 0.58)).floor() as usize).max(4);
    let mut lines: Vec<String> = Vec::new();
    for word in label.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= per_line => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The labels under `n` bars or groups, wrapped to their slots, and the
/// room they need below the plot.
pub(crate) fn category_labels(labels: &[String]) -> (Vec<Vec<String>>, u32) {
    let slot = (SIZE.0 as f64 - 110.0) / labels.len().max(1) as f64;
    let wrapped: Vec<Vec<String>> = labels.iter().map(|l| wrap(l, slot * 0.95)).collect();
    let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).min(10) as u32;
    (wrapped, 30 + lines * (CATEGORY_FONT + 3))
}

/// Draws wrapped category labels under the plot, centred under the
/// middle of each unit slot (`i + 0.5`), at most ten lines each.
pub(crate) fn draw_category_labels<'a, DB>(
    root: &DrawingArea<DB, Shift>,
    chart: &ChartContext<
        'a,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    wrapped: &[Vec<String>],
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
{
    let style = TextStyle::from(("sans-serif", CATEGORY_FONT).into_font())
        .color(&BLACK)
        .pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
    for (i, lines) in wrapped.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
        for (k, line) in lines.iter().take(10).enumerate() {
            let y = y + 6 + k as i32 * (CATEGORY_FONT as i32 + 3);
            root.draw(&Text::new(line.clone(), (x, y), style.clone()))?;
        }
    }
    Ok(())
}

/// The top of the value axis: a little above the highest point drawn,
/// never past 100% for a probability.
fn y_top(exp: &Experiment, metric: &str, highest: f64, room: f64) -> f64 {
    if highest <= 0.0 {
        return 1.0;
    }
    let top = highest * room;
    if is_probability(exp, metric) && highest <= 1.0 {
        top.min(1.0)
    } else {
        top
    }
}

fn draw_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    data: &Lookup,
    metric: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let cells: Vec<usize> = (0..exp.models.len().min(12)).collect();
    let np = exp.profiles.len();
    let mut ymax: f64 = 0.0;
    for &c in &cells {
        for p in &exp.profiles {
            if let Some(r) = data.get(p, c, metric) {
                let (v, ci) = shown(r);
                ymax = ymax.max(v).max(ci.map_or(v, |c| c.1));
            }
        }
    }
    let ymax = y_top(exp, metric, ymax, 1.3);
    let groups = cells.len();
    let probability = is_probability(exp, metric);
    let labels: Vec<String> = cells
        .iter()
        .map(|&c| {
            exp.cell_values(c)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let (wrapped, label_room) = category_labels(&labels);
    let caption = format!("{} — {}", exp.title, metric_label(exp, metric));
    let style = caption_style(&caption, 24);
    let mut chart = ChartBuilder::on(root)
        .caption(caption, style)
        .margin(15)
        .x_label_area_size(label_room)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..groups as f64, 0f64..ymax)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(groups * 2 + 1)
        .x_label_formatter(&|_| String::new())
        .x_desc(match exp.axes.as_slice() {
            [] => "profile".to_string(),
            [only] => axis_title(exp, &only.name),
            axes => axes
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
        .y_desc(axis_metric_title(exp, metric))
        .y_label_formatter(&|v| y_tick(probability, *v))
        .label_style(("sans-serif", 14))
        .draw()?;
    draw_category_labels(root, &chart, &wrapped)?;
    let width = 0.8 / np as f64;
    let mut occupied = Vec::new();
    for (pi, p) in exp.profiles.iter().enumerate() {
        let color = colour(pi);
        let bars: Vec<(f64, f64, Option<Interval>)> = cells
            .iter()
            .enumerate()
            .filter_map(|(g, &c)| {
                data.get(p, c, metric).map(|r| {
                    let (v, ci) = shown(r);
                    (g as f64 + 0.1 + pi as f64 * width, v, ci)
                })
            })
            .collect();
        chart
            .draw_series(bars.iter().map(|&(x, v, _)| {
                Rectangle::new([(x, 0.0), (x + width * 0.9, v)], color.filled())
            }))?
            .label(p.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        chart.draw_series(bars.iter().filter_map(|&(x, _, ci)| {
            let mid = x + width * 0.45;
            ci.map(|(lo, hi)| PathElement::new(vec![(mid, lo), (mid, hi)], BLACK.stroke_width(2)))
        }))?;
        for &(x, v, ci) in &bars {
            occupied.extend(inside_bar(x, x + width * 0.9, ci.map_or(v, |c| c.1.max(v))));
        }
    }
    draw_legend(&mut chart, &exp.profiles, &occupied)?;
    Ok(())
}

/// The cell index of one value index per axis.
fn cell_of(exp: &Experiment, index: &[usize]) -> usize {
    index
        .iter()
        .zip(&exp.axes)
        .fold(0, |acc, (i, a)| acc * a.values.len() + i)
}

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
    /// `target_armour 0, toughness 3`: axes held at one value.
    held: Vec<String>,
    /// What the panels or `by` lines vary, for the caption.
    varies: Option<String>,
}

/// Most panels a line chart shows (the rest are named as left out).
const MAX_PANELS: usize = 9;

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
            held.push(format!("{} {}", axis.name, axis.values[v]));
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
                        format!("{} {}", exp.axes[b].name, exp.axes[b].values[*v])
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
            (Some(p), Some(v)) => format!("{} {}", exp.axes[p].name, exp.axes[p].values[*v]),
            _ => String::new(),
        };
        panels.push((title, series));
    }
    let varies = match (by, panel_axis) {
        (Some(b), _) => Some(format!("a line per {}", exp.axes[b].name)),
        (None, Some(p)) => {
            let n = exp.axes[p].values.len();
            Some(if n > MAX_PANELS {
                format!(
                    "a panel per {} (the first {MAX_PANELS} of {n}: use `at` for the rest)",
                    exp.axes[p].name
                )
            } else {
                format!("a panel per {}", exp.axes[p].name)
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

/// Where each value of axis `ai` sits along the x axis: at the value
/// itself when every value is a number (3, 6, 7, 9 spaced as numbers),
/// else at its position; and the range to draw.
fn x_positions(exp: &Experiment, ai: usize) -> (Vec<f64>, std::ops::Range<f64>, bool) {
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

fn draw_line<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
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
    let values = &exp.axes[ai].values;
    let mut ymax: f64 = 0.0;
    for (_, series) in &plan.panels {
        for s in series {
            for &c in &s.cells {
                if let Some(r) = data.get(&s.profile, c, metric) {
                    let (v, ci) = shown(r);
                    ymax = ymax.max(v).max(ci.map_or(v, |c| c.1));
                }
            }
        }
    }
    let ymax = y_top(exp, metric, ymax, 1.1);
    let probability = is_probability(exp, metric);
    let mut caption = format!("{} — {} by {x}", exp.title, metric_label(exp, metric));
    if let Some(v) = &plan.varies {
        caption = format!("{caption}, {v}");
    }
    if !plan.held.is_empty() {
        caption = format!("{caption} ({})", plan.held.join(", "));
    }
    let style = caption_style(&caption, 22);
    // room for the footer below; the caption above
    let (body, _) = root.split_vertically(SIZE.1 - 18);
    let body = body.titled(&caption, style)?;
    let n = plan.panels.len();
    let cols = (n as f64).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    let small = n > 1;
    // small multiples: the legend gets a place of its own (an empty grid
    // cell, else a strip on the right), so it covers no panel's data
    let (grid, strip) = if small && rows * cols == n {
        let (g, s) = body.split_horizontally(SIZE.0 - 230);
        (g, Some(s))
    } else {
        (body.clone(), None)
    };
    let areas = grid.split_evenly((rows, cols));
    let legend_area = strip.or_else(|| small.then(|| areas[n].clone()));
    if let (Some(area), Some((_, series))) = (&legend_area, plan.panels.first()) {
        let entries: Vec<(String, RGBAColor)> =
            series.iter().map(|s| (s.label.clone(), s.colour)).collect();
        draw_legend_in(area, &entries)?;
    }
    let widths = line_widths(plan.panels.first().map_or(0, |p| p.1.len()));
    for (k, ((title, series), area)) in plan.panels.iter().zip(&areas).enumerate() {
        let mut builder = ChartBuilder::on(area);
        builder
            .margin(if small { 8 } else { 15 })
            .x_label_area_size(if small { 36 } else { 50 })
            .y_label_area_size(if small { 60 } else { 70 });
        if !title.is_empty() {
            builder.caption(title, ("sans-serif", 15));
        }
        let mut chart = builder.build_cartesian_2d(x_range.clone(), 0f64..ymax)?;
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
        chart
            .configure_mesh()
            .x_labels(ticks)
            .x_label_formatter(&|v| {
                if numeric {
                    if xs.iter().all(|x| x.fract() == 0.0) {
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
                        values
                            .get(i as usize)
                            .map(|x| x.to_string())
                            .unwrap_or_default()
                    } else {
                        String::new()
                    }
                }
            })
            .x_desc(axis_title(exp, x))
            .y_desc(axis_metric_title(exp, metric))
            .y_label_formatter(&|v| y_tick(probability, *v))
            .label_style(("sans-serif", if small { 12 } else { 14 }))
            .axis_desc_style(("sans-serif", if small { 13 } else { 15 }))
            .draw()?;
        let mut occupied = Vec::new();
        for (s, &width) in series.iter().zip(&widths) {
            let color = s.colour;
            let pts: Vec<(f64, &Row)> = s
                .cells
                .iter()
                .enumerate()
                .filter_map(|(i, &c)| data.get(&s.profile, c, metric).map(|r| (xs[i], r)))
                .collect();
            let line: Vec<(f64, f64)> = pts.iter().map(|(x, r)| (*x, shown(r).0)).collect();
            occupied.extend(along(&line));
            let drawn =
                chart.draw_series(LineSeries::new(line.clone(), color.stroke_width(width)))?;
            if k == 0 && !small {
                drawn.label(s.label.as_str()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3))
                });
            }
            chart.draw_series(
                line.iter()
                    .map(|&(x, v)| Circle::new((x, v), width + 1, color.filled())),
            )?;
            chart.draw_series(pts.iter().filter_map(|(x, r)| {
                shown(r).1.map(|(lo, hi)| {
                    PathElement::new(vec![(*x, lo), (*x, hi)], color.stroke_width(1))
                })
            }))?;
            for (x, r) in &pts {
                if let Some((lo, hi)) = shown(r).1 {
                    occupied.extend([(*x, lo), (*x, hi)]);
                }
            }
        }
        if k == 0 && !small {
            let labels: Vec<String> = series.iter().map(|s| s.label.clone()).collect();
            draw_legend(&mut chart, &labels, &occupied)?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    data: &Lookup,
    metric: &str,
    x: &str,
    y: &str,
    profile: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (xi, yi) = (axis_index(exp, x), axis_index(exp, y));
    let strides: Vec<usize> = (0..exp.axes.len())
        .map(|i| exp.axes[i + 1..].iter().map(|a| a.values.len()).product())
        .collect();
    let (nx, ny) = (exp.axes[xi].values.len(), exp.axes[yi].values.len());
    let mut cells = Vec::new();
    let mut vmax: f64 = 0.0;
    for i in 0..nx {
        for j in 0..ny {
            let c = i * strides[xi] + j * strides[yi];
            if let Some(r) = data.get(profile, c, metric) {
                let v = shown(r).0;
                vmax = vmax.max(v);
                cells.push((i, j, v));
            }
        }
    }
    let vmax = if vmax <= 0.0 { 1.0 } else { vmax };
    let (xs, ys) = (&exp.axes[xi].values, &exp.axes[yi].values);
    // room for the longest value name beside the y axis (14 px type)
    let longest = ys.iter().map(|v| v.to_string().chars().count()).max();
    let y_room = (longest.unwrap_or(0) as u32 * 9 + 40).clamp(70, 260);
    let caption = format!(
        "{} — {profile}: {} by {x} and {y}{}",
        exp.title,
        metric_label(exp, metric),
        fixed_note(exp, &[xi, yi])
    );
    let style = caption_style(&caption, 22);
    let (body, _) = root.split_vertically(SIZE.1 - 18);
    let body = body.titled(&caption, style)?;
    let (plot, scale) = body.split_horizontally(SIZE.0 - 120);
    let mut chart = ChartBuilder::on(&plot)
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(y_room)
        .build_cartesian_2d(0f64..nx as f64, 0f64..ny as f64)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(nx * 2 + 1)
        .y_labels(ny * 2 + 1)
        .x_label_formatter(&|v| label_at(*v, xs))
        .y_label_formatter(&|v| label_at(*v, ys))
        .x_desc(axis_title(exp, x))
        .y_desc(axis_title(exp, y))
        .label_style(("sans-serif", 14))
        .draw()?;
    chart.draw_series(cells.iter().map(|&(i, j, v)| {
        Rectangle::new(
            [(i as f64, j as f64), (i as f64 + 1.0, j as f64 + 1.0)],
            heat(v / vmax).filled(),
        )
    }))?;
    // value names sized to their cells, light on the darkest colours
    let cell_px = chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0;
    let font = (f64::from(cell_px) / 6.0).clamp(9.0, 14.0);
    let centre = plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Center,
    );
    chart.draw_series(cells.iter().map(|&(i, j, v)| {
        let ink: &'static RGBColor = if v / vmax > 0.6 { &WHITE } else { &BLACK };
        Text::new(
            value_text(exp, metric, v),
            (i as f64 + 0.5, j as f64 + 0.5),
            TextStyle::from(("sans-serif", font).into_font())
                .color(ink)
                .pos(centre),
        )
    }))?;
    draw_colour_scale(&scale, exp, metric, vmax)
}

/// The heatmap's colour at `t` of the top value (0 to 1): pale to deep blue.
fn heat(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(mix(247.0, 8.0), mix(251.0, 69.0), mix(255.0, 148.0))
}

/// The heatmap's key: a bar of its colours from 0 to `vmax`, ticked in the
/// metric's own terms (percentages for a probability).
fn draw_colour_scale<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    metric: &str,
    vmax: f64,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let mut key = ChartBuilder::on(area)
        .margin_top(15)
        .margin_bottom(65)
        .margin_right(10)
        .y_label_area_size(62)
        .build_cartesian_2d(0f64..1.0, 0f64..vmax)?;
    let probability = is_probability(exp, metric);
    key.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(6)
        .y_label_formatter(&|v| y_tick(probability, *v))
        .label_style(("sans-serif", 12))
        .draw()?;
    let steps = 100;
    key.draw_series((0..steps).map(|k| {
        let (a, b) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
        Rectangle::new(
            [(0.0, a * vmax), (1.0, b * vmax)],
            heat((a + b) / 2.0).filled(),
        )
    }))?;
    key.draw_series(std::iter::once(Rectangle::new(
        [(0.0, 0.0), (1.0, vmax)],
        BLACK.stroke_width(1),
    )))?;
    Ok(())
}

fn label_at(v: f64, values: &[crate::systems::ParamValue]) -> String {
    let i = (v - 0.5).round();
    if (v - 0.5 - i).abs() < 0.01 && i >= 0.0 {
        values
            .get(i as usize)
            .map(|x| x.to_string())
            .unwrap_or_default()
    } else {
        String::new()
    }
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

fn render<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    exp: &Experiment,
    data: &Lookup,
    chart: &ChartSpec,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    match chart {
        ChartSpec::Bar { metric } => draw_bar(&root, exp, data, metric),
        ChartSpec::Line { metric, x, by, at } => {
            draw_line(&root, exp, data, metric, x, by.as_deref(), at)
        }
        ChartSpec::Heatmap {
            metric,
            x,
            y,
            profile,
        } => draw_heatmap(&root, exp, data, metric, x, y, profile),
    }?;
    let what = format!(
        "exact values where known, else Monte Carlo with {:.0}% interval",
        exp.confidence * 100.0
    );
    draw_footer(&root, exp, &what)?;
    root.present()?;
    Ok(())
}

/// Provenance on the picture itself, so a chart pasted elsewhere still says
/// what produced it: `what` it shows, then krunch's version, trials, seed,
/// variants and the spec's hash, along the bottom edge.
pub(crate) fn draw_footer<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    what: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let prov = super::Provenance::of(exp);
    let footer = format!(
        "{what} · krunch {} · {} trials · seed {} · {} · spec sha256 {}",
        prov.version,
        exp.trials,
        prov.seed,
        if prov.variants.is_empty() {
            "no variants".into()
        } else {
            prov.variants
        },
        &prov.spec_hash[..12]
    );
    root.draw_text(
        &footer,
        &("sans-serif", caption_size(&footer, 11).max(8))
            .into_font()
            .color(&RGBColor(90, 90, 90)),
        (8, SIZE.1 as i32 - 14),
    )?;
    Ok(())
}

/// A chart written: its file stem and what it shows, in words.
pub struct Drawn {
    /// File stem (without extension), ids only.
    pub file: String,
    /// What it shows (`P(out of action) by range`).
    pub title: String,
    /// The SVG text (for `report.html`, which carries it inline).
    pub svg: String,
}

/// The chart's subject in words, for links to it.
fn chart_title(exp: &Experiment, chart: &ChartSpec) -> String {
    match chart {
        ChartSpec::Bar { metric } => metric_label(exp, metric),
        ChartSpec::Line { metric, x, by, at } => {
            let mut title = format!("{} by {x}", metric_label(exp, metric));
            if let Some(b) = by {
                title = format!("{title}, a line per {b}");
            }
            for (a, v) in at {
                title = format!("{title}, {} {}", exp.axes[*a].name, exp.axes[*a].values[*v]);
            }
            title
        }
        ChartSpec::Heatmap {
            metric,
            x,
            y,
            profile,
        } => format!("{profile}: {} by {x} and {y}", metric_label(exp, metric)),
    }
}

/// Draws every chart of the spec into `dir` as SVG and PNG; returns what
/// was written.
pub fn write_charts(dir: &Path, exp: &Experiment, results: &Results) -> anyhow::Result<Vec<Drawn>> {
    let data = Lookup::new(results);
    let mut names = Vec::new();
    for chart in &exp.charts {
        let name = chart_name(exp, chart);
        let svg_path: PathBuf = dir.join(format!("{name}.svg"));
        let mut svg = String::new();
        render(
            SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
            exp,
            &data,
            chart,
        )
        .map_err(|e| anyhow::anyhow!("drawing {name}.svg: {e}"))?;
        super::write_atomic(&svg_path, svg.as_bytes())?;
        let png_path = dir.join(format!("{name}.png"));
        super::write_via(&png_path, |tmp| {
            render(
                BitMapBackend::new(tmp, SIZE).into_drawing_area(),
                exp,
                &data,
                chart,
            )
            .map_err(|e| anyhow::anyhow!("drawing {name}.png: {e}"))
        })?;
        names.push(Drawn {
            title: chart_title(exp, chart),
            file: name,
            svg,
        });
    }
    Ok(names)
}
