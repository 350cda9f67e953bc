//! Files written whole: one file through a temporary swapped in
//! (`write_atomic`, `write_via`), a report folder staged and swapped in
//! whole (`write_folder`), its lock and manifest, and the recovery of what
//! a crashed run left staged. Everything else in `report` writes through
//! here.

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// Hidden name prefixes of everything krunch stages; nothing else in a
/// folder is ever cleaned. Each staged name is `<prefix><token>-<name>`,
/// the token random per write and claimed by a lock file
/// `.krunch-lock-<token>` beside it, held (`flock`) while the writer runs.
const TMP: &str = ".krunch-tmp-";
const STAGE: &str = ".krunch-stage-";
const OLD: &str = ".krunch-old-";
const LOCK: &str = ".krunch-lock-";

/// The file krunch leaves in every folder it writes whole: its mark, and
/// the list of files it wrote. Only a folder holding it (and nothing it
/// does not list) is ever replaced.
pub const MANIFEST: &str = ".krunch-report";

/// Staged things of a writer that stopped without a lock file (older
/// versions, or a lock file lost) are stale only past this age.
const STALE_WITHOUT_LOCK: std::time::Duration = std::time::Duration::from_secs(3600);

/// A test hook: `KRUNCH_TEST_FAIL_AT_WRITE=N` makes the N-th file write or
/// rename of this process fail with an error, and `N:kill` makes it end
/// the process there and then (exit code 70, no clean-up), as a crash or
/// a kill would. Unset, it costs one counter increment per file.
pub(crate) fn fail_point(what: &Path) -> std::io::Result<()> {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static PLAN: OnceLock<Option<(usize, bool)>> = OnceLock::new();
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let plan = PLAN.get_or_init(|| {
        let v = std::env::var("KRUNCH_TEST_FAIL_AT_WRITE").ok()?;
        let (n, kill) = match v.split_once(':') {
            Some((n, "kill")) => (n, true),
            _ => (v.as_str(), false),
        };
        Some((n.trim().parse().ok()?, kill))
    });
    let n = COUNT.fetch_add(1, Ordering::SeqCst) + 1;
    match plan {
        Some((at, kill)) if *at == n => {
            if *kill {
                eprintln!(
                    "KRUNCH_TEST_FAIL_AT_WRITE: killed at write {n} ({})",
                    what.display()
                );
                std::process::exit(70);
            }
            Err(std::io::Error::other(format!(
                "KRUNCH_TEST_FAIL_AT_WRITE: failure injected at write {n} ({})",
                what.display()
            )))
        }
        _ => Ok(()),
    }
}

/// A writer's claim on the staged names with its token in one folder: the
/// lock file `.krunch-lock-<token>`, locked for as long as the claim lives.
/// The lock is the kernel's (`flock`), so it holds across PID namespaces
/// (containers sharing a volume) and ends with the process however it
/// ends; a run that finds it unlocked knows the writer is gone.
struct Claim {
    token: String,
    path: std::path::PathBuf,
    _file: std::fs::File,
}

impl Claim {
    fn new(dir: &Path) -> std::io::Result<Claim> {
        loop {
            let token = format!("{:016x}", rand::random::<u64>());
            let path = dir.join(format!("{LOCK}{token}"));
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)?;
            lock(&file, true)?;
            // a cleaner that took the lock between create and lock has
            // removed the file: start again under another token
            if path.exists() {
                return Ok(Claim {
                    token,
                    path,
                    _file: file,
                });
            }
        }
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        // removed while still locked, so no cleaner takes it for stale
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether the writer with `token` in `dir` still runs: its lock file is
/// there and locked. Returns the lock, held, when it is not.
enum Owner {
    /// The lock file is locked by a live writer.
    Live,
    /// The lock file was unlocked: held now, so the writer's leftovers can
    /// be cleaned; the file is removed with it.
    Gone {
        _lock: std::fs::File,
        path: std::path::PathBuf,
    },
    /// No lock file.
    Unknown,
}

fn owner(dir: &Path, token: &str) -> Owner {
    let path = dir.join(format!("{LOCK}{token}"));
    let Ok(file) = std::fs::OpenOptions::new().write(true).open(&path) else {
        return Owner::Unknown;
    };
    match lock(&file, false) {
        Ok(()) => Owner::Gone { _lock: file, path },
        Err(_) => Owner::Live,
    }
}

/// Locks `file` exclusively with `flock(2)`, waiting for it when `wait`,
/// else failing at once when another holds it. The kernel drops the lock
/// when the file is closed or its process ends, however it ends.
#[cfg(unix)]
fn lock(file: &std::fs::File, wait: bool) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let op = if wait {
        libc::LOCK_EX
    } else {
        libc::LOCK_EX | libc::LOCK_NB
    };
    loop {
        // SAFETY: flock on a file descriptor this `File` owns and keeps
        // open for the call.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Without `flock` (not Unix), no lock: a lock file always counts as held,
/// so nothing staged beside one is ever taken for stale (and removed).
#[cfg(not(unix))]
fn lock(_file: &std::fs::File, wait: bool) -> std::io::Result<()> {
    if wait {
        Ok(())
    } else {
        Err(std::io::Error::from(std::io::ErrorKind::WouldBlock))
    }
}

/// Writes `path` through `write`, which gets a hidden temporary name in the
/// same folder (keeping the extension: plotters picks the image format from
/// it), then renames it over `path`: an interrupted run leaves either the
/// old file or the new one, never half of one, and a failed write removes
/// its temporary file. The written file and its folder are synced to disk
/// before and after the rename (see [`sync_dir`]).
pub fn write_via(
    path: &Path,
    write: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let context = || format!("writing {}", path.display());
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).with_context(context)?;
    }
    let dir = dir.unwrap_or(Path::new("."));
    // inside a staging folder the folder's own claim covers the file
    let staging = file_name(dir).starts_with(STAGE);
    let claim = if staging {
        None
    } else {
        Some(Claim::new(dir).with_context(context)?)
    };
    let token = claim.as_ref().map_or("staged", |c| c.token.as_str());
    fail_point(path).with_context(context)?;
    let tmp = path.with_file_name(format!("{TMP}{token}-{}", file_name(path)));
    let result = write(&tmp).and_then(|()| {
        sync_file(&tmp)?;
        fail_point(path)?;
        std::fs::rename(&tmp, path)?;
        if !staging {
            sync_dir(dir)?;
        }
        Ok(())
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    drop(claim);
    result.with_context(context)
}

/// A test hook: with `KRUNCH_TEST_SYNC_LOG=FILE`, every sync to disk and
/// every swap of a folder is appended to FILE as one line (`file PATH`,
/// `dir PATH`, `swap FROM -> TO`), so `tests/crash_safety.rs` can see that
/// files and folders reach the disk before the swap that publishes them.
fn trace(line: impl FnOnce() -> String) {
    use std::sync::{Mutex, OnceLock};
    static LOG: OnceLock<Option<Mutex<std::fs::File>>> = OnceLock::new();
    let log = LOG.get_or_init(|| {
        let path = std::env::var_os("KRUNCH_TEST_SYNC_LOG")?;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
            .map(Mutex::new)
    });
    if let Some(file) = log
        && let Ok(mut f) = file.lock()
    {
        let _ = writeln!(f, "{}", line());
    }
}

/// Syncs a written file's contents to disk.
fn sync_file(path: &Path) -> std::io::Result<()> {
    std::fs::File::open(path)?.sync_all()?;
    trace(|| format!("file {}", path.display()));
    Ok(())
}

/// Syncs a folder's entries (names created, renamed, removed) to disk, so
/// a power cut after a rename finds the rename done. Where a folder cannot
/// be opened for syncing (not on Unix), this does nothing.
pub(crate) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()?;
        trace(|| format!("dir {}", dir.display()));
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Writes `bytes` to `path` atomically (see [`write_via`]), synced to disk.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_via(path, |tmp| {
        let mut f = std::fs::File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        Ok(())
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The folder `name` directly inside `out`. Refuses any name that is not
/// one plain path component (empty, `.`, `..`, a path with separators, an
/// absolute path, a hidden name), so a report can never replace `out`
/// itself or anything outside it.
pub fn folder_in(out: &Path, name: &str) -> anyhow::Result<std::path::PathBuf> {
    let mut parts = Path::new(name).components();
    let plain = matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(n)), None) if n == std::ffi::OsStr::new(name)
    );
    anyhow::ensure!(
        plain && !name.starts_with('.'),
        "report name '{name}' is not a plain folder name inside {}",
        out.display()
    );
    Ok(out.join(name))
}

/// The report folder of each experiment inside `out` (see [`folder_in`]),
/// refusing two experiments that would write the same one, and any that
/// would replace something krunch did not write ([`check_replaceable`]).
/// Checked before anything runs.
pub fn report_folders(
    out: &Path,
    exps: &[crate::experiment::Experiment],
) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    for exp in exps {
        let dir = folder_in(out, &exp.name)?;
        if let Some(first) = dirs.iter().position(|d| *d == dir) {
            anyhow::bail!(
                "{}: name: '{}' is also the name of {}; both would write {}",
                exp.file.display(),
                exp.name,
                exps[first].file.display(),
                dir.display()
            );
        }
        check_replaceable(&dir).with_context(|| format!("{}: name", exp.file.display()))?;
        dirs.push(dir);
    }
    Ok(dirs)
}

/// The file names a report folder of an older krunch (before the manifest)
/// holds, and the first line its CSV starts with.
fn legacy_report(dir: &Path, names: &[String]) -> bool {
    let known = |n: &str| {
        matches!(
            n,
            "data.csv"
                | "results.json"
                | "summary.md"
                | "report.html"
                | "compare.csv"
                | "compare.md"
                | "compare.wiki"
        ) || n.ends_with(".svg")
            || n.ends_with(".png")
    };
    let files_only = names
        .iter()
        .all(|n| known(n) && dir.join(n).symlink_metadata().is_ok_and(|m| m.is_file()));
    let first_line = |f: &str| {
        std::fs::read(dir.join(f))
            .ok()
            .and_then(|b| b.split(|&c| c == b'\n').next().map(<[u8]>::to_vec))
            .map(|l| String::from_utf8_lossy(&l).trim_end().to_string())
            .unwrap_or_default()
    };
    files_only
        && (first_line("data.csv").ends_with(",spec_sha256,krunch_version")
            || first_line("compare.csv").ends_with(",p_value,significant,exact,trials"))
}

/// Refuses to go on when `dir` holds something krunch did not write: a
/// file or link where the folder goes, a folder without krunch's
/// [`MANIFEST`] (or an older krunch's report files), or a report folder
/// with files its manifest does not list (a user's notes put in it). A
/// missing `dir` is fine. Called before any work, and again just before
/// the swap.
pub fn check_replaceable(dir: &Path) -> anyhow::Result<()> {
    let meta = match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        // nothing there krunch could replace (`--out` is a file, ...):
        // creating the folder fails next, with its own message
        Err(_) => return Ok(()),
        Ok(m) => m,
    };
    let refuse = |what: String| {
        anyhow::anyhow!(
            "{} {what}; krunch replaces only report folders it wrote itself, so it stops here: move it away or pick another --out",
            dir.display()
        )
    };
    if !meta.is_dir() {
        let kind = if meta.is_symlink() {
            "a link"
        } else {
            "a file"
        };
        return Err(refuse(format!(
            "exists and is {kind}, not a report folder krunch wrote"
        )));
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if names.is_empty() {
        return Ok(());
    }
    match std::fs::read_to_string(dir.join(MANIFEST)) {
        Ok(text) => {
            let listed: std::collections::BTreeSet<&str> =
                text.lines().skip(1).map(str::trim).collect();
            let extra: Vec<&String> = names
                .iter()
                .filter(|n| n.as_str() != MANIFEST && !listed.contains(n.as_str()))
                .collect();
            if !extra.is_empty() {
                let shown: Vec<&str> = extra.iter().take(5).map(|s| s.as_str()).collect();
                return Err(refuse(format!(
                    "holds {} that krunch did not write ({}{})",
                    if extra.len() == 1 { "a file" } else { "files" },
                    shown.join(", "),
                    if extra.len() > 5 { ", ..." } else { "" }
                )));
            }
            Ok(())
        }
        Err(_) if legacy_report(dir, &names) => Ok(()),
        Err(_) => Err(refuse(format!(
            "exists and is not a report folder krunch wrote (no {MANIFEST} in it)"
        ))),
    }
}

/// Creates the output folder `out` (so a bad `--out` fails before any
/// computing) and cleans what interrupted runs left in it ([`recover`]).
/// Returns what the cleaning did.
pub fn prepare_out(out: &Path) -> anyhow::Result<Vec<String>> {
    std::fs::create_dir_all(out).with_context(|| format!("--out {}", out.display()))?;
    recover(out).with_context(|| format!("cleaning {}", out.display()))
}

/// Splits `<prefix><token>-<name>` into the token and name.
fn staged(entry: &str, prefix: &str) -> Option<(String, String)> {
    let rest = entry.strip_prefix(prefix)?;
    let (token, name) = rest.split_once('-')?;
    (!token.is_empty() && token.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| (token.to_string(), name.to_string()))
}

/// Whether `path` was last changed longer ago than `age`.
fn older_than(path: &Path, age: std::time::Duration) -> bool {
    path.symlink_metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|e| e > age)
}

/// Cleans what interrupted runs left in `dir`: staging folders and
/// temporary files of writers that no longer run are removed, and a
/// previous report set aside for a swap that never finished is put back
/// when its folder is missing (else removed). A writer still runs while
/// its lock file is locked, whatever process namespace it runs in; things
/// staged with no lock file (older versions) are stale only after an hour.
/// Also cleans the `.tmp-PID-` and `.old-PID-` folders older versions
/// left, after the same hour. Returns what it did.
pub fn recover(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut done = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(done);
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let gone = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    let remove = |path: &Path| {
        let r = if path.is_dir() {
            std::fs::remove_dir_all(path)
        } else {
            std::fs::remove_file(path)
        };
        r.or_else(|e| if gone(&e) { Ok(()) } else { Err(e) })
    };
    // each token's owner looked up once, its lock held while cleaning
    let mut owners: std::collections::BTreeMap<String, Owner> = Default::default();
    let mut stale = |token: &str, path: &Path| -> bool {
        let o = owners
            .entry(token.to_string())
            .or_insert_with(|| owner(dir, token));
        match o {
            Owner::Live => false,
            Owner::Gone { .. } => true,
            Owner::Unknown => older_than(path, STALE_WITHOUT_LOCK),
        }
    };
    for entry in &names {
        let path = dir.join(entry);
        let legacy_dir = |prefix: &str| staged(entry, prefix).filter(|_| path.is_dir());
        if let Some((token, name)) = staged(entry, OLD).or_else(|| legacy_dir(".old-")) {
            if !stale(&token, &path) {
                continue;
            }
            let target = dir.join(&name);
            if target.symlink_metadata().is_ok() || name.is_empty() {
                remove(&path)?;
                done.push(format!("removed {}", path.display()));
            } else {
                match std::fs::rename(&path, &target) {
                    Err(e) if gone(&e) => {}
                    r => {
                        r?;
                        done.push(format!(
                            "restored {} (a run stopped mid-swap)",
                            target.display()
                        ));
                    }
                }
            }
            continue;
        }
        let tmp = staged(entry, STAGE)
            .or_else(|| staged(entry, TMP))
            .or_else(|| legacy_dir(".tmp-"));
        if let Some((token, _)) = tmp
            && stale(&token, &path)
        {
            remove(&path)?;
            done.push(format!("removed {}", path.display()));
        }
    }
    // the lock files of writers that are gone, after what they staged
    for entry in &names {
        if let Some(token) = entry.strip_prefix(LOCK) {
            let o = owners
                .entry(token.to_string())
                .or_insert_with(|| owner(dir, token));
            if let Owner::Gone { path, .. } = o {
                remove(path)?;
            }
        }
    }
    Ok(done)
}

/// Builds the folder `dir` whole through `fill`, which writes into a hidden
/// staging folder beside it; the staging folder, with its [`MANIFEST`] and
/// every file synced to disk, then replaces `dir`. Only a missing folder or
/// one krunch wrote is replaced ([`check_replaceable`]). A failure removes
/// the staging folder and leaves `dir` as it was; a crash or power cut at
/// any point leaves either the previous folder or the new one, possibly
/// set aside under a hidden name that [`recover`] puts back on the next
/// start.
pub fn write_folder<T>(
    dir: &Path,
    fill: impl FnOnce(&Path) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    let name = file_name(dir);
    anyhow::ensure!(!name.is_empty(), "{} is not a folder name", dir.display());
    std::fs::create_dir_all(parent)?;
    check_replaceable(dir)?;
    let claim = Claim::new(parent)?;
    let token = &claim.token;
    let stage = parent.join(format!("{STAGE}{token}-{name}"));
    let old = parent.join(format!("{OLD}{token}-{name}"));
    let filled = fail_point(&stage)
        .map_err(anyhow::Error::from)
        .and_then(|()| Ok(std::fs::create_dir(&stage)?))
        .and_then(|()| fill(&stage))
        .and_then(|v| {
            write_manifest(&stage)?;
            sync_dir(&stage)?;
            Ok(v)
        });
    let value = match filled {
        Ok(v) => v,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(e);
        }
    };
    let swap = || -> anyhow::Result<()> {
        // a user's folder may have appeared while this run computed
        check_replaceable(dir)?;
        let had_old = dir.symlink_metadata().is_ok();
        if had_old {
            fail_point(dir)?;
            std::fs::rename(dir, &old)?;
        }
        trace(|| format!("swap {} -> {}", stage.display(), dir.display()));
        if let Err(e) = fail_point(dir).and_then(|()| std::fs::rename(&stage, dir)) {
            if had_old {
                let _ = std::fs::rename(&old, dir);
            }
            return Err(e.into());
        }
        sync_dir(parent)?;
        // the new folder is in place: a previous one that cannot be removed
        // now is removed by the next run's `recover`
        if had_old && let Err(e) = fail_point(&old).and_then(|()| std::fs::remove_dir_all(&old)) {
            eprintln!(
                "warning: could not remove {} ({e}); the next run will",
                old.display()
            );
        }
        Ok(())
    };
    if let Err(e) = swap() {
        let _ = std::fs::remove_dir_all(&stage);
        return Err(e.context(format!("replacing {}", dir.display())));
    }
    drop(claim);
    Ok(value)
}

/// Writes the [`MANIFEST`] of a filled staging folder: a line saying what
/// it is, then every file in it, one a line.
fn write_manifest(stage: &Path) -> anyhow::Result<()> {
    let mut names: Vec<String> = std::fs::read_dir(stage)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != MANIFEST)
        .collect();
    names.sort();
    let mut text = format!(
        "krunch {} wrote this folder whole and replaces it whole; a file not listed below stops it doing so\n",
        env!("CARGO_PKG_VERSION")
    );
    for n in names {
        text.push_str(&n);
        text.push('\n');
    }
    write_atomic(&stage.join(MANIFEST), text.as_bytes())
}
