//! Experiment specs (TOML) and the runner that turns them into results.

mod run;
mod spec;

pub use run::{CHUNK, Results, Row, run, simulate, variants_text};
pub use spec::{Axis, ChartSpec, Experiment, SpecError, load};
