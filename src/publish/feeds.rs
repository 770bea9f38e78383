//! What the site offers to programs besides its pages: Atom feeds of Huduku's own headlines,
//! `sitemap.xml`, `robots.txt` and the icon.
//!
//! ```text
//! LANG/feeds/latest.xml          the front page's newest headlines (at most FRONT_MAX)
//! LANG/feeds/topics/TOPIC.xml    a topic's newest (at most LIST_MAX)
//! LANG/feeds/outlets/SLUG.xml    an outlet's newest (at most LIST_MAX)
//! sitemap.xml                    every page, both languages, with its hreflang alternates
//! robots.txt                     every page may be read; where the sitemap is
//! favicon.svg                    the icon (unless the operator's site-extra has one)
//! ```
//!
//! A feed holds the same bounded list as its page, in the same order; the `kn` and `en`
//! feeds of a list have the same entries and differ in the words around them. Every address
//! is absolute, from `--base-url`. An entry's link is the publisher's own page (http(s)
//! only, as on the pages); its id is a `tag:` URI of the headline's id, so it stays the
//! same whatever the base address, the language or the list; its times are the
//! headline's publication time. A feed's `updated` is its newest entry's time, so a feed
//! changes only when its entries do (an empty feed: the site's "updated" time, or the
//! earliest time a run may have). Nothing here reads the clock: the same kept files give
//! the same bytes. Publisher text is escaped by quick-xml's writer after the characters
//! XML 1.0 does not allow are dropped.

use anyhow::Result;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use std::borrow::Borrow;
use std::path::Path;

use super::i18n::{Lang, topic_label};
use super::rows::Row;
use super::site::{Lists, Site, lang_tag, safe_link};

/// The icon, at the site's root.
pub const FAVICON: &str = "favicon.svg";
/// The sitemap, at the site's root.
pub const SITEMAP: &str = "sitemap.xml";
/// robots.txt, at the site's root.
pub const ROBOTS: &str = "robots.txt";

/// The authority and date of the `tag:` URIs (RFC 4151) that name feeds and entries.
pub const TAG: &str = "tag:huduku.org,2026:";

/// A feed's time when it has no entry and the site no headline: the earliest `--now`.
const NO_TIME: &str = "2020-01-01T00:00:00Z";

/// A list that has a feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feed {
    /// The front page's newest headlines.
    Latest,
    /// A topic's newest.
    Topic(&'static str),
    /// An outlet's newest, by its page's file name.
    Outlet(String),
}

impl Feed {
    /// The feed's file in a language, named from the site's root.
    pub fn path(&self, lang: Lang) -> String {
        format!("{}/feeds/{}.xml", lang.code(), self.name())
    }
    /// `latest`, `topics/TOPIC`, `outlets/SLUG`.
    fn name(&self) -> String {
        match self {
            Feed::Latest => "latest".into(),
            Feed::Topic(t) => format!("topics/{t}"),
            Feed::Outlet(slug) => format!("outlets/{slug}"),
        }
    }
    /// The page that lists the same headlines, in a language.
    fn page(&self, lang: Lang) -> String {
        let code = lang.code();
        match self {
            Feed::Latest => format!("{code}/index.html"),
            Feed::Topic(t) => format!("{code}/topics/{t}.html"),
            Feed::Outlet(slug) => format!("{code}/outlets/{slug}.html"),
        }
    }
}

/// Text as XML 1.0 allows it: every character but the C0 controls other than tab, line
/// feed and carriage return, and U+FFFE and U+FFFF (Rust strings hold no surrogates).
pub fn xml_text(s: &str) -> std::borrow::Cow<'_, str> {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && !matches!(c, '\u{fffe}' | '\u{ffff}'))
    };
    if s.chars().all(allowed) {
        s.into()
    } else {
        s.chars().filter(|c| allowed(*c)).collect::<String>().into()
    }
}

/// A headline id as it may stand in a `tag:` URI: letters, digits and `-._~` as they are,
/// every other byte percent-encoded.
fn tag_part(id: &str) -> String {
    let mut out = String::new();
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The id of a headline's entry, the same in every feed and language.
pub fn entry_id(headline_id: &str) -> String {
    format!("{TAG}headline:{}", tag_part(headline_id))
}

type Xml = Writer<Vec<u8>>;

fn text_el(w: &mut Xml, name: &str, attrs: &[(&str, &str)], text: &str) -> std::io::Result<()> {
    let text = xml_text(text);
    w.create_element(name)
        .with_attributes(attrs.iter().copied())
        .write_text_content(BytesText::new(&text))?;
    Ok(())
}

fn empty_el(w: &mut Xml, name: &str, attrs: &[(&str, &str)]) -> std::io::Result<()> {
    let attrs: Vec<(&str, String)> = attrs
        .iter()
        .map(|(k, v)| (*k, xml_text(v).into_owned()))
        .collect();
    w.create_element(name)
        .with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())))
        .write_empty()?;
    Ok(())
}

/// One feed, as bytes.
fn atom(site: &Site, lang: Lang, feed: &Feed, title: &str, rows: &[&Row]) -> Result<Vec<u8>> {
    let t = lang.text();
    let pool = site.pool;
    let rows: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|p| safe_link(p.link()))
        .collect();
    let updated = rows
        .iter()
        .map(|p| p.published)
        .max()
        .or(site.as_of)
        .map(crate::time::fmt)
        .unwrap_or_else(|| NO_TIME.to_string());
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 1);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("utf-8"), None)))?;
    let self_href = site.absolute(&feed.path(lang));
    let page = site.absolute(&feed.page(lang));
    let icon = site.absolute(FAVICON);
    let full_title = format!("{title} · {}", t.site);
    let feed_id = format!("{TAG}feed:{}/{}", lang.code(), feed.name());
    w.create_element("feed")
        .with_attribute(("xmlns", "http://www.w3.org/2005/Atom"))
        .with_attribute(("xml:lang", lang.code()))
        .write_inner_content(|w| {
            text_el(w, "id", &[], &feed_id)?;
            text_el(w, "title", &[("type", "text")], &full_title)?;
            text_el(w, "subtitle", &[("type", "text")], t.tagline)?;
            empty_el(
                w,
                "link",
                &[
                    ("rel", "self"),
                    ("type", "application/atom+xml"),
                    ("href", &self_href),
                ],
            )?;
            empty_el(
                w,
                "link",
                &[
                    ("rel", "alternate"),
                    ("type", "text/html"),
                    ("hreflang", lang.code()),
                    ("href", &page),
                ],
            )?;
            text_el(w, "updated", &[], &updated)?;
            w.create_element("author").write_inner_content(|w| {
                text_el(w, "name", &[], t.site)?;
                text_el(w, "uri", &[], site.base)?;
                Ok(())
            })?;
            text_el(w, "icon", &[], &icon)?;
            for p in &rows {
                let outlet = pool.get(p.outlet);
                let topic = super::site::topic_of(pool.get(p.topic));
                let when = crate::time::fmt(p.published);
                let mut entry = w.create_element("entry");
                if let Some(l) = lang_tag(pool.get(p.lang)) {
                    entry = entry.with_attribute(("xml:lang", l));
                }
                entry.write_inner_content(|w| {
                    text_el(w, "id", &[], &entry_id(p.id()))?;
                    text_el(w, "title", &[("type", "text")], p.headline())?;
                    empty_el(
                        w,
                        "link",
                        &[
                            ("rel", "alternate"),
                            ("type", "text/html"),
                            ("href", p.link()),
                        ],
                    )?;
                    text_el(w, "published", &[], &when)?;
                    text_el(w, "updated", &[], &when)?;
                    w.create_element("author").write_inner_content(|w| {
                        text_el(w, "name", &[], outlet)?;
                        if let Some(slug) = site.slugs.get(outlet) {
                            let uri =
                                site.absolute(&format!("{}/outlets/{slug}.html", lang.code()));
                            text_el(w, "uri", &[], &uri)?;
                        }
                        Ok(())
                    })?;
                    empty_el(
                        w,
                        "category",
                        &[("term", topic), ("label", topic_label(topic, lang))],
                    )?;
                    if p.opinion {
                        empty_el(w, "category", &[("term", "opinion"), ("label", t.opinion)])?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes every feed in both languages: the latest headlines, each topic's and each outlet's
/// with a page. Returns the files written, named from the site's root.
pub fn write_feeds<R: Borrow<Row>>(
    dir: &Path,
    site: &Site,
    lists: &Lists<R>,
) -> Result<Vec<String>> {
    let mut written = Vec::new();
    fn refs<R: Borrow<Row>>(l: &[R]) -> Vec<&Row> {
        l.iter().map(|r| r.borrow()).collect()
    }
    for lang in Lang::ALL {
        let t = lang.text();
        let mut put = |feed: Feed, title: &str, rows: &[&Row]| -> Result<()> {
            let bytes = atom(site, lang, &feed, title, rows)?;
            let path = feed.path(lang);
            super::site::put(&dir.join(&path), &bytes)?;
            written.push(path);
            Ok(())
        };
        put(Feed::Latest, t.latest, &refs(&lists.front))?;
        for topic in crate::classify::TOPICS {
            let rows = lists
                .topics
                .get(topic)
                .map(|l| refs(&l.rows))
                .unwrap_or_default();
            put(Feed::Topic(topic), topic_label(topic, lang), &rows)?;
        }
        for (name, slug) in site.slugs {
            let rows = lists
                .outlets
                .get(name)
                .map(|l| refs(&l.rows))
                .unwrap_or_default();
            let title = match lang {
                Lang::En => format!("Headlines from {name}"),
                Lang::Kn => format!("{name}: ಮುಖ್ಯಾಂಶಗಳು"),
            };
            put(Feed::Outlet(slug.clone()), &title, &rows)?;
        }
    }
    Ok(written)
}

/// The sitemap of the pages written (paths from the site's root): every page of a language
/// folder, each with its twins in both languages and `x-default` (the Kannada one). The root
/// index, a copy of the Kannada front page that names it as canonical, is left out.
pub fn sitemap(site: &Site, pages: &[String]) -> Result<Vec<u8>> {
    let mut listed: Vec<&str> = pages
        .iter()
        .map(String::as_str)
        .filter(|p| {
            p.ends_with(".html")
                && Lang::ALL
                    .iter()
                    .any(|l| p.starts_with(&format!("{}/", l.code())))
        })
        .collect();
    listed.sort_unstable();
    listed.dedup();
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 1);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("utf-8"), None)))?;
    w.create_element("urlset")
        .with_attribute(("xmlns", "http://www.sitemaps.org/schemas/sitemap/0.9"))
        .with_attribute(("xmlns:xhtml", "http://www.w3.org/1999/xhtml"))
        .write_inner_content(|w| {
            for page in &listed {
                let rest = page.split_once('/').map_or(*page, |x| x.1);
                w.create_element("url").write_inner_content(|w| {
                    text_el(w, "loc", &[], &site.absolute(page))?;
                    for lang in Lang::ALL {
                        let twin = format!("{}/{rest}", lang.code());
                        empty_el(
                            w,
                            "xhtml:link",
                            &[
                                ("rel", "alternate"),
                                ("hreflang", lang.code()),
                                ("href", &site.absolute(&twin)),
                            ],
                        )?;
                    }
                    let default = format!("{}/{rest}", Lang::ALL[0].code());
                    empty_el(
                        w,
                        "xhtml:link",
                        &[
                            ("rel", "alternate"),
                            ("hreflang", "x-default"),
                            ("href", &site.absolute(&default)),
                        ],
                    )?;
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    Ok(bytes)
}

/// robots.txt: everything may be read, and where the sitemap is. (Crawlers read robots.txt
/// only at a host's root: with a base address below it, the host's own robots.txt rules.)
pub fn robots(site: &Site) -> String {
    format!(
        "# Huduku's public site: every page may be read.\nUser-agent: *\nAllow: /\n\nSitemap: {}\n",
        site.absolute(SITEMAP)
    )
}

/// The icon: a magnifying glass ("huduku" is "search") in the link colour.
pub fn favicon() -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\"><rect width=\"32\" height=\"32\" rx=\"6\" fill=\"{}\"/><circle cx=\"13.5\" cy=\"13.5\" r=\"7\" fill=\"none\" stroke=\"#fff\" stroke-width=\"3\"/><path d=\"M19 19l7 7\" stroke=\"#fff\" stroke-width=\"3.5\" stroke-linecap=\"round\"/></svg>\n",
        super::site::LINK
    )
}

/// Writes the sitemap of `pages`, robots.txt and (unless the operator brings their own)
/// the icon. Returns the files written, named from the site's root.
pub fn finish(dir: &Path, site: &Site, pages: &[String], own_icon: bool) -> Result<Vec<String>> {
    let mut written = Vec::new();
    super::site::put(&dir.join(SITEMAP), &sitemap(site, pages)?)?;
    written.push(SITEMAP.to_string());
    super::site::put(&dir.join(ROBOTS), robots(site).as_bytes())?;
    written.push(ROBOTS.to_string());
    if !own_icon {
        super::site::put(&dir.join(FAVICON), favicon().as_bytes())?;
        written.push(FAVICON.to_string());
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_loses_what_xml_cannot_hold() {
        assert_eq!(xml_text("a\u{0}b\u{1b}c\tok\n"), "abc\tok\n");
        assert_eq!(xml_text("ರಣಜಿ \u{fffe}\u{ffff}x"), "ರಣಜಿ x");
        assert!(matches!(xml_text("plain"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn entry_ids_are_tag_uris_of_the_headline_id() {
        assert_eq!(
            entry_id("0123456789abcdef"),
            "tag:huduku.org,2026:headline:0123456789abcdef"
        );
        assert_eq!(
            entry_id("a b/ಕ"),
            "tag:huduku.org,2026:headline:a%20b%2F%E0%B2%95"
        );
    }
}
