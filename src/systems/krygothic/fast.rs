//! Kry-Gothic's own fast samplers' shared pieces: runs of attribute checks
//! (pinning's re-rolls, an order combo's tests), each check one step drawn
//! from its pass law, and the statistical bound their tests use.
//!
//! A run of checks stops at its first check of one kind (pinning: the
//! first pass; an order combo: the first fail) or after a number of
//! checks. Each check is a step: pass or fail with its probability, worked
//! out once per model by enumerating one die of the check through the
//! rule's own [`attribute_check`] on every face it can show (then the
//! chance that some of the check's dice passes), never from the run's
//! final law. A check is a 32-bit uniform against that probability (two a
//! word, an absolute error under `2^-32` a check); the checks' stop bits
//! are laid out 62 at a time in a mask, and a trial's checks are read by
//! counting the mask's trailing zeros, so a trial is a few instructions and
//! no branch per check.

use super::dice::{Reading, attribute_check};
use crate::dice::{BatchedRoller, Tally, Times, enumerate};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{MetricDef, Model, Sampler};

/// P(an attribute check of `dice` dice meets `target`), from one die
/// enumerated through the rule's own check.
pub fn p_check(dice: u32, target: i32, reading: Reading) -> f64 {
    let one = enumerate(1 << 16, |d| attribute_check(d, 1, target, reading))
        .expect("one die of a check has few paths");
    let p1: f64 = one.iter().filter(|(pass, _)| *pass).map(|x| x.1).sum();
    1.0 - (1.0 - p1).powi(dice as i32)
}

/// The 32-bit threshold of an event of probability `p`: a uniform 32-bit
/// draw below it happens with probability `p` within `2^-33`.
pub fn threshold(p: f64) -> u64 {
    (p * 4_294_967_296.0).round().clamp(0.0, 4_294_967_296.0) as u64
}

/// A stream of checks, each stopping a run with probability
/// `stop / 2^32`: their stop bits in a mask, first check lowest.
pub struct Checks {
    stop: u64,
    mask: u64,
    avail: u32,
}

impl Checks {
    /// Checks that stop a run when a 32-bit draw is below `stop`.
    pub fn new(stop: u64) -> Self {
        Checks {
            stop,
            mask: 0,
            avail: 0,
        }
    }

    /// Tops the mask up to at least 63 checks, two a word.
    #[inline]
    fn refill(&mut self, roller: &mut BatchedRoller) {
        while self.avail <= 62 {
            let w = roller.next_word();
            let lo = u64::from(u64::from(w as u32) < self.stop);
            let hi = u64::from((w >> 32) < self.stop);
            self.mask |= (lo | hi << 1) << self.avail;
            self.avail += 2;
        }
    }

    #[inline]
    fn consume(&mut self, n: u32) {
        self.mask = if n >= 64 { 0 } else { self.mask >> n };
        self.avail -= n;
    }

    /// Checks that do not stop before the first that does, at most `cap`
    /// (`cap` checks read when none stops, else the stopping one too).
    #[inline]
    pub fn run(&mut self, roller: &mut BatchedRoller, cap: u32) -> u32 {
        let mut k = 0;
        while k < cap {
            if self.avail < 32 {
                self.refill(roller);
            }
            let zeros = self.mask.trailing_zeros().min(self.avail);
            let need = cap - k;
            if zeros >= need {
                self.consume(need);
                return cap;
            }
            if zeros < self.avail {
                self.consume(zeros + 1);
                return k + zeros;
            }
            k += zeros;
            self.consume(zeros);
        }
        k
    }
}

/// The [`Model`] of a rule whose trial is a run of checks: the
/// [`OutcomeModel`] of the rule for its exact law and reference sampler,
/// and a run of [`Checks`] for `run_chunk`, its length (`0..=cap`) read as
/// the rule's outcome through `outcomes`.
pub struct CheckRuns<O: Outcomes> {
    model: OutcomeModel<O>,
    stop: u64,
    cap: u32,
    outcomes: Vec<O::Out>,
}

impl<O: Outcomes> CheckRuns<O> {
    /// The model of `rule`: checks stopping with probability `p_stop`, at
    /// most `cap` of them not stopping, a run of `k` being `outcomes[k]`.
    pub fn new(rule: O, p_stop: f64, cap: u32, outcomes: Vec<O::Out>) -> Self {
        assert_eq!(outcomes.len(), cap as usize + 1);
        CheckRuns {
            model: OutcomeModel::new(rule),
            stop: threshold(p_stop),
            cap,
            outcomes,
        }
    }

    /// Trials counted by their run's length.
    pub fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let cells = self.outcomes.len();
        // four histograms side by side, trial after trial in turn
        let mut counts = vec![0u64; 4 * cells];
        let mut checks = Checks::new(self.stop);
        let mut left = trials;
        while left >= 4 {
            for lane in 0..4 {
                let k = checks.run(roller, self.cap) as usize;
                counts[4 * k + lane] += 1;
            }
            left -= 4;
        }
        for _ in 0..left {
            let k = checks.run(roller, self.cap) as usize;
            counts[4 * k] += 1;
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }
}

impl<O: Outcomes> Model for CheckRuns<O> {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let counts = self.count(roller, trials);
        for (o, &count) in self.outcomes.iter().zip(&counts) {
            if count > 0 {
                self.model.rule().record(
                    o,
                    &mut Times {
                        tally: &mut *tally,
                        count,
                    },
                );
            }
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        Sampler::Custom("check runs (a check a 32-bit draw of its pass law)")
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
    }
}

/// Test helpers: counts held to probabilities by Bernstein's inequality.
#[cfg(test)]
pub(crate) mod check {
    /// Largest deviation of a count of `n` trials from `n p` that
    /// Bernstein's inequality allows with probability `1 - delta`:
    /// `P(|X - np| >= t) <= 2 exp(-t^2 / (2 (n p (1 - p) + t / 3)))`
    /// (valid for every `p`, rare cells included).
    pub fn bernstein(n: f64, p: f64, delta: f64) -> f64 {
        let l = (2.0 / delta).ln();
        let var = n * p * (1.0 - p);
        l / 3.0 + ((l / 3.0).powi(2) + 2.0 * var * l).sqrt()
    }

    /// Holds `counts` (of `n` trials) to `probs`, cell by cell, every cell
    /// within Bernstein's bound at a family-wise 1e-6 (Bonferroni over the
    /// cells); a cell of probability 0 must stay empty.
    pub fn counts_match(what: &str, counts: &[u64], probs: &[f64]) {
        assert_eq!(counts.len(), probs.len(), "{what}");
        let n: u64 = counts.iter().sum();
        let delta = 1e-6 / probs.len() as f64;
        for (i, (&c, &p)) in counts.iter().zip(probs).enumerate() {
            let dev = (c as f64 - n as f64 * p).abs();
            let bound = bernstein(n as f64, p, delta);
            assert!(
                dev <= bound,
                "{what}: cell {i}: {c} of {n}, expected {} (p {p}), off by {dev} > {bound}",
                n as f64 * p
            );
            if p == 0.0 {
                assert_eq!(c, 0, "{what}: cell {i} cannot happen");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One die against 4 (no re-roll): 1/2; against 7 by the table (a 6,
    /// then 3+ on the re-roll): 1/6 x 4/6 = 1/9; the additive reading (a
    /// 6 then 1+): 1/6. Three dice against 4: 1 - (1/2)^3 = 7/8.
    #[test]
    fn check_probabilities_by_hand() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-15;
        assert!(close(p_check(1, 4, Reading::Table), 0.5));
        assert!(close(p_check(1, 7, Reading::Table), 1.0 / 9.0));
        assert!(close(p_check(1, 7, Reading::Additive), 1.0 / 6.0));
        assert!(close(p_check(3, 4, Reading::Table), 7.0 / 8.0));
        assert_eq!(threshold(1.0), 1 << 32);
        assert_eq!(threshold(0.5), 1 << 31);
    }

    /// Runs of checks stopping with probability 1/3, at most 5 going on: a
    /// run of k < 5 has probability (2/3)^k (1/3), of 5 (2/3)^5; held cell
    /// by cell at a fixed seed, and every check used once: the mean run's
    /// draws, sum (k + 1) for k < 5 and 5 for the cap, match the words.
    #[test]
    fn runs_follow_the_truncated_geometric_law() {
        let stop = threshold(1.0 / 3.0);
        let mut roller = BatchedRoller::new(11, &[4]);
        let mut checks = Checks::new(stop);
        let mut counts = [0u64; 6];
        let mut read = 0u64;
        let trials = 1_000_000;
        for _ in 0..trials {
            let k = checks.run(&mut roller, 5);
            read += u64::from(if k == 5 { 5 } else { k + 1 });
            counts[k as usize] += 1;
        }
        let q: f64 = 2.0 / 3.0;
        let probs: Vec<f64> = (0..6)
            .map(|k| if k == 5 { q.powi(5) } else { q.powi(k) / 3.0 })
            .collect();
        check::counts_match("runs", &counts, &probs);
        // two checks a word: what was drawn is what was read, plus what
        // is still in the mask
        assert_eq!(2 * roller.words(), read + u64::from(checks.avail));
        // a cap of 0 reads nothing
        assert_eq!(checks.run(&mut roller, 0), 0);
        // never stopping: the cap; always stopping: 0
        let mut never = Checks::new(0);
        assert_eq!(never.run(&mut roller, 200), 200);
        let mut always = Checks::new(1 << 32);
        assert_eq!(always.run(&mut roller, 200), 0);
    }
}
