//! Google news sitemaps (`http://www.google.com/schemas/sitemap-news/0.9`) and the sitemap
//! indexes that point at them, read with the forgiving walker in [`super::xml`].
//!
//! A `<url>` gives an item when it has a `<loc>` and a `news:title`: the headline is the
//! title, the time `news:publication_date` (else the `<lastmod>`), the categories the
//! `news:genres` (so an `Opinion` genre reaches the classifier), and `news:publication` gives
//! the publication's name and language. A `<url>` without a news title is an ordinary page,
//! not a news entry, and is dropped (counted). A `<sitemapindex>` gives no items but the
//! addresses of its child sitemaps in [`Parsed::children`], for the fetcher.

use url::Url;

use super::text::{cap, collapse, guess};
use super::xml::{self, Attr, Handler, Name};
use super::{Parsed, RawItem};

/// Most child sitemaps taken from one index (the rest are ignored and reported).
pub const MAX_CHILDREN: usize = 1000;

/// Parses a body fetched from `base`, decoded by its charset (see [`super::charset`]).
pub fn parse(body: &[u8], base: &Url, content_type: Option<&str>) -> Parsed {
    super::parse_xml(body, base, content_type, parse_text)
}

/// Parses a sitemap (already decoded to text) fetched from `base`.
pub fn parse_text(text: &str, base: &Url) -> Parsed {
    let mut r = Reader::default();
    let err = xml::walk(text, base, &mut r);
    let mut out = r.out;
    if r.children_over > 0 {
        out.error = Some(format!(
            "sitemap index lists more than {MAX_CHILDREN} sitemaps; the other {} were ignored",
            r.children_over
        ));
    }
    if err.is_some() {
        out.error = err;
    } else if !matches!(r.root.as_deref(), Some("urlset" | "sitemapindex")) {
        out.error = Some(match r.root {
            Some(root) => format!("not a sitemap (its root element is <{root}>)"),
            None => "no XML elements: not a sitemap".into(),
        });
    }
    out
}

#[derive(Default)]
struct Url_ {
    loc: Option<String>,
    title: Option<String>,
    date: Option<String>,
    lastmod: Option<String>,
    genres: Option<String>,
    publication: Option<String>,
    language: Option<String>,
}

#[derive(Default)]
struct Reader {
    out: Parsed,
    root: Option<String>,
    path: Vec<String>,
    cur: Option<Url_>,
    /// `<loc>` of a `<sitemap>` in an index.
    child: Option<String>,
    in_sitemap: bool,
    text: String,
    base: Option<Url>,
    children_over: usize,
}

impl Handler for Reader {
    fn start(&mut self, name: &Name, _attrs: &[Attr], base: &Url) {
        let local = name.local.to_ascii_lowercase();
        if self.root.is_none() {
            self.root = Some(local.clone());
        }
        match local.as_str() {
            "url" => self.cur = Some(Url_::default()),
            "sitemap" if self.root.as_deref() == Some("sitemapindex") => {
                self.in_sitemap = true;
                self.child = None;
            }
            _ => {}
        }
        self.path.push(local);
        self.text.clear();
        self.base = Some(base.clone());
    }

    fn text(&mut self, text: &str) {
        if self.text.len() < 1 << 20 {
            self.text.push_str(text);
        }
    }

    fn end(&mut self, _name: &Name) {
        let local = self.path.pop().unwrap_or_default();
        let text = std::mem::take(&mut self.text);
        let parent = self.path.last().map(String::as_str);
        if self.in_sitemap {
            match local.as_str() {
                "loc" => self.child = Some(text),
                "sitemap" => {
                    self.in_sitemap = false;
                    let base = self.base.clone();
                    if let (Some(loc), Some(base)) = (self.child.take(), base) {
                        match resolve(&base, &loc) {
                            Some(u) if self.out.children.len() < MAX_CHILDREN => {
                                if !self.out.children.contains(&u) {
                                    self.out.children.push(u);
                                }
                            }
                            Some(_) => self.children_over += 1,
                            None => self.out.dropped += 1,
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let Some(cur) = self.cur.as_mut() else {
            return;
        };
        match (local.as_str(), parent) {
            ("loc", Some("url")) => cur.loc = Some(text),
            ("lastmod", Some("url")) => cur.lastmod = Some(text),
            ("title", Some("news")) => cur.title = Some(text),
            ("publication_date", Some("news")) => cur.date = Some(text),
            ("genres", Some("news")) => cur.genres = Some(text),
            ("name", Some("publication")) => cur.publication = Some(collapse(&text)),
            ("language", Some("publication")) => cur.language = Some(collapse(&text)),
            ("url", _) => {
                let u = self.cur.take().expect("checked");
                let base = self.base.clone().expect("a start came first");
                self.push(u, &base);
            }
            _ => {}
        }
    }
}

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
    fn push(&mut self, u: Url_, base: &Url) {
        let link = u.loc.as_deref().and_then(|l| resolve(base, l));
        let headline = u
            .title
            .map(|t| cap(guess(&t), super::feed::MAX_HEADLINE))
            .unwrap_or_default();
        let published = u
            .date
            .as_deref()
            .and_then(super::dates::parse)
            .or_else(|| u.lastmod.as_deref().and_then(super::dates::parse));
        let (Some(link), false) = (link, headline.is_empty()) else {
            self.out.dropped += 1;
            self.out.rejected.push((
                self.out.items.len(),
                RawItem {
                    headline,
                    link: u.loc.unwrap_or_default().trim().to_string(),
                    published,
                    ..RawItem::default()
                },
            ));
            return;
        };
        let category = u
            .genres
            .map(|g| {
                g.split(',')
                    .map(collapse)
                    .filter(|g| !g.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        self.out.items.push(RawItem {
            headline,
            link,
            published,
            category,
            publication: u.publication.filter(|p| !p.is_empty()),
            language: u.language.filter(|l| !l.is_empty()),
            ..RawItem::default()
        });
    }
}

/// W3C datetime (full, or date only as midnight UTC).
pub fn parse_w3c(s: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    super::dates::parse(s)
}
