//! Distributions of dice expressions for `krunch prob`: a terminal table
//! with bars, JSON, and a chart file.

use crate::dice::Dist;
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// One expression and its exact distribution.
pub struct Named<'a> {
    /// The expression as typed.
    pub expression: &'a str,
    /// How it was read.
    pub reading: String,
    /// Its distribution.
    pub dist: &'a Dist,
}

/// The terminal table: outcome, P(=), P(>=), P(<=) and a bar for one
/// expression; P(=) side by side for several.
pub fn text(items: &[Named]) -> String {
    let mut out = String::new();
    for item in items {
        let _ = writeln!(
            out,
            "{}  (read as: {})\n  mean {:.6}  sd {:.6}",
            item.expression,
            item.reading,
            item.dist.mean(),
            item.dist.variance().sqrt()
        );
    }
    let lo = items.iter().map(|i| i.dist.min_value()).min().unwrap_or(0);
    let hi = items.iter().map(|i| i.dist.max_value()).max().unwrap_or(0);
    let peak = items
        .iter()
        .flat_map(|i| i.dist.iter().map(|(_, p)| p))
        .fold(0.0, f64::max);
    out.push('\n');
    if let [one] = items {
        let _ = writeln!(
            out,
            "{:>8}  {:>10}  {:>10}  {:>10}",
            "outcome", "P(=)", "P(>=)", "P(<=)"
        );
        let mut below = 0.0;
        for v in lo..=hi {
            let p = one.dist.pmf(v);
            if p == 0.0 {
                continue;
            }
            let at_most = below + p;
            let _ = writeln!(
                out,
                "{v:>8}  {:>10.6}  {:>10.6}  {:>10.6}  {}",
                p,
                (1.0 - below).max(0.0),
                at_most.min(1.0),
                bar(p, peak)
            );
            below = at_most;
        }
    } else {
        let _ = write!(out, "{:>8}", "outcome");
        for (i, _) in items.iter().enumerate() {
            let _ = write!(out, "  {:>10}", format!("P{}(=)", i + 1));
        }
        out.push('\n');
        for v in lo..=hi {
            if items.iter().all(|i| i.dist.pmf(v) == 0.0) {
                continue;
            }
            let _ = write!(out, "{v:>8}");
            for i in items {
                let _ = write!(out, "  {:>10.6}", i.dist.pmf(v));
            }
            out.push('\n');
        }
    }
    out
}

fn bar(p: f64, peak: f64) -> String {
    let width = if peak > 0.0 {
        (p / peak * 40.0).round() as usize
    } else {
        0
    };
    "█".repeat(width)
}

/// `{"expression": ..., "outcomes": [{"value": v, "p": p}, ...], "mean": m, "sd": s}`,
/// outcomes ascending; an array of those for several expressions.
pub fn json(items: &[Named]) -> String {
    let objects: Vec<serde_json::Value> = items
        .iter()
        .map(|i| {
            serde_json::json!({
                "expression": i.expression,
                "outcomes": i.dist.iter().map(|(v, p)| serde_json::json!({"value": v, "p": p})).collect::<Vec<_>>(),
                "mean": i.dist.mean(),
                "sd": i.dist.variance().sqrt(),
            })
        })
        .collect();
    let value = match <[serde_json::Value; 1]>::try_from(objects) {
        Ok([one]) => one,
        Err(many) => serde_json::Value::Array(many),
    };
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// Draws the distributions (bars for one, lines for several) to an `.svg`
/// or `.png` file, written atomically.
pub fn write_chart(path: &Path, items: &[Named]) -> anyhow::Result<()> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    anyhow::ensure!(
        ext == "svg" || ext == "png",
        "{}: the chart file must end in .svg or .png",
        path.display()
    );
    super::register_fonts();
    let size = (960, 600);
    super::write_via(path, |tmp| {
        let result = if ext == "svg" {
            draw(SVGBackend::new(tmp, size).into_drawing_area(), items)
        } else {
            draw(BitMapBackend::new(tmp, size).into_drawing_area(), items)
        };
        result.map_err(|e| anyhow::anyhow!("drawing {}: {e}", path.display()))
    })
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    items: &[Named],
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let lo = items.iter().map(|i| i.dist.min_value()).min().unwrap_or(0);
    let hi = items.iter().map(|i| i.dist.max_value()).max().unwrap_or(0);
    let peak = items
        .iter()
        .flat_map(|i| i.dist.iter().map(|(_, p)| p))
        .fold(0.0, f64::max);
    let title = items
        .iter()
        .map(|i| i.expression)
        .collect::<Vec<_>>()
        .join("  vs  ");
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(lo as f64 - 0.5..hi as f64 + 0.5, 0f64..peak * 1.15)?;
    chart
        .configure_mesh()
        .x_desc("outcome")
        .y_desc("probability")
        .label_style(("sans-serif", 14))
        .draw()?;
    for (k, item) in items.iter().enumerate() {
        let colour = super::charts::colour(k);
        let pts: Vec<(f64, f64)> = item.dist.iter().map(|(v, p)| (v as f64, p)).collect();
        if items.len() == 1 {
            chart
                .draw_series(pts.iter().map(|&(x, p)| {
                    Rectangle::new([(x - 0.4, 0.0), (x + 0.4, p)], colour.filled())
                }))?;
        } else {
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(3)))?
                .label(item.expression)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
                });
            chart.draw_series(
                pts.iter()
                    .map(|&(x, p)| Circle::new((x, p), 3, colour.filled())),
            )?;
        }
    }
    if items.len() > 1 {
        super::charts::draw_legend(&mut chart)?;
    }
    root.present()?;
    Ok(())
}
