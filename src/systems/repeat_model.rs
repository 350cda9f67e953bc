//! A [`Model`] for "repeat until" rules: a round, written once as
//! sub-steps on a state, repeats until the state says it is over (a
//! boarding grapple until one ship is taken, a fire until it goes out). The
//! sampler loops rounds; the exact evaluator enumerates one round (merging
//! equal states between sub-steps) and solves the chain with the kernel's
//! [`absorb_monotone`], which needs every cycle to be a self-loop.

use super::{MetricDef, Model, TrialValues};
use crate::dice::{
    BatchedRoller, Expectation, MetricSink, Replay, Roller, StateDist, Tally, absorb_monotone,
};

/// Cap on dice paths for one sub-step of the exact evaluator.
const PATHS: usize = 1 << 16;

/// A rule that repeats a round until it is over.
pub trait Repeated: Send + Sync {
    /// Everything the rule has done so far.
    type State: Ord + Clone + Send;

    /// What one round is called in metric names (`end_phases`, `turns`).
    const ROUND: &'static str;

    /// The state before the first round.
    fn start(&self) -> Self::State;

    /// Whether the rule is over.
    fn over(&self, state: &Self::State) -> bool;

    /// Sub-steps of one round.
    fn sub_steps(&self) -> usize;

    /// Sub-step `i` of a round.
    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, state: &mut Self::State);

    /// Records the rule's own metrics for a finished state.
    fn record(&self, state: &Self::State, sink: &mut impl MetricSink);
}

/// The model of a [`Repeated`] rule: its own metrics, then
/// `mean_<rounds>`, `<rounds>=k` for `k = 1..=shown` and `<rounds>>shown`.
pub struct RepeatModel<M: Repeated> {
    rule: M,
    metrics: Vec<MetricDef>,
    rounds_from: usize,
    shown: usize,
}

impl<M: Repeated> RepeatModel<M> {
    /// Wraps `rule`, whose `record` fills `metrics`; round counts up to
    /// `shown` are reported one by one.
    pub fn new(rule: M, mut metrics: Vec<MetricDef>, shown: usize) -> Self {
        let rounds_from = metrics.len();
        metrics.push(MetricDef::mean(
            format!("mean_{}", M::ROUND),
            "expected rounds until it is over",
        ));
        for k in 1..=shown {
            metrics.push(MetricDef::probability(
                format!("{}={k}", M::ROUND),
                "P(over after exactly k rounds)",
            ));
        }
        metrics.push(MetricDef::probability(
            format!("{}>{shown}", M::ROUND),
            "P(not over after that many rounds)",
        ));
        RepeatModel {
            rule,
            metrics,
            rounds_from,
            shown,
        }
    }

    /// The rule.
    pub fn rule(&self) -> &M {
        &self.rule
    }

    fn trial(&self, dice: &mut impl Roller, sink: &mut impl MetricSink) {
        let mut s = self.rule.start();
        let mut rounds = 0;
        while !self.rule.over(&s) {
            for i in 0..self.rule.sub_steps() {
                self.rule.sub_step(i, dice, &mut s);
            }
            rounds += 1;
        }
        self.rule.record(&s, sink);
        sink.record(self.rounds_from, rounds as u64);
        sink.record(self.rounds_from + rounds.min(self.shown + 1), 1);
    }

    /// The exact one-round transition from `s`.
    fn transition(&self, s: &M::State) -> Option<Vec<(M::State, f64)>> {
        let mut d = StateDist::certain(s.clone());
        for i in 0..self.rule.sub_steps() {
            d = d
                .step(PATHS, |r: &mut Replay, b| self.rule.sub_step(i, r, b))
                .ok()?;
        }
        Some(d.iter().map(|(b, p)| (b.clone(), p)).collect())
    }
}

impl<M: Repeated> Model for RepeatModel<M> {
    fn metrics(&self) -> &[MetricDef] {
        &self.metrics
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            self.trial(roller, tally);
            tally.finish_trial();
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let a = absorb_monotone(
            &self.rule.start(),
            self.shown,
            &|s: &M::State| self.rule.over(s),
            &mut |s: &M::State| self.transition(s),
        )?;
        let mut e = Expectation::new(self.metrics.len());
        for (f, p) in &a.finals {
            e.set_weight(*p);
            self.rule.record(f, &mut e);
        }
        for k in 1..=self.shown + 1 {
            e.set_weight(a.steps[k]);
            e.record(self.rounds_from + k, 1);
        }
        e.set_weight(a.mean_steps);
        e.record(self.rounds_from, 1);
        Some(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.trial(roller, &mut TrialValues(values));
    }
}
