//! Faster samplers that roll the very same dice: a chunk's trials are
//! counted by how they ended, and each distinct ending is recorded once
//! with its count. The tallies are the ones trial-by-trial recording gives
//! (every metric is recorded once a trial, so the sums of squares agree
//! too), so pinned results do not move. Checks and initiative count their
//! dice totals in a dense table ([`CountedTotals`], about ten times
//! faster; `damage` counts its Extras the same way in its own model);
//! the scatter counts its few landing fields in a map
//! ([`CountedSteps`], 1.7-2.9x). A map was no faster for attacks and
//! fights (docs/BENCHMARKS.md), so they record trial by trial.

use super::rules::SkillRoll;
use crate::dice::{BatchedRoller, Tally, Times};
use crate::systems::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDef, Model};
use std::collections::BTreeMap;

/// A [`StepModel`] sampled by counting final states.
pub struct CountedSteps<M: Mechanic>(pub StepModel<M>);

impl<M: Mechanic> Model for CountedSteps<M> {
    fn metrics(&self) -> &[MetricDef] {
        self.0.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut ends: BTreeMap<M::State, u64> = BTreeMap::new();
        for _ in 0..trials {
            *ends.entry(self.0.trial(roller)).or_insert(0) += 1;
        }
        for (state, count) in &ends {
            self.0.mechanic().record(
                state,
                &mut Times {
                    tally: &mut *tally,
                    count: *count,
                },
            );
        }
        tally.add_trials(trials);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.0.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.0.sample_one(roller, values);
    }
}

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

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
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

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Metric, MetricSink, Roller};
    use crate::systems::{MetricDecl, MetricList};

    /// 2d6: its total (a mean) and whether it is 7 or more.
    struct TwoDice {
        list: MetricList,
        total: Metric,
        seven: Metric,
    }

    impl Mechanic for TwoDice {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn steps(&self) -> usize {
            1
        }
        fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut u32) {
            *s = dice.sum(2, 6);
        }
        fn metrics(&self) -> &MetricList {
            &self.list
        }
        fn record(&self, s: &u32, sink: &mut impl MetricSink) {
            sink.record(self.total, u64::from(*s));
            sink.record(self.seven, u64::from(*s >= 7));
        }
    }

    const DECLS: [MetricDecl; 2] = [
        MetricDecl::mean("total", "total", "the 2d6 total"),
        MetricDecl::probability("seven", "P(7 or more)", "P(2d6 >= 7)"),
    ];

    fn model() -> StepModel<TwoDice> {
        let mut list = MetricList::new();
        let total = list.add(&DECLS[0]);
        let seven = list.add(&DECLS[1]);
        StepModel::new(TwoDice { list, total, seven })
    }

    #[test]
    fn counting_by_end_state_gives_the_same_tally_on_the_same_dice() {
        let mut one_by_one = Tally::new(2);
        model().run_chunk(&mut BatchedRoller::new(9, &[1]), 10_000, &mut one_by_one);
        let mut counted = Tally::new(2);
        CountedSteps(model()).run_chunk(&mut BatchedRoller::new(9, &[1]), 10_000, &mut counted);
        assert_eq!(one_by_one, counted);
        assert_eq!(counted.trials(), 10_000);
    }
}
