//! The two YouTube Data API v3 calls `fetch-videos` makes, and the one classifier of their
//! answers.
//!
//! - `channels.list` (`part=contentDetails`, `id=CHANNEL`): the channel's uploads playlist,
//!   asked once per channel (the answer is kept in the state, see `kept`);
//! - `playlistItems.list` (`part=snippet`, `playlistId=UPLOADS`, `maxResults=50`): the
//!   channel's newest uploads, asked each run, with `If-None-Match` when an ETag is held.
//!
//! Never `search.list` (100 units a call, and a search is not what the video pages are):
//! there is no code for it. Each call costs 1 unit of the project's daily quota; a 304 is
//! counted as 1 too, to be safe. The requests go out under their own name
//! ([`USER_AGENT`]), never HudukuBot's, and never through HudukuBot's publisher fetching
//! (`polite`): YouTube is not one of HudukuBot's publishers.
//!
//! Every answer is mapped to one [`Outcome`]; `fetch-videos` matches on the outcome, never
//! on raw status codes. Errors are read from the API's own JSON shape,
//! `{"error":{"code":403,"message":"…","errors":[{"domain":"youtube.quota","reason":"quotaExceeded",…}]}}`.

use anyhow::Result;
use serde::Deserialize;
use std::io::Read;
use std::time::Duration;
use url::Url;

use super::channels::{is_playlist_id, is_video_id};
use super::key::Key;

/// Where the API lives.
pub const DEFAULT_BASE: &str = "https://www.googleapis.com/youtube/v3/";

/// The user agent of every API request: Huduku's video step, never HudukuBot.
pub const USER_AGENT: &str = "Huduku-videos/1.0";

/// Items asked per `playlistItems.list` (the API's largest page).
pub const MAX_RESULTS: u32 = 50;

/// The longest any one call may take.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The largest answer read (a page of 50 items is some 40 KB).
const MAX_BODY: u64 = 4 << 20;

/// Reads `--api-base`: an absolute address ending in `/`; plain http only to a loopback
/// address (the tests' and the demo's fake API), since the key travels in the address.
pub fn base(s: &str) -> Result<Url> {
    let bad =
        |why: &str| anyhow::anyhow!("--api-base {s:?}: {why}; the API's own is {DEFAULT_BASE:?}");
    let u = Url::parse(s).map_err(|_| bad("not an absolute address"))?;
    if !u.path().ends_with('/') || u.query().is_some() || u.fragment().is_some() {
        return Err(bad(
            "expected an address ending in '/', without query or fragment",
        ));
    }
    if !u.username().is_empty() || u.password().is_some() {
        return Err(bad("carries credentials"));
    }
    let loopback = match u.host() {
        Some(url::Host::Ipv4(a)) => a.is_loopback(),
        Some(url::Host::Ipv6(a)) => a.is_loopback(),
        Some(url::Host::Domain(d)) => d == "localhost",
        None => false,
    };
    match u.scheme() {
        "https" => Ok(u),
        "http" if loopback => Ok(u),
        "http" => Err(bad("plain http sends the key in the clear; use https")),
        _ => Err(bad("not an http(s) address")),
    }
}

/// One video of a `playlistItems.list` answer, as much of it as Huduku keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub video_id: String,
    pub title: String,
    pub published: chrono::DateTime<chrono::Utc>,
}

/// What a call came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `channels.list`: the channel's uploads playlist.
    Uploads(String),
    /// `playlistItems.list`: the newest uploads (and how many items of the answer were not
    /// usable: a private or deleted video, a bad id or time), with the answer's ETag.
    Items {
        etag: Option<String>,
        items: Vec<Item>,
        unusable: usize,
    },
    /// `playlistItems.list`: 304, the list is what the ETag stands for.
    NotModified,
    /// The channel is gone: `channels.list` knows no such channel, or its uploads playlist
    /// is not found (`playlistNotFound`, `channelNotFound`).
    Removed(String),
    /// The key was refused (`keyInvalid`, `API key not valid`, a key restricted or expired,
    /// the API not enabled for the key's project): no call can succeed; a person must act.
    KeyRefused(String),
    /// The project's daily quota is spent (`quotaExceeded`, `dailyLimitExceeded`): no call
    /// succeeds until the quota resets.
    QuotaExhausted(String),
    /// Anything else (the network, a 5xx, an answer that does not parse): this channel
    /// this run.
    Failed(String),
}

/// The API client: an agent of its own (no proxy from the environment, no redirects), the
/// base address and the key.
pub struct Api {
    agent: ureq::Agent,
    base: Url,
    key: Key,
}

/// The error shape of every Google API.
#[derive(Debug, Deserialize, Default)]
struct ErrorBody {
    #[serde(default)]
    error: ErrorInner,
}

#[derive(Debug, Deserialize, Default)]
struct ErrorInner {
    #[serde(default)]
    code: Option<u16>,
    #[serde(default)]
    message: String,
    #[serde(default)]
    errors: Vec<ErrorItem>,
    #[serde(default)]
    details: Vec<ErrorItem>,
}

#[derive(Debug, Deserialize, Default)]
struct ErrorItem {
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message: String,
}

#[derive(Deserialize)]
struct ChannelList {
    #[serde(default)]
    items: Vec<ChannelItem>,
}
#[derive(Deserialize)]
struct ChannelItem {
    #[serde(default)]
    id: String,
    #[serde(rename = "contentDetails")]
    content_details: Option<ContentDetails>,
}
#[derive(Deserialize)]
struct ContentDetails {
    #[serde(rename = "relatedPlaylists")]
    related: Option<Related>,
}
#[derive(Deserialize)]
struct Related {
    uploads: Option<String>,
}

#[derive(Deserialize)]
struct PlaylistPage {
    #[serde(default)]
    etag: Option<String>,
    #[serde(default)]
    items: Vec<PlaylistItem>,
}
#[derive(Deserialize)]
struct PlaylistItem {
    snippet: Option<Snippet>,
}
#[derive(Deserialize)]
struct Snippet {
    #[serde(rename = "publishedAt", default)]
    published_at: String,
    #[serde(default)]
    title: String,
    #[serde(rename = "resourceId")]
    resource_id: Option<ResourceId>,
}
#[derive(Deserialize)]
struct ResourceId {
    #[serde(rename = "videoId", default)]
    video_id: String,
}

/// The longest title kept, in characters.
const TITLE_MAX: usize = 300;

/// Titles YouTube gives a playlist item whose video is not public: not a video to list.
const NOT_PUBLIC: [&str; 2] = ["Private video", "Deleted video"];

/// What an answer's raw parts are.
pub struct Answer {
    pub status: u16,
    pub etag_header: Option<String>,
    pub body: Vec<u8>,
}

impl Api {
    pub fn new(base: Url, key: Key) -> Api {
        let config = ureq::Agent::config_builder()
            .user_agent(USER_AGENT)
            .timeout_global(Some(TIMEOUT))
            .max_redirects(0)
            .http_status_as_error(false)
            .proxy(None)
            .build();
        Api {
            agent: ureq::Agent::new_with_config(config),
            base,
            key,
        }
    }

    /// `channels.list?part=contentDetails&id=CHANNEL`.
    pub fn channel(&self, channel: &str) -> Outcome {
        self.redacted(
            match self.get(
                "channels",
                &[("part", "contentDetails"), ("id", channel)],
                None,
            ) {
                Ok(a) => classify_channel(&a, channel),
                Err(e) => Outcome::Failed(e),
            },
        )
    }

    /// `playlistItems.list?part=snippet&playlistId=PLAYLIST&maxResults=50`, with
    /// `If-None-Match: ETAG` when one is given.
    pub fn uploads(&self, playlist: &str, etag: Option<&str>) -> Outcome {
        let max = MAX_RESULTS.to_string();
        let query = [
            ("part", "snippet"),
            ("playlistId", playlist),
            ("maxResults", max.as_str()),
        ];
        self.redacted(match self.get("playlistItems", &query, etag) {
            Ok(a) => classify_uploads(&a),
            Err(e) => Outcome::Failed(e),
        })
    }

    /// An outcome with the key taken out of its text, whatever the answer echoed.
    fn redacted(&self, o: Outcome) -> Outcome {
        let r = |s: String| self.key.redact(&s);
        match o {
            Outcome::Removed(w) => Outcome::Removed(r(w)),
            Outcome::KeyRefused(w) => Outcome::KeyRefused(r(w)),
            Outcome::QuotaExhausted(w) => Outcome::QuotaExhausted(r(w)),
            Outcome::Failed(w) => Outcome::Failed(r(w)),
            other => other,
        }
    }

    /// One GET of `BASE/ENDPOINT?QUERY&key=KEY`. Errors come back as text, the key taken
    /// out of them.
    fn get(
        &self,
        endpoint: &str,
        query: &[(&str, &str)],
        etag: Option<&str>,
    ) -> std::result::Result<Answer, String> {
        let mut url = self
            .base
            .join(endpoint)
            .map_err(|e| format!("the address of {endpoint}: {e}"))?;
        {
            let mut q = url.query_pairs_mut();
            for (k, v) in query {
                q.append_pair(k, v);
            }
            q.append_pair("key", self.key.expose());
        }
        let mut req = self.agent.get(url.as_str());
        if let Some(e) = etag {
            req = req.header("If-None-Match", e);
        }
        let mut resp = req.call().map_err(|e| {
            let what = match &e {
                ureq::Error::Timeout(_) => format!("timeout after {}s", TIMEOUT.as_secs()),
                ureq::Error::HostNotFound => "host not found".into(),
                ureq::Error::ConnectionFailed => "connection failed".into(),
                other => other.to_string(),
            };
            self.key.redact(&what)
        })?;
        let status = resp.status().as_u16();
        let etag_header = resp
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let mut body = Vec::new();
        if status != 304 {
            resp.body_mut()
                .with_config()
                .limit(u64::MAX)
                .reader()
                .take(MAX_BODY + 1)
                .read_to_end(&mut body)
                .map_err(|e| self.key.redact(&format!("broken answer: {e}")))?;
            if body.len() as u64 > MAX_BODY {
                return Err(format!("an answer larger than {MAX_BODY} bytes"));
            }
        }
        Ok(Answer {
            status,
            etag_header,
            body,
        })
    }
}

/// An error answer mapped to its outcome: the quota, the key, a removed channel, or a
/// failure of this call.
fn classify_error(a: &Answer) -> Outcome {
    let parsed: ErrorBody = serde_json::from_slice(&a.body).unwrap_or_default();
    let e = parsed.error;
    let reasons: Vec<&str> = e
        .errors
        .iter()
        .chain(e.details.iter())
        .map(|i| i.reason.as_str())
        .filter(|r| !r.is_empty())
        .collect();
    let message = if !e.message.is_empty() {
        e.message.clone()
    } else {
        e.errors
            .iter()
            .map(|i| i.message.clone())
            .find(|m| !m.is_empty())
            .unwrap_or_default()
    };
    let message: String = message
        .chars()
        .filter(|c| !c.is_control())
        .take(300)
        .collect();
    let code = e.code.unwrap_or(a.status);
    let what = if reasons.is_empty() {
        format!("HTTP {code}: {message}")
    } else {
        format!("HTTP {code} {}: {message}", reasons.join(", "))
    };
    let has = |r: &str| reasons.contains(&r);
    if has("quotaExceeded") || has("dailyLimitExceeded") {
        return Outcome::QuotaExhausted(what);
    }
    let key_refused = has("keyInvalid")
        || has("API_KEY_INVALID")
        || message.contains("API key not valid")
        || has("keyExpired")
        || has("API_KEY_EXPIRED")
        || has("ipRefererBlocked")
        || has("API_KEY_SERVICE_BLOCKED")
        || has("API_KEY_HTTP_REFERRER_BLOCKED")
        || has("API_KEY_IP_ADDRESS_BLOCKED")
        || has("accessNotConfigured")
        || has("SERVICE_DISABLED")
        || (a.status == 403 && message.contains("missing a valid API key"));
    if key_refused {
        return Outcome::KeyRefused(what);
    }
    if has("playlistNotFound") || has("channelNotFound") {
        return Outcome::Removed(what);
    }
    Outcome::Failed(what)
}

/// A `channels.list` answer.
pub fn classify_channel(a: &Answer, channel: &str) -> Outcome {
    if a.status != 200 {
        return classify_error(a);
    }
    let list: ChannelList = match serde_json::from_slice(&a.body) {
        Ok(l) => l,
        Err(e) => return Outcome::Failed(format!("channels.list answer does not parse: {e}")),
    };
    let Some(item) = list
        .items
        .iter()
        .find(|i| i.id == channel || list.items.len() == 1)
    else {
        return Outcome::Removed("channels.list knows no such channel (no items)".into());
    };
    match item
        .content_details
        .as_ref()
        .and_then(|c| c.related.as_ref())
        .and_then(|r| r.uploads.clone())
    {
        Some(u) if is_playlist_id(&u) => Outcome::Uploads(u),
        Some(_) => {
            Outcome::Failed("channels.list gave an uploads playlist id that is not one".into())
        }
        None => Outcome::Failed("channels.list gave no uploads playlist".into()),
    }
}

/// A `playlistItems.list` answer.
pub fn classify_uploads(a: &Answer) -> Outcome {
    if a.status == 304 {
        return Outcome::NotModified;
    }
    if a.status != 200 {
        return classify_error(a);
    }
    let page: PlaylistPage = match serde_json::from_slice(&a.body) {
        Ok(p) => p,
        Err(e) => {
            return Outcome::Failed(format!("playlistItems.list answer does not parse: {e}"));
        }
    };
    let mut items = Vec::new();
    let mut unusable = 0;
    for it in page.items.into_iter().take(MAX_RESULTS as usize) {
        match usable(it) {
            Some(i) => items.push(i),
            None => unusable += 1,
        }
    }
    let etag = a
        .etag_header
        .clone()
        .or(page.etag)
        .filter(|e| !e.is_empty() && e.len() <= 200 && e.bytes().all(|b| b.is_ascii_graphic()));
    Outcome::Items {
        etag,
        items,
        unusable,
    }
}

/// The kept part of an item, if it is a public video with a good id, title and time.
fn usable(it: PlaylistItem) -> Option<Item> {
    let s = it.snippet?;
    let video_id = s.resource_id?.video_id;
    if !is_video_id(&video_id) {
        return None;
    }
    let title: String = crate::publish::rows::plain(s.title)
        .trim()
        .chars()
        .take(TITLE_MAX)
        .collect();
    if title.is_empty() || NOT_PUBLIC.contains(&title.as_str()) {
        return None;
    }
    let published = crate::time::parse_now(&s.published_at).ok()?;
    Some(Item {
        video_id,
        title,
        published,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, body: &str) -> Answer {
        Answer {
            status,
            etag_header: None,
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn the_api_error_shapes_map_to_their_outcomes() {
        let quota = r#"{"error":{"code":403,"message":"The request cannot be completed because you have exceeded your <a href=\"/youtube/v3/getting-started#quota\">quota</a>.","errors":[{"message":"The request cannot be completed because you have exceeded your quota.","domain":"youtube.quota","reason":"quotaExceeded"}]}}"#;
        assert!(matches!(
            classify_uploads(&answer(403, quota)),
            Outcome::QuotaExhausted(_)
        ));
        let daily = r#"{"error":{"code":403,"message":"Daily Limit Exceeded","errors":[{"domain":"usageLimits","reason":"dailyLimitExceeded"}]}}"#;
        assert!(matches!(
            classify_channel(&answer(403, daily), "UC"),
            Outcome::QuotaExhausted(_)
        ));
        // The older shape, and today's (reason badRequest, API_KEY_INVALID in details).
        let old = r#"{"error":{"code":400,"message":"Bad Request","errors":[{"domain":"usageLimits","reason":"keyInvalid","message":"Bad Request"}]}}"#;
        assert!(matches!(
            classify_uploads(&answer(400, old)),
            Outcome::KeyRefused(_)
        ));
        let new = r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","errors":[{"message":"API key not valid. Please pass a valid API key.","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}"#;
        match classify_uploads(&answer(400, new)) {
            Outcome::KeyRefused(w) => assert!(w.contains("API key not valid"), "{w}"),
            o => panic!("{o:?}"),
        }
        let gone = r#"{"error":{"code":404,"message":"The playlist identified with the request's <code>playlistId</code> parameter cannot be found.","errors":[{"domain":"youtube.playlistItem","reason":"playlistNotFound","location":"playlistId","locationType":"parameter"}]}}"#;
        assert!(matches!(
            classify_uploads(&answer(404, gone)),
            Outcome::Removed(_)
        ));
        let backend = r#"{"error":{"code":503,"message":"The service is currently unavailable.","errors":[{"reason":"backendError"}]}}"#;
        assert!(matches!(
            classify_uploads(&answer(503, backend)),
            Outcome::Failed(_)
        ));
        assert!(matches!(
            classify_uploads(&answer(502, "<html>")),
            Outcome::Failed(_)
        ));
    }

    #[test]
    fn a_channel_without_items_is_removed_and_one_with_uploads_gives_them() {
        let none = r#"{"kind":"youtube#channelListResponse","etag":"x","pageInfo":{"totalResults":0,"resultsPerPage":5}}"#;
        assert!(matches!(
            classify_channel(&answer(200, none), "UCx"),
            Outcome::Removed(_)
        ));
        let empty = r#"{"kind":"youtube#channelListResponse","etag":"x","items":[]}"#;
        assert!(matches!(
            classify_channel(&answer(200, empty), "UCx"),
            Outcome::Removed(_)
        ));
        let one = r#"{"items":[{"id":"UCx","contentDetails":{"relatedPlaylists":{"likes":"","uploads":"UUx"}}}]}"#;
        assert_eq!(
            classify_channel(&answer(200, one), "UCx"),
            Outcome::Uploads("UUx".into())
        );
    }

    #[test]
    fn only_public_videos_with_good_ids_are_kept_and_nothing_else_of_them() {
        let body = r#"{"etag":"E1","items":[
          {"snippet":{"publishedAt":"2026-11-30T05:00:00Z","title":"A \u202evideo","description":"long text","thumbnails":{"default":{"url":"https://i.ytimg.com/vi/abcdefghijk/default.jpg"}},"resourceId":{"kind":"youtube#video","videoId":"abcdefghijk"}}},
          {"snippet":{"publishedAt":"2026-11-30T05:00:00Z","title":"Private video","resourceId":{"videoId":"abcdefghijl"}}},
          {"snippet":{"publishedAt":"2026-11-30T05:00:00Z","title":"Bad id","resourceId":{"videoId":"abc\"><x"}}},
          {"snippet":{"publishedAt":"yesterday","title":"Bad time","resourceId":{"videoId":"abcdefghijm"}}}
        ]}"#;
        match classify_uploads(&answer(200, body)) {
            Outcome::Items {
                etag,
                items,
                unusable,
            } => {
                assert_eq!(etag.as_deref(), Some("E1"));
                assert_eq!(unusable, 3);
                assert_eq!(items.len(), 1);
                assert_eq!(items[0].title, "A video");
                assert_eq!(items[0].video_id, "abcdefghijk");
            }
            o => panic!("{o:?}"),
        }
        assert_eq!(classify_uploads(&answer(304, "")), Outcome::NotModified);
    }

    #[test]
    fn the_base_is_https_or_a_loopback_fake() {
        assert!(base(DEFAULT_BASE).is_ok());
        assert!(base("http://127.0.0.30:8080/youtube/v3/").is_ok());
        assert!(base("http://example.com/youtube/v3/").is_err());
        assert!(base("https://www.googleapis.com/youtube/v3").is_err());
        assert!(base("https://u:p@www.googleapis.com/youtube/v3/").is_err());
        assert!(base("ftp://127.0.0.1/").is_err());
    }
}
