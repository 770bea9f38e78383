//! The stories on the site and in the kept files: a day's stories are grouped
//! ([`crate::stories::Grouper`]) from the public headlines of that day and the day before
//! (two UTC days: a story never spans more than 48 hours), after every removal, so a
//! removed headline leaves its story and a story left with one headline is no story.
//!
//! `DAY/stories.jsonl` keeps the stories with a headline on DAY, ranked
//! ([`crate::stories::rank`]: most outlets first, then most languages, then the newest),
//! one [`Story`] a line; the open data's `story` column names each headline's story. Both
//! depend only on the two days' public lists, so a replay of DAY gives the same bytes
//! whatever came after it.
//!
//! The pages: a "Stories" section on the front page, the newest day's stories (and the day
//! before's that no newer story holds) covered by two outlets or more, each linking to a
//! page of its own in both languages (`LANG/stories/ID.html`: every outlet's headline,
//! linking to the publisher, with time and language, and "covered by N outlets in Kannada
//! and English"), and `LANG/stories/index.html` listing them all. Headlines of one outlet
//! alone stay where they are, and a story's headlines stay on every other page too.

use anyhow::Result;
use maud::html;
use std::collections::BTreeSet;
use std::path::Path;

use super::export::StoryOf;
use super::i18n::Lang;
use super::rows::{Pool, Row};
use super::site::{Ctx, Out, Site, ctx, lang_tag, layout, layout_h1, safe_link, style};
use crate::stories::{Grouper, Headline, Member, Story, rank};

/// Stories on the front page.
pub const FRONT_STORIES: usize = 8;
/// Stories with pages of their own (the stories page lists them all).
pub const STORY_PAGES_MAX: usize = 200;

/// The file of a day's stories, in the day's directory.
pub const FILE: &str = "stories.jsonl";

/// A day's stories (ranked) from its public list and the day before's, and the story of
/// each of the day's headlines.
pub fn day_stories(
    grouper: &Grouper,
    list: &[Row],
    before: &[Row],
    pool: &Pool,
) -> (Vec<Story>, StoryOf) {
    let rows: Vec<&Row> = list.iter().chain(before.iter()).collect();
    let items: Vec<Headline> = rows
        .iter()
        .map(|r| Headline {
            id: r.id(),
            outlet: pool.get(r.outlet),
            lang: pool.get(r.lang),
            headline: r.headline(),
            published: r.published,
            opinion: r.opinion,
        })
        .collect();
    let mut stories = Vec::new();
    let mut story_of = StoryOf::new();
    for group in grouper.group(&items) {
        if !group.iter().any(|&i| i < list.len()) {
            continue;
        }
        let members: Vec<Member> = group
            .iter()
            .map(|&i| {
                let r = rows[i];
                Member {
                    id: r.id().to_string(),
                    outlet: pool.get(r.outlet).to_string(),
                    lang: pool.get(r.lang).to_string(),
                    headline: r.headline().to_string(),
                    link: r.link().to_string(),
                    published: r.published,
                }
            })
            .collect();
        let story = Story::of(members);
        for &i in &group {
            if i < list.len() {
                story_of.insert(rows[i].id().to_string(), story.story.clone());
            }
        }
        stories.push(story);
    }
    stories.sort_by(rank);
    (stories, story_of)
}

/// Writes `DAY/stories.jsonl` (only when it changed).
pub fn write(path: &Path, stories: &[Story]) -> Result<()> {
    super::site::put_with(path, |w| {
        for s in stories {
            serde_json::to_writer(&mut *w, s)?;
            w.write_all(b"\n")?;
        }
        Ok(())
    })?;
    Ok(())
}

/// The stories of the pages: those of the newest day, then those of the day before that
/// share no headline with them, covered by two outlets or more, ranked, at most
/// STORY_PAGES_MAX.
pub fn for_pages(newest: Vec<Story>, before: Vec<Story>) -> Vec<Story> {
    let held: BTreeSet<String> = newest
        .iter()
        .flat_map(|s| s.headlines.iter().map(|h| h.id.clone()))
        .collect();
    let mut all: Vec<Story> = newest
        .into_iter()
        .chain(
            before
                .into_iter()
                .filter(|s| !s.headlines.iter().any(|h| held.contains(&h.id))),
        )
        .filter(|s| s.outlets.len() >= 2)
        .collect();
    all.sort_by(rank);
    all.truncate(STORY_PAGES_MAX);
    all
}

/// "Covered by 3 outlets in Kannada and English", in the page's language.
pub fn coverage(s: &Story, lang: Lang) -> String {
    let n = s.outlets.len();
    let kn = s.langs.iter().any(|l| l == "kn");
    let en = s.langs.iter().any(|l| l == "en");
    match lang {
        Lang::En => {
            let langs = match (kn, en) {
                (true, true) => " in Kannada and English",
                (true, false) => " in Kannada",
                (false, true) => " in English",
                _ => "",
            };
            format!(
                "Covered by {n} outlet{}{langs}",
                if n == 1 { "" } else { "s" }
            )
        }
        Lang::Kn => {
            let langs = match (kn, en) {
                (true, true) => "ಕನ್ನಡ ಮತ್ತು ಇಂಗ್ಲಿಷ್‌ನಲ್ಲಿ ",
                (true, false) => "ಕನ್ನಡದಲ್ಲಿ ",
                (false, true) => "ಇಂಗ್ಲಿಷ್‌ನಲ್ಲಿ ",
                _ => "",
            };
            format!("{langs}{n} ಮಾಧ್ಯಮಗಳ ವರದಿ")
        }
    }
}

/// The headline a story goes by on a page: its first in the page's language, else its first.
pub fn title(s: &Story, lang: Lang) -> &Member {
    s.headlines
        .iter()
        .find(|h| h.lang == lang.code())
        .unwrap_or(&s.headlines[0])
}

fn language_name(code: &str, lang: Lang) -> &str {
    match (code, lang) {
        ("kn", Lang::En) => "Kannada",
        ("en", Lang::En) => "English",
        ("kn", Lang::Kn) => "ಕನ್ನಡ",
        ("en", Lang::Kn) => "ಇಂಗ್ಲಿಷ್",
        (c, _) => c,
    }
}

/// The path of a story's page in a language.
pub fn page_path(lang: Lang, story: &str) -> String {
    format!("{}/stories/{story}.html", lang.code())
}

/// The front page's "Stories" section (nothing when there are none).
pub(super) fn front_section(cx: &Ctx, stories: &[Story]) -> maud::Markup {
    let lang = cx.lang;
    let (heading, all) = match lang {
        Lang::En => ("Stories: one event, several outlets", "All stories"),
        Lang::Kn => ("ಸುದ್ದಿಗಳು: ಒಂದು ಘಟನೆ, ಹಲವು ಮಾಧ್ಯಮಗಳು", "ಎಲ್ಲ ಸುದ್ದಿಗಳು"),
    };
    html! {
        @if !stories.is_empty() {
            section aria-labelledby="stories" {
                h2 id="stories" { (heading) }
                ul.st {
                    @for s in stories.iter().take(FRONT_STORIES) {
                        @let t = title(s, lang);
                        li {
                            a.st href=(cx.href(&page_path(lang, &s.story))) lang=[lang_tag(&t.lang)] { bdi { (t.headline) } }
                            span.meta { (coverage(s, lang)) }
                        }
                    }
                }
                p.more { a href=(cx.href(&format!("{}/stories/index.html", lang.code()))) { (all) " (" (stories.len()) ")" } }
            }
        }
    }
}

/// Writes the stories' pages in both languages; returns the files written.
pub fn render(dir: &Path, site: &Site, stories: &[Story]) -> Result<Vec<String>> {
    let style = style();
    let mut pages = Out {
        dir,
        written: Vec::new(),
    };
    if stories.is_empty() {
        return Ok(pages.written);
    }
    for lang in Lang::ALL {
        let (list_title, describe, note) = match lang {
            Lang::En => (
                "Stories",
                "The same event as each outlet tells it: which outlets covered it, in which language, with which headline.",
                "Headlines of one event from several outlets, grouped by Huduku on its own machine; the outlets with the most reports first.",
            ),
            Lang::Kn => (
                "ಸುದ್ದಿಗಳು",
                "ಒಂದೇ ಘಟನೆಯನ್ನು ಪ್ರತಿ ಮಾಧ್ಯಮ ಹೇಗೆ ಹೇಳಿದೆ: ಯಾವ ಮಾಧ್ಯಮಗಳು, ಯಾವ ಭಾಷೆಯಲ್ಲಿ, ಯಾವ ಮುಖ್ಯಾಂಶದೊಂದಿಗೆ.",
                "ಹಲವು ಮಾಧ್ಯಮಗಳ ಒಂದೇ ಘಟನೆಯ ಮುಖ್ಯಾಂಶಗಳು, ಹುಡುಕು ತನ್ನದೇ ಯಂತ್ರದಲ್ಲಿ ಗುಂಪು ಮಾಡಿದಂತೆ; ಹೆಚ್ಚು ಮಾಧ್ಯಮಗಳು ವರದಿ ಮಾಡಿದವು ಮೊದಲು.",
            ),
        };
        let cx = ctx(
            site,
            lang,
            format!("{}/stories/index.html", lang.code()),
            &style,
        )
        .described(describe);
        let body = html! {
            p.note { (note) }
            ul.st {
                @for s in stories {
                    @let t = title(s, lang);
                    li {
                        a.st href=(cx.href(&page_path(lang, &s.story))) lang=[lang_tag(&t.lang)] { bdi { (t.headline) } }
                        span.meta { (coverage(s, lang)) }
                    }
                }
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, list_title, "index.html", body).into_string(),
        )?;
        for s in stories {
            let t = title(s, lang);
            let cover = coverage(s, lang);
            let cx = ctx(site, lang, page_path(lang, &s.story), &style)
                .described(format!("{}: {}", t.headline, cover));
            let body = html! {
                p { (cover) "." }
                ul.hl {
                    @for h in s.headlines.iter().filter(|h| safe_link(&h.link)) {
                        li {
                            a.h href=(h.link) lang=[lang_tag(&h.lang)] { bdi { (h.headline) } }
                            span.meta {
                                bdi lang=[lang_tag(&h.lang)] { (h.outlet) }
                                " · " time datetime=(crate::time::fmt(h.published)) { (site.zone.show(h.published, lang)) }
                                " · " (language_name(&h.lang, lang))
                            }
                        }
                    }
                }
                p { a href=(cx.href(&format!("{}/stories/index.html", lang.code()))) { (list_title) } }
            };
            let h1 = html! { bdi lang=[lang_tag(&t.lang)] { (t.headline) } };
            pages.insert(
                cx.path.clone(),
                layout_h1(&cx, &t.headline, h1, "index.html", body).into_string(),
            )?;
        }
    }
    Ok(pages.written)
}
