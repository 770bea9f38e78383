//! `robots-refresh`: the day's read of every listed site's robots.txt.
//!
//! Run daily (and, through make, before the first hourly run of a day). A site already read
//! today is not asked again: robots.txt is kept for the day, and a change to it is obeyed
//! from the next day's read. Writes `DAY/robots.jsonl` and `DAY/robots/SITE.txt`.

use anyhow::Result;
use std::collections::BTreeSet;

use crate::cli::{Common, Report};
use crate::polite::Polite;

/// Read each listed site's robots.txt once a day and keep the verdicts for the day.
#[derive(Debug, clap::Parser)]
#[command(name = "robots-refresh", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Make --data a Huduku data directory (create it, or mark an existing one) and stop.
    /// Every stage refuses a directory that was not made so, so that a mistyped --data
    /// never starts from an empty state.
    #[arg(long)]
    pub init: bool,
    /// Print --now (or the clock) as the stages read it, in UTC, and stop: the one place the
    /// Makefile has its times read, so make and the binaries always name the same hour.
    #[arg(long)]
    pub print_now: bool,
}

pub fn run(args: &Args) -> Result<Report> {
    let data = args.common.data();
    if args.print_now {
        println!("{}", crate::time::fmt(args.common.now()?));
        return Ok(Report {
            summary: String::new(),
            failed: 0,
        });
    }
    if args.init {
        let made = data.init()?;
        return Ok(Report {
            summary: format!(
                "{} {}",
                data.root.display(),
                if made {
                    "is now a Huduku data directory"
                } else {
                    "was already a Huduku data directory"
                }
            ),
            failed: 0,
        });
    }
    let now = args.common.now()?;
    let pipeline = args.common.pipeline();
    let sources = crate::lists::load_sources(&pipeline)?;
    let hosts = crate::lists::load_hosts(&pipeline, Some(&sources))?;
    let optouts = crate::lists::load_optouts(&pipeline, &sources, &hosts)?;
    let permissions = crate::lists::load_permissions(&pipeline, now)?;
    let never = crate::lists::load_never_fetch(&pipeline)?;
    let network = crate::lists::load_network(&pipeline)?;
    let signer = args.common.signer(now)?;
    let polite = Polite::open(
        &data,
        now,
        "robots-refresh",
        never,
        &permissions,
        network,
        signer,
    )?;
    let mut sites = BTreeSet::new();
    let mut opted_out = BTreeSet::new();
    for s in sources.iter().filter(|s| s.checked()) {
        if optouts.covers(&s.outlet, &s.site()).is_none() {
            sites.insert(s.site());
        } else {
            opted_out.insert(s.site());
        }
    }
    for site in opted_out.difference(&sites) {
        if let Ok(url) = url::Url::parse(&format!("{site}/robots.txt")) {
            polite.note_skip(&url, None, "opted out (optouts.csv): not asked", None);
        }
    }
    let sites: Vec<String> = sites.into_iter().collect();
    crate::polite::side_by_side(&sites, crate::polite::SITES_SIDE_BY_SIDE, |site| {
        let _ = polite.ensure_robots(site);
    });
    polite.save_robots_file()?;
    polite.finish()?;
    let lines = polite.robots_lines();
    let count = |v: &str| {
        lines
            .iter()
            .filter(|l| sites.contains(&l.site) && l.verdict == v)
            .count()
    };
    Ok(Report {
        summary: format!(
            "{} sites: {} with rules, {} without robots.txt, {} refused, {} unreachable, {} blocked",
            sites.len(),
            count("rules"),
            count("allow-all"),
            count("refused"),
            count("unreachable"),
            count("blocked")
        ),
        failed: 0,
    })
}
