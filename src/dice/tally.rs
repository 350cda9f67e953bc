//! Streaming tallies: a fixed set of integer sums per metric, so a run of a
//! billion trials needs the same memory as a run of ten, and tallies from any
//! number of chunks merge exactly (integer addition is order-independent).

use std::ops::AddAssign;

/// A named metric's slot in a tally: handed out when a model declares the
/// metric, so a mechanic records "p_hit", never "slot 3".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Metric(usize);

impl Metric {
    /// The slot `index`; only the declaration list hands these out.
    pub(crate) fn at(index: usize) -> Self {
        Metric(index)
    }

    /// Position in the model's metric list (for reports walking all metrics).
    pub fn index(self) -> usize {
        self.0
    }
}

/// Where a mechanic records the value of each metric for one trial (or one
/// weighted outcome, for the exact evaluator).
pub trait MetricSink {
    /// Records `value` for `metric`.
    fn record(&mut self, metric: Metric, value: u64);
}

/// Integer sums for the Monte Carlo side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    trials: u64,
    sums: Vec<u64>,
    sums_sq: Vec<u128>,
}

impl Tally {
    /// An empty tally for `metrics` metrics.
    pub fn new(metrics: usize) -> Self {
        Tally {
            trials: 0,
            sums: vec![0; metrics],
            sums_sq: vec![0; metrics],
        }
    }

    /// A tally from its sums, as [`trials`](Self::trials), [`sum`](Self::sum)
    /// and [`sum_sq`](Self::sum_sq) give them (shards written to files and
    /// read back for `krunch merge`).
    pub fn from_sums(trials: u64, sums: Vec<u64>, sums_sq: Vec<u128>) -> Self {
        assert_eq!(sums.len(), sums_sq.len(), "one sum of squares per sum");
        Tally {
            trials,
            sums,
            sums_sq,
        }
    }

    /// How many metrics it holds.
    pub fn metrics(&self) -> usize {
        self.sums.len()
    }

    /// Counts one finished trial.
    #[inline]
    pub fn finish_trial(&mut self) {
        self.trials += 1;
    }

    /// Adds `n` finished trials at once (for hand-batched fast paths).
    pub fn add_trials(&mut self, n: u64) {
        self.trials += n;
    }

    /// Adds `count` trials of value `value` to `metric`.
    #[inline]
    pub fn record_many(&mut self, metric: Metric, value: u64, count: u64) {
        self.sums[metric.0] += value * count;
        self.sums_sq[metric.0] += u128::from(value * value) * u128::from(count);
    }

    /// Trials tallied.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// Sum of metric `index` over all trials.
    pub fn sum(&self, index: usize) -> u64 {
        self.sums[index]
    }

    /// Sum of squares of metric `index`.
    pub fn sum_sq(&self, index: usize) -> u128 {
        self.sums_sq[index]
    }
}

impl MetricSink for Tally {
    #[inline]
    fn record(&mut self, metric: Metric, value: u64) {
        self.sums[metric.0] += value;
        self.sums_sq[metric.0] += u128::from(value * value);
    }
}

/// Records into a tally as if `count` trials had each recorded the same
/// values: a fast path counts how many trials ended in each outcome and
/// records each outcome once. Exact for the sums of squares as long as a
/// trial records each metric once.
pub struct Times<'a> {
    /// The tally.
    pub tally: &'a mut Tally,
    /// How many trials.
    pub count: u64,
}

impl MetricSink for Times<'_> {
    #[inline]
    fn record(&mut self, metric: Metric, value: u64) {
        self.tally.record_many(metric, value, self.count);
    }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, rhs: &Tally) {
        self.trials += rhs.trials;
        for (a, b) in self.sums.iter_mut().zip(&rhs.sums) {
            *a += b;
        }
        for (a, b) in self.sums_sq.iter_mut().zip(&rhs.sums_sq) {
            *a += b;
        }
    }
}

/// Probability-weighted sums for the exact side: expected value per metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    weight: f64,
    values: Vec<f64>,
}

impl Expectation {
    /// Zero expectations for `metrics` metrics.
    pub fn new(metrics: usize) -> Self {
        Expectation {
            weight: 1.0,
            values: vec![0.0; metrics],
        }
    }

    /// Sets the probability of the outcome about to be recorded.
    pub fn set_weight(&mut self, p: f64) {
        self.weight = p;
    }

    /// Adds an expected amount straight to `metric`: a mean an exact
    /// evaluator carries as an expectation rather than as outcomes.
    pub fn add_expected(&mut self, metric: Metric, amount: f64) {
        self.values[metric.0] += amount;
    }

    /// The expected values.
    pub fn into_values(self) -> Vec<f64> {
        self.values
    }
}

impl MetricSink for Expectation {
    fn record(&mut self, metric: Metric, value: u64) {
        self.values[metric.0] += self.weight * value as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_merge_exactly() {
        let mut a = Tally::new(2);
        a.record(Metric(0), 1);
        a.record(Metric(1), 3);
        a.finish_trial();
        let mut b = Tally::new(2);
        b.record(Metric(1), 2);
        b.finish_trial();
        a += &b;
        assert_eq!((a.trials(), a.sum(0), a.sum(1), a.sum_sq(1)), (2, 1, 5, 13));
    }
}
