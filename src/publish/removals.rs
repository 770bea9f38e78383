//! What must not be on any public page or in any export: headlines of opted-out outlets and
//! sites (`pipeline/optouts.csv`), taken-down headlines (`pipeline/takedowns.csv`, matched
//! by canonical link), withdrawn articles (a re-check's 404/410, a redirect to the home
//! or a section page, a 451), and headlines whose link is not on the outlet's own hosts
//! (extract drops those; this catches any kept from before, or from a changed `hosts.csv`). Every removal applies to every day, past days included, at
//! the next publish; `recheck-headers` asks nothing about a removed headline either.

use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet};
use url::Url;

use crate::hosts::Hosts;
use crate::lists::{OptOuts, Pipeline, site_of};
use crate::records::{Classified, Published};
use crate::store::Data;

/// Why a headline is removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    NotHttp,
    /// The link is not on one of the outlet's own hosts.
    OffSite,
    OptedOut,
    /// robots.txt refuses the site or disallows every listed source on it.
    RobotsOptOut,
    TakenDown,
    Withdrawn,
}

impl Why {
    pub fn as_str(self) -> &'static str {
        match self {
            Why::NotHttp => "not an http(s) link",
            Why::OffSite => "not on the outlet's own hosts",
            Why::OptedOut => "opted out",
            Why::RobotsOptOut => "opted out by robots.txt",
            Why::TakenDown => "taken down",
            Why::Withdrawn => "withdrawn",
        }
    }
}

/// The removals in force: opt-outs, takedowns, and every re-check that withdrew a headline.
#[derive(Debug, Clone, Default)]
pub struct Removals {
    optouts: OptOuts,
    /// Canonical link → takedown reason.
    takedowns: BTreeMap<String, String>,
    /// Ids of headlines a re-check found withdrawn.
    withdrawn: BTreeSet<String>,
    /// Sites robots.txt has opted out (refused, or every listed source disallowed).
    robots_out: BTreeMap<String, String>,
    /// The hosts each outlet owns besides its sources'.
    hosts: Hosts,
}

impl Removals {
    pub fn load(
        pipeline: &Pipeline,
        data: &Data,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Removals> {
        let sources = crate::lists::load_sources(pipeline)?;
        let robots_out = crate::polite::robots_optouts(data, now, &sources)?;
        let hosts = crate::lists::load_hosts(pipeline, Some(&sources))?;
        let optouts = crate::lists::load_optouts(pipeline, &sources, &hosts)?;
        let takedowns = crate::lists::load_takedowns(pipeline)?
            .into_iter()
            .map(|t| (t.link, t.reason))
            .collect();
        let withdrawn = crate::recheck::load_all(data)?
            .into_iter()
            .filter(|r| r.removes())
            .map(|r| r.id)
            .collect();
        Ok(Removals {
            optouts,
            takedowns,
            withdrawn,
            robots_out,
            hosts,
        })
    }

    /// How many headlines are removed on request and found withdrawn (counts only: the
    /// public pages never list them).
    pub fn counts(&self) -> super::site::Removed {
        super::site::Removed {
            taken_down: self.takedowns.len(),
            withdrawn: self.withdrawn.len(),
        }
    }

    /// Why a headline (by outlet, source, canonical link and id) must not be shown, if it
    /// must not. An opt-out covers the outlet by name, the site of the link and the site of
    /// the source it came from.
    pub fn why(&self, outlet: &str, source: &str, link: &str, id: &str) -> Option<Why> {
        let Some(url) = Url::parse(link)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
        else {
            return Some(Why::NotHttp);
        };
        let source_site = Url::parse(source).map(|u| site_of(&u)).unwrap_or_default();
        if self.optouts.covers(outlet, &site_of(&url)).is_some()
            || self.optouts.covers(outlet, &source_site).is_some()
        {
            return Some(Why::OptedOut);
        }
        if self.robots_out.contains_key(&source_site)
            || self.robots_out.contains_key(&site_of(&url))
        {
            return Some(Why::RobotsOptOut);
        }
        if self.takedowns.contains_key(link)
            || self
                .takedowns
                .contains_key(&crate::records::canonical_link(&url))
        {
            return Some(Why::TakenDown);
        }
        if self.withdrawn.contains(id) {
            return Some(Why::Withdrawn);
        }
        if !self.hosts.scope_of(outlet, source).owns(&url) {
            return Some(Why::OffSite);
        }
        None
    }

    /// A digest of every removal in force (with `format`, the version of what publish
    /// writes): a day's public list made under the same digest needs no remaking.
    pub fn digest(&self, format: u32) -> String {
        let mut s = format!("format {format}\n");
        for o in &self.optouts.entries {
            match o {
                crate::lists::OptOut::Site { site, .. } => s.push_str(&format!("site {site:?}\n")),
                crate::lists::OptOut::Outlet { outlet, .. } => {
                    s.push_str(&format!("outlet {:?}\n", outlet.to_ascii_lowercase()))
                }
            }
        }
        for link in self.takedowns.keys() {
            s.push_str(&format!("takedown {link:?}\n"));
        }
        for id in &self.withdrawn {
            s.push_str(&format!("withdrawn {id:?}\n"));
        }
        for site in self.robots_out.keys() {
            s.push_str(&format!("robots {site:?}\n"));
        }
        crate::store::sha256_hex(s.as_bytes())
    }

    /// Why a classified headline must not be shown, if it must not.
    pub fn removes(&self, c: &Classified) -> Option<&'static str> {
        self.why(&c.outlet, &c.source, &c.link, &c.id)
            .map(Why::as_str)
    }

    /// Why a public headline must not be shown any more, if it must not.
    pub fn removes_public(&self, p: &Published) -> Option<Why> {
        self.why(&p.outlet, &p.source, &p.link, &p.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lists::read_optouts;

    fn removals(optouts: &str, takedowns: &str, withdrawn: &[&str]) -> Removals {
        let dir = std::env::temp_dir().join(format!(
            "huduku-removals-{}-{}-{}",
            std::process::id(),
            optouts.len(),
            takedowns.len()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("optouts.csv"), optouts).unwrap();
        std::fs::write(dir.join("takedowns.csv"), takedowns).unwrap();
        let p = Pipeline::new(&dir, None);
        let r = Removals {
            optouts: read_optouts(&p).unwrap(),
            takedowns: crate::lists::load_takedowns(&p)
                .unwrap()
                .into_iter()
                .map(|t| (t.link, t.reason))
                .collect(),
            withdrawn: withdrawn.iter().map(|s| s.to_string()).collect(),
            robots_out: BTreeMap::new(),
            hosts: Hosts::default(),
        };
        std::fs::remove_dir_all(dir).unwrap();
        r
    }

    #[test]
    fn each_kind_of_removal() {
        let r = removals(
            "kind,value,since,note\noutlet,Gone Daily,2026-11-01,asked by email\nsite,https://m.example.net,2026-11-02,\n",
            "link,date,reason\nhttps://a.example/story?utm_source=mail#top,2026-11-30,legal request\n",
            &["w1"],
        );
        let feed = "https://a.example/feed";
        assert_eq!(r.why("A", feed, "https://a.example/other", "x"), None);
        assert_eq!(
            r.why("gone daily", feed, "https://a.example/x", "x"),
            Some(Why::OptedOut),
            "outlet names match whatever their case"
        );
        assert_eq!(
            r.why("A", feed, "https://m.example.net/x", "x"),
            Some(Why::OptedOut),
            "by the link's site"
        );
        assert_eq!(
            r.why(
                "A",
                "https://m.example.net/rss",
                "https://cdn.example/x",
                "x"
            ),
            Some(Why::OptedOut),
            "by the source's site"
        );
        assert_eq!(
            r.why("A", feed, "https://a.example/story", "x"),
            Some(Why::TakenDown),
            "a takedown names the canonical link however it was written"
        );
        assert_eq!(
            r.why("A", feed, "https://a.example/y", "w1"),
            Some(Why::Withdrawn)
        );
        assert_eq!(
            r.why("A", feed, "javascript:alert(1)", "x"),
            Some(Why::NotHttp)
        );
        assert_eq!(
            r.why("A", feed, "https://elsewhere.example/story", "x"),
            Some(Why::OffSite),
            "a kept headline linking off the outlet's hosts"
        );
        assert_eq!(
            r.why("A", feed, "https://www.a.example/story", "x"),
            None,
            "another host of the source's registrable domain"
        );
    }
}
