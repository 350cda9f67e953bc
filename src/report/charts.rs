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

/// The series legend every krunch chart uses: upper right, boxed.
pub(crate) fn draw_legend<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    X: Ranged,
    Y: Ranged,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    Ok(())
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

/// Cell indices along axis `axis`, every other axis at its first value.
fn cells_along(exp: &Experiment, axis: usize) -> Vec<usize> {
    let stride: usize = exp.axes[axis + 1..]
        .iter()
        .map(|a| a.values.len())
        .product();
    (0..exp.axes[axis].values.len())
        .map(|i| i * stride)
        .collect()
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
    }
    draw_legend(&mut chart)?;
    Ok(())
}

fn draw_line<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    exp: &Experiment,
    data: &Lookup,
    metric: &str,
    x: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let ai = axis_index(exp, x);
    let cells = cells_along(exp, ai);
    let values = &exp.axes[ai].values;
    let mut ymax: f64 = 0.0;
    for p in &exp.profiles {
        for &c in &cells {
            if let Some(r) = data.get(p, c, metric) {
                let (v, ci) = shown(r);
                ymax = ymax.max(v).max(ci.map_or(v, |c| c.1));
            }
        }
    }
    let ymax = y_top(exp, metric, ymax, 1.1);
    let n = cells.len();
    let probability = is_probability(exp, metric);
    let caption = format!(
        "{} — {} by {x}{}",
        exp.title,
        metric_label(exp, metric),
        fixed_note(exp, &[ai])
    );
    let style = caption_style(&caption, 22);
    let mut chart = ChartBuilder::on(root)
        .caption(caption, style)
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..ymax)?;
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|v| {
            let i = v.round();
            if (v - i).abs() < 0.01 && i >= 0.0 {
                values
                    .get(i as usize)
                    .map(|x| x.to_string())
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc(axis_title(exp, x))
        .y_desc(axis_metric_title(exp, metric))
        .y_label_formatter(&|v| y_tick(probability, *v))
        .label_style(("sans-serif", 14))
        .draw()?;
    for (pi, p) in exp.profiles.iter().enumerate() {
        let color = colour(pi);
        let pts: Vec<(f64, &Row)> = cells
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| data.get(p, c, metric).map(|r| (i as f64, r)))
            .collect();
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|(i, r)| (*i, shown(r).0)),
                color.stroke_width(3),
            ))?
            .label(p.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3))
            });
        chart.draw_series(
            pts.iter()
                .map(|(i, r)| Circle::new((*i, shown(r).0), 4, color.filled())),
        )?;
        chart.draw_series(pts.iter().filter_map(|(i, r)| {
            shown(r)
                .1
                .map(|(lo, hi)| PathElement::new(vec![(*i, lo), (*i, hi)], color.stroke_width(1)))
        }))?;
    }
    draw_legend(&mut chart)?;
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
        "{profile}: {} by {x} and {y}{}",
        metric_label(exp, metric),
        fixed_note(exp, &[xi, yi])
    );
    let style = caption_style(&caption, 22);
    let mut chart = ChartBuilder::on(root)
        .caption(caption, style)
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
        let t = v / vmax;
        let color = RGBColor((255.0 - 200.0 * t) as u8, (255.0 - 120.0 * t) as u8, 255);
        Rectangle::new(
            [(i as f64, j as f64), (i as f64 + 1.0, j as f64 + 1.0)],
            color.filled(),
        )
    }))?;
    chart.draw_series(cells.iter().map(|&(i, j, v)| {
        Text::new(
            value_text(exp, metric, v),
            (i as f64 + 0.35, j as f64 + 0.55),
            ("sans-serif", 14).into_font().color(&BLACK),
        )
    }))?;
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
fn chart_name(chart: &ChartSpec) -> String {
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
        ChartSpec::Line { metric, x } => format!("line_{}_by_{}", clean(metric), clean(x)),
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
        ChartSpec::Line { metric, x } => draw_line(&root, exp, data, metric, x),
        ChartSpec::Heatmap {
            metric,
            x,
            y,
            profile,
        } => draw_heatmap(&root, exp, data, metric, x, y, profile),
    }?;
    // Provenance on the picture itself, so a chart pasted elsewhere still
    // says what produced it.
    let prov = super::Provenance::of(exp);
    let footer = format!(
        "exact values where known, else Monte Carlo with {:.0}% interval · krunch {} · {} trials · seed {} · {} · spec sha256 {}",
        exp.confidence * 100.0,
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
    root.present()?;
    Ok(())
}

/// A chart written: its file stem and what it shows, in words.
pub struct Drawn {
    /// File stem (without extension), ids only.
    pub file: String,
    /// What it shows (`P(out of action) by range`).
    pub title: String,
}

/// The chart's subject in words, for links to it.
fn chart_title(exp: &Experiment, chart: &ChartSpec) -> String {
    match chart {
        ChartSpec::Bar { metric } => metric_label(exp, metric),
        ChartSpec::Line { metric, x } => format!("{} by {x}", metric_label(exp, metric)),
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
        let name = chart_name(chart);
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
        });
    }
    Ok(names)
}
