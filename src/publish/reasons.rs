//! The reasons the fetcher records for a stop, in plain words for the public pages.
//!
//! A refusal or a halt carries the fetcher's own code (`refused-403`, `challenge-cloudflare`,
//! `halted-3-waits`, ...; see `polite::outcome`, `polite::Polite` and `state::State::apply`),
//! and a robots.txt verdict a short sentence of its own (`robots.txt answered 403`). Those are
//! for operators and auditors: the outlets page says in words, in the page's language, what
//! the site did. A code without words here is left out of the page rather than shown raw;
//! the test below reads the fetcher's source for every code it can write, so a new one
//! fails it until it has words in both languages.

use super::i18n::Lang;

/// Who makes a challenge page, by the name the fetcher's code gives the vendor.
fn vendor(v: &str) -> Option<&'static str> {
    Some(match v {
        "cloudflare" => "Cloudflare",
        "aws-waf" => "AWS WAF",
        "datadome" => "DataDome",
        "perimeterx" => "PerimeterX (HUMAN)",
        "akamai" => "Akamai",
        "imperva" => "Imperva (Incapsula)",
        "sucuri" => "Sucuri",
        _ => return None,
    })
}

/// An HTTP status of three digits.
fn status(s: &str) -> Option<u16> {
    (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// What the site answered to a request, by status, as a refusal.
fn refused(code: u16, lang: Lang) -> String {
    match (lang, code) {
        (Lang::En, 401) => "it asked for a login (HTTP 401)".into(),
        (Lang::En, 403) => "it answered that access is forbidden (HTTP 403)".into(),
        (Lang::En, 451) => {
            "it answered that its pages are unavailable for legal reasons (HTTP 451)".into()
        }
        (Lang::En, n) => format!("it refused with HTTP {n}"),
        (Lang::Kn, 401) => "ಲಾಗಿನ್ ಕೇಳಿತು (HTTP 401)".into(),
        (Lang::Kn, 403) => "ಪ್ರವೇಶವನ್ನು ನಿಷೇಧಿಸಿತು (HTTP 403)".into(),
        (Lang::Kn, 451) => "ಕಾನೂನು ಕಾರಣಗಳಿಂದ ಪುಟಗಳು ಲಭ್ಯವಿಲ್ಲ ಎಂದಿತು (HTTP 451)".into(),
        (Lang::Kn, n) => format!("HTTP {n} ಉತ್ತರದೊಂದಿಗೆ ನಿರಾಕರಿಸಿತು"),
    }
}

/// What the site's robots.txt answered, by status, as a refusal.
fn robots_refused(code: u16, lang: Lang) -> String {
    match (lang, code) {
        (Lang::En, 401) => "its robots.txt asked for a login (HTTP 401)".into(),
        (Lang::En, 403) => "its robots.txt is forbidden to HudukuBot (HTTP 403)".into(),
        (Lang::En, 451) => "its robots.txt is unavailable for legal reasons (HTTP 451)".into(),
        (Lang::En, n) => format!("its robots.txt refused with HTTP {n}"),
        (Lang::Kn, 401) => "ಅದರ robots.txt ಲಾಗಿನ್ ಕೇಳಿತು (HTTP 401)".into(),
        (Lang::Kn, 403) => "ಅದರ robots.txt HudukuBot ಗೆ ಪ್ರವೇಶ ನಿಷೇಧಿಸಿತು (HTTP 403)".into(),
        (Lang::Kn, 451) => "ಅದರ robots.txt ಕಾನೂನು ಕಾರಣಗಳಿಂದ ಲಭ್ಯವಿಲ್ಲ (HTTP 451)".into(),
        (Lang::Kn, n) => format!("ಅದರ robots.txt HTTP {n} ಉತ್ತರದೊಂದಿಗೆ ನಿರಾಕರಿಸಿತು"),
    }
}

fn challenge(name: &str, on_robots: bool, lang: Lang) -> String {
    match (lang, on_robots) {
        (Lang::En, false) => format!("it answered with a {name} page that checks for robots"),
        (Lang::En, true) => {
            format!("its robots.txt answered with a {name} page that checks for robots")
        }
        (Lang::Kn, false) => format!("ರೋಬಾಟ್‌ಗಳನ್ನು ತಪಾಸಿಸುವ {name} ಪುಟವನ್ನು ಉತ್ತರವಾಗಿ ನೀಡಿತು"),
        (Lang::Kn, true) => {
            format!("ಅದರ robots.txt ಬದಲು ರೋಬಾಟ್‌ಗಳನ್ನು ತಪಾಸಿಸುವ {name} ಪುಟ ಬಂತು")
        }
    }
}

/// The words for a recorded reason, in the language; `None` for a reason it does not know
/// (the page then says only what kind of stop it is).
pub fn words(reason: &str, lang: Lang) -> Option<String> {
    let reason = reason.trim();
    if let Some(first) = reason.strip_suffix(" (met re-checking one of its headlines)") {
        let w = words(first, lang)?;
        return Some(match lang {
            Lang::En => format!("{w}, when HudukuBot re-checked one of its headlines"),
            Lang::Kn => format!("{w}; ಅದರ ಒಂದು ಮುಖ್ಯಾಂಶವನ್ನು ಮರುಪರಿಶೀಲಿಸುವಾಗ"),
        });
    }
    if let Some(v) = reason.strip_prefix("challenge-") {
        return vendor(v).map(|name| challenge(name, false, lang));
    }
    if let Some(rest) = reason.strip_prefix("robots.txt answered ") {
        return match rest.split_once(" with challenge-") {
            Some((s, v)) => {
                status(s)?;
                vendor(v).map(|name| challenge(name, true, lang))
            }
            None => status(rest).map(|s| robots_refused(s, lang)),
        };
    }
    if let Some(s) = reason.strip_prefix("refused-").and_then(status) {
        return Some(refused(s, lang));
    }
    if let Some(s) = reason.strip_prefix("robots-").and_then(status) {
        return Some(robots_refused(s, lang));
    }
    if let Some(s) = reason.strip_prefix("http-").and_then(status) {
        return Some(match lang {
            Lang::En => format!("it answered with a server error (HTTP {s})"),
            Lang::Kn => format!("ಸರ್ವರ್ ದೋಷದ ಉತ್ತರ ನೀಡಿತು (HTTP {s})"),
        });
    }
    if let Some(s) = reason
        .strip_prefix("redirect-")
        .and_then(|r| r.strip_suffix("-without-location"))
        .and_then(status)
    {
        return Some(match lang {
            Lang::En => format!("it sent a redirect without saying where to (HTTP {s})"),
            Lang::Kn => format!("ಎಲ್ಲಿಗೆ ಎಂದು ಹೇಳದೆ ಮರುನಿರ್ದೇಶಿಸಿತು (HTTP {s})"),
        });
    }
    if let Some(n) = reason
        .strip_prefix("halted-")
        .and_then(|r| r.strip_suffix("-waits"))
        .and_then(|n| n.parse::<u32>().ok())
    {
        return Some(match lang {
            Lang::En => {
                format!("it asked HudukuBot to wait {n} times in a row (HTTP 429 or 503)")
            }
            Lang::Kn => format!("HudukuBot ಗೆ ಸತತ {n} ಬಾರಿ ಕಾಯಲು ಹೇಳಿತು (HTTP 429 ಅಥವಾ 503)"),
        });
    }
    if let Some(n) = reason
        .strip_prefix("asked to wait longer than ")
        .and_then(|r| r.strip_suffix(" days"))
        .and_then(|n| n.parse::<u32>().ok())
    {
        return Some(match lang {
            Lang::En => format!("it asked HudukuBot to wait longer than {n} days"),
            Lang::Kn => format!("HudukuBot ಗೆ {n} ದಿನಕ್ಕಿಂತ ಹೆಚ್ಚು ಕಾಲ ಕಾಯಲು ಹೇಳಿತು"),
        });
    }
    Some(
        match (reason, lang) {
            ("content-usage-search-n", Lang::En) => {
                "its answers say they may not be used for search (Content-Usage: search=n)"
            }
            ("content-usage-search-n", Lang::Kn) => {
                "ತನ್ನ ಪುಟಗಳನ್ನು ಹುಡುಕಾಟಕ್ಕೆ ಬಳಸಬಾರದು ಎಂದು ಉತ್ತರದಲ್ಲೇ ಹೇಳಿತು (Content-Usage: search=n)"
            }
            ("robots-search-no" | "Content-Signal search=no", Lang::En) => {
                "its robots.txt says no to use for search (Content-Signal: search=no)"
            }
            ("robots-search-no" | "Content-Signal search=no", Lang::Kn) => {
                "ಅದರ robots.txt ಹುಡುಕಾಟಕ್ಕೆ ಬಳಸಲು ಒಪ್ಪುವುದಿಲ್ಲ (Content-Signal: search=no)"
            }
            ("robots-content-usage-search-n" | "Content-Usage search=n", Lang::En) => {
                "its robots.txt says its pages may not be used for search (Content-Usage: search=n)"
            }
            ("robots-content-usage-search-n" | "Content-Usage search=n", Lang::Kn) => {
                "ಅದರ robots.txt ಪ್ರಕಾರ ಪುಟಗಳನ್ನು ಹುಡುಕಾಟಕ್ಕೆ ಬಳಸಬಾರದು (Content-Usage: search=n)"
            }
            _ => return None,
        }
        .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// Kebab-case literals near a `reason` in the fetcher's source that are not reasons: the
    /// names of outcomes, stages and headers.
    const NOT_REASONS: &[&str] = &[
        "check-source",      // a stage name (fetch-feeds --check)
        "content-usage",     // a header name
        "lifted-halt",       // an outcome
        "lifted-refusal",    // an outcome
        "off-site",          // an outcome
        "x-amzn-waf-action", // a header name
        "x-sucuri-block",    // a header name
    ];

    /// Reasons written as sentences (robots.txt verdicts, a long wait, a refusal met on a
    /// re-check), as the fetcher's source spells them; `{}` stand for what it fills in.
    const SENTENCES: &[&str] = &[
        "Content-Signal search=no",
        "Content-Usage search=n",
        "robots.txt answered {status}",
        "robots.txt answered {status} with {reason}",
        "asked to wait longer than {} days",
        "{reason} (met re-checking one of its headlines)",
    ];

    fn source(rel: &str) -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(rel))
            .unwrap()
    }

    /// The fetcher's source files that write reasons, their tests left out.
    fn fetcher_sources() -> Vec<(String, String)> {
        let mut files: Vec<String> =
            std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/polite"))
                .unwrap()
                .map(|e| format!("polite/{}", e.unwrap().file_name().to_string_lossy()))
                .filter(|f| f.ends_with(".rs"))
                .collect();
        files.extend(["state.rs", "fetch.rs", "recheck.rs"].map(String::from));
        files.sort();
        files
            .into_iter()
            .map(|f| {
                let text = source(&f);
                let code = text.split("#[cfg(test)]").next().unwrap().to_string();
                (f, code)
            })
            .collect()
    }

    /// The string literals of a line.
    fn literals(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = line;
        while let Some(start) = rest.find('"') {
            let after = &rest[start + 1..];
            let mut end = None;
            let mut escaped = false;
            for (i, c) in after.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let Some(end) = end else { break };
            out.push(after[..end].to_string());
            rest = &after[end + 1..];
        }
        out
    }

    /// `refused-403`, `challenge-{vendor}`, `halted-{WAITS_TO_HALT}-waits`: lower-case words
    /// joined by hyphens, placeholders allowed.
    fn is_code(s: &str) -> bool {
        let mut parts = s.split('-');
        let first = parts.next().unwrap_or("");
        let word = |p: &str| {
            !p.is_empty()
                && (p
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                    || (p.starts_with('{') && p.ends_with('}')))
        };
        first.starts_with(|c: char| c.is_ascii_lowercase())
            && word(first)
            && s.contains('-')
            && parts.all(word)
    }

    /// The challenge vendors of the body markers (`("marker", "vendor"),` lines).
    fn marker_vendors() -> BTreeSet<String> {
        let text = source("polite/outcome.rs");
        let list = text
            .split("const BODY_MARKERS")
            .nth(1)
            .unwrap()
            .split("];")
            .next()
            .unwrap()
            .to_string();
        let vendors: BTreeSet<String> = list
            .lines()
            .filter_map(|l| literals(l).get(1).cloned())
            .collect();
        assert!(vendors.len() >= 5, "{vendors:?}");
        vendors
    }

    /// Every value a reason template stands for.
    fn expand(template: &str, challenges: &BTreeSet<String>) -> Vec<String> {
        let mut out = vec![template.to_string()];
        let fills: Vec<(&str, Vec<String>)> = vec![
            (
                "{status}",
                ["401", "403", "451", "500", "503"]
                    .map(String::from)
                    .to_vec(),
            ),
            (
                "{vendor}",
                marker_vendors()
                    .into_iter()
                    .chain(challenges.iter().filter_map(|c| {
                        c.strip_prefix("challenge-")
                            .filter(|v| !v.contains('{'))
                            .map(String::from)
                    }))
                    .collect(),
            ),
            (
                "{WAITS_TO_HALT}",
                vec![crate::polite::WAITS_TO_HALT.to_string()],
            ),
            ("{reason}", challenges.iter().cloned().collect()),
            ("{}", vec![crate::polite::MAX_WAIT.num_days().to_string()]),
        ];
        for (hole, values) in fills {
            out = out
                .into_iter()
                .flat_map(|t| {
                    if t.contains(hole) {
                        values.iter().map(|v| t.replacen(hole, v, 1)).collect()
                    } else {
                        vec![t]
                    }
                })
                .collect();
        }
        for t in &out {
            assert!(
                !t.contains('{'),
                "{template}: a placeholder the test does not fill: {t}"
            );
        }
        out
    }

    #[test]
    fn every_reason_the_fetcher_writes_has_words_in_both_languages() {
        // Every kebab-case literal on or just after a line that speaks of a reason or a
        // refusal (or a challenge's `Some((code, evidence))`).
        let mut codes = BTreeSet::new();
        let sources = fetcher_sources();
        for (_, text) in &sources {
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if !(line.contains("reason") || line.contains("refusal") || line.contains("Some(("))
                {
                    continue;
                }
                for l in &lines[i..(i + 3).min(lines.len())] {
                    codes.extend(literals(l).into_iter().filter(|s| is_code(s)));
                }
            }
        }
        for known in [
            "refused-{status}",
            "challenge-cloudflare",
            "halted-{WAITS_TO_HALT}-waits",
        ] {
            assert!(codes.contains(known), "the scan finds {known}: {codes:?}");
        }
        let codes: BTreeSet<String> = codes
            .into_iter()
            .filter(|c| !NOT_REASONS.contains(&c.as_str()))
            .collect();
        let challenges: BTreeSet<String> = codes
            .iter()
            .filter(|c| c.starts_with("challenge-"))
            .flat_map(|c| expand(c, &BTreeSet::new()))
            .collect();
        // The sentences are still what the fetcher writes.
        let all: String = sources.iter().map(|(_, t)| t.as_str()).collect();
        for s in SENTENCES {
            assert!(
                all.contains(&format!("\"{s}\"")),
                "the fetcher no longer writes {s:?}: give its new wording words here"
            );
        }
        let mut checked = 0;
        for template in codes
            .iter()
            .map(String::as_str)
            .chain(SENTENCES.iter().copied())
        {
            for reason in expand(template, &challenges) {
                for lang in Lang::ALL {
                    let w = words(&reason, lang).unwrap_or_else(|| {
                        panic!("{reason:?} (from {template:?}) has no words in {lang:?}: add them to publish::reasons::words, or to NOT_REASONS if it is no reason")
                    });
                    assert!(!w.contains(&reason), "{reason:?} shown raw: {w}");
                    assert!(!w.contains("challenge-") && !w.contains("halted-"), "{w}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 40, "{checked}");
    }

    #[test]
    fn words_read_as_sentences_and_unknown_codes_have_none() {
        assert_eq!(
            words("challenge-cloudflare", Lang::En).unwrap(),
            "it answered with a Cloudflare page that checks for robots"
        );
        assert_eq!(
            words("halted-3-waits", Lang::En).unwrap(),
            "it asked HudukuBot to wait 3 times in a row (HTTP 429 or 503)"
        );
        assert!(words("refused-403", Lang::Kn).unwrap().contains("403"));
        assert!(
            words(
                "refused-403 (met re-checking one of its headlines)",
                Lang::En
            )
            .unwrap()
            .ends_with("re-checked one of its headlines")
        );
        for unknown in [
            "",
            "challenge-acme",
            "robots-disallow-all",
            "refused-4030",
            "x",
        ] {
            assert_eq!(words(unknown, Lang::En), None, "{unknown}");
        }
    }
}
