//! `fetch-feeds`: the hourly read of every due source, through the politeness module.
//!
//! Reads the source list, the opt-outs, today's robots verdicts and the durable state; asks
//! each due feed, news sitemap or home page once (conditionally, with the validators of its
//! last good answer), sites side by side and each site's requests one at a time; keeps the
//! bodies only in the hour's transient directory for `extract`; writes every request and
//! every decision not to make one to the hour's `fetch.jsonl`.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::cli::{Common, Report};
use crate::hosts::Scope;
use crate::lists::{Kind, Source};
use crate::polite::{Outcome, Polite, Req};

/// Read each due source once, politely, and keep the bodies for this hour's extract.
#[derive(Debug, clap::Parser)]
#[command(name = "fetch-feeds", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Sites read side by side, at most (each site's own requests are always one at a time).
    /// A site spends most of its time waiting out its spacing, so the default gives every
    /// site its own thread: no site ever waits on another.
    #[arg(long, default_value_t = crate::polite::SITES_SIDE_BY_SIDE)]
    pub workers: usize,
    /// Take one polite look at a listed source (checked or not) under HudukuBot's own name:
    /// robots.txt first and every rule kept, refusals recorded as usual; print what was found
    /// (robots verdict, Content-Signal, status, items, caching hints) and change no schedule.
    #[arg(long, value_name = "URL")]
    pub check: Option<String>,
    /// Print what an operator must know at 3 a.m. and stop, asking nothing: every stopped
    /// site (since when, why, the evidence, the permissions.csv line that would lift it),
    /// waits, sources failing for a day or more, sources not checked, and when each stage
    /// last wrote its output.
    #[arg(long, conflicts_with = "check")]
    pub status: bool,
}

pub use crate::polite::schedule::{
    DUE_SLACK, FEED_INTERVAL, FIRST_BACKOFF, MAX_BACKOFF, MAX_HOLD, MIN_INTERVAL, OFF_SITE_HOLD,
    backoff, caching_hint,
};

pub use crate::records::RawMeta;

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let pipeline = args.common.pipeline();
    let sources = crate::lists::load_sources(&pipeline)?;
    let hosts = crate::lists::load_hosts(&pipeline, Some(&sources))?;
    let optouts = crate::lists::load_optouts(&pipeline, &sources, &hosts)?;
    let permissions = crate::lists::load_permissions(&pipeline, now)?;
    let never = crate::lists::load_never_fetch(&pipeline)?;
    let network = crate::lists::load_network(&pipeline)?;
    if args.status {
        print!("{}", status(&data, &sources, now)?);
        return Ok(Report::default());
    }
    if let Some(url) = &args.check {
        let signer = args.common.signer(now)?;
        let polite = Polite::open(
            &data,
            now,
            CHECK_STAGE,
            never,
            &permissions,
            network,
            signer,
        )?;
        return check_source(&polite, &sources, &hosts, url, now);
    }
    let signer = args.common.signer(now)?;
    let polite = Polite::open(
        &data,
        now,
        "fetch-feeds",
        never,
        &permissions,
        network,
        signer,
    )?;
    // Raw bodies and summaries a killed run left behind go first, whatever hour they are of.
    for gone in crate::store::sweep(&data)? {
        crate::elog!(
            "fetch-feeds: removed {} left by a run that did not finish",
            gone.display()
        );
    }
    let receipts = Receipts::new(&data);
    let day = crate::time::day(now);
    let hour = crate::time::hour(now);
    let transient = data.transient_dir(&day, &hour);
    std::fs::create_dir_all(&transient)
        .with_context(|| format!("creating {}", transient.display()))?;

    let mut by_site: BTreeMap<String, Vec<&Source>> = BTreeMap::new();
    let mut counts = Counts::default();
    for s in &sources {
        if !s.checked() {
            polite.note_skip(
                &s.url,
                Some(s.url.as_str()),
                &format!(
                    "status {:?} in {}:{}: only a source an operator has checked is fetched (look at it with `fetch-feeds --check {}`, then mark it checked)",
                    s.status,
                    pipeline.sources.display(),
                    s.line,
                    s.url
                ),
                None,
            );
            counts.unchecked += 1;
            continue;
        }
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
        if !due_or_noted(&polite, &receipts, &s.url, now) {
            counts.skipped += 1;
            continue;
        }
        by_site.entry(s.site()).or_default().push(s);
    }
    // Longest queues first, so the run ends as soon as its slowest site allows.
    let mut queues: Vec<(String, Vec<&Source>)> = by_site.into_iter().collect();
    queues.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let counts = Mutex::new(counts);
    crate::polite::side_by_side(&queues, args.workers, |(_, queue)| {
        for s in queue {
            let r = fetch_one(
                &polite,
                &receipts,
                s,
                &hosts.scope(&s.outlet, &s.url),
                now,
                &transient,
            );
            let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
            match r {
                Ok(k) => c.add(k),
                Err(e) => {
                    crate::elog!("fetch-feeds: {}: {e:#}", s.url);
                    c.failed += 1;
                }
            }
        }
    });
    let this_run = polite.finish()?;
    let asked = requests_per_site(&data, &day, &sources, &this_run)?;
    let c = counts.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(Report {
        summary: format!(
            "{} sources: {} fetched, {} not modified, {} skipped, {} not checked by an operator, {} refused, {} asked to wait, {} failed, {} led off the publisher's hosts, {} blocked; {}",
            sources.len(),
            c.fetched,
            c.not_modified,
            c.skipped,
            c.unchecked,
            c.refused,
            c.waiting,
            c.failed,
            c.off_site,
            c.blocked,
            asked
        ),
        failed: c.failed,
    })
}

/// Requests a source may cost a publisher a day at most by the peer's budget: one request per
/// feed every ten minutes.
pub fn budget_per_source_day() -> i64 {
    chrono::Duration::days(1).num_minutes() / MIN_INTERVAL.num_minutes()
}

/// What each site received today, as the publisher's own log would count it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SiteRequests {
    pub site: String,
    /// Listed sources on the site.
    pub sources: usize,
    /// Requests the site received today, from every stage (robots.txt, feeds, sitemaps and
    /// their children, home pages, re-checks, redirect hops).
    pub today: u64,
    /// Of those, robots.txt reads (each hop of a redirect chain counts).
    pub robots_today: u64,
    /// Requests of this run.
    pub this_run: u64,
    /// `today` per listed source, beside `budget_per_source_day`.
    pub per_source_today: f64,
    pub budget_per_source_day: i64,
}

/// The publisher-side summary of the day so far: one line per site in `DAY/requests.jsonl`
/// (rewritten by each run, sorted by site), counted from the day's `fetch.jsonl` lines that
/// are requests (every request is one line with a method), so a rise shows at once. Returns
/// the line for the summary on stderr.
fn requests_per_site(
    data: &crate::store::Data,
    day: &str,
    sources: &[Source],
    this_run: &[crate::polite::FetchLine],
) -> Result<String> {
    let mut listed: BTreeMap<String, usize> = BTreeMap::new();
    for s in sources {
        *listed.entry(s.site()).or_default() += 1;
    }
    let mut today: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for hour in data.hours(day)? {
        let path = data.hour_dir(day, &hour).join("fetch.jsonl");
        for l in crate::store::read_jsonl_opt::<crate::polite::FetchLine>(&path)? {
            if l.method.is_some() {
                let e = today.entry(l.site.clone()).or_default();
                e.0 += 1;
                if l.outcome == "robots" {
                    e.1 += 1;
                }
            }
        }
    }
    let mut run: BTreeMap<&str, u64> = BTreeMap::new();
    for l in this_run.iter().filter(|l| l.method.is_some()) {
        *run.entry(l.site.as_str()).or_default() += 1;
    }
    let budget = budget_per_source_day();
    let lines: Vec<SiteRequests> = today
        .iter()
        .map(|(site, (n, robots))| {
            let sources = listed.get(site).copied().unwrap_or(0);
            SiteRequests {
                site: site.clone(),
                sources,
                today: *n,
                robots_today: *robots,
                this_run: run.get(site.as_str()).copied().unwrap_or(0),
                per_source_today: ((*n as f64 / sources.max(1) as f64) * 100.0).round() / 100.0,
                budget_per_source_day: budget,
            }
        })
        .collect();
    crate::store::write_jsonl(&data.day_dir(day).join("requests.jsonl"), &lines)?;
    let total: u64 = lines.iter().map(|l| l.today).sum();
    let most = lines
        .iter()
        .max_by(|a, b| {
            a.per_source_today
                .total_cmp(&b.per_source_today)
                .then_with(|| b.site.cmp(&a.site))
        })
        .map(|l| format!(", at most {} per source ({})", l.per_source_today, l.site))
        .unwrap_or_default();
    Ok(format!(
        "publishers received {total} requests today from {} sites{most}, beside a budget of {budget} per source a day (DAY/requests.jsonl)",
        lines.len()
    ))
}

#[derive(Default)]
struct Counts {
    unchecked: usize,
    fetched: usize,
    not_modified: usize,
    skipped: usize,
    refused: usize,
    waiting: usize,
    failed: usize,
    off_site: usize,
    blocked: usize,
}

enum Kept {
    Fetched,
    NotModified,
    Skipped,
    Refused,
    Waiting,
    Failed,
    OffSite,
    Blocked,
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
            Kept::OffSite => self.off_site += 1,
            Kept::Blocked => self.blocked += 1,
        }
    }
}

/// Whether an address (a source, or a child of its sitemap index) is due at `now`; if it is
/// not, the decision is logged with the time it is due.
fn due_or_noted(polite: &Polite, receipts: &Receipts, url: &url::Url, now: DateTime<Utc>) -> bool {
    let prev = polite.read_state(|st| st.sources.get(url.as_str()).cloned().unwrap_or_default());
    let (mut next_due, last_request) = (prev.next_due, prev.last_request);
    // A body whose headlines were never kept: its schedule stood for something lost.
    if receipts.unkept(url.as_str(), &prev).is_some() {
        next_due = None;
    }
    if crate::polite::schedule::is_due(next_due, last_request, now) {
        return true;
    }
    let until = next_due
        .unwrap_or(now)
        .max(last_request.map_or(now, |t| t + MIN_INTERVAL));
    polite.note_skip(
        url,
        Some(url.as_str()),
        &format!("not due until {}", crate::time::fmt(until)),
        Some(until),
    );
    false
}

/// `fetch-feeds --status`: the operator's page, from the state and the kept files.
fn status(data: &crate::store::Data, sources: &[Source], now: DateTime<Utc>) -> Result<String> {
    use std::fmt::Write as _;
    data.check_marked()?;
    let st = crate::state::State::load(&data.state_file())?;
    let fmt = crate::time::fmt;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Huduku status at {} (data {})",
        fmt(now),
        data.root.display()
    );
    let stopped: Vec<_> = st
        .sites
        .iter()
        .flat_map(|(site, s)| {
            let r = s.refused.as_ref().map(|x| (site, "refused", x));
            let h = s.halted.as_ref().map(|x| (site, "halted", x));
            r.into_iter().chain(h)
        })
        .collect();
    let _ = writeln!(
        out,
        "\nStopped ({}): nothing is asked of these until a person records permission",
        stopped.len()
    );
    for (site, what, stop) in &stopped {
        let _ = writeln!(
            out,
            "  {site} {what} since {} ({}), asking {}{}\n    evidence: {}\n    to lift it once the publisher allows it, add to permissions.csv:\n    {site},{},<who gave permission>,<what they said and how>",
            fmt(stop.at),
            stop.reason,
            stop.url,
            stop.status.map(|s| format!(" -> {s}")).unwrap_or_default(),
            if stop.evidence.is_empty() {
                "-"
            } else {
                &stop.evidence
            },
            fmt(now)
        );
    }
    let waits: Vec<_> = st
        .sites
        .iter()
        .filter_map(|(site, s)| {
            s.wait_until
                .filter(|t| *t > now)
                .map(|t| (site, t, s.waits_in_a_row))
        })
        .collect();
    let _ = writeln!(out, "\nAsked to wait ({}):", waits.len());
    for (site, until, n) in waits {
        let _ = writeln!(
            out,
            "  {site} until {} ({n} in a row; {} halt it)",
            fmt(until),
            crate::polite::WAITS_TO_HALT
        );
    }
    let day_ago = now - chrono::Duration::days(1);
    let failing: Vec<_> = st
        .sources
        .iter()
        .filter(|(_, s)| s.failures > 0 && s.last_success.is_none_or(|t| t < day_ago))
        .collect();
    let _ = writeln!(out, "\nFailing for a day or more ({}):", failing.len());
    for (url, s) in failing {
        let _ = writeln!(
            out,
            "  {url}: {} failures in a row, last good answer {}, next try {}",
            s.failures,
            s.last_success.map_or("never".to_string(), fmt),
            s.next_due.map_or("at the next run".to_string(), fmt)
        );
    }
    let unchecked: Vec<&Source> = sources.iter().filter(|s| !s.checked()).collect();
    let _ = writeln!(
        out,
        "\nNot checked by an operator, never fetched ({}):",
        unchecked.len()
    );
    for s in unchecked.iter().take(10) {
        let _ = writeln!(
            out,
            "  line {}: {} (status {:?}); look with fetch-feeds --check {}",
            s.line, s.url, s.status, s.url
        );
    }
    if unchecked.len() > 10 {
        let _ = writeln!(out, "  … and {} more", unchecked.len() - 10);
    }
    let _ = writeln!(out, "\nLast output of each stage (by the hour it names):");
    let newest = |file: &str, per_hour: bool| -> Result<Option<String>> {
        for day in data.days()?.iter().rev() {
            if !per_hour {
                if data.day_dir(day).join(file).exists() {
                    return Ok(Some(day.clone()));
                }
                continue;
            }
            for hour in data.hours(day)?.iter().rev() {
                if data.hour_dir(day, hour).join(file).exists() {
                    return Ok(Some(format!("{day} {hour}:00")));
                }
            }
        }
        Ok(None)
    };
    for (stage, file, per_hour) in [
        ("robots-refresh", "robots.jsonl", false),
        ("fetch-feeds", "fetch.jsonl", true),
        ("extract", "items.jsonl", true),
        ("classify", "classified.jsonl", true),
        ("recheck-headers", "rechecks.jsonl", false),
        ("publish", "published.jsonl", false),
    ] {
        let _ = writeln!(
            out,
            "  {stage:<16} {}",
            newest(file, per_hour)?.unwrap_or_else(|| "never".into())
        );
    }
    let _ = writeln!(out, "\nTopic model: {}", topic_model(data));
    Ok(out)
}

/// What the hourly run files topics with: the current model (its id, the day it was trained
/// and on what), or why there is none.
fn topic_model(data: &crate::store::Data) -> String {
    let dir = data.root.join("models");
    let current = dir.join("topics.model");
    if !current.exists() {
        return "none yet; `make train` (run by `make daily`) makes one, and until then the lexicons file every headline".into();
    }
    match crate::classify::model::Model::load(&current) {
        Ok(m) => {
            let id = crate::classify::model_id(&m);
            let bytes = std::fs::read(&current).unwrap_or_default();
            // The dated copy with the same bytes names the day it was trained.
            let mut dated: Vec<String> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("topics-") && n.ends_with(".model"))
                .filter(|n| std::fs::read(dir.join(n)).is_ok_and(|b| b == bytes))
                .collect();
            dated.sort();
            let per_lang: Vec<String> = m
                .header
                .examples
                .iter()
                .map(|(l, n)| format!("{l} {n}"))
                .collect();
            format!(
                "{} (model {id}, {}), trained on {} examples",
                current.display(),
                dated
                    .last()
                    .map_or("not a dated copy".to_string(), |n| format!("a copy of {n}")),
                per_lang.join(", ")
            )
        }
        Err(e) => format!(
            "UNREADABLE: {e:#}; the hourly runs file with the lexicons alone and end asking a person to act; `make train` makes a new one"
        ),
    }
}

/// The stage name of `fetch-feeds --check` lines: the state folds their refusals and waits
/// (a site's answer counts whoever asked) but never a source's schedule or validators.
pub const CHECK_STAGE: &str = "check-source";

/// `fetch-feeds --check URL`: one polite look at a listed source, printed for the operator.
fn check_source(
    polite: &Polite,
    sources: &[Source],
    hosts: &crate::hosts::Hosts,
    url: &str,
    now: DateTime<Utc>,
) -> Result<Report> {
    use std::fmt::Write as _;
    let s = sources
        .iter()
        .find(|s| s.url.as_str().trim_end_matches('/') == url.trim_end_matches('/'))
        .with_context(|| {
            format!(
                "--check {url}: not a source in the list (add its line first, status unchecked)"
            )
        })?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "source:  {} ({}, {:?}, status {:?})",
        s.url, s.outlet, s.kind, s.status
    );
    let robots = polite.ensure_robots(&s.site());
    if let Some(l) = polite
        .robots_lines()
        .into_iter()
        .find(|l| l.site == s.site())
    {
        let delay = l
            .crawl_delay
            .map(|d| format!(", Crawl-delay {d}"))
            .unwrap_or_default();
        let _ = writeln!(out, "robots:  {} ({}){delay}", l.verdict, l.reason);
        let _ = writeln!(
            out,
            "signal:  {}",
            l.content_signal.as_deref().unwrap_or("none")
        );
    }
    let mut readable = robots.is_ok();
    match &robots {
        Err(why) => {
            let _ = writeln!(out, "asked:   nothing more ({why})");
        }
        Ok(()) => {
            let req = Req {
                method: crate::polite::Method::Get,
                url: s.url.clone(),
                source: Some(s.url.to_string()),
                etag: None,
                last_modified: None,
                follow_redirects: true,
                scope: hosts.scope(&s.outlet, &s.url),
            };
            match polite.request(&req) {
                Outcome::Fetched(f) => {
                    let ct = f.headers.get("content-type").map(String::as_str);
                    let parsed = std::panic::catch_unwind(|| {
                        crate::extract::parse_body(
                            s.kind,
                            &f.body,
                            &f.url,
                            ct,
                            s.selector.as_deref(),
                        )
                    })
                    .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "answer:  {} from {} ({} bytes, {})",
                        f.status,
                        f.url,
                        f.body.len(),
                        ct.unwrap_or("no Content-Type")
                    );
                    let _ = writeln!(
                        out,
                        "items:   {} ({} dropped){}",
                        parsed.items.len(),
                        parsed.dropped,
                        parsed.error.map(|e| format!("; {e}")).unwrap_or_default()
                    );
                    if !parsed.children.is_empty() {
                        let _ = writeln!(out, "index:   {} child sitemaps", parsed.children.len());
                    }
                    let hint = caching_hint(&f.headers, &f.body, now)
                        .map_or("none (read about once an hour)".to_string(), |(d, what)| {
                            format!("{what}: {} min", d.num_minutes())
                        });
                    let _ = writeln!(out, "caching: {hint}");
                    let validators = match (f.headers.get("etag"), f.headers.get("last-modified")) {
                        (None, None) => "none (every read is a whole answer)".to_string(),
                        (e, l) => format!(
                            "ETag {} / Last-Modified {}",
                            e.map_or("-", String::as_str),
                            l.map_or("-", String::as_str)
                        ),
                    };
                    let _ = writeln!(out, "validators: {validators}");
                }
                other => {
                    readable = false;
                    let _ = writeln!(out, "answer:  {other:?}");
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "verdict: {}",
        if readable {
            "HudukuBot may read it; mark it `checked` in the source list once the publisher's terms allow it"
        } else {
            "not readable as it stands; leave it unchecked"
        }
    );
    print!("{out}");
    polite.finish()?;
    Ok(Report {
        summary: format!("looked at {} once; no schedule changed", s.url),
        failed: usize::from(!readable),
    })
}

/// Child sitemaps read at most per sitemap index and run (one level deep): a news sitemap
/// index lists today's few news sitemaps first.
pub const SITEMAP_CHILDREN: usize = 5;

fn fetch_one(
    polite: &Polite,
    receipts: &Receipts,
    s: &Source,
    scope: &Scope,
    now: DateTime<Utc>,
    transient: &std::path::Path,
) -> Result<Kept> {
    let (kept, children) = fetch_address(polite, receipts, s, scope, &s.url, now, transient)?;
    // A sitemap index: its children are read as sources of their own (their own validators
    // and schedule in the state), their items credited to the listed source. A child on
    // another publisher's host is not asked (the politeness module logs it `off-site`).
    for child in children.iter().take(SITEMAP_CHILDREN) {
        let Ok(url) = url::Url::parse(child) else {
            continue;
        };
        let url = crate::records::without_credentials(&url);
        if !due_or_noted(polite, receipts, &url, now) {
            continue;
        }
        fetch_address(polite, receipts, s, scope, &url, now, transient)?;
    }
    Ok(kept)
}

/// Reads one address of a source (the source itself, or a child of its sitemap index), keeps
/// the body for extract, and logs when it is next read. Returns the child sitemaps when the
/// body is a sitemap index (its body is then not kept: it holds no headlines).
fn fetch_address(
    polite: &Polite,
    receipts: &Receipts,
    s: &Source,
    scope: &Scope,
    address: &url::Url,
    now: DateTime<Utc>,
    transient: &std::path::Path,
) -> Result<(Kept, Vec<String>)> {
    let url = address.as_str().to_string();
    let prev = polite.read_state(|st| st.sources.get(&url).cloned().unwrap_or_default());
    // Validators are sent only for a body whose headlines were kept; else the whole feed
    // is asked for again, so nothing a lost body held is missed.
    let unkept = receipts.unkept(&url, &prev);
    if let Some(at) = unkept {
        polite.note_unkept(address, at);
    }
    let req = Req {
        method: crate::polite::Method::Get,
        url: address.clone(),
        source: Some(url.clone()),
        etag: prev.etag.clone().filter(|_| unkept.is_none()),
        last_modified: prev.last_modified.clone().filter(|_| unkept.is_none()),
        follow_redirects: true,
        scope: scope.clone(),
    };
    let mut children = Vec::new();
    let (kept, next, why) = match polite.request(&req) {
        Outcome::Fetched(f) => {
            let content_type = f.headers.get("content-type").cloned();
            if s.kind == Kind::Sitemap {
                // A reader that fails on the body costs this source alone.
                children = std::panic::catch_unwind(|| {
                    crate::extract::parse_body(
                        Kind::Sitemap,
                        &f.body,
                        &f.url,
                        content_type.as_deref(),
                        None,
                    )
                    .children
                })
                .unwrap_or_default();
                if children != prev.children {
                    polite.note_children(address, &children);
                }
            }
            if children.is_empty() {
                let key = crate::lists::source_key(&url);
                let meta = RawMeta {
                    source: s.url.to_string(),
                    address: url.clone(),
                    fetched_at: Some(now),
                    outlet: s.outlet.clone(),
                    lang: s.lang.clone(),
                    kind: s.kind,
                    selector: s.selector.clone(),
                    url: f.url.to_string(),
                    content_type,
                };
                // The description is written after the body: extract reads only described bodies.
                let kept =
                    crate::store::write_transient(&transient.join(format!("{key}.body")), &f.body)
                        .and_then(|()| {
                            crate::store::write_transient(
                                &transient.join(format!("{key}.json")),
                                &serde_json::to_vec(&meta)?,
                            )
                        });
                if let Err(e) = kept {
                    // A body that cannot be handed on is a full disk: stop asking.
                    polite.cannot_record(format!("{e:#}"));
                    return Err(e);
                }
            }
            let (next, why) = after_success(caching_hint(&f.headers, &f.body, now), None, now);
            (Kept::Fetched, next, why)
        }
        Outcome::NotModified { headers } => {
            // A 304 has no body: the hold the feed asked for last time stands, unless its
            // headers ask for longer.
            let last_hold = match (prev.next_due, prev.last_request, prev.last_success) {
                (Some(due), Some(asked), Some(ok)) if ok == asked => Some(due - asked),
                _ => None,
            };
            let (next, why) = after_success(caching_hint(&headers, b"", now), last_hold, now);
            children = prev.children.clone();
            (Kept::NotModified, next, why)
        }
        Outcome::Failed { .. } | Outcome::Gone { .. } | Outcome::Redirect { .. } => {
            let failures = prev.failures + 1;
            let base = backoff(failures);
            // Sources that failed together do not come back together: the jitter is the
            // address's own, and the same in a replay.
            let wait = crate::polite::schedule::jittered(base, MAX_BACKOFF, &url, now);
            (
                Kept::Failed,
                now + wait,
                format!(
                    "back-off after {failures} failure(s) in a row: {} min (+{} s jitter)",
                    base.num_minutes(),
                    (wait - base).num_seconds()
                ),
            )
        }
        Outcome::Wait { until, .. } => (Kept::Waiting, until, "the site asked to wait".to_string()),
        Outcome::OffSite { .. } => (
            Kept::OffSite,
            now + OFF_SITE_HOLD,
            "led off the publisher's own hosts: asked again in 24 h (hosts.csv lists an outlet's other hosts)".to_string(),
        ),
        Outcome::Blocked { .. } => (
            Kept::Blocked,
            now + OFF_SITE_HOLD,
            "blocked (an address that is not public, or credentials in a URL): asked again in 24 h".to_string(),
        ),
        // Every outcome says when the address is next due, and why: none is left due at
        // once to be asked every hour while nothing is gained.
        Outcome::Refused { .. } => (
            Kept::Refused,
            now + FEED_INTERVAL,
            "the site refused: nothing is asked of it until a newer line in permissions.csv lifts the refusal".to_string(),
        ),
        Outcome::Skipped {
            reason,
            until,
            after_redirect: true,
        } => (
            Kept::Skipped,
            until.unwrap_or(now + OFF_SITE_HOLD).max(now + MIN_INTERVAL),
            format!(
                "asked, and redirected to an address that is not asked ({reason}): asked again {}",
                match until {
                    Some(t) => format!("when that ends, {}", crate::time::fmt(t)),
                    None => "in 24 h".to_string(),
                }
            ),
        ),
        Outcome::Skipped {
            reason,
            until,
            after_redirect: false,
        } => (
            Kept::Skipped,
            until.unwrap_or(now + FEED_INTERVAL).max(now + MIN_INTERVAL),
            format!("not asked ({reason}): looked at again then, asking nothing until it may be asked"),
        ),
    };
    polite.note_next(address, next, &why);
    Ok((kept, children))
}

/// The bodies (address, fetch time) an hour's receipts name.
type Read = std::collections::BTreeSet<(String, DateTime<Utc>)>;

/// The receipts `extract` wrote (`DAY/HH/bodies.jsonl`), read once per hour as needed.
struct Receipts {
    data: crate::store::Data,
    by_hour: Mutex<BTreeMap<String, Read>>,
}

impl Receipts {
    fn new(data: &crate::store::Data) -> Receipts {
        Receipts {
            data: data.clone(),
            by_hour: Mutex::new(BTreeMap::new()),
        }
    }

    /// When the body an address's validators stand for was fetched, if extract never kept
    /// its headlines (a sitemap index keeps its children in the state instead).
    fn unkept(&self, address: &str, prev: &crate::state::SourceState) -> Option<DateTime<Utc>> {
        let at = prev.body_at?;
        if !prev.children.is_empty() {
            return None;
        }
        let (day, hour) = (crate::time::day(at), crate::time::hour(at));
        let mut by_hour = self.by_hour.lock().unwrap_or_else(|p| p.into_inner());
        let read = by_hour.entry(format!("{day}/{hour}")).or_insert_with(|| {
            let path = self.data.hour_dir(&day, &hour).join("bodies.jsonl");
            match crate::store::read_jsonl_opt::<crate::records::BodyRead>(&path) {
                Ok(lines) => lines
                    .into_iter()
                    .map(|b| (b.address, b.fetched_at))
                    .collect(),
                Err(e) => {
                    crate::elog!("fetch-feeds: {e:#}: its bodies are asked for again");
                    Default::default()
                }
            }
        });
        (!read.contains(&(address.to_string(), at))).then_some(at)
    }
}

/// When a source is next read after a good answer: about an hour, or longer when the feed
/// asks (or asked last time, for a 304), at most [`MAX_HOLD`].
fn after_success(
    hint: Option<(chrono::Duration, String)>,
    last_hold: Option<chrono::Duration>,
    now: DateTime<Utc>,
) -> (DateTime<Utc>, String) {
    let hint = match (hint, last_hold) {
        (Some((h, what)), Some(last)) if last > h => {
            Some((last, format!("as asked before ({what} now)")))
        }
        (None, Some(last)) => Some((last, "as the feed asked before".to_string())),
        (h, _) => h,
    };
    match hint {
        Some((hold, what)) if hold > FEED_INTERVAL => {
            let hold = hold.min(MAX_HOLD);
            (
                now + hold,
                format!(
                    "the feed asks to be left {} min ({what}; at most 24 h)",
                    hold.num_minutes()
                ),
            )
        }
        _ => (now + FEED_INTERVAL, "about once an hour".to_string()),
    }
}
