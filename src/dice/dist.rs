//! Exact discrete distributions over integer outcomes.
//!
//! Probabilities are `f64`; every operation keeps the total mass at 1 up to
//! rounding, which the tests check against exact fractions on small cases.

use std::collections::BTreeMap;

/// An exact probability distribution over the integers `offset ..
/// offset + probs.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    offset: i64,
    probs: Vec<f64>,
}

impl Dist {
    /// The distribution that is `value` with certainty.
    pub fn constant(value: i64) -> Self {
        Dist {
            offset: value,
            probs: vec![1.0],
        }
    }

    /// A fair die numbered `1..=sides`.
    ///
    /// # Panics
    /// If `sides` is zero (a programming error: spec parsing rejects it).
    pub fn die(sides: u32) -> Self {
        assert!(sides > 0, "a die needs at least one side");
        Dist {
            offset: 1,
            probs: vec![1.0 / sides as f64; sides as usize],
        }
    }

    /// A fair die with the given faces (repeats allowed), such as the
    /// Sustained Fire die `1,1,2,2,3,JAM`.
    pub fn faces(faces: &[i64]) -> Self {
        let w = 1.0 / faces.len() as f64;
        Self::from_pairs(faces.iter().map(|&f| (f, w)))
    }

    /// Builds a distribution from `(outcome, weight)` pairs, normalising the
    /// weights to sum to one. Repeated outcomes are merged.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (i64, f64)>) -> Self {
        let mut map: BTreeMap<i64, f64> = BTreeMap::new();
        for (v, p) in pairs {
            *map.entry(v).or_insert(0.0) += p;
        }
        let total: f64 = map.values().sum();
        let (Some(&lo), Some(&hi)) = (map.keys().next(), map.keys().next_back()) else {
            return Dist::constant(0);
        };
        let mut probs = vec![0.0; (hi - lo + 1) as usize];
        for (v, p) in map {
            probs[(v - lo) as usize] = p / total;
        }
        Dist { offset: lo, probs }.trimmed()
    }

    fn trimmed(mut self) -> Self {
        while self.probs.len() > 1 && self.probs.last() == Some(&0.0) {
            self.probs.pop();
        }
        let lead = self.probs.iter().take_while(|&&p| p == 0.0).count();
        if lead > 0 && lead < self.probs.len() {
            self.probs.drain(..lead);
            self.offset += lead as i64;
        }
        self
    }

    /// Smallest outcome with non-zero probability.
    pub fn min_value(&self) -> i64 {
        self.offset
    }

    /// Largest outcome with non-zero probability.
    pub fn max_value(&self) -> i64 {
        self.offset + self.probs.len() as i64 - 1
    }

    /// P(X = v).
    pub fn pmf(&self, v: i64) -> f64 {
        let i = v - self.offset;
        if i < 0 || i >= self.probs.len() as i64 {
            0.0
        } else {
            self.probs[i as usize]
        }
    }

    /// P(X <= v).
    pub fn cdf(&self, v: i64) -> f64 {
        self.prob(|x| x <= v)
    }

    /// Outcomes with their probabilities, ascending, zero-probability ones skipped.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probs
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .map(|(i, &p)| (self.offset + i as i64, p))
    }

    /// Probability that the outcome satisfies `pred` (comparisons such as
    /// `2d6 <= 7` become probabilities this way).
    pub fn prob(&self, pred: impl Fn(i64) -> bool) -> f64 {
        self.iter().filter(|&(v, _)| pred(v)).map(|(_, p)| p).sum()
    }

    /// Expected value.
    pub fn mean(&self) -> f64 {
        self.iter().map(|(v, p)| v as f64 * p).sum()
    }

    /// Variance.
    pub fn variance(&self) -> f64 {
        let m = self.mean();
        self.iter().map(|(v, p)| (v as f64 - m).powi(2) * p).sum()
    }

    /// Distribution of `f(X)`.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Self {
        Self::from_pairs(self.iter().map(|(v, p)| (f(v), p)))
    }

    /// Distribution of `f(X, Y)` for independent `X` (self) and `Y`.
    pub fn combine(&self, other: &Dist, f: impl Fn(i64, i64) -> i64) -> Self {
        Self::from_pairs(
            self.iter()
                .flat_map(|(a, p)| other.iter().map(move |(b, q)| (a, b, p * q)))
                .map(|(a, b, pq)| (f(a, b), pq)),
        )
    }

    /// Distribution of `X + Y` (convolution).
    pub fn add(&self, other: &Dist) -> Self {
        let mut probs = vec![0.0; self.probs.len() + other.probs.len() - 1];
        for (i, &p) in self.probs.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            for (j, &q) in other.probs.iter().enumerate() {
                probs[i + j] += p * q;
            }
        }
        Dist {
            offset: self.offset + other.offset,
            probs,
        }
        .trimmed()
    }

    /// Distribution of the sum of `n` independent copies (by doubling).
    pub fn sum_of(&self, n: u32) -> Self {
        let mut acc = Dist::constant(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.add(&base);
            }
            k >>= 1;
            if k > 0 {
                base = base.add(&base);
            }
        }
        acc
    }

    /// Distribution of `max(X, Y)`.
    pub fn max(&self, other: &Dist) -> Self {
        self.combine(other, i64::max)
    }

    /// Distribution of `min(X, Y)`.
    pub fn min(&self, other: &Dist) -> Self {
        self.combine(other, i64::min)
    }

    /// Sum of the highest `keep` of `n` independent copies.
    ///
    /// Dynamic programming over outcomes from the best down: after each
    /// outcome value the state is (dice placed so far, kept sum); the first
    /// `keep` dice placed are the kept ones, and each value takes a
    /// binomially distributed number of the dice still unplaced. The cost is
    /// `values x n^2 x sum range`, polynomial in `n`, never `faces^n`.
    pub fn keep_highest(&self, n: u32, keep: u32) -> Self {
        self.keep(n, keep, true)
    }

    /// Sum of the lowest `keep` of `n` independent copies.
    pub fn keep_lowest(&self, n: u32, keep: u32) -> Self {
        self.keep(n, keep, false)
    }

    fn keep(&self, n: u32, keep: u32, highest: bool) -> Self {
        let n = n as usize;
        let k = (keep as usize).min(n);
        let mut outcomes: Vec<(i64, f64)> = self.iter().collect();
        if highest {
            outcomes.reverse();
        }
        let lo = self.min_value();
        let width = (self.max_value() - lo) as usize;
        let cols = k * width + 1;
        // dp[j][s]: j dice placed, kept sum (above k * lo) equal to s
        let mut dp = vec![vec![0.0; cols]; n + 1];
        dp[0][0] = 1.0;
        let mut remaining = 1.0;
        let last = outcomes.len().saturating_sub(1);
        for (index, (face, p_face)) in outcomes.into_iter().enumerate() {
            // probability of this value among the values not yet passed
            let q = if index == last || remaining <= 0.0 {
                1.0
            } else {
                (p_face / remaining).min(1.0)
            };
            remaining -= p_face;
            let v = (face - lo) as usize;
            let mut next = vec![vec![0.0; cols]; n + 1];
            for (j, row) in dp.iter().enumerate() {
                let Some(top) = row.iter().rposition(|&x| x != 0.0) else {
                    continue;
                };
                let left = n - j;
                for t in 0..=left {
                    let w = binomial_pmf(left as u64, t as u64, q);
                    if w == 0.0 {
                        continue;
                    }
                    let shift = ((k.min(j + t)) - k.min(j)) * v;
                    let target = &mut next[j + t][shift..];
                    for (dst, &src) in target.iter_mut().zip(&row[..=top]) {
                        *dst += src * w;
                    }
                }
            }
            dp = next;
        }
        let base = k as i64 * lo;
        Self::from_pairs(
            dp[n]
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 0.0)
                .map(|(s, &p)| (base + s as i64, p)),
        )
    }

    /// Exploding roll: whenever the maximum face comes up, roll again and add,
    /// at most `depth` extra times.
    pub fn explode(&self, depth: u32) -> Self {
        let top = self.max_value();
        let mut result = self.clone();
        for _ in 0..depth {
            let p_top = self.pmf(top);
            let rest = Self::from_pairs(self.iter().filter(|&(v, _)| v != top));
            let base_rest: Vec<(i64, f64)> =
                rest.iter().map(|(v, p)| (v, p * (1.0 - p_top))).collect();
            let chained: Vec<(i64, f64)> =
                result.iter().map(|(v, p)| (top + v, p * p_top)).collect();
            result = Self::from_pairs(base_rest.into_iter().chain(chained));
        }
        result
    }

    /// Re-roll once any outcome matching `pred`, keeping the second result.
    pub fn reroll(&self, pred: impl Fn(i64) -> bool) -> Self {
        let p_redo = self.prob(&pred);
        Self::from_pairs(
            self.iter()
                .filter(|&(v, _)| !pred(v))
                .chain(self.iter().map(|(v, p)| (v, p * p_redo))),
        )
    }

    /// Mixture: with weight `w_i` the outcome follows `d_i`.
    pub fn mixture(parts: &[(f64, Dist)]) -> Self {
        Self::from_pairs(
            parts
                .iter()
                .flat_map(|(w, d)| d.iter().map(move |(v, p)| (v, w * p))),
        )
    }
}

/// Binomial probability mass, computed in log space so large `n` stays finite.
pub fn binomial_pmf(n: u64, k: u64, p: f64) -> f64 {
    if k > n {
        return 0.0;
    }
    if p <= 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let ln_choose = statrs::function::factorial::ln_binomial(n, k);
    (ln_choose + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn two_d6_matches_the_triangle() {
        let d = Dist::die(6).sum_of(2);
        for s in 2..=12 {
            let ways = 6 - (s - 7i64).abs();
            assert!(close(d.pmf(s), ways as f64 / 36.0), "2d6 = {s}");
        }
        assert!(close(d.cdf(7), 21.0 / 36.0));
        assert!(close(d.mean(), 7.0));
        assert!(close(d.variance(), 35.0 / 6.0));
    }

    #[test]
    fn keep_highest_three_of_four_d6_matches_enumeration() {
        let fast = Dist::die(6).keep_highest(4, 3);
        let mut brute = BTreeMap::new();
        for a in 1..=6i64 {
            for b in 1..=6 {
                for c in 1..=6 {
                    for d in 1..=6 {
                        let mut v = [a, b, c, d];
                        v.sort();
                        *brute.entry(v[1] + v[2] + v[3]).or_insert(0u32) += 1;
                    }
                }
            }
        }
        for (s, n) in brute {
            assert!(close(fast.pmf(s), n as f64 / 1296.0), "4d6k3 = {s}");
        }
        // 4d6k3 mean is 15869/1296
        assert!(close(fast.mean(), 15869.0 / 1296.0));
    }

    #[test]
    fn keep_lowest_two_of_three_d6_matches_enumeration() {
        let fast = Dist::die(6).keep_lowest(3, 2);
        let mut brute = BTreeMap::new();
        for a in 1..=6i64 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let mut v = [a, b, c];
                    v.sort();
                    *brute.entry(v[0] + v[1]).or_insert(0u32) += 1;
                }
            }
        }
        for (s, n) in brute {
            assert!(close(fast.pmf(s), n as f64 / 216.0));
        }
    }

    #[test]
    fn keep_highest_of_many_dice_is_fast_and_normalised() {
        let d = Dist::die(6).keep_highest(100, 10);
        let total: f64 = d.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert_eq!(d.max_value(), 60);
    }

    #[test]
    fn explode_once_matches_fractions() {
        let d = Dist::die(6).explode(1);
        assert!(close(d.pmf(5), 1.0 / 6.0));
        assert!(close(d.pmf(6), 0.0));
        assert!(close(d.pmf(7), 1.0 / 36.0));
        assert!(close(d.pmf(12), 1.0 / 36.0));
        assert!(close(d.mean(), 3.5 + 3.5 / 6.0));
    }

    #[test]
    fn reroll_ones_matches_fractions() {
        let d = Dist::die(6).reroll(|v| v == 1);
        assert!(close(d.pmf(1), 1.0 / 36.0));
        assert!(close(d.pmf(2), 7.0 / 36.0));
    }

    #[test]
    fn max_min_and_mixture() {
        let d6 = Dist::die(6);
        assert!(close(d6.max(&d6).pmf(6), 11.0 / 36.0));
        assert!(close(d6.min(&d6).pmf(1), 11.0 / 36.0));
        let m = Dist::mixture(&[(0.5, Dist::constant(0)), (0.5, Dist::die(2))]);
        assert!(close(m.pmf(0), 0.5) && close(m.pmf(2), 0.25));
    }

    #[test]
    fn sustained_fire_die_faces() {
        let sf = Dist::faces(&[1, 1, 2, 2, 3, 0]);
        assert!(close(sf.pmf(1), 1.0 / 3.0));
        assert!(close(sf.pmf(0), 1.0 / 6.0));
        assert!(close(sf.mean(), 9.0 / 6.0));
    }
}
