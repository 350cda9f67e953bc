//! What every chart draws around its plot: the title and the grey line of
//! fixed conditions, the footer (what the marks mean, then provenance),
//! value-axis ticks and top, category labels under bars, whiskers, and
//! text measured and fitted in pixels.

use crate::experiment::{Experiment, Results};
use crate::report::labels::{axis_metric_title, is_probability};
use crate::report::provenance::Provenance;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A chart on `f64` coordinates, as every krunch chart is.
pub(super) type Chart2d<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// What drawing returns: plotters' errors differ by backend, so boxed.
pub(super) type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The pixel width of `text` in `style` on `area` (an estimate from the
/// character count where the font cannot say).
pub(super) fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> i32 {
    area.estimate_text_size(text, style)
        .map(|(w, _)| w as i32)
        .unwrap_or_else(|_| (text.chars().count() as f64 * style.font.get_size() * 0.6) as i32)
}

/// `text` broken at spaces into lines at most `max` pixels wide.
pub(super) fn wrap_pixels<DB: DrawingBackend>(
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

/// The first of `texts` that fits `room` pixels at `size`, else nothing
/// (the chart's title names the metric and axes anyway).
pub(super) fn fitting<DB: DrawingBackend>(
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

/// Tick text of the value axis: percentages for a probability (none past
/// 100%, where a little room is left above the top values).
pub(in crate::report) fn y_tick(probability: bool, v: f64) -> String {
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

/// The top of the value axis: a little above the highest point drawn; for
/// a probability no higher than 100%, or a few points over it when values
/// reach the top, so nothing sits on the frame.
pub(super) fn y_top(exp: &Experiment, metric: &str, highest: f64, room: f64) -> f64 {
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

/// Font size and line height of the labels under bars.
const CATEGORY_FONT: u32 = 13;

/// Font size of the values written over bars.
pub(super) const VALUE_FONT: u32 = 11;

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
pub(super) fn category_labels_in(labels: &[String], width: f64) -> (Vec<Vec<String>>, u32) {
    let slot = width / labels.len().max(1) as f64;
    let wrapped: Vec<Vec<String>> = labels.iter().map(|l| wrap(l, slot * 0.95)).collect();
    if labels_upright(&wrapped, slot) {
        let longest = labels.iter().map(|l| category_width(l)).fold(0.0, f64::max);
        return (wrapped, 40 + longest.min(170.0) as u32);
    }
    let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).min(10) as u32;
    (wrapped, 30 + lines * (CATEGORY_FONT + 3))
}

/// The mesh of a chart with categories along x (bars, compare's pairs):
/// no x grid or ticks, the axis titles fitted to the plot (the first of
/// `x_desc` that fits), y ticks in the metric's words, and the
/// categories' `labels` wrapped under their slots.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_category_mesh<'a, DB>(
    canvas: &DrawingArea<DB, Shift>,
    chart: &mut Chart2d<'a, DB>,
    exp: &Experiment,
    metric: &str,
    x_desc: &[String],
    labels: &[String],
    probability: bool,
    small: bool,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
{
    let desc_size = if small { 13 } else { 15 };
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let x_text = fitting(canvas, x_desc, desc_size, xr.end - xr.start);
    let y_text = fitting(
        canvas,
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
    let (wrapped, _) = category_labels_in(labels, f64::from(xr.end - xr.start));
    draw_category_labels(canvas, chart, &wrapped)
}

/// Draws wrapped category labels under the plot, centred under the
/// middle of each unit slot (`i + 0.5`), at most ten lines each; upright
/// and whole where a word would overrun its slot.
pub(super) fn draw_category_labels<'a, DB>(
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

/// Draws one Monte Carlo whisker at `x` from `lo` to `hi` (data
/// coordinates) with caps, on `canvas`, where it is at least 3 pixels long.
pub(super) fn whisker<DB: DrawingBackend>(
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

/// Height of the footer band: two lines of provenance.
const FOOTER: u32 = 34;

/// Draws the chart's title (the spec's title and the chart's `subject`, on
/// one line when they fit at a readable size, else on two), under it the
/// `fixed` conditions in grey (on up to two lines; what does not fit is
/// cut with an ellipsis), and its footer (`what` the marks mean, then the
/// provenance); returns the area between.
pub(super) fn frame<DB: DrawingBackend>(
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
fn draw_footer<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    what: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let prov = Provenance::of(exp);
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
pub(super) fn marks_note(exp: &Experiment, results: &Results, metric: &str, bars: bool) -> String {
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
