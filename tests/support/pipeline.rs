//! Test harness for running the real stage binaries in a fresh directory, the way the
//! Makefile does, with `--now` and `--data` under the test's control.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::web::{Web, copy_dir};

/// The repository's root (where `pipeline/` and `tests/web/` live).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The key this test process signs its requests with: made once, outside the repository
/// (in the system's temporary directory) and readable by its owner only, as a production
/// key must be. Every stage a test runs gets it through `HUDUKU_SIGNING_KEY`.
pub fn signing_key() -> &'static Path {
    static KEY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let dir = std::env::temp_dir().join("huduku-test-keys");
        let path = dir.join(format!("{}.jwk", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let key = huduku::polite::sign::Key::generate(&path).unwrap();
        std::fs::write(
            dir.join(format!("{}.jwks", std::process::id())),
            format!("{{\"keys\":[{}]}}", key.public_jwk()),
        )
        .unwrap();
        path
    })
}

/// The public JWK Set of [`signing_key`]: the keys the loopback web verifies against.
pub fn signing_jwks() -> PathBuf {
    signing_key().with_extension("jwks")
}

/// The allowance every test pipeline carries: the loopback web's 127.0.0.x publishers.
pub const LOOPBACK_ALLOWED: &str =
    "range,note\n127.0.0.0/8,the loopback publisher web of the tests\n";

/// A fresh working directory for one test: its own data directory and its own copy of the
/// hand-kept lists (topic lexicons and never-fetch list from the repository; empty
/// opt-outs, permissions, takedowns and hosts), and a `network.csv` that allows 127.0.0.0/8
/// on purpose: every publisher of the tests lives on the loopback web.
pub struct Workdir {
    pub dir: PathBuf,
    pub data: PathBuf,
    pub pipeline: PathBuf,
    pub sources: PathBuf,
}

impl Workdir {
    /// `name` should be the test's name, so parallel tests never share a directory.
    pub fn new(name: &str) -> Workdir {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("huduku-tests")
            .join(name);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        let pipeline = dir.join("pipeline");
        std::fs::create_dir_all(&pipeline).unwrap();
        copy_dir(&repo().join("pipeline/topics"), &pipeline.join("topics"));
        std::fs::copy(
            repo().join("pipeline/topic-map.csv"),
            pipeline.join("topic-map.csv"),
        )
        .unwrap();
        std::fs::copy(
            repo().join("pipeline/never-fetch.csv"),
            pipeline.join("never-fetch.csv"),
        )
        .unwrap();
        std::fs::copy(
            repo().join("pipeline/glossary.csv"),
            pipeline.join("glossary.csv"),
        )
        .unwrap();
        std::fs::write(pipeline.join("optouts.csv"), "kind,value,since,note\n").unwrap();
        std::fs::write(pipeline.join("permissions.csv"), "target,granted,who,why\n").unwrap();
        std::fs::write(pipeline.join("takedowns.csv"), "link,date,reason\n").unwrap();
        std::fs::write(pipeline.join("hosts.csv"), "outlet,host,note\n").unwrap();
        std::fs::write(pipeline.join("network.csv"), LOOPBACK_ALLOWED).unwrap();
        let data = dir.join("data");
        std::fs::create_dir_all(&data).unwrap();
        // Made a data directory on purpose, as `make init` does.
        std::fs::write(data.join(".huduku"), "test data directory\n").unwrap();
        Workdir {
            sources: pipeline.join("sources.csv"),
            dir,
            data,
            pipeline,
        }
    }

    /// Writes the source list from a template, `{{port}}` replaced by the web's port.
    pub fn sources_from(&self, template: &Path, web: &Web) {
        let text = std::fs::read_to_string(template).unwrap();
        std::fs::write(
            &self.sources,
            text.replace("{{port}}", &web.port.to_string()),
        )
        .unwrap();
    }

    /// Writes the source list from text, `{{port}}` replaced by the web's port.
    pub fn sources_text(&self, text: &str, web: &Web) {
        std::fs::write(
            &self.sources,
            text.replace("{{port}}", &web.port.to_string()),
        )
        .unwrap();
    }

    /// Appends a line to one of the hand-kept lists (`optouts.csv`, `permissions.csv`, ...).
    pub fn append(&self, list: &str, line: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(self.pipeline.join(list))
            .unwrap();
        writeln!(f, "{line}").unwrap();
    }

    /// The command for a stage binary with `--now`, `--data`, `--pipeline` and `--sources` set,
    /// and an environment that cannot change its behaviour (no proxies).
    pub fn command(&self, bin: &str, now: &str) -> Command {
        let exe = match bin {
            "robots-refresh" => env!("CARGO_BIN_EXE_robots-refresh"),
            "fetch-feeds" => env!("CARGO_BIN_EXE_fetch-feeds"),
            "extract" => env!("CARGO_BIN_EXE_extract"),
            "classify" => env!("CARGO_BIN_EXE_classify"),
            "recheck-headers" => env!("CARGO_BIN_EXE_recheck-headers"),
            "publish" => env!("CARGO_BIN_EXE_publish"),
            "fetch-videos" => env!("CARGO_BIN_EXE_fetch-videos"),
            other => panic!("no stage {other}"),
        };
        let mut c = Command::new(exe);
        c.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env(huduku::polite::sign::KEY_ENV, signing_key());
        c.arg("--now")
            .arg(now)
            .arg("--data")
            .arg(&self.data)
            .arg("--pipeline")
            .arg(&self.pipeline)
            .arg("--sources")
            .arg(&self.sources);
        c.current_dir(&self.dir);
        c
    }

    /// Runs a stage; panics (showing the command, status and output) unless it exits 0, or 3
    /// ("finished, some items failed").
    pub fn stage(&self, bin: &str, now: &str) -> Output {
        self.stage_with(bin, now, &[])
    }

    pub fn stage_with(&self, bin: &str, now: &str, extra: &[&str]) -> Output {
        let mut c = self.command(bin, now);
        c.args(extra);
        let out = c.output().unwrap_or_else(|e| panic!("running {bin}: {e}"));
        let code = out.status.code();
        if !matches!(code, Some(0) | Some(3) | Some(4)) {
            panic!("{}", describe(&c, &out));
        }
        out
    }

    /// Runs a stage expecting it to fail; returns its stderr.
    pub fn stage_fails(&self, bin: &str, now: &str) -> String {
        let mut c = self.command(bin, now);
        let out = c.output().unwrap();
        assert!(
            !matches!(out.status.code(), Some(0) | Some(3) | Some(4)),
            "expected failure:\n{}",
            describe(&c, &out)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    /// What `make hourly` does: robots-refresh (idempotent within a day), fetch-feeds,
    /// extract, classify, with the hour's transient directory removed at the end; then publish.
    pub fn hourly(&self, now: &str) {
        self.stage("robots-refresh", now);
        let transient = self.transient_dir(now);
        let _ = std::fs::remove_dir_all(&transient);
        self.stage("fetch-feeds", now);
        self.stage("extract", now);
        self.stage("classify", now);
        let _ = std::fs::remove_dir_all(&transient);
        self.stage("publish", now);
    }

    /// What `make daily` does: robots-refresh, recheck-headers, publish.
    pub fn daily(&self, now: &str) {
        self.stage("robots-refresh", now);
        self.stage("recheck-headers", now);
        self.stage("publish", now);
    }

    /// `DATA/DAY/HH/.transient` for a `--now`.
    pub fn transient_dir(&self, now: &str) -> PathBuf {
        self.data
            .join(&now[..10])
            .join(&now[11..13])
            .join(".transient")
    }

    /// A kept file under the data directory, as text ("" if missing).
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.data.join(rel)).unwrap_or_default()
    }

    /// JSON lines of a kept file under the data directory (empty if missing).
    pub fn jsonl(&self, rel: &str) -> Vec<serde_json::Value> {
        self.read(rel)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Every file under the data directory, relative paths, sorted.
    pub fn data_files(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        walk(&self.data, &self.data, &mut out);
        out.sort();
        out
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            out.push(p.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// Command, working directory, status, stdout and stderr, for a failing test's message.
pub fn describe(c: &Command, out: &Output) -> String {
    format!(
        "command: {:?}\ncwd: {:?}\nstatus: {}\nstdout:\n{}\nstderr:\n{}",
        c,
        c.get_current_dir(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
