//! Outputs of `krunch check`: a line per expectation, the run's summary
//! line, and JUnit XML for CI.

use super::compare::p_text;
use crate::experiment::check::{Checked, EXACT_TOLERANCE, Outcome};
use std::fmt::Write;

/// The line closing a check: how many expectations held and moved, at
/// which family-wise level over how many Monte Carlo checks.
pub fn summary(checked: &Checked) -> String {
    let failed = checked.failed();
    format!(
        "{} expectations in {} specs: {} hold, {} moved (family-wise false-alarm rate {:.0e} over {} Monte Carlo checks)",
        checked.outcomes.len(),
        checked.specs,
        checked.outcomes.len() - failed,
        failed,
        checked.family_alpha,
        checked.mc_checks
    )
}

/// JUnit XML for `krunch check --junit`: one test case per expectation.
pub fn junit(outcomes: &[(String, Outcome)]) -> String {
    let failures = outcomes.iter().filter(|(_, o)| !o.passed).count();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"krunch check\" tests=\"{}\" failures=\"{failures}\">\n<testsuite name=\"krunch check\" tests=\"{}\" failures=\"{failures}\">\n",
        outcomes.len(),
        outcomes.len()
    );
    for (spec, o) in outcomes {
        let name = format!(
            "{} [{}{}]",
            o.expected.metric,
            o.profile,
            if o.cell.is_empty() {
                String::new()
            } else {
                format!(", {}", o.cell)
            }
        );
        let _ = write!(
            out,
            "  <testcase classname=\"{}\" name=\"{}\">",
            xml(spec),
            xml(&name)
        );
        if !o.passed {
            let _ = write!(out, "<failure message=\"{}\"/>", xml(&describe_outcome(o)));
        }
        out.push_str("</testcase>\n");
    }
    out.push_str("</testsuite>\n</testsuites>\n");
    out
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// One line saying what a check found.
pub fn describe_outcome(o: &Outcome) -> String {
    let place = format!(
        "{} [{}{}]",
        o.expected.metric,
        o.profile,
        if o.cell.is_empty() {
            String::new()
        } else {
            format!(", {}", o.cell)
        }
    );
    if let Some(got) = &o.got_text {
        return describe_quantile(o, &place, got);
    }
    let how = if o.exact && o.p_value.is_none() {
        // the tolerance the value was held to: its own, where it states one
        match o.expected.tolerance {
            Some(t) if t > EXACT_TOLERANCE => format!("exact, tolerance {t}"),
            _ => format!("exact, tolerance {EXACT_TOLERANCE:.0e}"),
        }
    } else {
        format!(
            "{}interval {:.6} to {:.6}, {} at level {:.1e}, {} trials",
            if o.exact { "exact now; " } else { "" },
            o.interval.0,
            o.interval.1,
            p_text(o.p_value.unwrap_or(1.0)),
            o.level.unwrap_or(0.0),
            o.trials
        )
    };
    // six decimals, or every digit where six would print two different
    // values the same (an exact value off by 1e-8 must not read "0.5, got 0.5")
    let (expected, got) = match (format!("{:.6}", o.expected.value), format!("{:.6}", o.got)) {
        (a, b) if a == b && o.expected.value != o.got => {
            (o.expected.value.to_string(), o.got.to_string())
        }
        pair => pair,
    };
    format!(
        "{} {place}: expected {expected}, got {got} ({how}) — {}{}",
        if o.passed { "ok  " } else { "FAIL" },
        o.expected.source,
        o.note
            .as_ref()
            .map(|n| format!("; {n}"))
            .unwrap_or_default()
    )
}

/// One line for an expected quantile: whole numbers, and the tails it was
/// read from (in the note).
fn describe_quantile(o: &Outcome, place: &str, got: &str) -> String {
    let how = match o.p_value {
        None => "exact".to_string(),
        Some(p) => {
            let held = match o.interval {
                (lo, _) if lo.is_nan() => "no k holds".to_string(),
                (lo, hi) if lo == hi => format!("only k = {lo:.0} holds"),
                (lo, hi) => format!("k = {lo:.0} to {hi:.0} hold"),
            };
            format!(
                "{held}, {} at level {:.1e}, {} trials",
                p_text(p),
                o.level.unwrap_or(0.0),
                o.trials
            )
        }
    };
    format!(
        "{} {place}: expected {}, got {got} ({how}) — {}{}",
        if o.passed { "ok  " } else { "FAIL" },
        o.expected.value,
        o.expected.source,
        o.note
            .as_ref()
            .map(|n| format!("; {n}"))
            .unwrap_or_default()
    )
}
