//! A [`Model`] from a mechanic written as a fixed number of steps on a
//! state: the sampler runs the steps on batched dice, the exact evaluator
//! runs the same steps under [`StateDist`], merging equal states between
//! steps. A new rule needs only its steps and its metrics.

use super::{MetricDef, MetricList, Model, TrialValues};
use crate::dice::{BatchedRoller, Expectation, MetricSink, Replay, Roller, StateDist, Tally};

/// Cap on dice paths for one step of the exact evaluator.
pub const STEP_PATHS: usize = 1 << 16;

/// A mechanic as steps on a state.
pub trait Mechanic: Send + Sync {
    /// Everything the mechanic has done so far.
    type State: Ord + Clone + Send;

    /// The state before any dice are rolled.
    fn start(&self) -> Self::State;

    /// How many steps a trial takes (steps may do nothing on some states).
    fn steps(&self) -> usize;

    /// Step `i` of a trial.
    fn step<R: Roller>(&self, i: usize, dice: &mut R, state: &mut Self::State);

    /// The metrics it records, with the handles `record` uses.
    fn metrics(&self) -> &MetricList;

    /// Records the metrics of a finished trial.
    fn record(&self, state: &Self::State, sink: &mut impl MetricSink);
}

/// The model of a [`Mechanic`].
pub struct StepModel<M: Mechanic> {
    mechanic: M,
}

impl<M: Mechanic> StepModel<M> {
    /// Wraps `mechanic`.
    pub fn new(mechanic: M) -> Self {
        StepModel { mechanic }
    }

    /// The mechanic.
    pub fn mechanic(&self) -> &M {
        &self.mechanic
    }

    /// One trial's final state.
    pub fn trial(&self, dice: &mut impl Roller) -> M::State {
        let mut s = self.mechanic.start();
        for i in 0..self.mechanic.steps() {
            self.mechanic.step(i, dice, &mut s);
        }
        s
    }

    /// The exact law of the state after steps `steps` from `s`, or `None`
    /// when a step cannot be enumerated. A fast sampler can draw a run of
    /// steps with it in one go.
    pub fn law_of_steps(
        &self,
        s: &M::State,
        steps: std::ops::Range<usize>,
    ) -> Option<Vec<(M::State, f64)>> {
        let mut d = StateDist::certain(s.clone());
        for i in steps {
            d = d
                .step(STEP_PATHS, |r: &mut Replay, s| self.mechanic.step(i, r, s))
                .ok()?;
        }
        Some(d.iter().map(|(s, p)| (s.clone(), p)).collect())
    }

    /// The exact distribution of final states.
    pub fn exact_states(&self) -> Option<StateDist<M::State>> {
        let mut d = StateDist::certain(self.mechanic.start());
        for i in 0..self.mechanic.steps() {
            d = d
                .step(STEP_PATHS, |r: &mut Replay, s| self.mechanic.step(i, r, s))
                .ok()?;
        }
        Some(d)
    }
}

impl<M: Mechanic> Model for StepModel<M> {
    fn metrics(&self) -> &[MetricDef] {
        self.mechanic.metrics().defs()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            let s = self.trial(roller);
            self.mechanic.record(&s, tally);
            tally.finish_trial();
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let states = self.exact_states()?;
        let mut e = Expectation::new(self.mechanic.metrics().len());
        for (s, p) in states.iter() {
            e.set_weight(p);
            self.mechanic.record(s, &mut e);
        }
        Some(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let s = self.trial(roller);
        self.mechanic.record(&s, &mut TrialValues(values));
    }
}
