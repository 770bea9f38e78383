//! robots.txt for HudukuBot: which group applies, what it allows, and the lines the
//! `robotstxt` matcher ignores (`Crawl-delay`, `Content-Signal`, and the IETF aipref
//! `Content-Usage`, optionally scoped to a path).
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
    /// The `Content-Usage` rules of the applicable group: (path pattern, `""` for the whole
    /// site; key; value), keys and values lower-cased (`search` → `n`).
    pub content_usage: Vec<(String, String, String)>,
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
        let (crawl_delay, content_signal, content_usage, specific) = groups.result();
        Rules {
            body,
            crawl_delay,
            content_signal,
            content_usage,
            specific_group: specific,
        }
    }

    /// Rules that allow everything (robots.txt absent: 404 and other 4xx but 401/403).
    pub fn allow_all() -> Rules {
        Rules {
            body: String::new(),
            crawl_delay: None,
            content_signal: Vec::new(),
            content_usage: Vec::new(),
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

    /// Whether the applicable group refuses the whole site search use: `Content-Signal:
    /// search=no`, or a `Content-Usage` rule for the whole site saying `search=n` that no
    /// path-scoped `search=y` narrows.
    pub fn search_refused(&self) -> bool {
        self.signal_refuses_search() || self.usage_refuses_site()
    }

    /// `Content-Signal: search=no` in the applicable group.
    pub fn signal_refuses_search(&self) -> bool {
        self.content_signal
            .iter()
            .any(|(k, v)| k == "search" && v == "no")
    }

    /// A site-wide `Content-Usage: search=n` (no path, or `/`) that no path-scoped
    /// `search=y` narrows.
    pub fn usage_refuses_site(&self) -> bool {
        let search = || self.content_usage.iter().filter(|(_, k, _)| k == "search");
        search().any(|(p, _, v)| (p.is_empty() || p == "/") && v == "n")
            && !search().any(|(p, _, v)| !p.is_empty() && p != "/" && v == "y")
    }

    /// Whether a path-scoped (or site-wide) `Content-Usage` rule refuses search use of this
    /// URL: the longest matching rule with a `search` key decides, as RFC 9309 decides
    /// between Allow and Disallow.
    pub fn usage_refuses(&self, url: &str) -> bool {
        let path = url::Url::parse(url)
            .map(|u| match u.query() {
                Some(q) => format!("{}?{q}", u.path()),
                None => u.path().to_string(),
            })
            .unwrap_or_else(|_| url.to_string());
        self.content_usage
            .iter()
            .filter(|(p, k, _)| k == "search" && (p.is_empty() || path_matches(p, &path)))
            .max_by_key(|(p, _, v)| (p.len(), v == "y"))
            .is_some_and(|(_, _, v)| v == "n")
    }

    /// The `Content-Usage` rules as one line, for records (`/news/ search=n; train-ai=n`).
    pub fn content_usage_line(&self) -> Option<String> {
        if self.content_usage.is_empty() {
            return None;
        }
        Some(
            self.content_usage
                .iter()
                .map(|(p, k, v)| {
                    if p.is_empty() {
                        format!("{k}={v}")
                    } else {
                        format!("{p} {k}={v}")
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
        )
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

/// An RFC 9309 path pattern (`*` any run of characters, a final `$` the end) against a
/// path with its query.
fn path_matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut rest = match path.strip_prefix(parts[0]) {
        Some(r) => r,
        None => return false,
    };
    for (i, part) in parts.iter().enumerate().skip(1) {
        let last = i == parts.len() - 1;
        if last && anchored {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    !anchored || rest.is_empty()
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
    usage: Vec<(String, String, String)>,
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
        } else if key.eq_ignore_ascii_case("content-usage") {
            // `Content-Usage: [path] key=y|n, ...` (draft-ietf-aipref-attach): the path, if
            // any, comes first; the preferences are an RFC 9651 dictionary.
            let value = value.trim();
            let (path, prefs) = if value.starts_with('/') || value.starts_with('*') {
                match value.split_once(char::is_whitespace) {
                    Some((p, rest)) => (p.to_string(), rest),
                    None => (value.to_string(), ""),
                }
            } else {
                (String::new(), value)
            };
            for member in prefs.split(',') {
                let member = member.split(';').next().unwrap_or("");
                if let Some((k, v)) = member.split_once('=') {
                    let k = k.trim().to_ascii_lowercase();
                    let v = v.trim().to_ascii_lowercase();
                    if k.is_empty() {
                        continue;
                    }
                    // For the same path and key, an `n` wins over a `y`.
                    match self
                        .usage
                        .iter_mut()
                        .find(|(ep, ek, _)| *ep == path && *ek == k)
                    {
                        Some(e) => {
                            if v == "n" {
                                e.2 = v;
                            }
                        }
                        None => self.usage.push((path.clone(), k, v)),
                    }
                }
            }
            self.usage.sort();
        }
    }
}

impl GroupReader {
    #[allow(clippy::type_complexity)]
    fn result(
        self,
    ) -> (
        Option<f64>,
        Vec<(String, String)>,
        Vec<(String, String, String)>,
        bool,
    ) {
        let (c, specific) = if self.seen_specific {
            (self.specific, true)
        } else {
            (self.global, false)
        };
        (c.crawl_delay, c.signals, c.usage, specific)
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
    fn content_usage_search_n_refuses_the_site_or_the_paths_it_covers() {
        let r = Rules::parse(b"User-Agent: *\nAllow: /\nContent-Usage: train-ai=n, Search=N\n");
        assert!(r.search_refused() && r.usage_refuses_site());
        assert_eq!(r.content_usage_line().unwrap(), "search=n; train-ai=n");
        let r = Rules::parse(b"User-Agent: *\nAllow: /\nContent-Usage: search=y, train-ai=n\n");
        assert!(!r.search_refused());
        assert!(!r.usage_refuses("http://a.example/feed.xml"));
        let r = Rules::parse(
            b"User-Agent: *\nAllow: /\nContent-Usage: /members/ search=n\nContent-Usage: /members/open*.xml$ search=y\n",
        );
        assert!(
            !r.search_refused(),
            "a path-scoped rule does not refuse the site"
        );
        assert!(r.usage_refuses("http://a.example/members/feed.xml"));
        assert!(!r.usage_refuses("http://a.example/members/open-feed.xml"));
        assert!(!r.usage_refuses("http://a.example/feed.xml"));
        // Only the group that applies to HudukuBot counts.
        let r = Rules::parse(
            b"User-Agent: OtherBot\nContent-Usage: search=n\n\nUser-Agent: HudukuBot\nAllow: /\n",
        );
        assert!(!r.search_refused());
        let r = Rules::parse(b"User-Agent: HudukuBot\nAllow: /\nContent-Usage: search=n\n");
        assert!(r.search_refused());
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
