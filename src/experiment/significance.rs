//! Tests of a Monte Carlo estimate against a value it should equal, that
//! hold where a normal z test cries wolf: at estimates of exactly 0 or 1,
//! for rare events, and at zero sample variance.
//!
//! - A probability: an exact binomial test (two-sided, the smaller tail
//!   doubled, as Clopper and Pearson's interval inverts), summed term by
//!   term from the observed count outward, so a count of 0 against
//!   1e-7 over 400,000 trials is the likely outcome it is (p = 0.96), not
//!   "p < 1e-12". Against a value that was itself estimated (a baseline's
//!   standard error), the test is run against the nearest value of the
//!   pinned value's own interval (Berger and Boos' union bound, each part
//!   at half the level).
//! - A mean of non-negative whole values: a z test whose variance is at
//!   least the least any whole-valued variable with the pinned mean can
//!   have, f(1-f) for f the mean's fractional part. The bound holds at
//!   zero sample variance (every trial 0, against a mean of 1e-7).

use crate::dice::stats;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::gamma::ln_gamma;

/// Two-sided exact binomial p-value that `k` successes of `n` trials came
/// from probability `p` (the smaller tail doubled, at most 1). `p` is
/// clamped to [0, 1] (an exact sum can stray past by rounding).
pub fn binomial_exact_p(k: u64, n: u64, p: f64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let k = k.min(n);
    let p = if p.is_nan() { 0.5 } else { p.clamp(0.0, 1.0) };
    if p == 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p == 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let (nf, kf) = (n as f64, k as f64);
    let ln_pmf = ln_gamma(nf + 1.0) - ln_gamma(kf + 1.0) - ln_gamma(nf - kf + 1.0)
        + kf * p.ln()
        + (nf - kf) * (-p).ln_1p();
    // the tail on the side of k away from the mean, whose terms fall from
    // k outward: summed relative to the term at k
    let odds = p / (1.0 - p);
    let mut rel = 1.0f64;
    let mut sum = 1.0f64;
    if kf <= nf * p {
        let mut i = k;
        while i > 0 {
            rel *= i as f64 / ((n - i + 1) as f64 * odds);
            i -= 1;
            sum += rel;
            if rel < 1e-17 * sum {
                break;
            }
        }
    } else {
        let mut i = k;
        while i < n {
            rel *= (n - i) as f64 * odds / (i + 1) as f64;
            i += 1;
            sum += rel;
            if rel < 1e-17 * sum {
                break;
            }
        }
    }
    let pmf_k = ln_pmf.exp();
    let tail = (ln_pmf + sum.ln()).exp().min(1.0);
    let other = (1.0 - tail + pmf_k).clamp(0.0, 1.0);
    (2.0 * tail.min(other)).min(1.0)
}

/// Two-sided p-value that `k` of `n` trials came from the pinned
/// probability `value`, itself known to standard error `se0` (0 for an
/// exact or stated value), tested at `level`.
pub fn probability_p(k: u64, n: u64, value: f64, se0: f64, level: f64) -> f64 {
    if se0 <= 0.0 || !se0.is_finite() {
        return binomial_exact_p(k, n, value);
    }
    // the value's own interval at 1 - level/2, and the binomial test at
    // level/2 against its nearest point: rejects with chance <= level
    let z = stats::z_for(1.0 - level / 2.0);
    let (lo, hi) = (
        (value - z * se0).max(0.0),
        (value + z * se0).min(1.0).max((value - z * se0).max(0.0)),
    );
    let nearest = (k as f64 / n.max(1) as f64).clamp(lo, hi);
    (2.0 * binomial_exact_p(k, n, nearest)).min(1.0)
}

/// The least variance a variable of whole values with mean `mu` can have:
/// f(1-f) for f the fractional part of `mu`.
pub fn least_whole_variance(mu: f64) -> f64 {
    if !mu.is_finite() {
        return 0.0;
    }
    let f = mu - mu.floor();
    f * (1.0 - f)
}

/// Two-sided p-value that a sample mean `mean` with sample variance
/// `sample_var` over `n` trials of non-negative whole values came from the
/// pinned mean `mu`, itself known to standard error `se0`. The variance
/// used is at least [`least_whole_variance`] of `mu`, so a sample with no
/// variance (a rare event not seen) is not taken for a certainty.
pub fn mean_p(mean: f64, sample_var: f64, n: u64, mu: f64, se0: f64) -> f64 {
    let n = n.max(1) as f64;
    let var = sample_var.max(least_whole_variance(mu)).max(0.0);
    let se = (var / n + se0 * se0).sqrt();
    let d = (mean - mu).abs();
    if se == 0.0 || !se.is_finite() {
        return if d <= 1e-9 * mu.abs().max(1.0) {
            1.0
        } else {
            0.0
        };
    }
    2.0 * Normal::standard().cdf(-d / se)
}

/// The signed normal z a two-sided p-value `p` stands for (`sign` the
/// sign of estimate minus value): finite for any p, at most about 37.5.
pub fn z_of(p: f64, sign: f64) -> f64 {
    let p = p.clamp(1e-300, 1.0);
    let z = -Normal::standard().inverse_cdf(p / 2.0);
    z.max(0.0).copysign(sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact tail summed naively, for small n.
    fn naive(k: u64, n: u64, p: f64) -> f64 {
        let pmf = |i: u64| {
            let mut c = 1.0f64;
            for j in 0..i {
                c = c * (n - j) as f64 / (j + 1) as f64;
            }
            c * p.powi(i as i32) * (1.0 - p).powi((n - i) as i32)
        };
        let lower: f64 = (0..=k).map(pmf).sum();
        let upper: f64 = (k..=n).map(pmf).sum();
        (2.0 * lower.min(upper)).min(1.0)
    }

    #[test]
    fn exact_binomial_matches_the_naive_sum() {
        for n in [1u64, 5, 20, 60] {
            for &p in &[0.01, 0.2, 0.5, 0.77, 0.999] {
                for k in 0..=n {
                    let (a, b) = (binomial_exact_p(k, n, p), naive(k, n, p));
                    assert!(
                        (a - b).abs() <= 1e-9 * b.max(1e-300) + 1e-14,
                        "k={k} n={n} p={p}: {a} vs {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn rare_events_and_certainties_do_not_cry_wolf() {
        // none seen where 1e-7 is expected: the likely outcome
        assert!(binomial_exact_p(0, 400_000, 1e-7) > 0.9);
        // all seen where 0.9999999 is expected
        assert!(binomial_exact_p(400_000, 400_000, 0.999_999_9) > 0.9);
        // a probability rounded past 1 or below 0
        assert_eq!(binomial_exact_p(10, 10, 1.000_000_000_000_000_2), 1.0);
        assert_eq!(binomial_exact_p(0, 10, -2.2e-16), 1.0);
        // a mean of 1e-7 with every trial 0: no variance seen
        assert!(mean_p(0.0, 0.0, 400_000, 1e-7, 0.0) > 0.5);
        // but an impossible event seen, or a certain one missed, is caught
        assert_eq!(binomial_exact_p(1, 400_000, 0.0), 0.0);
        assert_eq!(binomial_exact_p(399_999, 400_000, 1.0), 0.0);
    }

    #[test]
    fn a_one_percent_error_is_caught() {
        // 400,000 trials of p = 0.5 against a pinned 0.505 (1% off):
        // z = 6.3, beyond a level of 1e-7
        let n = 400_000;
        assert!(binomial_exact_p(200_000, n, 0.505) < 1e-7);
        assert!(binomial_exact_p(200_000, n, 0.5) > 0.9);
        // a mean 1% off with unit variance
        assert!(mean_p(2.0, 1.0, n, 2.02, 0.0) < 1e-7);
    }

    #[test]
    fn equivalent_z_is_finite() {
        assert!((z_of(0.05, 1.0) - 1.959_964).abs() < 1e-5);
        assert!(z_of(0.0, -1.0).is_finite() && z_of(0.0, -1.0) < -37.0);
        assert_eq!(z_of(1.0, 1.0), 0.0);
    }
}
