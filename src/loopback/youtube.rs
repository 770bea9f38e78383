//! A fake of the two YouTube Data API v3 calls `fetch-videos` makes, served by the loopback
//! web on a site whose directory holds `_youtube.json` (re-read on every request, so a test
//! edits it between runs):
//!
//! ```json
//! {"key": "the key it accepts",
//!  "quota": 5,
//!  "channels": [{"id": "UC…", "title": "…", "uploads": "UU…", "removed": false,
//!                "videos": [{"id": "…11…", "title": "…", "published": "RFC 3339"}]}]}
//! ```
//!
//! - `GET /youtube/v3/channels?part=contentDetails&id=UC…&key=…`: a `youtube#channelListResponse`
//!   with the channel's `contentDetails.relatedPlaylists.uploads`; no `items` for a channel it
//!   does not know or one marked `removed`.
//! - `GET /youtube/v3/playlistItems?part=snippet&playlistId=UU…&maxResults=N&key=…`: a
//!   `youtube#playlistItemListResponse` of the newest N (at most 50) videos, each with the
//!   snippet the real API sends (description and thumbnails included, which Huduku must not
//!   keep); 404 `playlistNotFound` for a removed channel's playlist or one it does not know.
//!   The ETag (in the body and the `ETag` header) is a hash of the answer; `If-None-Match`
//!   with it gets a 304.
//! - A missing key is a 403 (`forbidden`), another key a 400 `API key not valid` in today's
//!   shape (`badRequest`, `API_KEY_INVALID`); with `quota` set, every call after that many
//!   (counted over the web's life, 304s and errors of a good key included) is a 403
//!   `quotaExceeded` in the `youtube.quota` domain. Any other path under `/youtube/v3/`
//!   (`search`, say) is a 404: Huduku has no business there, and the log shows it asked.
//!
//! The request log records every request, as for any site, with the `key=` value of the
//! address replaced by `[redacted]`, so a log kept in a data directory (the demo's) holds
//! no key.

use anyhow::{Context, Result};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::time::Duration;

use super::http::Request;
use super::{Body, Plan, Shared, Site};

/// Where the fake API answers.
pub const PREFIX: &str = "/youtube/v3/";

/// The file that makes a site the fake API.
pub const FILE: &str = "_youtube.json";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fake {
    pub key: String,
    /// Calls answered before every further one is `quotaExceeded` (none: no limit).
    #[serde(default)]
    pub quota: Option<usize>,
    #[serde(default)]
    pub channels: Vec<FakeChannel>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeChannel {
    pub id: String,
    pub title: String,
    pub uploads: String,
    #[serde(default)]
    pub removed: bool,
    #[serde(default)]
    pub videos: Vec<FakeVideo>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeVideo {
    pub id: String,
    pub title: String,
    pub published: String,
    #[serde(default)]
    pub description: String,
}

/// An address with the value of its `key=` parameter replaced, for the log.
pub fn redacted(target: &str) -> Cow<'_, str> {
    let Some((path, query)) = target.split_once('?') else {
        return Cow::Borrowed(target);
    };
    if !path.contains(PREFIX) || !query.split('&').any(|p| p.starts_with("key=")) {
        return Cow::Borrowed(target);
    }
    let query: Vec<&str> = query
        .split('&')
        .map(|p| {
            if p.starts_with("key=") {
                "key=[redacted]"
            } else {
                p
            }
        })
        .collect();
    Cow::Owned(format!("{path}?{}", query.join("&")))
}

/// The answer of the fake API, if this request is one for it.
pub(super) fn plan(req: &Request, site: &Site, shared: &Shared) -> Result<Option<Plan>> {
    let path = req.path();
    let Some(endpoint) = path.strip_prefix(PREFIX) else {
        return Ok(None);
    };
    let file = site.dir.join(FILE);
    if !file.is_file() {
        return Ok(None);
    }
    let fake: Fake = serde_json::from_slice(
        &std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?,
    )
    .with_context(|| format!("parsing {}", file.display()))?;
    let query: BTreeMap<String, String> = req
        .target
        .split_once('?')
        .map(|(_, q)| {
            url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect()
        })
        .unwrap_or_default();
    let latency = Duration::from_millis(shared.latency_ms);
    let answer = |status: u16, body: Value, etag: Option<String>, not_modified: bool| {
        let mut headers = vec![
            (
                "Date".to_string(),
                httpdate::fmt_http_date(std::time::SystemTime::now()),
            ),
            (
                "Server".to_string(),
                "loopback-web fake YouTube Data API".to_string(),
            ),
        ];
        if !not_modified {
            headers.push((
                "Content-Type".to_string(),
                "application/json; charset=UTF-8".to_string(),
            ));
        }
        if let Some(e) = etag {
            headers.push(("ETag".to_string(), format!("\"{e}\"")));
        }
        let bytes = if not_modified {
            Vec::new()
        } else {
            let mut b = serde_json::to_vec_pretty(&body).unwrap_or_default();
            b.push(b'\n');
            b
        };
        Plan {
            status,
            headers,
            body: Body::Bytes(bytes),
            send_body: !not_modified && req.method != "HEAD",
            delay: Duration::ZERO,
            stall: Duration::ZERO,
            latency,
        }
    };
    let error = |code: u16, message: &str, domain: &str, reason: &str, status: &str| {
        let mut e = json!({
            "error": {
                "code": code,
                "message": message,
                "errors": [{"message": message, "domain": domain, "reason": reason}],
            }
        });
        if !status.is_empty() {
            e["error"]["status"] = json!(status);
        }
        if reason == "badRequest" {
            e["error"]["details"] = json!([{
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "API_KEY_INVALID",
                "domain": "googleapis.com",
                "metadata": {"service": "youtube.googleapis.com"}
            }]);
        }
        answer(code, e, None, false)
    };

    match query.get("key").map(String::as_str) {
        None | Some("") => {
            return Ok(Some(error(
                403,
                "The request is missing a valid API key.",
                "global",
                "forbidden",
                "PERMISSION_DENIED",
            )));
        }
        Some(k) if k != fake.key => {
            return Ok(Some(error(
                400,
                "API key not valid. Please pass a valid API key.",
                "global",
                "badRequest",
                "INVALID_ARGUMENT",
            )));
        }
        Some(_) => {}
    }
    let n = {
        let mut counters = shared.counters.lock().unwrap_or_else(|e| e.into_inner());
        let c = counters
            .entry((site.addr, "#youtube-calls".into()))
            .or_insert(0);
        *c += 1;
        *c - 1
    };
    if fake.quota.is_some_and(|q| n >= q) {
        return Ok(Some(error(
            403,
            "The request cannot be completed because you have exceeded your <a href=\"/youtube/v3/getting-started#quota\">quota</a>.",
            "youtube.quota",
            "quotaExceeded",
            "",
        )));
    }
    let inm = req.header("if-none-match").map(|v| {
        v.trim()
            .trim_start_matches("W/")
            .trim_matches('"')
            .to_string()
    });
    let with_etag = |mut body: Value| {
        let tag = etag_of(&body);
        body["etag"] = json!(tag);
        let not_modified = inm.as_deref() == Some(tag.as_str());
        if not_modified {
            answer(304, Value::Null, Some(tag), true)
        } else {
            answer(200, body, Some(tag), false)
        }
    };

    match endpoint {
        "channels" => {
            let id = query.get("id").cloned().unwrap_or_default();
            let items: Vec<Value> = fake
                .channels
                .iter()
                .filter(|c| c.id == id && !c.removed)
                .map(|c| {
                    json!({
                        "kind": "youtube#channel",
                        "etag": etag_of(&json!([c.id, c.uploads])),
                        "id": c.id,
                        "contentDetails": {"relatedPlaylists": {"likes": "", "uploads": c.uploads}},
                    })
                })
                .collect();
            let mut body = json!({
                "kind": "youtube#channelListResponse",
                "pageInfo": {"totalResults": items.len(), "resultsPerPage": 5},
            });
            if !items.is_empty() {
                body["items"] = Value::Array(items);
            }
            Ok(Some(with_etag(body)))
        }
        "playlistItems" => {
            let playlist = query.get("playlistId").cloned().unwrap_or_default();
            let Some(c) = fake
                .channels
                .iter()
                .find(|c| c.uploads == playlist && !c.removed)
            else {
                return Ok(Some(error(
                    404,
                    "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
                    "youtube.playlistItem",
                    "playlistNotFound",
                    "",
                )));
            };
            let max = query
                .get("maxResults")
                .and_then(|m| m.parse::<usize>().ok())
                .unwrap_or(5)
                .min(50);
            let mut videos: Vec<&FakeVideo> = c.videos.iter().collect();
            videos.sort_by(|a, b| b.published.cmp(&a.published).then(a.id.cmp(&b.id)));
            let items: Vec<Value> = videos
                .iter()
                .take(max)
                .enumerate()
                .map(|(i, v)| {
                    json!({
                        "kind": "youtube#playlistItem",
                        "etag": etag_of(&json!([v.id, v.title, v.published])),
                        "id": format!("{}{}", c.uploads, v.id),
                        "snippet": {
                            "publishedAt": v.published,
                            "channelId": c.id,
                            "title": v.title,
                            "description": v.description,
                            "thumbnails": {
                                "default": {"url": format!("https://i.ytimg.com/vi/{}/default.jpg", v.id), "width": 120, "height": 90},
                                "high": {"url": format!("https://i.ytimg.com/vi/{}/hqdefault.jpg", v.id), "width": 480, "height": 360}
                            },
                            "channelTitle": c.title,
                            "playlistId": c.uploads,
                            "position": i,
                            "resourceId": {"kind": "youtube#video", "videoId": v.id},
                            "videoOwnerChannelTitle": c.title,
                            "videoOwnerChannelId": c.id,
                        }
                    })
                })
                .collect();
            let mut body = json!({
                "kind": "youtube#playlistItemListResponse",
                "items": items,
                "pageInfo": {"totalResults": c.videos.len(), "resultsPerPage": max},
            });
            if c.videos.len() > max {
                body["nextPageToken"] = json!("EAAaBlBUOkNESQ");
            }
            Ok(Some(with_etag(body)))
        }
        _ => Ok(Some(error(
            404,
            "Not faked: fetch-videos asks channels.list and playlistItems.list only.",
            "global",
            "notFound",
            "NOT_FOUND",
        ))),
    }
}

/// The ETag of an answer: a hash of its bytes, as the real API's is opaque and changes with
/// the content.
fn etag_of(v: &Value) -> String {
    let digest = Sha256::digest(serde_json::to_vec(v).unwrap_or_default());
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_redacted_in_api_addresses_only() {
        assert_eq!(
            redacted("/youtube/v3/channels?part=contentDetails&id=UCx&key=SECRET"),
            "/youtube/v3/channels?part=contentDetails&id=UCx&key=[redacted]"
        );
        assert_eq!(redacted("/feed.xml?key=1"), "/feed.xml?key=1");
        assert_eq!(redacted("/youtube/v3/channels"), "/youtube/v3/channels");
    }
}
