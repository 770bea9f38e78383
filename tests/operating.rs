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
        .env(
            huduku::polite::sign::KEY_ENV,
            support::pipeline::signing_key(),
        )
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
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env(
            huduku::polite::sign::KEY_ENV,
            support::pipeline::signing_key(),
        );
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

#[test]
fn only_sources_an_operator_checked_are_fetched_and_each_skip_says_why() {
    let (w, web) = demo("operating_unchecked");
    let text = std::fs::read_to_string(&w.sources).unwrap();
    // The Kannada outlet's feed is not checked yet; its home page has a typo in its status.
    let text = text
        .replacen("/rss.xml,,demo", "/rss.xml,,unchecked", 1)
        .replacen("ul.headlines li,demo", "ul.headlines li,chekced", 1);
    std::fs::write(&w.sources, text).unwrap();
    let now = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", now);
    let out = w.stage("fetch-feeds", now);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 not checked by an operator"), "{err}");
    // Its site has no checked source: not even its robots.txt is asked.
    assert!(
        web.requests().iter().all(|r| r.addr() != "127.0.0.21"),
        "{}",
        show(&web.requests().iter().collect::<Vec<_>>())
    );
    let fetch = w.read("2026-11-30/06/fetch.jsonl");
    assert!(fetch.contains("status \\\"unchecked\\\" in"), "{fetch}");
    assert!(fetch.contains("status \\\"chekced\\\" in"), "{fetch}");
}

#[test]
fn a_source_is_checked_with_one_polite_look_that_changes_no_schedule() {
    let (w, web) = demo("operating_check_source");
    let now = "2026-11-30T06:05:00Z";
    let url = format!("{}/rss.xml", web.base("127.0.0.21"));
    let out = w.stage_with("fetch-feeds", now, &["--check", &url]);
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "robots:  rules",
        "signal:",
        "answer:  200",
        "items:   12",
        "caching:",
        "verdict: HudukuBot may read it",
    ] {
        assert!(text.contains(want), "{want:?} in:\n{text}");
    }
    let reqs = web.requests();
    assert_eq!(
        reqs.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(),
        ["/robots.txt", "/rss.xml"],
        "robots.txt first, then one look"
    );
    assert_only_user_agent(&reqs, "HudukuBot/1.0 (+https://huduku.org/fetching)");
    // No schedule changed: the hourly run that follows asks the feed as if never asked.
    let state: serde_json::Value = serde_json::from_str(&w.read("state.json")).unwrap();
    assert!(state["sources"].get(&url).is_none(), "{state}");
}

#[test]
fn a_new_refusal_is_exit_4_and_make_ends_saying_a_person_must_act() {
    let w = Workdir::new("operating_attention");
    let web = Web::start(&repo().join("tests/web/faults"), &w.dir);
    std::fs::write(
        web.site_dir("127.0.0.51").join("feed.xml"),
        "<rss version=\"2.0\"><channel><title>x</title></channel></rss>",
    )
    .unwrap();
    w.sources_text(
        "outlet,lang,kind,section,url,selector,status\nA,kn,feed,top,http://127.0.0.51:{{port}}/feed.xml,,test\nRefusing Daily,en,feed,top,http://127.0.0.53:{{port}}/feed.xml,,test\n",
        &web,
    );
    let now = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", now);
    let out = w.command("fetch-feeds", now).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("a person must act: http://127.0.0.53"));
    // Known already: the next run is quiet.
    let out = w
        .command("fetch-feeds", "2026-11-30T07:05:00Z")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Through make, the hour goes on to the end and make says so, non-zero.
    let w2 = Workdir::new("operating_attention_make");
    std::fs::copy(&w.sources, &w2.sources).unwrap();
    let (c, out) = cron_make(&w2, "hourly", &[format!("NOW={now}")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}", describe(&c, &out));
    assert!(err.contains("a person must act"), "{err}");
    assert!(
        w2.data.join("site/index.html").exists(),
        "publish ran: {err}"
    );
}

#[test]
fn status_names_every_stop_and_the_permission_line_that_lifts_it() {
    let w = Workdir::new("operating_status");
    let web = Web::start(&repo().join("tests/web/faults"), &w.dir);
    std::fs::write(
        web.site_dir("127.0.0.51").join("feed.xml"),
        "<rss version=\"2.0\"><channel><title>x</title></channel></rss>",
    )
    .unwrap();
    w.sources_text(
        "outlet,lang,kind,section,url,selector,status\nA,kn,feed,top,http://127.0.0.51:{{port}}/feed.xml,,unchecked\nRefusing Daily,en,feed,top,http://127.0.0.53:{{port}}/feed.xml,,test\nSleepy Weekly,en,feed,top,http://127.0.0.55:{{port}}/feed.xml,,test\n",
        &web,
    );
    let now = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", now);
    w.stage("fetch-feeds", now);
    let n = web.requests().len();
    let (c, out) = cron_make(&w, "status", &["NOW=2026-11-30T07:00:00Z".to_string()]);
    assert!(out.status.success(), "{}", describe(&c, &out));
    let text = String::from_utf8_lossy(&out.stdout);
    let refuser = web.base("127.0.0.53");
    for want in [
        format!("{refuser} refused since 2026-11-30T06:05:00Z (refused-403)"),
        format!("{refuser},2026-11-30T07:00:00Z,<who gave permission>"),
        format!(
            "{} halted since 2026-11-30T06:05:00Z",
            web.base("127.0.0.55")
        ),
        "Not checked by an operator, never fetched (1)".to_string(),
        "fetch-feeds      2026-11-30 06:00".to_string(),
    ] {
        assert!(text.contains(&want), "{want:?} in:\n{text}");
    }
    assert_eq!(web.requests().len(), n, "status asks nothing");
}

#[test]
fn a_stage_whose_stderr_is_a_closed_pipe_carries_on() {
    let (w, _web) = demo("operating_closed_stderr");
    let now = "2026-11-30T06:05:00Z";
    w.stage("robots-refresh", now);
    let out = w.stage("fetch-feeds", now);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("[now 2026-11-30T06:05:00Z; clock "),
        "summary places itself: {err}"
    );
    // A log reader that went away: stderr is a pipe whose other end is closed.
    let mut c = w.command("extract", now);
    c.stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "no panic on a closed stderr");
    assert!(!w.jsonl("2026-11-30/06/items.jsonl").is_empty());
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

#[test]
fn a_run_that_waits_for_the_lock_says_so_and_a_failed_stage_is_not_blamed_on_the_lock() {
    let (w, _web) = demo("operating_lock_messages");
    // Another run holds the run lock for a moment.
    let mut holder = Command::new("flock")
        .arg(w.data.join(".lock"))
        .args(["sleep", "2"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (c, out) = cron_make(&w, "hourly", &["NOW=2026-11-30T06:05:00Z".into()]);
    holder.wait().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", describe(&c, &out));
    assert!(
        err.contains("another run holds") && err.contains("waiting up to 30 minutes"),
        "{err}"
    );
    // A stage that fails (a bad line in a hand-kept list) is said to have failed, not the lock.
    std::fs::write(
        w.pipeline.join("permissions.csv"),
        "target,granted,who,why\nnot a url,2026-11-01,A,B\n",
    )
    .unwrap();
    let (c, out) = cron_make(&w, "hourly", &["NOW=2026-11-30T07:05:00Z".into()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}", describe(&c, &out));
    assert!(
        err.contains("a stage failed (exit") && err.contains("permissions.csv:2"),
        "{err}"
    );
    assert!(!err.contains("held"), "{err}");
}

#[test]
fn make_train_learns_from_the_days_before_and_status_names_the_model() {
    let w = Workdir::new("operating_train");
    std::fs::write(
        &w.sources,
        "outlet,lang,kind,section,url,selector,status\nO,en,feed,top,https://o.example/feed,,test\n",
    )
    .unwrap();
    let hour = w.data.join("2026-11-29/07");
    std::fs::create_dir_all(&hour).unwrap();
    let items: Vec<String> = [
        ("a1", "Karnataka clinch Ranji title in Mysuru", "Sports"),
        ("b2", "Sensex ends 300 points higher", "Markets"),
        ("c3", "Rain lashes the coast", "Karnataka"),
    ]
    .iter()
    .map(|(id, headline, cat)| {
        serde_json::json!({
            "id": id, "outlet": "O", "source": "https://o.example/feed", "lang": "en",
            "headline": headline, "link": format!("https://o.example/{id}.html"),
            "published": "2026-11-29T05:00:00Z", "date_source": "publisher",
            "first_seen": "2026-11-29T07:05:00Z", "category": [cat], "author": null
        })
        .to_string()
    })
    .collect();
    std::fs::write(hour.join("items.jsonl"), items.join("\n") + "\n").unwrap();
    let status = |w: &Workdir| {
        let (c, out) = cron_make(w, "status", &["NOW=2026-11-30T03:00:00Z".to_string()]);
        assert!(out.status.success(), "{}", describe(&c, &out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        status(&w).contains("Topic model: none yet"),
        "{}",
        status(&w)
    );
    let (c, out) = cron_make(&w, "train", &["NOW=2026-11-30T03:00:00Z".to_string()]);
    assert!(out.status.success(), "{}", describe(&c, &out));
    let models = w.data.join("models");
    let examples = std::fs::read_to_string(models.join("examples-2026-11-30.jsonl")).unwrap();
    assert!(examples.contains("Karnataka clinch Ranji title") && examples.contains("Sensex ends"));
    assert!(
        !examples.contains("Rain lashes the coast"),
        "a place's section says nothing, so it teaches nothing"
    );
    let dated = std::fs::read(models.join("topics-2026-11-30.model")).unwrap();
    assert!(dated == std::fs::read(models.join("topics.model")).unwrap());
    let text = status(&w);
    assert!(
        text.contains("a copy of topics-2026-11-30.model") && text.contains("trained on"),
        "{text}"
    );
    // Trained again the same day on the same days: the same bytes.
    let (c, out) = cron_make(&w, "train", &["NOW=2026-11-30T04:00:00Z".to_string()]);
    assert!(out.status.success(), "{}", describe(&c, &out));
    assert!(std::fs::read(models.join("topics-2026-11-30.model")).unwrap() == dated);
    // A damaged model is what the operator reads first.
    std::fs::write(models.join("topics.model"), &dated[..dated.len() / 3]).unwrap();
    let text = status(&w);
    assert!(
        text.contains("Topic model: UNREADABLE") && text.contains("lexicons alone"),
        "{text}"
    );
}
