//! Naive per-die loops of the skirmish20 scenarios (see `mod.rs`).

use super::NaiveLoop;

/// The skirmish20 loops written so far.
pub static LOOPS: &[NaiveLoop] = &[];
