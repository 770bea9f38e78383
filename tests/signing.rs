//! Signed requests (Web Bot Auth), proven from the loopback web's own check of every
//! request it received: verified with the published key set by an independent parser, at
//! the run's clock, never expired on the publisher's clock, each nonce new; and no request
//! at all without a usable key.
//!
//! Every other test that runs the stages checks the same from its web's log when the web
//! stops (`support::web::Web`'s drop: every web log of the suite is walked).

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::pipeline::{Workdir, describe, repo, signing_key};
use support::web::{LoggedRequest, Web, assert_signed};

const NOW: &str = "2026-11-30T06:05:00Z";

fn demo(name: &str, web_args: &[&str]) -> (Workdir, Web) {
    let w = Workdir::new(name);
    let web = Web::start_with(&repo().join("tests/web/demo"), &w.dir, web_args);
    w.sources_from(&repo().join("pipeline/demo/sources.csv"), &web);
    (w, web)
}

fn secs(t: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(t).unwrap().timestamp()
}

fn at(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[test]
fn every_request_is_signed_at_the_runs_clock_and_verified_by_the_publishers_clock() {
    // The web's clock reads NOW when it starts, as a publisher's would for a run at NOW.
    let (w, web) = demo("signed_in_time", &["--clock", NOW, "--latency-ms", "1"]);
    let started = std::time::Instant::now();
    w.stage("robots-refresh", NOW);
    w.stage("fetch-feeds", NOW);
    let took = started.elapsed().as_secs() as i64;
    let reqs = web.requests();
    assert!(reqs.len() >= 6, "{} requests", reqs.len());
    assert_signed(&reqs);
    for r in &reqs {
        let (c, e) = (r.signature.created.unwrap(), r.signature.expires.unwrap());
        assert!(
            c >= secs(NOW) && c <= secs(NOW) + took + 1,
            "{} {}: created {c}, the run's clock ran from {} for {took} s",
            r.method,
            r.path,
            secs(NOW)
        );
        assert_eq!(e - c, huduku::polite::sign::LIFETIME);
        assert_eq!(r.signature.agent_form.as_deref(), Some("dictionary"));
        for h in ["signature", "signature-input", "signature-agent"] {
            assert!(
                r.headers.contains_key(h),
                "{} {} lacks {h}",
                r.method,
                r.path
            );
        }
    }
}

/// A signature's lifetime is five minutes on the publisher's clock: a verifier whose clock
/// is just inside it accepts every request, one just past it sees every one expired.
#[test]
fn a_signature_expires_five_minutes_after_it_was_made_by_the_publishers_clock() {
    let lifetime = huduku::polite::sign::LIFETIME;
    let inside = at(secs(NOW) + lifetime - 20);
    let (w, web) = demo("signed_inside", &["--clock", &inside, "--latency-ms", "1"]);
    w.stage("robots-refresh", NOW);
    assert_signed(&web.requests());

    let past = at(secs(NOW) + lifetime + 1);
    let (w, mut web) = demo("signed_expired", &["--clock", &past, "--latency-ms", "1"]);
    web.only_hudukubot = false;
    w.stage("robots-refresh", NOW);
    let reqs = web.requests();
    assert!(reqs.len() >= 3);
    for r in &reqs {
        assert_eq!(r.signature.verdict, "expired", "{r:?}");
    }
}

/// The command of a stage with no signing key in its environment.
fn without_key(w: &Workdir, bin: &str) -> Command {
    let mut c = w.command(bin, NOW);
    c.env_remove(huduku::polite::sign::KEY_ENV);
    c
}

fn asked(web: &Web) -> Vec<LoggedRequest> {
    std::thread::sleep(std::time::Duration::from_millis(200));
    web.requests()
}

#[test]
fn no_key_no_requests_each_asking_stage_says_so_before_anything_is_asked() {
    let (w, web) = demo("signed_no_key", &[]);
    for bin in ["robots-refresh", "fetch-feeds", "recheck-headers"] {
        let mut c = without_key(&w, bin);
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}", describe(&c, &out));
        assert!(
            err.contains("no signing key")
                && err.contains("HUDUKU_SIGNING_KEY")
                && err.contains("signing-key new"),
            "{bin}: {err}"
        );
    }
    assert!(asked(&web).is_empty(), "asked without a key");
}

#[test]
fn a_key_others_can_read_or_one_inside_a_repository_is_refused_before_anything_is_asked() {
    use std::os::unix::fs::PermissionsExt;
    let (w, web) = demo("signed_open_key", &[]);
    let open = std::env::temp_dir()
        .join("huduku-test-keys")
        .join(format!("{}-open.jwk", std::process::id()));
    std::fs::copy(signing_key(), &open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o640)).unwrap();
    let mut c = without_key(&w, "fetch-feeds");
    c.env(huduku::polite::sign::KEY_ENV, &open);
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&c, &out));
    assert!(
        err.contains("can be read by others") && err.contains("chmod 600"),
        "{err}"
    );
    let _ = std::fs::remove_file(&open);

    // In the repository (a key one `git add` from public): refused too.
    let inside = repo().join("target/tmp/huduku-tests/signed_open_key/key.jwk");
    std::fs::copy(signing_key(), &inside).unwrap();
    std::fs::set_permissions(&inside, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut c = without_key(&w, "robots-refresh");
    c.env(huduku::polite::sign::KEY_ENV, &inside);
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&c, &out));
    assert!(err.contains("inside the git working tree"), "{err}");
    assert!(asked(&web).is_empty(), "asked with an unusable key");
}

#[test]
fn each_signature_agent_form_is_a_setting_and_verifies() {
    for (form, shape, agent) in [
        (
            "directory",
            "dictionary",
            "https://huduku.org/.well-known/http-message-signatures-directory",
        ),
        ("origin", "dictionary", "https://huduku.org"),
        ("string", "string", "https://huduku.org"),
    ] {
        let (w, mut web) = demo(&format!("signed_form_{form}"), &["--latency-ms", "1"]);
        web.only_hudukubot = false;
        let mut c = w.command("robots-refresh", NOW);
        c.env(huduku::polite::sign::FORM_ENV, form);
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", describe(&c, &out));
        let reqs = web.requests();
        assert!(reqs.len() >= 3);
        for r in &reqs {
            let s = &r.signature;
            assert_eq!(s.verdict, "verified", "{form}: {r:?}");
            assert_eq!(s.agent_form.as_deref(), Some(shape), "{form}");
            assert_eq!(s.agent.as_deref(), Some(agent), "{form}");
            assert!(!s.nonce_seen_before);
        }
        let sent = &reqs[0].headers["signature-agent"];
        match form {
            "string" => assert_eq!(sent, "\"https://huduku.org\""),
            _ => assert_eq!(sent, &format!("sig1=\"{agent}\"")),
        }
    }
    let (w, _web) = demo("signed_form_bad", &[]);
    let mut c = w.command("robots-refresh", NOW);
    c.env(huduku::polite::sign::FORM_ENV, "dict");
    let out = c.output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("directory"));
}

#[test]
fn signing_key_makes_shows_and_publishes_a_key_never_its_private_half() {
    use std::os::unix::fs::PermissionsExt;
    let bin = env!("CARGO_BIN_EXE_signing-key");
    let dir: PathBuf = std::env::temp_dir()
        .join("huduku-test-keys")
        .join(format!("{}-cli", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("k.jwk");
    let out = Command::new(bin).arg("new").arg(&file).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let key = huduku::polite::sign::Key::load(&file).unwrap();
    assert!(printed.starts_with(&format!("keyid {}\n", key.keyid)));
    let private: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let d = private["d"].as_str().unwrap();
    assert!(!printed.contains(d));
    let again = Command::new(bin).arg("new").arg(&file).output().unwrap();
    assert!(
        !again.status.success(),
        "an existing key is never overwritten"
    );
    let show = Command::new(bin).arg("show").arg(&file).output().unwrap();
    assert_eq!(String::from_utf8(show.stdout).unwrap(), printed);
    let jwks = Command::new(bin)
        .arg("jwks")
        .arg(&file)
        .arg(signing_key())
        .output()
        .unwrap();
    let set: serde_json::Value = serde_json::from_slice(&jwks.stdout).unwrap();
    assert_eq!(set["keys"].as_array().unwrap().len(), 2);
    assert_eq!(set["keys"][0]["kid"].as_str(), Some(key.keyid.as_str()));
    assert!(!String::from_utf8_lossy(&jwks.stdout).contains(d));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `_headers` block publish wrote for the key directory: header name → value.
fn served_headers(site: &std::path::Path) -> std::collections::BTreeMap<String, String> {
    let text = std::fs::read_to_string(site.join("_headers")).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(
        lines.next(),
        Some("/.well-known/http-message-signatures-directory")
    );
    lines
        .map(|l| {
            let (k, v) = l.trim().split_once(": ").unwrap();
            (k.to_ascii_lowercase(), v.to_string())
        })
        .collect()
}

/// The key directory is published with the response signature the drafts ask for, and it
/// verifies: checked here with `sfv` and `ed25519-dalek` directly, not publish's code.
#[test]
fn the_key_directory_is_published_signed_and_verifies() {
    use base64::Engine;
    use sfv::{BareItem, Dictionary, FieldType, List, ListEntry, Parser};
    use sha2::Digest;
    let w = Workdir::new("signed_directory");
    std::fs::write(
        &w.sources,
        "outlet,lang,kind,section,url,selector,status\nOne,en,feed,top,http://127.0.0.21:9/rss.xml,,test\n",
    )
    .unwrap();
    w.stage("publish", NOW);
    let site = w.data.join("site");
    let body = std::fs::read(site.join(".well-known/http-message-signatures-directory")).unwrap();
    let set: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let test_key = huduku::polite::sign::Key::load(signing_key()).unwrap();
    assert_eq!(
        set["keys"][0]["kid"].as_str(),
        Some(test_key.keyid.as_str())
    );
    assert_eq!(set["keys"].as_array().unwrap().len(), 1);
    assert!(set["keys"][0].get("d").is_none(), "never the private half");
    let h = served_headers(&site);
    assert_eq!(
        h["content-type"],
        "application/http-message-signatures-directory+json"
    );
    let digest = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(&body));
    assert_eq!(h["content-digest"], format!("sha-256=:{digest}:"));
    let inputs: Dictionary = Parser::new(&h["signature-input"]).parse().unwrap();
    let sigs: Dictionary = Parser::new(&h["signature"]).parse().unwrap();
    let (label, ListEntry::InnerList(params)) = inputs.iter().next().unwrap() else {
        panic!("no inner list")
    };
    assert!(
        matches!(params.params.get("tag"), Some(BareItem::String(t)) if t.as_str() == "http-message-signatures-directory")
    );
    let created = match params.params.get("created") {
        Some(BareItem::Integer(i)) => i64::from(*i),
        _ => panic!("no created"),
    };
    let expires = match params.params.get("expires") {
        Some(BareItem::Integer(i)) => i64::from(*i),
        _ => panic!("no expires"),
    };
    // Renewed with the day: made at the start of NOW's UTC day, good past the next renewal.
    assert_eq!(created, secs("2026-11-30T00:00:00Z"));
    assert!(expires > secs(NOW) + 86400);
    let covered: Vec<String> = params
        .items
        .iter()
        .map(|i| {
            List::from_iter([ListEntry::Item(i.clone())])
                .serialize()
                .unwrap()
        })
        .collect();
    assert_eq!(covered, ["\"@authority\";req", "\"content-digest\""]);
    let signature_params = List::from_iter([ListEntry::InnerList(params.clone())])
        .serialize()
        .unwrap();
    let base = format!(
        "\"@authority\";req: huduku.org\n\"content-digest\": {}\n\"@signature-params\": {signature_params}",
        h["content-digest"]
    );
    let Some(ListEntry::Item(sfv::Item {
        bare_item: BareItem::ByteSequence(sig),
        ..
    })) = sigs.get(label)
    else {
        panic!("no signature {label:?}")
    };
    let public = ed25519_dalek::VerifyingKey::from_bytes(&test_key.public()).unwrap();
    let sig = ed25519_dalek::Signature::from_slice(sig).unwrap();
    public
        .verify_strict(base.as_bytes(), &sig)
        .expect("the directory's signature verifies");
    // The same, for nginx, beside the site (never served).
    let nginx =
        std::fs::read_to_string(w.data.join("server/nginx-signatures-directory.conf")).unwrap();
    assert!(nginx.contains("location = /.well-known/http-message-signatures-directory"));
    assert!(nginx.contains(&format!(
        "add_header Signature '{}' always;",
        h["signature"]
    )));
    // A publish without the key keeps the directory it published; with a second key, both
    // are listed (the one in use first) and each signs.
    let mut c = w.command("publish", NOW);
    c.env_remove(huduku::polite::sign::KEY_ENV);
    assert!(c.output().unwrap().status.success());
    assert_eq!(
        std::fs::read(site.join(".well-known/http-message-signatures-directory")).unwrap(),
        body
    );
    let next = std::env::temp_dir()
        .join("huduku-test-keys")
        .join(format!("{}-next.jwk", std::process::id()));
    let _ = std::fs::remove_file(&next);
    let next_key = huduku::polite::sign::Key::generate(&next).unwrap();
    let mut c = w.command("publish", NOW);
    c.env("HUDUKU_ALSO_SIGNING_KEY", &next);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", describe(&c, &out));
    let set: serde_json::Value = serde_json::from_slice(
        &std::fs::read(site.join(".well-known/http-message-signatures-directory")).unwrap(),
    )
    .unwrap();
    let kids: Vec<&str> = set["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kid"].as_str().unwrap())
        .collect();
    assert_eq!(kids, [test_key.keyid.as_str(), next_key.keyid.as_str()]);
    let inputs: Dictionary = Parser::new(&served_headers(&site)["signature-input"])
        .parse()
        .unwrap();
    assert_eq!(inputs.len(), 2, "each key signs the directory");
    let _ = std::fs::remove_file(&next);
    // The publishers page names the keys in use.
    let page = std::fs::read_to_string(site.join("en/publishers.html")).unwrap();
    assert!(page.contains(&test_key.keyid) && page.contains(&next_key.keyid));
}
