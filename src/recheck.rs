//! `recheck-headers`: has a public headline's article been withdrawn?
//!
//! Each public headline's link is asked once with a single HEAD request when the headline
//! is two days old (by its publication time), and once more at sixteen days; never
//! otherwise, never with a second request of another kind, never following a redirect.
//! A day the daily run missed is caught up the next day (up to [`CATCH_UP_DAYS`] late);
//! nothing is asked twice: the history is every `DATA/*/rechecks.jsonl`. A check that made
//! no request (`not-asked`: robots, a refusal, a wait) is tried again on a later day while
//! it is still within the catch-up window, since it asked nothing.
//!
//! Every request goes through [`crate::polite::Polite::request`], so robots.txt, refusals,
//! waits and one-at-a-time per site hold here as for feeds. The verdicts:
//!
//! | verdict | when | effect |
//! |---|---|---|
//! | `standing` | 2xx, 304, a redirect to the same article (or its new address on the same site) | none |
//! | `withdrawn` | 404, 410, a redirect to the site's home or a section page | off every public page at the next publish |
//! | `refused` | 401, 403, 451, a challenge page | the site, and the site of the source the headline came from, are refused (state.json); a 451 also withdraws the headline |
//! | `unknown` | time-out, connection error, 5xx, 429/503, 405 and other 4xx, a redirect off the site | none; no second request of any kind |
//! | `not-asked` | robots.txt disallows, the site refused or halted or asked to wait, the link is not on the publisher's own hosts, its address is not public | none |
//!
//! Headlines of opted-out outlets and sites and taken-down headlines are not asked about at all.

use anyhow::Result;
use chrono::{DateTime, Duration as CDuration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
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

/// The ages (whole days since publication) at which a headline's link is asked.
pub const CHECK_AGES: [i64; 2] = [2, 16];
/// A check missed by up to this many days is still made; later, it is not.
pub const CATCH_UP_DAYS: i64 = 3;

/// The verdicts, as written in `rechecks.jsonl`.
pub const STANDING: &str = "standing";
pub const WITHDRAWN: &str = "withdrawn";
pub const REFUSED: &str = "refused";
pub const UNKNOWN: &str = "unknown";
pub const NOT_ASKED: &str = "not-asked";

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
    /// Whether this verdict takes the headline off every public page: withdrawn, or a 451.
    pub fn removes(&self) -> bool {
        self.verdict == WITHDRAWN || (self.verdict == REFUSED && self.status == Some(451))
    }

    /// Whether a request was made (or the check is otherwise settled): only `not-asked`
    /// leaves a check open for a later day.
    pub fn settles(&self) -> bool {
        self.verdict != NOT_ASKED
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

/// The checks due at `now` among `public` headlines, given every earlier re-check: for
/// each headline, the latest check whose age has come, if it is at most [`CATCH_UP_DAYS`]
/// late, not yet settled, and the headline was not removed by an earlier verdict. An
/// earlier check missed altogether is not made late. Sorted by check, then link; one per
/// (headline, check) however many days' lists carry the headline.
pub fn due(
    public: impl IntoIterator<Item = Published>,
    history: &[Recheck],
    now: DateTime<Utc>,
) -> Vec<(i64, Published)> {
    let settled: BTreeSet<(&str, i64)> = history
        .iter()
        .filter(|r| r.settles())
        .map(|r| (r.id.as_str(), r.check))
        .collect();
    let removed: BTreeSet<&str> = history
        .iter()
        .filter(|r| r.removes())
        .map(|r| r.id.as_str())
        .collect();
    let mut out: BTreeMap<(i64, String, String), Published> = BTreeMap::new();
    for p in public {
        if removed.contains(p.id.as_str()) {
            continue;
        }
        let age = crate::time::age_days(p.published, now);
        let Some(check) = CHECK_AGES.iter().rev().copied().find(|a| age >= *a) else {
            continue;
        };
        if age > check + CATCH_UP_DAYS || settled.contains(&(p.id.as_str(), check)) {
            continue;
        }
        out.entry((check, p.link.clone(), p.id.clone()))
            .or_insert(p);
    }
    out.into_iter().map(|((c, _, _), p)| (c, p)).collect()
}

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let pipeline = args.common.pipeline();
    let permissions = crate::lists::load_permissions(&pipeline, now)?;
    let never = crate::lists::load_never_fetch(&pipeline)?;
    let network = crate::lists::load_network(&pipeline)?;
    let hosts = crate::lists::load_hosts(&pipeline, None)?;
    let history = load_all(&data)?;
    // A headline is listed in the published list of the day it was first seen, which is
    // never before its publication day: days older than the last check's window hold
    // nothing due.
    let first_day = crate::time::day(now - CDuration::days(CHECK_AGES[1] + CATCH_UP_DAYS + 1));
    let today = crate::time::day(now);
    let mut public = Vec::new();
    for day in data.days()? {
        if day < first_day || day > today {
            continue;
        }
        public.extend(crate::store::read_jsonl_opt::<Published>(
            &data.day_dir(&day).join("published.jsonl"),
        )?);
    }
    // Opted-out outlets and sites and taken-down headlines are not public: nothing is asked
    // about them (a withdrawn one is left out by `due` from the history).
    let removals = crate::publish::removals::Removals::load(&pipeline, &data, now)?;
    let listed = public.len();
    public.retain(|p| removals.removes_public(p).is_none());
    let left_out = listed - public.len();
    let due = due(public, &history, now);
    let signer = args.common.signer(now)?;
    let polite = Polite::open(
        &data,
        now,
        "recheck-headers",
        never,
        &permissions,
        network,
        signer,
    )?;
    let results = std::sync::Mutex::new(Vec::new());
    let mut by_site: BTreeMap<String, Vec<&(i64, Published)>> = BTreeMap::new();
    for d in &due {
        let site = Url::parse(&d.1.link)
            .map(|u| crate::lists::site_of(&u))
            .unwrap_or_default();
        by_site.entry(site).or_default().push(d);
    }
    // Sites side by side, longest queues first; each site's checks one at a time.
    let mut queues: Vec<Vec<&(i64, Published)>> = by_site.into_values().collect();
    queues.sort_by_key(|q| std::cmp::Reverse(q.len()));
    crate::polite::side_by_side(&queues, crate::polite::SITES_SIDE_BY_SIDE, |q| {
        for (check, p) in q {
            let r = check_one(&polite, &hosts, *check, p, now);
            results.lock().unwrap_or_else(|e| e.into_inner()).push(r);
        }
    });
    polite.finish()?;
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by(|a, b| (a.check, &a.link).cmp(&(b.check, &b.link)));
    let path = data.day_dir(&today).join("rechecks.jsonl");
    let mut all: Vec<Recheck> = crate::store::read_jsonl_opt(&path)?;
    all.extend(results.iter().cloned());
    all.sort_by(|a, b| (a.check, &a.link, a.at).cmp(&(b.check, &b.link, b.at)));
    crate::store::write_jsonl(&path, &all)?;
    let count = |v: &str| results.iter().filter(|r| r.verdict == v).count();
    Ok(Report {
        summary: format!(
            "{} links due: {} standing, {} withdrawn, {} refused, {} unknown, {} not asked; {left_out} listings opted out, taken down or off the publisher's hosts, not asked",
            results.len(),
            count(STANDING),
            count(WITHDRAWN),
            count(REFUSED),
            count(UNKNOWN),
            count(NOT_ASKED)
        ),
        failed: 0,
    })
}

fn check_one(
    polite: &Polite,
    hosts: &crate::hosts::Hosts,
    check: i64,
    p: &Published,
    now: DateTime<Utc>,
) -> Recheck {
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
    let url = match Url::parse(&p.link) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => u,
        _ => {
            r.verdict = NOT_ASKED.into();
            r.reason = "not an http(s) link".into();
            return r;
        }
    };
    let req = Req {
        method: Method::Head,
        url: url.clone(),
        source: Some(p.source.clone()),
        etag: None,
        last_modified: None,
        follow_redirects: false,
        // Only the publisher's own hosts are asked: a link elsewhere is not (off-site).
        scope: hosts.scope_of(&p.outlet, &p.source),
    };
    let (verdict, status, reason) = verdict(&url, polite.request(&req));
    r.verdict = verdict.into();
    r.status = status;
    r.reason = reason;
    r
}

/// What a HEAD request's outcome says about the article at `url`.
pub fn verdict(url: &Url, outcome: Outcome) -> (&'static str, Option<u16>, String) {
    match outcome {
        Outcome::Fetched(f) => (STANDING, Some(f.status), String::new()),
        Outcome::NotModified { .. } => (STANDING, Some(304), String::new()),
        Outcome::Redirect { status, location } => match Url::parse(&location) {
            Ok(to) if is_home_or_section(url, &to) => (
                WITHDRAWN,
                Some(status),
                format!("redirected to the home or a section page: {location}"),
            ),
            Ok(to) if same_site(url, &to) => {
                (STANDING, Some(status), format!("redirected to {location}"))
            }
            _ => (
                UNKNOWN,
                Some(status),
                format!("redirected off the site, not followed: {location}"),
            ),
        },
        Outcome::Gone { status } if status == 404 || status == 410 => {
            (WITHDRAWN, Some(status), format!("HTTP {status}"))
        }
        Outcome::Gone { status } => (
            UNKNOWN,
            Some(status),
            format!("HTTP {status}; no request of another kind is made"),
        ),
        Outcome::Refused { status, reason } => (REFUSED, status, reason),
        Outcome::Wait { status, until } => (
            UNKNOWN,
            Some(status),
            format!("asked to wait until {}", crate::time::fmt(until)),
        ),
        Outcome::Failed { status, reason } => (UNKNOWN, status, reason),
        Outcome::Skipped { reason, .. }
        | Outcome::OffSite { reason }
        | Outcome::Blocked { reason } => (NOT_ASKED, None, reason),
    }
}

fn bare_host(u: &Url) -> String {
    u.host_str()
        .unwrap_or_default()
        .trim_start_matches("www.")
        .to_string()
}

/// Same host (or its `www.` twin) and port, either scheme (default ports count as none).
fn same_site(a: &Url, b: &Url) -> bool {
    bare_host(a) == bare_host(b) && a.port() == b.port()
}

/// A redirect from an article to the site's home or a section page says the article is
/// gone: on the same site (or its `www.` twin), to the root, to a page one path segment
/// deep, or to an ancestor of the article's own path (`/news/karnataka/` for
/// `/news/karnataka/2026/rain.html`), optionally ending in `index.html`.
pub fn is_home_or_section(from: &Url, to: &Url) -> bool {
    if !same_site(from, to) {
        return false;
    }
    let segments = |u: &Url| -> Vec<String> {
        u.path()
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let f = segments(from);
    let mut t = segments(to);
    if t.last().is_some_and(|s| {
        s.eq_ignore_ascii_case("index.html") || s.eq_ignore_ascii_case("index.htm")
    }) {
        t.pop();
    }
    if t.len() >= f.len() {
        return false;
    }
    t.len() <= 1 || f.starts_with(&t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::DateSource;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn redirects_to_home_or_section_are_withdrawals() {
        let a = url("https://www.example.com/news/karnataka/2026/11/28/rain.html");
        for to in [
            "https://www.example.com/",
            "https://example.com/news/",
            "http://www.example.com/index.html",
            "https://www.example.com/news/karnataka/",
        ] {
            assert!(is_home_or_section(&a, &url(to)), "{to}");
        }
        for to in [
            "https://www.example.com/news/karnataka/2026/11/28/rain-1.html",
            "https://www.example.com/news/karnataka/2026/11/28/rain.html/",
            "https://www.example.com/sports/cricket/",
            "https://other.example/",
            "https://www.example.com:8443/",
        ] {
            assert!(!is_home_or_section(&a, &url(to)), "{to}");
        }
    }

    #[test]
    fn verdicts_by_outcome() {
        let a = url("https://example.com/news/story.html");
        let v = |o| verdict(&a, o).0;
        assert_eq!(v(Outcome::Gone { status: 404 }), WITHDRAWN);
        assert_eq!(v(Outcome::Gone { status: 410 }), WITHDRAWN);
        assert_eq!(v(Outcome::Gone { status: 405 }), UNKNOWN);
        assert_eq!(v(Outcome::Gone { status: 400 }), UNKNOWN);
        let redirect = |l: &str| Outcome::Redirect {
            status: 301,
            location: l.into(),
        };
        assert_eq!(v(redirect("https://example.com/")), WITHDRAWN);
        assert_eq!(
            v(redirect("https://example.com/news/story-2.html")),
            STANDING
        );
        assert_eq!(v(redirect("https://login.example.net/wall")), UNKNOWN);
        let refused = Outcome::Refused {
            status: Some(451),
            reason: "refused-451".into(),
        };
        let (verdict_451, status, _) = verdict(&a, refused);
        let r = Recheck {
            id: "x".into(),
            link: a.to_string(),
            source: a.to_string(),
            check: 2,
            at: crate::time::parse_now("2026-12-01T00:00:00Z").unwrap(),
            status,
            verdict: verdict_451.into(),
            reason: String::new(),
        };
        assert!(r.removes(), "a 451 refuses and withdraws");
        let r403 = Recheck {
            status: Some(403),
            ..r.clone()
        };
        assert!(!r403.removes(), "a 403 refuses but does not withdraw");
        assert_eq!(
            v(Outcome::Failed {
                status: Some(500),
                reason: "http-500".into()
            }),
            UNKNOWN
        );
        assert_eq!(
            v(Outcome::Skipped {
                reason: "robots".into(),
                until: None,
                after_redirect: false,
            }),
            NOT_ASKED
        );
    }

    fn published(link: &str, at: &str) -> Published {
        Published {
            id: crate::records::item_id(link),
            outlet: "O".into(),
            source: "https://example.com/feed".into(),
            lang: "en".into(),
            headline: "H".into(),
            link: link.into(),
            published: crate::time::parse_now(at).unwrap(),
            date_source: DateSource::Publisher,
            topic: "other".into(),
            opinion: false,
        }
    }

    fn checked(p: &Published, check: i64, verdict: &str, status: Option<u16>) -> Recheck {
        Recheck {
            id: p.id.clone(),
            link: p.link.clone(),
            source: p.source.clone(),
            check,
            at: p.published,
            status,
            verdict: verdict.into(),
            reason: String::new(),
        }
    }

    fn due_at(list: &[Published], history: &[Recheck], now: &str) -> Vec<(i64, String)> {
        due(
            list.iter().cloned(),
            history,
            crate::time::parse_now(now).unwrap(),
        )
        .into_iter()
        .map(|(c, p)| (c, p.link))
        .collect()
    }

    #[test]
    fn due_at_two_and_sixteen_days_with_catch_up_and_never_twice() {
        let a = published("https://example.com/a", "2026-11-30T05:00:00Z");
        let list = vec![a.clone(), a.clone()]; // listed on two days: still one check
        let link = a.link.clone();
        assert!(due_at(&list, &[], "2026-12-02T04:59:59Z").is_empty());
        assert_eq!(
            due_at(&list, &[], "2026-12-02T05:00:00Z"),
            [(2, link.clone())]
        );
        // Missed days are caught up to three days late, and no later.
        assert_eq!(
            due_at(&list, &[], "2026-12-05T23:00:00Z"),
            [(2, link.clone())]
        );
        assert!(due_at(&list, &[], "2026-12-06T05:00:00Z").is_empty());
        // Once asked, never again; a check that asked nothing stays open.
        let h = [checked(&a, 2, STANDING, Some(200))];
        assert!(due_at(&list, &h, "2026-12-03T05:00:00Z").is_empty());
        let h_skip = [checked(&a, 2, NOT_ASKED, None)];
        assert_eq!(
            due_at(&list, &h_skip, "2026-12-03T05:00:00Z"),
            [(2, link.clone())]
        );
        // Sixteen days, whether or not the first check was made; an earlier one is not made late.
        assert!(due_at(&list, &h, "2026-12-16T04:00:00Z").is_empty());
        assert_eq!(
            due_at(&list, &h, "2026-12-16T05:00:00Z"),
            [(16, link.clone())]
        );
        assert_eq!(
            due_at(&list, &[], "2026-12-17T05:00:00Z"),
            [(16, link.clone())]
        );
        assert!(due_at(&list, &[], "2026-12-20T05:00:00Z").is_empty());
        let h2 = [h[0].clone(), checked(&a, 16, UNKNOWN, Some(405))];
        assert!(due_at(&list, &h2, "2026-12-17T05:00:00Z").is_empty());
        // A withdrawn or 451 headline is never asked again.
        for (v, s) in [(WITHDRAWN, Some(404)), (REFUSED, Some(451))] {
            let h = [checked(&a, 2, v, s)];
            assert!(due_at(&list, &h, "2026-12-16T05:00:00Z").is_empty(), "{v}");
        }
        let h = [checked(&a, 2, REFUSED, Some(403))];
        assert_eq!(due_at(&list, &h, "2026-12-16T05:00:00Z"), [(16, link)]);
    }
}
