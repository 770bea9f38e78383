//! RSS (0.90, 0.91, 0.92, 1.0/RDF, 2.0) and Atom (0.3, 1.0) feeds, read with the forgiving
//! walker in [`super::xml`], the way the field's reference reader (Python's feedparser)
//! reads them:
//!
//! - the headline is the item's first `title` (or `dc:title`; `media:title` only when there
//!   is no other), as plain text: Atom's `type` says text, html or xhtml; RSS leaves it
//!   undeclared and it is HTML only if it looks like HTML;
//! - the link is the last `link` (RSS text, or an Atom `link` with `rel="alternate"` or no
//!   rel and an HTML type), else the RSS `guid` when it is a permalink; relative links are
//!   resolved against `xml:base` and the feed's own URL; only http(s) links are kept. An
//!   Atom `id` is never a link (it names the entry; the publisher did not offer it as an
//!   address), so an entry with an id and no link is dropped like any entry without one;
//! - the time is `pubDate`/`published`/`issued`/`dcterms:issued`, else `dc:date`/`updated`/
//!   `modified`, else `created`;
//! - categories from `category` (text, or Atom `label`/`term`) and `dc:subject`; the author
//!   from `author` (RSS text or Atom `author/name`) or `dc:creator`; the summary from
//!   `description`/`summary`, else `content`/`content:encoded`.
//!
//! Items read before damage (a cut-off body, a broken tag) are kept; an item cut off after
//! its title and link were read is kept too.

use chrono::{DateTime, Utc};
use url::Url;

use super::text::{cap, collapse, guess, html_to_text};
use super::xml::{self, Attr, Handler, Name};
use super::{Parsed, RawItem};

/// Longest headline kept (characters); longer ones are cut and marked with `…`.
pub const MAX_HEADLINE: usize = 1000;
/// Longest summary kept (characters).
pub const MAX_SUMMARY: usize = 5000;
/// Most text collected for one element (bytes); the rest is ignored.
const MAX_FIELD: usize = 1 << 20;

/// Parses a body fetched from `base`, decoded by its charset (see [`super::charset`]).
pub fn parse(body: &[u8], base: &Url, content_type: Option<&str>) -> Parsed {
    super::parse_xml(body, base, content_type, parse_text)
}

/// Parses an RSS or Atom feed (already decoded to text) fetched from `base`.
pub fn parse_text(text: &str, base: &Url) -> Parsed {
    let mut r = Reader::default();
    let err = xml::walk(text, base, &mut r);
    r.finish_open();
    let mut out = r.out;
    if err.is_some() {
        out.error = err;
    } else if r.root.is_none() {
        out.error = Some("no XML elements: not a feed".into());
    } else if !r.is_feed && out.items.is_empty() && out.dropped == 0 {
        out.error = Some(format!(
            "not an RSS or Atom feed (its root element is <{}>)",
            r.root.unwrap_or_default()
        ));
    }
    out
}

/// Which namespace family an element belongs to.
fn family(ns: &str) -> &str {
    match ns {
        ""
        | "http://purl.org/rss/1.0/"
        | "http://my.netscape.com/rdf/simple/0.9/"
        | "http://channel.netscape.com/rdf/simple/0.9/"
        | "http://backend.userland.com/rss2"
        | "http://backend.userland.com/rss"
        | "http://blogs.law.harvard.edu/tech/rss"
        | "http://purl.org/net/rss1.1#" => "",
        "http://www.w3.org/2005/Atom" | "http://purl.org/atom/ns#" | "atom" => "atom",
        "http://purl.org/dc/elements/1.1/" | "http://purl.org/dc/elements/1.0/" | "dc" => "dc",
        "http://purl.org/dc/terms/" | "dcterms" => "dcterms",
        "http://purl.org/rss/1.0/modules/content/" | "content" => "content",
        "http://search.yahoo.com/mrss/" | "http://search.yahoo.com/mrss" | "media" => "media",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#" | "rdf" => "rdf",
        _ => "other",
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Title,
    MediaTitle,
    Link,
    Guid { permalink: bool },
    Published,
    Updated,
    Created,
    Category,
    Author,
    Summary,
    Content,
}

/// How a captured element's text is to be read.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Plain text (Atom `type="text"`).
    Text,
    /// Escaped HTML (Atom `type="html"`).
    Html,
    /// Inline XHTML (Atom `type="xhtml"`): its markup arrives raw.
    Xhtml,
    /// Undeclared (RSS): HTML if it looks like HTML.
    Guess,
}

struct Capture {
    field: Field,
    depth: usize,
    mode: Mode,
    base64: bool,
    /// Decoded character data of the element itself.
    text: String,
    /// The same, escaped, with child elements' markup: read as HTML if there were children.
    markup: String,
    children: bool,
    base: Url,
}

#[derive(Default)]
struct Entry {
    title: Option<String>,
    media_title: Option<String>,
    link: Option<String>,
    /// Depth-ordered candidates: (published, updated, created).
    published: Option<DateTime<Utc>>,
    updated: Option<DateTime<Utc>>,
    created: Option<DateTime<Utc>>,
    category: Vec<String>,
    author: Option<String>,
    summary: Option<String>,
    content: Option<String>,
}

#[derive(Default)]
struct Reader {
    out: Parsed,
    depth: usize,
    root: Option<String>,
    is_feed: bool,
    /// The open item and its depth.
    entry: Option<(Entry, usize)>,
    cap: Option<Capture>,
    /// Depth of an element inside the item whose children are not the item's (`source`).
    skip_below: Option<usize>,
    /// Depth of an Atom `author` element inside the item.
    author_at: Option<usize>,
    /// The `base` attribute of a CDF channel.
    cdf_base: Option<Url>,
}

fn attr<'a>(attrs: &'a [Attr], local: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| a.name.local.eq_ignore_ascii_case(local) && (a.name.ns.is_empty()))
        .map(|a| a.value.as_str())
}

/// How an element's text is to be read, and whether it is base64 (Atom 0.3 `mode="base64"`,
/// or an Atom type that is neither text nor XML).
fn mode_of(fam: &str, attrs: &[Attr]) -> (Mode, bool) {
    let ty = attr(attrs, "type").map(|t| t.trim().to_ascii_lowercase());
    if fam != "atom" && ty.is_none() {
        return (Mode::Guess, false);
    }
    let ty = ty.unwrap_or_else(|| "text".into());
    let m = attr(attrs, "mode").map(|m| m.trim().to_ascii_lowercase());
    let base64 = m.as_deref() == Some("base64")
        || !(ty.starts_with("text")
            || ty.contains("xml")
            || matches!(ty.as_str(), "html" | "xhtml"));
    let mode = match ty.as_str() {
        "text" | "text/plain" => Mode::Text,
        "html" | "text/html" => Mode::Html,
        "xhtml" | "application/xhtml+xml" => {
            if matches!(m.as_deref(), Some("escaped" | "base64")) {
                Mode::Html
            } else {
                Mode::Xhtml
            }
        }
        _ if m.as_deref() == Some("escaped") => Mode::Html,
        _ => Mode::Text,
    };
    (mode, base64)
}

/// Decodes standard base64 (whitespace ignored); `None` if it is not base64.
fn base64(s: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut n = 0;
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            c if c.is_ascii_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
            bits &= (1 << n) - 1;
        }
    }
    String::from_utf8(out).ok()
}

impl Reader {
    fn finish_open(&mut self) {
        // A body cut off inside an item: keep it if its title and link were read whole.
        self.cap = None;
        if let Some((e, _)) = self.entry.take()
            && e.title.is_some()
            && e.link.is_some()
        {
            self.push(e);
        }
    }

    fn push(&mut self, e: Entry) {
        let headline = e
            .title
            .or(e.media_title)
            .map(|t| cap(t, MAX_HEADLINE))
            .unwrap_or_default();
        let link = e
            .link
            .clone()
            .filter(|l| l.starts_with("http://") || l.starts_with("https://"));
        let published = e.published.or(e.updated).or(e.created);
        let (Some(link), false) = (link, headline.is_empty()) else {
            self.out.dropped += 1;
            self.out.rejected.push((
                self.out.items.len(),
                RawItem {
                    headline,
                    link: e.link.unwrap_or_default(),
                    published,
                    ..RawItem::default()
                },
            ));
            return;
        };
        let summary = e
            .summary
            .filter(|s| !s.is_empty())
            .or(e.content)
            .filter(|s| !s.is_empty())
            .map(|s| cap(s, MAX_SUMMARY));
        self.out.items.push(RawItem {
            headline,
            link,
            published,
            category: e.category,
            author: e.author,
            summary,
            ..RawItem::default()
        });
    }

    /// Which field an element inside the item is, given its depth below the item.
    fn field_of(&self, name: &Name, rel: usize, attrs: &[Attr]) -> Option<Field> {
        let fam = family(&name.ns);
        let local = name.local.to_ascii_lowercase();
        if fam == "media" && local == "title" {
            return Some(Field::MediaTitle);
        }
        if let Some(a) = self.author_at {
            let in_author = rel == a + 1;
            return (in_author && local == "name" && fam == "atom").then_some(Field::Author);
        }
        if rel != 1 {
            return None;
        }
        // RSS and Atom elements are read alike whichever namespace they are in, as feed
        // readers do (RSS feeds carry Atom's <link href> and <updated> unprefixed).
        let fam = if fam == "atom" { "" } else { fam };
        Some(match (fam, local.as_str()) {
            ("" | "dc", "title") => Field::Title,
            ("", "link") => Field::Link,
            ("", "guid") => Field::Guid {
                permalink: attr(attrs, "isPermaLink")
                    .is_none_or(|v| v.trim().eq_ignore_ascii_case("true")),
            },
            ("", "pubdate" | "published" | "issued") | ("dcterms", "issued") => Field::Published,
            ("dc", "date") | ("", "updated" | "modified") | ("dcterms", "modified") => {
                Field::Updated
            }
            ("", "created") | ("dcterms", "created") => Field::Created,
            ("", "category") | ("dc", "subject") => Field::Category,
            ("", "author") | ("dc", "creator") => Field::Author,
            ("", "description" | "summary") => Field::Summary,
            ("content", "encoded") | ("", "content") => Field::Content,
            _ => return None,
        })
    }
}

impl Handler for Reader {
    fn start(&mut self, name: &Name, attrs: &[Attr], base: &Url) {
        self.depth += 1;
        let depth = self.depth;
        let fam = family(&name.ns);
        let local = name.local.to_ascii_lowercase();
        if self.root.is_none() {
            self.root = Some(name.local.clone());
            self.is_feed = matches!(local.as_str(), "rss" | "rdf" | "feed" | "channel");
        }
        if self.cap.is_some() {
            return;
        }
        let Some((_, at)) = &self.entry else {
            let is_item =
                matches!(local.as_str(), "item" | "entry") && matches!(fam, "" | "atom" | "rdf");
            if local == "channel" && self.cdf_base.is_none() {
                // The Channel Definition Format names its base in an attribute.
                self.cdf_base = attr(attrs, "base").and_then(|b| base.join(b.trim()).ok());
            }
            if is_item {
                let mut e = Entry::default();
                // CDF items carry their link and date as attributes.
                if let Some(href) = attr(attrs, "href") {
                    e.link = resolve(self.cdf_base.as_ref().unwrap_or(base), href);
                }
                if let Some(t) = attr(attrs, "lastmod") {
                    e.updated = super::dates::parse(t);
                }
                self.entry = Some((e, depth));
                self.skip_below = None;
                self.author_at = None;
            }
            return;
        };
        let rel = depth.saturating_sub(*at);
        if self.skip_below.is_some() {
            return;
        }
        if rel == 1 && local == "source" {
            self.skip_below = Some(depth);
            return;
        }
        if rel == 1 && local == "author" && fam == "atom" {
            self.author_at = Some(rel);
            return;
        }
        if rel == 1 && local == "contributor" {
            self.skip_below = Some(depth);
            return;
        }
        let Some(field) = self.field_of(name, rel, attrs) else {
            return;
        };
        let entry = &mut self.entry.as_mut().expect("entry checked").0;
        match field {
            Field::Link if fam == "atom" || attr(attrs, "href").is_some() => {
                let rel_attr = attr(attrs, "rel").unwrap_or("alternate").trim();
                let ty = attr(attrs, "type")
                    .unwrap_or("text/html")
                    .trim()
                    .to_ascii_lowercase();
                let html = matches!(ty.as_str(), "text/html" | "application/xhtml+xml" | "html");
                if let Some(href) = attr(attrs, "href") {
                    if rel_attr == "alternate"
                        && html
                        && let Some(u) = resolve(base, href)
                    {
                        entry.link = Some(u);
                    }
                    return;
                }
                // An Atom 0.3-style link with its address as text.
            }
            Field::Category if fam == "atom" || attr(attrs, "term").is_some() => {
                let label = attr(attrs, "label")
                    .filter(|l| !l.trim().is_empty())
                    .or(attr(attrs, "term"));
                if let Some(l) = label {
                    let l = collapse(l);
                    if !l.is_empty() && !entry.category.contains(&l) {
                        entry.category.push(l);
                    }
                }
                return;
            }
            _ => {}
        }
        let (mode, base64) = mode_of(fam, attrs);
        self.cap = Some(Capture {
            field,
            depth,
            mode,
            base64,
            text: String::new(),
            markup: String::new(),
            children: false,
            base: base.clone(),
        });
    }

    fn wants_raw(&self) -> bool {
        self.cap.as_ref().is_some_and(|c| c.depth == self.depth)
    }

    fn raw(&mut self, markup: &str) {
        if let Some(c) = &mut self.cap {
            c.children = true;
            if c.markup.len() < MAX_FIELD {
                c.markup.push_str(markup);
            }
        }
    }

    fn text(&mut self, text: &str) {
        if let Some(c) = &mut self.cap
            && c.text.len() < MAX_FIELD
        {
            c.text.push_str(text);
            c.markup.push_str(&xml::escape(text));
        }
    }

    fn end(&mut self, name: &Name) {
        let depth = self.depth;
        self.depth = self.depth.saturating_sub(1);
        if let Some(c) = self.cap.take_if(|c| c.depth == depth) {
            self.close_capture(c);
            return;
        }
        if self.skip_below == Some(depth) {
            self.skip_below = None;
            return;
        }
        if let Some((_, at)) = &self.entry {
            if self.author_at.is_some_and(|a| at + a == depth) {
                self.author_at = None;
                return;
            }
            if *at == depth {
                let (e, _) = self.entry.take().expect("entry checked");
                let _ = name;
                self.push(e);
            }
        }
    }
}

/// Resolves a link against the base in effect; http(s) only.
fn resolve(base: &Url, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() {
        return None;
    }
    base.join(href)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(|u| u.to_string())
}

impl Reader {
    fn close_capture(&mut self, mut c: Capture) {
        if c.base64
            && let Some(t) = base64(&c.text)
        {
            c.markup = xml::escape(&t);
            c.text = t;
        }
        let Some((entry, _)) = self.entry.as_mut() else {
            return;
        };
        let rendered = || -> String {
            if c.children || c.mode == Mode::Xhtml {
                html_to_text(&c.markup)
            } else {
                match c.mode {
                    Mode::Text => collapse(&c.text),
                    Mode::Html => html_to_text(&c.text),
                    Mode::Guess | Mode::Xhtml => guess(&c.text),
                }
            }
        };
        match c.field {
            Field::Title => {
                if entry.title.is_none() {
                    let t = rendered();
                    if !t.is_empty() {
                        entry.title = Some(t);
                    }
                }
            }
            Field::MediaTitle => {
                if entry.media_title.is_none() {
                    let t = rendered();
                    if !t.is_empty() {
                        entry.media_title = Some(t);
                    }
                }
            }
            Field::Link => {
                if let Some(u) = resolve(&c.base, &c.text) {
                    entry.link = Some(u);
                } else if !c.text.trim().is_empty() {
                    // A link that is there but not http(s): the item is dropped, not relinked.
                    entry.link = Some(c.text.trim().to_string());
                }
            }
            Field::Guid { permalink } => {
                if permalink
                    && entry.link.is_none()
                    && let Some(u) = resolve(&c.base, &c.text)
                {
                    entry.link = Some(u);
                }
            }
            Field::Published => {
                if let Some(t) = super::dates::parse(&c.text) {
                    entry.published = Some(t);
                }
            }
            Field::Updated => {
                if let Some(t) = super::dates::parse(&c.text) {
                    entry.updated = Some(t);
                }
            }
            Field::Created => {
                if let Some(t) = super::dates::parse(&c.text) {
                    entry.created = Some(t);
                }
            }
            Field::Category => {
                let t = collapse(&c.text);
                if !t.is_empty() && !entry.category.contains(&t) {
                    entry.category.push(t);
                }
            }
            Field::Author => {
                if entry.author.is_none() {
                    let a = author_name(&collapse(&c.text));
                    if !a.is_empty() {
                        entry.author = Some(a);
                    }
                }
            }
            Field::Summary => {
                if entry.summary.is_none() {
                    entry.summary = Some(rendered());
                }
            }
            Field::Content => {
                if entry.content.is_none() {
                    entry.content = Some(rendered());
                }
            }
        }
    }
}

/// RSS writes authors as `email (Name)`; the name is what is kept.
fn author_name(s: &str) -> String {
    if let (Some(open), true) = (s.find('('), s.ends_with(')')) {
        let name = s[open + 1..s.len() - 1].trim();
        if s[..open].contains('@') && !name.is_empty() {
            return name.to_string();
        }
    }
    s.to_string()
}
