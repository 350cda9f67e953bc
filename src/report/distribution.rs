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
    /// Whether it is a comparison (a probability, not a distribution).
    pub comparison: bool,
    /// How many equally likely rolls lie behind it, where known (for the
    /// probability as a fraction).
    pub rolls: Option<u128>,
}

/// Outcomes in a tail whose probability together is below this are folded
/// into one note rather than printed a line each.
pub const TAIL_FOLD: f64 = 1e-12;

impl Named<'_> {
    /// P(value = 1) of a comparison.
    pub fn probability(&self) -> f64 {
        self.dist.pmf(1)
    }

    /// The probability as a reduced fraction of the equally likely rolls
    /// (`7/12`), where there are few enough rolls for the float to tell
    /// the numerator exactly.
    pub fn fraction(&self) -> Option<(u128, u128)> {
        let rolls = self.rolls?;
        // f64 rounding of p * rolls stays far below 0.5 up to here
        if rolls > 10_000_000_000 {
            return None;
        }
        let scaled = self.probability() * rolls as f64;
        let whole = scaled.round();
        if (scaled - whole).abs() > 1e-3 || whole < 0.0 {
            return None;
        }
        let whole = whole as u128;
        let g = gcd(whole, rolls);
        Some((whole / g, rolls / g))
    }

    /// `P = 58.33% (7/12)`.
    pub fn probability_text(&self) -> String {
        let p = self.probability();
        let shown = if p == 0.0 || p == 1.0 || (1e-4..=1.0 - 1e-4).contains(&p) {
            super::labels::percent(p, 2)
        } else {
            format!("{p:.3e}")
        };
        match self.fraction() {
            Some((n, d)) if d > 1 => format!("P = {shown} ({n}/{d})"),
            _ => format!("P = {shown}"),
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// A probability in a table cell, as a percentage people read: four
/// decimals (the six of the probability), or three significant digits
/// where those would show nothing.
fn p_cell(p: f64) -> String {
    let x = p * 100.0;
    if p != 0.0 && p < 5e-7 {
        format!("{x:.3e}%")
    } else {
        format!("{x:.4}%")
    }
}

/// P(<= v) and P(>= v) of one distribution, each summed from its own end
/// (so a far tail keeps its digits instead of reading `1 - 0.999...`).
struct Tails<'a> {
    dist: &'a Dist,
    at_most: Vec<f64>,
    at_least: Vec<f64>,
}

impl<'a> Tails<'a> {
    fn new(dist: &'a Dist) -> Self {
        let ps: Vec<f64> = (dist.min_value()..=dist.max_value())
            .map(|v| dist.pmf(v))
            .collect();
        let mut acc = 0.0;
        let at_most = ps
            .iter()
            .map(|p| {
                acc += p;
                acc.min(1.0)
            })
            .collect();
        acc = 0.0;
        let mut at_least: Vec<f64> = ps
            .iter()
            .rev()
            .map(|p| {
                acc += p;
                acc.min(1.0)
            })
            .collect();
        at_least.reverse();
        Tails {
            dist,
            at_most,
            at_least,
        }
    }

    /// P(X <= v).
    fn at_most(&self, v: i64) -> f64 {
        let i = v - self.dist.min_value();
        if i < 0 {
            0.0
        } else {
            self.at_most.get(i as usize).copied().unwrap_or(1.0)
        }
    }

    /// P(X >= v).
    fn at_least(&self, v: i64) -> f64 {
        let i = v - self.dist.min_value();
        if i < 0 {
            1.0
        } else {
            self.at_least.get(i as usize).copied().unwrap_or(0.0)
        }
    }
}

/// The outcomes worth a line: from the first whose P(<=) reaches
/// [`TAIL_FOLD`] in any of `tails` to the last whose P(>=) does, and a note
/// on what was folded on either side (empty when nothing was).
fn shown_range(tails: &[Tails]) -> (i64, i64, String) {
    let lo = tails.iter().map(|t| t.dist.min_value()).min().unwrap_or(0);
    let hi = tails.iter().map(|t| t.dist.max_value()).max().unwrap_or(0);
    let below = |v: i64| tails.iter().map(|t| t.at_most(v)).fold(0.0, f64::max);
    let above = |v: i64| tails.iter().map(|t| t.at_least(v)).fold(0.0, f64::max);
    let (mut from, mut to) = (lo, hi);
    while from < to && below(from) < TAIL_FOLD {
        from += 1;
    }
    while to > from && above(to) < TAIL_FOLD {
        to -= 1;
    }
    let mut notes = Vec::new();
    if from > lo {
        notes.push(format!(
            "the outcomes below {from} (together {:.1e})",
            below(from - 1)
        ));
    }
    if to < hi {
        notes.push(format!(
            "the outcomes above {to} (together {:.1e})",
            above(to + 1)
        ));
    }
    let note = if notes.is_empty() {
        String::new()
    } else {
        format!(
            "left out, as each tail is below {TAIL_FOLD:.0e}: {}\n",
            notes.join("; ")
        )
    };
    (from, to, note)
}

/// The terminal text: a comparison in one line (`2d6<=7  P = 58.33% (7/12)`);
/// a distribution as its mean and sd, then a table of outcome, P(=), P(>=),
/// P(<=) and a bar for one expression, or P(=) side by side (headed by the
/// expressions) for several. Tails below [`TAIL_FOLD`] are folded into a note.
pub fn text(items: &[Named]) -> String {
    let mut out = String::new();
    let (comparisons, distributions): (Vec<&Named>, Vec<&Named>) =
        items.iter().partition(|i| i.comparison);
    let width = comparisons
        .iter()
        .map(|i| i.expression.chars().count())
        .max()
        .unwrap_or(0);
    for item in &comparisons {
        let _ = writeln!(
            out,
            "{:<width$}  {}   (read as {})",
            item.expression,
            item.probability_text(),
            item.reading
        );
    }
    if distributions.is_empty() {
        return out;
    }
    if !comparisons.is_empty() {
        out.push('\n');
    }
    for item in &distributions {
        let _ = writeln!(
            out,
            "{}  (read as: {})\n  mean {:.6}  sd {:.6}",
            item.expression,
            item.reading,
            item.dist.mean(),
            item.dist.variance().sqrt()
        );
    }
    let dists: Vec<&Dist> = distributions.iter().map(|i| i.dist).collect();
    let tails: Vec<Tails> = dists.iter().map(|d| Tails::new(d)).collect();
    let (from, to, note) = shown_range(&tails);
    let peak = dists
        .iter()
        .flat_map(|d| d.iter().map(|(_, p)| p))
        .fold(0.0, f64::max);
    out.push('\n');
    if let [one] = tails.as_slice() {
        let _ = writeln!(
            out,
            "{:>8}  {:>10}  {:>10}  {:>10}",
            "outcome", "P(=)", "P(>=)", "P(<=)"
        );
        for v in from..=to {
            let p = one.dist.pmf(v);
            if p == 0.0 {
                continue;
            }
            let _ = writeln!(
                out,
                "{v:>8}  {:>10}  {:>10}  {:>10}  {}",
                p_cell(p),
                p_cell(one.at_least(v)),
                p_cell(one.at_most(v)),
                bar(p, peak)
            );
        }
    } else {
        let widths: Vec<usize> = distributions
            .iter()
            .map(|i| i.expression.chars().count().max(10))
            .collect();
        let _ = write!(out, "{:>8}", "outcome");
        for (item, w) in distributions.iter().zip(&widths) {
            let _ = write!(out, "  {:>w$}", item.expression);
        }
        out.push('\n');
        for v in from..=to {
            if dists.iter().all(|d| d.pmf(v) == 0.0) {
                continue;
            }
            let _ = write!(out, "{v:>8}");
            for (d, w) in dists.iter().zip(&widths) {
                let _ = write!(out, "  {:>w$}", p_cell(d.pmf(v)));
            }
            out.push('\n');
        }
        out.push_str("each column is P(=) of its expression\n");
    }
    out.push_str(&note);
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
/// outcomes ascending, and for a comparison `"probability": p` and, where
/// known, `"fraction": "7/12"`; an array of those for several expressions.
pub fn json(items: &[Named]) -> String {
    let objects: Vec<serde_json::Value> = items
        .iter()
        .map(|i| {
            let mut object = serde_json::json!({
                "expression": i.expression,
                "outcomes": i.dist.iter().map(|(v, p)| serde_json::json!({"value": v, "p": p})).collect::<Vec<_>>(),
                "mean": i.dist.mean(),
                "sd": i.dist.variance().sqrt(),
            });
            if i.comparison {
                object["probability"] = i.probability().into();
                if let Some((n, d)) = i.fraction() {
                    object["fraction"] = format!("{n}/{d}").into();
                }
            }
            object
        })
        .collect();
    let value = match <[serde_json::Value; 1]>::try_from(objects) {
        Ok([one]) => one,
        Err(many) => serde_json::Value::Array(many),
    };
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// `prob --format csv`: long form, one row per expression and outcome
/// with a probability above zero, outcomes ascending: `expression, value,
/// p, p_at_least, p_at_most` (each tail summed from its own end), written
/// as `data.csv` is (see [`super::csv`]); a comparison's rows are its
/// outcomes 0 (false) and 1 (true).
pub fn csv(items: &[Named]) -> String {
    use super::csv::{CsvText, Field};
    let mut out = CsvText::with_header(["expression", "value", "p", "p_at_least", "p_at_most"]);
    for item in items {
        let tails = Tails::new(item.dist);
        for (v, p) in item.dist.iter() {
            if p == 0.0 {
                continue;
            }
            let value = v.to_string();
            out.row([
                Field::Text(item.expression),
                Field::Number(&value),
                Field::Float(p),
                Field::Float(tails.at_least(v)),
                Field::Float(tails.at_most(v)),
            ]);
        }
    }
    String::from_utf8_lossy(&out.into_bytes()).into_owned()
}

/// The chart file's kind (`svg` or `png`, from its extension), or an
/// error naming the file; `prob` calls it before printing anything.
pub fn check_chart_path(path: &Path) -> anyhow::Result<String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    anyhow::ensure!(
        ext == "svg" || ext == "png",
        "--chart {}: the chart file must end in .svg or .png",
        path.display()
    );
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        anyhow::ensure!(
            dir.is_dir(),
            "--chart {}: there is no folder {}",
            path.display(),
            dir.display()
        );
    }
    Ok(ext)
}

/// Draws the distributions (bars for one, lines for several) to an `.svg`
/// or `.png` file, written atomically.
pub fn write_chart(path: &Path, items: &[Named]) -> anyhow::Result<()> {
    let ext = check_chart_path(path)?;
    super::charts::register_fonts();
    let size = (960, 600);
    super::files::write_via(path, |tmp| {
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
    let mut lo = items.iter().map(|i| i.dist.min_value()).min().unwrap_or(0);
    let mut hi = items.iter().map(|i| i.dist.max_value()).max().unwrap_or(0);
    let peak = items
        .iter()
        .flat_map(|i| i.dist.iter().map(|(_, p)| p))
        .fold(0.0, f64::max);
    // outcomes under a thousandth of the peak are below a pixel: the axis
    // spans the outcomes that show (100d6: about 290 to 410, not 100 to 600)
    let shows = |v: i64| items.iter().any(|i| i.dist.pmf(v) >= peak * 1e-3);
    while lo < hi && !shows(lo) {
        lo += 1;
    }
    while hi > lo && !shows(hi) {
        hi -= 1;
    }
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
        // outcomes are whole numbers: no "4.0", and no ticks between them
        .x_label_formatter(&|v| {
            if (v - v.round()).abs() < 1e-9 {
                format!("{:.0}", v.round())
            } else {
                String::new()
            }
        })
        .y_desc("probability, %")
        .y_label_formatter(&|v| super::charts::frame::y_tick(true, *v))
        .label_style(("sans-serif", 14))
        .draw()?;
    let mut occupied = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let colour = super::charts::palette::colour(k);
        let pts: Vec<(f64, f64)> = item
            .dist
            .iter()
            .filter(|&(v, _)| (lo..=hi).contains(&v))
            .map(|(v, p)| (v as f64, p))
            .collect();
        occupied.extend(super::charts::legend::along(&pts));
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
        let labels: Vec<String> = items.iter().map(|i| i.expression.to_string()).collect();
        super::charts::legend::draw_legend(&mut chart, &labels, &occupied)?;
    }
    root.present()?;
    Ok(())
}
