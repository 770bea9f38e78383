//! RSS and Atom feeds, read with `feed-rs` (which never expands entities from a DTD).

use url::Url;

use super::text::plain;
use super::{Parsed, RawItem};

/// Parses an RSS (0.9x, 1.0, 2.0) or Atom feed body fetched from `base`.
pub fn parse(body: &[u8], base: &Url, _content_type: Option<&str>) -> Parsed {
    let parser = feed_rs::parser::Builder::new()
        .base_uri(Some(base.as_str()))
        .sanitize_content(false)
        .build();
    let feed = match parser.parse(body) {
        Ok(f) => f,
        Err(e) => {
            return Parsed {
                error: Some(format!("not a readable feed: {e}")),
                ..Parsed::default()
            };
        }
    };
    let mut out = Parsed::default();
    for entry in feed.entries {
        let headline = entry
            .title
            .as_ref()
            .map(|t| plain(&t.content))
            .unwrap_or_default();
        let link = entry
            .links
            .iter()
            .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
            .or(entry.links.first())
            .and_then(|l| base.join(l.href.trim()).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https"));
        let Some(link) = link else {
            out.dropped += 1;
            continue;
        };
        if headline.is_empty() {
            out.dropped += 1;
            continue;
        }
        let mut category: Vec<String> = Vec::new();
        for c in &entry.categories {
            let name = plain(c.label.as_deref().unwrap_or(&c.term));
            if !name.is_empty() && !category.contains(&name) {
                category.push(name);
            }
        }
        let author = entry
            .authors
            .iter()
            .filter_map(|p| p.name.as_deref().map(plain).filter(|n| !n.is_empty()))
            .next();
        let summary = entry
            .summary
            .as_ref()
            .map(|s| plain(&s.content))
            .or_else(|| {
                entry
                    .content
                    .as_ref()
                    .and_then(|c| c.body.as_deref().map(plain))
            })
            .filter(|s| !s.is_empty());
        out.items.push(RawItem {
            headline,
            link: link.to_string(),
            published: entry.published.or(entry.updated),
            category,
            author,
            summary,
        });
    }
    out
}
