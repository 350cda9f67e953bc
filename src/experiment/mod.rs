//! Experiment specs (TOML) and the runner that turns them into results.

pub mod check;
pub mod compare;
mod run;
mod spec;

pub use run::{CHUNK, Results, Row, run, simulate, variants_text};
pub use spec::{
    Axis, ChartSpec, Expected, Experiment, MAX_NAME_LEN, SpecError, check_name, load, load_with,
    param_from_text,
};
