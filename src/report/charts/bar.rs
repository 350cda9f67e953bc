//! Bar charts: every sweep cell a group with a bar per profile (a panel
//! per value of the shortest axis, or rows for one long axis), Monte Carlo
//! whiskers, values over the bars where they fit; what does not fit, and
//! profiles that do not compute the metric, named in the title.

use super::frame::{
    Chart2d, DrawResult, VALUE_FONT, category_labels_in, draw_category_mesh, frame, marks_note,
    text_width, whisker, y_top,
};
use super::layout::{MAX_PANELS, PanelAxes, build, layout};
use super::legend::{LEGEND_TEXT_MAX, LegendEntry, draw_legend_box, inside_bar, legend_box};
use super::palette::colour;
use super::rows::{Lookup, shown, shown_text};
use crate::experiment::{Experiment, Results};
use crate::report::inputs;
use crate::report::labels::{
    axis_title, axis_value_words, axis_words, is_probability, metric_label, value_words,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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

/// A bar chart of `metric` over every sweep cell (see [`bar_plan`]): a
/// bar per profile in each group, whiskers, the values over the bars.
pub(super) fn draw_bar<DB: DrawingBackend>(
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
    let fixed = inputs::chart_fixed(exp, &all, true);
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
    let labels: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
    draw_category_mesh(
        canvas,
        &mut chart,
        exp,
        metric,
        x_desc,
        &labels,
        probability,
        small,
    )?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Axis;
    use crate::report::charts::testing::bundled;
    use crate::systems::ParamValue;

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
}
