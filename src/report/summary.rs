//! `summary.md`: provenance, one table per metric, and the charts.

use super::labels::{metric_def, metric_label, value_text_fine};
use super::{Provenance, write_atomic};
use crate::experiment::{Experiment, Results};
use std::fmt::Write;
use std::path::Path;

/// Writes `dir/summary.md`.
pub fn write_summary(
    dir: &Path,
    exp: &Experiment,
    results: &Results,
    charts: &[super::charts::Drawn],
) -> anyhow::Result<()> {
    let prov = Provenance::of(exp);
    let mut md = String::new();
    writeln!(md, "# {}\n", exp.title)?;
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
    for (profile, variants) in exp.profiles.iter().zip(&exp.profile_variants) {
        if variants != &exp.variants {
            writeln!(
                md,
                "Profile **{profile}** runs with variants `{}`.\n",
                crate::experiment::variants_text(variants)
            )?;
        }
    }
    for chart in charts {
        writeln!(md, "![{}]({}.svg)\n", chart.title, chart.file)?;
    }
    for metric in &exp.metrics {
        writeln!(md, "## {}\n", metric_label(exp, metric))?;
        let about = metric_def(exp, metric).map_or("", |m| m.about);
        if about.is_empty() {
            writeln!(md, "Metric `{metric}`.\n")?;
        } else {
            writeln!(md, "{about} (metric `{metric}`).\n")?;
        }
        let mut header = String::from("| profile |");
        let mut rule = String::from("|---|");
        for a in &exp.axes {
            write!(header, " {} |", a.name)?;
            rule.push_str("---:|");
        }
        write!(
            header,
            " Monte Carlo | {:.0}% interval | exact |",
            exp.confidence * 100.0
        )?;
        rule.push_str("---:|---|---:|");
        writeln!(md, "{header}\n{rule}")?;
        for r in results.rows.iter().filter(|r| &r.metric == metric) {
            write!(md, "| {} |", r.profile)?;
            for v in &r.cell {
                write!(md, " {v} |")?;
            }
            let fmt = |v: f64| value_text_fine(exp, metric, v);
            writeln!(
                md,
                " {} | {} – {} | {} |",
                fmt(r.value),
                fmt(r.ci_low),
                fmt(r.ci_high),
                r.exact.map(fmt).unwrap_or_else(|| "—".into())
            )?;
        }
        writeln!(md)?;
    }
    write_atomic(&dir.join("summary.md"), md.as_bytes())?;
    Ok(())
}
