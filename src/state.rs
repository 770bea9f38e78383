//! Durable fetch state, one file: `DATA/state.json`, rewritten atomically.
//!
//! Per source: validators (kept byte for byte), the earliest next request (hourly rhythm,
//! feed caching hints, back-off after failures) and the failure count. Per site: the wait a
//! 429/503 asked for, the count of such answers in a row, and refusals and halts with their
//! reason, time and evidence. A refusal or halt is lifted only by a newer line in
//! `pipeline/permissions.csv`.
//!
//! The state is a fold over the lines of `fetch.jsonl`: every change is made by
//! [`State::apply`] from one line, so the file can be rebuilt from the logs alone
//! ([`State::rebuild`]) and an auditor can check every value against the line that set it.

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

use crate::polite::{FetchLine, WAITS_TO_HALT};
use crate::store::{Data, Folded};

/// Why a site is stopped, with the evidence kept for the publisher and the operator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stop {
    #[serde(with = "crate::time::rfc3339")]
    pub at: DateTime<Utc>,
    /// What was asked when it happened.
    pub url: String,
    pub status: Option<u16>,
    /// `refused-403`, `challenge-cloudflare`, `robots-401`, `robots-search-no`, `halted-3-waits`, ...
    pub reason: String,
    /// Header lines or body markers that showed it.
    pub evidence: String,
}

impl Stop {
    /// The stop a `refused` or `halted` line records, with its evidence.
    fn from_line(l: &FetchLine) -> Stop {
        Stop {
            at: l.at,
            url: l.url.clone(),
            status: l.status,
            reason: l.reason.clone(),
            evidence: l.evidence.clone().unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceState {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// Not to be requested before this time (less the due slack).
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub next_due: Option<DateTime<Utc>>,
    /// When it was last asked.
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub last_request: Option<DateTime<Utc>>,
    /// Failures in a row (time-out, connection error, 5xx, broken or oversized body, 4xx).
    #[serde(default)]
    pub failures: u32,
    /// When the failures in a row began (the first of them), for "not answering since".
    #[serde(
        with = "crate::time::rfc3339::option",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub failing_since: Option<DateTime<Utc>>,
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub last_success: Option<DateTime<Utc>>,
    /// When the body the validators stand for was fetched: they are sent only once
    /// `extract` has kept its headlines (its receipt in that hour's `bodies.jsonl`).
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub body_at: Option<DateTime<Utc>>,
    /// For a sitemap index: the child sitemaps it listed at its last full answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteState {
    /// Asked to wait (429/503): no request before this time.
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub wait_until: Option<DateTime<Utc>>,
    /// 429/503 answers in a row.
    #[serde(default)]
    pub waits_in_a_row: u32,
    /// A refusal (401, 403, 451, challenge, robots.txt): final until a permission line lifts it.
    pub refused: Option<Stop>,
    /// Three waits in a row: stopped until a permission line clears it.
    pub halted: Option<Stop>,
    /// When a read of the site's robots.txt last began (a redirect chain is one read).
    #[serde(
        with = "crate::time::rfc3339::option",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub robots_asked: Option<DateTime<Utc>>,
    /// robots.txt is not read again before this (less the due slack): ten minutes after a
    /// read, or the back-off after a read that failed.
    #[serde(
        with = "crate::time::rfc3339::option",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub robots_next: Option<DateTime<Utc>>,
    /// Reads of robots.txt in a row that failed (unreachable or blocked).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub robots_failures: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub sources: BTreeMap<String, SourceState>,
    pub sites: BTreeMap<String, SiteState>,
    /// The last log this state folds (its name, line count and SHA-256): a state file that
    /// does not match the newest log on disk is not the fold of the logs, and is rebuilt.
    #[serde(default)]
    pub folded: Option<Folded>,
}

/// The newest `DAY/HH/fetch.jsonl` on disk at or before `now`'s hour, relative to the data
/// directory. Logs of later hours are a clock that ran ahead: they are folded (a refusal
/// learned then still stands) but never count as the newest, so once the clock is put right
/// the state that corrected their times is not rebuilt away at every run.
pub fn newest_log(data: &Data, now: DateTime<Utc>) -> Result<Option<String>> {
    let (today, this_hour) = (crate::time::day(now), crate::time::hour(now));
    for day in data.days()?.iter().rev().filter(|d| **d <= today) {
        for hour in data.hours(day)?.iter().rev() {
            if *day == today && *hour > this_hour {
                continue;
            }
            if data.hour_dir(day, hour).join("fetch.jsonl").exists() {
                return Ok(Some(format!("{day}/{hour}/fetch.jsonl")));
            }
        }
    }
    Ok(None)
}

/// Whether any fetch log is on disk at all.
fn any_log(data: &Data) -> Result<bool> {
    for day in data.days()? {
        for hour in data.hours(&day)? {
            if data.hour_dir(&day, &hour).join("fetch.jsonl").exists() {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The stage whose lines schedule sources (re-checks and robots reads never do).
const SCHEDULING_STAGE: &str = "fetch-feeds";

impl State {
    /// Loads the state file, verified against the logs it claims to fold: a missing file,
    /// one that cannot be read as a state, or one whose last folded log is not the newest
    /// log on disk (an older copy, an empty one, a run killed between writing its log and
    /// the state) is rebuilt from the fetch logs, and the operator is told why.
    pub fn load_or_rebuild(data: &Data, now: DateTime<Utc>) -> Result<State> {
        let path = data.state_file();
        let newest = newest_log(data, now)?;
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return State::rebuild(data, now),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let st: State = match serde_json::from_slice(&bytes) {
            Ok(st) => st,
            Err(e) => {
                let aside = path.with_extension("json.unreadable");
                std::fs::rename(&path, &aside)
                    .with_context(|| format!("moving {} aside", path.display()))?;
                crate::elog!(
                    "{} is not a state file ({e}); moved to {} and rebuilt from the fetch logs",
                    path.display(),
                    aside.display()
                );
                return State::rebuild(data, now);
            }
        };
        let expected = match &newest {
            Some(rel) => Some(crate::store::fingerprint(data, rel)?),
            None => None,
        };
        if st.folded == expected {
            return Ok(st);
        }
        if expected.is_none() && !any_log(data)? {
            // No logs at all, yet a state that claims some: the logs are what a refusal
            // rests on, so nothing is asked until a person looks.
            bail!(
                "{} folds {} but {} holds no fetch logs: restore the logs (or move the state aside knowingly) before anything is asked",
                path.display(),
                st.folded
                    .as_ref()
                    .map_or("no log".to_string(), |f| f.log.clone()),
                data.root.display()
            );
        }
        crate::elog!(
            "{} is not the fold of the logs on disk (it folds {}, the newest log is {}): rebuilt from the logs",
            path.display(),
            st.folded
                .as_ref()
                .map_or("nothing".to_string(), |f| format!(
                    "{} ({} lines)",
                    f.log, f.lines
                )),
            newest.as_deref().unwrap_or("none")
        );
        State::rebuild(data, now)
    }

    /// Loads the state file only (a missing file is an empty state); for readers such as publish.
    pub fn load(path: &Path) -> Result<State> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .with_context(|| format!("{} is not a valid state file", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Rebuilds the state from every `fetch.jsonl`, oldest hour first, as of `now` (which
    /// names the newest log it folds, see [`newest_log`]).
    pub fn rebuild(data: &Data, now: DateTime<Utc>) -> Result<State> {
        State::fold(data, now, |_, _| true)
    }

    /// The state as it stood at `t`: the fold of the `fetch.jsonl` of every hour up to and
    /// including `t`'s own, oldest first, and of no later hour. A page made for a day shows
    /// the state at the end of that day, whenever it is made (a replay next week too).
    /// Reads every log up to `t`; [`State::as_of`] spares that when the state file is it.
    pub fn fold_until(data: &Data, t: DateTime<Utc>) -> Result<State> {
        let (day, hour) = (crate::time::day(t), crate::time::hour(t));
        State::fold(data, t, |d, h| (d, h) <= (day.as_str(), hour.as_str()))
    }

    /// [`State::fold_until`] `t`, read from the state file when that file is already this
    /// fold: it folds the newest log up to `t` (as [`State::load_or_rebuild`] checks) and no
    /// log of a later hour is on disk. So the hourly publish reads one file, and only a
    /// replay of an earlier day (or a state file that is not the fold) reads the logs.
    pub fn as_of(data: &Data, t: DateTime<Utc>) -> Result<State> {
        let (day, hour) = (crate::time::day(t), crate::time::hour(t));
        let mut later = false;
        for d in data.days()?.iter().filter(|d| **d >= day) {
            for h in data.hours(d)? {
                if (d.as_str(), h.as_str()) > (day.as_str(), hour.as_str())
                    && data.hour_dir(d, &h).join("fetch.jsonl").exists()
                {
                    later = true;
                }
            }
        }
        if !later && let Ok(bytes) = std::fs::read(data.state_file()) {
            let st: Option<State> = serde_json::from_slice(&bytes).ok();
            let expected = match newest_log(data, t)? {
                Some(rel) => Some(crate::store::fingerprint(data, &rel)?),
                None => None,
            };
            if let Some(st) = st.filter(|st| st.folded == expected) {
                return Ok(st);
            }
        }
        State::fold_until(data, t)
    }

    /// Folds the `fetch.jsonl` of the hours `keep` takes (day, hour), oldest first; the
    /// result names the newest log up to `now` ([`newest_log`]).
    fn fold(data: &Data, now: DateTime<Utc>, keep: impl Fn(&str, &str) -> bool) -> Result<State> {
        let mut st = State::default();
        for day in data.days()? {
            for hour in data.hours(&day)? {
                if !keep(&day, &hour) {
                    continue;
                }
                let path = data.hour_dir(&day, &hour).join("fetch.jsonl");
                for line in crate::store::read_jsonl_opt::<FetchLine>(&path)? {
                    st.apply(&line);
                }
            }
        }
        st.folded = match newest_log(data, now)? {
            Some(rel) => Some(crate::store::fingerprint(data, &rel)?),
            None => None,
        };
        Ok(st)
    }

    /// Saves the state as the fold of everything up to the log `rel` (relative to the data
    /// directory), just written.
    pub fn save_folding(&mut self, data: &Data, rel: &str) -> Result<()> {
        self.folded = Some(crate::store::fingerprint(data, rel)?);
        self.save(&data.state_file())
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        crate::store::write_json(path, self)
    }

    fn site(&mut self, site: &str) -> &mut SiteState {
        self.sites.entry(site.to_string()).or_default()
    }

    fn source(&mut self, url: &str) -> &mut SourceState {
        self.sources.entry(url.to_string()).or_default()
    }

    /// The one way the state changes: by what one fetch-log line says happened.
    pub fn apply(&mut self, l: &FetchLine) {
        let scheduling = l.stage == SCHEDULING_STAGE;
        let source = l.source.as_deref().filter(|_| scheduling);
        // Every line with a method is a request made: the source was asked then, whatever
        // came of it (a redirect hop too), so the ten minutes run from here.
        if l.method.is_some()
            && let Some(src) = source
        {
            self.source(src).last_request = Some(l.at);
        }
        match l.outcome.as_str() {
            "fetched" | "not-modified" => {
                self.site(&l.site).waits_in_a_row = 0;
                if let Some(src) = source {
                    let s = self.source(src);
                    if l.outcome == "fetched" {
                        s.etag = l.etag.clone();
                        s.last_modified = l.last_modified.clone();
                        s.body_at = Some(l.at);
                    }
                    s.failures = 0;
                    s.failing_since = None;
                    s.last_success = Some(l.at);
                    s.last_request = Some(l.at);
                }
            }
            "failed" | "gone" => {
                if let Some(src) = source {
                    let s = self.source(src);
                    if s.failures == 0 {
                        s.failing_since = Some(l.at);
                    }
                    s.failures += 1;
                    s.last_request = Some(l.at);
                }
            }
            "wait" => {
                let site = self.site(&l.site);
                if let Some(until) = l.until {
                    site.wait_until = Some(site.wait_until.map_or(until, |t| t.max(until)));
                }
                site.waits_in_a_row += 1;
                if site.waits_in_a_row >= WAITS_TO_HALT && site.halted.is_none() {
                    site.halted = Some(Stop {
                        at: l.at,
                        url: l.url.clone(),
                        status: l.status,
                        reason: format!("halted-{WAITS_TO_HALT}-waits"),
                        evidence: format!("{WAITS_TO_HALT} answers of 429/503 in a row"),
                    });
                }
                if let Some(src) = source {
                    self.source(src).last_request = Some(l.at);
                }
            }
            "refused" => {
                let site = self.site(&l.site);
                if site.refused.is_none() {
                    site.refused = Some(Stop::from_line(l));
                }
                if let Some(src) = source {
                    self.source(src).last_request = Some(l.at);
                }
            }
            "halted" => {
                let site = self.site(&l.site);
                if site.halted.is_none() {
                    site.halted = Some(Stop::from_line(l));
                }
            }
            "clock" => {
                // A stored time the clock has moved past backwards, corrected (and said so).
                match l.source.as_deref() {
                    Some(src) => {
                        let s = self.source(src);
                        s.next_due = l.until;
                        s.last_request = s.last_request.map(|t| t.min(l.at));
                    }
                    None => self.site(&l.site).wait_until = l.until,
                }
            }
            "robots-next" | "robots-retry" => {
                // The end of one read of a site's robots.txt, and when it may be read again.
                let site = self.site(&l.site);
                site.robots_asked = Some(l.at);
                site.robots_next = l.until;
                site.robots_failures = if l.outcome == "robots-retry" {
                    site.robots_failures + 1
                } else {
                    0
                };
            }
            "lifted-refusal" => self.site(&l.site).refused = None,
            "lifted-halt" => {
                let site = self.site(&l.site);
                site.halted = None;
                site.waits_in_a_row = 0;
            }
            "index" => {
                if let Some(src) = source {
                    self.source(src).children = l.children.clone().unwrap_or_default();
                }
            }
            "next" => {
                if let Some(src) = source {
                    self.source(src).next_due = l.until;
                }
            }
            _ => {}
        }
    }
}
