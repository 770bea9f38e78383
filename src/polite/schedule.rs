//! How often a source is read: about once an hour, never more often than every ten minutes,
//! held back longer when the feed asks (up to a day), and backed off after failures; and how
//! often a robots.txt that could not be read is tried again (an hour, doubling, up to a day).
//! Every back-off carries a deterministic jitter ([`jittered`]), so sources that failed
//! together do not all come back together, and a replay or a test can predict it.

use chrono::{DateTime, Duration as CDuration, Utc};
use std::collections::BTreeMap;

/// A feed is read about once an hour.
pub const FEED_INTERVAL: CDuration = CDuration::minutes(60);
/// A source due within this margin is read now, so an hourly cron that drifts by a few
/// minutes does not skip an hour. With [`FEED_INTERVAL`] this never comes near [`MIN_INTERVAL`].
pub const DUE_SLACK: CDuration = CDuration::minutes(5);
/// Never more often than this, however often the hourly target runs.
pub const MIN_INTERVAL: CDuration = CDuration::minutes(10);
/// Feed caching hints hold a feed back up to this long.
pub const MAX_HOLD: CDuration = CDuration::hours(24);
/// A source that led off the publisher's own hosts (a redirect elsewhere, a child sitemap
/// elsewhere) or to an address that is not public is asked again after this long: nothing
/// will come of asking every hour until the publisher or an operator changes something.
pub const OFF_SITE_HOLD: CDuration = CDuration::hours(24);
/// The longest any hint is taken to ask for before [`MAX_HOLD`] applies: a hostile
/// `max-age`, `<ttl>` or `Expires` saturates here instead of overflowing a duration.
pub const MAX_HINT: CDuration = CDuration::days(365);
/// Back-off after a failure: this, doubling per failure in a row, up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: CDuration = CDuration::minutes(10);
pub const MAX_BACKOFF: CDuration = CDuration::hours(6);

/// A robots.txt that could not be read (5xx, time-out, more than five redirects, an
/// address that is not public) is tried again after this, doubling per failed read in a
/// row (a redirect chain is one read), up to [`ROBOTS_MAX_RETRY`]: unreachable means
/// nothing is asked of the site (RFC 9309), not that robots.txt is asked every hour.
pub const ROBOTS_FIRST_RETRY: CDuration = CDuration::hours(1);
pub const ROBOTS_MAX_RETRY: CDuration = CDuration::hours(24);
/// A back-off is lengthened by up to this fraction of itself (1/4), never past its cap.
pub const JITTER_DIVISOR: i32 = 4;

/// Back-off after `failures` failures in a row: 10 minutes, doubling, at most 6 hours.
pub fn backoff(failures: u32) -> CDuration {
    let mut d = FIRST_BACKOFF;
    for _ in 1..failures.min(16) {
        d = d * 2;
        if d >= MAX_BACKOFF {
            return MAX_BACKOFF;
        }
    }
    d.min(MAX_BACKOFF)
}

/// Wait before robots.txt is tried again after `failures` failed reads in a row: an hour,
/// doubling, at most a day.
pub fn robots_backoff(failures: u32) -> CDuration {
    let mut d = ROBOTS_FIRST_RETRY;
    for _ in 1..failures.min(16) {
        d = d * 2;
        if d >= ROBOTS_MAX_RETRY {
            return ROBOTS_MAX_RETRY;
        }
    }
    d.min(ROBOTS_MAX_RETRY)
}

/// A back-off with its jitter: `base` plus up to `base / JITTER_DIVISOR`, at most `cap`
/// (never less than `base`). The extra is derived from `key` (a source or a site) and `at`
/// (the failure's time), so the same inputs always give the same wait.
pub fn jittered(base: CDuration, cap: CDuration, key: &str, at: DateTime<Utc>) -> CDuration {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(key.as_bytes());
    h.update(b"\n");
    h.update(crate::time::fmt(at).as_bytes());
    let d = h.finalize();
    let u = u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]);
    let span = (base / JITTER_DIVISOR).num_seconds().max(0) as u64;
    let extra = if span == 0 { 0 } else { u % (span + 1) };
    (base + CDuration::seconds(extra as i64)).min(cap.max(base))
}

/// Whether a source last scheduled for `next_due` may be read at `now`.
pub fn is_due(
    next_due: Option<DateTime<Utc>>,
    last_request: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> bool {
    let scheduled = next_due.is_none_or(|t| t <= now + DUE_SLACK);
    let spaced = last_request.is_none_or(|t| now - t >= MIN_INTERVAL);
    scheduled && spaced
}

/// How long a feed asks to be left alone: the largest of Cache-Control max-age, Expires,
/// RSS `<ttl>` (minutes) and `sy:updatePeriod`/`sy:updateFrequency`, and the hint's name.
/// `None` if it asks nothing.
pub fn caching_hint(
    headers: &BTreeMap<String, String>,
    body: &[u8],
    now: DateTime<Utc>,
) -> Option<(CDuration, String)> {
    let mut hints: Vec<(CDuration, String)> = Vec::new();
    if let Some(cc) = headers.get("cache-control") {
        for part in cc.split(',') {
            let part = part.trim().to_ascii_lowercase();
            if let Some(v) = part.strip_prefix("max-age=")
                && let Ok(secs) = v.trim_matches('"').parse::<i64>()
            {
                hints.push((
                    CDuration::seconds(secs.clamp(0, MAX_HINT.num_seconds())),
                    format!("Cache-Control max-age={secs}"),
                ));
            }
        }
    }
    if let Some(exp) = headers.get("expires")
        && let Ok(t) = httpdate::parse_http_date(exp)
    {
        let t: DateTime<Utc> = t.into();
        let left = t.signed_duration_since(now);
        hints.push((
            left.clamp(CDuration::zero(), MAX_HINT),
            format!("Expires {exp}"),
        ));
    }
    let head = &body[..body.len().min(64 * 1024)];
    let text = String::from_utf8_lossy(head);
    if let Some(ttl) = tag_text(&text, "ttl").and_then(|v| v.parse::<i64>().ok()) {
        hints.push((
            CDuration::minutes(ttl.clamp(0, MAX_HINT.num_minutes())),
            format!("<ttl>{ttl}</ttl>"),
        ));
    }
    if let Some(period) = tag_text(&text, "sy:updatePeriod") {
        let base = match period.to_ascii_lowercase().as_str() {
            "hourly" => Some(CDuration::hours(1)),
            "daily" => Some(CDuration::days(1)),
            "weekly" => Some(CDuration::weeks(1)),
            "monthly" => Some(CDuration::days(30)),
            "yearly" => Some(CDuration::days(365)),
            _ => None,
        };
        let freq = tag_text(&text, "sy:updateFrequency")
            .and_then(|v| v.parse::<i32>().ok())
            .filter(|f| *f > 0)
            .unwrap_or(1);
        if let Some(b) = base {
            hints.push((b / freq, format!("sy:updatePeriod {period} / {freq}")));
        }
    }
    hints
        .into_iter()
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
}

/// The trimmed text of the first `<tag>…</tag>` in a feed's head (a cheap look, not a parse).
fn tag_text<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find("</")? + start;
    Some(text[start..end].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_ten_minutes_to_six_hours() {
        assert_eq!(backoff(1), CDuration::minutes(10));
        assert_eq!(backoff(2), CDuration::minutes(20));
        assert_eq!(backoff(3), CDuration::minutes(40));
        assert_eq!(backoff(6), CDuration::minutes(320));
        assert_eq!(backoff(7), CDuration::hours(6));
        assert_eq!(backoff(40), CDuration::hours(6));
    }

    #[test]
    fn robots_retries_double_from_an_hour_to_a_day() {
        assert_eq!(robots_backoff(1), CDuration::hours(1));
        assert_eq!(robots_backoff(2), CDuration::hours(2));
        assert_eq!(robots_backoff(5), CDuration::hours(16));
        assert_eq!(robots_backoff(6), CDuration::hours(24));
        assert_eq!(robots_backoff(60), CDuration::hours(24));
    }

    #[test]
    fn jitter_is_deterministic_spread_and_keeps_the_bounds() {
        let at = crate::time::parse_now("2026-11-30T06:05:00Z").unwrap();
        let base = CDuration::minutes(40);
        let a = jittered(base, MAX_BACKOFF, "http://a.example/feed.xml", at);
        assert_eq!(
            a,
            jittered(base, MAX_BACKOFF, "http://a.example/feed.xml", at)
        );
        let waits: std::collections::BTreeSet<CDuration> = (0..50)
            .map(|i| jittered(base, MAX_BACKOFF, &format!("http://a.example/{i}.xml"), at))
            .collect();
        assert!(
            waits.len() > 30,
            "sources that failed together spread out: {waits:?}"
        );
        for w in &waits {
            assert!(*w >= base && *w <= base + base / 4, "{w}");
        }
        for i in 0..50 {
            let key = format!("http://a.example/{i}.xml");
            assert_eq!(jittered(MAX_BACKOFF, MAX_BACKOFF, &key, at), MAX_BACKOFF);
            assert!(jittered(CDuration::hours(5), MAX_BACKOFF, &key, at) <= MAX_BACKOFF);
            assert!(jittered(CDuration::hours(5), MAX_BACKOFF, &key, at) >= CDuration::hours(5));
        }
    }

    #[test]
    fn caching_hints_take_the_largest() {
        let now = crate::time::parse_now("2026-11-30T06:00:00Z").unwrap();
        let h: BTreeMap<String, String> = [(
            "cache-control".to_string(),
            "public, max-age=600".to_string(),
        )]
        .into();
        assert_eq!(
            caching_hint(&h, b"<rss><channel><ttl>180</ttl>", now)
                .unwrap()
                .0,
            CDuration::minutes(180)
        );
        assert_eq!(
            caching_hint(&h, b"<rss/>", now).unwrap().0,
            CDuration::minutes(10)
        );
        let body = b"<rss><channel><sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>";
        assert_eq!(
            caching_hint(&BTreeMap::new(), body, now).unwrap().0,
            CDuration::hours(12)
        );
        assert_eq!(caching_hint(&BTreeMap::new(), b"<rss/>", now), None);
        let h: BTreeMap<String, String> = [(
            "expires".to_string(),
            "Mon, 30 Nov 2026 09:00:00 GMT".to_string(),
        )]
        .into();
        assert_eq!(
            caching_hint(&h, b"<rss/>", now).unwrap().0,
            CDuration::hours(3)
        );
    }

    #[test]
    fn hostile_hints_saturate_at_a_year_and_never_panic() {
        // Once a panic: a max-age or <ttl> past what a duration holds overflowed it.
        let now = crate::time::parse_now("2026-11-30T06:00:00Z").unwrap();
        for cc in [
            "max-age=9223372036854775807",
            "max-age=9223372036854775",
            "max-age=-9223372036854775808",
        ] {
            let h: BTreeMap<String, String> =
                [("cache-control".to_string(), cc.to_string())].into();
            let hint = caching_hint(&h, b"<rss/>", now).unwrap().0;
            assert!(
                hint == MAX_HINT || hint == CDuration::zero(),
                "{cc}: {hint}"
            );
        }
        let body = b"<rss><channel><ttl>9223372036854775807</ttl>";
        assert_eq!(
            caching_hint(&BTreeMap::new(), body, now).unwrap().0,
            MAX_HINT
        );
        let body = b"<rss><channel><ttl>153722867280912930</ttl>";
        assert_eq!(
            caching_hint(&BTreeMap::new(), body, now).unwrap().0,
            MAX_HINT
        );
        let body = b"<sy:updatePeriod>yearly</sy:updatePeriod><sy:updateFrequency>2147483647</sy:updateFrequency>";
        assert!(caching_hint(&BTreeMap::new(), body, now).is_some());
        let h: BTreeMap<String, String> = [(
            "expires".to_string(),
            "Fri, 31 Dec 9999 23:59:59 GMT".to_string(),
        )]
        .into();
        assert_eq!(caching_hint(&h, b"", now).unwrap().0, MAX_HINT);
    }

    #[test]
    fn due_needs_the_schedule_and_ten_minutes() {
        let now = crate::time::parse_now("2026-11-30T06:00:00Z").unwrap();
        assert!(is_due(None, None, now));
        assert!(is_due(
            Some(now + CDuration::minutes(4)),
            Some(now - CDuration::minutes(56)),
            now
        ));
        assert!(!is_due(Some(now + CDuration::minutes(6)), None, now));
        assert!(
            !is_due(None, Some(now - CDuration::minutes(9)), now),
            "never within ten minutes"
        );
    }
}
