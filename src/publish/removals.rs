//! What must not be on any public page: opted-out outlets and sites, taken-down headlines,
//! withdrawn articles (404/410, a redirect to the home or a section page, a 451).

use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet};
use url::Url;

use crate::lists::{OptOuts, Pipeline, site_of};
use crate::records::Classified;
use crate::store::Data;

pub struct Removals {
    optouts: OptOuts,
    /// Canonical link → takedown reason.
    takedowns: BTreeMap<String, String>,
    /// Ids of headlines a re-check found withdrawn.
    withdrawn: BTreeSet<String>,
    /// Sites robots.txt has opted out (refused, or every listed source disallowed).
    robots_out: BTreeMap<String, String>,
}

impl Removals {
    pub fn load(
        pipeline: &Pipeline,
        data: &Data,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Removals> {
        let sources = crate::lists::load_sources(pipeline)?;
        let robots_out = crate::polite::robots_optouts(data, now, &sources)?;
        let optouts = crate::lists::load_optouts(pipeline)?;
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
        })
    }

    /// Why a headline must not be shown, if it must not.
    pub fn removes(&self, c: &Classified) -> Option<&'static str> {
        let link = Url::parse(&c.link)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"));
        let Some(link) = link else {
            return Some("not an http(s) link");
        };
        let source_site = Url::parse(&c.source)
            .map(|u| site_of(&u))
            .unwrap_or_default();
        if self.optouts.covers(&c.outlet, &site_of(&link)).is_some()
            || self.optouts.covers(&c.outlet, &source_site).is_some()
        {
            return Some("opted out");
        }
        if self.robots_out.contains_key(&source_site)
            || self.robots_out.contains_key(&site_of(&link))
        {
            return Some("opted out by robots.txt");
        }
        if self.takedowns.contains_key(&c.link) {
            return Some("taken down");
        }
        if self.withdrawn.contains(&c.id) {
            return Some("withdrawn");
        }
        None
    }
}
