//! The classifier's evaluation: labelled headlines (`tests/eval/*.jsonl`, one object a line
//! with `lang`, `topic`, `split` and `headline`), classified from the headline alone (any
//! `category` or `summary` in a line is hidden), scored per language as accuracy and
//! per-topic precision and recall, for the whole set and for its held-out part.
//!
//! With `DIR/outlets/*.jsonl` (headlines as outlets filed them: `outlet`, `lang`, `topic`,
//! `category`, `link`, `headline`), it also scores, for each outlet, a model trained on the
//! other outlets' filed headlines (their labels the table's reading of their filing, not the
//! labelled topic), on every headline of that outlet: the lexicons alone, the model alone
//! and the combined decision, with the outlet's filing in hand and with the headline alone.
//!
//! The report is Markdown, so `docs/topics.md` carries it as printed; the same inputs give
//! the same bytes.

use anyhow::{Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::filing::Filings;
use super::model::{self, Example, Model};
use super::{Classifier, Headline, Lexicons, TOPICS, best_topic, decide};
use crate::records::Evidence;

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
    let mut out = Vec::new();
    for path in crate::store::jsonl_files(dir)? {
        for (n, l) in crate::store::read_jsonl_numbered::<Labelled>(&path)? {
            let at = format!("{}:{n}", path.display());
            if !TOPICS.contains(&l.topic.as_str()) {
                bail!("{at}: topic {:?} is not in the taxonomy", l.topic);
            }
            if l.split != "dev" && l.split != "held-out" {
                bail!("{at}: split {:?} is not dev or held-out", l.split);
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

/// One headline as an outlet filed it, with the topic it is about.
#[derive(Debug, Clone, Deserialize)]
pub struct Filed {
    pub outlet: String,
    pub lang: String,
    pub topic: String,
    #[serde(default)]
    pub category: Vec<String>,
    #[serde(default)]
    pub link: String,
    pub headline: String,
}

/// Reads every `DIR/outlets/*.jsonl` (none: an empty set); a bad line names file and line.
pub fn load_outlets(dir: &Path) -> Result<Vec<Filed>> {
    let dir = dir.join("outlets");
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for path in crate::store::jsonl_files(&dir)? {
        for (n, f) in crate::store::read_jsonl_numbered::<Filed>(&path)? {
            if !TOPICS.contains(&f.topic.as_str()) {
                bail!(
                    "{}:{n}: topic {:?} is not in the taxonomy",
                    path.display(),
                    f.topic
                );
            }
            out.push(f);
        }
    }
    Ok(out)
}

/// The examples a set of filed headlines gives: those whose filing the table maps.
pub fn examples(filings: &Filings, rows: &[&Filed]) -> Vec<Example> {
    rows.iter()
        .filter_map(|f| {
            filings
                .topic_of(&f.outlet, &f.category, None, &f.link)
                .map(|t| Example {
                    lang: f.lang.clone(),
                    topic: t.topic.to_string(),
                    headline: f.headline.clone(),
                    outlet: Some(f.outlet.clone()),
                })
        })
        .collect()
}

/// Trains as `classify --train` does.
pub fn train(lexicons: &Lexicons, examples: &[Example]) -> Model {
    model::train(examples, &|e| {
        best_topic(lexicons.for_lang(&e.lang), &e.headline)
    })
}

/// One answer: the labelled topic, the topic said, and whether it was left unfiled.
#[derive(Debug, Clone)]
struct Answer {
    truth: String,
    said: String,
    unfiled: bool,
    /// Which evidence decided (the combined decision's; the others' are fixed).
    by: &'static str,
}

/// Accuracy, macro-F1 (over the topics labelled at least once) and the share unfiled.
fn figures(answers: &[Answer]) -> (f64, f64, f64) {
    let n = answers.len().max(1) as f64;
    let right = answers.iter().filter(|a| a.truth == a.said).count() as f64;
    let unfiled = answers.iter().filter(|a| a.unfiled).count() as f64;
    let mut f1s = Vec::new();
    for t in TOPICS {
        let is = answers.iter().filter(|a| a.truth == *t).count();
        if is == 0 {
            continue;
        }
        let said = answers.iter().filter(|a| a.said == *t).count();
        let tp = answers
            .iter()
            .filter(|a| a.said == *t && a.truth == *t)
            .count();
        let (p, r) = (
            if said == 0 {
                0.0
            } else {
                tp as f64 / said as f64
            },
            tp as f64 / is as f64,
        );
        f1s.push(if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        });
    }
    let macro_f1 = f1s.iter().sum::<f64>() / f1s.len().max(1) as f64;
    (right / n, macro_f1, unfiled / n)
}

fn pct1(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The three decisions compared, in the order the report prints them.
const SYSTEMS: [&str; 3] = ["lexicons alone", "model alone", "combined"];

/// What each system says of one headline, with its filing in hand or hidden.
fn answers(lexicons: &Lexicons, c: &Classifier, f: &Filed, with_filing: bool) -> [Answer; 3] {
    let no_cats: [String; 0] = [];
    let (cats, link) = if with_filing {
        (f.category.as_slice(), f.link.as_str())
    } else {
        (&no_cats[..], "")
    };
    let lex = decide(lexicons, &f.lang, &f.headline, cats, None, None);
    let mut buf = Vec::new();
    let guess = c
        .model
        .as_ref()
        .and_then(|m| m.guess(&f.lang, &f.headline, &mut buf))
        .map(|g| g.topic)
        .unwrap_or("other");
    let both = c.decide(
        &Headline {
            outlet: &f.outlet,
            lang: &f.lang,
            headline: &f.headline,
            categories: cats,
            link,
            ..Headline::default()
        },
        &mut buf,
    );
    let a = |said: &str, unfiled: bool, by: &'static str| Answer {
        truth: f.topic.clone(),
        said: said.to_string(),
        unfiled,
        by,
    };
    [
        a(&lex.topic, lex.evidence == Evidence::None, "lexicons"),
        a(guess, false, "model"),
        a(
            &both.topic,
            both.evidence == Evidence::None,
            match both.evidence {
                Evidence::Publisher => "the publisher's filing (the table)",
                Evidence::Category => "the lexicons on a category",
                Evidence::Model => "the model",
                Evidence::Headline | Evidence::Summary => "the lexicons on the headline",
                Evidence::None => "nothing (other)",
            },
        ),
    ]
}

/// The leave-one-outlet-out report over `rows`.
pub fn outlets_report(
    lexicons: &Lexicons,
    filings: &Filings,
    seed: &[Example],
    rows: &[Filed],
) -> String {
    let mut outlets: BTreeMap<(&str, &str), Vec<&Filed>> = BTreeMap::new();
    for f in rows {
        outlets
            .entry((f.lang.as_str(), f.outlet.as_str()))
            .or_default()
            .push(f);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Outlets the model never saw\n\nEach outlet's headlines are filed by a model trained as `make train` trains one: on the other outlets' headlines that their publishers filed under a section or category the table (`pipeline/topic-map.csv`) maps to a topic, labelled with that topic (not with ours), and on the hand-labelled examples in `pipeline/topics/examples.jsonl` ({seed} of them). \"With the filing\": the outlet's categories and link in hand, as in an hourly run; \"headline only\": both hidden, as for a home page's headline. Unfiled: `other` because nothing spoke.\n",
        seed = seed.len()
    );
    // lang → system → (with filing, headline only) answers; lang → outlet → combined answers
    let mut by_lang: BTreeMap<&str, [[Vec<Answer>; 2]; 3]> = BTreeMap::new();
    let mut per_outlet: BTreeMap<&str, Vec<(String, usize, usize, f64, f64)>> = BTreeMap::new();
    for (&(lang, outlet), test) in &outlets {
        let others: Vec<&Filed> = rows.iter().filter(|f| f.outlet != outlet).collect();
        let mut ex = examples(filings, &others);
        ex.extend(seed.iter().cloned());
        let c = Classifier {
            lexicons: lexicons.clone(),
            filings: filings.clone(),
            model: Some(train(lexicons, &ex)),
        };
        let slot = by_lang.entry(lang).or_default();
        let mut mine: [Vec<Answer>; 2] = Default::default();
        for f in test {
            for (k, with) in [true, false].into_iter().enumerate() {
                let a = answers(lexicons, &c, f, with);
                mine[k].push(a[2].clone());
                for (s, ans) in a.into_iter().enumerate() {
                    slot[s][k].push(ans);
                }
            }
        }
        let filed = test
            .iter()
            .filter(|f| {
                filings
                    .topic_of(&f.outlet, &f.category, None, &f.link)
                    .is_some()
            })
            .count();
        per_outlet.entry(lang).or_default().push((
            outlet.to_string(),
            test.len(),
            filed,
            figures(&mine[0]).0,
            figures(&mine[1]).0,
        ));
    }
    for (lang, systems) in &by_lang {
        let outs = &per_outlet[lang];
        let n: usize = outs.iter().map(|o| o.1).sum();
        let _ = writeln!(out, "### {lang}: {} outlets, {n} headlines\n", outs.len());
        let _ = writeln!(
            out,
            "| decision | with the filing: accuracy | macro-F1 | unfiled | headline only: accuracy | macro-F1 | unfiled |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
        for (s, name) in SYSTEMS.iter().enumerate() {
            let (a, f, u) = figures(&systems[s][0]);
            let (ha, hf, hu) = figures(&systems[s][1]);
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {} | {} | {} | {} |",
                pct1(a),
                pct1(f),
                pct1(u),
                pct1(ha),
                pct1(hf),
                pct1(hu)
            );
        }
        let _ = writeln!(
            out,
            "\n| outlet (never trained on) | headlines | filed by the table | combined, with the filing | combined, headline only |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        for (name, n, filed, a, h) in outs {
            let _ = writeln!(
                out,
                "| {name} | {n} | {filed} | {} | {} |",
                pct1(*a),
                pct1(*h)
            );
        }
        let _ = writeln!(
            out,
            "\nWhat decided, in the combined decision with the filing:\n\n| evidence | headlines | right |"
        );
        let _ = writeln!(out, "|---|---:|---:|");
        let mut by: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for a in &systems[2][0] {
            let e = by.entry(a.by).or_default();
            e.0 += 1;
            e.1 += usize::from(a.said == a.truth);
        }
        for (what, (n, right)) in &by {
            let _ = writeln!(out, "| {what} | {n} | {} |", pct(*right, *n));
        }
        let _ = writeln!(
            out,
            "\nPer topic, with the filing (precision / recall):\n\n| topic | headlines | lexicons alone | model alone | combined |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        for t in TOPICS {
            let is = systems[2][0].iter().filter(|a| a.truth == *t).count();
            let cells: Vec<String> = (0..3)
                .map(|k| {
                    let all = &systems[k][0];
                    let said = all.iter().filter(|a| a.said == *t).count();
                    let tp = all.iter().filter(|a| a.said == *t && a.truth == *t).count();
                    format!("{} / {}", pct(tp, said), pct(tp, is))
                })
                .collect();
            let _ = writeln!(out, "| {t} | {is} | {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    out
}

/// The self-written set scored by the lexicons, a model and the two combined (category
/// hidden, as in [`score`]).
fn model_report(
    lexicons: &Lexicons,
    filings: &Filings,
    m: &Model,
    set: &[Labelled],
    how: &str,
) -> String {
    let c = Classifier {
        lexicons: lexicons.clone(),
        filings: filings.clone(),
        model: Some(m.clone()),
    };
    let mut out = String::new();
    let _ = writeln!(out, "## The labelled set with a model\n\n{how}\n");
    let mut by_lang: BTreeMap<&str, [Vec<Answer>; 3]> = BTreeMap::new();
    for l in set.iter().filter(|l| l.split == "held-out") {
        let f = Filed {
            outlet: String::new(),
            lang: l.lang.clone(),
            topic: l.topic.clone(),
            category: Vec::new(),
            link: String::new(),
            headline: l.headline.clone(),
        };
        let a = answers(lexicons, &c, &f, false);
        let slot = by_lang.entry(l.lang.as_str()).or_default();
        for (s, ans) in a.into_iter().enumerate() {
            slot[s].push(ans);
        }
    }
    let _ = writeln!(
        out,
        "| language | decision | held-out accuracy | macro-F1 | unfiled |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|");
    for (lang, systems) in &by_lang {
        for (s, name) in SYSTEMS.iter().enumerate() {
            let (a, f, u) = figures(&systems[s]);
            let _ = writeln!(
                out,
                "| {lang} | {name} | {} ({}) | {} | {} |",
                pct1(a),
                systems[s].len(),
                pct1(f),
                pct1(u)
            );
        }
    }
    out.push('\n');
    out
}

/// `classify --eval DIR`: the lexicons on DIR's labelled set; with DIR/outlets/, each outlet
/// by a model trained on the others, and the labelled set by a model trained on every outlet
/// (or by `--model`, if given).
pub fn run(
    lexicons: &Lexicons,
    filings: &Filings,
    seed: &[Example],
    given: Option<&Model>,
    dir: &Path,
    errors_of: Option<&str>,
) -> Result<String> {
    let set = load(dir)?;
    let scored = score(lexicons, &set);
    let mut text = report(&scored);
    let outlets = load_outlets(dir)?;
    if !outlets.is_empty() {
        text.push_str(&outlets_report(lexicons, filings, seed, &outlets));
    }
    let trained;
    let with = match given {
        Some(m) => Some((m, "The model given with --model.".to_string())),
        None if !outlets.is_empty() => {
            let rows: Vec<&Filed> = outlets.iter().collect();
            let mut ex = examples(filings, &rows);
            let filed = ex.len();
            ex.extend(seed.iter().cloned());
            trained = train(lexicons, &ex);
            Some((
                &trained,
                format!(
                    "A model trained on the {filed} filed headlines of every outlet above and the {} hand-labelled examples; scored on the labelled set's held-out part (the hand-labelled examples include its dev part, written by the same people: this is not an outlet the model never saw).",
                    seed.len()
                ),
            ))
        }
        None => None,
    };
    if let Some((m, how)) = with {
        text.push_str(&model_report(lexicons, filings, m, &set, &how));
    }
    if let Some(split) = errors_of {
        if !["dev", "held-out", "all"].contains(&split) {
            bail!("--errors {split:?}: one of dev, held-out, all");
        }
        text.push_str(&format!(
            "Misfiled ({split}): language, label → decision, headline\n\n"
        ));
        text.push_str(&errors(&scored, split));
    }
    Ok(text)
}
