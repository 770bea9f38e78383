//! Stories: one event as each outlet tells it, in Kannada and in English.
//!
//! [`Grouper::group`] takes the public headlines of a window (publish gives it two UTC days,
//! at most 48 hours apart) and finds the groups of headlines about one event, on this
//! machine alone, deterministically: the same headlines give the same groups, whatever
//! order they come in. `docs/stories.md` explains the method and its figures; in short:
//!
//! - Each headline becomes features: its words (English words cut to a stem; Kannada words
//!   by their first letters, and the character trigrams of every word, which meet across
//!   Kannada's endings; zero-width joiners removed as the classifier removes them, the
//!   virama kept), the concepts of the bilingual glossary it names ([`glossary`]: rain,
//!   High Court, Mysuru), the numbers it names as values ([`numbers`]), and each remaining
//!   word in a loose Latin spelling ([`translit`]) for meeting names across the scripts.
//! - Candidates come from an inverted index of the rarer features (blocking): a headline is
//!   compared only with earlier headlines of the window sharing two of them, so the cost
//!   grows with the headlines, never with their pairs.
//! - Within a language a pair is scored by the cosine of its features weighted by rarity;
//!   across the languages by the share of its anchors (glossary concepts, numbers, names
//!   whose spellings meet) that the two headlines have in common. Where both name places
//!   that agree the bar is lower (the place gate has already kept different places apart),
//!   and lower again for headlines of the same few hours.
//! - Gates block a merge whatever the score: two different places, two different people,
//!   numbers that disagree (unless the later headline's are larger, the story having grown,
//!   and the words agree more), an opinion piece (never in a story), a pair further apart
//!   than the window.
//! - Pairs are merged strongest first; two groups join only if no pair across them is
//!   blocked by a gate and the whole stays inside the window, so a chain of near matches
//!   cannot join two events that a gate tells apart.
//!
//! A story's id is derived from its earliest headline (by time, then id), so it stays the
//! same when unrelated headlines arrive, and when later ones join.

pub mod eval;
pub mod glossary;
pub mod numbers;
pub mod translit;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use glossary::{Glossary, Kind};

/// The longest a story may span, first headline to last.
pub const WINDOW_HOURS: i64 = 48;

/// A headline to group.
#[derive(Debug, Clone, Copy)]
pub struct Headline<'a> {
    pub id: &'a str,
    pub outlet: &'a str,
    pub lang: &'a str,
    pub headline: &'a str,
    pub published: DateTime<Utc>,
    pub opinion: bool,
}

/// The words of a text as the stories read them: lower case, zero-width joiners (U+200C,
/// U+200D) removed as `classify::tokens` removes them, split at white space and
/// punctuation (a `*`, which the glossary's forms end with, stays).
pub fn words(text: &str) -> Vec<String> {
    cased_words(text).iter().map(|w| w.to_lowercase()).collect()
}

/// [`words`] as written (not lower-cased).
fn cased_words(text: &str) -> Vec<String> {
    pieces(text).into_iter().map(|(w, _)| w).collect()
}

/// For each of a headline's [`pieces`], whether a dash alone joins its word to the next
/// (`Mangaluru–Bengaluru`, `Belagavi-Kolhapur`).
fn dashed(pieces: &[(String, String)]) -> Vec<bool> {
    pieces
        .iter()
        .map(|(_, gap)| gap == "-" || gap == "–")
        .collect()
}

/// The words of a headline, each with what follows it up to the next word: the joiners
/// removed, split at white space and punctuation (a `*`, which the glossary's forms end
/// with, stays), and a word of one ASCII letter left out (it joins the gap: `e-bus` is
/// `bus` after `e-`).
fn pieces(text: &str) -> Vec<(String, String)> {
    let split = |c: char| {
        c.is_whitespace() || (c.is_ascii_punctuation() && c != '*') || "‘’“”–—…।|«»·₹".contains(c)
    };
    let kept = |w: &str| !(w.is_empty() || w.len() == 1 && w.is_ascii());
    let mut out: Vec<(String, String)> = Vec::new();
    let mut word = String::new();
    let end = |word: &mut String, out: &mut Vec<(String, String)>| {
        if kept(word) {
            out.push((std::mem::take(word), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(word);
        }
        word.clear();
    };
    for c in text.replace(['\u{200c}', '\u{200d}'], "").chars() {
        if split(c) {
            end(&mut word, &mut out);
            if let Some(last) = out.last_mut() {
                last.1.push(c);
            }
        } else {
            word.push(c);
        }
    }
    end(&mut word, &mut out);
    out
}

fn is_kannada(w: &str) -> bool {
    w.chars().any(|c| ('\u{0c80}'..='\u{0cff}').contains(&c))
}

/// Words that say little about which event a headline is about.
const STOP_EN: &[&str] = &[
    "a", "about", "after", "against", "ahead", "all", "amid", "an", "and", "are", "as", "at", "be",
    "been", "before", "but", "by", "can", "could", "day", "days", "did", "do", "does", "for",
    "from", "gets", "had", "has", "have", "he", "her", "his", "how", "if", "in", "into", "is",
    "it", "its", "may", "more", "new", "no", "not", "now", "of", "on", "one", "or", "our", "out",
    "over", "says", "said", "she", "so", "than", "that", "the", "their", "them", "they", "this",
    "to", "up", "us", "was", "we", "were", "what", "when", "where", "who", "why", "will", "with",
    "you", "year", "years", "today", "week", "set",
];
const STOP_KN: &[&str] = &[
    "ಮತ್ತು",
    "ಈ",
    "ಆ",
    "ಬಗ್ಗೆ",
    "ಹಾಗೂ",
    "ಇಂದು",
    "ನಾಳೆ",
    "ಅಲ್ಲ",
    "ಎಂದ",
    "ಎಂದು",
    "ಕೂಡ",
    "ಮೇಲೆ",
    "ಸೇರಿ",
    "ಸೇರಿದಂತೆ",
    "ವೇಳೆ",
    "ಇದೆ",
    "ಇಲ್ಲ",
    "ಹೊಸ",
    "ಒಂದು",
    "ಅವರ",
    "ಅವರು",
    "ಬಳಿಕ",
    "ನಂತರ",
    "ಮೂಲಕ",
    "ಕುರಿತು",
    "ಯಾಕೆ",
    "ಏಕೆ",
    "ಹೇಗೆ",
    "ಏನು",
    "ಯಾರು",
    "ಮಾಡಿದ",
    "ಮಾಡಲು",
    "ಆಗಿ",
    "ಎಂಬ",
];

/// An English word's stem: a possessive, a plural and an `-ing`/`-ed` ending off, then at
/// most six letters.
fn stem_en(w: &str) -> String {
    let mut s = w.trim_end_matches("'s").to_string();
    if s.len() > 4 && s.ends_with("ies") {
        s.truncate(s.len() - 3);
        s.push('y');
    } else if s.len() > 3 && s.ends_with('s') && !s.ends_with("ss") {
        s.pop();
    }
    for end in ["ing", "ed"] {
        if s.len() > end.len() + 3 && s.ends_with(end) {
            s.truncate(s.len() - end.len());
            break;
        }
    }
    s.chars().take(6).collect()
}

/// A Kannada word's first four code points (two or so letters with their signs): the part
/// that its endings leave alone.
fn stem_kn(w: &str) -> String {
    w.chars().take(4).collect()
}

/// One headline as the grouping sees it.
#[derive(Debug, Clone, Default)]
struct Doc {
    kn: bool,
    t: i64,
    opinion: bool,
    /// Features for the cosine (sorted, each once): words, trigrams, concepts, numbers.
    feats: Vec<u32>,
    /// The word-level features (not trigrams), sorted, each once.
    words: Vec<u32>,
    /// Keys of the inverted index (sorted, each once).
    block: Vec<u32>,
    concepts: Vec<u32>,
    /// The places where the event happened, as far as can be told, and the places it
    /// names only as where people come from.
    places: Vec<u32>,
    origins: Vec<u32>,
    /// Both, sorted: agreeing on where people come from is agreeing on a place.
    named_places: Vec<u32>,
    persons: Vec<u32>,
    rivers: Vec<u32>,
    /// The amounts of money it names (sorted, each once), and the changes of an amount
    /// (`₹4,700 ಇಳಿಕೆ`), which disagree only with changes.
    amounts: Vec<numbers::Value>,
    changes: Vec<numbers::Value>,
    /// The counts it names, each with what it counts (sorted, each once).
    counts: Vec<(numbers::Value, What)>,
    /// The bounds it names (`over 3.1 lakh`, `ಮೂರು ಲಕ್ಷಕ್ಕೂ ಹೆಚ್ಚು`), each in its unit if a
    /// measure (sorted, each once): a count within a tenth of one agrees with it.
    bounds: Vec<(numbers::Value, Option<&'static str>)>,
    /// The number values alone, each in its unit if a measure (sorted, each once).
    values: Vec<(numbers::Value, Option<&'static str>)>,
    /// The loose spellings of the person named after a title ("Health Minister Sharadamma
    /// Naik": `sharadam`, `naik`).
    names: Vec<String>,
    /// Whether it says a count grew: the glossary's `toll` ("toll rises to 5") or a word of
    /// [`ROSE`] ("cases climb to 212", "41ಕ್ಕೆ ಏರಿಕೆ").
    rose: bool,
    /// Whether it says people are missing (the glossary's `missing`), and whether it says
    /// people were found, rescued or found dead (`found`, `rescue`, `killed`).
    missing: bool,
    found: bool,
    /// Whether it says something was taken (the glossary's `theft`, `fraud`: "gang loots
    /// 1.8 kg gold", "loses ₹36 lakh in scam"), and whether part of something was recovered
    /// (`recovered`: "₹12 lakh frozen", "1.2 kg gold recovered").
    taken: bool,
    recovered: bool,
    /// Whether it says it tells of a recurrence ("another haul", "protest again", ಮತ್ತೊಂದು).
    again: bool,
    /// Whether it says its event happened in many places at once ([`spread`]).
    spread: bool,
    /// The words no glossary concept took, in a loose Latin spelling (for names), each
    /// with its word's key (for its weight).
    skels: Vec<(String, u32)>,
}

/// What a count counts, as far as the grouping can tell: the first two words after the
/// number that can say it (not stop words, places or a word for people in general), each
/// a glossary concept, the same in either language, or a plain word of one language by its
/// stem; or the unit it is measured in. In English, when nothing follows it, the verb just
/// before it says ("injures six" counts the injured). Empty when nothing says (`toll rises
/// to 8`, `8ಕ್ಕೆ`).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct What {
    /// The unit it is measured in (`g`, `mm`, `%`): a measure is compared only with a
    /// measure in its unit.
    unit: Option<&'static str>,
    /// Whether it is a change (`41 ಏರಿಕೆ`): it may agree with any count, and disagrees only
    /// with a change.
    change: bool,
    /// Whether Kannada says it counts people (`ಇಬ್ಬರು`, `6 ಮಂದಿ`): two such counts of one
    /// value agree, whatever the words after them.
    people: bool,
    concepts: Vec<u32>,
    words: Vec<u32>,
}

/// Whether two counts count the same thing, as far as can be told: one says nothing, or
/// they share a concept or (within a language) a word. Across the languages plain words
/// cannot meet their translations, so only concepts can tell two counts apart there.
fn comparable(a: &What, b: &What, same_language: bool) -> bool {
    if a.unit.is_some() || b.unit.is_some() {
        a.unit == b.unit
    } else if same_language {
        (a.concepts.is_empty() && a.words.is_empty())
            || (b.concepts.is_empty() && b.words.is_empty())
            || !disjoint(&a.concepts, &b.concepts)
            || !disjoint(&a.words, &b.words)
    } else {
        a.concepts.is_empty() || b.concepts.is_empty() || !disjoint(&a.concepts, &b.concepts)
    }
}

/// Words for people that, after a place, say where they come from ("Davangere family",
/// "Mysuru techie"; `ಬೆಂಗಳೂರಿನ ಪ್ರವಾಸಿ`, `ಉಳ್ಳಾಲದ ಆರೋಪಿಗಳು`): English words, and the starts of
/// Kannada ones.
const ORIGIN_EN: &[&str] = &[
    "family", "families", "youth", "youths", "man", "men", "woman", "women", "techie", "techies",
    "student", "students", "tourist", "tourists", "pilgrim", "pilgrims", "girl", "girls", "boy",
    "boys", "couple", "trekker", "trekkers", "accused",
];
const ORIGIN_KN: &[&str] = &[
    "ಯುವಕ",
    "ಯುವತಿ",
    "ವಿದ್ಯಾರ್ಥಿ",
    "ಪ್ರವಾಸಿ",
    "ಕುಟುಂಬ",
    "ಆರೋಪಿ",
    "ಮಹಿಳೆ",
    "ವ್ಯಕ್ತಿ",
    "ಯಾತ್ರಿಕ",
    "ಟೆಕಿ",
    "ಬಾಲಕ",
    "ಚಾರಣಿಗ",
    "ದಂಪತಿ",
    "ಪೈಲ್ವಾನ",
    "ಕುಸ್ತಿಪಟು",
];

/// Kannada case endings: a place's name with one is where something is or goes
/// (`ಹಾನಗಲ್‌ನಲ್ಲಿ`, `ಹಾನಗಲ್‌ಗೆ`), not a surname. The ablative (`ದಿಂದ`, `ನಿಂದ`) ends as `ದ`
/// does.
const CASE_KN: &[&str] = &["ಗೆ", "ಲ್ಲಿ", "ದ", "ನ", "ಯ", "ಕ್ಕೆ"];

/// Kannada words after a number that say only "people" (`6 ಮಂದಿ ಸಾವು`).
const PEOPLE_KN: &[&str] = &["ಮಂದಿ", "ಜನ", "ಜನರು", "ಜನರ"];

/// The run's feature keys, each a number.
#[derive(Default)]
struct Keys {
    index: HashMap<String, u32>,
}

impl Keys {
    fn key(&mut self, k: String) -> u32 {
        let n = self.index.len() as u32;
        *self.index.entry(k).or_insert(n)
    }
}

/// How two headlines stand with the gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    Open,
    /// Their numbers differ, the later's larger: the story may have grown.
    Grew,
    Blocked(Gated),
}

/// The gate that keeps two headlines apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gated {
    Opinion,
    Places,
    People,
    Rivers,
    Names,
    Numbers,
    Recurrence,
}

/// The Kannada titles in their plain form, the only form a name follows (ಸಚಿವ ಹಿರೇಮಠ,
/// ಸಚಿವೆ ಲೀಲಾವತಿ, ಶಾಸಕ, ಮುಖ್ಯಮಂತ್ರಿ); the glossary's forms (`ಸಚಿವ*`) also take the cases.
const TITLES_KN: &[&str] = &[
    "ಸಚಿವ",
    "ಸಚಿವೆ",
    "ಮಂತ್ರಿ",
    "ಶಾಸಕ",
    "ಶಾಸಕಿ",
    "ಸಂಸದ",
    "ಸಂಸದೆ",
    "ಮೇಯರ್",
    "ಕಾರ್ಪೊರೇಟರ್",
    "ಮುಖ್ಯಮಂತ್ರಿ",
    "ಸಿಎಂ",
];

/// Words that say a headline's event is a recurrence of an earlier one.
/// Words that say a count grew ("cases climb to 212", "outflow rises to 75,000 cusecs",
/// "ಸಂಖ್ಯೆ 41ಕ್ಕೆ ಏರಿಕೆ").
const ROSE: &[&str] = &[
    "rises",
    "rise",
    "rose",
    "risen",
    "climbs",
    "climb",
    "climbed",
    "mounts",
    "mounted",
    "jumps",
    "swells",
    "soars",
    "ಏರಿಕೆ",
    "ಏರಿದೆ",
    "ಏರಿದ",
    "ಹೆಚ್ಚಳ",
];
const AGAIN: &[&str] = &["another", "again", "ಮತ್ತೊಂದು", "ಮತ್ತೆ", "ಮತ್ತೊಮ್ಮೆ", "ಇನ್ನೊಂದು"];

/// Whether a word is a number, in digits (either script) or in words (`7`, `೯`, `ಇಬ್ಬರು`,
/// "nine").
fn is_number(w: &str) -> bool {
    w.chars()
        .any(|c| c.is_ascii_digit() || ('೦'..='೯').contains(&c))
        || numbers::word_value(w).is_some()
}

/// Whether a headline says its event happened in many places at once ("Lokayukta raids
/// seven officials across the State", "in six districts", "Mysuru engineer among 7
/// officials raided"; `ರಾಜ್ಯದ 7 ಅಧಿಕಾರಿಗಳು`, `ರಾಜ್ಯಾದ್ಯಂತ`, `ವಿವಿಧೆಡೆ`, `6 ಜಿಲ್ಲೆಗಳಲ್ಲಿ`,
/// `ಉಡುಪಿ ಎಂಜಿನಿಯರ್ ಸೇರಿ ೮ ಅಧಿಕಾರಿಗಳು`): a place it names is one of the event's places,
/// and another headline's other place is no disagreement.
fn spread(ws: &[String]) -> bool {
    let number = |w: Option<&String>| w.is_some_and(|w| is_number(w));
    ws.iter().enumerate().any(|(k, w)| {
        let next = ws.get(k + 1);
        let after = |p: &[&str]| next.is_some_and(|n| p.contains(&n.as_str()));
        match w.as_str() {
            "statewide" | "ರಾಜ್ಯಾದ್ಯಂತ" => true,
            "across" => {
                after(&["state", "karnataka"])
                    || next.is_some_and(|n| n == "the")
                        && ws.get(k + 2).is_some_and(|n| n == "state")
            }
            "among" | "ಸೇರಿ" | "ರಾಜ್ಯದ" => number(next),
            "districts" => number(k.checked_sub(1).map(|j| &ws[j])),
            _ => {
                w.starts_with("ವಿವಿಧೆಡೆ")
                    || w.starts_with("ಜಿಲ್ಲೆಗಳ") && number(k.checked_sub(1).map(|j| &ws[j]))
            }
        }
    })
}

/// How long after an event a headline saying it recurs ("another haul") is taken to tell of
/// a new one.
const RECURS_AFTER_HOURS: i64 = 12;

/// Why a pair's score is no merge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Miss {
    Gate(Gated),
    /// Within a language: fewer shared words than the least.
    FewWords(usize),
    /// Across the languages: fewer anchors than the least.
    FewAnchors(usize),
    /// Across the languages, numbers that grew, with no place agreeing: not taken.
    GrewAcross,
    /// The score is below the least for the pair.
    Below {
        score: f64,
        least: f64,
    },
}

fn disjoint<T: Ord>(a: &[T], b: &[T]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Equal => return false,
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
        }
    }
    true
}

fn common<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
        }
    }
    n
}

/// The thresholds of a merge (see `docs/stories.md` for how they were chosen).
#[derive(Debug, Clone, Copy)]
pub struct Thresholds {
    /// Within a language: the least cosine, and the least shared words (not trigrams).
    pub within: f64,
    pub within_words: usize,
    /// Within a language, numbers that grew: the least cosine.
    pub grew: f64,
    /// Across the languages: the least share of anchors in common, and the least anchors.
    pub across: f64,
    pub across_anchors: usize,
    /// Two groups join only if the pairs across them, each counted one if it merges and
    /// its score's share of its bar if that share is at least this, average at least this.
    pub link: f64,
    /// Where both headlines name places that agree (one is the other or lies in it): the
    /// least cosine within a language, and the least share across. The place gate already
    /// keeps apart headlines whose places differ, so agreeing places are evidence of their
    /// own.
    pub placed: f64,
    pub placed_across: f64,
    /// Headlines at most this many hours apart (coverage of one hour by several outlets
    /// is likelier one event): every least score above is multiplied by `near`.
    pub near_hours: i64,
    pub near: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            within: 0.27,
            within_words: 2,
            grew: 0.45,
            across: 0.15,
            across_anchors: 2,
            link: 0.5,
            placed: 0.18,
            placed_across: 0.10,
            near_hours: 3,
            near: 0.8,
        }
    }
}

/// A window's headlines as the grouping sees them.
struct Prepared {
    /// Indices into the items, in time order, then id; `docs` are in this order.
    order: Vec<usize>,
    docs: Vec<Doc>,
    /// Each feature's document frequency and weight.
    df: Vec<u32>,
    weight: Vec<f64>,
    norms: Vec<f64>,
    /// Features in more headlines than this are not blocking keys.
    cap: u32,
}

/// Groups headlines into stories.
#[derive(Debug, Clone, Default)]
pub struct Grouper {
    pub glossary: Glossary,
    pub thresholds: Thresholds,
    /// The glossary's titles (`minister`, `chief-minister`, `mla`): a name follows them.
    titles: Vec<u32>,
    /// The glossary's concepts that say a count changed: `toll` (it grew), `missing`, and
    /// `found`, `rescue`, `killed` (some of the missing found), `theft`, `fraud`, and
    /// `recovered` and `seized` (part of what was taken recovered or seized from the
    /// thieves). Resolved once, not once a headline.
    toll: Option<u32>,
    missing: Option<u32>,
    found: Vec<u32>,
    taken: Vec<u32>,
    recovered: Vec<u32>,
}

/// The group a headline is in: its root, the paths on the way halved.
fn find(root: &mut [u32], mut x: u32) -> u32 {
    while root[x as usize] != x {
        root[x as usize] = root[root[x as usize] as usize];
        x = root[x as usize];
    }
    x
}

/// The most headlines one story holds; a bigger group is more likely two events chained.
const STORY_MAX: usize = 200;

impl Grouper {
    pub fn new(glossary: Glossary) -> Grouper {
        let titles = ["minister", "chief-minister", "mla"]
            .iter()
            .filter_map(|t| glossary.named(t))
            .collect();
        let toll = glossary.named("toll");
        let missing = glossary.named("missing");
        let found = ["found", "rescue", "killed"]
            .iter()
            .filter_map(|t| glossary.named(t))
            .collect();
        let taken = ["theft", "fraud"]
            .iter()
            .filter_map(|t| glossary.named(t))
            .collect();
        let recovered = ["recovered", "seized"]
            .iter()
            .filter_map(|t| glossary.named(t))
            .collect();
        Grouper {
            glossary,
            thresholds: Thresholds::default(),
            titles,
            toll,
            missing,
            found,
            taken,
            recovered,
        }
    }

    fn doc(&self, h: &Headline, keys: &mut Keys) -> Doc {
        let pieces = pieces(h.headline);
        let cased: Vec<String> = pieces.iter().map(|(w, _)| w.clone()).collect();
        let ws: Vec<String> = cased.iter().map(|w| w.to_lowercase()).collect();
        let matches = self.glossary.matches(&ws);
        let (mut concepts, _) = glossary::Glossary::found(&matches, ws.len());
        // The concept that took each word, if one did (the first match that covers it).
        let mut took: Vec<Option<u32>> = vec![None; ws.len()];
        for &(at, n, c) in matches.iter().rev() {
            took[at..at + n].iter_mut().for_each(|t| *t = Some(c));
        }
        let mut is_name = vec![false; ws.len()];
        // A title (Minister, ಸಚಿವ, MLA), its portfolio just before it ("Health Minister",
        // "ಆರೋಗ್ಯ ಸಚಿವೆ") and the words after it (the person's name) tell who, not what
        // happened: one minister's two engagements of a day are two stories. So they are
        // not counted as evidence; the name is kept apart for the name gate.
        let mut who = vec![false; ws.len()];
        for &(at, n, c) in &matches {
            if self.titles.contains(&c) {
                who[at..at + n].iter_mut().for_each(|w| *w = true);
                if at > 0 {
                    who[at - 1] = true;
                }
            }
        }
        // A concept is evidence where some match of it lies outside the who.
        concepts.retain(|&c| {
            matches
                .iter()
                .any(|&(at, n, m)| m == c && who[at..at + n].iter().any(|w| !w))
        });
        // A place a headline names only as where something goes ("Bengaluru-bound flights",
        // "flights diverted to Chennai") is not where the event happened: the place gate
        // leaves it out.
        // So is a place at either end of a route, joined to another place by a dash
        // ("Mangaluru–Bengaluru traffic halted", "Belagavi-Kolhapur buses").
        let dashes = dashed(&pieces);
        let place_at = |k: usize| {
            matches.iter().any(|&(at, n, c)| {
                (at..at + n).contains(&k) && self.glossary.concept(c).1 == Kind::Place
            })
        };
        let route = |at: usize, n: usize| {
            (at > 0 && dashes.get(at - 1) == Some(&true) && place_at(at - 1))
                || (dashes.get(at + n - 1) == Some(&true) && place_at(at + n))
        };
        let destination = |mut at: usize, mut n: usize| loop {
            if ws.get(at + n).is_some_and(|w| w == "bound")
                || (at > 0 && ["to", "towards"].contains(&ws[at - 1].as_str()))
                || route(at, n)
            {
                return true;
            }
            // The places of a list after "to" are all where things go ("flights diverted
            // to Chennai, Hyderabad and Goa").
            let listed = matches.iter().find(|&&(a, m, c)| {
                self.glossary.concept(c).1 == Kind::Place
                    && at > 0
                    && (a + m == at && pieces[at - 1].1.contains(',')
                        || a + m + 1 == at && ws[at - 1] == "and")
            });
            match listed {
                Some(&(a, m, _)) => (at, n) = (a, m),
                None => return false,
            }
        };
        // A place a headline names only as where people come from ("Davangere family",
        // `ದಾವಣಗೆರೆ ಮೂಲದ ಮೂವರು`, `ಉಳ್ಳಾಲದ ಇಬ್ಬರು ಆರೋಪಿಗಳು`, "two from Kerala held") is not
        // where the event happened either.
        let open_after = |k: usize| pieces[k].1.chars().all(|c| c.is_whitespace() || c == '-');
        let origin = |at: usize, n: usize| {
            let last = at + n - 1;
            if at > 0 && ws[at - 1] == "from" && open_after(at - 1) {
                return true;
            }
            // Kannada's "from" is the ablative (`ದುಬೈನಿಂದ ಬಂದ ಪ್ರಯಾಣಿಕ`, `ಬೆಂಗಳೂರಿನಿಂದ
            // ಹೊಸಪೇಟೆಗೆ ಹೊರಟಿದ್ದ ಬಸ್`).
            if ws[last].ends_with("ಿಂದ") {
                return true;
            }
            if last + 1 >= ws.len() || !open_after(last) {
                return false;
            }
            let mut next = last + 1;
            if ws[next].starts_with("ಮೂಲ")
                || ["based", "native", "natives"].contains(&ws[next].as_str())
            {
                return true;
            }
            if numbers::word_value(&ws[next]).is_some() && next + 1 < ws.len() && open_after(next) {
                next += 1;
            }
            let w = ws[next].as_str();
            ORIGIN_EN.contains(&w)
                || ORIGIN_KN.iter().any(|p| w.starts_with(p))
                || next > last + 1 && PEOPLE_KN.iter().any(|p| w.starts_with(p))
        };
        let only = |c: u32, what: &dyn Fn(usize, usize) -> bool| {
            matches
                .iter()
                .filter(|m| m.2 == c)
                .all(|&(at, n, _)| what(at, n))
        };
        let mut gone_to: Vec<u32> = concepts
            .iter()
            .copied()
            .filter(|&c| only(c, &destination))
            .collect();
        gone_to.sort_unstable();
        let mut came_from: Vec<u32> = concepts
            .iter()
            .copied()
            .filter(|&c| gone_to.binary_search(&c).is_err() && only(c, &origin))
            .collect();
        came_from.sort_unstable();
        let mut names = Vec::new();
        for &(at, n, c) in &matches {
            if !self.titles.contains(&c) {
                continue;
            }
            // A Kannada title in a case is followed by what the minister did, not by a name:
            // ಸಚಿವರ ಸೂಚನೆ, "the minister's instruction"; ಸಚಿವೆಯಿಂದ ಪರಿಶೀಲನೆ.
            let title = &ws[at + n - 1];
            if is_kannada(title) && !TITLES_KN.contains(&title.as_str()) {
                continue;
            }
            let mut k = at + n;
            // A place after a name word, in its plain form, is the name's surname (Forest
            // Minister Girish Hangal, `ಸಚಿವ ಗಿರೀಶ್ ಹಾನಗಲ್ ಒಪ್ಪಿಗೆ`), not where the event was.
            let surname = |k: usize, is_name: &[bool]| {
                k > at + n
                    && is_name[k - 1]
                    && took[k].is_some_and(|c| self.glossary.concept(c).1 == Kind::Place)
                    && !(is_kannada(&ws[k]) && CASE_KN.iter().any(|e| ws[k].ends_with(e)))
            };
            while k < ws.len()
                && names.len() < 3
                && (took[k].is_none() || surname(k, &is_name))
                && !is_name[k]
            {
                let w = &ws[k];
                let kannada = is_kannada(w);
                let capital = cased[k].chars().next().is_some_and(char::is_uppercase);
                // A name does not go on past punctuation ("ಮುಖ್ಯಮಂತ್ರಿ; ಐವತ್ತು ಕೋಟಿ"); the
                // initials and dots of "K. Sudhakar" are part of it.
                let apart = pieces[k - 1]
                    .1
                    .chars()
                    .any(|c| !(c.is_whitespace() || c.is_alphanumeric() || c == '.'));
                if (!kannada && !capital)
                    || apart
                    || STOP_KN.contains(&w.as_str())
                    || numbers::word_value(w).is_some()
                    || (kannada && k - (at + n) >= 2)
                {
                    break;
                }
                let latin = if kannada {
                    translit::latin(w)
                } else {
                    w.clone()
                };
                names.push(translit::skeleton(&latin));
                is_name[k] = true;
                k += 1;
            }
        }
        // A place named only as a surname is no evidence, as a name is not.
        concepts.retain(|&c| {
            matches
                .iter()
                .any(|&(at, n, m)| m == c && is_name[at..at + n].iter().any(|x| !x))
        });
        let mut d = Doc {
            kn: h.lang == "kn" || (h.lang != "en" && is_kannada(h.headline)),
            t: h.published.timestamp(),
            opinion: h.opinion,
            again: ws.iter().any(|w| AGAIN.contains(&w.as_str())),
            spread: spread(&ws),
            names,
            ..Doc::default()
        };
        let mut feats = Vec::new();
        let mut word_keys = Vec::new();
        let mut block = Vec::new();
        for &c in &concepts {
            match self.glossary.concept(c).1 {
                Kind::Place if came_from.binary_search(&c).is_ok() => d.origins.push(c),
                Kind::Place if gone_to.binary_search(&c).is_err() => d.places.push(c),
                Kind::Place => {}
                Kind::Person => d.persons.push(c),
                Kind::River => d.rivers.push(c),
                Kind::Term => {}
            }
            let k = keys.key(format!("g:{c}"));
            word_keys.push(k);
            block.push(k);
        }
        d.named_places = d.places.iter().chain(&d.origins).copied().collect();
        d.named_places.sort_unstable();
        let nums = numbers::values(h.headline);
        for n in nums.iter().filter(|n| n.counted) {
            if n.amount {
                if n.change {
                    d.changes.push(n.value);
                } else {
                    d.amounts.push(n.value);
                }
                continue;
            }
            let mut what = What {
                unit: n.unit,
                change: n.change,
                people: n.people,
                ..What::default()
            };
            for w in n.what.iter().chain(&n.before) {
                if what.concepts.len() + what.words.len() == 3 {
                    break;
                }
                if STOP_EN.contains(&w.as_str())
                    || STOP_KN.contains(&w.as_str())
                    || PEOPLE_KN.contains(&w.as_str())
                    || w == "bound"
                {
                    continue;
                }
                let (found, _) = self.glossary.find(std::slice::from_ref(w));
                match found.first() {
                    Some(&c) if self.glossary.concept(c).1 == Kind::Place => {}
                    Some(&c) => what.concepts.push(keys.key(format!("g:{c}"))),
                    None if is_kannada(w) => what.words.push(keys.key(format!("k:{}", stem_kn(w)))),
                    None => what.words.push(keys.key(format!("e:{}", stem_en(w)))),
                }
            }
            what.concepts.sort_unstable();
            what.words.sort_unstable();
            d.counts.push((n.value, what));
        }
        d.amounts.sort_unstable();
        d.amounts.dedup();
        d.changes.sort_unstable();
        d.changes.dedup();
        d.counts.sort_unstable();
        d.counts.dedup();
        d.bounds = nums
            .iter()
            .filter(|n| n.bound && !n.amount)
            .map(|n| (n.value, n.unit))
            .collect();
        d.bounds.sort_unstable();
        d.bounds.dedup();
        d.values = nums.iter().map(|n| (n.value, n.unit)).collect();
        d.values.sort_unstable();
        d.values.dedup();
        d.rose = self.toll.is_some_and(|t| concepts.contains(&t))
            || ws.iter().any(|w| ROSE.contains(&w.as_str()));
        d.missing = self.missing.is_some_and(|c| concepts.contains(&c));
        d.found = self.found.iter().any(|c| concepts.contains(c));
        d.recovered = self.recovered.iter().any(|c| concepts.contains(c));
        d.taken = self.taken.iter().any(|c| concepts.contains(c));
        // A measure is its value in its unit: `12 ಕ್ವಿಂಟಲ್` (1,200 kg) is not `12 ಲಕ್ಷ`.
        for (v, unit) in &d.values {
            let k = keys.key(format!("n:{v}{}", unit.unwrap_or_default()));
            word_keys.push(k);
            block.push(k);
        }
        for (k, w) in ws.iter().enumerate() {
            let used = took[k].is_some();
            if is_name[k] || who[k] {
                continue;
            }
            // A number, in digits or in words, is its value already (`ಇಬ್ಬರು` is 2).
            if is_number(w) {
                continue;
            }
            let kannada = is_kannada(w);
            let stop = if kannada { STOP_KN } else { STOP_EN };
            if stop.contains(&w.as_str()) {
                continue;
            }
            let word_key;
            if kannada {
                let key = keys.key(format!("k:{}", stem_kn(w)));
                word_key = key;
                // A word a concept took is counted once, as the concept.
                if used {
                    feats.push(key);
                } else {
                    word_keys.push(key);
                }
                block.push(key);
                // A word a term took counts as much as a word does: the term stands in
                // for its trigrams, one feature for each, so that `ಬಲಿ` and `ಸಾವು`, one
                // concept, weigh in the cosine as one word written alike would. A place
                // keeps its trigrams: agreeing places already lower the bar.
                let cs: Vec<char> = std::iter::once('^').chain(w.chars()).collect();
                let term = took[k].filter(|&c| self.glossary.concept(c).1 == Kind::Term);
                match term {
                    Some(c) => {
                        for i in 1..cs.len().saturating_sub(1) {
                            feats.push(keys.key(format!("g:{c}#{i}")));
                        }
                    }
                    None => {
                        for g in cs.windows(3) {
                            feats.push(keys.key(format!("3:{}", g.iter().collect::<String>())));
                        }
                    }
                }
            } else if w.len() > 2 {
                let k = keys.key(format!("e:{}", stem_en(w)));
                word_key = k;
                // A word a concept took is counted once, as the concept.
                if used {
                    feats.push(k);
                } else {
                    word_keys.push(k);
                }
                block.push(k);
            } else {
                continue;
            }
            if !used {
                let latin = if kannada {
                    translit::latin(w)
                } else {
                    w.clone()
                };
                let s = translit::skeleton(&latin);
                if s.len() >= 4 {
                    block.push(keys.key(format!("s:{}", &s[..3])));
                    d.skels.push((s, word_key));
                }
            }
        }
        d.concepts = concepts;
        feats.extend(&word_keys);
        for v in [&mut feats, &mut word_keys, &mut block] {
            v.sort_unstable();
            v.dedup();
        }
        d.skels.sort();
        d.skels.dedup();
        d.feats = feats;
        d.words = word_keys;
        d.block = block;
        d
    }

    /// Whether two headlines' places disagree: each names a place, and no place of one is
    /// a place of the other or lies in it (a town and its district agree; two towns of
    /// one district do not).
    fn places_disagree(&self, a: &[u32], b: &[u32]) -> bool {
        !a.is_empty()
            && !b.is_empty()
            && !a.iter().any(|&p| {
                b.iter()
                    .any(|&q| self.glossary.lies_in(p, q) || self.glossary.lies_in(q, p))
            })
    }

    /// Whether two headlines' places agree: each names a place, and a place of one is a
    /// place of the other or lies in it.
    fn places_agree(&self, a: &[u32], b: &[u32]) -> bool {
        !a.is_empty() && !b.is_empty() && !self.places_disagree(a, b)
    }

    /// The gates between two headlines.
    fn gate(&self, a: &Doc, b: &Doc) -> Gate {
        if a.opinion || b.opinion {
            return Gate::Blocked(Gated::Opinion);
        }
        // A later headline that says its event recurs is not the earlier event, told
        // without that word, half a day before.
        let (early, late) = if a.t <= b.t { (a, b) } else { (b, a) };
        if late.again && !early.again && late.t - early.t > RECURS_AFTER_HOURS * 3600 {
            return Gate::Blocked(Gated::Recurrence);
        }
        // Where people come from may be where the other headline says the event was
        // ("Shimoga woman dies of KFD in Manipal", `ತೀರ್ಥಹಳ್ಳಿಯ ಮಹಿಳೆ ಬಲಿ`).
        let from_there = |x: &Doc, y: &Doc| {
            x.origins.iter().any(|&p| {
                y.places
                    .iter()
                    .chain(&y.origins)
                    .any(|&q| self.glossary.lies_in(p, q) || self.glossary.lies_in(q, p))
            })
        };
        // An event of many places has any of them ("seven officials raided across the
        // State", "Udupi engineer among seven").
        let one_place = !a.spread && !b.spread;
        if one_place
            && self.places_disagree(&a.places, &b.places)
            && !from_there(a, b)
            && !from_there(b, a)
        {
            return Gate::Blocked(Gated::Places);
        }
        // People from two places are two lots of people: "two Hubli students missing off
        // Gokarna" are not "Bengaluru students drown near Mekedatu".
        if one_place && self.places_disagree(&a.origins, &b.origins) {
            return Gate::Blocked(Gated::Places);
        }
        if !a.persons.is_empty() && !b.persons.is_empty() && disjoint(&a.persons, &b.persons) {
            return Gate::Blocked(Gated::People);
        }
        // The Krishna in spate is not the Cauvery in spate.
        if !a.rivers.is_empty() && !b.rivers.is_empty() && disjoint(&a.rivers, &b.rivers) {
            return Gate::Blocked(Gated::Rivers);
        }
        // People named after a title, none of whose names meet.
        if !a.names.is_empty() && !b.names.is_empty() {
            let meet = |x: &str, y: &str| x == y || translit::meet(x, y) || translit::meet(y, x);
            if !a.names.iter().any(|x| b.names.iter().any(|y| meet(x, y))) {
                return Gate::Blocked(Gated::Names);
            }
        }
        // Numbers of a kind (amounts, counts) that both name and none of which agree.
        // Amounts of money that both name, none of which agree, unless the later says part
        // of it was recovered: "loses ₹36 lakh", then "₹12 lakh frozen".
        // A change (`₹4,700 ಇಳಿಕೆ`) disagrees only with changes, and agrees with any amount:
        // a desk may write the rise (`₹2 ದುಬಾರಿ`) in words no list knows.
        let mut grew = false;
        let met = |x: &[numbers::Value], y: &[numbers::Value]| !disjoint(x, y);
        let amount_met = met(&a.amounts, &b.amounts)
            || met(&a.amounts, &b.changes)
            || met(&a.changes, &b.amounts)
            || met(&a.changes, &b.changes);
        if !amount_met && !a.changes.is_empty() && !b.changes.is_empty() {
            return Gate::Blocked(Gated::Numbers);
        }
        if !amount_met && !a.amounts.is_empty() && !b.amounts.is_empty() {
            if late.t > early.t
                && early.taken
                && late.recovered
                && late.amounts[0] < early.amounts[early.amounts.len() - 1]
            {
                grew = true;
            } else {
                return Gate::Blocked(Gated::Numbers);
            }
        }
        // Counts of one thing that both name, none of which agree.
        let same_language = a.kn == b.kn;
        let (mut pairs, mut agree) = (0, false);
        let (mut least_early, mut most_late) = (u64::MAX, 0);
        let (mut most_early, mut least_late) = (0, u64::MAX);
        for (x, wx) in &early.counts {
            for (y, wy) in &late.counts {
                // "Two shepherds" and "two killed" in Kannada's people's numerals
                // (`ಇಬ್ಬರು ಕುರಿಗಾಹಿಗಳು`, `ಇಬ್ಬರು ಬಲಿ`) are two people counted twice.
                agree |= wx.people && wy.people && x == y;
                if comparable(wx, wy, same_language) {
                    agree |= x == y;
                    // A change and a level may agree, but never disagree.
                    if wx.change != wy.change {
                        continue;
                    }
                    pairs += 1;
                    least_early = least_early.min(*x);
                    most_late = most_late.max(*y);
                    most_early = most_early.max(*x);
                    least_late = least_late.min(*y);
                }
            }
        }
        // A bound agrees with a count near it: "over 3.1 lakh aspirants" and `3.1 ಲಕ್ಷ
        // ವಿದ್ಯಾರ್ಥಿಗಳು`, `ಮೂರು ಲಕ್ಷಕ್ಕೂ ಹೆಚ್ಚು` and 3.1 lakh, "crosses 41°C" and 41.2°C.
        let near = |(v, u): &(numbers::Value, Option<&str>), y: &Doc| {
            let close = |w: numbers::Value| v.abs_diff(w) * 10 <= (*v).max(w);
            y.counts.iter().any(|(w, wy)| wy.unit == *u && close(*w))
                || y.bounds.iter().any(|(w, wu)| wu == u && close(*w))
        };
        if pairs > 0 && !agree {
            agree = a.bounds.iter().any(|x| near(x, b)) || b.bounds.iter().any(|x| near(x, a));
        }
        if pairs > 0 && !agree {
            // A count that grew: a toll that rose, later, in a headline that says so. Or
            // some of the missing found, later: "three fishermen missing", then "bodies of
            // two wash ashore"; or part of what was taken recovered: "1.8 kg gold looted",
            // then "1.2 kg recovered".
            let found = (early.missing && late.found || early.taken && late.recovered)
                && least_late < most_early;
            if late.t > early.t && (late.rose && most_late > least_early || found) {
                grew = true;
            } else {
                return Gate::Blocked(Gated::Numbers);
            }
        }
        if grew { Gate::Grew } else { Gate::Open }
    }

    /// How near two headlines come to being one story, for the linkage: the gate that keeps
    /// them apart, or 1 if the pair merges, its score's share of its bar if that share is at
    /// least `link`, and 0 otherwise.
    fn nearness(&self, a: &Doc, b: &Doc, weight: &[f64], norm: (f64, f64)) -> Result<f64, Gated> {
        match self.measure(a, b, weight, norm) {
            Ok(_) => Ok(1.0),
            Err(Miss::Gate(g)) => Err(g),
            Err(Miss::Below { score, least }) if score >= self.thresholds.link * least => {
                Ok(score / least)
            }
            Err(_) => Ok(0.0),
        }
    }

    /// How strongly two headlines are one story (0 when they are not), given the features'
    /// weights.
    fn score(&self, a: &Doc, b: &Doc, weight: &[f64], norm: (f64, f64)) -> f64 {
        self.measure(a, b, weight, norm).unwrap_or(0.0)
    }

    /// [`Grouper::score`], or why the pair is no merge.
    fn measure(&self, a: &Doc, b: &Doc, weight: &[f64], norm: (f64, f64)) -> Result<f64, Miss> {
        let gate = self.gate(a, b);
        if let Gate::Blocked(why) = gate {
            return Err(Miss::Gate(why));
        }
        let th = &self.thresholds;
        let placed = self.places_agree(&a.named_places, &b.named_places);
        // A place of one lying in a place of the other (Kankanady, Mangaluru) agrees as a
        // shared place does, though the two are different features.
        let place_met = placed && disjoint(&a.named_places, &b.named_places);
        let near = if (a.t - b.t).abs() <= th.near_hours * 3600 {
            th.near
        } else {
            1.0
        };
        if a.kn == b.kn {
            let met = common(&a.words, &b.words) + usize::from(place_met);
            if met < th.within_words {
                return Err(Miss::FewWords(met));
            }
            let (mut i, mut j, mut dot) = (0, 0, 0.0);
            while i < a.feats.len() && j < b.feats.len() {
                match a.feats[i].cmp(&b.feats[j]) {
                    Ordering::Equal => {
                        let w = weight[a.feats[i] as usize];
                        dot += w * w;
                        i += 1;
                        j += 1;
                    }
                    Ordering::Less => i += 1,
                    Ordering::Greater => j += 1,
                }
            }
            let cos = dot / (norm.0 * norm.1).max(f64::MIN_POSITIVE);
            let least = if gate == Gate::Grew && !placed {
                th.grew
            } else if placed {
                th.placed * near
            } else {
                th.within * near
            };
            if cos >= least {
                Ok(cos)
            } else {
                Err(Miss::Below { score: cos, least })
            }
        } else {
            // Numbers that grew meet across the languages only at one place.
            if gate == Gate::Grew && !placed {
                return Err(Miss::GrewAcross);
            }
            let (en, kn) = if a.kn { (b, a) } else { (a, b) };
            // Anchors in common, each weighted by its rarity: concepts, numbers, and words
            // whose Latin spellings meet.
            let w = |k: u32| weight[k as usize];
            let mut anchors = 0;
            let mut shared = 0.0;
            let (mut i, mut j) = (0, 0);
            while i < a.words.len() && j < b.words.len() {
                match a.words[i].cmp(&b.words[j]) {
                    Ordering::Equal => {
                        anchors += 1;
                        shared += w(a.words[i]);
                        i += 1;
                        j += 1;
                    }
                    Ordering::Less => i += 1,
                    Ordering::Greater => j += 1,
                }
            }
            let mut taken = vec![false; kn.skels.len()];
            for (e, ek) in &en.skels {
                if let Some(k) =
                    (0..kn.skels.len()).find(|&k| !taken[k] && translit::meet(e, &kn.skels[k].0))
                {
                    taken[k] = true;
                    anchors += 1;
                    shared += w(*ek).min(w(kn.skels[k].1));
                }
            }
            if place_met {
                anchors += 1;
            }
            let total = |d: &Doc| -> f64 { d.words.iter().map(|&k| w(k)).sum() };
            let share = shared / total(a).min(total(b)).max(f64::MIN_POSITIVE);
            let least = if placed { th.placed_across } else { th.across } * near;
            if anchors < th.across_anchors {
                Err(Miss::FewAnchors(anchors))
            } else if share >= least {
                Ok(share)
            } else {
                Err(Miss::Below {
                    score: share,
                    least,
                })
            }
        }
    }

    /// The headlines' docs in time order, then id, with the window's feature weights.
    fn prepare(&self, items: &[Headline]) -> Prepared {
        // Time order, then id: the order everything below goes in, whatever the input's.
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by(|&a, &b| {
            items[a]
                .published
                .cmp(&items[b].published)
                .then_with(|| items[a].id.cmp(items[b].id))
        });
        let mut keys = Keys::default();
        let docs: Vec<Doc> = order
            .iter()
            .map(|&i| self.doc(&items[i], &mut keys))
            .collect();
        let n = docs.len();
        let mut df = vec![0u32; keys.index.len()];
        for d in &docs {
            for &f in d.feats.iter().chain(d.block.iter()) {
                df[f as usize] += 1;
            }
        }
        // A feature's weight: how rare it is in the window.
        let weight: Vec<f64> = df
            .iter()
            .map(|&c| (1.0 + n as f64 / c.max(1) as f64).ln())
            .collect();
        let norms: Vec<f64> = docs
            .iter()
            .map(|d| {
                d.feats
                    .iter()
                    .map(|&f| weight[f as usize].powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .collect();
        // Blocking: features too common to tell events apart are not index keys.
        let cap = (n / 200).max(200) as u32;
        Prepared {
            order,
            docs,
            df,
            weight,
            norms,
            cap,
        }
    }

    /// Why each pair of the headlines (indices into `items`) is in one story or not, as the
    /// pair alone sees it: a gate, too little in common, a score below its least, too few
    /// shared blocking keys to be compared, or a pair that merges. For a pair that merges
    /// in two groups that stayed apart, what kept the groups, as they ended, apart: a gate
    /// between two of their headlines, the window, the size, or the linkage (how near their
    /// pairs come to their bars, on average). For the evaluation's list of errors, so that
    /// whoever extends the glossary sees what to add. The window is read once for all the
    /// pairs.
    pub fn explain(&self, items: &[Headline], pairs: &[(usize, usize)]) -> Vec<String> {
        let p = self.prepare(items);
        let mut at = vec![0; items.len()];
        for (k, &o) in p.order.iter().enumerate() {
            at[o] = k;
        }
        // The groups as they ended, to say why two whose pair merges stayed apart.
        let groups = self.group_prepared(&p);
        let mut group_of: Vec<Option<usize>> = vec![None; items.len()];
        for (g, m) in groups.iter().enumerate() {
            for &i in m {
                group_of[i] = Some(g);
            }
        }
        let members = |i: usize| group_of[i].map_or_else(|| vec![i], |g| groups[g].clone());
        let apart = |a: usize, b: usize| -> String {
            let (ma, mb) = (members(a), members(b));
            let mut near = 0.0;
            for &x in &ma {
                for &y in &mb {
                    let (dx, dy) = (&p.docs[at[x]], &p.docs[at[y]]);
                    match self.nearness(dx, dy, &p.weight, (p.norms[at[x]], p.norms[at[y]])) {
                        Ok(n) => near += n,
                        Err(g) => {
                            return format!("the {g:?} gate between two of their headlines")
                                .to_lowercase();
                        }
                    }
                }
            }
            let ts = ma.iter().chain(&mb).map(|&i| p.docs[at[i]].t);
            let span = ts.clone().max().unwrap_or(0) - ts.min().unwrap_or(0);
            let pairs = (ma.len() * mb.len()) as f64;
            if span > WINDOW_HOURS * 3600 {
                format!("the window: together they would span more than {WINDOW_HOURS} hours")
            } else if ma.len() + mb.len() > STORY_MAX {
                format!("the size: together they would hold more than {STORY_MAX} headlines")
            } else {
                format!(
                    "the linkage: their {pairs} pairs come on average {:.2} of the way to their \
                     bars, under {}",
                    near / pairs,
                    self.thresholds.link
                )
            }
        };
        pairs
            .iter()
            .map(|&(a, b)| {
                let (i, j) = (at[a].min(at[b]), at[a].max(at[b]));
                let (di, dj) = (&p.docs[i], &p.docs[j]);
                let keys = di
                    .block
                    .iter()
                    .filter(|&&k| p.df[k as usize] <= p.cap && dj.block.binary_search(&k).is_ok())
                    .count();
                let why = match self.measure(di, dj, &p.weight, (p.norms[i], p.norms[j])) {
                    Ok(s) if group_of[a].is_some() && group_of[a] == group_of[b] => {
                        format!("the pair merges ({s:.2}) and is in one story")
                    }
                    Ok(s) => format!(
                        "the pair merges ({s:.2}); its groups ({} and {} headlines) were kept \
                         apart by {}",
                        members(a).len(),
                        members(b).len(),
                        apart(a, b)
                    ),
                    Err(Miss::Gate(g)) => format!("kept apart by the {g:?} gate").to_lowercase(),
                    Err(Miss::FewWords(n)) => format!("{n} word(s) in common"),
                    Err(Miss::FewAnchors(n)) => format!("{n} anchor(s) in common"),
                    Err(Miss::GrewAcross) => "numbers that grew, across the languages".to_string(),
                    Err(Miss::Below { score, least }) => {
                        format!("score {score:.2} below {least:.2}")
                    }
                };
                if keys < 2 {
                    format!("{keys} blocking key(s) in common; {why}")
                } else {
                    why
                }
            })
            .collect()
    }

    /// A headline no pair joined, joined to a story of its language whose headlines, taken
    /// together, say what it says: the cosine with the story's centroid (the sum of its
    /// same-language headlines' unit vectors, at least two of them) passes the bar a pair
    /// would need, it shares three words with them (one more than a pair needs: together they
    /// hold more words), and every gate with every headline of the story is open. A story told by several desks holds more of the event's words than any
    /// one of its headlines.
    fn join_centroids(
        &self,
        docs: &[Doc],
        weight: &[f64],
        norms: &[f64],
        postings: &[Vec<u32>],
        root: &mut [u32],
        members: &mut [Vec<u32>],
    ) {
        let th = &self.thresholds;
        let window = WINDOW_HOURS * 3600;
        for x in 0..docs.len() as u32 {
            let d = &docs[x as usize];
            let rx = find(root, x);
            if d.opinion || members[rx as usize].len() != 1 {
                continue;
            }
            let mut roots: Vec<u32> = Vec::new();
            for &k in &d.block {
                for &j in &postings[k as usize] {
                    if j != x && (docs[j as usize].t - d.t).abs() <= window {
                        let r = find(root, j);
                        if members[r as usize].len() >= 2 {
                            roots.push(r);
                        }
                    }
                }
            }
            roots.sort_unstable();
            roots.dedup();
            let mut best: Option<(f64, u32)> = None;
            for &r in &roots {
                let m = &members[r as usize];
                if m.len() + 1 > STORY_MAX {
                    continue;
                }
                let same: Vec<u32> = m
                    .iter()
                    .copied()
                    .filter(|&y| docs[y as usize].kn == d.kn)
                    .collect();
                if same.len() < 2 {
                    continue;
                }
                let (first, last) = m.iter().fold((d.t, d.t), |(f, l), &y| {
                    (f.min(docs[y as usize].t), l.max(docs[y as usize].t))
                });
                if last - first > window
                    || m.iter()
                        .any(|&y| matches!(self.gate(d, &docs[y as usize]), Gate::Blocked(_)))
                {
                    continue;
                }
                // In key order, so that the sums below are the same in every run.
                let mut centroid: BTreeMap<u32, f64> = BTreeMap::new();
                let mut words: Vec<u32> = Vec::new();
                for &y in &same {
                    let dy = &docs[y as usize];
                    for &f in &dy.feats {
                        *centroid.entry(f).or_insert(0.0) += weight[f as usize] / norms[y as usize];
                    }
                    words.extend(&dy.words);
                }
                words.sort_unstable();
                words.dedup();
                if common(&d.words, &words) < th.within_words + 1 {
                    continue;
                }
                let c_norm: f64 = centroid.values().map(|c| c * c).sum();
                let dot: f64 = d
                    .feats
                    .iter()
                    .map(|f| weight[*f as usize] * centroid.get(f).copied().unwrap_or(0.0))
                    .sum();
                let cos = dot / (norms[x as usize] * c_norm.sqrt()).max(f64::MIN_POSITIVE);
                let placed = same
                    .iter()
                    .any(|&y| self.places_agree(&d.named_places, &docs[y as usize].named_places));
                let near = if same
                    .iter()
                    .any(|&y| (docs[y as usize].t - d.t).abs() <= th.near_hours * 3600)
                {
                    th.near
                } else {
                    1.0
                };
                let least = if placed { th.placed } else { th.within } * near;
                if cos >= least && best.is_none_or(|(b, _)| cos > b) {
                    best = Some((cos, r));
                }
            }
            if let Some((_, r)) = best {
                let (keep, gone) = if r < rx { (r, rx) } else { (rx, r) };
                let moved = std::mem::take(&mut members[gone as usize]);
                members[keep as usize].extend(moved);
                root[gone as usize] = keep;
            }
        }
    }

    /// What the grouping reads in one headline, in one line: its places (and the places
    /// it names as where people come from or go), people, amounts, counts with what they
    /// count, names after a title, and its flags. For a glossary editor asking why two
    /// headlines stayed apart.
    pub fn describe(&self, h: &Headline) -> String {
        let mut keys = Keys::default();
        let d = self.doc(h, &mut keys);
        let mut by_key = vec![String::new(); keys.index.len()];
        for (k, &v) in &keys.index {
            by_key[v as usize] = k.clone();
        }
        let concept = |c: &u32| self.glossary.concept(*c).0.to_string();
        let list = |cs: &[u32]| cs.iter().map(concept).collect::<Vec<_>>().join(",");
        let key = |k: &u32| {
            let s = &by_key[*k as usize];
            match s.strip_prefix("g:").and_then(|c| c.parse::<u32>().ok()) {
                Some(c) => concept(&c),
                None => s.clone(),
            }
        };
        let counts: Vec<String> = d
            .counts
            .iter()
            .map(|(v, w)| {
                let said: Vec<String> = w.concepts.iter().chain(&w.words).map(key).collect();
                format!(
                    "{}{}{}[{}]",
                    *v as f64 / 100.0,
                    w.unit.unwrap_or_default(),
                    if w.change { "±" } else { "" },
                    said.join(",")
                )
            })
            .collect();
        let money = |vs: &[numbers::Value]| {
            vs.iter()
                .map(|v| format!("{}", *v as f64 / 100.0))
                .collect::<Vec<_>>()
                .join(",")
        };
        let flags: Vec<&str> = [
            (d.rose, "rose"),
            (d.missing, "missing"),
            (d.found, "found"),
            (d.taken, "taken"),
            (d.recovered, "recovered"),
            (d.again, "again"),
            (d.spread, "spread"),
            (d.opinion, "opinion"),
        ]
        .iter()
        .filter(|f| f.0)
        .map(|f| f.1)
        .collect();
        format!(
            "places [{}] origins [{}] persons [{}] rivers [{}] amounts [{}] changes [{}] \
             counts [{}] names [{}] flags [{}] concepts [{}]",
            list(&d.places),
            list(&d.origins),
            list(&d.persons),
            list(&d.rivers),
            money(&d.amounts),
            money(&d.changes),
            counts.join(" "),
            d.names.join(","),
            flags.join(","),
            list(&d.concepts),
        )
    }

    /// Groups headlines: each group of two or more, its members by time then id, the groups
    /// by their first member. Indices into `items`.
    pub fn group(&self, items: &[Headline]) -> Vec<Vec<usize>> {
        self.group_prepared(&self.prepare(items))
    }

    /// [`Grouper::group`] of a window already prepared.
    fn group_prepared(&self, prepared: &Prepared) -> Vec<Vec<usize>> {
        let window = WINDOW_HOURS * 3600;
        let Prepared {
            order,
            docs,
            df,
            weight,
            norms,
            cap,
        } = prepared;
        let cap = *cap;
        let n = docs.len();
        let keys_len = df.len();
        let mut postings: Vec<Vec<u32>> = vec![Vec::new(); keys_len];
        let mut shared = vec![0u16; n];
        let mut touched: Vec<u32> = Vec::new();
        let mut edges: Vec<(f64, u32, u32)> = Vec::new();
        for (i, d) in docs.iter().enumerate() {
            if d.opinion {
                continue;
            }
            for &k in &d.block {
                if df[k as usize] > cap {
                    continue;
                }
                for &j in postings[k as usize].iter().rev() {
                    if d.t - docs[j as usize].t > window {
                        break;
                    }
                    if shared[j as usize] == 0 {
                        touched.push(j);
                    }
                    shared[j as usize] += 1;
                }
                postings[k as usize].push(i as u32);
            }
            touched.sort_unstable();
            for &j in &touched {
                if shared[j as usize] >= 2 {
                    let s = self.score(&docs[j as usize], d, weight, (norms[j as usize], norms[i]));
                    if s > 0.0 {
                        edges.push((s, j, i as u32));
                    }
                }
                shared[j as usize] = 0;
            }
            touched.clear();
        }
        edges.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
        // Groups, strongest pairs first; a group is its members, kept in its root's slot.
        let mut root: Vec<u32> = (0..n as u32).collect();
        let mut members: Vec<Vec<u32>> = (0..n as u32).map(|i| vec![i]).collect();
        for &(_, a, b) in &edges {
            let (ra, rb) = (find(&mut root, a), find(&mut root, b));
            if ra == rb {
                continue;
            }
            let (ma, mb) = (&members[ra as usize], &members[rb as usize]);
            if ma.len() + mb.len() > STORY_MAX {
                continue;
            }
            let span = |m: &[u32]| {
                let ts = m.iter().map(|&x| docs[x as usize].t);
                (ts.clone().min().unwrap_or(0), ts.max().unwrap_or(0))
            };
            let ((fa, la), (fb, lb)) = (span(ma), span(mb));
            if la.max(lb) - fa.min(fb) > window {
                continue;
            }
            // Every pair across the two passes the gates, and together they are near enough
            // (average linkage, not a chain through one pair): each pair counts one if it
            // merges, and its score's share of its bar if that is at least `link` (a pair
            // that nearly merges is evidence too); their mean is at least `link`.
            let mut blocked = false;
            let mut near = 0.0;
            'pairs: for &x in ma {
                for &y in mb {
                    let (p, q) = (x as usize, y as usize);
                    match self.nearness(&docs[p], &docs[q], weight, (norms[p], norms[q])) {
                        Ok(n) => near += n,
                        Err(_) => {
                            blocked = true;
                            break 'pairs;
                        }
                    }
                }
            }
            if blocked || near < self.thresholds.link * (ma.len() * mb.len()) as f64 {
                continue;
            }
            let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
            let moved = std::mem::take(&mut members[gone as usize]);
            members[keep as usize].extend(moved);
            root[gone as usize] = keep;
        }
        self.join_centroids(docs, weight, norms, &postings, &mut root, &mut members);
        let mut groups: Vec<Vec<usize>> = members
            .into_iter()
            .filter(|m| m.len() >= 2)
            .map(|mut m| {
                m.sort_unstable();
                m.into_iter().map(|x| order[x as usize]).collect()
            })
            .collect();
        groups.sort_by_key(|g| order.iter().position(|&o| o == g[0]).unwrap_or(usize::MAX));
        groups
    }
}

/// A story's id: the first 16 hex digits of the SHA-256 of `story ` and its earliest
/// headline's id. It changes only when that headline leaves the story.
pub fn story_id(first_headline_id: &str) -> String {
    crate::store::sha256_hex(format!("story {first_headline_id}").as_bytes())[..16].to_string()
}

/// A headline of a story, as `DAY/stories.jsonl` has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub id: String,
    pub outlet: String,
    pub lang: String,
    pub headline: String,
    pub link: String,
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
}

/// A story (`DAY/stories.jsonl`, ranked: most outlets first, then most languages, then the
/// newest last headline, then by id): its id, the outlets and languages that cover it
/// (sorted), its first and last times, and its headlines (by time, then id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Story {
    pub story: String,
    pub outlets: Vec<String>,
    pub langs: Vec<String>,
    #[serde(with = "crate::time::rfc3339")]
    pub first: DateTime<Utc>,
    #[serde(with = "crate::time::rfc3339")]
    pub last: DateTime<Utc>,
    pub headlines: Vec<Member>,
}

impl Story {
    /// A story of these headlines (two or more, in time order then by id).
    pub fn of(mut headlines: Vec<Member>) -> Story {
        headlines.sort_by(|a, b| a.published.cmp(&b.published).then_with(|| a.id.cmp(&b.id)));
        let mut outlets: Vec<String> = headlines.iter().map(|h| h.outlet.clone()).collect();
        outlets.sort();
        outlets.dedup();
        let mut langs: Vec<String> = headlines.iter().map(|h| h.lang.clone()).collect();
        langs.sort();
        langs.dedup();
        Story {
            story: story_id(&headlines[0].id),
            outlets,
            langs,
            first: headlines[0].published,
            last: headlines[headlines.len() - 1].published,
            headlines,
        }
    }
}

/// The ranking of stories: breadth first (distinct outlets, then languages), then recency,
/// then id.
pub fn rank(a: &Story, b: &Story) -> Ordering {
    b.outlets
        .len()
        .cmp(&a.outlets.len())
        .then_with(|| b.langs.len().cmp(&a.langs.len()))
        .then_with(|| b.last.cmp(&a.last))
        .then_with(|| a.story.cmp(&b.story))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn at(s: &str) -> DateTime<Utc> {
        crate::time::parse_now(s).unwrap()
    }

    fn grouper() -> Grouper {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pipeline");
        Grouper::new(Glossary::load(&p).unwrap())
    }

    fn h<'a>(id: &'a str, outlet: &'a str, lang: &'a str, text: &'a str, t: &str) -> Headline<'a> {
        Headline {
            id,
            outlet,
            lang,
            headline: text,
            published: at(t),
            opinion: false,
        }
    }

    fn groups(items: &[Headline]) -> Vec<Vec<&'static str>> {
        grouper()
            .group(items)
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|i| &*items[i].id.to_string().leak())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn one_event_in_two_languages_is_one_story() {
        let items = [
            h(
                "a",
                "Deccan",
                "en",
                "Hubballi-Dharwad IT park draws Rs 800 crore in fresh commitments",
                "2026-11-30T01:15:00Z",
            ),
            h(
                "b",
                "ನಮ್ಮ",
                "kn",
                "ಹುಬ್ಬಳ್ಳಿ-ಧಾರವಾಡ ಐಟಿ ಪಾರ್ಕ್‌ಗೆ ₹800 ಕೋಟಿ ಹೂಡಿಕೆ ಬದ್ಧತೆ",
                "2026-11-30T02:00:00Z",
            ),
            h(
                "c",
                "Coastal",
                "en",
                "Hubballi IT park attracts Rs 800 crore investment",
                "2026-11-30T03:00:00Z",
            ),
            h(
                "d",
                "Coastal",
                "en",
                "Kambala organisers seek clarity on animal-welfare rules",
                "2026-11-30T03:00:00Z",
            ),
        ];
        assert_eq!(groups(&items), [vec!["a", "b", "c"]]);
    }

    /// Headlines from lines of `LANG TIME HEADLINE`: ids `a`, `b`, ... in line order, each
    /// from an outlet of its own.
    fn rows(text: &'static str) -> Vec<Headline<'static>> {
        const IDS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
        const OUTLETS: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];
        text.lines()
            .enumerate()
            .map(|(k, line)| {
                let mut parts = line.trim().splitn(3, ' ');
                let (lang, t) = (parts.next().unwrap(), parts.next().unwrap());
                h(IDS[k], OUTLETS[k], lang, parts.next().unwrap(), t)
            })
            .collect()
    }

    #[test]
    fn counts_of_different_things_do_not_disagree_and_counts_of_one_thing_do() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Mangaluru auto driver murdered; police form three teams\n\
            en 2026-11-30T09:00:00Z Mangaluru auto driver murder: two held within 12 hours\n\
            en 2026-11-30T01:00:00Z Fog at Kempegowda airport: 38 flights delayed\n\
            en 2026-11-30T02:00:00Z Fog at Kempegowda airport: 12 flights diverted",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn a_count_at_the_end_of_a_clause_counts_what_the_verb_before_it_says() {
        // "injures six" counts the injured, not the dead: it does not disagree with
        // "3 dead"; "kills three" does agree with it.
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Cylinder blast at Hubballi eatery kills three cooks, injures six\n\
            en 2026-11-30T03:00:00Z Hubballi: 3 dead in cylinder blast at roadside eatery",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn every_place_of_a_list_after_to_is_where_things_went() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Storm over Kempegowda airport: nine flights diverted to Chennai, Hyderabad and Goa\n\
            en 2026-11-30T02:00:00Z Nine flights diverted as storm lashes Bengaluru airport",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn where_kannada_says_people_came_from_is_not_where_the_event_was() {
        // The ablative (`ಕೇರಳದಿಂದ ಬಂದ`, came from Kerala), and a place's people counted
        // (`ಮಂಡ್ಯದ ನಾಲ್ಕು ಮಂದಿ`, four from Mandya).
        let items = rows(
            "\
            kn 2026-11-30T01:00:00Z ಮಂಗಳೂರು ವಿಮಾನ ನಿಲ್ದಾಣದಲ್ಲಿ 1.2 ಕೆ.ಜಿ ಚಿನ್ನ ವಶ: ಪ್ರಯಾಣಿಕನ ಬಂಧನ\n\
            kn 2026-11-30T03:00:00Z ಕೇರಳದಿಂದ ಬಂದ ಪ್ರಯಾಣಿಕನ ಬಳಿ 1.2 ಕೆ.ಜಿ ಚಿನ್ನ ವಶ: ವಿಮಾನ ನಿಲ್ದಾಣದಲ್ಲಿ ಬಂಧನ\n\
            kn 2026-11-30T02:00:00Z ಚನ್ನಪಟ್ಟಣ ಬಳಿ ಕಾರು-ಲಾರಿ ಡಿಕ್ಕಿ: ನಾಲ್ವರು ಸಾವು\n\
            kn 2026-11-30T04:00:00Z ಕಾರಿಗೆ ಲಾರಿ ಡಿಕ್ಕಿ: ಮಂಡ್ಯದ ನಾಲ್ಕು ಮಂದಿ ಸಾವು",
        );
        assert_eq!(groups(&items), [vec!["a", "b"], vec!["c", "d"]]);
    }

    #[test]
    fn a_place_that_is_a_ministers_surname_is_not_where_the_event_was() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Three tiger cubs born at Mysuru zoo, mother Tara doing well\n\
            en 2026-11-30T06:00:00Z Zoo's three tiger cubs named by Forest Minister Ravi Hangal\n\
            kn 2026-11-30T07:00:00Z ಮೂರು ಹುಲಿ ಮರಿಗಳಿಗೆ ನಾಮಕರಣ: ಅರಣ್ಯ ಸಚಿವ ರವಿ ಹಾನಗಲ್ ಒಪ್ಪಿಗೆ",
        );
        let g = grouper();
        assert!(
            g.describe(&items[2]).starts_with("places [] "),
            "{}",
            g.describe(&items[2])
        );
        assert_eq!(groups(&items)[0][..2], ["a", "b"]);
    }

    #[test]
    fn part_of_what_was_stolen_seized_from_the_thieves_is_the_same_event() {
        let items = rows(
            "\
            kn 2026-11-29T03:00:00Z ಶಿರಸಿ: ದೇವಾಲಯದ ಹುಂಡಿ ಒಡೆದು ₹೪ ಲಕ್ಷ ದೋಚಿದ ಕಳ್ಳರು\n\
            kn 2026-11-30T05:00:00Z ಶಿರಸಿ ದೇವಾಲಯದ ಹುಂಡಿ ಕಳವು: ಇಬ್ಬರ ಬಂಧನ, ₹೩.೨ ಲಕ್ಷ ವಶ",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn a_count_near_a_bound_agrees_with_it() {
        // "Over 2.4 lakh" is the 2.4 lakh the other desk counted, and `ಎರಡೂವರೆ ಲಕ್ಷಕ್ಕೂ
        // ಹೆಚ್ಚು` (more than 2.5 lakh) is near it: neither disagrees with it, whatever
        // the centres.
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Over 2.4 lakh aspirants write CET exam today at 612 centres\n\
            kn 2026-11-30T02:00:00Z ಇಂದು ಸಿಇಟಿ ಪರೀಕ್ಷೆ: 2.4 ಲಕ್ಷ ವಿದ್ಯಾರ್ಥಿಗಳು ಹಾಜರು\n\
            kn 2026-11-30T03:00:00Z ಸಿಇಟಿ ಪರೀಕ್ಷೆ: ಎರಡೂವರೆ ಲಕ್ಷಕ್ಕೂ ಹೆಚ್ಚು ವಿದ್ಯಾರ್ಥಿಗಳು 612 ಕೇಂದ್ರಗಳಲ್ಲಿ ಹಾಜರು",
        );
        assert_eq!(groups(&items), [vec!["a", "b", "c"]]);
    }

    #[test]
    fn an_event_of_many_places_has_any_of_them() {
        // One raid on nine officials across the State, told by the officials of two
        // districts; a fire in Hassan the same morning stays apart from the Ballari one.
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Lokayukta raids nine officials across the State, Hassan engineer among them\n\
            en 2026-11-30T03:00:00Z Ballari RTO among nine officials raided by Lokayukta\n\
            kn 2026-11-30T02:00:00Z ರಾಜ್ಯದ ೯ ಅಧಿಕಾರಿಗಳ ಮನೆಗಳ ಮೇಲೆ ಲೋಕಾಯುಕ್ತ ದಾಳಿ\n\
            kn 2026-11-30T04:00:00Z ಬಳ್ಳಾರಿ ಆರ್‌ಟಿಒ ಸೇರಿ ಒಂಬತ್ತು ಅಧಿಕಾರಿಗಳಿಗೆ ಲೋಕಾಯುಕ್ತ ಶಾಕ್\n\
            en 2026-11-30T01:30:00Z Fire guts furniture shop in Hassan market\n\
            en 2026-11-30T02:30:00Z Fire guts furniture shop in Ballari market",
        );
        assert_eq!(groups(&items), [vec!["a", "c", "b", "d"]]);
    }

    #[test]
    fn two_people_counted_in_kannadas_peoples_numerals_agree() {
        // Two farmers and twelve cows killed; then two killed and the herd lost: the two
        // are the same two people.
        let items = rows(
            "\
            kn 2026-11-30T01:00:00Z ಹಾವೇರಿ: ಸಿಡಿಲು ಬಡಿದು ಇಬ್ಬರು ರೈತರು, 12 ಹಸುಗಳು ಸಾವು\n\
            kn 2026-11-30T03:00:00Z ಹಾವೇರಿ ಬಳಿ ಸಿಡಿಲಿಗೆ ಇಬ್ಬರು ಬಲಿ, ಹಸುಗಳ ಹಿಂಡು ನಾಶ",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn numbers_read_as_what_they_are_do_not_keep_one_event_apart() {
        // A price per quintal and per kilogram, a percentage in either script, a year, a
        // score and a measure in other units, each against the same event told otherwise.
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Arecanut fetches record Rs 540 a kg at Puttur market\n\
            en 2026-11-30T03:00:00Z Puttur market: arecanut touches record ₹54,000 a quintal\n\
            kn 2026-11-30T01:00:00Z ಎಸ್‌ಎಸ್‌ಎಲ್‌ಸಿ ಪರೀಕ್ಷೆ-2 ಫಲಿತಾಂಶ ಪ್ರಕಟ: ಶೇ 61.3 ವಿದ್ಯಾರ್ಥಿಗಳು ತೇರ್ಗಡೆ\n\
            kn 2026-11-30T02:00:00Z ಎಸ್‌ಎಸ್‌ಎಲ್‌ಸಿ ಪೂರಕ ಪರೀಕ್ಷೆ ಫಲಿತಾಂಶ: ರಾಜ್ಯದಲ್ಲಿ ಶೇ ೬೧.೩ ತೇರ್ಗಡೆ\n\
            en 2026-11-30T01:00:00Z Dasara 2026: the elephants begin their march from Hunsur\n\
            en 2026-11-30T04:00:00Z Nine Dasara elephants begin march from Hunsur to Mysuru",
        );
        assert_eq!(
            groups(&items),
            [vec!["a", "b"], vec!["c", "d"], vec!["e", "f"]]
        );
    }

    #[test]
    fn a_headline_joins_a_story_whose_headlines_together_say_what_it_says() {
        // The third shares some words with each of the first two, too few with either alone.
        let items = rows(
            "\
            kn 2026-11-30T01:00:00Z ತುಮಕೂರು ಹಾಸ್ಟೆಲ್‌ನಲ್ಲಿ ಕಲುಷಿತ ಆಹಾರ ಸೇವಿಸಿ ವಿದ್ಯಾರ್ಥಿಗಳು ಅಸ್ವಸ್ಥ\n\
            kn 2026-11-30T02:00:00Z ತುಮಕೂರು ವಸತಿ ನಿಲಯದಲ್ಲಿ ಊಟದ ನಂತರ ವಿದ್ಯಾರ್ಥಿಗಳು ಅಸ್ವಸ್ಥ, ಆಸ್ಪತ್ರೆಗೆ ದಾಖಲು\n\
            kn 2026-11-30T09:00:00Z ಕಲುಷಿತ ಆಹಾರ ಪ್ರಕರಣ: ವಸತಿ ನಿಲಯದ ವಾರ್ಡನ್ ಅಮಾನತು, ತುಮಕೂರಿನಲ್ಲಿ ಆಕ್ರೋಶ",
        );
        assert_eq!(groups(&items), [vec!["a", "b", "c"]]);
    }

    #[test]
    fn pairs_that_nearly_merge_are_evidence_for_joining_a_story() {
        // The arrest merges with the third headline alone; with the first two it comes
        // near the bar without passing it. Together that is enough.
        let items = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Rowdy-sheeter hacked to death in Davanagere's Vinoba Nagar\n\
            kn 2026-11-30T02:30:00Z ದಾವಣಗೆರೆ: ವಿನೋಬನಗರದಲ್ಲಿ ರೌಡಿಶೀಟರ್‌ ಬರ್ಬರ ಕೊಲೆ\n\
            en 2026-11-30T05:00:00Z Davanagere: history-sheeter killed by gang over old rivalry\n\
            en 2026-11-30T20:00:00Z Davanagere murder: three held, police say gang rivalry behind attack",
        ));
        assert_eq!(groups(&items), [vec!["a", "b", "c", "d"]]);
    }

    #[test]
    fn a_concept_weighs_as_much_as_the_word_it_took() {
        // Two words for the disease and two for the death: in Kannada a word is many
        // trigrams, and the concept that took it counts as many.
        let items = with_day(rows(
            "\
            kn 2026-11-30T10:00:00Z ತೀರ್ಥಹಳ್ಳಿ: ಮಂಗನ ಕಾಯಿಲೆಗೆ 72 ವರ್ಷದ ವೃದ್ಧೆ ಬಲಿ\n\
            kn 2026-11-30T12:00:00Z ಕೆಎಫ್‌ಡಿ: ಶಿವಮೊಗ್ಗ ಜಿಲ್ಲೆಯಲ್ಲಿ ಈ ವರ್ಷದ ಮೊದಲ ಸಾವು, ಆರಗ ಸುತ್ತ ಲಸಿಕೆ ಅಭಿಯಾನ",
        ));
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn a_measure_is_in_common_only_with_the_same_measure() {
        // 12 quintals are 1,200 kg, 1,200,000 grams: the value of 12 lakh rupees, but not
        // the same number.
        let g = grouper();
        let mut keys = Keys::default();
        let mut doc = |text| g.doc(&h("x", "X", "en", text, "2026-11-30T01:00:00Z"), &mut keys);
        let (quintals, rupees, kilos) = (
            doc("12 quintals of arecanut recovered"),
            doc("Rs 12 lakh in cash recovered"),
            doc("1,200 kg of arecanut recovered"),
        );
        let numbers_in_common = |a: &Doc, b: &Doc| {
            keys.index
                .iter()
                .filter(|(k, v)| {
                    k.starts_with("n:")
                        && a.words.binary_search(v).is_ok()
                        && b.words.binary_search(v).is_ok()
                })
                .count()
        };
        assert_eq!(numbers_in_common(&quintals, &rupees), 0);
        assert_eq!(numbers_in_common(&quintals, &kilos), 1);
    }

    #[test]
    fn two_passes_over_the_ghats_are_two_places_and_the_foot_of_one_is_on_it() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Landslide on Charmadi ghat road; vehicles diverted\n\
            en 2026-11-30T02:00:00Z Landslide on Agumbe ghat road; vehicles diverted\n\
            en 2026-11-30T03:00:00Z Landslide near Gundya; vehicles diverted at Shiradi",
        );
        assert!(groups(&items).is_empty(), "{:?}", groups(&items));
        let g = grouper();
        let place = |name| g.glossary.named(name).unwrap();
        assert!(g.places_agree(&[place("gundya")], &[place("sakleshpur")]));
        assert!(g.places_disagree(&[place("shiradi")], &[place("charmadi")]));
    }

    #[test]
    fn a_name_follows_a_title_only_in_its_plain_form_and_not_past_punctuation() {
        // ಸಚಿವರ ತಾಕೀತು is "the minister's warning", not a minister named ತಾಕೀತು, who would
        // be another than ಕಮಲಾ ನಾಯ್ಕ.
        let items = with_day(rows(
            "\
            kn 2026-11-30T01:00:00Z ಖಾಸಗಿ ಆಸ್ಪತ್ರೆಗಳಲ್ಲಿ ಡೆಂಗಿ ಪರೀಕ್ಷೆ ಶುಲ್ಕಕ್ಕೆ ₹250 ಮಿತಿ: ಆರೋಗ್ಯ ಸಚಿವೆ ಕಮಲಾ ನಾಯ್ಕ\n\
            kn 2026-11-30T04:00:00Z ಡೆಂಗಿ ಪರೀಕ್ಷೆ ಶುಲ್ಕ 250 ರೂಪಾಯಿ ಮೀರಿದರೆ ಕ್ರಮ: ಆಸ್ಪತ್ರೆಗಳಿಗೆ ಸಚಿವರ ತಾಕೀತು",
        ));
        assert_eq!(groups(&items), [vec!["a", "b"]]);
        // The chief minister is not named ತಕ್ಷಣ ("at once"): the semicolon ends the title.
        let items = with_day(rows(
            "\
            kn 2026-11-30T01:00:00Z ಕೊಡಗಿನಲ್ಲಿ ಸಿಎಂ ವೈಮಾನಿಕ ಸಮೀಕ್ಷೆ: ಮಳೆ ಹಾನಿ ಪರಿಹಾರಕ್ಕೆ ₹40 ಕೋಟಿ\n\
            kn 2026-11-30T04:00:00Z ಕೊಡಗಿನ ಮಳೆ ಹಾನಿ ವೀಕ್ಷಿಸಿದ ಮುಖ್ಯಮಂತ್ರಿ; ತಕ್ಷಣ ₹40 ಕೋಟಿ ಪರಿಹಾರ",
        ));
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn a_pair_that_merges_in_groups_kept_apart_is_explained_by_what_kept_them() {
        // The first and the last each merge with the middle one, but three killed is not
        // five killed: whichever joins the middle first, the other stays out by the gate.
        let items = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Three killed as bus overturns near Hassan\n\
            en 2026-11-30T02:00:00Z Bus overturns near Hassan; passengers rushed to hospital\n\
            en 2026-11-30T03:00:00Z Five killed as bus overturns near Hassan",
        ));
        let g = grouper();
        let grouped = g.group(&items);
        assert_eq!(grouped.len(), 1, "{grouped:?}");
        let out = if grouped[0].contains(&0) { 2 } else { 0 };
        let why = g.explain(&items, &[(out.min(1), out.max(1))]);
        assert!(
            why[0].starts_with("the pair merges")
                && why[0]
                    .ends_with("kept apart by the numbers gate between two of their headlines"),
            "{why:?}"
        );
        assert!(g.explain(&items, &[(0, 2)])[0].contains("numbers gate"));
    }

    #[test]
    fn a_number_word_counts_once_as_its_value() {
        // Two events that share only "three": `ಮೂವರು` is the value 3, not also a word in
        // common, and one thing in common is too little.
        let items = rows(
            "\
            kn 2026-11-30T01:00:00Z ಮೂವರು ಸಾವು\n\
            kn 2026-11-30T02:00:00Z ಮೂವರು ಸೆರೆ",
        );
        assert!(groups(&items).is_empty(), "{:?}", groups(&items));
    }

    #[test]
    fn some_of_the_missing_found_later_is_the_same_event() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Boat capsizes off Malpe; three fishermen missing\n\
            en 2026-11-30T20:00:00Z Malpe boat capsize: bodies of two fishermen wash ashore\n\
            en 2026-11-30T01:00:00Z Boat capsizes off Bhatkal; four fishermen rescued\n\
            en 2026-11-30T05:00:00Z Bhatkal boat capsize: six fishermen rescued",
        );
        // The rescued are no missing: four and six stay two counts that disagree.
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn part_of_what_was_taken_recovered_later_is_the_same_event() {
        let pair = |early: &'static str, late: &'static str| {
            with_day(vec![
                h("a", "A", "en", early, "2026-11-30T01:00:00Z"),
                h("b", "B", "en", late, "2026-11-30T20:00:00Z"),
            ])
        };
        // Money lost, then part of it frozen; three feared drowned, then two bodies found.
        let lost = pair(
            "Retired Hubballi teacher loses Rs 48 lakh to fake CBI officers in digital arrest fraud",
            "Digital arrest fraud: Hubballi police freeze Rs 15 lakh of the retired teacher's money",
        );
        assert_eq!(groups(&lost), [vec!["a", "b"]]);
        let feared = pair(
            "Boat capsizes off Bhatkal; three fishermen feared drowned",
            "Bhatkal boat capsize: bodies of two fishermen found",
        );
        assert_eq!(groups(&feared), [vec!["a", "b"]]);
        // A seizure is not something taken: the second, smaller one is another seizure.
        let seized = pair(
            "Customs seize 1.4 kg gold from Dubai flyer at Mangaluru airport",
            "Customs recover 520 grams of gold from Muscat passenger at Mangaluru airport",
        );
        assert!(groups(&seized).is_empty());
    }

    #[test]
    fn the_ends_of_a_route_are_not_where_the_event_happened() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Landslide blocks ghat road near Sakleshpur; highway traffic halted\n\
            en 2026-11-30T03:00:00Z Ghat road landslide: Mangaluru–Bengaluru highway traffic halted",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
        assert_eq!(
            dashed(&pieces("Mangaluru–Bengaluru traffic, e-bus")),
            [true, false, false, false]
        );
    }

    #[test]
    fn a_change_is_no_disagreement_with_the_level_it_came_to_and_two_changes_disagree() {
        let fall = with_day(rows(
            "\
            kn 2026-11-30T01:00:00Z ಅಡಿಕೆ ಧಾರಣೆ ಕುಸಿತ: ಚಾಲಿ ಕೆ.ಜಿಗೆ ₹೪೬೮ಕ್ಕೆ ಇಳಿಕೆ\n\
            kn 2026-11-30T05:00:00Z ಒಂದೇ ವಾರದಲ್ಲಿ ಚಾಲಿ ಅಡಿಕೆ ಧಾರಣೆ ₹4,700 ಇಳಿಕೆ",
        ));
        assert_eq!(groups(&fall), [vec!["a", "b"]]);
        let hikes = with_day(rows(
            "\
            en 2026-11-30T06:00:00Z KMF raises Nandini milk price by Rs 2 a litre from Wednesday\n\
            en 2026-11-30T07:00:00Z KMF raises Nandini milk price by Rs 4 a litre from Wednesday",
        ));
        assert!(groups(&hikes).is_empty());
    }

    #[test]
    fn two_rivers_are_two_stories_and_a_river_agrees_with_its_places() {
        let two = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Krishna in spate: low-lying villages told to move as outflow rises\n\
            en 2026-11-30T03:00:00Z Cauvery in spate: low-lying villages told to move as outflow rises",
        ));
        assert!(groups(&two).is_empty());
        let one = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Cauvery in spate: low-lying villages of Srirangapatna told to move\n\
            en 2026-11-30T03:00:00Z Srirangapatna: low-lying villages told to move as outflow rises",
        ));
        assert_eq!(groups(&one), [vec!["a", "b"]]);
    }

    #[test]
    fn where_people_come_from_is_not_where_the_event_happened() {
        let items = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Three killed as car rams parked lorry on NH-48 near Chitradurga\n\
            kn 2026-11-30T03:00:00Z ನಿಂತಿದ್ದ ಲಾರಿಗೆ ಕಾರು ಗುದ್ದಿ ದಾವಣಗೆರೆ ಮೂಲದ ಮೂವರು ದುರ್ಮರಣ\n\
            en 2026-11-30T05:00:00Z Davangere family's trip ends in tragedy; 3 dead in highway crash",
        ));
        assert_eq!(groups(&items), [vec!["a", "b", "c"]]);
        // People from two places are two lots of people.
        let from_two = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Two Hubli students missing while swimming, search on\n\
            en 2026-11-30T05:00:00Z Two Bengaluru students missing while swimming, search on",
        ));
        assert!(groups(&from_two).is_empty());
        // Two places where it happened still disagree.
        let two = with_day(rows(
            "\
            en 2026-11-30T01:00:00Z Three killed as car rams parked lorry on NH-48 near Chitradurga\n\
            en 2026-11-30T05:00:00Z Three killed as car rams parked lorry on NH-48 near Davangere",
        ));
        assert!(groups(&two).is_empty());
    }

    #[test]
    fn a_destination_is_not_where_the_event_happened() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Fog at Kempegowda airport: 12 flights diverted to Chennai, Hyderabad\n\
            en 2026-11-30T02:00:00Z 12 Bengaluru-bound flights diverted due to fog",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn one_ministers_two_engagements_of_a_day_are_two_stories() {
        let items = rows(
            "\
            en 2026-11-30T04:00:00Z Health Minister Sharadamma Nayak reviews dengue spread in Udupi\n\
            kn 2026-11-30T04:30:00Z ಉಡುಪಿ: ಡೆಂಗ್ಯೂ ಹರಡುವಿಕೆ, ಆರೋಗ್ಯ ಸಚಿವೆ ಶಾರದಮ್ಮ ನಾಯಕ್ ಪರಿಶೀಲನೆ\n\
            en 2026-11-30T05:00:00Z Health Minister Sharadamma Nayak flags off 100 new ambulances\n\
            kn 2026-11-30T06:00:00Z 100 ಹೊಸ ಆಂಬುಲೆನ್ಸ್‌ಗಳಿಗೆ ಆರೋಗ್ಯ ಸಚಿವೆ ಶಾರದಮ್ಮ ನಾಯಕ್ ಚಾಲನೆ\n\
            en 2026-11-30T05:00:00Z 100 new ambulances for 108 service by January: Health Minister",
        );
        assert_eq!(groups(&items[..4]), [vec!["a", "b"], vec!["c", "d"]]);
        // Alone, a Kannada and an English headline with only the minister in common.
        assert!(groups(&[items[1], items[4]]).is_empty());
    }

    #[test]
    fn a_headline_that_says_its_event_recurs_is_not_the_earlier_event() {
        let items = rows(
            "\
            en 2026-11-29T01:00:00Z Hydroponic ganja seized at Bengaluru airport; Bangkok flyer held\n\
            en 2026-11-30T09:00:00Z Another hydroponic ganja haul at Bengaluru airport; Bangkok flyers held\n\
            en 2026-11-30T10:00:00Z Bengaluru airport: another hydroponic ganja haul from Bangkok",
        );
        assert_eq!(groups(&items), [vec!["b", "c"]]);
    }

    #[test]
    fn a_toll_that_grew_at_one_place_joins_across_the_languages() {
        let items = rows(
            "\
            en 2026-11-30T01:00:00Z Six killed as private bus overturns near Hassan\n\
            kn 2026-11-30T20:00:00Z ಹಾಸನ ಬಸ್ ದುರಂತ: ಮೃತರ ಸಂಖ್ಯೆ 8ಕ್ಕೆ ಏರಿಕೆ",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn what_a_headline_is_read_as_is_told() {
        let g = grouper();
        let h = h(
            "1",
            "o",
            "en",
            "Three killed as bus falls into gorge near Mangaluru",
            "2026-11-20T04:00:00Z",
        );
        let read = g.describe(&h);
        assert!(read.contains("places [mangaluru]"), "{read}");
        assert!(read.contains("counts [3[killed"), "{read}");
        assert!(read.contains("flags [found]"), "{read}");
    }

    #[test]
    fn an_age_is_no_count_of_the_event() {
        // The 68 is Parvathamma's age, not the toll the later headline says grew to three.
        let items = rows(
            "\
            en 2025-08-06T01:00:00Z Landslide buries house near Madikeri; Parvathamma, 68, and grandson killed\n\
            en 2025-08-06T15:00:00Z Madikeri landslide toll rises to three; house buried, grandson among dead",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn a_price_per_tonne_meets_the_same_price_written_without_the_tonne() {
        let items = rows(
            "\
            kn 2025-10-20T02:00:00Z ಟನ್ ಕಬ್ಬಿಗೆ ₹3,500 ದರಕ್ಕೆ ಆಗ್ರಹ: ಬೆಳಗಾವಿಯಲ್ಲಿ ರೈತರ ಹೆದ್ದಾರಿ ತಡೆ\n\
            kn 2025-10-20T05:00:00Z ಬೆಳಗಾವಿ: ಮೂರೂವರೆ ಸಾವಿರ ರೂಪಾಯಿ ದರಕ್ಕೆ ಪಟ್ಟು ಹಿಡಿದು ಕಬ್ಬು ಬೆಳೆಗಾರರ ಹೆದ್ದಾರಿ ತಡೆ",
        );
        assert_eq!(groups(&items), [vec!["a", "b"]]);
    }

    #[test]
    fn places_and_numbers_that_disagree_block_a_merge() {
        let items = [
            h(
                "a",
                "A",
                "en",
                "Heavy rain lashes Mangaluru, schools shut",
                "2026-11-30T01:00:00Z",
            ),
            h(
                "b",
                "B",
                "en",
                "Heavy rain lashes Mumbai, schools shut",
                "2026-11-30T02:00:00Z",
            ),
            h(
                "c",
                "C",
                "en",
                "Three killed as bus overturns near Hassan",
                "2026-11-30T01:00:00Z",
            ),
            h(
                "d",
                "D",
                "en",
                "Five killed as bus overturns near Hassan",
                "2026-11-30T00:00:00Z",
            ),
        ];
        assert!(groups(&items).is_empty(), "{:?}", groups(&items));
    }

    #[test]
    fn opinion_never_joins_and_the_window_bounds_a_story() {
        let mut items = vec![
            h(
                "a",
                "A",
                "en",
                "Mandya farmers stage protest over delayed sugarcane dues",
                "2026-11-27T00:00:00Z",
            ),
            h(
                "b",
                "B",
                "en",
                "Mandya farmers stage protest over delayed sugarcane dues",
                "2026-11-30T00:00:00Z",
            ),
            h(
                "c",
                "C",
                "en",
                "Mandya farmers stage protest over delayed sugarcane dues",
                "2026-11-30T01:00:00Z",
            ),
        ];
        assert_eq!(
            groups(&items),
            [vec!["b", "c"]],
            "three days apart: not one story"
        );
        items[2].opinion = true;
        assert!(groups(&items).is_empty());
    }

    #[test]
    fn the_same_headlines_in_any_order_give_the_same_stories() {
        let items = [
            h(
                "a",
                "A",
                "en",
                "KSRTC to run 300 electric buses on intercity routes",
                "2026-11-30T01:00:00Z",
            ),
            h(
                "b",
                "B",
                "en",
                "KSRTC will run 300 electric buses on intercity routes from January",
                "2026-11-30T02:00:00Z",
            ),
            h(
                "c",
                "C",
                "kn",
                "ಕೆಎಸ್‌ಆರ್‌ಟಿಸಿ: ಅಂತರ ನಗರ ಮಾರ್ಗಗಳಲ್ಲಿ 300 ಎಲೆಕ್ಟ್ರಿಕ್ ಬಸ್",
                "2026-11-30T03:00:00Z",
            ),
        ];
        let g = groups(&items);
        assert_eq!(g, [vec!["a", "b", "c"]]);
        let mut rev = items.to_vec();
        rev.reverse();
        assert_eq!(groups(&rev), g);
    }

    /// Unrelated headlines of the day, so that rarity weighs features as a real window does.
    fn with_day<'a>(mut items: Vec<Headline<'a>>) -> Vec<Headline<'a>> {
        const DAY: [&str; 8] = [
            "Kambala organisers seek clarity on animal-welfare rules",
            "Dharwad pedha makers report brisk festive sales",
            "Ranji Trophy: Karnataka name squad for Bihar game",
            "Gadag library gets a new reading room for children",
            "Kolar tomato growers see prices recover at the APMC",
            "Heritage walk in Hampi draws foreign tourists",
            "Chitradurga fort to get night lighting",
            "Bidar airport flights to resume next month",
        ];
        const IDS: [&str; 8] = ["z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7"];
        const AT: [&str; 8] = [
            "2026-11-30T00:30:00Z",
            "2026-11-30T01:30:00Z",
            "2026-11-30T02:30:00Z",
            "2026-11-30T03:30:00Z",
            "2026-11-30T04:30:00Z",
            "2026-11-30T05:30:00Z",
            "2026-11-30T06:30:00Z",
            "2026-11-30T07:30:00Z",
        ];
        for k in 0..DAY.len() {
            items.push(h(IDS[k], IDS[k], "en", DAY[k], AT[k]));
        }
        items
    }

    fn groups_with(th: Thresholds, items: &[Headline]) -> Vec<Vec<usize>> {
        let mut g = grouper();
        g.thresholds = th;
        g.group(items)
    }

    #[test]
    fn agreeing_places_let_a_weaker_score_merge_and_other_events_there_stay_apart() {
        let fire = "Massive fire guts timber depot at Surathkal";
        let items = with_day(vec![
            h("a", "A", "en", fire, "2026-11-30T01:00:00Z"),
            h(
                "b",
                "B",
                "en",
                "Surathkal blaze doused after nine hours of firefighting",
                "2026-11-30T09:00:00Z",
            ),
        ]);
        assert_eq!(groups_with(Thresholds::default(), &items), [vec![0, 1]]);
        // Without the lower bar for agreeing places the follow-up stays apart.
        let unplaced = Thresholds {
            placed: Thresholds::default().within,
            ..Thresholds::default()
        };
        assert!(groups_with(unplaced, &items).is_empty());
        // Another event in the same place is not the fire's story.
        let other = with_day(vec![
            h("a", "A", "en", fire, "2026-11-30T01:00:00Z"),
            h(
                "b",
                "B",
                "en",
                "Surathkal traffic police hold drive against drunken driving",
                "2026-11-30T09:00:00Z",
            ),
        ]);
        assert!(groups_with(Thresholds::default(), &other).is_empty());
    }

    #[test]
    fn coverage_within_the_same_hours_needs_less_agreement() {
        let pair = |later: &'static str| {
            with_day(vec![
                h(
                    "a",
                    "A",
                    "en",
                    "Power cut hits Whitefield tech parks through the afternoon",
                    "2026-11-30T01:00:00Z",
                ),
                h(
                    "b",
                    "B",
                    "en",
                    "Outage in Whitefield: offices and apartments without light till late evening",
                    later,
                ),
            ])
        };
        let th = Thresholds::default();
        assert_eq!(groups_with(th, &pair("2026-11-30T02:00:00Z")), [vec![0, 1]]);
        assert!(groups_with(th, &pair("2026-11-30T11:00:00Z")).is_empty());
        let far = Thresholds { near: 1.0, ..th };
        assert!(groups_with(far, &pair("2026-11-30T02:00:00Z")).is_empty());
    }

    #[test]
    fn ranking_is_by_breadth_then_recency() {
        let m = |id: &str, outlet: &str, lang: &str, t: &str| Member {
            id: id.into(),
            outlet: outlet.into(),
            lang: lang.into(),
            headline: id.into(),
            link: format!("https://x.example/{id}"),
            published: at(t),
        };
        let wide = Story::of(vec![
            m("a", "A", "en", "2026-11-30T01:00:00Z"),
            m("b", "B", "kn", "2026-11-30T01:00:00Z"),
        ]);
        let narrow = Story::of(vec![
            m("c", "A", "en", "2026-11-30T05:00:00Z"),
            m("d", "B", "en", "2026-11-30T05:00:00Z"),
        ]);
        let same = Story::of(vec![
            m("e", "A", "en", "2026-11-30T05:00:00Z"),
            m("f", "A", "en", "2026-11-30T06:00:00Z"),
        ]);
        let mut v = vec![same.clone(), narrow.clone(), wide.clone()];
        v.sort_by(rank);
        assert_eq!(v, [wide, narrow, same]);
        assert_eq!(v[0].story, story_id("a"));
    }
}
