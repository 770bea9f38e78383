//! `publish`: the public pages and the day's public list.
//!
//! Reads every day's classified headlines, removes what must not be shown (opted-out
//! outlets and sites, taken-down links, withdrawn articles), writes `DAY/published.jsonl`
//! for each day, and renders the static site under `DATA/site/`: the front page of the
//! latest day and a page per day. Pages never show an author, a summary, a non-http(s)
//! link, or publisher text unescaped (maud escapes every interpolation).
//!
//! Output depends only on the kept files and the lists, not on the clock: `--now` only
//! bounds which hours count, so a replay gives the same bytes.

pub mod removals;
pub mod site;

use anyhow::Result;
use std::collections::BTreeMap;

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
}

pub fn run(args: &Args) -> Result<Report> {
    let now = args.common.now()?;
    let data = args.common.data();
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
        crate::store::write_jsonl(&data.day_dir(&day).join("published.jsonl"), &list)?;
        days.insert(day, list);
    }
    let pages = site::render(&data.site_dir(), &days)?;
    Ok(Report {
        summary: format!(
            "{} days, {shown} headlines public, {removed} removed, {pages} pages written",
            days.len()
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
