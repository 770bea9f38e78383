//! The publisher's own filing, read with a hand-kept table: `PIPELINE/topic-map.csv`.
//!
//! An item arrives filed by its publisher in up to three ways: the categories its feed gives
//! (`<category>`, in the feed's order), the section of the source it came from (`section` in
//! `sources.csv`), and the folders of its link's path (`/sports/cricket/…`). Each is looked
//! up, in that order, in the table:
//!
//! ```text
//! filed,outlet,topic
//! Sports,,sport                 # a category or a source's section, any outlet
//! /sports/,,sport               # a folder of a link's path, any outlet
//! ವಿಶೇಷ,,-                      # says nothing about the topic (read no further into it)
//! Karnataka,Deccan Herald,-     # one outlet only: stands before the line for every outlet
//! ```
//!
//! The first that names a topic decides. Strings are compared lower-cased, with zero-width
//! joiners dropped and runs of white space made one space (as the lexicons compare words);
//! path folders are compared percent-decoded. A `-` row records that a string was looked
//! at and says nothing (a place, "Top Stories"), so the lexicons do not guess from it either.

use anyhow::{Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

use super::TOPICS;

/// How an item was filed by its publisher, and what the table made of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Filed {
    /// The topic the table gives.
    pub topic: &'static str,
    /// The string that decided, as the table holds it (`Sports`, `/sports/`).
    pub filed: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Says {
    Topic(&'static str),
    Nothing,
}

/// The table, by (outlet or "", normalised string).
#[derive(Debug, Clone, Default)]
pub struct Filings {
    rows: BTreeMap<(String, String), (Says, String)>,
}

#[derive(Deserialize)]
struct Row {
    filed: String,
    #[serde(default)]
    outlet: String,
    topic: String,
}

/// A category or section compared as the table compares it.
pub fn normalise(s: &str) -> String {
    s.to_lowercase()
        .replace(['\u{200c}', '\u{200d}'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The folders of a link's path, percent-decoded and normalised, outermost first (the last
/// part, the page itself, is not a folder).
pub fn folders(link: &str) -> Vec<String> {
    let Ok(url) = url::Url::parse(link) else {
        return Vec::new();
    };
    let Some(parts) = url.path_segments() else {
        return Vec::new();
    };
    let parts: Vec<&str> = parts.collect();
    let n = parts.len().saturating_sub(1);
    parts[..n]
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            let decoded = percent_encoding::percent_decode_str(p).decode_utf8_lossy();
            format!("/{}/", normalise(&decoded))
        })
        .collect()
}

impl Filings {
    /// Reads the table; a missing file is an empty table. A bad line, an unknown topic or a
    /// string listed twice for one outlet names file and line.
    pub fn load(path: &Path) -> Result<Filings> {
        if !path.exists() {
            return Ok(Filings::default());
        }
        let mut rows = BTreeMap::new();
        let mut first_line: BTreeMap<(String, String), u64> = BTreeMap::new();
        for (line, row) in crate::lists::read_rows::<Row>(path)? {
            let at = format!("{}:{line}", path.display());
            let says = match row.topic.as_str() {
                "-" => Says::Nothing,
                t => match TOPICS.iter().find(|x| **x == t) {
                    Some(t) => Says::Topic(t),
                    None => bail!(
                        "{at}: topic {t:?} is not in the taxonomy; write one of {} (or - for a string that says nothing about the topic)",
                        TOPICS.join(", ")
                    ),
                },
            };
            let filed = row.filed.trim();
            if filed.is_empty() {
                bail!("{at}: an empty `filed`");
            }
            let key = if filed.starts_with('/') {
                let inner = filed.trim_matches('/');
                if inner.is_empty() || inner.contains('/') || !filed.ends_with('/') {
                    bail!("{at}: {filed:?}: a path is one folder between slashes, like /sports/");
                }
                format!("/{}/", normalise(inner))
            } else {
                normalise(filed)
            };
            let k = (row.outlet.trim().to_string(), key);
            if let Some(before) = first_line.get(&k) {
                bail!(
                    "{at}: {filed:?} is already in the table at line {before}{}",
                    if k.0.is_empty() {
                        String::new()
                    } else {
                        format!(" for {}", k.0)
                    }
                );
            }
            first_line.insert(k.clone(), line);
            rows.insert(k, (says, filed.to_string()));
        }
        Ok(Filings { rows })
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn says(&self, outlet: &str, key: &str) -> Option<&(Says, String)> {
        self.rows
            .get(&(outlet.to_string(), key.to_string()))
            .or_else(|| self.rows.get(&(String::new(), key.to_string())))
    }

    /// The topic the publisher's filing gives, if the table knows one: the categories in
    /// order, then the source's section, then the link's folders.
    pub fn topic_of(
        &self,
        outlet: &str,
        categories: &[String],
        section: Option<&str>,
        link: &str,
    ) -> Option<Filed> {
        let strings = categories
            .iter()
            .map(|c| normalise(c))
            .chain(section.map(normalise))
            .chain(folders(link));
        for key in strings {
            if let Some((Says::Topic(t), filed)) = self.says(outlet, &key) {
                return Some(Filed {
                    topic: t,
                    filed: filed.clone(),
                });
            }
        }
        None
    }

    /// Whether the table says a category says nothing about the topic (`-`), so the
    /// lexicons should not read it either.
    pub fn says_nothing(&self, outlet: &str, category: &str) -> bool {
        matches!(
            self.says(outlet, &normalise(category)),
            Some((Says::Nothing, _))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Result<Filings> {
        let dir = std::env::temp_dir().join(format!("huduku-filing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!(
            "map-{}.csv",
            crate::store::sha256_hex(text.as_bytes())
        ));
        std::fs::write(&path, text).unwrap();
        let t = Filings::load(&path);
        std::fs::remove_file(&path).unwrap();
        t
    }

    #[test]
    fn categories_then_section_then_folders_and_outlet_rows_first() {
        let t = table(
            "filed,outlet,topic\n# a comment\nSports,,sport\nಕ್ರೀಡೆ,,sport\nBengaluru,,-\n/crime/,,crime\nKarnataka,,politics\nKarnataka,Metro Byte,-\nಜಿಎಸ್ಟಿ,,business\n",
        )
        .unwrap();
        let cats = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let got = t.topic_of(
            "A",
            &cats(&["Bengaluru", "SPORTS"]),
            None,
            "https://a.example/x",
        );
        assert_eq!(got.unwrap().topic, "sport");
        assert_eq!(
            t.topic_of(
                "A",
                &[],
                Some("karnataka"),
                "https://a.example/crime/x.html"
            )
            .unwrap()
            .topic,
            "politics"
        );
        assert_eq!(
            t.topic_of(
                "Metro Byte",
                &[],
                Some("karnataka"),
                "https://a.example/crime/x.html"
            )
            .unwrap()
            .topic,
            "crime",
            "the outlet's own line says nothing; the folder decides"
        );
        assert!(
            t.topic_of("A", &[], None, "https://a.example/crime")
                .is_none(),
            "a page, not a folder"
        );
        assert_eq!(
            t.topic_of("A", &cats(&["ಜಿಎಸ್‌ಟಿ"]), None, "").unwrap().topic,
            "business",
            "joiners dropped"
        );
        assert!(t.says_nothing("A", " bengaluru "));
        assert!(!t.says_nothing("A", "Sports"));
    }

    #[test]
    fn kannada_folders_are_decoded() {
        let t = table("filed,outlet,topic\n/ಕ್ರೀಡೆ/,,sport\n").unwrap();
        let link =
            "https://a.example/%E0%B2%95%E0%B3%8D%E0%B2%B0%E0%B3%80%E0%B2%A1%E0%B3%86/x.html";
        assert_eq!(t.topic_of("A", &[], None, link).unwrap().topic, "sport");
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let e = table("filed,outlet,topic\nSports,,sport\nCinema,,movies\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(":3:") && e.contains("movies") && e.contains("taxonomy"),
            "{e}"
        );
        let e = table("filed,outlet,topic\nSports,,sport\n\n# x\nsports ,,culture\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains(":5:") && e.contains("line 2"), "{e}");
        let e = table("filed,outlet,topic\n/a/b/,,sport\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains(":2:") && e.contains("one folder"), "{e}");
        let e = table("filed,outlet,topic\nSports,sport\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains(":2:"), "{e}");
    }
}
