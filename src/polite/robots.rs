//! robots.txt for HudukuBot: which group applies, what it allows, and the two lines the
//! `robotstxt` matcher ignores (`Crawl-delay` and `Content-Signal`).
//!
//! Matching of paths is Google's matcher (the `robotstxt` crate, RFC 9309): the groups
//! naming HudukuBot if there are any, otherwise `*`. `Crawl-delay` and `Content-Signal` are
//! read here from the same groups by the same rule.

use robotstxt::{DefaultMatcher, RobotsParseHandler, parse_robotstxt};

use super::PRODUCT_TOKEN;

/// The part of robots.txt that RFC 9309 asks crawlers to parse at least (500 KiB).
pub const PARSE_LIMIT: usize = 500 * 1024;

/// robots.txt rules as they apply to HudukuBot.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    body: String,
    /// Seconds between requests the applicable group asks for.
    pub crawl_delay: Option<f64>,
    /// The `Content-Signal` values of the applicable group, lower-cased (`search` → `no`).
    pub content_signal: Vec<(String, String)>,
    /// Whether a group names HudukuBot (otherwise `*` applies, or nothing).
    pub specific_group: bool,
}

impl Rules {
    /// Parses a robots.txt body (the first [`PARSE_LIMIT`] bytes, cut at a line end).
    pub fn parse(body: &[u8]) -> Rules {
        let body = truncate_at_line(body, PARSE_LIMIT);
        let body = String::from_utf8_lossy(body).into_owned();
        let mut groups = GroupReader::default();
        parse_robotstxt(&body, &mut groups);
        let (crawl_delay, content_signal, specific) = groups.result();
        Rules {
            body,
            crawl_delay,
            content_signal,
            specific_group: specific,
        }
    }

    /// Rules that allow everything (robots.txt absent: 404 and other 4xx but 401/403).
    pub fn allow_all() -> Rules {
        Rules {
            body: String::new(),
            crawl_delay: None,
            content_signal: Vec::new(),
            specific_group: false,
        }
    }

    /// Whether HudukuBot may request this URL.
    pub fn allows(&self, url: &str) -> bool {
        if self.body.is_empty() {
            return true;
        }
        let mut m = DefaultMatcher::default();
        m.one_agent_allowed_by_robots(&self.body, PRODUCT_TOKEN, url)
    }

    /// Whether a `Content-Signal` in the applicable group says `search=no`.
    pub fn search_refused(&self) -> bool {
        self.content_signal
            .iter()
            .any(|(k, v)| k == "search" && v == "no")
    }

    /// The `Content-Signal` values as one line, for records (`search=no, ai-train=no`).
    pub fn content_signal_line(&self) -> Option<String> {
        if self.content_signal.is_empty() {
            return None;
        }
        Some(
            self.content_signal
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }
}

fn truncate_at_line(body: &[u8], limit: usize) -> &[u8] {
    if body.len() <= limit {
        return body;
    }
    let cut = &body[..limit];
    match cut.iter().rposition(|&b| b == b'\n') {
        Some(i) => &cut[..=i],
        None => cut,
    }
}

/// Walks the groups of a robots.txt, keeping `Crawl-delay` and `Content-Signal` of the groups
/// naming HudukuBot and of the `*` groups apart.
#[derive(Default)]
struct GroupReader {
    /// The current group's user-agent lines are still being read.
    in_agents: bool,
    current_specific: bool,
    current_global: bool,
    seen_specific: bool,
    specific: Collected,
    global: Collected,
}

#[derive(Default)]
struct Collected {
    crawl_delay: Option<f64>,
    signals: Vec<(String, String)>,
}

impl Collected {
    fn add(&mut self, key: &str, value: &str) {
        if key.eq_ignore_ascii_case("crawl-delay") {
            if let Ok(d) = value.trim().parse::<f64>()
                && d.is_finite()
                && d >= 0.0
            {
                // Several groups merged: the largest delay asked for stands.
                self.crawl_delay = Some(self.crawl_delay.map_or(d, |c| c.max(d)));
            }
        } else if key.eq_ignore_ascii_case("content-signal") {
            for part in value.split(',') {
                if let Some((k, v)) = part.split_once('=') {
                    let k = k.trim().to_ascii_lowercase();
                    let v = v.trim().to_ascii_lowercase();
                    if k.is_empty() {
                        continue;
                    }
                    // A `no` anywhere wins over a `yes` for the same key.
                    match self.signals.iter_mut().find(|(ek, _)| *ek == k) {
                        Some(e) => {
                            if v == "no" {
                                e.1 = v;
                            }
                        }
                        None => self.signals.push((k, v)),
                    }
                }
            }
            self.signals.sort();
        }
    }
}

impl GroupReader {
    fn result(self) -> (Option<f64>, Vec<(String, String)>, bool) {
        if self.seen_specific {
            (self.specific.crawl_delay, self.specific.signals, true)
        } else {
            (self.global.crawl_delay, self.global.signals, false)
        }
    }
    fn end_agents(&mut self) {
        self.in_agents = false;
    }
}

/// The product token of a user-agent line matches HudukuBot (case-insensitive, as RFC 9309 §2.2.1).
fn names_hudukubot(agent: &str) -> bool {
    let token: String = agent
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    token.eq_ignore_ascii_case(PRODUCT_TOKEN)
}

impl RobotsParseHandler for GroupReader {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _line: u32, agent: &str) {
        if !self.in_agents {
            self.in_agents = true;
            self.current_specific = false;
            self.current_global = false;
        }
        if names_hudukubot(agent) {
            self.current_specific = true;
            self.seen_specific = true;
        } else if agent.trim().starts_with('*') {
            self.current_global = true;
        }
    }
    fn handle_allow(&mut self, _line: u32, _value: &str) {
        self.end_agents();
    }
    fn handle_disallow(&mut self, _line: u32, _value: &str) {
        self.end_agents();
    }
    fn handle_sitemap(&mut self, _line: u32, _value: &str) {}
    fn handle_unknown_action(&mut self, _line: u32, action: &str, value: &str) {
        self.end_agents();
        if self.current_specific {
            self.specific.add(action, value);
        }
        if self.current_global {
            self.global.add(action, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specific_group_wins_over_star() {
        let r = Rules::parse(b"User-agent: *\nDisallow: /\nCrawl-delay: 9\n\nUser-agent: hudukubot\nAllow: /feeds/\nDisallow: /feeds/members.xml\nCrawl-delay: 2\n");
        assert!(r.specific_group);
        assert!(r.allows("http://a.example/feeds/latest.xml"));
        assert!(!r.allows("http://a.example/feeds/members.xml"));
        assert!(
            r.allows("http://a.example/other"),
            "only the HudukuBot group applies, and it does not disallow this"
        );
        assert_eq!(r.crawl_delay, Some(2.0));
    }

    #[test]
    fn star_applies_when_no_group_names_hudukubot() {
        let r = Rules::parse(b"User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 3\n");
        assert!(!r.specific_group);
        assert!(r.allows("http://a.example/feed.xml"));
        assert!(!r.allows("http://a.example/private/x"));
        assert_eq!(r.crawl_delay, Some(3.0));
    }

    #[test]
    fn content_signal_search_no_is_case_insensitive_and_ignores_unknown_keys() {
        let r = Rules::parse(
            b"User-Agent: *\nContent-signal: Search=No, ai-train=no, use=reference\nAllow: /\n",
        );
        assert!(r.search_refused());
        assert_eq!(
            r.content_signal_line().unwrap(),
            "ai-train=no, search=no, use=reference"
        );
        let r = Rules::parse(b"User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n");
        assert!(!r.search_refused());
    }

    #[test]
    fn signal_in_a_group_for_another_bot_does_not_apply() {
        let r = Rules::parse(b"User-agent: GPTBot\nContent-Signal: search=no\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
        assert!(!r.search_refused());
        let r = Rules::parse(
            b"User-agent: *\nContent-Signal: search=no\n\nUser-agent: HudukuBot\nAllow: /\n",
        );
        assert!(
            !r.search_refused(),
            "the specific group has no signal, so none applies"
        );
    }

    #[test]
    fn agents_listed_together_share_a_group() {
        let r = Rules::parse(b"User-agent: SomeBot\nUser-agent: HudukuBot\nDisallow: /x/\nContent-Signal: search=no\n");
        assert!(r.specific_group && r.search_refused());
        assert!(!r.allows("http://a.example/x/1"));
    }

    #[test]
    fn only_first_500_kib_are_parsed() {
        let mut body = b"User-agent: *\nDisallow: /a/\n".to_vec();
        body.extend(
            std::iter::repeat_n(b"# padding padding padding\n".as_slice(), 25_000).flatten(),
        );
        body.extend_from_slice(b"User-agent: *\nDisallow: /b/\n");
        assert!(body.len() > PARSE_LIMIT);
        let r = Rules::parse(&body);
        assert!(!r.allows("http://a.example/a/1"));
        assert!(
            r.allows("http://a.example/b/1"),
            "rules past 500 KiB are not read"
        );
    }
}
