//! The dice kernel: game-agnostic exact distributions, Monte Carlo streams,
//! streaming tallies and statistics. Nothing here knows any rule set.

mod dist;
mod expr;
mod game;
mod lanes;
mod linear;
mod markov;
mod pool;
mod roller;
pub mod stats;
mod tally;

#[cfg(test)]
pub mod testing;

pub use dist::{Dist, binomial_pmf};
pub use expr::{
    Cmp, Expr, ExprError, MAX_LENGTH, MAX_NESTING, MAX_ROLL_DICE, MAX_TERMS, NamedDie, Pool,
    Reroll, TooBig,
};
pub use game::{Equilibrium, Mix, Rounding, guarantees, solve_zero_sum};
#[cfg(target_arch = "x86_64")]
pub use lanes::xoshiro_step_avx512;
pub use lanes::{LaneStreams, LaneWords, STREAMS, lanes_by_vector};
pub use linear::solve_linear;
pub use markov::{Absorbed, AbsorbingChain, ChainError, absorb_monotone};
pub use pool::{Alias, Extremes, LawCache, SharedLaw, extremes_law};
pub use roller::{
    BATCH_LIMIT, BatchedRoller, FaceSums, GivenFaces, Lent, Replay, Roller, StateDist,
    TooManyPaths, enumerate, enumerate_counted, split_word, stream_seed,
};
pub use tally::{Expectation, Metric, MetricSink, Tally, Times};
