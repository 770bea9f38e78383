//! Home pages: the publisher's own list of headlines, found by a CSS selector per source.
//!
//! The page is decoded by its HTTP charset, BOM or `<meta charset>` (else UTF-8), parsed as a
//! browser would, and every element the selector matches gives a headline: its link's text,
//! its link's `href` made absolute (http(s) only), and the `datetime` of a `<time>` in it or
//! in the list item around it, when the page gives one.
//!
//! A page nested deeper than [`MAX_HTML_DEPTH`] elements is read up to the tag that goes
//! past it, and the cut is the body's error: the headlines before it are kept (the last one
//! too unless the cut fell inside its link), nothing after it is read.

use url::Url;

use super::text::{MAX_HTML_DEPTH, cap, collapse, html_nesting_cut};
use super::{Parsed, RawItem};

/// Parses a home page: every element the selector matches is a headline link (an `<a>`, or
/// an element holding one); a `<time datetime>` within the link's list item dates it.
pub fn parse(body: &[u8], base: &Url, content_type: Option<&str>, selector: &str) -> Parsed {
    let decoded = super::charset::decode(body, content_type, true);
    // A page that stops before its `</html>` was cut off: its last headline may be cut too.
    let tail = &body[body.len().saturating_sub(4096)..];
    let cut_off = !String::from_utf8_lossy(tail)
        .to_ascii_lowercase()
        .contains("</html");
    // Nesting past the limit: only what comes before it is handed to the HTML parser.
    let deep = html_nesting_cut(&decoded.text, MAX_HTML_DEPTH);
    let text = deep
        .as_ref()
        .map_or(&decoded.text[..], |c| &decoded.text[..c.at]);
    let doc = scraper::Html::parse_document(text);
    let sel = match scraper::Selector::parse(selector) {
        Ok(s) => s,
        Err(e) => {
            return Parsed {
                error: Some(format!("bad CSS selector {selector:?}: {e}")),
                ..Parsed::default()
            };
        }
    };
    let a_sel = scraper::Selector::parse("a[href]").expect("static selector");
    let time_sel = scraper::Selector::parse("time[datetime]").expect("static selector");
    let mut out = Parsed::default();
    for el in doc.select(&sel) {
        let a = if el.value().name() == "a" {
            Some(el)
        } else {
            el.select(&a_sel).next()
        };
        let Some(a) = a else {
            out.dropped += 1;
            continue;
        };
        let headline = cap(
            collapse(&a.text().collect::<String>()),
            super::feed::MAX_HEADLINE,
        );
        let link = a
            .value()
            .attr("href")
            .and_then(|h| base.join(h.trim()).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https"));
        let (Some(link), false) = (link, headline.is_empty()) else {
            out.dropped += 1;
            continue;
        };
        // A <time datetime> in the matched element (or, when the selector matched the link
        // itself, in the element around it): never one from a neighbouring headline.
        let scope = if el.value().name() == "a" {
            el.parent()
                .and_then(scraper::ElementRef::wrap)
                .unwrap_or(el)
        } else {
            el
        };
        let published = scope
            .select(&time_sel)
            .next()
            .and_then(|t| t.value().attr("datetime"))
            .and_then(super::dates::parse);
        out.items.push(RawItem {
            headline,
            link: link.to_string(),
            published,
            ..RawItem::default()
        });
    }
    if let Some(cut) = deep {
        let mut e = format!(
            "page nested deeper than {MAX_HTML_DEPTH} elements at line {}: read up to there, the rest ignored",
            cut.line
        );
        if cut.in_link && out.items.pop().is_some() {
            out.dropped += 1;
            e.push_str(", its last headline dropped");
        }
        out.error = Some(e);
    } else if cut_off {
        if out.items.pop().is_some() {
            out.dropped += 1;
        }
        out.error = Some("page ends before </html>: cut off, its last headline dropped".into());
    } else if decoded.bad_bytes {
        out.error = Some(format!(
            "bytes not valid in {} were replaced with U+FFFD",
            decoded.encoding
        ));
    }
    out
}
