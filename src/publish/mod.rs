//! `publish`: the public pages, each day's public list and the day's open data.
//!
//! Reads every kept day's classified headlines, removes what must not be shown (opted-out
//! outlets and sites, taken-down links, withdrawn articles), writes `DAY/published.jsonl`
//! for each day, and renders the static site under `DATA/site/` in Kannada and English
//! ([`site`]): the front page, pages per day, topic and outlet, the list of outlets read
//! or not ([`outlets`]), the stories: one event as several outlets tell it, in both
//! languages, grouped after every removal ([`stories`], `DAY/stories.jsonl`), "How Huduku
//! fetches" from the fetcher's own constants
//! ([`fetching`]), the pages it names (For publishers, Takedowns, Privacy: [`pages`]), the
//! open data ([`export`]), and for programs Atom feeds of the same lists, the sitemap,
//! robots.txt and the icon ([`feeds`]). Pages never show an author, a summary, a
//! non-http(s) link, or publisher text unescaped (maud escapes every interpolation).
//!
//! `site/` belongs to publish: each run rewrites it whole and removes any file it did not
//! write, so a page of an outlet that opted out, or of a day no longer kept, is gone too.
//! The operator's own files (`PIPELINE/site-extra/`, [`extra`]) are copied in by every run,
//! never over a file publish writes.
//!
//! Output depends only on the kept files and the lists, not on the clock: `--now` only
//! bounds which days and hours count, so a replay gives the same bytes. A replay writes
//! into a folder of its own (`--out`), reading the data directory and writing nothing there.

pub mod export;
pub mod extra;
pub mod feeds;
pub mod fetching;
pub mod i18n;
pub mod keydir;
pub mod outlets;
pub mod pages;
pub mod reasons;
pub mod removals;
pub mod rows;
pub mod site;
pub mod stories;
pub mod videos;

use anyhow::Result;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::cli::{Common, Report};
use crate::records::{Classified, Published};
use rows::{Pool, Row, Seen, Sym};
use site::{DayTopics, Listing, Lists};

/// Publish the public pages and each day's public list.
#[derive(Debug, clap::Parser)]
#[command(name = "publish", version)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Days kept on the public pages (counting back from --now). Every day's open data
    /// stays published, older days' too.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i64).range(1..))]
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
    /// Where the site is served: an absolute http(s) address ending in `/`. Canonical
    /// links, `hreflang`, the feeds and the sitemap name pages by it.
    #[arg(long, env = "HUDUKU_BASE_URL", default_value = DEFAULT_BASE)]
    pub base_url: String,
    /// Another key to publish in the key directory beside the one requests are signed
    /// with (`--signing-key`): the next key, or the last, during a changeover (see
    /// docs/signing.md).
    #[arg(long, value_name = "FILE", env = "HUDUKU_ALSO_SIGNING_KEY")]
    pub also_key: Option<PathBuf>,
    /// Write everything under this folder (DIR/DAY/published.jsonl, DIR/site/, ...) instead
    /// of the data directory, which is only read: a replay (`make replay`). An hour's
    /// classified headlines are read from DIR when the replay made them there, else from the
    /// data directory. Outside the data directory.
    #[arg(long, value_name = "DIR", conflicts_with = "eval_stories")]
    pub out: Option<PathBuf>,
    /// Score the stories' grouping on labelled sets (a directory of `*.jsonl` with
    /// `story`, `outlet`, `lang`, `published`, `opinion` and `headline`; each file a set of
    /// its own, grouped and scored alone) with the glossary of --pipeline: pairwise
    /// precision and recall and B-cubed F1 within Kannada, within English and across the
    /// two, as Markdown on stdout, one section a file. Publishes nothing.
    #[arg(long, value_name = "DIR")]
    pub eval_stories: Option<PathBuf>,
    /// With --eval-stories, also list the false merges and the missed pairs.
    #[arg(long, requires = "eval_stories")]
    pub errors: bool,
}

/// `--eval-stories`: groups the labelled set as publish would, and prints the figures.
fn eval_stories(args: &Args, dir: &Path) -> Result<Report> {
    use crate::stories::{Grouper, eval, glossary::Glossary};
    let grouper = Grouper::new(Glossary::load(&args.common.pipeline)?);
    let sets = eval::load(dir)?;
    let mut text = String::new();
    for (k, set) in sets.iter().enumerate() {
        let predicted = eval::predict(&grouper, &set.headlines);
        if k > 0 {
            text.push('\n');
        }
        text.push_str(&eval::report(&set.name, &set.headlines, &predicted));
        if args.errors {
            text.push_str(&eval::errors(&grouper, &set.headlines, &predicted));
        }
    }
    std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes())?;
    let n: usize = sets.iter().map(|s| s.headlines.len()).sum();
    Ok(Report {
        summary: format!(
            "{n} labelled headlines in {} files grouped, each file alone",
            sets.len()
        ),
        failed: 0,
    })
}

/// Where the public site is served.
pub const DEFAULT_BASE: &str = "https://huduku.org/";

/// Reads `--base-url`: an absolute http(s) address of a folder, no query or fragment.
pub fn base_url(s: &str) -> Result<String> {
    let bad = || {
        anyhow::anyhow!(
            "--base-url {s:?}: expected an absolute http(s) address ending in '/', such as {DEFAULT_BASE:?}"
        )
    };
    let u = url::Url::parse(s).map_err(|_| bad())?;
    let plain = matches!(u.scheme(), "http" | "https")
        && u.host_str().is_some()
        && u.username().is_empty()
        && u.password().is_none()
        && u.query().is_none()
        && u.fragment().is_none()
        && u.path().ends_with('/');
    if !plain || !s.ends_with('/') {
        return Err(bad());
    }
    Ok(u.to_string())
}

/// Publishes. The days go by one at a time, newest first: a day's list is made, written
/// (`published.jsonl` and the day's open data) and handed to [`Gather`], which keeps only
/// what the pages across the days need; then each day's `published.jsonl` is read back, a
/// line at a time, for the day's own pages. A day's stories need the day before's list, so
/// a day's files are written once the next older day's list is made. Memory holds two
/// days' lists, the bounded lists
/// of the pages, and eight bytes per headline of the kept days (so that a link seen on two
/// days counts once, on the newer).
pub fn run(args: &Args) -> Result<Report> {
    if let Some(dir) = &args.eval_stories {
        return eval_stories(args, dir);
    }
    let now = args.common.now()?;
    let zone = i18n::Zone::parse(&args.tz)?;
    let licence = args.licence.trim();
    if licence.is_empty() || licence.chars().any(char::is_control) {
        anyhow::bail!(
            "--licence must be one line of text, such as {:?}",
            export::DEFAULT_LICENCE
        );
    }
    let base = base_url(&args.base_url)?;
    let data = args.common.data();
    let mut keys = Vec::new();
    for k in args.common.signing_key.iter().chain(args.also_key.iter()) {
        keys.push(crate::polite::sign::Key::load(k)?);
    }
    // Without a key (a replay, a publish by hand), the key directory already published
    // stays as it is, and the pages name its keys.
    let keyids: Vec<String> = if keys.is_empty() {
        keydir::published_keyids(&data.site_dir())
    } else {
        keys.iter().map(|k| k.keyid.clone()).collect()
    };
    // What publish writes goes to `out`: the data directory, or a replay's own folder.
    let (_lock, out) = match &args.out {
        Some(dir) => {
            crate::store::check_out(&data, dir)?;
            (
                crate::store::DataLock::take_shared(&data, "publish")?,
                crate::store::Data::new(dir),
            )
        }
        None => (args.common.lock("publish")?, data.clone()),
    };
    let pipeline = args.common.pipeline();
    // The operator's own files, checked before anything is written.
    let extras = extra::Extras::load(&pipeline.root)?;
    let removals = removals::Removals::load(&pipeline, &data, now)?;
    let grouper =
        crate::stories::Grouper::new(crate::stories::glossary::Glossary::load(&pipeline.root)?);
    let first_day = crate::time::day(now - chrono::Duration::days(args.days - 1));
    let today = crate::time::day(now);
    let this_hour = crate::time::hour(now);
    let dir = out.site_dir();
    let all_days = data.days()?;
    let days: Vec<String> = all_days
        .iter()
        .filter(|d| **d >= first_day && **d <= today)
        .cloned()
        .collect();
    let digest = removals.digest(EXPORT_FORMAT);

    let mut pool = Pool::default();
    let mut gather = Gather::default();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut sums = export::Sums::new();
    let (mut shown, mut removed) = (0usize, 0usize);
    // When the newest public headline was found: the front page's "updated" line.
    let mut as_of = None;
    // The stories of a day need the day before's list too: each day's files are written
    // when the next (older) day's list is in hand, so two lists are held at a time.
    let mut pending: Option<(String, Vec<Row>)> = None;
    let mut story_days: Vec<Vec<crate::stories::Story>> = Vec::new();
    let mut finish_day = |day: &str,
                          list: Vec<Row>,
                          before: &[Row],
                          pool: &Pool,
                          sums: &mut export::Sums|
     -> Result<()> {
        let (stories, story_of) = stories::day_stories(&grouper, &list, before, pool);
        write_day(
            &out, &dir, day, &list, pool, &stories, &story_of, &digest, sums,
        )?;
        if story_days.len() < 2 {
            story_days.push(stories);
        }
        Ok(())
    };
    for day in days.iter().rev() {
        let upto = (*day == today).then_some(this_hour.as_str());
        let list = day_list(
            &data,
            &out,
            day,
            upto,
            &removals,
            &mut pool,
            &mut removed,
            &mut as_of,
        )?;
        shown += list.len();
        counts.insert(day.clone(), list.len());
        gather.day(&list, &pool);
        if let Some((newer, newer_list)) = pending.take() {
            let before: &[Row] = if day_before(&newer).as_deref() == Some(day.as_str()) {
                &list
            } else {
                &[]
            };
            finish_day(&newer, newer_list, before, &pool, &mut sums)?;
        }
        pending = Some((day.clone(), list));
    }
    if let Some((oldest, list)) = pending.take() {
        // The day before the pages' first, if kept, only as the stories' context.
        let before = match day_before(&oldest).filter(|d| all_days.contains(d)) {
            Some(d) => day_list(
                &data, &out, &d, None, &removals, &mut pool, &mut 0, &mut None,
            )?,
            None => Vec::new(),
        };
        finish_day(&oldest, list, &before, &pool, &mut sums)?;
    }
    drop(finish_day);
    let mut story_days = story_days.into_iter();
    let page_stories = stories::for_pages(
        story_days.next().unwrap_or_default(),
        story_days.next().unwrap_or_default(),
    );
    // Days before the pages' window: their open data stays, remade only when the removals
    // in force changed since it was made (or a file of it is missing).
    let mut archived: BTreeMap<String, usize> = BTreeMap::new();
    let mut remade = 0usize;
    for day in all_days.iter().filter(|d| **d < first_day) {
        if let Some(made) = made(&out, &dir, day, &digest) {
            archived.insert(day.clone(), made.headlines);
            sums.extend(made.files);
            continue;
        }
        let list = day_list(
            &data,
            &out,
            day,
            None,
            &removals,
            &mut pool,
            &mut removed,
            &mut None,
        )?;
        let before = match day_before(day).filter(|d| all_days.contains(d)) {
            Some(d) => day_list(
                &data, &out, &d, None, &removals, &mut pool, &mut 0, &mut None,
            )?,
            None => Vec::new(),
        };
        let (day_stories, story_of) = stories::day_stories(&grouper, &list, &before, &pool);
        write_day(
            &out,
            &dir,
            day,
            &list,
            &pool,
            &day_stories,
            &story_of,
            &digest,
            &mut sums,
        )?;
        archived.insert(day.clone(), list.len());
        remade += 1;
    }

    let seen: BTreeMap<String, String> = gather
        .langs
        .iter()
        .map(|(o, l)| (pool.get(*o).to_string(), pool.get(*l).to_string()))
        .collect();
    let outlets = outlets::load(&pipeline, &data, now, &seen)?;
    let slugs = site::outlet_pages(gather.outlets.keys().map(|o| pool.get(*o)), &outlets);
    let rules = fetching::Rules::enforced();
    let lists = gather.lists(&pool);
    let mut pages = Vec::new();
    // The site's inputs, borrowed afresh where used: the pool grows between the days' pages.
    macro_rules! site_now {
        () => {
            site::Site {
                days: &counts,
                pool: &pool,
                outlets: &outlets,
                slugs: &slugs,
                zone: &zone,
                licence,
                rules: &rules,
                base: &base,
                removed: removals.counts(),
                window: args.days,
                keyids: &keyids,
                as_of,
                stories: &page_stories,
            }
        };
    }
    for (i, day) in days.iter().enumerate() {
        let topics = day_topics(&out.day_dir(day).join("published.jsonl"), &mut pool)?;
        let site = site_now!();
        let prev = i.checked_sub(1).map(|j| days[j].as_str());
        let next = days.get(i + 1).map(String::as_str);
        pages.extend(site::render_day(&dir, &site, day, prev, next, &topics)?);
    }
    let site = site_now!();
    pages.extend(site::render_rest(&dir, &site, &lists)?);
    pages.extend(stories::render(&dir, &site, &page_stories)?);
    pages.extend(pages::render(&dir, &site)?);
    pages.extend(videos::render(&dir, &site, &data, &pipeline, now)?);
    pages.extend(feeds::write_feeds(&dir, &site, &lists)?);
    // Last, from every page written: the sitemap, robots.txt and the icon.
    let made = feeds::finish(&dir, &site, &pages, extras.replaces_favicon())?;
    pages.extend(made);
    let mut exported_days = archived.clone();
    exported_days.extend(counts.iter().map(|(d, n)| (d.clone(), *n)));
    // The key directory: from the keys given, else the one already published stays.
    if keys.is_empty() {
        pages.extend(keydir::keep(&data.site_dir(), &dir)?);
    } else {
        pages.extend(keydir::write(
            &dir,
            &out.root.join("server"),
            &keys,
            &base,
            now,
        )?);
    }
    let exported = export::finish(&dir, &exported_days, sums, licence, &base)?;
    let mut written: BTreeSet<PathBuf> = pages.iter().map(PathBuf::from).collect();
    written.extend(exported.iter().map(PathBuf::from));
    // The operator's files, never over one of publish's own, and kept by the prune.
    let copied = extras.copy(&dir, &written)?;
    written.extend(copied.iter().map(PathBuf::from));
    let pruned = prune(&dir, &dir, &written)?;
    Ok(Report {
        summary: format!(
            "{} days, {shown} headlines public, {removed} removed, {} pages and {} open-data files written, {} of the operator's files copied, {} older days' open data kept ({remade} remade), {pruned} stale files removed",
            days.len(),
            pages.len(),
            exported.len(),
            copied.len(),
            archived.len()
        ),
        failed: 0,
    })
}

/// The version of what publish writes for a day (`published.jsonl`, the open data): a
/// change to those bytes bumps it, so that older days' files are remade too.
/// 3: a topic outside the taxonomy is `other` in the open data, as on the pages.
/// 4: the open data's `story` column, and `DAY/stories.jsonl`.
pub const EXPORT_FORMAT: u32 = 4;

/// What a day's public list and open data were made with (`DAY/published-made.json`):
/// the digest of the removals in force, how many headlines, and the open data's SHA-256.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Made {
    removals: String,
    headlines: usize,
    files: BTreeMap<String, String>,
}

/// The UTC day before a `YYYY-MM-DD` day.
fn day_before(day: &str) -> Option<String> {
    let d = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").ok()?;
    Some(d.pred_opt()?.format("%Y-%m-%d").to_string())
}

/// Writes a day's public list (`DAY/published.jsonl`), its stories (`DAY/stories.jsonl`),
/// its open data and the record of what they were made from: the same for a day on the
/// pages and a day in the archive.
#[allow(clippy::too_many_arguments)]
fn write_day(
    out: &crate::store::Data,
    site_dir: &Path,
    day: &str,
    list: &[Row],
    pool: &Pool,
    day_stories: &[crate::stories::Story],
    story_of: &export::StoryOf,
    digest: &str,
    sums: &mut export::Sums,
) -> Result<()> {
    // Written atomically, and only when it changed (past days mostly do not).
    site::put_with(&out.day_dir(day).join("published.jsonl"), |w| {
        for p in list {
            serde_json::to_writer(&mut *w, &p.public(pool))?;
            w.write_all(b"\n")?;
        }
        Ok(())
    })?;
    stories::write(&out.day_dir(day).join(stories::FILE), day_stories)?;
    export::write_day(site_dir, day, list, pool, story_of, sums)?;
    write_made(out, day, digest, list.len(), sums)
}

fn made_path(data: &crate::store::Data, day: &str) -> PathBuf {
    data.day_dir(day).join("published-made.json")
}

fn write_made(
    data: &crate::store::Data,
    day: &str,
    digest: &str,
    headlines: usize,
    sums: &export::Sums,
) -> Result<()> {
    let files: BTreeMap<String, String> = [
        format!("headlines-{day}.csv"),
        format!("headlines-{day}.jsonl"),
    ]
    .into_iter()
    .filter_map(|n| sums.get(&n).map(|s| (n, s.clone())))
    .collect();
    let made = Made {
        removals: digest.to_string(),
        headlines,
        files,
    };
    let mut bytes = serde_json::to_vec_pretty(&made)?;
    bytes.push(b'\n');
    site::put(&made_path(data, day), &bytes)
}

/// What an older day's files were made with, if they need no remaking: the same removals,
/// and every file of its open data still there.
fn made(data: &crate::store::Data, site: &Path, day: &str, digest: &str) -> Option<Made> {
    let made: Made = serde_json::from_slice(&std::fs::read(made_path(data, day)).ok()?).ok()?;
    let whole = made.files.len() == 2
        && made
            .files
            .keys()
            .all(|n| site.join(export::DIR).join(n).is_file())
        && data.day_dir(day).join("published.jsonl").is_file()
        && data.day_dir(day).join(stories::FILE).is_file();
    (made.removals == digest && whole).then_some(made)
}

/// A day's public list, newest first: the classified headlines of its hours (up to `upto`
/// when given), less what must not be shown, each link once (its first hour's record). An
/// hour's headlines are read from `out` when a replay classified it there, else from `data`.
#[allow(clippy::too_many_arguments)]
fn day_list(
    data: &crate::store::Data,
    out: &crate::store::Data,
    day: &str,
    upto: Option<&str>,
    removals: &removals::Removals,
    pool: &mut Pool,
    removed: &mut usize,
    newest: &mut Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Vec<Row>> {
    let mut ids = rows::Ids::default();
    let mut list = Vec::new();
    for hour in data.hours(day)? {
        if upto.is_some_and(|h| hour.as_str() > h) {
            continue;
        }
        let replayed = out.hour_dir(day, &hour).join("classified.jsonl");
        let path = if replayed.is_file() {
            replayed
        } else {
            data.hour_dir(day, &hour).join("classified.jsonl")
        };
        rows::each_jsonl::<Classified>(&path, |c| {
            if removals.removes(&c).is_some() {
                *removed += 1;
            } else if ids.insert(&c.id) {
                *newest = (*newest).max(Some(c.first_seen));
                list.push(Row::new(&rows::public(c), pool));
            }
            Ok(())
        })?;
    }
    rows::sort(&mut list);
    list.shrink_to_fit();
    Ok(list)
}

/// A day's headlines by topic for its pages, read back from its `published.jsonl` a line at
/// a time: the first DAY_TOPIC_PAGE_MAX of each topic and how many it has.
fn day_topics(path: &Path, pool: &mut Pool) -> Result<DayTopics> {
    let mut topics = DayTopics::new();
    rows::each_jsonl::<Published>(path, |p| {
        let t = topics.entry(site::topic_index(&p.topic)).or_default();
        if t.rows.len() < site::DAY_TOPIC_PAGE_MAX {
            t.rows.push(Row::new(&p, pool));
        }
        t.total += 1;
        Ok(())
    })?;
    Ok(topics)
}

/// A headline in the running for a bounded list, ranked as the pages list them: newest
/// first, then by link, then in the order the days were read (newest day first, then the
/// day's own order).
#[derive(Debug, Clone)]
struct Ranked {
    row: Rc<Row>,
    seq: u64,
}

fn rank(a: (&Row, u64), b: (&Row, u64)) -> Ordering {
    b.0.published
        .cmp(&a.0.published)
        .then_with(|| a.0.link().cmp(b.0.link()))
        .then_with(|| a.1.cmp(&b.1))
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        rank((&self.row, self.seq), (&other.row, other.seq))
    }
}

/// The best headlines offered so far, at most a cap of them (the worst on top, to be let
/// go first), and how many were offered in all.
#[derive(Debug, Default)]
struct Top {
    heap: BinaryHeap<Ranked>,
    total: usize,
}

impl Top {
    fn wants(&self, cap: usize, row: &Row, seq: u64) -> bool {
        self.heap.len() < cap
            || self
                .heap
                .peek()
                .is_some_and(|w| rank((row, seq), (&w.row, w.seq)) == Ordering::Less)
    }
    fn offer(&mut self, cap: usize, r: &Ranked) {
        self.heap.push(r.clone());
        if self.heap.len() > cap {
            self.heap.pop();
        }
    }
    fn listing(self) -> Listing<Rc<Row>> {
        Listing {
            rows: self
                .heap
                .into_sorted_vec()
                .into_iter()
                .map(|r| r.row)
                .collect(),
            total: self.total,
        }
    }
}

/// What the pages across the days need, gathered a day at a time, newest day first: the
/// newest headlines of all, of each topic and of each outlet (each list bounded), how many
/// each has, and each outlet's language.
#[derive(Debug, Default)]
struct Gather {
    seen: Seen,
    seq: u64,
    front: Top,
    topics: BTreeMap<&'static str, Top>,
    outlets: BTreeMap<Sym, Top>,
    /// Each outlet's language, from its earliest public headline (oldest day first).
    langs: BTreeMap<Sym, Sym>,
}

impl Gather {
    /// Takes in a day's list (days come newest first).
    fn day(&mut self, list: &[Row], pool: &Pool) {
        for p in list.iter().rev() {
            self.langs.insert(p.outlet, p.lang);
        }
        for p in list {
            // A link seen on two days counts once, on the newer.
            if self.seen.contains(p.id()) {
                continue;
            }
            self.seq += 1;
            let seq = self.seq;
            let topic = self
                .topics
                .entry(site::topic_of(pool.get(p.topic)))
                .or_default();
            let outlet = self.outlets.entry(p.outlet).or_default();
            topic.total += 1;
            outlet.total += 1;
            let front = self.front.wants(site::FRONT_MAX, p, seq);
            let in_topic = topic.wants(site::LIST_MAX, p, seq);
            let in_outlet = outlet.wants(site::LIST_MAX, p, seq);
            if !(front || in_topic || in_outlet) {
                continue;
            }
            let r = Ranked {
                row: Rc::new(p.clone()),
                seq,
            };
            if front {
                self.front.offer(site::FRONT_MAX, &r);
            }
            if in_topic {
                topic.offer(site::LIST_MAX, &r);
            }
            if in_outlet {
                outlet.offer(site::LIST_MAX, &r);
            }
        }
        self.seen.extend(list.iter().map(Row::id));
    }

    /// The bounded lists, newest first.
    fn lists(self, pool: &Pool) -> Lists<Rc<Row>> {
        Lists {
            front: self.front.listing().rows,
            topics: self
                .topics
                .into_iter()
                .map(|(t, top)| (t, top.listing()))
                .collect(),
            outlets: self
                .outlets
                .into_iter()
                .map(|(o, top)| (pool.get(o).to_string(), top.listing()))
                .collect(),
        }
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
