//! Every rule of "How Huduku fetches", proven from the publisher's side: each test runs the
//! real binaries with `--now` against the loopback web (`tests/web/polite/`) and asserts from
//! the web's own request log and the kept files. `docs/politeness.md` maps each sentence of
//! the fetching page to the tests here.

mod support;

use std::time::Duration;

use serde_json::Value;
use support::pipeline::{Workdir, repo};
use support::web::*;

const UA: &str = "HudukuBot/1.0 (+https://huduku.org/fetching)";
const T0: &str = "2026-11-30T06:05:00Z";

/// A work directory, the polite web, and a source list of `(outlet, url-with-{{port}})`.
fn setup(name: &str, feeds: &[(&str, &str)]) -> (Workdir, Web) {
    let w = Workdir::new(name);
    let web = Web::start(&repo().join("tests/web/polite"), &w.dir);
    set_sources(&w, &web, feeds);
    (w, web)
}

fn set_sources(w: &Workdir, web: &Web, feeds: &[(&str, &str)]) {
    let mut text = String::from("outlet,lang,kind,section,url,selector,status\n");
    for (outlet, url) in feeds {
        text.push_str(&format!("{outlet},en,feed,top,{url},,test\n"));
    }
    w.sources_text(&text, web);
}

/// What the hourly run does up to the kept items: robots first, fetch, extract; the
/// transient bodies removed at the end.
fn fetch(w: &Workdir, now: &str) {
    w.stage("robots-refresh", now);
    let _ = std::fs::remove_dir_all(w.transient_dir(now));
    w.stage("fetch-feeds", now);
    w.stage("extract", now);
    let _ = std::fs::remove_dir_all(w.transient_dir(now));
}

/// The web's log for one site address.
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

/// Lines of an hour's fetch.jsonl.
fn log(w: &Workdir, now: &str) -> Vec<Value> {
    w.jsonl(&format!("{}/{}/fetch.jsonl", &now[..10], &now[11..13]))
}

fn state(w: &Workdir) -> Value {
    serde_json::from_str(&w.read("state.json")).unwrap()
}

fn site_state(w: &Workdir, web: &Web, addr: &str) -> Value {
    state(w)["sites"][web.base(addr)].clone()
}

fn t(s: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(s).unwrap().into()
}

fn fmt(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// When the durable state lets a site's robots.txt be read again.
fn robots_next(w: &Workdir, web: &Web, addr: &str) -> chrono::DateTime<chrono::Utc> {
    t(site_state(w, web, addr)["robots_next"].as_str().unwrap())
}

fn assert_polite(web: &Web) {
    let reqs = web.requests();
    assert_only_user_agent(&reqs, UA);
    assert_robots_first_per_site(&reqs);
    assert_no_overlap_per_site(&reqs);
    assert_min_spacing_per_site(&reqs, Duration::from_millis(1000));
}

// ---- robots.txt ---------------------------------------------------------------------

#[test]
fn robots_is_read_first_once_a_day_and_a_change_is_obeyed_from_the_next_day() {
    let (w, web) = setup(
        "robots_daily",
        &[("Changing", "http://127.0.0.44:{{port}}/feed.xml")],
    );
    fetch(&w, T0);
    // The publisher disallows HudukuBot during the day: today's rules stand until tomorrow's read.
    std::fs::write(
        web.site_dir("127.0.0.44").join("robots.txt"),
        "User-agent: HudukuBot\nDisallow: /\n",
    )
    .unwrap();
    fetch(&w, "2026-11-30T07:05:00Z");
    fetch(&w, "2026-12-01T06:05:00Z");
    fetch(&w, "2026-12-01T07:05:00Z");
    let reqs = at(&web, "127.0.0.44");
    assert_eq!(
        paths(&reqs),
        [
            "GET /robots.txt",
            "GET /feed.xml",
            "GET /feed.xml",
            "GET /robots.txt"
        ],
        "one robots.txt read a day, before anything else; the new rules stop the feed the next day"
    );
    assert_polite(&web);
    let skipped = log(&w, "2026-12-01T06:05:00Z");
    assert!(
        skipped.iter().any(|l| l["outcome"] == "skipped"
            && l["reason"]
                .as_str()
                .unwrap()
                .contains("robots.txt disallows")),
        "{skipped:#?}"
    );
}

#[test]
fn robots_group_for_hudukubot_is_kept_else_star_and_disallowed_paths_are_never_asked() {
    let (w, web) = setup(
        "robots_groups",
        &[
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
            ("Good", "http://127.0.0.31:{{port}}/private/feed.xml"),
        ],
    );
    fetch(&w, T0);
    assert_never_requested(&web.requests(), &["127.0.0.31/private/"]);
    assert_eq!(
        paths(&at(&web, "127.0.0.31")),
        ["GET /robots.txt", "GET /feed.xml"]
    );
    // A specific group replaces `*` entirely (the demo's 127.0.0.23 is the other half of this rule).
    std::fs::write(
        web.site_dir("127.0.0.31").join("robots.txt"),
        "User-agent: *\nDisallow: /\n\nUser-agent: hudukubot\nAllow: /\nDisallow: /feed.xml\n",
    )
    .unwrap();
    fetch(&w, "2026-12-01T06:05:00Z");
    let reqs = at(&web, "127.0.0.31");
    assert_eq!(
        paths(&reqs[2..]),
        ["GET /robots.txt", "GET /private/feed.xml"],
        "the HudukuBot group applies, not *"
    );
}

#[test]
fn robots_redirects_are_followed_and_the_rules_apply_to_the_original_site() {
    let (w, web) = setup(
        "robots_redirects",
        &[
            ("Redirects", "http://127.0.0.41:{{port}}/feed.xml"),
            ("Redirects", "http://127.0.0.41:{{port}}/private/secret.xml"),
        ],
    );
    fetch(&w, T0);
    let reqs = at(&web, "127.0.0.41");
    assert_eq!(
        paths(&reqs),
        [
            "GET /robots.txt",
            "GET /r/1",
            "GET /r/robots-real.txt",
            "GET /feed.xml"
        ]
    );
    let robots = w.jsonl("2026-11-30/robots.jsonl");
    assert_eq!(robots[0]["site"], web.base("127.0.0.41"));
    assert_eq!(robots[0]["verdict"], "rules");
    assert_polite(&web);
}

#[test]
fn robots_answering_401_refuses_the_whole_site_until_permission() {
    let (w, web) = setup(
        "robots_401",
        &[("Locked", "http://127.0.0.34:{{port}}/feed.xml")],
    );
    fetch(&w, T0);
    fetch(&w, "2026-12-01T06:05:00Z");
    assert_eq!(
        paths(&at(&web, "127.0.0.34")),
        ["GET /robots.txt"],
        "refused: not even tomorrow's robots.txt is asked"
    );
    let s = site_state(&w, &web, "127.0.0.34");
    assert_eq!(s["refused"]["reason"], "robots-401");
    assert_eq!(s["refused"]["at"], T0);
    // A person records permission; the site is read again, robots.txt first.
    std::fs::remove_file(web.site_dir("127.0.0.34").join("_rules.json")).unwrap();
    w.append(
        "permissions.csv",
        &format!(
            "{},2026-12-02,Anita (desk editor),publisher emailed: the 401 was a misconfiguration",
            web.base("127.0.0.34")
        ),
    );
    fetch(&w, "2026-12-02T06:05:00Z");
    assert_eq!(
        paths(&at(&web, "127.0.0.34")),
        ["GET /robots.txt", "GET /robots.txt", "GET /feed.xml"]
    );
    let lifted = log(&w, "2026-12-02T06:05:00Z");
    assert!(
        lifted
            .iter()
            .any(|l| l["outcome"] == "lifted-refusal"
                && l["reason"].as_str().unwrap().contains("Anita")),
        "{lifted:#?}"
    );
}

#[test]
fn content_signal_search_no_is_a_refusal() {
    let (w, web) = setup(
        "robots_search_no",
        &[("No search", "http://127.0.0.35:{{port}}/feed.xml")],
    );
    fetch(&w, T0);
    fetch(&w, "2026-11-30T07:05:00Z");
    assert_eq!(paths(&at(&web, "127.0.0.35")), ["GET /robots.txt"]);
    assert_eq!(
        site_state(&w, &web, "127.0.0.35")["refused"]["reason"],
        "robots-search-no"
    );
    let robots = w.jsonl("2026-11-30/robots.jsonl");
    assert_eq!(robots[0]["verdict"], "refused");
    assert_eq!(robots[0]["content_signal"], "ai-train=no, search=no");
}

#[test]
fn robots_unreachable_means_nothing_is_fetched_until_a_read_succeeds() {
    let (w, web) = setup(
        "robots_503",
        &[("Flaky", "http://127.0.0.36:{{port}}/feed.xml")],
    );
    fetch(&w, T0);
    assert_eq!(
        paths(&at(&web, "127.0.0.36")),
        ["GET /robots.txt"],
        "after a 503 on robots.txt, nothing else"
    );
    // Tried again an hour on (plus the site's jitter), not at every run before.
    let retry = robots_next(&w, &web, "127.0.0.36");
    let gap = retry - t(T0);
    assert!(
        gap >= chrono::Duration::hours(1) && gap <= chrono::Duration::minutes(75),
        "{gap}"
    );
    fetch(&w, "2026-11-30T06:50:00Z");
    assert_eq!(paths(&at(&web, "127.0.0.36")), ["GET /robots.txt"]);
    fetch(&w, &fmt(retry));
    assert_eq!(
        paths(&at(&web, "127.0.0.36")),
        ["GET /robots.txt", "GET /robots.txt", "GET /feed.xml"],
        "a later read succeeds, then the feed"
    );
    assert!(
        site_state(&w, &web, "127.0.0.36")["refused"].is_null(),
        "unreachable is not a refusal"
    );
}

#[test]
fn robots_absent_means_no_restrictions() {
    let (w, web) = setup(
        "robots_404",
        &[("No robots", "http://127.0.0.46:{{port}}/feed.xml")],
    );
    fetch(&w, T0);
    let reqs = at(&web, "127.0.0.46");
    assert_eq!(paths(&reqs), ["GET /robots.txt", "GET /feed.xml"]);
    assert_eq!((reqs[0].status, reqs[1].status), (404, 200));
    assert_eq!(
        w.jsonl("2026-11-30/robots.jsonl")[0]["verdict"],
        "allow-all"
    );
}

#[test]
fn robots_rules_nearly_500_kib_in_are_obeyed() {
    let (w, web) = setup(
        "robots_long",
        &[
            ("Big", "http://127.0.0.47:{{port}}/feed.xml"),
            ("Big", "http://127.0.0.47:{{port}}/private/feed.xml"),
        ],
    );
    fetch(&w, T0);
    let reqs = at(&web, "127.0.0.47");
    assert_eq!(
        reqs[0].bytes, 500_000,
        "the web served the long robots.txt whole"
    );
    // Its one Disallow line sits after 490 KB of comments: read, and obeyed.
    assert_eq!(paths(&reqs), ["GET /robots.txt", "GET /feed.xml"]);
    assert_never_requested(&reqs, &["127.0.0.47/private/"]);
}

#[test]
fn crawl_delay_is_the_spacing_between_requests() {
    let (w, web) = setup(
        "crawl_delay",
        &[
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
            ("Good", "http://127.0.0.31:{{port}}/second.xml"),
            ("Good", "http://127.0.0.31:{{port}}/ttl.xml"),
        ],
    );
    fetch(&w, T0);
    let reqs = web.requests();
    assert_eq!(reqs.len(), 4);
    assert_min_spacing_per_site(&reqs, Duration::from_millis(2000));
}

// ---- refusals are final -------------------------------------------------------------

#[test]
fn a_403_stops_the_site_no_retry_under_another_path_until_a_newer_permission() {
    let (w, web) = setup(
        "refusal_403",
        &[
            ("Refuser", "http://127.0.0.32:{{port}}/feed.xml"),
            ("Refuser", "http://127.0.0.32:{{port}}/other.xml"),
        ],
    );
    fetch(&w, T0);
    let first = at(&web, "127.0.0.32");
    // Whichever source went first, nothing is asked of the site after the 403.
    let refused_at = first
        .iter()
        .position(|r| r.status == 403)
        .expect("the site answered 403");
    assert_eq!(
        refused_at,
        first.len() - 1,
        "no request after the refusal: {:?}",
        paths(&first)
    );
    fetch(&w, "2026-11-30T08:05:00Z");
    fetch(&w, "2026-12-01T06:05:00Z");
    assert_eq!(
        at(&web, "127.0.0.32").len(),
        first.len(),
        "later runs ask nothing, robots.txt included"
    );
    let s = site_state(&w, &web, "127.0.0.32");
    assert_eq!(s["refused"]["reason"], "refused-403");
    assert_eq!(s["refused"]["evidence"], "HTTP 403");
    assert_eq!(s["refused"]["at"], T0);
    // A permission older than the refusal does not lift it; a newer one does.
    w.append(
        "permissions.csv",
        &format!("{},2026-11-29,Ravi,an old note", web.base("127.0.0.32")),
    );
    fetch(&w, "2026-12-01T08:05:00Z");
    assert_eq!(at(&web, "127.0.0.32").len(), first.len());
    std::fs::remove_file(web.site_dir("127.0.0.32").join("_rules.json")).unwrap();
    w.append("permissions.csv", &format!("http://127.0.0.32:{}/feed.xml,2026-12-01T12:00:00Z,Ravi (editor),publisher lifted the block", web.port));
    fetch(&w, "2026-12-02T06:05:00Z");
    let after = at(&web, "127.0.0.32");
    assert_eq!(paths(&after[first.len()..])[0], "GET /robots.txt");
    assert!(
        after.len() >= first.len() + 3,
        "both feeds read again: {:?}",
        paths(&after)
    );
    assert_polite(&web);
}

fn assert_challenge_refuses(name: &str, addr: &str, reason: &str) {
    let (w, web) = setup(
        name,
        &[("Site", &format!("http://{addr}:{{{{port}}}}/feed.xml"))],
    );
    fetch(&w, T0);
    fetch(&w, "2026-11-30T08:05:00Z");
    assert_eq!(
        paths(&at(&web, addr)),
        ["GET /robots.txt", "GET /feed.xml"],
        "one request, then never again"
    );
    let s = site_state(&w, &web, addr);
    assert_eq!(s["refused"]["reason"], reason, "{s:#}");
    assert!(!s["refused"]["evidence"].as_str().unwrap().is_empty());
    assert!(
        w.jsonl("2026-11-30/06/items.jsonl").is_empty(),
        "nothing is read from a challenge page"
    );
}

#[test]
fn cloudflare_challenge_is_a_refusal() {
    assert_challenge_refuses("challenge_cf", "127.0.0.37", "challenge-cloudflare");
}

#[test]
fn aws_waf_challenge_on_a_202_is_a_refusal() {
    assert_challenge_refuses("challenge_aws", "127.0.0.38", "challenge-aws-waf");
}

#[test]
fn perimeterx_block_page_on_a_200_is_a_refusal() {
    assert_challenge_refuses("challenge_px", "127.0.0.39", "challenge-perimeterx");
}

#[test]
fn a_451_is_a_refusal() {
    assert_challenge_refuses("refusal_451", "127.0.0.40", "refused-451");
}

// ---- asked to wait, it waits --------------------------------------------------------

#[test]
fn asked_to_wait_it_waits_at_least_an_hour_and_three_in_a_row_halt_the_site() {
    let (w, web) = setup("waits", &[("Busy", "http://127.0.0.33:{{port}}/feed.xml")]);
    // 429 with Retry-After: 7200 → nothing before 08:05.
    fetch(&w, T0);
    fetch(&w, "2026-11-30T07:05:00Z");
    fetch(&w, "2026-11-30T08:00:00Z");
    assert_eq!(
        at(&web, "127.0.0.33").len(),
        2,
        "robots.txt and one 429; nothing until Retry-After has passed"
    );
    let l = log(&w, "2026-11-30T07:05:00Z");
    assert!(
        l.iter()
            .any(|x| x["outcome"] == "skipped" && x["until"] == "2026-11-30T08:05:00Z"),
        "{l:#?}"
    );
    // 503 without Retry-After → one hour.
    fetch(&w, "2026-11-30T08:05:00Z");
    fetch(&w, "2026-11-30T09:00:00Z");
    assert_eq!(at(&web, "127.0.0.33").len(), 3);
    assert_eq!(
        site_state(&w, &web, "127.0.0.33")["wait_until"],
        "2026-11-30T09:05:00Z"
    );
    // 429 with an HTTP date (20:00) → the third in a row halts the site.
    fetch(&w, "2026-11-30T09:05:00Z");
    assert_eq!(at(&web, "127.0.0.33").len(), 4);
    let s = site_state(&w, &web, "127.0.0.33");
    assert_eq!(s["wait_until"], "2026-11-30T20:00:00Z");
    assert_eq!(s["halted"]["reason"], "halted-3-waits");
    fetch(&w, "2026-12-01T06:05:00Z");
    assert_eq!(
        at(&web, "127.0.0.33").len(),
        4,
        "halted: nothing, robots.txt included, until a person looks"
    );
    w.append(
        "permissions.csv",
        &format!(
            "{},2026-12-01T07:00:00Z,Anita,spoke to their ops team",
            web.base("127.0.0.33")
        ),
    );
    fetch(&w, "2026-12-01T07:05:00Z");
    let reqs = at(&web, "127.0.0.33");
    assert_eq!(paths(&reqs[4..]), ["GET /robots.txt", "GET /feed.xml"]);
    assert_eq!(reqs[5].status, 200);
    assert_eq!(
        site_state(&w, &web, "127.0.0.33")["waits_in_a_row"],
        0,
        "a good answer resets the count"
    );
    assert_polite(&web);
}

// ---- how often, how gently ----------------------------------------------------------

#[test]
fn each_feed_about_hourly_never_within_ten_minutes_longer_when_it_asks() {
    let (w, web) = setup(
        "rhythm",
        &[
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
            ("Good", "http://127.0.0.31:{{port}}/ttl.xml"),
            ("Good", "http://127.0.0.31:{{port}}/maxage.xml"),
            ("Good", "http://127.0.0.31:{{port}}/bigttl.xml"),
        ],
    );
    let count = |p: &str| {
        at(&web, "127.0.0.31")
            .iter()
            .filter(|r| r.path == p)
            .count()
    };
    for now in [
        "2026-11-30T06:05:00Z",
        "2026-11-30T06:09:00Z",
        "2026-11-30T06:40:00Z",
    ] {
        fetch(&w, now);
    }
    assert_eq!(
        (
            count("/feed.xml"),
            count("/ttl.xml"),
            count("/maxage.xml"),
            count("/bigttl.xml")
        ),
        (1, 1, 1, 1),
        "the hourly target run thrice in 35 minutes asks once"
    );
    for now in [
        "2026-11-30T07:05:00Z",
        "2026-11-30T08:05:00Z",
        "2026-11-30T09:05:00Z",
    ] {
        fetch(&w, now);
    }
    assert_eq!(count("/feed.xml"), 4, "about once an hour");
    assert_eq!(count("/maxage.xml"), 2, "max-age=7200: every two hours");
    assert_eq!(count("/ttl.xml"), 2, "<ttl>180: every three hours");
    assert_eq!(count("/bigttl.xml"), 1);
    fetch(&w, "2026-12-01T06:04:00Z");
    fetch(&w, "2026-12-01T06:06:00Z");
    assert_eq!(count("/bigttl.xml"), 2, "<ttl>5000 is capped at 24 hours");
    let next = log(&w, T0);
    assert!(
        next.iter()
            .any(|l| l["outcome"] == "next"
                && l["reason"].as_str().unwrap().contains("<ttl>180</ttl>")),
        "{next:#?}"
    );
}

#[test]
fn conditional_requests_send_validators_byte_for_byte_and_a_304_is_a_success() {
    let (w, web) = setup(
        "conditional",
        &[("Good", "http://127.0.0.31:{{port}}/feed.xml")],
    );
    fetch(&w, T0);
    fetch(&w, "2026-11-30T07:05:00Z");
    let reqs: Vec<_> = at(&web, "127.0.0.31")
        .into_iter()
        .filter(|r| r.path == "/feed.xml")
        .collect();
    assert_eq!(reqs.len(), 2);
    let first = &reqs[0];
    assert!(
        first.if_none_match.is_none() && first.if_modified_since.is_none(),
        "no validators invented"
    );
    let kept = &state(&w)["sources"][format!("http://127.0.0.31:{}/feed.xml", web.port)];
    assert_eq!(reqs[1].if_none_match.as_deref(), kept["etag"].as_str());
    assert_eq!(
        reqs[1].if_modified_since.as_deref(),
        kept["last_modified"].as_str()
    );
    assert_eq!(reqs[1].status, 304);
    let l = log(&w, "2026-11-30T07:05:00Z");
    assert!(l.iter().any(|x| x["outcome"] == "not-modified"));
    assert_eq!(kept["failures"], 0);
    assert!(
        w.jsonl("2026-11-30/07/items.jsonl").is_empty(),
        "a 304 brings nothing new"
    );
}

#[test]
fn sites_are_served_side_by_side_and_each_site_one_at_a_time() {
    let (w, web) = setup(
        "side_by_side",
        &[
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
            ("Good", "http://127.0.0.31:{{port}}/second.xml"),
            ("Redirect target", "http://127.0.0.42:{{port}}/feed.xml"),
            ("Changing", "http://127.0.0.44:{{port}}/feed.xml"),
        ],
    );
    w.stage("fetch-feeds", T0); // robots.txt read by the fetch itself, first
    let reqs = web.requests();
    assert_eq!(reqs.len(), 7);
    assert_polite(&web);
    // Side by side: the slow site (Crawl-delay 2) does not hold up the others.
    let started = |addr: &str| at(&web, addr).last().unwrap().arrived;
    let slow_done = at(&web, "127.0.0.31").last().unwrap().finished;
    assert!(started("127.0.0.42") < slow_done && started("127.0.0.44") < slow_done);
}

#[test]
fn failures_back_off_from_ten_minutes_doubling() {
    let (w, web) = setup(
        "backoff",
        &[("Broken", "http://127.0.0.43:{{port}}/broken.xml")],
    );
    let src = format!("http://127.0.0.43:{}/broken.xml", web.port);
    let asked = |web: &Web| {
        at(web, "127.0.0.43")
            .into_iter()
            .filter(|r| r.path == "/broken.xml")
            .count()
    };
    // 06:00 fails → 10 min → 20 → 40 → 80, each lengthened by the source's jitter (at most a
    // quarter), never shortened; a run before the retry is due asks nothing.
    let mut now = t("2026-11-30T06:00:00Z");
    for (k, base) in [10, 20, 40, 80].into_iter().enumerate() {
        fetch(&w, &fmt(now));
        assert_eq!(asked(&web), k + 1, "asked once per retry");
        let due = t(state(&w)["sources"][&src]["next_due"].as_str().unwrap());
        let base = chrono::Duration::minutes(base);
        assert!(
            due - now >= base && due - now <= base + base / 4,
            "failure {}: waits {} for a back-off of {base}",
            k + 1,
            due - now
        );
        // A run before the retry is due (less the five minutes of slack) asks nothing.
        let early = due - chrono::Duration::minutes(6);
        if early > now {
            fetch(&w, &fmt(early));
            assert_eq!(asked(&web), k + 1, "not asked before its retry");
        }
        now = due;
    }
    let s = &state(&w)["sources"][&src];
    assert_eq!(s["failures"], 4);
}

#[test]
fn a_slow_source_times_out_and_is_dropped_for_the_run() {
    let (w, web) = setup(
        "timeout",
        &[
            ("Slow", "http://127.0.0.43:{{port}}/slow.xml"),
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
        ],
    );
    fetch(&w, T0);
    let l = log(&w, T0);
    let slow = l
        .iter()
        .find(|x| x["url"].as_str().unwrap().ends_with("/slow.xml") && x["method"] == "GET")
        .unwrap();
    assert_eq!(slow["outcome"], "failed");
    assert!(
        slow["reason"].as_str().unwrap().contains("timeout"),
        "{slow:#}"
    );
    let items = w.jsonl("2026-11-30/06/items.jsonl");
    assert!(
        items
            .iter()
            .all(|i| !i["link"].as_str().unwrap().contains("127.0.0.43"))
    );
    assert_eq!(items.len(), 3, "the other site's items are kept");
    // The web logs the stalled answer when it gives up on it: one GET, no second try.
    let reqs = web.wait_for_requests(4, Duration::from_secs(15));
    let slow: Vec<_> = reqs.iter().filter(|r| r.path == "/slow.xml").collect();
    assert_eq!(slow.len(), 1, "{}", show(&slow));
}

#[test]
fn a_body_over_the_cap_is_dropped_not_parsed() {
    let (w, web) = setup("body_cap", &[("Big", "http://127.0.0.43:{{port}}/big.xml")]);
    fetch(&w, T0);
    let l = log(&w, T0);
    let big = l
        .iter()
        .find(|x| x["method"] == "GET" && x["url"].as_str().unwrap().ends_with("/big.xml"))
        .unwrap();
    assert_eq!(big["outcome"], "failed");
    assert!(big["reason"].as_str().unwrap().contains("dropped"));
    assert!(w.jsonl("2026-11-30/06/items.jsonl").is_empty());
    drop(web);
}

#[test]
fn redirects_are_checked_hop_by_hop() {
    let (w, web) = setup(
        "redirects",
        &[
            ("R", "http://127.0.0.41:{{port}}/old.xml"),
            ("R", "http://127.0.0.41:{{port}}/moved.xml"),
            ("R", "http://127.0.0.41:{{port}}/loop1.xml"),
            ("R", "http://127.0.0.41:{{port}}/agg.xml"),
            ("R", "http://127.0.0.41:{{port}}/sneaky.xml"),
        ],
    );
    // The outlet's second address, listed by an operator: a redirect there is followed.
    w.append(
        "hosts.csv",
        "R,127.0.0.42,the outlet's other address (checked by the test)",
    );
    fetch(&w, T0);
    let reqs = web.requests();
    assert_polite(&web);
    // The hop to another site reads that site's robots.txt first.
    assert_eq!(
        paths(&at(&web, "127.0.0.42")),
        ["GET /robots.txt", "GET /feed.xml"]
    );
    // Six hops: the sixth is not followed.
    assert!(
        reqs.iter().any(|r| r.path == "/loop6.xml") && !reqs.iter().any(|r| r.path == "/loop7.xml"),
        "{:?}",
        paths(&reqs)
    );
    // A redirect into a disallowed path is not followed.
    assert_never_requested(&reqs, &["127.0.0.41/private/"]);
    let l = log(&w, T0);
    let reason = |needle: &str| {
        l.iter()
            .any(|x| x["reason"].as_str().unwrap_or("").contains(needle))
    };
    assert!(
        reason("Google News"),
        "a redirect into an aggregator is refused and logged: {l:#?}"
    );
    assert!(reason("more than five redirects"));
    assert!(l.iter().any(|x| x["outcome"] == "moved" && x["reason"].as_str().unwrap().contains("/feed.xml")), "a permanent redirect is reported");
    let sources = std::fs::read_to_string(&w.sources).unwrap();
    assert!(
        sources.contains("/moved.xml"),
        "the hand-kept list is not rewritten"
    );
}

#[test]
fn a_source_list_naming_an_aggregator_fails_naming_the_line() {
    let (w, web) = setup(
        "aggregator_source",
        &[
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
            ("GN", "https://news.google.com/rss?hl=kn"),
        ],
    );
    let err = w.stage_fails("fetch-feeds", T0);
    assert!(
        err.contains("sources.csv:3") && err.contains("Google News"),
        "{err}"
    );
    assert!(
        web.requests().is_empty(),
        "nothing is fetched from a list that fails to load"
    );
}

#[test]
fn a_sitemap_index_is_followed_to_its_news_sitemaps_each_read_conditionally() {
    let w = Workdir::new("sitemap_index");
    let web = Web::start(&repo().join("tests/web/polite"), &w.dir);
    w.sources_text("outlet,lang,kind,section,url,selector,status\nIndex Daily,en,sitemap,news,http://127.0.0.45:{{port}}/news-index.xml,,test\n", &web);
    fetch(&w, T0);
    assert_eq!(
        paths(&at(&web, "127.0.0.45")),
        [
            "GET /robots.txt",
            "GET /news-index.xml",
            "GET /news-1.xml",
            "GET /news-2.xml"
        ]
    );
    let items = w.jsonl("2026-11-30/06/items.jsonl");
    assert_eq!(items.len(), 4, "{items:#?}");
    let index = format!("http://127.0.0.45:{}/news-index.xml", web.port);
    assert!(
        items
            .iter()
            .all(|i| i["source"] == index.as_str() && i["outlet"] == "Index Daily")
    );
    // An hour later the unchanged index answers 304; its children are still read, conditionally.
    fetch(&w, "2026-11-30T07:05:00Z");
    let reqs = at(&web, "127.0.0.45");
    assert_eq!(
        paths(&reqs[4..]),
        ["GET /news-index.xml", "GET /news-1.xml", "GET /news-2.xml"]
    );
    assert!(
        reqs[4..]
            .iter()
            .all(|r| r.status == 304 && r.if_none_match.is_some()),
        "{}",
        show(&reqs.iter().collect::<Vec<_>>())
    );
    assert_polite(&web);
}

// ---- opting out ---------------------------------------------------------------------

#[test]
fn an_opted_out_site_is_not_fetched_and_leaves_every_page() {
    let (w, web) = setup(
        "optout",
        &[
            ("Changing", "http://127.0.0.44:{{port}}/feed.xml"),
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
        ],
    );
    w.hourly(T0);
    let page = std::fs::read_to_string(w.data.join("site/index.html")).unwrap();
    assert!(page.contains("Changing headline 1"));
    let before = at(&web, "127.0.0.44").len();
    w.append(
        "optouts.csv",
        &format!(
            "site,{},2026-11-30,email from the editor",
            web.base("127.0.0.44")
        ),
    );
    w.hourly("2026-12-01T07:05:00Z");
    assert_eq!(
        at(&web, "127.0.0.44").len(),
        before,
        "not fetched from the next run"
    );
    for f in w
        .data_files()
        .iter()
        .filter(|p| p.starts_with("site") || p.ends_with("published.jsonl"))
    {
        let text = std::fs::read_to_string(w.data.join(f)).unwrap();
        assert!(
            !text.contains(&format!("127.0.0.44:{}/news/", web.port)),
            "{} still shows the opted-out site",
            f.display()
        );
    }
}

#[test]
fn robots_disallowing_every_listed_source_counts_as_opting_out() {
    let (w, web) = setup(
        "robots_optout",
        &[
            ("Changing", "http://127.0.0.44:{{port}}/feed.xml"),
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
        ],
    );
    w.hourly(T0);
    assert!(
        std::fs::read_to_string(w.data.join("site/index.html"))
            .unwrap()
            .contains("Changing headline 1")
    );
    std::fs::write(
        web.site_dir("127.0.0.44").join("robots.txt"),
        "User-agent: HudukuBot\nDisallow: /feed.xml\n",
    )
    .unwrap();
    w.hourly("2026-12-01T06:05:00Z");
    for f in w
        .data_files()
        .iter()
        .filter(|p| p.starts_with("site") || p.ends_with("published.jsonl"))
    {
        let text = std::fs::read_to_string(w.data.join(f)).unwrap();
        assert!(
            !text.contains(&format!("127.0.0.44:{}/news/", web.port)),
            "{} still shows the site whose robots.txt now says no",
            f.display()
        );
    }
    assert!(
        w.read("2026-11-30/published.jsonl")
            .contains("Good Times headline 1"),
        "the other site stays"
    );
}

// ---- the record ---------------------------------------------------------------------

#[test]
fn every_request_is_a_line_in_fetch_jsonl_and_state_rebuilds_from_the_logs() {
    let (w, web) = setup(
        "ledger",
        &[
            ("Good", "http://127.0.0.31:{{port}}/feed.xml"),
            ("Refuser", "http://127.0.0.32:{{port}}/feed.xml"),
            ("Busy", "http://127.0.0.33:{{port}}/feed.xml"),
            ("Broken", "http://127.0.0.43:{{port}}/broken.xml"),
            ("R", "http://127.0.0.41:{{port}}/old.xml"),
        ],
    );
    let times = [
        "2026-11-30T06:05:00Z",
        "2026-11-30T08:05:00Z",
        "2026-11-30T10:05:00Z",
    ];
    for now in times {
        fetch(&w, now);
    }
    let mut made = 0;
    for now in times {
        made += log(&w, now)
            .iter()
            .filter(|l| {
                l["method"].is_string() && l["outcome"] != "skipped" && l["outcome"] != "failed"
                    || (l["outcome"] == "failed" && l["status"].is_u64())
            })
            .count();
    }
    assert_eq!(
        made,
        web.requests().len(),
        "one fetch.jsonl line per request the web saw"
    );
    let saved = w.read("state.json");
    std::fs::remove_file(w.data.join("state.json")).unwrap();
    // The next run rebuilds the state from the logs before it decides anything.
    w.stage("robots-refresh", "2026-11-30T10:06:00Z");
    // `folded` names the last log folded, which this run has just added to.
    let without_folded = |text: &str| {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
        let folded = v.as_object_mut().unwrap().remove("folded");
        (v, folded.map(|f| f["log"].clone()))
    };
    assert_eq!(
        without_folded(&w.read("state.json")),
        without_folded(&saved),
        "state.json rebuilt from nothing but the kept logs"
    );
}

#[test]
fn a_refusal_logged_by_a_run_that_died_is_not_forgotten() {
    let (w, web) = setup(
        "crash",
        &[("Refuser", "http://127.0.0.32:{{port}}/other.xml")],
    );
    fetch(&w, T0);
    let before = at(&web, "127.0.0.32").len();
    // A run that died after the site refused: its journal holds the line; state.json does not.
    let hour = w.data.join("2026-11-30/07");
    std::fs::create_dir_all(&hour).unwrap();
    let line = serde_json::json!({
        "at": "2026-11-30T07:05:00Z", "stage": "fetch-feeds", "site": web.base("127.0.0.32"),
        "url": format!("{}/other.xml", web.base("127.0.0.32")), "method": "GET",
        "source": format!("{}/other.xml", web.base("127.0.0.32")), "status": 403, "outcome": "refused",
        "reason": "refused-403", "bytes": 9, "etag": null, "last_modified": null, "until": null, "evidence": "HTTP 403"
    });
    std::fs::write(
        hour.join(".fetch-journal.jsonl"),
        format!("{line}\n{{\"at\":\"2026-11-30T07:05"),
    )
    .unwrap();
    fetch(&w, "2026-11-30T08:05:00Z");
    assert_eq!(
        at(&web, "127.0.0.32").len(),
        before,
        "the refusal in the dead run's journal stands"
    );
    assert!(!hour.join(".fetch-journal.jsonl").exists());
    assert!(
        w.read("2026-11-30/07/fetch.jsonl").contains("refused-403"),
        "the dead run's lines are kept in its hour's log"
    );
}

// ---- second pass: what a publisher's own log still showed ---------------------------

/// One site of a fixture the test writes itself: its files and its `_rules.json` scripts.
struct FakeSite {
    addr: String,
    files: Vec<(String, String)>,
    scripts: serde_json::Map<String, Value>,
}

const ROBOTS_OK: &str = "User-agent: *\nAllow: /\nDisallow: /private/\n";

impl FakeSite {
    /// A plain site: robots.txt allowing all but `/private/`, a feed, a news sitemap index
    /// with one child, a home page; every headline links `/a.html`, published two days ago.
    fn new(addr: &str) -> FakeSite {
        let item = |title: &str| {
            format!(
                "<item><title>{title}</title><link>http://{addr}:{{{{port}}}}/a.html</link><pubDate>Sat, 28 Nov 2026 06:00:00 +0000</pubDate></item>"
            )
        };
        let files = vec![
            ("robots.txt".into(), ROBOTS_OK.into()),
            (
                "feed.xml".into(),
                format!(
                    "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>{addr}</title>{}</channel></rss>\n",
                    item(&format!("Headline of {addr}"))
                ),
            ),
            (
                "sitemap.xml".into(),
                format!(
                    "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap><loc>http://{addr}:{{{{port}}}}/news-1.xml</loc></sitemap></sitemapindex>\n"
                ),
            ),
            (
                "news-1.xml".into(),
                format!(
                    "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\"><url><loc>http://{addr}:{{{{port}}}}/a.html</loc><news:news><news:publication><news:name>S</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-11-30T04:00:00Z</news:publication_date><news:title>Sitemap story of {addr}</news:title></news:news></url></urlset>\n"
                ),
            ),
            (
                "index.html".into(),
                format!(
                    "<!DOCTYPE html><html><body><ul class=\"headlines\"><li><a href=\"/a.html\">Home story of {addr}</a></li></ul></body></html>\n"
                ),
            ),
            (
                "a.html".into(),
                "<!DOCTYPE html><html><body>story</body></html>\n".into(),
            ),
        ];
        FakeSite {
            addr: addr.into(),
            files,
            scripts: serde_json::Map::new(),
        }
    }

    fn file(mut self, path: &str, text: &str) -> FakeSite {
        self.files.retain(|(p, _)| p != path);
        self.files.push((path.into(), text.into()));
        self
    }

    /// Every request to `path` gets these answers in turn (the last repeats).
    fn script(mut self, path: &str, answers: Value) -> FakeSite {
        self.scripts.insert(path.into(), answers);
        self
    }
}

/// Writes the sites into the test's own fixture directory and starts the web on it.
fn fake_web(name: &str, sites: &[FakeSite]) -> (Workdir, Web) {
    let w = Workdir::new(name);
    let fixture = w.dir.join("fixture");
    for s in sites {
        let dir = fixture.join(&s.addr);
        std::fs::create_dir_all(&dir).unwrap();
        for (p, text) in &s.files {
            let path = dir.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        if !s.scripts.is_empty() {
            let rules = serde_json::json!({ "paths": s.scripts });
            std::fs::write(dir.join("_rules.json"), rules.to_string()).unwrap();
        }
    }
    let web = Web::start(&fixture, &w.dir);
    (w, web)
}

/// A source list of `(addr, kind, path)`, one outlet per site.
fn kinds(w: &Workdir, web: &Web, list: &[(&str, &str, &str)]) {
    let mut text = String::from("outlet,lang,kind,section,url,selector,status\n");
    for (addr, kind, path) in list {
        let selector = if *kind == "homepage" {
            "ul.headlines li"
        } else {
            ""
        };
        text.push_str(&format!(
            "Outlet {addr},en,{kind},top,http://{addr}:{{{{port}}}}{path},{selector},test\n"
        ));
    }
    w.sources_text(&text, web);
}

/// Every vendor's form of a challenge or block page (POLITENESS.md): name, the refusal reason
/// it must give, and the scripted answer. The first four show in headers, so a HEAD shows them.
fn vendor_forms() -> Vec<(&'static str, &'static str, Value)> {
    use serde_json::json;
    let html = |body: &str| {
        format!(
            "<!DOCTYPE html><html><head><title>Blocked</title></head><body>{body}</body></html>"
        )
    };
    vec![
        (
            "cloudflare",
            "challenge-cloudflare",
            json!([{"status": 403, "headers": {"cf-mitigated": "challenge", "Content-Type": "text/html"}, "body": "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>"}]),
        ),
        (
            "aws-waf",
            "challenge-aws-waf",
            json!([{"status": 202, "headers": {"x-amzn-waf-action": "challenge"}, "body": ""}]),
        ),
        (
            "datadome",
            "challenge-datadome",
            json!([{"status": 403, "headers": {"x-datadome": "protected", "Content-Type": "text/html"}, "body": html("<script src=\"https://ct.captcha-delivery.com/c.js\"></script>")}]),
        ),
        (
            "sucuri",
            "challenge-sucuri",
            json!([{"status": 403, "headers": {"x-sucuri-block": "1", "Content-Type": "text/html"}, "body": html("Sucuri Website Firewall - Access Denied")}]),
        ),
        (
            "cloudflare-body",
            "challenge-cloudflare",
            json!([{"status": 200, "headers": {"Content-Type": "text/html"}, "body": "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1\"></script></body></html>"}]),
        ),
        (
            "perimeterx",
            "challenge-perimeterx",
            json!([{"status": 403, "headers": {"Content-Type": "text/html"}, "body": html("<div id=\"px-captcha\"></div><p>Access to this page has been denied</p>")}]),
        ),
        (
            "akamai",
            "challenge-akamai",
            json!([{"status": 403, "headers": {"Server": "AkamaiGHost", "Content-Type": "text/html"}, "body": html("<h1>Access Denied</h1>You don't have permission to access this page. Reference #18.2b3c4d5e.1764482700.1a2b3c")}]),
        ),
        (
            "imperva",
            "challenge-imperva",
            json!([{"status": 200, "headers": {"Content-Type": "text/html"}, "body": html("Request unsuccessful. Incapsula incident ID: 938000210-1234567890")}]),
        ),
    ]
}

#[test]
fn a_challenge_of_every_vendor_refuses_the_site_on_every_kind_of_request() {
    // (site, kind of request met by the challenge, vendor, reason, what the site is asked)
    let mut cases: Vec<(String, &str, &str, &str, Vec<&str>)> = Vec::new();
    let mut sites = Vec::new();
    let mut list: Vec<(String, &str, &str)> = Vec::new();
    let mut n = 100;
    for (i, (vendor, reason, answer)) in vendor_forms().into_iter().enumerate() {
        let mut kinds_here = vec!["robots", "feed", "sitemap", "homepage"];
        if i < 4 {
            kinds_here.push("head");
        }
        for kind in kinds_here {
            let addr = format!("127.0.0.{n}");
            n += 1;
            let (path, source, seen): (&str, (&str, &str), Vec<&str>) = match kind {
                "robots" => (
                    "/robots.txt",
                    ("feed", "/feed.xml"),
                    vec!["GET /robots.txt"],
                ),
                "feed" => (
                    "/feed.xml",
                    ("feed", "/feed.xml"),
                    vec!["GET /robots.txt", "GET /feed.xml"],
                ),
                "sitemap" => (
                    "/news-1.xml",
                    ("sitemap", "/sitemap.xml"),
                    vec!["GET /robots.txt", "GET /sitemap.xml", "GET /news-1.xml"],
                ),
                "homepage" => ("/", ("homepage", "/"), vec!["GET /robots.txt", "GET /"]),
                _ => (
                    "/a.html",
                    ("feed", "/feed.xml"),
                    vec!["GET /robots.txt", "GET /feed.xml", "HEAD /a.html"],
                ),
            };
            sites.push(FakeSite::new(&addr).script(path, answer.clone()));
            list.push((addr.clone(), source.0, source.1));
            cases.push((addr, kind, vendor, reason, seen));
        }
    }
    let (w, web) = fake_web("challenge_matrix", &sites);
    let list: Vec<(&str, &str, &str)> = list.iter().map(|(a, k, p)| (a.as_str(), *k, *p)).collect();
    kinds(&w, &web, &list);
    // The hour's run, the day's re-checks (HEAD of two-day-old headlines), and later runs.
    w.hourly(T0);
    w.daily("2026-11-30T06:35:00Z");
    fetch(&w, "2026-11-30T07:05:00Z");
    fetch(&w, "2026-12-01T06:05:00Z");
    assert_polite(&web);
    for (addr, kind, vendor, reason, seen) in &cases {
        assert_eq!(
            paths(&at(&web, addr)),
            *seen,
            "{vendor} on {kind} ({addr}): one answer refuses the site, nothing more is asked"
        );
        let s = site_state(&w, &web, addr);
        let got = s["refused"]["reason"].as_str().unwrap_or("");
        assert!(
            got == *reason || got == format!("robots-{reason}"),
            "{vendor} on {kind} ({addr}): refused as {got:?}, want {reason:?}"
        );
    }
}

#[test]
fn challenge_words_quoted_in_a_feed_are_news_and_only_a_block_page_refuses() {
    let quote = "Publishers hide behind captcha-delivery.com, px-captcha, client.perimeterx.net, _cf_chl_opt, /cdn-cgi/challenge-platform/, Incapsula incident ID, errors.edgesuite.net, Sucuri Website Firewall and pages saying Access to this page has been denied or Just a moment...";
    let feed = |addr: &str| {
        format!(
            "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Quotes</title><item><title>{quote}</title><description>&lt;title&gt;Just a moment...&lt;/title&gt; Attention Required! | Cloudflare</description><link>http://{addr}:{{{{port}}}}/a.html</link><pubDate>Mon, 30 Nov 2026 04:00:00 +0000</pubDate></item></channel></rss>\n"
        )
    };
    let sitemap = |addr: &str| {
        format!(
            "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\"><url><loc>http://{addr}:{{{{port}}}}/a.html</loc><news:news><news:publication><news:name>S</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-11-30T04:00:00Z</news:publication_date><news:title>{quote}</news:title></news:news></url></urlset>\n"
        )
    };
    let sites = vec![
        // A feed quoting every marker, and a robots.txt whose comments quote them too.
        FakeSite::new("127.0.0.61")
            .file("feed.xml", &feed("127.0.0.61"))
            .file("robots.txt", &format!("# {quote}\n{ROBOTS_OK}")),
        // The same feed declared text/html by a misconfigured server: its body is a feed.
        FakeSite::new("127.0.0.62")
            .file("feed.xml", &feed("127.0.0.62"))
            .script(
                "/feed.xml",
                serde_json::json!([{"headers": {"Content-Type": "text/html; charset=utf-8"}}]),
            ),
        // A news sitemap whose title quotes them.
        FakeSite::new("127.0.0.63").file("news-1.xml", &sitemap("127.0.0.63")),
    ];
    let (w, web) = fake_web("challenge_words", &sites);
    kinds(
        &w,
        &web,
        &[
            ("127.0.0.61", "feed", "/feed.xml"),
            ("127.0.0.62", "feed", "/feed.xml"),
            ("127.0.0.63", "sitemap", "/news-1.xml"),
        ],
    );
    fetch(&w, T0);
    fetch(&w, "2026-11-30T07:05:00Z");
    for (addr, path) in [
        ("127.0.0.61", "/feed.xml"),
        ("127.0.0.62", "/feed.xml"),
        ("127.0.0.63", "/news-1.xml"),
    ] {
        assert_eq!(
            paths(&at(&web, addr)),
            [
                "GET /robots.txt".to_string(),
                format!("GET {path}"),
                format!("GET {path}")
            ],
            "{addr}: read normally, and read again the next hour"
        );
        assert!(site_state(&w, &web, addr)["refused"].is_null(), "{addr}");
    }
    let items = w.jsonl("2026-11-30/06/items.jsonl");
    assert_eq!(items.len(), 3, "every quoting headline is kept: {items:#?}");
    // The other direction, every vendor's real block page refusing, is the matrix test above.
}

#[test]
fn content_usage_search_n_refuses_the_site_and_a_path_scoped_rule_what_it_covers() {
    let sites = vec![
        FakeSite::new("127.0.0.64").file(
            "robots.txt",
            "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=n\n",
        ),
        FakeSite::new("127.0.0.65")
            .file(
                "robots.txt",
                "User-agent: *\nAllow: /\nContent-Usage: /members/ search=n\n",
            )
            .file("members/feed.xml", "<rss/>"),
        FakeSite::new("127.0.0.66").file(
            "robots.txt",
            "User-agent: OtherBot\nContent-Usage: search=n\n\nUser-agent: *\nAllow: /\n",
        ),
        FakeSite::new("127.0.0.67").script(
            "/feed.xml",
            serde_json::json!([{"headers": {"Content-Usage": "search=n"}}]),
        ),
    ];
    let (w, web) = fake_web("content_usage", &sites);
    kinds(
        &w,
        &web,
        &[
            ("127.0.0.64", "feed", "/feed.xml"),
            ("127.0.0.65", "feed", "/feed.xml"),
            ("127.0.0.65", "feed", "/members/feed.xml"),
            ("127.0.0.66", "feed", "/feed.xml"),
            ("127.0.0.67", "feed", "/feed.xml"),
        ],
    );
    fetch(&w, T0);
    fetch(&w, "2026-11-30T07:05:00Z");
    assert_eq!(
        paths(&at(&web, "127.0.0.64")),
        ["GET /robots.txt"],
        "the site refused"
    );
    assert_eq!(
        site_state(&w, &web, "127.0.0.64")["refused"]["reason"],
        "robots-content-usage-search-n"
    );
    assert_never_requested(&web.requests(), &["127.0.0.65/members/"]);
    assert_eq!(
        paths(&at(&web, "127.0.0.65")),
        ["GET /robots.txt", "GET /feed.xml", "GET /feed.xml"],
        "a path-scoped rule refuses what it covers, nothing else"
    );
    assert_eq!(
        paths(&at(&web, "127.0.0.66")),
        ["GET /robots.txt", "GET /feed.xml", "GET /feed.xml"],
        "a rule in another bot's group does not apply"
    );
    assert_eq!(
        paths(&at(&web, "127.0.0.67")),
        ["GET /robots.txt", "GET /feed.xml"]
    );
    assert_eq!(
        site_state(&w, &web, "127.0.0.67")["refused"]["reason"],
        "content-usage-search-n"
    );
    let robots = w.jsonl("2026-11-30/robots.jsonl");
    assert!(
        robots
            .iter()
            .any(|r| r["content_usage"] == "search=n; train-ai=n"),
        "{robots:#?}"
    );
}

/// Runs robots-refresh and fetch-feeds (what the hourly target does before extract) at `now`.
fn ask(w: &Workdir, now: &str) {
    w.stage("robots-refresh", now);
    let _ = std::fs::remove_dir_all(w.transient_dir(now));
    w.stage("fetch-feeds", now);
    let _ = std::fs::remove_dir_all(w.transient_dir(now));
}

#[test]
fn a_robots_txt_that_never_answers_well_is_tried_a_handful_of_times_a_day() {
    use serde_json::json;
    let sites = vec![
        FakeSite::new("127.0.0.68").script("/robots.txt", json!([{"status": 503, "body": "down"}])),
        FakeSite::new("127.0.0.69").script(
            "/robots.txt",
            json!([{"status": 302, "headers": {"Location": "/robots.txt"}}]),
        ),
        FakeSite::new("127.0.0.70").script("/robots.txt", json!([{"status": 500, "body": "oops"}])),
    ];
    let (w, web) = fake_web("robots_backoff", &sites);
    kinds(
        &w,
        &web,
        &[
            ("127.0.0.68", "feed", "/feed.xml"),
            ("127.0.0.69", "feed", "/feed.xml"),
            ("127.0.0.70", "feed", "/feed.xml"),
        ],
    );
    for h in 0..24 {
        ask(&w, &format!("2026-11-30T{h:02}:05:00Z"));
    }
    for addr in ["127.0.0.68", "127.0.0.69", "127.0.0.70"] {
        let reqs = at(&web, addr);
        assert!(
            reqs.iter().all(|r| r.path == "/robots.txt"),
            "{addr}: nothing but robots.txt is asked while it cannot be read"
        );
        // A redirect chain is one read: six requests, the sixth unanswered.
        let per_read = if addr == "127.0.0.69" { 6 } else { 1 };
        let reads = reqs.len() / per_read;
        assert!(
            (2..=5).contains(&reads),
            "{addr}: {reads} reads of robots.txt in a day ({} requests): an hour, doubling",
            reqs.len()
        );
        // The publisher-side summary counts what the web counted.
        let summary = w.jsonl("2026-11-30/requests.jsonl");
        let line = summary
            .iter()
            .find(|l| l["site"] == web.base(addr))
            .unwrap_or_else(|| panic!("{summary:#?}"));
        assert_eq!(line["today"], reqs.len() as u64, "{line:#}");
        assert_eq!(line["robots_today"], reqs.len() as u64, "{line:#}");
        assert_eq!(line["budget_per_source_day"], 144);
    }
    // The 503 also asks to wait: three in a row halt the site for a person to look.
    assert!(!site_state(&w, &web, "127.0.0.68")["halted"].is_null());
}

#[test]
fn every_outcome_sets_when_a_source_is_next_due_and_a_redirect_into_a_disallowed_path_is_not_asked_hourly()
 {
    use serde_json::json;
    let sites = vec![
        FakeSite::new("127.0.0.71").script(
            "/feed.xml",
            json!([{"status": 302, "headers": {"Location": "/private/feed.xml"}}]),
        ),
        FakeSite::new("127.0.0.72").script("/feed.xml", json!([{"status": 403}])),
        FakeSite::new("127.0.0.73").script("/robots.txt", json!([{"status": 503}])),
        FakeSite::new("127.0.0.74"),
    ];
    let (w, web) = fake_web("next_due_always", &sites);
    kinds(
        &w,
        &web,
        &[
            ("127.0.0.71", "feed", "/feed.xml"),
            ("127.0.0.72", "feed", "/feed.xml"),
            ("127.0.0.73", "feed", "/feed.xml"),
            ("127.0.0.74", "feed", "/private/feed.xml"),
            ("127.0.0.74", "feed", "/feed.xml"),
        ],
    );
    for h in 6..12 {
        let now = format!("2026-11-30T{h:02}:05:00Z");
        ask(&w, &now);
        let st = state(&w);
        for (src, s) in st["sources"].as_object().unwrap() {
            let due = s["next_due"]
                .as_str()
                .unwrap_or_else(|| panic!("{src} has no next read: {s:#}"));
            assert!(t(due) > t(&now), "{src} left due at once: {s:#}");
        }
        assert_eq!(st["sources"].as_object().unwrap().len(), 5, "{st:#}");
    }
    let redirected: Vec<_> = at(&web, "127.0.0.71")
        .into_iter()
        .filter(|r| r.path == "/feed.xml")
        .collect();
    assert_eq!(
        redirected.len(),
        1,
        "a redirect into a disallowed path is asked once, then held a day: {}",
        show(&redirected.iter().collect::<Vec<_>>())
    );
    assert_never_requested(&web.requests(), &["/private/"]);
}

/// A run at each `--now`, noting when (by the wall clock) it began, so the web's log lines can
/// be told apart by run.
fn runs(w: &Workdir, nows: &[&str]) -> Vec<chrono::DateTime<chrono::Utc>> {
    nows.iter()
        .map(|now| {
            let began = chrono::Utc::now();
            ask(w, now);
            began
        })
        .collect()
}

fn per_run(reqs: &[LoggedRequest], began: &[chrono::DateTime<chrono::Utc>]) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new(); began.len()];
    for r in reqs {
        let i = began.iter().rposition(|b| *b <= r.arrived).unwrap();
        out[i].push(format!("{} {}", r.method, r.path));
    }
    out
}

#[test]
fn runs_minutes_apart_ask_nothing_twice_whatever_hour_or_day_they_name() {
    use serde_json::json;
    let sites = vec![
        FakeSite::new("127.0.0.75"),
        FakeSite::new("127.0.0.76").script("/robots.txt", json!([{"status": 500}])),
        FakeSite::new("127.0.0.77").script(
            "/feed.xml",
            json!([{"status": 302, "headers": {"Location": "/private/feed.xml"}}]),
        ),
    ];
    let (w, web) = fake_web("runs_close_together", &sites);
    kinds(
        &w,
        &web,
        &[
            ("127.0.0.75", "feed", "/feed.xml"),
            ("127.0.0.76", "feed", "/feed.xml"),
            ("127.0.0.77", "feed", "/feed.xml"),
        ],
    );
    // A late run and the next one, in different hours and different days, five minutes apart.
    let began = runs(
        &w,
        &[
            "2026-11-30T23:58:00Z",
            "2026-12-01T00:03:00Z",
            "2026-12-01T00:07:00Z",
        ],
    );
    let reqs = web.requests();
    for addr in ["127.0.0.75", "127.0.0.76", "127.0.0.77"] {
        let mine: Vec<LoggedRequest> = reqs.iter().filter(|r| r.addr() == addr).cloned().collect();
        let by_run = per_run(&mine, &began);
        assert!(!by_run[0].is_empty(), "{addr}: asked at 23:58");
        assert!(
            by_run[1].is_empty() && by_run[2].is_empty(),
            "{addr}: asked again within ten minutes of 23:58: {by_run:?}"
        );
    }
}

#[test]
fn the_fetching_page_says_a_refusal_stops_the_whole_site_as_the_fetcher_does() {
    let (w, web) = setup(
        "refusal_whole_site",
        &[
            ("Refuser", "http://127.0.0.32:{{port}}/feed.xml"),
            ("Refuser", "http://127.0.0.32:{{port}}/other.xml"),
        ],
    );
    fetch(&w, T0);
    fetch(&w, "2026-12-01T06:05:00Z");
    w.stage("publish", "2026-12-01T06:05:00Z");
    let reqs = at(&web, "127.0.0.32");
    let refused = reqs.iter().position(|r| r.status == 403).unwrap();
    assert_eq!(
        refused,
        reqs.len() - 1,
        "nothing after the 403: {:?}",
        paths(&reqs)
    );
    let page = w.read("site/en/fetching.html");
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        page.contains("HudukuBot stops reading the whole site"),
        "the page says what the fetcher does:\n{page}"
    );
    assert!(!page.contains("stops reading that source"), "{page}");
}

#[test]
fn failed_sources_come_back_spread_out_not_all_at_once() {
    use serde_json::json;
    let addrs = ["127.0.0.90", "127.0.0.91", "127.0.0.92", "127.0.0.93"];
    let feeds = ["/f1.xml", "/f2.xml", "/f3.xml", "/f4.xml"];
    let sites: Vec<FakeSite> = addrs
        .iter()
        .map(|a| {
            feeds.iter().fold(FakeSite::new(a), |s, f| {
                s.script(f, json!([{"status": 500, "body": "oops"}]))
            })
        })
        .collect();
    let (w, web) = fake_web("jitter_spread", &sites);
    let list: Vec<(&str, &str, &str)> = addrs
        .iter()
        .flat_map(|a| feeds.iter().map(move |f| (*a, "feed", *f)))
        .collect();
    kinds(&w, &web, &list);
    // Sixteen sources fail together at 06:00, 06:10 and 06:30; the third back-off is 40
    // minutes plus each source's own jitter (up to 10 minutes).
    let began = runs(
        &w,
        &[
            "2026-11-30T06:00:00Z",
            "2026-11-30T06:10:00Z",
            "2026-11-30T06:30:00Z",
            "2026-11-30T07:10:00Z",
            "2026-11-30T07:20:00Z",
        ],
    );
    let feeds_only: Vec<LoggedRequest> = web
        .requests()
        .into_iter()
        .filter(|r| r.path != "/robots.txt")
        .collect();
    let by_run = per_run(&feeds_only, &began);
    for (i, run) in by_run.iter().take(3).enumerate() {
        assert_eq!(run.len(), 16, "run {i}: every source asked: {run:?}");
    }
    let (early, late) = (by_run[3].len(), by_run[4].len());
    assert!(
        early > 0 && early < 16,
        "at 07:10 some sources are due and some not yet: {early} of 16"
    );
    assert_eq!(
        early + late,
        16,
        "each source asked once over 07:10 and 07:20"
    );
    // No announced retry is shorter than its back-off or longer than a quarter more.
    let st = state(&w);
    for (src, s) in st["sources"].as_object().unwrap() {
        let due = t(s["next_due"].as_str().unwrap());
        let asked = t(s["last_request"].as_str().unwrap());
        let base = chrono::Duration::minutes(80);
        assert!(
            due - asked >= base && due - asked <= base + base / 4,
            "{src}: {}",
            due - asked
        );
    }
}
