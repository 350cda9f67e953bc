//! How a chart's body is cut into panels and where its legend goes: one
//! panel keeps the legend inside where it covers nothing, several leave it
//! a spare grid cell, else it gets a strip beside the plot.

use super::frame::Chart2d;
use super::legend::{LegendBox, clear_spot};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Most panels a chart shows (the rest are named as left out).
pub(super) const MAX_PANELS: usize = 9;

/// How a panel's chart is built: its ranges, the room for tick labels,
/// its margin and title.
pub(super) struct PanelAxes {
    pub(super) x: Range<f64>,
    pub(super) y: Range<f64>,
    pub(super) x_room: u32,
    pub(super) y_room: u32,
    pub(super) margin: u32,
}

/// A panel's chart on `area` with `axes`, and `title` over it if any.
pub(super) fn build<'a, DB: DrawingBackend + 'a>(
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
pub(super) struct Layout<DB: DrawingBackend> {
    pub(super) areas: Vec<DrawingArea<DB, Shift>>,
    /// Top-left corner of the legend, in pixels of the whole picture.
    pub(super) legend_at: Option<(i32, i32)>,
}

pub(super) fn layout<DB: DrawingBackend>(
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
