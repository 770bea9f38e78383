//! `publish` on hand-written classified headlines: hostile publisher text is escaped or
//! dropped, removed headlines are on no page and in no file, the open data is inert for
//! spreadsheets and checks with `sha256sum -c`, the outlets page says who is read and who
//! is not since when, "How Huduku fetches" states the enforced constants, times follow the
//! configured zone, and the same inputs give the same bytes.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use huduku::records::{Classified, DateSource, Evidence};
use support::pipeline::{Workdir, describe};

const DAY: &str = "2026-11-30";
const NOW: &str = "2026-11-30T06:05:00Z";

const SOURCES: &str = "outlet,lang,kind,section,url,selector,status\n\
ನಮ್ಮ ಪತ್ರಿಕೆ,kn,feed,top,https://kn.example/rss.xml,,checked\n\
Deccan Daily Chronicle,en,feed,top,https://deccan.example/atom.xml,,checked\n\
Coastal Karnataka Times,en,feed,top,https://coastal.example/feed.xml,,checked\n\
Hill Herald,en,feed,top,https://hill.example/feed.xml,,checked\n\
Plains Post,en,feed,top,https://plains.example/feed.xml,,checked\n";

fn rec(
    outlet: &str,
    lang: &str,
    headline: &str,
    link: &str,
    at: &str,
    topic: &str,
    opinion: bool,
) -> Classified {
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
        first_seen: huduku::time::parse_now(NOW).unwrap(),
        category: vec![],
        topic: topic.into(),
        evidence: Evidence::Headline,
        score: None,
        model: None,
        opinion,
    }
}

fn ordinary() -> Vec<Classified> {
    vec![
        rec(
            "ನಮ್ಮ ಪತ್ರಿಕೆ",
            "kn",
            "ರಣಜಿ ಟ್ರೋಫಿ: ಕರ್ನಾಟಕಕ್ಕೆ ಜಯ",
            "https://kn.example/news/ranji.html",
            "2026-11-30T04:00:00Z",
            "sport",
            false,
        ),
        rec(
            "ನಮ್ಮ ಪತ್ರಿಕೆ",
            "kn",
            "ಕನ್ನಡ ಶಾಲೆಗಳನ್ನು ಉಳಿಸುವ ಹೊಣೆ ಯಾರದು?",
            "https://kn.example/news/shale.html",
            "2026-11-30T02:20:00Z",
            "education",
            true,
        ),
        rec(
            "Deccan Daily Chronicle",
            "en",
            "Namma Metro's Pink Line opens",
            "https://deccan.example/news/pink-line.html",
            "2026-11-30T05:15:00Z",
            "local",
            false,
        ),
        rec(
            "Coastal Karnataka Times",
            "en",
            "The last wooden boat-builders of Malpe",
            "https://coastal.example/news/malpe.html",
            "2026-11-30T05:00:00Z",
            "culture",
            false,
        ),
        rec(
            "Hill Herald",
            "en",
            "Coffee growers brace for a tricky harvest",
            "https://hill.example/news/coffee.html",
            "2026-11-30T01:00:00Z",
            "business",
            false,
        ),
    ]
}

/// A work directory whose hour 05 of DAY holds `records`, with the source list above.
fn fixture(name: &str, records: &[Classified]) -> Workdir {
    let w = Workdir::new(name);
    std::fs::write(&w.sources, SOURCES).unwrap();
    write_hour(&w, "05", records);
    w
}

fn write_hour(w: &Workdir, hour: &str, records: &[Classified]) {
    let mut records = records.to_vec();
    records.sort_by(|a, b| a.link.cmp(&b.link));
    huduku::store::write_jsonl(
        &w.data.join(DAY).join(hour).join("classified.jsonl"),
        &records,
    )
    .unwrap();
}

/// Every file under the site, relative, with its bytes.
fn site_files(w: &Workdir) -> Vec<(PathBuf, Vec<u8>)> {
    let site = w.data.join("site");
    w.data_files()
        .into_iter()
        .filter(|p| p.starts_with("site"))
        .map(|p| {
            (
                p.strip_prefix("site").unwrap().to_path_buf(),
                std::fs::read(w.data.join(&p)).unwrap(),
            )
        })
        .inspect(|(p, _)| assert!(site.join(p).exists()))
        .collect()
}

fn page(w: &Workdir, rel: &str) -> String {
    std::fs::read_to_string(w.data.join("site").join(rel))
        .unwrap_or_else(|e| panic!("site/{rel}: {e}"))
}

fn text_of(html: &str) -> String {
    scraper::Html::parse_document(html)
        .root_element()
        .text()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn hostile_publisher_text_is_escaped_or_dropped() {
    let script = "<script>alert('x')</script> ಸುದ್ದಿ";
    let img = "\"><img src=x onerror=alert(1)>";
    let mut records = ordinary();
    records.push(rec(
        "Deccan Daily Chronicle",
        "en",
        script,
        "https://deccan.example/news/a.html",
        "2026-11-30T03:00:00Z",
        "politics",
        false,
    ));
    let mut evil = rec(
        "Evil <b>Outlet</b>",
        "kn\" onmouseover=\"alert(2)",
        img,
        "https://evil.example/news/b.html?q=\"><script>",
        "2026-11-30T03:01:00Z",
        "<script>",
        true,
    );
    evil.source = "https://evil.example/feed.xml".into();
    records.push(evil);
    records.push(rec(
        "Deccan Daily Chronicle",
        "en",
        "Headline behind a javascript link",
        "javascript:alert(3)",
        "2026-11-30T03:02:00Z",
        "politics",
        false,
    ));
    records.push(rec(
        "Deccan Daily Chronicle",
        "en",
        "Headline behind a data link",
        "data:text/html,<script>alert(4)</script>",
        "2026-11-30T03:03:00Z",
        "politics",
        false,
    ));
    let w = fixture("publish_hostile", &records);
    w.stage("publish", NOW);

    let files = site_files(&w);
    let pages: Vec<&(PathBuf, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
        .collect();
    assert!(pages.len() > 30, "pages in both languages: {}", pages.len());
    let any = scraper::Selector::parse("*").unwrap();
    let a = scraper::Selector::parse("a[href]").unwrap();
    for (path, bytes) in &pages {
        let html = String::from_utf8(bytes.to_vec()).unwrap();
        let doc = scraper::Html::parse_document(&html);
        for el in doc.select(&any) {
            let name = el.value().name();
            assert!(
                !matches!(name, "script" | "img" | "iframe" | "object" | "embed" | "b"),
                "{}: a <{name}> element",
                path.display()
            );
            for (attr, _) in el.value().attrs() {
                assert!(
                    !attr.starts_with("on"),
                    "{}: an {attr} attribute on <{name}>",
                    path.display()
                );
            }
        }
        for el in doc.select(&a) {
            let href = el.value().attr("href").unwrap();
            let scheme = href
                .split_once(':')
                .map(|(s, _)| s)
                .filter(|s| !s.contains('/') && !s.contains('#'));
            assert!(
                matches!(scheme, None | Some("http") | Some("https")),
                "{}: link {href:?}",
                path.display()
            );
        }
        for dropped in [
            "Headline behind a javascript link",
            "Headline behind a data link",
        ] {
            assert!(
                !html.contains(dropped),
                "{} shows {dropped:?}",
                path.display()
            );
        }
    }
    // The hostile headlines are shown, as text: escaped, not interpreted, not lost.
    let front = page(&w, "en/index.html");
    assert!(
        front.contains("&lt;script&gt;alert('x')&lt;/script&gt; ಸುದ್ದಿ"),
        "{front}"
    );
    assert!(text_of(&front).contains(script));
    assert!(text_of(&front).contains(img));
    assert!(text_of(&front).contains("Evil <b>Outlet</b>"));
    // A lang value that is not a language tag is left out rather than escaped into place.
    assert!(!front.contains("onmouseover"));
    // Nor is either dropped link in the open data.
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains("javascript:") && !text.contains("data:text/html"),
            "{} holds a non-http(s) link",
            path.display()
        );
    }
}

#[test]
fn csv_cells_that_look_like_formulas_are_inert() {
    let mut records = ordinary();
    let formulas = [
        "=HYPERLINK(\"https://x.example\",\"click\")",
        "+91 98450 00000 is the new helpline",
        "-5 degrees in Madikeri",
        "@mention: the mayor replies",
    ];
    for (i, h) in formulas.iter().enumerate() {
        records.push(rec(
            "Hill Herald",
            "en",
            h,
            &format!("https://hill.example/news/f{i}.html"),
            &format!("2026-11-30T03:0{i}:00Z"),
            "local",
            false,
        ));
    }
    records.push(rec(
        "=cmd|' /C calc'!A0",
        "en",
        "An outlet name that is a formula",
        "https://plains.example/news/x.html",
        "2026-11-30T03:09:00Z",
        "other",
        false,
    ));
    let w = fixture("publish_csv_inert", &records);
    w.stage("publish", NOW);
    let csv_path = w.data.join(format!("site/data/headlines-{DAY}.csv"));
    let mut rdr = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "outlet",
            "headline",
            "link",
            "published",
            "topic",
            "opinion",
            "lang",
            "published_from",
            "story"
        ]
    );
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), records.len());
    for row in &rows {
        for cell in row.iter() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "live formula cell {cell:?} in {row:?}"
            );
        }
    }
    let cells: BTreeSet<&str> = rows.iter().flat_map(|r| r.iter()).collect();
    for f in formulas {
        assert!(
            cells.contains(format!("'{f}").as_str()),
            "{f:?} is written as '{f}"
        );
    }
    assert!(cells.contains("'=cmd|' /C calc'!A0"));
    // The JSON lines keep the text exactly as published.
    let jsonl = w.read(&format!("site/data/headlines-{DAY}.jsonl"));
    let values: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for f in formulas {
        assert!(
            values.iter().any(|v| v["headline"] == f),
            "{f:?} as published in the JSON lines"
        );
    }
    let first = jsonl.lines().next().unwrap();
    let at: Vec<usize> = header
        .iter()
        .map(|k| {
            first
                .find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k} in {first}"))
        })
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "JSON lines have the CSV's columns in its order: {first}"
    );
    assert_eq!(values[0].as_object().unwrap().len(), header.len());
    // Nothing but headlines' columns: no author, no summary.
    assert!(
        values
            .iter()
            .all(|v| v.get("author").is_none() && v.get("summary").is_none())
    );
}

#[test]
fn sha256sums_is_accepted_by_sha256sum_c_and_catches_a_change() {
    let w = fixture("publish_sha256sums", &ordinary());
    write_hour(
        &w,
        "03",
        &[rec(
            "Hill Herald",
            "en",
            "Early news",
            "https://hill.example/news/early.html",
            "2026-11-29T22:00:00Z",
            "local",
            false,
        )],
    );
    // A second kept day.
    huduku::store::write_jsonl(
        &w.data.join("2026-11-29/20/classified.jsonl"),
        &[rec(
            "Plains Post",
            "en",
            "Yesterday's news",
            "https://plains.example/news/y.html",
            "2026-11-29T19:00:00Z",
            "world",
            false,
        )],
    )
    .unwrap();
    w.stage("publish", NOW);
    let dir = w.data.join("site/data");
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let listed: BTreeSet<&str> = sums
        .lines()
        .map(|l| l.split_once("  ").unwrap().1)
        .collect();
    let present: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "SHA256SUMS")
        .collect();
    assert_eq!(
        listed,
        present.iter().map(String::as_str).collect(),
        "the manifest covers every file"
    );
    for f in [
        "README.txt",
        "headlines-2026-11-29.csv",
        "headlines-2026-11-29.jsonl",
        "headlines-2026-11-30.csv",
        "headlines-2026-11-30.jsonl",
    ] {
        assert!(listed.contains(f), "{f} listed");
    }
    let check = |dir: &Path| {
        let mut c = Command::new("sha256sum");
        c.arg("-c").arg("SHA256SUMS").current_dir(dir);
        let out = c.output().expect("sha256sum (coreutils) runs");
        (out.status.success(), describe(&c, &out))
    };
    let (ok, log) = check(&dir);
    assert!(ok, "{log}");
    assert_eq!(log.matches(": OK").count(), listed.len(), "{log}");
    // A changed file fails the check, so the manifest is not decoration.
    let csv = dir.join("headlines-2026-11-30.csv");
    let mut bytes = std::fs::read(&csv).unwrap();
    bytes.extend_from_slice(b"x,y\n");
    std::fs::write(&csv, bytes).unwrap();
    let (ok, log) = check(&dir);
    assert!(!ok, "a changed file must fail: {log}");
}

#[test]
fn readme_describes_every_column_and_the_licence_line() {
    let w = fixture("publish_readme", &ordinary());
    w.stage("publish", NOW);
    let readme = w.read("site/data/README.txt");
    for huduku::publish::export::Column { name, .. } in huduku::publish::export::COLUMNS {
        assert!(
            readme.contains(&format!("\n{name}\n    ")),
            "README describes {name}:\n{readme}"
        );
    }
    assert!(
        readme.contains("Licence: CC BY 4.0, crediting the outlets."),
        "{readme}"
    );
    assert!(page(&w, "en/index.html").contains("CC BY 4.0, crediting the outlets"));
    // The licence is configuration.
    w.stage_with(
        "publish",
        NOW,
        &[
            "--licence",
            "CC0 1.0 for the compilation; headlines remain the outlets'",
        ],
    );
    let readme = w.read("site/data/README.txt");
    assert!(
        readme.contains("Licence: CC0 1.0 for the compilation; headlines remain the outlets'.")
    );
    assert!(!readme.contains("CC BY 4.0"));
}

#[test]
fn removed_headlines_are_on_no_page_and_in_no_file() {
    let w = fixture("publish_removed", &ordinary());
    w.stage("publish", NOW);
    let before = site_files(&w);
    let all_text = |files: &[(PathBuf, Vec<u8>)]| {
        files
            .iter()
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let removed = [
        "The last wooden boat-builders of Malpe",
        "Namma Metro's Pink Line opens",
        "Coffee growers brace for a tricky harvest",
    ];
    for h in removed {
        assert!(
            all_text(&before).contains(h),
            "{h} is public before it is removed"
        );
    }
    assert!(
        before
            .iter()
            .any(|(p, _)| p.ends_with("coastal-karnataka-times.html"))
    );

    // An outlet opts out, a headline is taken down, an article is found withdrawn.
    w.append(
        "optouts.csv",
        "outlet,Coastal Karnataka Times,2026-11-30,email from the editor",
    );
    w.append(
        "takedowns.csv",
        "https://deccan.example/news/pink-line.html,2026-11-30,asked by the publisher",
    );
    let coffee = rec(
        "Hill Herald",
        "en",
        "",
        "https://hill.example/news/coffee.html",
        "2026-11-30T01:00:00Z",
        "",
        false,
    );
    std::fs::write(
        w.data.join(DAY).join("rechecks.jsonl"),
        format!(
            "{}\n",
            serde_json::json!({"id": coffee.id, "link": coffee.link, "source": coffee.source, "check": 2, "at": NOW, "status": 410, "verdict": "withdrawn", "reason": "gone"})
        ),
    )
    .unwrap();
    w.stage("publish", NOW);
    let after = site_files(&w);
    let text = all_text(&after);
    for h in removed {
        assert!(!text.contains(h), "{h} is still somewhere under site/");
    }
    assert!(!w.read(&format!("{DAY}/published.jsonl")).contains("Malpe"));
    // The opted-out outlet's own pages are gone, and the list says since when.
    assert!(
        !after
            .iter()
            .any(|(p, _)| p.to_string_lossy().contains("coastal-karnataka-times")),
        "stale outlet pages removed"
    );
    let outlets = text_of(&page(&w, "en/outlets/index.html"));
    assert!(
        outlets.contains("Coastal Karnataka Times")
            && outlets.contains("Opted out since 30 Nov 2026"),
        "{outlets}"
    );
    // What remains is still there.
    assert!(text.contains("ರಣಜಿ ಟ್ರೋಫಿ: ಕರ್ನಾಟಕಕ್ಕೆ ಜಯ"));
}

#[test]
fn outlets_page_says_who_is_read_and_who_refused_or_stopped_since_when() {
    let w = fixture("publish_outlets", &ordinary());
    let stop = |at: &str, reason: &str, url: &str| serde_json::json!({"at": at, "url": url, "status": 403, "reason": reason, "evidence": "status 403"});
    let state = serde_json::json!({
        "sources": {},
        "sites": {
            "https://hill.example": {"wait_until": null, "waits_in_a_row": 0, "refused": stop("2026-11-20T07:05:00Z", "refused-403", "https://hill.example/feed.xml"), "halted": null},
            "https://plains.example": {"wait_until": null, "waits_in_a_row": 3, "refused": null, "halted": stop("2026-11-25T09:05:00Z", "halted-3-waits", "https://plains.example/feed.xml")},
            "https://deccan.example": {"wait_until": null, "waits_in_a_row": 0, "refused": stop("2026-11-10T07:05:00Z", "refused-403", "https://deccan.example/atom.xml"), "halted": null}
        }
    });
    std::fs::write(
        w.data.join("state.json"),
        serde_json::to_string_pretty(&state).unwrap(),
    )
    .unwrap();
    // Deccan's refusal was lifted by a newer permission.
    w.append(
        "permissions.csv",
        "https://deccan.example,2026-11-12,Editor A. Rao,wrote to allow HudukuBot again",
    );
    // robots.txt refused the Kannada outlet on the 28th and 29th (and did not on the 27th).
    let robots = |site: &str, verdict: &str, day: &str| {
        format!(
            "{}\n",
            serde_json::json!({"site": site, "fetched_at": format!("{day}T00:35:00Z"), "status": 200, "verdict": verdict, "reason": if verdict == "refused" { "robots-disallow-all" } else { "" }, "crawl_delay": null, "content_signal": null, "file": null})
        )
    };
    for (day, verdict) in [
        ("2026-11-27", "rules"),
        ("2026-11-28", "refused"),
        ("2026-11-29", "refused"),
    ] {
        std::fs::create_dir_all(w.data.join(day)).unwrap();
        std::fs::write(
            w.data.join(day).join("robots.jsonl"),
            robots("https://kn.example", verdict, day),
        )
        .unwrap();
    }
    w.stage("publish", NOW);
    let html = page(&w, "en/outlets/index.html");
    let doc = scraper::Html::parse_document(&html);
    let section = |id: &str| {
        let sel = scraper::Selector::parse(&format!("section[aria-labelledby={id}]")).unwrap();
        doc.select(&sel)
            .next()
            .unwrap_or_else(|| panic!("section {id}"))
            .text()
            .collect::<String>()
    };
    let read = section("read");
    let not_read = section("not-read");
    for o in ["Deccan Daily Chronicle", "Coastal Karnataka Times"] {
        assert!(
            read.contains(o) && !not_read.contains(o),
            "{o} is read:\n{read}\n---\n{not_read}"
        );
    }
    for (o, says) in [
        ("Hill Herald", "Refused HudukuBot since 20 Nov 2026"),
        (
            "Plains Post",
            "Stopped after repeated requests to wait since 25 Nov 2026",
        ),
        ("ನಮ್ಮ ಪತ್ರಿಕೆ", "robots.txt refuses HudukuBot since 28 Nov 2026"),
    ] {
        assert!(
            not_read.contains(o) && not_read.contains(says),
            "{o}: {says:?} in\n{not_read}"
        );
    }
    assert!(
        !html.contains("since 10 Nov 2026"),
        "a lifted refusal is not shown"
    );
    let kn = text_of(&page(&w, "kn/outlets/index.html"));
    assert!(kn.contains("20 ನವೆಂಬರ್ 2026 ರಿಂದ"), "{kn}");
}

/// The enforced constants, formatted independently of the page's code.
fn secs(d: std::time::Duration) -> u64 {
    d.as_secs()
}

fn english(seconds: i64) -> String {
    match seconds {
        3600 => "an hour".into(),
        s if s % 3600 == 0 => format!("{} hours", s / 3600),
        s if s % 60 == 0 => format!("{} minutes", s / 60),
        1 => "1 second".into(),
        s => format!("{s} seconds"),
    }
}

#[test]
fn how_huduku_fetches_states_the_constants_the_fetcher_enforces() {
    use huduku::fetch::{FEED_INTERVAL, FIRST_BACKOFF, MAX_BACKOFF, MAX_HOLD, MIN_INTERVAL};
    use huduku::polite::{
        BODY_CAP, MAX_REDIRECTS, MIN_SPACING, MIN_WAIT, TIMEOUT, USER_AGENT, WAITS_TO_HALT,
    };
    use huduku::recheck::CHECK_AGES;
    let w = fixture("publish_fetching", &ordinary());
    w.stage("publish", NOW);
    let en = text_of(&page(&w, "en/fetching.html"));
    let en = en.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    let every = if FEED_INTERVAL.num_seconds() == 3600 {
        "about once an hour".to_string()
    } else {
        format!("about once every {}", english(FEED_INTERVAL.num_seconds()))
    };
    let halt = words[WAITS_TO_HALT as usize];
    let expected = [
        USER_AGENT.to_string(),
        every,
        format!("once every {}", english(MIN_INTERVAL.num_seconds())),
        format!("up to {}", english(MAX_HOLD.num_seconds())),
        format!("waits {}", english(FIRST_BACKOFF.num_seconds())),
        format!("up to {}", english(MAX_BACKOFF.num_seconds())),
        format!("at least {} between", english(secs(MIN_SPACING) as i64)),
        format!("given up after {}", english(secs(TIMEOUT) as i64)),
        format!("larger than {} MiB", BODY_CAP / (1024 * 1024)),
        format!("at most {MAX_REDIRECTS} redirects"),
        format!("at least {}.", english(MIN_WAIT.num_seconds())),
        format!(
            "{}{} such answers in a row",
            halt[..1].to_uppercase(),
            &halt[1..]
        ),
        format!(
            "when the headline is {} days old and again at {} days",
            words[CHECK_AGES[0] as usize], words[CHECK_AGES[1] as usize]
        ),
    ];
    for want in &expected {
        assert!(
            en.contains(want.as_str()),
            "the English page lacks {want:?}:\n{en}"
        );
    }
    // The promise's own sentences are there.
    for sentence in [
        "HudukuBot asks under no other name.",
        "A refusal is final.",
        "Asked to wait, it waits.",
        "A content signal of search=no counts as a refusal",
        "Within 48 hours Huduku stops fetching it and takes its headlines off every public page.",
    ] {
        assert!(en.contains(sentence), "{sentence:?}");
    }
    let kn = text_of(&page(&w, "kn/fetching.html"));
    let kn = kn.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        USER_AGENT.to_string(),
        format!("ಸತತ {WAITS_TO_HALT} ಬಾರಿ"),
        format!(
            "{} ದಿನ ಹಳೆಯದಾದಾಗ ಮತ್ತು {} ದಿನವಾದಾಗ",
            CHECK_AGES[0], CHECK_AGES[1]
        ),
        format!("ಹೆಚ್ಚೆಂದರೆ {MAX_REDIRECTS} ಮರುನಿರ್ದೇಶನ"),
        "ನಿರಾಕರಣೆ ಅಂತಿಮ.".to_string(),
    ] {
        assert!(kn.contains(&want), "the Kannada page lacks {want:?}:\n{kn}");
    }
}

#[test]
fn times_show_in_the_configured_zone_with_utc_in_datetime() {
    let w = fixture("publish_zone", &ordinary());
    w.stage("publish", NOW);
    let doc = scraper::Html::parse_document(&page(&w, "en/index.html"));
    let sel = scraper::Selector::parse("time[datetime]").unwrap();
    let times: Vec<(String, String)> = doc
        .select(&sel)
        .map(|t| {
            (
                t.value().attr("datetime").unwrap().to_string(),
                t.text().collect(),
            )
        })
        .collect();
    assert!(
        times.contains(&(
            "2026-11-30T05:15:00Z".into(),
            "30 Nov 2026, 10:45 IST".into()
        )),
        "{times:?}"
    );
    let kn = page(&w, "kn/index.html");
    assert!(
        kn.contains(r#"<time datetime="2026-11-30T05:15:00Z">30 ನವೆಂಬರ್ 2026, 10:45 IST</time>"#)
    );
    w.stage_with("publish", NOW, &["--tz", "UTC"]);
    assert!(
        page(&w, "en/index.html")
            .contains(r#"<time datetime="2026-11-30T05:15:00Z">30 Nov 2026, 05:15 UTC</time>"#)
    );
    w.stage_with("publish", NOW, &["--tz", "-03:00 BRT"]);
    assert!(page(&w, "en/index.html").contains("30 Nov 2026, 02:15 BRT"));
    // A zone it cannot read is an error that says what it expects, and changes nothing.
    let before = page(&w, "en/index.html");
    let mut c = w.command("publish", NOW);
    c.args(["--tz", "Europe/Paris"]);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&c, &out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Asia/Kolkata"));
    assert_eq!(page(&w, "en/index.html"), before);
}

#[test]
fn same_inputs_give_the_same_bytes_and_stale_files_go() {
    let w = fixture("publish_same_bytes", &ordinary());
    w.stage("publish", NOW);
    let first = site_files(&w);
    std::fs::write(w.data.join("site/kn/days/2020-01-01.html"), "an old page").unwrap();
    std::fs::write(w.data.join("site/data/headlines-2020-01-01.csv"), "old").unwrap();
    w.stage("publish", &format!("{DAY}T23:59:59Z"));
    let second = site_files(&w);
    assert_eq!(first.len(), second.len(), "stale files are removed");
    for ((p1, b1), (p2, b2)) in first.iter().zip(&second) {
        assert_eq!(p1, p2);
        assert!(b1 == b2, "{} differs between runs", p1.display());
    }
}

#[test]
fn every_page_has_one_h1_ordered_headings_a_skip_link_and_a_twin() {
    let w = fixture("publish_structure", &ordinary());
    w.stage("publish", NOW);
    let site = w.data.join("site");
    let files = site_files(&w);
    let sel = |s: &str| scraper::Selector::parse(s).unwrap();
    let mut pages = 0;
    for (path, bytes) in files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
    {
        pages += 1;
        let html = String::from_utf8(bytes.clone()).unwrap();
        let doc = scraper::Html::parse_document(&html);
        let at = path.display();
        let lang = doc
            .select(&sel("html"))
            .next()
            .unwrap()
            .value()
            .attr("lang")
            .unwrap()
            .to_string();
        assert!(lang == "kn" || lang == "en", "{at}: html lang {lang}");
        assert_eq!(doc.select(&sel("h1")).count(), 1, "{at}: one h1");
        let mut level = 1;
        for h in doc.select(&sel("h1, h2, h3, h4, h5, h6")) {
            let l: usize = h.value().name()[1..].parse().unwrap();
            assert!(l <= level + 1, "{at}: <h{l}> after <h{level}>");
            level = l;
        }
        let first = doc.select(&sel("a[href]")).next().unwrap();
        assert_eq!(
            first.value().attr("href"),
            Some("#main"),
            "{at}: the skip link comes first"
        );
        assert_eq!(doc.select(&sel("main#main")).count(), 1);
        for a in doc.select(&sel("a")) {
            let text: String = a.text().collect::<String>().trim().to_lowercase();
            assert!(!text.is_empty(), "{at}: a link without text");
            assert!(
                !["here", "click here", "more", "link", "read more"].contains(&text.as_str()),
                "{at}: link text {text:?}"
            );
        }
        // The language switch leads to the same page in the other language.
        let switch = doc
            .select(&sel("a.switch"))
            .next()
            .unwrap_or_else(|| panic!("{at}: no language switch"));
        let target = path
            .parent()
            .unwrap()
            .join(switch.value().attr("href").unwrap());
        let target = normalise(&target);
        let twin = std::fs::read_to_string(site.join(&target))
            .unwrap_or_else(|e| panic!("{at}: switch to {}: {e}", target.display()));
        let other = if lang == "kn" { "en" } else { "kn" };
        assert!(
            twin.contains(&format!("<html lang=\"{other}\">")),
            "{at}: the switch leads to {other}"
        );
        assert_eq!(switch.value().attr("lang"), Some(other));
        assert!(bytes.len() < 64 * 1024, "{at} weighs {} bytes", bytes.len());
        assert!(
            !html.contains("<script") && !html.contains("@font-face") && !html.contains("@import"),
            "{at} loads nothing"
        );
    }
    assert!(pages >= 40, "{pages} pages");
}

/// `a/b/../c` → `a/c`, without touching the disk.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The public headlines of the kept days as `published.jsonl` has them, newest first.
fn published(w: &Workdir) -> Vec<huduku::records::Published> {
    let mut all = Vec::new();
    for day in std::fs::read_dir(&w.data).unwrap() {
        let path = day.unwrap().path().join("published.jsonl");
        if path.exists() {
            all.extend(
                std::fs::read_to_string(&path)
                    .unwrap()
                    .lines()
                    .map(|l| serde_json::from_str::<huduku::records::Published>(l).unwrap()),
            );
        }
    }
    all.sort_by(|a, b| b.published.cmp(&a.published).then(a.link.cmp(&b.link)));
    all
}

/// A site's feed, parsed back by feed-rs.
fn feed(w: &Workdir, rel: &str) -> feed_rs::model::Feed {
    let bytes =
        std::fs::read(w.data.join("site").join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    feed_rs::parser::parse(&bytes[..]).unwrap_or_else(|e| panic!("{rel} does not parse: {e}"))
}

const BASE: &str = "https://example.org/huduku/";

#[test]
fn every_list_has_an_atom_feed_of_its_headlines_that_parses_back() {
    let mut records = ordinary();
    // Publisher text with XML's own characters, and one XML 1.0 cannot hold at all.
    records.push(rec(
        "Evil <b>Outlet</b> & Co",
        "en",
        "Tom & Jerry <script>alert(1)</script> ]]> \"quoted\" \u{fffe}end",
        "https://evil.example/news/a.html?x=1&y=<2>",
        "2026-11-30T03:00:00Z",
        "sport",
        true,
    ));
    records.push(rec(
        "Deccan Daily Chronicle",
        "en",
        "Headline behind a javascript link",
        "javascript:alert(3)",
        "2026-11-30T03:02:00Z",
        "sport",
        false,
    ));
    let w = fixture("publish_feeds", &records);
    w.stage_with("publish", NOW, &["--base-url", BASE]);
    let public = published(&w);
    assert_eq!(public.len(), 6, "the javascript link is not public");
    let slugs = huduku::publish::site::slugs(public.iter().map(|p| p.outlet.as_str()));

    // The same bounded lists as the pages: the newest of all, of a topic, of an outlet.
    let lists: Vec<(String, Vec<&huduku::records::Published>)> = vec![
        ("latest".to_string(), public.iter().collect()),
        (
            "topics/sport".to_string(),
            public.iter().filter(|p| p.topic == "sport").collect(),
        ),
        (
            format!("outlets/{}", slugs["Evil <b>Outlet</b> & Co"]),
            public
                .iter()
                .filter(|p| p.outlet.starts_with("Evil"))
                .collect(),
        ),
        ("topics/health".to_string(), vec![]),
    ];
    for (name, want) in &lists {
        let mut ids = Vec::new();
        for lang in ["kn", "en"] {
            let rel = format!("{lang}/feeds/{name}.xml");
            let f = feed(&w, &rel);
            let raw =
                String::from_utf8(std::fs::read(w.data.join("site").join(&rel)).unwrap()).unwrap();
            assert!(
                !raw.contains('\u{fffe}') && !raw.contains("<script>"),
                "{rel}: {raw}"
            );
            assert!(
                f.id.starts_with("tag:huduku.org,2026:feed:"),
                "{rel}: {}",
                f.id
            );
            let title = f.title.as_ref().unwrap().content.clone();
            assert!(
                title.ends_with(if lang == "kn" {
                    "ಹುಡುಕು"
                } else {
                    "Huduku"
                }),
                "{rel}: {title}"
            );
            assert!(
                f.links
                    .iter()
                    .any(|l| l.rel.as_deref() == Some("self") && l.href == format!("{BASE}{rel}")),
                "{rel}: {:?}",
                f.links
            );
            assert!(f.links.iter().any(|l| l.rel.as_deref() == Some("alternate")
                && l.href.starts_with(BASE)
                && l.href.ends_with(".html")));
            assert_eq!(f.entries.len(), want.len(), "{rel}");
            for (e, p) in f.entries.iter().zip(want.iter()) {
                // Less what XML 1.0 cannot hold.
                assert_eq!(
                    e.title.as_ref().unwrap().content,
                    p.headline.replace('\u{fffe}', ""),
                    "{rel}"
                );
                assert_eq!(e.links.len(), 1, "{rel}");
                // (feed-rs hands links back as the url crate writes them.)
                assert_eq!(
                    e.links[0].href,
                    url::Url::parse(&p.link).unwrap().as_str(),
                    "{rel}: the publisher's own page"
                );
                assert!(e.links[0].href.starts_with("https://"));
                assert_eq!(e.id, format!("tag:huduku.org,2026:headline:{}", p.id));
                assert_eq!(e.published, Some(p.published));
                assert_eq!(e.updated, Some(p.published));
                assert_eq!(e.authors[0].name.as_deref(), Some(p.outlet.as_str()));
                assert!(e.categories.iter().any(|c| c.term == p.topic));
                assert_eq!(e.categories.iter().any(|c| c.term == "opinion"), p.opinion);
            }
            // Each entry carries its headline's language (feed-rs reads xml:lang only on content).
            for l in ["kn", "en"] {
                assert_eq!(
                    raw.matches(&format!("<entry xml:lang=\"{l}\">")).count(),
                    want.iter().filter(|p| p.lang == l).count(),
                    "{rel}"
                );
            }
            // Its time is its newest entry's, from the data.
            match want.first() {
                Some(p) => assert_eq!(f.updated, Some(p.published), "{rel}"),
                None => assert!(f.updated.is_some(), "{rel}"),
            }
            ids.push(f.entries.iter().map(|e| e.id.clone()).collect::<Vec<_>>());
        }
        assert_eq!(ids[0], ids[1], "{name}: the same entries in both languages");
    }
    // The hostile headline is text in the feed, escaped by the writer.
    let raw = w.read("site/en/feeds/latest.xml");
    assert!(raw.contains("Tom &amp; Jerry &lt;script&gt;"), "{raw}");
    assert!(raw.contains("href=\"https://evil.example/news/a.html?x=1&amp;y=&lt;2&gt;\""));
    // Every topic and every outlet page has one, in both languages.
    for lang in ["kn", "en"] {
        for topic in huduku::classify::TOPICS {
            assert!(
                w.data
                    .join(format!("site/{lang}/feeds/topics/{topic}.xml"))
                    .exists()
            );
        }
        for slug in slugs.values() {
            assert!(
                w.data
                    .join(format!("site/{lang}/feeds/outlets/{slug}.xml"))
                    .exists()
            );
        }
    }
}

#[test]
fn every_page_names_its_canonical_address_its_twins_a_description_and_its_feed() {
    let w = fixture("publish_head", &ordinary());
    w.stage_with("publish", NOW, &["--base-url", BASE]);
    let sel = |s: &str| scraper::Selector::parse(s).unwrap();
    let mut pages = 0;
    for (path, bytes) in site_files(&w)
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
    {
        pages += 1;
        let rel = path.to_string_lossy().into_owned();
        let doc = scraper::Html::parse_document(&String::from_utf8(bytes).unwrap());
        let lang = doc
            .select(&sel("html"))
            .next()
            .unwrap()
            .value()
            .attr("lang")
            .unwrap()
            .to_string();
        let attr = |q: &str, a: &str| -> Vec<String> {
            doc.select(&sel(q))
                .filter_map(|e| e.value().attr(a).map(String::from))
                .collect()
        };
        // One canonical address, absolute; the root index names the Kannada front page.
        let canonical = attr("head link[rel=canonical]", "href");
        // A page outside the language directories is a copy that names its original: the
        // root index the Kannada front page, fetching/index.html (the address in the user
        // agent) the English fetching page.
        let own = if rel == "index.html" {
            "kn/index.html".to_string()
        } else if rel == "fetching/index.html" {
            "en/fetching.html".to_string()
        } else {
            rel.clone()
        };
        assert_eq!(canonical, [format!("{BASE}{own}")], "{rel}");
        // Both languages and x-default (the Kannada page), absolute.
        let rest = own.split_once('/').unwrap().1;
        for (hreflang, target) in [("kn", "kn"), ("en", "en"), ("x-default", "kn")] {
            assert_eq!(
                attr(
                    &format!("head link[rel=alternate][hreflang={hreflang}]"),
                    "href"
                ),
                [format!("{BASE}{target}/{rest}")],
                "{rel}: {hreflang}"
            );
        }
        let description = attr("head meta[name=description]", "content");
        assert_eq!(description.len(), 1, "{rel}");
        assert!(
            description[0].chars().count() >= 40,
            "{rel}: {description:?}"
        );
        // In the page's language (an English page may name a Kannada outlet).
        let kannada = description[0]
            .chars()
            .any(|c| ('\u{0c80}'..='\u{0cff}').contains(&c));
        let english = description[0].starts_with(|c: char| c.is_ascii_alphanumeric());
        assert!(
            if lang == "kn" { kannada } else { english },
            "{rel}: {description:?}"
        );
        assert_eq!(attr("head link[rel=icon]", "href").len(), 1, "{rel}");
        let icon = normalise(
            &path
                .parent()
                .unwrap()
                .join(&attr("head link[rel=icon]", "href")[0]),
        );
        assert_eq!(icon, PathBuf::from("favicon.svg"), "{rel}");
        // The feed of the page's headlines, where it has one, absolute and there.
        let feeds = attr(
            "head link[rel=alternate][type='application/atom+xml']",
            "href",
        );
        let has_feed = rest == "index.html"
            || rest.starts_with("topics/") && rest != "topics/index.html"
            || rest.starts_with("outlets/") && rest != "outlets/index.html";
        assert_eq!(feeds.len(), has_feed as usize, "{rel}: {feeds:?}");
        for f in feeds {
            let file = f
                .strip_prefix(BASE)
                .unwrap_or_else(|| panic!("{rel}: {f} is not absolute"));
            assert!(file.starts_with(&format!("{lang}/feeds/")), "{rel}: {f}");
            assert!(w.data.join("site").join(file).exists(), "{rel}: {f}");
        }
    }
    assert!(pages >= 40);
    assert!(
        w.read("site/favicon.svg")
            .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")
    );
}

/// The `<loc>` of every `<url>` of a sitemap, with its alternates (hreflang, href).
fn sitemap_urls(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
    use quick_xml::events::Event;
    let mut r = quick_xml::Reader::from_str(xml);
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut in_loc = false;
    loop {
        match r.read_event().unwrap() {
            Event::Start(e) if e.name().0 == "url" => out.push((String::new(), vec![])),
            Event::Start(e) if e.name().0 == "loc" => in_loc = true,
            Event::End(e) if e.name().0 == "loc" => in_loc = false,
            Event::Text(t) if in_loc => {
                out.last_mut().unwrap().0 = quick_xml::escape::unescape(&t.xml10_content())
                    .unwrap()
                    .into_owned()
            }
            Event::Empty(e) if e.name().0 == "xhtml:link" => {
                let a = |k: &str| {
                    e.attributes()
                        .map(Result::unwrap)
                        .find(|a| a.key.0 == k)
                        .map(|a| quick_xml::escape::unescape(&a.value).unwrap().into_owned())
                        .unwrap()
                };
                out.last_mut().unwrap().1.push((a("hreflang"), a("href")));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

#[test]
fn the_sitemap_lists_every_page_and_robots_txt_names_it() {
    let w = fixture("publish_sitemap", &ordinary());
    w.stage_with("publish", NOW, &["--base-url", BASE]);
    let urls = sitemap_urls(&w.read("site/sitemap.xml"));
    let listed: BTreeSet<String> = urls.iter().map(|(l, _)| l.clone()).collect();
    assert_eq!(listed.len(), urls.len(), "each page once");
    let pages: BTreeSet<String> = site_files(&w)
        .into_iter()
        .map(|(p, _)| p.to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".html") && (p.starts_with("kn/") || p.starts_with("en/")))
        .map(|p| format!("{BASE}{p}"))
        .collect();
    assert_eq!(
        listed, pages,
        "every page but the copies outside the language directories (the root index, fetching/index.html: their canonicals are their originals)"
    );
    for (loc, alternates) in &urls {
        let rest = loc.strip_prefix(BASE).unwrap().split_once('/').unwrap().1;
        assert_eq!(
            alternates,
            &[
                ("kn".to_string(), format!("{BASE}kn/{rest}")),
                ("en".to_string(), format!("{BASE}en/{rest}")),
                ("x-default".to_string(), format!("{BASE}kn/{rest}")),
            ],
            "{loc}"
        );
    }
    let robots = w.read("site/robots.txt");
    assert!(robots.contains("User-agent: *\nAllow: /\n"), "{robots}");
    assert!(
        robots.contains(&format!("\nSitemap: {BASE}sitemap.xml\n")),
        "{robots}"
    );
    // The same address everywhere, from --base-url; the default is Huduku's own.
    w.stage("publish", NOW);
    assert!(
        w.read("site/robots.txt")
            .contains("Sitemap: https://huduku.org/sitemap.xml")
    );
    assert!(!w.read("site/sitemap.xml").contains("example.org"));
}

#[test]
fn no_page_has_an_empty_list() {
    // One kept day (no days around it) and no outlet stopped: lists that could be empty.
    let w = fixture("publish_no_empty_lists", &ordinary());
    w.stage("publish", NOW);
    let sel = |s: &str| scraper::Selector::parse(s).unwrap();
    let mut lists = 0;
    for (path, bytes) in site_files(&w)
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
    {
        let doc = scraper::Html::parse_document(&String::from_utf8(bytes).unwrap());
        for list in doc.select(&sel("ul, ol")) {
            lists += 1;
            assert!(
                list.select(&sel(":scope > li")).next().is_some(),
                "{}: an empty list: {}",
                path.display(),
                list.html()
            );
        }
        for nav in doc.select(&sel("nav")) {
            assert!(
                nav.select(&sel("a")).next().is_some(),
                "{}: an empty nav",
                path.display()
            );
        }
    }
    assert!(lists > 100, "{lists}");
}

#[test]
fn one_headline_is_one_headline_in_both_languages() {
    let w = fixture("publish_plurals", &ordinary());
    huduku::store::write_jsonl(
        &w.data.join("2026-11-29/20/classified.jsonl"),
        &[rec(
            "Plains Post",
            "en",
            "Yesterday's only news",
            "https://plains.example/news/y.html",
            "2026-11-29T19:00:00Z",
            "world",
            false,
        )],
    )
    .unwrap();
    w.stage("publish", NOW);
    let en = text_of(&page(&w, "en/days/index.html"));
    assert!(
        en.contains("(1 headline)") && en.contains("(5 headlines)"),
        "{en}"
    );
    let kn = text_of(&page(&w, "kn/days/index.html"));
    assert!(
        kn.contains("(1 ಮುಖ್ಯಾಂಶ)") && kn.contains("(5 ಮುಖ್ಯಾಂಶಗಳು)"),
        "{kn}"
    );
    assert!(text_of(&page(&w, "en/topics/index.html")).contains("(1 headline)"));
    assert!(text_of(&page(&w, "en/days/2026-11-29.html")).contains("1 headline."));
    for (path, bytes) in site_files(&w) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(" 1 headlines")
                && !text.contains("(1 headlines")
                && !text.contains(">1 headlines"),
            "{}",
            path.display()
        );
        assert!(!text.contains("1 ಮುಖ್ಯಾಂಶಗಳು"), "{}", path.display());
    }
}

#[test]
fn the_licence_line_is_in_the_pages_language() {
    let w = fixture("publish_licence_kn", &ordinary());
    w.stage("publish", NOW);
    let kn = page(&w, "kn/index.html");
    assert!(
        kn.contains(huduku::publish::i18n::DEFAULT_LICENCE_KN),
        "{kn}"
    );
    assert!(!kn.contains("crediting the outlets"));
    assert!(page(&w, "index.html").contains(huduku::publish::i18n::DEFAULT_LICENCE_KN));
    assert!(page(&w, "en/index.html").contains("CC BY 4.0, crediting the outlets"));
    // A licence of the operator's own is shown as given, marked as English on Kannada pages.
    let own = "CC0 1.0 for the compilation; headlines remain the outlets'";
    w.stage_with("publish", NOW, &["--licence", own]);
    let doc = scraper::Html::parse_document(&page(&w, "kn/days/index.html"));
    let sel = scraper::Selector::parse("footer span[lang=en]").unwrap();
    let spans: Vec<String> = doc.select(&sel).map(|s| s.text().collect()).collect();
    assert_eq!(
        spans,
        [own.to_string()],
        "{}",
        page(&w, "kn/days/index.html")
    );
    assert!(!page(&w, "kn/days/index.html").contains(huduku::publish::i18n::DEFAULT_LICENCE_KN));
}

#[test]
fn outlets_page_says_in_plain_words_what_each_site_did() {
    let w = fixture("publish_outlets_words", &ordinary());
    let stop = |at: &str, status: u16, reason: &str, url: &str| serde_json::json!({"at": at, "url": url, "status": status, "reason": reason, "evidence": "x"});
    let state = serde_json::json!({
        "sources": {},
        "sites": {
            "https://hill.example": {"wait_until": null, "waits_in_a_row": 0, "refused": stop("2026-11-20T07:05:00Z", 403, "challenge-cloudflare", "https://hill.example/feed.xml"), "halted": null},
            "https://plains.example": {"wait_until": null, "waits_in_a_row": 3, "refused": null, "halted": stop("2026-11-25T09:05:00Z", 503, "halted-3-waits", "https://plains.example/feed.xml")},
            "https://kn.example": {"wait_until": null, "waits_in_a_row": 0, "refused": stop("2026-11-28T00:35:00Z", 403, "robots-403", "https://kn.example/robots.txt"), "halted": null},
            "https://coastal.example": {"wait_until": null, "waits_in_a_row": 0, "refused": stop("2026-11-26T00:35:00Z", 200, "some-code-with-no-words", "https://coastal.example/feed.xml"), "halted": null}
        }
    });
    std::fs::write(
        w.data.join("state.json"),
        serde_json::to_string_pretty(&state).unwrap(),
    )
    .unwrap();
    std::fs::create_dir_all(w.data.join("2026-11-28")).unwrap();
    std::fs::write(
        w.data.join("2026-11-28/robots.jsonl"),
        format!("{}\n", serde_json::json!({"site": "https://kn.example", "fetched_at": "2026-11-28T00:35:00Z", "status": 403, "verdict": "refused", "reason": "robots.txt answered 403", "crawl_delay": null, "content_signal": null, "file": null})),
    )
    .unwrap();
    w.stage("publish", NOW);
    for (lang, says) in [
        (
            "en",
            vec![
                "Refused HudukuBot since 20 Nov 2026 (hill.example): it answered with a Cloudflare page that checks for robots.",
                "Stopped after repeated requests to wait since 25 Nov 2026 (plains.example): it asked HudukuBot to wait 3 times in a row (HTTP 429 or 503).",
                "Refused HudukuBot since 28 Nov 2026 (kn.example): its robots.txt is forbidden to HudukuBot (HTTP 403).",
                "Refused HudukuBot since 26 Nov 2026 (coastal.example).",
            ],
        ),
        (
            "kn",
            vec![
                "ರೋಬಾಟ್‌ಗಳನ್ನು ತಪಾಸಿಸುವ Cloudflare ಪುಟವನ್ನು ಉತ್ತರವಾಗಿ ನೀಡಿತು",
                "HudukuBot ಗೆ ಸತತ 3 ಬಾರಿ ಕಾಯಲು ಹೇಳಿತು",
                "ಅದರ robots.txt HudukuBot ಗೆ ಪ್ರವೇಶ ನಿಷೇಧಿಸಿತು (HTTP 403)",
            ],
        ),
    ] {
        let doc = scraper::Html::parse_document(&page(&w, &format!("{lang}/outlets/index.html")));
        let main = doc
            .select(&scraper::Selector::parse("main").unwrap())
            .next()
            .unwrap();
        let html = main.html();
        let text = main
            .text()
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for s in says {
            assert!(text.contains(s), "{lang}: {s:?} in\n{text}");
        }
        for code in [
            "challenge-",
            "halted-3",
            "robots-403",
            "refused-",
            "some-code",
            "https://",
            "http://",
            "<code>",
        ] {
            assert!(!html.contains(code), "{lang}: {code} shown raw:\n{text}");
        }
        // robots.txt's refusal is said once, as the refusal of the site.
        assert_eq!(
            text.matches("kn.example").count(),
            2,
            "{lang}: its site, and its stop once:\n{text}"
        );
    }
}

#[test]
fn a_source_failing_for_a_day_is_not_answering_rather_than_read() {
    let w = fixture("publish_failing_source", &ordinary());
    let end = "2026-11-30T06:05:00Z";
    fetch_log(
        &w,
        "2026-11-28",
        "05",
        &hill_line("2026-11-28T05:05:00Z", 200, "fetched", ""),
        end,
    );
    fetch_log(
        &w,
        "2026-11-30",
        "05",
        &hill_line("2026-11-30T05:05:00Z", 500, "failed", "http-500"),
        end,
    );
    w.stage("publish", NOW);
    let read = |w: &Workdir, lang: &str| {
        let doc = scraper::Html::parse_document(&page(w, &format!("{lang}/outlets/index.html")));
        let sel = scraper::Selector::parse("section[aria-labelledby=read] li").unwrap();
        doc.select(&sel)
            .map(|li| li.text().collect::<String>())
            .find(|t| t.contains("Hill Herald"))
            .unwrap()
    };
    // One failure an hour ago: still read.
    assert!(read(&w, "en").ends_with("Read"), "{}", read(&w, "en"));
    // Failing from the 29th to the 30th: a day and more of asking without a good answer.
    fetch_log(
        &w,
        "2026-11-29",
        "05",
        &hill_line(
            "2026-11-29T05:05:00Z",
            0,
            "failed",
            "unreachable: timed out",
        ),
        end,
    );
    w.stage("publish", NOW);
    let en = read(&w, "en");
    assert!(
        en.contains("Not answering since 29 Nov 2026") && !en.contains("Read"),
        "{en}"
    );
    assert!(
        read(&w, "kn").contains("29 ನವೆಂಬರ್ 2026 ರಿಂದ ಉತ್ತರಿಸುತ್ತಿಲ್ಲ"),
        "{}",
        read(&w, "kn")
    );
    assert!(
        text_of(&page(&w, "en/outlets/hill-herald.html"))
            .contains("Not answering since 29 Nov 2026")
    );
    // The others answer: read.
    let doc = text_of(&page(&w, "en/outlets/index.html"));
    assert_eq!(doc.matches("Not answering").count(), 1, "{doc}");
    // A good answer again: read again.
    fetch_log(
        &w,
        "2026-11-30",
        "06",
        &hill_line("2026-11-30T06:05:00Z", 200, "fetched", ""),
        end,
    );
    w.stage("publish", NOW);
    assert!(read(&w, "en").ends_with("Read"), "{}", read(&w, "en"));
}

#[test]
fn the_front_page_says_when_its_newest_headline_was_found_the_same_on_a_replay() {
    let mut records = ordinary();
    records[0].first_seen = huduku::time::parse_now("2026-11-30T05:35:00Z").unwrap();
    for r in records.iter_mut().skip(1) {
        r.first_seen = huduku::time::parse_now("2026-11-30T04:05:00Z").unwrap();
    }
    let w = fixture("publish_updated", &records);
    w.stage("publish", NOW);
    let sel = scraper::Selector::parse("main p.note time[datetime]").unwrap();
    for (rel, words) in [
        ("index.html", "ನವೀಕರಿಸಿದ್ದು: 30 ನವೆಂಬರ್ 2026, 11:05 IST."),
        ("kn/index.html", "ನವೀಕರಿಸಿದ್ದು: 30 ನವೆಂಬರ್ 2026, 11:05 IST."),
        ("en/index.html", "Updated: 30 Nov 2026, 11:05 IST."),
    ] {
        let html = page(&w, rel);
        let doc = scraper::Html::parse_document(&html);
        let times: Vec<&str> = doc
            .select(&sel)
            .filter_map(|t| t.value().attr("datetime"))
            .collect();
        assert_eq!(times, ["2026-11-30T05:35:00Z"], "{rel}");
        let notes: Vec<String> = doc
            .select(&scraper::Selector::parse("main p.note").unwrap())
            .map(|p| p.text().collect())
            .collect();
        assert!(notes.iter().any(|n| n == words), "{rel}: {notes:?}");
    }
    // A replay of the day passes the end of the day as --now: the same bytes, feeds too.
    let before = site_files(&w);
    w.stage("publish", &format!("{DAY}T23:59:59Z"));
    assert_eq!(before, site_files(&w));
    assert!(
        before
            .iter()
            .any(|(p, _)| p.ends_with("kn/feeds/latest.xml"))
    );
}

#[test]
fn operators_files_are_copied_kept_and_never_stand_where_publish_writes() {
    let w = fixture("publish_site_extra", &ordinary());
    let extra = w.pipeline.join("site-extra");
    std::fs::create_dir_all(extra.join(".well-known")).unwrap();
    let verification = "google-site-verification: google0123456789abcdef.html\n";
    std::fs::write(extra.join("google0123456789abcdef.html"), verification).unwrap();
    std::fs::write(
        extra.join(".well-known/security.txt"),
        "Contact: mailto:contact@huduku.org\n",
    )
    .unwrap();
    let icon = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"9\"/></svg>\x00\xff";
    std::fs::write(extra.join("favicon.svg"), icon).unwrap();
    w.stage("publish", NOW);
    assert_eq!(w.read("site/google0123456789abcdef.html"), verification);
    assert!(
        w.read("site/.well-known/security.txt")
            .starts_with("Contact:")
    );
    assert_eq!(
        std::fs::read(w.data.join("site/favicon.svg")).unwrap(),
        icon,
        "the operator's icon, byte for byte"
    );
    // The next publish keeps them (its prune removes only what nobody wrote).
    w.stage("publish", NOW);
    assert_eq!(w.read("site/google0123456789abcdef.html"), verification);
    assert!(w.data.join("site/.well-known/security.txt").exists());
    // Taken out of site-extra, a file goes from the site; publish's own icon comes back.
    std::fs::remove_file(extra.join("favicon.svg")).unwrap();
    std::fs::remove_file(extra.join(".well-known/security.txt")).unwrap();
    w.stage("publish", NOW);
    assert!(!w.data.join("site/.well-known/security.txt").exists());
    assert!(w.read("site/favicon.svg").contains("viewBox"));
    // A file where publish writes stops the run before it writes anything, naming both.
    let before = site_files(&w);
    for clash in [
        "robots.txt",
        "kn/index.html",
        "data/README.txt",
        "sitemap.xml",
        "en/feeds/latest.xml",
    ] {
        let file = extra.join(clash);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "mine").unwrap();
        let mut c = w.command("publish", NOW);
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{clash}: {}",
            describe(&c, &out)
        );
        assert!(
            err.contains(&format!("site-extra/{clash}")) && err.contains(&format!("site/{clash}")),
            "{clash}: {err}"
        );
        assert!(site_files(&w) == before, "{clash}: nothing written");
        std::fs::remove_file(&file).unwrap();
    }
    w.stage("publish", NOW);
}

#[test]
fn a_crowded_topic_gets_a_page_of_its_own_for_the_day() {
    let cap = huduku::publish::site::DAY_TOPIC_MAX;
    let mut records = ordinary();
    for i in 0..cap + 30 {
        records.push(rec(
            "Plains Post",
            "en",
            &format!("Sport item {i:03}"),
            &format!("https://plains.example/news/s{i:03}.html"),
            &format!("2026-11-30T0{}:{:02}:00Z", i / 60 % 5, i % 60),
            "sport",
            false,
        ));
    }
    let w = fixture("publish_crowded_topic", &records);
    w.stage("publish", NOW);
    let links = |html: &str| -> Vec<String> {
        let doc = scraper::Html::parse_document(html);
        doc.select(&scraper::Selector::parse("a.h").unwrap())
            .map(|a| a.text().collect())
            .collect()
    };
    for lang in ["en", "kn"] {
        let day = page(&w, &format!("{lang}/days/{DAY}.html"));
        let shown = links(&day);
        let doc = scraper::Html::parse_document(&day);
        let sport = doc
            .select(&scraper::Selector::parse("section[aria-labelledby=t-sport] ul.hl li").unwrap())
            .count();
        assert_eq!(sport, cap, "{lang}: the day page lists {cap} of the topic");
        assert!(
            shown.contains(&"ರಣಜಿ ಟ್ರೋಫಿ: ಕರ್ನಾಟಕಕ್ಕೆ ಜಯ".to_string()),
            "the newest of the topic come first"
        );
        assert!(
            shown.contains(&"Namma Metro's Pink Line opens".to_string()),
            "other topics stay whole"
        );
        let doc = scraper::Html::parse_document(&day);
        let more = doc
            .select(&scraper::Selector::parse("p.more a").unwrap())
            .map(|a| {
                normalise(
                    &Path::new(lang)
                        .join("days")
                        .join(a.value().attr("href").unwrap()),
                )
            })
            .collect::<Vec<_>>();
        assert_eq!(
            more,
            [PathBuf::from(format!("{lang}/days/{DAY}/sport.html"))],
            "{lang}"
        );
        let topic_day = page(&w, &format!("{lang}/days/{DAY}/sport.html"));
        let all: Vec<String> = links(&topic_day);
        assert_eq!(all.len(), cap + 31, "{lang}: the topic's page has all");
        assert!(all.iter().any(|h| h == "Sport item 129"));
    }
    // The open data has every headline of the day.
    assert_eq!(
        w.read(&format!("site/data/headlines-{DAY}.jsonl"))
            .lines()
            .count(),
        records.len()
    );
}

#[test]
fn a_days_page_of_one_topic_lists_at_most_its_bound_and_points_to_the_open_data() {
    let cap = huduku::publish::site::DAY_TOPIC_PAGE_MAX;
    let n = cap + 50;
    let records: Vec<Classified> = (0..n)
        .map(|i| {
            rec(
                "Plains Post",
                "en",
                &format!("Flood item {i:04}"),
                &format!("https://plains.example/news/f{i:04}.html"),
                &format!(
                    "2026-11-30T0{}:{:02}:{:02}Z",
                    i / 3600 % 5,
                    i / 60 % 60,
                    i % 60
                ),
                "environment",
                false,
            )
        })
        .collect();
    let w = fixture("publish_day_topic_bound", &records);
    w.stage("publish", NOW);
    let sel = |s: &str| scraper::Selector::parse(s).unwrap();
    for lang in ["en", "kn"] {
        let html = page(&w, &format!("{lang}/days/{DAY}/environment.html"));
        let doc = scraper::Html::parse_document(&html);
        let shown: Vec<String> = doc
            .select(&sel("a.h"))
            .map(|a| a.text().collect())
            .collect();
        assert_eq!(shown.len(), cap, "{lang}: the page lists the newest {cap}");
        assert_eq!(shown[0], format!("Flood item {:04}", n - 1), "newest first");
        assert!(
            doc.select(&sel("a[href]"))
                .any(|a| a.value().attr("href")
                    == Some(&*format!("../../../data/headlines-{DAY}.csv"))),
            "{lang}: the page points to the day's open data"
        );
        let day = page(&w, &format!("{lang}/days/{DAY}.html"));
        assert!(
            day.contains(&n.to_string()),
            "{lang}: the day page says how many"
        );
    }
    assert!(
        page(&w, &format!("en/days/{DAY}.html"))
            .contains(&format!("The newest {cap} of {n} headlines on Environment"))
    );
    // The open data has every one.
    assert_eq!(
        w.read(&format!("site/data/headlines-{DAY}.jsonl"))
            .lines()
            .count(),
        n
    );
}

/// Runs publish to its end; returns its own peak resident memory in MiB (the rusage that
/// `wait4` returns for that one child, so other tests' children never count).
fn publish_peak_mib(w: &Workdir, now: &str) -> f64 {
    let mut c = w.command("publish", now);
    c.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    // wait4 below reaps it, and gives its rusage as it does.
    #[allow(clippy::zombie_processes)]
    let child = c.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut ru) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "publish failed: {status}"
    );
    ru.ru_maxrss as f64 / 1024.0
}

#[test]
fn publish_holds_one_day_in_memory_not_every_kept_day() {
    // Ten days of 20,000 headlines each (one outlet, one topic, like a runaway feed):
    // holding every kept day took about 200 MiB; one day at a time, a small part of that.
    let (days, per_day) = (10usize, 20_000usize);
    let w = Workdir::new("publish_memory_one_day");
    std::fs::write(&w.sources, SOURCES).unwrap();
    for d in 0..days {
        let day = format!("2026-11-{:02}", 21 + d);
        for hour in 0..4 {
            let mut out = String::new();
            for i in 0..per_day / 4 {
                let link = format!("https://plains.example/news/{d}/{hour}/{i:05}.html");
                let at = format!("{day}T{hour:02}:{:02}:{:02}Z", i / 60 % 60, i % 60);
                let c = rec(
                    "Plains Post",
                    "en",
                    &format!("Runaway item {d}-{hour}-{i}"),
                    &link,
                    &at,
                    "world",
                    false,
                );
                out.push_str(&serde_json::to_string(&c).unwrap());
                out.push('\n');
            }
            let dir = w.data.join(&day).join(format!("{hour:02}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("classified.jsonl"), out).unwrap();
        }
    }
    let mib = publish_peak_mib(&w, NOW);
    assert!(
        mib < 64.0,
        "publish of {days} days x {per_day} headlines peaked at {mib:.0} MiB"
    );
    // Every day is published, and no page grew with the headlines.
    let csvs = std::fs::read_dir(w.data.join("site/data")).unwrap().count();
    assert_eq!(
        csvs,
        2 * days + 5,
        "CSV and JSON lines per day, README, index, schema, datapackage.json, SHA256SUMS"
    );
    for (path, bytes) in site_files(&w) {
        if path.extension().is_some_and(|e| e == "html") {
            assert!(
                bytes.len() < 1 << 20,
                "{} weighs {} bytes",
                path.display(),
                bytes.len()
            );
        }
    }
}

/// Control characters (C0 but tab and newline, DEL, C1) and bidirectional embeddings,
/// overrides and isolates: none may reach a page or the open data.
fn unwanted(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[test]
fn control_and_bidi_characters_never_reach_pages_or_open_data_and_headlines_sit_in_bdi() {
    let headline = "ರಣಜಿ\u{0}\u{1b}[2J\u{7} ಟ್ರೋಫಿ\u{85}\u{9b}:\tಕರ್ನಾ\u{200d}ಟಕ\u{200c}ಕ್ಕೆ\nಜಯ \u{202e}txet desrever\u{202c} \u{2067}عربي\u{2069}";
    let clean = "ರಣಜಿ[2J ಟ್ರೋಫಿ: ಕರ್ನಾ\u{200d}ಟಕ\u{200c}ಕ್ಕೆ ಜಯ txet desrever عربي";
    let mut records = ordinary();
    records.push(rec(
        "Bidi\u{202e} Times\u{1}",
        "kn",
        headline,
        "https://kn.example/news/controls.html",
        "2026-11-30T05:30:00Z",
        "sport",
        false,
    ));
    let w = fixture("publish_controls_bidi", &records);
    w.stage("publish", NOW);
    let mut checked = 0;
    for (path, bytes) in site_files(&w) {
        let text = String::from_utf8(bytes).unwrap();
        let at = path.display();
        // Tabs and newlines of our own (CSV line ends) are allowed; none comes from a headline.
        let bad: Vec<char> = text
            .chars()
            .filter(|c| unwanted(*c) && *c != '\n')
            .collect();
        assert!(bad.is_empty(), "{at} holds {bad:?}");
        assert!(
            !text.contains("\\u00") && !text.contains("\\t"),
            "{at}: an escaped control"
        );
        if text.contains("txet desrever") {
            checked += 1;
            assert!(text.contains(clean), "{at} has the headline, cleaned");
        }
    }
    assert!(
        checked >= 8,
        "the headline is on pages and in the open data: {checked}"
    );
    let published = w.read(&format!("{DAY}/published.jsonl"));
    assert!(!published.chars().any(|c| unwanted(c) && c != '\n'));
    // The CSV and the JSON lines carry it as one clean field.
    let mut rdr =
        csv::Reader::from_path(w.data.join(format!("site/data/headlines-{DAY}.csv"))).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert!(
        rows.iter().any(|r| &r[1] == clean && &r[0] == "Bidi Times"),
        "{rows:?}"
    );
    // Every headline and outlet name on a page sits in a <bdi>.
    let sel = |s: &str| scraper::Selector::parse(s).unwrap();
    for rel in [
        "en/index.html",
        "kn/index.html",
        &format!("en/days/{DAY}.html"),
        "en/topics/sport.html",
    ] {
        let doc = scraper::Html::parse_document(&page(&w, rel));
        let mut n = 0;
        for a in doc.select(&sel("a.h")) {
            let bdi: Vec<_> = a.select(&sel("bdi")).collect();
            assert_eq!(bdi.len(), 1, "{rel}: {}", a.html());
            assert_eq!(
                bdi[0].text().collect::<String>(),
                a.text().collect::<String>()
            );
            n += 1;
        }
        assert!(n >= 2, "{rel}: {n} headlines");
        for meta in doc.select(&sel("ul.hl .meta")) {
            assert!(
                meta.select(&sel("bdi")).next().is_some(),
                "{rel}: outlet in {}",
                meta.html()
            );
        }
        assert!(
            doc.select(&sel("a.h bdi"))
                .any(|b| b.text().collect::<String>() == clean)
        );
    }
}

#[test]
fn open_data_is_an_archive_and_a_removal_reaches_every_day_however_old() {
    const OLD: &str = "2026-10-01";
    let w = fixture("publish_archive", &ordinary());
    let old = [
        rec(
            "Hill Herald",
            "en",
            "An old story that stays",
            "https://hill.example/news/old-stays.html",
            "2026-10-01T04:00:00Z",
            "local",
            false,
        ),
        rec(
            "Plains Post",
            "en",
            "An old story taken down later",
            "https://plains.example/news/old-gone.html",
            "2026-10-01T03:00:00Z",
            "local",
            false,
        ),
    ];
    huduku::store::write_jsonl(&w.data.join(OLD).join("05/classified.jsonl"), &old).unwrap();
    // Published while the old day was on the pages, then again 60 days on.
    w.stage("publish", "2026-10-01T23:59:59Z");
    assert!(w.data.join("site/en/days/2026-10-01.html").exists());
    w.stage("publish", NOW);
    let csv = format!("site/data/headlines-{OLD}.csv");
    let jsonl = format!("site/data/headlines-{OLD}.jsonl");
    let published = format!("{OLD}/published.jsonl");
    assert!(
        !w.data.join("site/en/days/2026-10-01.html").exists(),
        "the pages have a window"
    );
    for f in [&csv, &jsonl, &published] {
        let text = w.read(f);
        assert!(
            text.contains("An old story that stays") && text.contains("old-gone"),
            "{f} stays published: {text}"
        );
    }
    let sums = w.read("site/data/SHA256SUMS");
    assert!(sums.contains(&format!("  headlines-{OLD}.csv\n")), "{sums}");
    assert!(
        w.read("site/data/README.txt")
            .contains(&format!("{OLD}: 2 headlines"))
    );
    let check = |w: &Workdir| {
        let out = Command::new("sha256sum")
            .args(["-c", "--quiet", "SHA256SUMS"])
            .current_dir(w.data.join("site/data"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    };
    check(&w);

    // A takedown of the old headline rewrites that day's files, though no page shows it.
    w.append(
        "takedowns.csv",
        "https://plains.example/news/old-gone.html,2026-11-30,asked by the publisher",
    );
    w.stage("publish", NOW);
    for f in [&csv, &jsonl, &published] {
        let text = w.read(f);
        assert!(
            !text.contains("old-gone"),
            "{f} still holds the taken-down link"
        );
        assert!(text.contains("An old story that stays"), "{f}");
    }
    assert!(
        w.read("site/data/README.txt")
            .contains(&format!("{OLD}: 1 headline\n"))
    );
    check(&w);

    // A window of no days is refused, and nothing is lost.
    let mut c = w.command("publish", NOW);
    c.args(["--days", "0"]);
    let out = c.output().unwrap();
    assert!(
        !matches!(out.status.code(), Some(0) | Some(3)),
        "{}",
        describe(&c, &out)
    );
    assert!(w.read(&csv).contains("An old story that stays"));
    assert!(
        w.data
            .join(format!("site/data/headlines-{DAY}.csv"))
            .exists()
    );
}

/// One `fetch.jsonl` line of fetch-feeds asking a Hill Herald feed at `at`.
fn hill_line(at: &str, status: u16, outcome: &str, reason: &str) -> String {
    let url = "https://hill.example/feed.xml";
    format!(
        "{}\n",
        serde_json::json!({"at": at, "stage": "fetch-feeds", "site": "https://hill.example", "url": url, "method": "GET", "source": url, "status": status, "outcome": outcome, "reason": reason, "bytes": null, "etag": null, "last_modified": null, "until": null, "evidence": format!("status {status}")})
    )
}

/// Writes an hour's fetch log and leaves `state.json` the fold of every log, as fetch-feeds
/// does at the end of its run.
fn fetch_log(w: &Workdir, day: &str, hour: &str, text: &str, now: &str) {
    let dir = w.data.join(day).join(hour);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fetch.jsonl"), text).unwrap();
    let data = huduku::store::Data::new(&w.data);
    huduku::state::State::rebuild(&data, huduku::time::parse_now(now).unwrap())
        .unwrap()
        .save(&data.state_file())
        .unwrap();
}

#[test]
fn a_days_outlets_page_shows_the_state_of_that_day_however_late_it_is_made() {
    let w = fixture("publish_state_as_of_the_day", &ordinary());
    let end = format!("{DAY}T23:59:59Z");
    fetch_log(
        &w,
        DAY,
        "05",
        &hill_line("2026-11-30T05:05:00Z", 200, "fetched", ""),
        &end,
    );
    w.stage("publish", &end);
    let pages = ["en/outlets/index.html", "kn/outlets/index.html"];
    let before: Vec<String> = pages.iter().map(|p| page(&w, p)).collect();
    assert!(
        !before[0].contains("Refused HudukuBot"),
        "nothing refused yet"
    );
    // Days later Hill Herald refuses; fetch-feeds logs it and folds it into state.json.
    fetch_log(
        &w,
        "2026-12-03",
        "07",
        &hill_line("2026-12-03T07:05:00Z", 403, "refused", "refused-403"),
        "2026-12-03T07:05:00Z",
    );
    // The earlier day, made again (a replay): its outlets page is the same bytes.
    w.stage("publish", &end);
    for (p, was) in pages.iter().zip(&before) {
        assert!(
            page(&w, p) == *was,
            "{p} of {DAY} shows a refusal learned on 3 Dec"
        );
    }
    // As of the later day the refusal shows, from state.json and from the logs alike.
    let later = "2026-12-03T08:05:00Z";
    w.stage("publish", later);
    let live = page(&w, pages[0]);
    assert!(
        text_of(&live).contains("Refused HudukuBot since 3 Dec 2026"),
        "{}",
        text_of(&live)
    );
    std::fs::remove_file(w.data.join("state.json")).unwrap();
    w.stage("publish", later);
    assert!(
        page(&w, pages[0]) == live,
        "the fold of the logs is what state.json holds"
    );
}

/// An outlet whose every source still waits for a person's check is not fetched, and the
/// outlets page says so, in both languages, rather than "Read".
#[test]
fn an_outlet_whose_sources_wait_for_a_check_is_not_yet_read() {
    let w = fixture("publish_unchecked_outlet", &ordinary());
    std::fs::write(
        &w.sources,
        SOURCES.replace(
            "https://plains.example/feed.xml,,checked",
            "https://plains.example/feed.xml,,unchecked",
        ),
    )
    .unwrap();
    w.stage("publish", NOW);
    for (lang, words, read) in [
        ("en", "Not read yet: its feeds wait for a check", "Read"),
        ("kn", "ಇನ್ನೂ ಓದಿಲ್ಲ", "ಓದಲಾಗುತ್ತಿದೆ"),
    ] {
        let doc = scraper::Html::parse_document(&page(&w, &format!("{lang}/outlets/index.html")));
        let item = |section: &str, name: &str| {
            let sel = scraper::Selector::parse(&format!("section[aria-labelledby={section}] li"))
                .unwrap();
            doc.select(&sel)
                .map(|li| li.text().collect::<String>())
                .find(|t| t.contains(name))
        };
        assert!(
            item("read", "Plains Post").is_none(),
            "{lang}: listed as read"
        );
        let plains = item("not-read", "Plains Post").expect("listed as not read");
        assert!(
            plains.contains(words) && !plains.contains(read),
            "{lang}: {plains}"
        );
        // The others, checked, are read.
        assert!(
            item("read", "Hill Herald").is_some_and(|t| t.contains(read)),
            "{lang}"
        );
    }
}
