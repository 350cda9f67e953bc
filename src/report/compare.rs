//! Outputs of `krunch compare`: a plain-language summary, Markdown and
//! MediaWiki tables, CSV, and a before/after chart.

use super::csv::{CsvText, Field};
use super::labels::{cell_text, change_text, is_probability, metric_label, signed, value_text};
use super::write_atomic;
use crate::experiment::Experiment;
use crate::experiment::compare::{Change, Sides};
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

fn cell_label(exp: &Experiment, c: &Change) -> String {
    cell_text(exp, &c.cell)
}

/// A relative change (`−50.0%`), or a dash where there is none.
fn pct(x: Option<f64>) -> String {
    x.map_or("—".into(), |r| format!("{}%", signed(r * 100.0, 1)))
}

/// The interval on a change, in the change's own units.
fn change_interval(exp: &Experiment, c: &Change) -> String {
    if is_probability(exp, &c.metric) {
        format!(
            "{} to {} points",
            signed(c.ci_low * 100.0, 1),
            signed(c.ci_high * 100.0, 1)
        )
    } else {
        format!("{} to {}", signed(c.ci_low, 3), signed(c.ci_high, 3))
    }
}

fn verdict(c: &Change) -> String {
    match (c.exact, c.significant, c.p_value) {
        (true, true, _) => "yes (exact)".into(),
        (true, false, _) => "no change (exact)".into(),
        (false, s, Some(p)) => format!("{} ({})", if s { "yes" } else { "no" }, p_text(p)),
        (false, s, None) => if s { "yes" } else { "no" }.into(),
    }
}

/// A p-value as a phrase: `p = 3.1e-4`, or `p < 1e-12`.
pub(super) fn p_text(p: f64) -> String {
    if p < 1e-12 {
        "p < 1e-12".into()
    } else {
        format!("p = {p:.2e}")
    }
}

/// How many significant changes the summary lists.
const LISTED: usize = 8;

/// The largest significant changes, in words; the first line names the
/// change and says where the changes it leaves out are (the files beside
/// it; `krunch compare` names their folder on stderr).
pub fn summary(exp: &Experiment, changes: &[Change], sides: &Sides) -> String {
    let mut sig: Vec<&Change> = changes.iter().filter(|c| c.significant).collect();
    sig.sort_by(|a, b| b.diff.abs().total_cmp(&a.diff.abs()));
    let mut out = String::new();
    let files = "report.html, compare.md, compare.wiki and compare.csv";
    let rest = match sig.len() {
        0 => format!("; every result in {files}"),
        n if n <= LISTED => format!(", listed below; every result in {files}"),
        n => format!(
            "; the {LISTED} largest below, the other {} (and the {} that do not change) in {files}",
            n - LISTED,
            changes.len() - n
        ),
    };
    let _ = writeln!(
        out,
        "{}: {} of {} results change significantly{rest}.",
        sides.change,
        sig.len(),
        changes.len(),
    );
    for c in sig.iter().take(LISTED) {
        let _ = writeln!(
            out,
            "- {} for {}{}: {} → {} ({}, {} relative){}",
            metric_label(exp, &c.metric),
            c.profile,
            if c.cell.is_empty() {
                String::new()
            } else {
                format!(" at {}", cell_label(exp, c))
            },
            value_text(exp, &c.metric, c.before),
            value_text(exp, &c.metric, c.after),
            change_text(exp, &c.metric, c.diff),
            pct(c.relative),
            if c.exact {
                ", exact".to_string()
            } else {
                format!(", {}", p_text(c.p_value.unwrap_or(1.0)))
            }
        );
    }
    out
}

fn header(exp: &Experiment, sides: &Sides) -> Vec<String> {
    let mut h = vec!["profile".to_string()];
    h.extend(exp.axes.iter().map(|a| a.name.clone()));
    h.extend([
        "metric".to_string(),
        format!("before ({})", sides.before),
        format!("after ({})", sides.after),
    ]);
    h.extend(
        [
            "change",
            "relative change",
            "interval on the change",
            "significant",
        ]
        .iter()
        .map(ToString::to_string),
    );
    h
}

fn cells(exp: &Experiment, c: &Change) -> Vec<String> {
    let mut r = vec![c.profile.clone()];
    r.extend(c.cell.iter().map(ToString::to_string));
    r.extend([
        metric_label(exp, &c.metric),
        value_text(exp, &c.metric, c.before),
        value_text(exp, &c.metric, c.after),
        change_text(exp, &c.metric, c.diff),
        pct(c.relative),
        if c.exact {
            "exact".into()
        } else {
            change_interval(exp, c)
        },
        verdict(c),
    ]);
    r
}

/// A Markdown table of every change.
pub fn markdown(exp: &Experiment, changes: &[Change], sides: &Sides) -> String {
    let md = |row: Vec<String>| -> Vec<String> {
        row.iter()
            .map(|t| super::escape::markdown(t).into_owned())
            .collect()
    };
    let h = md(header(exp, sides));
    let mut out = format!("| {} |\n|{}\n", h.join(" | "), "---|".repeat(h.len()));
    for c in changes {
        let _ = writeln!(out, "| {} |", md(cells(exp, c)).join(" | "));
    }
    out
}

/// A MediaWiki table (`{| class="wikitable sortable"`) an editor can paste.
pub fn mediawiki(exp: &Experiment, changes: &[Change], sides: &Sides) -> String {
    let mut out = String::from("{| class=\"wikitable sortable\"\n");
    use super::escape::wiki;
    let _ = writeln!(out, "|+ {}: {}", wiki(&exp.title), wiki(&sides.change));
    for h in header(exp, sides) {
        let _ = writeln!(out, "! {}", wiki(&h));
    }
    for c in changes {
        out.push_str("|-\n");
        let row: Vec<String> = cells(exp, c).iter().map(|t| wiki(t).into_owned()).collect();
        let _ = writeln!(out, "| {}", row.join(" || "));
    }
    out.push_str("|}\n");
    out
}

fn csv(exp: &Experiment, changes: &[Change]) -> anyhow::Result<Vec<u8>> {
    let mut header = vec!["profile"];
    header.extend(exp.axes.iter().map(|a| a.name.as_str()));
    header.extend([
        "metric",
        "before",
        "after",
        "diff",
        "relative",
        "diff_ci_low",
        "diff_ci_high",
        "p_value",
        "significant",
        "exact",
        "trials",
    ]);
    let mut out = CsvText::with_header(header);
    for c in changes {
        let cell: Vec<String> = c.cell.iter().map(ToString::to_string).collect();
        let mut fields = vec![Field::Text(&c.profile)];
        fields.extend(cell.iter().map(|v| Field::Text(v)));
        fields.extend([
            Field::Text(&c.metric),
            Field::Float(c.before),
            Field::Float(c.after),
            Field::Float(c.diff),
            c.relative.into(),
            Field::Float(c.ci_low),
            Field::Float(c.ci_high),
            c.p_value.into(),
            Field::Bool(c.significant),
            Field::Bool(c.exact),
            Field::Int(c.trials),
        ]);
        out.row(fields);
    }
    Ok(out.into_bytes())
}

/// Writes `compare.csv`, `compare.md`, `compare.wiki`, and a chart for the
/// metric that changed most, into `dir`; returns the summary text.
pub fn write_compare(
    dir: &Path,
    before: &Experiment,
    changes: &[Change],
    sides: &Sides,
) -> anyhow::Result<String> {
    let text = summary(before, changes, sides);
    // all five files are staged together and replace the folder in one step
    super::write_folder(dir, |dir| {
        write_atomic(&dir.join("compare.csv"), &csv(before, changes)?)?;
        let md = format!(
            "# {}: {}\n\n{}\nSeed {}; paired trials on common random numbers; significance: exact values differ, or p below the chosen level.\n\n![chart](compare.svg)\n\n{}",
            super::escape::markdown(&before.title),
            super::escape::markdown(&sides.change),
            text.lines()
                .map(|l| format!("{}\n", super::escape::markdown(l)))
                .collect::<String>(),
            before.seed,
            markdown(before, changes, sides)
        );
        write_atomic(&dir.join("compare.md"), md.as_bytes())?;
        write_atomic(
            &dir.join("compare.wiki"),
            mediawiki(before, changes, sides).as_bytes(),
        )?;
        let metric = chart_metric(before, changes);
        let mut svg = String::new();
        if let Some(metric) = &metric {
            super::register_fonts();
            draw(
                SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area(),
                before,
                changes,
                metric,
                sides,
            )
            .map_err(|e| anyhow::anyhow!("drawing compare.svg: {e}"))?;
            write_atomic(&dir.join("compare.svg"), svg.as_bytes())?;
            let path = dir.join("compare.png");
            super::write_via(&path, |tmp| {
                draw(
                    BitMapBackend::new(tmp, (960, 600)).into_drawing_area(),
                    before,
                    changes,
                    metric,
                    sides,
                )
                .map_err(|e| anyhow::anyhow!("drawing {}: {e}", path.display()))
            })?;
        }
        write_atomic(
            &dir.join("report.html"),
            html(before, changes, sides, &text, &svg).as_bytes(),
        )?;
        Ok(())
    })?;
    Ok(text)
}

/// The metric compare's chart draws: the one that moves most (the spec's
/// earlier metric on a tie); where nothing moves, the spec's first charted
/// metric, so the picture still shows what the spec is about.
fn chart_metric(exp: &Experiment, changes: &[Change]) -> Option<String> {
    let order = |m: &str| {
        exp.metrics
            .iter()
            .position(|x| x == m)
            .unwrap_or(usize::MAX)
    };
    let moved = changes
        .iter()
        .filter(|c| c.diff.abs() > 1e-12)
        .min_by(|a, b| {
            b.diff
                .abs()
                .total_cmp(&a.diff.abs())
                .then(order(&a.metric).cmp(&order(&b.metric)))
        });
    if let Some(c) = moved {
        return Some(c.metric.clone());
    }
    let charted = exp.charts.iter().map(|c| c.metric().to_string());
    charted
        .chain(exp.metrics.iter().cloned())
        .find(|m| changes.iter().any(|c| &c.metric == m))
}

/// compare's `report.html`: the summary, the chart inline and every change
/// in a sortable table.
fn html(exp: &Experiment, changes: &[Change], sides: &Sides, summary: &str, svg: &str) -> String {
    use super::html::{escape, figure, page, table};
    let title = format!("{}: {}", exp.title, sides.change);
    let mut body = format!("<h1>{}</h1>\n", escape(&title));
    let prov = super::Provenance::of(exp);
    let _ = writeln!(
        body,
        "<p class=\"prov\">Before: {}; after: {}. Seed {}; paired trials on common random numbers; significance: exact values differ, or p below the chosen level. krunch {}; spec <code>{}</code> (SHA-256 <code>{}</code>).</p>",
        escape(&sides.before),
        escape(&sides.after),
        prov.seed,
        prov.version,
        escape(&exp.file.display().to_string()),
        prov.spec_hash
    );
    let mut lines = summary.lines();
    if let Some(first) = lines.next() {
        let _ = writeln!(body, "<p>{}</p>", escape(first));
    }
    let items: Vec<String> = lines
        .filter_map(|l| l.strip_prefix("- "))
        .map(|l| format!("<li>{}</li>", escape(l)))
        .collect();
    if !items.is_empty() {
        let _ = writeln!(body, "<ul>{}</ul>", items.join(""));
    }
    if !svg.is_empty() {
        body.push_str(&figure(
            svg,
            "the metric that changed most, before and after",
        ));
    }
    let header = header(exp, sides);
    let rows: Vec<Vec<(String, Option<f64>)>> = changes
        .iter()
        .map(|c| {
            let texts = cells(exp, c);
            let n = texts.len();
            texts
                .into_iter()
                .enumerate()
                .map(|(i, t)| {
                    // the numbers behind before, after, change and relative change
                    let v = match n - i {
                        6 => Some(c.before),
                        5 => Some(c.after),
                        4 => Some(c.diff),
                        3 => c.relative,
                        _ => t.parse::<f64>().ok(),
                    };
                    (t, v)
                })
                .collect()
        })
        .collect();
    body.push_str("<h2>Every change</h2>\n");
    body.push_str(&table(&header, &rows));
    page(&title, &body)
}

/// Compare's chart of `metric`: before and after for every cell, a panel
/// per profile (see [`super::charts::draw_pairs`]).
fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    exp: &Experiment,
    changes: &[Change],
    metric: &str,
    sides: &Sides,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let pairs: Vec<super::charts::Pair> = changes
        .iter()
        .filter(|c| c.metric == metric)
        .map(|c| super::charts::Pair {
            profile: c.profile.clone(),
            cell: c.cell_index,
            before: c.before,
            after: c.after,
        })
        .collect();
    let trials = changes.first().map_or(exp.trials, |c| c.trials);
    let what = format!(
        "paired trials on common random numbers ({trials} a cell); exact values where both sides have them"
    );
    super::charts::draw_pairs(
        &root,
        exp,
        metric,
        &sides.change,
        &pairs,
        [
            format!("before: {}", sides.before),
            format!("after: {}", sides.after),
        ],
        &what,
    )?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(metric: &str, diff: f64) -> Change {
        Change {
            profile: "p".into(),
            cell_index: 0,
            cell: Vec::new(),
            metric: metric.into(),
            before: 0.5,
            after: 0.5 + diff,
            diff,
            relative: None,
            ci_low: diff,
            ci_high: diff,
            p_value: None,
            significant: diff != 0.0,
            exact: true,
            trials: 1,
        }
    }

    #[test]
    fn the_chart_shows_what_moved_most_else_what_the_spec_charts() {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("experiments/shoota_vs_kannon.toml");
        let exp = crate::experiment::load(&path).unwrap();
        let first_charted = exp.charts[0].metric().to_string();
        let all: Vec<Change> = exp.metrics.iter().map(|m| change(m, 0.0)).collect();
        // nothing moves: the spec's first chart, not whichever came last
        assert_eq!(chart_metric(&exp, &all), Some(first_charted));
        // something moves: the largest move; on a tie the spec's earlier metric
        let mut moved = all.clone();
        let (a, b) = (exp.metrics[1].clone(), exp.metrics[2].clone());
        for c in &mut moved {
            if c.metric == a || c.metric == b {
                c.diff = -0.25;
            }
        }
        assert_eq!(chart_metric(&exp, &moved), Some(a.clone()));
        // the tie goes to the spec's earlier metric, whatever order the changes come in
        moved.reverse();
        assert_eq!(chart_metric(&exp, &moved), Some(a));
    }
}
