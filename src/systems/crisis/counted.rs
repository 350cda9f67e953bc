//! Faster samplers that roll the very same dice: a chunk's trials are
//! counted by how they ended, and each distinct ending is recorded once
//! with its count. The tallies are the ones trial-by-trial recording gives
//! (every metric is recorded once a trial, so the sums of squares agree
//! too), so pinned results do not move. Checks and initiative take the
//! engine's face table where their dice fit it (a trial's dice one draw,
//! several a word) and count their dice totals in a dense table otherwise
//! ([`CountedTotals`]; `damage` counts its Extras the same way in its own
//! model).
//! Every other Crisis rule is sampled as the engine picks for its shape.

use super::rules::SkillRoll;
use crate::dice::{BatchedRoller, Tally, Times};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDef, Model, Sampler};

/// A mechanic whose trial is one or two Skill rolls and whose state is
/// their totals plus fixed bonuses (a check, a contest, initiative),
/// sampled by counting the dice totals in a dense table and recording each
/// pair once: the same dice in the same order, the same tally. Falls back
/// to trial-by-trial when the table would be too big.
pub struct CountedTotals<M: Mechanic<State = (i64, i64)>> {
    /// The mechanic.
    pub model: StepModel<M>,
    /// Its Skill roll.
    pub roll: SkillRoll,
    /// Rolls a trial makes: 1 (the second total is 0) or 2.
    pub rolls: u32,
    /// Added to the first and second dice totals.
    pub bonus: (i64, i64),
}

impl<M: Mechanic<State = (i64, i64)>> Model for CountedTotals<M> {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn plan(&self, trials: u64) {
        self.model.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        // where the rolls' dice fit the engine's face table, a trial's
        // dice are one draw there (several a word): faster than counting
        // the totals die by die
        if self.model.sampler() == Sampler::FaceTable && !counted_only() {
            return self.model.run_chunk(roller, trials, tally);
        }
        let Some(counts) = count_rolls(&self.roll, self.rolls, roller, trials) else {
            return self.model.run_chunk(roller, trials, tally);
        };
        for ((first, second), count) in counts.pairs() {
            let state = if self.rolls == 2 {
                (first + self.bonus.0, second + self.bonus.1)
            } else {
                (first + self.bonus.0, 0)
            };
            let mut sink = Times {
                tally: &mut *tally,
                count,
            };
            self.model.mechanic().record(&state, &mut sink);
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        match self.model.sampler() {
            Sampler::FaceTable => Sampler::FaceTable,
            _ => Sampler::Custom("dice totals counted in a dense table"),
        }
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

#[cfg(test)]
thread_local! {
    /// Set by a test that holds the counted path (taken where the dice do
    /// not fit a face table) to trial-by-trial sampling on the same dice.
    pub(crate) static COUNTED_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a test asked for the counted path even where a face table fits.
#[inline]
pub(crate) fn counted_only() -> bool {
    #[cfg(test)]
    {
        COUNTED_ONLY.with(|c| c.get())
    }
    #[cfg(not(test))]
    {
        false
    }
}

/// Most cells of a dense table of dice totals.
const DENSE_CELLS: usize = 1 << 16;

/// The dice totals of one or two Skill rolls a trial makes, counted over
/// `trials` trials in a dense table: entry `sum_j (v_j - lowest) *
/// width^(rolls - 1 - j)` counts the trials whose rolls showed `v_0, v_1,
/// ...`. The dice are rolled in the order a trial rolls them. `None`,
/// before any die is rolled, when the table would pass [`DENSE_CELLS`].
pub fn count_rolls(
    roll: &SkillRoll,
    rolls: u32,
    roller: &mut BatchedRoller,
    trials: u64,
) -> Option<DenseCounts> {
    debug_assert!((1..=2).contains(&rolls), "one or two rolls");
    let lowest = roll.lowest();
    let highest = roll.law().last().map_or(lowest, |(v, _)| *v);
    let width = usize::try_from(highest - lowest + 1).ok()?;
    let cells = width.checked_pow(rolls).filter(|&c| c <= DENSE_CELLS)?;
    let mut counts = vec![0u64; cells];
    for _ in 0..trials {
        let mut index = 0;
        for _ in 0..rolls {
            index = index * width + (roll.dice(roller) - lowest) as usize;
        }
        counts[index] += 1;
    }
    Some(DenseCounts {
        lowest,
        width,
        rolls,
        counts,
    })
}

/// Trials counted by the dice totals they rolled ([`count_rolls`]).
pub struct DenseCounts {
    lowest: i64,
    width: usize,
    rolls: u32,
    counts: Vec<u64>,
}

impl DenseCounts {
    /// Each tuple of totals rolled (first roll first, at most two shown)
    /// with how many trials rolled it.
    pub fn pairs(&self) -> impl Iterator<Item = ((i64, i64), u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| {
                let (first, second) = if self.rolls == 2 {
                    (i / self.width, i % self.width)
                } else {
                    (i, 0)
                };
                (
                    (
                        first as i64 + self.lowest,
                        second as i64 + self.lowest * i64::from(self.rolls == 2),
                    ),
                    *n,
                )
            })
    }
}
