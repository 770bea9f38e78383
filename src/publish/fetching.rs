//! "How Huduku fetches": the public promise, rendered from the very constants the fetcher
//! enforces (`polite`, `fetch`, `recheck`), so the page cannot say one thing while the code
//! does another. The sentences follow the published English page; the Kannada page is the
//! draft translation, marked as such, with the English page the one that counts.

use chrono::Duration as CDuration;
use maud::{Markup, html};

use super::i18n::Lang;

/// The date the promise's wording was last changed.
pub const PROMISE_UPDATED: &str = "2026-10-11";
/// Where publishers write to.
pub const CONTACT: &str = "contact@huduku.org";

/// Where the site's copy of the page goes for the address in a user agent
/// (`HudukuBot/1.0 (+https://huduku.org/fetching)` → `fetching/index.html`), so that the
/// address a publisher finds in their logs is a page. None if it names no path.
pub fn user_agent_page(user_agent: &str) -> Option<String> {
    let (_, rest) = user_agent.split_once("(+")?;
    let url = url::Url::parse(rest.split(')').next()?).ok()?;
    let path = url.path().trim_matches('/');
    let plain = !path.is_empty()
        && !path.contains('.')
        && path
            .split('/')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && !Lang::ALL
            .iter()
            .any(|l| path.split('/').next() == Some(l.code()));
    plain.then(|| format!("{path}/index.html"))
}

/// The numbers the page states, each taken from the code that enforces it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub user_agent: String,
    pub feed_interval: CDuration,
    pub min_interval: CDuration,
    pub max_hold: CDuration,
    pub first_backoff: CDuration,
    pub max_backoff: CDuration,
    pub min_spacing: CDuration,
    pub timeout: CDuration,
    pub body_cap: u64,
    pub max_redirects: usize,
    pub min_wait: CDuration,
    pub waits_to_halt: u32,
    pub check_ages: Vec<i64>,
    pub robots_first_retry: CDuration,
    pub robots_max_retry: CDuration,
    /// A back-off is lengthened by up to 1/this of itself (jitter).
    pub jitter_divisor: i32,
}

impl Rules {
    /// What the fetcher enforces today.
    pub fn enforced() -> Rules {
        use crate::fetch::{FEED_INTERVAL, FIRST_BACKOFF, MAX_BACKOFF, MAX_HOLD, MIN_INTERVAL};
        use crate::polite::{
            BODY_CAP, MAX_REDIRECTS, MIN_SPACING, MIN_WAIT, TIMEOUT, USER_AGENT, WAITS_TO_HALT,
        };
        let std = |d: std::time::Duration| CDuration::from_std(d).unwrap_or(CDuration::MAX);
        Rules {
            user_agent: USER_AGENT.to_string(),
            feed_interval: FEED_INTERVAL,
            min_interval: MIN_INTERVAL,
            max_hold: MAX_HOLD,
            first_backoff: FIRST_BACKOFF,
            max_backoff: MAX_BACKOFF,
            min_spacing: std(MIN_SPACING),
            timeout: std(TIMEOUT),
            body_cap: BODY_CAP,
            max_redirects: MAX_REDIRECTS,
            min_wait: MIN_WAIT,
            waits_to_halt: WAITS_TO_HALT,
            check_ages: crate::recheck::CHECK_AGES.to_vec(),
            robots_first_retry: crate::polite::schedule::ROBOTS_FIRST_RETRY,
            robots_max_retry: crate::polite::schedule::ROBOTS_MAX_RETRY,
            jitter_divisor: crate::polite::schedule::JITTER_DIVISOR,
        }
    }
}

/// A duration in English words: `8 seconds`, `1 second`, `10 minutes`, `an hour`, `6 hours`.
/// "an hour" is what the promise says for one hour.
pub fn en_duration(d: CDuration) -> String {
    let s = d.num_seconds();
    let (n, unit) = if s % 3600 == 0 && s > 0 {
        (s / 3600, "hour")
    } else if s % 60 == 0 && s > 0 {
        (s / 60, "minute")
    } else {
        (s, "second")
    };
    match n {
        1 if unit == "hour" => "an hour".to_string(),
        1 => format!("1 {unit}"),
        n => format!("{n} {unit}s"),
    }
}

/// A duration in Kannada: `8 ಸೆಕೆಂಡು`, `10 ನಿಮಿಷ`, `ಒಂದು ಗಂಟೆ`, `6 ಗಂಟೆ`.
pub fn kn_duration(d: CDuration) -> String {
    let s = d.num_seconds();
    if s == 3600 {
        "ಒಂದು ಗಂಟೆ".to_string()
    } else if s % 3600 == 0 && s > 0 {
        format!("{} ಗಂಟೆ", s / 3600)
    } else if s % 60 == 0 && s > 0 {
        format!("{} ನಿಮಿಷ", s / 60)
    } else {
        format!("{s} ಸೆಕೆಂಡು")
    }
}

/// A byte count as the page writes it: `10 MiB`, `512 KiB`, or bytes.
pub fn bytes(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// Small counts in English words, as the promise writes them ("Three such answers").
pub fn en_count(n: i64) -> String {
    usize::try_from(n)
        .ok()
        .and_then(|i| crate::stories::numbers::EN_WORDS.get(i))
        .map(|w| w.to_string())
        .unwrap_or_else(|| n.to_string())
}

/// "a quarter", "a third", "a half", else "1/N": how much a back-off may be lengthened.
pub(super) fn en_part(n: i32) -> String {
    match n {
        2 => "a half".into(),
        3 => "a third".into(),
        4 => "a quarter".into(),
        n => format!("1/{n}"),
    }
}

/// How often a feed is read: "about once an hour", "about once every 30 minutes".
pub(super) fn en_every(d: CDuration) -> String {
    if d == CDuration::hours(1) {
        "about once an hour".into()
    } else {
        format!("about once every {}", en_duration(d))
    }
}

pub(super) fn kn_every(d: CDuration) -> String {
    if d == CDuration::hours(1) {
        "ಸುಮಾರು ಗಂಟೆಗೊಮ್ಮೆ".into()
    } else {
        format!("ಸುಮಾರು ಪ್ರತಿ {}ಗೆ ಒಮ್ಮೆ", kn_duration(d))
    }
}

/// "two days old and again at sixteen days": the ages of the re-checks.
pub(super) fn en_ages(ages: &[i64]) -> String {
    match ages {
        [] => "never".into(),
        [a] => format!("when the headline is {} days old", en_count(*a)),
        [first, rest @ ..] => {
            let later: Vec<String> = rest.iter().map(|a| en_count(*a)).collect();
            format!(
                "when the headline is {} days old and again at {} days",
                en_count(*first),
                later.join(" and at ")
            )
        }
    }
}

pub(super) fn kn_ages(ages: &[i64]) -> String {
    let parts: Vec<String> = ages.iter().map(|a| format!("{a} ದಿನ")).collect();
    match parts.as_slice() {
        [] => String::new(),
        [first, rest @ ..] if !rest.is_empty() => {
            format!("{first} ಹಳೆಯದಾದಾಗ ಮತ್ತು {}ವಾದಾಗ", rest.join("ವಾದಾಗ ಮತ್ತು "))
        }
        [first, ..] => format!("{first} ಹಳೆಯದಾದಾಗ"),
    }
}

/// Where the page's own links lead, relative to the page.
#[derive(Debug, Clone)]
pub struct Links {
    pub outlets: String,
    pub publishers: String,
    pub takedowns: String,
    pub privacy: String,
    /// The English page (the one that counts), from the Kannada draft.
    pub english: String,
}

/// The page's body (inside `main`, after the `h1` the layout writes).
pub fn body(rules: &Rules, lang: Lang, links: &Links) -> Markup {
    match lang {
        Lang::En => english(rules, links),
        Lang::Kn => kannada(rules, links),
    }
}

fn english(r: &Rules, links: &Links) -> Markup {
    let outlets_href = links.outlets.as_str();
    html! {
        p.meta { "Last updated " (PROMISE_UPDATED) "." }
        p { "Huduku is an independent media-literacy project. It shows headlines from chosen outlets, each with a link to the publisher’s own page. This page says what its fetcher, HudukuBot, asks publishers for, how often, and how to make it stop." }
        h2 { "Who asks" }
        p { "Every request Huduku makes to a publisher’s site carries one name:" }
        p { code.ua { (r.user_agent) } }
        p { "HudukuBot asks under no other name. It uses no proxy, no browser pretending to be a person, and no copy of a site kept by someone else. It never reads Google News or another aggregator in a publisher’s place." }
        h2 { "What it takes" }
        ul {
            li { "From the publisher’s own feed (RSS or Atom), its news sitemap, or, for a few sites, the list of headlines on its own home page: each item’s headline, its link, when it was published, and which outlet published it." }
            li { "Where a feed gives them, the category a piece is filed under (so Huduku can say “Opinion” only when the publisher does) and, for magazines, the author line, which Huduku doesn’t show." }
            li { "A summary in a feed is read only to file the headline under a topic, while the item is in hand, and is not kept. Huduku doesn’t fetch article text, images or logos." }
            li { "To check whether an article has been withdrawn, it asks each public headline’s link once, with a single request for its headers and nothing else, " (en_ages(&r.check_ages)) " (see " a href=(links.takedowns) { "Takedowns" } ")." }
        }
        h2 { "How often" }
        ul {
            li { "Each feed or sitemap is read " (en_every(r.feed_interval)) ". Never more often than once every " (en_duration(r.min_interval)) ", and a feed’s own caching hints may hold it back for up to " (en_duration(r.max_hold)) ". After a failure it waits " (en_duration(r.first_backoff)) ", twice as long after each failure in a row, up to " (en_duration(r.max_backoff)) ", each wait lengthened by up to " (en_part(r.jitter_divisor)) " (fixed for each feed and time), so that feeds do not all come back at once." }
            li { "A site’s robots.txt is read about once a day, and kept for that day. If it cannot be read (an error, no answer, too many redirects), nothing else is asked of the site, and robots.txt is tried again after " (en_duration(r.robots_first_retry)) ", twice as long after each failed read in a row, up to " (en_duration(r.robots_max_retry)) "; never twice within " (en_duration(r.min_interval)) "." }
            li { "It asks a site for one thing at a time, never several at once, with at least " (en_duration(r.min_spacing)) " between the end of one request and the start of the next (longer where robots.txt gives a Crawl-delay)." }
            li { "Each request is given up after " (en_duration(r.timeout)) ". A body larger than " (bytes(r.body_cap)) " is dropped unread. It follows at most " (r.max_redirects) " redirects, and checks each new site’s robots.txt before following one there." }
        }
        h2 { "The rules it keeps" }
        ul {
            li { strong { "robots.txt first." } " Before any request, HudukuBot reads the site’s robots.txt and keeps the rules for HudukuBot if there are any, otherwise those for *. It doesn’t ask for a path they disallow. A content signal of search=no counts as a refusal: a headline and a link are closest to search’s use. So does Content-Usage: search=n, the IETF’s form, in robots.txt or on an answer; where it names a path, HudukuBot doesn’t ask for that path. If robots.txt itself answers 401, 403 or 451, or with a challenge page, the whole site is treated as refused. robots.txt is obeyed as it stands each day: change it, and HudukuBot follows." }
            li { strong { "A refusal is final." } " If any request answers 401, 403 or 451, or with a challenge page, HudukuBot stops reading the whole site: every feed, sitemap and page on it, its robots.txt, and the publisher’s other addresses. It doesn’t try again another way, and the site returns only when the publisher gives permission or lifts the block, with the reason recorded." }
            li { strong { "Asked to wait, it waits." } " On 429 or 503 it waits as long as the Retry-After header asks, and at least " (en_duration(r.min_wait)) ". " (capitalise(&en_count(r.waits_to_halt as i64))) " such answers in a row stop it until someone at Huduku looks." }
        }
        h2 { "Opting out" }
        ul {
            li { "Write one email to " code { (CONTACT) } " from an address at your publication’s domain, naming the outlet or the site. Within 48 hours Huduku stops fetching it and takes its headlines off every public page." }
            li { "Or disallow HudukuBot in your robots.txt: it takes effect within a day, when the file is next read." }
            li { "Which outlets are read, and which have opted out or refused, is on " a href=(outlets_href) { "the list of outlets Huduku reads" } "." }
            li { "More for publishers, including how to give or withhold permission: " a href=(links.publishers) { "For publishers" } ". To have a single headline removed: " a href=(links.takedowns) { "Takedowns" } "." }
        }
        h2 { "Videos" }
        p { "Huduku lists videos from a few YouTube channels through YouTube’s own API, with Huduku’s key; HudukuBot doesn’t fetch from YouTube. " a href=(links.privacy) { "The privacy page" } " says what is kept." }
    }
}

fn kannada(r: &Rules, links: &Links) -> Markup {
    let (outlets_href, english_href) = (links.outlets.as_str(), links.english.as_str());
    html! {
        p.meta { "ಕರಡು, " (PROMISE_UPDATED) ". ಈ ಕನ್ನಡ ಪಠ್ಯವನ್ನು ಇನ್ನೂ ಕನ್ನಡಿಗ ಓದುಗರೊಬ್ಬರು ಮತ್ತು ವಕೀಲರು ಓದಿಲ್ಲ. ಇದು ಇಂಗ್ಲಿಷ್ ಪುಟದ ಅನುವಾದ; ಎರಡರಲ್ಲಿ ವ್ಯತ್ಯಾಸ ಕಂಡರೆ ಇಂಗ್ಲಿಷ್ ಪುಟವೇ ಸರಿ." }
        p { a href=(english_href) hreflang="en" lang="en" { "How Huduku fetches, in English" } }
        p { "ಹುಡುಕು ಒಂದು ಸ್ವತಂತ್ರ ಮಾಧ್ಯಮ-ಸಾಕ್ಷರತಾ ಯೋಜನೆ. ಆಯ್ದ ಮಾಧ್ಯಮಗಳ ಮುಖ್ಯಾಂಶಗಳನ್ನು, ಪ್ರತಿಯೊಂದಕ್ಕೂ ಪ್ರಕಾಶಕರ ಪುಟದ ಕೊಂಡಿಯೊಂದಿಗೆ, ಅದು ತೋರಿಸುತ್ತದೆ. ಅದರ ತರುವ ಯಂತ್ರ HudukuBot ಪ್ರಕಾಶಕರಿಂದ ಏನನ್ನು ಕೇಳುತ್ತದೆ, ಎಷ್ಟು ಬಾರಿ, ಮತ್ತು ಅದನ್ನು ನಿಲ್ಲಿಸುವುದು ಹೇಗೆ ಎಂಬುದನ್ನು ಈ ಪುಟ ಹೇಳುತ್ತದೆ." }
        h2 { "ಯಾರು ಕೇಳುತ್ತಾರೆ" }
        p { "ಪ್ರಕಾಶಕರ ತಾಣಕ್ಕೆ ಹುಡುಕು ಕಳಿಸುವ ಪ್ರತಿ ಕೋರಿಕೆಯಲ್ಲೂ ಒಂದೇ ಹೆಸರು:" }
        p { code.ua lang="en" { (r.user_agent) } }
        p { "HudukuBot ಬೇರೆ ಯಾವ ಹೆಸರಿನಲ್ಲೂ ಕೇಳುವುದಿಲ್ಲ. ಪ್ರಾಕ್ಸಿ ಬಳಸುವುದಿಲ್ಲ, ಮನುಷ್ಯನಂತೆ ನಟಿಸುವ ಬ್ರೌಸರ್ ಬಳಸುವುದಿಲ್ಲ, ಬೇರೆಯವರು ಇಟ್ಟುಕೊಂಡ ತಾಣದ ನಕಲನ್ನೂ ಬಳಸುವುದಿಲ್ಲ. ಪ್ರಕಾಶಕರ ಬದಲಿಗೆ Google News ಅಥವಾ ಬೇರೆ ಸಂಗ್ರಾಹಕವನ್ನು ಅದು ಎಂದಿಗೂ ಓದುವುದಿಲ್ಲ." }
        h2 { "ಅದು ತೆಗೆದುಕೊಳ್ಳುವುದು" }
        ul {
            li { "ಪ್ರಕಾಶಕರದೇ ಫೀಡ್ (RSS ಅಥವಾ Atom), ಅವರ ಸುದ್ದಿ ಸೈಟ್‌ಮ್ಯಾಪ್, ಅಥವಾ ಕೆಲವು ತಾಣಗಳಲ್ಲಿ ಅವರದೇ ಮುಖಪುಟದ ಮುಖ್ಯಾಂಶಗಳ ಪಟ್ಟಿಯಿಂದ: ಪ್ರತಿಯೊಂದರ ಮುಖ್ಯಾಂಶ, ಕೊಂಡಿ, ಪ್ರಕಟವಾದ ಸಮಯ ಮತ್ತು ಅದನ್ನು ಪ್ರಕಟಿಸಿದ ಮಾಧ್ಯಮ." }
            li { "ಫೀಡ್ ಕೊಟ್ಟರೆ, ಬರಹವನ್ನು ಸೇರಿಸಿದ ವರ್ಗ (ಪ್ರಕಾಶಕರು ಹೇಳಿದಾಗ ಮಾತ್ರ ಹುಡುಕು “ಅಭಿಪ್ರಾಯ” ಎನ್ನಲು), ಮತ್ತು ನಿಯತಕಾಲಿಕಗಳಲ್ಲಿ ಲೇಖಕರ ಸಾಲು; ಅದನ್ನು ಹುಡುಕು ತೋರಿಸುವುದಿಲ್ಲ." }
            li { "ಫೀಡ್‌ನಲ್ಲಿರುವ ಸಾರಾಂಶವನ್ನು ಮುಖ್ಯಾಂಶವನ್ನು ಒಂದು ವಿಷಯದಡಿ ಸೇರಿಸಲು, ಅದು ಕೈಯಲ್ಲಿರುವಾಗಲೇ, ಓದಲಾಗುತ್ತದೆ; ಉಳಿಸಿಕೊಳ್ಳುವುದಿಲ್ಲ. ಲೇಖನದ ಪಠ್ಯ, ಚಿತ್ರಗಳು ಅಥವಾ ಲೋಗೊಗಳನ್ನು ಹುಡುಕು ತರುವುದಿಲ್ಲ." }
            li { "ಲೇಖನವನ್ನು ಹಿಂತೆಗೆದುಕೊಳ್ಳಲಾಗಿದೆಯೇ ಎಂದು ನೋಡಲು, ಸಾರ್ವಜನಿಕ ಮುಖ್ಯಾಂಶದ ಕೊಂಡಿಯನ್ನು ಅದು " (kn_ages(&r.check_ages)) " ಒಮ್ಮೆ, ಅದರ ಶೀರ್ಷಿಕೆ-ಮಾಹಿತಿ (headers) ಮಾತ್ರ ಕೇಳುವ ಒಂದು ಕೋರಿಕೆಯಿಂದ, ಕೇಳುತ್ತದೆ (" a href=(links.takedowns) { "ತೆಗೆದುಹಾಕುವಿಕೆ" } " ನೋಡಿ)." }
        }
        h2 { "ಎಷ್ಟು ಬಾರಿ" }
        ul {
            li { "ಪ್ರತಿ ಫೀಡ್ ಅಥವಾ ಸೈಟ್‌ಮ್ಯಾಪ್ ಅನ್ನು " (kn_every(r.feed_interval)) " ಓದಲಾಗುತ್ತದೆ. " (kn_duration(r.min_interval)) "ಕ್ಕಿಂತ ಬೇಗ ಎಂದೂ ಮತ್ತೆ ಓದುವುದಿಲ್ಲ; ಫೀಡ್‌ನದೇ ಸೂಚನೆಗಳು ಅದನ್ನು " (kn_duration(r.max_hold)) "ಯವರೆಗೆ ತಡೆಯಬಹುದು. ವಿಫಲವಾದರೆ " (kn_duration(r.first_backoff)) " ಕಾಯುತ್ತದೆ; ಸತತ ಪ್ರತಿ ವೈಫಲ್ಯಕ್ಕೂ ಕಾಯುವಿಕೆ ಇಮ್ಮಡಿಯಾಗುತ್ತದೆ, " (kn_duration(r.max_backoff)) "ಯವರೆಗೆ; ಎಲ್ಲ ಫೀಡ್‌ಗಳು ಒಟ್ಟಿಗೆ ಮರಳದಂತೆ ಪ್ರತಿ ಕಾಯುವಿಕೆ ಅದರ 1/" (r.jitter_divisor) " ಭಾಗದವರೆಗೆ ಹೆಚ್ಚಬಹುದು." }
            li { "ತಾಣದ robots.txt ಅನ್ನು ಸುಮಾರು ದಿನಕ್ಕೊಮ್ಮೆ ಓದಿ, ಆ ದಿನಕ್ಕೆ ಇಟ್ಟುಕೊಳ್ಳಲಾಗುತ್ತದೆ. ಅದನ್ನು ಓದಲಾಗದಿದ್ದರೆ ತಾಣದಿಂದ ಬೇರೇನನ್ನೂ ಕೇಳುವುದಿಲ್ಲ; robots.txt ಅನ್ನು " (kn_duration(r.robots_first_retry)) "ಯ ನಂತರ ಮತ್ತೆ ಪ್ರಯತ್ನಿಸುತ್ತದೆ, ಸತತ ಪ್ರತಿ ವೈಫಲ್ಯಕ್ಕೂ ಇಮ್ಮಡಿ, " (kn_duration(r.robots_max_retry)) "ಯವರೆಗೆ; " (kn_duration(r.min_interval)) "ದೊಳಗೆ ಎರಡು ಬಾರಿ ಎಂದೂ ಇಲ್ಲ." }
            li { "ಒಂದು ತಾಣದಿಂದ ಒಮ್ಮೆಗೆ ಒಂದನ್ನೇ ಕೇಳುತ್ತದೆ; ಹಲವನ್ನು ಒಟ್ಟಿಗೆ ಎಂದೂ ಕೇಳುವುದಿಲ್ಲ. ಒಂದು ಕೋರಿಕೆ ಮುಗಿದು ಮುಂದಿನದು ಆರಂಭವಾಗುವ ನಡುವೆ ಕನಿಷ್ಠ " (kn_duration(r.min_spacing)) " (robots.txt ನಲ್ಲಿ Crawl-delay ಇದ್ದರೆ ಅದಕ್ಕಿಂತ ಹೆಚ್ಚು)." }
            li { "ಪ್ರತಿ ಕೋರಿಕೆಯನ್ನು " (kn_duration(r.timeout)) "ಯ ನಂತರ ಕೈಬಿಡಲಾಗುತ್ತದೆ. " (bytes(r.body_cap)) "ಗಿಂತ ದೊಡ್ಡ ಉತ್ತರವನ್ನು ಓದದೆ ಬಿಡಲಾಗುತ್ತದೆ. ಹೆಚ್ಚೆಂದರೆ " (r.max_redirects) " ಮರುನಿರ್ದೇಶನಗಳನ್ನು (redirects) ಹಿಂಬಾಲಿಸುತ್ತದೆ; ಹೊಸ ತಾಣಕ್ಕೆ ಹೋಗುವ ಮುನ್ನ ಅದರ robots.txt ನೋಡುತ್ತದೆ." }
        }
        h2 { "ಅದು ಪಾಲಿಸುವ ನಿಯಮಗಳು" }
        ul {
            li { strong { "ಮೊದಲು robots.txt." } " ಯಾವುದೇ ಕೋರಿಕೆಗೆ ಮುನ್ನ HudukuBot ತಾಣದ robots.txt ಓದುತ್ತದೆ; HudukuBotಗೆ ನಿಯಮಗಳಿದ್ದರೆ ಅವನ್ನು, ಇಲ್ಲದಿದ್ದರೆ *ಗೆ ಇರುವವನ್ನು ಪಾಲಿಸುತ್ತದೆ. ಅವು ಬೇಡವೆನ್ನುವ ದಾರಿಯನ್ನು ಕೇಳುವುದಿಲ್ಲ. search=no ಎಂಬ ವಿಷಯ-ಸೂಚನೆ (content signal) ನಿರಾಕರಣೆಗೆ ಸಮ: ಮುಖ್ಯಾಂಶ ಮತ್ತು ಕೊಂಡಿ ಹುಡುಕಾಟದ ಬಳಕೆಗೆ ಹತ್ತಿರ. IETFನ Content-Usage: search=n ಕೂಡ ಹಾಗೆಯೇ; ಅದು ಒಂದು ದಾರಿಯನ್ನು ಹೆಸರಿಸಿದರೆ, ಆ ದಾರಿಯನ್ನು ಕೇಳುವುದಿಲ್ಲ. robots.txt ತಾನೇ 401, 403 ಅಥವಾ 451, ಅಥವಾ ತಡೆಗೋಡೆ ಪುಟ ಉತ್ತರಿಸಿದರೆ, ಇಡೀ ತಾಣ ನಿರಾಕರಿಸಿದೆ ಎಂದು ತಿಳಿಯಲಾಗುತ್ತದೆ. robots.txt ಅನ್ನು ಪ್ರತಿದಿನ ಅದು ಇರುವಂತೆ ಪಾಲಿಸಲಾಗುತ್ತದೆ: ಅದನ್ನು ಬದಲಿಸಿದರೆ HudukuBot ಹಿಂಬಾಲಿಸುತ್ತದೆ." }
            li { strong { "ನಿರಾಕರಣೆ ಅಂತಿಮ." } " ಕೋರಿಕೆಗೆ 401, 403 ಅಥವಾ 451, ಅಥವಾ ತಡೆಗೋಡೆ (challenge) ಪುಟ ಉತ್ತರ ಬಂದರೆ, HudukuBot ಇಡೀ ತಾಣವನ್ನೇ ಓದುವುದನ್ನು ನಿಲ್ಲಿಸುತ್ತದೆ: ಅದರ ಎಲ್ಲ ಫೀಡ್‌ಗಳು, ಸೈಟ್‌ಮ್ಯಾಪ್‌ಗಳು, ಪುಟಗಳು, ಅದರ robots.txt, ಮತ್ತು ಅದೇ ಪ್ರಕಾಶಕರ ಇತರ ವಿಳಾಸಗಳು. ಬೇರೆ ದಾರಿಯಲ್ಲಿ ಮತ್ತೆ ಪ್ರಯತ್ನಿಸುವುದಿಲ್ಲ; ಪ್ರಕಾಶಕರು ಅನುಮತಿ ಕೊಟ್ಟಾಗ ಅಥವಾ ತಡೆಯನ್ನು ತೆಗೆದಾಗ, ಕಾರಣವನ್ನು ದಾಖಲಿಸಿ, ಮಾತ್ರ ಆ ತಾಣ ಮರಳುತ್ತದೆ." }
            li { strong { "ಕಾಯಲು ಹೇಳಿದರೆ ಕಾಯುತ್ತದೆ." } " 429 ಅಥವಾ 503 ಬಂದರೆ Retry-After ಹೇಳುವಷ್ಟು ಹೊತ್ತು, ಕನಿಷ್ಠ " (kn_duration(r.min_wait)) ", ಕಾಯುತ್ತದೆ. ಸತತ " (r.waits_to_halt) " ಬಾರಿ ಹಾಗೆ ಬಂದರೆ, ಹುಡುಕುವಿನಲ್ಲಿ ಯಾರಾದರೂ ನೋಡುವವರೆಗೆ ನಿಲ್ಲುತ್ತದೆ." }
        }
        h2 { "ಹೊರಗುಳಿಯುವುದು" }
        ul {
            li { "ನಿಮ್ಮ ಪ್ರಕಟಣೆಯ ಡೊಮೇನ್‌ನ ವಿಳಾಸದಿಂದ " code { (CONTACT) } " ಗೆ ಮಾಧ್ಯಮ ಅಥವಾ ತಾಣದ ಹೆಸರಿನೊಂದಿಗೆ ಒಂದು ಇಮೇಲ್ ಬರೆಯಿರಿ. 48 ಗಂಟೆಗಳೊಳಗೆ ಹುಡುಕು ಅದನ್ನು ತರುವುದನ್ನು ನಿಲ್ಲಿಸಿ, ಅದರ ಮುಖ್ಯಾಂಶಗಳನ್ನು ಎಲ್ಲ ಸಾರ್ವಜನಿಕ ಪುಟಗಳಿಂದ ತೆಗೆಯುತ್ತದೆ." }
            li { "ಅಥವಾ ನಿಮ್ಮ robots.txt ನಲ್ಲಿ HudukuBot ಅನ್ನು ತಡೆಯಿರಿ: ಕಡತವನ್ನು ಮುಂದೆ ಓದಿದಾಗ, ಒಂದು ದಿನದೊಳಗೆ, ಜಾರಿಗೆ ಬರುತ್ತದೆ." }
            li { "ಯಾವ ಮಾಧ್ಯಮಗಳನ್ನು ಓದಲಾಗುತ್ತದೆ, ಯಾವುವು ಹೊರಗುಳಿದಿವೆ ಅಥವಾ ನಿರಾಕರಿಸಿವೆ ಎಂಬುದು " a href=(outlets_href) { "ಹುಡುಕು ಓದುವ ಮಾಧ್ಯಮಗಳ ಪಟ್ಟಿ" } "ಯಲ್ಲಿದೆ." }
            li { "ಅನುಮತಿ ಕೊಡುವುದು ಅಥವಾ ತಡೆಹಿಡಿಯುವುದು ಸೇರಿದಂತೆ ಪ್ರಕಾಶಕರಿಗೆ ಇನ್ನಷ್ಟು: " a href=(links.publishers) { "ಪ್ರಕಾಶಕರಿಗೆ" } ". ಒಂದೇ ಮುಖ್ಯಾಂಶವನ್ನು ತೆಗೆಸಲು: " a href=(links.takedowns) { "ತೆಗೆದುಹಾಕುವಿಕೆ" } "." }
        }
        h2 { "ವಿಡಿಯೊಗಳು" }
        p { "ಕೆಲವು YouTube ಚಾನೆಲ್‌ಗಳ ವಿಡಿಯೊಗಳನ್ನು ಹುಡುಕು YouTubeನದೇ API ಮೂಲಕ, ತನ್ನ ಕೀಲಿಯೊಂದಿಗೆ, ಪಟ್ಟಿ ಮಾಡುತ್ತದೆ; HudukuBot YouTubeನಿಂದ ಏನನ್ನೂ ತರುವುದಿಲ್ಲ. ಏನನ್ನು ಇಟ್ಟುಕೊಳ್ಳಲಾಗುತ್ತದೆ ಎಂಬುದನ್ನು " a href=(links.privacy) { "ಖಾಸಗಿತನದ ಪುಟ" } " ಹೇಳುತ್ತದೆ." }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(r: &Rules, lang: Lang) -> String {
        let links = Links {
            outlets: "outlets/index.html".into(),
            publishers: "publishers.html".into(),
            takedowns: "takedowns.html".into(),
            privacy: "privacy.html".into(),
            english: "../en/fetching.html".into(),
        };
        body(r, lang, &links).into_string()
    }

    #[test]
    fn the_user_agents_address_is_a_page() {
        assert_eq!(
            user_agent_page(crate::polite::USER_AGENT).as_deref(),
            Some("fetching/index.html")
        );
        assert_eq!(
            user_agent_page("X/1 (+https://a.example/about/bot/)").as_deref(),
            Some("about/bot/index.html")
        );
        for none in [
            "X/1",
            "X/1 (+https://a.example/)",
            "X/1 (+https://a.example/en/x)",
            "X/1 (+https://a.example/x.html)",
        ] {
            assert_eq!(user_agent_page(none), None, "{none}");
        }
    }

    #[test]
    fn durations_read_as_the_promise_writes_them() {
        assert_eq!(en_duration(CDuration::hours(1)), "an hour");
        assert_eq!(en_duration(CDuration::hours(6)), "6 hours");
        assert_eq!(en_duration(CDuration::minutes(10)), "10 minutes");
        assert_eq!(en_duration(CDuration::seconds(1)), "1 second");
        assert_eq!(en_duration(CDuration::seconds(90)), "90 seconds");
        assert_eq!(kn_duration(CDuration::hours(1)), "ಒಂದು ಗಂಟೆ");
        assert_eq!(bytes(10 * 1024 * 1024), "10 MiB");
        assert_eq!(en_count(16), "sixteen");
        assert_eq!(en_count(40), "40");
    }

    #[test]
    fn the_page_follows_the_rules_it_is_given() {
        // Change every number: the page must change with it, so none is written in by hand.
        let enforced = Rules::enforced();
        let other = Rules {
            user_agent: "HudukuBot/9.9 (+https://example.org/x)".into(),
            feed_interval: CDuration::minutes(30),
            min_interval: CDuration::minutes(7),
            max_hold: CDuration::hours(13),
            first_backoff: CDuration::minutes(11),
            max_backoff: CDuration::hours(9),
            min_spacing: CDuration::seconds(3),
            timeout: CDuration::seconds(17),
            body_cap: 3 * 1024 * 1024,
            max_redirects: 4,
            min_wait: CDuration::hours(2),
            waits_to_halt: 7,
            check_ages: vec![3, 19],
            robots_first_retry: CDuration::hours(3),
            robots_max_retry: CDuration::hours(30),
            jitter_divisor: 3,
        };
        let en = page(&other, Lang::En);
        for want in [
            "HudukuBot/9.9 (+https://example.org/x)",
            "about once every 30 minutes",
            "once every 7 minutes",
            "up to 13 hours",
            "waits 11 minutes",
            "up to 9 hours",
            "at least 3 seconds",
            "after 17 seconds",
            "larger than 3 MiB",
            "at most 4 redirects",
            "at least 2 hours",
            "Seven such answers",
            "three days old and again at nineteen days",
            "tried again after 3 hours",
            "up to 30 hours; never twice within 7 minutes",
            "lengthened by up to a third",
        ] {
            assert!(en.contains(want), "{want:?} not in the page:\n{en}");
        }
        let kn = page(&other, Lang::Kn);
        for want in [
            "HudukuBot/9.9",
            "ಕನಿಷ್ಠ 2 ಗಂಟೆ",
            "ಸತತ 7 ಬಾರಿ",
            "3 ದಿನ ಹಳೆಯದಾದಾಗ ಮತ್ತು 19 ದಿನವಾದಾಗ",
        ] {
            assert!(kn.contains(want), "{want:?} not in the Kannada page:\n{kn}");
        }
        assert_ne!(page(&enforced, Lang::En), en);
    }
}
