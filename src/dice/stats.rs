//! Statistics for Monte Carlo estimates (statrs underneath): confidence
//! intervals for reports and the tests' goodness-of-fit checks.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// Two-sided standard normal quantile for confidence `level` (0.95 -> 1.96).
pub fn z_for(level: f64) -> f64 {
    let n = Normal::standard();
    n.inverse_cdf(0.5 + level / 2.0)
}

/// Wilson score interval for `successes` out of `trials` at confidence `level`.
pub fn wilson(successes: u64, trials: u64, level: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z = z_for(level);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Normal interval for a mean from its sum and sum of squares.
pub fn mean_interval(sum: f64, sum_sq: f64, trials: u64, level: f64) -> (f64, f64, f64) {
    if trials == 0 {
        return (0.0, 0.0, 0.0);
    }
    let n = trials as f64;
    let mean = sum / n;
    let var = ((sum_sq / n) - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
    let se = (var / n).sqrt();
    let z = z_for(level);
    (mean, mean - z * se, mean + z * se)
}

/// Two-sided p-value that `successes` of `trials` came from probability `p`
/// (normal approximation with continuity correction; exact, twice the
/// smaller binomial tail, where the rarer outcome is expected fewer than
/// 30 times and the normal curve does not fit: one equality in 2000 rolls
/// at P = 1e-6 is p = 0.004, where the normal curve said 0).
pub fn binomial_p_value(successes: u64, trials: u64, p: f64) -> f64 {
    let n = trials as f64;
    let k = successes as f64;
    if p <= 0.0 {
        return if successes == 0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if successes == trials { 1.0 } else { 0.0 };
    }
    // count the rarer outcome: j of n, each with probability q <= 1/2
    let (q, j) = if p <= 0.5 {
        (p, successes)
    } else {
        (1.0 - p, trials - successes)
    };
    let mean = n * q;
    if mean < 30.0 {
        let pmf = |i: u64| super::binomial_pmf(trials, i, q);
        let tail = if (j as f64) <= mean {
            (0..=j).map(pmf).sum::<f64>()
        } else {
            // above the mean the terms fall at least geometrically
            let mut sum = 0.0;
            for i in j..=trials {
                let t = pmf(i);
                sum += t;
                if t <= sum * 1e-17 {
                    break;
                }
            }
            sum
        };
        return (2.0 * tail).min(1.0);
    }
    let sd = (n * p * (1.0 - p)).sqrt();
    let z = (((k - n * p).abs() - 0.5).max(0.0)) / sd;
    2.0 * (1.0 - Normal::standard().cdf(z))
}

/// Two-sided p-value that a sample mean with standard error `se` came from
/// the exact mean `mu`.
pub fn mean_p_value(mean: f64, se: f64, mu: f64) -> f64 {
    if se == 0.0 {
        return if (mean - mu).abs() < 1e-12 { 1.0 } else { 0.0 };
    }
    let z = (mean - mu).abs() / se;
    2.0 * (1.0 - Normal::standard().cdf(z))
}

/// Chi-square goodness of fit of observed counts against expected
/// probabilities. Cells expecting fewer than 5 are pooled, as statrs' own
/// sampling tests do. Returns the p-value.
pub fn chi_square_p_value(observed: &[u64], expected_probs: &[f64]) -> f64 {
    assert_eq!(observed.len(), expected_probs.len());
    let n: u64 = observed.iter().sum();
    let nf = n as f64;
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let (mut o_acc, mut e_acc) = (0.0, 0.0);
    for (&o, &p) in observed.iter().zip(expected_probs) {
        o_acc += o as f64;
        e_acc += p * nf;
        if e_acc >= 5.0 {
            cells.push((o_acc, e_acc));
            o_acc = 0.0;
            e_acc = 0.0;
        }
    }
    if e_acc > 0.0 || o_acc > 0.0 {
        match cells.last_mut() {
            Some(last) => {
                last.0 += o_acc;
                last.1 += e_acc;
            }
            None => cells.push((o_acc, e_acc)),
        }
    }
    if cells.len() < 2 {
        return 1.0;
    }
    let stat: f64 = cells.iter().map(|(o, e)| (o - e).powi(2) / e).sum();
    let df = (cells.len() - 1) as f64;
    match ChiSquared::new(df) {
        Ok(chi) => 1.0 - chi.cdf(stat),
        Err(_) => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_reference_values() {
        // 50/100 at 95%: (0.4038, 0.5962) to 4 dp (Wilson 1927 / Newcombe 1998).
        let (lo, hi) = wilson(50, 100, 0.95);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        let (lo, hi) = wilson(0, 10, 0.95);
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 1e-4);
    }

    #[test]
    fn chi_square_accepts_fair_and_rejects_loaded() {
        let fair = [1000u64, 1010, 990, 1005, 995, 1000];
        assert!(chi_square_p_value(&fair, &[1.0 / 6.0; 6]) > 0.5);
        let loaded = [1200u64, 960, 960, 960, 960, 960];
        assert!(chi_square_p_value(&loaded, &[1.0 / 6.0; 6]) < 1e-6);
    }

    #[test]
    fn binomial_p_value_is_small_only_for_far_counts() {
        assert!(binomial_p_value(5000, 10000, 0.5) > 0.9);
        assert!(binomial_p_value(5300, 10000, 0.5) < 1e-6);
        // a rare outcome: one in 2000 at q = 1e-6 has P(at least one) =
        // 1 - (1 - 1e-6)^2000 = 0.0019980..., doubled
        let q: f64 = 1e-6;
        let want = 2.0 * (1.0 - (1.0 - q).powi(2000));
        assert!((binomial_p_value(1, 2000, q) - want).abs() < 1e-9);
        assert!((binomial_p_value(1999, 2000, 1.0 - q) - want).abs() < 1e-6);
        // none in 2000 is what one expects: p = 1 (doubled and capped)
        assert_eq!(binomial_p_value(0, 2000, q), 1.0);
        // three in 2000 at an expected 0.002: P(X >= 3) = about 1.3e-9
        assert!(binomial_p_value(3, 2000, q) < 1e-8);
    }
}
