//! Naive per-die loops: each scenario's rule at its first test point
//! (`Scenario::test_points[0]` in the registry), written the obvious way a
//! newcomer would: one `random_range` per die, branching on each, counting
//! one headline metric. They are the "1x" of the "ratio to a naive loop"
//! column in docs/BENCHMARKS.md (`benches/scenarios.rs` times each beside
//! the scenario's sampler in the same run), and `tests/naive_loops.rs`
//! holds each one to the scenario's exact value, so a loop that drifts from
//! the rule (or from the registry's test point) fails a test instead of
//! flattering a ratio.

pub mod bfg;
pub mod crisis;
pub mod gce;
pub mod krygothic;
pub mod skirmish20;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every naive loop draws from.
pub type Rng = Xoshiro256PlusPlus;

/// A loop's per-trial values summed, with their squares for the test's
/// variance.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sums {
    pub trials: u64,
    pub sum: u64,
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
pub struct NaiveLoop {
    pub system: &'static str,
    pub scenario: &'static str,
    /// The metric the loop estimates, by id: its mean per trial is the
    /// metric's value (a probability counts 0 or 1 a trial).
    #[allow(dead_code)] // read by tests/naive_loops.rs, not by the benches
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

/// Every naive loop written so far.
pub fn all() -> impl Iterator<Item = &'static NaiveLoop> {
    gce::LOOPS
        .iter()
        .chain(bfg::LOOPS)
        .chain(krygothic::LOOPS)
        .chain(skirmish20::LOOPS)
        .chain(crisis::LOOPS)
}

/// The naive loop of `system`/`scenario`, if one is written.
pub fn find(system: &str, scenario: &str) -> Option<&'static NaiveLoop> {
    all().find(|l| l.system == system && l.scenario == scenario)
}
