//! Stories through `publish`, on hand-written classified headlines: a story's id stays when
//! unrelated headlines arrive, the same inputs give the same `stories.jsonl` and pages, a
//! removal takes a headline out of its story (and a story of two stops being one), opinion
//! never joins, a story never spans more than its window, places and numbers that disagree
//! keep events apart, a Kannada and an English headline meet through the Latin spelling,
//! the glossary and the numbers, and a bad glossary line names file and line.

mod support;

use huduku::records::{Classified, DateSource, Evidence};
use support::pipeline::Workdir;

const DAY: &str = "2026-11-30";
const NOW: &str = "2026-11-30T06:05:00Z";

const SOURCES: &str = "outlet,lang,kind,section,url,selector,status\n\
ನಮ್ಮ ಪತ್ರಿಕೆ,kn,feed,top,https://kn.example/rss.xml,,checked\n\
Deccan Daily Chronicle,en,feed,top,https://deccan.example/atom.xml,,checked\n\
Coastal Karnataka Times,en,feed,top,https://coastal.example/feed.xml,,checked\n";

fn rec(outlet: &str, headline: &str, slug: &str, at: &str, opinion: bool) -> Classified {
    let (lang, site) = match outlet {
        "ನಮ್ಮ ಪತ್ರಿಕೆ" => ("kn", "https://kn.example"),
        "Deccan Daily Chronicle" => ("en", "https://deccan.example"),
        _ => ("en", "https://coastal.example"),
    };
    let link = format!("{site}/news/{slug}.html");
    Classified {
        id: huduku::records::item_id(&link),
        outlet: outlet.into(),
        source: format!("{site}/feed.xml"),
        lang: lang.into(),
        headline: headline.into(),
        link,
        published: huduku::time::parse_now(at).unwrap(),
        date_source: DateSource::Publisher,
        first_seen: huduku::time::parse_now(at).unwrap(),
        category: vec![],
        topic: "other".into(),
        evidence: Evidence::Headline,
        score: None,
        model: None,
        opinion,
    }
}

const KN: &str = "ನಮ್ಮ ಪತ್ರಿಕೆ";
const DDC: &str = "Deccan Daily Chronicle";
const CKT: &str = "Coastal Karnataka Times";

/// One event in both languages: the name, the glossary's words and the amount meet.
fn it_park() -> Vec<Classified> {
    vec![
        rec(
            DDC,
            "Hubballi-Dharwad IT park draws Rs 800 crore in fresh commitments",
            "it-park",
            "2026-11-30T01:15:00Z",
            false,
        ),
        rec(
            KN,
            "ಹುಬ್ಬಳ್ಳಿ-ಧಾರವಾಡ ಐಟಿ ಪಾರ್ಕ್‌ಗೆ ₹800 ಕೋಟಿ ಹೂಡಿಕೆ ಬದ್ಧತೆ",
            "it-park",
            "2026-11-30T01:40:00Z",
            false,
        ),
    ]
}

fn workdir(name: &str) -> Workdir {
    let w = Workdir::new(name);
    std::fs::write(&w.sources, SOURCES).unwrap();
    w
}

fn write(w: &Workdir, day: &str, hour: &str, records: &[Classified]) {
    let mut records = records.to_vec();
    records.sort_by(|a, b| a.link.cmp(&b.link));
    huduku::store::write_jsonl(
        &w.data.join(day).join(hour).join("classified.jsonl"),
        &records,
    )
    .unwrap();
}

fn stories(w: &Workdir, day: &str) -> Vec<huduku::stories::Story> {
    let text = std::fs::read_to_string(w.data.join(day).join("stories.jsonl")).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The headlines of each story, as sets of headline text.
fn groups(w: &Workdir, day: &str) -> Vec<Vec<String>> {
    stories(w, day)
        .iter()
        .map(|s| s.headlines.iter().map(|h| h.headline.clone()).collect())
        .collect()
}

#[test]
fn kannada_and_english_headlines_of_one_event_are_one_story_on_the_pages_and_in_the_data() {
    let w = workdir("stories_cross_language");
    write(&w, DAY, "05", &it_park());
    w.stage("publish", NOW);
    let s = stories(&w, DAY);
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].langs, ["en", "kn"]);
    assert_eq!(s[0].outlets.len(), 2);
    let id = &s[0].story;
    // The open data names the story of both headlines.
    let csv = w.read(&format!("site/data/headlines-{DAY}.csv"));
    assert!(csv.lines().next().unwrap().ends_with(",story"), "{csv}");
    assert_eq!(csv.matches(id.as_str()).count(), 2, "{csv}");
    let jsonl = w.jsonl(&format!("site/data/headlines-{DAY}.jsonl"));
    assert!(jsonl.iter().all(|r| r["story"] == id.as_str()));
    // The front page lists it; its page in each language links every headline.
    for lang in ["kn", "en"] {
        let front = w.read(&format!("site/{lang}/index.html"));
        assert!(front.contains(&format!("stories/{id}.html")), "{lang}");
        let page = w.read(&format!("site/{lang}/stories/{id}.html"));
        for r in &it_park() {
            assert!(
                page.contains(&format!("href=\"{}\"", r.link)),
                "{lang}: {page}"
            );
        }
        let covered = if lang == "en" {
            "Covered by 2 outlets in Kannada and English"
        } else {
            "ಕನ್ನಡ ಮತ್ತು ಇಂಗ್ಲಿಷ್‌ನಲ್ಲಿ 2 ಮಾಧ್ಯಮಗಳ ವರದಿ"
        };
        assert!(page.contains(covered), "{page}");
    }
}

#[test]
fn a_storys_id_stays_when_unrelated_headlines_arrive_and_the_same_inputs_give_the_same_bytes() {
    let w = workdir("stories_stable");
    write(&w, DAY, "05", &it_park());
    w.stage("publish", NOW);
    let before = stories(&w, DAY);
    let bytes = w.read(&format!("{DAY}/stories.jsonl"));
    let page = w.read(&format!("site/en/stories/{}.html", before[0].story));
    // Again, nothing changed: the same bytes.
    w.stage("publish", NOW);
    assert_eq!(w.read(&format!("{DAY}/stories.jsonl")), bytes);
    assert_eq!(
        w.read(&format!("site/en/stories/{}.html", before[0].story)),
        page
    );
    // Unrelated headlines arrive, and a third headline of the event.
    write(
        &w,
        DAY,
        "06",
        &[
            rec(
                CKT,
                "Kambala organisers seek clarity on new animal-welfare rules",
                "kambala",
                "2026-11-30T06:00:00Z",
                false,
            ),
            rec(
                KN,
                "ಹಂಪಿ ಉತ್ಸವಕ್ಕೆ ಭರದ ಸಿದ್ಧತೆ",
                "hampi",
                "2026-11-30T06:01:00Z",
                false,
            ),
            rec(
                CKT,
                "Hubballi IT park attracts Rs 800 crore investment",
                "it-park",
                "2026-11-30T06:02:00Z",
                false,
            ),
        ],
    );
    w.stage("publish", "2026-11-30T06:30:00Z");
    let after = stories(&w, DAY);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(
        after[0].story, before[0].story,
        "the same story, the same id"
    );
    assert_eq!(after[0].headlines.len(), 3);
}

#[test]
fn a_removal_takes_a_headline_out_of_its_story_and_a_story_of_two_stops_being_one() {
    let w = workdir("stories_removal");
    let mut recs = it_park();
    recs.push(rec(
        CKT,
        "Hubballi IT park attracts Rs 800 crore investment",
        "it-park",
        "2026-11-30T03:00:00Z",
        false,
    ));
    write(&w, DAY, "05", &recs);
    w.stage("publish", NOW);
    let id = stories(&w, DAY)[0].story.clone();
    assert_eq!(stories(&w, DAY)[0].headlines.len(), 3);
    // Coastal Karnataka Times opts out: two headlines left, still a story.
    w.append("optouts.csv", &format!("outlet,{CKT},{DAY},asked"));
    w.stage("publish", NOW);
    let s = stories(&w, DAY);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].headlines.len(), 2);
    assert!(!w.read(&format!("{DAY}/stories.jsonl")).contains(CKT));
    assert_eq!(
        s[0].story, id,
        "its first headline stayed, and so did its id"
    );
    // One taken down: one headline left, no story, on no page and in no file.
    w.append(
        "takedowns.csv",
        &format!("{},{DAY},asked by the publisher", recs[1].link),
    );
    w.stage("publish", NOW);
    assert!(stories(&w, DAY).is_empty());
    assert!(!w.data.join(format!("site/en/stories/{id}.html")).exists());
    assert!(!w.read("site/en/index.html").contains("stories/"));
    let jsonl = w.jsonl(&format!("site/data/headlines-{DAY}.jsonl"));
    assert!(jsonl.iter().all(|r| r["story"].is_null()), "{jsonl:?}");
}

#[test]
fn opinion_never_joins_a_story() {
    let w = workdir("stories_opinion");
    let mut recs = it_park();
    recs.push(rec(
        CKT,
        "Opinion: Hubballi's Rs 800 crore IT park is a start, not a strategy",
        "it-park-op",
        "2026-11-30T03:00:00Z",
        true,
    ));
    write(&w, DAY, "05", &recs);
    w.stage("publish", NOW);
    let s = groups(&w, DAY);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].len(), 2, "{s:?}");
    assert!(!w.read(&format!("{DAY}/stories.jsonl")).contains("Opinion:"));
}

#[test]
fn a_story_never_spans_more_than_its_window() {
    let w = workdir("stories_window");
    let old = "2026-11-27";
    write(
        &w,
        old,
        "05",
        &[rec(
            DDC,
            "Mandya farmers stage protest over delayed sugarcane dues",
            "mandya-1",
            "2026-11-27T05:00:00Z",
            false,
        )],
    );
    write(
        &w,
        DAY,
        "05",
        &[
            rec(
                CKT,
                "Mandya farmers stage protest over delayed sugarcane dues",
                "mandya-2",
                "2026-11-30T04:00:00Z",
                false,
            ),
            rec(
                KN,
                "ಕಬ್ಬಿನ ಬಾಕಿ ಪಾವತಿಗೆ ಆಗ್ರಹಿಸಿ ಮಂಡ್ಯದಲ್ಲಿ ರೈತರ ಪ್ರತಿಭಟನೆ",
                "mandya-3",
                "2026-11-30T04:30:00Z",
                false,
            ),
        ],
    );
    w.stage("publish", NOW);
    let s = stories(&w, DAY);
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(
        s[0].headlines.len(),
        2,
        "the headline of three days before is not in it"
    );
    assert!(stories(&w, old).is_empty());
    // A story of the day before and today is in both days' files, by the same id.
    let w = workdir("stories_two_days");
    write(
        &w,
        "2026-11-29",
        "22",
        &[rec(
            DDC,
            "Mandya farmers stage protest over delayed sugarcane dues",
            "mandya-1",
            "2026-11-29T22:00:00Z",
            false,
        )],
    );
    write(
        &w,
        DAY,
        "05",
        &[rec(
            KN,
            "ಕಬ್ಬಿನ ಬಾಕಿ ಪಾವತಿಗೆ ಆಗ್ರಹಿಸಿ ಮಂಡ್ಯದಲ್ಲಿ ರೈತರ ಪ್ರತಿಭಟನೆ",
            "mandya-3",
            "2026-11-30T04:30:00Z",
            false,
        )],
    );
    w.stage("publish", NOW);
    let today = stories(&w, DAY);
    assert_eq!(today.len(), 1);
    assert_eq!(today[0].headlines.len(), 2);
    assert!(
        stories(&w, "2026-11-29").is_empty(),
        "the day before alone has one headline"
    );
}

#[test]
fn places_and_numbers_that_disagree_keep_events_apart() {
    let w = workdir("stories_gates");
    write(
        &w,
        DAY,
        "05",
        &[
            rec(
                DDC,
                "Heavy rain lashes Mangaluru; holiday for schools",
                "rain-mlr",
                "2026-11-30T01:00:00Z",
                false,
            ),
            rec(
                CKT,
                "Heavy rain lashes Mumbai; holiday for schools",
                "rain-mum",
                "2026-11-30T01:30:00Z",
                false,
            ),
            rec(
                DDC,
                "Three killed as KSRTC bus overturns near Hassan",
                "bus-3",
                "2026-11-30T02:00:00Z",
                false,
            ),
            rec(
                CKT,
                "Five killed as KSRTC bus overturns near Hassan",
                "bus-5",
                "2026-11-30T01:00:00Z",
                false,
            ),
            rec(
                DDC,
                "KSRTC to add 500 new buses to its fleet",
                "fleet-500",
                "2026-11-30T03:00:00Z",
                false,
            ),
            rec(
                KN,
                "ಕೆಎಸ್ಆರ್ಟಿಸಿಗೆ 1,200 ಹೊಸ ಬಸ್ ಸೇರ್ಪಡೆ",
                "fleet-1200",
                "2026-11-30T03:30:00Z",
                false,
            ),
        ],
    );
    w.stage("publish", NOW);
    assert!(stories(&w, DAY).is_empty(), "{:?}", groups(&w, DAY));
}

#[test]
fn a_bad_glossary_line_names_file_and_line_and_nothing_is_written() {
    let w = workdir("stories_bad_glossary");
    write(&w, DAY, "05", &it_park());
    let path = w.pipeline.join("glossary.csv");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("plce,nowhere,nowhere,ಎಲ್ಲೂ,\n");
    let line = text.lines().count();
    std::fs::write(&path, text).unwrap();
    let err = w.stage_fails("publish", NOW);
    assert!(
        err.contains(&format!("glossary.csv:{line}: kind \"plce\"")),
        "{err}"
    );
    assert!(!w.data.join("site").exists() && !w.data.join(DAY).join("stories.jsonl").exists());
}

/// The figures docs/stories.md publishes are the ones `make eval` prints, and each labelled
/// file (the development set, the held-out set) is scored alone, with a table of its own.
#[test]
fn published_story_figures_match_the_program_and_each_set_is_scored_alone() {
    let repo = support::pipeline::repo();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_publish"))
        .arg("--eval-stories")
        .arg(repo.join("tests/eval/stories"))
        .arg("--pipeline")
        .arg(repo.join("pipeline"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    let files: Vec<String> = std::fs::read_dir(repo.join("tests/eval/stories"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    assert!(files.len() >= 2, "the dev and held-out sets: {files:?}");
    for f in &files {
        let text = std::fs::read_to_string(repo.join("tests/eval/stories").join(f)).unwrap();
        let n = text.lines().filter(|l| !l.trim().is_empty()).count();
        let heading = format!("### {f}\n\nStories evaluation: {n} headlines (");
        assert!(printed.contains(&heading), "{f} alone: {printed}");
    }
    let doc = std::fs::read_to_string(repo.join("docs/stories.md")).unwrap();
    let (_, rest) = doc
        .split_once("<!-- eval:begin -->\n")
        .expect("docs/stories.md has the eval block");
    let (block, _) = rest.split_once("<!-- eval:end -->").unwrap();
    assert_eq!(
        block.trim_end(),
        printed.trim_end(),
        "docs/stories.md shows other figures than `make eval` prints: paste the new ones"
    );
}
