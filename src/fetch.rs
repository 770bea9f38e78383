//! `fetch-feeds`: the hourly read of every due source, through the politeness module.
//!
//! Reads the source list, the opt-outs, today's robots verdicts and the durable state; asks
//! each due feed, news sitemap or home page once (conditionally, with the validators of its
//! last good answer), sites side by side and each site's requests one at a time; keeps the
//! bodies only in the hour's transient directory for `extract`; writes every request and
//! every decision not to make one to the hour's `fetch.jsonl`.

use anyhow::{Context, Result};
use chrono::{DateTime, Duration as CDuration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cli::{Common, Report};
use crate::lists::{Kind, Source};
use crate::polite::{Outcome, Polite, Req};

/// Read each due source once, politely, and keep the bodies for this hour's extract.
#[derive(Debug, clap::Parser)]
#[command(name = "fetch-feeds", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Sites read side by side (each site's own requests are always one at a time).
    #[arg(long, default_value_t = 32)]
    pub workers: usize,
}

/// A feed is read about once an hour.
pub const FEED_INTERVAL: CDuration = CDuration::minutes(60);
/// A source due within this margin is read now, so an hourly cron that drifts by a few
/// minutes does not skip an hour. The interval can never fall below 10 minutes this way.
pub const DUE_SLACK: CDuration = CDuration::minutes(5);
/// Never more often than this, whatever the schedule.
pub const MIN_INTERVAL: CDuration = CDuration::minutes(10);
/// Feed caching hints hold a feed back up to this long.
pub const MAX_HOLD: CDuration = CDuration::hours(24);
/// Back-off after a failure: this, doubling per failure in a row, up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: CDuration = CDuration::minutes(10);
pub const MAX_BACKOFF: CDuration = CDuration::hours(6);

/// What `extract` needs to know about a kept body (`.transient/KEY.json` beside `KEY.body`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RawMeta {
    pub source: String,
    pub outlet: String,
    pub lang: String,
    pub kind: Kind,
    pub selector: Option<String>,
    /// Where the body came from after redirects (the base for relative links).
    pub url: String,
    pub content_type: Option<String>,
}

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let pipeline = args.common.pipeline();
    let sources = crate::lists::load_sources(&pipeline)?;
    let optouts = crate::lists::load_optouts(&pipeline)?;
    let permissions = crate::lists::load_permissions(&pipeline)?;
    let never = crate::lists::load_never_fetch(&pipeline)?;
    let polite = Polite::open(&data, now, "fetch-feeds", never, &permissions)?;
    let day = crate::time::day(now);
    let hour = crate::time::hour(now);
    let transient = data.transient_dir(&day, &hour);
    std::fs::create_dir_all(&transient)
        .with_context(|| format!("creating {}", transient.display()))?;

    let mut by_site: BTreeMap<String, Vec<&Source>> = BTreeMap::new();
    let mut counts = Counts::default();
    for s in &sources {
        if let Some(o) = optouts.covers(&s.outlet, &s.site()) {
            let (what, since, line) = match o {
                crate::lists::OptOut::Site { since, line, .. } => ("site", since, line),
                crate::lists::OptOut::Outlet { since, line, .. } => ("outlet", since, line),
            };
            polite.note_skip(
                &s.url,
                Some(s.url.as_str()),
                &format!("{what} opted out since {since} (optouts.csv:{line})"),
                None,
            );
            counts.skipped += 1;
            continue;
        }
        let due = polite.with_state(|st| st.sources.get(s.url.as_str()).and_then(|x| x.next_due));
        if let Some(t) = due {
            if t > now + DUE_SLACK {
                polite.note_skip(
                    &s.url,
                    Some(s.url.as_str()),
                    &format!("not due until {}", crate::time::fmt(t)),
                    Some(t),
                );
                counts.skipped += 1;
                continue;
            }
        }
        by_site.entry(s.site()).or_default().push(s);
    }
    // Longest queues first, so the run ends as soon as its slowest site allows.
    let mut queues: Vec<(String, Vec<&Source>)> = by_site.into_iter().collect();
    queues.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(counts);
    let workers = args.workers.clamp(1, queues.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((_, queue)) = queues.get(i) else {
                        break;
                    };
                    for s in queue {
                        let r = fetch_one(&polite, s, now, &transient);
                        let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
                        match r {
                            Ok(k) => c.add(k),
                            Err(e) => {
                                eprintln!("fetch-feeds: {}: {e:#}", s.url);
                                c.failed += 1;
                            }
                        }
                    }
                }
            });
        }
    });
    polite.finish()?;
    let c = counts.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(Report {
        summary: format!(
            "{} sources: {} fetched, {} not modified, {} skipped, {} refused, {} asked to wait, {} failed",
            sources.len(),
            c.fetched,
            c.not_modified,
            c.skipped,
            c.refused,
            c.waiting,
            c.failed
        ),
        failed: c.failed,
    })
}

#[derive(Default)]
struct Counts {
    fetched: usize,
    not_modified: usize,
    skipped: usize,
    refused: usize,
    waiting: usize,
    failed: usize,
}

enum Kept {
    Fetched,
    NotModified,
    Skipped,
    Refused,
    Waiting,
    Failed,
}

impl Counts {
    fn add(&mut self, k: Kept) {
        match k {
            Kept::Fetched => self.fetched += 1,
            Kept::NotModified => self.not_modified += 1,
            Kept::Skipped => self.skipped += 1,
            Kept::Refused => self.refused += 1,
            Kept::Waiting => self.waiting += 1,
            Kept::Failed => self.failed += 1,
        }
    }
}

fn fetch_one(
    polite: &Polite,
    s: &Source,
    now: DateTime<Utc>,
    transient: &std::path::Path,
) -> Result<Kept> {
    let url = s.url.as_str().to_string();
    let prev = polite.with_state(|st| st.sources.get(&url).cloned().unwrap_or_default());
    let req = Req {
        method: crate::polite::Method::Get,
        url: s.url.clone(),
        source: Some(url.clone()),
        etag: prev.etag.clone(),
        last_modified: prev.last_modified.clone(),
        follow_redirects: true,
    };
    let outcome = polite.request(&req);
    let kept = match outcome {
        Outcome::Fetched(f) => {
            let key = s.key();
            crate::store::write_atomic(&transient.join(format!("{key}.body")), &f.body)?;
            let meta = RawMeta {
                source: url.clone(),
                outlet: s.outlet.clone(),
                lang: s.lang.clone(),
                kind: s.kind,
                selector: s.selector.clone(),
                url: f.url.to_string(),
                content_type: f.headers.get("content-type").cloned(),
            };
            crate::store::write_atomic(
                &transient.join(format!("{key}.json")),
                &serde_json::to_vec(&meta)?,
            )?;
            let hold = caching_hint(&f.headers, &f.body, now).unwrap_or(FEED_INTERVAL);
            polite.with_state(|st| {
                let e = st.source(&url);
                // Validators are kept exactly as received, and only from a good answer.
                e.etag = f.headers.get("etag").cloned();
                e.last_modified = f.headers.get("last-modified").cloned();
                e.failures = 0;
                e.last_success = Some(now);
                e.next_due = Some(now + hold.clamp(FEED_INTERVAL, MAX_HOLD));
            });
            Kept::Fetched
        }
        Outcome::NotModified => {
            polite.with_state(|st| {
                let e = st.source(&url);
                e.failures = 0;
                e.last_success = Some(now);
                e.next_due = Some(now + FEED_INTERVAL);
            });
            Kept::NotModified
        }
        Outcome::Failed { .. } | Outcome::Gone { .. } | Outcome::Redirect { .. } => {
            polite.with_state(|st| {
                let e = st.source(&url);
                e.failures += 1;
                e.next_due = Some(now + backoff(e.failures));
            });
            Kept::Failed
        }
        Outcome::Wait { until, .. } => {
            polite.with_state(|st| st.source(&url).next_due = Some(until));
            Kept::Waiting
        }
        Outcome::Refused { .. } => Kept::Refused,
        Outcome::Skipped { .. } => Kept::Skipped,
    };
    Ok(kept)
}

/// Back-off after `failures` failures in a row: 10 minutes, doubling, at most 6 hours.
pub fn backoff(failures: u32) -> CDuration {
    let mut d = FIRST_BACKOFF;
    for _ in 1..failures.min(16) {
        d = d * 2;
        if d >= MAX_BACKOFF {
            return MAX_BACKOFF;
        }
    }
    d.min(MAX_BACKOFF)
}

/// How long a feed asks to be left alone: the largest of Cache-Control max-age, Expires,
/// RSS `<ttl>` (minutes) and `sy:updatePeriod`/`sy:updateFrequency`. `None` if it asks nothing.
pub fn caching_hint(
    headers: &BTreeMap<String, String>,
    body: &[u8],
    now: DateTime<Utc>,
) -> Option<CDuration> {
    let mut hints: Vec<CDuration> = Vec::new();
    if let Some(cc) = headers.get("cache-control") {
        for part in cc.split(',') {
            let part = part.trim().to_ascii_lowercase();
            if let Some(v) = part.strip_prefix("max-age=") {
                if let Ok(secs) = v.trim_matches('"').parse::<i64>() {
                    hints.push(CDuration::seconds(secs.max(0)));
                }
            }
        }
    }
    if let Some(exp) = headers.get("expires") {
        if let Ok(t) = httpdate::parse_http_date(exp) {
            let t: DateTime<Utc> = t.into();
            hints.push((t - now).max(CDuration::zero()));
        }
    }
    let head = &body[..body.len().min(64 * 1024)];
    let text = String::from_utf8_lossy(head);
    if let Some(ttl) = tag_text(&text, "ttl").and_then(|v| v.parse::<i64>().ok()) {
        hints.push(CDuration::minutes(ttl.max(0)));
    }
    if let Some(period) = tag_text(&text, "sy:updatePeriod") {
        let base = match period.to_ascii_lowercase().as_str() {
            "hourly" => Some(CDuration::hours(1)),
            "daily" => Some(CDuration::days(1)),
            "weekly" => Some(CDuration::weeks(1)),
            "monthly" => Some(CDuration::days(30)),
            "yearly" => Some(CDuration::days(365)),
            _ => None,
        };
        let freq = tag_text(&text, "sy:updateFrequency")
            .and_then(|v| v.parse::<i32>().ok())
            .filter(|f| *f > 0)
            .unwrap_or(1);
        if let Some(b) = base {
            hints.push(b / freq);
        }
    }
    hints.into_iter().max()
}

/// The trimmed text of the first `<tag>…</tag>` in a feed's head (a cheap look, not a parse).
fn tag_text<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find("</")? + start;
    Some(text[start..end].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_ten_minutes_to_six_hours() {
        assert_eq!(backoff(1), CDuration::minutes(10));
        assert_eq!(backoff(2), CDuration::minutes(20));
        assert_eq!(backoff(3), CDuration::minutes(40));
        assert_eq!(backoff(6), CDuration::minutes(320));
        assert_eq!(backoff(7), CDuration::hours(6));
        assert_eq!(backoff(40), CDuration::hours(6));
    }

    #[test]
    fn caching_hints_take_the_largest() {
        let now = crate::time::parse_now("2026-11-30T06:00:00Z").unwrap();
        let h: BTreeMap<String, String> = [(
            "cache-control".to_string(),
            "public, max-age=600".to_string(),
        )]
        .into();
        assert_eq!(
            caching_hint(&h, b"<rss><channel><ttl>180</ttl>", now),
            Some(CDuration::minutes(180))
        );
        assert_eq!(
            caching_hint(&h, b"<rss/>", now),
            Some(CDuration::minutes(10))
        );
        let body = b"<rss><channel><sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>";
        assert_eq!(
            caching_hint(&BTreeMap::new(), body, now),
            Some(CDuration::hours(12))
        );
        assert_eq!(caching_hint(&BTreeMap::new(), b"<rss/>", now), None);
    }
}
