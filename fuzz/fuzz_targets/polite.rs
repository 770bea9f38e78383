//! The politeness module's readers of what a site sends: robots.txt (`Rules::parse`,
//! `allows`, Crawl-delay, Content-Signal), the response classifier, `Retry-After` and the
//! feed caching hints. Input: a status (2 bytes), header lines up to a blank line, then the
//! body (also read as robots.txt); the first header value doubles as Retry-After.
#![no_main]

use std::collections::BTreeMap;

use chrono::Duration;
use huduku::polite::outcome::classify;
use huduku::polite::parse_retry_after;
use huduku::polite::robots::Rules;
use huduku::polite::schedule::{MAX_HINT, caching_hint};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let status = u16::from_be_bytes([data[0], data[1]]);
    let rest = &data[2..];
    let split = rest
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or(rest.len());
    let (head, body) = (&rest[..split], &rest[(split + 2).min(rest.len())..]);
    let mut headers = BTreeMap::new();
    let mut first_value = None;
    for line in String::from_utf8_lossy(head).lines() {
        if let Some((k, v)) = line.split_once(':') {
            let v = v.trim().to_string();
            first_value.get_or_insert_with(|| v.clone());
            headers.insert(k.trim().to_ascii_lowercase(), v);
        }
    }
    let now = huduku::time::parse_now("2026-11-30T06:05:00Z").unwrap();

    let rules = Rules::parse(body);
    if let Some(d) = rules.crawl_delay {
        assert!(d.is_finite() && d >= 0.0);
    }
    let _ = rules.search_refused();
    let _ = rules.content_signal_line();
    for path in String::from_utf8_lossy(head).lines().take(4) {
        let _ = rules.allows(&format!("https://www.example.com/{path}"));
    }
    let _ = rules.allows("https://www.example.com/feed.xml");

    let _ = classify(status, &headers, body);
    if let Some(v) = first_value
        && let Some(d) = parse_retry_after(&v, now)
    {
        assert!(
            d >= Duration::zero() && d <= Duration::days(365),
            "{v:?}: {d}"
        );
    }
    if let Some((d, _)) = caching_hint(&headers, body, now) {
        assert!(d >= Duration::zero() && d <= MAX_HINT, "{d}");
    }
});
