//! A rule whose outcome has an exact law computed by dynamic programming
//! (not by replaying dice) and a sampler on real dice: both record the same
//! outcome through the same metric handles. The engine counts a chunk's
//! outcomes and records each once ([`Sampler::CountedDice`]), with the
//! sampler's outcome of every face combination laid out once where its dice
//! are few ([`Sampler::FaceTable`]); the final law is never sampled, so the
//! Monte Carlo stays a check of the dynamic programming.

use super::faces::{FaceTable, PlannedTable};
use super::walk::DenseEnds;
use super::{MetricDef, MetricKind, MetricList, Model, Sampler, TrialValues};
use crate::dice::{BatchedRoller, Expectation, MetricSink, Roller, Tally, Times};

/// An outcome with an exact law and a sampler.
pub trait Outcomes: Send + Sync {
    /// What one trial yields.
    type Out: Clone + Eq + std::hash::Hash + Send + Sync;

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
pub struct OutcomeModel<O: Outcomes> {
    rule: O,
    /// The face table, laid out the first time the model samples (`None`:
    /// the dice are too many, so counted dice).
    faces: PlannedTable<O::Out>,
}

impl<O: Outcomes> OutcomeModel<O> {
    /// The model of `rule`.
    pub fn new(rule: O) -> Self {
        OutcomeModel {
            rule,
            faces: PlannedTable::default(),
        }
    }

    /// The rule.
    pub fn rule(&self) -> &O {
        &self.rule
    }

    fn faces(&self) -> Option<&FaceTable<O::Out>> {
        self.faces.get(|d| self.rule.sample(d))
    }

    fn record_counted<'a>(
        &self,
        ends: impl Iterator<Item = (&'a O::Out, u64)>,
        trials: u64,
        tally: &mut Tally,
    ) where
        O::Out: 'a,
    {
        for (out, count) in ends.filter(|(_, n)| *n > 0) {
            self.rule.record(
                out,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }
}

impl<O: Outcomes> Model for OutcomeModel<O> {
    fn metrics(&self) -> &[MetricDef] {
        self.rule.metrics().defs()
    }

    fn plan(&self, trials: u64) {
        self.faces.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut ends: DenseEnds<O::Out> = DenseEnds::new(self.rule.slots());
        if let Some(table) = self.faces() {
            let counts = table.count(
                roller,
                trials,
                |d| self.rule.sample(d),
                |out| ends.add(self.rule.slot(&out), out),
            );
            let counted = table.ends().iter().zip(counts);
            return self.record_counted(counted.chain(ends.ends()), trials, tally);
        }
        for _ in 0..trials {
            let out = self.rule.sample(roller);
            ends.add(self.rule.slot(&out), out);
        }
        self.record_counted(ends.ends(), trials, tally);
    }

    fn sampler(&self) -> Sampler {
        if self.faces().is_some() {
            Sampler::FaceTable
        } else {
            Sampler::CountedDice
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            let out = self.rule.sample(roller);
            self.rule.record(&out, tally);
            tally.finish_trial();
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let mut e = Expectation::new(self.rule.metrics().len());
        for (out, p) in self.rule.law() {
            e.set_weight(p);
            self.rule.record(&out, &mut e);
        }
        // a law's probabilities sum to 1 within a few ulps: keep
        // probabilities inside [0, 1] (a baseline refuses 1 + 2e-16)
        let mut values = e.into_values();
        for (v, d) in values.iter_mut().zip(self.rule.metrics().defs()) {
            if d.kind == MetricKind::Probability {
                *v = v.clamp(0.0, 1.0);
            }
        }
        Some(values)
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let out = self.rule.sample(roller);
        self.rule.record(&out, &mut TrialValues(values));
    }
}
