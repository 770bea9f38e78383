//! The pages the fetching promise names: "For publishers", "Takedowns" and the privacy page,
//! in Kannada and English. Like "How Huduku fetches", every number on them comes from the
//! code that keeps it (the fetcher's constants through [`Rules`], the removals in force,
//! the days the pages keep), so a page cannot promise what the software does not do. The
//! Kannada pages are drafts of the English ones, marked as such; the English page counts.

use anyhow::Result;
use maud::{Markup, html};
use std::path::Path;

use super::fetching::{
    CONTACT, Rules, bytes, en_ages, en_duration, en_every, kn_ages, kn_duration, kn_every,
};
use super::i18n::Lang;
use super::site::{Ctx, Out, Site, ctx, layout, style};
use crate::polite::sign;

/// The pages, each as (file name under `LANG/`, the section it belongs to).
pub const PAGES: [&str; 3] = ["publishers.html", "takedowns.html", "privacy.html"];

use crate::videos::kept::{DELETE_AFTER, POLICY_DAYS, REFRESH_AFTER};

/// Where each page links to, relative to the page.
struct Links {
    fetching: String,
    outlets: String,
    publishers: String,
    takedowns: String,
    privacy: String,
    data: String,
    english: String,
    /// The key directory on this site, and its absolute address (what `Signature-Agent` names).
    keys: String,
    directory: String,
}

impl Links {
    fn of(cx: &Ctx, name: &str) -> Links {
        Links {
            fetching: cx.href(&cx.page("fetching.html")),
            outlets: cx.href(&cx.page("outlets/index.html")),
            publishers: cx.href(&cx.page("publishers.html")),
            takedowns: cx.href(&cx.page("takedowns.html")),
            privacy: cx.href(&cx.page("privacy.html")),
            data: cx.href("data/README.txt"),
            english: cx.href(&format!("en/{name}")),
            keys: cx.href(super::keydir::FILE),
            directory: format!(
                "{}{}",
                sign::agent_origin(&cx.site.rules.user_agent).unwrap_or_default(),
                sign::DIRECTORY_PATH
            ),
        }
    }
}

/// Writes the three pages in both languages; returns the files written, named from the
/// site's root.
pub fn render(dir: &Path, site: &Site) -> Result<Vec<String>> {
    let style = style();
    let mut out = Out {
        dir,
        written: Vec::new(),
    };
    for lang in Lang::ALL {
        let t = lang.text();
        for name in PAGES {
            let cx = ctx(site, lang, format!("{}/{name}", lang.code()), &style)
                .described(description(name, lang));
            let l = Links::of(&cx, name);
            let (title, body) = match (name, lang) {
                ("publishers.html", Lang::En) => (t.publishers, publishers_en(site, &l)),
                ("publishers.html", Lang::Kn) => (t.publishers, publishers_kn(site, &l)),
                ("takedowns.html", Lang::En) => (t.takedowns, takedowns_en(site, &l)),
                ("takedowns.html", Lang::Kn) => (t.takedowns, takedowns_kn(site, &l)),
                ("privacy.html", Lang::En) => (t.privacy, privacy_en(site, &l)),
                _ => (t.privacy, privacy_kn(site, &l)),
            };
            let page = layout(&cx, title, name, body).into_string();
            out.insert(cx.path.clone(), page)?;
        }
    }
    Ok(out.written)
}

/// Each page's meta description, in its language.
fn description(name: &str, lang: Lang) -> &'static str {
    match (name, lang) {
        ("publishers.html", Lang::En) => {
            "For publishers: how to keep HudukuBot out or let it back in, how to verify its signed requests, and what it asks for."
        }
        ("publishers.html", Lang::Kn) => {
            "ಪ್ರಕಾಶಕರಿಗೆ: HudukuBot ಅನ್ನು ಹೊರಗಿಡುವುದು ಅಥವಾ ಮತ್ತೆ ಬಿಡುವುದು ಹೇಗೆ, ಅದರ ಸಹಿ ಮಾಡಿದ ಕೋರಿಕೆಗಳನ್ನು ಪರಿಶೀಲಿಸುವುದು ಹೇಗೆ, ಅದು ಏನನ್ನು ಕೇಳುತ್ತದೆ."
        }
        ("takedowns.html", Lang::En) => {
            "How to have a single headline removed from every Huduku page and the open data, and how many have been."
        }
        ("takedowns.html", Lang::Kn) => {
            "ಒಂದೇ ಮುಖ್ಯಾಂಶವನ್ನು ಹುಡುಕುವಿನ ಎಲ್ಲ ಪುಟಗಳಿಂದ ಮತ್ತು ಮುಕ್ತ ದತ್ತಾಂಶದಿಂದ ತೆಗೆಸುವುದು ಹೇಗೆ, ಎಷ್ಟು ತೆಗೆಯಲಾಗಿದೆ."
        }
        (_, Lang::En) => {
            "What Huduku keeps and for how long; no cookies, no scripts, nothing loaded from elsewhere."
        }
        (_, Lang::Kn) => "ಹುಡುಕು ಏನನ್ನು, ಎಷ್ಟು ಕಾಲ ಇಟ್ಟುಕೊಳ್ಳುತ್ತದೆ; ಕುಕೀಗಳಿಲ್ಲ, ಸ್ಕ್ರಿಪ್ಟ್‌ಗಳಿಲ್ಲ, ಬೇರೆಲ್ಲಿಂದಲೂ ಏನೂ ಇಲ್ಲ.",
    }
}

/// The robots.txt lines that keep HudukuBot out of a whole site.
const ROBOTS_OUT: &str = "User-agent: HudukuBot\nDisallow: /";

fn draft_kn(l: &Links, english_title: &str) -> Markup {
    html! {
        p.meta { "ಕರಡು. ಇದು ಇಂಗ್ಲಿಷ್ ಪುಟದ ಅನುವಾದ; ಎರಡರಲ್ಲಿ ವ್ಯತ್ಯಾಸ ಕಂಡರೆ ಇಂಗ್ಲಿಷ್ ಪುಟವೇ ಸರಿ." }
        p { a href=(l.english) hreflang="en" lang="en" { (english_title) ", in English" } }
    }
}

fn publishers_en(site: &Site, l: &Links) -> Markup {
    let r: &Rules = site.rules;
    html! {
        p { "Huduku shows headlines from chosen outlets, each a link to the publisher’s own page. This page is for the people who run those outlets: how to keep Huduku out, how to let it back in, how to tell HudukuBot from an impostor, and what it asks for." }
        h2 id="opt-out" { "Opting out" }
        p { "Either of two ways is enough on its own." }
        ul {
            li { strong { "By email." } " Write one email to " code { (CONTACT) } " from an address at your publication’s domain, naming the outlet or the site. Within 48 hours a person at Huduku records it: the outlet or site, the day, and who asked. From the next run (runs are hourly) HudukuBot asks nothing more of it, and the publish that ends that run takes its headlines off every public page and out of the open data, past days included." }
            li {
                strong { "By robots.txt." } " Disallow HudukuBot:"
                pre { code { (ROBOTS_OUT) } }
                "robots.txt is read about once a day, so this takes effect within a day, when the file is next read. A robots.txt that refuses HudukuBot, answers 401, 403 or 451, or says " code { "Content-Signal: search=no" } " or " code { "Content-Usage: search=n" } ", stops every request to the site, and its headlines leave every page and the open data at the next publish. To keep out only part of a site, disallow those paths: HudukuBot never asks for them."
            }
        }
        p { "Which outlets are read, and which have opted out or refused, and since when, is on " a href=(l.outlets) { "the list of outlets" } "." }
        h2 id="permission" { "After a refusal: giving or withholding permission" }
        p { "A refusal is final. If any request answers 401, 403 or 451, or with a challenge page, HudukuBot stops reading the whole site and the publisher’s other addresses, and tries no other way. It is not asked again on its own, however long ago the refusal was." }
        ul {
            li { strong { "To give permission," } " write to " code { (CONTACT) } " from your publication’s domain, naming the site (and, if you like, only the feeds Huduku may read), or lift the block. A person at Huduku records the permission: what it covers, the day it was given, who gave it and why. Only then is the site read again. A permission covers the refusals before it; a later refusal stops HudukuBot again." }
            li { strong { "To withhold it," } " do nothing: the refusal stands. Huduku keeps the headlines it read before the refusal, each a link to your page; to have them removed too, opt out as above." }
            li { "A site that asked HudukuBot to wait (429 or 503) " (r.waits_to_halt) " times in a row is also stopped until a person looks, and is read again only with the same kind of record." }
        }
        h2 id="verify" { "Recognising HudukuBot" }
        p { "Every request HudukuBot makes carries this user agent, and no other:" }
        p { code { (r.user_agent) } }
        p { "A user agent can be copied by anyone, so every request HudukuBot sends is also signed (Web Bot Auth: an HTTP Message Signature, RFC 9421, with an Ed25519 key). A request is HudukuBot’s only if:" }
        ul {
            li { "its " code { "Signature-Input" } " is tagged " code { "web-bot-auth" } ", covers " code { "@authority" } " (your host) and the " code { "Signature-Agent" } " header, which names " code { (l.directory) } ";" }
            li { "its " code { "Signature" } " verifies with a key of " a href=(l.keys) { "that key directory" } " (its " code { "keyid" } " is the key’s JWK thumbprint" @if !site.keyids.is_empty() { ": now " @for (i, k) in site.keyids.iter().enumerate() { @if i > 0 { ", " } code { (k) } } } ");" }
            li { "and it has not expired: a signature is good for " (en_duration(chrono::Duration::seconds(sign::LIFETIME))) " from its " code { "created" } " time, and each carries a nonce of its own." }
        }
        p { "Verifiers such as Cloudflare’s verified bots and AWS WAF Bot Control check this for you. A request under HudukuBot’s name that fails it, asks for anything listed below as never asked, asks a site twice at once, or comes after the site refused, is not HudukuBot’s. Tell us at " code { (CONTACT) } "." }
        h2 id="asks" { "What HudukuBot asks for, and how often" }
        ul {
            li { "robots.txt, about once a day, before anything else." }
            li { "Each feed, news sitemap or home page listed for your outlet, " (en_every(r.feed_interval)) ", never more often than once every " (en_duration(r.min_interval)) "; longer when the feed’s caching hints ask, up to " (en_duration(r.max_hold)) ". It sends the validators of the last answer, so an unchanged feed costs a 304." }
            li { "Each public headline’s link, with a single request for its headers (HEAD), " (en_ages(&r.check_ages)) ", to see whether the article was withdrawn." }
            li { "One request at a time per site, at least " (en_duration(r.min_spacing)) " apart (longer where robots.txt gives a Crawl-delay); each given up after " (en_duration(r.timeout)) "; bodies over " (bytes(r.body_cap)) " dropped unread; at most " (r.max_redirects) " redirects." }
            li { "Never: article text, images, logos, scripts, style sheets, pages not listed, or anything robots.txt disallows." }
        }
        p { "The whole promise, sentence by sentence, is " a href=(l.fetching) { "How Huduku fetches" } ". To have a single headline removed, see " a href=(l.takedowns) { "Takedowns" } "." }
        h2 id="contact" { "Whom to write to" }
        p { "Write to " code { (CONTACT) } ". A person reads every message. Write from an address at your publication’s domain when you ask for an opt-out or give permission, so that we know the request is yours." }
    }
}

fn publishers_kn(site: &Site, l: &Links) -> Markup {
    let r: &Rules = site.rules;
    html! {
        (draft_kn(l, "For publishers"))
        p { "ಹುಡುಕು ಆಯ್ದ ಮಾಧ್ಯಮಗಳ ಮುಖ್ಯಾಂಶಗಳನ್ನು, ಪ್ರತಿಯೊಂದನ್ನೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿಯಾಗಿ, ತೋರಿಸುತ್ತದೆ. ಈ ಪುಟ ಆ ಮಾಧ್ಯಮಗಳನ್ನು ನಡೆಸುವವರಿಗೆ: ಹುಡುಕುವನ್ನು ಹೊರಗಿಡುವುದು ಹೇಗೆ, ಮತ್ತೆ ಒಳಗೆ ಬಿಡುವುದು ಹೇಗೆ, HudukuBot ಅನ್ನು ನಕಲಿಯಿಂದ ಬೇರೆ ಗುರುತಿಸುವುದು ಹೇಗೆ, ಮತ್ತು ಅದು ಏನನ್ನು ಕೇಳುತ್ತದೆ." }
        h2 id="opt-out" { "ಹೊರಗುಳಿಯುವುದು" }
        p { "ಈ ಎರಡರಲ್ಲಿ ಯಾವುದಾದರೂ ಒಂದು ಸಾಕು." }
        ul {
            li { strong { "ಇಮೇಲ್ ಮೂಲಕ." } " ನಿಮ್ಮ ಪ್ರಕಟಣೆಯ ಡೊಮೇನ್‌ನ ವಿಳಾಸದಿಂದ " code { (CONTACT) } " ಗೆ ಮಾಧ್ಯಮ ಅಥವಾ ತಾಣದ ಹೆಸರಿನೊಂದಿಗೆ ಒಂದು ಇಮೇಲ್ ಬರೆಯಿರಿ. 48 ಗಂಟೆಗಳೊಳಗೆ ಹುಡುಕುವಿನ ಒಬ್ಬರು ಅದನ್ನು ದಾಖಲಿಸುತ್ತಾರೆ: ಮಾಧ್ಯಮ ಅಥವಾ ತಾಣ, ದಿನ, ಮತ್ತು ಕೇಳಿದವರು ಯಾರು. ಮುಂದಿನ ಓಟದಿಂದ (ಓಟಗಳು ಗಂಟೆಗೊಮ್ಮೆ) HudukuBot ಅದರಿಂದ ಏನನ್ನೂ ಕೇಳುವುದಿಲ್ಲ; ಆ ಓಟದ ಕೊನೆಯ ಪ್ರಕಟಣೆ ಅದರ ಮುಖ್ಯಾಂಶಗಳನ್ನು ಎಲ್ಲ ಸಾರ್ವಜನಿಕ ಪುಟಗಳಿಂದ ಮತ್ತು ಮುಕ್ತ ದತ್ತಾಂಶದಿಂದ, ಹಿಂದಿನ ದಿನಗಳದ್ದೂ ಸೇರಿ, ತೆಗೆಯುತ್ತದೆ." }
            li {
                strong { "robots.txt ಮೂಲಕ." } " HudukuBot ಅನ್ನು ತಡೆಯಿರಿ:"
                pre lang="en" { code { (ROBOTS_OUT) } }
                "robots.txt ಅನ್ನು ಸುಮಾರು ದಿನಕ್ಕೊಮ್ಮೆ ಓದಲಾಗುತ್ತದೆ; ಕಡತವನ್ನು ಮುಂದೆ ಓದಿದಾಗ, ಒಂದು ದಿನದೊಳಗೆ, ಇದು ಜಾರಿಗೆ ಬರುತ್ತದೆ. HudukuBot ಅನ್ನು ತಡೆಯುವ, 401, 403 ಅಥವಾ 451 ಉತ್ತರಿಸುವ, ಅಥವಾ " code { "Content-Signal: search=no" } " ಇಲ್ಲವೇ " code { "Content-Usage: search=n" } " ಎನ್ನುವ robots.txt ತಾಣಕ್ಕೆ ಎಲ್ಲ ಕೋರಿಕೆಗಳನ್ನು ನಿಲ್ಲಿಸುತ್ತದೆ; ಮುಂದಿನ ಪ್ರಕಟಣೆಯಲ್ಲಿ ಅದರ ಮುಖ್ಯಾಂಶಗಳು ಎಲ್ಲ ಪುಟಗಳಿಂದ ಮತ್ತು ಮುಕ್ತ ದತ್ತಾಂಶದಿಂದ ಹೋಗುತ್ತವೆ. ತಾಣದ ಒಂದು ಭಾಗವನ್ನು ಮಾತ್ರ ಹೊರಗಿಡಲು ಆ ದಾರಿಗಳನ್ನು ತಡೆಯಿರಿ: HudukuBot ಅವನ್ನು ಎಂದೂ ಕೇಳುವುದಿಲ್ಲ."
            }
        }
        p { "ಯಾವ ಮಾಧ್ಯಮಗಳನ್ನು ಓದಲಾಗುತ್ತದೆ, ಯಾವುವು ಹೊರಗುಳಿದಿವೆ ಅಥವಾ ನಿರಾಕರಿಸಿವೆ, ಯಾವಾಗಿನಿಂದ ಎಂಬುದು " a href=(l.outlets) { "ಮಾಧ್ಯಮಗಳ ಪಟ್ಟಿ" } "ಯಲ್ಲಿದೆ." }
        h2 id="permission" { "ನಿರಾಕರಣೆಯ ನಂತರ: ಅನುಮತಿ ಕೊಡುವುದು ಅಥವಾ ತಡೆಹಿಡಿಯುವುದು" }
        p { "ನಿರಾಕರಣೆ ಅಂತಿಮ. ಯಾವುದೇ ಕೋರಿಕೆಗೆ 401, 403 ಅಥವಾ 451, ಅಥವಾ ತಡೆಗೋಡೆ ಪುಟ ಉತ್ತರ ಬಂದರೆ, HudukuBot ಇಡೀ ತಾಣವನ್ನು ಮತ್ತು ಅದೇ ಪ್ರಕಾಶಕರ ಇತರ ವಿಳಾಸಗಳನ್ನು ಓದುವುದನ್ನು ನಿಲ್ಲಿಸುತ್ತದೆ; ಬೇರೆ ದಾರಿ ಪ್ರಯತ್ನಿಸುವುದಿಲ್ಲ. ನಿರಾಕರಣೆ ಎಷ್ಟೇ ಹಳೆಯದಾದರೂ ತಾನಾಗಿ ಮತ್ತೆ ಕೇಳುವುದಿಲ್ಲ." }
        ul {
            li { strong { "ಅನುಮತಿ ಕೊಡಲು," } " ನಿಮ್ಮ ಪ್ರಕಟಣೆಯ ಡೊಮೇನ್‌ನಿಂದ " code { (CONTACT) } " ಗೆ ತಾಣದ (ಬೇಕಿದ್ದರೆ ಓದಬಹುದಾದ ಫೀಡ್‌ಗಳ ಮಾತ್ರ) ಹೆಸರಿನೊಂದಿಗೆ ಬರೆಯಿರಿ, ಅಥವಾ ತಡೆಯನ್ನು ತೆಗೆಯಿರಿ. ಹುಡುಕುವಿನ ಒಬ್ಬರು ಅನುಮತಿಯನ್ನು ದಾಖಲಿಸುತ್ತಾರೆ: ಅದು ಯಾವುದಕ್ಕೆ, ಕೊಟ್ಟ ದಿನ, ಕೊಟ್ಟವರು ಯಾರು ಮತ್ತು ಏಕೆ. ಆಗ ಮಾತ್ರ ತಾಣವನ್ನು ಮತ್ತೆ ಓದಲಾಗುತ್ತದೆ. ಅನುಮತಿ ಅದಕ್ಕಿಂತ ಹಿಂದಿನ ನಿರಾಕರಣೆಗಳಿಗೆ ಅನ್ವಯಿಸುತ್ತದೆ; ನಂತರದ ನಿರಾಕರಣೆ HudukuBot ಅನ್ನು ಮತ್ತೆ ನಿಲ್ಲಿಸುತ್ತದೆ." }
            li { strong { "ತಡೆಹಿಡಿಯಲು," } " ಏನೂ ಮಾಡಬೇಕಿಲ್ಲ: ನಿರಾಕರಣೆ ಉಳಿಯುತ್ತದೆ. ನಿರಾಕರಣೆಗೆ ಮುನ್ನ ಓದಿದ ಮುಖ್ಯಾಂಶಗಳು, ನಿಮ್ಮ ಪುಟದ ಕೊಂಡಿಯೊಂದಿಗೆ, ಉಳಿಯುತ್ತವೆ; ಅವನ್ನೂ ತೆಗೆಸಲು ಮೇಲಿನಂತೆ ಹೊರಗುಳಿಯಿರಿ." }
            li { "ಸತತ " (r.waits_to_halt) " ಬಾರಿ ಕಾಯಲು (429 ಅಥವಾ 503) ಹೇಳಿದ ತಾಣವನ್ನೂ ಯಾರಾದರೂ ನೋಡುವವರೆಗೆ ನಿಲ್ಲಿಸಲಾಗುತ್ತದೆ; ಅದೇ ಬಗೆಯ ದಾಖಲೆಯೊಂದಿಗೆ ಮಾತ್ರ ಮತ್ತೆ ಓದಲಾಗುತ್ತದೆ." }
        }
        h2 id="verify" { "HudukuBot ಅನ್ನು ಗುರುತಿಸುವುದು" }
        p { "HudukuBot ಕಳಿಸುವ ಪ್ರತಿ ಕೋರಿಕೆಯಲ್ಲೂ ಈ ಬಳಕೆದಾರ-ಏಜೆಂಟ್ (user agent) ಇರುತ್ತದೆ, ಬೇರೆ ಯಾವುದೂ ಅಲ್ಲ:" }
        p { code lang="en" { (r.user_agent) } }
        p { "ಬಳಕೆದಾರ-ಏಜೆಂಟ್ ಅನ್ನು ಯಾರು ಬೇಕಾದರೂ ನಕಲು ಮಾಡಬಹುದು; ಆದ್ದರಿಂದ HudukuBot ಕಳಿಸುವ ಪ್ರತಿ ಕೋರಿಕೆಗೂ ಸಹಿ ಇರುತ್ತದೆ (Web Bot Auth: RFC 9421 ರ HTTP ಸಂದೇಶ ಸಹಿ, Ed25519 ಕೀಲಿಯೊಂದಿಗೆ). ಕೋರಿಕೆ HudukuBot ನದು ಆಗುವುದು ಇವೆಲ್ಲ ಇದ್ದಾಗ ಮಾತ್ರ:" }
        ul {
            li { "ಅದರ " code { "Signature-Input" } " ಗೆ " code { "web-bot-auth" } " ಎಂಬ ಗುರುತು ಇದ್ದು, ಅದು " code { "@authority" } " (ನಿಮ್ಮ ಹೋಸ್ಟ್) ಮತ್ತು " code { (l.directory) } " ಅನ್ನು ಹೆಸರಿಸುವ " code { "Signature-Agent" } " ಶೀರ್ಷಿಕೆಯನ್ನು ಒಳಗೊಂಡಿದ್ದರೆ;" }
            li { "ಅದರ " code { "Signature" } " " a href=(l.keys) { "ಆ ಕೀಲಿ ಪಟ್ಟಿ" } "ಯ ಒಂದು ಕೀಲಿಯಿಂದ ಸರಿಹೊಂದಿದರೆ (ಅದರ " code { "keyid" } " ಕೀಲಿಯ JWK thumbprint" @if !site.keyids.is_empty() { "; ಈಗ " @for (i, k) in site.keyids.iter().enumerate() { @if i > 0 { ", " } code { (k) } } } ");" }
            li { "ಮತ್ತು ಅದರ ಅವಧಿ ಮುಗಿದಿಲ್ಲದಿದ್ದರೆ: ಸಹಿ ಅದರ " code { "created" } " ಸಮಯದಿಂದ " (kn_duration(chrono::Duration::seconds(sign::LIFETIME))) " ಮಾತ್ರ ಸಿಂಧು; ಪ್ರತಿಯೊಂದಕ್ಕೂ ತನ್ನದೇ nonce ಇರುತ್ತದೆ." }
        }
        p { "Cloudflare ನ verified bots, AWS WAF Bot Control ಮುಂತಾದವು ಇದನ್ನು ನಿಮಗಾಗಿ ಪರಿಶೀಲಿಸುತ್ತವೆ. HudukuBot ಹೆಸರಿನ ಕೋರಿಕೆ ಇದರಲ್ಲಿ ಸೋತರೆ, ಕೆಳಗೆ \"ಎಂದೂ ಇಲ್ಲ\" ಎಂದಿರುವುದನ್ನು ಕೇಳಿದರೆ, ಒಂದು ತಾಣದಿಂದ ಒಮ್ಮೆಗೆ ಎರಡನ್ನು ಕೇಳಿದರೆ, ಅಥವಾ ತಾಣ ನಿರಾಕರಿಸಿದ ಮೇಲೂ ಬಂದರೆ, ಅದು HudukuBot ಅಲ್ಲ. " code { (CONTACT) } " ಗೆ ತಿಳಿಸಿ." }
        h2 id="asks" { "HudukuBot ಏನನ್ನು, ಎಷ್ಟು ಬಾರಿ ಕೇಳುತ್ತದೆ" }
        ul {
            li { "robots.txt, ಸುಮಾರು ದಿನಕ್ಕೊಮ್ಮೆ, ಎಲ್ಲಕ್ಕಿಂತ ಮೊದಲು." }
            li { "ನಿಮ್ಮ ಮಾಧ್ಯಮಕ್ಕೆ ಪಟ್ಟಿಯಲ್ಲಿರುವ ಪ್ರತಿ ಫೀಡ್, ಸುದ್ದಿ ಸೈಟ್‌ಮ್ಯಾಪ್ ಅಥವಾ ಮುಖಪುಟ, " (kn_every(r.feed_interval)) "; " (kn_duration(r.min_interval)) "ಕ್ಕಿಂತ ಬೇಗ ಎಂದೂ ಇಲ್ಲ; ಫೀಡ್‌ನ ಸೂಚನೆಗಳು ಕೇಳಿದರೆ " (kn_duration(r.max_hold)) "ಯವರೆಗೆ ತಡವಾಗಿ. ಹಿಂದಿನ ಉತ್ತರದ ಗುರುತುಗಳನ್ನು (validators) ಕಳಿಸುತ್ತದೆ; ಬದಲಾಗದ ಫೀಡ್‌ಗೆ 304 ಸಾಕು." }
            li { "ಪ್ರತಿ ಸಾರ್ವಜನಿಕ ಮುಖ್ಯಾಂಶದ ಕೊಂಡಿಯನ್ನು, ಶೀರ್ಷಿಕೆ-ಮಾಹಿತಿ ಮಾತ್ರ ಕೇಳುವ ಒಂದು ಕೋರಿಕೆಯಿಂದ (HEAD), " (kn_ages(&r.check_ages)) ", ಲೇಖನ ಹಿಂತೆಗೆದುಕೊಳ್ಳಲಾಗಿದೆಯೇ ಎಂದು ನೋಡಲು." }
            li { "ಒಂದು ತಾಣದಿಂದ ಒಮ್ಮೆಗೆ ಒಂದೇ ಕೋರಿಕೆ, ಕನಿಷ್ಠ " (kn_duration(r.min_spacing)) " ಅಂತರದಲ್ಲಿ (robots.txt ನಲ್ಲಿ Crawl-delay ಇದ್ದರೆ ಹೆಚ್ಚು); ಪ್ರತಿಯೊಂದನ್ನೂ " (kn_duration(r.timeout)) "ಯ ನಂತರ ಕೈಬಿಡಲಾಗುತ್ತದೆ; " (bytes(r.body_cap)) "ಗಿಂತ ದೊಡ್ಡ ಉತ್ತರ ಓದದೆ ಬಿಡಲಾಗುತ್ತದೆ; ಹೆಚ್ಚೆಂದರೆ " (r.max_redirects) " ಮರುನಿರ್ದೇಶನಗಳು." }
            li { "ಎಂದೂ ಇಲ್ಲ: ಲೇಖನದ ಪಠ್ಯ, ಚಿತ್ರಗಳು, ಲೋಗೊಗಳು, ಸ್ಕ್ರಿಪ್ಟ್‌ಗಳು, ಶೈಲಿ ಹಾಳೆಗಳು, ಪಟ್ಟಿಯಲ್ಲಿಲ್ಲದ ಪುಟಗಳು, ಅಥವಾ robots.txt ತಡೆಯುವ ಯಾವುದೂ." }
        }
        p { "ಇಡೀ ವಾಗ್ದಾನ, ವಾಕ್ಯವಾರು: " a href=(l.fetching) { "ಹುಡುಕು ಹೇಗೆ ತರುತ್ತದೆ" } ". ಒಂದೇ ಮುಖ್ಯಾಂಶವನ್ನು ತೆಗೆಸಲು " a href=(l.takedowns) { "ತೆಗೆದುಹಾಕುವಿಕೆ" } " ನೋಡಿ." }
        h2 id="contact" { "ಯಾರಿಗೆ ಬರೆಯಬೇಕು" }
        p { code { (CONTACT) } " ಗೆ ಬರೆಯಿರಿ. ಪ್ರತಿ ಸಂದೇಶವನ್ನೂ ಒಬ್ಬರು ಓದುತ್ತಾರೆ. ಹೊರಗುಳಿಯಲು ಅಥವಾ ಅನುಮತಿ ಕೊಡಲು ಬರೆಯುವಾಗ ನಿಮ್ಮ ಪ್ರಕಟಣೆಯ ಡೊಮೇನ್‌ನ ವಿಳಾಸದಿಂದ ಬರೆಯಿರಿ; ಕೋರಿಕೆ ನಿಮ್ಮದೇ ಎಂದು ನಮಗೆ ತಿಳಿಯುತ್ತದೆ." }
    }
}

fn takedowns_en(site: &Site, l: &Links) -> Markup {
    let r = site.rules;
    let n = site.removed;
    html! {
        p { "Anyone may ask for a single headline to be removed: the publisher, the person it names, or a reader who finds it wrong to show." }
        h2 id="ask" { "How to ask" }
        ul {
            li { "Write to " code { (CONTACT) } " with the headline’s link: the address its title on Huduku leads to (the publisher’s page). One link per headline; several in one email are fine." }
            li { "Say who you are and, if you like, why. A reason is not required, and Huduku does not publish it." }
        }
        h2 id="how-fast" { "How fast it goes" }
        p { "A person at Huduku records the link, the day and the reason. The next publish (every hour) takes the headline off every public page and out of the open data of every day, past days included, and the day files that held it are remade. The headline stays in Huduku’s own records, so that it is never shown again even if the publisher’s feed offers it again." }
        h2 id="withdrawn" { "Withdrawn articles" }
        p { "A headline whose article the publisher withdrew leaves the pages without anyone asking: HudukuBot checks each public headline’s link, with a single request for its headers, " (en_ages(&r.check_ages)) ". An answer that the article is gone (404, 410 or 451, or a redirect to the home page or a section page) takes the headline off every page and the open data at the next publish." }
        h2 id="count" { "Headlines removed" }
        p { "Huduku counts removals; it never lists what was removed." }
        ul {
            li { (en_headlines(n.taken_down)) " removed on request." }
            li { (en_headlines(n.withdrawn)) " found withdrawn by their publishers." }
        }
        p { "To keep a whole outlet or site off the pages, see " a href=(l.publishers) { "For publishers" } ". What Huduku keeps, and for how long: " a href=(l.privacy) { "Privacy" } "." }
    }
}

fn takedowns_kn(site: &Site, l: &Links) -> Markup {
    let r = site.rules;
    let n = site.removed;
    html! {
        (draft_kn(l, "Takedowns"))
        p { "ಒಂದೇ ಮುಖ್ಯಾಂಶವನ್ನು ತೆಗೆಸಲು ಯಾರು ಬೇಕಾದರೂ ಕೇಳಬಹುದು: ಪ್ರಕಾಶಕರು, ಅದರಲ್ಲಿ ಹೆಸರಿರುವವರು, ಅಥವಾ ಅದನ್ನು ತೋರಿಸುವುದು ತಪ್ಪೆಂದು ಕಾಣುವ ಓದುಗರು." }
        h2 id="ask" { "ಕೇಳುವುದು ಹೇಗೆ" }
        ul {
            li { "ಮುಖ್ಯಾಂಶದ ಕೊಂಡಿಯೊಂದಿಗೆ (ಹುಡುಕುವಿನಲ್ಲಿ ಅದರ ಶೀರ್ಷಿಕೆ ಕರೆದೊಯ್ಯುವ ಪ್ರಕಾಶಕರ ಪುಟದ ವಿಳಾಸ) " code { (CONTACT) } " ಗೆ ಬರೆಯಿರಿ. ಪ್ರತಿ ಮುಖ್ಯಾಂಶಕ್ಕೆ ಒಂದು ಕೊಂಡಿ; ಒಂದೇ ಇಮೇಲ್‌ನಲ್ಲಿ ಹಲವು ಇರಬಹುದು." }
            li { "ನೀವು ಯಾರು ಎಂದು, ಬೇಕಿದ್ದರೆ ಏಕೆ ಎಂದೂ, ತಿಳಿಸಿ. ಕಾರಣ ಕಡ್ಡಾಯವಲ್ಲ; ಹುಡುಕು ಅದನ್ನು ಪ್ರಕಟಿಸುವುದಿಲ್ಲ." }
        }
        h2 id="how-fast" { "ಎಷ್ಟು ಬೇಗ" }
        p { "ಹುಡುಕುವಿನ ಒಬ್ಬರು ಕೊಂಡಿ, ದಿನ ಮತ್ತು ಕಾರಣವನ್ನು ದಾಖಲಿಸುತ್ತಾರೆ. ಮುಂದಿನ ಪ್ರಕಟಣೆ (ಗಂಟೆಗೊಮ್ಮೆ) ಆ ಮುಖ್ಯಾಂಶವನ್ನು ಎಲ್ಲ ಸಾರ್ವಜನಿಕ ಪುಟಗಳಿಂದ ಮತ್ತು ಎಲ್ಲ ದಿನಗಳ ಮುಕ್ತ ದತ್ತಾಂಶದಿಂದ, ಹಿಂದಿನ ದಿನಗಳದ್ದೂ ಸೇರಿ, ತೆಗೆಯುತ್ತದೆ; ಅದಿದ್ದ ದಿನದ ಕಡತಗಳನ್ನು ಮತ್ತೆ ಮಾಡಲಾಗುತ್ತದೆ. ಪ್ರಕಾಶಕರ ಫೀಡ್ ಅದನ್ನು ಮತ್ತೆ ಕೊಟ್ಟರೂ ಎಂದೂ ಮತ್ತೆ ತೋರಿಸದಂತೆ, ಆ ದಾಖಲೆ ಹುಡುಕುವಿನಲ್ಲೇ ಉಳಿಯುತ್ತದೆ." }
        h2 id="withdrawn" { "ಹಿಂತೆಗೆದುಕೊಂಡ ಲೇಖನಗಳು" }
        p { "ಪ್ರಕಾಶಕರು ಹಿಂತೆಗೆದುಕೊಂಡ ಲೇಖನದ ಮುಖ್ಯಾಂಶ ಯಾರೂ ಕೇಳದೆಯೇ ಪುಟಗಳಿಂದ ಹೋಗುತ್ತದೆ: ಪ್ರತಿ ಸಾರ್ವಜನಿಕ ಮುಖ್ಯಾಂಶದ ಕೊಂಡಿಯನ್ನು HudukuBot, ಶೀರ್ಷಿಕೆ-ಮಾಹಿತಿ ಮಾತ್ರ ಕೇಳುವ ಒಂದು ಕೋರಿಕೆಯಿಂದ, " (kn_ages(&r.check_ages)) " ನೋಡುತ್ತದೆ. ಲೇಖನ ಇಲ್ಲ ಎಂಬ ಉತ್ತರ (404, 410 ಅಥವಾ 451, ಅಥವಾ ಮುಖಪುಟಕ್ಕೆ ಇಲ್ಲವೇ ವಿಭಾಗದ ಪುಟಕ್ಕೆ ಮರುನಿರ್ದೇಶನ) ಬಂದರೆ, ಮುಂದಿನ ಪ್ರಕಟಣೆಯಲ್ಲಿ ಮುಖ್ಯಾಂಶ ಎಲ್ಲ ಪುಟಗಳಿಂದ ಮತ್ತು ಮುಕ್ತ ದತ್ತಾಂಶದಿಂದ ಹೋಗುತ್ತದೆ." }
        h2 id="count" { "ತೆಗೆದ ಮುಖ್ಯಾಂಶಗಳು" }
        p { "ಹುಡುಕು ತೆಗೆದವನ್ನು ಎಣಿಸುತ್ತದೆ; ಅವು ಯಾವುವು ಎಂದು ಎಂದೂ ಪಟ್ಟಿ ಮಾಡುವುದಿಲ್ಲ." }
        ul {
            li { "ಕೋರಿಕೆಯ ಮೇರೆಗೆ ತೆಗೆದವು: " (kn_headlines(n.taken_down)) "." }
            li { "ಪ್ರಕಾಶಕರು ಹಿಂತೆಗೆದುಕೊಂಡವು: " (kn_headlines(n.withdrawn)) "." }
        }
        p { "ಇಡೀ ಮಾಧ್ಯಮ ಅಥವಾ ತಾಣವನ್ನು ಪುಟಗಳಿಂದ ಹೊರಗಿಡಲು " a href=(l.publishers) { "ಪ್ರಕಾಶಕರಿಗೆ" } " ನೋಡಿ. ಹುಡುಕು ಏನನ್ನು, ಎಷ್ಟು ಕಾಲ ಇಟ್ಟುಕೊಳ್ಳುತ್ತದೆ: " a href=(l.privacy) { "ಖಾಸಗಿತನ" } "." }
    }
}

/// "1 headline", "3 headlines".
pub fn en_headlines(n: usize) -> String {
    if n == 1 {
        "1 headline".into()
    } else {
        format!("{n} headlines")
    }
}

/// "1 ಮುಖ್ಯಾಂಶ", "3 ಮುಖ್ಯಾಂಶಗಳು".
pub fn kn_headlines(n: usize) -> String {
    if n == 1 {
        "1 ಮುಖ್ಯಾಂಶ".into()
    } else {
        format!("{n} ಮುಖ್ಯಾಂಶಗಳು")
    }
}

fn privacy_en(site: &Site, l: &Links) -> Markup {
    html! {
        p { "Huduku is made of plain pages and open data. This page says what Huduku keeps, for how long, and what reading the site sends anywhere." }
        h2 id="readers" { "Reading the site" }
        ul {
            li { "The pages set no cookies, run no scripts, and load nothing from anywhere else: no fonts, images, analytics, advertising or embedded players. Text is shown in the fonts your own device has." }
            li { "There are no accounts and no forms. Huduku keeps no record of who reads what; the web server that serves the files sees each request as any web server does, and Huduku uses those logs for nothing but keeping the site running." }
            li { "A headline is a plain link to the publisher’s page. Nothing is sent to the publisher until you follow it; then you are on their site, under their terms." }
        }
        h2 id="headlines" { "Headlines" }
        ul {
            li { "For each headline Huduku keeps the headline, its link, when it was published (or, when the publisher gives no time, when Huduku first saw it), the outlet, the category the publisher filed it under, and the topic Huduku filed it under." }
            li { "For magazines, the author line where a feed gives one: kept, never shown on any page and never in the open data." }
            li { "Summaries are never kept: a summary in a feed is read only to file the headline under a topic, in the hour it was fetched, and is deleted at the end of that run, whatever happens. Article text, images and logos are never fetched." }
            li { "The pages show the last " (site.window) " days. The open data keeps every day’s headlines (the " a href=(l.data) { "open data’s README" } " says what each column means). A headline taken down or withdrawn leaves both, past days included; see " a href=(l.takedowns) { "Takedowns" } "." }
        }
        h2 id="requests" { "Records of HudukuBot’s requests" }
        p { "Every request HudukuBot makes to a publisher is recorded with the day’s files: the address asked, when, the answer’s status, and the validators and caching hints the publisher sent, and every decision not to ask. They record Huduku’s own behaviour, so that anyone auditing can check it against " a href=(l.fetching) { "How Huduku fetches" } "; they name publishers’ addresses, never readers. They are kept with the day’s headlines. Opt-outs, takedowns and permissions are kept as recorded: what they cover, the day, who asked or gave permission, and why." }
        h2 id="videos" { "Videos" }
        ul {
            li { "Huduku lists videos from a few YouTube channels through the YouTube API Services, with Huduku’s key; HudukuBot doesn’t fetch from YouTube." }
            li { "For each video Huduku keeps its id, title, channel, when it was published and when Huduku fetched it; nothing else (no descriptions, no thumbnails, nothing about viewers). Each channel’s list is fetched afresh at least every " (REFRESH_AFTER.num_days()) " days, and anything fetched " (DELETE_AFTER.num_days()) " days ago is deleted: YouTube’s policies allow " (POLICY_DAYS) " days at most." }
            li { "The video pages are plain links: they embed no player and load no thumbnail, so your browser sends nothing to YouTube or Google while you read them. Following a link opens YouTube, where the " a href="https://www.youtube.com/t/terms" { "YouTube Terms of Service" } " and the " a href="https://policies.google.com/privacy" { "Google Privacy Policy" } " apply." }
        }
        h2 id="contact" { "Questions" }
        p { "Write to " code { (CONTACT) } "." }
    }
}

fn privacy_kn(site: &Site, l: &Links) -> Markup {
    html! {
        (draft_kn(l, "Privacy"))
        p { "ಹುಡುಕು ಸರಳ ಪುಟಗಳು ಮತ್ತು ಮುಕ್ತ ದತ್ತಾಂಶದಿಂದ ಆಗಿದೆ. ಹುಡುಕು ಏನನ್ನು, ಎಷ್ಟು ಕಾಲ ಇಟ್ಟುಕೊಳ್ಳುತ್ತದೆ, ಮತ್ತು ತಾಣವನ್ನು ಓದುವುದರಿಂದ ಎಲ್ಲಿಗೆ ಏನು ಹೋಗುತ್ತದೆ ಎಂಬುದನ್ನು ಈ ಪುಟ ಹೇಳುತ್ತದೆ." }
        h2 id="readers" { "ತಾಣವನ್ನು ಓದುವುದು" }
        ul {
            li { "ಪುಟಗಳು ಕುಕೀಗಳನ್ನು ಇಡುವುದಿಲ್ಲ, ಸ್ಕ್ರಿಪ್ಟ್ ನಡೆಸುವುದಿಲ್ಲ, ಬೇರೆಲ್ಲಿಂದಲೂ ಏನನ್ನೂ ತರುವುದಿಲ್ಲ: ಅಕ್ಷರಶೈಲಿ, ಚಿತ್ರ, ವಿಶ್ಲೇಷಣೆ, ಜಾಹೀರಾತು ಅಥವಾ ಅಳವಡಿಸಿದ ಪ್ಲೇಯರ್ ಯಾವುದೂ ಇಲ್ಲ. ಪಠ್ಯ ನಿಮ್ಮ ಸಾಧನದಲ್ಲೇ ಇರುವ ಅಕ್ಷರಶೈಲಿಯಲ್ಲಿ ಕಾಣುತ್ತದೆ." }
            li { "ಖಾತೆಗಳಿಲ್ಲ, ನಮೂನೆಗಳಿಲ್ಲ. ಯಾರು ಏನನ್ನು ಓದುತ್ತಾರೆ ಎಂಬ ದಾಖಲೆಯನ್ನು ಹುಡುಕು ಇಡುವುದಿಲ್ಲ; ಕಡತಗಳನ್ನು ಕೊಡುವ ವೆಬ್ ಸರ್ವರ್ ಯಾವುದೇ ಸರ್ವರ್‌ನಂತೆ ಪ್ರತಿ ಕೋರಿಕೆಯನ್ನು ಕಾಣುತ್ತದೆ; ತಾಣ ನಡೆಯುವಂತೆ ನೋಡಿಕೊಳ್ಳುವುದನ್ನು ಬಿಟ್ಟು ಆ ದಾಖಲೆಗಳನ್ನು ಹುಡುಕು ಬೇರೇನಕ್ಕೂ ಬಳಸುವುದಿಲ್ಲ." }
            li { "ಮುಖ್ಯಾಂಶ ಪ್ರಕಾಶಕರ ಪುಟಕ್ಕೆ ಒಂದು ಸರಳ ಕೊಂಡಿ. ನೀವು ಅದನ್ನು ಒತ್ತುವವರೆಗೆ ಪ್ರಕಾಶಕರಿಗೆ ಏನೂ ಹೋಗುವುದಿಲ್ಲ; ಒತ್ತಿದ ಮೇಲೆ ನೀವು ಅವರ ತಾಣದಲ್ಲಿ, ಅವರ ನಿಯಮಗಳಡಿ ಇರುತ್ತೀರಿ." }
        }
        h2 id="headlines" { "ಮುಖ್ಯಾಂಶಗಳು" }
        ul {
            li { "ಪ್ರತಿ ಮುಖ್ಯಾಂಶಕ್ಕೆ ಹುಡುಕು ಇಟ್ಟುಕೊಳ್ಳುವುದು: ಮುಖ್ಯಾಂಶ, ಅದರ ಕೊಂಡಿ, ಪ್ರಕಟವಾದ ಸಮಯ (ಪ್ರಕಾಶಕರು ಸಮಯ ಕೊಡದಿದ್ದರೆ ಹುಡುಕು ಮೊದಲು ಕಂಡ ಸಮಯ), ಮಾಧ್ಯಮ, ಪ್ರಕಾಶಕರು ಸೇರಿಸಿದ ವರ್ಗ, ಮತ್ತು ಹುಡುಕು ಸೇರಿಸಿದ ವಿಷಯ." }
            li { "ನಿಯತಕಾಲಿಕಗಳಲ್ಲಿ, ಫೀಡ್ ಕೊಟ್ಟರೆ, ಲೇಖಕರ ಸಾಲು: ಇಟ್ಟುಕೊಳ್ಳಲಾಗುತ್ತದೆ, ಆದರೆ ಯಾವ ಪುಟದಲ್ಲೂ ಮುಕ್ತ ದತ್ತಾಂಶದಲ್ಲೂ ತೋರಿಸುವುದಿಲ್ಲ." }
            li { "ಸಾರಾಂಶಗಳನ್ನು ಎಂದೂ ಇಟ್ಟುಕೊಳ್ಳುವುದಿಲ್ಲ: ಫೀಡ್‌ನ ಸಾರಾಂಶವನ್ನು ಮುಖ್ಯಾಂಶವನ್ನು ವಿಷಯದಡಿ ಸೇರಿಸಲು ಮಾತ್ರ, ತಂದ ಗಂಟೆಯಲ್ಲೇ, ಓದಲಾಗುತ್ತದೆ; ಏನೇ ಆದರೂ ಆ ಓಟದ ಕೊನೆಯಲ್ಲಿ ಅಳಿಸಲಾಗುತ್ತದೆ. ಲೇಖನದ ಪಠ್ಯ, ಚಿತ್ರಗಳು, ಲೋಗೊಗಳನ್ನು ಎಂದೂ ತರುವುದಿಲ್ಲ." }
            li { "ಪುಟಗಳು ಕಳೆದ " (site.window) " ದಿನಗಳನ್ನು ತೋರಿಸುತ್ತವೆ. ಮುಕ್ತ ದತ್ತಾಂಶ ಪ್ರತಿ ದಿನದ ಮುಖ್ಯಾಂಶಗಳನ್ನು ಇಟ್ಟುಕೊಳ್ಳುತ್ತದೆ (ಪ್ರತಿ ಅಂಕಣದ ಅರ್ಥಕ್ಕೆ " a href=(l.data) { "ಮುಕ್ತ ದತ್ತಾಂಶದ README" } " ನೋಡಿ). ತೆಗೆದ ಅಥವಾ ಹಿಂತೆಗೆದುಕೊಂಡ ಮುಖ್ಯಾಂಶ ಎರಡರಿಂದಲೂ, ಹಿಂದಿನ ದಿನಗಳದ್ದೂ ಸೇರಿ, ಹೋಗುತ್ತದೆ; " a href=(l.takedowns) { "ತೆಗೆದುಹಾಕುವಿಕೆ" } " ನೋಡಿ." }
        }
        h2 id="requests" { "HudukuBot ಕೋರಿಕೆಗಳ ದಾಖಲೆ" }
        p { "HudukuBot ಪ್ರಕಾಶಕರಿಗೆ ಕಳಿಸುವ ಪ್ರತಿ ಕೋರಿಕೆಯನ್ನೂ ಆ ದಿನದ ಕಡತಗಳೊಂದಿಗೆ ದಾಖಲಿಸಲಾಗುತ್ತದೆ: ಕೇಳಿದ ವಿಳಾಸ, ಯಾವಾಗ, ಉತ್ತರದ ಸ್ಥಿತಿ, ಪ್ರಕಾಶಕರು ಕಳಿಸಿದ ಗುರುತುಗಳು ಮತ್ತು ಸೂಚನೆಗಳು, ಮತ್ತು ಕೇಳದಿರುವ ಪ್ರತಿ ನಿರ್ಧಾರ. ಇವು ಹುಡುಕುವಿನದೇ ನಡವಳಿಕೆಯ ದಾಖಲೆ; ಯಾರಾದರೂ ಅದನ್ನು " a href=(l.fetching) { "ಹುಡುಕು ಹೇಗೆ ತರುತ್ತದೆ" } " ಪುಟದೊಂದಿಗೆ ಹೋಲಿಸಬಹುದು. ಇವು ಪ್ರಕಾಶಕರ ವಿಳಾಸಗಳನ್ನು ಹೆಸರಿಸುತ್ತವೆ, ಓದುಗರನ್ನು ಎಂದೂ ಅಲ್ಲ; ಆ ದಿನದ ಮುಖ್ಯಾಂಶಗಳೊಂದಿಗೆ ಉಳಿಯುತ್ತವೆ. ಹೊರಗುಳಿಕೆ, ತೆಗೆದುಹಾಕುವಿಕೆ ಮತ್ತು ಅನುಮತಿಗಳನ್ನು ದಾಖಲಿಸಿದಂತೆಯೇ ಇಟ್ಟುಕೊಳ್ಳಲಾಗುತ್ತದೆ: ಅವು ಯಾವುದಕ್ಕೆ, ದಿನ, ಕೇಳಿದವರು ಅಥವಾ ಅನುಮತಿ ಕೊಟ್ಟವರು ಯಾರು, ಮತ್ತು ಏಕೆ." }
        h2 id="videos" { "ವಿಡಿಯೊಗಳು" }
        ul {
            li { "ಕೆಲವು YouTube ಚಾನೆಲ್‌ಗಳ ವಿಡಿಯೊಗಳನ್ನು ಹುಡುಕು YouTube API ಸೇವೆಗಳ ಮೂಲಕ, ತನ್ನ ಕೀಲಿಯೊಂದಿಗೆ, ಪಟ್ಟಿ ಮಾಡುತ್ತದೆ; HudukuBot YouTubeನಿಂದ ಏನನ್ನೂ ತರುವುದಿಲ್ಲ." }
            li { "ಪ್ರತಿ ವಿಡಿಯೊಗೆ ಹುಡುಕು ಇಟ್ಟುಕೊಳ್ಳುವುದು ಅದರ ಗುರುತು (id), ಶೀರ್ಷಿಕೆ, ಚಾನೆಲ್, ಪ್ರಕಟವಾದ ಸಮಯ ಮತ್ತು ಹುಡುಕು ತಂದ ಸಮಯ ಮಾತ್ರ (ವಿವರಣೆ, ಕಿರುಚಿತ್ರ, ನೋಡುಗರ ಬಗ್ಗೆ ಏನೂ ಇಲ್ಲ). ಪ್ರತಿ ಚಾನೆಲ್‌ನ ಪಟ್ಟಿಯನ್ನು ಕನಿಷ್ಠ " (REFRESH_AFTER.num_days()) " ದಿನಗಳಿಗೊಮ್ಮೆ ಹೊಸದಾಗಿ ತರಲಾಗುತ್ತದೆ; " (DELETE_AFTER.num_days()) " ದಿನ ಹಿಂದೆ ತಂದದ್ದನ್ನು ಅಳಿಸಲಾಗುತ್ತದೆ: YouTube ನೀತಿಗಳು ಹೆಚ್ಚೆಂದರೆ " (POLICY_DAYS) " ದಿನ ಮಾತ್ರ ಅನುಮತಿಸುತ್ತವೆ." }
            li { "ವಿಡಿಯೊ ಪುಟಗಳು ಸರಳ ಕೊಂಡಿಗಳು: ಪ್ಲೇಯರ್ ಅಳವಡಿಸುವುದಿಲ್ಲ, ಕಿರುಚಿತ್ರ ತರುವುದಿಲ್ಲ; ನೀವು ಓದುವಾಗ ನಿಮ್ಮ ಬ್ರೌಸರ್ YouTube ಅಥವಾ Googleಗೆ ಏನನ್ನೂ ಕಳಿಸುವುದಿಲ್ಲ. ಕೊಂಡಿಯನ್ನು ಒತ್ತಿದರೆ YouTube ತೆರೆಯುತ್ತದೆ; ಅಲ್ಲಿ " a href="https://www.youtube.com/t/terms" lang="en" { "YouTube Terms of Service" } " ಮತ್ತು " a href="https://policies.google.com/privacy" lang="en" { "Google Privacy Policy" } " ಅನ್ವಯಿಸುತ್ತವೆ." }
        }
        h2 id="contact" { "ಪ್ರಶ್ನೆಗಳು" }
        p { code { (CONTACT) } " ಗೆ ಬರೆಯಿರಿ." }
    }
}
