//! recheck-headers on the loopback web, with `--now` stepping day by day across the 2- and
//! 16-day checks and two skipped daily runs. What each link was asked, and when, is read
//! from the web's own request log; verdicts from `rechecks.jsonl`; refusals from
//! `state.json` and from a later fetch run that asks nothing of the refused sites.
//!
//! The fixture (`tests/web/recheck/`): Recheck Herald on 127.0.0.41 (eight articles, each
//! scripted: 200, 200-then-404, 410, 405, 301 to the home page, 302 to a section page, 301
//! to the article's new address, 500); a Kannada outlet on 127.0.0.42 whose feed links an
//! article on 127.0.0.43 (its own second address, listed in `hosts.csv`) that answers 451; Locked Weekly on 127.0.0.44 whose article
//! answers 403. Group A was published 2026-11-29T20:00Z, group B 2026-11-30T05:00Z.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use support::pipeline::{Workdir, repo};
use support::web::*;

const UA: &str = "HudukuBot/1.0 (+https://huduku.org/fetching)";

/// One run of the pipeline at a `--now`, and when (by the wall clock) it began, so that the
/// web's log lines can be attributed to it by their arrival time.
struct Step {
    now: String,
    began: DateTime<Utc>,
}

/// Days of December 2026 on which the daily run happens: the 3rd and the 17th are missed.
const SKIPPED: [u32; 2] = [3, 17];

fn december(day: u32, time: &str) -> String {
    format!("2026-12-{day:02}T{time}Z")
}

/// Every file under the data directory that a public page or export is made from or is:
/// everything but the stages' inputs and logs.
fn outputs(w: &Workdir) -> Vec<PathBuf> {
    const INPUTS: &[&str] = &[
        "items.jsonl",
        "classified.jsonl",
        "fetch.jsonl",
        "rechecks.jsonl",
        "state.json",
        "robots.jsonl",
        "summary-topics.jsonl",
    ];
    w.data_files()
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !INPUTS.contains(&name.as_ref())
                && !p.components().any(|c| {
                    c.as_os_str() == "robots" || c.as_os_str().to_string_lossy().starts_with('.')
                })
        })
        .collect()
}

fn files_containing(w: &Workdir, needle: &str) -> Vec<PathBuf> {
    outputs(w)
        .into_iter()
        .filter(|p| {
            std::fs::read(w.data.join(p))
                .map(|b| String::from_utf8_lossy(&b).contains(needle))
                .unwrap_or(false)
        })
        .collect()
}

#[test]
fn each_link_is_asked_once_at_two_and_once_at_sixteen_days() {
    let w = Workdir::new("recheck_steps");
    let fixture = repo().join("tests/web/recheck");
    let web = Web::start(&fixture, &w.dir);
    w.sources_from(&fixture.join("sources.csv"), &web);
    // The Kannada outlet's articles live on its second address, as its hosts.csv line says.
    std::fs::copy(fixture.join("hosts.csv"), w.pipeline.join("hosts.csv")).unwrap();
    let mut steps: Vec<Step> = Vec::new();
    let step = |steps: &mut Vec<Step>, now: String, daily: bool| {
        steps.push(Step {
            now: now.clone(),
            began: Utc::now(),
        });
        if daily {
            w.daily(&now);
        } else {
            w.hourly(&now);
        }
    };
    step(&mut steps, "2026-11-30T06:05:00Z".into(), false);
    let mut after_refusals = None;
    for day in 1..=22u32 {
        if !SKIPPED.contains(&day) {
            step(&mut steps, december(day, "00:35:00"), true);
        }
        if day == 2 {
            // Every earlier step's outputs still list the headlines that are withdrawn next.
            assert!(!files_containing(&w, "/news/vanishes.html").is_empty());
        }
        if day == 1 || day == 5 {
            // The hourly run again: the same items are seen again; after the 2-day checks,
            // the refused sites are not asked anything.
            step(&mut steps, december(day, "06:05:00"), false);
            if day == 5 {
                after_refusals = Some(steps.len() - 1);
            }
        }
        if day == 15 {
            assert!(
                !files_containing(&w, "/news/vanishes.html").is_empty(),
                "a headline stands until its 16-day check finds it gone"
            );
        }
    }
    let reqs = web.wait_for_requests(usize::MAX, std::time::Duration::from_millis(300));
    let step_of = |r: &LoggedRequest| -> &str {
        let i = steps
            .iter()
            .rposition(|s| s.began <= r.arrived)
            .expect("a request before the first step");
        &steps[i].now
    };

    // Politeness, from the web's own log.
    assert_only_user_agent(&reqs, UA);
    assert_robots_first_per_site(&reqs);
    assert_no_overlap_per_site(&reqs);

    // Only robots.txt and feeds are ever read with GET; articles only with HEAD.
    for r in &reqs {
        match r.method.as_str() {
            "GET" => assert!(
                r.path_only() == "/robots.txt" || r.path_only() == "/rss.xml",
                "a GET of something other than robots.txt or a feed: {}",
                show(&[r])
            ),
            "HEAD" => assert!(
                r.path_only().starts_with("/news/") || r.path_only().starts_with("/amp/"),
                "a HEAD of something other than an article: {}",
                show(&[r])
            ),
            m => panic!("a {m} request: {}", show(&[r])),
        }
    }

    // Each article: exactly one HEAD at 2 days and one at 16 (a skipped day caught up the
    // next day), none after a verdict that removed it or refused its site, nothing else.
    let mut heads: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in reqs.iter().filter(|r| r.method == "HEAD") {
        heads
            .entry(format!("{}{}", r.addr(), r.path_only()))
            .or_default()
            .push(step_of(r).to_string());
    }
    let (a2, a16) = (december(2, "00:35:00"), december(16, "00:35:00"));
    let (b2, b16) = (december(4, "00:35:00"), december(18, "00:35:00"));
    let expected: BTreeMap<String, Vec<String>> = [
        ("127.0.0.41/news/standing.html", vec![&a2, &a16]),
        ("127.0.0.41/news/vanishes.html", vec![&a2, &a16]),
        ("127.0.0.41/news/gone-410.html", vec![&a2]),
        ("127.0.0.41/news/head-405.html", vec![&a2, &a16]),
        ("127.0.0.43/amp/mahadayi.html", vec![&a2]),
        ("127.0.0.44/news/locked.html", vec![&a2]),
        ("127.0.0.41/news/moved-home.html", vec![&b2]),
        ("127.0.0.41/news/karnataka/moved-section.html", vec![&b2]),
        ("127.0.0.41/news/renamed.html", vec![&b2, &b16]),
        ("127.0.0.41/news/server-500.html", vec![&b2, &b16]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().cloned().collect()))
    .collect();
    assert_eq!(
        heads, expected,
        "HEAD requests by article and by the --now of the run that made them"
    );

    // The verdicts kept, by article and check.
    // (article path, check) → every (verdict, status) kept for it.
    type Verdicts = BTreeMap<(String, i64), Vec<(String, Option<u64>)>>;
    let mut verdicts: Verdicts = BTreeMap::new();
    for day in w
        .data_files()
        .iter()
        .filter(|p| p.ends_with("rechecks.jsonl"))
    {
        for r in w.jsonl(day.to_str().unwrap()) {
            let link = r["link"].as_str().unwrap();
            let path = link.split_once("//").unwrap().1.split_once('/').unwrap().1;
            verdicts
                .entry((path.to_string(), r["check"].as_i64().unwrap()))
                .or_default()
                .push((
                    r["verdict"].as_str().unwrap().to_string(),
                    r["status"].as_u64(),
                ));
        }
    }
    let one = |path: &str, check: i64| -> (String, Option<u64>) {
        let v = &verdicts[&(path.to_string(), check)];
        assert_eq!(v.len(), 1, "{path} at {check} days: {v:?}");
        v[0].clone()
    };
    let v = |s: &str, code: u64| (s.to_string(), Some(code));
    assert_eq!(one("news/standing.html", 2), v("standing", 200));
    assert_eq!(one("news/standing.html", 16), v("standing", 200));
    assert_eq!(one("news/vanishes.html", 2), v("standing", 200));
    assert_eq!(one("news/vanishes.html", 16), v("withdrawn", 404));
    assert_eq!(one("news/gone-410.html", 2), v("withdrawn", 410));
    assert_eq!(one("news/head-405.html", 2), v("unknown", 405));
    assert_eq!(one("news/head-405.html", 16), v("unknown", 405));
    assert_eq!(one("news/moved-home.html", 2), v("withdrawn", 301));
    assert_eq!(
        one("news/karnataka/moved-section.html", 2),
        v("withdrawn", 302)
    );
    assert_eq!(one("news/renamed.html", 2), v("standing", 301));
    assert_eq!(one("news/renamed.html", 16), v("standing", 301));
    assert_eq!(one("news/server-500.html", 2), v("unknown", 500));
    assert_eq!(one("amp/mahadayi.html", 2), v("refused", 451));
    assert_eq!(one("news/locked.html", 2), v("refused", 403));
    // The 16-day check of a refused site's headline asks nothing, and says so.
    let locked16 = &verdicts[&("news/locked.html".to_string(), 16)];
    assert!(
        !locked16.is_empty()
            && locked16
                .iter()
                .all(|(v, s)| v == "not-asked" && s.is_none()),
        "{locked16:?}"
    );
    for gone in [
        "news/gone-410.html",
        "news/moved-home.html",
        "news/karnataka/moved-section.html",
        "amp/mahadayi.html",
    ] {
        assert!(
            !verdicts.contains_key(&(gone.to_string(), 16)),
            "{gone} was removed at 2 days"
        );
    }

    // A refusal on a re-check refuses the site asked and the site of the headline's source.
    let state: serde_json::Value = serde_json::from_str(&w.read("state.json")).unwrap();
    // The site's entry under any spelling of its address (scheme, port).
    let refused = |addr: &str| {
        let sites = state["sites"].as_object().unwrap();
        let mut stops = sites
            .iter()
            .filter(|(k, _)| k.contains(addr))
            .map(|(_, v)| v["refused"].clone());
        stops
            .find(|v| !v.is_null())
            .unwrap_or(serde_json::Value::Null)
    };
    assert_eq!(refused("127.0.0.43")["status"], 451, "{state:#}");
    assert_eq!(
        refused("127.0.0.42")["status"],
        451,
        "the source's own site: {state:#}"
    );
    assert_eq!(refused("127.0.0.44")["status"], 403, "{state:#}");
    assert!(
        refused("127.0.0.41").is_null(),
        "404, 410, 405, 500 and redirects refuse nothing: {state:#}"
    );
    let first_after = &steps[steps
        .iter()
        .position(|s| s.now == december(4, "00:35:00"))
        .unwrap()];
    let late: Vec<&LoggedRequest> = reqs
        .iter()
        .filter(|r| {
            ["127.0.0.42", "127.0.0.43", "127.0.0.44"].contains(&r.addr())
                && r.arrived >= first_after.began
        })
        .collect();
    assert!(
        late.is_empty(),
        "refused sites were asked again:\n{}",
        show(&late)
    );
    // The later fetch run recorded why it asked nothing of them.
    let later = &steps[after_refusals.unwrap()].now;
    let fetch = w.jsonl(&format!("{}/{}/fetch.jsonl", &later[..10], &later[11..13]));
    for addr in ["127.0.0.42", "127.0.0.44"] {
        let site = web.base(addr);
        let lines: Vec<&serde_json::Value> = fetch
            .iter()
            .filter(|l| l["site"] == site.as_str())
            .collect();
        assert!(!lines.is_empty(), "the fetch run notes {site}");
        assert!(
            lines
                .iter()
                // Each skip, and the next read it sets, says why: the refusal.
                .all(|l| (l["outcome"] == "skipped" || l["outcome"] == "next")
                    && l["reason"].as_str().unwrap().contains("refused")),
            "{lines:#?}"
        );
    }
    // The feed of the site that did not refuse is still read.
    assert!(reqs.iter().any(|r| r.addr() == "127.0.0.41"
        && r.path_only() == "/rss.xml"
        && step_of(r) == later.as_str()));

    // Withdrawn headlines (404, 410, home or section redirect, 451) leave every public file;
    // the others stay.
    for gone in [
        "/news/gone-410.html",
        "/news/moved-home.html",
        "/news/karnataka/moved-section.html",
        "/amp/mahadayi.html",
        "/news/vanishes.html",
    ] {
        let found = files_containing(&w, gone);
        assert!(found.is_empty(), "{gone} is still in {found:?}");
    }
    for stays in [
        "/news/standing.html",
        "/news/renamed.html",
        "/news/head-405.html",
        "/news/server-500.html",
        "/news/locked.html",
    ] {
        assert!(
            files_containing(&w, stays)
                .iter()
                .any(|p| p.ends_with("published.jsonl")),
            "{stays} is still public"
        );
    }
    let paths: BTreeSet<String> = reqs.iter().map(|r| r.path_only().to_string()).collect();
    assert!(
        !paths.contains("/news/renamed-story.html"),
        "a redirect is never followed"
    );
}
