//! The whole pipeline on the demo outlets: politeness proven from the loopback web's own
//! request log, every headline on the page, replays byte for byte, no summary kept.

mod support;

use std::collections::BTreeSet;
use std::time::Duration;

use support::pipeline::{Workdir, repo};
use support::web::*;

const DEMO_NOW: &str = "2026-11-30T06:05:00Z";
const UA: &str = "HudukuBot/1.0 (+https://huduku.org/fetching)";

fn demo(name: &str) -> (Workdir, Web) {
    let w = Workdir::new(name);
    let web = Web::start(&repo().join("tests/web/demo"), &w.dir);
    w.sources_from(&repo().join("pipeline/demo/sources.csv"), &web);
    w.daily(DEMO_NOW);
    w.hourly(DEMO_NOW);
    (w, web)
}

/// (headline, article path) rows of the demo web's README tables.
fn demo_headlines() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join("tests/web/demo/README.md")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| 2026-")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let path = cells
            .iter()
            .rev()
            .find(|c| c.starts_with("`/news/"))
            .unwrap()
            .trim_matches('`')
            .to_string();
        out.push((cells[3].to_string(), path));
    }
    assert!(out.len() >= 20, "README lists the demo's headlines");
    out
}

#[test]
fn demo_requests_are_polite_by_the_webs_own_log() {
    let (_w, web) = demo("demo_polite");
    let reqs = web.requests();
    assert!(
        reqs.len() >= 8,
        "robots.txt and five sources were asked: {}",
        reqs.len()
    );
    assert_only_user_agent(&reqs, UA);
    assert_robots_first_per_site(&reqs);
    assert_no_overlap_per_site(&reqs);
    assert_min_spacing_per_site(&reqs, Duration::from_millis(1000));
    assert_never_requested(
        &reqs,
        &[
            "127.0.0.21/private/",
            "127.0.0.21/search",
            "127.0.0.22/private/",
            "127.0.0.23/feeds/members.xml",
        ],
    );
    // robots.txt is read once for the day, though two stages ran.
    let robots: Vec<_> = reqs.iter().filter(|r| r.path == "/robots.txt").collect();
    assert_eq!(robots.len(), 3, "{}", show(&robots));
}

#[test]
fn demo_page_links_every_headline_to_its_publisher() {
    let (w, web) = demo("demo_page");
    let html = std::fs::read_to_string(w.data.join("site/index.html")).unwrap();
    let doc = scraper::Html::parse_document(&html);
    let a = scraper::Selector::parse("a[href]").unwrap();
    let links: Vec<(String, String)> = doc
        .select(&a)
        .map(|e| {
            (
                e.value().attr("href").unwrap().to_string(),
                e.text().collect::<String>(),
            )
        })
        .collect();
    for (headline, path) in demo_headlines() {
        let addr = ["127.0.0.21", "127.0.0.22", "127.0.0.23"]
            .into_iter()
            .find(|a| web.site_dir(a).join(path.trim_start_matches('/')).exists())
            .unwrap_or_else(|| panic!("{path} is served by one of the demo sites"));
        let href = format!("{}{}", web.base(addr), path);
        assert!(
            links.iter().any(|(h, t)| *h == href && *t == headline),
            "the page links {headline:?} to {href}; links: {links:#?}"
        );
    }
    // Kannada text arrives legible, in UTF-8, marked as Kannada.
    assert!(html.contains("ಬೆಳಗಾವಿಯಲ್ಲಿ ಡಿಸೆಂಬರ್ 8ರಿಂದ ವಿಧಾನಮಂಡಲದ ಚಳಿಗಾಲದ ಅಧಿವೇಶನ"));
    assert!(html.contains(r#"lang="kn""#));
    // Opinion only where the publisher says so; no author ever.
    let published = w.jsonl("2026-11-30/published.jsonl");
    let opinions: BTreeSet<&str> = published
        .iter()
        .filter(|p| p["opinion"] == true)
        .map(|p| p["headline"].as_str().unwrap())
        .collect();
    assert_eq!(
        opinions,
        BTreeSet::from([
            "ಕನ್ನಡ ಶಾಲೆಗಳನ್ನು ಉಳಿಸುವ ಹೊಣೆ ಯಾರದು?",
            "Editorial: The city needs buses, not another flyover"
        ])
    );
    for author in [
        "ಪ್ರಜ್ವಲ್ ಹೆಗಡೆ",
        "Nikhil Rao",
        "Reshma Kamath",
        "The Editorial Board",
    ] {
        assert!(!html.contains(author), "author {author} is never shown");
    }
}

#[test]
fn replay_of_the_day_gives_the_same_bytes() {
    let (w, _web) = demo("demo_replay");
    let day = &DEMO_NOW[..10];
    let kept = |w: &Workdir| -> Vec<(std::path::PathBuf, Vec<u8>)> {
        w.data_files()
            .into_iter()
            .filter(|p| {
                p.to_string_lossy().contains("classified.jsonl")
                    || p.starts_with("site")
                    || p.ends_with("published.jsonl")
            })
            .map(|p| (p.clone(), std::fs::read(w.data.join(&p)).unwrap()))
            .collect()
    };
    let first = kept(&w);
    assert!(
        first.iter().any(|(p, _)| p.ends_with("classified.jsonl"))
            && first.iter().any(|(p, _)| p.ends_with("index.html"))
    );
    // Remove what replay rewrites, so a stage that silently did nothing cannot pass.
    for (p, _) in &first {
        std::fs::remove_file(w.data.join(p)).unwrap();
    }
    for hour in std::fs::read_dir(w.data.join(day)).unwrap() {
        let hour = hour.unwrap().file_name().to_string_lossy().into_owned();
        if hour.len() == 2 {
            w.stage("classify", &format!("{day}T{hour}:00:00Z"));
        }
    }
    w.stage("publish", &format!("{day}T23:59:59Z"));
    let second = kept(&w);
    assert_eq!(first.len(), second.len());
    for ((p1, b1), (p2, b2)) in first.iter().zip(&second) {
        assert_eq!(p1, p2);
        assert!(b1 == b2, "{} differs after replay", p1.display());
    }
}

#[test]
fn no_kept_file_holds_a_summary() {
    let (w, _web) = demo("demo_no_summary");
    // The summaries the demo feeds carry, as extract reads them.
    let mut summaries = Vec::new();
    for (file, url) in [
        ("127.0.0.21/rss.xml", "http://127.0.0.21/rss.xml"),
        ("127.0.0.22/atom.xml", "http://127.0.0.22/atom.xml"),
        (
            "127.0.0.23/feeds/latest.xml",
            "http://127.0.0.23/feeds/latest.xml",
        ),
    ] {
        let body = std::fs::read_to_string(repo().join("tests/web/demo").join(file))
            .unwrap()
            .replace("{{port}}", "80")
            .into_bytes();
        let parsed = huduku::extract::feed::parse(&body, &url::Url::parse(url).unwrap(), None);
        summaries.extend(parsed.items.into_iter().filter_map(|i| i.summary));
    }
    assert!(summaries.len() >= 10, "the demo feeds carry summaries");
    let files = w.data_files();
    assert!(
        files
            .iter()
            .all(|p| !p.to_string_lossy().contains(".transient")),
        "transient files are gone: {files:?}"
    );
    for rel in &files {
        let text = String::from_utf8_lossy(&std::fs::read(w.data.join(rel)).unwrap()).into_owned();
        for s in &summaries {
            let probe: String = s.chars().take(40).collect();
            assert!(
                !text.contains(&probe),
                "{} holds a summary: {probe:?}",
                rel.display()
            );
        }
        for line in text.lines().filter(|l| l.starts_with('{')) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                assert!(
                    v.get("summary").is_none(),
                    "{} has a summary field",
                    rel.display()
                );
            }
        }
    }
}
