//! Runs that outgrow one machine: `krunch run --shard I/N` writes the
//! integer tallies of its share of every model's chunks to a file;
//! `krunch merge` adds the shares back up. Integer sums add exactly in any
//! order, so the merged report is byte for byte the unsharded run's.
//! A shard file says what it is a share of (spec hash, seed, trials,
//! krunch version), so shards of different runs are refused by name, and
//! carries a SHA-256 of its contents, so an edited or damaged shard is
//! refused too; every tally is checked for what a run can give (a
//! probability's sum at most its trials, sums of squares consistent with
//! the sums, totals inside 64 bits) before it is added.

use super::run::{Shard, tally_share};
use super::spec::Experiment;
use crate::dice::Tally;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format version of shard files (2: with `sha256`).
const FORMAT: u32 = 2;

/// A shard file's contents.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    /// [`FORMAT`].
    pub krunch_shard_format: u32,
    /// The spec's name.
    pub spec: String,
    /// SHA-256 of the spec file.
    pub spec_sha256: String,
    /// krunch's version.
    pub krunch_version: String,
    /// Seed of the run.
    pub seed: u64,
    /// Trials per cell and profile of the whole run.
    pub trials: u64,
    /// Which share, from 1.
    pub shard: u64,
    /// Of how many.
    pub of: u64,
    /// `tallies[cell][profile]`.
    pub tallies: Vec<Vec<TallyText>>,
    /// SHA-256 (hex) of the file's JSON with this field empty: an edited
    /// or damaged shard no longer matches.
    pub sha256: String,
}

impl ShardFile {
    /// The SHA-256 of the contents: the JSON of the file with `sha256`
    /// empty.
    pub fn checksum(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut blank = self.clone();
        blank.sha256.clear();
        let text = serde_json::to_string(&blank).unwrap_or_default();
        Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The largest shard file `exp` can have: every tally at its longest (a
/// trial count of 20 digits, each sum 20, each sum of squares 39 and their
/// punctuation), plus room for the header. Anything bigger is not a shard
/// of this spec, and is not read whole.
pub fn max_shard_bytes(exp: &Experiment) -> u64 {
    let tallies: u64 = exp
        .models
        .iter()
        .flatten()
        .map(|m| 64 + 72 * m.metrics().len() as u64)
        .sum();
    4096 + tallies + 4 * exp.models.len() as u64
}

/// One tally, its sums of squares as decimal text (they pass 2^64, and
/// JSON readers elsewhere lose digits past 2^53).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TallyText {
    /// Trials counted.
    pub trials: u64,
    /// Sum per metric.
    pub sums: Vec<u64>,
    /// Sum of squares per metric, decimal.
    pub sums_sq: Vec<String>,
}

/// Why shards cannot be written or merged; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// `--shard` not `I/N` with 1 <= I <= N.
    #[error("--shard {0}: give I/N with 1 <= I <= N <= 100000 (e.g. --shard 2/8)")]
    BadShard(String),
    /// A file that cannot be read or is not a shard file.
    #[error("{}: {message}", .file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A shard of another run.
    #[error("{}: a shard of another run: its {what} is {theirs}, this merge's is {ours} (spec {spec})", .file.display())]
    Foreign {
        /// The file.
        file: PathBuf,
        /// What differs (spec sha256, seed, trials, krunch version, shard count).
        what: &'static str,
        /// The file's value.
        theirs: String,
        /// The value of the first shard or of the spec.
        ours: String,
        /// The spec merged.
        spec: String,
    },
    /// Two files hold the same share.
    #[error("shard {shard} is given twice: {} and {}", .first.display(), .second.display())]
    Duplicate {
        /// `I/N`.
        shard: String,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// Shares missing.
    #[error("shards missing: {} of {of} (given: {})", .missing.join(", "), .given.join(", "))]
    Missing {
        /// `I/N` of each missing share.
        missing: Vec<String>,
        /// How many shares there are.
        of: u64,
        /// The files given.
        given: Vec<String>,
    },
    /// No shard files at all.
    #[error("no shard files given")]
    NoShards,
}

/// Parses `I/N`.
pub fn parse_shard(text: &str) -> Result<Shard, ShardError> {
    let bad = || ShardError::BadShard(text.to_string());
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, count) = (
        i.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if index == 0 || index > count || count > 100_000 {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// The file shard `shard` of `exp` goes to, in `out`:
/// `<name>.shard-I-of-N.json`.
pub fn shard_path(out: &Path, exp: &Experiment, shard: Shard) -> PathBuf {
    out.join(format!(
        "{}.shard-{}-of-{}.json",
        exp.name, shard.index, shard.count
    ))
}

/// Runs `shard`'s share of `exp` and returns the file's contents.
pub fn run_shard(exp: &Experiment, shard: Shard, on_progress: &(dyn Fn(u64) + Sync)) -> ShardFile {
    let tallies = tally_share(exp, shard, on_progress)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|t| TallyText {
                    trials: t.trials(),
                    sums: (0..t.metrics()).map(|m| t.sum(m)).collect(),
                    sums_sq: (0..t.metrics()).map(|m| t.sum_sq(m).to_string()).collect(),
                })
                .collect()
        })
        .collect();
    let mut file = ShardFile {
        krunch_shard_format: FORMAT,
        spec: exp.name.clone(),
        spec_sha256: exp.spec_hash.clone(),
        krunch_version: env!("CARGO_PKG_VERSION").to_string(),
        seed: exp.seed,
        trials: exp.trials,
        shard: shard.index,
        of: shard.count,
        tallies,
        sha256: String::new(),
    };
    file.sha256 = file.checksum();
    file
}

/// Reads a shard file of `exp`: at most [`max_shard_bytes`], and its
/// checksum must match its contents.
pub fn read_shard(file: &Path, exp: &Experiment) -> Result<ShardFile, ShardError> {
    let unreadable = |message: String| ShardError::Unreadable {
        file: file.to_path_buf(),
        message,
    };
    let max = max_shard_bytes(exp);
    let text = crate::limits::read_text(file, max).map_err(|e| match e {
        crate::limits::ReadError::TooLarge { .. } => unreadable(format!(
            "larger than the {max} bytes a shard of {} can take: not a shard of this spec",
            exp.file.display()
        )),
        e => unreadable(e.to_string()),
    })?;
    let shard: ShardFile = serde_json::from_str(&text).map_err(|e| {
        unreadable(format!(
            "not a krunch shard file (line {}, column {}: {e})",
            e.line(),
            e.column()
        ))
    })?;
    if shard.krunch_shard_format != FORMAT {
        return Err(unreadable(format!(
            "shard file format {} (this krunch reads {FORMAT})",
            shard.krunch_shard_format
        )));
    }
    if shard.shard == 0 || shard.shard > shard.of {
        return Err(unreadable(format!(
            "says it is shard {}/{}",
            shard.shard, shard.of
        )));
    }
    let sum = shard.checksum();
    if shard.sha256 != sum {
        return Err(unreadable(format!(
            "sha256: the contents were changed after krunch wrote them (the file says {}, its contents give {sum}); rerun that shard",
            shard.sha256
        )));
    }
    Ok(shard)
}

/// Checks `shards` (read from `files`) are every share of one run of `exp`,
/// each once, and adds their tallies: `tallies[cell][profile]`. The run's
/// trial count is the shards'; `exp` is set to it.
pub fn merge(
    exp: &mut Experiment,
    files: &[PathBuf],
    shards: &[ShardFile],
) -> Result<Vec<Vec<Tally>>, ShardError> {
    let Some(first) = shards.first() else {
        return Err(ShardError::NoShards);
    };
    let version = env!("CARGO_PKG_VERSION");
    let foreign =
        |file: &Path, what: &'static str, theirs: String, ours: String| ShardError::Foreign {
            file: file.to_path_buf(),
            what,
            theirs,
            ours,
            spec: exp.file.display().to_string(),
        };
    for (file, s) in files.iter().zip(shards) {
        if s.spec_sha256 != exp.spec_hash {
            return Err(foreign(
                file,
                "spec sha256",
                s.spec_sha256.clone(),
                exp.spec_hash.clone(),
            ));
        }
        if s.krunch_version != version {
            return Err(foreign(
                file,
                "krunch version",
                s.krunch_version.clone(),
                version.into(),
            ));
        }
        if s.seed != first.seed {
            return Err(foreign(
                file,
                "seed",
                s.seed.to_string(),
                first.seed.to_string(),
            ));
        }
        if s.trials != first.trials {
            return Err(foreign(
                file,
                "trial count",
                s.trials.to_string(),
                first.trials.to_string(),
            ));
        }
        if s.of != first.of {
            return Err(foreign(
                file,
                "shard count",
                s.of.to_string(),
                first.of.to_string(),
            ));
        }
    }
    if first.seed != exp.seed {
        return Err(foreign(
            &files[0],
            "seed",
            first.seed.to_string(),
            exp.seed.to_string(),
        ));
    }
    let mut seen: Vec<Option<&PathBuf>> = vec![None; first.of as usize];
    for (file, s) in files.iter().zip(shards) {
        let slot = &mut seen[(s.shard - 1) as usize];
        if let Some(earlier) = slot {
            return Err(ShardError::Duplicate {
                shard: format!("{}/{}", s.shard, s.of),
                first: (*earlier).clone(),
                second: file.clone(),
            });
        }
        *slot = Some(file);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_none())
        .map(|(i, _)| format!("{}/{}", i + 1, first.of))
        .collect();
    if !missing.is_empty() {
        return Err(ShardError::Missing {
            missing,
            of: first.of,
            given: files.iter().map(|f| f.display().to_string()).collect(),
        });
    }
    exp.trials = first.trials;
    // checked sums: (trials, sums, sums of squares) per cell and profile
    type Sums = (u64, Vec<u64>, Vec<u128>);
    let mut total: Vec<Vec<Sums>> = exp
        .models
        .iter()
        .map(|row| {
            row.iter()
                .map(|m| (0, vec![0; m.metrics().len()], vec![0; m.metrics().len()]))
                .collect()
        })
        .collect();
    for (file, s) in files.iter().zip(shards) {
        let bad = |message: String| ShardError::Unreadable {
            file: file.clone(),
            message,
        };
        if s.tallies.len() != total.len() {
            return Err(bad(format!(
                "{} sweep cells, the spec has {}",
                s.tallies.len(),
                total.len()
            )));
        }
        for (ci, (row, sum_row)) in s.tallies.iter().zip(total.iter_mut()).enumerate() {
            if row.len() != sum_row.len() {
                return Err(bad(format!(
                    "cell {ci} has {} profiles, the spec {}",
                    row.len(),
                    sum_row.len()
                )));
            }
            let share = Shard {
                index: s.shard,
                count: s.of,
            };
            let expected: u64 = share
                .chunks(first.trials)
                .map(|c| super::CHUNK.min(first.trials - c * super::CHUNK))
                .sum();
            for (pi, (t, sum)) in row.iter().zip(sum_row.iter_mut()).enumerate() {
                if t.trials != expected {
                    return Err(bad(format!(
                        "cell {ci}: {} trials, shard {share} of {} trials runs {expected}",
                        t.trials, first.trials
                    )));
                }
                let n = sum.1.len();
                if t.sums.len() != n || t.sums_sq.len() != n {
                    return Err(bad(format!(
                        "cell {ci}: {} metrics, the model has {n}",
                        t.sums.len()
                    )));
                }
                let squares = t
                    .sums_sq
                    .iter()
                    .map(|q| q.parse::<u128>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| bad(format!("cell {ci}: a sum of squares: {e}")))?;
                let defs = exp.models[ci][pi].metrics();
                for (m, def) in defs.iter().enumerate() {
                    let (x, q) = (t.sums[m], squares[m]);
                    let at = || format!("cell {ci}, profile {}, metric {}", pi + 1, def.name);
                    tally_possible(
                        t.trials,
                        x,
                        q,
                        def.kind == crate::systems::MetricKind::Probability,
                    )
                    .map_err(|why| bad(format!("{}: {why}", at())))?;
                    let overflow = || bad(format!("{}: the sums of all shards pass 64 bits", at()));
                    sum.1[m] = sum.1[m].checked_add(x).ok_or_else(overflow)?;
                    sum.2[m] = sum.2[m].checked_add(q).ok_or_else(overflow)?;
                }
                sum.0 = sum
                    .0
                    .checked_add(t.trials)
                    .ok_or_else(|| bad(format!("cell {ci}: trials pass 64 bits")))?;
            }
        }
    }
    let total = total
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|(n, sums, sq)| Tally::from_sums(n, sums, sq))
                .collect()
        })
        .collect();
    Ok(total)
}

/// Whether `trials` trials of one metric, each a non-negative integer (0
/// or 1 for a probability), can sum to `sum` with squares summing to
/// `sum_sq`: for a probability sum <= trials and sum_sq = sum; for any
/// metric sum <= sum_sq <= sum^2 (each value at most its square, the
/// squares at most the square of the sum) and sum^2 <= trials x sum_sq
/// (Cauchy-Schwarz), so a zero-width interval cannot be forged. Says why
/// not.
pub fn tally_possible(
    trials: u64,
    sum: u64,
    sum_sq: u128,
    probability: bool,
) -> Result<(), String> {
    let (x, q, n) = (u128::from(sum), sum_sq, u128::from(trials));
    if probability {
        if sum > trials {
            return Err(format!(
                "sum {sum} is more than its {trials} trials: a probability's sum counts trials"
            ));
        }
        if q != x {
            return Err(format!(
                "sum of squares {q} is not its sum {sum}, as every 0/1 value gives"
            ));
        }
        return Ok(());
    }
    if q < x {
        return Err(format!(
            "sum of squares {q} is below the sum {sum}: no non-negative whole values give that"
        ));
    }
    if q > x * x {
        return Err(format!(
            "sum of squares {q} is above the square of the sum {sum}"
        ));
    }
    // x^2 fits in u128 (x < 2^64); trials x sum_sq may not: then it holds
    if let Some(nq) = n.checked_mul(q)
        && x * x > nq
    {
        return Err(format!(
            "sum {sum} and sum of squares {q} over {trials} trials would give a negative variance"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::CHUNK;
    use crate::experiment::testing::{fire, spec};

    #[test]
    fn shard_names_parse_or_are_refused() {
        assert_eq!(parse_shard("2/3").unwrap(), Shard { index: 2, count: 3 });
        assert_eq!(parse_shard(" 1 / 1 ").unwrap(), Shard::WHOLE);
        for bad in ["0/3", "4/3", "3", "a/b", "1/100001", "-1/2", ""] {
            assert!(
                matches!(parse_shard(bad), Err(ShardError::BadShard(ref t)) if t == bad),
                "{bad}"
            );
        }
    }

    /// What a run can give, and what it cannot: a probability's sum above
    /// its trials or squares unlike its sum; squares below the sum, above
    /// its square, or too few for the sum (a negative variance).
    #[test]
    fn only_possible_tallies_pass() {
        assert!(tally_possible(10, 4, 4, true).is_ok());
        assert!(tally_possible(10, 11, 11, true).is_err());
        assert!(tally_possible(10, 4, 5, true).is_err());
        // values 1, 2, 3 over 3 trials: sum 6, squares 14
        assert!(tally_possible(3, 6, 14, false).is_ok());
        assert!(tally_possible(3, 6, 5, false).is_err());
        assert!(tally_possible(3, 6, 37, false).is_err());
        // sum 6 over 3 trials needs squares of at least 12 (2, 2, 2)
        assert!(tally_possible(3, 6, 12, false).is_ok());
        assert!(tally_possible(3, 6, 11, false).is_err());
        assert!(tally_possible(0, 0, 0, false).is_ok());
    }

    /// Three shards of a run, read back and merged, give the whole run's
    /// tallies sum for sum; a shard edited after it was written, one given
    /// twice, one missing, and one of another seed are each refused.
    #[test]
    fn shards_merge_into_the_whole_run_and_refuse_what_is_not_one() {
        let (path, mut exp) = spec("merge", &fire(2 * CHUNK + 9));
        let dir = path.parent().unwrap().to_path_buf();
        let mut files = Vec::new();
        let mut shards = Vec::new();
        for index in 1..=3 {
            let share = Shard { index, count: 3 };
            let file = shard_path(&dir, &exp, share);
            assert!(file.ends_with(format!("merge.shard-{index}-of-3.json")));
            let s = run_shard(&exp, share, &|_| {});
            assert_eq!(s.sha256, s.checksum());
            std::fs::write(&file, serde_json::to_string(&s).unwrap()).unwrap();
            shards.push(read_shard(&file, &exp).unwrap());
            files.push(file);
        }
        // 3 chunks: shard 1 has chunk 0, shard 2 chunk 1, shard 3 the 9 left
        let trials: Vec<u64> = shards.iter().map(|s| s.tallies[0][0].trials).collect();
        assert_eq!(trials, [CHUNK, CHUNK, 9]);
        let whole = tally_share(&exp, Shard::WHOLE, &|_| {});
        let merged = merge(&mut exp, &files, &shards).unwrap();
        for (row, whole_row) in merged.iter().zip(&whole) {
            for (t, w) in row.iter().zip(whole_row) {
                assert_eq!(t.trials(), w.trials());
                for m in 0..t.metrics() {
                    assert_eq!((t.sum(m), t.sum_sq(m)), (w.sum(m), w.sum_sq(m)));
                }
            }
        }
        // edited: one sum changed, the checksum left as it was
        let mut edited = shards[0].clone();
        edited.tallies[0][0].sums[0] += 1;
        std::fs::write(&files[0], serde_json::to_string(&edited).unwrap()).unwrap();
        let e = read_shard(&files[0], &exp).unwrap_err().to_string();
        assert!(e.contains("sha256: the contents were changed"), "{e}");
        let twice = [files[0].clone(), files[0].clone(), files[2].clone()];
        let e = merge(
            &mut exp,
            &twice,
            &[shards[0].clone(), shards[0].clone(), shards[2].clone()],
        );
        assert!(matches!(e, Err(ShardError::Duplicate { .. })));
        let e = merge(&mut exp, &files[..2], &shards[..2]);
        assert!(
            matches!(e, Err(ShardError::Missing { ref missing, of: 3, .. }) if missing == &["3/3"])
        );
        let mut other = shards.clone();
        other[1].seed += 1;
        let e = merge(&mut exp, &files, &other);
        assert!(matches!(e, Err(ShardError::Foreign { what: "seed", .. })));
        assert!(matches!(
            merge(&mut exp, &[], &[]),
            Err(ShardError::NoShards)
        ));
    }
}
