//! Tests of the loopback publisher web itself (the evidence the politeness
//! tests rely on), using a raw std TcpStream client.

mod support;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use support::web::{
    LoggedRequest, Web, assert_min_spacing_per_site, assert_no_overlap_per_site,
    assert_only_user_agent, assert_robots_first_per_site, assert_signed,
};

const SITE: &str = "127.0.0.31";
const OTHER: &str = "127.0.0.32";

/// A fresh scratch directory for one test.
fn work_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("loopback_web")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A small two-site fixture under `work/fixture`.
fn fixture(work: &Path, rules: &str) -> PathBuf {
    let fx = work.join("fixture");
    let s = fx.join(SITE);
    write(
        &s.join("robots.txt"),
        "User-agent: *\nDisallow: /private/\n",
    );
    write(
        &s.join("index.html"),
        "<!doctype html><title>Home</title><a href=\"/news/a.html\">A</a>\n",
    );
    write(
        &s.join("feed.xml"),
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><item><link>http://127.0.0.31:{{port}}/news/a.html</link></item></channel></rss>\n",
    );
    write(
        &s.join("news/a.html"),
        "<!doctype html><title>ಸುದ್ದಿ</title><p>ಒಂದು</p>\n",
    );
    write(
        &s.join("_challenge.html"),
        "<html>Just a moment...</html>\n",
    );
    write(&s.join("_rules.json"), rules);
    write(
        &fx.join(OTHER).join("robots.txt"),
        "User-agent: *\nAllow: /\n",
    );
    write(
        &fx.join(OTHER).join("_rules.json"),
        r#"{"validators": false}"#,
    );
    fx
}

const RULES: &str = r#"{
  "paths": {
    "/scripted.xml": [ {"status": 429, "headers": {"Retry-After": "7200"}, "body": ""},
                       {"status": 301, "headers": {"Location": "http://127.0.0.32:{{port}}/new.xml"}},
                       {"status": 200, "body": "<ok port=\"{{port}}\"/>"} ],
    "/feed.xml": [ {"status": 200} ],
    "/blocked.xml": [ {"status": 403, "headers": {"cf-mitigated": "challenge", "Content-Type": "text/html"},
                       "body_file": "_challenge.html"} ],
    "/big.xml": [ {"repeat_bytes": 2000000, "body": "<?xml version=\"1.0\"?><rss>{{repeat}}</rss>"} ],
    "/stall.xml": [ {"body": "<late/>", "stall_body_ms": 600} ]
  }
}"#;

struct Resp {
    status: u16,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

impl Resp {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
    fn text(&self) -> String {
        String::from_utf8(self.body.clone()).unwrap()
    }
}

/// One request on a fresh connection (`Connection: close`), read to the end.
fn request(web: &Web, addr: &str, method: &str, path: &str, extra: &[(&str, &str)]) -> Resp {
    let mut s = TcpStream::connect((addr, web.port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}:{}\r\nUser-Agent: HudukuTest/1.0\r\nConnection: close\r\n",
        web.port
    );
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("no end of head");
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .map(|l| {
            let (k, v) = l.split_once(':').unwrap();
            (k.trim().to_ascii_lowercase(), v.trim().to_string())
        })
        .collect();
    Resp {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

fn get(web: &Web, addr: &str, path: &str) -> Resp {
    request(web, addr, "GET", path, &[])
}

#[test]
fn serves_files_with_port_substituted_and_logs_them() {
    let work = work_dir("serves");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);

    let feed = get(&web, SITE, "/feed.xml?utm=1");
    assert_eq!(feed.status, 200);
    assert_eq!(feed.header("content-type"), Some("application/xml"));
    let expected_link = format!("http://127.0.0.31:{}/news/a.html", web.port);
    assert!(feed.text().contains(&expected_link), "{}", feed.text());
    assert!(!feed.text().contains("{{port}}"));
    assert_eq!(
        feed.header("content-length"),
        Some(feed.body.len().to_string().as_str())
    );
    let etag = feed.header("etag").unwrap();
    assert!(
        etag.len() == 18 && etag.starts_with('"') && etag.ends_with('"'),
        "{etag}"
    );
    assert!(feed.header("last-modified").is_some());

    let home = get(&web, SITE, "/");
    assert_eq!(home.status, 200);
    assert_eq!(
        home.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(home.text().contains("<title>Home</title>"));
    let article = get(&web, SITE, "/news/a.html");
    assert!(article.text().contains("ಸುದ್ದಿ"));

    let reqs = web.wait_for_requests(3, Duration::from_secs(5));
    assert_eq!(reqs.len(), 3, "{reqs:?}");
    let r = &reqs[0];
    assert_eq!(r.site, format!("{SITE}:{}", web.port));
    assert_eq!(
        (r.method.as_str(), r.path.as_str(), r.status),
        ("GET", "/feed.xml?utm=1", 200)
    );
    assert_eq!(r.bytes, feed.body.len() as u64);
    assert_eq!(r.user_agent.as_deref(), Some("HudukuTest/1.0"));
    assert_eq!(r.if_none_match, None);
    assert_eq!(
        r.headers.get("connection").map(String::as_str),
        Some("close")
    );
    assert!(
        r.finished - r.arrived >= chrono::Duration::milliseconds(20),
        "latency: {r:?}"
    );
    assert_only_user_agent(&reqs, "HudukuTest/1.0");

    // The log's field order is part of its format.
    let first_line = std::fs::read_to_string(&web.log)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let keys: Vec<&str> = [
        "site",
        "method",
        "path",
        "user_agent",
        "if_none_match",
        "if_modified_since",
        "status",
        "bytes",
        "arrived",
        "finished",
        "headers",
    ]
    .to_vec();
    let mut at = 0;
    for k in keys {
        let pos = first_line[at..]
            .find(&format!("\"{k}\":"))
            .unwrap_or_else(|| panic!("{k} out of order in {first_line}"));
        at += pos;
    }
}

#[test]
fn files_are_reread_on_every_request() {
    let work = work_dir("reread");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    assert!(
        get(&web, SITE, "/robots.txt")
            .text()
            .contains("Disallow: /private/")
    );
    write(
        &web.site_dir(SITE).join("robots.txt"),
        "User-agent: *\nDisallow: /\n",
    );
    assert_eq!(
        get(&web, SITE, "/robots.txt").text(),
        "User-agent: *\nDisallow: /\n"
    );
}

#[test]
fn concurrent_requests_to_one_site_show_as_overlapping() {
    let work = work_dir("overlap");
    // A long latency makes the two responses certainly overlap.
    let web =
        Web::start_with_for_its_own_tests(&fixture(&work, RULES), &work, &["--latency-ms", "500"]);
    let barrier = Arc::new(Barrier::new(2));
    let port = web.port;
    let threads: Vec<_> = ["/feed.xml", "/news/a.html"]
        .into_iter()
        .map(|path| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut s = TcpStream::connect((SITE, port)).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                barrier.wait();
                write!(
                    s,
                    "GET {path} HTTP/1.1\r\nHost: {SITE}\r\nConnection: close\r\n\r\n"
                )
                .unwrap();
                let mut out = Vec::new();
                s.read_to_end(&mut out).unwrap();
                out
            })
        })
        .collect();
    for t in threads {
        assert!(t.join().unwrap().starts_with(b"HTTP/1.1 200"));
    }
    let reqs = web.wait_for_requests(2, Duration::from_secs(5));
    assert_eq!(reqs.len(), 2);
    let (a, b) = (&reqs[0], &reqs[1]);
    assert!(
        a.arrived < b.finished && b.arrived < a.finished,
        "not overlapping: {reqs:?}"
    );
    // The checker catches it.
    let caught = std::panic::catch_unwind(|| assert_no_overlap_per_site(&reqs));
    assert!(
        caught.is_err(),
        "assert_no_overlap_per_site accepted overlapping requests"
    );

    // Sequential requests pass it.
    let work2 = work_dir("overlap-sequential");
    let web2 = Web::start_for_its_own_tests(&fixture(&work2, RULES), &work2);
    for p in ["/robots.txt", "/feed.xml", "/news/a.html"] {
        get(&web2, SITE, p);
    }
    let reqs2 = web2.wait_for_requests(3, Duration::from_secs(5));
    assert_no_overlap_per_site(&reqs2);
    assert_robots_first_per_site(&reqs2);
}

#[test]
fn scripted_sequences_advance_and_repeat_the_last_entry() {
    let work = work_dir("script");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    let r1 = get(&web, SITE, "/scripted.xml");
    assert_eq!(r1.status, 429);
    assert_eq!(r1.header("retry-after"), Some("7200"));
    assert!(r1.body.is_empty());
    let r2 = request(&web, SITE, "HEAD", "/scripted.xml?again", &[]);
    assert_eq!(r2.status, 301);
    assert_eq!(
        r2.header("location"),
        Some(format!("http://127.0.0.32:{}/new.xml", web.port).as_str())
    );
    for _ in 0..2 {
        let r = get(&web, SITE, "/scripted.xml");
        assert_eq!(r.status, 200);
        assert_eq!(r.text(), format!("<ok port=\"{}\"/>", web.port));
    }
    // A scripted challenge with its body from an `_` file.
    let b = get(&web, SITE, "/blocked.xml");
    assert_eq!(b.status, 403);
    assert_eq!(b.header("cf-mitigated"), Some("challenge"));
    assert_eq!(b.header("content-type"), Some("text/html"));
    assert!(b.text().contains("Just a moment"));
    let statuses: Vec<u16> = web
        .wait_for_requests(5, Duration::from_secs(5))
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, [429, 301, 200, 200, 403]);
}

#[test]
fn conditional_requests_get_304() {
    let work = work_dir("conditional");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    let first = get(&web, SITE, "/feed.xml");
    let etag = first.header("etag").unwrap().to_string();
    let lm = first.header("last-modified").unwrap().to_string();

    let r = request(&web, SITE, "GET", "/feed.xml", &[("If-None-Match", &etag)]);
    assert_eq!(r.status, 304);
    assert!(r.body.is_empty());
    assert_eq!(r.header("etag"), Some(etag.as_str()));

    let r = request(
        &web,
        SITE,
        "GET",
        "/feed.xml",
        &[("If-None-Match", "\"0000000000000000\"")],
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.body, first.body);

    let r = request(
        &web,
        SITE,
        "GET",
        "/feed.xml",
        &[("If-Modified-Since", &lm)],
    );
    assert_eq!(r.status, 304);
    let r = request(
        &web,
        SITE,
        "GET",
        "/feed.xml",
        &[("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT")],
    );
    assert_eq!(r.status, 200);
    // If-None-Match wins over If-Modified-Since.
    let r = request(
        &web,
        SITE,
        "GET",
        "/feed.xml",
        &[("If-None-Match", "\"x\""), ("If-Modified-Since", &lm)],
    );
    assert_eq!(r.status, 200);

    let reqs = web.wait_for_requests(6, Duration::from_secs(5));
    assert_eq!(reqs[1].if_none_match.as_deref(), Some(etag.as_str()));
    assert_eq!((reqs[1].status, reqs[1].bytes), (304, 0));
    assert_eq!(reqs[3].if_modified_since.as_deref(), Some(lm.as_str()));

    // A site with validators off sends none and never answers 304.
    let r = get(&web, OTHER, "/robots.txt");
    assert_eq!(r.status, 200);
    assert!(r.header("etag").is_none() && r.header("last-modified").is_none());
    let r = request(
        &web,
        OTHER,
        "GET",
        "/robots.txt",
        &[("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")],
    );
    assert_eq!(r.status, 200);
}

#[test]
fn a_fixed_mtime_is_every_files_last_modified_whatever_the_files_times() {
    let work = work_dir("fixed_mtime");
    let web = Web::start_with_for_its_own_tests(
        &fixture(&work, RULES),
        &work,
        &["--fixed-mtime", "2026-11-29T18:00:00Z"],
    );
    let fixed = "Sun, 29 Nov 2026 18:00:00 GMT";
    let r = get(&web, SITE, "/feed.xml");
    assert_eq!(r.header("last-modified"), Some(fixed));
    // The file's own time changes; what is served does not.
    let file = web.site_dir(SITE).join("feed.xml");
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(std::time::SystemTime::now() + Duration::from_secs(86_400))
        .unwrap();
    let r = get(&web, SITE, "/feed.xml");
    assert_eq!(r.header("last-modified"), Some(fixed));
    let r = request(
        &web,
        SITE,
        "GET",
        "/feed.xml",
        &[("If-Modified-Since", fixed)],
    );
    assert_eq!(r.status, 304, "conditional requests go by the fixed time");
}

#[test]
fn head_is_answered_without_a_body() {
    let work = work_dir("head");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    let full = get(&web, SITE, "/feed.xml");
    let head = request(&web, SITE, "HEAD", "/feed.xml", &[]);
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(
        head.header("content-length"),
        Some(full.body.len().to_string().as_str())
    );
    assert_eq!(head.header("etag"), full.header("etag"));
    let reqs = web.wait_for_requests(2, Duration::from_secs(5));
    assert_eq!((reqs[1].method.as_str(), reqs[1].bytes), ("HEAD", 0));
}

#[test]
fn underscore_files_and_unknown_paths_are_404() {
    let work = work_dir("notfound");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    for p in [
        "/_rules.json",
        "/_challenge.html",
        "/nope.xml",
        "/news/missing.html",
        "/../127.0.0.32/robots.txt",
        "/%5frules.json",
    ] {
        assert_eq!(get(&web, SITE, p).status, 404, "{p}");
    }
    assert_eq!(request(&web, SITE, "HEAD", "/_rules.json", &[]).status, 404);
}

#[test]
fn padded_and_stalled_bodies() {
    let work = work_dir("padded");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    let big = get(&web, SITE, "/big.xml");
    assert_eq!(big.status, 200);
    assert_eq!(big.body.len(), 2_000_000);
    assert!(
        big.text()
            .starts_with("<?xml version=\"1.0\"?><rss><!-- x -->")
    );
    assert!(big.text().ends_with("</rss>"));

    let started = std::time::Instant::now();
    let stalled = get(&web, SITE, "/stall.xml");
    assert_eq!(stalled.text(), "<late/>");
    assert!(started.elapsed() >= Duration::from_millis(600));
    let reqs = web.wait_for_requests(2, Duration::from_secs(5));
    assert_eq!(reqs[0].bytes, 2_000_000);
}

#[test]
fn log_survives_a_client_hanging_up() {
    let work = work_dir("hangup");
    let rules = r#"{"paths": {"/slow.xml": [ {"body": "<x/>", "delay_ms": 300} ]}}"#;
    let web = Web::start_for_its_own_tests(&fixture(&work, rules), &work);
    {
        let mut s = TcpStream::connect((SITE, web.port)).unwrap();
        write!(
            s,
            "GET /slow.xml HTTP/1.1\r\nHost: {SITE}\r\nUser-Agent: Quitter\r\n\r\n"
        )
        .unwrap();
        s.shutdown(std::net::Shutdown::Both).unwrap();
    }
    let reqs = web.wait_for_requests(1, Duration::from_secs(10));
    assert_eq!(reqs.len(), 1, "the hung-up request was not logged");
    assert_eq!(reqs[0].path, "/slow.xml");
    assert_eq!(reqs[0].user_agent.as_deref(), Some("Quitter"));
}

#[test]
fn keep_alive_connections_serve_several_requests() {
    let work = work_dir("keepalive");
    let web = Web::start_for_its_own_tests(&fixture(&work, RULES), &work);
    let mut s = TcpStream::connect((SITE, web.port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(s, "GET /robots.txt HTTP/1.1\r\nHost: {SITE}\r\n\r\n").unwrap();
    let mut buf = vec![0u8; 4096];
    let mut got = Vec::new();
    while !String::from_utf8_lossy(&got).contains("Disallow: /private/\n") {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0);
        got.extend_from_slice(&buf[..n]);
    }
    write!(
        s,
        "GET /feed.xml HTTP/1.1\r\nHost: {SITE}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut rest = Vec::new();
    s.read_to_end(&mut rest).unwrap();
    assert!(rest.starts_with(b"HTTP/1.1 200"));
    let reqs = web.wait_for_requests(2, Duration::from_secs(5));
    assert_eq!(
        reqs.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(),
        ["/robots.txt", "/feed.xml"]
    );
    assert_no_overlap_per_site(&reqs);
}

fn fake(site: &str, path: &str, arrived_ms: i64, finished_ms: i64) -> LoggedRequest {
    let t0: chrono::DateTime<chrono::Utc> = "2026-11-30T06:05:00Z".parse().unwrap();
    LoggedRequest {
        site: site.into(),
        method: "GET".into(),
        path: path.into(),
        user_agent: Some("HudukuBot/0.1".into()),
        if_none_match: None,
        if_modified_since: None,
        status: 200,
        bytes: 1,
        arrived: t0 + chrono::Duration::milliseconds(arrived_ms),
        finished: t0 + chrono::Duration::milliseconds(finished_ms),
        headers: BTreeMap::new(),
        signature: Default::default(),
    }
}

#[test]
fn politeness_checkers_fail_on_bad_logs() {
    let a = "127.0.0.21:1";
    let b = "127.0.0.22:1";
    let good = vec![
        fake(a, "/robots.txt", 0, 20),
        fake(b, "/robots.txt", 5, 25),
        fake(a, "/rss.xml", 1100, 1120),
        fake(b, "/atom.xml", 1030, 1050),
    ];
    assert_robots_first_per_site(&good);
    assert_no_overlap_per_site(&good);
    assert_min_spacing_per_site(&good, Duration::from_secs(1));
    assert_only_user_agent(&good, "HudukuBot/0.1");

    let fails = |f: &dyn Fn()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err();
    let no_robots = vec![fake(a, "/rss.xml", 0, 20), fake(a, "/robots.txt", 100, 120)];
    assert!(fails(&|| assert_robots_first_per_site(&no_robots)));
    let too_close = vec![fake(a, "/robots.txt", 0, 20), fake(a, "/rss.xml", 500, 520)];
    assert!(fails(&|| assert_min_spacing_per_site(
        &too_close,
        Duration::from_secs(1)
    )));
    // A long request: its successor arrives 1 s after it started but too soon after it finished.
    let long = vec![
        fake(a, "/robots.txt", 0, 900),
        fake(a, "/rss.xml", 1000, 1020),
    ];
    assert!(fails(&|| assert_min_spacing_per_site(
        &long,
        Duration::from_secs(1)
    )));
    // Overlap hidden behind a short request in between.
    let nested = vec![
        fake(a, "/x", 0, 1000),
        fake(a, "/y", 100, 200),
        fake(a, "/z", 500, 600),
    ];
    assert!(fails(&|| assert_no_overlap_per_site(&nested)));
    let mut other_ua = good.clone();
    other_ua[2].user_agent = None;
    assert!(fails(&|| assert_only_user_agent(
        &other_ua,
        "HudukuBot/0.1"
    )));
    // Requests that arrived without a verified signature fail the signature check.
    assert!(fails(&|| assert_signed(&good)));
}

/// The demo web: every feed parses, every item link is served, robots files
/// are there, and what robots.txt forbids exists (so a fetch of it would be visible).
#[test]
fn demo_fixture_is_served_and_consistent() {
    let work = work_dir("demo");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web/demo");
    let web = Web::start_with_for_its_own_tests(&demo, &work, &["--latency-ms", "1"]);
    let port_marker = format!(":{}/", web.port);
    let start: chrono::DateTime<chrono::Utc> = "2026-11-29T18:00:00Z".parse().unwrap();
    let end: chrono::DateTime<chrono::Utc> = "2026-11-30T05:30:00Z".parse().unwrap();
    let feeds = [
        ("127.0.0.21", "/rss.xml", 12, "application/xml"),
        ("127.0.0.22", "/atom.xml", 8, "application/xml"),
        ("127.0.0.23", "/feeds/latest.xml", 8, "application/xml"),
    ];
    for (addr, feed_path, count, ctype) in feeds {
        let robots = get(&web, addr, "/robots.txt");
        assert_eq!(robots.status, 200, "{addr}/robots.txt");
        assert_eq!(
            robots.header("content-type"),
            Some("text/plain; charset=utf-8")
        );
        let home = get(&web, addr, "/");
        assert!(
            home.text().contains("<ul class=\"headlines\">"),
            "{addr} home page"
        );
        let resp = get(&web, addr, feed_path);
        assert_eq!(resp.status, 200, "{addr}{feed_path}");
        assert_eq!(resp.header("content-type"), Some(ctype));
        assert!(!resp.text().contains("{{port}}"));
        let feed = feed_rs::parser::parse(resp.body.as_slice()).expect("feed parses");
        assert_eq!(feed.entries.len(), count, "{addr}{feed_path}");
        for entry in &feed.entries {
            let link = &entry.links[0].href;
            assert!(
                link.starts_with(&format!("http://{addr}{port_marker}news/")),
                "{link}"
            );
            let published = entry.published.expect("published date");
            assert!(
                published >= start && published <= end,
                "{link}: {published}"
            );
            let path = &link[link.find(&port_marker).unwrap() + port_marker.len() - 1..];
            let page = get(&web, addr, path);
            assert_eq!(page.status, 200, "{link}");
            let title = entry.title.as_ref().unwrap().content.clone();
            assert!(
                page.text().contains(&title.replace('&', "&amp;")),
                "{link} lacks its title {title:?}"
            );
        }
    }
    // The news sitemap's URLs are all served.
    let sitemap = get(&web, "127.0.0.22", "/news-sitemap.xml").text();
    let locs: Vec<&str> = sitemap
        .split("<loc>")
        .skip(1)
        .map(|s| s.split("</loc>").next().unwrap())
        .collect();
    assert_eq!(locs.len(), 5);
    for loc in locs {
        let path = &loc[loc.find(&port_marker).unwrap() + port_marker.len() - 1..];
        assert_eq!(get(&web, "127.0.0.22", path).status, 200, "{loc}");
    }
    // Forbidden-by-robots paths exist, so fetching them would be logged as 200.
    for (addr, path) in [
        ("127.0.0.21", "/private/drafts.html"),
        ("127.0.0.22", "/private/subscribers.html"),
        ("127.0.0.23", "/feeds/members.xml"),
    ] {
        assert_eq!(
            request(&web, addr, "HEAD", path, &[]).status,
            200,
            "{addr}{path}"
        );
    }
}
