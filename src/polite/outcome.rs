//! The one response classifier: every status, header set and failure maps to a named
//! outcome here; everything downstream matches on the outcome, never on raw status codes.
//!
//! Every answer goes through [`classify`]: robots.txt, feeds, news sitemaps and their
//! children, home pages, HEAD re-checks and every redirect hop alike.
//!
//! Challenge markers are those of `POLITENESS.md` (Cloudflare, AWS WAF, DataDome,
//! PerimeterX/HUMAN, Akamai, Imperva/Incapsula, Sucuri). Header markers count on every
//! answer; body markers count only on an HTML answer (declared `text/html` or sniffed as
//! HTML), so a feed whose headline quotes `px-captcha` is a feed, not a block page.
//! `Server: cloudflare` or `cf-ray` alone only say which CDN a site uses and are not a
//! refusal. A `Content-Usage` header (IETF aipref) saying `search=n` is a refusal, as the
//! same rule in robots.txt is.

use std::collections::BTreeMap;

/// What a response means for HudukuBot.
#[derive(Debug, Clone, PartialEq)]
pub enum Class {
    /// 2xx and not a challenge.
    Success,
    /// 304.
    NotModified,
    /// 301, 302, 303, 307, 308 with a Location.
    Redirect { permanent: bool, location: String },
    /// 401, 403, 451, a challenge page or `Content-Usage: search=n`: the site stops.
    Refused { reason: String, evidence: String },
    /// 429 or 503: wait max(Retry-After, 1 hour).
    Wait { retry_after: Option<String> },
    /// 404, 410 and the other 4xx.
    Gone,
    /// Other 5xx, or a redirect without a Location.
    Failed { reason: String },
}

/// Body markers of challenge and block pages, with the vendor they show.
const BODY_MARKERS: &[(&str, &str)] = &[
    ("<title>Just a moment...", "cloudflare"),
    ("/cdn-cgi/challenge-platform/", "cloudflare"),
    ("_cf_chl_opt", "cloudflare"),
    ("Attention Required! | Cloudflare", "cloudflare"),
    ("captcha-delivery.com", "datadome"),
    ("px-captcha", "perimeterx"),
    ("client.perimeterx.net", "perimeterx"),
    ("Access to this page has been denied", "perimeterx"),
    ("errors.edgesuite.net", "akamai"),
    ("Incapsula incident ID", "imperva"),
    ("/_Incapsula_Resource", "imperva"),
    ("Sucuri Website Firewall", "sucuri"),
];

/// Looks for a challenge or block page in headers (lower-cased names) and body.
pub fn challenge(headers: &BTreeMap<String, String>, body: &[u8]) -> Option<(String, String)> {
    let h = |name: &str| headers.get(name).map(String::as_str);
    if let Some(v) = h("cf-mitigated")
        && v.eq_ignore_ascii_case("challenge")
    {
        return Some(("challenge-cloudflare".into(), format!("cf-mitigated: {v}")));
    }
    if let Some(v) = h("x-amzn-waf-action") {
        return Some((
            "challenge-aws-waf".into(),
            format!("x-amzn-waf-action: {v}"),
        ));
    }
    if let Some(v) = h("x-datadome") {
        return Some(("challenge-datadome".into(), format!("x-datadome: {v}")));
    }
    if let Some(v) = h("x-sucuri-block") {
        return Some(("challenge-sucuri".into(), format!("x-sucuri-block: {v}")));
    }
    // Below, body text: it counts only on an HTML answer. A feed or sitemap may quote any
    // of these words in a headline or a summary.
    if !is_html(headers, body) {
        return None;
    }
    if let Some(v) = h("set-cookie")
        && (v.contains("incap_ses_") || v.contains("visid_incap_"))
    {
        // Imperva sets these on ordinary pages too; only with a block body is it a refusal.
        if contains(body, "Incapsula") {
            return Some((
                "challenge-imperva".into(),
                "set-cookie: incap_ses_/visid_incap_ with an Incapsula page".into(),
            ));
        }
    }
    let head = &body[..body.len().min(256 * 1024)];
    for (marker, vendor) in BODY_MARKERS {
        if contains(head, marker) {
            return Some((
                format!("challenge-{vendor}"),
                format!("body contains {marker:?}"),
            ));
        }
    }
    if h("server").is_some_and(|s| s.eq_ignore_ascii_case("AkamaiGHost"))
        && (contains(head, "You don't have permission to access")
            || contains(head, "Reference #18."))
    {
        return Some((
            "challenge-akamai".into(),
            "Server: AkamaiGHost with an access-denied page".into(),
        ));
    }
    None
}

/// Whether an answer is an HTML page: declared `text/html` or `application/xhtml+xml` (unless
/// its body is plainly a feed or a sitemap, as a misconfigured server sends them), or, with no
/// such declaration, a body that sniffs as HTML (its first tag is one of the WHATWG sniffing
/// list's, or a doctype `html`).
pub fn is_html(headers: &BTreeMap<String, String>, body: &[u8]) -> bool {
    let declared = headers.get("content-type").is_some_and(|t| {
        let t = t.trim().to_ascii_lowercase();
        t.starts_with("text/html") || t.starts_with("application/xhtml+xml")
    });
    match first_tag(body) {
        Some(tag) if FEED_ROOTS.contains(&tag.as_str()) => false,
        Some(tag) if HTML_TAGS.contains(&tag.as_str()) => true,
        _ => declared,
    }
}

/// Root elements of the feeds and sitemaps HudukuBot reads.
const FEED_ROOTS: &[&str] = &[
    "rss",
    "feed",
    "rdf:rdf",
    "urlset",
    "sitemapindex",
    "channel",
];
/// The tags WHATWG's sniffing takes as HTML, and a doctype `html`.
const HTML_TAGS: &[&str] = &[
    "!doctype html",
    "html",
    "head",
    "script",
    "iframe",
    "h1",
    "div",
    "font",
    "table",
    "a",
    "style",
    "title",
    "b",
    "body",
    "br",
    "p",
];

/// The first tag of a body, lower-cased (`html`, `rss`, `!doctype html`), skipping a BOM,
/// white space, the XML declaration, processing instructions and comments.
fn first_tag(body: &[u8]) -> Option<String> {
    let head = &body[..body.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        rest = rest.strip_prefix('<')?;
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.split_once("-->")?.1.trim_start();
            continue;
        }
        if rest.starts_with('?') {
            rest = rest.split_once("?>")?.1.trim_start();
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
            .collect::<String>()
            .to_ascii_lowercase();
        if name == "!doctype" {
            let decl = rest.split('>').next().unwrap_or("").to_ascii_lowercase();
            let kind = decl.split_whitespace().nth(1).unwrap_or("");
            if kind == "html" {
                return Some("!doctype html".into());
            }
            rest = rest.split_once('>')?.1.trim_start();
            continue;
        }
        return Some(name);
    }
}

/// A `Content-Usage` value (an RFC 9651 dictionary, IETF aipref) that says `search=n`.
pub fn usage_refuses_search(value: &str) -> bool {
    value.split(',').any(|member| {
        let member = member.split(';').next().unwrap_or("");
        match member.split_once('=') {
            Some((k, v)) => {
                k.trim().eq_ignore_ascii_case("search") && v.trim().eq_ignore_ascii_case("n")
            }
            None => false,
        }
    })
}

fn contains(hay: &[u8], needle: &str) -> bool {
    let n = needle.as_bytes();
    !n.is_empty() && hay.windows(n.len()).any(|w| w == n)
}

/// Classifies a response.
pub fn classify(status: u16, headers: &BTreeMap<String, String>, body: &[u8]) -> Class {
    if let Some((reason, evidence)) = challenge(headers, body) {
        return Class::Refused { reason, evidence };
    }
    if let Some(v) = headers.get("content-usage")
        && usage_refuses_search(v)
    {
        return Class::Refused {
            reason: "content-usage-search-n".into(),
            evidence: format!("Content-Usage: {v}"),
        };
    }
    match status {
        200..=299 => Class::Success,
        304 => Class::NotModified,
        301 | 302 | 303 | 307 | 308 => match headers.get("location") {
            Some(l) => Class::Redirect {
                permanent: status == 301 || status == 308,
                location: l.clone(),
            },
            None => Class::Failed {
                reason: format!("redirect-{status}-without-location"),
            },
        },
        401 | 403 | 451 => Class::Refused {
            reason: format!("refused-{status}"),
            evidence: format!("HTTP {status}"),
        },
        429 | 503 => Class::Wait {
            retry_after: headers.get("retry-after").cloned(),
        },
        400..=499 => Class::Gone,
        _ => Class::Failed {
            reason: format!("http-{status}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn statuses_map_to_outcomes() {
        assert_eq!(classify(200, &h(&[]), b"<rss/>"), Class::Success);
        assert_eq!(classify(304, &h(&[]), b""), Class::NotModified);
        assert!(matches!(classify(403, &h(&[]), b""), Class::Refused { .. }));
        assert!(matches!(classify(451, &h(&[]), b""), Class::Refused { .. }));
        assert!(matches!(classify(401, &h(&[]), b""), Class::Refused { .. }));
        assert!(matches!(
            classify(429, &h(&[("retry-after", "60")]), b""),
            Class::Wait {
                retry_after: Some(_)
            }
        ));
        assert!(matches!(
            classify(503, &h(&[]), b""),
            Class::Wait { retry_after: None }
        ));
        assert_eq!(classify(404, &h(&[]), b""), Class::Gone);
        assert!(matches!(classify(500, &h(&[]), b""), Class::Failed { .. }));
        assert!(matches!(
            classify(308, &h(&[("location", "/x")]), b""),
            Class::Redirect {
                permanent: true,
                ..
            }
        ));
    }

    #[test]
    fn challenges_are_refusals_even_on_2xx() {
        assert!(matches!(
            classify(202, &h(&[("x-amzn-waf-action", "challenge")]), b""),
            Class::Refused { .. }
        ));
        assert!(
            matches!(classify(403, &h(&[("cf-mitigated", "challenge")]), b""), Class::Refused { reason, .. } if reason == "challenge-cloudflare")
        );
        assert!(matches!(
            classify(200, &h(&[]), b"<html><title>Just a moment...</title>"),
            Class::Refused { .. }
        ));
        assert!(matches!(
            classify(
                403,
                &h(&[("content-type", "text/html; charset=UTF-8")]),
                b"<title>Access to this page has been denied</title>"
            ),
            Class::Refused { .. }
        ));
        assert!(matches!(
            classify(
                200,
                &h(&[]),
                b"<script src=https://client.perimeterx.net/x.js>"
            ),
            Class::Refused { .. }
        ));
    }

    #[test]
    fn body_markers_count_only_on_html_answers() {
        let feed = b"<?xml version=\"1.0\"?><rss><channel><item><title>Sites hide behind px-captcha and captcha-delivery.com: Access to this page has been denied</title></item></channel></rss>";
        for ct in ["application/rss+xml", "text/xml", "text/html"] {
            assert_eq!(
                classify(200, &h(&[("content-type", ct)]), feed),
                Class::Success,
                "{ct}"
            );
        }
        assert_eq!(
            classify(
                200,
                &h(&[]),
                b"# robots.txt: no captcha-delivery.com here\nUser-agent: *\n"
            ),
            Class::Success
        );
        let page =
            b"<!DOCTYPE html><html><script src=\"https://ct.captcha-delivery.com/c.js\"></script>";
        assert!(matches!(
            classify(200, &h(&[]), page),
            Class::Refused { reason, .. } if reason == "challenge-datadome"
        ));
        assert!(matches!(
            classify(
                200,
                &h(&[("content-type", "text/html")]),
                b"  <p>Incapsula incident ID: 1</p>"
            ),
            Class::Refused { .. }
        ));
        // Header markers count on any answer, HEAD answers (no body) included.
        assert!(matches!(
            classify(
                200,
                &h(&[
                    ("x-datadome", "protected"),
                    ("content-type", "application/rss+xml")
                ]),
                feed
            ),
            Class::Refused { .. }
        ));
    }

    #[test]
    fn content_usage_search_n_is_a_refusal() {
        assert!(matches!(
            classify(200, &h(&[("content-usage", "train-ai=n, search=n")]), b"<rss/>"),
            Class::Refused { reason, .. } if reason == "content-usage-search-n"
        ));
        assert_eq!(
            classify(
                200,
                &h(&[("content-usage", "train-ai=n, search=y")]),
                b"<rss/>"
            ),
            Class::Success
        );
    }

    #[test]
    fn cdn_headers_alone_are_not_refusals() {
        assert_eq!(
            classify(
                200,
                &h(&[("server", "cloudflare"), ("cf-ray", "8abc-BLR")]),
                b"<rss/>"
            ),
            Class::Success
        );
        assert_eq!(
            classify(200, &h(&[("server", "AkamaiGHost")]), b"<rss/>"),
            Class::Success
        );
    }
}
