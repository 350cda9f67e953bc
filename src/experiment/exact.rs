//! A model's exact values as reports, checks and compares use them: a
//! probability summed in floating point can land a rounding step outside
//! [0, 1] (`1.0000000000000002`, `-2.2e-16`, printed as "-0%" and written
//! into baselines), and a mean of non-negative counts below 0; both are
//! clamped here, where every caller takes them from.

use crate::engine::NoExact;
use crate::systems::{MetricKind, Model};

/// `model.exact()`, each probability clamped to [0, 1] and each mean to at
/// least 0 (what rounding can push past; anything further is a bug the
/// conformance tests catch, not something to hide, so only steps of
/// rounding size are clamped and larger strays are left to show).
pub fn exact_values(model: &dyn Model) -> Option<Vec<f64>> {
    exact_or_why(model).ok()
}

/// [`exact_values`], or why the model has none (its evaluation would pass
/// the engine's work budget, say), for the report to say.
pub fn exact_or_why(model: &dyn Model) -> Result<Vec<f64>, NoExact> {
    let mut values = model.exact_or_why()?;
    for (v, def) in values.iter_mut().zip(model.metrics()) {
        *v = clamp(*v, def.kind);
    }
    Ok(values)
}

/// How far past its range rounding can push a value (a sum of many
/// probabilities in f64).
const ROUNDING: f64 = 1e-9;

fn clamp(v: f64, kind: MetricKind) -> f64 {
    match kind {
        MetricKind::Probability if (-ROUNDING..0.0).contains(&v) => 0.0,
        MetricKind::Probability if v > 1.0 && v <= 1.0 + ROUNDING => 1.0,
        MetricKind::Mean if (-ROUNDING..0.0).contains(&v) => 0.0,
        // -0.0 prints as "-0%"
        _ if v == 0.0 => 0.0,
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_past_the_range_is_clamped_and_nothing_else() {
        let p = MetricKind::Probability;
        assert_eq!(clamp(1.000_000_000_000_000_2, p), 1.0);
        assert_eq!(clamp(-2.2e-16, p), 0.0);
        assert!(clamp(-0.0, p).is_sign_positive());
        assert_eq!(clamp(-2.2e-16, MetricKind::Mean), 0.0);
        assert_eq!(clamp(0.25, p), 0.25);
        assert_eq!(clamp(1.5, p), 1.5);
        assert_eq!(clamp(3.5, MetricKind::Mean), 3.5);
    }
}
