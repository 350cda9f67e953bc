//! Baselines for `krunch check`: `experiments/baselines/<name>.toml`,
//! written by `krunch check --update` from a run's results (read back by
//! `experiment::check::read_baseline`).

use crate::dice::stats;
use crate::experiment::{Experiment, Results};
use crate::systems::ParamValue;
use std::path::Path;

/// Writes the baseline of every metric of `exp` (exact values where there
/// are, Monte Carlo estimates with their standard errors otherwise).
pub fn write_baseline(path: &Path, exp: &Experiment, results: &Results) -> anyhow::Result<()> {
    let mut out = String::new();
    out.push_str(&format!(
        "# Written by `krunch check --update`: expectations for `krunch check`.\n# spec {} (sha256 {}), seed {}, krunch {}\n",
        exp.file.display(),
        exp.spec_hash,
        exp.seed,
        env!("CARGO_PKG_VERSION")
    ));
    for r in &results.rows {
        let (value, se) = match r.exact {
            Some(x) => (x, 0.0),
            None => (
                r.value,
                (r.ci_high - r.ci_low) / (2.0 * stats::z_for(exp.confidence)),
            ),
        };
        let cell: Vec<String> = exp
            .axes
            .iter()
            .zip(&r.cell)
            .map(|(a, v)| {
                let value = match v {
                    ParamValue::Str(s) => format!("{s:?}"),
                    other => other.to_string(),
                };
                format!("{} = {value}", toml_key(&a.name))
            })
            .collect();
        out.push_str(&format!(
            "\n[[expect]]\nprofile = {:?}\ncell = {{ {} }}\nmetric = {:?}\nvalue = {value:?}\nstd_error = {se:?}\n",
            r.profile,
            cell.join(", "),
            r.metric
        ));
    }
    super::files::write_atomic(path, out.as_bytes())?;
    Ok(())
}

fn toml_key(k: &str) -> String {
    if k.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}
