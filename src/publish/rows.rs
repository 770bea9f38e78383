//! One day's public headlines, held compactly: publish keeps at most one day's list in
//! memory at a time, so this is the one structure that grows with a crowded day.
//!
//! A [`Row`] is a public headline ([`Published`]) with its repeated strings (outlet, source,
//! language, topic) interned in a [`Pool`] shared by the run, and its own strings (id,
//! headline, link) in one allocation. [`Row::public`] gives it back as the record
//! `published.jsonl` holds, field for field, so the bytes are those of [`Published`].

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::BufRead;
use std::path::Path;

use crate::records::{Classified, DateSource, Published};

/// An interned string of the run's [`Pool`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sym(u32);

/// The run's repeated strings (outlets, sources, languages, topics), each stored once.
#[derive(Debug, Default)]
pub struct Pool {
    names: Vec<Box<str>>,
    index: BTreeMap<Box<str>, Sym>,
}

impl Pool {
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(sym) = self.index.get(s) {
            return *sym;
        }
        let sym = Sym(self.names.len() as u32);
        self.names.push(s.into());
        self.index.insert(s.into(), sym);
        sym
    }
    pub fn get(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }
}

/// A public headline, compactly.
#[derive(Debug, Clone)]
pub struct Row {
    pub published: DateTime<Utc>,
    pub outlet: Sym,
    pub source: Sym,
    pub lang: Sym,
    pub topic: Sym,
    pub date_source: DateSource,
    pub opinion: bool,
    /// Id, headline and link, end to end.
    text: Box<str>,
    id_end: u32,
    headline_end: u32,
}

impl Row {
    pub fn new(p: &Published, pool: &mut Pool) -> Row {
        let mut text = String::with_capacity(p.id.len() + p.headline.len() + p.link.len());
        text.push_str(&p.id);
        text.push_str(&p.headline);
        text.push_str(&p.link);
        Row {
            published: p.published,
            outlet: pool.intern(&p.outlet),
            source: pool.intern(&p.source),
            lang: pool.intern(&p.lang),
            topic: pool.intern(&p.topic),
            date_source: p.date_source,
            opinion: p.opinion,
            text: text.into_boxed_str(),
            id_end: p.id.len() as u32,
            headline_end: (p.id.len() + p.headline.len()) as u32,
        }
    }
    pub fn id(&self) -> &str {
        &self.text[..self.id_end as usize]
    }
    pub fn headline(&self) -> &str {
        &self.text[self.id_end as usize..self.headline_end as usize]
    }
    pub fn link(&self) -> &str {
        &self.text[self.headline_end as usize..]
    }
    /// The record as `published.jsonl` and the open data have it.
    pub fn public<'a>(&'a self, pool: &'a Pool) -> PublicRef<'a> {
        PublicRef {
            id: self.id(),
            outlet: pool.get(self.outlet),
            source: pool.get(self.source),
            lang: pool.get(self.lang),
            headline: self.headline(),
            link: self.link(),
            published: self.published,
            date_source: self.date_source,
            topic: pool.get(self.topic),
            opinion: self.opinion,
        }
    }
}

/// [`Published`] by reference: the same fields in the same order, so the same JSON.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PublicRef<'a> {
    pub id: &'a str,
    pub outlet: &'a str,
    pub source: &'a str,
    pub lang: &'a str,
    pub headline: &'a str,
    pub link: &'a str,
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
    pub date_source: DateSource,
    pub topic: &'a str,
    pub opinion: bool,
}

/// A set of headline ids: the usual 16 lowercase hex digits as a number, anything else as
/// text, so no two ids are ever taken for one.
#[derive(Debug, Default)]
pub struct Ids {
    hex: HashSet<u64>,
    other: BTreeSet<Box<str>>,
}

/// The number an id of 16 lowercase hex digits stands for.
pub fn hex_id(id: &str) -> Option<u64> {
    (id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .then(|| u64::from_str_radix(id, 16).ok())
        .flatten()
}

impl Ids {
    /// Adds an id; false if it was there already.
    pub fn insert(&mut self, id: &str) -> bool {
        match hex_id(id) {
            Some(n) => self.hex.insert(n),
            None => self.other.insert(id.into()),
        }
    }
}

/// The ids of the days already counted, newest first: a sorted list of numbers (eight bytes
/// a headline) and the rare id that is not 16 hex digits.
#[derive(Debug, Default)]
pub struct Seen {
    hex: Vec<u64>,
    other: BTreeSet<Box<str>>,
}

impl Seen {
    pub fn contains(&self, id: &str) -> bool {
        match hex_id(id) {
            Some(n) => self.hex.binary_search(&n).is_ok(),
            None => self.other.contains(id),
        }
    }
    /// Adds a day's ids.
    pub fn extend<'a>(&mut self, ids: impl Iterator<Item = &'a str>) {
        let mut add: Vec<u64> = Vec::new();
        for id in ids {
            match hex_id(id) {
                Some(n) => add.push(n),
                None => {
                    self.other.insert(id.into());
                }
            }
        }
        add.sort_unstable();
        let old = std::mem::take(&mut self.hex);
        let mut merged = Vec::with_capacity(old.len() + add.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < add.len() {
            let next = if j == add.len() || (i < old.len() && old[i] <= add[j]) {
                i += 1;
                old[i - 1]
            } else {
                j += 1;
                add[j - 1]
            };
            if merged.last() != Some(&next) {
                merged.push(next);
            }
        }
        self.hex = merged;
    }
}

/// Sorts a day's list the way `published.jsonl` has it: newest first, then by link (and by
/// id, which the list is unique in: the order is total, so an unstable sort gives the
/// same list without the stable sort's buffer).
pub fn sort(rows: &mut [Row]) {
    rows.sort_unstable_by(|a, b| {
        b.published
            .cmp(&a.published)
            .then_with(|| a.link().cmp(b.link()))
            .then_with(|| a.id().cmp(b.id()))
    });
}

/// Reads JSON lines one at a time, calling `each` with every record.
pub fn each_jsonl<T: serde::de::DeserializeOwned>(
    path: &Path,
    mut each: impl FnMut(T) -> Result<()>,
) -> Result<()> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let mut r = std::io::BufReader::with_capacity(1 << 16, f);
    let mut line = String::new();
    let mut n = 0;
    loop {
        line.clear();
        n += 1;
        let read = r
            .read_line(&mut line)
            .with_context(|| format!("{}:{n}: reading", path.display()))?;
        if read == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let rec = serde_json::from_str(&line)
            .with_context(|| format!("{}:{n}: not a valid record", path.display()))?;
        each(rec)?;
    }
}

/// The public record of a classified headline: no author, no summary, nothing else, and
/// its text [`plain`].
pub fn public(c: Classified) -> Published {
    Published {
        id: c.id,
        outlet: plain(c.outlet),
        source: c.source,
        lang: plain(c.lang),
        headline: plain(c.headline),
        link: c.link,
        published: c.published,
        date_source: c.date_source,
        topic: plain(c.topic),
        opinion: c.opinion,
    }
}

/// Whether a character is one [`plain`] takes out: a control character (C0, DEL, C1) or
/// a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which
/// would reorder the text around it.
pub fn unwanted(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Publisher text as pages and the open data show it (extract strips the same from new
/// headlines; this covers what was kept before): a tab or line break becomes a space, other
/// control characters and bidirectional controls go. Joiners (U+200C, U+200D), which
/// Kannada spelling needs, stay.
pub fn plain(s: String) -> String {
    if !s.chars().any(unwanted) {
        return s;
    }
    s.chars()
        .filter_map(|c| match c {
            '\t' | '\n' | '\r' => Some(' '),
            c if unwanted(c) => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_gives_back_the_published_record_byte_for_byte() {
        let p = Published {
            id: "0123456789abcdef".into(),
            outlet: "ನಮ್ಮ ಪತ್ರಿಕೆ".into(),
            source: "https://kn.example/rss.xml".into(),
            lang: "kn".into(),
            headline: "ರಣಜಿ \"ಟ್ರೋಫಿ\"".into(),
            link: "https://kn.example/a".into(),
            published: crate::time::parse_now("2026-11-30T04:00:00Z").unwrap(),
            date_source: DateSource::FirstSeen,
            topic: "sport".into(),
            opinion: true,
        };
        let mut pool = Pool::default();
        let row = Row::new(&p, &mut pool);
        assert_eq!(
            serde_json::to_string(&row.public(&pool)).unwrap(),
            serde_json::to_string(&p).unwrap()
        );
    }

    #[test]
    fn plain_text_keeps_joiners_and_drops_controls() {
        let s = "a\tb\nc\r\0d\u{1b}[31me\u{7}\u{85}\u{9b}f\u{202e}g\u{2066}h\u{2069}\u{202a}i";
        assert_eq!(plain(s.into()), "a b c d[31mefghi");
        let kn = "ಕನ್\u{200d}ನಡ ಸಿ\u{200c}ರಿ";
        assert_eq!(plain(kn.into()), kn);
    }

    #[test]
    fn ids_that_are_not_hex_are_kept_apart() {
        let mut ids = Ids::default();
        assert!(ids.insert("0123456789abcdef"));
        assert!(!ids.insert("0123456789abcdef"));
        assert!(ids.insert("0123456789ABCDEF"), "not the same id");
        assert!(ids.insert("x"));
        let mut seen = Seen::default();
        seen.extend(["00000000000000ff", "x", "0000000000000001"].into_iter());
        seen.extend(["0000000000000002", "0000000000000001"].into_iter());
        assert_eq!(seen.hex, [1, 2, 255]);
        assert!(seen.contains("x") && seen.contains("00000000000000ff"));
        assert!(!seen.contains("00000000000000FF") && !seen.contains("y"));
    }
}
