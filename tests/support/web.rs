//! Test harness for the loopback publisher web (`src/bin/loopback-web.rs`).
//!
//! `Web::start` copies a fixture directory, runs the real binary on a free
//! port and reads back its request log; the `assert_*` functions check the
//! politeness properties tests care about and panic with the offending lines.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A running `loopback-web` process. Killed when dropped.
pub struct Web {
    pub port: u16,
    /// The JSON-lines request log.
    pub log: PathBuf,
    /// The copy of the fixture the web serves (editable between runs).
    pub sites: PathBuf,
    /// The web's stderr.
    pub stderr: PathBuf,
    /// Whether every request must have arrived signed by HudukuBot (checked when the web
    /// stops): true, unless a test of the web itself sends requests of its own.
    pub only_hudukubot: bool,
    child: Child,
}

/// One line of the request log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedRequest {
    /// "127.0.0.21:PORT"
    pub site: String,
    pub method: String,
    /// Path with the query string.
    pub path: String,
    pub user_agent: Option<String>,
    pub if_none_match: Option<String>,
    pub if_modified_since: Option<String>,
    pub status: u16,
    /// Body bytes sent.
    pub bytes: u64,
    pub arrived: DateTime<Utc>,
    pub finished: DateTime<Utc>,
    /// Every request header, name lower-cased.
    pub headers: BTreeMap<String, String>,
    /// The web's own check of the request's signature.
    pub signature: huduku::loopback::verify::Check,
}

impl LoggedRequest {
    /// The site's address without the port ("127.0.0.21").
    pub fn addr(&self) -> &str {
        self.site.rsplit_once(':').map_or(&self.site, |(a, _)| a)
    }

    /// The path without the query string.
    pub fn path_only(&self) -> &str {
        self.path.split('?').next().unwrap_or(&self.path)
    }
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("creating {}: {e}", to.display()));
    for entry in
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("reading {}: {e}", from.display()))
    {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("copying {}: {e}", entry.path().display()));
        }
    }
}

impl Web {
    /// Copies `fixture_dir` into `work_dir/web` (replacing an earlier copy),
    /// starts `loopback-web --port 0` on it and waits (up to 10 s) until it
    /// is listening. The log is `work_dir/web-requests.jsonl`.
    pub fn start(fixture_dir: &Path, work_dir: &Path) -> Web {
        Self::start_with(fixture_dir, work_dir, &[])
    }

    /// A web the test itself sends requests to (a test of the web): not every request
    /// comes signed from HudukuBot.
    pub fn start_for_its_own_tests(fixture_dir: &Path, work_dir: &Path) -> Web {
        Self::start_with_for_its_own_tests(fixture_dir, work_dir, &[])
    }

    /// [`Web::start_with`] for a test of the web itself.
    pub fn start_with_for_its_own_tests(
        fixture_dir: &Path,
        work_dir: &Path,
        extra: &[&str],
    ) -> Web {
        let mut web = Self::start_with(fixture_dir, work_dir, extra);
        web.only_hudukubot = false;
        web
    }

    /// Like [`Web::start`], with extra command-line arguments (e.g. `["--latency-ms", "5"]`).
    pub fn start_with(fixture_dir: &Path, work_dir: &Path, extra_args: &[&str]) -> Web {
        std::fs::create_dir_all(work_dir).unwrap();
        let sites = work_dir.join("web");
        if sites.exists() {
            std::fs::remove_dir_all(&sites).unwrap();
        }
        copy_dir(fixture_dir, &sites);
        let log = work_dir.join("web-requests.jsonl");
        let ready = work_dir.join("web.ready");
        let stderr = work_dir.join("web.stderr");
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_file(&ready);
        let child = Command::new(env!("CARGO_BIN_EXE_loopback-web"))
            .arg("--sites")
            .arg(&sites)
            .args(["--port", "0"])
            .arg("--log")
            .arg(&log)
            .arg("--ready")
            .arg(&ready)
            .arg("--keys")
            .arg(super::pipeline::signing_jwks())
            .args(extra_args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("starting loopback-web");
        let mut web = Web {
            port: 0,
            log,
            sites,
            stderr,
            only_hudukubot: true,
            child,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(text) = std::fs::read_to_string(&ready)
                && let Ok(port) = text.trim().parse::<u16>()
            {
                web.port = port;
                return web;
            }
            if let Ok(Some(status)) = web.child.try_wait() {
                panic!(
                    "loopback-web exited ({status}) before it was ready:\n{}",
                    web.stderr_text()
                );
            }
            if Instant::now() > deadline {
                panic!("loopback-web not ready after 10 s:\n{}", web.stderr_text());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn stderr_text(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// The served directory of one site, to edit its files between runs.
    pub fn site_dir(&self, addr: &str) -> PathBuf {
        self.sites.join(addr)
    }

    /// "http://127.0.0.21:PORT"
    pub fn base(&self, addr: &str) -> String {
        format!("http://{addr}:{}", self.port)
    }

    /// The request log so far, in log (finish) order.
    pub fn requests(&self) -> Vec<LoggedRequest> {
        let text = match std::fs::read_to_string(&self.log) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
            Err(e) => panic!("reading {}: {e}", self.log.display()),
        };
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad log line {l:?}: {e}")))
            .collect()
    }

    /// Waits until the log holds at least `n` requests (responses are logged
    /// when finished, which may be just after a client has its answer).
    pub fn wait_for_requests(&self, n: usize, timeout: Duration) -> Vec<LoggedRequest> {
        let deadline = Instant::now() + timeout;
        loop {
            let reqs = self.requests();
            if reqs.len() >= n || Instant::now() > deadline {
                return reqs;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Web {
    /// Stops the web and, for a web only HudukuBot asked, checks that every request in its
    /// log arrived signed and verified: every web log of the suite is walked this way.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.only_hudukubot && !std::thread::panicking() {
            // The fake YouTube API is asked by the video step, which is not HudukuBot and
            // never signs as HudukuBot; every other request is HudukuBot's, signed.
            let (api, publishers): (Vec<LoggedRequest>, Vec<LoggedRequest>) = self
                .requests()
                .into_iter()
                .partition(|r| r.path.starts_with(huduku::loopback::youtube::PREFIX));
            assert_signed(&publishers);
            let signed: Vec<&LoggedRequest> = api
                .iter()
                .filter(|r| r.signature.verdict != "unsigned")
                .collect();
            assert!(
                signed.is_empty(),
                "the video step signed as HudukuBot:\n{}",
                show(&signed)
            );
        }
    }
}

/// Log lines for a panic message.
pub fn show(reqs: &[&LoggedRequest]) -> String {
    reqs.iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Requests grouped by site, each group sorted by arrival.
pub fn by_site(reqs: &[LoggedRequest]) -> BTreeMap<String, Vec<&LoggedRequest>> {
    let mut map: BTreeMap<String, Vec<&LoggedRequest>> = BTreeMap::new();
    for r in reqs {
        map.entry(r.site.clone()).or_default().push(r);
    }
    for list in map.values_mut() {
        list.sort_by_key(|r| (r.arrived, r.finished));
    }
    map
}

/// Every request carried exactly this User-Agent.
pub fn assert_only_user_agent(reqs: &[LoggedRequest], ua: &str) {
    let bad: Vec<&LoggedRequest> = reqs
        .iter()
        .filter(|r| r.user_agent.as_deref() != Some(ua))
        .collect();
    assert!(
        bad.is_empty(),
        "requests without User-Agent {ua:?}:\n{}",
        show(&bad)
    );
}

/// Every request arrived signed under Web Bot Auth and verified by the web with the test's
/// key: `keyid` that key's thumbprint, `Signature-Agent` naming HudukuBot's key directory,
/// a lifetime of at most five minutes (unexpired on the web's clock, where the test gave it
/// one), and a nonce the web had never seen.
pub fn assert_signed(reqs: &[LoggedRequest]) {
    let keyid = {
        let text = std::fs::read_to_string(super::pipeline::signing_jwks()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["keys"][0]["kid"].as_str().unwrap().to_string()
    };
    let mut bad = Vec::new();
    for r in reqs {
        let s = &r.signature;
        let fault = if s.verdict != "verified" {
            Some(format!("{} ({})", s.verdict, s.why))
        } else if s.keyid.as_deref() != Some(keyid.as_str()) {
            Some(format!("keyid {:?}", s.keyid))
        } else if s.agent.as_deref()
            != Some("https://huduku.org/.well-known/http-message-signatures-directory")
        {
            Some(format!("Signature-Agent {:?}", s.agent))
        } else if s.nonce_seen_before || s.nonce.is_none() {
            Some(format!("nonce {:?} seen before", s.nonce))
        } else {
            match (s.created, s.expires) {
                (Some(c), Some(e)) if e > c && e - c <= 300 => None,
                other => Some(format!("created, expires {other:?}")),
            }
        };
        if let Some(f) = fault {
            bad.push(format!("{} {} {}: {f}", r.method, r.site, r.path));
        }
    }
    assert!(
        bad.is_empty(),
        "requests not signed as HudukuBot signs:\n{}",
        bad.join("\n")
    );
}

/// On every site, the first request was for /robots.txt.
pub fn assert_robots_first_per_site(reqs: &[LoggedRequest]) {
    for (site, list) in by_site(reqs) {
        let first = list[0];
        assert!(
            first.path_only() == "/robots.txt",
            "first request to {site} was not /robots.txt:\n{}",
            show(&list)
        );
    }
}

/// On every site, each request arrived after every earlier one had finished.
pub fn assert_no_overlap_per_site(reqs: &[LoggedRequest]) {
    for (site, list) in by_site(reqs) {
        let mut latest: Option<&LoggedRequest> = None;
        for r in &list {
            if let Some(prev) = latest {
                assert!(
                    r.arrived >= prev.finished,
                    "overlapping requests to {site}:\n{}\n(all requests to the site:\n{})",
                    show(&[prev, r]),
                    show(&list)
                );
            }
            if latest.is_none_or(|p| r.finished > p.finished) {
                latest = Some(r);
            }
        }
    }
}

/// On every site, consecutive requests are at least `spacing` apart, both
/// from the end of one to the arrival of the next and arrival to arrival.
pub fn assert_min_spacing_per_site(reqs: &[LoggedRequest], spacing: Duration) {
    let spacing = chrono::Duration::from_std(spacing).unwrap();
    for (site, list) in by_site(reqs) {
        for pair in list.windows(2) {
            let (prev, next) = (pair[0], pair[1]);
            let gap = next.arrived - prev.finished;
            let start_gap = next.arrived - prev.arrived;
            assert!(
                gap >= spacing && start_gap >= spacing,
                "requests to {site} closer than {spacing} (finish→arrival {gap}, arrival→arrival {start_gap}):\n{}",
                show(&[prev, next])
            );
        }
    }
}

/// No request ever asked for one of these paths (query strings ignored; a
/// path ending in '/' matches everything below it).
pub fn assert_never_requested(reqs: &[LoggedRequest], paths: &[&str]) {
    let bad: Vec<&LoggedRequest> = reqs
        .iter()
        .filter(|r| {
            paths.iter().any(|p| {
                let (addr, path) = match p.split_once('/') {
                    // "127.0.0.21/private/" restricts to one site.
                    Some((a, rest)) if a.parse::<std::net::Ipv4Addr>().is_ok() => {
                        (Some(a), format!("/{rest}"))
                    }
                    _ => (None, p.to_string()),
                };
                addr.is_none_or(|a| a == r.addr())
                    && if path.ends_with('/') {
                        r.path_only().starts_with(&path)
                    } else {
                        r.path_only() == path
                    }
            })
        })
        .collect();
    assert!(
        bad.is_empty(),
        "forbidden paths were requested:\n{}",
        show(&bad)
    );
}
