//! Turns to kill, solved forward: a repeated rule whose state counts the
//! turns (for `turns={k}`) but whose sub-steps do not read the count (or
//! read it only up to a turn after which nothing changes) is evaluated
//! exactly turn by turn: every state a turn can start from is stepped
//! through the turn's sub-steps together, equal states merged after each,
//! and each sub-step's law from each state is kept across turns, keyed by
//! the state with the count cleared, or held at the turn after which no
//! sub-step reads it. Solving the chain backward from each
//! start instead enumerates every state's turn once per turn count (the
//! count is in the state): GCE's turns to kill passed the work limit at
//! five Boyz that way.

use super::{EXACT_WORK, MetricDef, Model, NoExact, RepeatModel, Repeated, Sampler};
use crate::dice::{BatchedRoller, Expectation, Metric, MetricSink, Replay, StateDist, Tally};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Most dice paths one sub-step from one state may have.
const PATHS: usize = 1 << 16;

/// Each sub-step's law from each state met, keyed `(sub-step, law key)`.
type Laws<S> = HashMap<(usize, S), Vec<(S, f64)>>;

/// A repeated rule that counts its turns in its state.
pub trait TurnCounted: Repeated {
    /// Turns played at most.
    fn turns(&self) -> usize;

    /// `s` as a sub-step's law is kept: the turn count cleared, or held at
    /// the turn after which no sub-step reads it.
    fn law_key(&self, s: &Self::State) -> Self::State;

    /// `after`, reached by a sub-step from [`TurnCounted::law_key`]`(from)`,
    /// with `from`'s turn count back.
    fn on_turn_of(&self, after: &Self::State, from: &Self::State) -> Self::State;
}

/// A turn-counting repeated rule as a model: sampled as the repeated rule
/// it is, solved exactly forward.
pub struct ForwardTurns<R: TurnCounted>(pub RepeatModel<R>);

impl<R: TurnCounted> ForwardTurns<R> {
    fn forward(&self) -> Result<Vec<f64>, NoExact> {
        let model = &self.0;
        let rule = model.rule();
        let defs = model.metrics();
        let index = |id: &str| defs.iter().position(|d| d.name == id).map(Metric::at);
        let mut e = Expectation::new(defs.len());
        let mut d = StateDist::certain(rule.start());
        let mut mean = 0.0;
        let mut work = 0u64;
        let mut laws: Laws<R::State> = HashMap::new();
        for k in 1..=rule.turns() {
            for i in 0..rule.sub_steps() {
                let mut next: Vec<(R::State, f64)> = Vec::new();
                for (s, p) in d.iter() {
                    let law = match laws.entry((i, rule.law_key(s))) {
                        Entry::Occupied(law) => law.into_mut(),
                        Entry::Vacant(slot) => {
                            let law = StateDist::certain(slot.key().1.clone())
                                .step_counted(PATHS, &mut work, |r: &mut Replay, s| {
                                    rule.sub_step(i, r, s)
                                })
                                .map_err(|_| NoExact::TooManyPaths { limit: PATHS })?;
                            if work > EXACT_WORK {
                                return Err(NoExact::TooMuchWork { limit: EXACT_WORK });
                            }
                            slot.insert(law.iter().map(|(t, q)| (t.clone(), q)).collect())
                        }
                    };
                    next.extend(law.iter().map(|(t, q)| (rule.on_turn_of(t, s), p * q)));
                }
                d = StateDist::from_pairs(next);
            }
            let mut going = Vec::new();
            let mut over = 0.0;
            for (s, p) in d.iter() {
                let mut s = s.clone();
                rule.end_round(&mut s);
                if rule.over(&s) {
                    e.set_weight(p);
                    rule.record(&s, &mut e);
                    over += p;
                } else {
                    going.push((s, p));
                }
            }
            mean += k as f64 * over;
            if let Some(m) = index(&format!("{}={k}", R::ROUND)) {
                e.set_weight(over);
                e.record(m, 1);
            }
            d = StateDist::from_pairs(going);
        }
        if let Some(m) = index(&format!("mean_{}", R::ROUND)) {
            e.set_weight(mean);
            e.record(m, 1);
        }
        Ok(e.into_values())
    }
}

impl<R: TurnCounted> Model for ForwardTurns<R> {
    fn metrics(&self) -> &[MetricDef] {
        self.0.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.0.run_chunk(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.forward().ok()
    }

    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        self.forward()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.0.sample_one(roller, values);
    }

    fn plan(&self, trials: u64) {
        self.0.plan(trials);
    }

    fn sampler(&self) -> Sampler {
        self.0.sampler()
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.0.run_reference(roller, trials, tally);
    }
}
