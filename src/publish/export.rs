//! The open data: each day's public headlines as CSV and as JSON lines, a README that
//! describes every column and states the licence, an index of the days published, a
//! Frictionless Data Package (`datapackage.json`, v2) that describes all of it for machines,
//! and a `SHA256SUMS` manifest that `sha256sum -c` accepts. Everything in `site/data/`. A
//! day's files are written as the day goes by, each streamed to disk (and only when it
//! changed), never whole in memory.
//!
//! The columns are one table, [`COLUMNS`]: the README's column section, the CSV header, the
//! JSON keys and the Table Schema (`headlines.schema.json`) are all made from it, so they
//! cannot disagree. The index's columns are [`INDEX_COLUMNS`], likewise.
//!
//! A spreadsheet treats a cell beginning with `=`, `+`, `-` or `@` (or a tab or carriage
//! return) as a formula; in the CSV such a cell gets a leading `'` so it stays inert text.
//! The JSON lines carry the text exactly as published.

use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::rows::{Pool, PublicRef, Row as DayRow};
use crate::records::DateSource;

/// The licence line written into the README when none is configured.
pub const DEFAULT_LICENCE: &str = "CC BY 4.0, crediting the outlets";

/// The default licence as the Data Package names it: its SPDX identifier and its page.
pub const DEFAULT_LICENCE_ID: (&str, &str) =
    ("CC-BY-4.0", "https://creativecommons.org/licenses/by/4.0/");

/// The directory of the open data, under the site.
pub const DIR: &str = "data";

/// The machine-readable description of the open data (a Frictionless Data Package).
pub const PACKAGE: &str = "datapackage.json";
/// The Table Schema every day's CSV and JSON lines follow.
pub const SCHEMA: &str = "headlines.schema.json";
/// The index of the days published.
pub const INDEX: &str = "index.csv";
/// The Data Package profile `datapackage.json` follows.
pub const PROFILE: &str = "https://datapackage.org/profiles/2.0/datapackage.json";
/// The Table Schema profile `headlines.schema.json` follows.
pub const SCHEMA_PROFILE: &str = "https://datapackage.org/profiles/2.0/tableschema.json";

/// The format of `published`: RFC 3339 in UTC to the second, as strptime reads it.
pub const TIME_FORMAT: &str = "%Y-%m-%dT%H:%M:%SZ";

/// The values of `published_from`.
pub const PUBLISHED_FROM: [&str; 2] = ["publisher", "first-seen"];

/// One row of the open data, in column order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row<'a> {
    pub outlet: &'a str,
    pub headline: &'a str,
    pub link: &'a str,
    pub published: String,
    pub topic: &'static str,
    pub opinion: bool,
    pub lang: &'a str,
    pub published_from: &'static str,
    /// The story it is in (`DAY/stories.jsonl`), if any: `null` in the JSON lines, an
    /// empty cell in the CSV.
    pub story: Option<&'a str>,
}

/// What a column holds, as the README says it and as the Table Schema types it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text.
    Text,
    /// An http(s) address.
    Link,
    /// A UTC time to the second ([`TIME_FORMAT`]).
    Time,
    /// `true` or `false`.
    Flag,
    /// A UTC day, `YYYY-MM-DD`.
    Day,
    /// A whole number, 0 or more.
    Count,
    /// A SHA-256 in 64 lowercase hex digits.
    Sha256,
    /// A story's id, 16 lowercase hex digits, or nothing: the one column that may be empty.
    Story,
}

/// A column of the open data: its name, what it holds, what it means and, where it is a
/// closed set, the only values it takes. Every column is filled in every row.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
    pub meaning: &'static str,
    pub values: &'static [&'static str],
}

const fn column(name: &'static str, kind: Kind, meaning: &'static str) -> Column {
    Column {
        name,
        kind,
        meaning,
        values: &[],
    }
}

/// The columns of a day's headlines, in order (the README's table, the CSV header, the
/// JSON keys, the Table Schema).
pub const COLUMNS: [Column; 9] = [
    column(
        "outlet",
        Kind::Text,
        "The outlet that published the headline, as named in Huduku's source list.",
    ),
    column(
        "headline",
        Kind::Text,
        "The headline as the publisher wrote it (plain text: markup, control characters and bidirectional controls removed; a tab or line break is a space).",
    ),
    column(
        "link",
        Kind::Link,
        "The publisher's own page for the article: an http(s) address, tracking parameters removed.",
    ),
    column(
        "published",
        Kind::Time,
        "When it was published, RFC 3339 in UTC (e.g. 2026-11-30T05:15:00Z).",
    ),
    Column {
        values: crate::classify::TOPICS,
        ..column(
            "topic",
            Kind::Text,
            "The topic Huduku filed it under (other where none of the others fits).",
        )
    },
    column(
        "opinion",
        Kind::Flag,
        "true only where the publisher's own category or section labels it opinion; otherwise false.",
    ),
    Column {
        values: &crate::lists::LANGS,
        ..column("lang", Kind::Text, "The language of the outlet's source.")
    },
    Column {
        values: &PUBLISHED_FROM,
        ..column(
            "published_from",
            Kind::Text,
            "publisher if the publisher gave the time; first-seen if it gave none and `published` is when Huduku first saw the headline.",
        )
    },
    column(
        "story",
        Kind::Story,
        "The story the headline is in: headlines with the same story id tell one event, as other outlets (or the same outlet later) told it within 48 hours, in either language, as Huduku grouped them (a story may reach into the day before). Empty where Huduku found no other headline of the event.",
    ),
];

/// The column no two rows of a day's file share.
pub const KEY: &str = "link";

/// The columns of `index.csv`, one row per day published.
pub const INDEX_COLUMNS: [Column; 8] = [
    column(
        "day",
        Kind::Day,
        "The UTC day: its files hold the public headlines Huduku found that day.",
    ),
    column(
        "headlines",
        Kind::Count,
        "How many headlines the day's files hold (one row of the CSV, one line of the JSON lines, each).",
    ),
    column("csv", Kind::Text, "The day's CSV, in this folder."),
    column(
        "csv_bytes",
        Kind::Count,
        "The size of the day's CSV in bytes.",
    ),
    column(
        "csv_sha256",
        Kind::Sha256,
        "The SHA-256 of the day's CSV, as SHA256SUMS has it.",
    ),
    column("jsonl", Kind::Text, "The day's JSON lines, in this folder."),
    column(
        "jsonl_bytes",
        Kind::Count,
        "The size of the day's JSON lines in bytes.",
    ),
    column(
        "jsonl_sha256",
        Kind::Sha256,
        "The SHA-256 of the day's JSON lines, as SHA256SUMS has it.",
    ),
];

/// The column no two rows of the index share.
pub const INDEX_KEY: &str = "day";

pub fn row<'a>(p: &PublicRef<'a>, story: Option<&'a str>) -> Row<'a> {
    Row {
        outlet: p.outlet,
        headline: p.headline,
        link: p.link,
        published: crate::time::fmt(p.published),
        // The taxonomy's name, `other` for any it does not know (as the pages file it).
        topic: super::site::topic_of(p.topic),
        opinion: p.opinion,
        lang: p.lang,
        published_from: match p.date_source {
            DateSource::Publisher => PUBLISHED_FROM[0],
            DateSource::FirstSeen => PUBLISHED_FROM[1],
        },
        story,
    }
}

/// Each headline's story, by headline id (a day's, from [`super::stories`]).
pub type StoryOf = BTreeMap<String, String>;

/// A CSV cell a spreadsheet will not run: a leading `=`, `+`, `-`, `@`, tab or carriage
/// return gets a `'` before it.
pub fn inert(cell: &str) -> String {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{cell}"),
        _ => cell.to_string(),
    }
}

/// The day's CSV: a header row, then one row per headline, `\n` line ends, UTF-8 (no BOM).
pub fn csv(
    out: &mut dyn Write,
    list: &[DayRow],
    pool: &Pool,
    stories: &StoryOf,
) -> std::io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out);
    w.write_record(COLUMNS.iter().map(|c| c.name))?;
    for p in list {
        let r = row(&p.public(pool), stories.get(p.id()).map(String::as_str));
        w.write_record([
            inert(r.outlet),
            inert(r.headline),
            inert(r.link),
            r.published.clone(),
            inert(r.topic),
            r.opinion.to_string(),
            inert(r.lang),
            r.published_from.to_string(),
            r.story.unwrap_or_default().to_string(),
        ])?;
    }
    w.flush()
}

/// The day's JSON lines: the same columns, the text exactly as published.
pub fn jsonl(
    out: &mut dyn Write,
    list: &[DayRow],
    pool: &Pool,
    stories: &StoryOf,
) -> std::io::Result<()> {
    for p in list {
        let story = stories.get(p.id()).map(String::as_str);
        serde_json::to_writer(&mut *out, &row(&p.public(pool), story))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// What a column holds and what it is never, in the README's words.
fn kind_words(c: &Column, key: &str) -> String {
    let mut s = if c.values.is_empty() {
        match c.kind {
            Kind::Text => "Text",
            Kind::Link => "An http(s) address",
            Kind::Time => "A date and time in UTC, YYYY-MM-DDThh:mm:ssZ",
            Kind::Flag => "true or false",
            Kind::Day => "A date, YYYY-MM-DD",
            Kind::Count => "A whole number, 0 or more",
            Kind::Sha256 => "64 lowercase hexadecimal digits",
            Kind::Story => "16 lowercase hexadecimal digits, or empty (null in the JSON lines)",
        }
        .to_string()
    } else {
        format!("One of: {}", c.values.join(", "))
    };
    if c.kind != Kind::Story {
        s.push_str("; never empty");
    }
    if c.name == key {
        s.push_str("; no two rows of a file share one");
    }
    s.push('.');
    s
}

fn describe_columns(s: &mut String, columns: &[Column], key: &str) {
    for c in columns {
        s.push_str(&format!(
            "{}\n    {}\n    {}\n",
            c.name,
            c.meaning,
            kind_words(c, key)
        ));
    }
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
    s.push_str(&format!(
        "{INDEX} lists every day published, newest first, one row a day: the day, how many\n\
         headlines, and each of its two files with its size and SHA-256 (columns below).\n\n\
         {PACKAGE} describes every file here for machines: a Frictionless Data Package\n\
         (version 2, https://datapackage.org/) giving each file's format, encoding, size and\n\
         SHA-256, the licence, and the type, meaning and allowed values of every column\n\
         (the days' files share one Table Schema, {SCHEMA}). Check the files\n\
         against it with `frictionless validate {PACKAGE}` in this directory.\n\n"
    ));
    s.push_str("Columns\n-------\n\n");
    describe_columns(&mut s, &COLUMNS, KEY);
    s.push_str(
        "\nIn the CSV only, a cell that would begin with =, +, -, @, a tab or a carriage return\n\
         begins with a ' instead, so that a spreadsheet shows it as text rather than running it\n\
         as a formula. The JSON lines have every value exactly as published.\n\n",
    );
    let title = format!("Columns of {INDEX}");
    s.push_str(&format!("{title}\n{}\n\n", "-".repeat(title.len())));
    describe_columns(&mut s, &INDEX_COLUMNS, INDEX_KEY);
    s.push_str(
        "\nSHA256SUMS lists the SHA-256 of every file here; check a download with\n\
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
    stories: &StoryOf,
    sums: &mut Sums,
) -> Result<()> {
    let dir = site.join(DIR);
    let name = format!("headlines-{day}.csv");
    let sum = super::site::put_with(&dir.join(&name), |w| csv(w, list, pool, stories))?;
    sums.insert(name, sum);
    let name = format!("headlines-{day}.jsonl");
    let sum = super::site::put_with(&dir.join(&name), |w| jsonl(w, list, pool, stories))?;
    sums.insert(name, sum);
    Ok(())
}

/// A file of the open data as the index and the package name it.
#[derive(Debug, Clone)]
struct File {
    name: String,
    bytes: u64,
    sha256: String,
}

impl File {
    fn of(dir: &Path, name: &str, sums: &Sums) -> Result<File> {
        let sha256 = sums
            .get(name)
            .with_context(|| format!("no SHA-256 of {name}"))?
            .clone();
        let bytes = std::fs::metadata(dir.join(name))
            .with_context(|| format!("reading {}", dir.join(name).display()))?
            .len();
        Ok(File {
            name: name.to_string(),
            bytes,
            sha256,
        })
    }
}

/// A day of the index: how many headlines, and its two files.
struct Day<'a> {
    day: &'a str,
    headlines: usize,
    csv: File,
    jsonl: File,
}

/// `index.csv`: a header row, then one row per day, newest first.
fn index(days: &[Day]) -> Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(INDEX_COLUMNS.iter().map(|c| c.name))?;
    for d in days {
        w.write_record([
            d.day.to_string(),
            d.headlines.to_string(),
            d.csv.name.clone(),
            d.csv.bytes.to_string(),
            d.csv.sha256.clone(),
            d.jsonl.name.clone(),
            d.jsonl.bytes.to_string(),
            d.jsonl.sha256.clone(),
        ])?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}

/// `datapackage.json`, a Frictionless Data Package (v2). Fields serialise in declaration
/// order, so its bytes follow from the files alone.
#[derive(Debug, Serialize)]
pub struct Package {
    #[serde(rename = "$schema")]
    pub profile: &'static str,
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub homepage: String,
    pub licenses: Vec<Licence>,
    pub keywords: &'static [&'static str],
    pub resources: Vec<Resource>,
}

/// A licence as the Data Package has it: the default by its SPDX identifier and page; any
/// other line as its title, pointing to the README that states it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Licence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'static str>,
    pub path: String,
    pub title: String,
}

pub fn licence(line: &str) -> Licence {
    if line == DEFAULT_LICENCE {
        Licence {
            name: Some(DEFAULT_LICENCE_ID.0),
            path: DEFAULT_LICENCE_ID.1.into(),
            title: line.into(),
        }
    } else {
        Licence {
            name: None,
            path: "README.txt".into(),
            title: line.into(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Resource {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub path: String,
    pub title: String,
    pub description: String,
    pub format: &'static str,
    pub mediatype: &'static str,
    pub encoding: &'static str,
    pub bytes: u64,
    pub hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Dialect>,
    pub schema: SchemaRef,
}

/// How the CSV files are written.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dialect {
    pub header: bool,
    pub delimiter: &'static str,
    pub line_terminator: &'static str,
    pub quote_char: &'static str,
    pub double_quote: bool,
}

const CSV_DIALECT: Dialect = Dialect {
    header: true,
    delimiter: ",",
    line_terminator: "\n",
    quote_char: "\"",
    double_quote: true,
};

/// A resource's Table Schema: the shared file, or given in place.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum SchemaRef {
    Path(&'static str),
    Inline(Schema),
}

/// A Table Schema.
#[derive(Debug, Serialize)]
pub struct Schema {
    #[serde(rename = "$schema", skip_serializing_if = "Option::is_none")]
    pub profile: Option<&'static str>,
    pub fields: Vec<Field>,
    #[serde(rename = "primaryKey")]
    pub primary_key: [&'static str; 1],
}

#[derive(Debug, Serialize)]
pub struct Field {
    pub name: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    pub description: &'static str,
    #[serde(rename = "trueValues", skip_serializing_if = "Option::is_none")]
    pub true_values: Option<[&'static str; 1]>,
    #[serde(rename = "falseValues", skip_serializing_if = "Option::is_none")]
    pub false_values: Option<[&'static str; 1]>,
    pub constraints: Constraints,
}

#[derive(Debug, Serialize)]
pub struct Constraints {
    pub required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<&'static str>,
    #[serde(rename = "enum", skip_serializing_if = "<[_]>::is_empty")]
    pub values: &'static [&'static str],
}

/// A Table Schema of the columns, from the same table the README is written from.
pub fn schema(columns: &[Column], key: &'static str, profile: Option<&'static str>) -> Schema {
    let fields = columns
        .iter()
        .map(|c| {
            let (kind, format) = match c.kind {
                Kind::Text | Kind::Link | Kind::Sha256 | Kind::Story => ("string", None),
                Kind::Time => ("datetime", Some(TIME_FORMAT)),
                Kind::Flag => ("boolean", None),
                Kind::Day => ("date", None),
                Kind::Count => ("integer", None),
            };
            let flag = c.kind == Kind::Flag;
            Field {
                name: c.name,
                kind,
                format,
                description: c.meaning,
                true_values: flag.then_some(["true"]),
                false_values: flag.then_some(["false"]),
                constraints: Constraints {
                    required: c.kind != Kind::Story,
                    minimum: (c.kind == Kind::Count).then_some(0),
                    pattern: match c.kind {
                        Kind::Link => Some("https?://.+"),
                        Kind::Sha256 => Some("[0-9a-f]{64}"),
                        Kind::Story => Some("[0-9a-f]{16}"),
                        _ => None,
                    },
                    values: c.values,
                },
            }
        })
        .collect();
    Schema {
        profile,
        fields,
        primary_key: [key],
    }
}

fn resource(
    file: &File,
    title: String,
    description: String,
    csv: bool,
    schema: SchemaRef,
) -> Resource {
    Resource {
        name: file.name.clone(),
        kind: "table",
        path: file.name.clone(),
        title,
        description,
        format: if csv { "csv" } else { "jsonl" },
        mediatype: if csv { "text/csv" } else { "application/jsonl" },
        encoding: "utf-8",
        bytes: file.bytes,
        hash: format!("sha256:{}", file.sha256),
        dialect: csv.then_some(CSV_DIALECT),
        schema,
    }
}

fn package(licence_line: &str, base: &str, index: &File, days: &[Day]) -> Package {
    let mut resources = vec![resource(
        index,
        "Days published".into(),
        format!(
            "One row per day published, newest first: how many headlines, and the day's two files with the size and SHA-256 of each. {} days.",
            days.len()
        ),
        true,
        SchemaRef::Inline(schema(&INDEX_COLUMNS, INDEX_KEY, None)),
    )];
    for d in days {
        resources.push(resource(
            &d.csv,
            format!("Headlines of {} (CSV)", d.day),
            format!(
                "The {} public headlines Huduku found on {} (UTC), newest first, then by link. A cell that would begin with =, +, -, @, a tab or a carriage return begins with a ' instead, so that a spreadsheet does not run it.",
                d.headlines, d.day
            ),
            true,
            SchemaRef::Path(SCHEMA),
        ));
        resources.push(resource(
            &d.jsonl,
            format!("Headlines of {} (JSON lines)", d.day),
            format!(
                "The {} public headlines Huduku found on {} (UTC), one JSON object per line, the same fields in the same order as the CSV, every value exactly as published.",
                d.headlines, d.day
            ),
            false,
            SchemaRef::Path(SCHEMA),
        ));
    }
    Package {
        profile: PROFILE,
        name: "huduku-headlines",
        title: "Huduku: headlines of Kannada and English news outlets",
        description: "The public headlines of every day Huduku has published: for each UTC day, each headline with its link to the publisher's own page, publication time, outlet, topic and language, as CSV and as JSON lines. The headlines are the outlets' own words: name the outlet beside any headline you show, and link to the publisher's page where you can. README.txt says more.",
        homepage: base.to_string(),
        licenses: vec![licence(licence_line)],
        keywords: &["news", "headlines", "kannada", "english"],
        resources,
    }
}

/// JSON as the open data writes it: two-space indents, fields in declaration order, a
/// newline at the end.
fn json_bytes(value: &impl Serialize) -> Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes the README, the Table Schema, the index of the days (`days`: every day whose
/// files are here, with how many headlines each), the Data Package describing it all and
/// `SHA256SUMS` of every file; returns the paths of the open data, relative to the site.
pub fn finish(
    site: &Path,
    days: &BTreeMap<String, usize>,
    mut sums: Sums,
    licence: &str,
    base: &str,
) -> Result<Vec<String>> {
    let dir = site.join(DIR);
    let put = |name: &str, bytes: &[u8], sums: &mut Sums| -> Result<()> {
        super::site::put(&dir.join(name), bytes)?;
        sums.insert(name.into(), crate::store::sha256_hex(bytes));
        Ok(())
    };
    put("README.txt", readme(licence, days).as_bytes(), &mut sums)?;
    let schema = json_bytes(&schema(&COLUMNS, KEY, Some(SCHEMA_PROFILE)))?;
    put(SCHEMA, &schema, &mut sums)?;
    let listed = days
        .iter()
        .rev()
        .map(|(day, &headlines)| {
            Ok(Day {
                day,
                headlines,
                csv: File::of(&dir, &format!("headlines-{day}.csv"), &sums)?,
                jsonl: File::of(&dir, &format!("headlines-{day}.jsonl"), &sums)?,
            })
        })
        .collect::<Result<Vec<Day>>>()?;
    let index = index(&listed)?;
    put(INDEX, &index, &mut sums)?;
    let index = File::of(&dir, INDEX, &sums)?;
    let package = json_bytes(&package(licence, base, &index, &listed))?;
    put(PACKAGE, &package, &mut sums)?;
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

    fn public<'a>(topic: &'a str, date_source: DateSource) -> PublicRef<'a> {
        PublicRef {
            id: "0123456789abcdef",
            outlet: "ನಮ್ಮ ಪತ್ರಿಕೆ",
            source: "https://kn.example/rss.xml",
            lang: "kn",
            headline: "ರಣಜಿ",
            link: "https://kn.example/a",
            published: crate::time::parse_now("2026-11-30T04:00:00Z").unwrap(),
            date_source,
            topic,
            opinion: true,
        }
    }

    #[test]
    fn json_keys_follow_the_columns_and_topics_outside_the_taxonomy_are_other() {
        let r = row(
            &public("gossip", DateSource::FirstSeen),
            Some("0123456789abcdef"),
        );
        assert_eq!(r.topic, "other");
        assert_eq!(r.published_from, "first-seen");
        assert_eq!(
            row(&public("sport", DateSource::Publisher), None).topic,
            "sport"
        );
        let text = serde_json::to_string(&r).unwrap();
        let at: Vec<usize> = COLUMNS
            .iter()
            .map(|c| text.find(&format!("\"{}\":", c.name)).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v.as_object().unwrap().len(), COLUMNS.len());
    }

    #[test]
    fn readme_and_table_schema_say_the_same_of_every_column() {
        let days = BTreeMap::from([("2026-11-30".to_string(), 3)]);
        let readme = readme(DEFAULT_LICENCE, &days);
        for (columns, key) in [(&COLUMNS[..], KEY), (&INDEX_COLUMNS[..], INDEX_KEY)] {
            let schema = schema(columns, key, None);
            assert_eq!(schema.primary_key, [key]);
            assert!(columns.iter().any(|c| c.name == key));
            for (c, f) in columns.iter().zip(&schema.fields) {
                assert_eq!(f.name, c.name);
                assert_eq!(f.description, c.meaning);
                assert_eq!(f.constraints.values, c.values);
                assert_eq!(f.constraints.required, c.kind != Kind::Story);
                let entry = format!(
                    "\n{}\n    {}\n    {}\n",
                    c.name,
                    c.meaning,
                    kind_words(c, key)
                );
                assert!(readme.contains(&entry), "{entry}\n{readme}");
            }
            assert_eq!(schema.fields.len(), columns.len());
        }
        let topic = COLUMNS.iter().find(|c| c.name == "topic").unwrap();
        assert!(kind_words(topic, KEY).contains("politics, business,"));
        assert!(kind_words(&COLUMNS[2], KEY).contains("no two rows"));
    }

    #[test]
    fn the_default_licence_goes_by_its_spdx_id_and_another_by_its_title() {
        let l = licence(DEFAULT_LICENCE);
        assert_eq!(
            (l.name, l.path.as_str(), l.title.as_str()),
            (
                Some("CC-BY-4.0"),
                "https://creativecommons.org/licenses/by/4.0/",
                DEFAULT_LICENCE
            )
        );
        let line = "CC0 1.0 for the compilation";
        assert_eq!(
            licence(line),
            Licence {
                name: None,
                path: "README.txt".into(),
                title: line.into()
            }
        );
    }

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
