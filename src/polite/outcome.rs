//! The one response classifier: every status, header set and failure maps to a named
//! outcome here; everything downstream matches on the outcome, never on raw status codes.
//!
//! Challenge markers are those of `POLITENESS.md` (Cloudflare, AWS WAF, DataDome,
//! PerimeterX/HUMAN, Akamai, Imperva/Incapsula, Sucuri). `Server: cloudflare` or `cf-ray`
//! alone only say which CDN a site uses and are not a refusal.

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
    /// 401, 403, 451 or a challenge page: the source stops.
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

fn contains(hay: &[u8], needle: &str) -> bool {
    let n = needle.as_bytes();
    !n.is_empty() && hay.windows(n.len()).any(|w| w == n)
}

/// Classifies a response.
pub fn classify(status: u16, headers: &BTreeMap<String, String>, body: &[u8]) -> Class {
    if let Some((reason, evidence)) = challenge(headers, body) {
        return Class::Refused { reason, evidence };
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
                200,
                &h(&[]),
                b"<script src=https://client.perimeterx.net/x.js>"
            ),
            Class::Refused { .. }
        ));
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
