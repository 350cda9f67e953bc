//! `summary.md`: provenance, the Monte Carlo's check against the exact
//! values, and one wide table per metric (sweep cells down, profiles
//! across): the exact value as the headline where there is one, the Monte
//! Carlo estimate beside it as its check, else the estimate and its interval.

use super::files::write_atomic;
use super::labels::{metric_def, metric_label, value_text_fine};
use super::provenance::Provenance;
use crate::dice::stats;
use crate::experiment::{Experiment, Results, Row, at_least, quantiles};
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

/// Family-wise chance of flagging any agreeing cell in a report: a flag
/// means a real disagreement, not one of many cells straying by chance.
pub const FLAG_ALPHA: f64 = 1e-3;

/// Where a Monte Carlo estimate and the exact value disagree beyond chance.
pub struct Disagreement<'a> {
    /// The row.
    pub row: &'a Row,
    /// (estimate - exact) / standard error.
    pub z: f64,
}

/// How the estimates sit against the exact values.
pub struct McCheck<'a> {
    /// Rows with an exact value.
    pub exact_rows: usize,
    /// Of those, how many fall outside their printed interval.
    pub outside_interval: usize,
    /// The z beyond which a row is flagged (Bonferroni over `exact_rows`
    /// at [`FLAG_ALPHA`]).
    pub z_limit: f64,
    /// The largest |z| seen.
    pub largest: Option<Disagreement<'a>>,
    /// Rows beyond `z_limit`.
    pub flagged: Vec<Disagreement<'a>>,
}

/// The two-sided p-value of `row`'s estimate against its exact value (see
/// [`significance`](crate::experiment::significance)): an exact binomial
/// test for a probability; for a mean a z test whose variance is at least
/// the least a whole-valued variable with the exact mean can have, so an
/// estimate of exactly 0 or 1, or a rare event not seen, is not taken for
/// a disagreement.
pub fn p_value(exp: &Experiment, row: &Row) -> Option<f64> {
    use crate::experiment::significance;
    let exact = row.exact?;
    let n = row.trials.max(1);
    Some(if super::labels::is_probability(exp, &row.metric) {
        let k = (row.value * n as f64).round().max(0.0) as u64;
        significance::binomial_exact_p(k, n, exact)
    } else {
        // the sample variance, back from the interval's half-width
        let se = (row.ci_high - row.ci_low) / 2.0 / stats::z_for(exp.confidence);
        let var = se * se * n as f64;
        significance::mean_p(row.value, var, n, exact, 0.0)
    })
}

/// The z-score of `row`'s estimate against its exact value, if it has
/// one: the signed normal z its [`p_value`] stands for (finite, so a
/// certain event seen every time is z = 0, not -inf).
pub fn z_score(exp: &Experiment, row: &Row) -> Option<f64> {
    let p = p_value(exp, row)?;
    let d = row.value - row.exact?;
    Some(crate::experiment::significance::z_of(p, d))
}

/// Checks every estimate against its exact value.
pub fn mc_check<'a>(exp: &Experiment, results: &'a Results) -> McCheck<'a> {
    let scored: Vec<Disagreement> = results
        .rows
        .iter()
        .filter_map(|row| z_score(exp, row).map(|z| Disagreement { row, z }))
        .collect();
    let m = scored.len().max(1) as f64;
    let z_limit = stats::z_for(1.0 - FLAG_ALPHA / m);
    let outside_interval = scored
        .iter()
        .filter(|d| {
            let e = d.row.exact.unwrap_or(d.row.value);
            e < d.row.ci_low - 1e-12 || e > d.row.ci_high + 1e-12
        })
        .count();
    let largest = scored
        .iter()
        .max_by(|a, b| a.z.abs().total_cmp(&b.z.abs()))
        .map(|d| Disagreement { row: d.row, z: d.z });
    let exact_rows = scored.len();
    let flagged = scored.into_iter().filter(|d| d.z.abs() > z_limit).collect();
    McCheck {
        exact_rows,
        outside_interval,
        z_limit,
        largest,
        flagged,
    }
}

/// The sentence every report carries on why estimates stray together.
pub const SHARED_RANDOM_NUMBERS: &str = "Every cell and profile is simulated on the same random numbers (trial t of chunk c rolls the same dice everywhere), so the Monte Carlo errors of neighbouring cells move together: a run of estimates on the same side of the exact values, or more than 5% of exact values outside their 95% intervals, is expected and not a fault.";

/// Where a row is, in words: `Shoota at range 3, toughness 4`.
pub fn row_place(exp: &Experiment, row: &Row) -> String {
    let mut place = row.profile.clone();
    if !row.cell.is_empty() {
        let cell: Vec<String> = exp
            .axes
            .iter()
            .zip(&row.cell)
            .map(|(a, v)| format!("{} {v}", a.name))
            .collect();
        place = format!("{place} at {}", cell.join(", "));
    }
    place
}

/// The check in words, plain text: one paragraph.
pub fn check_paragraph(exp: &Experiment, check: &McCheck) -> String {
    if check.exact_rows == 0 {
        return format!(
            "No metric here has an exact value: every figure is a Monte Carlo estimate with its {:.0}% interval.",
            exp.confidence * 100.0
        );
    }
    let largest = check.largest.as_ref().map_or(String::new(), |d| {
        format!(
            " The largest gap is z = {:.1} ({} for {}).",
            d.z,
            metric_label(exp, &d.row.metric),
            row_place(exp, d.row)
        )
    });
    if check.flagged.is_empty() {
        format!(
            "All {} exact values agree with their Monte Carlo estimates: none is further than z = {:.1} from its estimate, the bound for {} values at a {FLAG_ALPHA} chance of a false alarm ({} lie outside their {:.0}% interval).{largest}",
            check.exact_rows,
            check.z_limit,
            check.exact_rows,
            check.outside_interval,
            exp.confidence * 100.0
        )
    } else {
        format!(
            "{} of {} exact values disagree with their Monte Carlo estimates beyond z = {:.1} (the bound for {} values at a {FLAG_ALPHA} chance of a false alarm): the model's exact evaluator and its sampler differ there, which is a bug to report.",
            check.flagged.len(),
            check.exact_rows,
            check.z_limit,
            check.exact_rows
        )
    }
}

/// The flagged rows as table cells: metric, where, exact, Monte Carlo, z.
pub fn flagged_cells(exp: &Experiment, check: &McCheck) -> Vec<[String; 5]> {
    check
        .flagged
        .iter()
        .map(|d| {
            let fmt = |v: f64| value_text_fine(exp, &d.row.metric, v);
            [
                metric_label(exp, &d.row.metric),
                row_place(exp, d.row),
                fmt(d.row.exact.unwrap_or(f64::NAN)),
                fmt(d.row.value),
                format!("{:.1}", d.z),
            ]
        })
        .collect()
}

/// The check in words (Markdown).
/// What has no exact value and why: one sentence per reason, naming the
/// first cell and profile it holds for (a designer who sees estimates
/// where exact values were expected learns it was the work budget, not a
/// fault). Empty when every model has its exact values.
pub fn no_exact_lines(exp: &Experiment, results: &Results) -> Vec<String> {
    let models = exp.models.len() * exp.profiles.len();
    let mut by_reason: Vec<(&str, Vec<(usize, &str)>)> = Vec::new();
    for (cell, profile, why) in &results.no_exact {
        match by_reason.iter_mut().find(|(w, _)| *w == why.as_str()) {
            Some((_, at)) => at.push((*cell, profile.as_str())),
            None => by_reason.push((why.as_str(), vec![(*cell, profile.as_str())])),
        }
    }
    let mut lines = Vec::new();
    for (why, at) in by_reason {
        let (cell, profile) = at[0];
        let cell = super::labels::cell_text(exp, &exp.cell_values(cell));
        let first = if cell.is_empty() {
            profile.to_string()
        } else {
            format!("{profile} at {cell}")
        };
        lines.push(format!(
            "No exact value for {} of {models} cells and profiles (first: {first}): {why}. Their figures are Monte Carlo estimates with intervals.",
            at.len()
        ));
    }
    lines
}

fn check_text(exp: &Experiment, check: &McCheck) -> String {
    let mut out = String::new();
    let paragraph = super::escape::markdown(&check_paragraph(exp, check)).into_owned();
    if check.flagged.is_empty() {
        let _ = writeln!(out, "{paragraph}\n");
    } else {
        let _ = writeln!(out, "**{paragraph}**\n");
        let _ = writeln!(
            out,
            "| metric | where | exact | Monte Carlo | z |\n|---|---|---:|---:|---:|"
        );
        for cells in flagged_cells(exp, check) {
            let cells: Vec<String> = cells
                .iter()
                .map(|c| super::escape::markdown(c).into_owned())
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    if check.exact_rows > 0 {
        let _ = writeln!(out, "{SHARED_RANDOM_NUMBERS}\n");
    }
    out
}

/// The text of one table cell of `metric`: the exact value with the
/// estimate beside it (and a z where they disagree), or the estimate and
/// its interval.
pub fn cell_text(exp: &Experiment, metric: &str, r: &Row, flagged: bool) -> String {
    let fmt = |v: f64| value_text_fine(exp, metric, v);
    match r.exact {
        Some(e) => {
            let flag = if flagged {
                format!(" ⚠ z = {:.1}", z_score(exp, r).unwrap_or(0.0))
            } else {
                String::new()
            };
            format!("{} (MC {}){flag}", fmt(e), fmt(r.value))
        }
        None => format!("{} ({} – {})", fmt(r.value), fmt(r.ci_low), fmt(r.ci_high)),
    }
}

/// One wide table of `metric`: a row per sweep cell, a column per profile.
fn metric_table(
    exp: &Experiment,
    metric: &str,
    rows: &HashMap<(&str, usize, &str), &Row>,
    flagged: &[&Row],
) -> String {
    let mut out = String::new();
    cells_by_profile(exp, &mut out, |p, cell| {
        match rows.get(&(p, cell, metric)) {
            None => "—".to_string(),
            Some(r) => cell_text(exp, metric, r, flagged.iter().any(|f| std::ptr::eq(*f, *r))),
        }
    });
    out
}

/// A Markdown table of every sweep cell (its axis values down, "all" where
/// nothing is swept) by profile (across), each entry `entry(profile, cell)`.
fn cells_by_profile(exp: &Experiment, out: &mut String, entry: impl Fn(&str, usize) -> String) {
    let esc = |t: &str| super::escape::markdown(t).into_owned();
    let mut header = String::from("|");
    let mut rule = String::from("|");
    if exp.axes.is_empty() {
        header.push_str(" |");
        rule.push_str("---|");
    }
    for a in &exp.axes {
        let _ = write!(header, " {} |", esc(&a.name));
        rule.push_str("---:|");
    }
    for p in &exp.profiles {
        let _ = write!(header, " {} |", esc(p));
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for cell in 0..exp.models.len() {
        let mut line = String::from("|");
        if exp.axes.is_empty() {
            line.push_str(" all |");
        }
        for v in exp.cell_values(cell) {
            let _ = write!(line, " {} |", esc(&v.to_string()));
        }
        for p in &exp.profiles {
            let _ = write!(line, " {} |", entry(p, cell));
        }
        let _ = writeln!(out, "{line}");
    }
}

/// The median and 90th percentile of family `f` for one profile at one
/// cell (see [`quantiles::quantile`]): from the exact values where every
/// row has one, else from the Monte Carlo estimates (then the bool is
/// false). `None` where the rows are missing.
pub fn family_quantiles(
    f: &at_least::Listed,
    rows: &HashMap<(&str, usize, &str), &Row>,
    profile: &str,
    cell: usize,
) -> Option<(quantiles::Quantile, quantiles::Quantile, bool)> {
    let get = |m: String| rows.get(&(profile, cell, m.as_str())).copied();
    let got: Vec<(i64, &Row)> =
        f.ks.iter()
            .filter_map(|&k| get(f.at_least(k)).map(|r| (k, r)))
            .collect();
    let &(last, last_row) = got.last()?;
    let last_equal = get(f.equal(last));
    let exact =
        got.iter().all(|(_, r)| r.exact.is_some()) && last_equal.is_none_or(|r| r.exact.is_some());
    let pick = |r: &Row| {
        if exact {
            r.exact.unwrap_or(r.value)
        } else {
            r.value
        }
    };
    let ks: Vec<i64> = got.iter().map(|(k, _)| *k).collect();
    let tail: Vec<f64> = got.iter().map(|(_, r)| pick(r)).collect();
    // P(> last): P(>= last) less P(= last); all of it where `=` is not listed
    let above_last = pick(last_row) - last_equal.map_or(0.0, pick);
    Some((
        quantiles::quantile(&ks, &tail, above_last, 0.5),
        quantiles::quantile(&ks, &tail, above_last, 0.9),
        exact,
    ))
}

/// A family's section: per sweep cell a table of `k` down and, per
/// profile, P(= k) and P(≥ k) across (the leftover beyond the last `k` a
/// row of its own); then the median and 90th percentile per cell and
/// profile.
fn family_section(
    exp: &Experiment,
    f: &at_least::Listed,
    rows: &HashMap<(&str, usize, &str), &Row>,
    flagged: &[&Row],
) -> String {
    let esc = |t: &str| super::escape::markdown(t).into_owned();
    let mut out = String::new();
    let label = super::labels::family_label(exp, f.id, &f.head);
    let _ = writeln!(out, "## {}\n", esc(&label));
    let _ = writeln!(
        out,
        "P(exactly k) (metric `{}=k`) and P(at least k) (metric `{}>=k`, the members from k up summed), k down and profiles across; then the median and 90th percentile.\n",
        f.head, f.head
    );
    let cell_of = |r: Option<&&Row>| match r {
        None => "—".to_string(),
        Some(r) => {
            let flag = flagged.iter().any(|x| std::ptr::eq(*x, *r));
            esc(&cell_text(exp, &r.metric, r, flag))
        }
    };
    for cell in 0..exp.models.len() {
        let words: Vec<String> = exp
            .axes
            .iter()
            .zip(exp.cell_values(cell))
            .map(|(a, v)| super::labels::axis_value_words(exp, &a.name, &v))
            .collect();
        if !words.is_empty() {
            let _ = writeln!(out, "### {}\n", esc(&words.join(", ")));
        }
        let mut header = String::from("| k |");
        let mut rule = String::from("|---:|");
        for p in &exp.profiles {
            let _ = write!(header, " {}: P(= k) | {}: P(≥ k) |", esc(p), esc(p));
            rule.push_str("---:|---:|");
        }
        let _ = writeln!(out, "{header}\n{rule}");
        for &k in &f.ks {
            let mut line = format!("| {k} |");
            for p in &exp.profiles {
                let (eq, ge) = (f.equal(k), f.at_least(k));
                let eq = rows.get(&(p.as_str(), cell, eq.as_str()));
                let ge = rows.get(&(p.as_str(), cell, ge.as_str()));
                let _ = write!(line, " {} | {} |", cell_of(eq), cell_of(ge));
            }
            let _ = writeln!(out, "{line}");
        }
        for b in &f.beyond {
            if !exp
                .profiles
                .iter()
                .any(|p| rows.contains_key(&(p.as_str(), cell, b.as_str())))
            {
                continue;
            }
            let k = b.rsplit_once('>').map_or("", |(_, k)| k);
            let mut line = format!("| more than {k} |");
            for p in &exp.profiles {
                let r = rows.get(&(p.as_str(), cell, b.as_str()));
                let _ = write!(line, " {} | |", cell_of(r));
            }
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Median and 90th percentile of k: the most k has at least half the time, and at least one time in ten (the largest k with P(≥ k) at least 50%, 10%; from the exact values, or ≈ from the Monte Carlo estimates):\n"
    );
    cells_by_profile(exp, &mut out, |p, cell| {
        match family_quantiles(f, rows, p, cell) {
            None => "—".to_string(),
            Some((median, p90, exact)) => format!(
                "{}median {} · 90th {}",
                if exact { "" } else { "≈ " },
                median,
                p90
            ),
        }
    });
    out.push('\n');
    out
}

/// Writes `dir/summary.md`.
pub fn write_summary(
    dir: &Path,
    exp: &Experiment,
    results: &Results,
    charts: &[super::charts::Drawn],
) -> anyhow::Result<()> {
    let prov = Provenance::of(exp);
    let mut md = String::new();
    writeln!(md, "# {}\n", super::escape::markdown(&exp.title))?;
    writeln!(
        md,
        "**Answer:** {}\n",
        super::escape::markdown(&super::inputs::answer(exp, results))
    )?;
    writeln!(
        md,
        "Rule set `{}`, scenario `{}`; {} trials per cell and profile; seed {}; variants `{}`; \
         {:.0}% intervals (Wilson for probabilities, normal for means); krunch {}; spec `{}` (SHA-256 `{}`).\n",
        exp.system,
        exp.scenario,
        exp.trials,
        prov.seed,
        if prov.variants.is_empty() {
            "none"
        } else {
            &prov.variants
        },
        exp.confidence * 100.0,
        prov.version,
        exp.file.display(),
        prov.spec_hash
    )?;
    for note in &exp.notes {
        writeln!(md, "Note: {}.\n", super::escape::markdown(note))?;
    }
    md.push_str(&super::inputs::markdown(exp));
    md.push_str("## Results\n\n");
    let check = mc_check(exp, results);
    md.push_str(&check_text(exp, &check));
    for line in no_exact_lines(exp, results) {
        writeln!(md, "{}\n", super::escape::markdown(&line))?;
    }
    writeln!(
        md,
        "In the tables, an exact value comes first with the Monte Carlo estimate (MC) beside it as its check; where there is no exact value, the estimate is given with its {:.0}% interval. Every number is in `data.csv`.\n",
        exp.confidence * 100.0
    )?;
    for chart in charts {
        writeln!(md, "![{}]({}.svg)\n", chart.title, chart.file)?;
    }
    let rows: HashMap<(&str, usize, &str), &Row> = results
        .rows
        .iter()
        .map(|r| ((r.profile.as_str(), r.cell_index, r.metric.as_str()), r))
        .collect();
    let flagged: Vec<&Row> = check.flagged.iter().map(|d| d.row).collect();
    let families = at_least::listed(exp);
    let mut done: Vec<&str> = Vec::new();
    for metric in &exp.metrics {
        if let Some(f) = families.iter().find(|f| f.holds(metric)) {
            if !done.contains(&f.id) {
                done.push(f.id);
                md.push_str(&family_section(exp, f, &rows, &flagged));
            }
            continue;
        }
        writeln!(md, "## {}\n", metric_label(exp, metric))?;
        let about = metric_def(exp, metric).map_or("", |m| m.about);
        if about.is_empty() {
            writeln!(md, "Metric `{metric}`.\n")?;
        } else {
            writeln!(md, "{about} (metric `{metric}`).\n")?;
        }
        writeln!(md, "{}", metric_table(exp, metric, &rows, &flagged))?;
    }
    write_atomic(&dir.join("summary.md"), md.as_bytes())?;
    Ok(())
}
