//! A rule whose outcome has an exact law computed by dynamic programming
//! (not by replaying dice) and a sampler on real dice: both record the same
//! outcome through the same metric handles. The engine counts a chunk's
//! outcomes and records each once ([`Sampler::CountedDice`]); the final
//! law is never sampled, so the Monte Carlo stays a check of the dynamic
//! programming.

use super::walk::DenseEnds;
use super::{MetricDef, MetricKind, MetricList, Model, Sampler, TrialValues};
use crate::dice::{BatchedRoller, Expectation, MetricSink, Roller, Tally, Times};

/// An outcome with an exact law and a sampler.
pub trait Outcomes: Send + Sync {
    /// What one trial yields.
    type Out: Clone + Eq + std::hash::Hash;

    /// The metric handles `record` uses.
    fn metrics(&self) -> &MetricList;

    /// One trial on real dice.
    fn sample<R: Roller>(&self, dice: &mut R) -> Self::Out;

    /// Every outcome with its exact probability.
    fn law(&self) -> Vec<(Self::Out, f64)>;

    /// Where the sampler counts `out` in a dense table (`< slots()`, equal
    /// slots meaning equal outcomes) instead of hashing it; `None` (the
    /// default): hash it.
    fn slot(&self, _out: &Self::Out) -> Option<usize> {
        None
    }

    /// Slots of [`Outcomes::slot`]'s table (0: none).
    fn slots(&self) -> usize {
        0
    }

    /// Records one outcome.
    fn record(&self, out: &Self::Out, sink: &mut impl MetricSink);
}

/// The [`Model`] of an [`Outcomes`] rule.
pub struct OutcomeModel<O: Outcomes>(pub O);

impl<O: Outcomes> Model for OutcomeModel<O> {
    fn metrics(&self) -> &[MetricDef] {
        self.0.metrics().defs()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut ends: DenseEnds<O::Out> = DenseEnds::new(self.0.slots());
        for _ in 0..trials {
            let out = self.0.sample(roller);
            ends.add(self.0.slot(&out), out);
        }
        for (out, count) in ends.ends() {
            self.0.record(
                out,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        Sampler::CountedDice
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            let out = self.0.sample(roller);
            self.0.record(&out, tally);
            tally.finish_trial();
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let mut e = Expectation::new(self.0.metrics().len());
        for (out, p) in self.0.law() {
            e.set_weight(p);
            self.0.record(&out, &mut e);
        }
        // a law's probabilities sum to 1 within a few ulps: keep
        // probabilities inside [0, 1] (a baseline refuses 1 + 2e-16)
        let mut values = e.into_values();
        for (v, d) in values.iter_mut().zip(self.0.metrics().defs()) {
            if d.kind == MetricKind::Probability {
                *v = v.clamp(0.0, 1.0);
            }
        }
        Some(values)
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let out = self.0.sample(roller);
        self.0.record(&out, &mut TrialValues(values));
    }
}
