//! The static pages, rendered with maud (every interpolated string is HTML-escaped).
//!
//! Every page exists in Kannada (`kn/…`) and in English (`en/…`), each linking to its twin;
//! the root `index.html` is the Kannada front page. Pages are plain HTML with one small
//! inline style sheet: no scripts, no web fonts, nothing fetched from anywhere else, so they
//! work from disk and without JavaScript. Headlines keep the publisher's words and carry
//! their own `lang`; times are shown in the configured zone with the UTC instant in
//! `<time datetime>`. A headline is shown only with an http(s) link.
//!
//! Layout of `site/`:
//!
//! ```text
//! index.html                    the front page (Kannada)
//! LANG/index.html               the front page: the newest headlines, by topic
//! LANG/days/index.html          the archive: one line per kept day, with its open data
//! LANG/days/DAY.html            a day's headlines, by topic (at most DAY_TOPIC_MAX each)
//! LANG/days/DAY/TOPIC.html      all of a day's headlines on a topic, where there are more
//! LANG/topics/index.html        the topics
//! LANG/topics/TOPIC.html        a topic's newest headlines, by date
//! LANG/outlets/index.html       outlets read, opted out, refused or stopped, since when
//! LANG/outlets/SLUG.html        an outlet's newest headlines, by date
//! LANG/fetching.html            How Huduku fetches
//! data/                         the open data (see `export`)
//! ```

use anyhow::Result;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::fetching::Rules;
use super::i18n::{Lang, Text, Zone, date, day_name, since, topic_label};
use super::outlets::{Outlet, Why};
use crate::records::{DateSource, Published};

/// Headlines on the front page, newest first.
pub const FRONT_MAX: usize = 120;
/// Headlines per topic on a day's page; a topic with more has a page of its own for the day.
pub const DAY_TOPIC_MAX: usize = 100;
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

fn style() -> String {
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
ul.hl{{list-style:none;padding:0;margin:0}}ul.hl li{{padding:.5rem 0;border-bottom:1px solid #eee}}\
a.h{{font-weight:600;text-decoration:none;overflow-wrap:anywhere}}a.h:hover,a.h:focus{{text-decoration:underline}}\
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
    /// Public headlines per kept day, each list newest first.
    pub days: &'a BTreeMap<String, Vec<Published>>,
    pub outlets: &'a [Outlet],
    pub zone: &'a Zone,
    pub licence: &'a str,
    pub rules: &'a Rules,
}

/// A relative link from one page to another, both named from the site's root.
pub fn rel(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

/// The `lang` attribute for a record's language, if it looks like a language tag.
fn lang_tag(s: &str) -> Option<&str> {
    let ok = !s.is_empty()
        && s.len() <= 35
        && s.split('-').all(|part| {
            !part.is_empty() && part.len() <= 8 && part.chars().all(|c| c.is_ascii_alphanumeric())
        });
    ok.then_some(s)
}

/// Whether a link may be shown: http(s) only. (Removals already dropped every other link;
/// this keeps the pages safe whatever reaches them, at the cost of a prefix test.)
fn safe_link(link: &str) -> bool {
    let lower = |n: usize| link.get(..n).map(str::to_ascii_lowercase);
    lower(7).is_some_and(|p| p == "http://") || lower(8).is_some_and(|p| p == "https://")
}

/// A short stable file name for each outlet: its ASCII words, or a hash of its name.
pub fn slugs<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    let names: BTreeSet<&str> = names.into_iter().collect();
    let hash = |n: &str| crate::store::sha256_hex(n.as_bytes())[..10].to_string();
    let base = |n: &str| {
        let mut s = String::new();
        for c in n.chars() {
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
            let slug = if count[&b] > 1 {
                format!("{b}-{}", &hash(n)[..6])
            } else {
                b
            };
            (n.to_string(), slug)
        })
        .collect()
}

struct Ctx<'a> {
    site: &'a Site<'a>,
    lang: Lang,
    t: &'static Text,
    /// This page, named from the site's root.
    path: String,
    slugs: &'a BTreeMap<String, String>,
    style: &'a str,
}

impl Ctx<'_> {
    fn href(&self, to: &str) -> String {
        rel(&self.path, to)
    }
    fn page(&self, name: &str) -> String {
        format!("{}/{name}", self.lang.code())
    }
    fn outlet_href(&self, outlet: &str) -> Option<String> {
        self.slugs
            .get(outlet)
            .map(|s| self.href(&self.page(&format!("outlets/{s}.html"))))
    }
    fn when(&self, p: &Published) -> Markup {
        html! {
            time datetime=(crate::time::fmt(p.published)) { (self.site.zone.show(p.published, self.lang)) }
            @if p.date_source == DateSource::FirstSeen { " (" (self.t.first_seen) ")" }
        }
    }
}

fn headline(cx: &Ctx, p: &Published) -> Markup {
    if !safe_link(&p.link) {
        return html! {};
    }
    html! {
        li {
            a.h href=(p.link) lang=[lang_tag(&p.lang)] { (p.headline) }
            @if p.opinion { " " span.op { (cx.t.opinion) } }
            span.meta {
                @match cx.outlet_href(&p.outlet) {
                    Some(h) => { a href=(h) lang=[lang_tag(&p.lang)] { (p.outlet) } }
                    None => { span lang=[lang_tag(&p.lang)] { (p.outlet) } }
                }
                " · " (cx.when(p))
            }
        }
    }
}

fn topic_of(p: &Published) -> &'static str {
    crate::classify::TOPICS
        .iter()
        .copied()
        .find(|t| *t == p.topic)
        .unwrap_or("other")
}

/// Headlines grouped by topic in the taxonomy's order, each group newest first.
fn group_by_topic<'a>(list: &[&'a Published]) -> BTreeMap<usize, Vec<&'a Published>> {
    let mut groups: BTreeMap<usize, Vec<&Published>> = BTreeMap::new();
    for p in list {
        let t = topic_of(p);
        let i = crate::classify::TOPICS
            .iter()
            .position(|x| *x == t)
            .unwrap_or(usize::MAX);
        groups.entry(i).or_default().push(p);
    }
    groups
}

/// Headlines by topic, at most `cap` per topic; `more(topic, shown, total)` gives the
/// link that follows a topic's list, if any.
fn by_topic(
    cx: &Ctx,
    list: &[&Published],
    cap: usize,
    more: impl Fn(&str, usize, usize) -> Option<(String, String)>,
) -> Markup {
    let groups = group_by_topic(list);
    html! {
        div.topics { @for items in groups.values() {
            @let topic = topic_of(items[0]);
            @let label = topic_label(topic, cx.lang);
            section aria-labelledby={ "t-" (topic) } {
                h2 id={ "t-" (topic) } { (label) }
                ul.hl { @for p in items.iter().take(cap) { (headline(cx, p)) } }
                @if let Some((href, text)) = more(topic, items.len().min(cap), items.len()) {
                    p.more { a href=(href) { (text) } }
                }
            }
        } }
    }
}

fn all_of_day(label: &str, total: usize, day: &str, lang: Lang) -> String {
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
fn by_date(cx: &Ctx, list: &[&Published]) -> Markup {
    let mut groups: Vec<(chrono::NaiveDate, Vec<&Published>)> = Vec::new();
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
                ul.hl { @for p in items { (headline(cx, p)) } }
            }
        }
    }
}

/// The whole page around a body: head, skip link, header with the language switch and
/// the site's sections, main with the one `h1`, footer.
fn layout(cx: &Ctx, title: &str, current: &str, body: Markup) -> Markup {
    let t = cx.t;
    let other = cx.lang.other();
    // The twin page in the other language; the root index's twin is the other front page.
    let twin = if cx.path.contains('/') {
        format!(
            "{}/{}",
            other.code(),
            cx.path.split_once('/').map_or("", |x| x.1)
        )
    } else {
        format!("{}/index.html", other.code())
    };
    let sections = [
        ("index.html", t.latest),
        ("days/index.html", t.archive),
        ("topics/index.html", t.topics),
        ("outlets/index.html", t.outlets),
        ("fetching.html", t.fetching),
    ];
    html! {
        (DOCTYPE)
        html lang=(cx.lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · " (t.site) }
                link rel="alternate" hreflang=(other.code()) href=(cx.href(&twin));
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
                    h1 { (title) }
                    (body)
                }
                footer {
                    p { (t.link_note) }
                    p {
                        (t.licence) ": " (cx.site.licence) ". "
                        a href=(cx.href("data/README.txt")) { (t.open_data) ": " (t.readme) }
                    }
                }
            }
        }
    }
}

/// Every headline of the kept days once (a link seen on two days counts on the newer),
/// newest first.
fn all_headlines(days: &BTreeMap<String, Vec<Published>>) -> Vec<&Published> {
    let mut seen = BTreeSet::new();
    let mut all: Vec<&Published> = Vec::new();
    for list in days.values().rev() {
        for p in list {
            if seen.insert(p.id.as_str()) {
                all.push(p);
            }
        }
    }
    all.sort_by(|a, b| {
        b.published
            .cmp(&a.published)
            .then_with(|| a.link.cmp(&b.link))
    });
    all
}

fn count_text(n: usize, t: &Text) -> String {
    format!("{n} {}", t.headlines)
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

fn outlet_status(cx: &Ctx, o: &Outlet) -> Markup {
    let t = cx.t;
    html! {
        @if o.stopped.is_empty() && o.listed {
            span { (t.status_followed) }
        }
        @for s in &o.stopped {
            span.stop {
                @match s.why {
                    Why::OptedOut => { (t.opted_out) }
                    Why::Refused => { (t.refused) }
                    Why::Halted => { (t.halted) }
                    Why::Robots => { (t.robots_refused) }
                }
                " " (since(s.since, cx.lang))
                @if let Some(site) = &s.site { " (" code { (site) } ")" }
                @if !s.reason.is_empty() { ": " code { (s.reason) } }
            }
            br;
        }
    }
}

fn outlet_item(cx: &Ctx, o: &Outlet) -> Markup {
    html! {
        li {
            @match cx.outlet_href(&o.name) {
                Some(h) => { a.h href=(h) lang=[lang_tag(&o.lang)] { (o.name) } }
                None => { strong lang=[lang_tag(&o.lang)] { (o.name) } }
            }
            span.meta {
                @if let Some(l) = lang_tag(&o.lang) {
                    @match l { "kn" => { (Lang::Kn.text().name) } "en" => { (Lang::En.text().name) } other => { (other) } }
                    @if !o.sites.is_empty() { " · " }
                }
                @for (i, s) in o.sites.iter().enumerate() {
                    @if i > 0 { ", " }
                    code { (s) }
                }
            }
            span.meta { (outlet_status(cx, o)) }
        }
    }
}

/// Writes every page; returns the files written, named from the site's root.
pub fn render(dir: &Path, site: &Site) -> Result<Vec<String>> {
    let style = style();
    let all = all_headlines(site.days);
    // Outlet pages: outlets read, and outlets with public headlines in the kept days.
    let mut with_pages: BTreeSet<&str> = all.iter().map(|p| p.outlet.as_str()).collect();
    with_pages.extend(
        site.outlets
            .iter()
            .filter(|o| o.followed())
            .map(|o| o.name.as_str()),
    );
    let slugs = slugs(with_pages.iter().copied());
    // Each page is written as soon as it is rendered, so memory holds one page at a time.
    let mut pages = Out {
        dir,
        written: Vec::new(),
    };

    for lang in Lang::ALL {
        let t = lang.text();
        let cx_at = |path: String| Ctx {
            site,
            lang,
            t,
            path,
            slugs: &slugs,
            style: &style,
        };

        // Front page (and, for the default language, the root index).
        let front = |cx: &Ctx| {
            let newest: Vec<&Published> = all.iter().take(FRONT_MAX).copied().collect();
            let body = html! {
                p { (t.tagline) }
                @if newest.is_empty() {
                    p { (t.no_headlines) }
                } @else {
                    p.note { (t.latest_note) }
                    (by_topic(cx, &newest, usize::MAX, |topic, _, _| Some((
                        cx.href(&cx.page(&format!("topics/{topic}.html"))),
                        more_in(topic_label(topic, lang), lang),
                    ))))
                }
                section aria-labelledby="archive" {
                    h2 id="archive" { (t.archive) }
                    ul {
                        @for (day, list) in site.days.iter().rev().take(7) {
                            li { a href=(cx.href(&cx.page(&format!("days/{day}.html")))) { (headline_of_day(day, lang)) } " (" (count_text(list.len(), t)) ")" }
                        }
                        li { a href=(cx.href(&cx.page("days/index.html"))) { (t.archive) ": " (t.days_kept) } }
                    }
                }
            };
            layout(cx, t.latest, "index.html", body).into_string()
        };
        let cx = cx_at(format!("{}/index.html", lang.code()));
        pages.insert(cx.path.clone(), front(&cx))?;
        if lang == Lang::ALL[0] {
            let cx = cx_at("index.html".into());
            pages.insert(cx.path.clone(), front(&cx))?;
        }

        // Day pages and the archive.
        let day_list: Vec<&String> = site.days.keys().collect();
        for (i, (day, list)) in site.days.iter().enumerate() {
            let cx = cx_at(format!("{}/days/{day}.html", lang.code()));
            let refs: Vec<&Published> = list.iter().collect();
            let prev = i.checked_sub(1).map(|j| day_list[j]);
            let next = day_list.get(i + 1);
            let body = html! {
                p.note { (t.day_note) " " (count_text(list.len(), t)) "." }
                p { (data_links(&cx, day)) }
                @if refs.is_empty() { p { (t.no_headlines) } }
                (by_topic(&cx, &refs, DAY_TOPIC_MAX, |topic, shown, total| (shown < total).then(|| (
                    cx.href(&cx.page(&format!("days/{day}/{topic}.html"))),
                    all_of_day(topic_label(topic, lang), total, day, lang),
                ))))
                nav aria-label=(t.archive) {
                    ul {
                        @if let Some(d) = prev { li { a href=(cx.href(&cx.page(&format!("days/{d}.html")))) { "← " (headline_of_day(d, lang)) } } }
                        @if let Some(d) = next { li { a href=(cx.href(&cx.page(&format!("days/{d}.html")))) { (headline_of_day(d, lang)) " →" } } }
                    }
                }
            };
            pages.insert(
                cx.path.clone(),
                layout(&cx, &headline_of_day(day, lang), "days/index.html", body).into_string(),
            )?;
            // A topic with more headlines that day than the day page lists gets its own page.
            for items in group_by_topic(&refs).values() {
                if items.len() <= DAY_TOPIC_MAX {
                    continue;
                }
                let topic = topic_of(items[0]);
                let cx = cx_at(format!("{}/days/{day}/{topic}.html", lang.code()));
                let title = format!("{}: {}", topic_label(topic, lang), day_name(day, lang));
                let body = html! {
                    p.note { (t.day_note) " " (count_text(items.len(), t)) "." }
                    p { a href=(cx.href(&cx.page(&format!("days/{day}.html")))) { (headline_of_day(day, lang)) } }
                    ul.hl { @for p in items { (headline(&cx, p)) } }
                };
                pages.insert(
                    cx.path.clone(),
                    layout(&cx, &title, "days/index.html", body).into_string(),
                )?;
            }
        }
        let cx = cx_at(format!("{}/days/index.html", lang.code()));
        let body = html! {
            @if site.days.is_empty() { p { (t.no_headlines) } }
            ul {
                @for (day, list) in site.days.iter().rev() {
                    li {
                        a href=(cx.href(&cx.page(&format!("days/{day}.html")))) { (headline_of_day(day, lang)) }
                        " (" (count_text(list.len(), t)) ")"
                        span.meta { (data_links(&cx, day)) }
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
        let mut by_t: BTreeMap<&str, Vec<&Published>> = BTreeMap::new();
        for p in &all {
            by_t.entry(topic_of(p)).or_default().push(p);
        }
        for topic in crate::classify::TOPICS {
            let cx = cx_at(format!("{}/topics/{topic}.html", lang.code()));
            let list: Vec<&Published> = by_t
                .get(topic)
                .map(|l| l.iter().take(LIST_MAX).copied().collect())
                .unwrap_or_default();
            let total = by_t.get(topic).map_or(0, |l| l.len());
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
        let cx = cx_at(format!("{}/topics/index.html", lang.code()));
        let body = html! {
            ul {
                @for topic in crate::classify::TOPICS {
                    li {
                        a href=(cx.href(&cx.page(&format!("topics/{topic}.html")))) { (topic_label(topic, lang)) }
                        " (" (count_text(by_t.get(topic).map_or(0, |l| l.len()), t)) ")"
                    }
                }
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, t.topics, "topics/index.html", body).into_string(),
        )?;

        // Outlet pages and the list of outlets.
        let mut by_o: BTreeMap<&str, Vec<&Published>> = BTreeMap::new();
        for p in &all {
            by_o.entry(p.outlet.as_str()).or_default().push(p);
        }
        for (name, slug) in &slugs {
            let cx = cx_at(format!("{}/outlets/{slug}.html", lang.code()));
            let all_o = by_o.get(name.as_str()).cloned().unwrap_or_default();
            let list: Vec<&Published> = all_o.iter().take(LIST_MAX).copied().collect();
            let info = site.outlets.iter().find(|o| &o.name == name);
            let body = html! {
                @if let Some(o) = info { p.meta { (outlet_status(&cx, o)) } }
                @if list.is_empty() { p { (t.no_headlines) } }
                @if all_o.len() > list.len() { p.note { (t.cap_note) } }
                (by_date(&cx, &list))
            };
            let title = match lang {
                Lang::En => format!("Headlines from {name}"),
                Lang::Kn => format!("{name}: ಮುಖ್ಯಾಂಶಗಳು"),
            };
            pages.insert(
                cx.path.clone(),
                layout(&cx, &title, "outlets/index.html", body).into_string(),
            )?;
        }
        let cx = cx_at(format!("{}/outlets/index.html", lang.code()));
        let (read, not_read): (Vec<&Outlet>, Vec<&Outlet>) =
            site.outlets.iter().partition(|o| o.followed());
        let body = html! {
            section aria-labelledby="read" {
                h2 id="read" { (t.followed) }
                p.note { (t.followed_note) }
                @if read.is_empty() { p { (t.none) } }
                ul.hl { @for o in &read { (outlet_item(&cx, o)) } }
            }
            section aria-labelledby="not-read" {
                h2 id="not-read" { (t.not_followed) }
                p.note { (t.not_followed_note) }
                @if not_read.is_empty() { p { (t.none) } }
                ul.hl { @for o in &not_read { (outlet_item(&cx, o)) } }
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, t.outlets, "outlets/index.html", body).into_string(),
        )?;

        // How Huduku fetches.
        let cx = cx_at(format!("{}/fetching.html", lang.code()));
        let body = super::fetching::body(
            site.rules,
            lang,
            &cx.href(&cx.page("outlets/index.html")),
            &cx.href("en/fetching.html"),
        );
        pages.insert(
            cx.path.clone(),
            layout(&cx, t.fetching, "fetching.html", body).into_string(),
        )?;
    }

    Ok(pages.written)
}

/// Where pages go, and which have been written.
struct Out<'a> {
    dir: &'a Path,
    written: Vec<String>,
}

impl Out<'_> {
    fn insert(&mut self, path: String, html: String) -> Result<()> {
        put(&self.dir.join(&path), html.as_bytes())?;
        self.written.push(path);
        Ok(())
    }
}

/// Writes a file atomically unless it already holds exactly these bytes.
pub fn put(path: &Path, bytes: &[u8]) -> Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    crate::store::write_atomic(path, bytes)
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
        let s = slugs(["Deccan Daily Chronicle", "ನಮ್ಮ ಪತ್ರಿಕೆ", "A.B", "a b"]);
        assert_eq!(s["Deccan Daily Chronicle"], "deccan-daily-chronicle");
        assert!(s["ನಮ್ಮ ಪತ್ರಿಕೆ"].starts_with("o-"));
        assert_ne!(s["A.B"], s["a b"]);
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
