//! krunch: how likely is it? Exact and Monte Carlo odds for tabletop
//! wargame rules.
//!
//! Layers, top to bottom: [`report`] writes files, [`experiment`] turns specs
//! into runs, [`systems`] holds one module per rule set, [`engine`] samples
//! and solves their rules, and [`dice`] is the game-agnostic kernel.
#![deny(missing_docs)]

pub mod dice;
pub mod engine;
pub mod experiment;
pub mod limits;
pub mod report;
pub mod systems;
