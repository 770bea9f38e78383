//! `extract::parse_body` on any bytes: the first byte picks the kind (feed, sitemap, home
//! page) and the Content-Type it is served with; the rest is the body. Never a panic, and
//! what it keeps is what a record may hold.
#![no_main]

use huduku::extract::{feed::MAX_HEADLINE, parse_body, text::hidden};
use huduku::lists::Kind;
use libfuzzer_sys::fuzz_target;
use url::Url;

const TYPES: [Option<&str>; 8] = [
    None,
    Some("application/rss+xml; charset=utf-8"),
    Some("text/html"),
    Some("text/xml; charset=iso-8859-1"),
    Some("text/xml; charset=utf-16"),
    Some("text/xml; charset=utf-32"),
    Some("text/xml; charset=cp037"),
    Some("text/html; charset=ibm437"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let kind = match pick % 3 {
        0 => Kind::Feed,
        1 => Kind::Sitemap,
        _ => Kind::Homepage,
    };
    let ct = TYPES[usize::from(pick / 3) % TYPES.len()];
    let base = Url::parse("https://www.example.com/news/feed.xml").unwrap();
    let p = parse_body(kind, body, &base, ct, Some("a"));
    for it in &p.items {
        assert!(!it.headline.is_empty());
        assert!(it.headline.chars().count() <= MAX_HEADLINE + 1);
        assert!(it.link.starts_with("http://") || it.link.starts_with("https://"));
        assert!(!it.headline.contains(hidden), "{:?}", it.headline);
        assert!(it.category.iter().all(|c| !c.contains(hidden)));
        assert!(it.author.as_deref().is_none_or(|a| !a.contains(hidden)));
        if let Some(t) = it.published {
            let text = huduku::time::fmt(t);
            assert_eq!(huduku::time::parse_now(&text).unwrap(), t, "{text}");
        }
    }
    for c in &p.children {
        assert!(c.starts_with("http://") || c.starts_with("https://"));
    }
});
