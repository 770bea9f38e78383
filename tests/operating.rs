//! Safe in an operator's hands: cron's bare environment, a mistyped data directory, a `NOW`
//! with an offset. Each is judged from the loopback web's own log and a search of the whole
//! data directory.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::pipeline::{Workdir, describe, repo};
use support::web::*;

/// The directory cargo built the stage binaries in (`CARGO_TARGET_DIR/release`).
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_fetch-feeds"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `make TARGET` under cron's environment: nothing but a minimal PATH and HOME, and the
/// target directory the binaries were built in (as an operator's `make build` leaves them).
fn cron_make(w: &Workdir, target: &str, vars: &[String]) -> (Command, Output) {
    let mut c = Command::new("/usr/bin/make");
    c.env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &w.dir)
        .env("CARGO_TARGET_DIR", bin_dir().parent().unwrap())
        .current_dir(repo())
        .arg("--no-print-directory")
        .arg(target)
        .arg(format!("DATA={}", w.data.display()))
        .arg(format!("PIPELINE={}", w.pipeline.display()))
        .arg(format!("SOURCES={}", w.sources.display()))
        .args(vars);
    let out = c.output().unwrap();
    (c, out)
}

/// The same stage command with another `--data`.
fn with_data(c: Command, data: &Path) -> Command {
    let mut out = Command::new(c.get_program());
    out.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    let mut args = c.get_args();
    while let Some(a) = args.next() {
        out.arg(a);
        if a == "--data" {
            args.next();
            out.arg(data);
        }
    }
    out
}

fn demo(name: &str) -> (Workdir, Web) {
    let w = Workdir::new(name);
    let web = Web::start(&repo().join("tests/web/demo"), &w.dir);
    w.sources_from(&repo().join("pipeline/demo/sources.csv"), &web);
    (w, web)
}

/// Every `.transient` directory under `dir`.
fn transients(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().unwrap() == ".transient" {
                out.push(p.clone());
            }
            transients(&p, out);
        }
    }
}

#[test]
fn make_hourly_runs_under_crons_bare_environment() {
    let (w, web) = demo("operating_cron_env");
    let (c, out) = cron_make(&w, "hourly", &["NOW=2026-11-30T06:05:00Z".into()]);
    assert!(out.status.success(), "{}", describe(&c, &out));
    assert!(w.data.join("2026-11-30/06/classified.jsonl").exists());
    assert!(web.requests().iter().any(|r| r.path == "/rss.xml"));
    assert!(w.data.join("site/index.html").exists());
}

#[test]
fn a_missing_binary_is_one_line_saying_which_command_builds_it() {
    let (w, web) = demo("operating_missing_binary");
    let (c, out) = cron_make(
        &w,
        "hourly",
        &[
            "NOW=2026-11-30T06:05:00Z".into(),
            "BIN=/nonexistent/bin".into(),
        ],
    );
    assert!(!out.status.success(), "{}", describe(&c, &out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/bin/robots-refresh is missing: run 'make build' first"),
        "{err}"
    );
    assert!(web.requests().is_empty());
}

#[test]
fn a_mistyped_data_directory_asks_nothing_and_says_how_to_make_one() {
    let (w, web) = demo("operating_data_typo");
    let now = "2026-11-30T06:05:00Z";
    // A first run records a refusal-free state; then --data is mistyped.
    w.stage("robots-refresh", now);
    let typo = w.dir.join("dta");
    for stage in [
        "robots-refresh",
        "fetch-feeds",
        "extract",
        "classify",
        "recheck-headers",
        "publish",
    ] {
        let mut c = with_data(w.command(stage, now), &typo);
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", describe(&c, &out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("does not exist") && err.contains("make init DATA="),
            "{stage}: {err}"
        );
    }
    assert!(!typo.exists(), "nothing made at the mistyped path");
    let robots_reads = web.requests().len();
    assert_eq!(robots_reads, 3, "only the first run's robots.txt reads");
    // The same through make.
    let (c, out) = cron_make(
        &w,
        "hourly",
        &[format!("NOW={now}"), format!("DATA={}", typo.display())],
    );
    assert!(!out.status.success(), "{}", describe(&c, &out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("make init DATA="));
    assert!(!typo.exists());
    assert_eq!(web.requests().len(), robots_reads);
    // Made on purpose, it works.
    let mut c = with_data(w.command("robots-refresh", now), &typo);
    c.arg("--init");
    assert!(c.output().unwrap().status.success());
    assert!(typo.join(".huduku").exists());
}

#[test]
fn no_summary_survives_runs_with_offset_past_and_future_now() {
    let (w, _web) = demo("operating_offset_now");
    for now in [
        "2026-11-30T11:35:00+05:30", // 06:05 UTC
        "2026-11-30T07:05:00-02:00", // 09:05 UTC
        "2026-11-29T23:05:00Z",      // an hour in the past
        "2026-12-01T02:05:00+01:00", // the next day
    ] {
        let (c, out) = cron_make(&w, "hourly", &[format!("NOW={now}")]);
        assert!(out.status.success(), "{}", describe(&c, &out));
    }
    // make named the same UTC hours the binaries wrote.
    for hour in [
        "2026-11-30/06",
        "2026-11-30/09",
        "2026-11-29/23",
        "2026-12-01/01",
    ] {
        assert!(
            w.data.join(hour).join("classified.jsonl").exists(),
            "{hour}"
        );
    }
    assert!(
        !w.data.join("2026-11-30/11").exists(),
        "no hour named in local time"
    );
    let mut left = Vec::new();
    transients(&w.data, &mut left);
    assert!(left.is_empty(), "raw bodies or summaries left: {left:?}");
}

/// Every file under `dir` (relative) with its SHA-256, sorted: the whole tree's bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.push((
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    huduku::store::sha256_hex(&bytes),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_replay_of_an_older_day_writes_nothing_in_the_data_directory_and_reports_same_bytes() {
    let (w, _web) = demo("operating_replay_older_day");
    for now in ["2026-11-30T06:05:00Z", "2026-12-01T06:05:00Z"] {
        let (c, out) = cron_make(&w, "hourly", &[format!("NOW={now}")]);
        assert!(out.status.success(), "{}", describe(&c, &out));
    }
    let before = tree(&w.data);
    assert!(before.iter().any(|(p, _)| p.starts_with("2026-12-01")));
    let (c, out) = cron_make(&w, "replay", &["DAY=2026-11-30".into()]);
    assert!(out.status.success(), "{}", describe(&c, &out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("same bytes"), "{}", describe(&c, &out));
    assert!(
        tree(&w.data) == before,
        "the replay wrote in the data directory"
    );
    // It wrote into a folder of its own, beside the data directory.
    let replay = w.dir.join("data-replays/2026-11-30");
    assert!(replay.join("site/index.html").is_file());
    assert!(replay.join("2026-11-30/06/classified.jsonl").is_file());
    assert!(!replay.join("2026-12-01").exists(), "no later day is made");

    // A kept file changed by hand is a difference: named, shown, and a failing exit.
    let kept = w.data.join("2026-11-30/06/classified.jsonl");
    let text = std::fs::read_to_string(&kept).unwrap();
    let first = text.lines().next().unwrap();
    let changed = first.replacen("\"topic\":\"", "\"topic\":\"x", 1);
    assert_ne!(first, changed);
    std::fs::write(&kept, text.replacen(first, &changed, 1)).unwrap();
    let before = tree(&w.data);
    let (c, out) = cron_make(&w, "replay", &["DAY=2026-11-30".into()]);
    assert!(!out.status.success(), "{}", describe(&c, &out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("differs: 2026-11-30/06/classified.jsonl")
            && said.contains(&format!("-{changed}"))
            && said.contains(&format!("+{first}"))
            && !said.contains("same bytes"),
        "{}",
        describe(&c, &out)
    );
    assert!(tree(&w.data) == before, "the kept file is left as it was");

    // A replay's folder is never the data directory or inside it, nor a folder of other files.
    for (to, says) in [
        (w.data.join("replays"), "inside the data directory"),
        (w.pipeline.clone(), "is not a replay's folder"),
    ] {
        let pipeline = tree(&w.pipeline);
        let (c, out) = cron_make(
            &w,
            "replay",
            &[
                "DAY=2026-11-30".into(),
                format!("REPLAY_OUT={}", to.display()),
            ],
        );
        assert!(!out.status.success(), "{}", describe(&c, &out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{}",
            describe(&c, &out)
        );
        assert!(tree(&w.data) == before && tree(&w.pipeline) == pipeline);
    }
}
