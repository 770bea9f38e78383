//! Which outlets Huduku reads, and which it does not and since when: the source list, the
//! opt-outs, the refusals and halts in the fetch state (unless a newer permission lifted
//! them), and the days robots.txt refused HudukuBot. Read from kept files only, each as of
//! the end of the day shown (the fetch state is the fold of the logs up to then, see
//! [`State::as_of`]), so the page is the same on a replay, however many days later.

use anyhow::Result;
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::{BTreeMap, BTreeSet};

use crate::lists::{OptOut, Pipeline, site_of};
use crate::polite::RobotsLine;
use crate::state::State;
use crate::store::Data;

/// Why an outlet, or one of its sites, is not read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    OptedOut,
    Refused,
    Halted,
    Robots,
}

/// One reason an outlet or site is not read, since when.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stopped {
    pub why: Why,
    pub since: NaiveDate,
    /// The site it applies to; `None` when it names the whole outlet.
    pub site: Option<String>,
    /// The recorded reason (`refused-403`, `robots-search-no`, ...), shown as evidence.
    pub reason: String,
}

/// An outlet as the public list shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outlet {
    pub name: String,
    /// The language of its sources (or headlines).
    pub lang: String,
    /// Sites (origins) its sources live on.
    pub sites: BTreeSet<String>,
    /// Whether it is in the source list.
    pub listed: bool,
    pub stopped: Vec<Stopped>,
    /// Its sources that have had no good answer over a day or more of asking.
    pub failing: Failing,
}

/// How many of an outlet's fetched sources have had no good answer over a day or more of
/// asking (timeouts, server errors, broken or missing feeds), of how many, since when.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Failing {
    pub count: usize,
    pub of: usize,
    /// The earliest day one of them began to fail (or, in a state kept before that was
    /// recorded, gave its last good answer).
    pub since: Option<NaiveDate>,
}

/// How long a source must have failed, counted from its first failure in a row to its last
/// request (times of the fold, never the clock: a replay shows the same), before the public
/// list says it is not answering.
pub const FAILING_FOR: chrono::Duration = chrono::Duration::days(1);

impl Outlet {
    /// Listed, but none of its sources is fetched yet: each still waits for a person's
    /// check (`unchecked` in `sources.csv`).
    pub fn awaiting_check(&self) -> bool {
        self.listed && self.failing.of == 0
    }

    /// Read at all: listed with a source fetched, not opted out, and at least one site not
    /// stopped.
    pub fn followed(&self) -> bool {
        if !self.listed || self.awaiting_check() || self.stopped.iter().any(|s| s.site.is_none()) {
            return false;
        }
        self.sites
            .iter()
            .any(|site| !self.stopped.iter().any(|s| s.site.as_ref() == Some(site)))
    }
}

fn day_of(t: DateTime<Utc>) -> NaiveDate {
    t.date_naive()
}

/// Builds the list as of `now` from the source list, opt-outs, permissions granted by the end
/// of `now`'s day, the fetch state as it stood at `now` and the robots verdicts of the kept
/// days up to `now`'s, plus outlets seen in the public headlines (`seen`: each name with the
/// language of its earliest public headline in the kept days).
pub fn load(
    pipeline: &Pipeline,
    data: &Data,
    now: DateTime<Utc>,
    seen: &BTreeMap<String, String>,
) -> Result<Vec<Outlet>> {
    let today = crate::time::day(now);
    let today = today.as_str();
    let sources = if pipeline.sources.exists() {
        crate::lists::load_sources(pipeline)?
    } else {
        Vec::new()
    };
    let hosts = crate::lists::load_hosts(pipeline, (!sources.is_empty()).then_some(&sources[..]))?;
    let optouts = crate::lists::load_optouts(pipeline, &sources, &hosts)?;
    // A reader: permissions given up to the end of the day shown.
    let end_of_day = crate::time::parse_day(today)? + chrono::Duration::days(1);
    let permissions = crate::lists::load_permissions(pipeline, end_of_day)?;
    // The state as it stood then, not as it stands: a refusal learned later is not on the
    // pages of an earlier day, however late they are made.
    let state = State::as_of(data, now)?;

    let mut outlets: BTreeMap<String, Outlet> = BTreeMap::new();
    for s in &sources {
        let o = outlets.entry(s.outlet.clone()).or_insert_with(|| Outlet {
            name: s.outlet.clone(),
            lang: s.lang.clone(),
            sites: BTreeSet::new(),
            listed: true,
            stopped: Vec::new(),
            failing: Failing::default(),
        });
        o.sites.insert(s.site());
    }
    for (name, lang) in seen {
        outlets.entry(name.clone()).or_insert_with(|| Outlet {
            name: name.clone(),
            lang: lang.clone(),
            sites: BTreeSet::new(),
            listed: false,
            stopped: Vec::new(),
            failing: Failing::default(),
        });
    }

    // Opt-outs: by outlet name, or by a site (which may belong to no listed outlet).
    for entry in &optouts.entries {
        match entry {
            OptOut::Outlet { outlet, since, .. } => {
                let since = crate::time::parse_day(since)?.date_naive();
                let key = outlets
                    .keys()
                    .find(|k| k.eq_ignore_ascii_case(outlet))
                    .cloned()
                    .unwrap_or_else(|| outlet.clone());
                let o = outlets.entry(key).or_insert_with(|| Outlet {
                    name: outlet.clone(),
                    lang: String::new(),
                    sites: BTreeSet::new(),
                    listed: false,
                    stopped: Vec::new(),
                    failing: Failing::default(),
                });
                o.stopped.push(Stopped {
                    why: Why::OptedOut,
                    since,
                    site: None,
                    reason: String::new(),
                });
            }
            OptOut::Site { site, since, .. } => {
                let since = crate::time::parse_day(since)?.date_naive();
                let mut found = false;
                for o in outlets.values_mut().filter(|o| o.sites.contains(site)) {
                    found = true;
                    o.stopped.push(Stopped {
                        why: Why::OptedOut,
                        since,
                        site: Some(site.clone()),
                        reason: String::new(),
                    });
                }
                if !found {
                    outlets.insert(
                        site.clone(),
                        Outlet {
                            name: site.clone(),
                            lang: String::new(),
                            sites: BTreeSet::from([site.clone()]),
                            listed: false,
                            stopped: vec![Stopped {
                                why: Why::OptedOut,
                                since,
                                site: Some(site.clone()),
                                reason: String::new(),
                            }],
                            failing: Failing::default(),
                        },
                    );
                }
            }
        }
    }

    // Refusals and halts, unless a newer permission for the site (or one of its sources)
    // lifted them.
    let lifted = |site: &str, at: DateTime<Utc>| {
        permissions.iter().any(|p| {
            let target_site = url::Url::parse(&p.target)
                .map(|u| site_of(&u))
                .unwrap_or_default();
            (p.target == site || target_site == site) && p.granted > at
        })
    };
    for (site, st) in &state.sites {
        for (why, stop) in [(Why::Refused, &st.refused), (Why::Halted, &st.halted)] {
            let Some(stop) = stop else { continue };
            if lifted(site, stop.at) {
                continue;
            }
            for o in outlets.values_mut().filter(|o| o.sites.contains(site)) {
                o.stopped.push(Stopped {
                    why: why.clone(),
                    since: day_of(stop.at),
                    site: Some(site.clone()),
                    reason: stop.reason.clone(),
                });
            }
        }
    }

    // robots.txt: refused on the latest day it was read, since the first day of that run.
    let mut robots: BTreeMap<String, (Option<NaiveDate>, String)> = BTreeMap::new();
    for day in data.days()? {
        if day.as_str() > today {
            continue;
        }
        let date = crate::time::parse_day(&day)?.date_naive();
        let path = data.day_dir(&day).join("robots.jsonl");
        for line in crate::store::read_jsonl_opt::<RobotsLine>(&path)? {
            let entry = robots
                .entry(line.site.clone())
                .or_insert((None, String::new()));
            if line.verdict == "refused" {
                if entry.0.is_none() {
                    *entry = (Some(date), line.reason.clone());
                }
            } else {
                *entry = (None, String::new());
            }
        }
    }
    for (site, (since, reason)) in robots {
        let Some(since) = since else { continue };
        for o in outlets.values_mut().filter(|o| o.sites.contains(&site)) {
            o.stopped.push(Stopped {
                why: Why::Robots,
                since,
                site: Some(site.clone()),
                reason: reason.clone(),
            });
        }
    }
    // Sources failing for a day or more.
    for s in sources.iter().filter(|s| s.checked()) {
        let Some(o) = outlets.get_mut(&s.outlet) else {
            continue;
        };
        o.failing.of += 1;
        let Some(st) = state.sources.get(s.url.as_str()) else {
            continue;
        };
        let began = st.failing_since.or(st.last_success);
        let long = match (began, st.last_request) {
            (Some(b), Some(r)) => r - b >= FAILING_FOR,
            _ => false,
        };
        if st.failures > 0 && long {
            o.failing.count += 1;
            let day = began.map(day_of);
            o.failing.since = match (o.failing.since, day) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    let mut out: Vec<Outlet> = outlets.into_values().collect();
    for o in &mut out {
        o.stopped.sort();
        o.stopped.dedup();
        // robots.txt's refusal of a site is also the site's refusal (`robots-403`, ...):
        // said once, as the refusal, which carries the reason.
        let refused: BTreeSet<Option<String>> = o
            .stopped
            .iter()
            .filter(|s| s.why == Why::Refused)
            .map(|s| s.site.clone())
            .collect();
        o.stopped
            .retain(|s| s.why != Why::Robots || !refused.contains(&s.site));
    }
    Ok(out)
}
