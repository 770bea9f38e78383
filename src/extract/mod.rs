//! `extract`: headlines out of the hour's fetched bodies.
//!
//! Reads the bodies `fetch-feeds` kept in the hour's transient directory, parses each as
//! its source's kind (RSS/Atom feed, Google news sitemap, or a home page's headline list),
//! and writes the new headlines to `DAY/HH/items.jsonl`. Summaries go only to the transient
//! `summaries.jsonl`, for `classify` in the same run. A bad body is one line on stderr and the
//! others carry on.
//!
//! `extract --file PATH --url URL` reads one saved body as if fetched from URL and prints its
//! items as JSON lines, so anyone can check a feed by hand.

pub mod charset;
pub mod dates;
pub mod feed;
pub mod homepage;
pub mod sitemap;
pub mod text;
pub mod xml;

use anyhow::{Context, Result};
use chrono::{DateTime, Duration as CDuration, Utc};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use url::Url;

use crate::cli::{Common, Report};
use crate::lists::Kind;
use crate::records::{BodyRead, DateSource, Item, RawMeta, Summary, canonical_link, item_id};

/// Find the headlines in this hour's fetched bodies (or in one saved file, with --file).
#[derive(Debug, clap::Parser)]
#[command(name = "extract", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Read one saved body instead of the hour's, and print its items on stdout.
    #[arg(long, value_name = "PATH", requires = "url")]
    pub file: Option<PathBuf>,
    /// The address the --file body is read as coming from (the base of relative links).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The Content-Type the --file body is read as served with (its charset counts).
    #[arg(long, value_name = "CT")]
    pub content_type: Option<String>,
    /// What the --file body is: feed, sitemap or homepage (default: guessed from the body).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// CSS selector of headline links, for --kind homepage.
    #[arg(long, value_name = "CSS")]
    pub selector: Option<String>,
    /// With --file: print dropped items too (marked `"dropped": true`), in document order.
    #[arg(long, requires = "file")]
    pub all: bool,
}

/// An item as a parser found it, before it becomes a record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawItem {
    /// Plain text: entities decoded, markup removed, whitespace collapsed.
    pub headline: String,
    /// Absolute http(s) link.
    pub link: String,
    pub published: Option<DateTime<Utc>>,
    pub category: Vec<String>,
    pub author: Option<String>,
    /// Plain text, transient only.
    pub summary: Option<String>,
    /// The publication's name, where a news sitemap gives it.
    pub publication: Option<String>,
    /// The publication's language code, where a news sitemap gives it.
    pub language: Option<String>,
}

/// What a body gave.
#[derive(Debug, Default)]
pub struct Parsed {
    pub items: Vec<RawItem>,
    /// Items dropped because their link was missing or not http(s).
    pub dropped: usize,
    /// What went wrong, if anything (items read before the damage are kept).
    pub error: Option<String>,
    /// Child sitemaps a sitemap index points at (absolute http(s)), for the fetcher.
    pub children: Vec<String>,
    /// The dropped items as read (headline or link empty, or a link that is not http(s)),
    /// each with the number of kept items before it: for `extract --file --all`.
    pub rejected: Vec<(usize, RawItem)>,
}

/// Largest body read (bytes); the rest of a longer one is ignored and reported.
pub const MAX_BODY: usize = 32 * 1024 * 1024;

/// Parses a body as the given kind.
pub fn parse_body(
    kind: Kind,
    body: &[u8],
    base: &Url,
    content_type: Option<&str>,
    selector: Option<&str>,
) -> Parsed {
    let (body, over) = if body.len() > MAX_BODY {
        (&body[..MAX_BODY], Some(body.len()))
    } else {
        (body, None)
    };
    let mut parsed = match kind {
        Kind::Feed => feed::parse(body, base, content_type),
        Kind::Sitemap => sitemap::parse(body, base, content_type),
        Kind::Homepage => homepage::parse(body, base, content_type, selector.unwrap_or("a")),
    };
    if let Some(len) = over {
        // The cut-off is the first damage: what came before it is kept.
        parsed.error = Some(format!(
            "body is {len} bytes, over the {} MiB cap: only the first {} MiB were read{}",
            MAX_BODY >> 20,
            MAX_BODY >> 20,
            parsed
                .error
                .as_deref()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default()
        ));
    }
    parsed
}

/// Decodes an XML body and parses it with `parse_text`, noting bytes that were not valid.
fn parse_xml(
    body: &[u8],
    base: &Url,
    content_type: Option<&str>,
    parse_text: fn(&str, &Url) -> Parsed,
) -> Parsed {
    let decoded = charset::decode(body, content_type, false);
    let mut p = parse_text(&decoded.text, base);
    if decoded.bad_bytes && p.error.is_none() {
        p.error = Some(format!(
            "bytes not valid in {} were replaced with U+FFFD",
            decoded.encoding
        ));
    }
    p
}

/// Guesses a body's kind from its first kilobytes.
pub fn sniff_kind(body: &[u8]) -> Kind {
    let head = String::from_utf8_lossy(&body[..body.len().min(4096)]).to_ascii_lowercase();
    if head.contains("<urlset") || head.contains("<sitemapindex") {
        Kind::Sitemap
    } else if head.contains("<html") || head.contains("<!doctype html") {
        Kind::Homepage
    } else {
        Kind::Feed
    }
}

/// How many days back an earlier sighting of a link keeps it from being new again.
pub const SEEN_DAYS: i64 = 7;

/// New headlines kept from one source in one run at most: a news sitemap lists at most
/// 1,000 URLs, and no real feed adds more in an hour. The rest are logged, not kept.
pub const MAX_NEW_PER_SOURCE_RUN: usize = 1_000;
/// New headlines kept from one source in one UTC day at most.
pub const MAX_NEW_PER_SOURCE_DAY: usize = 3_000;
/// A publication time later than this after `--now` is not believed: the headline is dated
/// when it was first seen.
pub const FUTURE_SLACK: CDuration = CDuration::days(1);
/// A publication time earlier than this is not believed either (it would also be a time
/// the records cannot write and read back in every form a publisher can give).
pub const EARLIEST_PUBLISHED: &str = "1990-01-01T00:00:00Z";
/// Time one body may take to read; a body that takes longer is given up (logged, and its
/// address asked for again without validators), and the hour goes on.
pub const BODY_BUDGET: std::time::Duration = std::time::Duration::from_secs(30);

pub fn run(args: &Args) -> Result<Report> {
    if let Some(file) = &args.file {
        return run_file(args, file);
    }
    let now = args.common.now()?;
    let data = args.common.data();
    let _lock = args.common.lock("extract")?;
    let day = crate::time::day(now);
    let hour = crate::time::hour(now);
    let transient = data.transient_dir(&day, &hour);
    let hour_dir = data.hour_dir(&day, &hour);
    let mut failed = 0usize;
    let mut metas: Vec<(String, RawMeta)> = Vec::new();
    if transient.exists() {
        for entry in std::fs::read_dir(&transient)
            .with_context(|| format!("reading {}", transient.display()))?
        {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "json") {
                // A description that cannot be read costs its own body only.
                let meta = std::fs::read(&path)
                    .map_err(anyhow::Error::from)
                    .and_then(|b| Ok(serde_json::from_slice::<RawMeta>(&b)?));
                let meta = match meta {
                    Ok(m) => m,
                    Err(e) => {
                        crate::elog!(
                            "extract: {} is not a body description: {e:#}",
                            path.display()
                        );
                        failed += 1;
                        continue;
                    }
                };
                let key = path
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                metas.push((key, meta));
            }
        }
    }
    // Feeds first, then sitemaps, then home pages: when two sources carry one article, the
    // richer record (with the publisher's category) is the one kept.
    metas.sort_by(|a, b| (a.1.kind, &a.1.source, &a.0).cmp(&(b.1.kind, &b.1.source, &b.0)));
    let earlier = earlier_hours(&data, now)?;
    // An earlier run of this same hour kept these: they stay, and are not added twice.
    let items_path = hour_dir.join("items.jsonl");
    let mut items: BTreeMap<(String, String), Item> =
        crate::store::read_jsonl_opt::<Item>(&items_path)?
            .into_iter()
            .map(|i| ((i.link.clone(), i.source.clone()), i))
            .collect();
    let mut links_this_hour: BTreeSet<String> = items.keys().map(|(l, _)| l.clone()).collect();
    let mut today_per_source = earlier.today_per_source.clone();
    for (_, s) in items.keys() {
        *today_per_source.entry(s.clone()).or_default() += 1;
    }
    let summaries_path = transient.join("summaries.jsonl");
    let mut summaries: BTreeMap<String, String> =
        crate::store::read_jsonl_opt::<Summary>(&summaries_path)
            .unwrap_or_default()
            .into_iter()
            .map(|s| (s.id, s.summary))
            .collect();
    let mut receipts: BTreeSet<BodyRead> =
        crate::store::read_jsonl_opt::<BodyRead>(&hour_dir.join("bodies.jsonl"))?
            .into_iter()
            .collect();
    let hosts = crate::lists::load_hosts(&args.common.pipeline(), None)?;
    let (mut dropped, mut old, mut over_cap, mut new_items) = (0usize, 0usize, 0usize, 0usize);
    let mut off_site = 0usize;
    install_panic_line();
    let earliest = crate::time::parse_now(EARLIEST_PUBLISHED)?;
    for (key, meta) in &metas {
        let body = match std::fs::read(transient.join(format!("{key}.body"))) {
            Ok(b) => b,
            Err(e) => {
                crate::elog!("extract: {}: its body cannot be read: {e}", meta.source);
                failed += 1;
                continue;
            }
        };
        let mut parsed = match read_bounded(meta, body) {
            Ok(p) => p,
            Err(e) => {
                // No receipt: the address is asked for again, without validators.
                crate::elog!("extract: {}: {e}", meta.source);
                failed += 1;
                continue;
            }
        };
        // A headline is published only if its link is on the outlet's own hosts.
        off_site += hosts
            .scope_of(&meta.outlet, &meta.source)
            .retain_own(&mut parsed.items, |i| &i.link);
        if let Some(e) = &parsed.error {
            crate::elog!(
                "extract: {}: {e} ({} items read before it)",
                meta.source,
                parsed.items.len()
            );
            failed += 1;
        }
        if !parsed.children.is_empty() {
            crate::elog!(
                "extract: {}: sitemap index of {} sitemaps: {}",
                meta.source,
                parsed.children.len(),
                parsed.children.join(" ")
            );
        }
        dropped += parsed.dropped;
        let found = parsed.items.len();
        let (mut kept, mut capped_run, mut capped_day) = (0usize, 0usize, 0usize);
        for raw in parsed.items {
            let Ok(url) = Url::parse(&raw.link) else {
                dropped += 1;
                continue;
            };
            let link = canonical_link(&url);
            if earlier.seen.contains(&link) {
                old += 1;
                continue;
            }
            if links_this_hour.contains(&link) {
                continue; // the same article from a second source this hour: the first source keeps it
            }
            let today = today_per_source.entry(meta.source.clone()).or_default();
            if kept >= MAX_NEW_PER_SOURCE_RUN {
                capped_run += 1;
                continue;
            }
            if *today >= MAX_NEW_PER_SOURCE_DAY {
                capped_day += 1;
                continue;
            }
            *today += 1;
            kept += 1;
            links_this_hour.insert(link.clone());
            let id = item_id(&link);
            if let Some(s) = raw.summary.filter(|s| !s.is_empty()) {
                summaries.insert(id.clone(), s);
            }
            let (published, date_source) = match raw.published {
                Some(t) if t <= now + FUTURE_SLACK && t >= earliest => (t, DateSource::Publisher),
                _ => (now, DateSource::FirstSeen),
            };
            items.insert(
                (link.clone(), meta.source.clone()),
                Item {
                    id,
                    outlet: meta.outlet.clone(),
                    source: meta.source.clone(),
                    lang: meta.lang.clone(),
                    headline: raw.headline,
                    link,
                    published,
                    date_source,
                    first_seen: now,
                    category: raw.category,
                    author: raw.author,
                },
            );
        }
        if capped_run + capped_day > 0 {
            crate::elog!(
                "extract: {}: {} new items over the cap of {MAX_NEW_PER_SOURCE_RUN} per run and {} over the cap of {MAX_NEW_PER_SOURCE_DAY} per day were not kept",
                meta.source,
                capped_run,
                capped_day
            );
            over_cap += capped_run + capped_day;
            failed += 1;
        }
        new_items += kept;
        if let Some(at) = meta.fetched_at {
            receipts.insert(BodyRead {
                address: if meta.address.is_empty() {
                    meta.source.clone()
                } else {
                    meta.address.clone()
                },
                fetched_at: at,
                source: meta.source.clone(),
                items: found,
                kept,
                error: parsed.error.clone(),
            });
        }
    }
    let items: Vec<Item> = items.into_values().collect();
    let summaries: Vec<Summary> = summaries
        .into_iter()
        .map(|(id, summary)| Summary { id, summary })
        .collect();
    // Summaries first (transient), then the headlines, then the receipts that let the next
    // request carry these bodies' validators: a kill between two writes loses nothing.
    if !summaries.is_empty() {
        crate::store::write_jsonl(&summaries_path, &summaries)?;
    }
    crate::store::write_jsonl(&items_path, &items)?;
    let receipts: Vec<BodyRead> = receipts.into_iter().collect();
    if !receipts.is_empty() {
        crate::store::write_jsonl(&hour_dir.join("bodies.jsonl"), &receipts)?;
    }
    Ok(Report {
        summary: format!(
            "{} bodies: {} new items ({} in the hour), {} seen before, {} dropped (no http(s) link), {} dropped (link off the outlet's hosts), {} over the caps, {} bodies with errors",
            metas.len(),
            new_items,
            items.len(),
            old,
            dropped,
            off_site,
            over_cap,
            failed
        ),
        failed,
    })
}

/// Reads one body on a thread of its own, so that a reader that panics, or takes longer
/// than [`BODY_BUDGET`], costs that body alone.
fn read_bounded(meta: &RawMeta, body: Vec<u8>) -> std::result::Result<Parsed, String> {
    let base = Url::parse(&meta.url).map_err(|e| format!("bad base {}: {e}", meta.url))?;
    let (kind, ct, sel) = (meta.kind, meta.content_type.clone(), meta.selector.clone());
    bounded(BODY_BUDGET, move || {
        parse_body(kind, &body, &base, ct.as_deref(), sel.as_deref())
    })
}

/// Runs `work` on a thread of its own and waits at most `budget` for it. A panic or an
/// overrun is an error for this piece of work alone; an overrunning thread is left to end
/// with the process, and the caller goes on.
pub fn bounded<T: Send + 'static>(
    budget: std::time::Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> std::result::Result<T, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("extract-body".into())
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(r);
        })
        .map_err(|e| format!("cannot start a reader: {e}"))?;
    match rx.recv_timeout(budget) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Err("the reader failed on this body (see the line above); none of its items were kept, and it is asked for again".into()),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "reading the body took over {} s: given up, none of its items kept, and it is asked for again",
            budget.as_secs_f64()
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            Err("the reader stopped without an answer".into())
        }
    }
}

/// A reader's panic is one line on stderr, naming where, like every other failure.
fn install_panic_line() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        crate::elog!("extract: a reader failed at {at}: {msg}");
    }));
}

/// What earlier hours kept: canonical links of the last [`SEEN_DAYS`] days (never new
/// again), and today's new headlines per source (for [`MAX_NEW_PER_SOURCE_DAY`]).
struct Earlier {
    seen: BTreeSet<String>,
    today_per_source: BTreeMap<String, usize>,
}

fn earlier_hours(data: &crate::store::Data, now: DateTime<Utc>) -> Result<Earlier> {
    let mut seen = BTreeSet::new();
    let mut today_per_source: BTreeMap<String, usize> = BTreeMap::new();
    let this_day = crate::time::day(now);
    let this_hour = crate::time::hour(now);
    let first_day = crate::time::day(now - CDuration::days(SEEN_DAYS));
    for day in data.days()? {
        if day < first_day || day > this_day {
            continue;
        }
        for hour in data.hours(&day)? {
            if day == this_day && hour >= this_hour {
                continue;
            }
            let path = data.hour_dir(&day, &hour).join("items.jsonl");
            for item in crate::store::read_jsonl_opt::<Item>(&path)? {
                if day == this_day {
                    *today_per_source.entry(item.source.clone()).or_default() += 1;
                }
                seen.insert(item.link);
            }
        }
    }
    Ok(Earlier {
        seen,
        today_per_source,
    })
}

/// One item as `extract --file` prints it.
#[derive(Serialize)]
struct FileItem<'a> {
    headline: &'a str,
    link: &'a str,
    published: Option<String>,
    category: &'a [String],
    author: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    publication: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    dropped: bool,
}

fn run_file(args: &Args, file: &PathBuf) -> Result<Report> {
    use std::io::Write;
    let body = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let url = args.url.as_deref().unwrap_or_default();
    let base = crate::lists::parse_http_url(url).context("--url")?;
    let kind = match args.kind.as_deref() {
        None => sniff_kind(&body),
        Some("feed") => Kind::Feed,
        Some("sitemap") => Kind::Sitemap,
        Some("homepage") => Kind::Homepage,
        Some(k) => anyhow::bail!("--kind {k:?} is not one of feed, sitemap, homepage"),
    };
    let parsed = parse_body(
        kind,
        &body,
        &base,
        args.content_type.as_deref(),
        args.selector.as_deref(),
    );
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut all: Vec<(&RawItem, bool)> = Vec::new();
    let mut rejected = parsed.rejected.iter().peekable();
    for (i, it) in parsed.items.iter().enumerate() {
        while let Some((_, r)) = rejected.next_if(|(at, _)| *at <= i) {
            all.push((r, true));
        }
        all.push((it, false));
    }
    all.extend(rejected.map(|(_, r)| (r, true)));
    for (it, dropped) in all {
        if dropped && !args.all {
            continue;
        }
        let rec = FileItem {
            headline: &it.headline,
            link: &it.link,
            published: it.published.map(crate::time::fmt),
            category: &it.category,
            author: it.author.as_deref(),
            publication: it.publication.as_deref(),
            language: it.language.as_deref(),
            dropped,
        };
        serde_json::to_writer(&mut out, &rec)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    for child in &parsed.children {
        crate::elog!(
            "extract: {}: sitemap index points at {child}",
            file.display()
        );
    }
    let failed = usize::from(parsed.error.is_some());
    if let Some(e) = &parsed.error {
        crate::elog!("extract: {}: {e}", file.display());
    }
    Ok(Report {
        summary: format!("{} items, {} dropped", parsed.items.len(), parsed.dropped),
        failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_reader_that_panics_costs_its_own_body_only() {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = bounded(Duration::from_secs(5), || -> usize { panic!("bad body") });
        std::panic::set_hook(hook);
        assert!(r.unwrap_err().contains("failed on this body"));
        assert_eq!(bounded(Duration::from_secs(5), || 7), Ok(7));
    }

    #[test]
    fn a_reader_over_its_budget_is_given_up_and_the_run_goes_on() {
        let r = bounded(Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_secs(3));
            1
        });
        assert!(r.unwrap_err().contains("given up"));
    }
}
