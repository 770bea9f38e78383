//! Takedowns, opt-outs and withdrawals: publish, add each kind of removal, publish again, and
//! search every produced file for the removed links. The search covers every file under the
//! data directory except the stages' inputs and logs, so pages and exports added later are
//! covered too.
//!
//! The fixture (`tests/web/removals/`): Plateau Weekly on 127.0.0.51 (four headlines; one
//! article answers 404 when re-checked), ಮಲೆನಾಡು ಧ್ವನಿ on 127.0.0.52 (opted out by outlet
//! name), Harbour Line on 127.0.0.53 (opted out by site). Everything was published
//! 2026-11-30T01:00Z, so the 2-day re-check is due on 2 December.

mod support;

use std::path::PathBuf;

use support::pipeline::{Workdir, repo};
use support::web::*;

const FIRST: &str = "2026-11-30T06:05:00Z";
const LATER: &str = "2026-12-02T06:35:00Z";

/// The stages' inputs and logs: not produced for the public, so not searched.
const INPUTS: &[&str] = &[
    "items.jsonl",
    "classified.jsonl",
    "fetch.jsonl",
    "rechecks.jsonl",
    "state.json",
    "robots.jsonl",
];

/// Every produced file under the data directory: pages, published lists, exports.
fn produced(w: &Workdir) -> Vec<PathBuf> {
    w.data_files()
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            !INPUTS.contains(&name.as_str())
                && !p.components().any(|c| {
                    let c = c.as_os_str().to_string_lossy();
                    c == "robots" || c.starts_with('.')
                })
        })
        .collect()
}

/// Produced files holding `needle`, also where it is written with escapes (JSON, HTML).
fn holding(w: &Workdir, needle: &str) -> Vec<PathBuf> {
    let forms = [
        needle.to_string(),
        needle.replace('/', "\\/"),
        needle.replace('&', "&amp;"),
    ];
    produced(w)
        .into_iter()
        .filter(|p| {
            let text =
                String::from_utf8_lossy(&std::fs::read(w.data.join(p)).unwrap()).into_owned();
            forms.iter().any(|f| text.contains(f.as_str()))
        })
        .collect()
}

#[test]
fn removed_headlines_leave_every_produced_file() {
    let w = Workdir::new("removals_every_file");
    let fixture = repo().join("tests/web/removals");
    let web = Web::start(&fixture, &w.dir);
    w.sources_from(&fixture.join("sources.csv"), &web);
    w.hourly(FIRST);

    let link = |addr: &str, path: &str| format!("{}/{path}", web.base(addr));
    let kept = [
        link("127.0.0.51", "news/kept-lalbagh-flower-show.html"),
        link("127.0.0.51", "news/kept-kabaddi.html"),
    ];
    let taken_down = link("127.0.0.51", "news/taken-down-contractor.html");
    let withdrawn = link("127.0.0.51", "news/withdrawn-hospital-beds.html");
    let outlet_opted_out = [
        link("127.0.0.52", "suddi/adike-kolera.html"),
        link("127.0.0.52", "suddi/jog-falls.html"),
    ];
    let site_opted_out = link("127.0.0.53", "stories/ferry-service.html");
    let removed: Vec<&String> = [&taken_down, &withdrawn, &site_opted_out]
        .into_iter()
        .chain(outlet_opted_out.iter())
        .collect();

    // Published first: every headline is in the day's list and on a page.
    let files = produced(&w);
    assert!(files.iter().any(|p| p.starts_with("site")), "{files:?}");
    for l in kept.iter().chain(removed.iter().copied()) {
        let found = holding(&w, l);
        assert!(
            found.iter().any(|p| p.ends_with("published.jsonl")),
            "{l} in published.jsonl: {found:?}"
        );
        assert!(
            found.iter().any(|p| p.starts_with("site")),
            "{l} on a page: {found:?}"
        );
    }

    // Each kind of removal: an outlet's opt-out (by name), a site's opt-out, a takedown (the
    // link as a reader would paste it, with a tracking parameter), and a withdrawal found by
    // the 2-day re-check.
    w.append(
        "optouts.csv",
        "outlet,ಮಲೆನಾಡು ಧ್ವನಿ,2026-12-01,email from the editor",
    );
    w.append(
        "optouts.csv",
        &format!(
            "site,{},2026-12-01,email from the publisher",
            web.base("127.0.0.53")
        ),
    );
    w.append(
        "takedowns.csv",
        &format!("{taken_down}?utm_source=whatsapp,2026-12-01,named a private person"),
    );
    let before = web.requests().len();
    w.daily(LATER);

    let checks = w.jsonl(&format!("{}/rechecks.jsonl", &LATER[..10]));
    let verdict = |l: &str| {
        checks
            .iter()
            .find(|r| r["link"] == l)
            .map(|r| r["verdict"].as_str().unwrap().to_string())
    };
    assert_eq!(
        verdict(&withdrawn).as_deref(),
        Some("withdrawn"),
        "{checks:#?}"
    );
    assert_eq!(
        verdict(&kept[0]).as_deref(),
        Some("standing"),
        "{checks:#?}"
    );
    // Opted-out and taken-down headlines are not asked about at all.
    for l in [&taken_down, &site_opted_out]
        .into_iter()
        .chain(outlet_opted_out.iter())
    {
        assert_eq!(verdict(l), None, "{l} was re-checked: {checks:#?}");
    }
    let later = web.requests();
    let asked: Vec<&LoggedRequest> = later[before..]
        .iter()
        .filter(|r| r.addr() == "127.0.0.52" || r.addr() == "127.0.0.53")
        .collect();
    assert!(
        asked.is_empty(),
        "opted-out sites were asked:\n{}",
        show(&asked)
    );

    // Published again: the removed links are in no produced file, past days included; the
    // others still are.
    for l in &removed {
        let found = holding(&w, l);
        assert!(found.is_empty(), "{l} is still in {found:?}");
    }
    for l in &kept {
        let found = holding(&w, l);
        assert!(
            found.iter().any(|p| p.starts_with("site")),
            "{l} is still on a page: {found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.to_string_lossy().contains(&FIRST[..10])),
            "{l} is still in its own day's list: {found:?}"
        );
    }
}

#[test]
fn author_lines_are_kept_in_items_only() {
    let w = Workdir::new("removals_author_lines");
    let fixture = repo().join("tests/web/removals");
    let web = Web::start(&fixture, &w.dir);
    w.sources_from(&fixture.join("sources.csv"), &web);
    w.hourly(FIRST);
    let items = w.jsonl(&format!("{}/{}/items.jsonl", &FIRST[..10], &FIRST[11..13]));
    let authors: Vec<String> = items
        .iter()
        .filter_map(|i| i["author"].as_str().map(str::to_string))
        .collect();
    assert!(
        authors.contains(&"Anita Rao".to_string()) && authors.contains(&"ಸುಧೀಂದ್ರ ಭಟ್".to_string()),
        "{items:#?}"
    );
    for p in w.data_files() {
        if p.ends_with("items.jsonl") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(w.data.join(&p)).unwrap()).into_owned();
        for a in &authors {
            assert!(
                !text.contains(a.as_str()),
                "{} carries the author line {a:?}",
                p.display()
            );
        }
        if p.ends_with("classified.jsonl") || p.ends_with("published.jsonl") {
            assert!(
                !text.contains("\"author\""),
                "{} has an author field",
                p.display()
            );
        }
    }
}
