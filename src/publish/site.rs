//! The static pages, rendered with maud (every interpolated string is HTML-escaped).
//!
//! Every page exists in Kannada (`kn/…`) and in English (`en/…`), each linking to its twin;
//! the root `index.html` is the Kannada front page. Pages are plain HTML with one small
//! inline style sheet: no scripts, no web fonts, nothing fetched from anywhere else, so they
//! work from disk and without JavaScript. Headlines keep the publisher's words (less
//! control and bidirectional characters, see `rows::plain`) and carry their own `lang`;
//! every headline and outlet name sits in a `<bdi>`, so right-to-left or mixed text cannot
//! reorder what stands beside it; times are shown in the configured zone with the UTC
//! instant in `<time datetime>`. A headline is shown only with an http(s) link.
//!
//! Every page's head names its canonical address, its twins in both languages and
//! `x-default` (the Kannada page), absolute from `--base-url`; a description in its language;
//! the Atom feed of its headlines where it has one ([`super::feeds`]); and the icon. The root
//! index is a copy of the Kannada front page and names `kn/index.html` as its canonical
//! address, so each page has one address (and the root keeps showing the site's default
//! language to whoever types the bare address). No list is ever empty: a list with nothing
//! to show is not written.
//!
//! Layout of `site/`:
//!
//! ```text
//! index.html                    the front page (Kannada)
//! LANG/index.html               the front page: the newest headlines, by topic
//! LANG/days/index.html          the archive: one line per kept day, with its open data
//! LANG/days/DAY.html            a day's headlines, by topic (at most DAY_TOPIC_MAX each)
//! LANG/days/DAY/TOPIC.html      a day's headlines on a topic, where there are more
//!                               (at most DAY_TOPIC_PAGE_MAX; the open data has them all)
//! LANG/topics/index.html        the topics
//! LANG/topics/TOPIC.html        a topic's newest headlines, by date (at most LIST_MAX)
//! LANG/outlets/index.html       outlets read, opted out, refused or stopped, since when
//! LANG/outlets/SLUG.html        an outlet's newest headlines, by date (at most LIST_MAX)
//! LANG/stories/index.html      the stories: one event as several outlets tell it
//! LANG/stories/ID.html         a story: each outlet's headline (see `stories`)
//! LANG/fetching.html            How Huduku fetches
//! fetching/index.html           the English page again, at the address the user agent names
//! LANG/publishers.html          For publishers: opting out, permission, recognising HudukuBot
//! LANG/takedowns.html           Takedowns: removing one headline; how many were removed
//! LANG/privacy.html             Privacy: what is kept, for how long, what readers send
//! LANG/feeds/…                  Atom feeds of the front page, each topic, each outlet
//! sitemap.xml, robots.txt, favicon.svg
//! data/                         the open data (see `export`)
//! ```
//!
//! No page grows with the number of headlines: each list has its bound below, so a page
//! holds at most DAY_TOPIC_PAGE_MAX headlines (a day's page at most DAY_TOPIC_MAX per
//! topic), and a kept day adds at most two pages per topic and language. Only the open
//! data has every headline.
//!
//! Rendering is in two parts, so that publish holds one day at a time: [`render_day`] for
//! a day's pages, from that day's list alone, and [`render_rest`] for the pages that span
//! the days, from the bounded lists [`Lists`] gathered while the days went by.

use anyhow::{Context, Result};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::Path;

use super::feeds::Feed;
use super::fetching::Rules;
use super::i18n::{self, Lang, Text, Zone, date, day_name, since, topic_label};
use super::outlets::{Outlet, Why};
use super::rows::{Pool, Row};
use crate::records::DateSource;

/// Headlines on the front page, newest first.
pub const FRONT_MAX: usize = 120;
/// Headlines per topic on a day's page; a topic with more has a page of its own for the day.
pub const DAY_TOPIC_MAX: usize = 100;
/// Headlines on a day's page of one topic, newest first; the day's open data has the rest.
pub const DAY_TOPIC_PAGE_MAX: usize = 1000;
/// Headlines on a topic's or an outlet's page, newest first.
pub const LIST_MAX: usize = 300;

/// The colours of the style sheet (text and background pairs are checked for contrast).
pub const INK: &str = "#1a1a1a";
pub const PAPER: &str = "#ffffff";
pub const MUTED: &str = "#555555";
pub const LINK: &str = "#0b4f9c";
pub const OPINION: &str = "#7a2e00";
pub const FOCUS: &str = "#b35c00";

/// Kannada-capable system fonts first for Kannada text; nothing is downloaded.
const KANNADA_FONTS: &str = "\"Noto Sans Kannada\",\"Nirmala UI\",Tunga,\"Kannada Sangam MN\",\"Kannada MN\",\"Lohit Kannada\"";

pub(super) fn style() -> String {
    format!(
        "body{{margin:0;font:1rem/1.55 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto Sans\",{KANNADA_FONTS},sans-serif;color:{INK};background:{PAPER}}}\
:lang(kn){{font-family:{KANNADA_FONTS},\"Noto Sans\",system-ui,sans-serif;line-height:1.7}}\
header,main,footer{{max-width:52rem;margin:0 auto;padding:0 1rem;box-sizing:border-box}}\
.skip{{position:absolute;left:-9999px}}.skip:focus{{left:1rem;top:.5rem;background:{PAPER};padding:.5rem;z-index:1}}\
header{{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.25rem 1rem;padding-top:.75rem;border-bottom:1px solid #ccc}}\
.brand{{font-weight:700;font-size:1.3rem;margin:0}}.brand a{{color:{INK};text-decoration:none}}\
nav{{flex-basis:100%}}nav ul{{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.1rem;margin:.4rem 0 .6rem;padding:0}}\
nav a[aria-current]{{color:{INK};font-weight:700;text-decoration:none}}\
a{{color:{LINK}}}a:focus-visible{{outline:3px solid {FOCUS};outline-offset:2px}}\
h1{{font-size:1.5rem;line-height:1.3;margin:1.1rem 0 .4rem}}\
h2{{font-size:1.15rem;margin:1.6rem 0 .3rem;padding-bottom:.2rem;border-bottom:1px solid #ddd}}\
ul.hl,ul.st{{list-style:none;padding:0;margin:0}}ul.hl li,ul.st li{{padding:.5rem 0;border-bottom:1px solid #eee}}\
a.h,a.st{{font-weight:600;text-decoration:none;overflow-wrap:anywhere}}a.h:hover,a.h:focus,a.st:hover,a.st:focus{{text-decoration:underline}}\
.meta{{display:block;color:{MUTED};font-size:.875rem}}.meta a{{color:{MUTED}}}\
.op{{display:inline-block;margin-left:.4rem;padding:0 .35rem;border:1px solid {OPINION};border-radius:.2rem;color:{OPINION};font-size:.8rem;font-weight:700;line-height:1.5}}\
.note{{color:{MUTED}}}code{{font-size:.9em;overflow-wrap:anywhere}}\
footer{{margin-top:2.5rem;padding-top:.8rem;padding-bottom:1.5rem;border-top:1px solid #ccc;color:{MUTED};font-size:.875rem}}footer a{{color:{LINK}}}\
@media (min-width:60rem){{body{{font-size:1.0625rem}}}}\
@media (min-width:76rem){{header,main,footer{{max-width:76rem}}main>p,main>ul{{max-width:48rem}}.topics{{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:0 3rem;align-items:start}}}}"
    )
}

/// The site's inputs.
pub struct Site<'a> {
    /// The kept days, oldest first, with how many public headlines each has.
    pub days: &'a BTreeMap<String, usize>,
    pub pool: &'a Pool,
    pub outlets: &'a [Outlet],
    /// The outlets with pages of their own, and their file names.
    pub slugs: &'a BTreeMap<String, String>,
    pub zone: &'a Zone,
    pub licence: &'a str,
    pub rules: &'a Rules,
    /// Where the site is served, absolute and ending in `/` (`https://huduku.org/`): for
    /// canonical links, `hreflang` and anything read away from the site (feeds, sitemap).
    pub base: &'a str,
    /// The removals in force, counted (never listed) on the takedowns page.
    pub removed: Removed,
    /// How many days the pages keep (`--days`).
    pub window: i64,
    /// The ids (thumbprints) of the keys the key directory publishes, the one in use first.
    pub keyids: &'a [String],
    /// When the newest public headline was found (its `first_seen`): the front page's
    /// "updated" line. From the kept files, never the clock, so a replay shows the same.
    pub as_of: Option<chrono::DateTime<chrono::Utc>>,
    /// The stories of the front page and the story pages, ranked ([`super::stories`]).
    pub stories: &'a [crate::stories::Story],
}

impl Site<'_> {
    /// A page's absolute address, from its path under the site's root (any byte but
    /// letters, digits, `-._~` and `/` percent-encoded).
    pub fn absolute(&self, path: &str) -> String {
        let mut url = String::with_capacity(self.base.len() + path.len());
        url.push_str(self.base);
        for b in path.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
                url.push(b as char);
            } else {
                url.push_str(&format!("%{b:02X}"));
            }
        }
        url
    }
}

/// How many headlines the removals in force take off the pages, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    /// Headlines removed on request (`takedowns.csv`).
    pub taken_down: usize,
    /// Headlines whose article a re-check found withdrawn.
    pub withdrawn: usize,
}

/// Headlines a page lists (at most its bound, newest first), and how many there are.
#[derive(Debug)]
pub struct Listing<R> {
    pub rows: Vec<R>,
    pub total: usize,
}

impl<R> Default for Listing<R> {
    fn default() -> Self {
        Listing {
            rows: Vec::new(),
            total: 0,
        }
    }
}

/// The pages that span the days, each from a bounded list.
pub struct Lists<R> {
    /// The newest headlines of all (at most FRONT_MAX).
    pub front: Vec<R>,
    /// Per topic of the taxonomy, its newest (at most LIST_MAX).
    pub topics: BTreeMap<&'static str, Listing<R>>,
    /// Per outlet with public headlines, its newest (at most LIST_MAX).
    pub outlets: BTreeMap<String, Listing<R>>,
}

/// A day's headlines per topic (in the taxonomy's order): the first DAY_TOPIC_PAGE_MAX
/// of each, newest first, and how many the topic has that day.
pub type DayTopics = BTreeMap<usize, Listing<Row>>;

/// The position of a headline's topic in the taxonomy (`other` for any it does not know).
pub fn topic_index(topic: &str) -> usize {
    crate::classify::TOPICS
        .iter()
        .position(|t| *t == topic)
        .or_else(|| crate::classify::TOPICS.iter().position(|t| *t == "other"))
        .unwrap_or(usize::MAX)
}

/// A relative link from one page to another, both named from the site's root.
pub fn rel(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

/// The `lang` attribute for a record's language, if it looks like a language tag.
pub(super) fn lang_tag(s: &str) -> Option<&str> {
    let ok = !s.is_empty()
        && s.len() <= 35
        && s.split('-').all(|part| {
            !part.is_empty() && part.len() <= 8 && part.chars().all(|c| c.is_ascii_alphanumeric())
        });
    ok.then_some(s)
}

/// Whether a link may be shown: http(s) only. (Removals already dropped every other link;
/// this keeps the pages safe whatever reaches them, at the cost of a prefix test.)
pub(super) fn safe_link(link: &str) -> bool {
    let lower = |n: usize| link.get(..n).map(str::to_ascii_lowercase);
    lower(7).is_some_and(|p| p == "http://") || lower(8).is_some_and(|p| p == "https://")
}

/// A short stable file name for each outlet: its words in ASCII (Kannada in Latin letters,
/// see [`i18n::latin`]), or a hash of its name when nothing readable is left; two names that
/// give the same words (or `index`, the list's own page) get a piece of their hash too.
pub fn slugs<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    let names: BTreeSet<&str> = names.into_iter().collect();
    let hash = |n: &str| crate::store::sha256_hex(n.as_bytes())[..10].to_string();
    let base = |n: &str| {
        let mut s = String::new();
        for c in i18n::latin(n).chars() {
            if c.is_ascii_alphanumeric() {
                s.push(c.to_ascii_lowercase());
            } else if !s.is_empty() && !s.ends_with('-') {
                s.push('-');
            }
        }
        let s: String = s.trim_end_matches('-').chars().take(48).collect();
        if s.is_empty() {
            format!("o-{}", hash(n))
        } else {
            s
        }
    };
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for n in &names {
        *count.entry(base(n)).or_default() += 1;
    }
    names
        .iter()
        .map(|n| {
            let b = base(n);
            let slug = if count[&b] > 1 || b == "index" {
                format!("{b}-{}", &hash(n)[..6])
            } else {
                b
            };
            (n.to_string(), slug)
        })
        .collect()
}

/// What a page is rendered with: the site, its language, and where it sits.
pub(super) struct Ctx<'a> {
    pub site: &'a Site<'a>,
    pub lang: Lang,
    pub t: &'static Text,
    /// This page, named from the site's root.
    pub path: String,
    style: &'a str,
    /// The page's meta description; the site's tagline unless set ([`Ctx::described`]).
    description: Option<String>,
    /// The feed of this page's headlines, if it has one ([`Ctx::with_feed`]).
    feed: Option<Feed>,
}

impl Ctx<'_> {
    /// The page described thus in its head (in the page's language).
    pub fn described(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
    /// The page has this feed of its headlines, linked from its head and its body.
    pub fn with_feed(mut self, feed: Feed) -> Self {
        self.feed = Some(feed);
        self
    }
    /// This page in a language, named from the site's root: the same place under the
    /// language's folder (the root index is the default language's front page).
    pub fn in_lang(&self, lang: Lang) -> String {
        // A page outside the language directories (the root index, `fetching/index.html`)
        // stands for `LANG/index.html` or `LANG/NAME.html`.
        match self.path.split_once('/') {
            Some((l, rest)) if Lang::ALL.iter().any(|x| x.code() == l) => {
                format!("{}/{rest}", lang.code())
            }
            Some((name, _)) => format!("{}/{name}.html", lang.code()),
            None => format!("{}/index.html", lang.code()),
        }
    }
    /// The page's canonical address: its own, but for the root index, which is a copy of
    /// the default language's front page and names that page.
    pub fn canonical(&self) -> String {
        self.site.absolute(&self.in_lang(self.lang))
    }
    /// A link from this page to another, named from the site's root.
    pub fn href(&self, to: &str) -> String {
        rel(&self.path, to)
    }
    /// A page of this page's language, named from the site's root (`kn/NAME`).
    pub fn page(&self, name: &str) -> String {
        format!("{}/{name}", self.lang.code())
    }
    fn outlet_href(&self, outlet: &str) -> Option<String> {
        self.site
            .slugs
            .get(outlet)
            .map(|s| self.href(&self.page(&format!("outlets/{s}.html"))))
    }
    fn when(&self, p: &Row) -> Markup {
        html! {
            time datetime=(crate::time::fmt(p.published)) { (self.site.zone.show(p.published, self.lang)) }
            @if p.date_source == DateSource::FirstSeen { " (" (self.t.first_seen) ")" }
        }
    }
}

fn headline(cx: &Ctx, p: &Row) -> Markup {
    if !safe_link(p.link()) {
        return html! {};
    }
    let pool = cx.site.pool;
    let (lang, outlet) = (pool.get(p.lang), pool.get(p.outlet));
    html! {
        li {
            a.h href=(p.link()) lang=[lang_tag(lang)] { bdi { (p.headline()) } }
            @if p.opinion { " " span.op { (cx.t.opinion) } }
            span.meta {
                @match cx.outlet_href(outlet) {
                    Some(h) => { a href=(h) lang=[lang_tag(lang)] { bdi { (outlet) } } }
                    None => { bdi lang=[lang_tag(lang)] { (outlet) } }
                }
                " · " (cx.when(p))
            }
        }
    }
}

/// A list of headlines; nothing at all when none of them may be shown (never an empty list).
fn headlines<'r, R: std::borrow::Borrow<Row> + 'r>(
    cx: &Ctx,
    rows: impl IntoIterator<Item = &'r R>,
) -> Markup {
    let rows: Vec<&Row> = rows
        .into_iter()
        .map(|r| r.borrow())
        .filter(|p| safe_link(p.link()))
        .collect();
    html! {
        @if !rows.is_empty() { ul.hl { @for p in rows { (headline(cx, p)) } } }
    }
}

/// A headline's topic as the pages file it: one of the taxonomy's, else `other`.
pub fn topic_of(topic: &str) -> &'static str {
    crate::classify::TOPICS
        .iter()
        .copied()
        .find(|t| *t == topic)
        .unwrap_or("other")
}

/// Headlines grouped by topic in the taxonomy's order, each group newest first.
fn group_by_topic<'a>(pool: &Pool, list: &[&'a Row]) -> BTreeMap<usize, Listing<&'a Row>> {
    let mut groups: BTreeMap<usize, Listing<&Row>> = BTreeMap::new();
    for p in list {
        let g = groups.entry(topic_index(pool.get(p.topic))).or_default();
        g.rows.push(p);
        g.total += 1;
    }
    groups
}

/// Headlines by topic, at most `cap` per topic; `more(topic, shown, total)` gives the
/// link that follows a topic's list, if any.
fn by_topic<R: std::borrow::Borrow<Row>>(
    cx: &Ctx,
    groups: &BTreeMap<usize, Listing<R>>,
    cap: usize,
    more: impl Fn(&str, usize, usize) -> Option<(String, String)>,
) -> Markup {
    html! {
        div.topics { @for items in groups.values() {
            @let topic = topic_of(cx.site.pool.get(items.rows[0].borrow().topic));
            @let label = topic_label(topic, cx.lang);
            section aria-labelledby={ "t-" (topic) } {
                h2 id={ "t-" (topic) } { (label) }
                (headlines(cx, items.rows.iter().take(cap)))
                @if let Some((href, text)) = more(topic, items.total.min(cap), items.total) {
                    p.more { a href=(href) { (text) } }
                }
            }
        } }
    }
}

fn all_of_day(label: &str, total: usize, day: &str, lang: Lang) -> String {
    if total > DAY_TOPIC_PAGE_MAX {
        let cap = DAY_TOPIC_PAGE_MAX;
        return match lang {
            Lang::En => format!(
                "The newest {cap} of {total} headlines on {label}, {}",
                day_name(day, lang)
            ),
            Lang::Kn => format!(
                "{label}, {}: {total} ಮುಖ್ಯಾಂಶಗಳಲ್ಲಿ ಹೊಸ {cap}",
                day_name(day, lang)
            ),
        };
    }
    match lang {
        Lang::En => format!("All {total} headlines on {label}, {}", day_name(day, lang)),
        Lang::Kn => format!("{label}, {}: ಎಲ್ಲ {total} ಮುಖ್ಯಾಂಶಗಳು", day_name(day, lang)),
    }
}

fn more_in(label: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("All headlines on {label}"),
        Lang::Kn => format!("{label}: ಎಲ್ಲ ಮುಖ್ಯಾಂಶಗಳು"),
    }
}

/// Headlines grouped by the reader's calendar day, newest first.
fn by_date(cx: &Ctx, list: &[&Row]) -> Markup {
    let mut groups: Vec<(chrono::NaiveDate, Vec<&Row>)> = Vec::new();
    for p in list {
        let d = cx.site.zone.local_day(p.published);
        match groups.last_mut() {
            Some((last, items)) if *last == d => items.push(p),
            _ => groups.push((d, vec![p])),
        }
    }
    html! {
        @for (d, items) in &groups {
            section {
                h2 { (date(*d, cx.lang)) }
                (headlines(cx, items.iter().copied()))
            }
        }
    }
}

/// The whole page around a body: head, skip link, header with the language switch and
/// the site's sections, main with the one `h1`, footer.
pub(super) fn layout(cx: &Ctx, title: &str, current: &str, body: Markup) -> Markup {
    layout_h1(cx, title, html! { (title) }, current, body)
}

/// [`layout`] with an `h1` of its own (publisher text in it isolated in `bdi`).
pub(super) fn layout_h1(cx: &Ctx, title: &str, h1: Markup, current: &str, body: Markup) -> Markup {
    let t = cx.t;
    let other = cx.lang.other();
    // The twin page in the other language; the root index's twin is the other front page.
    let twin = cx.in_lang(other);
    let description = cx.description.as_deref().unwrap_or(t.tagline);
    let feed = cx.feed.as_ref().map(|f| {
        (
            cx.site.absolute(&f.path(cx.lang)),
            cx.href(&f.path(cx.lang)),
        )
    });
    let (licence, licence_lang) = i18n::licence(cx.site.licence, cx.lang);
    let sections = [
        ("index.html", t.latest),
        ("days/index.html", t.archive),
        ("topics/index.html", t.topics),
        ("outlets/index.html", t.outlets),
        ("videos.html", t.videos),
        ("fetching.html", t.fetching),
    ];
    html! {
        (DOCTYPE)
        html lang=(cx.lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · " (t.site) }
                meta name="description" content=(description);
                link rel="canonical" href=(cx.canonical());
                @for lang in Lang::ALL {
                    link rel="alternate" hreflang=(lang.code()) href=(cx.site.absolute(&cx.in_lang(lang)));
                }
                link rel="alternate" hreflang="x-default" href=(cx.site.absolute(&cx.in_lang(Lang::ALL[0])));
                @if let Some((abs, _)) = &feed {
                    link rel="alternate" type="application/atom+xml" title={ (title) " · " (t.site) } href=(abs);
                }
                link rel="icon" type="image/svg+xml" href=(cx.href(super::feeds::FAVICON));
                style { (PreEscaped(cx.style)) }
            }
            body {
                a.skip href="#main" { (t.skip) }
                header {
                    p.brand { a href=(cx.href(&cx.page("index.html"))) { (t.site) } }
                    a.switch href=(cx.href(&twin)) hreflang=(other.code()) lang=(other.code()) { (other.text().read_in) }
                    nav aria-label=(t.nav) {
                        ul {
                            @for (page, label) in sections {
                                li {
                                    @if page == current {
                                        // The page itself, or (below it) the section it belongs to.
                                        a href=(cx.href(&cx.page(page))) aria-current=(if cx.path == cx.page(page) || cx.path == page { "page" } else { "true" }) { (label) }
                                    } @else {
                                        a href=(cx.href(&cx.page(page))) { (label) }
                                    }
                                }
                            }
                        }
                    }
                }
                main id="main" {
                    h1 { (h1) }
                    (body)
                    @if let Some((_, rel)) = &feed {
                        p.feed { a href=(rel) type="application/atom+xml" { (t.feed) } }
                    }
                }
                footer {
                    p { (t.link_note) }
                    nav aria-label=(t.about_nav) {
                        ul {
                            @for (page, label) in [
                                ("publishers.html", t.publishers),
                                ("takedowns.html", t.takedowns),
                                ("privacy.html", t.privacy),
                            ] {
                                li {
                                    @if cx.path == cx.page(page) {
                                        a href=(cx.href(&cx.page(page))) aria-current="page" { (label) }
                                    } @else {
                                        a href=(cx.href(&cx.page(page))) { (label) }
                                    }
                                }
                            }
                        }
                    }
                    p {
                        (t.licence) ": " span lang=[licence_lang] { (licence) } ". "
                        a href=(cx.href("data/README.txt")) { (t.open_data) ": " (t.readme) }
                    }
                }
            }
        }
    }
}

fn headline_of_day(day: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Headlines of {}", day_name(day, lang)),
        Lang::Kn => format!("{} ರ ಮುಖ್ಯಾಂಶಗಳು", day_name(day, lang)),
    }
}

fn data_links(cx: &Ctx, day: &str) -> Markup {
    let name = day_name(day, cx.lang);
    html! {
        a href=(cx.href(&format!("data/headlines-{day}.csv"))) { (cx.t.csv) ", " (name) }
        " · "
        a href=(cx.href(&format!("data/headlines-{day}.jsonl"))) { (cx.t.jsonl) ", " (name) }
    }
}

/// A site (origin) as readers know it: its host (and port), without the scheme.
fn site_name(site: &str) -> &str {
    site.split_once("://").map_or(site, |(_, rest)| rest)
}

/// What the public list says of an outlet: read (and whether its sources answer), or each
/// reason it is not, since when, on which site, and what the site did, in plain words.
fn outlet_status(cx: &Ctx, o: &Outlet) -> Markup {
    let t = cx.t;
    let f = &o.failing;
    html! {
        @if o.stopped.is_empty() && o.awaiting_check() {
            span.stop { (t.awaiting_check) }
        } @else if o.stopped.is_empty() && o.listed {
            @if f.count > 0 && f.count >= f.of {
                span.stop { (i18n::not_answering(f.count, f.of, f.since, cx.lang)) }
            } @else if f.count > 0 {
                span { (t.status_followed) "; " (i18n::not_answering(f.count, f.of, f.since, cx.lang)) }
            } @else {
                span { (t.status_followed) }
            }
        }
        @for (i, s) in o.stopped.iter().enumerate() {
            @if i > 0 { br; }
            span.stop {
                @match s.why {
                    Why::OptedOut => { (t.opted_out) }
                    Why::Refused => { (t.refused) }
                    Why::Halted => { (t.halted) }
                    Why::Robots => { (t.robots_refused) }
                }
                " " (since(s.since, cx.lang))
                @if let Some(site) = &s.site { " (" (site_name(site)) ")" }
                @if let Some(w) = super::reasons::words(&s.reason, cx.lang) { ": " (w) }
                "."
            }
        }
    }
}

fn outlet_item(cx: &Ctx, o: &Outlet) -> Markup {
    html! {
        li {
            @match cx.outlet_href(&o.name) {
                Some(h) => { a.h href=(h) lang=[lang_tag(&o.lang)] { bdi { (o.name) } } }
                None => { strong lang=[lang_tag(&o.lang)] { bdi { (o.name) } } }
            }
            span.meta {
                @if let Some(l) = lang_tag(&o.lang) {
                    @match l { "kn" => { (Lang::Kn.text().name) } "en" => { (Lang::En.text().name) } other => { (other) } }
                    @if !o.sites.is_empty() { " · " }
                }
                @for (i, s) in o.sites.iter().enumerate() {
                    @if i > 0 { ", " }
                    (site_name(s))
                }
            }
            span.meta { (outlet_status(cx, o)) }
        }
    }
}

/// The outlets with pages of their own: outlets read, and outlets with public headlines
/// in the kept days.
pub fn outlet_pages<'a>(
    with_headlines: impl IntoIterator<Item = &'a str>,
    outlets: &'a [Outlet],
) -> BTreeMap<String, String> {
    let mut names: BTreeSet<&str> = with_headlines.into_iter().collect();
    names.extend(
        outlets
            .iter()
            .filter(|o| o.followed())
            .map(|o| o.name.as_str()),
    );
    slugs(names)
}

pub(super) fn ctx<'a>(site: &'a Site<'a>, lang: Lang, path: String, style: &'a str) -> Ctx<'a> {
    Ctx {
        site,
        lang,
        t: lang.text(),
        path,
        style,
        description: None,
        feed: None,
    }
}

/// Writes a day's pages in both languages: the day's page and, for each topic with more
/// than DAY_TOPIC_MAX that day, the topic's page of the day. `prev` and `next` are the
/// kept days around it. Returns the files written, named from the site's root.
pub fn render_day(
    dir: &Path,
    site: &Site,
    day: &str,
    prev: Option<&str>,
    next: Option<&str>,
    topics: &DayTopics,
) -> Result<Vec<String>> {
    let style = style();
    let mut pages = Out {
        dir,
        written: Vec::new(),
    };
    let count = site.days.get(day).copied().unwrap_or(0);
    for lang in Lang::ALL {
        let t = lang.text();
        let cx = ctx(
            site,
            lang,
            format!("{}/days/{day}.html", lang.code()),
            &style,
        )
        .described(i18n::describe_day(day, count, lang));
        let body = html! {
            p.note { (t.day_note) " " (i18n::count(count, lang)) "." }
            p { (data_links(&cx, day)) }
            @if count == 0 { p { (t.no_headlines) } }
            (by_topic(&cx, topics, DAY_TOPIC_MAX, |topic, shown, total| (shown < total).then(|| (
                cx.href(&cx.page(&format!("days/{day}/{topic}.html"))),
                all_of_day(topic_label(topic, lang), total, day, lang),
            ))))
            // The days around it, when there are any (no empty list).
            @if prev.is_some() || next.is_some() {
                nav aria-label=(t.archive) {
                    ul {
                        @if let Some(d) = prev { li { a href=(cx.href(&cx.page(&format!("days/{d}.html")))) { "← " (headline_of_day(d, lang)) } } }
                        @if let Some(d) = next { li { a href=(cx.href(&cx.page(&format!("days/{d}.html")))) { (headline_of_day(d, lang)) " →" } } }
                    }
                }
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, &headline_of_day(day, lang), "days/index.html", body).into_string(),
        )?;
        // A topic with more headlines that day than the day page lists gets its own page.
        for items in topics.values() {
            if items.total <= DAY_TOPIC_MAX {
                continue;
            }
            let topic = topic_of(site.pool.get(items.rows[0].topic));
            let cx = ctx(
                site,
                lang,
                format!("{}/days/{day}/{topic}.html", lang.code()),
                &style,
            )
            .described(i18n::describe_topic(
                topic_label(topic, lang),
                Some(day),
                lang,
            ));
            let title = format!("{}: {}", topic_label(topic, lang), day_name(day, lang));
            let body = html! {
                p.note { (t.day_note) " " (i18n::count(items.total, lang)) "." }
                p { a href=(cx.href(&cx.page(&format!("days/{day}.html")))) { (headline_of_day(day, lang)) } }
                @if items.total > items.rows.len() { p.note { (t.day_cap_note) " " (data_links(&cx, day)) } }
                (headlines(&cx, &items.rows))
            };
            pages.insert(
                cx.path.clone(),
                layout(&cx, &title, "days/index.html", body).into_string(),
            )?;
        }
    }
    Ok(pages.written)
}

/// Writes the pages that span the days, in both languages: the front page (and the root
/// index), the archive, the topics, the outlets and How Huduku fetches. Returns the files
/// written, named from the site's root.
pub fn render_rest<R: std::borrow::Borrow<Row>>(
    dir: &Path,
    site: &Site,
    lists: &Lists<R>,
) -> Result<Vec<String>> {
    let style = style();
    fn refs<R: std::borrow::Borrow<Row>>(l: &[R]) -> Vec<&Row> {
        l.iter().map(|r| r.borrow()).collect()
    }
    let newest = refs(&lists.front);
    let front_groups = group_by_topic(site.pool, &newest);
    // Each page is written as soon as it is rendered, so memory holds one page at a time.
    let mut pages = Out {
        dir,
        written: Vec::new(),
    };

    for lang in Lang::ALL {
        let t = lang.text();
        let cx_at = |path: String| ctx(site, lang, path, &style);

        // Front page (and, for the default language, the root index).
        let front = |cx: &Ctx| {
            let body = html! {
                p { (t.tagline) }
                @if let Some(at) = site.as_of {
                    p.note { (t.updated) ": " time datetime=(crate::time::fmt(at)) { (site.zone.show(at, lang)) } "." }
                }
                (super::stories::front_section(cx, site.stories))
                @if newest.is_empty() {
                    p { (t.no_headlines) }
                } @else {
                    p.note { (t.latest_note) }
                    (by_topic(cx, &front_groups, usize::MAX, |topic, _, _| Some((
                        cx.href(&cx.page(&format!("topics/{topic}.html"))),
                        more_in(topic_label(topic, lang), lang),
                    ))))
                }
                section aria-labelledby="archive" {
                    h2 id="archive" { (t.archive) }
                    ul {
                        @for (day, count) in site.days.iter().rev().take(7) {
                            li { a href=(cx.href(&cx.page(&format!("days/{day}.html")))) { (headline_of_day(day, lang)) } " (" (i18n::count(*count, lang)) ")" }
                        }
                        li { a href=(cx.href(&cx.page("days/index.html"))) { (t.archive) ": " (t.days_kept) } }
                    }
                }
            };
            layout(cx, t.latest, "index.html", body).into_string()
        };
        let cx = cx_at(format!("{}/index.html", lang.code())).with_feed(Feed::Latest);
        pages.insert(cx.path.clone(), front(&cx))?;
        if lang == Lang::ALL[0] {
            let cx = cx_at("index.html".into()).with_feed(Feed::Latest);
            pages.insert(cx.path.clone(), front(&cx))?;
        }

        // The archive.
        let cx = cx_at(format!("{}/days/index.html", lang.code())).described(t.describe_archive);
        let body = html! {
            @if site.days.is_empty() {
                p { (t.no_headlines) }
            } @else {
                ul {
                    @for (day, count) in site.days.iter().rev() {
                        li {
                            a href=(cx.href(&cx.page(&format!("days/{day}.html")))) { (headline_of_day(day, lang)) }
                            " (" (i18n::count(*count, lang)) ")"
                            span.meta { (data_links(&cx, day)) }
                        }
                    }
                }
            }
            p { a href=(cx.href("data/README.txt")) { (t.open_data) ": " (t.readme) } }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, t.archive, "days/index.html", body).into_string(),
        )?;

        // Topic pages.
        let total_of = |topic: &str| lists.topics.get(topic).map_or(0, |l| l.total);
        for topic in crate::classify::TOPICS {
            let cx = cx_at(format!("{}/topics/{topic}.html", lang.code()))
                .described(i18n::describe_topic(topic_label(topic, lang), None, lang))
                .with_feed(Feed::Topic(topic));
            let list: Vec<&Row> = lists
                .topics
                .get(topic)
                .map(|l| refs(&l.rows).into_iter().take(LIST_MAX).collect())
                .unwrap_or_default();
            let total = total_of(topic);
            let body = html! {
                @if list.is_empty() { p { (t.no_headlines) } }
                @if total > list.len() { p.note { (t.cap_note) } }
                (by_date(&cx, &list))
            };
            pages.insert(
                cx.path.clone(),
                layout(&cx, topic_label(topic, lang), "topics/index.html", body).into_string(),
            )?;
        }
        let cx = cx_at(format!("{}/topics/index.html", lang.code())).described(t.describe_topics);
        let body = html! {
            ul {
                @for topic in crate::classify::TOPICS {
                    li {
                        a href=(cx.href(&cx.page(&format!("topics/{topic}.html")))) { (topic_label(topic, lang)) }
                        " (" (i18n::count(total_of(topic), lang)) ")"
                    }
                }
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, t.topics, "topics/index.html", body).into_string(),
        )?;

        // Outlet pages and the list of outlets.
        for (name, slug) in site.slugs {
            let cx = cx_at(format!("{}/outlets/{slug}.html", lang.code()))
                .described(i18n::describe_outlet(name, lang))
                .with_feed(Feed::Outlet(slug.clone()));
            let (list, total) = match lists.outlets.get(name) {
                Some(l) => (
                    refs(&l.rows).into_iter().take(LIST_MAX).collect::<Vec<_>>(),
                    l.total,
                ),
                None => (Vec::new(), 0),
            };
            let info = site.outlets.iter().find(|o| &o.name == name);
            let body = html! {
                @if let Some(o) = info { p.meta { (outlet_status(&cx, o)) } }
                @if list.is_empty() { p { (t.no_headlines) } }
                @if total > list.len() { p.note { (t.cap_note) } }
                (by_date(&cx, &list))
            };
            let (title, h1) = match lang {
                Lang::En => (
                    format!("Headlines from {name}"),
                    html! { "Headlines from " bdi { (name) } },
                ),
                Lang::Kn => (
                    format!("{name}: ಮುಖ್ಯಾಂಶಗಳು"),
                    html! { bdi { (name) } ": ಮುಖ್ಯಾಂಶಗಳು" },
                ),
            };
            pages.insert(
                cx.path.clone(),
                layout_h1(&cx, &title, h1, "outlets/index.html", body).into_string(),
            )?;
        }
        let cx = cx_at(format!("{}/outlets/index.html", lang.code())).described(t.describe_outlets);
        let (read, not_read): (Vec<&Outlet>, Vec<&Outlet>) =
            site.outlets.iter().partition(|o| o.followed());
        let outlet_list = |list: &[&Outlet]| {
            html! {
                @if list.is_empty() {
                    p { (t.none) }
                } @else {
                    ul.hl { @for o in list { (outlet_item(&cx, o)) } }
                }
            }
        };
        let body = html! {
            section aria-labelledby="read" {
                h2 id="read" { (t.followed) }
                p.note { (t.followed_note) }
                (outlet_list(&read))
            }
            section aria-labelledby="not-read" {
                h2 id="not-read" { (t.not_followed) }
                p.note { (t.not_followed_note) }
                (outlet_list(&not_read))
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, t.outlets, "outlets/index.html", body).into_string(),
        )?;

        // How Huduku fetches; the English page also at the address the user agent names,
        // which is where a publisher reading their logs goes.
        let mut at = vec![format!("{}/fetching.html", lang.code())];
        if lang == Lang::En {
            at.extend(super::fetching::user_agent_page(&site.rules.user_agent));
        }
        for path in at {
            let cx = cx_at(path).described(t.describe_fetching);
            let links = super::fetching::Links {
                outlets: cx.href(&cx.page("outlets/index.html")),
                publishers: cx.href(&cx.page("publishers.html")),
                takedowns: cx.href(&cx.page("takedowns.html")),
                privacy: cx.href(&cx.page("privacy.html")),
                english: cx.href("en/fetching.html"),
            };
            let body = super::fetching::body(site.rules, lang, &links);
            pages.insert(
                cx.path.clone(),
                layout(&cx, t.fetching, "fetching.html", body).into_string(),
            )?;
        }
    }

    Ok(pages.written)
}

/// Where pages go, and which have been written.
pub(super) struct Out<'a> {
    pub dir: &'a Path,
    pub written: Vec<String>,
}

impl Out<'_> {
    pub fn insert(&mut self, path: String, html: String) -> Result<()> {
        put(&self.dir.join(&path), html.as_bytes())?;
        self.written.push(path);
        Ok(())
    }
}

/// Writes a file atomically unless it already holds exactly these bytes.
pub fn put(path: &Path, bytes: &[u8]) -> Result<()> {
    let same_size = std::fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64);
    if same_size && std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    crate::store::write_atomic(path, bytes)
}

/// A sink that hashes what it is given and compares it with an old file as it goes.
struct Compare {
    old: Option<std::io::BufReader<std::fs::File>>,
    same: bool,
    hash: sha2::Sha256,
    buf: Vec<u8>,
}

impl Write for Compare {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        self.hash.update(bytes);
        if self.same {
            match &mut self.old {
                Some(old) => {
                    self.buf.resize(bytes.len(), 0);
                    self.same = old.read_exact(&mut self.buf).is_ok() && self.buf == bytes;
                }
                None => self.same = false,
            }
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Like [`put`] for a file too large to hold: `write` makes the bytes into a sink, once to
/// compare them with the file there (and hash them), and once more to write them, to a
/// temporary file beside it that is then renamed over it, only if they differ. Returns
/// the SHA-256 of the bytes, in hex.
pub fn put_with(
    path: &Path,
    write: impl Fn(&mut dyn Write) -> std::io::Result<()>,
) -> Result<String> {
    use sha2::Digest;
    let hex =
        |h: sha2::Sha256| -> String { h.finalize().iter().map(|b| format!("{b:02x}")).collect() };
    let old = std::fs::File::open(path).ok().map(std::io::BufReader::new);
    let mut cmp = Compare {
        same: old.is_some(),
        old,
        hash: sha2::Sha256::new(),
        buf: Vec::new(),
    };
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut cmp);
        write(&mut w).with_context(|| format!("making {}", path.display()))?;
        w.flush()?;
    }
    let ended = |old: &mut std::io::BufReader<std::fs::File>| {
        let mut one = [0u8; 1];
        matches!(old.read(&mut one), Ok(0))
    };
    if cmp.same && cmp.old.as_mut().is_some_and(ended) {
        return Ok(hex(cmp.hash));
    }
    let sum = hex(cmp.hash);
    drop(cmp.old);
    crate::store::write_atomic_with(path, |w| write(w))?;
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luminance(hex: &str) -> f64 {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
        let ch = |shift: u32| {
            let c = ((v >> shift) & 0xff) as f64 / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(16) + 0.7152 * ch(8) + 0.0722 * ch(0)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn text_colours_pass_wcag_aa_on_the_page() {
        for fg in [INK, MUTED, LINK, OPINION] {
            let c = contrast(fg, PAPER);
            assert!(c >= 4.5, "{fg} on {PAPER}: {c:.2}:1 is below 4.5:1");
        }
        // The focus ring is a non-text indicator: 3:1.
        assert!(contrast(FOCUS, PAPER) >= 3.0);
        assert!(style().contains(MUTED) && style().contains(LINK));
    }

    #[test]
    fn relative_links_climb_to_the_root() {
        assert_eq!(rel("index.html", "en/index.html"), "en/index.html");
        assert_eq!(
            rel("kn/days/2026-11-30.html", "data/x.csv"),
            "../../data/x.csv"
        );
        assert_eq!(
            rel("kn/fetching.html", "en/fetching.html"),
            "../en/fetching.html"
        );
    }

    #[test]
    fn slugs_are_stable_and_distinct() {
        let s = slugs([
            "Deccan Daily Chronicle",
            "ನಮ್ಮ ಪತ್ರಿಕೆ",
            "Namma Patrike",
            "ಪ್ರಜಾವಾಣಿ",
            "A.B",
            "a b",
            "Index",
            "العربية",
        ]);
        assert_eq!(s["Deccan Daily Chronicle"], "deccan-daily-chronicle");
        // Kannada names read in Latin letters; two names that read the same are told apart.
        assert_eq!(s["ಪ್ರಜಾವಾಣಿ"], "prajavani");
        assert!(s["ನಮ್ಮ ಪತ್ರಿಕೆ"].starts_with("namma-patrike-"));
        assert!(s["Namma Patrike"].starts_with("namma-patrike-"));
        assert_ne!(s["ನಮ್ಮ ಪತ್ರಿಕೆ"], s["Namma Patrike"]);
        assert_ne!(s["A.B"], s["a b"]);
        // Nothing readable left: a hash; never the outlets list's own page.
        assert!(s["العربية"].starts_with("o-"));
        assert!(s["Index"].starts_with("index-"));
        assert!(
            s.values()
                .all(|v| v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        );
    }

    #[test]
    fn only_language_tags_become_lang_attributes() {
        assert_eq!(lang_tag("kn"), Some("kn"));
        assert_eq!(lang_tag("en-IN"), Some("en-IN"));
        assert_eq!(lang_tag("\"><x"), None);
        assert_eq!(lang_tag(""), None);
        assert!(safe_link("https://a.example/x") && safe_link("HTTP://a.example/"));
        assert!(
            !safe_link("javascript:alert(1)")
                && !safe_link("data:text/html,x")
                && !safe_link("http:")
        );
    }
}
