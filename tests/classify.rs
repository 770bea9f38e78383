//! classify as its users meet it: the `--stdin` filter, a replayed hour without summaries
//! reaching the same topics from the kept labels, and the evaluation figures that
//! docs/topics.md publishes agreeing with what `make eval` prints.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use support::pipeline::{Workdir, repo};

fn classify_stdin(w: &Workdir, input: &str) -> (String, String, Option<i32>) {
    let mut c = w.command("classify", "2026-11-30T06:05:00Z");
    c.arg("--stdin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn stdin_filter_adds_topic_opinion_and_evidence() {
    let w = Workdir::new("classify_stdin");
    let input = [
        r#"{"headline":"ರಣಜಿ ಟ್ರೋಫಿ: ಮುಂಬೈ ವಿರುದ್ಧ ಕರ್ನಾಟಕಕ್ಕೆ ಇನಿಂಗ್ಸ್ ಜಯ","lang":"kn"}"#,
        r#"{"headline":"ಕನ್ನಡ ಶಾಲೆಗಳನ್ನು ಉಳಿಸುವ ಹೊಣೆ ಯಾರದು?","lang":"kn","category":"ಅಭಿಪ್ರಾಯ"}"#,
        r#"{"headline":"Opinion: the city needs buses, not flyovers","lang":"en"}"#,
        r#"{"headline":"The city needs buses, not flyovers","lang":"en","category":["Opinion","Editorial"]}"#,
        r#"{"headline":"A long wait ends","lang":"en","summary":"Dengue cases fall as the hospital opens a new ward."}"#,
        r#"{"headline":"A long wait ends","lang":"en","category":["Courts"]}"#,
        "not json",
        r#"{"headline":"Nothing to go on","lang":"en"}"#,
    ]
    .join("\n");
    let (out, err, code) = classify_stdin(&w, &input);
    assert_eq!(
        code,
        Some(3),
        "an unreadable line: finished, one item failed\n{err}"
    );
    assert!(err.contains("stdin:7"), "names the bad line: {err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "every readable line printed back:\n{out}");
    let got = |i: usize| {
        (
            lines[i]["topic"].as_str().unwrap().to_string(),
            lines[i]["opinion"].as_bool().unwrap(),
            lines[i]["evidence"].as_str().unwrap().to_string(),
        )
    };
    let want = |t: &str, o: bool, e: &str| (t.to_string(), o, e.to_string());
    assert_eq!(got(0), want("sport", false, "headline"));
    assert_eq!(
        got(1),
        want("education", true, "headline"),
        "ಅಭಿಪ್ರಾಯ is the publisher saying opinion"
    );
    assert_eq!(
        got(2),
        want("local", false, "headline"),
        "never Opinion from a headline's wording"
    );
    assert_eq!(got(3), want("local", true, "headline"));
    assert_eq!(got(4), want("health", false, "summary"));
    assert_eq!(got(5), want("crime", false, "category"));
    assert_eq!(got(6), want("other", false, "none"));
    // The input's own fields come back as they were.
    assert_eq!(lines[1]["category"], "ಅಭಿಪ್ರಾಯ");
    assert_eq!(
        lines[0]["headline"],
        "ರಣಜಿ ಟ್ರೋಫಿ: ಮುಂಬೈ ವಿರುದ್ಧ ಕರ್ನಾಟಕಕ್ಕೆ ಇನಿಂಗ್ಸ್ ಜಯ"
    );
}

#[test]
fn a_replayed_hour_without_summaries_reaches_the_same_topics() {
    let w = Workdir::new("classify_replay");
    let now = "2026-11-30T06:05:00Z";
    let hour = w.data.join("2026-11-30/06");
    std::fs::create_dir_all(hour.join(".transient")).unwrap();
    let item = |id: &str, headline: &str, category: &str| {
        format!(
            r#"{{"id":"{id}","outlet":"O","source":"https://o.example/feed","lang":"en","headline":"{headline}","link":"https://o.example/{id}","published":"2026-11-30T05:00:00Z","date_source":"publisher","first_seen":"2026-11-30T06:05:00Z","category":[{category}],"author":"Meera Desai"}}"#
        )
    };
    let items = [
        item("a1", "A long wait ends for Hebbal", ""),
        item("b2", "Cabinet clears dam gates plan", r#""Karnataka""#),
        item("c3", "What the numbers say", r#""Opinion""#),
        item("d4", "Nothing to go on", ""),
    ]
    .join("\n");
    std::fs::write(hour.join("items.jsonl"), items + "\n").unwrap();
    let summary_words = "Dengue cases fall as the hospital opens a new ward";
    std::fs::write(
        hour.join(".transient/summaries.jsonl"),
        format!(
            "{{\"id\":\"a1\",\"summary\":\"{summary_words}.\"}}\n{{\"id\":\"c3\",\"summary\":\"Sensex and the rupee in the week's markets.\"}}\n"
        ),
    )
    .unwrap();
    w.stage("classify", now);
    let first = w.read("2026-11-30/06/classified.jsonl");
    let topics = w.read("2026-11-30/06/summary-topics.jsonl");
    let rows = w.jsonl("2026-11-30/06/classified.jsonl");
    let by_id = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap().clone();
    assert_eq!(
        (
            by_id("a1")["topic"].as_str(),
            by_id("a1")["evidence"].as_str()
        ),
        (Some("health"), Some("summary"))
    );
    assert_eq!(
        (
            by_id("b2")["topic"].as_str(),
            by_id("b2")["evidence"].as_str()
        ),
        (Some("politics"), Some("headline"))
    );
    assert_eq!(by_id("c3")["opinion"], true);
    assert_eq!(
        (
            by_id("c3")["topic"].as_str(),
            by_id("c3")["evidence"].as_str()
        ),
        (Some("business"), Some("summary"))
    );
    assert_eq!(
        (
            by_id("d4")["topic"].as_str(),
            by_id("d4")["evidence"].as_str()
        ),
        (Some("other"), Some("none"))
    );
    // Kept: labels, never the summary's words, never the author.
    for text in [&first, &topics] {
        assert!(
            !text.contains("Dengue") && !text.contains("hospital") && !text.contains("Sensex"),
            "{text}"
        );
        assert!(
            !text.contains("Meera Desai") && !text.contains("author"),
            "{text}"
        );
    }
    assert_eq!(
        topics,
        "{\"id\":\"a1\",\"topic\":\"health\"}\n{\"id\":\"c3\",\"topic\":\"business\"}\n"
    );

    // The hour ends; the summaries are gone. A replay gives the same bytes from the kept labels.
    std::fs::remove_dir_all(hour.join(".transient")).unwrap();
    std::fs::remove_file(hour.join("classified.jsonl")).unwrap();
    w.stage("classify", now);
    assert_eq!(w.read("2026-11-30/06/classified.jsonl"), first);
    assert_eq!(
        w.read("2026-11-30/06/summary-topics.jsonl"),
        topics,
        "the kept labels are left as they were"
    );
}

#[test]
fn a_bad_lexicon_line_stops_classify_naming_file_and_line() {
    let w = Workdir::new("classify_bad_lexicon");
    std::fs::create_dir_all(w.data.join("2026-11-30/06")).unwrap();
    std::fs::write(w.data.join("2026-11-30/06/items.jsonl"), "").unwrap();
    std::fs::write(
        w.pipeline.join("topics/en.txt"),
        "[sport]\ncricket = 3\n[sports]\nfootball\n",
    )
    .unwrap();
    let err = w.stage_fails("classify", "2026-11-30T06:05:00Z");
    assert!(
        err.contains("en.txt:3") && err.contains("[sports]"),
        "{err}"
    );
    assert!(
        !w.data.join("2026-11-30/06/classified.jsonl").exists(),
        "nothing written"
    );
}

/// The figures docs/topics.md publishes are the ones `make eval` prints.
#[test]
fn published_evaluation_figures_match_the_program() {
    let out = Command::new(env!("CARGO_BIN_EXE_classify"))
        .arg("--eval")
        .arg(repo().join("tests/eval"))
        .arg("--pipeline")
        .arg(repo().join("pipeline"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    let doc = std::fs::read_to_string(repo().join("docs/topics.md")).unwrap();
    let (_, rest) = doc
        .split_once("<!-- eval:begin -->\n")
        .expect("docs/topics.md has the eval block");
    let (block, _) = rest.split_once("<!-- eval:end -->").unwrap();
    assert_eq!(
        block.trim_end(),
        printed.trim_end(),
        "docs/topics.md shows other figures than `make eval` prints: paste the new ones"
    );
    for lang in ["en", "kn"] {
        let n = printed
            .lines()
            .find(|l| l.starts_with(&format!("### {lang}: ")))
            .and_then(|l| l.split_whitespace().nth(2))
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0);
        assert!(
            n >= 300,
            "{lang}: at least 300 labelled headlines, found {n}"
        );
    }
    for topic in [
        "politics",
        "business",
        "crime",
        "health",
        "education",
        "environment",
        "science",
        "world",
        "sport",
        "culture",
        "local",
        "other",
    ] {
        assert!(
            printed.contains(&format!("| {topic} |")),
            "{topic} in the table"
        );
    }
}
