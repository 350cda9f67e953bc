//! Outputs of `krunch compare`: a plain-language summary, Markdown and
//! MediaWiki tables, CSV, and a before/after chart.

use super::csv::{CsvText, Field};
use super::files::write_atomic;
use super::labels::{cell_text, change_text, is_probability, metric_label, signed, value_text};
use crate::experiment::compare::{Change, Sides};
use crate::experiment::{Experiment, Input, Source};
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

/// How a comparison was run and which of its rows to show: what the
/// words around its tables say (the test and its level) and what
/// `--changed-only` and `--metric` keep.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// The significance level of each Monte Carlo test (`--alpha`).
    pub alpha: f64,
    /// Every change judged by the paired test, exact values ignored.
    pub monte_carlo_only: bool,
    /// Tables keep only the rows that change significantly.
    pub changed_only: bool,
}

/// What each side runs on where the two differ: each rule variant with
/// its values and what it means, and each parameter (a `--variant` stat
/// override, or a value a second spec sets otherwise) with its values per
/// profile and what it is. One line each.
pub fn rules_described(before: &Experiment, after: &Experiment) -> Vec<String> {
    let rules = crate::systems::rule_set(&before.system).ok();
    let mut out = Vec::new();
    let joined = |mut v: Vec<String>| {
        v.sort();
        v.dedup();
        v.join(" / ")
    };
    for (name, _) in &before.variants {
        let value = |e: &Experiment, p: usize| {
            e.profile_variants
                .get(p)
                .unwrap_or(&e.variants)
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let moved: Vec<usize> = (0..before.profiles.len().max(1))
            .filter(|&p| value(before, p) != value(after, p))
            .collect();
        if moved.is_empty() {
            continue;
        }
        let was = joined(moved.iter().map(|&p| value(before, p)).collect());
        let is = joined(moved.iter().map(|&p| value(after, p)).collect());
        let about = rules
            .and_then(|r| r.variants.iter().find(|v| v.name == name))
            .map_or("", |v| v.about);
        out.push(format!(
            "rule variant {name}: before {was}; after {is}{}",
            if about.is_empty() {
                String::new()
            } else {
                format!(" ({about})")
            }
        ));
    }
    let decls = rules
        .and_then(|r| r.scenario(&before.scenario).ok())
        .map(|sc| (sc.params)())
        .unwrap_or_default();
    let mut names: Vec<&str> = before
        .inputs
        .iter()
        .chain(&after.inputs)
        .flatten()
        .map(|i| i.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        fn find<'e>(e: &'e Experiment, p: usize, name: &str) -> Option<&'e Input> {
            e.inputs
                .get(p)
                .and_then(|list| list.iter().find(|i| i.name == name))
        }
        let text = |i: Option<&Input>| match i {
            None => "not set".to_string(),
            Some(i) if i.source == Source::Profile => super::inputs::value_of(i),
            Some(i) => format!(
                "{} ({})",
                super::inputs::value_of(i),
                super::inputs::source_text(&i.source)
            ),
        };
        let moved: Vec<usize> = (0..before.profiles.len())
            .filter(|&p| {
                find(before, p, name).map(|i| &i.value) != find(after, p, name).map(|i| &i.value)
            })
            .collect();
        if moved.is_empty() {
            continue;
        }
        // one value for all the profiles it changes in, else each named
        let side = |e: &Experiment| {
            let each: Vec<String> = moved.iter().map(|&p| text(find(e, p, name))).collect();
            if each.iter().all(|t| *t == each[0]) {
                each[0].clone()
            } else {
                moved
                    .iter()
                    .zip(&each)
                    .map(|(&p, t)| format!("{t} for '{}'", before.profiles[p]))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let (was, is) = (side(before), side(after));
        let about = decls
            .iter()
            .find(|d| d.name == name)
            .map_or(String::new(), |d| format!(" ({})", d.about));
        let only = if moved.len() < before.profiles.len() {
            let names: Vec<String> = moved
                .iter()
                .map(|&p| format!("'{}'", before.profiles[p]))
                .collect();
            format!(" in {}", names.join(", "))
        } else {
            String::new()
        };
        out.push(format!("{name}{only}: before {was}; after {is}{about}"));
    }
    out
}

/// What "significant" means in this comparison, and the seed, trials and
/// version behind it: one paragraph.
pub fn method_text(exp: &Experiment, changes: &[Change], options: &CompareOptions) -> String {
    let trials = changes.first().map_or(exp.trials, |c| c.trials);
    let exact = if options.monte_carlo_only {
        "exact values are ignored (--monte-carlo): every change".to_string()
    } else {
        "where both sides have exact values, a change is significant when they differ (by more than 1e-12); elsewhere it".to_string()
    };
    format!(
        "{exact} is judged by a two-sided paired test of the trial-by-trial differences on common random numbers (McNemar's test, in its normal form, for a probability; a paired z test for a mean), significant where p is below {} (--alpha), each of the {} results on its own, with no correction for testing many. Seed {}; {trials} paired trials per cell and profile; krunch {}; spec {} (SHA-256 {}).",
        options.alpha,
        changes.len(),
        exp.seed,
        env!("CARGO_PKG_VERSION"),
        exp.file.display(),
        exp.spec_hash
    )
}

/// The sentence a comparison where nothing moves carries, or None.
pub fn nothing_text(changes: &[Change]) -> Option<String> {
    let sig = changes.iter().filter(|c| c.significant).count();
    if sig > 0 {
        return None;
    }
    let moved = changes.iter().filter(|c| c.diff.abs() > 1e-12).count();
    Some(if moved == 0 {
        format!(
            "Nothing changes: all {} results are the same on both sides.",
            changes.len()
        )
    } else {
        format!(
            "Nothing changes significantly: none of the {} results moves beyond chance ({moved} differ by less than the test can tell from noise).",
            changes.len()
        )
    })
}

/// The rows a table shows: all, or with `changed_only` the significant ones.
pub fn shown(changes: &[Change], options: &CompareOptions) -> Vec<Change> {
    changes
        .iter()
        .filter(|c| !options.changed_only || c.significant)
        .cloned()
        .collect()
}

/// What `krunch compare` prints by default: the [`summary`], then what
/// differs between the sides and what "significant" means.
pub fn summary_document(
    before: &Experiment,
    after: &Experiment,
    changes: &[Change],
    sides: &Sides,
    options: &CompareOptions,
) -> String {
    let mut out = summary(before, changes, sides);
    let pre = preamble(before, after, changes, options);
    // the nothing-changes sentence repeats the summary's count: left out
    let nothing = nothing_text(changes);
    for line in pre.iter().filter(|l| Some(*l) != nothing.as_ref()) {
        if !options.changed_only || !line.starts_with("The table shows only") {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// The lines above a comparison's table, plain text: what each side runs
/// on, what nothing changing means, the method; then what the table
/// leaves out.
fn preamble(
    before: &Experiment,
    after: &Experiment,
    changes: &[Change],
    options: &CompareOptions,
) -> Vec<String> {
    let mut out = Vec::new();
    let rules = rules_described(before, after);
    if rules.is_empty() {
        out.push("The two sides run on the same rules and parameters.".to_string());
    } else {
        out.push("What differs between the sides:".to_string());
        out.extend(rules.into_iter().map(|r| format!("- {r}")));
    }
    if let Some(t) = nothing_text(changes) {
        out.push(t);
    }
    out.push(format!(
        "What \"significant\" means: {}",
        method_text(before, changes, options)
    ));
    if options.changed_only {
        let sig = changes.iter().filter(|c| c.significant).count();
        out.push(format!(
            "The table shows only the {sig} significant changes of {} results (--changed-only); every result is in compare.csv.",
            changes.len()
        ));
    }
    out
}

/// `--print markdown`: the preamble, then the table (or, when
/// `--changed-only` leaves no row, no table).
pub fn markdown_document(
    before: &Experiment,
    after: &Experiment,
    changes: &[Change],
    sides: &Sides,
    options: &CompareOptions,
) -> String {
    let mut out = String::new();
    for line in preamble(before, after, changes, options) {
        let line = super::escape::markdown(&line);
        if line.starts_with("- ") {
            let _ = writeln!(out, "{line}");
        } else {
            let _ = writeln!(out, "\n{line}\n");
        }
    }
    out = format!("{}\n", out.trim().replace("\n\n\n", "\n\n"));
    let rows = shown(changes, options);
    if !rows.is_empty() {
        out.push('\n');
        out.push_str(&markdown(before, &rows, sides));
    }
    out
}

/// `--print wiki` and `compare.wiki`: the preamble as wiki text, then the
/// table (or, when `--changed-only` leaves no row, no table).
pub fn mediawiki_document(
    before: &Experiment,
    after: &Experiment,
    changes: &[Change],
    sides: &Sides,
    options: &CompareOptions,
) -> String {
    let mut out = String::new();
    let mut in_list = false;
    for line in preamble(before, after, changes, options) {
        match line.strip_prefix("- ") {
            Some(item) => {
                let _ = writeln!(out, "* {}", super::escape::wiki(item));
                in_list = true;
            }
            None => {
                if in_list {
                    out.push('\n');
                    in_list = false;
                }
                let _ = writeln!(out, "{}\n", super::escape::wiki(&line));
            }
        }
    }
    let rows = shown(changes, options);
    if !rows.is_empty() {
        out.push_str(&mediawiki(before, &rows, sides));
    }
    out
}

/// Writes `compare.csv` (every result), `compare.md`, `compare.wiki` and
/// `report.html` (what differs, the method, and the rows `options` keep),
/// and a chart for the metric that changed most, into `dir`; returns the
/// summary text.
pub fn write_compare(
    dir: &Path,
    before: &Experiment,
    after: &Experiment,
    changes: &[Change],
    sides: &Sides,
    options: &CompareOptions,
) -> anyhow::Result<String> {
    let text = summary(before, changes, sides);
    // all five files are staged together and replace the folder in one step
    super::files::write_folder(dir, |dir| {
        write_atomic(&dir.join("compare.csv"), &csv(before, changes)?)?;
        let md = format!(
            "# {}: {}\n\n{}\n![chart](compare.svg)\n\n{}",
            super::escape::markdown(&before.title),
            super::escape::markdown(&sides.change),
            text.lines()
                .map(|l| format!("{}\n", super::escape::markdown(l)))
                .collect::<String>(),
            markdown_document(before, after, changes, sides, options)
        );
        write_atomic(&dir.join("compare.md"), md.as_bytes())?;
        write_atomic(
            &dir.join("compare.wiki"),
            mediawiki_document(before, after, changes, sides, options).as_bytes(),
        )?;
        let metric = chart_metric(before, changes);
        let mut svg = String::new();
        if let Some(metric) = &metric {
            super::charts::register_fonts();
            draw(
                SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area(),
                before,
                after,
                changes,
                metric,
                sides,
            )
            .map_err(|e| anyhow::anyhow!("drawing compare.svg: {e}"))?;
            write_atomic(&dir.join("compare.svg"), svg.as_bytes())?;
            let path = dir.join("compare.png");
            super::files::write_via(&path, |tmp| {
                draw(
                    BitMapBackend::new(tmp, (960, 600)).into_drawing_area(),
                    before,
                    after,
                    changes,
                    metric,
                    sides,
                )
                .map_err(|e| anyhow::anyhow!("drawing {}: {e}", path.display()))
            })?;
        }
        write_atomic(
            &dir.join("report.html"),
            html(before, after, changes, sides, options, &text, &svg).as_bytes(),
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
fn html(
    exp: &Experiment,
    after: &Experiment,
    changes: &[Change],
    sides: &Sides,
    options: &CompareOptions,
    summary: &str,
    svg: &str,
) -> String {
    use super::escape::html as escape;
    use super::html::{figure, page, table};
    let title = format!("{}: {}", exp.title, sides.change);
    let mut body = format!("<h1>{}</h1>\n", escape(&title));
    let _ = writeln!(
        body,
        "<p class=\"prov\">Before: {}; after: {}.</p>",
        escape(&sides.before),
        escape(&sides.after),
    );
    let mut items = Vec::new();
    for line in preamble(exp, after, changes, options) {
        match line.strip_prefix("- ") {
            Some(item) => items.push(format!("<li>{}</li>", escape(item))),
            None => {
                if !items.is_empty() {
                    let _ = writeln!(body, "<ul>{}</ul>", items.join(""));
                    items.clear();
                }
                let _ = writeln!(body, "<p>{}</p>", escape(&line));
            }
        }
    }
    if !items.is_empty() {
        let _ = writeln!(body, "<ul>{}</ul>", items.join(""));
    }
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
    let kept = shown(changes, options);
    let rows: Vec<Vec<(String, Option<f64>)>> = kept
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
    if options.changed_only {
        body.push_str("<h2>Every significant change</h2>\n");
    } else {
        body.push_str("<h2>Every change</h2>\n");
    }
    if !rows.is_empty() {
        body.push_str(&table(&header, &rows));
    }
    page(&title, &body)
}

/// Compare's chart of `metric`: before and after for every cell, a panel
/// per profile (see [`super::charts::pairs::draw_pairs`]).
fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    exp: &Experiment,
    after: &Experiment,
    changes: &[Change],
    metric: &str,
    sides: &Sides,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let pairs: Vec<super::charts::pairs::Pair> = changes
        .iter()
        .filter(|c| c.metric == metric)
        .map(|c| super::charts::pairs::Pair {
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
    super::charts::pairs::draw_pairs(
        &root,
        exp,
        metric,
        &sides.change,
        &pairs,
        [
            format!("before: {}", sides.before),
            format!("after: {}", sides.after),
        ],
        // what both sides hold fixed; the legend names their rules
        &super::inputs::chart_fixed_beside(
            exp,
            &(0..exp.profiles.len()).collect::<Vec<_>>(),
            false,
            Some(after),
        ),
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
