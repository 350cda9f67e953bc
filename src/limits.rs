//! Every limit krunch enforces on its input, in one place (docs/DESIGN.md,
//! "Limits", says why each has its value). Expression limits live with the
//! parser: [`crate::dice::MAX_NESTING`] and its neighbours.

use std::io::Read;
use std::path::Path;

/// Largest spec file, in bytes. The biggest bundled spec is under 2 KB; a
/// megabyte of TOML is far past any hand-written sweep, and reading stops
/// there (`krunch run /dev/zero` is refused at once).
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// Largest baseline file, in bytes. A baseline holds one entry of about
/// 150 bytes per cell, profile and metric; [`MAX_MODELS`] cells x profiles
/// with a dozen metrics fits.
pub const MAX_BASELINE_BYTES: u64 = 256 << 20;

/// Most sweep cells in one spec.
pub const MAX_CELLS: usize = 100_000;

/// Most (sweep cell, profile) models in one spec. Every model is built
/// before anything runs and holds its tables (up to tens of kilobytes), so
/// this bounds memory at a few gigabytes in the worst case and usually far
/// less; results are one row per model and metric.
pub const MAX_MODELS: usize = 100_000;

/// Most worker threads. More threads than cores adds nothing (results do not
/// depend on the count); each thread costs a stack and start-up time.
pub const MAX_THREADS: usize = 256;

/// Reads a text file of at most `max` bytes, refusing larger ones without
/// reading past the limit (so `/dev/zero` or a huge file costs nothing).
pub fn read_text(path: &Path, max: u64) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("larger than the {} bytes allowed", max));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to() + 1
        )
    })
}

/// Most trials per model, in a spec or from `--trials`: 10^12 trials is
/// days of computing for one cell, and keeps every count and product of
/// counts far inside 64 bits.
pub const MAX_TRIALS: u64 = 1_000_000_000_000;

/// Checks `--threads`: from 1 to [`MAX_THREADS`].
pub fn check_threads(n: usize) -> Result<(), String> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(())
    } else {
        Err(format!(
            "--threads {n}: give 1 to {MAX_THREADS} (results are the same for any count; more threads than cores only add overhead)"
        ))
    }
}

/// Checks `--trials`: from 1 to [`MAX_TRIALS`].
pub fn check_trials(t: u64) -> Result<(), String> {
    if (1..=MAX_TRIALS).contains(&t) {
        Ok(())
    } else {
        Err(format!("--trials {t}: give 1 to {MAX_TRIALS}"))
    }
}
