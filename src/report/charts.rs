//! Charts with plotters, each drawn once per backend: SVG and PNG.
//!
//! Every chart reads without the spec open: its title says what the spec is
//! and what the chart shows in words (sweep axes by what they mean, not their
//! ids), the exact value is drawn where there is one with the Monte Carlo
//! interval as its check, legends sit where they cover no data (or beside
//! the plot), lines with the same values are drawn once and named together,
//! and nothing is left out silently: what does not fit is named on the chart.

use super::labels::{
    axis_metric_title, axis_title, axis_value_words, axis_words, is_probability, metric_label,
    value_text, value_words,
};
use crate::experiment::{ChartSpec, Experiment, Results, Row, at_least};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

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

/// The series legend of compare's and prob's charts: plotters' own, boxed,
/// in the corner (or side) of the plot that covers fewest of the `occupied`
/// points (data coordinates: the points, lines and bars drawn). `labels`
/// are the entries, for its size.
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

/// One entry of a krunch legend: a swatch (a line, or a box for bars) in
/// `colour` and one or more lines of text (the first names the series; the
/// others, `= ...`, the series drawn under it with the same values).
#[derive(Clone)]
struct LegendEntry {
    lines: Vec<String>,
    colour: RGBAColor,
    bar: bool,
    /// The point shape of a line's series (none for bars).
    marker: Option<Marker>,
}

/// The shape of a line chart's points: each series its own, so lines
/// that run close together (or a reader who cannot tell the colours
/// apart) can still be told apart, on the chart and in its legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Hexagon,
}

impl Marker {
    const ALL: [Marker; 6] = [
        Marker::Circle,
        Marker::Square,
        Marker::TriangleUp,
        Marker::Diamond,
        Marker::TriangleDown,
        Marker::Hexagon,
    ];

    /// The marker of series `i`.
    fn nth(i: usize) -> Marker {
        Self::ALL[i % Self::ALL.len()]
    }

    /// The outline of this shape around (0, 0) with radius `r` (pixels);
    /// empty for the circle, which plotters draws itself.
    fn outline(self, r: i32) -> Vec<(i32, i32)> {
        let polygon = |corners: usize, turn: f64, scale: f64| -> Vec<(i32, i32)> {
            (0..corners)
                .map(|k| {
                    let a = turn + std::f64::consts::TAU * k as f64 / corners as f64;
                    let d = f64::from(r) * scale;
                    ((d * a.cos()).round() as i32, (d * a.sin()).round() as i32)
                })
                .collect()
        };
        use std::f64::consts::FRAC_PI_2;
        match self {
            Marker::Circle => Vec::new(),
            Marker::Square => {
                let h = (f64::from(r) * 0.9).round() as i32;
                vec![(-h, -h), (h, -h), (h, h), (-h, h)]
            }
            Marker::TriangleUp => polygon(3, -FRAC_PI_2, 1.3),
            Marker::Diamond => polygon(4, -FRAC_PI_2, 1.25),
            Marker::TriangleDown => polygon(3, FRAC_PI_2, 1.3),
            Marker::Hexagon => polygon(6, 0.0, 1.1),
        }
    }

    /// Draws this marker centred at `at` (pixels of `canvas`): filled in
    /// `colour` for an exact value, else hollow (white inside, outlined).
    fn draw<DB: DrawingBackend>(
        self,
        canvas: &DrawingArea<DB, Shift>,
        at: (i32, i32),
        r: i32,
        colour: RGBAColor,
        filled: bool,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let (x, y) = at;
        if self == Marker::Circle {
            if filled {
                canvas.draw(&Circle::new(at, r, colour.filled()))?;
            } else {
                canvas.draw(&Circle::new(at, r, WHITE.filled()))?;
                canvas.draw(&Circle::new(at, r, colour.stroke_width(2)))?;
            }
            return Ok(());
        }
        let pts: Vec<(i32, i32)> = self
            .outline(r)
            .into_iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .collect();
        if filled {
            canvas.draw(&Polygon::new(pts, colour.filled()))?;
        } else {
            canvas.draw(&Polygon::new(pts.clone(), WHITE.filled()))?;
            let mut ring = pts;
            ring.push(ring[0]);
            canvas.draw(&PathElement::new(ring, colour.stroke_width(2)))?;
        }
        Ok(())
    }
}

/// Height of one legend line, in pixels.
const LEGEND_LINE: i32 = 18;
/// Widest a legend's text may be before it wraps, in pixels.
const LEGEND_TEXT_MAX: i32 = 300;

fn legend_style() -> TextStyle<'static> {
    TextStyle::from(("sans-serif", LEGEND_FONT).into_font()).color(&BLACK)
}

/// The pixel width of `text` in `style` on `area` (an estimate from the
/// character count where the font cannot say).
fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> i32 {
    area.estimate_text_size(text, style)
        .map(|(w, _)| w as i32)
        .unwrap_or_else(|_| (text.chars().count() as f64 * style.font.get_size() * 0.6) as i32)
}

/// `text` broken at spaces into lines at most `max` pixels wide.
fn wrap_pixels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max: i32,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if text_width(area, &format!("{line} {word}"), style) <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// The legend's lines, wrapped, and its box size in pixels.
struct LegendBox {
    lines: Vec<Vec<String>>,
    size: (i32, i32),
}

fn legend_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    max_text: i32,
) -> LegendBox {
    let style = legend_style();
    let lines: Vec<Vec<String>> = entries
        .iter()
        .map(|e| {
            e.lines
                .iter()
                .flat_map(|l| wrap_pixels(area, l, &style, max_text))
                .collect()
        })
        .collect();
    let widest = lines
        .iter()
        .flatten()
        .map(|l| text_width(area, l, &style))
        .max()
        .unwrap_or(0);
    let count: usize = lines.iter().map(Vec::len).sum();
    LegendBox {
        size: (widest + 38 + 10, count as i32 * LEGEND_LINE + 12),
        lines,
    }
}

/// Draws the legend box with its top-left corner at `at` (pixels of the
/// whole picture) on `canvas`, the whole picture's area.
fn draw_legend_box<DB: DrawingBackend>(
    canvas: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    legend: &LegendBox,
    at: (i32, i32),
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (x, y) = at;
    let (w, h) = legend.size;
    canvas.draw(&Rectangle::new(
        [(x, y), (x + w, y + h)],
        WHITE.mix(0.9).filled(),
    ))?;
    canvas.draw(&Rectangle::new(
        [(x, y), (x + w, y + h)],
        BLACK.stroke_width(1),
    ))?;
    let style = legend_style();
    let mut ty = y + 6;
    for (entry, lines) in entries.iter().zip(&legend.lines) {
        let mid = ty + LEGEND_LINE / 2;
        if entry.bar {
            canvas.draw(&Rectangle::new(
                [(x + 12, mid - 6), (x + 24, mid + 6)],
                entry.colour.filled(),
            ))?;
        } else {
            canvas.draw(&PathElement::new(
                vec![(x + 8, mid), (x + 30, mid)],
                entry.colour.stroke_width(4),
            ))?;
            if let Some(marker) = entry.marker {
                marker.draw(canvas, (x + 19, mid), 5, entry.colour, true)?;
            }
        }
        for line in lines {
            canvas.draw(&Text::new(line.clone(), (x + 38, ty + 2), style.clone()))?;
            ty += LEGEND_LINE;
        }
    }
    Ok(())
}

/// A spot inside `chart`'s plot where a legend of `size` covers none of
/// the `occupied` points (data coordinates): its top-left corner in
/// pixels, trying the corners first, then the middles of the sides.
fn clear_spot<DB: DrawingBackend>(
    chart: &Chart2d<'_, DB>,
    size: (i32, i32),
    occupied: &[(f64, f64)],
) -> Option<(i32, i32)> {
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let pixels: Vec<(i32, i32)> = occupied.iter().map(|p| chart.backend_coord(p)).collect();
    let (w, h) = size;
    let (left, right) = (xr.start + 6, xr.end - w - 6);
    let (top, bottom) = (yr.start + 6, yr.end - h - 6);
    if right < left || bottom < top {
        return None;
    }
    let candidates = [
        (right, top),
        (left, top),
        (right, bottom),
        (left, bottom),
        (right, (top + bottom) / 2),
        (left, (top + bottom) / 2),
        ((left + right) / 2, top),
        ((left + right) / 2, bottom),
    ];
    candidates.into_iter().find(|&(x, y)| {
        !pixels
            .iter()
            .any(|&(px, py)| px >= x - 8 && px <= x + w + 8 && py >= y - 8 && py <= y + h + 8)
    })
}

/// Line widths for `n` lines drawn in order: the first widest, so a line
/// drawn later over the same values leaves the earlier one's edges showing
/// (no line hides wholly under another).
fn line_widths(n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| 2 + ((n - 1 - i) as u32 * 5 / n.max(1) as u32).min(5))
        .collect()
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

/// The axes other than `free`, each at its first value, in words:
/// ` (the target's Toughness: 3)`, or nothing.
fn fixed_note(exp: &Experiment, free: &[usize]) -> String {
    let fixed: Vec<String> = exp
        .axes
        .iter()
        .enumerate()
        .filter(|(i, _)| !free.contains(i))
        .map(|(_, a)| axis_value_words(exp, &a.name, &a.values[0]))
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

/// The value a chart draws: the exact one where the model has it, else the
/// Monte Carlo estimate; and whether it is exact.
fn shown(r: &Row) -> (f64, bool) {
    match r.exact {
        Some(e) => (e, true),
        None => (r.value, false),
    }
}

/// A value as a chart's label writes it: a Monte Carlo estimate marked `≈`.
fn shown_text(exp: &Experiment, metric: &str, r: &Row) -> String {
    let (v, exact) = shown(r);
    let text = value_text(exp, metric, v);
    if exact { text } else { format!("≈{text}") }
}

/// Tick text of the value axis: percentages for a probability (none past
/// 100%, where a little room is left above the top values).
pub(crate) fn y_tick(probability: bool, v: f64) -> String {
    // below zero is only the room that lifts a zero line off the axis
    if v < -1e-12 {
        return String::new();
    }
    // a zero that float arithmetic left a hair below 0 reads 0, not -0
    let v = if v < 0.0 { 0.0 } else { v };
    if probability {
        let x = v * 100.0;
        if x > 100.0 + 1e-6 {
            String::new()
        } else if (x - x.round()).abs() < 1e-6 {
            format!("{x:.0}%")
        } else {
            format!("{x:.1}%")
        }
    } else {
        format!("{v:.2}")
    }
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

/// Estimated pixel width of `text` at the category font.
fn category_width(text: &str) -> f64 {
    text.chars().count() as f64 * CATEGORY_FONT as f64 * 0.58
}

/// Whether labels broken into `wrapped` lines still overrun slots `slot`
/// pixels wide (a word wider than its slot): they are then written
/// upright, one line each, reading down.
fn labels_upright(wrapped: &[Vec<String>], slot: f64) -> bool {
    wrapped
        .iter()
        .flatten()
        .any(|l| category_width(l) > slot * 0.98)
}

/// The labels under `n` bars or groups of a plot `width` pixels wide,
/// wrapped to their slots, and the room they need below the plot.
fn category_labels_in(labels: &[String], width: f64) -> (Vec<Vec<String>>, u32) {
    let slot = width / labels.len().max(1) as f64;
    let wrapped: Vec<Vec<String>> = labels.iter().map(|l| wrap(l, slot * 0.95)).collect();
    if labels_upright(&wrapped, slot) {
        let longest = labels.iter().map(|l| category_width(l)).fold(0.0, f64::max);
        return (wrapped, 40 + longest.min(170.0) as u32);
    }
    let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).min(10) as u32;
    (wrapped, 30 + lines * (CATEGORY_FONT + 3))
}

/// Draws wrapped category labels under the plot, centred under the
/// middle of each unit slot (`i + 0.5`), at most ten lines each; upright
/// and whole where a word would overrun its slot.
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
    let (x0, _) = chart.backend_coord(&(0.0, 0.0));
    let (x1, _) = chart.backend_coord(&(1.0, 0.0));
    if labels_upright(wrapped, f64::from(x1 - x0)) {
        let style = TextStyle::from(("sans-serif", CATEGORY_FONT).into_font())
            .color(&BLACK)
            .transform(FontTransform::Rotate90)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, lines) in wrapped.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
            let mut text = lines.join(" ");
            while category_width(&text) > 170.0 && text.chars().count() > 2 {
                text.pop();
            }
            root.draw(&Text::new(text, (x, y + 8), style.clone()))?;
        }
        return Ok(());
    }
    let style = TextStyle::from(("sans-serif", CATEGORY_FONT).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, lines) in wrapped.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
        for (k, line) in lines.iter().take(10).enumerate() {
            let y = y + 9 + k as i32 * (CATEGORY_FONT as i32 + 3);
            root.draw(&Text::new(line.clone(), (x, y), style.clone()))?;
        }
    }
    Ok(())
}

/// The top of the value axis: a little above the highest point drawn; for
/// a probability no higher than 100%, or a few points over it when values
/// reach the top, so nothing sits on the frame.
fn y_top(exp: &Experiment, metric: &str, highest: f64, room: f64) -> f64 {
    if highest <= 0.0 {
        return 1.0;
    }
    let top = highest * room;
    if is_probability(exp, metric) && highest <= 1.0 {
        top.min(1.0).max(highest * 1.07)
    } else {
        top
    }
}

/// Height of the footer band: two lines of provenance.
pub(crate) const FOOTER: u32 = 34;

/// Draws the chart's title (the spec's title and the chart's `subject`, on
/// one line when they fit at a readable size, else on two), under it the
/// `fixed` conditions in grey (on up to two lines; what does not fit is
/// cut with an ellipsis), and its footer (`what` the marks mean, then the
/// provenance); returns the area between.
fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    subject: &str,
    fixed: &str,
    what: &str,
) -> Result<DrawingArea<DB, Shift>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (w, _) = root.dim_in_pixel();
    let room = w as i32 - 30;
    let size_for = |text: &str, most: u32| -> u32 {
        let mut size = most;
        while size > 11 {
            let style = TextStyle::from(("sans-serif", size).into_font());
            if text_width(root, text, &style) <= room {
                break;
            }
            size -= 1;
        }
        size
    };
    let centre = Pos::new(HPos::Center, VPos::Top);
    let one = format!("{} — {subject}", exp.title);
    let mut y = 8;
    let mut put = |text: &str, size: u32, colour: RGBColor| -> DrawResult {
        let style = TextStyle::from(("sans-serif", size).into_font())
            .color(&colour)
            .pos(centre);
        root.draw(&Text::new(text.to_string(), (w as i32 / 2, y), style))?;
        y += (size as f64 * 1.35) as i32;
        Ok(())
    };
    if size_for(&one, 20) >= 18 {
        put(&one, size_for(&one, 20), BLACK)?;
    } else {
        put(&exp.title, size_for(&exp.title, 19), BLACK)?;
        put(subject, size_for(subject, 16), BLACK)?;
    }
    if !fixed.is_empty() {
        let size = 13;
        let style = TextStyle::from(("sans-serif", size).into_font());
        for line in subtitle_lines(fixed, 2, |t| text_width(root, t, &style) <= room) {
            put(&line, size, RGBColor(70, 70, 70))?;
        }
    }
    draw_footer(root, exp, what)?;
    let top = y as u32 + 4;
    Ok(root.margin(top, FOOTER, 0, 0))
}

/// `text` on at most `most` lines that each `fit`, broken after a `;` or
/// a ` · `; what is left over is cut, ending in `…`.
fn subtitle_lines(text: &str, most: usize, fit: impl Fn(&str) -> bool) -> Vec<String> {
    // pieces that keep their separator, so joining them gives `text` back
    let mut pieces: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find([';', '·']) {
        let end = i + rest[i..].chars().next().map_or(1, char::len_utf8);
        pieces.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    pieces.push(rest.to_string());
    let mut lines: Vec<String> = vec![String::new()];
    for piece in pieces {
        let last = lines.last_mut().expect("one line at least");
        let joined = format!("{last}{piece}");
        if last.is_empty() || fit(joined.trim()) {
            *last = joined;
        } else {
            lines.push(piece.trim_start().to_string());
        }
    }
    let mut lines: Vec<String> = lines.into_iter().map(|l| l.trim().to_string()).collect();
    let cut = lines.len() > most || lines.iter().any(|l| !fit(l));
    lines.truncate(most);
    if cut && let Some(last) = lines.last_mut() {
        let mut chars: Vec<char> = last.chars().collect();
        loop {
            let shown: String = chars
                .iter()
                .collect::<String>()
                .trim_end_matches([';', ',', ' ', '·'])
                .to_string();
            let candidate = format!("{shown} …");
            if fit(&candidate) || chars.is_empty() {
                *last = candidate;
                break;
            }
            chars.pop();
        }
    }
    lines
}

/// Provenance on the picture itself, so a chart pasted elsewhere still says
/// what produced it: `what` it shows on one line, then krunch's version,
/// trials, seed, variants and the spec's hash on the next, along the
/// bottom edge.
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
        "krunch {} · {} trials · seed {} · {} · spec sha256 {}",
        prov.version,
        exp.trials,
        prov.seed,
        if prov.variants.is_empty() {
            "no rule variants apply".into()
        } else {
            prov.variants.replace(';', ", ")
        },
        &prov.spec_hash[..12]
    );
    let (w, h) = root.dim_in_pixel();
    let grey = RGBColor(80, 80, 80);
    for (k, line) in [what, footer.as_str()].iter().enumerate() {
        let mut size: u32 = 12;
        while size > 8
            && text_width(
                root,
                line,
                &TextStyle::from(("sans-serif", size).into_font()),
            ) > w as i32 - 16
        {
            size -= 1;
        }
        root.draw_text(
            line,
            &("sans-serif", size).into_font().color(&grey),
            (8, h as i32 - 31 + k as i32 * 15),
        )?;
    }
    Ok(())
}

/// What the marks of a chart of `metric` mean, from the rows it draws:
/// exact values, Monte Carlo estimates, or both, and the whiskers.
fn marks_note(exp: &Experiment, results: &Results, metric: &str, bars: bool) -> String {
    let rows = results.rows.iter().filter(|r| r.metric == metric);
    let (mut exact, mut estimated) = (false, false);
    for r in rows {
        if r.exact.is_some() {
            exact = true;
        } else {
            estimated = true;
        }
    }
    let level = format!("{:.0}%", exp.confidence * 100.0);
    let what = if bars { "bars" } else { "points" };
    match (exact, estimated) {
        (true, false) => format!(
            "{what}: exact values · whiskers (where wider than a point): Monte Carlo {level} intervals, their check"
        ),
        (false, _) => {
            format!("{what}: Monte Carlo estimates (≈) · whiskers: their {level} intervals")
        }
        (true, true) => format!(
            "{what}: exact values where known, else Monte Carlo estimates ({}) · whiskers: Monte Carlo {level} intervals",
            if bars { "≈" } else { "hollow" }
        ),
    }
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
    /// `the target's armour: 0`: axes held at one value.
    held: Vec<String>,
    /// What the panels or `by` lines vary, for the caption.
    varies: Option<String>,
}

/// Most panels a chart shows (the rest are named as left out).
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

/// How a panel's chart is built: its ranges, the room for tick labels,
/// its margin and title.
struct PanelAxes {
    x: Range<f64>,
    y: Range<f64>,
    x_room: u32,
    y_room: u32,
    margin: u32,
}

fn build<'a, DB: DrawingBackend + 'a>(
    area: &'a DrawingArea<DB, Shift>,
    axes: &PanelAxes,
    title: &str,
) -> Result<Chart2d<'a, DB>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(axes.margin)
        .x_label_area_size(axes.x_room)
        .y_label_area_size(axes.y_room);
    if !title.is_empty() {
        builder.caption(title, ("sans-serif", 15));
    }
    Ok(builder.build_cartesian_2d(axes.x.clone(), axes.y.clone())?)
}

/// Where the legend goes and the areas the panels are drawn in: one panel
/// gets the legend inside its plot where that covers none of `occupied`,
/// else a strip beside it; several panels leave it an empty grid cell (or
/// a strip on the right). `cols` forces the number of columns.
struct Layout<DB: DrawingBackend> {
    areas: Vec<DrawingArea<DB, Shift>>,
    /// Top-left corner of the legend, in pixels of the whole picture.
    legend_at: Option<(i32, i32)>,
}

fn layout<DB: DrawingBackend>(
    body: &DrawingArea<DB, Shift>,
    panels: usize,
    cols: Option<usize>,
    legend: Option<&LegendBox>,
    single_axes: &PanelAxes,
    occupied: &[(f64, f64)],
) -> Result<Layout<DB>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (bw, _) = body.dim_in_pixel();
    let Some(legend) = legend else {
        let areas = if panels == 1 {
            vec![body.clone()]
        } else {
            let cols = cols.unwrap_or_else(|| (panels as f64).sqrt().ceil() as usize);
            body.split_evenly((panels.div_ceil(cols), cols))
        };
        return Ok(Layout {
            areas,
            legend_at: None,
        });
    };
    let (lw, _) = legend.size;
    let strip = |body: &DrawingArea<DB, Shift>| {
        let (plot, side) = body.split_horizontally(bw as i32 - lw - 14);
        let base = side.get_base_pixel();
        (plot, (base.0 + 4, base.1 + 24))
    };
    if panels == 1 {
        let trial = build(body, single_axes, "")?;
        let spot = clear_spot(&trial, legend.size, occupied);
        drop(trial);
        return Ok(match spot {
            Some(at) => Layout {
                areas: vec![body.clone()],
                legend_at: Some(at),
            },
            None => {
                let (plot, at) = strip(body);
                Layout {
                    areas: vec![plot],
                    legend_at: Some(at),
                }
            }
        });
    }
    let cols = cols.unwrap_or_else(|| (panels as f64).sqrt().ceil() as usize);
    let rows = panels.div_ceil(cols);
    let cells = body.split_evenly((rows, cols));
    if rows * cols > panels {
        let spare = &cells[panels];
        let (sw, sh) = spare.dim_in_pixel();
        if legend.size.0 <= sw as i32 && legend.size.1 <= sh as i32 {
            let base = spare.get_base_pixel();
            return Ok(Layout {
                areas: cells[..panels].to_vec(),
                legend_at: Some((base.0 + 16, base.1 + 24)),
            });
        }
    }
    let (plot, at) = strip(body);
    Ok(Layout {
        areas: plot.split_evenly((rows, cols)),
        legend_at: Some(at),
    })
}

/// Draws one Monte Carlo whisker at `x` from `lo` to `hi` (data
/// coordinates) with caps, on `canvas`, where it is at least 3 pixels long.
fn whisker<DB: DrawingBackend>(
    canvas: &DrawingArea<DB, Shift>,
    chart: &Chart2d<'_, DB>,
    x: f64,
    (lo, hi): (f64, f64),
    colour: RGBAColor,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let y_range = chart.y_range();
    let (lo, hi) = (lo.max(y_range.start), hi.min(y_range.end));
    let (px, top) = chart.backend_coord(&(x, hi));
    let (_, bottom) = chart.backend_coord(&(x, lo));
    if bottom - top < 3 {
        return Ok(());
    }
    let style = colour.stroke_width(1);
    canvas.draw(&PathElement::new(vec![(px, top), (px, bottom)], style))?;
    canvas.draw(&PathElement::new(vec![(px - 4, top), (px + 4, top)], style))?;
    canvas.draw(&PathElement::new(
        vec![(px - 4, bottom), (px + 4, bottom)],
        style,
    ))?;
    Ok(())
}

/// The first of `texts` that fits `room` pixels at `size`, else nothing
/// (the chart's title names the metric and axes anyway).
fn fitting<DB: DrawingBackend>(
    canvas: &DrawingArea<DB, Shift>,
    texts: &[String],
    size: u32,
    room: i32,
) -> String {
    let style = TextStyle::from(("sans-serif", size).into_font());
    texts
        .iter()
        .find(|t| text_width(canvas, t, &style) <= room)
        .cloned()
        .unwrap_or_default()
}

/// A group of bars: its label under it and its (profile, cell) bars.
type BarGroup = (String, Vec<(usize, usize)>);

/// What a bar chart draws: panels of groups of bars; each group a sweep
/// cell with a bar per profile (or, with no sweep, one group of a bar per
/// profile, each named under it); and what was left out.
struct BarPlan {
    /// (panel title, groups); each group its label and (profile, cell) bars.
    panels: Vec<(String, Vec<BarGroup>)>,
    /// What the groups along the x axis are, in words: the longest first,
    /// then shorter ones for narrow panels.
    x_desc: Vec<String>,
    /// Columns of panels: one when a long sweep wraps onto rows.
    cols: Option<usize>,
    /// What did not fit, said on the chart.
    left_out: Option<String>,
}

/// Most bars one full-width panel holds; a sweep with more wraps onto
/// rows or gets a panel per value of its first axis.
const MAX_BARS: usize = 48;
/// Most rows a long one-axis sweep wraps onto.
const MAX_ROWS: usize = 3;

fn bar_plan(exp: &Experiment) -> BarPlan {
    let np = exp.profiles.len().max(1);
    let cells: usize = exp.axes.iter().map(|a| a.values.len()).product();
    let label = |c: usize, skip: Option<usize>| {
        exp.cell_values(c)
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
            .map(|(_, v)| value_words(v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let group = |c: usize, skip: Option<usize>| {
        (label(c, skip), (0..np).map(|p| (p, c)).collect::<Vec<_>>())
    };
    let desc = |skip: Option<usize>| {
        let axes: Vec<&str> = exp
            .axes
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
            .map(|(_, a)| a.name.as_str())
            .collect();
        let words: Vec<String> = axes.iter().map(|a| axis_words(exp, a)).collect();
        match axes.as_slice() {
            [one] => vec![axis_title(exp, one), words.join(", "), (*one).to_string()],
            _ => vec![words.join(", "), axes.join(", ")],
        }
    };
    if exp.axes.is_empty() {
        // one bar per profile, each named under it
        let groups = exp
            .profiles
            .iter()
            .enumerate()
            .map(|(p, name)| (name.clone(), vec![(p, 0)]))
            .collect();
        return BarPlan {
            panels: vec![(String::new(), groups)],
            x_desc: Vec::new(),
            cols: None,
            left_out: None,
        };
    }
    // the axis with fewest values (the first of equals) gets a panel per
    // value; the others run along each panel's x axis
    let pa = (0..exp.axes.len())
        .min_by_key(|&i| exp.axes[i].values.len())
        .unwrap_or(0);
    let panel_axis = &exp.axes[pa];
    if exp.axes.len() >= 2 && panel_axis.values.len() <= MAX_PANELS {
        let stride: usize = exp.axes[pa + 1..].iter().map(|a| a.values.len()).product();
        let of_value =
            |v: usize| (0..cells).filter(move |c| (c / stride) % panel_axis.values.len() == v);
        let per_value = cells / panel_axis.values.len();
        let fit = (24 / np).max(1).min(per_value);
        let panels = (0..panel_axis.values.len())
            .map(|v| {
                let groups = of_value(v).take(fit).map(|c| group(c, Some(pa))).collect();
                (
                    axis_value_words(exp, &panel_axis.name, &panel_axis.values[v]),
                    groups,
                )
            })
            .collect();
        return BarPlan {
            panels,
            x_desc: desc(Some(pa)),
            cols: None,
            left_out: (fit < per_value).then(|| {
                format!(
                    "the first {fit} of {per_value} cells in each panel; every cell in data.csv and report.html"
                )
            }),
        };
    }
    // one axis (or too many panels): rows of at most MAX_BARS bars
    let per_row = (MAX_BARS / np).max(1);
    let rows = cells.div_ceil(per_row).clamp(1, MAX_ROWS);
    let per_row = cells.div_ceil(rows).min(per_row);
    let shown = (rows * per_row).min(cells);
    let panels = (0..rows)
        .map(|r| {
            let groups = (r * per_row..((r + 1) * per_row).min(shown))
                .map(|c| group(c, None))
                .collect();
            (String::new(), groups)
        })
        .filter(|(_, g): &(String, Vec<_>)| !g.is_empty())
        .collect();
    BarPlan {
        panels,
        x_desc: desc(None),
        cols: Some(1),
        left_out: (shown < cells).then(|| {
            format!(
                "the first {shown} of {cells} sweep cells; every cell in data.csv and report.html"
            )
        }),
    }
}

/// Font size of the values written over bars.
const VALUE_FONT: u32 = 11;

fn draw_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    results: &Results,
    data: &Lookup,
    metric: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let mut plan = bar_plan(exp);
    // a profile whose model has no such metric anywhere is left out (and
    // said so), not drawn as a row of "n/a" with a legend entry
    let absent: Vec<usize> = (0..exp.profiles.len())
        .filter(|&p| {
            exp.profiles.len() > 1
                && (0..exp.models.len()).all(|c| data.get(&exp.profiles[p], c, metric).is_none())
        })
        .collect();
    if absent.len() < exp.profiles.len() {
        for (_, groups) in &mut plan.panels {
            for (_, bars) in groups.iter_mut() {
                bars.retain(|(p, _)| !absent.contains(p));
            }
            groups.retain(|(_, bars)| !bars.is_empty());
        }
    }
    let mut highest: f64 = 0.0;
    for (_, groups) in &plan.panels {
        for (_, bars) in groups {
            for &(p, c) in bars {
                if let Some(r) = data.get(&exp.profiles[p], c, metric) {
                    highest = highest.max(shown(r).0).max(r.ci_high);
                }
            }
        }
    }
    let ymax = y_top(exp, metric, highest, 1.25);
    let probability = is_probability(exp, metric);
    let mut subject = metric_label(exp, metric);
    if let Some(note) = &plan.left_out {
        subject = format!("{subject} ({note})");
    }
    if !absent.is_empty() && absent.len() < exp.profiles.len() {
        let names: Vec<&str> = absent.iter().map(|&p| exp.profiles[p].as_str()).collect();
        subject = format!("{subject}; not computed for {}", names.join(", "));
    }
    let what = marks_note(exp, results, metric, true);
    let all: Vec<usize> = (0..exp.profiles.len()).collect();
    let fixed = super::inputs::chart_fixed(exp, &all, true);
    let body = frame(root, exp, &subject, &fixed, &what)?;
    let named_under = exp.axes.is_empty();
    let entries: Vec<LegendEntry> = if named_under {
        Vec::new()
    } else {
        exp.profiles
            .iter()
            .enumerate()
            .filter(|(p, _)| !absent.contains(p))
            .map(|(p, name)| LegendEntry {
                lines: vec![name.clone()],
                colour: colour(p),
                bar: true,
                marker: None,
            })
            .collect()
    };
    let legend = (!entries.is_empty()).then(|| legend_box(root, &entries, LEGEND_TEXT_MAX));
    let n = plan.panels.len();
    let small = n > 1;
    let (bw, _) = body.dim_in_pixel();
    let panel_width = |cols: usize| f64::from(bw) / cols as f64 - if small { 80.0 } else { 110.0 };
    let cols = plan
        .cols
        .unwrap_or_else(|| (n as f64).sqrt().ceil() as usize);
    // label room is the same in every panel: the widest need
    let label_room = plan
        .panels
        .iter()
        .map(|(_, groups)| {
            let labels: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
            category_labels_in(&labels, panel_width(cols)).1
        })
        .max()
        .unwrap_or(30)
        + if plan.x_desc.is_empty() { 0 } else { 4 };
    let label_room = label_room - 6;
    let axes_of = |groups: usize| PanelAxes {
        x: 0f64..groups.max(1) as f64,
        y: 0f64..ymax,
        x_room: label_room,
        y_room: if small { 62 } else { 70 },
        margin: if small { 8 } else { 15 },
    };
    // what one panel covers: the bars, their whiskers and the values over them
    let single_groups = plan.panels.first().map_or(0, |p| p.1.len());
    let mut occupied = Vec::new();
    if let Some((_, groups)) = plan.panels.first() {
        for (g, (_, bars)) in groups.iter().enumerate() {
            let width = 0.8 / bars.len() as f64;
            for (k, &(p, c)) in bars.iter().enumerate() {
                if let Some(r) = data.get(&exp.profiles[p], c, metric) {
                    let x = g as f64 + 0.1 + k as f64 * width;
                    let top = shown(r).0.max(r.ci_high) + ymax * 0.06;
                    occupied.extend(inside_bar(x, x + width * 0.9, top));
                }
            }
        }
    }
    let placed = layout(
        &body,
        n,
        plan.cols,
        legend.as_ref(),
        &axes_of(single_groups),
        &occupied,
    )?;
    for ((title, groups), area) in plan.panels.iter().zip(&placed.areas) {
        let chart = build(area, &axes_of(groups.len()), title)?;
        draw_bar_panel(
            root,
            chart,
            exp,
            data,
            metric,
            groups,
            &plan.x_desc,
            probability,
            small,
        )?;
    }
    if let (Some(legend), Some(at)) = (&legend, placed.legend_at) {
        draw_legend_box(root, &entries, legend, at)?;
    }
    Ok(())
}

/// One panel of a bar chart: the mesh, the labels under the groups, the
/// bars with their Monte Carlo whiskers, and each bar's value over it
/// where the values fit.
#[allow(clippy::too_many_arguments)]
fn draw_bar_panel<'a, DB: DrawingBackend + 'a>(
    canvas: &DrawingArea<DB, Shift>,
    mut chart: Chart2d<'a, DB>,
    exp: &Experiment,
    data: &Lookup,
    metric: &str,
    groups: &[BarGroup],
    x_desc: &[String],
    probability: bool,
    small: bool,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let desc_size = if small { 13 } else { 15 };
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let x_desc = fitting(canvas, x_desc, desc_size, xr.end - xr.start);
    let y_desc = fitting(
        canvas,
        &[axis_metric_title(exp, metric)],
        desc_size,
        yr.end - yr.start,
    );
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .y_label_formatter(&|v| y_tick(probability, *v))
        .label_style(("sans-serif", if small { 12 } else { 14 }))
        .axis_desc_style(("sans-serif", desc_size))
        .draw()?;
    let labels: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
    let (wrapped, _) = category_labels_in(&labels, f64::from(xr.end - xr.start));
    draw_category_labels(canvas, &chart, &wrapped)?;
    let value_style = TextStyle::from(("sans-serif", VALUE_FONT).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    // values over the bars only where every one fits its bar
    let mut texts = Vec::new();
    let mut fits = true;
    for (g, (_, bars)) in groups.iter().enumerate() {
        let width = 0.8 / bars.len() as f64;
        for (k, &(p, c)) in bars.iter().enumerate() {
            let x0 = g as f64 + 0.1 + k as f64 * width;
            let Some(r) = data.get(&exp.profiles[p], c, metric) else {
                // the profile's model has no such metric: said, not left blank
                let (px, base) = chart.backend_coord(&(x0 + width * 0.45, 0.0));
                texts.push(("n/a".to_string(), (px, base - 3)));
                continue;
            };
            let x1 = x0 + width * 0.9;
            let (v, _) = shown(r);
            let bar_colour = colour(p);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x1, v)],
                bar_colour.filled(),
            )))?;
            let (px0, base) = chart.backend_coord(&(x0, 0.0));
            let (px1, top) = chart.backend_coord(&(x1, v));
            if base - top < 2 {
                // a zero (or nearly) still shows as a sliver of its colour
                canvas.draw(&Rectangle::new(
                    [(px0, base - 2), (px1, base)],
                    bar_colour.filled(),
                ))?;
            }
            whisker(
                canvas,
                &chart,
                (x0 + x1) / 2.0,
                (r.ci_low, r.ci_high),
                BLACK.to_rgba(),
            )?;
            let text = shown_text(exp, metric, r);
            if text_width(canvas, &text, &value_style) > px1 - px0 + 4 {
                fits = false;
            }
            let (_, above) = chart.backend_coord(&((x0 + x1) / 2.0, v.max(r.ci_high)));
            texts.push((text, ((px0 + px1) / 2, above.min(top) - 3)));
        }
    }
    if fits {
        for (text, at) in texts {
            canvas.draw(&Text::new(text, at, value_style.clone()))?;
        }
    }
    Ok(())
}

/// One before/after pair of compare's chart.
pub(crate) struct Pair {
    /// Profile name.
    pub profile: String,
    /// Sweep cell index.
    pub cell: usize,
    /// Value before the change.
    pub before: f64,
    /// Value after it.
    pub after: f64,
}

/// Most cells one panel of compare's chart draws.
const MAX_PAIR_GROUPS: usize = 24;

/// Compare's chart of `metric`: a pair of bars (before, after) per sweep
/// cell, a panel per profile (the first nine), each bar's value over it
/// where the values fit; what did not fit is named in the title. `labels`
/// are the two sides' legend entries; `fixed` is the subtitle (what both
/// sides hold fixed); `what` goes in the footer.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_pairs<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    metric: &str,
    change: &str,
    pairs: &[Pair],
    labels: [String; 2],
    fixed: &str,
    what: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let mut panels: Vec<(String, Vec<&Pair>)> = Vec::new();
    for p in pairs {
        match panels.iter_mut().find(|(name, _)| *name == p.profile) {
            Some((_, list)) => list.push(p),
            None => panels.push((p.profile.clone(), vec![p])),
        }
    }
    let mut left_out = Vec::new();
    if panels.len() > MAX_PANELS {
        left_out.push(format!(
            "the first {MAX_PANELS} of {} profiles",
            panels.len()
        ));
        panels.truncate(MAX_PANELS);
    }
    let most = panels.iter().map(|p| p.1.len()).max().unwrap_or(0);
    if most > MAX_PAIR_GROUPS {
        left_out.push(format!(
            "the first {MAX_PAIR_GROUPS} of {most} cells a profile"
        ));
        for (_, list) in &mut panels {
            list.truncate(MAX_PAIR_GROUPS);
        }
    }
    if panels.len() == 1 && exp.profiles.len() == 1 {
        panels[0].0.clear();
    }
    let highest = panels
        .iter()
        .flat_map(|p| p.1.iter().map(|c| c.before.max(c.after)))
        .fold(0.0, f64::max);
    let ymax = y_top(exp, metric, highest, 1.25);
    let probability = is_probability(exp, metric);
    let mut subject = format!("{}: {change}", metric_label(exp, metric));
    if !left_out.is_empty() {
        subject = format!("{subject} ({}; all in compare.csv)", left_out.join(", "));
    }
    let body = frame(root, exp, &subject, fixed, what)?;
    let entries: Vec<LegendEntry> = labels
        .iter()
        .enumerate()
        .map(|(k, l)| LegendEntry {
            lines: vec![l.clone()],
            colour: colour(k),
            bar: true,
            marker: None,
        })
        .collect();
    let legend = legend_box(root, &entries, LEGEND_TEXT_MAX);
    let n = panels.len().max(1);
    let small = n > 1;
    let values = |c: usize| {
        exp.cell_values(c)
            .iter()
            .map(value_words)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let x_desc: Vec<String> = match exp.axes.as_slice() {
        [] => Vec::new(),
        [one] => vec![
            axis_title(exp, &one.name),
            axis_words(exp, &one.name),
            one.name.clone(),
        ],
        axes => vec![
            axes.iter()
                .map(|a| axis_words(exp, &a.name))
                .collect::<Vec<_>>()
                .join(", "),
            axes.iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        ],
    };
    let (bw, _) = body.dim_in_pixel();
    let cols = (n as f64).sqrt().ceil() as usize;
    let width = f64::from(bw) / cols as f64 - if small { 80.0 } else { 110.0 };
    let label_room = panels
        .iter()
        .map(|(_, list)| {
            let l: Vec<String> = list.iter().map(|p| values(p.cell)).collect();
            category_labels_in(&l, width).1
        })
        .max()
        .unwrap_or(30)
        - 2;
    let axes_of = |groups: usize| PanelAxes {
        x: 0f64..groups.max(1) as f64,
        y: 0f64..ymax,
        x_room: label_room,
        y_room: if small { 62 } else { 70 },
        margin: if small { 8 } else { 15 },
    };
    let mut occupied = Vec::new();
    if let Some((_, list)) = panels.first() {
        for (g, p) in list.iter().enumerate() {
            let top = p.before.max(p.after) + ymax * 0.06;
            occupied.extend(inside_bar(g as f64 + 0.1, g as f64 + 0.9, top));
        }
    }
    let first_groups = panels.first().map_or(1, |p| p.1.len());
    let placed = layout(
        &body,
        n,
        None,
        Some(&legend),
        &axes_of(first_groups),
        &occupied,
    )?;
    let value_style = TextStyle::from(("sans-serif", VALUE_FONT).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    for ((title, list), area) in panels.iter().zip(&placed.areas) {
        let mut chart = build(area, &axes_of(list.len()), title)?;
        let desc_size = if small { 13 } else { 15 };
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        let x_text = fitting(root, &x_desc, desc_size, xr.end - xr.start);
        let y_text = fitting(
            root,
            &[axis_metric_title(exp, metric)],
            desc_size,
            yr.end - yr.start,
        );
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(x_text)
            .y_desc(y_text)
            .y_label_formatter(&|v| y_tick(probability, *v))
            .label_style(("sans-serif", if small { 12 } else { 14 }))
            .axis_desc_style(("sans-serif", desc_size))
            .draw()?;
        let l: Vec<String> = list.iter().map(|p| values(p.cell)).collect();
        let (wrapped, _) = category_labels_in(&l, f64::from(xr.end - xr.start));
        draw_category_labels(root, &chart, &wrapped)?;
        let mut texts = Vec::new();
        let mut fits = true;
        for (g, p) in list.iter().enumerate() {
            for (k, v) in [p.before, p.after].into_iter().enumerate() {
                let x0 = g as f64 + 0.1 + k as f64 * 0.4;
                let x1 = x0 + 0.38;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x1, v)],
                    colour(k).filled(),
                )))?;
                let (px0, base) = chart.backend_coord(&(x0, 0.0));
                let (px1, top) = chart.backend_coord(&(x1, v));
                if base - top < 2 {
                    root.draw(&Rectangle::new(
                        [(px0, base - 2), (px1, base)],
                        colour(k).filled(),
                    ))?;
                }
                let text = value_text(exp, metric, v);
                if text_width(root, &text, &value_style) > px1 - px0 + 4 {
                    fits = false;
                }
                texts.push((text, ((px0 + px1) / 2, top - 3)));
            }
        }
        if fits {
            for (text, at) in texts {
                root.draw(&Text::new(text, at, value_style.clone()))?;
            }
        }
    }
    if let Some(at) = placed.legend_at {
        draw_legend_box(root, &entries, &legend, at)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn draw_line<DB: DrawingBackend>(
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
    let fixed = super::inputs::chart_fixed(exp, &all, true);
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

/// Most sweep cells a distribution chart draws, a panel each.
const MAX_DISTRIBUTION_PANELS: usize = 6;

/// The family `family` as the spec lists it.
fn listed_family(exp: &Experiment, family: &str) -> Option<at_least::Listed> {
    at_least::listed(exp).into_iter().find(|f| f.head == family)
}

/// A distribution chart's subject: `P(k hits): exactly k (solid) and at
/// least k (dashed)`.
fn distribution_subject(exp: &Experiment, family: &str) -> String {
    let label = listed_family(exp, family).map_or_else(
        || family.to_string(),
        |f| super::labels::family_label(exp, f.id, &f.head),
    );
    format!("{label}: P(= k), solid, and P(≥ k), dashed")
}

/// A distribution family along `k`: per profile a solid line of P(= k)
/// and a dashed one of P(≥ k) in its colour and marker; a panel per sweep
/// cell (the first [`MAX_DISTRIBUTION_PANELS`], the rest named as left out).
fn draw_distribution<DB: DrawingBackend>(
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
    let fixed = super::inputs::chart_fixed(exp, &all, true);
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
    let x_words = format!(
        "k, as in {}",
        super::labels::family_label(exp, f.id, &f.head)
    );
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
            &[words.join(", "), super::labels::cell_text(exp, &values)],
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

#[allow(clippy::too_many_arguments)]
fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    results: &Results,
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
                cells.push((i, j, v, r));
            }
        }
    }
    let vmax = if vmax <= 0.0 { 1.0 } else { vmax };
    let (xs, ys) = (&exp.axes[xi].values, &exp.axes[yi].values);
    // room for the longest value name beside the y axis (14 px type)
    let longest = ys.iter().map(|v| v.to_string().chars().count()).max();
    let y_room = (longest.unwrap_or(0) as u32 * 9 + 40).clamp(70, 260);
    let subject = format!(
        "{profile}: {} by {} and {}{}",
        metric_label(exp, metric),
        axis_words(exp, x),
        axis_words(exp, y),
        fixed_note(exp, &[xi, yi])
    );
    let exact = results
        .rows
        .iter()
        .filter(|r| r.metric == metric && r.profile == profile)
        .all(|r| r.exact.is_some());
    // a yes/no answer (`is the best mode`) reads as words, not 0% / 100%
    let yes_no = exact
        && super::labels::metric_def(exp, metric).is_some_and(|m| m.yes_no)
        && !cells.is_empty()
        && cells
            .iter()
            .all(|&(.., v, _)| v.abs() < 1e-12 || (v - 1.0).abs() < 1e-12);
    let what = if yes_no {
        "cells: exact values (yes or no)".to_string()
    } else if exact {
        "cells: exact values".to_string()
    } else {
        "cells: exact values where known, else Monte Carlo estimates (≈)".to_string()
    };
    let shown = exp.profiles.iter().position(|p| p == profile).unwrap_or(0);
    let fixed = super::inputs::chart_fixed(exp, &[shown], true);
    let body = frame(root, exp, &subject, &fixed, &what)?;
    let (bw, _) = body.dim_in_pixel();
    let (plot, scale) = body.split_horizontally(bw - 110);
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
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    chart.draw_series(cells.iter().map(|&(i, j, v, _)| {
        Rectangle::new(
            [(i as f64, j as f64), (i as f64 + 1.0, j as f64 + 1.0)],
            heat(v / vmax).filled(),
        )
    }))?;
    // value names sized to their cells, light on the darkest colours
    let cell_px = chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0;
    let font = (f64::from(cell_px) / 6.0).clamp(9.0, 14.0);
    let centre = Pos::new(HPos::Center, VPos::Center);
    chart.draw_series(cells.iter().map(|&(i, j, v, r)| {
        let ink: &'static RGBColor = if v / vmax > 0.6 { &WHITE } else { &BLACK };
        let text = match (yes_no, v > 0.5) {
            (true, true) => "yes".to_string(),
            (true, false) => "no".to_string(),
            (false, _) => shown_text(exp, metric, r),
        };
        Text::new(
            text,
            (i as f64 + 0.5, j as f64 + 0.5),
            TextStyle::from(("sans-serif", font).into_font())
                .color(ink)
                .pos(centre),
        )
    }))?;
    if yes_no {
        draw_yes_no_key(&scale, exp, metric)
    } else {
        draw_colour_scale(&scale, exp, metric, vmax)
    }
}

/// The key of a yes/no heatmap: the metric's name over a swatch for
/// each answer.
fn draw_yes_no_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    metric: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let style = TextStyle::from(("sans-serif", 12).into_font()).color(&BLACK);
    let (w, _) = area.dim_in_pixel();
    let mut y = 20;
    for line in wrap_pixels(area, &metric_label(exp, metric), &style, w as i32 - 14) {
        area.draw(&Text::new(line, (4, y), style.clone()))?;
        y += 15;
    }
    y += 8;
    for (answer, colour) in [("yes", heat(1.0)), ("no", heat(0.0))] {
        area.draw(&Rectangle::new([(4, y), (28, y + 20)], colour.filled()))?;
        area.draw(&Rectangle::new(
            [(4, y), (28, y + 20)],
            BLACK.stroke_width(1),
        ))?;
        area.draw(&Text::new(answer, (34, y + 4), style.clone()))?;
        y += 28;
    }
    Ok(())
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
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..1.0, 0f64..vmax)?;
    let probability = is_probability(exp, metric);
    let (_, height) = key.plotting_area().dim_in_pixel();
    let title = fitting(area, &[axis_metric_title(exp, metric)], 12, height as i32);
    key.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(6)
        .y_label_formatter(&|v| y_tick(probability, *v))
        .y_desc(title)
        .set_tick_mark_size(plotters::chart::LabelAreaPosition::Left, 6)
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 12))
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
        values.get(i as usize).map(value_words).unwrap_or_default()
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

/// A chart written: its file stem and what it shows, in words.
pub struct Drawn {
    /// File stem (without extension), ids only.
    pub file: String,
    /// What it shows (`P(out of action) by inches to the target`).
    pub title: String,
    /// The SVG text (for `report.html`, which carries it inline).
    pub svg: String,
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
                super::write_atomic(&dir.join(format!("{name}.svg")), svg.as_bytes())?;
                Ok(svg)
            };
            let draw_png = || -> anyhow::Result<()> {
                super::write_via(&dir.join(format!("{name}.png")), |tmp| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Axis, load};
    use crate::systems::ParamValue;
    use std::path::PathBuf;

    fn bundled(name: &str) -> Experiment {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("experiments")
            .join(format!("{name}.toml"));
        load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// Every (profile, cell) bar a plan draws, once each.
    fn bars_of(plan: &BarPlan) -> Vec<(usize, usize)> {
        let mut bars: Vec<(usize, usize)> = plan
            .panels
            .iter()
            .flat_map(|(_, groups)| groups.iter().flat_map(|(_, b)| b.iter().copied()))
            .collect();
        bars.sort_unstable();
        bars
    }

    #[test]
    fn a_two_axis_bar_chart_draws_every_cell_in_a_panel_per_value_of_its_shortest_axis() {
        // 5 x 4 cells and 3 profiles: the old chart drew the first 12 cells
        let exp = bundled("bfg_boarding");
        let plan = bar_plan(&exp);
        assert_eq!(plan.panels.len(), 4);
        assert!(plan.left_out.is_none());
        let mut every: Vec<(usize, usize)> =
            (0..3).flat_map(|p| (0..20).map(move |c| (p, c))).collect();
        every.sort_unstable();
        assert_eq!(bars_of(&plan), every);
        // panels named in words, groups by the other axis's values, the
        // cells of each panel the ones at its value
        assert_eq!(plan.panels[1].0, "remaining turrets of the boarded ship: 1");
        let labels: Vec<&str> = plan.panels[1].1.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(labels, ["2", "3", "6", "9", "12"]);
        for (_, bars) in &plan.panels[1].1 {
            let ParamValue::Int(turrets) = exp.cell_values(bars[0].1)[1] else {
                panic!("turrets are whole numbers")
            };
            assert_eq!(turrets, 1);
        }
        assert_eq!(
            plan.x_desc[0],
            "attacker_damage: boarding ship 1's damage left"
        );
    }

    #[test]
    fn a_long_sweep_wraps_onto_rows_and_says_what_it_leaves_out() {
        let mut exp = bundled("bfg_boarding");
        let axis = |n: i64| Axis {
            name: "attacker_damage".into(),
            values: (1..=n).map(ParamValue::Int).collect(),
        };
        // 40 cells x 3 profiles = 120 bars: three rows, nothing left out
        exp.axes = vec![axis(40)];
        let plan = bar_plan(&exp);
        assert_eq!(plan.panels.len(), 3);
        assert!(plan.left_out.is_none(), "{:?}", plan.left_out);
        assert_eq!(bars_of(&plan).len(), 120);
        // 100 cells: what fits is drawn and the rest is named on the chart
        exp.axes = vec![axis(100)];
        let plan = bar_plan(&exp);
        let drawn = bars_of(&plan).len() / 3;
        assert!(drawn < 100);
        assert_eq!(
            plan.left_out.as_deref(),
            Some(
                format!(
                    "the first {drawn} of 100 sweep cells; every cell in data.csv and report.html"
                )
                .as_str()
            )
        );
        // with no sweep each profile is a bar named under it
        exp.axes.clear();
        let plan = bar_plan(&exp);
        let names: Vec<&str> = plan.panels[0].1.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(
            names,
            exp.profiles.iter().map(String::as_str).collect::<Vec<_>>()
        );
    }

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
