//! The video pages, `kn/videos.html` and `en/videos.html`: the newest uploads of the channels
//! in `pipeline/channels.csv`, as `fetch-videos` keeps them (`DATA/videos.jsonl`).
//!
//! Each title is a plain link to the video's page on YouTube (`https://www.youtube.com/watch?v=ID`,
//! the id checked to be one; `rel="noreferrer"`, so following it tells YouTube nothing of
//! the page it came from), escaped and in a `<bdi>` like a headline, with the channel's
//! name and the published time in the site's zone. No player, no embed, no iframe, no
//! thumbnail, nothing the reader's browser would fetch from YouTube: it asks YouTube for
//! nothing until the reader follows a link. The page says the list comes through the YouTube
//! API Services and links YouTube's Terms of Service and Google's Privacy Policy, as
//! YouTube's API policies ask. A video Huduku had from the API [`kept::DELETE_AFTER`] ago or
//! more is never shown (nor one fetched after `--now`, so a replay shows what was known), nor
//! one whose link `pipeline/takedowns.csv` lists.

use anyhow::Result;
use chrono::{DateTime, Utc};
use maud::{Markup, html};
use std::path::Path;

use super::i18n::{Lang, date};
use super::site::{Out, Site, ctx, layout, style};
use crate::videos::channels::is_video_id;
use crate::videos::kept::{self, Video};

/// Videos on the page, newest first.
pub const VIDEOS_MAX: usize = 200;

/// YouTube's Terms of Service, linked as the API policies require.
pub const YOUTUBE_TERMS: &str = "https://www.youtube.com/t/terms";
/// Google's Privacy Policy, likewise.
pub const GOOGLE_PRIVACY: &str = "https://policies.google.com/privacy";

/// The videos that may be shown at `now`, newest first (at most [`VIDEOS_MAX`]), and how
/// many there are. A video whose link is in `pipeline/takedowns.csv` is not among them.
pub fn shown(
    data: &crate::store::Data,
    pipeline: &crate::lists::Pipeline,
    now: DateTime<Utc>,
) -> Result<(Vec<Video>, usize)> {
    let taken_down: std::collections::BTreeSet<String> = crate::lists::load_takedowns(pipeline)?
        .into_iter()
        .map(|t| t.link)
        .collect();
    let taken = |v: &Video| {
        url::Url::parse(&v.link())
            .is_ok_and(|u| taken_down.contains(&crate::records::canonical_link(&u)))
    };
    let mut list: Vec<Video> = kept::load_videos(data)?
        .into_iter()
        .filter(|v| kept::shown(v, now) && is_video_id(&v.id) && !taken(v))
        .collect();
    kept::sort(&mut list);
    let total = list.len();
    list.truncate(VIDEOS_MAX);
    Ok((list, total))
}

fn lang_of(v: &Video) -> Option<&str> {
    crate::lists::LANGS
        .contains(&v.lang.as_str())
        .then_some(v.lang.as_str())
}

fn item(site: &Site, lang: Lang, v: &Video) -> Markup {
    let l = lang_of(v);
    html! {
        li {
            a.h href=(v.link()) rel="noreferrer" lang=[l] { bdi { (v.title) } }
            span.meta {
                bdi lang=[l] { (v.channel_name) }
                " · "
                time datetime=(crate::time::fmt(v.published)) { (site.zone.show(v.published, lang)) }
            }
        }
    }
}

/// Writes the video page in both languages, from the videos that may be shown at `now`.
/// Returns the files written, named from the site's root.
pub fn render(
    dir: &Path,
    site: &Site,
    data: &crate::store::Data,
    pipeline: &crate::lists::Pipeline,
    now: DateTime<Utc>,
) -> Result<Vec<String>> {
    let (list, total) = shown(data, pipeline, now)?;
    let list = &list;
    let style = style();
    let mut pages = Out {
        dir,
        written: Vec::new(),
    };
    for lang in Lang::ALL {
        let cx = ctx(site, lang, format!("{}/videos.html", lang.code()), &style);
        let privacy = cx.href(&cx.page("privacy.html"));
        let mut groups: Vec<(chrono::NaiveDate, Vec<&Video>)> = Vec::new();
        for v in list {
            let d = site.zone.local_day(v.published);
            match groups.last_mut() {
                Some((last, items)) if *last == d => items.push(v),
                _ => groups.push((d, vec![v])),
            }
        }
        let body = html! {
            @match lang {
                Lang::En => {
                    p { "The newest videos of a few YouTube channels, each a link to the video on YouTube. The list comes through the YouTube API Services, asked with Huduku's own key; HudukuBot does not fetch from YouTube." }
                    p.note { "This page has no player, no thumbnails and nothing from YouTube in it: your browser asks YouTube for nothing until you follow a link. What Huduku has from YouTube is kept for less than 30 days: what YouTube does not give again in that time is deleted. " a href=(privacy) { "Privacy" } "." }
                }
                Lang::Kn => {
                    p { "ಕೆಲವು YouTube ವಾಹಿನಿಗಳ ಹೊಸ ವಿಡಿಯೊಗಳು, ಪ್ರತಿಯೊಂದೂ YouTube ನಲ್ಲಿರುವ ವಿಡಿಯೊಗೆ ಕೊಂಡಿ. ಈ ಪಟ್ಟಿ YouTube API ಸೇವೆಗಳ (" span lang="en" { "YouTube API Services" } ") ಮೂಲಕ, ಹುಡುಕುವಿನದೇ ಕೀಲಿಯಿಂದ ಬರುತ್ತದೆ; HudukuBot YouTube ನಿಂದ ಏನನ್ನೂ ತರುವುದಿಲ್ಲ." }
                    p.note { "ಈ ಪುಟದಲ್ಲಿ ಪ್ಲೇಯರ್ ಇಲ್ಲ, ಕಿರುಚಿತ್ರಗಳಿಲ್ಲ, YouTube ನಿಂದ ಏನೂ ಇಲ್ಲ: ನೀವು ಕೊಂಡಿಯನ್ನು ಒತ್ತುವವರೆಗೆ ನಿಮ್ಮ ಬ್ರೌಸರ್ YouTube ಗೆ ಏನನ್ನೂ ಕೇಳುವುದಿಲ್ಲ. YouTube ನಿಂದ ಬಂದುದನ್ನು ಹುಡುಕು 30 ದಿನಗಳಿಗಿಂತ ಕಡಿಮೆ ಕಾಲ ಇಡುತ್ತದೆ: ಆ ಅವಧಿಯಲ್ಲಿ YouTube ಮತ್ತೆ ಕೊಡದುದನ್ನು ಅಳಿಸಲಾಗುತ್ತದೆ. " a href=(privacy) { (cx.t.privacy) } "." }
                }
            }
            @if list.is_empty() {
                p { @match lang { Lang::En => { "No videos yet." } Lang::Kn => { "ಇನ್ನೂ ವಿಡಿಯೊಗಳಿಲ್ಲ." } } }
            }
            @if total > list.len() {
                p.note { @match lang {
                    Lang::En => { "Only the newest " (list.len()) " of " (total) " are listed here." }
                    Lang::Kn => { (total) " ವಿಡಿಯೊಗಳಲ್ಲಿ ಹೊಸ " (list.len()) " ಮಾತ್ರ ಇಲ್ಲಿವೆ." }
                } }
            }
            @for (d, items) in &groups {
                section {
                    h2 { (date(*d, lang)) }
                    ul.hl { @for v in items { (item(site, lang, v)) } }
                }
            }
            section aria-labelledby="youtube-terms" {
                @match lang {
                    Lang::En => {
                        h2 id="youtube-terms" { "YouTube's terms" }
                        p { "The videos are YouTube's and their creators'. Using them, you are bound by the "
                            a href=(YOUTUBE_TERMS) { "YouTube Terms of Service" } "; what Google does with what your browser sends to YouTube is in the "
                            a href=(GOOGLE_PRIVACY) { "Google Privacy Policy" } "." }
                    }
                    Lang::Kn => {
                        h2 id="youtube-terms" { "YouTube ನ ನಿಯಮಗಳು" }
                        p { "ವಿಡಿಯೊಗಳು YouTube ಮತ್ತು ಅವುಗಳ ರಚನೆಕಾರರದು. ಅವನ್ನು ನೋಡುವಾಗ "
                            a href=(YOUTUBE_TERMS) { "YouTube ಸೇವಾ ನಿಯಮಗಳು (" span lang="en" { "YouTube Terms of Service" } ")" }
                            " ಅನ್ವಯಿಸುತ್ತವೆ; ನಿಮ್ಮ ಬ್ರೌಸರ್ YouTube ಗೆ ಕಳುಹಿಸುವುದನ್ನು Google ಏನು ಮಾಡುತ್ತದೆ ಎಂಬುದು "
                            a href=(GOOGLE_PRIVACY) { "Google ಖಾಸಗಿತನ ನೀತಿ (" span lang="en" { "Google Privacy Policy" } ")" }
                            " ಯಲ್ಲಿದೆ." }
                    }
                }
            }
        };
        pages.insert(
            cx.path.clone(),
            layout(&cx, cx.t.videos, "videos.html", body).into_string(),
        )?;
    }
    Ok(pages.written)
}
