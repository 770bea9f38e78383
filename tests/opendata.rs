//! The open data described for machines: `publish` writes `site/data/datapackage.json` (a
//! Frictionless Data Package, v2), the Table Schema the days' files share and `index.csv` of
//! every day published, older days too; the real Frictionless validator accepts them, and
//! finds a value that breaks the schema when one is slipped into a copy. The validator
//! lives in a throw-away venv that `scripts/frictionless-venv.sh` makes (`make test` and
//! `.ci/run` run it first); without it these tests fail, saying so.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use huduku::publish::export;
use huduku::records::{Classified, DateSource, Evidence};
use serde_json::Value;
use support::pipeline::{Workdir, describe, repo};

const DAY: &str = "2026-11-30";
const NOW: &str = "2026-11-30T06:05:00Z";
/// A day 60 days before NOW: beyond the pages' window, so its open data is the archive's.
const OLD: &str = "2026-10-01";

const SOURCES: &str = "outlet,lang,kind,section,url,selector,status\n\
ನಮ್ಮ ಪತ್ರಿಕೆ,kn,feed,top,https://kn.example/rss.xml,,checked\n\
Deccan Daily Chronicle,en,feed,top,https://deccan.example/atom.xml,,checked\n\
Hill Herald,en,feed,top,https://hill.example/feed.xml,,checked\n";

fn rec(outlet: &str, lang: &str, headline: &str, link: &str, at: &str, topic: &str) -> Classified {
    let site = link.split('/').take(3).collect::<Vec<_>>().join("/");
    Classified {
        id: huduku::records::item_id(link),
        outlet: outlet.into(),
        source: format!("{site}/feed.xml"),
        lang: lang.into(),
        headline: headline.into(),
        link: link.into(),
        published: huduku::time::parse_now(at).unwrap(),
        date_source: DateSource::Publisher,
        first_seen: huduku::time::parse_now(at).unwrap(),
        category: vec![],
        topic: topic.into(),
        evidence: Evidence::Headline,
        score: None,
        model: None,
        opinion: false,
    }
}

/// Two days of headlines: today's (Kannada and English, an opinion, a time first seen, a
/// cell a spreadsheet would run, a topic from before the taxonomy) and an older day's.
fn workdir(name: &str) -> Workdir {
    let w = Workdir::new(name);
    std::fs::write(&w.sources, SOURCES).unwrap();
    let mut today = vec![
        rec(
            "ನಮ್ಮ ಪತ್ರಿಕೆ",
            "kn",
            "ರಣಜಿ ಟ್ರೋಫಿ: ಕರ್ನಾಟಕಕ್ಕೆ ಜಯ",
            "https://kn.example/news/ranji.html",
            "2026-11-30T04:00:00Z",
            "sport",
        ),
        rec(
            "ನಮ್ಮ ಪತ್ರಿಕೆ",
            "kn",
            "ಕನ್ನಡ ಶಾಲೆಗಳನ್ನು ಉಳಿಸುವ ಹೊಣೆ ಯಾರದು?",
            "https://kn.example/news/shale.html",
            "2026-11-30T02:20:00Z",
            "education",
        ),
        rec(
            "Deccan Daily Chronicle",
            "en",
            "=HYPERLINK(\"https://evil.example\") \"Metro\", fares, and a comma",
            "https://deccan.example/news/pink-line.html",
            "2026-11-30T05:15:00Z",
            "local",
        ),
        rec(
            "Hill Herald",
            "en",
            "Coffee growers brace for a tricky harvest",
            "https://hill.example/news/coffee.html",
            "2026-11-30T01:00:00Z",
            "gossip",
        ),
    ];
    today[1].opinion = true;
    today[3].date_source = DateSource::FirstSeen;
    write_hour(&w, DAY, "05", &today);
    write_hour(
        &w,
        OLD,
        "04",
        &[
            rec(
                "Hill Herald",
                "en",
                "An old story that stays",
                "https://hill.example/news/old-stays.html",
                "2026-10-01T04:00:00Z",
                "local",
            ),
            rec(
                "Deccan Daily Chronicle",
                "en",
                "An old story taken down later",
                "https://deccan.example/news/old-gone.html",
                "2026-10-01T03:00:00Z",
                "politics",
            ),
        ],
    );
    w
}

fn write_hour(w: &Workdir, day: &str, hour: &str, records: &[Classified]) {
    let mut records = records.to_vec();
    records.sort_by(|a, b| a.link.cmp(&b.link));
    huduku::store::write_jsonl(
        &w.data.join(day).join(hour).join("classified.jsonl"),
        &records,
    )
    .unwrap();
}

/// The venv's `frictionless`; fails, naming the script that makes it, when it is missing.
fn frictionless() -> PathBuf {
    let venv = match std::env::var_os("FRICTIONLESS_VENV") {
        Some(v) => repo().join(v),
        None => Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .unwrap()
            .join("venv-frictionless"),
    };
    let exe = venv.join("bin/frictionless");
    assert!(
        exe.is_file(),
        "{} is missing: run scripts/frictionless-venv.sh first (`make test` and .ci/run do); \
         these tests check the open data with the real Frictionless validator",
        exe.display()
    );
    exe
}

/// `frictionless validate --json` of a package: its report.
fn validate(package: &Path) -> Value {
    let mut c = Command::new(frictionless());
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("LC_ALL", "C.UTF-8")
        .args(["validate", "--json"])
        .arg(package.file_name().unwrap())
        .current_dir(package.parent().unwrap());
    let out = c.output().expect("frictionless runs");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}):\n{}", describe(&c, &out)));
    // 0 for valid, 1 for invalid; anything else is the validator failing.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        describe(&c, &out)
    );
    assert_eq!(
        report["valid"].as_bool(),
        Some(out.status.success()),
        "{}",
        describe(&c, &out)
    );
    report
}

/// Every error of a report, as (type, field, message).
fn errors(report: &Value) -> Vec<(String, String, String)> {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let tasks = report["tasks"].as_array().cloned().unwrap_or_default();
    report["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(tasks.iter().flat_map(|t| t["errors"].as_array().unwrap()))
        .map(|e| (s(&e["type"]), s(&e["fieldName"]), s(&e["message"])))
        .collect()
}

fn data_dir(w: &Workdir) -> PathBuf {
    w.data.join("site").join(export::DIR)
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// SHA256SUMS as file name → SHA-256.
fn sums(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(dir.join("SHA256SUMS"))
        .unwrap()
        .lines()
        .map(|l| {
            let (sum, name) = l.split_once("  ").unwrap();
            (name.to_string(), sum.to_string())
        })
        .collect()
}

fn files_of(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn datapackage_passes_the_frictionless_validator_and_describes_every_file() {
    let w = workdir("opendata_valid");
    w.stage("publish", NOW);
    let dir = data_dir(&w);
    let report = validate(&dir.join(export::PACKAGE));
    assert_eq!(report["valid"], true, "{:#?}", errors(&report));

    let package = json(&dir.join(export::PACKAGE));
    assert_eq!(package["$schema"], export::PROFILE);
    assert_eq!(package["name"], "huduku-headlines");
    assert!(
        package["title"]
            .as_str()
            .is_some_and(|t| t.contains("Huduku"))
    );
    assert!(
        package["description"]
            .as_str()
            .is_some_and(|d| !d.is_empty())
    );
    assert_eq!(package["homepage"], "https://huduku.org/");
    assert_eq!(
        package["licenses"],
        serde_json::json!([{
            "name": "CC-BY-4.0",
            "path": "https://creativecommons.org/licenses/by/4.0/",
            "title": export::DEFAULT_LICENCE,
        }])
    );

    // One resource per file of data, older days' included, and the validator read each.
    let resources = package["resources"].as_array().unwrap();
    let names: Vec<&str> = resources
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "index.csv".to_string(),
            format!("headlines-{DAY}.csv"),
            format!("headlines-{DAY}.jsonl"),
            format!("headlines-{OLD}.csv"),
            format!("headlines-{OLD}.jsonl"),
        ]
    );
    let tasks = report["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), resources.len(), "{report:#}");
    let rows: BTreeMap<&str, u64> = tasks
        .iter()
        .map(|t| {
            (
                t["place"].as_str().unwrap(),
                t["stats"]["rows"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows[&*format!("headlines-{DAY}.csv")], 4, "{rows:?}");
    assert_eq!(rows[&*format!("headlines-{DAY}.jsonl")], 4, "{rows:?}");
    assert_eq!(rows[&*format!("headlines-{OLD}.csv")], 2, "{rows:?}");
    assert_eq!(rows["index.csv"], 2, "{rows:?}");
    let data_files: Vec<String> = files_of(&dir)
        .into_iter()
        .filter(|n| n.starts_with("headlines-") && !n.ends_with(".schema.json"))
        .collect();
    assert_eq!(data_files.len(), 4, "{data_files:?}");
    for f in &data_files {
        assert!(names.contains(&f.as_str()), "{f} is described");
    }

    // Each with its format, size and the SHA-256 SHA256SUMS has.
    let sums = sums(&dir);
    for r in resources {
        let path = r["path"].as_str().unwrap();
        let csv = path.ends_with(".csv");
        assert_eq!(r["name"], path);
        assert_eq!(r["type"], "table");
        assert_eq!(r["format"], if csv { "csv" } else { "jsonl" });
        assert_eq!(
            r["mediatype"],
            if csv { "text/csv" } else { "application/jsonl" }
        );
        assert_eq!(r["encoding"], "utf-8");
        assert_eq!(r["hash"], format!("sha256:{}", sums[path]), "{path}");
        assert_eq!(
            r["bytes"].as_u64(),
            Some(std::fs::metadata(dir.join(path)).unwrap().len()),
            "{path}"
        );
        if path != "index.csv" {
            assert_eq!(r["schema"], export::SCHEMA, "{path}");
        }
        if csv {
            assert_eq!(r["dialect"]["lineTerminator"], "\n");
        }
    }

    // The Table Schema has every column, typed, in the CSV's order, each described in the
    // README's words.
    let schema = json(&dir.join(export::SCHEMA));
    let fields = schema["fields"].as_array().unwrap();
    let header = std::fs::read_to_string(dir.join(format!("headlines-{DAY}.csv"))).unwrap();
    let header: Vec<&str> = header.lines().next().unwrap().split(',').collect();
    let field_names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(field_names, header);
    let readme = std::fs::read_to_string(dir.join("README.txt")).unwrap();
    for f in fields {
        let (name, what) = (
            f["name"].as_str().unwrap(),
            f["description"].as_str().unwrap(),
        );
        assert!(
            readme.contains(&format!("\n{name}\n    {what}\n")),
            "README says of {name} what the schema does ({what}):\n{readme}"
        );
        // Every column is filled in every row but `story`: a headline in no story has none.
        assert_eq!(f["constraints"]["required"], name != "story", "{name}");
    }
    let field = |n: &str| fields.iter().find(|f| f["name"] == n).unwrap();
    assert_eq!(field("published")["type"], "datetime");
    assert_eq!(field("published")["format"], "%Y-%m-%dT%H:%M:%SZ");
    assert_eq!(field("opinion")["type"], "boolean");
    assert_eq!(
        field("topic")["constraints"]["enum"],
        serde_json::json!(huduku::classify::TOPICS)
    );
    assert_eq!(
        field("lang")["constraints"]["enum"],
        serde_json::json!(["kn", "en"])
    );
    assert_eq!(
        field("published_from")["constraints"]["enum"],
        serde_json::json!(["publisher", "first-seen"])
    );
    assert_eq!(schema["primaryKey"], serde_json::json!(["link"]));

    // A topic the taxonomy does not know is `other`, as the pages file it.
    let jsonl = std::fs::read_to_string(dir.join(format!("headlines-{DAY}.jsonl"))).unwrap();
    let coffee: Value =
        serde_json::from_str(jsonl.lines().find(|l| l.contains("coffee")).unwrap()).unwrap();
    assert_eq!(coffee["topic"], "other");
    assert_eq!(coffee["published_from"], "first-seen");
}

/// A copy of the open data with `from` replaced by `to` in `file`, the package's hash and
/// size of that file made to match again (so only the value is wrong), validated.
fn validate_broken(w: &Workdir, case: &str, file: &str, from: &str, to: &str) -> Value {
    let copy = w.dir.join("broken").join(case);
    support::web::copy_dir(&data_dir(w), &copy);
    let path = copy.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} holds {from:?}:\n{text}");
    let text = text.replacen(from, to, 1);
    std::fs::write(&path, &text).unwrap();
    let mut package = json(&copy.join(export::PACKAGE));
    for r in package["resources"].as_array_mut().unwrap() {
        if r["path"] == file {
            r["hash"] = format!("sha256:{}", huduku::store::sha256_hex(text.as_bytes())).into();
            r["bytes"] = text.len().into();
        }
    }
    std::fs::write(
        copy.join(export::PACKAGE),
        serde_json::to_vec_pretty(&package).unwrap(),
    )
    .unwrap();
    validate(&copy.join(export::PACKAGE))
}

#[test]
fn the_validator_finds_a_value_that_breaks_the_schema_in_a_copy() {
    let w = workdir("opendata_broken");
    w.stage("publish", NOW);
    let csv = format!("headlines-{DAY}.csv");
    let jsonl = format!("headlines-{DAY}.jsonl");
    // The copy as made, with the hash and size re-made the same way: valid, so what the
    // cases below find is their own change.
    let same = validate_broken(&w, "untouched", &csv, ",false,", ",false,");
    assert_eq!(same["valid"], true, "{:#?}", errors(&same));

    let ranji = "https://kn.example/news/ranji.html";
    let shale = "https://kn.example/news/shale.html";
    for (case, file, from, to, kind, field) in [
        (
            "boolean",
            &csv,
            ",false,",
            ",maybe,",
            "type-error",
            "opinion",
        ),
        (
            "time-zone",
            &csv,
            "2026-11-30T04:00:00Z",
            "2026-11-30T09:30:00+05:30",
            "type-error",
            "published",
        ),
        (
            "topic",
            &csv,
            ",sport,",
            ",cricket,",
            "constraint-error",
            "topic",
        ),
        (
            "lang",
            &jsonl,
            "\"lang\":\"kn\"",
            "\"lang\":\"hi\"",
            "constraint-error",
            "lang",
        ),
        (
            "empty",
            &csv,
            "Hill Herald",
            "",
            "constraint-error",
            "outlet",
        ),
        (
            "link",
            &jsonl,
            ranji,
            "ftp://kn.example/x",
            "constraint-error",
            "link",
        ),
        ("key", &csv, ranji, shale, "primary-key", ""),
        (
            "count",
            &"index.csv".to_string(),
            ",4,",
            ",four,",
            "type-error",
            "headlines",
        ),
    ] {
        let report = validate_broken(&w, case, file, from, to);
        let found = errors(&report);
        assert_eq!(report["valid"], false, "{case}: {found:#?}");
        assert!(
            found.iter().any(|(t, f, _)| t == kind && f == field),
            "{case}: expected a {kind} in {field:?}, found {found:#?}"
        );
        assert!(
            !found
                .iter()
                .any(|(t, _, _)| t == "hash-count" || t == "byte-count"),
            "{case}: only the value is wrong: {found:#?}"
        );
    }

    // A file changed behind the package's back: its hash no longer matches.
    let copy = w.dir.join("broken/appended");
    support::web::copy_dir(&data_dir(&w), &copy);
    let mut bytes = std::fs::read(copy.join(&csv)).unwrap();
    bytes.extend_from_slice(
        b"Hill Herald,x,https://hill.example/y,2026-11-30T01:00:00Z,other,false,en,publisher\n",
    );
    std::fs::write(copy.join(&csv), bytes).unwrap();
    let report = validate(&copy.join(export::PACKAGE));
    assert_eq!(report["valid"], false);
    assert!(
        errors(&report).iter().any(|(t, _, _)| t == "hash-count"),
        "{:#?}",
        errors(&report)
    );
}

#[test]
fn a_licence_line_of_its_own_is_the_licences_title_and_still_valid() {
    let w = workdir("opendata_licence");
    let line = "CC0 1.0 for the compilation; headlines remain the outlets'";
    w.stage_with("publish", NOW, &["--licence", line]);
    let dir = data_dir(&w);
    let package = json(&dir.join(export::PACKAGE));
    assert_eq!(
        package["licenses"],
        serde_json::json!([{ "path": "README.txt", "title": line }])
    );
    assert!(
        std::fs::read_to_string(dir.join("README.txt"))
            .unwrap()
            .contains(&format!("Licence: {line}."))
    );
    let report = validate(&dir.join(export::PACKAGE));
    assert_eq!(report["valid"], true, "{:#?}", errors(&report));
}

/// `index.csv` as (day, headlines, csv, csv_bytes, csv_sha256, jsonl, jsonl_bytes,
/// jsonl_sha256) rows.
fn index_rows(dir: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(dir.join(export::INDEX)).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let names: Vec<&str> = export::INDEX_COLUMNS.iter().map(|c| c.name).collect();
    assert_eq!(header, names);
    r.records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn the_index_lists_every_day_published_older_days_too_and_follows_a_removal() {
    let w = workdir("opendata_index");
    w.stage("publish", NOW);
    let dir = data_dir(&w);
    let check_index = |dir: &Path, counts: [&str; 2]| {
        let sums = sums(dir);
        let rows = index_rows(dir);
        assert_eq!(rows.len(), 2, "{rows:?}");
        for (row, (day, count)) in rows.iter().zip([DAY, OLD].into_iter().zip(counts)) {
            let (csv, jsonl) = (
                format!("headlines-{day}.csv"),
                format!("headlines-{day}.jsonl"),
            );
            let size = |n: &str| std::fs::metadata(dir.join(n)).unwrap().len().to_string();
            assert_eq!(
                row,
                &[
                    day.to_string(),
                    count.to_string(),
                    csv.clone(),
                    size(&csv),
                    sums[&csv].clone(),
                    jsonl.clone(),
                    size(&jsonl),
                    sums[&jsonl].clone(),
                ]
            );
        }
        // Listed in SHA256SUMS, which `sha256sum -c` accepts.
        for f in [export::INDEX, export::PACKAGE, export::SCHEMA] {
            assert!(sums.contains_key(f), "{f} in SHA256SUMS");
        }
        let out = Command::new("sha256sum")
            .args(["-c", "--quiet", "SHA256SUMS"])
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    };
    check_index(&dir, ["4", "2"]);
    let readme = std::fs::read_to_string(dir.join("README.txt")).unwrap();
    for f in [
        "index.csv lists every day published",
        "datapackage.json describes every file",
    ] {
        assert!(readme.contains(f), "README: {f}\n{readme}");
    }
    for c in export::INDEX_COLUMNS {
        assert!(
            readme.contains(&format!("\n{}\n    {}\n", c.name, c.meaning)),
            "{readme}"
        );
    }

    // Published again with nothing changed: the same bytes, the old day not remade.
    let made = w.read(&format!("{OLD}/published-made.json"));
    let package = std::fs::read(dir.join(export::PACKAGE)).unwrap();
    let index = std::fs::read(dir.join(export::INDEX)).unwrap();
    let old_csv = dir.join(format!("headlines-{OLD}.csv"));
    let mtime = std::fs::metadata(&old_csv).unwrap().modified().unwrap();
    w.stage("publish", NOW);
    assert_eq!(std::fs::read(dir.join(export::PACKAGE)).unwrap(), package);
    assert_eq!(std::fs::read(dir.join(export::INDEX)).unwrap(), index);
    assert_eq!(w.read(&format!("{OLD}/published-made.json")), made);
    assert_eq!(
        std::fs::metadata(&old_csv).unwrap().modified().unwrap(),
        mtime
    );

    // A takedown of the old day's headline: its files are remade, and the index and the
    // package follow.
    w.append(
        "takedowns.csv",
        "https://deccan.example/news/old-gone.html,2026-11-30,asked by the publisher",
    );
    w.stage("publish", NOW);
    check_index(&dir, ["4", "1"]);
    let report = validate(&dir.join(export::PACKAGE));
    assert_eq!(report["valid"], true, "{:#?}", errors(&report));
    assert_ne!(std::fs::read(dir.join(export::PACKAGE)).unwrap(), package);
}

#[test]
fn a_replay_writes_the_same_datapackage_index_and_schema() {
    let w = workdir("opendata_replay");
    let end = format!("{DAY}T23:59:59Z");
    w.stage("publish", &end);
    let out = w.dir.join("replay");
    w.stage_with("publish", &end, &["--out", out.to_str().unwrap()]);
    let (live, replayed) = (data_dir(&w), out.join("site").join(export::DIR));
    assert_eq!(files_of(&live), files_of(&replayed));
    for f in [
        export::PACKAGE,
        export::INDEX,
        export::SCHEMA,
        "README.txt",
        "SHA256SUMS",
    ] {
        assert!(
            std::fs::read(live.join(f)).unwrap() == std::fs::read(replayed.join(f)).unwrap(),
            "{f} differs in the replay"
        );
    }
    assert_eq!(
        index_rows(&replayed).len(),
        2,
        "the older day is in the replay's index"
    );
}
