//! `replay`: the folder a replay of a day writes into, and what it wrote against the kept files.
//!
//! `make replay DAY=D` re-runs the stages that need no network for day D from the kept
//! files, and writes nothing in the data directory: `classify --out` and `publish --out`
//! write into a folder of the replay's own (`REPLAY_OUT`, by default `DATA-replays/D`),
//! laid out as the data directory is (`D/HH/classified.jsonl`, `D/published.jsonl`,
//! `site/`). `replay prepare` empties and marks that folder first; `replay compare` then
//! says whether the replay gave the same bytes as what is kept:
//!
//! - every file the replay wrote under `D/`, against the kept file of the same name, and
//!   every kept `D/HH/classified.jsonl`, which the replay must have made again;
//! - the day's open data, `site/data/headlines-D.csv` and `.jsonl`;
//! - and, when D is the newest day of the data directory (so the live site is as of D),
//!   every file of the site, both ways (a page only one side has is a difference).
//!
//! The pages of an older day's replay show the site as of the end of D; the live site has
//! moved on since, so they are not compared. Each difference is named, with a `diff`-style
//! excerpt for JSON-lines and CSV files; the exit status is 0 for the same bytes, 3 when
//! files differ, 1 when the comparison could not be made.

use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::cli::Report;
use crate::store::{Data, REPLAY_MARKER};

/// Make a replay's folder ready, or compare what a replay wrote with the kept files.
#[derive(Debug, clap::Parser)]
#[command(name = "replay", version)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Empty the replay's folder and mark it as one (a folder that exists and is not a
    /// replay's is refused, never emptied).
    Prepare(Where),
    /// Compare what the replay wrote with the kept files: the same bytes, or each file that
    /// differs.
    Compare(Where),
}

/// The data directory, the replay's folder and the day.
#[derive(Debug, Clone, clap::Args)]
pub struct Where {
    /// The data directory (read only).
    #[arg(long, value_name = "DIR", default_value = "data")]
    pub data: PathBuf,
    /// The replay's folder, outside the data directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The day replayed (YYYY-MM-DD).
    #[arg(long, value_name = "DAY")]
    pub day: String,
}

pub fn run(args: &Args) -> Result<Report> {
    match &args.command {
        Command::Prepare(w) => prepare(w),
        Command::Compare(w) => {
            let c = compare(w)?;
            print!("{}", c.text);
            Ok(Report {
                summary: c.summary,
                failed: c.differ,
            })
        }
    }
}

fn check(w: &Where) -> Result<Data> {
    let data = Data::new(&w.data);
    data.check_marked()?;
    crate::time::parse_day(&w.day)
        .ok()
        .filter(|_| w.day.len() == 10)
        .with_context(|| format!("--day {:?} is not a day such as 2026-11-30", w.day))?;
    crate::store::check_out(&data, &w.out)?;
    Ok(data)
}

/// Empties the replay's folder (only one a replay made) and marks it.
fn prepare(w: &Where) -> Result<Report> {
    check(w)?;
    let out = &w.out;
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("reading {}", out.display()))?
            .next()
            .is_none();
        if !empty && !out.join(REPLAY_MARKER).is_file() {
            bail!(
                "{} exists and is not a replay's folder (no {REPLAY_MARKER} in it): nothing is removed; name another with REPLAY_OUT= (or --out)",
                out.display()
            );
        }
        std::fs::remove_dir_all(out).with_context(|| format!("emptying {}", out.display()))?;
    }
    crate::store::write_atomic(
        &out.join(REPLAY_MARKER),
        format!(
            "The output of a replay of {} from {} (make replay): emptied by the next replay into it.\n",
            w.day,
            w.data.display()
        )
        .as_bytes(),
    )?;
    Ok(Report {
        summary: format!("{} ready for the replay of {}", out.display(), w.day),
        failed: 0,
    })
}

/// What a comparison found: the report's text, how many files differ, a summary line.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub text: String,
    pub compared: usize,
    pub differ: usize,
    pub summary: String,
}

/// Every file under `dir`, relative to it, sorted (none when it is missing).
fn files(dir: &Path) -> Result<BTreeSet<PathBuf>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<PathBuf>) -> Result<()> {
        let rd = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
        };
        for entry in rd {
            let path = entry?.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.insert(rel.to_path_buf());
            }
        }
        Ok(())
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

/// Compares what a replay wrote with the kept files (see the module's documentation).
pub fn compare(w: &Where) -> Result<Comparison> {
    let data = check(w)?;
    let out = Data::new(&w.out);
    let day = w.day.as_str();
    if !w.out.join(REPLAY_MARKER).is_file() {
        bail!(
            "{} is not a replay's folder (no {REPLAY_MARKER}): run make replay",
            w.out.display()
        );
    }
    let rel = |p: &Path| -> PathBuf { p.strip_prefix(&w.out).unwrap_or(p).to_path_buf() };
    let mut names: BTreeSet<PathBuf> = BTreeSet::new();
    // What the replay wrote for the day, and the kept hours' headlines it must make again.
    for f in files(&out.day_dir(day))? {
        names.insert(rel(&out.day_dir(day).join(f)));
    }
    for hour in data.hours(day)? {
        let kept = data.hour_dir(day, &hour).join("classified.jsonl");
        if kept.is_file() {
            names.insert(PathBuf::from(day).join(&hour).join("classified.jsonl"));
        }
    }
    for ext in ["csv", "jsonl"] {
        names.insert(
            PathBuf::from("site")
                .join(crate::publish::export::DIR)
                .join(format!("headlines-{day}.{ext}")),
        );
    }
    let newest = data.days()?.last().is_some_and(|d| d == day);
    if newest {
        for f in files(&data.site_dir())?
            .into_iter()
            .chain(files(&out.site_dir())?)
        {
            names.insert(PathBuf::from("site").join(f));
        }
    }
    let mut text = String::new();
    let mut differ = 0;
    for name in &names {
        let kept = data.root.join(name);
        let made = w.out.join(name);
        let (k, m) = (std::fs::read(&kept).ok(), std::fs::read(&made).ok());
        let what = match (&k, &m) {
            (Some(k), Some(m)) if k == m => continue,
            (Some(_), Some(_)) => "differs",
            (Some(_), None) => "kept, not made by the replay",
            (None, Some(_)) => "made by the replay, not kept",
            (None, None) => continue,
        };
        differ += 1;
        text.push_str(&format!("{what}: {}\n", name.display()));
        let textual = name.extension().is_some_and(|e| e == "jsonl" || e == "csv");
        if let (Some(k), Some(m), true) = (&k, &m, textual) {
            text.push_str(&excerpt(
                &String::from_utf8_lossy(k),
                &String::from_utf8_lossy(m),
                &kept,
                &made,
            ));
        }
    }
    let compared = names.len();
    let scope = if newest {
        "the day's files and the whole site"
    } else {
        "the day's files and open data (an older day: the live site has moved on)"
    };
    let summary = if differ == 0 {
        format!("replay of {day}: same bytes ({compared} files: {scope})")
    } else {
        format!(
            "replay of {day}: {differ} of {compared} files differ from the kept ones ({scope}); the list is above"
        )
    };
    if differ == 0 {
        text.push_str(&format!("same bytes: {compared} files\n"));
    }
    Ok(Comparison {
        text,
        compared,
        differ,
        summary,
    })
}

/// Lines shown each side of a difference at most.
const EXCERPT_LINES: usize = 12;

/// A `diff -u`-style excerpt of two texts: the lines between their common start and their
/// common end, kept (`-`) then replayed (`+`), at most [`EXCERPT_LINES`] of each.
pub fn excerpt(kept: &str, made: &str, kept_path: &Path, made_path: &Path) -> String {
    let a: Vec<&str> = kept.lines().collect();
    let b: Vec<&str> = made.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (da, db) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut s = format!(
        "--- {} (kept)\n+++ {} (replay)\n@@ -{},{} +{},{} @@\n",
        kept_path.display(),
        made_path.display(),
        head + 1,
        da.len(),
        head + 1,
        db.len()
    );
    for (sign, lines) in [('-', da), ('+', db)] {
        for l in lines.iter().take(EXCERPT_LINES) {
            s.push(sign);
            s.push_str(l);
            s.push('\n');
        }
        if lines.len() > EXCERPT_LINES {
            s.push_str(&format!(
                "{sign}... {} more lines\n",
                lines.len() - EXCERPT_LINES
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_shows_only_the_lines_that_differ() {
        let e = excerpt(
            "a\nb\nc\nd\n",
            "a\nB\nc\nd\n",
            Path::new("k"),
            Path::new("m"),
        );
        assert_eq!(e, "--- k (kept)\n+++ m (replay)\n@@ -2,1 +2,1 @@\n-b\n+B\n");
        let e = excerpt("a\n", "a\nb\n", Path::new("k"), Path::new("m"));
        assert!(e.ends_with("@@ -2,0 +2,1 @@\n+b\n"), "{e}");
    }
}
