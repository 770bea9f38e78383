//! The classifier's evaluation: labelled headlines (`tests/eval/*.jsonl`, one object a line
//! with `lang`, `topic`, `split` and `headline`), classified from the headline alone (any
//! `category` or `summary` in a line is hidden), scored per language as accuracy and
//! per-topic precision and recall, for the whole set and for its held-out part.
//!
//! The report is Markdown, so `docs/topics.md` carries it as printed; the same inputs give
//! the same bytes.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{Lexicons, TOPICS, decide};

/// One labelled headline.
#[derive(Debug, Clone, Deserialize)]
pub struct Labelled {
    pub lang: String,
    pub topic: String,
    /// `dev` (looked at while the lexicons were written) or `held-out` (never looked at).
    pub split: String,
    pub headline: String,
}

/// A labelled headline with what the classifier said.
#[derive(Debug, Clone)]
pub struct Scored {
    pub item: Labelled,
    pub predicted: String,
}

/// Reads every `*.jsonl` in `dir`, in name order; a bad line names file and line.
pub fn load(dir: &Path) -> Result<Vec<Labelled>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading the evaluation set in {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let l: Labelled = serde_json::from_str(line)
                .with_context(|| format!("{}:{}", path.display(), i + 1))?;
            if !TOPICS.contains(&l.topic.as_str()) {
                bail!(
                    "{}:{}: topic {:?} is not in the taxonomy",
                    path.display(),
                    i + 1,
                    l.topic
                );
            }
            if l.split != "dev" && l.split != "held-out" {
                bail!(
                    "{}:{}: split {:?} is not dev or held-out",
                    path.display(),
                    i + 1,
                    l.split
                );
            }
            out.push(l);
        }
    }
    if out.is_empty() {
        bail!("no labelled headlines in {}", dir.display());
    }
    Ok(out)
}

/// Classifies each headline from its words alone: no category, no summary.
pub fn score(lexicons: &Lexicons, set: &[Labelled]) -> Vec<Scored> {
    set.iter()
        .map(|l| Scored {
            predicted: decide(lexicons, &l.lang, &l.headline, &[], None, None).topic,
            item: l.clone(),
        })
        .collect()
}

fn pct(num: usize, den: usize) -> String {
    if den == 0 {
        "–".into()
    } else {
        format!("{:.1}%", 100.0 * num as f64 / den as f64)
    }
}

fn accuracy(items: &[&Scored]) -> String {
    let right = items.iter().filter(|s| s.predicted == s.item.topic).count();
    format!("{} ({right}/{})", pct(right, items.len()), items.len())
}

/// (precision, recall) of one topic over `items`, as text.
fn precision_recall(items: &[&Scored], topic: &str) -> (String, String) {
    let tp = items
        .iter()
        .filter(|s| s.predicted == topic && s.item.topic == topic)
        .count();
    let said = items.iter().filter(|s| s.predicted == topic).count();
    let is = items.iter().filter(|s| s.item.topic == topic).count();
    (pct(tp, said), pct(tp, is))
}

/// The Markdown report: per language, accuracy (all, dev, held-out) and a per-topic table.
pub fn report(scored: &[Scored]) -> String {
    let mut by_lang: BTreeMap<&str, Vec<&Scored>> = BTreeMap::new();
    for s in scored {
        by_lang.entry(s.item.lang.as_str()).or_default().push(s);
    }
    let mut out = String::new();
    for (lang, items) in &by_lang {
        let dev: Vec<&Scored> = items
            .iter()
            .copied()
            .filter(|s| s.item.split == "dev")
            .collect();
        let held: Vec<&Scored> = items
            .iter()
            .copied()
            .filter(|s| s.item.split == "held-out")
            .collect();
        let _ = writeln!(
            out,
            "### {lang}: {} headlines ({} dev, {} held-out), category hidden, no summary\n",
            items.len(),
            dev.len(),
            held.len()
        );
        let _ = writeln!(
            out,
            "Accuracy: all {} · dev {} · held-out {}\n",
            accuracy(items),
            accuracy(&dev),
            accuracy(&held)
        );
        let _ = writeln!(
            out,
            "| topic | headlines | precision | recall | held-out precision | held-out recall |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
        for topic in TOPICS {
            let n = items.iter().filter(|s| s.item.topic == *topic).count();
            let (p, r) = precision_recall(items, topic);
            let (hp, hr) = precision_recall(&held, topic);
            let _ = writeln!(out, "| {topic} | {n} | {p} | {r} | {hp} | {hr} |");
        }
        out.push('\n');
    }
    out
}

/// The misfiled headlines of one split (`dev`, `held-out` or `all`), one a line.
pub fn errors(scored: &[Scored], split: &str) -> String {
    let mut out = String::new();
    for s in scored {
        if s.predicted != s.item.topic && (split == "all" || s.item.split == split) {
            let _ = writeln!(
                out,
                "{}\t{} → {}\t{}",
                s.item.lang, s.item.topic, s.predicted, s.item.headline
            );
        }
    }
    out
}
