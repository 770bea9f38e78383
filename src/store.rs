//! Kept files: where they live and how they are written.
//!
//! Layout under the data directory (`--data`, default `data`):
//!
//! ```text
//! state.json                      durable fetch state (see `state`)
//! DAY/robots.jsonl                one line per site: today's robots.txt verdict
//! DAY/robots/SITE.txt             the robots.txt body the verdict was read from
//! DAY/HH/fetch.jsonl              one line per request, or per decision not to make one
//! DAY/HH/items.jsonl              new headlines found this hour
//! DAY/HH/summary-topics.jsonl     the topic a summary pointed to (a label, never words)
//! DAY/HH/classified.jsonl         the hour's headlines with topic and Opinion label
//! DAY/HH/.transient/              raw bodies and summaries: removed when the hour's run ends
//! DAY/rechecks.jsonl              HEAD re-checks made that day
//! DAY/published.jsonl             the day's public headlines after every removal
//! site/                           the public pages
//! ```
//!
//! Every kept file is written whole to a temporary name beside it and renamed into place,
//! so a crash leaves the old file or the new one, never half of one.

use anyhow::{Context, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Name of the per-hour directory holding raw bodies and summaries.
pub const TRANSIENT: &str = ".transient";

/// Paths of the data directory.
#[derive(Debug, Clone)]
pub struct Data {
    pub root: PathBuf,
}

impl Data {
    pub fn new(root: impl Into<PathBuf>) -> Data {
        Data { root: root.into() }
    }
    pub fn day_dir(&self, day: &str) -> PathBuf {
        self.root.join(day)
    }
    pub fn hour_dir(&self, day: &str, hour: &str) -> PathBuf {
        self.root.join(day).join(hour)
    }
    pub fn transient_dir(&self, day: &str, hour: &str) -> PathBuf {
        self.hour_dir(day, hour).join(TRANSIENT)
    }
    pub fn state_file(&self) -> PathBuf {
        self.root.join("state.json")
    }
    pub fn site_dir(&self) -> PathBuf {
        self.root.join("site")
    }

    /// Day directories (`YYYY-MM-DD`) present, oldest first.
    pub fn days(&self) -> Result<Vec<String>> {
        let mut days = Vec::new();
        let rd = match fs::read_dir(&self.root) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(days),
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.root.display())),
        };
        for entry in rd {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if crate::time::parse_day(&name).is_ok() && name.len() == 10 {
                days.push(name);
            }
        }
        days.sort();
        Ok(days)
    }

    /// Hour directories (`00`..`23`) of a day, in order.
    pub fn hours(&self, day: &str) -> Result<Vec<String>> {
        let mut hours = Vec::new();
        let dir = self.day_dir(day);
        let rd = match fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(hours),
            Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
        };
        for entry in rd {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.len() == 2 && name.parse::<u8>().is_ok_and(|h| h < 24) && entry.path().is_dir()
            {
                hours.push(name);
            }
        }
        hours.sort();
        Ok(hours)
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed
/// and synced, then renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the bytes streamed by `write` (buffered), so a large file is
/// never held whole in memory.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| -> Result<()> {
        let f = fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
        write(&mut w).with_context(|| format!("writing {}", tmp.display()))?;
        let f = w
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("writing {}", tmp.display()))?;
        f.sync_all()
            .with_context(|| format!("syncing {}", tmp.display()))?;
        fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes a transient file (a raw body, its description): plainly, without syncing or
/// renaming, since it lives only for the hour's run and the run's end removes it whatever
/// state it is in; `extract` reads a body only through its description, written after it.
pub fn write_transient(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// The lock every stage holds on its data directory while it runs (`DATA/.stage.lock`), so
/// two stages started by hand at once never ask a publisher twice or write one file from
/// two runs. The lock is released when the value is dropped (or the process dies).
pub struct DataLock {
    _file: fs::File,
}

/// File name of the stage lock (the Makefile's own run lock is `DATA/.lock`).
pub const STAGE_LOCK: &str = ".stage.lock";

/// The file that marks a directory as a Huduku data directory, made on purpose by
/// `robots-refresh --init` (`make init`). A stage never starts in an unmarked directory: a
/// typo in `--data` would otherwise start from an empty state and ask sites that refused.
pub const MARKER: &str = ".huduku";

impl Data {
    /// Fails unless this is a marked data directory, naming the path and the command that
    /// makes one.
    pub fn check_marked(&self) -> Result<()> {
        if self.root.join(MARKER).is_file() {
            return Ok(());
        }
        let what = if !self.root.exists() {
            "does not exist"
        } else if self.root.join("state.json").exists() || !self.days()?.is_empty() {
            "holds Huduku data but is not marked as a data directory"
        } else {
            "is not a Huduku data directory"
        };
        anyhow::bail!(
            "{} {what} (no {MARKER} in it); nothing is asked or written, so that a mistyped --data never starts from an empty state. \
             Make it one on purpose with `make init DATA={}` (or `robots-refresh --init --data {}`)",
            self.root.display(),
            self.root.display(),
            self.root.display()
        )
    }

    /// Makes (or marks) a data directory, on purpose.
    pub fn init(&self) -> Result<bool> {
        if self.root.join(MARKER).is_file() {
            return Ok(false);
        }
        fs::create_dir_all(&self.root)
            .with_context(|| format!("creating {}", self.root.display()))?;
        write_atomic(
            &self.root.join(MARKER),
            b"A Huduku data directory: dated outputs and the durable state (see README.md).\n",
        )?;
        Ok(true)
    }
}

/// The file that marks a replay's output folder (`make replay`, `REPLAY_OUT`): a folder a
/// replay may empty and fill again, which is never a data directory.
pub const REPLAY_MARKER: &str = ".huduku-replay";

/// A path made absolute and free of `.` and `..` and symbolic links as far as it exists,
/// so that two names of one place compare equal before the place is made.
fn resolved(path: &Path) -> Result<PathBuf> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()?.join(path)
    };
    let mut rest = Vec::new();
    let mut at = abs.as_path();
    loop {
        if let Ok(real) = at.canonicalize() {
            let mut out = real;
            for c in rest.iter().rev() {
                match c {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::CurDir => {}
                    c => out.push(c),
                }
            }
            return Ok(out);
        }
        match (at.parent(), at.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                at = parent;
            }
            _ => return Ok(abs),
        }
    }
}

/// Checks a stage's `--out` folder (a replay's output) before anything is written: it is
/// neither the data directory nor inside it (a replay leaves every byte of the data
/// directory as it was), nor a data directory of its own.
pub fn check_out(data: &Data, out: &Path) -> Result<()> {
    let (root, dir) = (resolved(&data.root)?, resolved(out)?);
    if dir.starts_with(&root) {
        anyhow::bail!(
            "--out {} is inside the data directory {}: a replay writes nothing there; name a folder outside it",
            out.display(),
            data.root.display()
        );
    }
    if root.starts_with(&dir) {
        anyhow::bail!(
            "--out {} holds the data directory {}: name a folder of the replay's own",
            out.display(),
            data.root.display()
        );
    }
    if out.join(MARKER).exists() {
        anyhow::bail!(
            "--out {} is a Huduku data directory (it has {MARKER}): a replay writes into a folder of its own",
            out.display()
        );
    }
    Ok(())
}

/// The error of a stage that found the stage lock held: who holds it, and what it does not do.
fn busy(data: &Data, path: &Path, stage: &str, not_doing: &str) -> anyhow::Error {
    let holder = fs::read_to_string(path).unwrap_or_default();
    anyhow::anyhow!(
        "another stage is running on {} ({}); {stage} {not_doing} while it does",
        data.root.display(),
        if holder.trim().is_empty() {
            format!("it holds {}", path.display())
        } else {
            format!("{} holds {}", holder.trim(), path.display())
        }
    )
}

impl DataLock {
    /// Takes the stage lock of `data` shared, for a stage that only reads the data directory
    /// (a replay writing into `--out`): no stage that writes starts while it runs, nor it
    /// while one does, and nothing in the data directory is written, the lock file included.
    pub fn take_shared(data: &Data, stage: &str) -> Result<DataLock> {
        data.check_marked()?;
        let path = data.root.join(STAGE_LOCK);
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock_shared() {
            Ok(()) => Ok(DataLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(busy(data, &path, stage, "reads nothing")),
            Err(fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("locking {}", path.display()))
            }
        }
    }

    /// Takes the stage lock of `data`, or fails at once naming the process that holds it.
    /// The directory must be a marked data directory ([`Data::check_marked`]).
    pub fn take(data: &Data, stage: &str) -> Result<DataLock> {
        data.check_marked()?;
        let path = data.root.join(STAGE_LOCK);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(busy(data, &path, stage, "asks nothing and writes nothing"));
            }
            Err(fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()));
            }
        }
        // Who holds it, for the message above (best effort: the lock is what counts).
        let _ = file.set_len(0);
        let _ = file.write_all(format!("{stage} (pid {})", std::process::id()).as_bytes());
        Ok(DataLock { _file: file })
    }
}

/// Removes what a killed run can leave behind: every hour's `.transient/` (raw bodies and
/// the publisher's summaries, which must not outlive a run) and the temporary files of
/// atomic writes that never reached their rename. Called with the stage lock held, at the
/// start of every hourly run, whatever hour `--now` names. Returns what was removed.
pub fn sweep(data: &Data) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    sweep_dir(&data.root, 0, true, &mut removed)?;
    removed.sort();
    Ok(removed)
}

/// Removes only the temporary files of atomic writes whose writer is gone, leaving every
/// `.transient/` (a later stage of the hour may still need its bodies): for a stage that
/// is not the first of the hour (`fetch-videos`). Returns what was removed.
pub fn sweep_temporaries(data: &Data) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    sweep_dir(&data.root, 0, false, &mut removed)?;
    removed.sort();
    Ok(removed)
}

/// Whether a file name is a temporary of [`write_atomic`] (`.NAME.tmpPID`) whose writer is
/// gone.
fn stale_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    let Some((_, pid)) = rest.rsplit_once(".tmp") else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
}

fn sweep_dir(dir: &Path, depth: usize, transient: bool, removed: &mut Vec<PathBuf>) -> Result<()> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    for entry in rd {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let ty = entry.file_type()?;
        if ty.is_dir() {
            if name == TRANSIENT {
                if !transient {
                    continue;
                }
                fs::remove_dir_all(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
                removed.push(path);
            } else if depth < 6 {
                sweep_dir(&path, depth + 1, transient, removed)?;
            }
        } else if stale_temporary(&name) {
            fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            removed.push(path);
        }
    }
    Ok(())
}

/// What a state file records of the last log it folded: the file (relative to the data
/// directory), its line count and its SHA-256, so a copy that is not the fold of the logs
/// on disk (an older one, an empty one) is found and rebuilt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Folded {
    pub log: String,
    pub lines: usize,
    pub sha256: String,
}

/// The fingerprint of a kept log file, as [`Folded`] records it.
pub fn fingerprint(data: &Data, rel: &str) -> Result<Folded> {
    let path = data.root.join(rel);
    let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    Ok(Folded {
        log: rel.to_string(),
        lines: bytes.iter().filter(|&&b| b == b'\n').count(),
        sha256: sha256_hex(&bytes),
    })
}

/// Serialises records as JSON lines (one per line, `\n` after each) and writes them atomically.
pub fn write_jsonl<T: Serialize>(path: &Path, records: &[T]) -> Result<()> {
    let mut out = Vec::with_capacity(records.len() * 256);
    for r in records {
        serde_json::to_writer(&mut out, r).context("serialising a record")?;
        out.push(b'\n');
    }
    write_atomic(path, &out)
}

/// Reads JSON lines; a line that does not parse is an error naming the file and line.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    Ok(read_jsonl_numbered(path)?
        .into_iter()
        .map(|(_, r)| r)
        .collect())
}

/// Like [`read_jsonl`], each record with its line number (from 1), for a check that names
/// where a record is wrong; blank lines are skipped.
pub fn read_jsonl_numbered<T: DeserializeOwned>(path: &Path) -> Result<Vec<(usize, T)>> {
    let f = fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.with_context(|| format!("{}:{}: reading", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let rec = serde_json::from_str(&line)
            .with_context(|| format!("{}:{}: not a valid record", path.display(), i + 1))?;
        out.push((i + 1, rec));
    }
    Ok(out)
}

/// The `*.jsonl` files directly in `dir`, in name order.
pub fn jsonl_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    Ok(files)
}

/// Like [`read_jsonl`], but a missing file is an empty list.
pub fn read_jsonl_opt<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    if path.exists() {
        read_jsonl(path)
    } else {
        Ok(Vec::new())
    }
}

/// Lines in a file (its `\n` bytes), without parsing them.
pub fn count_lines(path: &Path) -> Result<usize> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(bytes.iter().filter(|&&b| b == b'\n').count())
}

/// Writes pretty JSON atomically (for the state file, which people read too).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut out = serde_json::to_vec_pretty(value).context("serialising")?;
    out.push(b'\n');
    write_atomic(path, &out)
}

/// Lowercase hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest.iter() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("huduku-store-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let p = dir.join("a/b.jsonl");
        write_jsonl(
            &p,
            &[serde_json::json!({"x": 1}), serde_json::json!({"x": 2})],
        )
        .unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "{\"x\":1}\n{\"x\":2}\n");
        write_jsonl::<serde_json::Value>(&p, &[]).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "");
        let names: Vec<_> = fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "only the target remains: {names:?}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_line_names_file_and_line() {
        let dir = std::env::temp_dir().join(format!("huduku-store-bad-{}", std::process::id()));
        let p = dir.join("x.jsonl");
        write_atomic(&p, b"{\"x\":1}\nnot json\n").unwrap();
        let e = read_jsonl::<serde_json::Value>(&p).unwrap_err();
        assert!(format!("{e:#}").contains("x.jsonl:2"), "{e:#}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn sha256_matches_known_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
