//! Naive per-die loops of the crisis scenarios (see `mod.rs`).

use super::NaiveLoop;

/// The crisis loops written so far.
pub static LOOPS: &[NaiveLoop] = &[];
