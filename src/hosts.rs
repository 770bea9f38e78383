//! Whose host is this? The one place that decides whether an address belongs to the
//! publisher a source stands for.
//!
//! A source's publisher owns:
//! - the source's own host;
//! - every other host of the same registrable domain, by the public suffix list (`psl`,
//!   which carries the list inside the crate: nothing is downloaded): for
//!   `https://www.prajavani.net/feed`, `epaper.prajavani.net` too, but never another
//!   `*.blogspot.com` or `*.github.io` (each of those is a registrable domain of its own);
//!   an IP address, or a host that is itself a public suffix, owns nothing beyond itself;
//! - the hosts an operator lists for the outlet in `pipeline/hosts.csv`, each with its
//!   sub-domains (a CDN the outlet's articles live on, a second domain it publishes under).
//!
//! Every path that could carry HudukuBot elsewhere asks a [`Scope`]: the politeness module
//! for every request and every redirect hop, `fetch-feeds` for a sitemap index's children,
//! `extract` for headline links, and `publish` (and so `recheck-headers`) for kept headlines.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::path::PathBuf;
use url::Url;

/// A host name as compared here: lower-case, no trailing dot, IPv6 without brackets.
pub fn norm_host(host: &str) -> String {
    host.trim_end_matches('.')
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// The registrable domain of a host (`www.example.co.uk` → `example.co.uk`), by the public
/// suffix list; `None` for an IP address or a host that is a public suffix itself.
pub fn registrable(host: &str) -> Option<String> {
    let host = norm_host(host);
    if host.is_empty() || host.parse::<IpAddr>().is_ok() {
        return None;
    }
    psl::domain_str(&host).map(str::to_string)
}

/// One line of `pipeline/hosts.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub host: String,
    pub note: String,
    pub line: u64,
}

/// The hosts an operator has listed per outlet (`pipeline/hosts.csv`; no file, no hosts).
#[derive(Debug, Clone, Default)]
pub struct Hosts {
    pub path: PathBuf,
    /// Outlet name, lower-cased → its listed hosts.
    pub by_outlet: BTreeMap<String, Vec<Listed>>,
}

impl Hosts {
    /// The hosts that are the publisher's own for a source of an outlet.
    pub fn scope(&self, outlet: &str, source: &Url) -> Scope {
        let mut scope = Scope {
            outlet: outlet.to_string(),
            ..Scope::default()
        };
        if let Some(h) = source.host_str() {
            let h = norm_host(h);
            if let Some(d) = registrable(&h) {
                scope.domains.insert(d);
            }
            scope.hosts.insert(h);
        }
        for l in self
            .by_outlet
            .get(&outlet.to_lowercase())
            .into_iter()
            .flatten()
        {
            scope.listed.insert(l.host.clone());
        }
        scope
    }

    /// Like [`Hosts::scope`], for a source kept as text; an unreadable source owns nothing.
    pub fn scope_of(&self, outlet: &str, source: &str) -> Scope {
        match Url::parse(source) {
            Ok(u) => self.scope(outlet, &u),
            Err(_) => Scope {
                outlet: outlet.to_string(),
                ..Scope::default()
            },
        }
    }
}

/// The hosts one source's publisher owns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scope {
    pub outlet: String,
    /// Hosts owned exactly (the source's own).
    hosts: BTreeSet<String>,
    /// Registrable domains owned with all their hosts.
    domains: BTreeSet<String>,
    /// Hosts an operator listed, each with its sub-domains.
    listed: BTreeSet<String>,
}

impl Scope {
    /// Whether a host is the publisher's own.
    pub fn owns_host(&self, host: &str) -> bool {
        let host = norm_host(host);
        if host.is_empty() {
            return false;
        }
        self.hosts.contains(&host)
            || registrable(&host).is_some_and(|d| self.domains.contains(&d))
            || self
                .listed
                .iter()
                .any(|l| host == *l || host.ends_with(&format!(".{l}")))
    }

    /// Whether a URL is on one of the publisher's own hosts (any scheme or port).
    pub fn owns(&self, url: &Url) -> bool {
        url.host_str().is_some_and(|h| self.owns_host(h))
    }

    /// Why a URL is not the publisher's own, if it is not: for fetch.jsonl and the summaries.
    pub fn refusal(&self, url: &Url) -> Option<String> {
        if self.owns(url) {
            return None;
        }
        Some(format!(
            "{} is not a host of {} (not the source's host, not of its registrable domain{}, not in hosts.csv)",
            url.host_str().unwrap_or("(no host)"),
            self.outlet,
            self.domains
                .iter()
                .map(|d| format!(" {d}"))
                .collect::<String>()
        ))
    }

    /// Keeps the items whose link is on the publisher's own hosts; returns how many went.
    pub fn retain_own<T>(&self, items: &mut Vec<T>, link: impl Fn(&T) -> &str) -> usize {
        let before = items.len();
        items.retain(|it| Url::parse(link(it)).is_ok_and(|u| self.owns(&u)));
        before - items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn hosts(lines: &[(&str, &str)]) -> Hosts {
        let mut h = Hosts::default();
        for (i, (outlet, host)) in lines.iter().enumerate() {
            h.by_outlet
                .entry(outlet.to_lowercase())
                .or_default()
                .push(Listed {
                    host: host.to_string(),
                    note: String::new(),
                    line: i as u64 + 2,
                });
        }
        h
    }

    #[test]
    fn registrable_domains_by_the_public_suffix_list() {
        assert_eq!(
            registrable("www.example.co.uk").as_deref(),
            Some("example.co.uk")
        );
        assert_eq!(
            registrable("Epaper.Prajavani.NET.").as_deref(),
            Some("prajavani.net")
        );
        assert_eq!(registrable("co.uk"), None, "a public suffix owns nothing");
        assert_eq!(
            registrable("someone.blogspot.com").as_deref(),
            Some("someone.blogspot.com"),
            "a private suffix: each blog is its own"
        );
        assert_eq!(registrable("127.0.0.31"), None);
        assert_eq!(registrable("[::1]"), None);
    }

    #[test]
    fn a_source_owns_its_host_and_its_registrable_domain_only() {
        let h = Hosts::default();
        let s = h.scope("Praja", &url("https://www.prajavani.net/feed"));
        for own in [
            "https://www.prajavani.net/a",
            "http://prajavani.net:8080/a",
            "https://epaper.prajavani.net/x",
        ] {
            assert!(s.owns(&url(own)), "{own}");
        }
        for other in [
            "https://prajavani.net.evil.example/a",
            "https://notprajavani.net/a",
            "https://www.prajavani.com/a",
            "http://169.254.169.254/latest/meta-data/",
        ] {
            assert!(!s.owns(&url(other)), "{other}");
            assert!(s.refusal(&url(other)).unwrap().contains("hosts.csv"));
        }
        let blog = h.scope("Blog", &url("https://someone.blogspot.com/feeds/posts"));
        assert!(!blog.owns(&url("https://other.blogspot.com/x")));
    }

    #[test]
    fn an_ip_source_owns_that_address_alone() {
        let s = Hosts::default().scope("Loop", &url("http://127.0.0.45:8080/news-index.xml"));
        assert!(s.owns(&url("http://127.0.0.45:9999/x")));
        assert!(!s.owns(&url("http://127.0.0.46:8080/x")));
    }

    #[test]
    fn listed_hosts_count_for_their_outlet_only_with_their_subdomains() {
        let h = hosts(&[("Karavali Vaarthe", "cdn-karavali.example.net")]);
        let s = h.scope("karavali vaarthe", &url("https://karavali.example/rss"));
        assert!(s.owns(&url("https://cdn-karavali.example.net/a")));
        assert!(s.owns(&url("https://img.cdn-karavali.example.net/a")));
        assert!(!s.owns(&url("https://example.net/a")), "not the parent");
        let other = h.scope("Another", &url("https://another.example/rss"));
        assert!(!other.owns(&url("https://cdn-karavali.example.net/a")));
    }

    #[test]
    fn retain_own_counts_what_it_drops() {
        let s = Hosts::default().scope("A", &url("https://a.example/feed"));
        let mut links = vec![
            "https://a.example/1".to_string(),
            "https://b.example/2".to_string(),
            "not a url".to_string(),
        ];
        assert_eq!(s.retain_own(&mut links, |l| l), 2);
        assert_eq!(links, ["https://a.example/1"]);
    }
}
