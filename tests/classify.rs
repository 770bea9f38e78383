//! classify as its users meet it: the `--stdin` filter, a replayed hour without summaries
//! reaching the same topics from the kept labels, and the evaluation figures that
//! docs/topics.md publishes agreeing with what `make eval` prints.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use support::pipeline::{Workdir, repo};

fn classify_stdin(w: &Workdir, input: &str) -> (String, String, Option<i32>) {
    classify_with(w, &["--stdin"], input)
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
    assert_eq!(
        got(5),
        want("crime", false, "publisher"),
        "Courts is in topic-map.csv"
    );
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

/// Runs classify with these arguments and stdin, outside any data directory.
fn classify_with(w: &Workdir, args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let mut c = w.command("classify", "2026-11-30T06:05:00Z");
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    // A classify that stops before reading (a model it cannot read) closes the pipe: that
    // is its answer, read from its status and stderr, not a failure to write.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// The labelled outlets' headlines as training examples, labelled with our topics.
fn outlet_examples() -> Vec<String> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(repo().join("tests/eval/outlets")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            lines.push(
                serde_json::json!({"headline": v["headline"], "lang": v["lang"], "topic": v["topic"]})
                    .to_string(),
            );
        }
    }
    lines.sort();
    lines
}

#[test]
fn training_gives_the_same_model_bytes_from_the_same_examples_in_any_order() {
    let w = Workdir::new("classify_train_determinism");
    let mut lines = outlet_examples();
    std::fs::write(w.dir.join("a.jsonl"), lines.join("\n") + "\n").unwrap();
    lines.reverse();
    // The same examples in another order, one of them twice and with a blank line.
    let twice = lines[7].clone();
    lines.insert(100, twice);
    lines.insert(3, String::new());
    std::fs::write(w.dir.join("b.jsonl"), lines.join("\n") + "\n").unwrap();
    for (ex, model) in [("a.jsonl", "a.model"), ("b.jsonl", "b.model")] {
        let (_, err, code) = classify_with(&w, &["--train", ex, "--model", model], "");
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("trained on"), "{err}");
    }
    let a = std::fs::read(w.dir.join("a.model")).unwrap();
    let b = std::fs::read(w.dir.join("b.model")).unwrap();
    assert!(a == b, "the same examples give the same model bytes");
    assert!(a.len() < 2_000_000, "a small file: {} bytes", a.len());
    // Trained again over an existing model, atomically, to the same bytes.
    classify_with(&w, &["--train", "a.jsonl", "--model", "b.model"], "");
    assert!(std::fs::read(w.dir.join("b.model")).unwrap() == a);
}

#[test]
fn a_bad_examples_line_or_an_unknown_topic_names_file_and_line_and_writes_no_model() {
    let w = Workdir::new("classify_train_bad");
    let good = r#"{"headline":"Karnataka win Ranji opener","lang":"en","topic":"sport"}"#;
    std::fs::write(
        w.dir.join("bad.jsonl"),
        format!("{good}\n\n{{\"headline\": \"half a line\n"),
    )
    .unwrap();
    let (_, err, code) = classify_with(&w, &["--train", "bad.jsonl", "--model", "m.model"], "");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("bad.jsonl:3"), "names file and line: {err}");
    std::fs::write(
        w.dir.join("topic.jsonl"),
        format!("{good}\n{}\n", good.replace("sport", "cricket")),
    )
    .unwrap();
    let (_, err, code) = classify_with(&w, &["--train", "topic.jsonl", "--model", "m.model"], "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("topic.jsonl:2") && err.contains("\"cricket\"") && err.contains("taxonomy"),
        "{err}"
    );
    let (_, err, code) = classify_with(&w, &["--train", "missing.jsonl", "--model", "m.model"], "");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("missing.jsonl"), "{err}");
    assert!(!w.dir.join("m.model").exists(), "no model written");
}

#[test]
fn a_missing_or_damaged_model_stops_classify_unless_the_lexicons_are_asked_for() {
    let w = Workdir::new("classify_bad_model");
    let input = r#"{"headline":"Ranji Trophy: Karnataka beat Mumbai by an innings","lang":"en"}"#;
    let (out, err, code) = classify_with(&w, &["--stdin", "--model", "none.model"], input);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "nothing filed: {out}");
    assert!(
        err.contains("none.model") && err.contains("reading the topic model"),
        "{err}"
    );
    // A model damaged after training: one byte of its weights changed.
    std::fs::write(w.dir.join("ex.jsonl"), outlet_examples().join("\n")).unwrap();
    classify_with(&w, &["--train", "ex.jsonl", "--model", "m.model"], "");
    let mut bytes = std::fs::read(w.dir.join("m.model")).unwrap();
    let n = bytes.len() - 1000;
    bytes[n] ^= 0x40;
    std::fs::write(w.dir.join("damaged.model"), &bytes).unwrap();
    std::fs::write(w.dir.join("cut.model"), &bytes[..bytes.len() / 2]).unwrap();
    for (file, why) in [("damaged.model", "SHA-256"), ("cut.model", "truncated")] {
        let (out, err, code) = classify_with(&w, &["--stdin", "--model", file], input);
        assert_eq!(code, Some(1), "{err}");
        assert!(out.is_empty());
        assert!(
            err.contains(file) && err.contains("not a usable topic model") && err.contains(why),
            "{err}"
        );
        // Asked for: the lexicons file it, and the run says a person must act (exit 4).
        let (out, err, code) =
            classify_with(&w, &["--stdin", "--model", file, "--or-lexicons"], input);
        assert_eq!(code, Some(4), "{err}");
        assert!(err.contains("lexicons alone"), "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            (v["topic"].as_str(), v["evidence"].as_str()),
            (Some("sport"), Some("headline"))
        );
    }
}

/// Writes an hour's kept items: (id, headline, categories, link folder).
fn write_items(w: &Workdir, day_hour: &str, items: &[(&str, &str, &str, &str)]) {
    let dir = w.data.join(day_hour);
    std::fs::create_dir_all(&dir).unwrap();
    let day = &day_hour[..10];
    let lines: Vec<String> = items
        .iter()
        .map(|(id, headline, cats, folder)| {
            serde_json::json!({
                "id": id, "outlet": "O", "source": "https://o.example/feed", "lang": "en",
                "headline": headline, "link": format!("https://o.example/{folder}{id}.html"),
                "published": format!("{day}T05:00:00Z"), "date_source": "publisher",
                "first_seen": format!("{day}T06:05:00Z"),
                "category": cats.split('|').filter(|c| !c.is_empty()).collect::<Vec<_>>(),
                "author": null
            })
            .to_string()
        })
        .collect();
    std::fs::write(dir.join("items.jsonl"), lines.join("\n") + "\n").unwrap();
}

#[test]
fn the_hour_is_filed_by_the_publisher_first_then_the_model_and_a_replay_finds_that_model() {
    let w = Workdir::new("classify_with_model");
    std::fs::create_dir_all(w.data.join("models")).unwrap();
    std::fs::write(w.dir.join("ex.jsonl"), outlet_examples().join("\n")).unwrap();
    let model = w.data.join("models/topics-2026-11-29.model");
    let (_, err, code) = classify_with(
        &w,
        &["--train", "ex.jsonl", "--model", model.to_str().unwrap()],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    write_items(
        &w,
        "2026-11-30/06",
        &[
            (
                "a1",
                "Pothole deaths: High Court pulls up civic body",
                "Sports",
                "",
            ),
            ("b2", "Namma Metro fare hike from Monday", "", "bengaluru/"),
            (
                "c3",
                "Sensex slips 400 points as IT stocks fall",
                "",
                "money/",
            ),
            (
                "d4",
                "Chess prodigy from Mysuru wins under-12 world title",
                "Karnataka",
                "",
            ),
            (
                "e5",
                "What the monsoon session must do",
                "Opinion",
                "opinion/",
            ),
        ],
    );
    let out = w.stage_with(
        "classify",
        "2026-11-30T06:05:00Z",
        &["--model", model.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = w.jsonl("2026-11-30/06/classified.jsonl");
    let by = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap().clone();
    let id = by("a1")["model"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 16, "every line names the model: {:?}", rows);
    assert!(rows.iter().all(|r| r["model"] == id.as_str()));
    // The publisher's filing decides before anything reads the headline.
    assert_eq!(
        (by("a1")["topic"].as_str(), by("a1")["evidence"].as_str()),
        (Some("sport"), Some("publisher"))
    );
    assert_eq!(
        (by("c3")["topic"].as_str(), by("c3")["evidence"].as_str()),
        (Some("business"), Some("publisher"))
    );
    // Opinion from the publisher's own folder and category, never from the model.
    assert_eq!(by("e5")["opinion"], true);
    assert!(
        rows.iter()
            .filter(|r| r["id"] != "e5")
            .all(|r| r["opinion"] == false)
    );
    // Where the model decided it says how sure it was; elsewhere no score.
    for r in &rows {
        assert_eq!(r["evidence"] == "model", r.get("score").is_some(), "{r}");
    }
    let kept = w.read("2026-11-30/06/classified.jsonl");
    // A replay, given no --model, files the hour with the model it was filed with.
    let replay = w.dir.join("replay");
    w.stage_with(
        "classify",
        "2026-11-30T06:05:00Z",
        &["--out", replay.to_str().unwrap()],
    );
    assert_eq!(
        std::fs::read_to_string(replay.join("2026-11-30/06/classified.jsonl")).unwrap(),
        kept,
        "the replay gives the same bytes"
    );
    // Even when a newer model is the one --model names.
    let newer = w.data.join("models/topics.model");
    std::fs::write(w.dir.join("few.jsonl"), outlet_examples()[..300].join("\n")).unwrap();
    classify_with(
        &w,
        &["--train", "few.jsonl", "--model", newer.to_str().unwrap()],
        "",
    );
    std::fs::remove_dir_all(&replay).unwrap();
    w.stage_with(
        "classify",
        "2026-11-30T06:05:00Z",
        &[
            "--out",
            replay.to_str().unwrap(),
            "--model",
            newer.to_str().unwrap(),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(replay.join("2026-11-30/06/classified.jsonl")).unwrap(),
        kept
    );
    // The model gone, the replay says which one it needs instead of filing otherwise.
    std::fs::remove_file(&model).unwrap();
    std::fs::remove_dir_all(&replay).unwrap();
    let mut c = w.command("classify", "2026-11-30T06:05:00Z");
    c.args(["--out", replay.to_str().unwrap()]);
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&id) && err.contains("cannot be filed again"),
        "{err}"
    );
}

#[test]
fn examples_are_the_filed_kept_headlines_of_the_days_before_and_never_a_removed_one() {
    let w = Workdir::new("classify_examples");
    write_items(
        &w,
        "2026-11-28/07",
        &[
            ("a1", "Karnataka clinch Ranji title", "Sports", ""),
            ("b2", "Rain lashes the coast", "Karnataka", ""),
            ("c3", "Startup raises Rs 200 crore", "", "money/"),
            ("d4", "Taken down on request", "Politics", ""),
        ],
    );
    write_items(
        &w,
        "2026-11-30/03",
        &[("e5", "Today's, not learned yet", "Sports", "")],
    );
    write_items(
        &w,
        "2026-10-01/03",
        &[("f6", "Too old to learn from", "Sports", "")],
    );
    std::fs::write(
        w.pipeline.join("takedowns.csv"),
        "link,date,reason\nhttps://o.example/d4.html,2026-11-29,asked by the publisher\n",
    )
    .unwrap();
    std::fs::write(w.sources.clone(), "outlet,lang,kind,section,url,selector,status\nO,en,feed,top,https://o.example/feed,,test\n").unwrap();
    let (out, err, code) = classify_with(&w, &["--examples", "28"], "");
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seed = std::fs::read_to_string(repo().join("pipeline/topics/examples.jsonl"))
        .unwrap()
        .lines()
        .count();
    let filed: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l.get("outlet").is_some())
        .map(|l| {
            (
                l["headline"].as_str().unwrap(),
                l["topic"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        filed,
        [
            ("Startup raises Rs 200 crore", "business"),
            ("Karnataka clinch Ranji title", "sport")
        ],
        "sorted by language, topic and headline: {out}"
    );
    assert_eq!(lines.len(), seed + 2, "the hand-labelled examples too");
    assert!(err.contains("1 removed"), "{err}");
    let mut sorted = out.lines().collect::<Vec<_>>();
    sorted.sort();
    assert_eq!(sorted, out.lines().collect::<Vec<_>>(), "sorted");
}

#[test]
fn a_training_killed_at_any_point_leaves_the_last_model_whole() {
    use std::os::unix::process::CommandExt;
    let w = Workdir::new("classify_train_killed");
    let all = outlet_examples();
    std::fs::write(w.dir.join("few.jsonl"), all[..400].join("\n")).unwrap();
    std::fs::write(w.dir.join("all.jsonl"), all.join("\n")).unwrap();
    let models = w.data.join("models");
    std::fs::create_dir_all(&models).unwrap();
    let current = models.join("topics.model");
    let train = |examples: &str, kill_after: Option<std::time::Duration>| {
        let mut c = w.command("classify", "2026-11-30T03:00:00Z");
        c.args(["--train", examples, "--model", current.to_str().unwrap()])
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = c.spawn().unwrap();
        if let Some(after) = kill_after {
            let deadline = std::time::Instant::now() + after;
            while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            // SAFETY: kill(2) on the child's own process group.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
        }
        child.wait().unwrap();
    };
    train("few.jsonl", None);
    let old = std::fs::read(&current).unwrap();
    train("all.jsonl", None);
    let new = std::fs::read(&current).unwrap();
    std::fs::write(&current, &old).unwrap();
    assert!(old != new);
    let mut killed_before_the_end = 0;
    for ms in [0, 1, 3, 8, 20, 50, 120, 250, 400, 700, 1000, 1500] {
        train("all.jsonl", Some(std::time::Duration::from_millis(ms)));
        let now = std::fs::read(&current).unwrap();
        assert!(
            now == old || now == new,
            "killed after {ms} ms: a model half written"
        );
        killed_before_the_end += usize::from(now == old);
        // What a dead training leaves is only its temporary, which the next run sweeps.
        let data = huduku::store::Data::new(&w.data);
        huduku::store::sweep_temporaries(&data).unwrap();
        let left: Vec<_> = std::fs::read_dir(&models)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["topics.model"], "killed after {ms} ms");
        // The hourly run reads whichever model stands.
        let (out, err, code) = classify_with(
            &w,
            &["--stdin", "--model", current.to_str().unwrap()],
            r#"{"headline":"Ranji Trophy: Karnataka beat Mumbai","lang":"en"}"#,
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("\"topic\":\"sport\""), "{out}");
        std::fs::write(&current, &old).unwrap();
    }
    assert!(
        killed_before_the_end > 0,
        "some kills came before the model was written"
    );
}
