//! HudukuBot asks only the publisher's own hosts, never sends credentials found in a link,
//! and never connects to an address that is not public unless the operator allows its range.
//! Each test runs the real binaries against the loopback web (`tests/web/hosts/`) and asserts
//! from the web's own request log (which keeps every request header) and the kept files.
//!
//! 127.0.0.61 (Steered Daily) links and redirects to 127.0.0.62, another publisher: two IP
//! addresses are two hosts with no registrable domain in common, so no name mapping is needed
//! to play "another publisher's host"; the registrable-domain rule itself is tested on names
//! in `src/hosts.rs`.

mod support;

use std::time::Duration;

use serde_json::Value;
use support::pipeline::{Workdir, repo};
use support::web::*;

const UA: &str = "HudukuBot/1.0 (+https://huduku.org/fetching)";
const T0: &str = "2026-11-30T06:05:00Z";
const HEADER: &str = "outlet,lang,kind,section,url,selector,status\n";

fn setup(name: &str, sources: &str) -> (Workdir, Web) {
    let w = Workdir::new(name);
    let web = Web::start(&repo().join("tests/web/hosts"), &w.dir);
    w.sources_text(&format!("{HEADER}{sources}"), &web);
    (w, web)
}

/// robots-refresh, fetch-feeds and extract at `now`; extract's stderr.
fn fetch(w: &Workdir, now: &str) -> String {
    w.stage("robots-refresh", now);
    let _ = std::fs::remove_dir_all(w.transient_dir(now));
    w.stage("fetch-feeds", now);
    let out = w.stage("extract", now);
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn at(web: &Web, addr: &str) -> Vec<LoggedRequest> {
    web.requests()
        .into_iter()
        .filter(|r| r.addr() == addr)
        .collect()
}

fn paths(reqs: &[LoggedRequest]) -> Vec<String> {
    reqs.iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

fn log(w: &Workdir, now: &str) -> Vec<Value> {
    w.jsonl(&format!("{}/{}/fetch.jsonl", &now[..10], &now[11..13]))
}

fn with_outcome<'a>(lines: &'a [Value], outcome: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["outcome"] == outcome).collect()
}

/// Nothing was ever asked of the other publisher, and every request was HudukuBot's.
fn assert_nothing_asked_of_the_other_publisher(web: &Web) {
    let reqs = web.wait_for_requests(usize::MAX, Duration::from_millis(200));
    let elsewhere: Vec<&LoggedRequest> = reqs.iter().filter(|r| r.addr() == "127.0.0.62").collect();
    assert!(
        elsewhere.is_empty(),
        "another publisher's host was asked:\n{}",
        show(&elsewhere)
    );
    assert_only_user_agent(&reqs, UA);
}

/// Every kept file under the data directory, as text, with its name.
fn kept_texts(w: &Workdir) -> Vec<(String, String)> {
    w.data_files()
        .into_iter()
        .map(|p| {
            let text =
                String::from_utf8_lossy(&std::fs::read(w.data.join(&p)).unwrap()).into_owned();
            (p.display().to_string(), text)
        })
        .collect()
}

#[test]
fn a_sitemap_index_child_on_another_host_is_recorded_not_fetched() {
    let (w, web) = setup(
        "hosts_sitemap_child",
        "Steered Daily,en,sitemap,news,http://127.0.0.61:{{port}}/news-index.xml,,test\n",
    );
    fetch(&w, T0);
    assert_nothing_asked_of_the_other_publisher(&web);
    assert_eq!(
        paths(&at(&web, "127.0.0.61")),
        ["GET /robots.txt", "GET /news-index.xml", "GET /news-1.xml"]
    );
    let l = log(&w, T0);
    let stolen = format!("http://127.0.0.62:{}/news-stolen.xml", web.port);
    let off: Vec<&Value> = with_outcome(&l, "off-site")
        .into_iter()
        .filter(|x| x["url"] == stolen.as_str())
        .collect();
    assert_eq!(off.len(), 1, "{l:#?}");
    assert!(
        off[0]["method"].is_null(),
        "no request was made: {:#}",
        off[0]
    );
    assert!(
        off[0]["reason"]
            .as_str()
            .unwrap()
            .contains("127.0.0.62 is not a host of Steered Daily"),
        "{:#}",
        off[0]
    );
    // The child is not asked again every hour for nothing.
    let next: Vec<&Value> = with_outcome(&l, "next")
        .into_iter()
        .filter(|x| x["url"] == stolen.as_str())
        .collect();
    assert_eq!(next.len(), 1, "{l:#?}");
    assert_eq!(next[0]["until"], "2026-12-01T06:05:00Z");
    // Only the outlet's own headline is kept, credited to the index it listed.
    let items = w.jsonl("2026-11-30/06/items.jsonl");
    assert_eq!(items.len(), 1, "{items:#?}");
    assert_eq!(items[0]["headline"], "Steered Daily's own story");
    fetch(&w, "2026-11-30T07:05:00Z");
    assert_nothing_asked_of_the_other_publisher(&web);
    let later = log(&w, "2026-11-30T07:05:00Z");
    assert!(
        later.iter().any(|x| x["url"] == stolen.as_str()
            && x["outcome"] == "skipped"
            && x["reason"]
                .as_str()
                .unwrap()
                .contains("not due until 2026-12-01T06:05:00Z")),
        "{later:#?}"
    );
}

#[test]
fn a_feed_redirected_to_another_host_is_recorded_not_followed() {
    let (w, web) = setup(
        "hosts_redirect",
        "Steered Daily,en,feed,top,http://127.0.0.61:{{port}}/moved.xml,,test\n",
    );
    fetch(&w, T0);
    assert_nothing_asked_of_the_other_publisher(&web);
    assert_eq!(
        paths(&at(&web, "127.0.0.61")),
        ["GET /robots.txt", "GET /moved.xml"]
    );
    let l = log(&w, T0);
    let off = with_outcome(&l, "off-site");
    assert_eq!(off.len(), 1, "{l:#?}");
    let reason = off[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!(
            "redirect to http://127.0.0.62:{}/rss.xml not followed",
            web.port
        )) && reason.contains("not a host of Steered Daily"),
        "{reason}"
    );
    let source = format!("http://127.0.0.61:{}/moved.xml", web.port);
    let next: Vec<&Value> = with_outcome(&l, "next")
        .into_iter()
        .filter(|x| x["url"] == source.as_str())
        .collect();
    assert_eq!(next[0]["until"], "2026-12-01T06:05:00Z", "{l:#?}");
    // The next hours ask nothing; the next day asks once more.
    fetch(&w, "2026-11-30T07:05:00Z");
    fetch(&w, "2026-11-30T12:05:00Z");
    assert_eq!(at(&web, "127.0.0.61").len(), 2);
    fetch(&w, "2026-12-01T06:05:00Z");
    assert_eq!(
        paths(&at(&web, "127.0.0.61"))[2..],
        ["GET /robots.txt", "GET /moved.xml"]
    );
    assert_nothing_asked_of_the_other_publisher(&web);
    assert!(w.jsonl("2026-11-30/06/items.jsonl").is_empty());
}

#[test]
fn a_headline_linking_another_host_is_never_published_nor_rechecked() {
    let (w, web) = setup(
        "hosts_links",
        "Steered Daily,en,feed,top,http://127.0.0.61:{{port}}/rss.xml,,test\n",
    );
    let stderr = fetch(&w, T0);
    assert!(
        stderr.contains("1 dropped (link off the outlet's hosts)"),
        "extract counts what it dropped: {stderr}"
    );
    let items = w.jsonl("2026-11-30/06/items.jsonl");
    assert_eq!(items.len(), 2, "{items:#?}");
    assert!(
        items
            .iter()
            .all(|i| !i["link"].as_str().unwrap().contains("127.0.0.62"))
    );
    w.stage("classify", T0);
    // A line kept from before hosts were checked: publish takes it off every page.
    let classified = w.data.join("2026-11-30/06/classified.jsonl");
    let mut kept: Vec<Value> = w.jsonl("2026-11-30/06/classified.jsonl");
    let mut old = kept[0].clone();
    let admin = format!("http://127.0.0.62:{}/internal/admin?delete=1", web.port);
    old["link"] = admin.clone().into();
    old["id"] = "0123456789abcdef".into();
    old["headline"] = "An old line linking someone else's admin page".into();
    kept.insert(0, old.clone());
    let text: String = kept.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&classified, text).unwrap();
    let _ = std::fs::remove_dir_all(w.transient_dir(T0));
    w.stage("publish", T0);
    for (file, text) in kept_texts(&w) {
        if file.starts_with("site") || file.ends_with("published.jsonl") {
            assert!(
                !text.contains("127.0.0.62"),
                "{file} shows an off-site link"
            );
        }
    }
    assert!(
        w.read("2026-11-30/published.jsonl")
            .contains("Steered Daily's own story")
    );
    // The re-check two days on asks only the outlet's own pages, even for a public line
    // kept from before (put back in the published list by hand).
    let published = w.data.join("2026-11-30/published.jsonl");
    let mut public: Vec<Value> = w.jsonl("2026-11-30/published.jsonl");
    let mut line = public[0].clone();
    line["link"] = admin.into();
    line["id"] = "0123456789abcdef".into();
    line["published"] = "2026-11-30T04:00:00Z".into();
    public.push(line);
    std::fs::write(
        &published,
        public.iter().map(|v| format!("{v}\n")).collect::<String>(),
    )
    .unwrap();
    w.stage("robots-refresh", "2026-12-02T06:05:00Z");
    let out = w.stage("recheck-headers", "2026-12-02T06:05:00Z");
    assert_nothing_asked_of_the_other_publisher(&web);
    let heads: Vec<String> = web
        .requests()
        .into_iter()
        .filter(|r| r.method == "HEAD")
        .map(|r| format!("{} {}", r.addr(), r.path))
        .collect();
    assert_eq!(
        heads,
        [
            "127.0.0.61 /news/own.html",
            "127.0.0.61 /news/with-credentials.html"
        ]
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 listings opted out, taken down or off the publisher's hosts"),
        "{stderr}"
    );
}

#[test]
fn credentials_in_a_link_are_stripped_and_never_sent() {
    let (w, web) = setup(
        "hosts_credentials",
        "Steered Daily,en,feed,top,http://127.0.0.61:{{port}}/rss.xml,,test\nSteered Daily,en,feed,top,http://127.0.0.61:{{port}}/creds.xml,,test\n",
    );
    w.hourly(T0);
    // A redirect to a URL with credentials is not followed: nothing after /creds.xml.
    let l = log(&w, T0);
    let blocked = with_outcome(&l, "blocked");
    assert_eq!(blocked.len(), 1, "{l:#?}");
    assert!(
        blocked[0]["reason"]
            .as_str()
            .unwrap()
            .contains("carries credentials"),
        "{:#}",
        blocked[0]
    );
    // The headline whose link carried them is published without them.
    let public = w.read("2026-11-30/published.jsonl");
    assert!(
        public.contains(&format!(
            "http://127.0.0.61:{}/news/with-credentials.html",
            web.port
        )),
        "{public}"
    );
    w.daily("2026-12-02T06:05:00Z");
    let reqs = web.wait_for_requests(usize::MAX, Duration::from_millis(200));
    assert!(
        reqs.iter()
            .any(|r| r.method == "HEAD" && r.path == "/news/with-credentials.html"),
        "the re-check asked the page, without the credentials: {:?}",
        paths(&reqs)
    );
    let sent: Vec<&LoggedRequest> = reqs
        .iter()
        .filter(|r| {
            r.headers
                .keys()
                .any(|k| k == "authorization" || k == "proxy-authorization")
        })
        .collect();
    assert!(sent.is_empty(), "credentials were sent:\n{}", show(&sent));
    assert_eq!(
        reqs.iter().filter(|r| r.path == "/rss.xml").count(),
        1,
        "the redirect's target was not asked: {:?}",
        paths(&reqs)
    );
    for (file, text) in kept_texts(&w) {
        assert!(!text.contains("s3cret"), "{file} keeps the password");
    }
}

#[test]
fn an_address_that_is_not_public_is_refused_after_resolution_unless_allowed() {
    let (w, web) = setup(
        "hosts_private_address",
        "Steered Daily,en,feed,top,http://127.0.0.61:{{port}}/rss.xml,,test\nBy Name,en,feed,top,http://localhost:{{port}}/rss.xml,,test\n",
    );
    // This pipeline does not allow the loopback range: no network.csv line.
    std::fs::write(w.pipeline.join("network.csv"), "range,note\n").unwrap();
    fetch(&w, T0);
    let reqs = web.wait_for_requests(1, Duration::from_millis(500));
    assert!(
        reqs.is_empty(),
        "a refused address was asked:\n{}",
        show(&reqs.iter().collect::<Vec<_>>())
    );
    let robots = w.jsonl("2026-11-30/robots.jsonl");
    assert_eq!(robots.len(), 2, "{robots:#?}");
    assert!(
        robots.iter().all(|r| r["verdict"] == "blocked"),
        "{robots:#?}"
    );
    let l = log(&w, T0);
    let blocked = with_outcome(&l, "blocked");
    let reasons: Vec<&str> = blocked
        .iter()
        .map(|b| b["reason"].as_str().unwrap())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("127.0.0.61 is a loopback address")),
        "{reasons:#?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("localhost resolves to") && r.contains("loopback")),
        "a name is judged by what it resolves to: {reasons:#?}"
    );
    assert!(
        blocked.iter().all(|b| b["method"].is_null()),
        "{blocked:#?}"
    );
    // With the range allowed on purpose, the same source is read.
    std::fs::write(
        w.pipeline.join("network.csv"),
        support::pipeline::LOOPBACK_ALLOWED,
    )
    .unwrap();
    w.sources_text(
        &format!(
            "{HEADER}Steered Daily,en,feed,top,http://127.0.0.61:{{{{port}}}}/rss.xml,,test\n"
        ),
        &web,
    );
    fetch(&w, "2026-11-30T07:05:00Z");
    assert_eq!(
        paths(&at(&web, "127.0.0.61")),
        ["GET /robots.txt", "GET /rss.xml"]
    );
}
