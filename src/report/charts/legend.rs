//! Legends placed where they cover no data: krunch's own boxed legend
//! (swatches, markers, wrapped names) and plotters' legend for compare's
//! and prob's charts, with the points a legend must not sit on.

use super::frame::{Chart2d, DrawResult, text_width, wrap_pixels};
use super::palette::Marker;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Font size of legend entries.
const LEGEND_FONT: u32 = 14;

/// The series legend of compare's and prob's charts: plotters' own, boxed,
/// in the corner (or side) of the plot that covers fewest of the `occupied`
/// points (data coordinates: the points, lines and bars drawn). `labels`
/// are the entries, for its size.
pub(in crate::report) fn draw_legend<'a, DB>(
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
pub(super) struct LegendEntry {
    pub(super) lines: Vec<String>,
    pub(super) colour: RGBAColor,
    pub(super) bar: bool,
    /// The point shape of a line's series (none for bars).
    pub(super) marker: Option<Marker>,
}

/// Height of one legend line, in pixels.
const LEGEND_LINE: i32 = 18;
/// Widest a legend's text may be before it wraps, in pixels.
pub(super) const LEGEND_TEXT_MAX: i32 = 300;

/// The legend's text: black at [`LEGEND_FONT`].
fn legend_style() -> TextStyle<'static> {
    TextStyle::from(("sans-serif", LEGEND_FONT).into_font()).color(&BLACK)
}

/// The legend's lines, wrapped, and its box size in pixels.
pub(super) struct LegendBox {
    lines: Vec<Vec<String>>,
    pub(super) size: (i32, i32),
}

pub(super) fn legend_box<DB: DrawingBackend>(
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
pub(super) fn draw_legend_box<DB: DrawingBackend>(
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
pub(super) fn clear_spot<DB: DrawingBackend>(
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

/// Points along the polyline `pts` (data coordinates), close enough
/// together that a legend box cannot sit on the line between two of them.
pub(in crate::report) fn along(pts: &[(f64, f64)]) -> Vec<(f64, f64)> {
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
pub(super) fn inside_bar(x0: f64, x1: f64, top: f64) -> Vec<(f64, f64)> {
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
