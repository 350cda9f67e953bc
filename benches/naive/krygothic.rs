//! Naive per-die loops of the krygothic scenarios (see `mod.rs`).

use super::NaiveLoop;

/// The krygothic loops written so far.
pub static LOOPS: &[NaiveLoop] = &[];
