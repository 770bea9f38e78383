//! The stories' evaluation: labelled headlines (`tests/eval/stories/*.jsonl`, one object a
//! line with `story`, `outlet`, `lang`, `published`, `opinion`, `headline` and optionally
//! `case`, the hard case the line stands for), grouped by [`super::Grouper`] as publish
//! groups them, and scored against the labels, within Kannada, within English and across
//! the two, separately. Each file is scored alone (the development set `stories.jsonl`, the
//! held-out `held-out.jsonl`): its story ids and events are its own.
//!
//! - pairwise precision and recall: of the pairs put in one story, how many the labels
//!   put in one story; of the pairs the labels put in one story, how many were;
//! - B-cubed F1: per headline, the share of its story-mates (of the scope: the same
//!   language, or the other language) that are right, and the share of its labelled
//!   story-mates that were found, each averaged over the headlines that have any, and the
//!   harmonic mean of the two. Within a language the headline counts itself, as B-cubed
//!   usually does.
//!
//! The report is Markdown, so `docs/stories.md` carries it as printed; the same inputs give
//! the same bytes.

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{Grouper, Headline};

/// One labelled headline.
#[derive(Debug, Clone, Deserialize)]
pub struct Labelled {
    pub story: String,
    pub outlet: String,
    pub lang: String,
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
    #[serde(default)]
    pub opinion: bool,
    pub headline: String,
    #[serde(default)]
    pub case: Option<String>,
    /// Where it was read: `FILE:LINE` (its id in the grouping).
    #[serde(skip)]
    pub at: String,
}

/// One labelled file: its name and its headlines. Each file is a labelled world of its own
/// (its story ids and its events are its own), so each is grouped and scored alone.
#[derive(Debug, Clone)]
pub struct Set {
    pub name: String,
    pub headlines: Vec<Labelled>,
}

/// Reads every `*.jsonl` in `dir`, in name order, each as a set of its own; a bad line
/// names file and line.
pub fn load(dir: &Path) -> Result<Vec<Set>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading the stories' evaluation set in {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut sets = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let mut l: Labelled = serde_json::from_str(line).with_context(|| {
                format!("{}:{}: not a labelled headline", path.display(), n + 1)
            })?;
            l.at = format!("{name}:{}", n + 1);
            out.push(l);
        }
        if !out.is_empty() {
            sets.push(Set {
                name,
                headlines: out,
            });
        }
    }
    if sets.is_empty() {
        bail!("no labelled headlines in {}", dir.display());
    }
    Ok(sets)
}

/// Which story each headline was put in (an index of its own where none).
pub fn predict(grouper: &Grouper, set: &[Labelled]) -> Vec<usize> {
    let items = headlines(set);
    let mut story: Vec<usize> = (0..set.len()).collect();
    for g in grouper.group(&items) {
        let first = g[0];
        for i in g {
            story[i] = first;
        }
    }
    story
}

/// The labelled headlines as the grouper takes them.
fn headlines(set: &[Labelled]) -> Vec<Headline<'_>> {
    set.iter()
        .map(|l| Headline {
            id: &l.at,
            outlet: &l.outlet,
            lang: &l.lang,
            headline: &l.headline,
            published: l.published,
            opinion: l.opinion,
        })
        .collect()
}

/// The figures of one scope.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Figures {
    pub pairs_predicted: usize,
    pub pairs_labelled: usize,
    pub pairs_right: usize,
    pub bcubed_precision: f64,
    pub bcubed_recall: f64,
}

impl Figures {
    pub fn precision(&self) -> f64 {
        ratio(self.pairs_right, self.pairs_predicted)
    }
    pub fn recall(&self) -> f64 {
        ratio(self.pairs_right, self.pairs_labelled)
    }
    pub fn bcubed_f1(&self) -> f64 {
        let (p, r) = (self.bcubed_precision, self.bcubed_recall);
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// A scope of the figures: within one language, or across the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope<'a> {
    Within(&'a str),
    Across,
}

impl Scope<'_> {
    fn pair(&self, a: &Labelled, b: &Labelled) -> bool {
        match self {
            Scope::Within(l) => a.lang == *l && b.lang == *l,
            Scope::Across => a.lang != b.lang,
        }
    }
}

/// Scores a prediction in a scope.
pub fn figures(set: &[Labelled], predicted: &[usize], scope: Scope) -> Figures {
    let mut f = Figures::default();
    let (mut bp, mut np, mut br, mut nr) = (0.0, 0usize, 0.0, 0usize);
    for i in 0..set.len() {
        let within = matches!(scope, Scope::Within(l) if set[i].lang == l);
        if !within && scope != Scope::Across {
            continue;
        }
        // Story-mates in scope (the headline itself, within a language).
        let (mut pred, mut gold, mut both) = (0usize, 0usize, 0usize);
        for j in 0..set.len() {
            let mate = if i == j {
                within
            } else {
                scope.pair(&set[i], &set[j])
            };
            if !mate {
                continue;
            }
            let p = predicted[i] == predicted[j];
            let g = set[i].story == set[j].story;
            pred += usize::from(p);
            gold += usize::from(g);
            both += usize::from(p && g);
            if j > i {
                f.pairs_predicted += usize::from(p);
                f.pairs_labelled += usize::from(g);
                f.pairs_right += usize::from(p && g);
            }
        }
        if pred > 0 {
            bp += both as f64 / pred as f64;
            np += 1;
        }
        if gold > 0 {
            br += both as f64 / gold as f64;
            nr += 1;
        }
    }
    f.bcubed_precision = if np == 0 { 1.0 } else { bp / np as f64 };
    f.bcubed_recall = if nr == 0 { 1.0 } else { br / nr as f64 };
    f
}

/// The report of one set, as Markdown, under a heading naming its file.
pub fn report(name: &str, set: &[Labelled], predicted: &[usize]) -> String {
    let mut s = format!("### {name}\n\n");
    let stories: std::collections::BTreeSet<&str> = set.iter().map(|l| l.story.as_str()).collect();
    let count = |lang: &str| set.iter().filter(|l| l.lang == lang).count();
    let found: std::collections::BTreeSet<usize> = predicted
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            predicted
                .iter()
                .enumerate()
                .any(|(j, q)| j != *i && q == *p)
        })
        .map(|(_, p)| *p)
        .collect();
    let _ = writeln!(
        s,
        "Stories evaluation: {} headlines ({} Kannada, {} English) in {} labelled stories; {} stories found.\n",
        set.len(),
        count("kn"),
        count("en"),
        stories.len(),
        found.len()
    );
    let _ = writeln!(
        s,
        "| scope | pairs labelled | pairs found | pairwise precision | pairwise recall | B-cubed F1 |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
    for (name, scope) in [
        ("within Kannada", Scope::Within("kn")),
        ("within English", Scope::Within("en")),
        ("across languages", Scope::Across),
    ] {
        let f = figures(set, predicted, scope);
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {:.3} | {:.3} | {:.3} |",
            f.pairs_labelled,
            f.pairs_predicted,
            f.precision(),
            f.recall(),
            f.bcubed_f1()
        );
    }
    // The hard cases: pairs with at least one headline of the case.
    let mut cases: BTreeMap<&str, (usize, usize, usize, usize)> = BTreeMap::new();
    for i in 0..set.len() {
        for j in i + 1..set.len() {
            let (p, g) = (predicted[i] == predicted[j], set[i].story == set[j].story);
            let mut named: Vec<&str> = [&set[i].case, &set[j].case]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            named.dedup();
            for c in named {
                let e = cases.entry(c).or_default();
                e.0 += usize::from(g);
                e.1 += usize::from(p);
                e.2 += usize::from(p && g);
                e.3 += usize::from(p && !g);
            }
        }
    }
    if !cases.is_empty() {
        let _ = writeln!(
            s,
            "\nHard cases (pairs with a headline of the case, both scopes):\n\n| case | pairs labelled | pairs found | false merges | precision | recall |\n|---|---:|---:|---:|---:|---:|"
        );
        for (c, (g, p, r, wrong)) in &cases {
            let _ = writeln!(
                s,
                "| {c} | {g} | {p} | {wrong} | {:.3} | {:.3} |",
                ratio(*r, *p),
                ratio(*r, *g)
            );
        }
    }
    s
}

/// The pairs put wrongly in one story, and the labelled pairs missed, one line each; a
/// missed pair says why ([`Grouper::explain`]).
pub fn errors(grouper: &Grouper, set: &[Labelled], predicted: &[usize]) -> String {
    let line = |i: usize, j: usize| {
        format!(
            "- {} {} [{}] {} | {} {} [{}] {}",
            set[i].at,
            set[i].lang,
            set[i].story,
            set[i].headline,
            set[j].at,
            set[j].lang,
            set[j].story,
            set[j].headline
        )
    };
    let mut s = String::from("\nFalse merges:\n\n");
    let mut missed = Vec::new();
    let mut named = vec![false; set.len()];
    for i in 0..set.len() {
        for j in i + 1..set.len() {
            let (p, g) = (predicted[i] == predicted[j], set[i].story == set[j].story);
            if p && !g {
                s.push_str(&line(i, j));
                s.push('\n');
            } else if g && !p {
                missed.push((i, j));
            } else {
                continue;
            }
            named[i] = true;
            named[j] = true;
        }
    }
    s.push_str("\nMissed:\n\n");
    let items = headlines(set);
    let why = grouper.explain(&items, &missed);
    for (&(i, j), why) in missed.iter().zip(why) {
        s.push_str(&format!("{} ({why})\n", line(i, j)));
    }
    // What the gates read in each headline named above, to tell which place or number
    // kept a pair apart.
    s.push_str("\nRead:\n\n");
    for (i, h) in items.iter().enumerate().filter(|&(i, _)| named[i]) {
        s.push_str(&format!(
            "- {} {}\n  {}\n",
            set[i].at,
            h.headline,
            grouper.describe(h)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(story: &str, lang: &str) -> Labelled {
        Labelled {
            story: story.into(),
            outlet: "o".into(),
            lang: lang.into(),
            published: crate::time::parse_now("2026-11-30T00:00:00Z").unwrap(),
            opinion: false,
            headline: "h".into(),
            case: None,
            at: String::new(),
        }
    }

    #[test]
    fn figures_count_pairs_by_scope() {
        let set = [l("a", "en"), l("a", "en"), l("a", "kn"), l("b", "en")];
        // Found: the two English "a" together with the English "b"; the Kannada one alone.
        let pred = [0, 0, 2, 0];
        let en = figures(&set, &pred, Scope::Within("en"));
        assert_eq!(
            (en.pairs_labelled, en.pairs_predicted, en.pairs_right),
            (1, 3, 1)
        );
        let across = figures(&set, &pred, Scope::Across);
        assert_eq!((across.pairs_labelled, across.pairs_predicted), (2, 0));
        assert_eq!(across.precision(), 1.0);
        assert_eq!(across.recall(), 0.0);
        let perfect = figures(&set, &[0, 0, 0, 3], Scope::Within("en"));
        assert_eq!(perfect.bcubed_f1(), 1.0);
    }
}
