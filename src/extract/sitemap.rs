//! Google news sitemaps (`http://www.google.com/schemas/sitemap-news/0.9`), read with
//! quick-xml. DTDs are skipped and entities are never expanded from them.

use quick_xml::Reader;
use quick_xml::events::Event;
use url::Url;

use super::text::plain;
use super::{Parsed, RawItem};

/// Parses a news sitemap body fetched from `base`. A `<url>` without `news:title` is not a
/// news entry and is skipped (counted as dropped).
pub fn parse(body: &[u8], base: &Url, _content_type: Option<&str>) -> Parsed {
    let mut reader = Reader::from_reader(body);
    reader.config_mut().trim_text(true);
    let mut out = Parsed::default();
    let mut buf = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut cur: Option<(Option<String>, Option<String>, Option<String>)> = None; // loc, title, date
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => {
                let name = local(e.name().0);
                if name == "url" {
                    cur = Some((None, None, None));
                }
                path.push(name);
            }
            Ok(Event::End(_)) => {
                let name = path.pop().unwrap_or_default();
                if name == "url" {
                    if let Some((loc, title, date)) = cur.take() {
                        push(&mut out, base, loc, title, date);
                    }
                }
            }
            Ok(Event::Text(t)) => {
                let text = t.xml10_content().into_owned();
                set(&mut cur, path.last().map(String::as_str), &text);
            }
            Ok(Event::CData(t)) => {
                let text = t.into_inner().into_owned();
                set(&mut cur, path.last().map(String::as_str), &text);
            }
            Ok(Event::GeneralRef(r)) => {
                let name = r.clone().into_inner().into_owned();
                let text = match name.as_str() {
                    "amp" => "&".to_string(),
                    "lt" => "<".to_string(),
                    "gt" => ">".to_string(),
                    "quot" => "\"".to_string(),
                    "apos" => "'".to_string(),
                    n if n.starts_with('#') => r
                        .resolve_char_ref()
                        .ok()
                        .flatten()
                        .map(String::from)
                        .unwrap_or_default(),
                    _ => String::new(), // never expanded from a DTD
                };
                append(&mut cur, path.last().map(String::as_str), &text);
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                out.error = Some(format!(
                    "broken sitemap at byte {}: {e}",
                    reader.buffer_position()
                ));
                break;
            }
        }
        buf.clear();
    }
    out
}

fn local(name: &str) -> String {
    name.rsplit(':').next().unwrap_or_default().to_string()
}

fn set(
    cur: &mut Option<(Option<String>, Option<String>, Option<String>)>,
    field: Option<&str>,
    text: &str,
) {
    append(cur, field, text)
}

fn append(
    cur: &mut Option<(Option<String>, Option<String>, Option<String>)>,
    field: Option<&str>,
    text: &str,
) {
    let Some((loc, title, date)) = cur.as_mut() else {
        return;
    };
    let slot = match field {
        Some("loc") => loc,
        Some("title") => title,
        Some("publication_date") => date,
        _ => return,
    };
    slot.get_or_insert_with(String::new).push_str(text);
}

fn push(
    out: &mut Parsed,
    base: &Url,
    loc: Option<String>,
    title: Option<String>,
    date: Option<String>,
) {
    let link = loc
        .and_then(|l| base.join(l.trim()).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"));
    let headline = title.map(|t| plain(&t)).unwrap_or_default();
    match link {
        Some(link) if !headline.is_empty() => out.items.push(RawItem {
            headline,
            link: link.to_string(),
            published: date.as_deref().and_then(parse_w3c),
            ..RawItem::default()
        }),
        _ => out.dropped += 1,
    }
}

/// W3C datetime (full, or date only as midnight UTC).
pub fn parse_w3c(s: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let s = s.trim();
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&chrono::Utc));
    }
    if let Ok(t) = chrono::DateTime::parse_from_str(s, "%Y-%m-%dT%H:%M%:z") {
        return Some(t.with_timezone(&chrono::Utc));
    }
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .map(|d| d.and_hms_opt(0, 0, 0).expect("midnight").and_utc())
}
