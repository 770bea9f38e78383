//! `make bench`: the design's speed targets, measured side by side in one run.
//!
//! - hourly: 2,000 sources on 400 loopback sites; the wall time of `fetch-feeds` against the
//!   politeness lower bound (the largest, over sites, of that site's serialised time:
//!   its requests' own durations plus one spacing before each), and the peak memory.
//! - extract: MB/s of feed XML through `extract::parse_body`, beside feed-rs alone and a
//!   bare quick-xml event loop on the same bytes (the ratios are what to quote).
//! - publish: 30 days of 2,000 sources (about a million headlines), and one day of 600,000
//!   headlines from one outlet's runaway feed, through `publish`: wall time and the
//!   process's own peak memory, of a first run and of a second with nothing changed, and
//!   the site's size and its largest page. With `HUDUKU_PUBLISH_BEFORE=path/to/publish`
//!   that build runs beside this one on the same input, and the two outputs are compared.
//!
//! `cargo bench --bench pipeline -- hourly|extract|publish` runs one part. Nothing here is a
//! test: machines are shared and noisy, so read the ratios, not the seconds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let which: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |name: &str| which.is_empty() || which.iter().any(|w| w == name);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench");
    std::fs::create_dir_all(&root).unwrap();
    // The stages sign every request: a throw-away key, outside the repository, for them all.
    let key = std::env::temp_dir()
        .join("huduku-bench-keys")
        .join(format!("{}.jwk", std::process::id()));
    huduku::polite::sign::Key::generate(&key).unwrap();
    // SAFETY: set before any thread is started; every stage the bench runs inherits it.
    unsafe { std::env::set_var(huduku::polite::sign::KEY_ENV, &key) };
    if run("extract") {
        extract(&root);
    }
    if run("hourly") {
        hourly(&root);
    }
    if run("publish") {
        publish(&root);
    }
}

fn rss(site: &str, feed: usize, items: usize) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>Bench</title>\n",
    );
    for i in 0..items {
        s.push_str(&format!(
            "<item><title>ಬೆಂಗಳೂರು ಮೆಟ್ರೊ: headline {feed}-{i} &amp; more</title><link>http://{site}/news/{feed}/{i}.html</link>\
<pubDate>Mon, 30 Nov 2026 0{}:{:02}:00 +0530</pubDate><category>Politics</category><dc:creator>Staff</dc:creator>\
<description><![CDATA[<p>A summary of item {i} with <b>markup</b>, long enough to look like a real newsroom summary of the story.</p>]]></description></item>\n",
            i % 10,
            i % 60
        ));
    }
    s.push_str("</channel></rss>\n");
    s
}

fn extract(root: &Path) {
    let _ = root;
    let bodies: Vec<Vec<u8>> = (0..400)
        .map(|f| rss("127.0.0.1", f, 200).into_bytes())
        .collect();
    let total: usize = bodies.iter().map(Vec::len).sum();
    let mb = total as f64 / 1e6;
    let base = url::Url::parse("http://127.0.0.1/feed.xml").unwrap();
    let time = |f: &dyn Fn(&[u8]) -> usize| {
        let mut best = f64::MAX;
        let mut n = 0;
        for _ in 0..3 {
            let t = Instant::now();
            n = bodies.iter().map(|b| f(b)).sum::<usize>();
            best = best.min(t.elapsed().as_secs_f64());
        }
        (mb / best, n)
    };
    let (ours, items) = time(&|b| {
        huduku::extract::parse_body(huduku::lists::Kind::Feed, b, &base, None, None)
            .items
            .len()
    });
    let (feedrs, _) = time(&|b| {
        feed_rs::parser::parse(b)
            .map(|f| f.entries.len())
            .unwrap_or(0)
    });
    let (bare, _) = time(&|b| {
        let mut r = quick_xml::Reader::from_reader(b);
        let mut buf = Vec::new();
        let mut n = 0;
        loop {
            match r.read_event_into(&mut buf) {
                Ok(quick_xml::events::Event::Eof) | Err(_) => break,
                Ok(_) => n += 1,
            }
            buf.clear();
        }
        n
    });
    println!("extract: {mb:.1} MB of RSS, {items} items, best of 3 on one core");
    println!("  huduku extract   {ours:8.1} MB/s");
    println!(
        "  feed-rs alone    {feedrs:8.1} MB/s   (huduku/feed-rs = {:.2})",
        ours / feedrs
    );
    println!(
        "  quick-xml events {bare:8.1} MB/s   (huduku/bare = {:.2})",
        ours / bare
    );
}

fn max_rss_children_kib() -> i64 {
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u.ru_maxrss
    }
}

fn hourly(root: &Path) {
    let (sites, per_site) = (400usize, 5usize);
    let dir = root.join("hourly");
    let _ = std::fs::remove_dir_all(&dir);
    let web_dir = dir.join("web");
    let mut sources = String::from("outlet,lang,kind,section,url,selector,status\n");
    for s in 0..sites {
        let addr = format!("127.0.{}.{}", 1 + s / 200, 10 + s % 200);
        let site = web_dir.join(&addr);
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(site.join("robots.txt"), "User-agent: *\nAllow: /\n").unwrap();
        for f in 0..per_site {
            std::fs::write(
                site.join(format!("feed{f}.xml")),
                rss(&format!("{addr}:{{{{port}}}}"), f, 20),
            )
            .unwrap();
            sources.push_str(&format!(
                "Outlet {s},en,feed,top,http://{addr}:{{{{port}}}}/feed{f}.xml,,bench\n"
            ));
        }
    }
    let log = dir.join("requests.jsonl");
    let ready = dir.join("web.port");
    let mut web = Command::new(env!("CARGO_BIN_EXE_loopback-web"))
        .arg("--sites")
        .arg(&web_dir)
        .args(["--port", "0", "--latency-ms", "20", "--log"])
        .arg(&log)
        .arg("--ready")
        .arg(&ready)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let port = loop {
        if let Ok(p) = std::fs::read_to_string(&ready) {
            break p.trim().to_string();
        }
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "loopback web did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let pipeline = dir.join("pipeline");
    std::fs::create_dir_all(&pipeline).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("pipeline/never-fetch.csv"),
        pipeline.join("never-fetch.csv"),
    )
    .unwrap();
    std::fs::write(
        pipeline.join("sources.csv"),
        sources.replace("{{port}}", &port),
    )
    .unwrap();
    // The loopback web's publishers are on 127.0.0.x: allowed on purpose, as in the tests.
    std::fs::write(
        pipeline.join("network.csv"),
        "range,note\n127.0.0.0/8,the benchmark's loopback publisher web\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/.huduku"), "bench\n").unwrap();
    let stage = |bin: &str| {
        let t = Instant::now();
        let st = Command::new(bin)
            .args(["--now", "2026-11-30T06:05:00Z", "--data"])
            .arg(dir.join("data"))
            .arg("--pipeline")
            .arg(&pipeline)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(st.success(), "{bin} failed");
        t.elapsed()
    };
    stage(env!("CARGO_BIN_EXE_robots-refresh"));
    let started = chrono::Utc::now();
    let wall = stage(env!("CARGO_BIN_EXE_fetch-feeds"));
    let rss_kib = max_rss_children_kib();
    let _ = web.kill();
    let _ = web.wait();
    // The politeness lower bound, from the web's own log of the fetch-feeds requests.
    let mut per: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let arrived: chrono::DateTime<chrono::Utc> =
            v["arrived"].as_str().unwrap().parse().unwrap();
        let finished: chrono::DateTime<chrono::Utc> =
            v["finished"].as_str().unwrap().parse().unwrap();
        if arrived < started {
            continue;
        }
        let e = per
            .entry(v["site"].as_str().unwrap().to_string())
            .or_default();
        e.0 += 1;
        e.1 += (finished - arrived).num_microseconds().unwrap() as f64 / 1e6;
    }
    let spacing = huduku::polite::MIN_SPACING.as_secs_f64();
    let bound = per
        .values()
        .map(|(n, busy)| *n as f64 * spacing + busy)
        .fold(0.0, f64::max);
    let requests: usize = per.values().map(|p| p.0).sum();
    println!(
        "hourly: {sources_n} sources on {sites} sites, {requests} requests",
        sources_n = sites * per_site
    );
    println!("  fetch-feeds wall       {:8.2} s", wall.as_secs_f64());
    println!(
        "  politeness lower bound {bound:8.2} s   (wall/bound = {:.3}; target <= 1.15)",
        wall.as_secs_f64() / bound
    );
    println!(
        "  peak memory (children) {:8.1} MiB (target < 100)",
        rss_kib as f64 / 1024.0
    );
}

/// Runs a command to its end; returns its wall time in seconds and its own peak resident
/// memory in MiB (the rusage `wait4` returns for that one child, so no other child counts).
fn measured(cmd: &mut Command) -> (f64, f64) {
    let t = Instant::now();
    // wait4 below reaps it, and gives its rusage as it does.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(got, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{cmd:?} failed: {status}"
    );
    (secs, ru.ru_maxrss as f64 / 1024.0)
}

/// Writes `days` days of classified headlines from 2026-11-01 on, `per_hour` an hour, each
/// from `outlets` outlets of five feeds each; returns how many.
fn classified_days(data: &Path, days: usize, per_hour: usize, outlets: usize) -> usize {
    let start = chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let topics = huduku::classify::TOPICS;
    let mut total = 0;
    for d in 0..days {
        for h in 0..24 {
            let t = start + chrono::Duration::hours((d * 24 + h) as i64);
            let hour_dir = data.join(huduku::time::day(t)).join(huduku::time::hour(t));
            std::fs::create_dir_all(&hour_dir).unwrap();
            let mut out = String::with_capacity(per_hour * 400);
            for i in 0..per_hour {
                let o = (i + h * per_hour) % (outlets * 5) / 5;
                let link = format!("https://outlet{o}.example/news/{d}/{h}/{i}.html");
                let at = t + chrono::Duration::seconds((i % 3600) as i64);
                let rec = serde_json::json!({
                    "id": huduku::records::item_id(&link), "outlet": format!("Outlet {o}"),
                    "source": format!("https://outlet{o}.example/feed{}.xml", i % 5), "lang": if i % 2 == 0 { "kn" } else { "en" },
                    "headline": format!("ಬೆಂಗಳೂರು ಸುದ್ದಿ headline {d}-{h}-{i}"), "link": link,
                    "published": huduku::time::fmt(at), "date_source": "publisher", "first_seen": huduku::time::fmt(t),
                    "category": ["Politics"], "topic": topics[i % topics.len()], "evidence": "category", "opinion": i % 17 == 0
                });
                out.push_str(&rec.to_string());
                out.push('\n');
                total += 1;
            }
            std::fs::write(hour_dir.join("classified.jsonl"), out).unwrap();
        }
    }
    total
}

/// A SHA-256 over every page, open-data file and `published.jsonl` (paths and bytes), and
/// the site's size and its largest page, so two programs' outputs can be compared.
fn outputs(data: &Path) -> (String, u64, u64) {
    use sha2::{Digest, Sha256};
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(data, &mut files);
    files.sort();
    let mut h = Sha256::new();
    let (mut site, mut largest) = (0u64, 0u64);
    for f in &files {
        let rel = f.strip_prefix(data).unwrap();
        let in_site = rel.starts_with("site");
        if !in_site && !rel.ends_with("published.jsonl") {
            continue;
        }
        let bytes = std::fs::read(f).unwrap();
        if in_site {
            site += bytes.len() as u64;
            if rel.extension().is_some_and(|e| e == "html") {
                largest = largest.max(bytes.len() as u64);
            }
        }
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(&bytes);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    (hex[..16].to_string(), site, largest)
}

/// Removes what publish writes, so the next run starts from nothing.
fn unpublish(data: &Path) {
    let _ = std::fs::remove_dir_all(data.join("site"));
    for e in std::fs::read_dir(data).unwrap() {
        let _ = std::fs::remove_file(e.unwrap().path().join("published.jsonl"));
    }
}

/// publish over one data set: a first run (nothing published yet) and a second (nothing
/// changed), for the program built here and, when `HUDUKU_PUBLISH_BEFORE` names another
/// publish binary, for that one too, side by side on the same input.
fn publish_case(dir: &Path, data: &Path, what: &str, now: &str) {
    // A data directory made on purpose, as `make init` does.
    std::fs::create_dir_all(data).unwrap();
    std::fs::write(data.join(".huduku"), "bench\n").unwrap();
    let pipeline = dir.join("pipeline");
    std::fs::create_dir_all(&pipeline).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("pipeline/never-fetch.csv"),
        pipeline.join("never-fetch.csv"),
    )
    .unwrap();
    // A source list must list something; publish reads the headlines whatever it lists.
    std::fs::write(
        pipeline.join("sources.csv"),
        "outlet,lang,kind,section,url,selector,status\nOutlet 0,en,feed,top,https://outlet0.example/feed0.xml,,test\n",
    )
    .unwrap();
    let mut bins: Vec<(String, PathBuf)> = Vec::new();
    if let Some(before) = std::env::var_os("HUDUKU_PUBLISH_BEFORE") {
        bins.push(("before".into(), PathBuf::from(before)));
    }
    bins.push(("this".into(), PathBuf::from(env!("CARGO_BIN_EXE_publish"))));
    println!("publish: {what}");
    println!(
        "  {:<8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  outputs",
        "program", "first s", "first MiB", "again s", "again MiB", "site MiB", "page KiB"
    );
    let mut digests = Vec::new();
    for (name, bin) in &bins {
        unpublish(data);
        let run = || {
            let mut c = Command::new(bin);
            c.args(["--now", now, "--data"])
                .arg(data)
                .arg("--pipeline")
                .arg(&pipeline)
                .stderr(Stdio::null());
            measured(&mut c)
        };
        let (first, first_mib) = run();
        let (again, again_mib) = run();
        let (digest, site, largest) = outputs(data);
        println!(
            "  {name:<8} {first:>10.2} {first_mib:>10.1} {again:>10.2} {again_mib:>10.1} {:>10.1} {:>10.1}  {digest}",
            site as f64 / 1048576.0,
            largest as f64 / 1024.0
        );
        digests.push(digest);
    }
    if digests.len() == 2 {
        println!(
            "  same bytes: {}",
            if digests[0] == digests[1] {
                "yes"
            } else {
                "no"
            }
        );
    }
}

fn publish(root: &Path) {
    // 30 days of 2,000 sources (400 outlets of five feeds), about a million headlines.
    let dir = root.join("publish");
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    let total = classified_days(&data, 30, 1400, 400);
    publish_case(
        &dir,
        &data,
        &format!("30 days of 2,000 sources, {total} headlines"),
        "2026-11-30T23:59:59Z",
    );
    // One outlet's feed with 25,000 new items an hour: 600,000 headlines in one day.
    let dir = root.join("publish-crowded");
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    let total = classified_days(&data, 1, 25_000, 1);
    publish_case(
        &dir,
        &data,
        &format!("one day, one outlet, {total} headlines"),
        "2026-11-01T23:59:59Z",
    );
}
