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

/// A file [`read_text`] could not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed (the I/O error is part of the message).
    #[error("cannot read: {0}")]
    Io(std::io::Error),
    /// The file is larger than allowed.
    #[error("larger than the {max} bytes allowed")]
    TooLarge {
        /// The limit, in bytes.
        max: u64,
    },
    /// A FIFO or socket: reading it could wait for ever.
    #[error(
        "not a regular file (a FIFO or socket, which could wait for ever for a writer): give the file itself"
    )]
    NotAFile,
    /// The bytes are not UTF-8.
    #[error("not UTF-8 text (byte {byte} is not valid)")]
    NotUtf8 {
        /// 1-based position of the first invalid byte.
        byte: usize,
    },
}

/// Reads a text file of at most `max` bytes, refusing larger ones without
/// reading past the limit (so `/dev/zero` or a huge file costs nothing).
pub fn read_text(path: &Path, max: u64) -> Result<String, ReadError> {
    // opening a FIFO (or a socket) waits for a writer that may never come
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = std::fs::metadata(path).map_err(ReadError::Io)?.file_type();
        if kind.is_fifo() || kind.is_socket() {
            return Err(ReadError::NotAFile);
        }
    }
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { max });
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        byte: e.utf8_error().valid_up_to() + 1,
    })
}

/// Most trials per model, in a spec or from `--trials`: 10^12 trials is
/// days of computing for one cell, and keeps every count and product of
/// counts far inside 64 bits.
pub const MAX_TRIALS: u64 = 1_000_000_000_000;

/// A command-line option outside its limits.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LimitError {
    /// `--threads` outside 1 to [`MAX_THREADS`].
    #[error(
        "--threads {0}: give 1 to {max} (results are the same for any count; more threads than cores only add overhead)",
        max = MAX_THREADS
    )]
    Threads(usize),
    /// `--trials` outside 1 to [`MAX_TRIALS`].
    #[error("--trials {0}: give 1 to {max}", max = MAX_TRIALS)]
    Trials(u64),
    /// `--alpha` not strictly between 0 and 0.5.
    #[error("--alpha {0} must be between 0 and 0.5")]
    Alpha(f64),
}

/// Checks `--threads`: from 1 to [`MAX_THREADS`].
pub fn check_threads(n: usize) -> Result<(), LimitError> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(())
    } else {
        Err(LimitError::Threads(n))
    }
}

/// Checks `--trials`: from 1 to [`MAX_TRIALS`].
pub fn check_trials(t: u64) -> Result<(), LimitError> {
    if (1..=MAX_TRIALS).contains(&t) {
        Ok(())
    } else {
        Err(LimitError::Trials(t))
    }
}

/// Checks `--alpha` (of `compare` and `check`): a test level, strictly
/// between 0 and 0.5.
pub fn check_alpha(alpha: f64) -> Result<(), LimitError> {
    if alpha > 0.0 && alpha < 0.5 {
        Ok(())
    } else {
        Err(LimitError::Alpha(alpha))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each option's limits, at and one past each edge.
    #[test]
    fn options_are_checked_at_their_edges() {
        assert_eq!(check_threads(0), Err(LimitError::Threads(0)));
        assert_eq!(check_threads(1), Ok(()));
        assert_eq!(check_threads(256), Ok(()));
        assert_eq!(check_threads(257), Err(LimitError::Threads(257)));
        assert_eq!(check_trials(0), Err(LimitError::Trials(0)));
        assert_eq!(check_trials(1), Ok(()));
        assert_eq!(check_trials(1_000_000_000_000), Ok(()));
        assert_eq!(
            check_trials(1_000_000_000_001),
            Err(LimitError::Trials(1_000_000_000_001))
        );
        for ok in [1e-12, 0.001, 0.05, 0.499_999] {
            assert_eq!(check_alpha(ok), Ok(()), "{ok}");
        }
        for bad in [0.0, -0.1, 0.5, 1.0, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(check_alpha(bad), Err(LimitError::Alpha(_))),
                "{bad}"
            );
        }
        assert_eq!(
            check_threads(300).unwrap_err().to_string(),
            "--threads 300: give 1 to 256 (results are the same for any count; more threads than cores only add overhead)"
        );
        assert_eq!(
            check_alpha(0.5).unwrap_err().to_string(),
            "--alpha 0.5 must be between 0 and 0.5"
        );
    }

    fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("krunch-limits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// A file of exactly `max` bytes is read, one byte more is refused;
    /// invalid UTF-8 names its first bad byte (1-based); a missing file is
    /// an I/O error; a FIFO is refused before it is opened.
    #[test]
    fn read_text_takes_up_to_its_limit_and_names_what_is_wrong() {
        let at = scratch("ten", b"0123456789");
        assert_eq!(read_text(&at, 10).unwrap(), "0123456789");
        assert!(matches!(
            read_text(&at, 9),
            Err(ReadError::TooLarge { max: 9 })
        ));
        let bad = scratch("bad", b"ok\xffno");
        let e = read_text(&bad, 100).unwrap_err();
        assert!(matches!(e, ReadError::NotUtf8 { byte: 3 }), "{e:?}");
        assert_eq!(e.to_string(), "not UTF-8 text (byte 3 is not valid)");
        let missing = at.with_file_name("missing");
        assert!(matches!(read_text(&missing, 10), Err(ReadError::Io(_))));
        #[cfg(unix)]
        {
            let fifo = at.with_file_name("fifo");
            let _ = std::fs::remove_file(&fifo);
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                assert!(matches!(read_text(&fifo, 10), Err(ReadError::NotAFile)));
            }
        }
        // reading stops at the limit: /dev/zero is refused, not read for ever
        #[cfg(unix)]
        assert!(matches!(
            read_text(Path::new("/dev/zero"), 1024),
            Err(ReadError::TooLarge { max: 1024 })
        ));
        let _ = std::fs::remove_dir_all(at.parent().unwrap());
    }
}
