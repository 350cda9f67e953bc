//! Compare's chart: a before/after pair of bars per sweep cell, a panel
//! per profile (drawn by `report::compare`, which pairs the two sides).

use super::frame::{
    DrawResult, VALUE_FONT, category_labels_in, draw_category_mesh, frame, text_width, y_top,
};
use super::layout::{MAX_PANELS, PanelAxes, build, layout};
use super::legend::{LEGEND_TEXT_MAX, LegendEntry, draw_legend_box, inside_bar, legend_box};
use super::palette::colour;
use crate::experiment::Experiment;
use crate::report::labels::{
    axis_title, axis_words, is_probability, metric_label, value_text, value_words,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One before/after pair of compare's chart.
pub(in crate::report) struct Pair {
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
pub(in crate::report) fn draw_pairs<DB: DrawingBackend>(
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
        let l: Vec<String> = list.iter().map(|p| values(p.cell)).collect();
        draw_category_mesh(
            root,
            &mut chart,
            exp,
            metric,
            &x_desc,
            &l,
            probability,
            small,
        )?;
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
