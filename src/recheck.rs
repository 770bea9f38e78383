//! `recheck-headers`: has a public headline's article been withdrawn?
//!
//! Each public headline's link is asked once with a single HEAD request when the headline
//! is two days old, and once more at sixteen days; never otherwise, never with a second
//! request of another kind. A day the daily run missed is caught up the next day (up to
//! [`CATCH_UP_DAYS`] late); nothing is checked twice. Verdicts go to `DAY/rechecks.jsonl`.

use anyhow::Result;
use chrono::{DateTime, Duration as CDuration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use url::Url;

use crate::cli::{Common, Report};
use crate::polite::{Method, Outcome, Polite, Req};
use crate::records::Published;

/// Ask each public headline's link once, with HEAD, at 2 and at 16 days.
#[derive(Debug, clap::Parser)]
#[command(name = "recheck-headers", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
}

/// The ages (days) at which a headline's link is asked.
pub const CHECK_AGES: [i64; 2] = [2, 16];
/// A check missed by this many days is still made; later, it is not.
pub const CATCH_UP_DAYS: i64 = 3;

/// One re-check (`DAY/rechecks.jsonl`, sorted by check, then link).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recheck {
    pub id: String,
    pub link: String,
    pub source: String,
    /// 2 or 16: which check this was.
    pub check: i64,
    #[serde(with = "crate::time::rfc3339")]
    pub at: DateTime<Utc>,
    pub status: Option<u16>,
    /// standing, withdrawn, refused, unknown, not-asked
    pub verdict: String,
    pub reason: String,
}

impl Recheck {
    /// Whether this verdict takes the headline off every public page.
    pub fn removes(&self) -> bool {
        self.verdict == "withdrawn" || (self.verdict == "refused" && self.status == Some(451))
    }
}

/// Every re-check kept so far, oldest day first.
pub fn load_all(data: &crate::store::Data) -> Result<Vec<Recheck>> {
    let mut out = Vec::new();
    for day in data.days()? {
        out.extend(crate::store::read_jsonl_opt::<Recheck>(
            &data.day_dir(&day).join("rechecks.jsonl"),
        )?);
    }
    Ok(out)
}

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let pipeline = args.common.pipeline();
    let permissions = crate::lists::load_permissions(&pipeline)?;
    let never = crate::lists::load_never_fetch(&pipeline)?;
    let history = load_all(&data)?;
    let done: BTreeSet<(String, i64)> = history.iter().map(|r| (r.id.clone(), r.check)).collect();
    let removed: BTreeSet<String> = history
        .iter()
        .filter(|r| r.removes())
        .map(|r| r.id.clone())
        .collect();
    let first_day = crate::time::day(now - CDuration::days(CHECK_AGES[1] + CATCH_UP_DAYS + 1));
    let today = crate::time::day(now);
    let mut due: Vec<(i64, Published)> = Vec::new();
    for day in data.days()? {
        if day < first_day || day > today {
            continue;
        }
        for p in
            crate::store::read_jsonl_opt::<Published>(&data.day_dir(&day).join("published.jsonl"))?
        {
            if removed.contains(&p.id) {
                continue;
            }
            let age = crate::time::age_days(p.published, now);
            // The latest check whose age has come; an earlier one missed is not made late.
            let Some(check) = CHECK_AGES.iter().rev().copied().find(|a| age >= *a) else {
                continue;
            };
            if age > check + CATCH_UP_DAYS || done.contains(&(p.id.clone(), check)) {
                continue;
            }
            if check == CHECK_AGES[1] && age < CHECK_AGES[1] {
                continue;
            }
            due.push((check, p));
        }
    }
    due.sort_by(|a, b| (a.0, &a.1.link).cmp(&(b.0, &b.1.link)));
    due.dedup_by(|a, b| a.1.id == b.1.id && a.0 == b.0);
    let polite = Polite::open(&data, now, "recheck-headers", never, &permissions)?;
    let results = std::sync::Mutex::new(Vec::new());
    let mut by_site: std::collections::BTreeMap<String, Vec<&(i64, Published)>> =
        Default::default();
    for d in &due {
        let site = Url::parse(&d.1.link)
            .map(|u| crate::lists::site_of(&u))
            .unwrap_or_default();
        by_site.entry(site).or_default().push(d);
    }
    let queues: Vec<Vec<&(i64, Published)>> = by_site.into_values().collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..queues.len().clamp(1, crate::polite::SITES_SIDE_BY_SIDE) {
            scope.spawn(|| {
                while let Some(q) =
                    queues.get(next.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
                {
                    for (check, p) in q {
                        let r = check_one(&polite, *check, p, now);
                        results.lock().unwrap_or_else(|e| e.into_inner()).push(r);
                    }
                }
            });
        }
    });
    polite.finish()?;
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by(|a, b| (a.check, &a.link).cmp(&(b.check, &b.link)));
    let path = data.day_dir(&today).join("rechecks.jsonl");
    let mut all: Vec<Recheck> = crate::store::read_jsonl_opt(&path)?;
    all.extend(results.iter().cloned());
    all.sort_by(|a, b| (a.check, &a.link).cmp(&(b.check, &b.link)));
    crate::store::write_jsonl(&path, &all)?;
    let count = |v: &str| results.iter().filter(|r| r.verdict == v).count();
    Ok(Report {
        summary: format!(
            "{} links due: {} standing, {} withdrawn, {} refused, {} unknown, {} not asked",
            results.len(),
            count("standing"),
            count("withdrawn"),
            count("refused"),
            count("unknown"),
            count("not-asked")
        ),
        failed: 0,
    })
}

fn check_one(polite: &Polite, check: i64, p: &Published, now: DateTime<Utc>) -> Recheck {
    let mut r = Recheck {
        id: p.id.clone(),
        link: p.link.clone(),
        source: p.source.clone(),
        check,
        at: now,
        status: None,
        verdict: String::new(),
        reason: String::new(),
    };
    let Ok(url) = Url::parse(&p.link) else {
        r.verdict = "not-asked".into();
        r.reason = "not a URL".into();
        return r;
    };
    let req = Req {
        method: Method::Head,
        url: url.clone(),
        source: Some(p.source.clone()),
        etag: None,
        last_modified: None,
        follow_redirects: false,
    };
    let (verdict, status, reason) = match polite.request(&req) {
        Outcome::Fetched(f) => ("standing", Some(f.status), String::new()),
        Outcome::NotModified { .. } => ("standing", Some(304), String::new()),
        Outcome::Redirect { status, location } => match Url::parse(&location) {
            Ok(to) if is_home_or_section(&url, &to) => (
                "withdrawn",
                Some(status),
                format!("redirected to {location}"),
            ),
            _ => (
                "standing",
                Some(status),
                format!("redirected to {location}"),
            ),
        },
        Outcome::Gone { status } if status == 404 || status == 410 => {
            ("withdrawn", Some(status), String::new())
        }
        Outcome::Gone { status } => ("unknown", Some(status), format!("HTTP {status}")),
        Outcome::Refused { status, reason } => ("refused", status, reason),
        Outcome::Wait { status, until } => (
            "unknown",
            Some(status),
            format!("asked to wait until {}", crate::time::fmt(until)),
        ),
        Outcome::Failed { status, reason } => ("unknown", status, reason),
        Outcome::Skipped { reason } => ("not-asked", None, reason),
    };
    r.verdict = verdict.into();
    r.status = status;
    r.reason = reason;
    r
}

/// A redirect from an article to the site's home or a section page (one path segment or
/// none, on the same site or its `www.` twin) says the article is gone.
pub fn is_home_or_section(from: &Url, to: &Url) -> bool {
    let host = |u: &Url| {
        u.host_str()
            .unwrap_or_default()
            .trim_start_matches("www.")
            .to_string()
    };
    if host(from) != host(to) {
        return false;
    }
    let segments = |u: &Url| u.path().split('/').filter(|s| !s.is_empty()).count();
    segments(to) <= 1 && segments(from) > segments(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_to_home_or_section_are_withdrawals() {
        let a = Url::parse("https://www.example.com/news/karnataka/2026/11/28/rain.html").unwrap();
        assert!(is_home_or_section(
            &a,
            &Url::parse("https://www.example.com/").unwrap()
        ));
        assert!(is_home_or_section(
            &a,
            &Url::parse("https://example.com/news/").unwrap()
        ));
        assert!(!is_home_or_section(
            &a,
            &Url::parse("https://www.example.com/news/karnataka/2026/11/28/rain-1.html").unwrap()
        ));
        assert!(!is_home_or_section(
            &a,
            &Url::parse("https://other.example/").unwrap()
        ));
    }
}
