//! When anything goes wrong: no headline lost, no refusal or wait forgotten, nothing kept
//! that must not be. Runs killed at random points over a scripted day, a full disk, stale
//! and future states, clocks that jump. Politeness is judged from the loopback web's own
//! log; "nothing lost" from the published lists.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use support::pipeline::{Workdir, describe, repo};
use support::web::*;

const SOURCES: &str = "\
outlet,lang,kind,section,url,selector,status
ನಮ್ಮ ಊರು,kn,feed,top,http://127.0.0.51:{{port}}/feed.xml,,demo
Bengaluru Ledger,en,feed,top,http://127.0.0.52:{{port}}/feed.xml,,demo
Bengaluru Ledger,en,feed,world,http://127.0.0.52:{{port}}/world.xml,,demo
Refusing Daily,en,feed,top,http://127.0.0.53:{{port}}/feed.xml,,demo
Busy Herald,en,feed,top,http://127.0.0.54:{{port}}/feed.xml,,demo
Sleepy Weekly,en,feed,top,http://127.0.0.55:{{port}}/feed.xml,,demo
";

/// The feeds the test writes: (site, path, every how many hours two new items replace the
/// last two). A feed keeps only its newest items, so a body lost and not asked for again
/// (a 304 on validators that stood for it) loses its headlines for good.
const FEEDS: &[(&str, &str, usize)] = &[
    ("127.0.0.51", "/feed.xml", 2),
    ("127.0.0.52", "/feed.xml", 1),
    ("127.0.0.52", "/world.xml", 3),
    ("127.0.0.54", "/feed.xml", 1),
];

/// Items a feed holds (newest first): only what its last change added.
const KEPT_IN_FEED: usize = 2;

struct Day {
    w: Workdir,
    web: Web,
}

fn start(name: &str) -> Day {
    let w = Workdir::new(name);
    let web = Web::start(&repo().join("tests/web/faults"), &w.dir);
    w.sources_text(SOURCES, &web);
    Day { w, web }
}

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn fmt(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The link of item `n` of a feed.
fn link(web: &Web, site: &str, path: &str, n: usize) -> String {
    let section = path.trim_start_matches('/').trim_end_matches(".xml");
    format!("{}/news/{section}-{n}.html", web.base(site))
}

/// Writes every feed as it stands at `hour` (a feed changes every `every` hours, adding two
/// items and holding the newest [`KEPT_IN_FEED`]); returns the links each feed now serves.
fn write_feeds(day: &Day, hour: usize) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut served = BTreeMap::new();
    for (site, path, every) in FEEDS {
        let newest = 2 * (hour / every + 1);
        let first = newest.saturating_sub(KEPT_IN_FEED);
        let mut items = String::new();
        let mut links = BTreeSet::new();
        for n in (first..newest).rev() {
            let l = link(&day.web, site, path, n);
            let title = if *site == "127.0.0.51" {
                format!("ಊರಿನ ಸುದ್ದಿ ಸಂಖ್ಯೆ {n}")
            } else {
                format!("Ledger story {n} from {}", path.trim_start_matches('/'))
            };
            items.push_str(&format!(
                "<item><title>{title}</title><link>{l}</link><pubDate>{}</pubDate>\
                 <description>Summary {n}: words that must never be kept.</description></item>\n",
                httpdate::fmt_http_date(
                    (t("2026-11-30T00:00:00Z") + chrono::Duration::minutes(30 * n as i64)).into()
                )
            ));
            links.insert(l);
        }
        let body = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>\
             <title>{site}</title><link>{}/</link>\n{items}</channel></rss>\n",
            day.web.base(site)
        );
        let file = day.web.site_dir(site).join(path.trim_start_matches('/'));
        // Rewritten only when it changes, as a publisher's server would.
        if std::fs::read_to_string(&file).ok().as_deref() != Some(body.as_str()) {
            std::fs::write(&file, body).unwrap();
        }
        served.insert((site.to_string(), path.to_string()), links);
    }
    served
}

/// What happened to one run of a stage (or of `make hourly`).
#[derive(Debug, Clone)]
struct Ran {
    what: String,
    now: DateTime<Utc>,
    started: DateTime<Utc>,
    ended: DateTime<Utc>,
    killed: bool,
}

/// Runs a command to its end, or kills it (its whole process group) after `kill_after`.
fn run(mut c: Command, what: &str, now: DateTime<Utc>, kill_after: Option<Duration>) -> Ran {
    use std::os::unix::process::CommandExt;
    c.process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let started = Utc::now();
    let mut child = c.spawn().unwrap_or_else(|e| panic!("starting {what}: {e}"));
    let mut killed = false;
    if let Some(after) = kill_after {
        let deadline = Instant::now() + after;
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if Instant::now() >= deadline {
                // SAFETY: kill(2) on the child's own process group.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                killed = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let out = child.wait_with_output().unwrap();
    let ended = Utc::now();
    if !killed {
        let code = out.status.code();
        assert!(
            matches!(code, Some(0) | Some(3) | Some(4)),
            "{what} at {} failed ({:?}):\n{}",
            fmt(now),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ran {
        what: what.to_string(),
        now,
        started,
        ended,
        killed,
    }
}

/// The stages of an hourly run as the Makefile chains them.
const HOURLY: &[&str] = &[
    "robots-refresh",
    "fetch-feeds",
    "extract",
    "classify",
    "publish",
];

/// The directory of the stage binaries cargo built for the tests.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_fetch-feeds"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `make hourly` as cron runs it, with the test's binaries, lists and data.
fn make_hourly(w: &Workdir, now: DateTime<Utc>) -> Command {
    let mut c = Command::new("make");
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env(
            huduku::polite::sign::KEY_ENV,
            support::pipeline::signing_key(),
        )
        .arg("--no-print-directory")
        .arg("-C")
        .arg(repo())
        .arg("hourly")
        .arg(format!("NOW={}", fmt(now)))
        .arg(format!("DATA={}", w.data.display()))
        .arg(format!("PIPELINE={}", w.pipeline.display()))
        .arg(format!("SOURCES={}", w.sources.display()))
        .arg(format!("BIN={}", bin_dir().display()));
    c
}

/// Every `.transient` directory and leftover temporary under `dir`.
fn leftovers(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name == ".transient" || (name.starts_with('.') && name.contains(".tmp")) {
            out.push(p.clone());
        }
        if p.is_dir() {
            leftovers(&p, out);
        }
    }
}

/// Every file under `dir` containing `needle`.
fn files_containing(dir: &Path, needle: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_containing(&p, needle, out);
        } else if std::fs::read(&p)
            .map(|b| String::from_utf8_lossy(&b).contains(needle))
            .unwrap_or(false)
        {
            out.push(p);
        }
    }
}

/// The public links of a day, from its `published.jsonl`.
fn published_links(w: &Workdir, day: &str) -> BTreeSet<String> {
    w.jsonl(&format!("{day}/published.jsonl"))
        .iter()
        .map(|v| v["link"].as_str().unwrap().to_string())
        .collect()
}

/// A small deterministic generator (xorshift), so a failing day can be replayed exactly.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The run a logged request belongs to (runs never overlap).
fn run_of<'a>(runs: &'a [Ran], r: &LoggedRequest) -> &'a Ran {
    runs.iter()
        .find(|x| x.started <= r.arrived && r.arrived <= x.ended)
        .unwrap_or_else(|| panic!("request outside every run: {r:?}"))
}

/// Whether a run was killed within a moment of `at` (before it could write down an answer
/// it had just received: the one way an answer can be lost).
fn killed_right_after(runs: &[Ran], at: DateTime<Utc>) -> bool {
    runs.iter()
        .any(|x| x.killed && x.ended >= at && x.ended <= at + chrono::Duration::seconds(1))
}

#[test]
fn kills_over_a_scripted_day_lose_no_headline_and_forget_no_refusal_or_wait() {
    let day = start("faults_kills");
    let w = &day.w;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs: Vec<Ran> = Vec::new();
    // Which links each feed served in each hour.
    let mut by_hour: Vec<BTreeMap<(String, String), BTreeSet<String>>> = Vec::new();
    let hours = 24;
    let mut kills = 0;
    // Kill points: stages run from a few milliseconds (classify) to seconds (fetch-feeds
    // waiting out its spacing), so the delays spread over both.
    const DELAYS_MS: &[u64] = &[0, 1, 2, 3, 5, 8, 13, 21, 50, 100, 250, 600, 1200, 2000];
    for hour in 0..hours {
        by_hour.push(write_feeds(&day, hour));
        let base = t(&format!("2026-11-30T{hour:02}:05:00Z"));
        // Four runs killed at random points, each 11 minutes after the last, then one
        // that runs to its end: what a cron job meets over years, in a day.
        for attempt in 0..5 {
            let now = base + chrono::Duration::minutes(11 * attempt);
            if attempt == 4 {
                for stage in HOURLY {
                    runs.push(run(w.command(stage, &fmt(now)), stage, now, None));
                }
                let _ = std::fs::remove_dir_all(w.transient_dir(&fmt(now)));
                continue;
            }
            let target = rng.below(HOURLY.len() as u64 + 1) as usize;
            let mut delay =
                || Duration::from_millis(DELAYS_MS[rng.below(DELAYS_MS.len() as u64) as usize]);
            if target == HOURLY.len() {
                // The whole process group of `make hourly`: no trap runs, nothing tidies.
                let r = run(make_hourly(w, now), "make hourly", now, Some(delay()));
                kills += usize::from(r.killed);
                runs.push(r);
                continue;
            }
            // The kill is aimed at one stage; if that stage ends first, at the next one.
            let mut kill = None;
            for (i, stage) in HOURLY.iter().enumerate() {
                if i == target || kill.is_some() {
                    kill = Some(delay());
                }
                let r = run(w.command(stage, &fmt(now)), stage, now, kill);
                let killed = r.killed;
                runs.push(r);
                if killed {
                    kills += 1;
                    break; // make stops here; its trap removes the hour's transient files
                }
            }
            let _ = std::fs::remove_dir_all(w.transient_dir(&fmt(now)));
        }
    }
    let by_stage: BTreeMap<&str, usize> =
        runs.iter()
            .filter(|r| r.killed)
            .fold(BTreeMap::new(), |mut m, r| {
                *m.entry(r.what.as_str()).or_default() += 1;
                m
            });
    assert!(
        kills >= 50,
        "{kills} kills landed inside a run: {by_stage:?}"
    );
    assert!(
        by_stage.len() == HOURLY.len() + 1,
        "every stage and make's whole group were killed: {by_stage:?}"
    );
    eprintln!("kills: {kills} {by_stage:?}");

    let reqs = day.web.requests();
    assert_no_overlap_per_site(&reqs);
    assert_min_spacing_per_site(&reqs, Duration::from_millis(1000));
    let sites = by_site(&reqs);
    let port = day.web.port;

    // A refusal is final: after the 403, nothing more is asked of the site, unless the run
    // that heard it died before it could write it down.
    let refuser = &sites[&format!("127.0.0.53:{port}")];
    let mut last_refusal: Option<&LoggedRequest> = None;
    for r in refuser {
        if let Some(prev) = last_refusal {
            assert!(
                killed_right_after(&runs, prev.finished),
                "asked a site that refused, and no kill explains it:\n{}",
                show(refuser)
            );
        }
        if r.status == 403 {
            last_refusal = Some(r);
        }
    }
    assert!(last_refusal.is_some(), "the refusing site was asked once");

    // Asked to wait two hours, it waits two hours by --now.
    for (site, hold) in [
        ("127.0.0.54", chrono::Duration::hours(2)),
        ("127.0.0.55", chrono::Duration::days(3650)),
    ] {
        let list = &sites[&format!("{site}:{port}")];
        let mut wait: Option<(DateTime<Utc>, DateTime<Utc>)> = None; // (until, finished)
        for r in list {
            let ran = run_of(&runs, r);
            if let Some((until, finished)) = wait
                && ran.now < until
            {
                assert!(
                    killed_right_after(&runs, finished),
                    "{site} asked at {} while asked to wait until {}: {r:?}",
                    fmt(ran.now),
                    fmt(until)
                );
            }
            if r.status == 429 {
                wait = Some((ran.now + hold, r.finished));
            }
        }
        assert!(wait.is_some(), "{site} asked to wait");
    }

    // Every headline the web served is public.
    let public = published_links(w, "2026-11-30");
    let mut lost = Vec::new();
    for r in reqs
        .iter()
        .filter(|r| r.status == 200 && r.path.ends_with(".xml"))
    {
        let ran = run_of(&runs, r);
        let hour: usize = fmt(ran.now)[11..13].parse().unwrap();
        let key = (r.addr().to_string(), r.path_only().to_string());
        for l in &by_hour[hour][&key] {
            if !public.contains(l) {
                lost.push(format!("{l} (served at {} to {})", fmt(ran.now), ran.what));
            }
        }
    }
    lost.sort();
    lost.dedup();
    assert!(
        lost.is_empty(),
        "{} headlines served and never published:\n{}",
        lost.len(),
        lost.join("\n")
    );

    // The day's stories, written by the last publish after every kill, hold public
    // headlines only, each once, and none that a killed run left half-grouped.
    let public_ids: BTreeSet<String> = w
        .jsonl("2026-11-30/published.jsonl")
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    let mut in_stories = BTreeSet::new();
    for story in w.jsonl("2026-11-30/stories.jsonl") {
        let heads = story["headlines"].as_array().unwrap();
        assert!(heads.len() >= 2, "a story of one is no story: {story}");
        for h in heads {
            let id = h["id"].as_str().unwrap().to_string();
            assert!(public_ids.contains(&id), "{id} in a story but not public");
            assert!(in_stories.insert(id.clone()), "{id} in two stories");
        }
    }

    // Nothing that must not be kept survived any run.
    let mut left = Vec::new();
    leftovers(&w.data, &mut left);
    assert!(left.is_empty(), "left behind: {left:?}");
    let mut with_summary = Vec::new();
    files_containing(&w.data, "must never be kept", &mut with_summary);
    assert!(
        with_summary.is_empty(),
        "summaries kept in {with_summary:?}"
    );
}

#[test]
fn a_body_lost_before_extract_is_asked_again_without_validators() {
    let day = start("faults_lost_body");
    let w = &day.w;
    write_feeds(&day, 0);
    let t1 = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", t1);
    w.stage("fetch-feeds", t1);
    // The run dies here: make's trap removes the raw bodies, extract never ran.
    std::fs::remove_dir_all(w.transient_dir(t1)).unwrap();
    let t2 = "2026-11-30T07:05:00Z";
    w.hourly(t2);
    let reqs = day.web.requests();
    let second: Vec<&LoggedRequest> = reqs
        .iter()
        .filter(|r| r.addr() == "127.0.0.51" && r.path == "/feed.xml")
        .collect();
    assert_eq!(second.len(), 2, "{}", show(&second));
    assert_eq!(
        second[1].if_none_match,
        None,
        "asked again without validators: {}",
        show(&second)
    );
    assert_eq!(second[1].status, 200);
    let public = published_links(w, "2026-11-30");
    for n in 0..KEPT_IN_FEED {
        let l = link(&day.web, "127.0.0.51", "/feed.xml", n);
        assert!(public.contains(&l), "{l} is public: {public:?}");
    }
    let fetch = w.read("2026-11-30/07/fetch.jsonl");
    assert!(
        fetch.contains("\"outcome\":\"unkept\""),
        "the log says why: {fetch}"
    );
}

#[test]
fn a_rerun_of_the_hour_keeps_the_hours_items() {
    let day = start("faults_rerun_hour");
    let w = &day.w;
    write_feeds(&day, 0);
    let t1 = "2026-11-30T06:05:00Z";
    w.hourly(t1);
    let before = w.jsonl("2026-11-30/06/items.jsonl");
    assert!(before.len() >= 6, "{before:?}");
    // A second run in the same hour (by hand, or after a kill in classify): nothing is due.
    w.hourly("2026-11-30T06:25:00Z");
    let after = w.jsonl("2026-11-30/06/items.jsonl");
    assert_eq!(before, after, "the hour's items stay");
    assert_eq!(
        w.jsonl("2026-11-30/06/classified.jsonl").len(),
        before.len()
    );
}

#[test]
fn an_hour_left_unclassified_is_classified_by_the_next_run() {
    let day = start("faults_unclassified_hour");
    let w = &day.w;
    write_feeds(&day, 0);
    let t1 = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", t1);
    w.stage("fetch-feeds", t1);
    w.stage("extract", t1);
    // A power cut: classify never ran for 06, and its summaries are gone with the run.
    std::fs::remove_dir_all(w.transient_dir(t1)).unwrap();
    w.hourly("2026-11-30T07:05:00Z");
    let items = w.jsonl("2026-11-30/06/items.jsonl");
    assert!(!items.is_empty());
    assert_eq!(w.jsonl("2026-11-30/06/classified.jsonl").len(), items.len());
    let public = published_links(w, "2026-11-30");
    for it in &items {
        assert!(
            public.contains(it["link"].as_str().unwrap()),
            "{it} is public"
        );
    }
}

/// Runs a stage whose files cannot grow (`ulimit -f 0`: every write fails as on a full disk).
fn stage_on_full_disk(w: &Workdir, stage: &str, now: &str) -> std::process::Output {
    let c = w.command(stage, now);
    let mut sh = Command::new("bash");
    sh.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env(
            huduku::polite::sign::KEY_ENV,
            support::pipeline::signing_key(),
        )
        .arg("-c")
        .arg("ulimit -f 0; trap '' XFSZ; exec \"$@\"")
        .arg("bash")
        .arg(c.get_program())
        .args(c.get_args());
    let out = sh.output().unwrap();
    assert!(
        !matches!(out.status.code(), Some(0) | Some(3) | Some(4)),
        "a stage that cannot record must fail:\n{}",
        describe(&sh, &out)
    );
    out
}

#[test]
fn a_stage_that_cannot_record_stops_asking_at_once() {
    let day = start("faults_full_disk");
    let w = &day.w;
    write_feeds(&day, 0);
    let t1 = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", t1);
    let before = day.web.requests().len();
    let out = stage_on_full_disk(w, "fetch-feeds", t1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("asking nothing more"), "{err}");
    let reqs = day.web.requests();
    let during: Vec<&LoggedRequest> = reqs[before..].iter().collect();
    // Sites are asked side by side, so each may have had one request in flight; none had two.
    let mut per_site: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &during {
        *per_site.entry(r.addr()).or_default() += 1;
    }
    assert!(
        per_site.values().all(|&n| n <= 1),
        "asked on after it could not record:\n{}",
        show(&during)
    );
    assert!(!during.is_empty());

    // robots-refresh too: a new day's read that cannot be kept stops at once.
    let t2 = "2026-12-01T00:35:00Z";
    let before = day.web.requests().len();
    stage_on_full_disk(w, "robots-refresh", t2);
    let reqs = day.web.requests();
    assert!(
        reqs.len() - before <= 5,
        "one robots.txt per site at most: {}",
        show(&reqs[before..].iter().collect::<Vec<_>>())
    );
}

#[test]
fn a_state_that_is_not_the_fold_of_the_logs_is_rebuilt() {
    let day = start("faults_stale_state");
    let w = &day.w;
    write_feeds(&day, 0);
    let state = w.data.join("state.json");
    w.hourly("2026-11-30T06:05:00Z");
    let older = std::fs::read(&state).unwrap();
    w.hourly("2026-11-30T07:05:00Z");
    // An older copy put back, then an empty one: each forgets what 07 learned.
    for (what, bytes) in [
        ("older copy", older.clone()),
        ("empty state", b"{\"sources\":{},\"sites\":{}}\n".to_vec()),
    ] {
        std::fs::write(&state, &bytes).unwrap();
        let n = day.web.requests().len();
        let out = w.stage("fetch-feeds", "2026-11-30T07:30:00Z");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not the fold of the logs"), "{what}: {err}");
        let reqs = day.web.requests();
        let new: Vec<&LoggedRequest> = reqs[n..].iter().collect();
        assert!(
            new.iter()
                .all(|r| r.addr() != "127.0.0.53" && r.addr() != "127.0.0.55"),
            "{what}: a refused or halted site asked again:\n{}",
            show(&new)
        );
        assert!(
            new.iter()
                .all(|r| r.path == "/robots.txt" || r.if_none_match.is_some()),
            "{what}: validators forgotten:\n{}",
            show(&new)
        );
    }
}

#[test]
fn a_permission_dated_in_the_future_is_an_error_naming_file_and_line() {
    let day = start("faults_future_permission");
    let w = &day.w;
    write_feeds(&day, 0);
    w.hourly("2026-11-30T06:05:00Z");
    w.append(
        "permissions.csv",
        "http://127.0.0.53:{{port}}/,2099-01-01,A. Person,typo in the year"
            .replace("{{port}}", &day.web.port.to_string())
            .as_str(),
    );
    let n = day.web.requests().len();
    let err = w.stage_fails("fetch-feeds", "2026-11-30T07:05:00Z");
    assert!(err.contains("permissions.csv:2"), "{err}");
    assert!(err.contains("later than now"), "{err}");
    assert_eq!(day.web.requests().len(), n, "nothing asked");
}

#[test]
fn a_permission_lifts_only_the_publisher_it_names() {
    let day = start("faults_permission_names");
    let w = &day.w;
    write_feeds(&day, 0);
    w.hourly("2026-11-30T06:05:00Z");
    // Permission for the halted site; the refusing one stays refused.
    w.append(
        "permissions.csv",
        &format!(
            "{},2026-11-30T06:30:00Z,A. Person,asked their web team",
            day.web.base("127.0.0.55")
        ),
    );
    let n = day.web.requests().len();
    w.hourly("2026-11-30T07:05:00Z");
    let reqs = day.web.requests();
    let new: Vec<&LoggedRequest> = reqs[n..].iter().collect();
    assert!(
        new.iter().all(|r| r.addr() != "127.0.0.53"),
        "{}",
        show(&new)
    );
    // The halted site's wait still stands (30 days): lifting a halt does not cut a wait.
    assert!(
        new.iter().all(|r| r.addr() != "127.0.0.55"),
        "{}",
        show(&new)
    );
    let fetch = w.read("2026-11-30/07/fetch.jsonl");
    assert!(fetch.contains("lifted-halt"), "{fetch}");
    assert!(!fetch.contains("lifted-refusal"), "{fetch}");
}

#[test]
fn two_runs_at_once_ask_each_source_once() {
    let day = start("faults_two_at_once");
    let w = &day.w;
    write_feeds(&day, 0);
    let now = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", now);
    let n = day.web.requests().len();
    let mut a = w.command("fetch-feeds", now);
    let mut b = w.command("fetch-feeds", now);
    let (ca, cb) = (
        a.stderr(Stdio::piped()).spawn().unwrap(),
        b.stderr(Stdio::piped()).spawn().unwrap(),
    );
    let (oa, ob) = (
        ca.wait_with_output().unwrap(),
        cb.wait_with_output().unwrap(),
    );
    let codes = [oa.status.code(), ob.status.code()];
    assert!(
        codes.contains(&Some(1)),
        "one of the two refuses to run: {codes:?}"
    );
    let err = format!(
        "{}{}",
        String::from_utf8_lossy(&oa.stderr),
        String::from_utf8_lossy(&ob.stderr)
    );
    assert!(err.contains("another stage is running"), "{err}");
    let reqs = day.web.requests();
    let mut per_path: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in &reqs[n..] {
        *per_path
            .entry((r.addr().to_string(), r.path.clone()))
            .or_default() += 1;
    }
    assert!(per_path.values().all(|&c| c == 1), "{per_path:?}");
}

#[test]
fn a_now_outside_the_sane_range_is_refused_before_anything_is_asked() {
    let day = start("faults_insane_now");
    let w = &day.w;
    write_feeds(&day, 0);
    for now in [
        "2100-01-01T00:05:00Z",
        "9999-12-31T23:05:00Z",
        "1999-12-31T23:05:00Z",
    ] {
        for stage in HOURLY {
            let err = w.stage_fails(stage, now);
            assert!(
                err.contains("outside 2020-01-01"),
                "{stage} at {now}: {err}"
            );
        }
    }
    assert!(day.web.requests().is_empty());
    assert!(
        w.data_files()
            .iter()
            .all(|f| [".stage.lock", ".huduku"].contains(&f.to_string_lossy().as_ref())),
        "nothing written: {:?}",
        w.data_files()
    );
}

#[test]
fn a_clock_that_moved_backwards_is_said_and_recovered() {
    let day = start("faults_clock_back");
    let w = &day.w;
    write_feeds(&day, 0);
    // A run with the clock decades ahead (still inside the sane range).
    w.hourly("2099-06-01T06:05:00Z");
    let n = day.web.requests().len();
    // The clock is put right. Every source is due by the state's own account decades on.
    let out = w.stage("fetch-feeds", "2026-11-30T07:05:00Z");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the clock moved backwards"), "{err}");
    let fetch = w.read("2026-11-30/07/fetch.jsonl");
    assert!(fetch.contains("\"outcome\":\"clock\""), "{fetch}");
    // Counted as asked now: not asked again within ten minutes, asked at the next hour.
    assert_eq!(day.web.requests().len(), n, "not asked at once");
    w.hourly("2026-11-30T08:05:00Z");
    let reqs = day.web.requests();
    let asked: BTreeSet<&str> = reqs[n..]
        .iter()
        .filter(|r| r.path != "/robots.txt")
        .map(|r| r.addr())
        .collect();
    assert!(
        asked.contains("127.0.0.51") && asked.contains("127.0.0.52"),
        "{asked:?}"
    );
    // The site that asked to wait 58 days was halted in 2099; the halt stands.
    assert!(
        !asked.contains("127.0.0.55") && !asked.contains("127.0.0.53"),
        "{asked:?}"
    );
}

#[test]
fn a_wait_longer_than_thirty_days_halts_the_site() {
    let day = start("faults_long_wait");
    let w = &day.w;
    write_feeds(&day, 0);
    w.hourly("2026-11-30T06:05:00Z");
    let state: serde_json::Value = serde_json::from_str(&w.read("state.json")).unwrap();
    let site = &state["sites"][day.web.base("127.0.0.55")];
    assert!(site["halted"].is_object(), "{site}");
    assert_eq!(site["wait_until"], "2026-12-30T06:05:00Z", "{site}");
}

#[test]
fn raw_bodies_summaries_and_temporaries_of_dead_runs_are_removed_at_the_next_run() {
    let day = start("faults_sweep");
    let w = &day.w;
    write_feeds(&day, 0);
    let old = w.data.join("2026-11-29/03/.transient");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(
        old.join("summaries.jsonl"),
        "{\"id\":\"x\",\"summary\":\"must never be kept\"}\n",
    )
    .unwrap();
    std::fs::create_dir_all(w.data.join("2026-11-30")).unwrap();
    let tmp = w.data.join("2026-11-30/.published.jsonl.tmp4000000");
    std::fs::write(&tmp, "half a file").unwrap();
    w.stage("robots-refresh", "2026-11-30T06:05:00Z");
    w.stage("fetch-feeds", "2026-11-30T06:05:00Z");
    assert!(!old.exists(), "{old:?}");
    assert!(!tmp.exists(), "{tmp:?}");
}

#[test]
fn a_feed_with_too_many_new_items_is_capped_per_run_and_per_day() {
    let day = start("faults_caps");
    let w = &day.w;
    let path = day.web.site_dir("127.0.0.51").join("feed.xml");
    let mut kept = Vec::new();
    for hour in 0..4 {
        let mut items = String::new();
        for n in hour * 1500..(hour + 1) * 1500 {
            items.push_str(&format!(
                "<item><title>Flood {n}</title><link>{}/news/flood-{n}.html</link></item>\n",
                day.web.base("127.0.0.51")
            ));
        }
        std::fs::write(
            &path,
            format!("<rss version=\"2.0\"><channel><title>x</title>{items}</channel></rss>"),
        )
        .unwrap();
        let now = format!("2026-11-30T{:02}:05:00Z", 6 + hour);
        w.stage("robots-refresh", &now);
        w.stage("fetch-feeds", &now);
        let out = w.stage("extract", &now);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let items = w.jsonl(&format!("2026-11-30/{:02}/items.jsonl", 6 + hour));
        let from_51 = items
            .iter()
            .filter(|i| i["source"].as_str().unwrap().contains("127.0.0.51"))
            .count();
        kept.push(from_51);
        assert!(err.contains("over the cap"), "{err}");
    }
    assert_eq!(kept, vec![1000, 1000, 1000, 0], "1,000 a run, 3,000 a day");
}
