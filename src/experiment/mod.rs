//! Experiment specs (TOML) and the runner that turns them into results;
//! `compare` and `check` set up and run their comparisons and checks here
//! (the command line only prints and writes what they return).

pub mod check;
pub mod compare;
mod exact;
mod run;
pub mod shard;
pub mod significance;
mod spec;
pub mod template;

pub use exact::{exact_or_why, exact_values};
pub use run::{
    CHUNK, Results, Row, Shard, exact_table, results_from, run, simulate, simulate_share,
    tally_share, variants_text,
};
pub use spec::{
    Axis, ChartSpec, Expected, Experiment, Input, LocateError, MAX_NAME_LEN, NameError, Source,
    SpecError, ValueError, check_name, load, load_with, param_from_text,
};
