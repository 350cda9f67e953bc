//! A [`Model`] from a mechanic written as a fixed number of steps on a
//! state: the reference sampler runs the steps on batched dice, the exact
//! evaluator runs the same steps under [`StateDist`], merging equal states
//! between steps, and the fast sampler the engine picks walks the steps one
//! exact step law at a time ([`Sampler::StepLaws`]), or, for a rule of one
//! step, counts the real dice's endings ([`Sampler::CountedDice`]). A new
//! rule needs only its steps and its metrics.

use super::walk::{Law, SharedLaws, Walk};
use super::{MetricDef, MetricList, Model, Sampler, TrialValues};
use crate::dice::{
    BatchedRoller, Expectation, MetricSink, Replay, Roller, StateDist, Tally, Times,
};
use std::hash::Hash;

/// Cap on dice paths for one step of the exact evaluator.
pub const STEP_PATHS: usize = 1 << 16;

/// A mechanic as steps on a state.
pub trait Mechanic: Send + Sync {
    /// Everything the mechanic has done so far.
    type State: Ord + Hash + Clone + Send + Sync;

    /// The state before any dice are rolled.
    fn start(&self) -> Self::State;

    /// How many steps a trial takes (steps may do nothing on some states).
    fn steps(&self) -> usize;

    /// Step `i` of a trial.
    fn step<R: Roller>(&self, i: usize, dice: &mut R, state: &mut Self::State);

    /// How many steps the fast sampler draws at once from their joint
    /// exact law (an attacker's round of several sub-steps, say): fewer
    /// random words where sub-steps mean little alone.
    fn steps_per_draw(&self) -> usize {
        1
    }

    /// The metrics it records, with the handles `record` uses.
    fn metrics(&self) -> &MetricList;

    /// Records the metrics of a finished trial.
    fn record(&self, state: &Self::State, sink: &mut impl MetricSink);
}

/// The model of a [`Mechanic`].
pub struct StepModel<M: Mechanic> {
    mechanic: M,
    /// Step `i`'s law from each state met, keyed `(i, state)`.
    laws: SharedLaws<(usize, M::State)>,
}

impl<M: Mechanic> StepModel<M> {
    /// Wraps `mechanic`.
    pub fn new(mechanic: M) -> Self {
        StepModel {
            mechanic,
            laws: SharedLaws::default(),
        }
    }

    /// The reference sampler: every step on real dice, every metric
    /// recorded every trial.
    pub fn run_trials(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            let s = self.trial(roller);
            self.mechanic.record(&s, tally);
            tally.finish_trial();
        }
    }

    /// Real dice, each ending counted and recorded once.
    fn run_counted(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut walk: Walk<M::State> = Walk::default();
        for _ in 0..trials {
            let end = self.trial(roller);
            let id = walk.id(&end);
            walk.end(id);
        }
        self.record_ends(walk.ends(), trials, tally);
    }

    /// The steps the fast sampler draws at once from step `i` on.
    fn draw_from(&self, i: usize) -> std::ops::Range<usize> {
        let per = self.mechanic.steps_per_draw().max(1);
        i..(i + per).min(self.mechanic.steps())
    }

    /// How many draws a trial takes.
    fn draws(&self) -> usize {
        self.mechanic
            .steps()
            .div_ceil(self.mechanic.steps_per_draw().max(1))
    }

    /// Each draw of steps from its exact law once its state is warm.
    fn run_step_laws(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut walk: Walk<(usize, M::State)> = Walk::default();
        let start = walk.id(&(0, self.mechanic.start()));
        let law = |(i, s): &(usize, M::State)| -> Option<Law<(usize, M::State)>> {
            self.laws.get(&(*i, s.clone()), || {
                let steps = self.draw_from(*i);
                let end = steps.end;
                let law = self.law_of_steps(s, steps)?;
                Some(law.into_iter().map(|(t, p)| ((end, t), p)).collect())
            })
        };
        let play = |(i, s): &(usize, M::State), r: &mut BatchedRoller| {
            let mut t = s.clone();
            let steps = self.draw_from(*i);
            let end = steps.end;
            for j in steps {
                self.mechanic.step(j, r, &mut t);
            }
            (end, t)
        };
        let draws = self.draws();
        for _ in 0..trials {
            let mut at = start;
            for _ in 0..draws {
                at = walk.step(at, roller, law, play);
            }
            walk.end(at);
        }
        self.record_ends(walk.ends().map(|((_, s), n)| (s, n)), trials, tally);
    }

    fn record_ends<'a>(
        &self,
        ends: impl Iterator<Item = (&'a M::State, u64)>,
        trials: u64,
        tally: &mut Tally,
    ) where
        M::State: 'a,
    {
        for (s, count) in ends {
            self.mechanic.record(
                s,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
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
        match self.sampler() {
            Sampler::StepLaws => self.run_step_laws(roller, trials, tally),
            _ => self.run_counted(roller, trials, tally),
        }
    }

    /// Step laws where a trial has steps to chain; a rule of one step
    /// counts its real dice instead (drawing it from its law would draw the
    /// whole trial from the exact answer).
    fn sampler(&self) -> Sampler {
        if self.draws() >= 2 {
            Sampler::StepLaws
        } else {
            Sampler::CountedDice
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.run_trials(roller, trials, tally);
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
