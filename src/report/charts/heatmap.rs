//! Heatmaps: a metric over two sweep axes for one profile, each cell
//! coloured and labelled, with a colour key ticked in the metric's terms,
//! or a yes/no key for a metric declared yes/no.

use super::frame::{DrawResult, fitting, frame, wrap_pixels, y_tick};
use super::rows::{Lookup, axis_index, shown, shown_text};
use crate::experiment::{Experiment, Results};
use crate::report::inputs;
use crate::report::labels::{
    axis_metric_title, axis_title, axis_value_words, axis_words, is_probability, metric_def,
    metric_label, value_words,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A heatmap of `metric` for `profile` over axes `x` and `y`, any other
/// axes at their first value (named in the title).
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_heatmap<DB: DrawingBackend>(
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
        && metric_def(exp, metric).is_some_and(|m| m.yes_no)
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
    let fixed = inputs::chart_fixed(exp, &[shown], true);
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

/// The value name of the heatmap row or column whose middle is at `v`
/// (cells span `i..i + 1`), else nothing: names at the cells' middles, the
/// ticks at their edges blank.
fn label_at(v: f64, values: &[crate::systems::ParamValue]) -> String {
    let i = (v - 0.5).round();
    if (v - 0.5 - i).abs() < 0.01 && i >= 0.0 {
        values.get(i as usize).map(value_words).unwrap_or_default()
    } else {
        String::new()
    }
}
