//! `classify`: files each headline under one topic, and labels Opinion only where the
//! publisher's own category says so.
//!
//! The lexicons are plain files in `PIPELINE/topics/`, one per language (`en.txt`, `kn.txt`):
//! a line `[topic]` starts a topic, each following line is a word or phrase pointing to it,
//! and a trailing `*` lets a word match as the start of a longer word (Kannada's endings).
//! The `[opinion]` section lists the words that, in a publisher's category, mean Opinion.
//!
//! Evidence is weighed in a fixed order (`docs/topics.md`): the publisher's own filing read
//! with the hand-kept table `PIPELINE/topic-map.csv` ([`filing`]), the lexicons reading the
//! publisher's categories, the learned model ([`model`], `--model`) when it is sure, the
//! lexicons reading the headline, the summary while it is in hand, the model when it is
//! fairly sure and nothing else spoke, and last `other`. The output names which one decided
//! (and the model's score), never the words.

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::Path;

use crate::cli::{Common, Report};
use crate::records::{Classified, Evidence, Item, Summary, SummaryTopic};

pub mod eval;
pub mod filing;
pub mod model;

use filing::Filings;
use model::Model;

/// The taxonomy, in the order ties are broken.
pub const TOPICS: &[&str] = &[
    "politics",
    "business",
    "crime",
    "health",
    "education",
    "environment",
    "science",
    "world",
    "sport",
    "culture",
    "local",
    "other",
];

/// File each headline under a topic (the hour's items, or JSON lines on stdin with --stdin).
#[derive(Debug, clap::Parser)]
#[command(name = "classify", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Read JSON lines with `headline`, `lang` and optional `category`, `summary`, `outlet`,
    /// `section` and `link` on stdin and print each back with `topic`, `opinion`, `evidence`
    /// (and `score`, where the model decided) added.
    #[arg(long, conflicts_with_all = ["eval", "train", "examples"])]
    pub stdin: bool,
    /// File with this topic model (made by --train) as well as the lexicons. A model that
    /// cannot be read stops classify, unless --or-lexicons is given.
    #[arg(long, value_name = "FILE")]
    pub model: Option<std::path::PathBuf>,
    /// With --model: a model that cannot be read is said (exit 4, a person must act) and the
    /// headlines are filed with the lexicons alone.
    #[arg(long, requires = "model")]
    pub or_lexicons: bool,
    /// Train a topic model on these examples (JSON lines with `headline`, `lang` and
    /// `topic`) and write it to --model.
    #[arg(long, value_name = "EXAMPLES", requires = "model", conflicts_with_all = ["eval", "examples", "out"])]
    pub train: Option<std::path::PathBuf>,
    /// Print, as training examples, the kept headlines of the DAYS days before --now whose
    /// publisher's filing the table (topic-map.csv) maps to a topic.
    #[arg(long, value_name = "DAYS", conflicts_with_all = ["eval", "out"])]
    pub examples: Option<u32>,
    /// Score the lexicons on a labelled set (a directory of `*.jsonl` with `lang`, `topic`,
    /// `split` and `headline`): print accuracy and per-topic precision and recall per
    /// language, the category hidden, as Markdown. With DIR/outlets/ (headlines as outlets
    /// filed them), also the lexicons, the model and the combined decision on each outlet by
    /// a model trained on the others.
    #[arg(long, value_name = "DIR")]
    pub eval: Option<std::path::PathBuf>,
    /// With --eval, also list the misfiled headlines of a split: dev, held-out or all.
    #[arg(long, value_name = "SPLIT", requires = "eval")]
    pub errors: Option<String>,
    /// Write the hour's files under this folder (DIR/DAY/HH/) instead of the data directory,
    /// which is only read (a replay: `make replay`). Outside the data directory; no other
    /// hour is caught up.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["stdin", "eval"])]
    pub out: Option<std::path::PathBuf>,
}

/// How one word of an entry matches a word of the text.
#[derive(Debug, Clone, PartialEq)]
enum Pattern {
    /// `word`: the whole word.
    Whole(String),
    /// `word*`: the start of a word (Kannada's endings, English plurals).
    Start(String),
    /// `*word*`: anywhere inside a word (Kannada compounds: `*ಗಳ್ಳ*` in ಸರಗಳ್ಳರ).
    Inside(String),
}

impl Pattern {
    fn parse(w: &str) -> Option<Pattern> {
        let (inside, w) = match w.strip_prefix('*') {
            Some(rest) => (true, rest),
            None => (false, w),
        };
        let (start, w) = match w.strip_suffix('*') {
            Some(rest) => (true, rest),
            None => (false, w),
        };
        if w.is_empty() || w.contains('*') {
            return None;
        }
        Some(match (inside, start) {
            (true, _) => Pattern::Inside(w.to_string()),
            (false, true) => Pattern::Start(w.to_string()),
            (false, false) => Pattern::Whole(w.to_string()),
        })
    }

    fn matches(&self, token: &str) -> bool {
        match self {
            Pattern::Whole(w) => token == w,
            Pattern::Start(w) => token.starts_with(w.as_str()),
            Pattern::Inside(w) => token.contains(w.as_str()),
        }
    }
}

/// One lexicon entry: a word or phrase, and its weight (by default one per word).
#[derive(Debug, Clone)]
struct Entry {
    words: Vec<Pattern>,
    weight: f64,
}

/// The lexicon of one language.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    topics: BTreeMap<String, Vec<Entry>>,
    opinion: Vec<Entry>,
}

/// The lexicons of every language, by language code.
#[derive(Debug, Clone, Default)]
pub struct Lexicons {
    by_lang: BTreeMap<String, Lexicon>,
}

impl Lexicons {
    /// Loads every `*.txt` in `dir`; a bad line names file and line.
    pub fn load(dir: &Path) -> Result<Lexicons> {
        let mut by_lang = BTreeMap::new();
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .with_context(|| format!("reading the topic lexicons in {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        names.sort();
        for path in names {
            let lang = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            by_lang.insert(lang, Lexicon::parse(&text, &path)?);
        }
        if by_lang.is_empty() {
            bail!("no topic lexicons (*.txt) in {}", dir.display());
        }
        Ok(Lexicons { by_lang })
    }

    fn for_lang(&self, lang: &str) -> impl Iterator<Item = &Lexicon> {
        // The item's own language first, then English (categories are often English slugs).
        let own = self.by_lang.get(lang);
        let en = if lang != "en" {
            self.by_lang.get("en")
        } else {
            None
        };
        own.into_iter().chain(en)
    }
}

impl Lexicon {
    pub fn parse(text: &str, path: &Path) -> Result<Lexicon> {
        let mut lex = Lexicon::default();
        let mut current: Option<String> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let name = name.trim().to_lowercase();
                if name != "opinion" && !TOPICS.contains(&name.as_str()) {
                    bail!(
                        "{}:{}: [{name}] is not a topic; topics are {} (and [opinion])",
                        path.display(),
                        i + 1,
                        TOPICS.join(", ")
                    );
                }
                current = Some(name);
                continue;
            }
            let Some(topic) = &current else {
                bail!(
                    "{}:{}: a word before any [topic] line",
                    path.display(),
                    i + 1
                );
            };
            // `phrase = 2` gives a weight; without one, a phrase weighs one per word.
            let (phrase, weight) = match line.rsplit_once('=') {
                Some((p, w)) => {
                    let w: f64 = w
                        .trim()
                        .parse()
                        .ok()
                        .filter(|w: &f64| w.is_finite() && *w > 0.0)
                        .with_context(|| {
                            format!(
                                "{}:{}: the weight after '=' in {line:?} is not a positive number",
                                path.display(),
                                i + 1
                            )
                        })?;
                    (p, Some(w))
                }
                None => (line, None),
            };
            let mut words = Vec::new();
            for w in tokens(phrase) {
                match Pattern::parse(&w) {
                    Some(p) => words.push(p),
                    None => bail!(
                        "{}:{}: {w:?}: a '*' goes only at the start or end of a word",
                        path.display(),
                        i + 1
                    ),
                }
            }
            if words.is_empty() {
                bail!("{}:{}: no word in {line:?}", path.display(), i + 1);
            }
            let weight = weight.unwrap_or(words.len() as f64);
            let entry = Entry { words, weight };
            if topic == "opinion" {
                lex.opinion.push(entry);
            } else {
                lex.topics.entry(topic.clone()).or_default().push(entry);
            }
        }
        Ok(lex)
    }
}

/// Lower-cased words of a text, split at spaces and punctuation (Kannada signs stay in their
/// word). Zero-width joiners and non-joiners are dropped, since outlets differ in using them
/// (ಜಿಎಸ್‌ಟಿ and ಜಿಎಸ್ಟಿ are one word).
pub fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['\u{200c}', '\u{200d}'], "")
        .split(|c: char| {
            c.is_whitespace()
                || (c.is_ascii_punctuation() && c != '*' && c != '-')
                || "‘’“”–—…।|«»·₹".contains(c)
        })
        .map(|w| w.trim_matches('-').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Where an entry first matches in the text (the index of its first word), if it does.
fn entry_position(e: &Entry, toks: &[String]) -> Option<usize> {
    let n = e.words.len();
    if n > toks.len() {
        return None;
    }
    (0..=toks.len() - n).find(|start| {
        e.words
            .iter()
            .enumerate()
            .all(|(k, p)| p.matches(&toks[start + k]))
    })
}

fn entry_matches(e: &Entry, toks: &[String]) -> bool {
    entry_position(e, toks).is_some()
}

/// Scores a text against the lexicons: each topic gets the weights of its entries that
/// match (an entry counts once however often it matches; an entry listed in both lexicons
/// counts in each). The best score wins; a tie goes to the topic matched earliest in the
/// text (a headline leads with its subject), then to the taxonomy's order.
fn best_topic<'a>(lexes: impl Iterator<Item = &'a Lexicon>, text: &str) -> Option<String> {
    let toks = tokens(text);
    if toks.is_empty() {
        return None;
    }
    // topic → (score, first position)
    let mut scores: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
    for lex in lexes {
        for (topic, entries) in &lex.topics {
            for e in entries {
                if let Some(pos) = entry_position(e, &toks) {
                    let s = scores.entry(topic.as_str()).or_insert((0.0, usize::MAX));
                    s.0 += e.weight;
                    s.1 = s.1.min(pos);
                }
            }
        }
    }
    TOPICS
        .iter()
        .enumerate()
        .filter_map(|(order, t)| scores.get(*t).map(|(score, pos)| (*score, *pos, order, *t)))
        .max_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then_with(|| b.1.cmp(&a.1))
                .then_with(|| b.2.cmp(&a.2))
        })
        .map(|(_, _, _, t)| t.to_string())
}

/// Whether the publisher's own filing says opinion: one of its categories, the source's
/// section or a folder of the link matches the lexicons' `[opinion]` (never the headline's
/// wording, never the model).
pub fn is_opinion(lexicons: &Lexicons, lang: &str, filed: &[String]) -> bool {
    filed.iter().any(|c| {
        let toks = tokens(c);
        lexicons
            .for_lang(lang)
            .any(|lex| lex.opinion.iter().any(|e| entry_matches(e, &toks)))
    })
}

/// The decision for one headline: topic, the evidence that decided, Opinion.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub topic: String,
    pub evidence: Evidence,
    /// The model's probability, where the model decided.
    pub score: Option<f32>,
    pub opinion: bool,
}

/// The lexicons' decision for a headline: its category, then headline, then summary (or the
/// topic a summary pointed to in the hour it was in hand).
pub fn decide(
    lexicons: &Lexicons,
    lang: &str,
    headline: &str,
    categories: &[String],
    summary: Option<&str>,
    summary_topic: Option<&str>,
) -> Decision {
    Classifier {
        lexicons: lexicons.clone(),
        filings: Filings::default(),
        model: None,
    }
    .decide(
        &Headline {
            lang,
            headline,
            categories,
            summary,
            summary_topic,
            ..Headline::default()
        },
        &mut Vec::new(),
    )
}

/// Everything classify decides with: the lexicons, the filing table and, if given, a model.
#[derive(Debug, Clone)]
pub struct Classifier {
    pub lexicons: Lexicons,
    pub filings: Filings,
    pub model: Option<Model>,
}

/// One headline and what came with it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Headline<'a> {
    pub outlet: &'a str,
    pub lang: &'a str,
    pub headline: &'a str,
    pub categories: &'a [String],
    /// The section of the source it came from (`sources.csv`).
    pub section: Option<&'a str>,
    pub link: &'a str,
    pub summary: Option<&'a str>,
    pub summary_topic: Option<&'a str>,
}

/// The model's probability as kept: two decimals, so the file reads plainly.
fn score_kept(score: f32) -> f32 {
    (score * 100.0).round() / 100.0
}

impl Classifier {
    /// Decides a headline's topic, in the order `docs/topics.md` gives: the publisher's
    /// filing through the table, the lexicons on the categories the table does not call
    /// silent, the model when at least its `over` threshold sure, the lexicons on the
    /// headline, the summary, the model when at least its `alone` threshold sure, `other`.
    pub fn decide(&self, h: &Headline, buf: &mut Vec<u32>) -> Decision {
        let mut filed: Vec<String> = h.categories.to_vec();
        filed.extend(h.section.map(str::to_string));
        filed.extend(filing::folders(h.link));
        let opinion = is_opinion(&self.lexicons, h.lang, &filed);
        let decided = |topic: &str, evidence, score: Option<f32>| Decision {
            topic: topic.to_string(),
            evidence,
            score: score.map(score_kept),
            opinion,
        };
        if let Some(f) = self
            .filings
            .topic_of(h.outlet, h.categories, h.section, h.link)
        {
            return decided(f.topic, Evidence::Publisher, None);
        }
        let by_category = h
            .categories
            .iter()
            .filter(|c| !self.filings.says_nothing(h.outlet, c))
            .find_map(|c| best_topic(self.lexicons.for_lang(h.lang), c));
        if let Some(t) = by_category {
            return decided(&t, Evidence::Category, None);
        }
        let guess = self.model.as_ref().and_then(|m| {
            m.guess(h.lang, h.headline, buf)
                .map(|g| (g, m.thresholds(h.lang)))
        });
        if let Some((g, th)) = guess
            && th.over < 1.0
            && g.score >= th.over
        {
            return decided(g.topic, Evidence::Model, Some(g.score));
        }
        if let Some(t) = best_topic(self.lexicons.for_lang(h.lang), h.headline) {
            return decided(&t, Evidence::Headline, None);
        }
        if let Some(t) = h
            .summary
            .and_then(|s| best_topic(self.lexicons.for_lang(h.lang), s))
            .or_else(|| h.summary_topic.map(str::to_string))
        {
            return decided(&t, Evidence::Summary, None);
        }
        if let Some((g, th)) = guess
            && th.alone < 1.0
            && g.score >= th.alone
        {
            return decided(g.topic, Evidence::Model, Some(g.score));
        }
        decided("other", Evidence::None, None)
    }

    /// The topic a summary points to (read with the lexicons).
    fn summary_topic(&self, lang: &str, summary: &str) -> Option<String> {
        best_topic(self.lexicons.for_lang(lang), summary)
    }
}

#[derive(Deserialize)]
struct StdinLine {
    headline: String,
    lang: String,
    #[serde(default)]
    category: CategoryField,
    #[serde(default)]
    summary: Option<String>,
    #[serde(default)]
    outlet: String,
    #[serde(default)]
    section: Option<String>,
    #[serde(default)]
    link: String,
}

#[derive(Deserialize, Default)]
#[serde(untagged)]
enum CategoryField {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl CategoryField {
    fn into_vec(self) -> Vec<String> {
        match self {
            CategoryField::None => Vec::new(),
            CategoryField::One(s) => vec![s],
            CategoryField::Many(v) => v,
        }
    }
}

/// The model `--model` names, or none; with `--or-lexicons`, a model that cannot be read is
/// said on stderr and none is used (the second value says so).
fn load_model(args: &Args) -> Result<(Option<Model>, Option<String>)> {
    let Some(path) = &args.model else {
        return Ok((None, None));
    };
    match Model::load(path) {
        Ok(m) => Ok((Some(m), None)),
        Err(e) if args.or_lexicons => {
            let said = format!("{e:#}; filing with the lexicons alone (--or-lexicons)");
            crate::elog!("classify: {said}");
            Ok((None, Some(said)))
        }
        Err(e) => Err(e),
    }
}

pub fn run(args: &Args) -> Result<Report> {
    let pipeline = args.common.pipeline();
    let lexicons = Lexicons::load(&pipeline.file("topics"))?;
    let filings = Filings::load(&pipeline.file(TOPIC_MAP))?;
    if let (Some(examples), Some(path)) = (&args.train, &args.model) {
        return train(&lexicons, examples, path);
    }
    if let Some(dir) = &args.eval {
        let (model, _) = load_model(args)?;
        let seed = seed_examples(&pipeline)?;
        let text = eval::run(
            &lexicons,
            &filings,
            &seed,
            model.as_ref(),
            dir,
            args.errors.as_deref(),
        )?;
        print!("{text}");
        return Ok(Report {
            summary: format!("the labelled headlines in {} scored", dir.display()),
            failed: 0,
        });
    }
    if let Some(days) = args.examples {
        return print_examples(args, &filings, days);
    }
    let (model, unreadable) = load_model(args)?;
    let classifier = Classifier {
        lexicons,
        filings,
        model,
    };
    let mut report = if args.stdin {
        run_stdin(&classifier)?
    } else {
        run_hours(args, &classifier)?
    };
    if let Some(said) = unreadable {
        report
            .summary
            .push_str("; the topic model could not be read");
        crate::cli::needs_attention(said);
    }
    Ok(report)
}

/// The filing table's file in the pipeline folder.
pub const TOPIC_MAP: &str = "topic-map.csv";

/// The hand-labelled examples every model is trained on as well (`PIPELINE/topics/
/// examples.jsonl`: a headline misfiled and put right here is learned at the next training).
pub const SEED_EXAMPLES: &str = "topics/examples.jsonl";

/// The hand-labelled examples, if there is a file of them.
pub fn seed_examples(pipeline: &crate::lists::Pipeline) -> Result<Vec<model::Example>> {
    let path = pipeline.file(SEED_EXAMPLES);
    if path.exists() {
        model::read_examples(&path)
    } else {
        Ok(Vec::new())
    }
}

/// `--train`: reads the examples, trains, writes the model atomically.
fn train(lexicons: &Lexicons, examples: &Path, path: &Path) -> Result<Report> {
    let set = model::read_examples(examples)?;
    let m = model::train(&set, &|e| {
        best_topic(lexicons.for_lang(&e.lang), &e.headline)
    });
    m.save(path)?;
    let per_lang: Vec<String> = m
        .header
        .examples
        .iter()
        .map(|(lang, n)| {
            let t = m.thresholds(lang);
            format!(
                "{lang} {n} (sure at {:.2}, alone at {:.2})",
                t.over, t.alone
            )
        })
        .collect();
    Ok(Report {
        summary: format!(
            "trained on {} examples: {}; wrote {}",
            set.len(),
            per_lang.join(", "),
            path.display()
        ),
        failed: 0,
    })
}

/// `--examples DAYS`: the kept headlines of the DAYS days before --now's day whose filing the
/// table maps to a topic, as training examples on stdout, sorted; removed headlines (opted
/// out, taken down, withdrawn) are never examples.
fn print_examples(args: &Args, filings: &Filings, days: u32) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let pipeline = args.common.pipeline();
    let _lock = crate::store::DataLock::take_shared(&data, "classify")?;
    let sections = sections(&pipeline)?;
    let removals = crate::publish::removals::Removals::load(&pipeline, &data, now)?;
    let first = crate::time::day(now - chrono::Duration::days(days as i64));
    let today = crate::time::day(now);
    let mut out: Vec<model::Example> = seed_examples(&pipeline)?;
    let seeded = out.len();
    let mut removed = 0;
    for day in data.days()? {
        if day < first || day >= today {
            continue;
        }
        for hour in data.hours(&day)? {
            let items: Vec<Item> =
                crate::store::read_jsonl_opt(&data.hour_dir(&day, &hour).join("items.jsonl"))?;
            for it in items {
                let section = sections.get(&it.source).map(String::as_str);
                let Some(f) = filings.topic_of(&it.outlet, &it.category, section, &it.link) else {
                    continue;
                };
                if removals
                    .why(&it.outlet, &it.source, &it.link, &it.id)
                    .is_some()
                {
                    removed += 1;
                    continue;
                }
                out.push(model::Example {
                    lang: it.lang,
                    topic: f.topic.to_string(),
                    headline: it.headline,
                    outlet: Some(it.outlet),
                });
            }
        }
    }
    out.sort();
    out.dedup();
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    for e in &out {
        serde_json::to_writer(&mut w, e)?;
        w.write_all(b"\n")?;
    }
    w.flush()?;
    Ok(Report {
        summary: format!(
            "{} examples: {seeded} hand-labelled, the rest filed by publishers from {first} to the day before {today} ({removed} removed headlines left out)",
            out.len()
        ),
        failed: 0,
    })
}

/// Each source's section (`sources.csv`), by its address as items name it; no source list
/// (a folder of kept items filed elsewhere), no sections.
fn sections(pipeline: &crate::lists::Pipeline) -> Result<BTreeMap<String, String>> {
    if !pipeline.sources.exists() {
        return Ok(BTreeMap::new());
    }
    Ok(crate::lists::load_sources(pipeline)?
        .into_iter()
        .filter(|s| !s.section.is_empty())
        .map(|s| (s.url.to_string(), s.section))
        .collect())
}

/// The hourly run: this hour, and any hour a dead run left unclassified.
fn run_hours(args: &Args, classifier: &Classifier) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let (_lock, out) = match &args.out {
        Some(dir) => {
            crate::store::check_out(&data, dir)?;
            (
                crate::store::DataLock::take_shared(&data, "classify")?,
                crate::store::Data::new(dir),
            )
        }
        None => (args.common.lock("classify")?, data.clone()),
    };
    let sections = sections(&args.common.pipeline())?;
    let day = crate::time::day(now);
    let hour = crate::time::hour(now);
    let this = if args.out.is_some() {
        // A replay files the hour with the model it was filed with, whatever --model says.
        let used = used_model(&data, &day, &hour, args.model.as_deref())?;
        let c = Classifier {
            model: used,
            ..classifier.clone()
        };
        classify_hour(&c, &sections, &data, &out, &day, &hour)?
    } else {
        classify_hour(classifier, &sections, &data, &out, &day, &hour)?
    };
    // Hours whose items were kept but never classified (a run killed between extract and
    // classify, a power cut): their headlines are classified now, from the kept topic
    // labels, as a replay would; they count as seen, so no later hour would take them. A
    // replay (--out) classifies only the hour it names.
    let mut caught_up = Vec::new();
    if args.out.is_none() {
        for (d, h) in unclassified_hours(&data, now)? {
            let r = classify_hour(classifier, &sections, &data, &data, &d, &h)?;
            caught_up.push(format!("{d}/{h} ({} headlines)", r.classified));
        }
    }
    let decided: Vec<String> = this
        .by_evidence
        .iter()
        .map(|(k, v)| format!("{v} by {k}"))
        .collect();
    Ok(Report {
        summary: format!(
            "{} headlines classified ({}); {} summaries in hand{}{}",
            this.classified,
            decided.join(", "),
            this.summaries,
            if this.summaries == 0 && this.kept_labels > 0 {
                ", summary topics from the kept labels"
            } else {
                ""
            },
            if caught_up.is_empty() {
                String::new()
            } else {
                format!(
                    "; caught up on hours a run left unclassified: {}",
                    caught_up.join(", ")
                )
            }
        ),
        failed: 0,
    })
}

/// Hours before `now` (within [`CATCH_UP_DAYS`]) whose `items.jsonl` has headlines that
/// their `classified.jsonl` lacks (or that have none).
fn unclassified_hours(
    data: &crate::store::Data,
    now: DateTime<Utc>,
) -> Result<Vec<(String, String)>> {
    let first_day = crate::time::day(now - chrono::Duration::days(CATCH_UP_DAYS));
    let (today, this_hour) = (crate::time::day(now), crate::time::hour(now));
    let mut out = Vec::new();
    for day in data.days()? {
        if day < first_day || day > today {
            continue;
        }
        for hour in data.hours(&day)? {
            if day == today && hour >= this_hour {
                continue;
            }
            let dir = data.hour_dir(&day, &hour);
            let items_path = dir.join("items.jsonl");
            if !items_path.exists() {
                continue;
            }
            // classify writes one line per item and an hour's items only grow, so an hour
            // is classified when its two files hold as many lines: counted, not parsed, on
            // every hourly run.
            let classified_path = dir.join("classified.jsonl");
            if !classified_path.exists()
                || crate::store::count_lines(&classified_path)?
                    < crate::store::count_lines(&items_path)?
            {
                out.push((day.clone(), hour));
            }
        }
    }
    Ok(out)
}

/// How far back `classify` looks for hours a dead run left unclassified.
pub const CATCH_UP_DAYS: i64 = 2;

/// What classifying one hour did.
struct HourReport {
    classified: usize,
    summaries: usize,
    kept_labels: usize,
    by_evidence: BTreeMap<&'static str, usize>,
}

/// The name a model goes by in `classified.jsonl`: the first 16 hex of its weights' SHA-256.
pub fn model_id(m: &Model) -> String {
    m.header.sha256.chars().take(16).collect()
}

/// The model a kept hour was filed with (named in its `classified.jsonl`), found by its id
/// as `--model` or among `DATA/models/*.model`; none if the hour was filed without one.
fn used_model(
    data: &crate::store::Data,
    day: &str,
    hour: &str,
    given: Option<&Path>,
) -> Result<Option<Model>> {
    let kept: Vec<Classified> =
        crate::store::read_jsonl_opt(&data.hour_dir(day, hour).join("classified.jsonl"))?;
    let Some(id) = kept.iter().find_map(|c| c.model.clone()) else {
        return Ok(None);
    };
    let dir = data.root.join("models");
    let mut candidates: Vec<std::path::PathBuf> =
        given.map(Path::to_path_buf).into_iter().collect();
    if let Ok(rd) = std::fs::read_dir(&dir) {
        let mut found: Vec<_> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "model"))
            .collect();
        found.sort();
        candidates.extend(found);
    }
    for path in candidates {
        if let Ok(m) = Model::load(&path)
            && model_id(&m) == id
        {
            return Ok(Some(m));
        }
    }
    bail!(
        "{day}/{hour} was filed with topic model {id}, which is neither --model nor in {}: the hour cannot be filed again as it was",
        dir.display()
    )
}

/// Classifies one hour's kept items, with the summaries still in hand (only in the hour's
/// own run) and the topic labels kept from earlier runs of the hour; writes the hour's
/// `classified.jsonl` and `summary-topics.jsonl` (the labels of every item that has one)
/// under `out` (the data directory itself, or a replay's folder).
fn classify_hour(
    classifier: &Classifier,
    sections: &BTreeMap<String, String>,
    data: &crate::store::Data,
    out: &crate::store::Data,
    day: &str,
    hour: &str,
) -> Result<HourReport> {
    let dir = data.hour_dir(day, hour);
    let items: Vec<Item> = crate::store::read_jsonl(&dir.join("items.jsonl"))?;
    let summaries_path = data.transient_dir(day, hour).join("summaries.jsonl");
    let summaries: BTreeMap<String, String> =
        crate::store::read_jsonl_opt::<Summary>(&summaries_path)?
            .into_iter()
            .map(|s| (s.id, s.summary))
            .collect();
    let topics_path = dir.join("summary-topics.jsonl");
    let kept_topics: BTreeMap<String, String> =
        crate::store::read_jsonl_opt::<SummaryTopic>(&topics_path)?
            .into_iter()
            .map(|s| (s.id, s.topic))
            .collect();
    let model = classifier.model.as_ref().map(model_id);
    let mut classified = Vec::with_capacity(items.len());
    let mut pointed: BTreeMap<String, String> = BTreeMap::new();
    let mut by_evidence: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut buf = Vec::new();
    for it in items {
        let summary = summaries.get(&it.id).map(String::as_str);
        let kept = kept_topics.get(&it.id).map(String::as_str);
        // A summary in hand names its topic now; without one, the label an earlier run of
        // this hour kept stands (a summary is read only once, while the item is in hand).
        if let Some(t) = summary
            .and_then(|s| classifier.summary_topic(&it.lang, s))
            .or_else(|| kept.map(str::to_string))
        {
            pointed.insert(it.id.clone(), t);
        }
        let d = classifier.decide(
            &Headline {
                outlet: &it.outlet,
                lang: &it.lang,
                headline: &it.headline,
                categories: &it.category,
                section: sections.get(&it.source).map(String::as_str),
                link: &it.link,
                summary,
                summary_topic: kept,
            },
            &mut buf,
        );
        *by_evidence.entry(evidence_name(d.evidence)).or_default() += 1;
        classified.push(Classified {
            id: it.id,
            outlet: it.outlet,
            source: it.source,
            lang: it.lang,
            headline: it.headline,
            link: it.link,
            published: it.published,
            date_source: it.date_source,
            first_seen: it.first_seen,
            category: it.category,
            topic: d.topic,
            evidence: d.evidence,
            score: d.score,
            model: model.clone(),
            opinion: d.opinion,
        });
    }
    let out_dir = out.hour_dir(day, hour);
    if pointed != kept_topics {
        let pointed: Vec<SummaryTopic> = pointed
            .into_iter()
            .map(|(id, topic)| SummaryTopic { id, topic })
            .collect();
        crate::store::write_jsonl(&out_dir.join("summary-topics.jsonl"), &pointed)?;
    }
    crate::store::write_jsonl(&out_dir.join("classified.jsonl"), &classified)?;
    Ok(HourReport {
        classified: classified.len(),
        summaries: summaries.len(),
        kept_labels: kept_topics.len(),
        by_evidence,
    })
}

/// How the log names each kind of evidence.
fn evidence_name(e: Evidence) -> &'static str {
    match e {
        Evidence::Publisher => "publisher",
        Evidence::Category => "category",
        Evidence::Model => "model",
        Evidence::Headline => "headline",
        Evidence::Summary => "summary",
        Evidence::None => "nothing",
    }
}

#[derive(Serialize)]
struct StdinOut<'a> {
    #[serde(flatten)]
    input: &'a serde_json::Map<String, serde_json::Value>,
    topic: &'a str,
    opinion: bool,
    evidence: Evidence,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f32>,
}

fn run_stdin(classifier: &Classifier) -> Result<Report> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut n, mut bad) = (0, 0);
    let mut buf = Vec::new();
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Result<(serde_json::Map<String, serde_json::Value>, StdinLine), _> =
            serde_json::from_str(&line).and_then(|m| serde_json::from_str(&line).map(|l| (m, l)));
        let (map, l) = match parsed {
            Ok(x) => x,
            Err(e) => {
                crate::elog!("classify: stdin:{}: {e}", i + 1);
                bad += 1;
                continue;
            }
        };
        let categories = l.category.into_vec();
        let d = classifier.decide(
            &Headline {
                outlet: &l.outlet,
                lang: &l.lang,
                headline: &l.headline,
                categories: &categories,
                section: l.section.as_deref(),
                link: &l.link,
                summary: l.summary.as_deref(),
                summary_topic: None,
            },
            &mut buf,
        );
        serde_json::to_writer(
            &mut out,
            &StdinOut {
                input: &map,
                topic: &d.topic,
                opinion: d.opinion,
                evidence: d.evidence,
                score: d.score,
            },
        )?;
        out.write_all(b"\n")?;
        n += 1;
    }
    out.flush()?;
    Ok(Report {
        summary: format!("{n} lines classified, {bad} unreadable"),
        failed: bad,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex() -> Lexicons {
        let en = "[politics]\nminister\nelection*\n[sport]\ncricket\nworld cup\n[opinion]\nopinion\neditorial*\nop-ed\n";
        let kn = "[politics]\nಸಚಿವ*\nಚುನಾವಣೆ*\n[sport]\nಕ್ರಿಕೆಟ್*\n[opinion]\nಅಭಿಪ್ರಾಯ*\nಸಂಪಾದಕೀಯ*\n";
        let mut by_lang = BTreeMap::new();
        by_lang.insert(
            "en".into(),
            Lexicon::parse(en, Path::new("en.txt")).unwrap(),
        );
        by_lang.insert(
            "kn".into(),
            Lexicon::parse(kn, Path::new("kn.txt")).unwrap(),
        );
        Lexicons { by_lang }
    }

    #[test]
    fn category_decides_before_headline() {
        let d = decide(
            &lex(),
            "en",
            "Minister opens stadium",
            &["Cricket".into()],
            None,
            None,
        );
        assert_eq!(
            (d.topic.as_str(), d.evidence),
            ("sport", Evidence::Category)
        );
        let d = decide(&lex(), "en", "Minister opens stadium", &[], None, None);
        assert_eq!(
            (d.topic.as_str(), d.evidence),
            ("politics", Evidence::Headline)
        );
    }

    #[test]
    fn kannada_words_match_with_endings() {
        let d = decide(&lex(), "kn", "ಚುನಾವಣೆಯಲ್ಲಿ ಸಚಿವರ ಗೆಲುವು", &[], None, None);
        assert_eq!(
            (d.topic.as_str(), d.evidence),
            ("politics", Evidence::Headline)
        );
    }

    #[test]
    fn opinion_only_from_the_publishers_category() {
        assert!(
            !decide(
                &lex(),
                "en",
                "Opinion: why the election matters",
                &[],
                None,
                None
            )
            .opinion
        );
        assert!(
            decide(
                &lex(),
                "en",
                "Why it matters",
                &["Editorials".into()],
                None,
                None
            )
            .opinion
        );
        assert!(decide(&lex(), "kn", "ಏಕೆ ಮುಖ್ಯ", &["ಅಭಿಪ್ರಾಯ".into()], None, None).opinion);
    }

    #[test]
    fn summary_decides_last_and_a_kept_label_stands_in_for_it() {
        let d = decide(
            &lex(),
            "en",
            "A long day",
            &[],
            Some("The cricket team lost"),
            None,
        );
        assert_eq!((d.topic.as_str(), d.evidence), ("sport", Evidence::Summary));
        let d = decide(&lex(), "en", "A long day", &[], None, Some("sport"));
        assert_eq!((d.topic.as_str(), d.evidence), ("sport", Evidence::Summary));
        let d = decide(&lex(), "en", "A long day", &[], None, None);
        assert_eq!((d.topic.as_str(), d.evidence), ("other", Evidence::None));
    }

    fn one(lang: &str, text: &str) -> Lexicons {
        let mut by_lang = BTreeMap::new();
        by_lang.insert(
            lang.to_string(),
            Lexicon::parse(text, Path::new("x.txt")).unwrap(),
        );
        Lexicons { by_lang }
    }

    fn topic(l: &Lexicons, lang: &str, headline: &str) -> String {
        decide(l, lang, headline, &[], None, None).topic
    }

    #[test]
    fn weights_decide_and_ties_go_to_the_earliest_match() {
        let l = one(
            "en",
            "[business]\nfarmer* = 0.5\nprice* = 1\n[environment]\nelephant* = 3\n[local]\nbengaluru = 0.5\n[sport]\ncricket = 2\n",
        );
        assert_eq!(
            topic(&l, "en", "Elephant tramples farmer in Hassan"),
            "environment"
        );
        assert_eq!(topic(&l, "en", "Onion prices rise for farmers"), "business");
        // A tie (0.5 each): the subject the headline leads with.
        assert_eq!(topic(&l, "en", "Bengaluru farmers gather"), "local");
        assert_eq!(topic(&l, "en", "Farmers gather in Bengaluru"), "business");
        let e = Lexicon::parse("[sport]\ncricket = lots\n", Path::new("en.txt")).unwrap_err();
        assert!(format!("{e:#}").contains("en.txt:2"), "{e:#}");
        let e = Lexicon::parse("[sport]\ncri*cket\n", Path::new("en.txt")).unwrap_err();
        assert!(format!("{e:#}").contains("en.txt:2"), "{e:#}");
    }

    #[test]
    fn kannada_compounds_and_joiners() {
        let l = one(
            "kn",
            "[crime]\n*ಗಳ್ಳ* = 2\n[business]\nಜಿಎಸ್‌ಟಿ* = 2\n[culture]\n*ತ್ಸವ*\n",
        );
        assert_eq!(topic(&l, "kn", "ವಿಜಯನಗರದಲ್ಲಿ ಸರಗಳ್ಳರ ಹಾವಳಿ"), "crime");
        // With the zero-width non-joiner and without it: one word.
        assert_eq!(topic(&l, "kn", "ಜಿಎಸ್ಟಿ ಸಂಗ್ರಹ ಹೆಚ್ಚಳ"), "business");
        assert_eq!(topic(&l, "kn", "ಜಿಎಸ್‌ಟಿ ಸಂಗ್ರಹ ಹೆಚ್ಚಳ"), "business");
        assert_eq!(topic(&l, "kn", "ಚಲನಚಿತ್ರೋತ್ಸವಕ್ಕೆ ಚಾಲನೆ"), "culture");
    }

    #[test]
    fn unknown_topic_names_file_and_line() {
        let e = Lexicon::parse("[sports]\ncricket\n", Path::new("en.txt")).unwrap_err();
        assert!(format!("{e}").contains("en.txt:1"), "{e}");
    }
}
