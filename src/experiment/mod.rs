//! Experiment specs (TOML) and the runner that turns them into results;
//! `compare` and `check` set up and run their comparisons and checks here
//! (the command line only prints and writes what they return).

pub mod at_least;
pub mod check;
pub mod compare;
mod exact;
pub mod quantiles;
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

/// Helpers for the experiment modules' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use std::path::PathBuf;

    /// A scratch folder of this process for `name`, emptied.
    pub fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("krunch-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `text` written as `<name>.toml` in a scratch folder, and loaded.
    pub fn spec(name: &str, text: &str) -> (PathBuf, super::Experiment) {
        let dir = scratch(name);
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        let exp = super::load(&path).unwrap_or_else(|e| panic!("{e}"));
        (path, exp)
    }

    /// A small GCE fire spec: two cells (helpers 0 and 5), one profile,
    /// `trials` trials. Five helpers put the fire out at once (D6 + 5 is
    /// always 6 or more): P(out of action) 0, one turn.
    pub fn fire(trials: u64) -> String {
        format!(
            "title = \"fire\"\nsystem = \"gce\"\nscenario = \"fire\"\ntrials = {trials}\nseed = 5\n\n[base]\nwounds = 1\ntoughness = 3\ntarget_ws = 3\ntarget_bs = 3\n\n[[profile]]\nname = \"on fire\"\n\n[sweep]\nhelpers = [0, 5]\n"
        )
    }
}
