//! `publish`: the public pages, each day's public list and the day's open data.
//!
//! Reads every kept day's classified headlines, removes what must not be shown (opted-out
//! outlets and sites, taken-down links, withdrawn articles), writes `DAY/published.jsonl`
//! for each day, and renders the static site under `DATA/site/` in Kannada and English
//! ([`site`]): the front page, pages per day, topic and outlet, the list of outlets read
//! or not ([`outlets`]), "How Huduku fetches" from the fetcher's own constants
//! ([`fetching`]), and the open data ([`export`]). Pages never show an author, a summary,
//! a non-http(s) link, or publisher text unescaped (maud escapes every interpolation).
//!
//! `site/` belongs to publish: each run rewrites it whole and removes any file it did not
//! write, so a page of an outlet that opted out, or of a day no longer kept, is gone too.
//!
//! Output depends only on the kept files and the lists, not on the clock: `--now` only
//! bounds which days and hours count, so a replay gives the same bytes.

pub mod export;
pub mod fetching;
pub mod i18n;
pub mod outlets;
pub mod removals;
pub mod site;

use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::cli::{Common, Report};
use crate::records::{Classified, Published};

/// Publish the public pages and each day's public list.
#[derive(Debug, clap::Parser)]
#[command(name = "publish", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Days kept on the public pages (counting back from --now).
    #[arg(long, default_value_t = 30)]
    pub days: i64,
    /// The time zone pages show times in: Asia/Kolkata (IST), UTC, or a fixed offset with
    /// its name, such as "+05:30 IST". Machine-readable times stay in UTC.
    #[arg(
        long,
        env = "HUDUKU_TZ",
        default_value = "Asia/Kolkata",
        allow_hyphen_values = true
    )]
    pub tz: String,
    /// The licence line of the open data.
    #[arg(long, env = "HUDUKU_LICENCE", default_value = export::DEFAULT_LICENCE)]
    pub licence: String,
}

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let zone = i18n::Zone::parse(&args.tz)?;
    let licence = args.licence.trim();
    if licence.is_empty() || licence.chars().any(char::is_control) {
        anyhow::bail!(
            "--licence must be one line of text, such as {:?}",
            export::DEFAULT_LICENCE
        );
    }
    let data = args.common.data();
    let _lock = args.common.lock("publish")?;
    let pipeline = args.common.pipeline();
    let removals = removals::Removals::load(&pipeline, &data, now)?;
    let first_day = crate::time::day(now - chrono::Duration::days(args.days - 1));
    let today = crate::time::day(now);
    let this_hour = crate::time::hour(now);
    let mut days: BTreeMap<String, Vec<Published>> = BTreeMap::new();
    let (mut shown, mut removed) = (0usize, 0usize);
    for day in data.days()? {
        if day < first_day || day > today {
            continue;
        }
        let mut list: BTreeMap<String, Published> = BTreeMap::new();
        for hour in data.hours(&day)? {
            if day == today && hour > this_hour {
                continue;
            }
            let path = data.hour_dir(&day, &hour).join("classified.jsonl");
            for c in crate::store::read_jsonl_opt::<Classified>(&path)? {
                if removals.removes(&c).is_some() {
                    removed += 1;
                    continue;
                }
                list.entry(c.id.clone()).or_insert_with(|| public(c));
            }
        }
        let mut list: Vec<Published> = list.into_values().collect();
        list.sort_by(|a, b| {
            b.published
                .cmp(&a.published)
                .then_with(|| a.link.cmp(&b.link))
        });
        shown += list.len();
        let mut bytes = Vec::with_capacity(list.len() * 384);
        for p in &list {
            serde_json::to_writer(&mut bytes, p)?;
            bytes.push(b'\n');
        }
        // Written atomically, and only when it changed (past days mostly do not).
        site::put(&data.day_dir(&day).join("published.jsonl"), &bytes)?;
        days.insert(day, list);
    }
    let outlets = outlets::load(&pipeline, &data, &today, &days)?;
    let rules = fetching::Rules::enforced();
    let dir = data.site_dir();
    let site = site::Site {
        days: &days,
        outlets: &outlets,
        zone: &zone,
        licence,
        rules: &rules,
    };
    let pages = site::render(&dir, &site)?;
    let exported = export::write(&dir, &days, licence)?;
    let mut written: BTreeSet<PathBuf> = pages.iter().map(PathBuf::from).collect();
    written.extend(exported.iter().map(PathBuf::from));
    let pruned = prune(&dir, &dir, &written)?;
    Ok(Report {
        summary: format!(
            "{} days, {shown} headlines public, {removed} removed, {} pages and {} open-data files written, {pruned} stale files removed",
            days.len(),
            pages.len(),
            exported.len()
        ),
        failed: 0,
    })
}

/// The public record of a classified headline: no author, no summary, nothing else.
fn public(c: Classified) -> Published {
    Published {
        id: c.id,
        outlet: c.outlet,
        source: c.source,
        lang: c.lang,
        headline: c.headline,
        link: c.link,
        published: c.published,
        date_source: c.date_source,
        topic: c.topic,
        opinion: c.opinion,
    }
}

/// Removes every file under the site that this run did not write (and directories left
/// empty); returns how many files went.
fn prune(root: &Path, dir: &Path, keep: &BTreeSet<PathBuf>) -> Result<usize> {
    use anyhow::Context;
    let mut removed = 0;
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    for entry in rd {
        let path = entry?.path();
        if path.is_dir() {
            removed += prune(root, &path, keep)?;
            if std::fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none()) {
                std::fs::remove_dir(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            if !keep.contains(rel) {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}
