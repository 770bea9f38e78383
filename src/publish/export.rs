//! The open data: each day's public headlines as CSV and as JSON lines, a README that
//! describes every column and states the licence, and a `SHA256SUMS` manifest that
//! `sha256sum -c` accepts. Everything in `site/data/`. A day's files are written as the day
//! goes by, each streamed to disk (and only when it changed), never whole in memory.
//!
//! A spreadsheet treats a cell beginning with `=`, `+`, `-` or `@` (or a tab or carriage
//! return) as a formula; in the CSV such a cell gets a leading `'` so it stays inert text.
//! The JSON lines carry the text exactly as published.

use anyhow::Result;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::rows::{Pool, PublicRef, Row as DayRow};
use crate::records::DateSource;

/// The licence line written into the README when none is configured.
pub const DEFAULT_LICENCE: &str = "CC BY 4.0, crediting the outlets";

/// The directory of the open data, under the site.
pub const DIR: &str = "data";

/// One row of the open data, in column order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row<'a> {
    pub outlet: &'a str,
    pub headline: &'a str,
    pub link: &'a str,
    pub published: String,
    pub topic: &'a str,
    pub opinion: bool,
    pub lang: &'a str,
    pub published_from: &'static str,
}

/// The columns and what each means (the README's table).
pub const COLUMNS: [(&str, &str); 8] = [
    (
        "outlet",
        "The outlet that published the headline, as named in Huduku's source list.",
    ),
    (
        "headline",
        "The headline as the publisher wrote it (plain text: markup, control characters and bidirectional controls removed; a tab or line break is a space).",
    ),
    (
        "link",
        "The publisher's own page for the article: an http(s) address, tracking parameters removed.",
    ),
    (
        "published",
        "When it was published, RFC 3339 in UTC (e.g. 2026-11-30T05:15:00Z).",
    ),
    (
        "topic",
        "The topic Huduku filed it under: politics, business, crime, health, education, environment, science, world, sport, culture, local or other.",
    ),
    (
        "opinion",
        "true only where the publisher's own category or section labels it opinion; otherwise false.",
    ),
    ("lang", "The language of the outlet's source: kn or en."),
    (
        "published_from",
        "publisher if the publisher gave the time; first-seen if it gave none and `published` is when Huduku first saw the headline.",
    ),
];

pub fn row<'a>(p: &PublicRef<'a>) -> Row<'a> {
    Row {
        outlet: p.outlet,
        headline: p.headline,
        link: p.link,
        published: crate::time::fmt(p.published),
        topic: p.topic,
        opinion: p.opinion,
        lang: p.lang,
        published_from: match p.date_source {
            DateSource::Publisher => "publisher",
            DateSource::FirstSeen => "first-seen",
        },
    }
}

/// A CSV cell a spreadsheet will not run: a leading `=`, `+`, `-`, `@`, tab or carriage
/// return gets a `'` before it.
pub fn inert(cell: &str) -> String {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{cell}"),
        _ => cell.to_string(),
    }
}

/// The day's CSV: a header row, then one row per headline, `\n` line ends, UTF-8 (no BOM).
pub fn csv(out: &mut dyn Write, list: &[DayRow], pool: &Pool) -> std::io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out);
    w.write_record(COLUMNS.iter().map(|(name, _)| *name))?;
    for p in list {
        let r = row(&p.public(pool));
        w.write_record([
            inert(r.outlet),
            inert(r.headline),
            inert(r.link),
            r.published.clone(),
            inert(r.topic),
            r.opinion.to_string(),
            inert(r.lang),
            r.published_from.to_string(),
        ])?;
    }
    w.flush()
}

/// The day's JSON lines: the same columns, the text exactly as published.
pub fn jsonl(out: &mut dyn Write, list: &[DayRow], pool: &Pool) -> std::io::Result<()> {
    for p in list {
        serde_json::to_writer(&mut *out, &row(&p.public(pool)))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn readme(licence: &str, days: &BTreeMap<String, usize>) -> String {
    let mut s = String::new();
    s.push_str("Huduku open data\n================\n\n");
    s.push_str(
        "The public headlines of every day Huduku has published, one file per UTC day in two\n\
         forms (a day's files stay here for good, also once its pages are gone):\n\
         headlines-DAY.csv (comma-separated, a header row, UTF-8 without a byte-order mark,\n\
         one row per headline, \\n line ends) and headlines-DAY.jsonl (one JSON object per line,\n\
         the same fields in the same order). Rows are newest first, then by link.\n\n\
         A headline is in the file of the day Huduku found it. Headlines of outlets that opted\n\
         out, headlines taken down and articles found withdrawn are not in any file; every\n\
         file is rewritten when that changes, however old.\n\n",
    );
    s.push_str(&format!("Licence: {licence}.\n"));
    s.push_str(
        "The headlines are the outlets' own words: name the outlet beside any headline you\n\
         show, and link to the publisher's page where you can.\n\n",
    );
    s.push_str("Columns\n-------\n\n");
    for (name, what) in COLUMNS {
        s.push_str(&format!("{name}\n    {what}\n"));
    }
    s.push_str(
        "\nIn the CSV only, a cell that would begin with =, +, -, @, a tab or a carriage return\n\
         begins with a ' instead, so that a spreadsheet shows it as text rather than running it\n\
         as a formula. The JSON lines have every value exactly as published.\n\n",
    );
    s.push_str(
        "SHA256SUMS lists the SHA-256 of every file here; check a download with\n\
         `sha256sum -c SHA256SUMS` in this directory.\n\n",
    );
    s.push_str("Days\n----\n\n");
    for (day, count) in days.iter().rev() {
        s.push_str(&format!(
            "{day}: {}\n",
            super::i18n::count(*count, super::i18n::Lang::En)
        ));
    }
    s
}

/// The open data's files of a day, by name, with the SHA-256 of each.
pub type Sums = BTreeMap<String, String>;

/// Writes a day's CSV and JSON lines under `site/data/` (each only if it changed) and adds
/// their names and SHA-256 to `sums`.
pub fn write_day(
    site: &Path,
    day: &str,
    list: &[DayRow],
    pool: &Pool,
    sums: &mut Sums,
) -> Result<()> {
    let dir = site.join(DIR);
    let name = format!("headlines-{day}.csv");
    let sum = super::site::put_with(&dir.join(&name), |w| csv(w, list, pool))?;
    sums.insert(name, sum);
    let name = format!("headlines-{day}.jsonl");
    let sum = super::site::put_with(&dir.join(&name), |w| jsonl(w, list, pool))?;
    sums.insert(name, sum);
    Ok(())
}

/// Writes the README (the days with how many headlines each) and `SHA256SUMS` of every
/// file; returns the paths of the open data, relative to the site.
pub fn finish(
    site: &Path,
    days: &BTreeMap<String, usize>,
    mut sums: Sums,
    licence: &str,
) -> Result<Vec<String>> {
    let dir = site.join(DIR);
    let readme = readme(licence, days).into_bytes();
    super::site::put(&dir.join("README.txt"), &readme)?;
    sums.insert("README.txt".into(), crate::store::sha256_hex(&readme));
    let mut manifest = String::new();
    let mut written = Vec::new();
    for (name, sum) in &sums {
        manifest.push_str(&format!("{sum}  {name}\n"));
        written.push(format!("{DIR}/{name}"));
    }
    super::site::put(&dir.join("SHA256SUMS"), manifest.as_bytes())?;
    written.push(format!("{DIR}/SHA256SUMS"));
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_made_inert() {
        for c in ["=1+1", "+91 98", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(inert(c), format!("'{c}"));
        }
        for c in ["ರಣಜಿ", "Plain", "", "'quoted", "a=b"] {
            assert_eq!(inert(c), c);
        }
    }
}
