//! The interface text of the public pages, in Kannada and English, and the reader's clock.
//!
//! Headlines are shown as the publishers wrote them; only the words around them change with
//! the page's language. Times are shown in one configured zone (IST by default) with the
//! UTC instant kept machine-readable beside them.

use anyhow::{Result, bail};
use chrono::{DateTime, Datelike, FixedOffset, Utc};

/// A language of the interface. Every page exists once in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lang {
    Kn,
    En,
}

impl Lang {
    /// Both languages; the first is the site's default (the root `index.html`).
    pub const ALL: [Lang; 2] = [Lang::Kn, Lang::En];

    /// The BCP 47 tag, also the directory the language's pages live in.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Kn => "kn",
            Lang::En => "en",
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::Kn => Lang::En,
            Lang::En => Lang::Kn,
        }
    }

    /// The interface text of this language.
    pub fn text(self) -> &'static Text {
        match self {
            Lang::Kn => &KN,
            Lang::En => &EN,
        }
    }
}

/// Fixed interface strings of one language.
pub struct Text {
    /// The language's own name, for the switch that leads to it.
    pub name: &'static str,
    /// The switch's link text, in the language it leads to.
    pub read_in: &'static str,
    pub site: &'static str,
    pub tagline: &'static str,
    pub skip: &'static str,
    pub nav: &'static str,
    pub latest: &'static str,
    pub archive: &'static str,
    pub topics: &'static str,
    pub outlets: &'static str,
    pub fetching: &'static str,
    /// The video pages (`publish::videos`).
    pub videos: &'static str,
    pub open_data: &'static str,
    pub opinion: &'static str,
    pub first_seen: &'static str,
    pub no_headlines: &'static str,
    pub latest_note: &'static str,
    pub cap_note: &'static str,
    /// On a day's page of one topic that lists only the newest of the topic's headlines.
    pub day_cap_note: &'static str,
    pub headlines: &'static str,
    pub day_note: &'static str,
    pub csv: &'static str,
    pub jsonl: &'static str,
    pub readme: &'static str,
    pub licence: &'static str,
    pub link_note: &'static str,
    pub followed: &'static str,
    pub followed_note: &'static str,
    pub not_followed: &'static str,
    pub not_followed_note: &'static str,
    pub none: &'static str,
    pub outlet: &'static str,
    pub language: &'static str,
    pub sites: &'static str,
    pub status: &'static str,
    pub status_followed: &'static str,
    pub opted_out: &'static str,
    pub refused: &'static str,
    pub halted: &'static str,
    pub robots_refused: &'static str,
    pub days_kept: &'static str,
    /// The footer's links to the pages about Huduku itself.
    /// The status of an outlet whose sources all wait for a person's check.
    pub awaiting_check: &'static str,
    pub about_nav: &'static str,
    pub publishers: &'static str,
    pub takedowns: &'static str,
    pub privacy: &'static str,
    /// Before the time the newest headline on the site was found (the front page).
    pub updated: &'static str,
    /// The visible link to a page's Atom feed, and the feed's `title` in the page's head.
    pub feed: &'static str,
    /// Meta descriptions of pages that span the days.
    pub describe_archive: &'static str,
    pub describe_topics: &'static str,
    pub describe_outlets: &'static str,
    pub describe_fetching: &'static str,
}

pub static EN: Text = Text {
    name: "English",
    read_in: "Read in English",
    site: "Huduku",
    tagline: "Headlines from chosen Kannada and English outlets, each a link to the publisher's own page.",
    skip: "Skip to the main content",
    nav: "Site sections",
    latest: "Latest headlines",
    archive: "Archive by day",
    topics: "Topics",
    outlets: "Outlets followed",
    fetching: "How Huduku fetches",
    videos: "Videos",
    open_data: "Open data",
    opinion: "Opinion",
    first_seen: "time first seen; the publisher gave none",
    no_headlines: "No headlines yet.",
    latest_note: "The newest headlines, by topic, newest first.",
    cap_note: "Only the newest are listed here; the day pages and the open data have them all.",
    day_cap_note: "Only the newest are listed here; the day's open data has them all:",
    headlines: "headlines",
    day_note: "Headlines Huduku found on this UTC day, by topic, newest first.",
    csv: "CSV",
    jsonl: "JSON lines",
    readme: "What each column means, and the licence",
    licence: "Open data licence",
    link_note: "Every headline links to the publisher's own page. Huduku shows no summaries and no article text.",
    followed: "Outlets Huduku reads",
    followed_note: "Huduku reads these outlets' own feeds, news sitemaps or home pages.",
    not_followed: "Not read: opted out, refused, stopped or not yet checked",
    not_followed_note: "Huduku does not read these now. An outlet that opted out has none of its headlines on any page; headlines read before a refusal stay, each a link to its publisher.",
    none: "None.",
    outlet: "Outlet",
    language: "Language",
    sites: "Sites",
    status: "Status",
    status_followed: "Read",
    opted_out: "Opted out",
    refused: "Refused HudukuBot",
    halted: "Stopped after repeated requests to wait",
    robots_refused: "robots.txt refuses HudukuBot",
    days_kept: "Days kept",
    awaiting_check: "Not read yet: its feeds wait for a check by a person at Huduku.",
    about_nav: "About Huduku",
    publishers: "For publishers",
    takedowns: "Takedowns",
    privacy: "Privacy",
    updated: "Updated",
    feed: "Atom feed of these headlines",
    describe_archive: "Every day Huduku keeps, with how many headlines each has and its open data as CSV and JSON lines.",
    describe_topics: "The topics Huduku files headlines under, from politics to sport, each with its newest headlines.",
    describe_outlets: "The Kannada and English outlets Huduku reads, and those that opted out, refused or were stopped, since when.",
    describe_fetching: "How HudukuBot reads publishers' feeds: one user agent, robots.txt first, a refusal is final, one request at a time.",
};

pub static KN: Text = Text {
    name: "ಕನ್ನಡ",
    read_in: "ಕನ್ನಡದಲ್ಲಿ ಓದಿ",
    site: "ಹುಡುಕು",
    tagline: "ಆಯ್ದ ಕನ್ನಡ ಮತ್ತು ಇಂಗ್ಲಿಷ್ ಮಾಧ್ಯಮಗಳ ಮುಖ್ಯಾಂಶಗಳು, ಪ್ರತಿಯೊಂದೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿ.",
    skip: "ಮುಖ್ಯ ಭಾಗಕ್ಕೆ ನೇರವಾಗಿ ಹೋಗಿ",
    nav: "ತಾಣದ ವಿಭಾಗಗಳು",
    latest: "ಇತ್ತೀಚಿನ ಮುಖ್ಯಾಂಶಗಳು",
    archive: "ದಿನವಾರು ಸಂಗ್ರಹ",
    topics: "ವಿಷಯಗಳು",
    outlets: "ಓದುವ ಮಾಧ್ಯಮಗಳು",
    fetching: "ಹುಡುಕು ಹೇಗೆ ತರುತ್ತದೆ",
    videos: "ವಿಡಿಯೊಗಳು",
    open_data: "ಮುಕ್ತ ದತ್ತಾಂಶ",
    opinion: "ಅಭಿಪ್ರಾಯ",
    first_seen: "ಮೊದಲು ಕಂಡ ಸಮಯ; ಪ್ರಕಾಶಕರು ಸಮಯ ಕೊಟ್ಟಿಲ್ಲ",
    no_headlines: "ಇನ್ನೂ ಮುಖ್ಯಾಂಶಗಳಿಲ್ಲ.",
    latest_note: "ಹೊಸ ಮುಖ್ಯಾಂಶಗಳು, ವಿಷಯವಾರು, ಹೊಸದು ಮೊದಲು.",
    cap_note: "ಇಲ್ಲಿ ಹೊಸವು ಮಾತ್ರ; ಎಲ್ಲವೂ ದಿನದ ಪುಟಗಳಲ್ಲಿ ಮತ್ತು ಮುಕ್ತ ದತ್ತಾಂಶದಲ್ಲಿವೆ.",
    day_cap_note: "ಇಲ್ಲಿ ಹೊಸವು ಮಾತ್ರ; ಎಲ್ಲವೂ ಈ ದಿನದ ಮುಕ್ತ ದತ್ತಾಂಶದಲ್ಲಿವೆ:",
    headlines: "ಮುಖ್ಯಾಂಶಗಳು",
    day_note: "ಈ UTC ದಿನ ಹುಡುಕು ಕಂಡ ಮುಖ್ಯಾಂಶಗಳು, ವಿಷಯವಾರು, ಹೊಸದು ಮೊದಲು.",
    csv: "CSV",
    jsonl: "JSON ಸಾಲುಗಳು",
    readme: "ಪ್ರತಿ ಅಂಕಣದ ಅರ್ಥ ಮತ್ತು ಪರವಾನಗಿ",
    licence: "ಮುಕ್ತ ದತ್ತಾಂಶದ ಪರವಾನಗಿ",
    link_note: "ಪ್ರತಿ ಮುಖ್ಯಾಂಶವೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿ. ಹುಡುಕು ಸಾರಾಂಶವನ್ನಾಗಲೀ ಲೇಖನದ ಪಠ್ಯವನ್ನಾಗಲೀ ತೋರಿಸುವುದಿಲ್ಲ.",
    followed: "ಹುಡುಕು ಓದುವ ಮಾಧ್ಯಮಗಳು",
    followed_note: "ಈ ಮಾಧ್ಯಮಗಳದೇ ಫೀಡ್, ಸುದ್ದಿ ಸೈಟ್‌ಮ್ಯಾಪ್ ಅಥವಾ ಮುಖಪುಟವನ್ನು ಹುಡುಕು ಓದುತ್ತದೆ.",
    not_followed: "ಓದದಿರುವವು: ಹೊರಗುಳಿದವು, ನಿರಾಕರಿಸಿದವು, ನಿಲ್ಲಿಸಿದವು ಅಥವಾ ಇನ್ನೂ ಪರಿಶೀಲಿಸದವು",
    not_followed_note: "ಇವನ್ನು ಹುಡುಕು ಈಗ ಓದುವುದಿಲ್ಲ. ಹೊರಗುಳಿದ ಮಾಧ್ಯಮದ ಯಾವ ಮುಖ್ಯಾಂಶವೂ ಯಾವ ಪುಟದಲ್ಲೂ ಇರುವುದಿಲ್ಲ; ನಿರಾಕರಣೆಗೆ ಮುನ್ನ ಓದಿದ ಮುಖ್ಯಾಂಶಗಳು, ಪ್ರಕಾಶಕರ ಪುಟದ ಕೊಂಡಿಯೊಂದಿಗೆ, ಉಳಿಯುತ್ತವೆ.",
    none: "ಯಾವುದೂ ಇಲ್ಲ.",
    outlet: "ಮಾಧ್ಯಮ",
    language: "ಭಾಷೆ",
    sites: "ತಾಣಗಳು",
    status: "ಸ್ಥಿತಿ",
    status_followed: "ಓದಲಾಗುತ್ತಿದೆ",
    opted_out: "ಹೊರಗುಳಿದಿದೆ",
    refused: "HudukuBot ಅನ್ನು ನಿರಾಕರಿಸಿದೆ",
    halted: "ಪದೇ ಪದೇ ಕಾಯಲು ಹೇಳಿದ್ದರಿಂದ ನಿಲ್ಲಿಸಲಾಗಿದೆ",
    robots_refused: "robots.txt HudukuBot ಅನ್ನು ತಡೆದಿದೆ",
    days_kept: "ಇಟ್ಟಿರುವ ದಿನಗಳು",
    awaiting_check: "ಇನ್ನೂ ಓದಿಲ್ಲ: ಇದರ ಫೀಡ್‌ಗಳನ್ನು ಹುಡುಕುವಿನ ಒಬ್ಬರು ಪರಿಶೀಲಿಸಬೇಕಿದೆ.",
    about_nav: "ಹುಡುಕು ಬಗ್ಗೆ",
    publishers: "ಪ್ರಕಾಶಕರಿಗೆ",
    takedowns: "ತೆಗೆದುಹಾಕುವಿಕೆ",
    privacy: "ಖಾಸಗಿತನ",
    updated: "ನವೀಕರಿಸಿದ್ದು",
    feed: "ಈ ಮುಖ್ಯಾಂಶಗಳ Atom ಫೀಡ್",
    describe_archive: "ಹುಡುಕು ಇಟ್ಟಿರುವ ಪ್ರತಿ ದಿನ, ಅದರ ಮುಖ್ಯಾಂಶಗಳ ಸಂಖ್ಯೆ ಮತ್ತು CSV, JSON ಸಾಲುಗಳಲ್ಲಿ ಮುಕ್ತ ದತ್ತಾಂಶದೊಂದಿಗೆ.",
    describe_topics: "ಹುಡುಕು ಮುಖ್ಯಾಂಶಗಳನ್ನು ವಿಂಗಡಿಸುವ ವಿಷಯಗಳು, ರಾಜಕೀಯದಿಂದ ಕ್ರೀಡೆಯವರೆಗೆ, ಪ್ರತಿಯೊಂದರ ಹೊಸ ಮುಖ್ಯಾಂಶಗಳೊಂದಿಗೆ.",
    describe_outlets: "ಹುಡುಕು ಓದುವ ಕನ್ನಡ ಮತ್ತು ಇಂಗ್ಲಿಷ್ ಮಾಧ್ಯಮಗಳು, ಹಾಗೂ ಹೊರಗುಳಿದ, ನಿರಾಕರಿಸಿದ ಅಥವಾ ನಿಲ್ಲಿಸಿದ ಮಾಧ್ಯಮಗಳು, ಯಾವಾಗಿನಿಂದ ಎಂಬುದರೊಂದಿಗೆ.",
    describe_fetching: "HudukuBot ಪ್ರಕಾಶಕರ ಫೀಡ್‌ಗಳನ್ನು ಹೇಗೆ ಓದುತ್ತದೆ: ಒಂದೇ ಹೆಸರು, ಮೊದಲು robots.txt, ನಿರಾಕರಣೆ ಅಂತಿಮ, ಒಮ್ಮೆಗೆ ಒಂದೇ ವಿನಂತಿ.",
};

/// A count of headlines with the noun in the right number: `1 headline`, `2 headlines`;
/// `1 ಮುಖ್ಯಾಂಶ`, `2 ಮುಖ್ಯಾಂಶಗಳು`.
pub fn count(n: usize, lang: Lang) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 headline".into(),
        (Lang::En, n) => format!("{n} headlines"),
        (Lang::Kn, 1) => "1 ಮುಖ್ಯಾಂಶ".into(),
        (Lang::Kn, n) => format!("{n} ಮುಖ್ಯಾಂಶಗಳು"),
    }
}

/// The default licence line of the open data in Kannada (the English is
/// `export::DEFAULT_LICENCE`).
pub const DEFAULT_LICENCE_KN: &str = "CC BY 4.0, ಮಾಧ್ಯಮಗಳ ಹೆಸರನ್ನು ಉಲ್ಲೇಖಿಸಿ";

/// The licence line as a page of the language shows it, and the language of the line when it
/// is not the page's: the default has words in both languages; a licence given with
/// `--licence` is shown as given, in English.
pub fn licence(given: &str, lang: Lang) -> (&str, Option<&'static str>) {
    match lang {
        Lang::En => (given, None),
        Lang::Kn if given == super::export::DEFAULT_LICENCE => (DEFAULT_LICENCE_KN, None),
        Lang::Kn => (given, Some("en")),
    }
}

/// The meta description of a day's page.
pub fn describe_day(day: &str, n: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} found by Huduku on {}, by topic, each a link to the publisher's own page.",
            capitalised(&count(n, lang)),
            day_name(day, lang)
        ),
        Lang::Kn => format!(
            "{} ರಂದು ಹುಡುಕು ಕಂಡ {}, ವಿಷಯವಾರು, ಪ್ರತಿಯೊಂದೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿ.",
            day_name(day, lang),
            count(n, lang)
        ),
    }
}

/// The meta description of a topic's page (of the days, or of one day).
pub fn describe_topic(label: &str, day: Option<&str>, lang: Lang) -> String {
    match (lang, day) {
        (Lang::En, None) => format!(
            "The newest headlines on {label} from Kannada and English outlets, each a link to the publisher's own page."
        ),
        (Lang::En, Some(d)) => format!(
            "Headlines on {label} found on {}, each a link to the publisher's own page.",
            day_name(d, lang)
        ),
        (Lang::Kn, None) => {
            format!("{label}: ಕನ್ನಡ ಮತ್ತು ಇಂಗ್ಲಿಷ್ ಮಾಧ್ಯಮಗಳ ಹೊಸ ಮುಖ್ಯಾಂಶಗಳು, ಪ್ರತಿಯೊಂದೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿ.")
        }
        (Lang::Kn, Some(d)) => format!(
            "{label}: {} ರಂದು ಕಂಡ ಮುಖ್ಯಾಂಶಗಳು, ಪ್ರತಿಯೊಂದೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿ.",
            day_name(d, lang)
        ),
    }
}

/// The meta description of an outlet's page.
pub fn describe_outlet(name: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "The newest headlines from {name} that Huduku found, each a link to the publisher's own page."
        ),
        Lang::Kn => format!("ಹುಡುಕು ಕಂಡ {name} ಮಾಧ್ಯಮದ ಹೊಸ ಮುಖ್ಯಾಂಶಗಳು, ಪ್ರತಿಯೊಂದೂ ಪ್ರಕಾಶಕರದೇ ಪುಟಕ್ಕೆ ಕೊಂಡಿ."),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// An outlet's sources that have had no good answer for a day or more: "Not answering since
/// DATE" when all of them, "N of its M sources not answering since DATE" when some. `since`
/// is the earliest day one of them began to fail (or gave its last good answer), if known.
pub fn not_answering(
    failing: usize,
    of: usize,
    since: Option<chrono::NaiveDate>,
    lang: Lang,
) -> String {
    let when = |s: &str| match since {
        Some(d) => format!("{s} {}", self::since(d, lang)),
        None => s.to_string(),
    };
    match lang {
        Lang::En if failing >= of => when("Not answering"),
        Lang::En => when(&format!("{failing} of its {of} sources not answering")),
        Lang::Kn => {
            let who = if failing >= of {
                String::new()
            } else {
                format!("{of} ಮೂಲಗಳಲ್ಲಿ {failing} ")
            };
            match since {
                Some(d) => format!("{who}{} ಉತ್ತರಿಸುತ್ತಿಲ್ಲ", self::since(d, lang)),
                None => format!("{who}ಉತ್ತರಿಸುತ್ತಿಲ್ಲ"),
            }
        }
    }
}

/// Kannada script in Latin letters (see [`crate::stories::translit::latin`]): an outlet
/// page's file name, and the stories' cross-language matching, read Kannada the same way.
pub use crate::stories::translit::latin;

/// Topic names in English and Kannada.
pub fn topic_label(topic: &str, lang: Lang) -> &'static str {
    let (en, kn) = match topic {
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
    };
    match lang {
        Lang::En => en,
        Lang::Kn => kn,
    }
}

const MONTHS_EN: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
/// The months in Kannada, January first (also read by the stories' numbers, `ಮಾರ್ಚ್ 23`).
pub(crate) const MONTHS_KN: [&str; 12] = [
    "ಜನವರಿ",
    "ಫೆಬ್ರವರಿ",
    "ಮಾರ್ಚ್",
    "ಏಪ್ರಿಲ್",
    "ಮೇ",
    "ಜೂನ್",
    "ಜುಲೈ",
    "ಆಗಸ್ಟ್",
    "ಸೆಪ್ಟೆಂಬರ್",
    "ಅಕ್ಟೋಬರ್",
    "ನವೆಂಬರ್",
    "ಡಿಸೆಂಬರ್",
];

/// A date in the language: `30 Nov 2026` or `30 ನವೆಂಬರ್ 2026`.
pub fn date(d: chrono::NaiveDate, lang: Lang) -> String {
    let m = d.month0() as usize;
    let month = match lang {
        Lang::En => MONTHS_EN[m],
        Lang::Kn => MONTHS_KN[m],
    };
    format!("{} {} {}", d.day(), month, d.year())
}

/// "since DATE" in the language.
pub fn since(d: chrono::NaiveDate, lang: Lang) -> String {
    match lang {
        Lang::En => format!("since {}", date(d, lang)),
        Lang::Kn => format!("{} ರಿಂದ", date(d, lang)),
    }
}

/// A `YYYY-MM-DD` day name in the language (the name itself if it is not a day).
pub fn day_name(day: &str, lang: Lang) -> String {
    match chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d") {
        Ok(d) => date(d, lang),
        Err(_) => day.to_string(),
    }
}

/// The zone times are shown in: a fixed offset from UTC and the name readers know it by.
#[derive(Debug, Clone, PartialEq)]
pub struct Zone {
    pub offset: FixedOffset,
    pub name: String,
}

impl Zone {
    /// India Standard Time, UTC+05:30 (no daylight saving).
    pub fn ist() -> Zone {
        Zone {
            offset: FixedOffset::east_opt(5 * 3600 + 30 * 60).expect("valid offset"),
            name: "IST".into(),
        }
    }

    /// Reads `Asia/Kolkata`, `IST`, `UTC`, or a fixed offset `+05:30` optionally followed by
    /// the zone's name (`+05:30 IST`, `-03:00 BRT`).
    pub fn parse(s: &str) -> Result<Zone> {
        let s = s.trim();
        match s {
            "Asia/Kolkata" | "Asia/Calcutta" | "IST" => return Ok(Zone::ist()),
            "UTC" | "Etc/UTC" | "Z" => {
                return Ok(Zone {
                    offset: FixedOffset::east_opt(0).expect("valid offset"),
                    name: "UTC".into(),
                });
            }
            _ => {}
        }
        let (off, name) = match s.split_once(char::is_whitespace) {
            Some((o, n)) => (o, Some(n.trim())),
            None => (s, None),
        };
        let bad = || {
            anyhow::anyhow!(
                "--tz {s:?}: expected Asia/Kolkata, IST, UTC or an offset such as \"+05:30 IST\""
            )
        };
        let sign = match off.as_bytes().first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return Err(bad()),
        };
        let (h, m) = off[1..].split_once(':').ok_or_else(bad)?;
        let (h, m): (i32, i32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
        if !(0..=14).contains(&h) || !(0..60).contains(&m) {
            return Err(bad());
        }
        let offset = FixedOffset::east_opt(sign * (h * 3600 + m * 60)).ok_or_else(bad)?;
        let name = match name {
            Some(n) if !n.is_empty() => {
                if n.chars().any(|c| c.is_control()) || n.chars().count() > 32 {
                    bail!("--tz {s:?}: the zone's name must be short, plain text");
                }
                n.to_string()
            }
            _ => format!("UTC{off}"),
        };
        Ok(Zone { offset, name })
    }

    /// A time as readers see it: `30 Nov 2026, 10:45 IST`.
    pub fn show(&self, t: DateTime<Utc>, lang: Lang) -> String {
        use chrono::Timelike;
        let local = t.with_timezone(&self.offset);
        format!(
            "{}, {:02}:{:02} {}",
            date(local.date_naive(), lang),
            local.hour(),
            local.minute(),
            self.name
        )
    }

    /// The local calendar day of a time.
    pub fn local_day(&self, t: DateTime<Utc>) -> chrono::NaiveDate {
        t.with_timezone(&self.offset).date_naive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ist_is_five_and_a_half_hours_ahead() {
        let t = crate::time::parse_now("2026-11-29T18:40:00Z").unwrap();
        assert_eq!(Zone::ist().show(t, Lang::En), "30 Nov 2026, 00:10 IST");
        assert_eq!(Zone::ist().show(t, Lang::Kn), "30 ನವೆಂಬರ್ 2026, 00:10 IST");
        assert_eq!(Zone::parse("Asia/Kolkata").unwrap(), Zone::ist());
    }

    #[test]
    fn counts_take_the_noun_in_the_right_number() {
        assert_eq!(count(1, Lang::En), "1 headline");
        assert_eq!(count(0, Lang::En), "0 headlines");
        assert_eq!(count(2, Lang::En), "2 headlines");
        assert_eq!(count(1, Lang::Kn), "1 ಮುಖ್ಯಾಂಶ");
        assert_eq!(count(24, Lang::Kn), "24 ಮುಖ್ಯಾಂಶಗಳು");
    }

    #[test]
    fn kannada_names_read_in_latin_letters() {
        for (kn, latin_) in [
            ("ನಮ್ಮ ಪತ್ರಿಕೆ", "namma patrike"),
            ("ಪ್ರಜಾವಾಣಿ", "prajavani"),
            ("ವಿಜಯ ಕರ್ನಾಟಕ", "vijaya karnataka"),
            ("ಉದಯವಾಣಿ", "udayavani"),
            ("ಕನ್ನಡಪ್ರಭ", "kannadaprabha"),
            ("ಸಂಯುಕ್ತ ಕರ್ನಾಟಕ", "samyukta karnataka"),
            ("ಹೊಸ ದಿಗಂತ", "hosa diganta"),
            ("ಸಂಪಾದಕೀಯ", "sampadakiya"),
            ("ಈ ಸಂಜೆ", "i sanje"),
            ("ಸುದ್ದಿ ೨೪x೭", "suddi 24x7"),
            ("Deccan ಹೆರಾಲ್ಡ್", "Deccan herald"),
        ] {
            assert_eq!(latin(kn), latin_, "{kn}");
        }
        assert!(latin("ಕನ್ನಡ").is_ascii());
    }

    #[test]
    fn the_default_licence_has_kannada_words_and_a_given_one_is_shown_as_given() {
        let default = super::super::export::DEFAULT_LICENCE;
        assert_eq!(licence(default, Lang::Kn), (DEFAULT_LICENCE_KN, None));
        assert_eq!(licence(default, Lang::En), (default, None));
        assert_eq!(licence("CC0 1.0", Lang::Kn), ("CC0 1.0", Some("en")));
        assert_eq!(
            not_answering(
                2,
                2,
                chrono::NaiveDate::from_ymd_opt(2026, 11, 27),
                Lang::En
            ),
            "Not answering since 27 Nov 2026"
        );
        assert_eq!(
            not_answering(
                1,
                3,
                chrono::NaiveDate::from_ymd_opt(2026, 11, 27),
                Lang::En
            ),
            "1 of its 3 sources not answering since 27 Nov 2026"
        );
        assert_eq!(
            not_answering(
                1,
                1,
                chrono::NaiveDate::from_ymd_opt(2026, 11, 27),
                Lang::Kn
            ),
            "27 ನವೆಂಬರ್ 2026 ರಿಂದ ಉತ್ತರಿಸುತ್ತಿಲ್ಲ"
        );
    }

    #[test]
    fn zones_parse_or_say_what_is_expected() {
        let z = Zone::parse("-03:00 BRT").unwrap();
        assert_eq!(z.offset.local_minus_utc(), -3 * 3600);
        assert_eq!(z.name, "BRT");
        assert_eq!(Zone::parse("+05:45").unwrap().name, "UTC+05:45");
        assert_eq!(Zone::parse("UTC").unwrap().offset.local_minus_utc(), 0);
        for bad in ["Europe/Paris", "05:30", "+5", "+25:00", "+05:30 \u{7}"] {
            assert!(Zone::parse(bad).is_err(), "{bad}");
        }
        let e = Zone::parse("Mars/Olympus").unwrap_err();
        assert!(format!("{e:#}").contains("Asia/Kolkata"));
    }
}
