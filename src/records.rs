//! The records the stages exchange, one JSON object per line.
//!
//! Fields serialise in declaration order; each file's sort key is documented on its type,
//! so the same inputs give the same bytes and an auditor's `diff` shows only real change.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use url::Url;

/// How a headline's publication time is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateSource {
    /// The publisher gave it.
    Publisher,
    /// The publisher gave none; `published` is when HudukuBot first saw the item.
    FirstSeen,
}

/// A headline as found by `extract` (`DAY/HH/items.jsonl`, sorted by `link`, then `source`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// First 16 hex of SHA-256 of the canonical link.
    pub id: String,
    pub outlet: String,
    /// The source (feed, sitemap or home page) it came from.
    pub source: String,
    pub lang: String,
    pub headline: String,
    /// Canonical http(s) link to the publisher's own page.
    pub link: String,
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
    pub date_source: DateSource,
    #[serde(with = "crate::time::rfc3339")]
    pub first_seen: DateTime<Utc>,
    /// The publisher's own categories or sections, as given.
    pub category: Vec<String>,
    /// The author line, where a feed gives one. Kept for magazines; never shown or exported.
    pub author: Option<String>,
}

/// A summary in hand (`DAY/HH/.transient/summaries.jsonl`); never in a kept file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub id: String,
    pub summary: String,
}

/// The topic a summary pointed to (`DAY/HH/summary-topics.jsonl`, sorted by `id`): a label
/// from the taxonomy, never the summary's words. Lets a replay reach the same topics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryTopic {
    pub id: String,
    pub topic: String,
}

/// Which evidence decided a headline's topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Evidence {
    /// The publisher's own filing (a category, the source's section or a folder of the
    /// link), through `topic-map.csv`.
    Publisher,
    /// The lexicons read in the publisher's categories.
    Category,
    /// The learned model, sure enough (`score`).
    Model,
    Headline,
    Summary,
    /// Nothing matched: the topic is `other`.
    None,
}

/// A classified headline (`DAY/HH/classified.jsonl`, sorted like items).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classified {
    pub id: String,
    pub outlet: String,
    pub source: String,
    pub lang: String,
    pub headline: String,
    pub link: String,
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
    pub date_source: DateSource,
    #[serde(with = "crate::time::rfc3339")]
    pub first_seen: DateTime<Utc>,
    pub category: Vec<String>,
    pub topic: String,
    pub evidence: Evidence,
    /// The model's probability for the topic, where the model decided (two decimals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f32>,
    /// The topic model the hour was filed with, where one was (the first 16 hex of its
    /// weights' SHA-256), so a replay files it with the same model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// True only when the publisher's own category or section says opinion.
    pub opinion: bool,
}

/// A public headline (`DAY/published.jsonl`, newest first, then by link): what the pages
/// and the open data show. No author, no summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Published {
    pub id: String,
    pub outlet: String,
    /// The feed, sitemap or home page it came from.
    pub source: String,
    pub lang: String,
    pub headline: String,
    pub link: String,
    #[serde(with = "crate::time::rfc3339")]
    pub published: DateTime<Utc>,
    pub date_source: DateSource,
    pub topic: String,
    pub opinion: bool,
}

/// What `extract` needs to know about a kept body (`.transient/KEY.json` beside `KEY.body`):
/// the hand-off from `fetch-feeds` to `extract`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RawMeta {
    pub source: String,
    /// The address asked (the source, or a child of its sitemap index): the key of its
    /// validators in the state.
    #[serde(default)]
    pub address: String,
    /// When it was fetched (the `at` of its `fetched` line).
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub fetched_at: Option<DateTime<Utc>>,
    pub outlet: String,
    pub lang: String,
    pub kind: crate::lists::Kind,
    pub selector: Option<String>,
    /// Where the body came from after redirects (the base for relative links).
    pub url: String,
    pub content_type: Option<String>,
}

/// A fetched body `extract` has read and whose headlines are kept in the hour's
/// `items.jsonl` (`DAY/HH/bodies.jsonl`, sorted by `address`, then `fetched_at`). Written
/// after `items.jsonl`: it is the receipt that lets the next request for the address carry
/// the validators of this body. A fetched body with no receipt was lost before its
/// headlines were kept (a run killed between fetch-feeds and extract), and its address is
/// asked again without validators.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BodyRead {
    pub address: String,
    #[serde(with = "crate::time::rfc3339")]
    pub fetched_at: DateTime<Utc>,
    pub source: String,
    /// Items the body gave (before "seen" and caps).
    pub items: usize,
    /// New headlines kept from it this hour.
    pub kept: usize,
    /// What went wrong, if anything (what was read before it is kept).
    pub error: Option<String>,
}

/// Canonical form of an article link: credentials (`user:password@`) removed, fragment
/// removed, tracking parameters (`utm_*`, `fbclid`, `gclid`) removed, host lower-cased (the
/// `url` crate does that).
pub fn canonical_link(url: &Url) -> String {
    let mut u = without_credentials(url);
    u.set_fragment(None);
    let kept: Vec<(String, String)> = u
        .query_pairs()
        .filter(|(k, _)| !(k.starts_with("utm_") || k == "fbclid" || k == "gclid"))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if kept.is_empty() {
        u.set_query(None);
    } else if u.query().is_some() {
        let mut q = u.query_pairs_mut();
        q.clear();
        for (k, v) in &kept {
            q.append_pair(k, v);
        }
    }
    u.to_string()
}

/// A URL with any credentials (`user:password@`) removed: HudukuBot keeps and sends none.
pub fn without_credentials(url: &Url) -> Url {
    let mut u = url.clone();
    // These fail only for URLs that cannot carry credentials at all.
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u
}

/// The stable id of a headline: first 16 hex of SHA-256 of its canonical link.
pub fn item_id(canonical: &str) -> String {
    crate::store::sha256_hex(canonical.as_bytes())[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_link_drops_fragment_and_trackers_only() {
        let u = Url::parse("HTTPS://Example.COM/a/b?id=7&utm_source=x#top").unwrap();
        assert_eq!(canonical_link(&u), "https://example.com/a/b?id=7");
        let u = Url::parse("https://example.com/a?utm_medium=rss").unwrap();
        assert_eq!(canonical_link(&u), "https://example.com/a");
        let u = Url::parse("http://a:b@Example.com/x#f").unwrap();
        assert_eq!(
            canonical_link(&u),
            "http://example.com/x",
            "credentials never kept"
        );
        let u = Url::parse("https://only-user@example.com/x").unwrap();
        assert_eq!(canonical_link(&u), "https://example.com/x");
        let u = Url::parse("https://example.com/ಸುದ್ದಿ").unwrap();
        assert_eq!(
            canonical_link(&u),
            "https://example.com/%E0%B2%B8%E0%B3%81%E0%B2%A6%E0%B3%8D%E0%B2%A6%E0%B2%BF"
        );
    }
}
