//! `fetch-videos`: the newest uploads of a few YouTube channels, through YouTube's own API
//! with Huduku's key.
//!
//! The public fetching promise says it: "Huduku lists videos from a few YouTube channels
//! through YouTube's own API, with Huduku's key; HudukuBot doesn't fetch from YouTube." So
//! this step has nothing to do with HudukuBot's publisher fetching (`polite`): its requests
//! go to the API only ([`api`]), under a name of their own (`Huduku-videos/1.0`), and
//! carry the key ([`key`]), which is never logged or written.
//!
//! A run: delete what is too old to keep ([`kept`]: nothing from the API lives 30 days),
//! read `pipeline/channels.csv` ([`channels`]), then for each channel in the list's order
//! ask `channels.list` once for its uploads playlist (kept in the state) and
//! `playlistItems.list` for its newest 50 uploads (with `If-None-Match` when an ETag is
//! held), each call counted against the day's budget (`--quota-budget`) before it is sent.
//! A call is made only while spent + 1 ≤ budget.
//!
//! Exit status, as every stage's: 0 all well; 3 some channels failed, were removed, or were
//! not asked (the budget reached, or YouTube's quota spent earlier today), each with one
//! line naming it; 4 a person must act: YouTube refused the key, or said the quota is
//! exhausted (no further call that UTC day); 1 the step itself failed (a bad line in the
//! channel list, no key for a list that names channels, a key file in the wrong place or
//! readable by others), before anything is asked.

pub mod api;
pub mod channels;
pub mod kept;
pub mod key;

use anyhow::{Result, anyhow};
use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::cli::{Common, Report};
use api::Outcome;
use kept::{Call, Quota, State, Video};

/// List the newest videos of the channels in pipeline/channels.csv, through the YouTube Data
/// API with Huduku's key (HUDUKU_YOUTUBE_KEY, or --key-file).
#[derive(Debug, clap::Parser)]
#[command(name = "fetch-videos", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// The channel list (default: PIPELINE/channels.csv; no file lists none).
    #[arg(long, value_name = "CSV")]
    pub channels: Option<PathBuf>,
    /// The YouTube Data API v3's address. Plain http only to a loopback address (the tests'
    /// and the demo's fake API).
    #[arg(long, env = "HUDUKU_YOUTUBE_API", default_value = api::DEFAULT_BASE, value_name = "URL")]
    pub api_base: String,
    /// A file holding the API key, instead of HUDUKU_YOUTUBE_KEY: outside the repository and
    /// the data, readable by its owner alone (chmod 600).
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// API units this step may spend per UTC day (each call costs 1; a 304 is counted as 1
    /// too). The project's default quota is 10,000 a day.
    #[arg(long, default_value_t = DEFAULT_BUDGET, value_name = "UNITS")]
    pub quota_budget: u64,
}

/// The default daily budget: a fifth of the project's default quota of 10,000 units, so
/// that the two UTC days a Pacific-time quota day overlaps can never spend it, and other
/// uses of the key keep room.
pub const DEFAULT_BUDGET: u64 = 2_000;

/// Why no further call is made this run.
enum Stop {
    /// YouTube refused the key.
    Key(String),
    /// YouTube said the quota is exhausted (this run, or earlier today).
    Quota { earlier: bool, why: String },
    /// This step's own budget for the day is reached.
    Budget,
}

impl Stop {
    fn why(&self, budget: u64) -> String {
        match self {
            Stop::Key(w) => format!("not asked: YouTube refused the key this run ({w})"),
            Stop::Quota {
                earlier: false,
                why,
            } => {
                format!("not asked: YouTube's quota is exhausted ({why})")
            }
            Stop::Quota { earlier: true, why } => format!(
                "not asked: YouTube said the quota was exhausted earlier today ({why}); asked again from 00:00 UTC"
            ),
            Stop::Budget => format!("not asked: today's budget of {budget} units is spent"),
        }
    }
}

/// What the run came to, counted.
#[derive(Default)]
struct Counts {
    refreshed: usize,
    unchanged: usize,
    removed: usize,
    failed: usize,
    not_asked: usize,
}

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
    let _lock = args.common.lock("fetch-videos")?;
    // A killed run's half-written files go first (the hour's raw bodies are not this
    // step's to remove).
    for gone in crate::store::sweep_temporaries(&data)? {
        crate::elog!(
            "fetch-videos: removed {} left by a run that did not finish",
            gone.display()
        );
    }

    // The 30-day rule first, whatever happens after (a bad list, a missing key).
    let mut videos = kept::load_videos(&data)?;
    let mut state = State::load(&data)?;
    let held = videos.len();
    videos.retain(|v| kept::keep(v.fetched, now));
    let aged = held - videos.len();
    state.age(now);
    kept::sort(&mut videos);
    kept::save(&data, &videos, &state)?;

    let pipeline = args.common.pipeline();
    let list_path = args
        .channels
        .clone()
        .unwrap_or_else(|| pipeline.file("channels.csv"));
    let channels = channels::load(&list_path)?;
    let base = api::base(&args.api_base)?;

    // A channel taken off the list is off the pages at once, and forgotten.
    let listed: BTreeSet<&str> = channels.iter().map(|c| c.id.as_str()).collect();
    let before = videos.len();
    videos.retain(|v| listed.contains(v.channel.as_str()));
    let unlisted = before - videos.len();
    state.channels.retain(|id, _| listed.contains(id.as_str()));
    for v in &mut videos {
        if let Some(c) = channels.iter().find(|c| c.id == v.channel) {
            v.channel_name.clone_from(&c.name);
            v.lang.clone_from(&c.lang);
        }
    }
    kept::save(&data, &videos, &state)?;
    let dropped = |aged: usize, unlisted: usize| {
        let mut s = format!(
            "{aged} deleted after {} days",
            kept::DELETE_AFTER.num_days()
        );
        if unlisted > 0 {
            s.push_str(&format!(", {unlisted} of channels no longer listed"));
        }
        s
    };
    if channels.is_empty() {
        return Ok(Report {
            summary: format!(
                "no channels in {}: nothing asked; {} videos kept ({})",
                list_path.display(),
                videos.len(),
                dropped(aged, unlisted)
            ),
            failed: 0,
        });
    }

    let key = key::load(
        args.key_file.as_deref(),
        std::env::var(key::ENV).ok(),
        &key::Forbidden {
            data: &data.root,
            pipeline: &pipeline.root,
        },
    )?
    .ok_or_else(|| {
        anyhow!(
            "{} lists {} channels but no YouTube API key is given: set {} or pass --key-file FILE (outside the repository, chmod 600); nothing was asked",
            list_path.display(),
            channels.len(),
            key::ENV
        )
    })?;
    let api = api::Api::new(base, key);
    let mut quota = Quota::load(&data, now, args.quota_budget)?;
    quota.save()?;
    let mut stop = quota.exhausted.as_ref().map(|e| Stop::Quota {
        earlier: true,
        why: e.why.clone(),
    });
    let mut calls: Vec<Call> = Vec::new();
    let mut n = Counts::default();
    let mut unusable = 0usize;

    for ch in &channels {
        let line = |call: Option<&str>, outcome: &str, detail: String, spent: u64| Call {
            at: now,
            channel: ch.id.clone(),
            call: call.map(str::to_string),
            outcome: outcome.to_string(),
            detail,
            spent,
        };
        let name = format!(
            "channel {} ({}, {}:{})",
            ch.id,
            ch.name,
            list_path.display(),
            ch.line
        );
        let ask = |stop: &mut Option<Stop>, quota: &mut Quota| -> Result<bool> {
            if stop.is_none() && !quota.take()? {
                *stop = Some(Stop::Budget);
            }
            Ok(stop.is_none())
        };

        // The uploads playlist: from the state, or asked once.
        let mut uploads = state.channels.get(&ch.id).and_then(|c| c.uploads.clone());
        if uploads.is_none() {
            if !ask(&mut stop, &mut quota)? {
                let why = stop.as_ref().map_or(String::new(), |s| s.why(quota.budget));
                calls.push(line(None, "skipped", why, quota.spent));
                n.not_asked += 1;
                continue;
            }
            let outcome = api.channel(&ch.id);
            let call = Some("channels.list");
            match outcome {
                Outcome::Uploads(u) => {
                    calls.push(line(call, "uploads", String::new(), quota.spent));
                    let st = state.channels.entry(ch.id.clone()).or_default();
                    st.uploads = Some(u.clone());
                    st.learned = Some(now);
                    uploads = Some(u);
                }
                other => {
                    settle(
                        other,
                        &name,
                        ch,
                        now,
                        &mut quota,
                        &mut stop,
                        &mut n,
                        &mut videos,
                        &mut state,
                        &mut calls,
                        call,
                    )?;
                    continue;
                }
            }
        }
        let Some(uploads) = uploads else { continue };

        // The newest uploads.
        if !ask(&mut stop, &mut quota)? {
            let why = stop.as_ref().map_or(String::new(), |s| s.why(quota.budget));
            calls.push(line(None, "skipped", why, quota.spent));
            n.not_asked += 1;
            continue;
        }
        let held = videos.iter().filter(|v| v.channel == ch.id).count();
        let etag = state
            .channels
            .get(&ch.id)
            .filter(|c| c.videos == held)
            .and_then(|c| c.etag.clone());
        let call = Some("playlistItems.list");
        match api.uploads(&uploads, etag.as_deref()) {
            Outcome::Items {
                etag,
                items,
                unusable: bad,
            } => {
                videos.retain(|v| v.channel != ch.id);
                let fresh: Vec<Video> = items
                    .into_iter()
                    .map(|i| Video {
                        id: i.video_id,
                        title: i.title,
                        channel: ch.id.clone(),
                        channel_name: ch.name.clone(),
                        lang: ch.lang.clone(),
                        published: i.published,
                        fetched: now,
                    })
                    .collect();
                let detail = if bad > 0 {
                    format!(
                        "{} videos; {bad} more not listed (not public, or a bad id or time)",
                        fresh.len()
                    )
                } else {
                    format!("{} videos", fresh.len())
                };
                unusable += bad;
                videos.extend(fresh);
                kept::sort(&mut videos);
                let st = state.channels.entry(ch.id.clone()).or_default();
                st.etag = etag;
                st.answered = Some(now);
                // What was kept (a video id listed by two channels is kept once).
                st.videos = videos.iter().filter(|v| v.channel == ch.id).count();
                calls.push(line(call, "fetched", detail, quota.spent));
                n.refreshed += 1;
            }
            Outcome::NotModified => {
                calls.push(line(call, "not-modified", String::new(), quota.spent));
                n.unchanged += 1;
            }
            other => {
                settle(
                    other,
                    &name,
                    ch,
                    now,
                    &mut quota,
                    &mut stop,
                    &mut n,
                    &mut videos,
                    &mut state,
                    &mut calls,
                    call,
                )?;
            }
        }
    }

    kept::sort(&mut videos);
    kept::save(&data, &videos, &state)?;
    kept::append_calls(&data, now, &calls)?;
    if let Some(Stop::Budget) = &stop {
        crate::elog!(
            "fetch-videos: today's budget of {} units is spent: {} channels not asked until 00:00 UTC (raise --quota-budget, or list fewer channels)",
            quota.budget,
            n.not_asked
        );
    }
    if let Some(Stop::Quota { earlier: true, why }) = &stop {
        crate::elog!(
            "fetch-videos: YouTube said the quota was exhausted earlier today ({why}): nothing asked until 00:00 UTC"
        );
    }
    let mut summary = format!(
        "{} channels: {} refreshed, {} unchanged (304), {} removed, {} failed, {} not asked; {} videos kept ({})",
        channels.len(),
        n.refreshed,
        n.unchanged,
        n.removed,
        n.failed,
        n.not_asked,
        videos.len(),
        dropped(aged, unlisted)
    );
    if unusable > 0 {
        summary.push_str(&format!(
            ", {unusable} answered items not listed (not public, or a bad id or time)"
        ));
    }
    summary.push_str(&format!(
        "; quota {} of {} units spent today ({})",
        quota.spent, quota.budget, quota.day
    ));
    Ok(Report {
        summary,
        failed: n.removed + n.failed + n.not_asked,
    })
}

/// What a call that gave no list comes to: a removed channel, a refused key, a spent quota
/// or a failure, each with one line on stderr naming the channel, and one in the call log.
#[allow(clippy::too_many_arguments)]
fn settle(
    outcome: Outcome,
    name: &str,
    ch: &channels::Channel,
    now: chrono::DateTime<chrono::Utc>,
    quota: &mut Quota,
    stop: &mut Option<Stop>,
    n: &mut Counts,
    videos: &mut Vec<Video>,
    state: &mut State,
    calls: &mut Vec<Call>,
    call: Option<&str>,
) -> Result<()> {
    let (label, detail) = match outcome {
        Outcome::Removed(why) => {
            // Its videos go at once; its uploads playlist is asked again next time.
            videos.retain(|v| v.channel != ch.id);
            state.channels.remove(&ch.id);
            crate::elog!(
                "fetch-videos: {name}: removed from YouTube ({why}); its videos are off the pages; take it off the list"
            );
            n.removed += 1;
            ("removed", why)
        }
        Outcome::KeyRefused(why) => {
            crate::elog!(
                "fetch-videos: {name}: YouTube refused the API key ({why}); no further call this run"
            );
            crate::cli::needs_attention(format!(
                "YouTube refused Huduku's API key ({why}): check {} or --key-file, and the key's restrictions in the Google Cloud console",
                key::ENV
            ));
            *stop = Some(Stop::Key(why.clone()));
            n.failed += 1;
            ("key-refused", why)
        }
        Outcome::QuotaExhausted(why) => {
            quota.exhaust(now, &why)?;
            crate::elog!(
                "fetch-videos: {name}: YouTube says the quota is exhausted ({why}); no further call until 00:00 UTC"
            );
            crate::cli::needs_attention(format!(
                "YouTube's daily quota for Huduku's key is exhausted ({why}) after {} units counted here today: lower --quota-budget below the project's quota, or find what else spends it",
                quota.spent
            ));
            *stop = Some(Stop::Quota {
                earlier: false,
                why: why.clone(),
            });
            n.failed += 1;
            ("quota-exhausted", why)
        }
        Outcome::Failed(why) => {
            crate::elog!(
                "fetch-videos: {name}: {} failed ({why}); its videos kept stay as they were",
                call.unwrap_or("the call")
            );
            n.failed += 1;
            ("failed", why)
        }
        other => {
            let why = format!("an answer of the wrong kind: {other:?}");
            crate::elog!("fetch-videos: {name}: {why}");
            n.failed += 1;
            ("failed", why)
        }
    };
    calls.push(Call {
        at: now,
        channel: ch.id.clone(),
        call: call.map(str::to_string),
        outcome: label.to_string(),
        detail,
        spent: quota.spent,
    });
    Ok(())
}
