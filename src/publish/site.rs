//! The static pages, rendered with maud (every interpolated string is HTML-escaped).

use anyhow::Result;
use maud::{DOCTYPE, Markup, html};
use std::collections::BTreeMap;
use std::path::Path;

use crate::records::Published;

/// Topic names in English and Kannada, in the taxonomy's order.
pub fn topic_label(topic: &str) -> (&'static str, &'static str) {
    match topic {
        "politics" => ("Politics and government", "ರಾಜಕೀಯ ಮತ್ತು ಸರ್ಕಾರ"),
        "business" => ("Business and economy", "ವಾಣಿಜ್ಯ ಮತ್ತು ಆರ್ಥಿಕತೆ"),
        "crime" => ("Crime and courts", "ಅಪರಾಧ ಮತ್ತು ನ್ಯಾಯಾಲಯ"),
        "health" => ("Health", "ಆರೋಗ್ಯ"),
        "education" => ("Education", "ಶಿಕ್ಷಣ"),
        "environment" => ("Environment and climate", "ಪರಿಸರ ಮತ್ತು ಹವಾಮಾನ"),
        "science" => ("Science and technology", "ವಿಜ್ಞಾನ ಮತ್ತು ತಂತ್ರಜ್ಞಾನ"),
        "world" => ("World", "ಜಗತ್ತು"),
        "sport" => ("Sport", "ಕ್ರೀಡೆ"),
        "culture" => ("Culture and entertainment", "ಸಂಸ್ಕೃತಿ ಮತ್ತು ಮನರಂಜನೆ"),
        "local" => ("Local and civic", "ಸ್ಥಳೀಯ"),
        _ => ("Other", "ಇತರೆ"),
    }
}

const STYLE: &str = "body{font-family:system-ui,'Noto Sans Kannada','Tunga','Kedage',sans-serif;max-width:48rem;margin:0 auto;padding:1rem;line-height:1.5;color:#1a1a1a;background:#fff}\
a{color:#0b4f9c}h1{font-size:1.6rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc}ul{padding-left:1.2rem}li{margin:.4rem 0}\
.meta{color:#555;font-size:.9rem}.opinion{font-weight:bold;color:#7a2e00}";

fn page(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (maud::PreEscaped(STYLE)) }
            }
            body { (body) }
        }
    }
}

fn headline(p: &Published) -> Markup {
    html! {
        li {
            a href=(p.link) lang=(p.lang) { (p.headline) }
            @if p.opinion { " " span.opinion { "Opinion · ಅಭಿಪ್ರಾಯ" } }
            br;
            span.meta { (p.outlet) " · " time datetime=(crate::time::fmt(p.published)) { (p.published.format("%Y-%m-%d %H:%M UTC")) } }
        }
    }
}

fn by_topic(list: &[Published]) -> Markup {
    let mut groups: BTreeMap<usize, Vec<&Published>> = BTreeMap::new();
    for p in list {
        let i = crate::classify::TOPICS
            .iter()
            .position(|t| *t == p.topic)
            .unwrap_or(crate::classify::TOPICS.len());
        groups.entry(i).or_default().push(p);
    }
    html! {
        @for (i, items) in &groups {
            @let (en, kn) = topic_label(crate::classify::TOPICS.get(*i).copied().unwrap_or("other"));
            section {
                h2 { (en) " · " span lang="kn" { (kn) } }
                ul { @for p in items { (headline(p)) } }
            }
        }
    }
}

/// Writes the front page and one page per day; returns how many pages were written.
pub fn render(dir: &Path, days: &BTreeMap<String, Vec<Published>>) -> Result<usize> {
    let mut written = 0;
    for (day, list) in days {
        let body = html! {
            h1 { "Huduku · ಹುಡುಕು — " (day) }
            p { a href="../index.html" { "Latest headlines · ಇತ್ತೀಚಿನ ಮುಖ್ಯಾಂಶಗಳು" } }
            (by_topic(list))
        };
        crate::store::write_atomic(
            &dir.join("days").join(format!("{day}.html")),
            page(&format!("Huduku — {day}"), body)
                .into_string()
                .as_bytes(),
        )?;
        written += 1;
    }
    let latest = days.iter().next_back();
    let body = html! {
        h1 { "Huduku · ಹುಡುಕು" }
        p { "Headlines from chosen outlets, each a link to the publisher's own page. · ಆಯ್ದ ಮಾಧ್ಯಮಗಳ ಮುಖ್ಯಾಂಶಗಳು, ಪ್ರಕಾಶಕರ ಪುಟದ ಕೊಂಡಿಯೊಂದಿಗೆ." }
        @if let Some((day, list)) = latest {
            p.meta { "Latest day: " (day) }
            (by_topic(list))
        } @else {
            p { "No headlines yet." }
        }
        nav {
            h2 { "Archive · ಸಂಗ್ರಹ" }
            ul { @for day in days.keys().rev() { li { a href={ "days/" (day) ".html" } { (day) } } } }
        }
    };
    crate::store::write_atomic(
        &dir.join("index.html"),
        page("Huduku", body).into_string().as_bytes(),
    )?;
    written += 1;
    Ok(written)
}
