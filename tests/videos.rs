//! `fetch-videos` against the loopback web's fake YouTube Data API (`tests/web/youtube/`),
//! judged from the fake's own request log and from every file under the data directory:
//! its own user agent (never HudukuBot's), never `search.list`, `channels.list` once per
//! channel, `If-None-Match` on repeats, the budget never exceeded, a refused key, a spent
//! quota (at the start and mid-run), a removed channel, a missing key and key files in the
//! wrong place, the key in no file and no log, nothing from the API kept 29 days, plain links
//! on the video pages, and the same bytes from the same inputs.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::Value;
use support::pipeline::{Workdir, describe, repo};
use support::web::{LoggedRequest, Web};

const KEY: &str = "AIzaTestKey-0123456789_abcdefghijklmnopq";
const KN: &str = "UCkannadaTestChannel0001";
const EN: &str = "UCenglishTestChannel0002";
const T0: &str = "2026-11-30T06:05:00Z";
const CHANNELS: &str = "# The tests' channels (tests/web/youtube/).\nchannel_id,name,lang\n\
UCkannadaTestChannel0001,ಪರೀಕ್ಷಾ ವಾಹಿನಿ,kn\n\
UCenglishTestChannel0002,English Test Channel,en\n";
const SOURCES: &str = "outlet,lang,kind,section,url,selector,status\n\
Deccan Daily Chronicle,en,feed,top,https://deccan.example/atom.xml,,checked\n";
/// Every video id the fake lists, public or not.
const VIDEO_IDS: [&str; 6] = [
    "knVideo0001",
    "knVideo0002",
    "knVideo0003",
    "knPrivate01",
    "enVideo0001",
    "enVideo0002",
];

struct Fix {
    w: Workdir,
    web: Option<Web>,
    port: u16,
}

/// One run of fetch-videos.
struct Run {
    code: Option<i32>,
    stderr: String,
    shown: String,
}

impl Run {
    fn expect(&self, code: i32) -> &Run {
        assert_eq!(self.code, Some(code), "{}", self.shown);
        self
    }
}

fn fix(name: &str) -> Fix {
    let w = Workdir::new(name);
    let web = Web::start(&repo().join("tests/web/youtube"), &w.dir);
    std::fs::write(w.pipeline.join("channels.csv"), CHANNELS).unwrap();
    std::fs::write(&w.sources, SOURCES).unwrap();
    let port = web.port;
    Fix {
        w,
        web: Some(web),
        port,
    }
}

impl Fix {
    fn web(&self) -> &Web {
        self.web.as_ref().expect("the web is up")
    }

    fn api(&self) -> String {
        format!("http://127.0.0.40:{}/youtube/v3/", self.port)
    }

    fn command(&self, now: &str, key: Option<&str>, extra: &[&str]) -> Command {
        let mut c = self.w.command("fetch-videos", now);
        if !extra.contains(&"--api-base") {
            c.arg("--api-base").arg(self.api());
        }
        if let Some(k) = key {
            c.env("HUDUKU_YOUTUBE_KEY", k);
        }
        c.args(extra);
        c
    }

    fn run_with(&self, now: &str, key: Option<&str>, extra: &[&str]) -> Run {
        let mut c = self.command(now, key, extra);
        let out: Output = c.output().unwrap();
        Run {
            code: out.status.code(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            shown: describe(&c, &out),
        }
    }

    fn run(&self, now: &str) -> Run {
        self.run_with(now, Some(KEY), &[])
    }

    /// Every request the fake API received, once the log has settled (a response is logged
    /// just after the client has it).
    fn api_requests(&self) -> Vec<LoggedRequest> {
        let mut last = self.web().requests().len();
        loop {
            std::thread::sleep(Duration::from_millis(120));
            let now = self.web().requests().len();
            if now == last {
                break;
            }
            last = now;
        }
        self.web()
            .requests()
            .into_iter()
            .filter(|r| r.path.starts_with("/youtube/"))
            .collect()
    }

    fn fake_path(&self) -> PathBuf {
        self.web().site_dir("127.0.0.40").join("_youtube.json")
    }

    /// Edits the fake API's script.
    fn edit(&self, f: impl FnOnce(&mut Value)) {
        let path = self.fake_path();
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        f(&mut v);
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }

    fn set_channel(v: &mut Value, id: &str, f: impl FnOnce(&mut Value)) {
        let c = v["channels"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|c| c["id"] == id)
            .unwrap();
        f(c);
    }

    fn videos(&self) -> Vec<Value> {
        self.w.jsonl("videos.jsonl")
    }

    fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .videos()
            .iter()
            .map(|v| v["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    }

    fn publish(&self, now: &str) {
        self.w.stage("publish", now);
    }

    fn page(&self, lang: &str) -> String {
        self.w.read(&format!("site/{lang}/videos.html"))
    }
}

fn query(r: &LoggedRequest) -> Vec<(String, String)> {
    let q = r.path.split_once('?').map(|x| x.1).unwrap_or("");
    url::form_urlencoded::parse(q.as_bytes())
        .into_owned()
        .collect()
}

fn param(r: &LoggedRequest, name: &str) -> Option<String> {
    query(r)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

fn calls_to<'a>(
    reqs: &'a [LoggedRequest],
    endpoint: &str,
    channel_or_list: &str,
) -> Vec<&'a LoggedRequest> {
    reqs.iter()
        .filter(|r| r.path_only() == format!("/youtube/v3/{endpoint}"))
        .filter(|r| {
            param(r, "id").as_deref() == Some(channel_or_list)
                || param(r, "playlistId").as_deref() == Some(channel_or_list)
        })
        .collect()
}

/// Every file under a directory, as (relative path, bytes), sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push((
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The files under the data directory holding `needle`.
fn files_holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    files(dir)
        .into_iter()
        .filter(|(_, b)| String::from_utf8_lossy(b).contains(needle))
        .map(|(p, _)| p)
        .collect()
}

fn quota(f: &Fix, day: &str) -> Value {
    serde_json::from_str(&f.w.read(&format!("{day}/videos-quota.json"))).unwrap()
}

#[test]
fn only_id_title_channel_lang_and_times_are_kept_of_public_videos() {
    let f = fix("videos_kept_fields");
    let r = f.run(T0);
    r.expect(0);
    assert!(
        r.stderr.contains("2 channels: 2 refreshed") && r.stderr.contains("5 videos kept"),
        "{}",
        r.shown
    );
    assert_eq!(
        f.ids(),
        [
            "enVideo0001",
            "enVideo0002",
            "knVideo0001",
            "knVideo0002",
            "knVideo0003"
        ],
        "the private video and the bad id are not listed"
    );
    for v in f.videos() {
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "channel",
                "channel_name",
                "fetched",
                "id",
                "lang",
                "published",
                "title"
            ],
            "{v}"
        );
        assert_eq!(v["fetched"], T0);
    }
    let first = &f.videos()[0];
    assert_eq!(first["id"], "knVideo0001");
    assert_eq!(first["channel"], KN);
    assert_eq!(
        first["channel_name"], "ಪರೀಕ್ಷಾ ವಾಹಿನಿ",
        "the list's name, not YouTube's"
    );
    assert_eq!(first["lang"], "kn");
    assert_eq!(first["published"], "2026-11-30T05:00:00Z");
    // Nothing else of the answers is in any file: no description, thumbnail or YouTube's
    // own channel title.
    for needle in [
        "DESCRIPTION-NEVER-KEPT",
        "ytimg",
        "thumbnails",
        "as YouTube names it",
    ] {
        assert_eq!(
            files_holding(&f.w.data, needle),
            Vec::<PathBuf>::new(),
            "{needle} was kept"
        );
    }
}

#[test]
fn the_api_is_asked_under_its_own_name_never_hudukubot_and_never_search() {
    let f = fix("videos_own_name");
    f.run(T0).expect(0);
    f.run("2026-11-30T07:05:00Z").expect(0);
    let reqs = f.api_requests();
    assert_eq!(
        reqs.len(),
        6,
        "2 channels.list, then 2 playlistItems.list a run"
    );
    for r in &reqs {
        assert_eq!(r.user_agent.as_deref(), Some("Huduku-videos/1.0"), "{r:?}");
        let all = serde_json::to_string(r).unwrap();
        assert!(!all.to_ascii_lowercase().contains("hudukubot"), "{all}");
        assert!(!r.path.contains("/search"), "search.list asked: {all}");
        assert_eq!(r.method, "GET");
        match r.path_only() {
            "/youtube/v3/channels" => {
                assert_eq!(param(r, "part").as_deref(), Some("contentDetails"));
            }
            "/youtube/v3/playlistItems" => {
                assert_eq!(param(r, "part").as_deref(), Some("snippet"));
                assert_eq!(param(r, "maxResults").as_deref(), Some("50"));
            }
            other => panic!("asked {other}"),
        }
        // The key went in the address, and the fake's log does not keep it.
        assert_eq!(param(r, "key").as_deref(), Some("[redacted]"), "{all}");
        assert!(r.status == 200 || r.status == 304, "{all}");
    }
}

#[test]
fn channels_list_is_asked_once_per_channel_and_repeats_send_if_none_match() {
    let f = fix("videos_etag");
    f.run(T0).expect(0);
    let first = f.w.read("videos.jsonl");
    let r = f.run("2026-11-30T07:05:00Z");
    r.expect(0);
    assert!(
        r.stderr.contains("0 refreshed, 2 unchanged (304)"),
        "{}",
        r.shown
    );
    f.run("2026-12-01T03:05:00Z").expect(0);
    let reqs = f.api_requests();
    for (id, uploads) in [
        (KN, "UUkannadaTestChannel0001"),
        (EN, "UUenglishTestChannel0002"),
    ] {
        assert_eq!(
            calls_to(&reqs, "channels", id).len(),
            1,
            "channels.list once for {id}"
        );
        let items = calls_to(&reqs, "playlistItems", uploads);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].if_none_match, None);
        assert_eq!(items[0].status, 200);
        let etag = items[0].headers.get("if-none-match").cloned();
        assert_eq!(etag, None);
        for later in &items[1..] {
            assert!(later.if_none_match.is_some(), "{later:?}");
            assert_eq!(later.status, 304, "{later:?}");
        }
    }
    // A 304 leaves the videos as they were: not refreshed, same bytes.
    assert_eq!(f.w.read("videos.jsonl"), first);
    // And a 304 is counted as a unit, as every call is.
    assert_eq!(quota(&f, "2026-11-30")["spent"], 6);
    assert_eq!(quota(&f, "2026-12-01")["spent"], 2);

    // A new upload changes the answer: a full one, with the new video and without one no
    // longer among the channel's uploads.
    f.edit(|v| {
        Fix::set_channel(v, KN, |c| {
            let videos = c["videos"].as_array_mut().unwrap();
            videos.retain(|x| x["id"] != "knVideo0003");
            videos.push(serde_json::json!({"id": "knVideo0004", "published": "2026-12-01T04:00:00Z", "title": "ನಾಲ್ಕನೆಯ ವಿಡಿಯೊ"}));
        })
    });
    let r = f.run("2026-12-01T05:05:00Z");
    r.expect(0);
    assert!(
        r.stderr.contains("1 refreshed, 1 unchanged (304)"),
        "{}",
        r.shown
    );
    assert!(f.ids().contains(&"knVideo0004".to_string()));
    assert!(!f.ids().contains(&"knVideo0003".to_string()));

    // A week after the last full answer, it is asked for in full again (no If-None-Match),
    // so the videos are refreshed; the uploads playlist is still not asked again.
    f.run("2026-12-08T06:05:00Z").expect(0);
    let reqs = f.api_requests();
    let en = calls_to(&reqs, "playlistItems", "UUenglishTestChannel0002");
    let last = en.last().unwrap();
    assert_eq!(last.if_none_match, None, "{last:?}");
    assert_eq!(last.status, 200);
    assert_eq!(calls_to(&reqs, "channels", EN).len(), 1);
    assert!(
        f.videos()
            .iter()
            .all(|v| v["fetched"] == "2026-12-08T06:05:00Z")
    );
}

#[test]
fn a_refused_key_is_exit_4_with_one_line_and_no_further_call() {
    let f = fix("videos_bad_key");
    let r = f.run_with(T0, Some("AIzaWrongKey-0000000000_abcdefghijklmnop"), &[]);
    r.expect(4);
    assert!(
        r.stderr.contains(&format!("channel {KN}"))
            && r.stderr.contains("YouTube refused the API key")
            && r.stderr.contains("API key not valid"),
        "{}",
        r.shown
    );
    assert!(r.stderr.contains("a person must act"), "{}", r.shown);
    assert!(
        !r.stderr.contains("AIzaWrongKey"),
        "the key is in stderr:\n{}",
        r.stderr
    );
    let reqs = f.api_requests();
    assert_eq!(reqs.len(), 1, "nothing asked after the refusal: {reqs:?}");
    assert_eq!(reqs[0].status, 400);
    let calls = f.w.jsonl("2026-11-30/06/videos-calls.jsonl");
    assert_eq!(calls[0]["outcome"], "key-refused");
    assert_eq!(calls[1]["channel"], EN);
    assert_eq!(calls[1]["outcome"], "skipped");
    assert!(files_holding(&f.w.data, "AIzaWrongKey").is_empty());
}

#[test]
fn a_quota_exhausted_at_the_start_stops_every_call_that_utc_day() {
    let f = fix("videos_quota_start");
    f.edit(|v| v["quota"] = 0.into());
    let r = f.run(T0);
    r.expect(4);
    assert!(
        r.stderr.contains(&format!("channel {KN}")) && r.stderr.contains("quotaExceeded"),
        "{}",
        r.shown
    );
    assert_eq!(f.api_requests().len(), 1);
    let q = quota(&f, "2026-11-30");
    assert_eq!(q["spent"], 1);
    assert!(
        q["exhausted"]["why"]
            .as_str()
            .unwrap()
            .contains("quotaExceeded"),
        "{q}"
    );
    // Later that day nothing is asked at all (and a person was told already: exit 3).
    f.edit(|v| v["quota"] = Value::Null);
    let r = f.run("2026-11-30T07:05:00Z");
    r.expect(3);
    assert!(r.stderr.contains("exhausted earlier today"), "{}", r.shown);
    assert_eq!(
        f.api_requests().len(),
        1,
        "no call after the quota was spent"
    );
    // The next UTC day asks again.
    f.run("2026-12-01T00:05:00Z").expect(0);
    assert_eq!(f.api_requests().len(), 5);
    assert_eq!(f.ids().len(), 5);
}

#[test]
fn a_quota_exhausted_mid_run_keeps_what_came_and_asks_nothing_more() {
    let f = fix("videos_quota_mid");
    // A third channel after the one the quota runs out on: it must not be asked.
    f.edit(|v| {
        v["quota"] = 3.into();
        v["channels"].as_array_mut().unwrap().push(serde_json::json!({
            "id": "UCthirdTestChannel000003", "title": "Third", "uploads": "UUthirdTestChannel000003",
            "videos": [{"id": "thVideo0001", "published": "2026-11-30T01:00:00Z", "title": "Third video"}]
        }));
    });
    f.w.append(
        "channels.csv",
        "UCthirdTestChannel000003,Third Test Channel,en",
    );
    let r = f.run(T0);
    r.expect(4);
    assert!(
        r.stderr.contains(&format!("channel {EN}")) && r.stderr.contains("quota is exhausted"),
        "{}",
        r.shown
    );
    let reqs = f.api_requests();
    assert_eq!(
        reqs.len(),
        4,
        "the fourth call was refused, and no fifth made"
    );
    assert_eq!(reqs[3].status, 403);
    assert_eq!(f.ids(), ["knVideo0001", "knVideo0002", "knVideo0003"]);
    assert_eq!(quota(&f, "2026-11-30")["spent"], 4);
    let calls = f.w.jsonl("2026-11-30/06/videos-calls.jsonl");
    let third = calls.last().unwrap();
    assert_eq!(third["channel"], "UCthirdTestChannel000003");
    assert_eq!(third["outcome"], "skipped");
}

#[test]
fn the_budget_is_never_exceeded_and_calls_stop_before_it() {
    let f = fix("videos_budget");
    let r = f.run_with(T0, Some(KEY), &["--quota-budget", "3"]);
    r.expect(3);
    assert!(
        r.stderr.contains("1 not asked")
            && r.stderr
                .contains("quota 3 of 3 units spent today (2026-11-30)"),
        "{}",
        r.shown
    );
    assert!(
        r.stderr.contains("budget of 3 units is spent"),
        "{}",
        r.shown
    );
    assert_eq!(f.api_requests().len(), 3);
    let r = f.run_with("2026-11-30T07:05:00Z", Some(KEY), &["--quota-budget", "3"]);
    r.expect(3);
    assert_eq!(f.api_requests().len(), 3, "the day's budget was spent");
    assert_eq!(quota(&f, "2026-11-30")["spent"], 3);
    // The next day the English channel's uploads playlist is known: two calls a run.
    for now in ["2026-12-01T00:05:00Z", "2026-12-01T01:05:00Z"] {
        f.run_with(now, Some(KEY), &["--quota-budget", "3"]);
    }
    let reqs = f.api_requests();
    assert_eq!(
        reqs.len(),
        6,
        "3 on the first day, 3 on the second: {reqs:?}"
    );
    assert_eq!(quota(&f, "2026-12-01")["spent"], 3);
    assert_eq!(calls_to(&reqs, "channels", EN).len(), 1);
}

#[test]
fn a_removed_channel_is_one_line_exit_3_and_its_videos_go_at_once() {
    let f = fix("videos_removed");
    f.run(T0).expect(0);
    f.edit(|v| Fix::set_channel(v, KN, |c| c["removed"] = true.into()));
    let r = f.run("2026-11-30T07:05:00Z");
    r.expect(3);
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("removed from YouTube"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", r.shown);
    assert!(
        lines[0].contains(KN)
            && lines[0].contains("channels.csv:3")
            && lines[0].contains("playlistNotFound"),
        "{}",
        lines[0]
    );
    assert_eq!(f.ids(), ["enVideo0001", "enVideo0002"]);
    // Its uploads playlist is asked again, and channels.list knows no such channel.
    let r = f.run("2026-11-30T08:05:00Z");
    r.expect(3);
    assert!(r.stderr.contains("knows no such channel"), "{}", r.shown);
    let reqs = f.api_requests();
    assert_eq!(calls_to(&reqs, "channels", KN).len(), 2);
    f.publish("2026-11-30T08:05:00Z");
    assert!(!f.page("kn").contains("ಎರಡನೆಯ ವಿಡಿಯೊ"));
    assert!(f.page("kn").contains("First English video"));
}

#[test]
fn no_key_for_a_listed_channel_is_an_error_before_anything_is_asked() {
    let f = fix("videos_no_key");
    let r = f.run_with(T0, None, &[]);
    r.expect(1);
    assert!(
        r.stderr.contains("no YouTube API key is given") && r.stderr.contains("HUDUKU_YOUTUBE_KEY"),
        "{}",
        r.shown
    );
    assert_eq!(f.api_requests().len(), 0);
    // With no channel listed, no key is needed and nothing is asked.
    std::fs::write(
        f.w.pipeline.join("channels.csv"),
        "# none\nchannel_id,name,lang\n",
    )
    .unwrap();
    let r = f.run_with(T0, None, &[]);
    r.expect(0);
    assert!(r.stderr.contains("nothing asked"), "{}", r.shown);
    assert_eq!(f.api_requests().len(), 0);
    // A bad line in the list names the file and the line.
    std::fs::write(
        f.w.pipeline.join("channels.csv"),
        "channel_id,name,lang\nUCkannadaTestChannel0001,ಪರೀಕ್ಷಾ ವಾಹಿನಿ,kn\nUCnotone,X,en\n",
    )
    .unwrap();
    let r = f.run(T0);
    r.expect(1);
    assert!(
        r.stderr.contains("channels.csv:3: channel_id \"UCnotone\""),
        "{}",
        r.shown
    );
    assert_eq!(f.api_requests().len(), 0);
}

#[test]
fn a_key_file_others_can_read_or_inside_the_repository_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let f = fix("videos_key_file");
    let outside = std::env::temp_dir().join(format!("huduku-videos-key-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let write_key = |path: &Path, mode: u32| {
        std::fs::write(path, format!("{KEY}\n")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let open = outside.join("open.key");
    write_key(&open, 0o644);
    let r = f.run_with(T0, None, &["--key-file", open.to_str().unwrap()]);
    r.expect(1);
    assert!(
        r.stderr
            .contains("can be read or written by others (mode 0644)")
            && r.stderr.contains("chmod 600"),
        "{}",
        r.shown
    );
    let in_repo = f.w.dir.join("youtube.key");
    write_key(&in_repo, 0o600);
    let r = f.run_with(T0, None, &["--key-file", in_repo.to_str().unwrap()]);
    r.expect(1);
    assert!(
        r.stderr.contains("inside a repository or checkout"),
        "{}",
        r.shown
    );
    let in_data = f.w.data.join("youtube.key");
    write_key(&in_data, 0o600);
    let r = f.run_with(T0, None, &["--key-file", in_data.to_str().unwrap()]);
    r.expect(1);
    assert!(
        r.stderr.contains("inside the data directory"),
        "{}",
        r.shown
    );
    std::fs::remove_file(&in_data).unwrap();
    let private = outside.join("private.key");
    write_key(&private, 0o600);
    let r = f.run_with(T0, Some(KEY), &["--key-file", private.to_str().unwrap()]);
    r.expect(1);
    assert!(r.stderr.contains("given twice"), "{}", r.shown);
    assert_eq!(
        f.api_requests().len(),
        0,
        "nothing asked with a key refused here"
    );
    assert!(!r.stderr.contains(KEY));
    // The owner's own file outside the repository is used.
    f.run_with(T0, None, &["--key-file", private.to_str().unwrap()])
        .expect(0);
    assert_eq!(f.ids().len(), 5);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn the_key_is_in_no_kept_file_and_in_no_stderr() {
    let f = fix("videos_key_hidden");
    let mut stderr = String::new();
    let wrong = "AIzaAnotherKey-999999999_zyxwvutsrqponmlk";
    for (now, key, extra) in [
        (T0, KEY, vec![]),
        ("2026-11-30T07:05:00Z", KEY, vec![]),
        ("2026-11-30T08:05:00Z", wrong, vec![]),
        // An API that cannot be reached: the transport's errors carry no key either.
        (
            "2026-11-30T09:05:00Z",
            KEY,
            vec!["--api-base", "http://127.0.0.1:1/youtube/v3/"],
        ),
    ] {
        let out = f.command(now, Some(key), &extra).output().unwrap();
        stderr.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    f.publish("2026-11-30T09:05:00Z");
    assert!(stderr.contains("Connection refused"), "{stderr}");
    for k in [KEY, wrong] {
        assert!(!stderr.contains(k), "the key is in stderr:\n{stderr}");
        assert_eq!(
            files_holding(&f.w.data, k),
            Vec::<PathBuf>::new(),
            "files holding the key"
        );
        assert!(!std::fs::read_to_string(&f.web().log).unwrap().contains(k));
    }
}

#[test]
fn nothing_from_the_api_is_kept_29_days_and_the_page_never_shows_it() {
    let f = fix("videos_thirty_days");
    f.run(T0).expect(0);
    f.publish(T0);
    assert!(f.page("kn").contains("ಎರಡನೆಯ ವಿಡಿಯೊ"));
    // The API is gone: nothing can be refreshed.
    let mut f = f;
    f.web = None;
    // 28 days on, what was had is still kept and shown.
    let r = f.run("2026-12-28T06:05:00Z");
    r.expect(3);
    assert_eq!(f.ids().len(), 5, "{}", r.shown);
    // 29 days on: the page does not show it even before fetch-videos runs...
    f.publish("2026-12-29T06:05:00Z");
    assert!(!f.page("kn").contains("ಎರಡನೆಯ ವಿಡಿಯೊ"));
    assert!(f.page("kn").contains("ಇನ್ನೂ ವಿಡಿಯೊಗಳಿಲ್ಲ."));
    assert!(f.page("en").contains("No videos yet."));
    // ...and the next run deletes it, videos, uploads playlists and ETags alike.
    let r = f.run_with("2026-12-29T06:05:00Z", None, &[]);
    r.expect(1);
    assert!(
        f.videos().is_empty(),
        "deleted even by a run that then fails: {}",
        r.shown
    );
    f.publish("2026-12-29T06:05:00Z");
    for id in VIDEO_IDS {
        assert_eq!(files_holding(&f.w.data, id), Vec::<PathBuf>::new(), "{id}");
    }
    for from_api in [
        "UUkannadaTestChannel0001",
        "UUenglishTestChannel0002",
        "etag",
    ] {
        assert_eq!(
            files_holding(&f.w.data, from_api),
            Vec::<PathBuf>::new(),
            "{from_api}"
        );
    }

    // A channel that stays reachable and unchanged is refreshed: 31 days on, everything kept
    // came from the API that run, the uploads playlist asked again after 29 days.
    let g = fix("videos_thirty_days_refreshed");
    g.run(T0).expect(0);
    let later = "2026-12-31T06:05:00Z";
    g.run(later).expect(0);
    g.publish(later);
    assert_eq!(g.ids().len(), 5);
    assert!(g.videos().iter().all(|v| v["fetched"] == later));
    let state = g.w.read("videos-state.json");
    assert!(!state.contains(T0) && state.contains(later), "{state}");
    let reqs = g.api_requests();
    assert_eq!(calls_to(&reqs, "channels", KN).len(), 2);
    let items = calls_to(&reqs, "playlistItems", "UUkannadaTestChannel0001");
    assert_eq!(items[1].if_none_match, None, "a full answer, not a 304");
    assert!(g.page("kn").contains("ಎರಡನೆಯ ವಿಡಿಯೊ"));
    // Nothing kept holds a time from the first run but its call log and quota, which
    // hold no video data.
    let holding: Vec<PathBuf> = files_holding(&g.w.data, T0);
    assert_eq!(holding, [PathBuf::from("2026-11-30/06/videos-calls.jsonl")]);
    let log = g.w.read("2026-11-30/06/videos-calls.jsonl");
    for id in VIDEO_IDS {
        assert!(!log.contains(id));
    }
}

#[test]
fn the_video_pages_link_plainly_to_youtube_and_carry_its_terms() {
    let f = fix("videos_pages");
    f.publish(T0);
    assert!(f.page("en").contains("No videos yet."));
    f.run(T0).expect(0);
    f.publish(T0);
    for lang in ["kn", "en"] {
        let page = f.page(lang);
        let doc = scraper::Html::parse_document(&page);
        let sel = |s: &str| scraper::Selector::parse(s).unwrap();
        assert_eq!(
            doc.select(&sel("iframe, img, script, embed, object, video, audio, link[rel=stylesheet], [src], [srcset]")).count(),
            0,
            "{lang}: nothing the browser would fetch"
        );
        let to_youtube: Vec<&str> = doc
            .select(&sel("a[href]"))
            .filter_map(|a| a.value().attr("href"))
            .filter(|h| h.contains("youtube.com/watch"))
            .collect();
        assert_eq!(to_youtube.len(), 5, "{lang}");
        // Following one tells YouTube nothing of the page it came from.
        for a in doc.select(&sel("a[href*=\"youtube.com/watch\"]")) {
            assert_eq!(a.value().attr("rel"), Some("noreferrer"), "{lang}");
        }
        assert!(to_youtube.contains(&"https://www.youtube.com/watch?v=knVideo0001"));
        assert!(!page.contains("ytimg") && !page.contains("/embed/"));
        // The title escaped, in a bdi, with its language.
        assert!(
            page.contains(r#"<a class="h" href="https://www.youtube.com/watch?v=knVideo0001" rel="noreferrer" lang="kn"><bdi>ಮೊದಲ &lt;b&gt;ವಿಡಿಯೊ&lt;/b&gt; &amp; &quot;ಉಲ್ಲೇಖ&quot;</bdi></a>"#)
                || page.contains(r#"<a class="h" href="https://www.youtube.com/watch?v=knVideo0001" rel="noreferrer" lang="kn"><bdi>ಮೊದಲ &lt;b&gt;ವಿಡಿಯೊ&lt;/b&gt; &amp; "ಉಲ್ಲೇಖ"</bdi></a>"#),
            "{page}"
        );
        assert!(page.contains("<bdi lang=\"kn\">ಪರೀಕ್ಷಾ ವಾಹಿನಿ</bdi>"));
        assert!(page.contains("<time datetime=\"2026-11-30T05:00:00Z\">"));
        assert!(page.contains("https://www.youtube.com/t/terms"), "{lang}");
        assert!(
            page.contains("https://policies.google.com/privacy"),
            "{lang}"
        );
        assert!(page.contains("YouTube API Services"), "{lang}");
        assert!(
            page.contains("YouTube Terms of Service") && page.contains("Google Privacy Policy")
        );
    }
    let kn = f.page("kn");
    assert!(kn.contains("30 ನವೆಂಬರ್ 2026, 10:30 IST"), "the site's zone");
    assert!(kn.contains("<h1>ವಿಡಿಯೊಗಳು</h1>"));
    assert!(kn.contains("ಸೇವಾ ನಿಯಮಗಳು"));
    assert!(f.page("en").contains("30 Nov 2026, 10:30 IST"));
    // Every page's nav leads to the video page.
    assert!(
        f.w.read("site/kn/index.html")
            .contains("href=\"../kn/videos.html\">ವಿಡಿಯೊಗಳು</a>")
    );
    assert!(
        f.w.read("site/en/fetching.html")
            .contains("href=\"../en/videos.html\">Videos</a>")
    );
    // A takedown reaches a video too.
    f.w.append(
        "takedowns.csv",
        "https://www.youtube.com/watch?v=enVideo0002,2026-11-30,asked by the creator",
    );
    f.publish(T0);
    assert!(!f.page("en").contains("Second English video"));
    assert!(f.page("en").contains("First English video"));
}

#[test]
fn two_runs_with_the_same_inputs_write_the_same_bytes() {
    let trees: Vec<Vec<(PathBuf, Vec<u8>)>> = ["videos_same_bytes_a", "videos_same_bytes_b"]
        .iter()
        .map(|name| {
            let f = fix(name);
            f.run(T0).expect(0);
            f.run("2026-11-30T07:05:00Z").expect(0);
            f.publish("2026-11-30T07:05:00Z");
            files(&f.w.data)
                .into_iter()
                .filter(|(p, _)| p != Path::new(".stage.lock"))
                .collect()
        })
        .collect();
    let names = |t: &[(PathBuf, Vec<u8>)]| t.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&trees[0]), names(&trees[1]));
    for ((p, a), (_, b)) in trees[0].iter().zip(&trees[1]) {
        assert!(a == b, "{} differs", p.display());
    }
    assert!(names(&trees[0]).contains(&PathBuf::from("videos.jsonl")));
    assert!(names(&trees[0]).contains(&PathBuf::from("2026-11-30/videos-quota.json")));
}

/// fetch-videos killed (SIGKILL) at points spread over its run, sixteen times, then run
/// cleanly: no call the fake API answered went uncounted in the day's quota at any point,
/// every video is listed and on the page, and no temporary file is left behind.
#[test]
fn killed_at_any_point_it_never_undercounts_the_quota_and_a_clean_run_lists_every_video() {
    let f = fix("videos_killed");
    let mut seed: u64 = 0x5eed_0001;
    let mut landed = 0;
    for _ in 0..16 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let delay = Duration::from_millis((seed >> 33) % 60);
        let mut c = f.command(T0, Some(KEY), &[]);
        c.stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = c.spawn().unwrap();
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            landed += 1;
        }
        child.wait().unwrap();
        // Every call that reached the API is counted (a crash may only over-count).
        let answered = f.api_requests().len() as u64;
        let spent = std::fs::read_to_string(f.w.data.join("2026-11-30/videos-quota.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["spent"].as_u64())
            .unwrap_or(0);
        assert!(
            spent >= answered,
            "{answered} calls answered, {spent} counted"
        );
    }
    assert!(landed >= 6, "only {landed} kills landed mid-run");
    f.run(T0).expect(0);
    assert_eq!(
        f.ids(),
        [
            "enVideo0001",
            "enVideo0002",
            "knVideo0001",
            "knVideo0002",
            "knVideo0003"
        ]
    );
    f.publish(T0);
    for id in f.ids() {
        assert!(
            f.page("en").contains(&format!("watch?v={id}")),
            "{id} not on the page"
        );
    }
    let left: Vec<PathBuf> = files(&f.w.data)
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| p.to_string_lossy().contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
