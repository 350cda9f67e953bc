//! Naive per-die loops of the bfg scenarios (see `mod.rs`).

use super::NaiveLoop;

/// The bfg loops written so far.
pub static LOOPS: &[NaiveLoop] = &[];
