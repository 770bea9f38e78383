//! The bilingual glossary (`PIPELINE/glossary.csv`): common news words, places and people
//! in English and Kannada, kept by hand so that anyone can read and extend it.
//!
//! Each row is `kind,concept,en,kn,in`: `kind` is `term` (rain, flood, strike, High Court),
//! `place` or `person` (the gates compare those: two headlines naming different places, or
//! different people, are not one story); `concept` is a short name of the row's own
//! (lower case, letters, digits and `-`); `en` and `kn` are the forms in each language,
//! separated by `|`, each one or more words; a trailing `*` lets a word match as the start
//! of a longer one (Kannada's endings: `ಮಳೆ*` matches ಮಳೆಯಿಂದ; English plurals: `flood*`);
//! `in`, for a place, is the place of an earlier line it lies in (`gubbi` in `tumakuru`),
//! or several separated by `|` for a name towns of two districts share (`siddapur` in
//! `uttara-kannada|kodagu`), so that a headline naming the district and one naming the
//! town are not told apart, while two towns of one district still are.
//! Lines starting with `#` are comments. A bad line names file and line, and publish
//! writes nothing.

use anyhow::{Result, bail};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The glossary's file name in the pipeline directory.
pub const FILE: &str = "glossary.csv";

/// What a concept is: the gates compare places and people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Term,
    Place,
    Person,
    /// A river runs through many places, so it agrees with any of them; two headlines
    /// naming different rivers are never one story.
    River,
}

#[derive(Debug, Deserialize)]
struct Line {
    kind: String,
    concept: String,
    en: String,
    kn: String,
    /// For a place: the place it lies in (a concept of an earlier line), if any.
    #[serde(rename = "in")]
    within: String,
}

/// One word of a form: the whole word, or its start.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    start: bool,
    /// A Kannada place's name that ends in `ಿ` (`ಉಡುಪಿ*`, not the `ಕೊಡಗಿ*` of `ಕೊಡಗು`): it
    /// takes `ಯ` before its endings (`ಉಡುಪಿಯಲ್ಲಿ`), never `ನ`, so `ಉಡುಪಿನಲ್ಲಿ` is "in the
    /// garment" (`ಉಡುಪು`), not "in Udupi".
    i_name: bool,
}

impl Word {
    fn matches(&self, token: &str) -> bool {
        if self.start {
            token.starts_with(self.text.as_str())
                && !(self.i_name && token[self.text.len()..].starts_with('ನ'))
        } else {
            token == self.text
        }
    }
}

/// A form of a concept: its words, in order.
#[derive(Debug, Clone)]
struct Form {
    words: Vec<Word>,
    concept: u32,
}

/// The glossary, ready to match a headline's words against.
#[derive(Debug, Clone, Default)]
pub struct Glossary {
    /// Concept names, and each one's kind, by number.
    concepts: Vec<(String, Kind)>,
    /// The place each place lies in, where the glossary says.
    /// The places each place lies in (none for a district or a term).
    parent: Vec<Vec<u32>>,
    /// Forms by their first word's text: a whole word is looked up as it is, a start by
    /// each start of the token.
    whole: HashMap<String, Vec<Form>>,
    starts: HashMap<String, Vec<Form>>,
}

impl Glossary {
    /// Reads `PIPELINE/glossary.csv`; no file is an empty glossary.
    pub fn load(pipeline: &Path) -> Result<Glossary> {
        let path = pipeline.join(FILE);
        if !path.exists() {
            return Ok(Glossary::default());
        }
        Self::read(&path)
    }

    /// Reads a glossary file; a bad line names file and line.
    pub fn read(path: &Path) -> Result<Glossary> {
        let rows: Vec<(u64, Line)> = crate::lists::read_rows(path)?;
        let mut g = Glossary::default();
        let mut seen: BTreeMap<String, u64> = BTreeMap::new();
        for (line, row) in rows {
            let at = || format!("{}:{line}", path.display());
            let kind = match row.kind.as_str() {
                "term" => Kind::Term,
                "place" => Kind::Place,
                "person" => Kind::Person,
                "river" => Kind::River,
                k => bail!(
                    "{}: kind {k:?} is not one of term, place, person, river",
                    at()
                ),
            };
            let c = row.concept.as_str();
            if c.is_empty()
                || !c
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
            {
                bail!(
                    "{}: concept {c:?} must be lower-case letters, digits and '-'",
                    at()
                );
            }
            if let Some(first) = seen.insert(c.to_string(), line) {
                bail!("{}: concept {c:?} is already on line {first}", at());
            }
            let id = g.concepts.len() as u32;
            g.concepts.push((c.to_string(), kind));
            // `in` names the places (of earlier lines) it lies in, separated by `|`: more
            // than one for a name that towns of two districts share (Siddapur).
            let mut parent = Vec::new();
            for w in row
                .within
                .split('|')
                .map(str::trim)
                .filter(|w| !w.is_empty())
            {
                match g.concepts.iter().position(|(n, _)| n == w) {
                    Some(p) if kind == Kind::Place && g.concepts[p].1 == Kind::Place => {
                        parent.push(p as u32)
                    }
                    _ => bail!(
                        "{}: in {w:?} must name a place of an earlier line, and only a place lies in one",
                        at()
                    ),
                }
            }
            g.parent.push(parent);
            let mut forms = 0;
            for (lang, text) in [("en", &row.en), ("kn", &row.kn)] {
                for form in text.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                    let mut words = Vec::new();
                    for w in super::words(form) {
                        let (text, start) = match w.strip_suffix('*') {
                            Some(t) => (t.to_string(), true),
                            None => (w.clone(), false),
                        };
                        if text.is_empty() || text.contains('*') {
                            bail!(
                                "{}: {lang} form \"{form}\": a '*' ends a word, after at least one letter",
                                at()
                            );
                        }
                        let kannada = text
                            .chars()
                            .any(|ch| ('\u{0c80}'..='\u{0cff}').contains(&ch));
                        if (lang == "kn") != kannada {
                            bail!(
                                "{}: {lang} form \"{form}\" is not in {}",
                                at(),
                                if lang == "kn" {
                                    "Kannada script"
                                } else {
                                    "Latin letters"
                                }
                            );
                        }
                        let i_name = kind == Kind::Place
                            && start
                            && text.strip_suffix('ಿ').is_some_and(|stem| {
                                !row.kn.split('|').flat_map(super::words).any(|f| {
                                    f.trim_end_matches('*').strip_suffix('ು') == Some(stem)
                                })
                            });
                        words.push(Word {
                            text,
                            start,
                            i_name,
                        });
                    }
                    if words.is_empty() {
                        continue;
                    }
                    let first = words[0].clone();
                    let f = Form { words, concept: id };
                    let map = if first.start {
                        &mut g.starts
                    } else {
                        &mut g.whole
                    };
                    map.entry(first.text).or_default().push(f);
                    forms += 1;
                }
            }
            if forms == 0 {
                bail!("{}: concept {c:?} has no form in either language", at());
            }
        }
        Ok(g)
    }

    pub fn len(&self) -> usize {
        self.concepts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.concepts.is_empty()
    }

    /// A concept's name and kind.
    pub fn concept(&self, id: u32) -> (&str, Kind) {
        let (n, k) = &self.concepts[id as usize];
        (n, *k)
    }

    /// A concept by its name.
    pub fn named(&self, name: &str) -> Option<u32> {
        self.concepts
            .iter()
            .position(|(n, _)| n == name)
            .map(|p| p as u32)
    }

    /// Whether place `a` is place `b` or lies in it (`mangaluru` in `dakshina-kannada`),
    /// through any of the places it lies in. Places only lie in places of earlier lines, so
    /// the walk ends.
    pub fn lies_in(&self, a: u32, b: u32) -> bool {
        a == b
            || self
                .parent
                .get(a as usize)
                .is_some_and(|ps| ps.iter().any(|&p| p < a && self.lies_in(p, b)))
    }

    /// The concepts a headline's words name (sorted, each once), and which of the words
    /// they used up.
    pub fn find(&self, words: &[String]) -> (Vec<u32>, Vec<bool>) {
        Glossary::found(&self.matches(words), words.len())
    }

    /// [`Glossary::find`] from the [`Glossary::matches`] of `n` words.
    pub fn found(matches: &[(usize, usize, u32)], n: usize) -> (Vec<u32>, Vec<bool>) {
        let mut found = Vec::new();
        let mut used = vec![false; n];
        for &(at, len, concept) in matches {
            found.push(concept);
            used[at..at + len].iter_mut().for_each(|u| *u = true);
        }
        found.sort_unstable();
        found.dedup();
        (found, used)
    }

    /// Every match of a form in the words: where it starts, how many words, which concept.
    pub fn matches(&self, words: &[String]) -> Vec<(usize, usize, u32)> {
        let mut out = Vec::new();
        for (i, tok) in words.iter().enumerate() {
            let mut cands: Vec<&Form> = Vec::new();
            if let Some(fs) = self.whole.get(tok.as_str()) {
                cands.extend(fs);
            }
            for (end, _) in tok.char_indices().skip(1).chain([(tok.len(), ' ')]) {
                if let Some(fs) = self.starts.get(&tok[..end]) {
                    cands.extend(fs);
                }
            }
            for f in cands {
                let n = f.words.len();
                if i + n <= words.len()
                    && f.words.iter().zip(&words[i..]).all(|(w, t)| w.matches(t))
                {
                    out.push((i, n, f.concept));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("huduku-glossary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let p = dir.join(format!("g{n}.csv"));
        std::fs::write(&p, text).unwrap();
        p
    }

    /// The concepts the glossary finds in a text, by name.
    fn names(g: &Glossary, text: &str) -> Vec<String> {
        let (ids, _) = g.find(&super::super::words(text));
        ids.iter().map(|i| g.concept(*i).0.to_string()).collect()
    }

    #[test]
    fn forms_match_whole_words_starts_and_phrases() {
        let p = write(
            "kind,concept,en,kn,in\n# a comment\nterm,rain,rain*|downpour*,ಮಳೆ*,\nterm,high-court,high court|hc,ಹೈಕೋರ್ಟ್*|ಹೈ ಕೋರ್ಟ್*,\nplace,dk,dakshina kannada,ದಕ್ಷಿಣ ಕನ್ನಡ*,\nplace,mysuru,mysuru|mysore,ಮೈಸೂರ*,\nplace,mangaluru,mangaluru,ಮಂಗಳೂರ*,dk\n",
        );
        let g = Glossary::read(&p).unwrap();
        let names = |ws: &str| names(&g, ws);
        assert_eq!(names("Heavy rains lash Mysore"), ["rain", "mysuru"]);
        assert_eq!(names("ಮೈಸೂರಿನಲ್ಲಿ ಭಾರಿ ಮಳೆಯಿಂದ"), ["rain", "mysuru"]);
        assert_eq!(names("High Court stays order"), ["high-court"]);
        assert_eq!(names("ಹೈಕೋರ್ಟ್‌ ತಡೆ"), ["high-court"]);
        assert_eq!(names("Court of appeal; highway"), Vec::<String>::new());
        let (dk, m, my) = (
            g.named("dk").unwrap(),
            g.named("mangaluru").unwrap(),
            g.named("mysuru").unwrap(),
        );
        assert!(g.lies_in(m, dk) && g.lies_in(m, m) && !g.lies_in(dk, m) && !g.lies_in(my, dk));
    }

    #[test]
    fn a_kannada_name_ending_in_i_takes_ya_and_a_u_stem_takes_na() {
        let p = write(
            "kind,concept,en,kn,in\nplace,udupi,udupi,ಉಡುಪಿ*,\nplace,kodagu,kodagu,ಕೊಡಗು*|ಕೊಡಗಿ*,\nterm,gold,gold,ಚಿನ್ನ*,\n",
        );
        let g = Glossary::read(&p).unwrap();
        let names = |ws: &str| names(&g, ws);
        assert_eq!(names("ಉಡುಪಿಯಲ್ಲಿ ಚಿನ್ನ ವಶ"), ["udupi", "gold"]);
        assert_eq!(names("ಪ್ರಯಾಣಿಕನ ಒಳ ಉಡುಪಿನಲ್ಲಿ ಚಿನ್ನ"), ["gold"]);
        assert_eq!(names("ಕೊಡಗಿನಲ್ಲಿ ಮಳೆ"), ["kodagu"]);
    }

    #[test]
    fn a_name_two_districts_share_lies_in_both() {
        let p = write(
            "kind,concept,en,kn,in\nplace,uk,uttara kannada,ಉತ್ತರ ಕನ್ನಡ*,\nplace,kodagu,kodagu,ಕೊಡಗು*,\nplace,mysuru,mysuru,ಮೈಸೂರ*,\nplace,siddapur,siddapur,ಸಿದ್ದಾಪುರ*,uk|kodagu\n",
        );
        let g = Glossary::read(&p).unwrap();
        let [uk, kodagu, mysuru, siddapur] =
            ["uk", "kodagu", "mysuru", "siddapur"].map(|n| g.named(n).unwrap());
        assert!(g.lies_in(siddapur, uk) && g.lies_in(siddapur, kodagu));
        assert!(!g.lies_in(siddapur, mysuru) && !g.lies_in(kodagu, siddapur));
    }

    #[test]
    fn a_bad_line_names_file_and_line() {
        for (text, want) in [
            (
                "kind,concept,en,kn,in\nterm,rain,rain,ಮಳೆ,\nplce,x,x,ಎ,\n",
                ":3: kind \"plce\"",
            ),
            (
                "kind,concept,en,kn,in\n# c\nterm,Rain,rain,ಮಳೆ,\n",
                ":3: concept \"Rain\"",
            ),
            (
                "kind,concept,en,kn,in\nterm,rain,ಮಳೆ,ಮಳೆ,\n",
                ":2: en form \"ಮಳೆ\" is not in Latin",
            ),
            (
                "kind,concept,en,kn,in\nterm,rain,rain,ಮಳೆ,\nterm,rain,r,ಮ,\n",
                ":3: concept \"rain\" is already on line 2",
            ),
            (
                "kind,concept,en,kn,in\nterm,rain,r*ain,,\n",
                ":2: en form \"r*ain\"",
            ),
            (
                "kind,concept,en,kn,in\nterm,rain,,,\n",
                ":2: concept \"rain\" has no form",
            ),
            (
                "kind,concept,en,kn,in\nplace,a,a,ಅ,b\n",
                ":2: in \"b\" must name a place",
            ),
            (
                "kind,concept,en,kn,in\nplace,a,a,ಅ,\nplace,c,c,ಚ,a|b\n",
                ":3: in \"b\" must name a place",
            ),
            ("kind,concept,en,kn,in\nterm,rain,rain\n", ":2:"),
        ] {
            let p = write(text);
            let e = format!("{:#}", Glossary::read(&p).unwrap_err());
            assert!(e.contains(&format!("{}{want}", p.display())), "{e}");
        }
    }
}
