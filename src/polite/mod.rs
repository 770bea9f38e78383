//! The politeness module: the only code that talks to publishers' sites.
//!
//! Every request of every stage goes through [`Polite::request`], which keeps the rules of
//! "How Huduku fetches" in one place:
//! - one user agent, [`USER_AGENT`], and no other;
//! - robots.txt first: a site's robots.txt is read before any other request to it and kept
//!   for the day (`DAY/robots.jsonl`, `DAY/robots/SITE.txt`); its group for HudukuBot if any,
//!   else `*`; no disallowed path is asked for; `Content-Signal: search=no`,
//!   `Content-Usage: search=n` and a 401/403/451 or a challenge page on robots.txt are a
//!   refusal of the site (every answer, robots.txt too, goes through one classifier,
//!   [`outcome::classify`]); 5xx or no answer means nothing on the site is fetched until a
//!   later read succeeds, and robots.txt is tried again after an hour, doubling up to a day,
//!   never within ten minutes of the last read, as the durable state records;
//! - refusals are final (401, 403, 451, challenge pages), until a newer line in
//!   `pipeline/permissions.csv` records who allowed it and why;
//! - asked to wait (429, 503), it waits max(Retry-After, 1 hour); three in a row halt the site;
//! - one request at a time per site, at least [`MIN_SPACING`] apart or the Crawl-delay;
//! - every request times out after [`TIMEOUT`]; bodies over the cap are dropped, not parsed;
//! - redirects are followed by hand, at most [`MAX_REDIRECTS`] hops, each hop's site checked
//!   as a site of its own, never into an aggregator or someone else's copy;
//! - only the publisher's own hosts are asked (every request carries the [`Scope`] of its
//!   source; a request or a redirect hop elsewhere is an `off-site` line, not a request),
//!   except robots.txt, whose redirects may cross hosts (RFC 9309);
//! - no connection to an address that is not public (private, loopback, link-local, ...),
//!   judged after the name is resolved, unless `network.csv` allows its range ([`address`]);
//!   a URL carrying credentials is never sent. Both end in a `blocked` line.
//!
//! Every request, and every decision not to make one, becomes a [`FetchLine`] in the hour's
//! `fetch.jsonl`.

pub mod address;
pub mod outcome;
pub mod robots;
pub mod schedule;
pub mod sign;

use anyhow::{Context, Result};
use chrono::{DateTime, Duration as CDuration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Read;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use url::Url;

use crate::hosts::Scope;
use crate::lists::{NeverFetch, Permission, site_of};
use crate::state::{State, Stop};
use crate::store::Data;
use outcome::Class;
use robots::Rules;

/// The one name HudukuBot asks under.
pub const USER_AGENT: &str = "HudukuBot/1.0 (+https://huduku.org/fetching)";
/// The product token robots.txt groups are matched against.
pub const PRODUCT_TOKEN: &str = "HudukuBot";
/// Each request, body included, is given up after this long.
pub const TIMEOUT: Duration = Duration::from_secs(8);
/// Least time between the end of one request to a site and the start of the next.
pub const MIN_SPACING: Duration = Duration::from_secs(1);
/// Added to every wait between requests to a site: the publisher's server notes a request
/// finished a moment after we have read its last byte, and the spacing is promised as the
/// publisher measures it.
pub const SPACING_MARGIN: Duration = Duration::from_millis(50);
/// Largest body read; a larger one is dropped whole.
pub const BODY_CAP: u64 = 10 * 1024 * 1024;
/// robots.txt bodies are read this far (RFC 9309 asks for at least 500 KiB) and cut there.
pub const ROBOTS_READ: u64 = 512 * 1024;
/// Redirect hops followed at most (robots.txt and every other request).
pub const MAX_REDIRECTS: usize = 5;
/// Sites served side by side at most, one thread each: a site spends most of its time waiting
/// out its spacing, so no site should ever wait on another.
pub const SITES_SIDE_BY_SIDE: usize = 1024;
/// The least wait after a 429 or 503, whatever Retry-After says.
pub const MIN_WAIT: CDuration = CDuration::hours(1);
/// 429/503 answers in a row that halt a site until a person looks.
pub const WAITS_TO_HALT: u32 = 3;
/// The longest wait kept as a wait: a Retry-After asking for longer halts the site until a
/// person looks (stricter than waiting, never weaker). Also the longest any stored hold can
/// be, so a stored time further ahead than this is a clock that moved, not a hold.
pub const MAX_WAIT: CDuration = CDuration::days(30);

/// HEAD or GET; nothing else is ever sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
        }
    }
}

/// One request to make.
#[derive(Debug, Clone)]
pub struct Req {
    pub method: Method,
    pub url: Url,
    /// The source (feed, sitemap, home page URL) this request is for: a refusal stops it.
    pub source: Option<String>,
    /// Validators from the last good answer, sent exactly as received.
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// Follow redirects (GET of feeds); a re-check HEAD does not, so it stays one request.
    pub follow_redirects: bool,
    /// The publisher's own hosts: the request and every redirect hop must stay on them.
    pub scope: Scope,
}

/// A 2xx answer with its body.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub status: u16,
    /// Where the body finally came from, after redirects.
    pub url: Url,
    /// Response headers, names lower-cased.
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

/// What came of a request.
#[derive(Debug, Clone)]
pub enum Outcome {
    Fetched(Fetched),
    /// 304: nothing new; its headers may still carry caching hints.
    NotModified {
        headers: BTreeMap<String, String>,
    },
    /// A redirect that was not followed (a HEAD re-check), with its target resolved.
    Redirect {
        status: u16,
        location: String,
    },
    /// 404, 410 or another 4xx.
    Gone {
        status: u16,
    },
    /// Refused now (401, 403, 451, challenge, a refused redirect).
    Refused {
        status: Option<u16>,
        reason: String,
    },
    /// Asked to wait (429, 503).
    Wait {
        status: u16,
        until: DateTime<Utc>,
    },
    /// Time-out, connection error, 5xx, broken or oversized body, too many redirects.
    Failed {
        status: Option<u16>,
        reason: String,
    },
    /// Not requested, and why (robots, a refusal, a wait, the never-fetch list), with the
    /// time the hold ends where one is known. `after_redirect`: the address was asked and
    /// redirected here, and this target is what was not asked.
    Skipped {
        reason: String,
        until: Option<DateTime<Utc>>,
        after_redirect: bool,
    },
    /// Not requested, or a redirect not followed: the address is not on the publisher's own
    /// hosts.
    OffSite {
        reason: String,
    },
    /// Not sent: the address resolved to one that is not public (and `network.csv` does not
    /// allow it), or the URL carries credentials.
    Blocked {
        reason: String,
    },
}

/// One line of `fetch.jsonl`: a request made, or a decision not to make one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FetchLine {
    #[serde(with = "crate::time::rfc3339")]
    pub at: DateTime<Utc>,
    pub stage: String,
    pub site: String,
    pub url: String,
    /// `GET` or `HEAD` on the one line each request gets; null on lines that record a
    /// decision or a consequence (a skip, a refusal of the source's site, a schedule).
    pub method: Option<String>,
    pub source: Option<String>,
    pub status: Option<u16>,
    /// What happened: `robots` (a robots.txt read), `fetched`, `not-modified`, `redirect`,
    /// `moved` (a permanent redirect, for the operator), `gone`, `refused`, `wait`, `failed`,
    /// `skipped` (no request, and why), `next` (when the source is next read, and why),
    /// `lifted-refusal`/`lifted-halt` (a permission line applied), `index` (the children a
    /// sitemap index lists), `off-site` (no request: not a host of the publisher's),
    /// `blocked` (no request: an address that is not public, or a URL with credentials),
    /// `robots-next`/`robots-retry` (the end of a robots.txt read, good or failed, and when
    /// robots.txt may be read again).
    pub outcome: String,
    pub reason: String,
    pub bytes: Option<u64>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The time a wait or the next request is held back to, where this line sets one.
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub until: Option<DateTime<Utc>>,
    pub evidence: Option<String>,
    /// The child sitemaps a sitemap index lists (on `index` lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<String>>,
}

/// A day's robots.txt verdict for a site (`DAY/robots.jsonl`, sorted by site).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RobotsLine {
    pub site: String,
    #[serde(with = "crate::time::rfc3339")]
    pub fetched_at: DateTime<Utc>,
    pub status: Option<u16>,
    /// `rules` (read from `file`), `allow-all` (robots.txt absent), `refused`, `unreachable`,
    /// `blocked` (its address is not public, or a redirect carried credentials).
    pub verdict: String,
    pub reason: String,
    pub crawl_delay: Option<f64>,
    pub content_signal: Option<String>,
    /// The `Content-Usage` rules (IETF aipref) of the group that applies, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_usage: Option<String>,
    /// The kept robots.txt body, relative to the day directory.
    pub file: Option<String>,
}

/// A robots verdict with its parsed rules.
pub struct Robots {
    pub line: RobotsLine,
    pub rules: Rules,
}

/// Reads a day's robots verdicts (`DAY/robots.jsonl` and the kept bodies).
pub fn read_robots_day(data: &Data, day: &str) -> Result<BTreeMap<String, Robots>> {
    let mut robots = BTreeMap::new();
    let path = data.day_dir(day).join("robots.jsonl");
    for line in crate::store::read_jsonl_opt::<RobotsLine>(&path)? {
        let rules = match (&line.verdict[..], &line.file) {
            ("rules", Some(f)) => {
                let body = std::fs::read(data.day_dir(day).join(f))
                    .with_context(|| format!("reading {f} of {day}"))?;
                Rules::parse(&body)
            }
            _ => Rules::allow_all(),
        };
        robots.insert(line.site.clone(), Robots { line, rules });
    }
    Ok(robots)
}

/// Per-site request slot: holding its lock is holding the right to talk to the site.
struct Slot {
    last_done: Option<Instant>,
}

/// The politeness module for one stage run.
pub struct Polite {
    agent: ureq::Agent,
    /// Signs every request (Web Bot Auth): none leaves unsigned.
    signer: sign::Signer,
    now: DateTime<Utc>,
    stage: String,
    data: Data,
    day: String,
    hour: String,
    never: NeverFetch,
    slots: Mutex<BTreeMap<String, Arc<Mutex<Slot>>>>,
    robots: Mutex<BTreeMap<String, Robots>>,
    state: Mutex<State>,
    log: Mutex<Log>,
    /// When this run began: a stage that ran just before may have asked a site a moment ago,
    /// so every site's first request in a run keeps the spacing from this instant too.
    started: Instant,
    /// Set when something this run learned could not be recorded (a full disk, a journal
    /// that cannot be written): from then on nothing more is asked, and the run fails.
    unrecorded: Mutex<Option<String>>,
    /// Refusals and halts this run recorded (a person must act), and requests sent and
    /// failed at the network level (all failing is a person's business too).
    stops_new: Mutex<Vec<String>>,
    sent: std::sync::atomic::AtomicUsize,
    unreachable: std::sync::atomic::AtomicUsize,
    /// The data directory's stage lock, held for the run: no two runs ask at once.
    _lock: crate::store::DataLock,
}

/// This run's lines, and the journal that keeps them if the run dies before [`Polite::finish`].
struct Log {
    lines: Vec<(String, u64, FetchLine)>,
    seq: u64,
    journal: Option<std::fs::File>,
}

/// The file a run appends its lines to as it goes (merged into `fetch.jsonl` at the end).
const JOURNAL: &str = ".fetch-journal.jsonl";

/// A site key for file names: `https-www.example.com`, `http-127.0.0.21-8080`.
pub fn site_file_name(site: &str) -> String {
    site.replace("://", "-").replace([':', '/'], "-")
}

/// The publisher a site belongs to for refusals: its host without a leading `www.`, whatever
/// the scheme or port. A refusal of one is a refusal of all: no second try at another address.
pub fn site_family(site: &str) -> String {
    let host = Url::parse(site)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_else(|| site.to_string());
    host.strip_prefix("www.")
        .map(str::to_string)
        .unwrap_or(host)
}

impl Polite {
    /// Opens the politeness module: today's robots verdicts, the durable state (recovering
    /// the lines of a run that died, or rebuilding from the logs if the file is gone), and
    /// the permissions that lift refusals and halts (each lifting is logged).
    pub fn open(
        data: &Data,
        now: DateTime<Utc>,
        stage: &str,
        never: NeverFetch,
        permissions: &[Permission],
        network: address::Network,
        signer: sign::Signer,
    ) -> Result<Polite> {
        let config = ureq::Agent::config_builder()
            .user_agent(USER_AGENT)
            .timeout_global(Some(TIMEOUT))
            .max_redirects(0)
            .http_status_as_error(false)
            .proxy(None)
            .build();
        let network = Arc::new(network);
        // Every name is resolved through the address rule: no DNS answer can smuggle in a
        // private or loopback address.
        let agent = ureq::Agent::with_parts(
            config,
            ureq::unversioned::transport::DefaultConnector::new(),
            address::GuardedResolver::new(network),
        );
        let lock = crate::store::DataLock::take(data, stage)?;
        let day = crate::time::day(now);
        let hour = crate::time::hour(now);
        let recovered = recover_journals(data)?;
        let state = if recovered {
            State::rebuild(data, now)?
        } else {
            State::load_or_rebuild(data, now)?
        };
        let robots = read_robots_day(data, &day)?;
        let journal_path = data.hour_dir(&day, &hour).join(JOURNAL);
        std::fs::create_dir_all(data.hour_dir(&day, &hour))?;
        let journal = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal_path)
            .with_context(|| format!("opening {}", journal_path.display()))?;
        let p = Polite {
            agent,
            signer,
            now,
            stage: stage.to_string(),
            data: data.clone(),
            day,
            hour,
            never,
            slots: Mutex::new(BTreeMap::new()),
            robots: Mutex::new(robots),
            state: Mutex::new(state),
            log: Mutex::new(Log {
                lines: Vec::new(),
                seq: 0,
                journal: Some(journal),
            }),
            started: Instant::now(),
            unrecorded: Mutex::new(None),
            stops_new: Mutex::new(Vec::new()),
            sent: Default::default(),
            unreachable: Default::default(),
            _lock: lock,
        };
        p.apply_permissions(permissions);
        p.check_clock();
        p.recorded()?;
        Ok(p)
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// Records that something learned could not be kept: nothing more is asked this run.
    pub fn cannot_record(&self, why: String) {
        let mut u = lock(&self.unrecorded);
        if u.is_none() {
            crate::elog!("{}: {why}; asking nothing more", self.stage);
            *u = Some(why);
        }
    }

    /// Ok while everything learned so far is recorded; else why not.
    pub fn recorded(&self) -> Result<()> {
        match lock(&self.unrecorded).as_ref() {
            None => Ok(()),
            Some(why) => anyhow::bail!(
                "{why}: the run stopped asking at once so that nothing it learns is lost (free space in {} and run it again)",
                self.data.root.display()
            ),
        }
    }

    /// Stored times the clock has moved backwards past, beyond any hold HudukuBot sets
    /// ([`MAX_WAIT`]), or requests "made" after now: said so, and corrected by a logged
    /// line (a source is due again, a wait is cut to the longest wait), never obeyed forever.
    fn check_clock(&self) {
        let now = self.now;
        let horizon = now + MAX_WAIT;
        let mut fixes: Vec<FetchLine> = Vec::new();
        {
            let st = lock(&self.state);
            for (url, s) in &st.sources {
                let far_due = s.next_due.filter(|t| *t > horizon);
                let later_ask = s.last_request.filter(|t| *t > now);
                if far_due.is_none() && later_ask.is_none() {
                    continue;
                }
                let site = Url::parse(url).map(|u| site_of(&u)).unwrap_or_default();
                let mut what = Vec::new();
                if let Some(t) = far_due {
                    what.push(format!("not due until {}", crate::time::fmt(t)));
                }
                if let Some(t) = later_ask {
                    what.push(format!("last asked at {}", crate::time::fmt(t)));
                }
                fixes.push(FetchLine {
                    outcome: "clock".into(),
                    reason: format!(
                        "the state says {}, later than the clock allows at {}: the clock moved backwards or the state is corrupt; {}",
                        what.join(" and "),
                        crate::time::fmt(now),
                        if far_due.is_some() { "due again now" } else { "counted as asked now" }
                    ),
                    until: if far_due.is_some() { Some(now) } else { s.next_due },
                    ..self.line(&site, url, Some(url))
                });
            }
            for (site, s) in &st.sites {
                if let Some(t) = s.wait_until.filter(|t| *t > horizon) {
                    fixes.push(FetchLine {
                        outcome: "clock".into(),
                        reason: format!(
                            "the state says wait until {}, beyond the longest wait of {} days from {}: the clock moved backwards or the state is corrupt; waiting the longest wait",
                            crate::time::fmt(t),
                            MAX_WAIT.num_days(),
                            crate::time::fmt(now)
                        ),
                        until: Some(horizon),
                        ..self.line(site, &format!("{site}/"), None)
                    });
                }
            }
        }
        for f in fixes {
            crate::elog!("{}: {}: {}", self.stage, f.url, f.reason);
            self.note(f);
        }
    }

    /// Lifts refusals and halts for which a newer permission line exists for the same publisher.
    fn apply_permissions(&self, permissions: &[Permission]) {
        let stops: Vec<(String, &'static str, Stop)> = {
            let st = lock(&self.state);
            st.sites
                .iter()
                .flat_map(|(site, s)| {
                    let r = s
                        .refused
                        .clone()
                        .map(|x| (site.clone(), "lifted-refusal", x));
                    let h = s.halted.clone().map(|x| (site.clone(), "lifted-halt", x));
                    r.into_iter().chain(h)
                })
                .collect()
        };
        for (site, outcome, stop) in stops {
            let family = site_family(&site);
            let grant = permissions
                .iter()
                .filter(|p| p.granted > stop.at.min(self.now) && site_family(&p.target) == family)
                .max_by_key(|p| p.granted);
            if let Some(g) = grant {
                self.note(FetchLine {
                    outcome: outcome.into(),
                    reason: format!(
                        "{} of {} ({}) lifted by {} on {}: {} (permissions.csv:{})",
                        if outcome == "lifted-refusal" {
                            "refusal"
                        } else {
                            "halt"
                        },
                        crate::time::fmt(stop.at),
                        stop.reason,
                        g.who,
                        crate::time::fmt(g.granted),
                        g.why,
                        g.line
                    ),
                    ..self.line(&site, &g.target, None)
                });
            }
        }
    }

    fn line(&self, site: &str, url: &str, source: Option<&str>) -> FetchLine {
        // No kept line holds a password: credentials in an address are removed.
        let url = match Url::parse(url) {
            Ok(u) if !u.username().is_empty() || u.password().is_some() => {
                crate::records::without_credentials(&u).to_string()
            }
            _ => url.to_string(),
        };
        FetchLine {
            at: self.now,
            stage: self.stage.clone(),
            site: site.to_string(),
            url,
            method: None,
            source: source.map(str::to_string),
            status: None,
            outcome: String::new(),
            reason: String::new(),
            bytes: None,
            etag: None,
            last_modified: None,
            until: None,
            evidence: None,
            children: None,
        }
    }

    /// Records a line: applies it to the state and appends it to the run's journal at once
    /// (synced when it changes the state), so a crash forgets neither the line nor a refusal.
    fn note(&self, line: FetchLine) {
        {
            let mut st = lock(&self.state);
            let stops = |st: &State| {
                st.sites.get(&line.site).map_or((false, false), |s| {
                    (s.refused.is_some(), s.halted.is_some())
                })
            };
            let before = stops(&st);
            st.apply(&line);
            let after = stops(&st);
            if (after.0 && !before.0) || (after.1 && !before.1) {
                lock(&self.stops_new).push(format!(
                    "{} {} at {} ({}): it stays stopped until a line in permissions.csv lifts it",
                    line.site,
                    if after.0 && !before.0 {
                        "refused"
                    } else {
                        "halted"
                    },
                    crate::time::fmt(line.at),
                    line.reason
                ));
            }
        }
        let mut log = lock(&self.log);
        if log.journal.is_none() {
            self.cannot_record("the fetch journal is closed".into());
        }
        if let Some(j) = log.journal.as_mut() {
            use std::io::Write;
            let mut bytes = serde_json::to_vec(&line).unwrap_or_default();
            bytes.push(b'\n');
            let written = j.write_all(&bytes);
            // A refusal, a wait or a lifting must survive even a power cut; the rest survives a
            // crashed process already, being written before the run goes on.
            let must_sync = matches!(
                line.outcome.as_str(),
                "refused" | "wait" | "lifted-refusal" | "lifted-halt"
            );
            let synced = if must_sync { j.sync_data() } else { Ok(()) };
            if let Err(e) = written.and(synced) {
                self.cannot_record(format!("cannot write the fetch journal: {e}"));
            }
        }
        let seq = log.seq;
        log.seq += 1;
        log.lines.push((line.site.clone(), seq, line));
    }

    /// Records a decision made outside the module: a stage choosing not to ask.
    pub fn note_skip(
        &self,
        url: &Url,
        source: Option<&str>,
        reason: &str,
        until: Option<DateTime<Utc>>,
    ) {
        let site = site_of(url);
        self.note(FetchLine {
            outcome: "skipped".into(),
            reason: reason.into(),
            until,
            ..self.line(&site, url.as_str(), source)
        });
    }

    /// Records when a source is next read, and why (a caching hint, the hourly rhythm, a back-off).
    pub fn note_next(&self, source: &Url, until: DateTime<Utc>, reason: &str) {
        let site = site_of(source);
        self.note(FetchLine {
            outcome: "next".into(),
            reason: reason.into(),
            until: Some(until),
            ..self.line(&site, source.as_str(), Some(source.as_str()))
        });
    }

    /// Records that an address's last body never reached `items.jsonl`, so it is asked for
    /// again without validators.
    pub fn note_unkept(&self, source: &Url, fetched_at: DateTime<Utc>) {
        let site = site_of(source);
        self.note(FetchLine {
            outcome: "unkept".into(),
            reason: format!(
                "the body fetched at {} never reached items.jsonl (its run did not finish): asked for again without validators",
                crate::time::fmt(fetched_at)
            ),
            ..self.line(&site, source.as_str(), Some(source.as_str()))
        });
    }

    /// Records the child sitemaps a source's sitemap index lists (read again after a 304).
    pub fn note_children(&self, source: &Url, children: &[String]) {
        let site = site_of(source);
        self.note(FetchLine {
            outcome: "index".into(),
            reason: format!("a sitemap index of {} sitemaps", children.len()),
            children: Some(children.to_vec()),
            ..self.line(&site, source.as_str(), Some(source.as_str()))
        });
    }

    /// Reads the durable state (it changes only through logged lines).
    pub fn read_state<T>(&self, f: impl FnOnce(&State) -> T) -> T {
        f(&lock(&self.state))
    }

    fn slot(&self, site: &str) -> Arc<Mutex<Slot>> {
        let started = self.started;
        lock(&self.slots)
            .entry(site.to_string())
            .or_insert_with(|| {
                Arc::new(Mutex::new(Slot {
                    last_done: Some(started),
                }))
            })
            .clone()
    }

    /// Why a site may not be asked now, if it may not: a refusal (of any address of the same
    /// publisher), a halt, or a wait.
    pub fn site_stop(&self, site: &str) -> Option<(String, Option<DateTime<Utc>>)> {
        let st = lock(&self.state);
        let family = site_family(site);
        for (other, s) in st
            .sites
            .iter()
            .filter(|(k, s)| s.refused.is_some() && site_family(k) == family)
        {
            if let Some(r) = &s.refused {
                let whose = if other == site {
                    String::new()
                } else {
                    format!(" (as {other})")
                };
                return Some((
                    format!(
                        "site refused{whose} at {} ({}); needs a line in permissions.csv",
                        crate::time::fmt(r.at),
                        r.reason
                    ),
                    None,
                ));
            }
        }
        let s = st.sites.get(site)?;
        if let Some(h) = &s.halted {
            return Some((
                format!(
                    "site halted at {} ({}); needs a line in permissions.csv",
                    crate::time::fmt(h.at),
                    h.reason
                ),
                None,
            ));
        }
        match s.wait_until {
            Some(t) if t > self.now => Some((
                format!("asked to wait until {}", crate::time::fmt(t)),
                Some(t),
            )),
            _ => None,
        }
    }

    /// Makes sure today's robots.txt of a site has been read (reading it if not), and
    /// returns whether anything on the site may be fetched, with the reason if not.
    pub fn ensure_robots(&self, site: &str) -> Result<(), String> {
        let slot = self.slot(site);
        let mut guard = lock(&slot);
        if let Some((reason, until)) = self.site_stop(site) {
            let url = format!("{site}/robots.txt");
            self.note(FetchLine {
                outcome: "skipped".into(),
                reason: reason.clone(),
                until,
                ..self.line(site, &url, None)
            });
            return Err(reason);
        }
        self.robots_verdict(site, &mut guard).map_err(|(r, _)| r)
    }

    /// Writes today's robots verdicts (also when nothing new was read, so the day's file exists).
    pub fn save_robots_file(&self) -> Result<()> {
        self.save_robots(&lock(&self.robots))
    }

    /// Today's robots verdict, reading robots.txt first if today's is not known, or if it was
    /// unreachable at an earlier read and its retry is due. Whether a read may be made is
    /// judged from the durable state (`robots_asked`, `robots_next`): never within
    /// [`schedule::MIN_INTERVAL`] of the last read, and after a failed read not before its
    /// back-off, however close together runs come and whatever hour or day they name.
    /// Called with the site's slot held. An error is why nothing may be asked of the site,
    /// with the time that may change, if known.
    fn robots_verdict(
        &self,
        site: &str,
        slot: &mut Slot,
    ) -> Result<(), (String, Option<DateTime<Utc>>)> {
        let known = lock(&self.robots)
            .get(site)
            .map(|r| (r.line.verdict.clone(), r.line.reason.clone()));
        let read = match &known {
            None => true,
            Some((verdict, _)) => verdict == "unreachable" || verdict == "blocked",
        };
        if read {
            let (asked, next, failures, wait_until) = self.read_state(|st| {
                st.sites.get(site).map_or((None, None, 0, None), |x| {
                    (
                        x.robots_asked,
                        x.robots_next,
                        x.robots_failures,
                        x.wait_until,
                    )
                })
            });
            // A time beyond what HudukuBot ever sets is a clock that moved: not obeyed.
            let asked = asked.filter(|t| *t <= self.now);
            let next = next.filter(|t| *t <= self.now + MAX_WAIT);
            let spaced = asked
                .map(|t| t + schedule::MIN_INTERVAL)
                .filter(|t| *t > self.now);
            let backing_off = next.filter(|t| *t > self.now + schedule::DUE_SLACK);
            if let Some(until) = spaced.into_iter().chain(backing_off).max() {
                let last = match (&known, asked) {
                    (Some((_, why)), _) => format!("unreachable ({why})"),
                    (None, Some(t)) if failures > 0 => format!(
                        "could not be read at {} ({failures} failed read(s) in a row)",
                        crate::time::fmt(t)
                    ),
                    (None, Some(t)) => format!("last read at {}", crate::time::fmt(t)),
                    (None, None) => "not read".to_string(),
                };
                return Err((
                    format!(
                        "robots.txt {last}; not read again before {}: nothing is fetched until a read succeeds",
                        crate::time::fmt(until)
                    ),
                    Some(until),
                ));
            }
            let r = self.read_robots(site, slot);
            self.note_robots_schedule(site, &r.line, failures, wait_until);
            let mut book = lock(&self.robots);
            book.insert(site.to_string(), r);
            if let Err(e) = self.save_robots(&book) {
                self.cannot_record(format!("cannot save today's robots verdicts: {e:#}"));
            }
        }
        let verdict = {
            let book = lock(&self.robots);
            let r = &book[site];
            match r.line.verdict.as_str() {
                "rules" | "allow-all" if !r.rules.search_refused() => Ok(()),
                "rules" | "allow-all" | "refused" => {
                    Err(format!("robots.txt refuses the site ({})", r.line.reason))
                }
                "blocked" => Err(format!("not asked: {}", r.line.reason)),
                _ => Err(format!(
                    "robots.txt unreachable ({}); nothing is fetched until a read succeeds",
                    r.line.reason
                )),
            }
        };
        // Nothing may be asked of the site before robots.txt may be read again.
        verdict.map_err(|why| {
            let until = self.read_state(|st| st.sites.get(site).and_then(|x| x.robots_next));
            (why, until)
        })
    }

    /// Records the end of one read of a site's robots.txt (however many redirect hops it took)
    /// and when robots.txt may be read again: ten minutes on, after a read that answered (or
    /// was not sent); an hour after a read that found it unreachable, doubling per failed read in a row up to a day, with the
    /// site's jitter, and never before a wait the site asked for.
    fn note_robots_schedule(
        &self,
        site: &str,
        line: &RobotsLine,
        failures: u32,
        wait_until: Option<DateTime<Utc>>,
    ) {
        let mut l = self.line(site, &format!("{site}/robots.txt"), None);
        // A `blocked` read sent nothing (its address is not public): the operator's lists,
        // not the publisher, decide when it may go, so it is not backed off.
        if line.verdict == "unreachable" {
            let n = failures + 1;
            let base = schedule::robots_backoff(n);
            let wait = schedule::jittered(base, schedule::ROBOTS_MAX_RETRY, site, self.now);
            let until = (self.now + wait).max(wait_until.unwrap_or(self.now));
            l.outcome = "robots-retry".into();
            l.until = Some(until);
            l.reason = format!(
                "robots.txt {} ({}): nothing is asked of the site; read again no sooner than {} ({n} failed read(s) in a row: {} h, doubling, at most {} h, plus jitter)",
                line.verdict,
                line.reason,
                crate::time::fmt(until),
                base.num_hours(),
                schedule::ROBOTS_MAX_RETRY.num_hours()
            );
        } else {
            let until = self.now + schedule::MIN_INTERVAL;
            l.outcome = "robots-next".into();
            l.until = Some(until);
            l.reason = format!(
                "robots.txt read ({}): kept for the day; never read again within {} minutes",
                line.verdict,
                schedule::MIN_INTERVAL.num_minutes()
            );
        }
        self.note(l);
    }

    /// Fills a `wait` line for a 429 or 503: max(Retry-After, [`MIN_WAIT`]), at most
    /// [`MAX_WAIT`]; returns the end of the wait and, when the site asked for longer than
    /// that, the `halted` line that stops it until a person looks.
    fn wait_line(
        &self,
        l: &mut FetchLine,
        site: &str,
        status: u16,
        retry_after: Option<String>,
    ) -> (DateTime<Utc>, Option<FetchLine>) {
        let asked = retry_after
            .as_deref()
            .and_then(|v| parse_retry_after(v, self.now));
        let asked_for = asked.map_or(MIN_WAIT, |d| d.max(MIN_WAIT));
        let until = self.now + asked_for.min(MAX_WAIT);
        l.outcome = "wait".into();
        l.until = Some(until);
        l.reason = match &retry_after {
            Some(v) if asked.is_some() => format!("Retry-After: {v}"),
            Some(v) => format!("unreadable Retry-After {v:?}: one hour"),
            None => "no Retry-After: one hour".into(),
        };
        let in_a_row = self.read_state(|s| s.sites.get(site).map_or(0, |x| x.waits_in_a_row)) + 1;
        let mut halt = None;
        if in_a_row >= WAITS_TO_HALT {
            l.reason.push_str(&format!(
                "; {in_a_row} in a row: site halted until a person looks"
            ));
        } else if asked_for > MAX_WAIT {
            l.reason.push_str(&format!(
                "; longer than {} days: site halted until a person looks",
                MAX_WAIT.num_days()
            ));
            halt = Some(FetchLine {
                outcome: "halted".into(),
                reason: format!("asked to wait longer than {} days", MAX_WAIT.num_days()),
                evidence: retry_after.map(|v| format!("Retry-After: {v}")),
                status: Some(status),
                ..self.line(site, &l.url, l.source.as_deref())
            });
        }
        (until, halt)
    }

    fn save_robots(&self, book: &BTreeMap<String, Robots>) -> Result<()> {
        let lines: Vec<&RobotsLine> = book.values().map(|r| &r.line).collect();
        crate::store::write_jsonl(&self.data.day_dir(&self.day).join("robots.jsonl"), &lines)
    }

    /// Reads a site's robots.txt (up to five redirect hops, each hop's site serialised), keeps
    /// the body for the day, and records a refusal of the site where robots.txt says so.
    fn read_robots(&self, site: &str, slot: &mut Slot) -> Robots {
        let robots_url = format!("{site}/robots.txt");
        let mut url = match Url::parse(&robots_url) {
            Ok(u) => u,
            Err(e) => {
                return self.robots_line(
                    site,
                    None,
                    "unreachable",
                    &format!("bad site: {e}"),
                    None,
                );
            }
        };
        let mut hops = 0;
        loop {
            let hop_site = site_of(&url);
            let raw = if hop_site == site {
                self.perform(slot, Method::Get, &url, &[], ROBOTS_READ, true)
            } else {
                // A hop to another site waits for that site's slot, but never forever.
                let other = self.slot(&hop_site);
                match try_lock_for(&other, Duration::from_secs(30)) {
                    Some(mut g) => self.perform(&mut g, Method::Get, &url, &[], ROBOTS_READ, true),
                    None => Raw::Error("robots redirect target busy".into()),
                }
            };
            let mut l = self.line(&hop_site, url.as_str(), None);
            l.method = Some("GET".into());
            l.outcome = "robots".into();
            let (status, headers, body) = match raw {
                Raw::Unasked(why) => {
                    return self.robots_line(site, None, "unreachable", &why, None);
                }
                Raw::Error(e) => {
                    l.reason = format!("unreachable: {e}");
                    self.note(l);
                    return self.robots_line(site, None, "unreachable", &e, None);
                }
                Raw::Blocked(e) => {
                    l.method = None;
                    l.outcome = "blocked".into();
                    l.reason = e.clone();
                    self.note(l);
                    return self.robots_line(site, None, "blocked", &e, None);
                }
                Raw::TooLarge(status) => (status, BTreeMap::new(), Vec::new()), // not reached: robots.txt is cut
                Raw::Response {
                    status,
                    headers,
                    body,
                } => (status, headers, body),
            };
            l.status = Some(status);
            l.bytes = Some(body.len() as u64);
            // robots.txt answers go through the one classifier like every other answer: a
            // challenge page, a 401/403/451 or `Content-Usage: search=n` is a refusal of the
            // site, never an empty robots.txt.
            let class = outcome::classify(status, &headers, &body);
            if let Class::Redirect { location, .. } = &class {
                hops += 1;
                let next = url.join(location).ok();
                match next {
                    Some(n) if hops <= MAX_REDIRECTS && matches!(n.scheme(), "http" | "https") => {
                        l.reason = format!("redirect to {}", redacted(&n, n.as_str()));
                        self.note(l);
                        url = n;
                        continue;
                    }
                    _ => {
                        l.reason =
                            "unreachable: more than five redirects, or a bad Location".into();
                        self.note(l);
                        return self.robots_line(
                            site,
                            Some(status),
                            "unreachable",
                            "more than five redirects",
                            None,
                        );
                    }
                }
            }
            let mut refusal: Option<(String, String)> = None;
            let mut wait: Option<(String, Option<String>)> = None;
            let r = match class {
                Class::Success => {
                    let rules = Rules::parse(&body);
                    let file = format!("robots/{}.txt", site_file_name(site));
                    if let Err(e) =
                        crate::store::write_atomic(&self.data.day_dir(&self.day).join(&file), &body)
                    {
                        self.cannot_record(format!("cannot keep {file}: {e:#}"));
                    }
                    let mut r = self.robots_line(site, Some(status), "rules", "read", Some(file));
                    r.line.crawl_delay = rules.crawl_delay;
                    r.line.content_signal = rules.content_signal_line();
                    r.line.content_usage = rules.content_usage_line();
                    if rules.signal_refuses_search() {
                        r.line.verdict = "refused".into();
                        r.line.reason = "Content-Signal search=no".into();
                        refusal = Some((
                            "robots-search-no".into(),
                            format!(
                                "Content-Signal: {}",
                                r.line.content_signal.clone().unwrap_or_default()
                            ),
                        ));
                    } else if rules.usage_refuses_site() {
                        r.line.verdict = "refused".into();
                        r.line.reason = "Content-Usage search=n".into();
                        refusal = Some((
                            "robots-content-usage-search-n".into(),
                            format!(
                                "Content-Usage: {}",
                                r.line.content_usage.clone().unwrap_or_default()
                            ),
                        ));
                    }
                    r.rules = rules;
                    r
                }
                Class::Refused { reason, evidence } => {
                    if reason.starts_with("refused-") {
                        refusal = Some((
                            format!("robots-{status}"),
                            format!("robots.txt answered HTTP {status}"),
                        ));
                        self.robots_line(
                            site,
                            Some(status),
                            "refused",
                            &format!("robots.txt answered {status}"),
                            None,
                        )
                    } else {
                        let why = format!("robots.txt answered {status} with {reason}");
                        refusal = Some((reason, format!("{evidence} (on robots.txt)")));
                        self.robots_line(site, Some(status), "refused", &why, None)
                    }
                }
                Class::Gone => self.robots_line(
                    site,
                    Some(status),
                    "allow-all",
                    &format!("robots.txt answered {status}: no restrictions"),
                    None,
                ),
                Class::Wait { retry_after } => {
                    wait = Some((hop_site.clone(), retry_after));
                    self.robots_line(
                        site,
                        Some(status),
                        "unreachable",
                        &format!("robots.txt answered {status}: asked to wait"),
                        None,
                    )
                }
                Class::NotModified | Class::Failed { .. } | Class::Redirect { .. } => self
                    .robots_line(
                        site,
                        Some(status),
                        "unreachable",
                        &format!("robots.txt answered {status}"),
                        None,
                    ),
            };
            l.reason = format!("{}: {}", r.line.verdict, r.line.reason);
            self.note(l);
            if let Some((wait_site, retry_after)) = wait {
                // Asked to wait, it waits: on robots.txt as on any other answer.
                let mut w = self.line(&wait_site, url.as_str(), None);
                w.status = Some(status);
                let (_, halt) = self.wait_line(&mut w, &wait_site, status, retry_after);
                self.note(w);
                if let Some(h) = halt {
                    self.note(h);
                }
            }
            if let Some((reason, evidence)) = refusal {
                let mut refusal = self.line(site, &robots_url, None);
                refusal.status = Some(status);
                refusal.outcome = "refused".into();
                refusal.reason = reason;
                refusal.evidence = Some(evidence);
                self.note(refusal);
            }
            return r;
        }
    }

    fn robots_line(
        &self,
        site: &str,
        status: Option<u16>,
        verdict: &str,
        reason: &str,
        file: Option<String>,
    ) -> Robots {
        Robots {
            line: RobotsLine {
                site: site.to_string(),
                fetched_at: self.now,
                status,
                verdict: verdict.into(),
                reason: reason.into(),
                crawl_delay: None,
                content_signal: None,
                content_usage: None,
                file,
            },
            rules: Rules::allow_all(),
        }
    }

    /// The spacing a site asks for: at least [`MIN_SPACING`], more if its Crawl-delay says.
    fn spacing(&self, site: &str) -> Duration {
        let book = lock(&self.robots);
        let delay = book
            .get(site)
            .and_then(|r| r.rules.crawl_delay)
            .unwrap_or(0.0);
        MIN_SPACING.max(Duration::from_secs_f64(delay.min(24.0 * 3600.0)))
    }

    /// Makes one request under every rule of the fetching page, following redirects by hand
    /// when asked. Never panics; every path ends in a logged outcome.
    pub fn request(&self, req: &Req) -> Outcome {
        let mut url = req.url.clone();
        if let Some(reason) = req.scope.refusal(&url) {
            let reason = format!("not asked: {reason}");
            self.note(FetchLine {
                outcome: "off-site".into(),
                reason: reason.clone(),
                ..self.line(&site_of(&url), url.as_str(), req.source.as_deref())
            });
            return Outcome::OffSite { reason };
        }
        let mut hops = 0;
        loop {
            let (status, location, permanent) = match self.request_once(req, &url) {
                // The source was asked and redirected to an address that may not be asked.
                Hop::Done(Outcome::Skipped { reason, until, .. }) if hops > 0 => {
                    return Outcome::Skipped {
                        reason,
                        until,
                        after_redirect: true,
                    };
                }
                Hop::Done(o) => return o,
                Hop::Redirect {
                    status,
                    location,
                    permanent,
                } => (status, location, permanent),
            };
            let site = site_of(&url);
            let src = req.source.as_deref();
            let end = |outcome: &str, reason: String| {
                self.note(FetchLine {
                    outcome: outcome.into(),
                    reason: reason.clone(),

                    status: Some(status),
                    ..self.line(&site, url.as_str(), src)
                });
                reason
            };
            let target = match url.join(&location) {
                Ok(t) => t,
                Err(_) => {
                    return Outcome::Failed {
                        status: Some(status),
                        reason: end("failed", format!("bad Location {location:?}")),
                    };
                }
            };
            // As kept in fetch.jsonl: without any credentials the Location carried.
            let shown = crate::records::without_credentials(&target);
            if !req.follow_redirects {
                return Outcome::Redirect {
                    status,
                    location: shown.to_string(),
                };
            }
            hops += 1;
            if !matches!(target.scheme(), "http" | "https") {
                return Outcome::Failed {
                    status: Some(status),
                    reason: end(
                        "failed",
                        format!("redirect to a non-http(s) address {shown}"),
                    ),
                };
            }
            if let Some(hit) = self.never.matches(&target) {
                let reason = format!(
                    "redirect into {} ({shown}) refused: not the publisher's own site",
                    hit.what
                );
                return Outcome::Failed {
                    status: Some(status),
                    reason: end("failed", reason),
                };
            }
            if let Some(why) = req.scope.refusal(&target) {
                let reason = format!("redirect to {shown} not followed: {why}");
                return Outcome::OffSite {
                    reason: end("off-site", reason),
                };
            }
            if hops > MAX_REDIRECTS {
                return Outcome::Failed {
                    status: Some(status),
                    reason: end("failed", "more than five redirects".into()),
                };
            }
            if permanent {
                self.note(FetchLine {
                    outcome: "moved".into(),
                    reason: format!("permanent redirect to {shown}: the source list may need the new address (not changed here)"),
                    ..self.line(&site, url.as_str(), src)
                });
            }
            url = target;
        }
    }

    fn request_once(&self, req: &Req, url: &Url) -> Hop {
        let site = site_of(url);
        let src = req.source.as_deref();
        let skip = |reason: String, until: Option<DateTime<Utc>>| {
            self.note(FetchLine {
                outcome: "skipped".into(),
                reason: reason.clone(),
                until,
                ..self.line(&site, url.as_str(), src)
            });
            Hop::Done(Outcome::Skipped {
                reason,
                until,
                after_redirect: false,
            })
        };
        if !matches!(url.scheme(), "http" | "https") {
            return skip(format!("{} is not http(s)", url.scheme()), None);
        }
        if let Some(hit) = self.never.matches(url) {
            return skip(
                format!("{url} is {}: never read in a publisher's place", hit.what),
                None,
            );
        }
        let slot = self.slot(&site);
        let mut guard = lock(&slot);
        if let Some((reason, until)) = self.site_stop(&site) {
            return skip(reason, until);
        }
        if let Err((reason, until)) = self.robots_verdict(&site, &mut guard) {
            return skip(reason, until);
        }
        let (allowed, usage_refused) = lock(&self.robots).get(&site).map_or((false, false), |r| {
            (
                r.rules.allows(url.as_str()),
                r.rules.usage_refuses(url.as_str()),
            )
        });
        if !allowed {
            return skip("robots.txt disallows this path for HudukuBot".into(), None);
        }
        if usage_refused {
            return skip(
                "robots.txt Content-Usage refuses search use of this path (search=n)".into(),
                None,
            );
        }
        let mut headers: Vec<(&str, String)> = Vec::new();
        if let Some(e) = &req.etag {
            headers.push(("If-None-Match", e.clone()));
        }
        if let Some(lm) = &req.last_modified {
            headers.push(("If-Modified-Since", lm.clone()));
        }
        let raw = self.perform(&mut guard, req.method, url, &headers, BODY_CAP, false);
        drop(guard);
        let mut l = self.line(&site, url.as_str(), src);
        l.method = Some(req.method.as_str().into());
        let (status, headers, body) = match raw {
            Raw::Unasked(reason) => {
                return Hop::Done(Outcome::Skipped {
                    reason,
                    until: None,
                    after_redirect: false,
                });
            }
            Raw::Error(reason) => {
                l.outcome = "failed".into();
                l.reason = reason.clone();
                self.note(l);
                return Hop::Done(Outcome::Failed {
                    status: None,
                    reason,
                });
            }
            Raw::Blocked(reason) => {
                l.method = None;
                l.outcome = "blocked".into();
                l.reason = reason.clone();
                self.note(l);
                return Hop::Done(Outcome::Blocked { reason });
            }
            Raw::TooLarge(status) => {
                let reason = format!("body over {BODY_CAP} bytes: dropped, not parsed");
                l.status = Some(status);
                l.outcome = "failed".into();
                l.reason = reason.clone();
                self.note(l);
                return Hop::Done(Outcome::Failed {
                    status: Some(status),
                    reason,
                });
            }
            Raw::Response {
                status,
                headers,
                body,
            } => (status, headers, body),
        };
        l.status = Some(status);
        l.bytes = Some(body.len() as u64);
        l.etag = headers.get("etag").cloned();
        l.last_modified = headers.get("last-modified").cloned();
        let mut also: Option<FetchLine> = None;
        let result = match outcome::classify(status, &headers, &body) {
            Class::Success => {
                l.outcome = "fetched".into();
                Hop::Done(Outcome::Fetched(Fetched {
                    status,
                    url: url.clone(),
                    headers,
                    body,
                }))
            }
            Class::NotModified => {
                l.outcome = "not-modified".into();
                Hop::Done(Outcome::NotModified { headers })
            }
            Class::Redirect {
                permanent,
                location,
            } => {
                l.outcome = "redirect".into();
                l.reason = format!("Location: {}", redacted(url, &location));
                Hop::Redirect {
                    status,
                    location,
                    permanent,
                }
            }
            Class::Gone => {
                l.outcome = "gone".into();
                Hop::Done(Outcome::Gone { status })
            }
            Class::Failed { reason } => {
                l.outcome = "failed".into();
                l.reason = reason.clone();
                Hop::Done(Outcome::Failed {
                    status: Some(status),
                    reason,
                })
            }
            Class::Refused { reason, evidence } => {
                l.outcome = "refused".into();
                l.reason = reason.clone();
                l.evidence = Some(evidence.clone());
                // A refusal met while re-checking a headline stops the source it came from too.
                if let Some(source_site) = src.and_then(|s| Url::parse(s).ok()).map(|u| site_of(&u))
                    && site_family(&source_site) != site_family(&site)
                {
                    also = Some(FetchLine {
                        outcome: "refused".into(),
                        reason: format!("{reason} (met re-checking one of its headlines)"),
                        evidence: Some(evidence),

                        status: Some(status),
                        ..self.line(&source_site, url.as_str(), src)
                    });
                }
                Hop::Done(Outcome::Refused {
                    status: Some(status),
                    reason,
                })
            }
            Class::Wait { retry_after } => {
                let (until, halt) = self.wait_line(&mut l, &site, status, retry_after);
                also = halt;
                Hop::Done(Outcome::Wait { status, until })
            }
        };
        self.note(l);
        if let Some(a) = also {
            self.note(a);
        }
        result
    }

    /// Sends one request on a site whose slot the caller holds, after the spacing the site
    /// asks for, and reads the body up to `cap` (dropping it whole if larger, or cutting it
    /// there when `cut` is set, as for robots.txt).
    fn perform(
        &self,
        slot: &mut Slot,
        method: Method,
        url: &Url,
        headers: &[(&str, String)],
        cap: u64,
        cut: bool,
    ) -> Raw {
        // Credentials found in a link are never sent (the HTTP client would turn them into
        // an Authorization header).
        if !url.username().is_empty() || url.password().is_some() {
            return Raw::Blocked(format!(
                "not sent: {} carries credentials (user:password@)",
                crate::records::canonical_link(url)
            ));
        }
        if let Some(last) = slot.last_done {
            let ready = last + self.spacing(&site_of(url)) + SPACING_MARGIN;
            let now = Instant::now();
            if ready > now {
                std::thread::sleep(ready - now);
            }
        }
        // Checked after the wait, too: another site may have failed to record meanwhile.
        if let Some(why) = lock(&self.unrecorded).clone() {
            return Raw::Unasked(why);
        }
        let result = self.send(method, url, headers, cap, cut);
        slot.last_done = Some(Instant::now());
        use std::sync::atomic::Ordering::Relaxed;
        self.sent.fetch_add(1, Relaxed);
        if matches!(result, Raw::Error(_)) {
            self.unreachable.fetch_add(1, Relaxed);
        }
        result
    }

    fn send(
        &self,
        method: Method,
        url: &Url,
        headers: &[(&str, String)],
        cap: u64,
        cut: bool,
    ) -> Raw {
        // Every request is signed here, the one place requests are sent.
        let signed = self.signer.sign(&sign::authority(url));
        let signature = [
            ("Signature-Agent", signed.signature_agent.as_str()),
            ("Signature-Input", signed.signature_input.as_str()),
            ("Signature", signed.signature.as_str()),
        ];
        let resp = match method {
            Method::Get => {
                let mut r = self.agent.get(url.as_str());
                for (k, v) in headers {
                    r = r.header(*k, v);
                }
                for (k, v) in signature {
                    r = r.header(k, v);
                }
                r.call()
            }
            Method::Head => {
                let mut r = self.agent.head(url.as_str());
                for (k, v) in headers {
                    r = r.header(*k, v);
                }
                for (k, v) in signature {
                    r = r.header(k, v);
                }
                r.call()
            }
        };
        let mut resp = match resp {
            Ok(r) => r,
            Err(ureq::Error::Other(e)) if e.is::<address::AddressRefused>() => {
                return Raw::Blocked(e.to_string());
            }
            Err(e) => return Raw::Error(describe(&e)),
        };
        let status = resp.status().as_u16();
        let mut hmap: BTreeMap<String, String> = BTreeMap::new();
        for (name, value) in resp.headers() {
            let v = String::from_utf8_lossy(value.as_bytes()).into_owned();
            hmap.entry(name.as_str().to_ascii_lowercase())
                .and_modify(|e| {
                    e.push_str(", ");
                    e.push_str(&v);
                })
                .or_insert(v);
        }
        if method == Method::Head {
            return Raw::Response {
                status,
                headers: hmap,
                body: Vec::new(),
            };
        }
        let mut body = Vec::new();
        let read = resp
            .body_mut()
            .with_config()
            .limit(u64::MAX)
            .reader()
            .take(cap + 1)
            .read_to_end(&mut body);
        if let Err(e) = read {
            return Raw::Error(format!("broken body: {e}"));
        }
        if body.len() as u64 > cap {
            if cut {
                body.truncate(cap as usize);
            } else {
                return Raw::TooLarge(status);
            }
        }
        Raw::Response {
            status,
            headers: hmap,
            body,
        }
    }

    /// Writes this run's lines into the hour's `fetch.jsonl` (after any lines already there,
    /// sorted by site, then in the order made), saves the state and drops the journal.
    /// Call once, at the end.
    pub fn finish(&self) -> Result<Vec<FetchLine>> {
        for stop in lock(&self.stops_new).drain(..) {
            crate::cli::needs_attention(stop);
        }
        use std::sync::atomic::Ordering::Relaxed;
        let (sent, unreachable) = (self.sent.load(Relaxed), self.unreachable.load(Relaxed));
        if sent > 0 && unreachable == sent {
            crate::cli::needs_attention(format!(
                "every one of the {sent} requests of this run failed at the network level (is the machine offline?)"
            ));
        }
        let mut log = lock(&self.log);
        if self.recorded().is_err() {
            // Keep the journal as it is: the next run recovers what reached it.
            log.journal = None;
            return Err(self.recorded().unwrap_err());
        }
        let mut lines: Vec<(String, u64, FetchLine)> = std::mem::take(&mut log.lines);
        lines.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let new: Vec<FetchLine> = lines.into_iter().map(|(_, _, l)| l).collect();
        let dir = self.data.hour_dir(&self.day, &self.hour);
        let path = dir.join("fetch.jsonl");
        let mut all: Vec<FetchLine> = crate::store::read_jsonl_opt(&path)?;
        all.extend(new.iter().cloned());
        crate::store::write_jsonl(&path, &all)?;
        let rel = format!("{}/{}/fetch.jsonl", self.day, self.hour);
        lock(&self.state).save_folding(&self.data, &rel)?;
        log.journal = None;
        std::fs::remove_file(dir.join(JOURNAL))
            .with_context(|| format!("removing {}", dir.join(JOURNAL).display()))?;
        Ok(new)
    }

    /// Today's robots verdict lines (for reports).
    pub fn robots_lines(&self) -> Vec<RobotsLine> {
        lock(&self.robots)
            .values()
            .map(|r| r.line.clone())
            .collect()
    }
}

/// Runs `work` on each queue, queues side by side (at most `workers` at once, longest first
/// as given), each queue's items in order on one thread: how every stage serves sites, so
/// that no site ever waits on another and each site's requests stay one at a time.
pub fn side_by_side<T: Sync>(queues: &[T], workers: usize, work: impl Fn(&T) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, queues.len().max(1)) {
            scope.spawn(|| {
                while let Some(q) =
                    queues.get(next.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
                {
                    // A fault in one queue costs that queue alone; every line it made is
                    // already in the journal.
                    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(q))).is_err() {
                        crate::elog!(
                            "a site's queue stopped on an internal fault; the other sites go on"
                        );
                    }
                }
            });
        }
    });
}

/// Merges the journals of runs that died before finishing into their hours' `fetch.jsonl`,
/// so their lines (and the refusals among them) are kept. Returns whether any was found.
fn recover_journals(data: &Data) -> Result<bool> {
    let mut found = false;
    for day in data.days()? {
        for hour in data.hours(&day)? {
            let dir = data.hour_dir(&day, &hour);
            let journal = dir.join(JOURNAL);
            if !journal.exists() {
                continue;
            }
            found = true;
            let text = std::fs::read_to_string(&journal)
                .with_context(|| format!("reading {}", journal.display()))?;
            // The last line may be cut short by the crash: keep only lines that parse.
            let lines: Vec<FetchLine> = text
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect();
            let path = dir.join("fetch.jsonl");
            let mut all: Vec<FetchLine> = crate::store::read_jsonl_opt(&path)?;
            let already = !lines.is_empty() && lines.iter().all(|l| all.contains(l));
            if !already {
                all.extend(lines);
                crate::store::write_jsonl(&path, &all)?;
            }
            std::fs::remove_file(&journal)?;
            crate::elog!(
                "recovered {} from a run that did not finish",
                journal.display()
            );
        }
    }
    Ok(found)
}

enum Hop {
    Done(Outcome),
    Redirect {
        status: u16,
        location: String,
        permanent: bool,
    },
}

enum Raw {
    Response {
        status: u16,
        headers: BTreeMap<String, String>,
        body: Vec<u8>,
    },
    TooLarge(u16),
    Error(String),
    /// Not sent: the run can no longer record what it learns.
    Unasked(String),
    /// Not sent: credentials in the URL, or an address the rule refuses.
    Blocked(String),
}

/// A Location as kept in fetch.jsonl: as sent, unless it carries credentials, which are
/// removed (and the removal said) so that no kept file holds a password.
fn redacted(base: &Url, location: &str) -> String {
    match base.join(location) {
        Ok(u) if !u.username().is_empty() || u.password().is_some() => format!(
            "{} (credentials removed)",
            crate::records::without_credentials(&u)
        ),
        _ => location.to_string(),
    }
}

fn describe(e: &ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(t) => format!("timeout after {}s ({t})", TIMEOUT.as_secs()),
        ureq::Error::HostNotFound => "host not found".into(),
        ureq::Error::ConnectionFailed => "connection failed".into(),
        ureq::Error::Io(io) => format!("connection error: {io}"),
        other => format!("request failed: {other}"),
    }
}

/// Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3); `None` if unreadable.
pub fn parse_retry_after(v: &str, now: DateTime<Utc>) -> Option<CDuration> {
    let v = v.trim();
    let year = CDuration::days(365);
    if let Ok(secs) = v.parse::<u64>() {
        return Some(CDuration::seconds(
            secs.min(year.num_seconds() as u64) as i64
        ));
    }
    let t = httpdate::parse_http_date(v).ok()?;
    let t: DateTime<Utc> = t.into();
    // A date far ahead saturates at a year, as the seconds form does.
    Some(t.signed_duration_since(now).clamp(CDuration::zero(), year))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn try_lock_for<T>(m: &Mutex<T>, d: Duration) -> Option<MutexGuard<'_, T>> {
    let until = Instant::now() + d;
    loop {
        match m.try_lock() {
            Ok(g) => return Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(_) => return None,
        }
    }
}

/// Sites that robots.txt has opted out, as of `now`, with the reason: the latest day's read
/// refuses the site (401/403, `search=no`), or its rules disallow every listed source on it;
/// and sites whose refusal came from robots.txt (final until a permission line).
pub fn robots_optouts(
    data: &Data,
    now: DateTime<Utc>,
    sources: &[crate::lists::Source],
) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let today = crate::time::day(now);
    let latest = data
        .days()?
        .into_iter()
        .rev()
        .find(|d| *d <= today && data.day_dir(d).join("robots.jsonl").exists());
    if let Some(day) = latest {
        let book = read_robots_day(data, &day)?;
        let mut by_site: BTreeMap<String, Vec<&crate::lists::Source>> = BTreeMap::new();
        for s in sources {
            by_site.entry(s.site()).or_default().push(s);
        }
        for (site, list) in by_site {
            let Some(r) = book.get(&site) else { continue };
            // A challenge page met on robots.txt refuses the site as one met anywhere else
            // does; only robots.txt's own words (a 401/403, search=no) opt it out.
            if r.line.verdict == "refused" && !r.line.reason.contains(" with challenge-") {
                out.insert(site, format!("robots.txt of {day}: {}", r.line.reason));
            } else if r.line.verdict == "rules"
                && list.iter().all(|s| !r.rules.allows(s.url.as_str()))
            {
                out.insert(
                    site,
                    format!("robots.txt of {day} disallows every listed source"),
                );
            }
        }
    }
    let st = State::load(&data.state_file())?;
    for (site, s) in &st.sites {
        if let Some(r) = s
            .refused
            .as_ref()
            .filter(|r| r.reason.starts_with("robots-"))
        {
            out.entry(site.clone())
                .or_insert_with(|| format!("{} since {}", r.reason, crate::time::fmt(r.at)));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = crate::time::parse_now("2026-11-30T06:00:00Z").unwrap();
        assert_eq!(parse_retry_after("7200", now), Some(CDuration::hours(2)));
        assert_eq!(
            parse_retry_after("Mon, 30 Nov 2026 09:00:00 GMT", now),
            Some(CDuration::hours(3))
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn hostile_retry_after_saturates_at_a_year() {
        let now = crate::time::parse_now("2026-11-30T06:00:00Z").unwrap();
        let year = Some(CDuration::days(365));
        assert_eq!(parse_retry_after("18446744073709551615", now), year);
        // A date far ahead waits as long as the longest seconds form, not millennia.
        assert_eq!(
            parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", now),
            year
        );
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT", now),
            Some(CDuration::zero())
        );
        for v in ["-1", "99999999999999999999999", "+ಕ", "\0", ""] {
            assert_eq!(parse_retry_after(v, now), None, "{v:?}");
        }
    }

    #[test]
    fn site_file_names_are_plain() {
        assert_eq!(
            site_file_name("http://127.0.0.21:8080"),
            "http-127.0.0.21-8080"
        );
        assert_eq!(
            site_file_name("https://www.prajavani.net"),
            "https-www.prajavani.net"
        );
    }

    #[test]
    fn a_publishers_addresses_are_one_family() {
        assert_eq!(
            site_family("https://www.kannadaprabha.com"),
            "kannadaprabha.com"
        );
        assert_eq!(
            site_family("http://kannadaprabha.com:8080"),
            "kannadaprabha.com"
        );
        assert_ne!(
            site_family("https://kannada.oneindia.com"),
            site_family("https://www.oneindia.com")
        );
    }
}
