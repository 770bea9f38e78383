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
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
