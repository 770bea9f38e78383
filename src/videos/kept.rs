//! What `fetch-videos` keeps, and for how long.
//!
//! ```text
//! videos.jsonl                the current set of listed videos (see [`Video`]), rewritten
//!                             whole by every run: sorted newest first, then by channel and id
//! videos-state.json           per channel: its uploads playlist (from channels.list) and
//!                             the ETag of the last full answer, each with when it came
//! DAY/videos-quota.json       the API units spent on that UTC day, the budget, and whether
//!                             YouTube said the quota was exhausted
//! DAY/HH/videos-calls.jsonl   one line per call made, or not made, and what it came to
//! ```
//!
//! YouTube's developer policies let data fetched with only an API key be kept at most 30
//! days. Here that holds by construction: every run begins by deleting every video, uploads
//! playlist and ETag that is [`DELETE_AFTER`] (29 days) old by the time it came from the
//! API, a day short of 30 so that a run missed now and then never lets anything reach 30;
//! publish shows nothing older either. A video is refreshed (its `fetched` time moves on)
//! only by a full answer that lists it again; a 304 leaves it as it was, and a full answer
//! is asked for instead once the one held is [`REFRESH_AFTER`] old, so a channel that is
//! reachable is refreshed weekly and one that is not drops out within 29 days. A video no
//! longer in its channel's newest uploads goes at the next full answer; a removed channel's
//! go at once. The call log holds no video data, only which channel, which call and what
//! it came to.
//!
//! Nothing here holds a wall-clock time: every time is `--now` of a run, so two runs with
//! the same inputs and the same answers write the same bytes.

use anyhow::{Context, Result};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::store::Data;

/// The longest YouTube's developer policies let data fetched with an API key be kept.
pub const POLICY_DAYS: i64 = 30;

/// Anything from the API is deleted once this old (a day short of [`POLICY_DAYS`]).
pub const DELETE_AFTER: Duration = Duration::days(POLICY_DAYS - 1);

/// A held answer older than this is asked for again in full (no `If-None-Match`).
pub const REFRESH_AFTER: Duration = Duration::days(7);

/// One listed video: all that is kept of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Video {
    /// YouTube's video id (11 of `[A-Za-z0-9_-]`).
    pub id: String,
    pub title: String,
    /// The channel's id and name, as `channels.csv` lists them.
    pub channel: String,
    pub channel_name: String,
    /// The channel's language in `channels.csv`.
    pub lang: String,
    /// When YouTube says it was published (the playlist item's `publishedAt`).
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
    /// When Huduku last had it from the API (the `--now` of that run).
    #[serde(with = "crate::time::rfc3339")]
    pub fetched: DateTime<Utc>,
}

impl Video {
    /// The video's page on YouTube.
    pub fn link(&self) -> String {
        format!("https://www.youtube.com/watch?v={}", self.id)
    }
}

/// Whether something that came from the API at `at` may still be kept at `now`.
pub fn keep(at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now - at < DELETE_AFTER
}

/// Whether a video may be shown at `now`: had from the API by then, and not too old.
pub fn shown(v: &Video, now: DateTime<Utc>) -> bool {
    v.fetched <= now && keep(v.fetched, now)
}

pub fn videos_path(data: &Data) -> PathBuf {
    data.root.join("videos.jsonl")
}
pub fn state_path(data: &Data) -> PathBuf {
    data.root.join("videos-state.json")
}
pub fn quota_path(data: &Data, now: DateTime<Utc>) -> PathBuf {
    data.day_dir(&crate::time::day(now))
        .join("videos-quota.json")
}
pub fn calls_path(data: &Data, now: DateTime<Utc>) -> PathBuf {
    data.hour_dir(&crate::time::day(now), &crate::time::hour(now))
        .join("videos-calls.jsonl")
}

/// The kept videos (none when there is no file).
pub fn load_videos(data: &Data) -> Result<Vec<Video>> {
    crate::store::read_jsonl_opt(&videos_path(data))
}

/// Sorts videos as they are kept and listed: newest first, then by channel and id; one
/// line per video id.
pub fn sort(videos: &mut Vec<Video>) {
    videos.sort_by(|a, b| {
        b.published
            .cmp(&a.published)
            .then_with(|| a.channel.cmp(&b.channel))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut seen = std::collections::BTreeSet::new();
    videos.retain(|v| seen.insert(v.id.clone()));
}

/// Per channel, what the API told and when.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelState {
    /// The uploads playlist channels.list gave, and when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uploads: Option<String>,
    #[serde(
        default,
        with = "crate::time::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub learned: Option<DateTime<Utc>>,
    /// The ETag of the last full playlistItems answer, when it came and how many videos of
    /// it were kept (If-None-Match is sent only while those are all held).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    #[serde(
        default,
        with = "crate::time::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub answered: Option<DateTime<Utc>>,
    #[serde(default)]
    pub videos: usize,
}

/// The durable state of the video step (`videos-state.json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub channels: BTreeMap<String, ChannelState>,
}

impl State {
    pub fn load(data: &Data) -> Result<State> {
        let path = state_path(data);
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .with_context(|| format!("{}: not a video state file", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Forgets what is too old to keep: an uploads playlist learned [`DELETE_AFTER`] ago
    /// (channels.list is asked again), an ETag older than [`REFRESH_AFTER`].
    pub fn age(&mut self, now: DateTime<Utc>) {
        for c in self.channels.values_mut() {
            if c.learned.is_none_or(|t| !keep(t, now)) {
                c.uploads = None;
                c.learned = None;
            }
            if c.answered.is_none_or(|t| now - t >= REFRESH_AFTER) {
                c.etag = None;
                c.answered = None;
                c.videos = 0;
            }
        }
        self.channels.retain(|_, c| *c != ChannelState::default());
    }
}

/// Writes the kept videos and the state (atomically each), each only when its bytes change;
/// a data directory that never listed a channel gets neither file.
pub fn save(data: &Data, videos: &[Video], state: &State) -> Result<()> {
    let mut lines = Vec::new();
    for v in videos {
        serde_json::to_writer(&mut lines, v)?;
        lines.push(b'\n');
    }
    let mut json = serde_json::to_vec_pretty(state)?;
    json.push(b'\n');
    put(&videos_path(data), &lines, videos.is_empty())?;
    put(&state_path(data), &json, state.channels.is_empty())
}

/// Writes `bytes` atomically unless the file holds them already, or is missing and `empty`.
fn put(path: &std::path::Path, bytes: &[u8], empty: bool) -> Result<()> {
    match std::fs::read(path) {
        Ok(old) if old == bytes => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && empty => Ok(()),
        _ => crate::store::write_atomic(path, bytes),
    }
}

/// Why YouTube stopped the day's calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exhausted {
    #[serde(with = "crate::time::rfc3339")]
    pub at: DateTime<Utc>,
    pub why: String,
}

/// A UTC day's API units (`DAY/videos-quota.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quota {
    pub day: String,
    /// The budget of the last run that day (`--quota-budget`).
    pub budget: u64,
    /// Units spent: each call counted before it is sent, a 304 as 1 too.
    pub spent: u64,
    /// Set when YouTube answered that the quota is exhausted: no call is made the rest of
    /// the UTC day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhausted: Option<Exhausted>,
    #[serde(skip)]
    path: PathBuf,
}

impl Quota {
    /// The day's count so far (none: nothing spent), under this run's budget.
    pub fn load(data: &Data, now: DateTime<Utc>, budget: u64) -> Result<Quota> {
        let path = quota_path(data, now);
        let mut q = match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice::<Quota>(&bytes)
                .with_context(|| format!("{}: not a quota file", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Quota {
                day: crate::time::day(now),
                budget,
                spent: 0,
                exhausted: None,
                path: PathBuf::new(),
            },
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        q.budget = budget;
        q.path = path;
        Ok(q)
    }

    /// Takes one unit for a call about to be made, written down before the call is sent (so
    /// a crash never counts less than was spent); `false`, and nothing taken, when the
    /// budget would be exceeded.
    pub fn take(&mut self) -> Result<bool> {
        if self.spent + 1 > self.budget {
            return Ok(false);
        }
        self.spent += 1;
        self.save()?;
        Ok(true)
    }

    /// Records that YouTube said the quota is exhausted.
    pub fn exhaust(&mut self, now: DateTime<Utc>, why: &str) -> Result<()> {
        self.exhausted = Some(Exhausted {
            at: now,
            why: why.to_string(),
        });
        self.save()
    }

    pub fn save(&self) -> Result<()> {
        crate::store::write_json(&self.path, self)
    }
}

/// One line of `DAY/HH/videos-calls.jsonl`: a call made (or not), and what it came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    #[serde(with = "crate::time::rfc3339")]
    pub at: DateTime<Utc>,
    pub channel: String,
    /// `channels.list` or `playlistItems.list`; none for a call not made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    /// `uploads`, `fetched`, `not-modified`, `removed`, `key-refused`, `quota-exhausted`,
    /// `failed`, or `skipped` (not asked; `detail` says why).
    pub outcome: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// Units spent that UTC day after this line.
    pub spent: u64,
}

/// Adds a run's lines to the hour's call log (rewritten whole, atomically).
pub fn append_calls(data: &Data, now: DateTime<Utc>, calls: &[Call]) -> Result<()> {
    if calls.is_empty() {
        return Ok(());
    }
    let path = calls_path(data, now);
    let mut bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    for c in calls {
        serde_json::to_writer(&mut bytes, c)?;
        bytes.push(b'\n');
    }
    crate::store::write_atomic(&path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        crate::time::parse_now(s).unwrap()
    }

    #[test]
    fn nothing_reaches_thirty_days() {
        let now = t("2026-12-31T06:00:00Z");
        assert!(keep(t("2026-12-02T06:00:01Z"), now));
        assert!(!keep(t("2026-12-02T06:00:00Z"), now));
        assert!(!keep(t("2026-11-30T06:00:00Z"), now));
        assert!(DELETE_AFTER < Duration::days(POLICY_DAYS));
    }

    #[test]
    fn the_state_forgets_what_is_too_old() {
        let mut s = State::default();
        s.channels.insert(
            "UCa".into(),
            ChannelState {
                uploads: Some("UUa".into()),
                learned: Some(t("2026-11-01T00:00:00Z")),
                etag: Some("E".into()),
                answered: Some(t("2026-11-25T00:00:00Z")),
                videos: 3,
            },
        );
        let mut fresh = s.clone();
        fresh.age(t("2026-11-26T00:00:00Z"));
        assert_eq!(fresh, s);
        // An ETag a week old goes; the uploads playlist, learned 24 days before, stays.
        let mut week = s.clone();
        week.channels.get_mut("UCa").unwrap().learned = Some(t("2026-11-08T00:00:00Z"));
        week.age(t("2026-12-02T00:00:00Z"));
        assert_eq!(week.channels["UCa"].etag, None);
        assert_eq!(week.channels["UCa"].uploads.as_deref(), Some("UUa"));
        // Learned 29 days before: asked again.
        let mut month = s.clone();
        month.age(t("2026-11-30T00:00:00Z"));
        assert_eq!(month.channels["UCa"].uploads, None);
        assert_eq!(month.channels["UCa"].etag.as_deref(), Some("E"));
        let mut gone = s.clone();
        gone.age(t("2027-01-01T00:00:00Z"));
        assert!(gone.channels.is_empty());
    }
}
