//! Naive per-die loops: each scenario's rule at its first test point
//! (`Scenario::test_points[0]`), written the obvious way a newcomer would:
//! one `random_range` per die, branching on each, counting one headline
//! metric. A scenario carries its loop ([`crate::systems::Scenario::naive`])
//! for two readers: the benchmarks time it beside the scenario's sampler
//! (the "1x" of the "ratio to a naive loop" column of docs/BENCHMARKS.md),
//! and `tests/naive_loops.rs` holds it to the scenario's exact value, so a
//! loop that drifts from the rule (or from its test point) fails a test
//! instead of flattering a ratio. Each rule set's loops sit in its folder's
//! `naive.rs` and import nothing of the rule code they check, on purpose
//! (Kry-Gothic's close-combat game asks the rule set only for the
//! solver's optimal mixes, then draws and rolls everything itself).

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every naive loop draws from.
pub type Rng = Xoshiro256PlusPlus;

/// A loop's per-trial values summed, with their squares for a test's
/// variance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    /// Trials run.
    pub trials: u64,
    /// The metric's per-trial values summed.
    pub sum: u64,
    /// Their squares summed.
    pub sum_sq: u64,
}

impl Sums {
    /// Records one trial's value.
    #[inline]
    pub fn add(&mut self, value: u64) {
        self.trials += 1;
        self.sum += value;
        self.sum_sq += value * value;
    }
}

/// A scenario's naive loop.
#[derive(Clone, Copy, Debug)]
pub struct NaiveLoop {
    /// The metric the loop estimates, by id: its mean per trial is the
    /// metric's value (a probability counts 0 or 1 a trial).
    pub metric: &'static str,
    /// Runs `n` trials.
    pub run: fn(&mut Rng, u64) -> Sums,
}

/// One die with `sides` sides.
#[inline]
pub fn d(rng: &mut Rng, sides: u32) -> u32 {
    rng.random_range(1..=sides)
}

/// The sum of `n` dice with `sides` sides.
#[inline]
pub fn nd(rng: &mut Rng, n: u32, sides: u32) -> u32 {
    (0..n).map(|_| d(rng, sides)).sum()
}
