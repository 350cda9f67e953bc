//! The engine: how a rule is sampled and solved, below every rule set. A
//! scenario hands the engine a rule in one of a few shapes ([`Mechanic`]
//! steps, a [`Repeated`] round, an [`Outcomes`] law with its sampler) and
//! the engine picks how to sample it ([`Sampler`]):
//!
//! - the **reference sampler** rolls the real dice trial by trial through
//!   the rule's own code ([`Model::run_reference`]); `compare` pairs trials
//!   on it and the tests hold every fast sampler to it;
//! - **counted dice**: the same real dice, but a chunk's trials are
//!   counted by how they ended and each ending recorded once;
//! - a **face table**: where a trial rolls few dice, the rule is run once
//!   on every combination of their faces and a trial is one draw of a
//!   combination (all its dice at once) and a look-up ([`faces`]);
//! - **step laws** and **round laws**: a step or a round is drawn from its
//!   exact law (one random word, an alias table built per state the chunk
//!   visits often), so a trial costs a word a step; never a whole trial
//!   from its final law, so the Monte Carlo stays a check of how the exact
//!   evaluator chains steps and solves rounds;
//! - **state face tables** and **state laws** ([`stages`]): a trial
//!   written as steps on a state walked over dense nodes, a group of steps
//!   a look-up of its dice's faces or a draw from its law on the state;
//! - a scenario's own fast path where it knows better (GCE shooting's
//!   face tables), named in [`Sampler::Custom`].
//!
//! The declaration types every scenario uses (metrics) live here too, so no
//! import runs from the engine up to the registry.

pub mod faces;
pub mod forward_turns;
mod metrics;
pub mod outcome_model;
pub mod repeat_model;
pub mod stages;
pub mod step_model;
pub mod walk;

pub use forward_turns::{ForwardTurns, TurnCounted};
pub use metrics::{MetricDecl, MetricDef, MetricKind, MetricList};
pub use outcome_model::{OutcomeModel, Outcomes};
pub use repeat_model::{RepeatModel, Repeated};
pub use step_model::{Mechanic, StepModel};

use crate::dice::{BatchedRoller, Metric, Tally};

/// How a model's [`Model::run_chunk`] samples: the engine's choice, which
/// a test pins per scenario so a silent fall back to a slower path fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampler {
    /// The rule on real dice, trial by trial, every metric recorded every
    /// trial.
    Reference,
    /// Real dice; a chunk's final states counted and recorded once each.
    CountedDice,
    /// The rule run once on every face combination of its dice
    /// ([`faces::FaceTable`]); a trial is a draw of a combination and a
    /// look-up, final states counted.
    FaceTable,
    /// Each step of a [`Mechanic`] drawn from its exact law (cached per
    /// state), final states counted.
    StepLaws,
    /// Each round of a [`Repeated`] rule drawn from its exact law (cached
    /// per state), final states counted.
    RoundLaws,
    /// [`Sampler::RoundLaws`] walked wide: 32 lanes, eight a vector where
    /// the machine has AVX-512, a round a guide-table look-up (the rules
    /// that count no first round and do not opt out,
    /// [`Repeated::WIDE`](repeat_model::Repeated::WIDE)).
    WideRoundLaws,
    /// A scenario's own fast sampler, named for the benchmarks.
    Custom(&'static str),
}

impl std::fmt::Display for Sampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sampler::Reference => f.write_str("reference (real dice, trial by trial)"),
            Sampler::CountedDice => f.write_str("counted dice"),
            Sampler::FaceTable => f.write_str("face table (a trial's dice drawn at once)"),
            Sampler::StepLaws => f.write_str("step laws"),
            Sampler::RoundLaws => f.write_str("round laws"),
            Sampler::WideRoundLaws => f.write_str("round laws, walked wide (32 lanes)"),
            Sampler::Custom(name) => f.write_str(name),
        }
    }
}

/// Most work one exact evaluation of the engine's step and round models may
/// do: dice paths enumerated plus outcomes merged. Measured on one core of
/// the development machine (docs/BENCHMARKS.md): step models do about 17 M
/// units a second, round models about 11 M, so the budget is about a
/// second. Past it the cell is Monte Carlo only and the report says why,
/// instead of a wait of minutes (full auto with 4 Sustained Fire dice and
/// D6 damage on 2 Wounds took 109 s) or a run out of memory.
pub const EXACT_WORK: u64 = 12_000_000;

/// Why a model has no exact value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoExact {
    /// The evaluation passed [`EXACT_WORK`].
    #[error(
        "the exact evaluation passes {limit} units of work (dice paths enumerated and outcomes merged), about a second: Monte Carlo only"
    )]
    TooMuchWork {
        /// The budget.
        limit: u64,
    },
    /// One step from one state has too many dice paths to enumerate.
    #[error(
        "one step from one state has more than {limit} dice paths to enumerate: Monte Carlo only"
    )]
    TooManyPaths {
        /// The limit.
        limit: usize,
    },
    /// The model's own reason.
    #[error("{0}")]
    Other(String),
}

/// A fully specified situation that can be simulated and, where the state
/// space allows, evaluated exactly.
pub trait Model: Send + Sync {
    /// The metrics this model reports, in tally order.
    fn metrics(&self) -> &[MetricDef];

    /// Runs `trials` Monte Carlo trials on `roller`, adding to `tally`,
    /// with the sampler [`Model::sampler`] names.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally);

    /// Exact expected value of every metric, or `None` where the state space
    /// is too large to evaluate exactly.
    fn exact(&self) -> Option<Vec<f64>>;

    /// One trial on real dice through the rule's own code, writing each
    /// metric's value into `values` (zeroed by the caller). `krunch
    /// compare` runs both sides of a change trial by trial on the same dice
    /// through this.
    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]);

    /// The exact values, or why there are none (a report prints it).
    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        self.exact().ok_or_else(|| {
            NoExact::Other("no exact value at these values: Monte Carlo only".into())
        })
    }

    /// Told, before any chunk, how many trials a run will sample from this
    /// model in all (the spec's count: the same on every shard and
    /// thread, so the choice it informs is too). A model whose fast
    /// sampler lays out tables first may skip a layout that would cost
    /// more than those trials save; it never changes what is sampled,
    /// only how fast. Without it (tests, benchmarks) a model lays out
    /// as it would for many trials.
    fn plan(&self, _trials: u64) {}

    /// The sampler `run_chunk` uses.
    fn sampler(&self) -> Sampler {
        Sampler::Reference
    }

    /// The reference sampler: `trials` trials of [`Model::sample_one`].
    /// The tests hold `run_chunk` to this and both to the exact values.
    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut values = vec![0u64; self.metrics().len()];
        for _ in 0..trials {
            values.fill(0);
            self.sample_one(roller, &mut values);
            for (i, &v) in values.iter().enumerate() {
                crate::dice::MetricSink::record(tally, Metric::at(i), v);
            }
            tally.finish_trial();
        }
    }
}

/// A [`MetricSink`](crate::dice::MetricSink) writing one trial's values
/// into a slice.
pub struct TrialValues<'a>(pub &'a mut [u64]);

impl crate::dice::MetricSink for TrialValues<'_> {
    fn record(&mut self, metric: Metric, value: u64) {
        self.0[metric.index()] += value;
    }
}
