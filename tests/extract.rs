//! `extract` on every kind of body a newsroom serves: golden files for each format, bodies
//! cut off at every point, a 50 MB body, entity bombs, and the hour-to-hour bookkeeping
//! (an item seen in an earlier hour is not new again; an undated item is "first seen").

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use huduku::extract::{MAX_BODY, parse_body};
use huduku::lists::Kind;
use support::pipeline::{Workdir, repo};
use url::Url;

const NOW: &str = "2026-11-30T06:05:00Z";

fn fixtures() -> PathBuf {
    repo().join("tests/fixtures/feeds")
}

/// One row of `tests/fixtures/feeds/index.csv`.
struct Row {
    file: String,
    url: String,
    content_type: Option<String>,
    kind: Kind,
    selector: Option<String>,
    error: Option<String>,
}

fn index() -> Vec<Row> {
    let text = std::fs::read_to_string(fixtures().join("index.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.splitn(6, ',').collect();
            let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
            Row {
                file: c[0].into(),
                url: c[1].into(),
                content_type: opt(c[2]),
                kind: match c[3] {
                    "feed" => Kind::Feed,
                    "sitemap" => Kind::Sitemap,
                    "homepage" => Kind::Homepage,
                    k => panic!("kind {k}"),
                },
                selector: opt(c[4]),
                error: opt(c[5]),
            }
        })
        .collect()
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Feed => "feed",
        Kind::Sitemap => "sitemap",
        Kind::Homepage => "homepage",
    }
}

fn extract_file(row: &Row) -> (String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_extract"));
    c.env_clear()
        .args([
            "--now",
            NOW,
            "--data",
            "/nonexistent",
            "--kind",
            kind_name(row.kind),
        ])
        .arg("--file")
        .arg(fixtures().join(&row.file))
        .args(["--url", &row.url]);
    if let Some(ct) = &row.content_type {
        c.args(["--content-type", ct]);
    }
    if let Some(s) = &row.selector {
        c.args(["--selector", s]);
    }
    let out = c.output().unwrap();
    let code = out.status.code();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        matches!(code, Some(0) | Some(3)),
        "{}: exit {code:?}: {stderr}",
        row.file
    );
    assert_eq!(
        code == Some(3),
        row.error.is_some() && !row.error.as_ref().unwrap().contains("sitemap index"),
        "{}: exit 3 exactly when the body has an error: {stderr}",
        row.file
    );
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

#[test]
fn every_format_reads_as_its_golden_file() {
    let rows = index();
    assert!(rows.len() >= 15);
    for row in &rows {
        let (stdout, stderr) = extract_file(row);
        let expected =
            std::fs::read_to_string(fixtures().join(format!("{}.expected.jsonl", row.file)))
                .unwrap();
        assert_eq!(
            stdout, expected,
            "{} differs from its golden file",
            row.file
        );
        if let Some(e) = &row.error {
            assert!(
                stderr.contains(e.as_str()),
                "{}: stderr {stderr:?} lacks {e:?}",
                row.file
            );
        }
    }
}

fn parse_row(row: &Row, body: &[u8]) -> huduku::extract::Parsed {
    let base = Url::parse(&row.url).unwrap();
    parse_body(
        row.kind,
        body,
        &base,
        row.content_type.as_deref(),
        row.selector.as_deref(),
    )
}

fn first(row: &Row) -> huduku::extract::Parsed {
    parse_row(row, &std::fs::read(fixtures().join(&row.file)).unwrap())
}

#[test]
fn kannada_arrives_intact_in_utf8_and_utf16() {
    let rows = index();
    let utf8 = first(rows.iter().find(|r| r.file == "rss10.xml").unwrap());
    let utf16 = first(rows.iter().find(|r| r.file == "rss10-utf16le.xml").unwrap());
    assert_eq!(utf8.items, utf16.items);
    assert_eq!(utf8.items[0].headline, "ಕಾವೇರಿ ನೀರು: ತಮಿಳುನಾಡಿಗೆ ಬಿಡುಗಡೆ");
    assert!(utf16.error.is_none());
}

#[test]
fn latin1_label_means_windows_1252_and_http_charset_wins() {
    let rows = index();
    let p = first(rows.iter().find(|r| r.file == "rss091-latin1.xml").unwrap());
    assert_eq!(
        p.items[0].headline,
        "\u{201c}Café culture\u{201d} reaches Malpe \u{2013} and stays"
    );
    let p = first(rows.iter().find(|r| r.file == "http-charset.xml").unwrap());
    assert_eq!(
        p.items[0].headline,
        "\u{201c}Served\u{201d} as windows-1252"
    );
}

#[test]
fn non_http_links_are_dropped_and_counted() {
    let rows = index();
    let p = first(rows.iter().find(|r| r.file == "rss20-kannada.xml").unwrap());
    assert_eq!(p.dropped, 1);
    assert!(p.items.iter().all(|i| i.link.starts_with("https://")));
    assert!(!p.items.iter().any(|i| i.headline.contains("not http")));
    // Relative links resolve against the feed's own address; a guid permalink is a link.
    assert_eq!(
        p.items[0].link,
        "https://www.prajavarthe.example/rajya/belagavi-adhiveshana.html?utm_source=rss&utm_medium=feed"
    );
    assert_eq!(
        p.items[2].link,
        "https://www.prajavarthe.example/abhipraya/sampadakiya-bus.html"
    );
    // IST is India Standard Time; a date-less item has no date.
    assert_eq!(
        huduku::time::fmt(p.items[1].published.unwrap()),
        "2026-11-30T04:35:00Z"
    );
    assert_eq!(p.items[3].published, None);
    // Summaries are plain text, from description or content:encoded.
    assert_eq!(
        p.items[0].summary.as_deref(),
        Some("ಡಿಸೆಂಬರ್ 8ರಿಂದ ಅಧಿವೇಶನ. ಮುಂದೆ ಓದಿ")
    );
    assert_eq!(p.items[1].summary.as_deref(), Some("ಮಾರುಕಟ್ಟೆಯಲ್ಲಿ ಧಾರಣೆ ಕುಸಿತ."));
}

#[test]
fn sitemap_index_gives_its_children_not_items() {
    let rows = index();
    let p = first(rows.iter().find(|r| r.file == "sitemap-index.xml").unwrap());
    assert!(p.items.is_empty());
    assert_eq!(
        p.children,
        [
            "https://www.udayavani.example/sitemap/news-1.xml",
            "https://www.udayavani.example/sitemap/news-2.xml"
        ]
    );
    assert_eq!(p.dropped, 1, "the ftp: child is dropped");
    assert!(p.error.is_none());
}

#[test]
fn news_sitemap_gives_title_date_genres_and_publication() {
    let rows = index();
    let p = first(rows.iter().find(|r| r.file == "news-sitemap.xml").unwrap());
    assert_eq!(p.items.len(), 2);
    assert_eq!(p.dropped, 1, "a <url> without news:title is not news");
    assert_eq!(p.items[1].category, ["Opinion", "Blog"]);
    assert_eq!(p.items[0].publication.as_deref(), Some("ಉದಯವಾಣಿ"));
    assert_eq!(p.items[0].language.as_deref(), Some("kn"));
}

#[test]
fn entity_bombs_are_never_expanded() {
    let rows = index();
    let p = first(
        rows.iter()
            .find(|r| r.file == "billion-laughs.xml")
            .unwrap(),
    );
    assert_eq!(p.items.len(), 1);
    assert_eq!(p.items[0].headline, "Laughs: &lol9; and &xxe;");
    // A million references to an undefined entity cost their own length, no more.
    let mut body = String::from(
        "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">]><rss><channel><item><title>",
    );
    for _ in 0..1_000_000 {
        body.push_str("&a;");
    }
    body.push_str("</title><link>https://x.example/a</link></item></channel></rss>");
    let p = parse_body(
        Kind::Feed,
        body.as_bytes(),
        &Url::parse("https://x.example/").unwrap(),
        None,
        None,
    );
    assert_eq!(p.items.len(), 1);
    assert!(p.items[0].headline.chars().count() <= huduku::extract::feed::MAX_HEADLINE + 1);
    assert!(p.items[0].headline.starts_with("&a;&a;"));
}

#[test]
fn a_fifty_megabyte_body_is_read_up_to_the_cap() {
    let mut body =
        String::from("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title>");
    let mut n = 0;
    while body.len() < 50 * 1024 * 1024 {
        body.push_str(&format!("<item><title>Item {n}</title><link>https://big.example/{n}</link><description>{}</description></item>\n", "x".repeat(900)));
        n += 1;
    }
    body.push_str("</channel></rss>");
    let p = parse_body(
        Kind::Feed,
        body.as_bytes(),
        &Url::parse("https://big.example/rss").unwrap(),
        None,
        None,
    );
    let e = p.error.expect("an over-size body is reported");
    assert!(e.contains("over the 32 MiB cap"), "{e}");
    // Every item that ended before the cap is kept, in order.
    let complete = body.as_bytes()[..MAX_BODY]
        .windows(7)
        .filter(|w| w == b"</item>")
        .count();
    assert!(
        p.items.len() >= complete && p.items.len() <= complete + 1,
        "{} items, {complete} complete",
        p.items.len()
    );
    assert_eq!(
        p.items[complete - 1].headline,
        format!("Item {}", complete - 1)
    );
}

/// Item ends in a body: where each item's closing tag ends.
fn item_ends(body: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    for tag in [&b"</item>"[..], b"</entry>", b"</url>", b"</ITEM>"] {
        out.extend(
            body.windows(tag.len())
                .enumerate()
                .filter(|(_, w)| *w == tag)
                .map(|(i, _)| i + tag.len()),
        );
    }
    out.sort();
    out
}

fn truncations(path: &Path, row: &Row, step: usize) {
    let body = std::fs::read(path).unwrap();
    let full = parse_row(row, &body);
    let utf8 = std::str::from_utf8(&body).is_ok();
    let ends = item_ends(&body);
    let mut at = 0;
    while at < body.len() {
        let cut = &body[..at];
        let p = parse_row(row, cut); // must not panic
        // What was read before the damage agrees with the whole body, item for item.
        for (i, it) in p.items.iter().enumerate() {
            let Some(f) = full.items.get(i) else {
                panic!(
                    "{}: cut at {at}: item {i} {:?} is not in the whole body",
                    path.display(),
                    it.headline
                );
            };
            assert_eq!(
                (&it.headline, &it.link),
                (&f.headline, &f.link),
                "{}: cut at {at}",
                path.display()
            );
        }
        if utf8 && row.kind != Kind::Homepage {
            // Every item whose end tag came before the cut is kept (when the whole body keeps it).
            let whole = ends.iter().filter(|e| **e <= at).count();
            let kept_whole = whole.min(full.items.len() + full.dropped) - p.dropped.min(whole);
            assert!(
                p.items.len() >= kept_whole.min(full.items.len()),
                "{}: cut at {at}: {} items, {whole} ended before the cut",
                path.display(),
                p.items.len()
            );
        }
        at += step;
    }
}

#[test]
fn every_fixture_cut_off_anywhere_keeps_what_came_before_and_never_panics() {
    for row in index() {
        let path = fixtures().join(&row.file);
        truncations(&path, &row, 3);
    }
    // And the newsroom corpus, more coarsely.
    let dir = repo().join("tests/fixtures/conformance/newsroom");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 150);
    for path in files.iter().step_by(5) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let row = Row {
            file: name.clone(),
            url: format!("https://newsroom.example/{name}"),
            content_type: None,
            kind: if name.starts_with("news-sitemap") {
                Kind::Sitemap
            } else {
                Kind::Feed
            },
            selector: None,
            error: None,
        };
        truncations(path, &row, 97);
    }
}

#[test]
fn bad_bytes_anywhere_never_panic() {
    let body = std::fs::read(fixtures().join("rss20-kannada.xml")).unwrap();
    let base = Url::parse("https://www.prajavarthe.example/feed").unwrap();
    for at in (0..body.len()).step_by(11) {
        for b in [0x00u8, 0xff, b'<', b'&', 0x80] {
            let mut bad = body.clone();
            bad[at] = b;
            let _ = parse_body(Kind::Feed, &bad, &base, None, None);
            let _ = parse_body(Kind::Sitemap, &bad, &base, None, None);
        }
    }
}

/// Puts one body in the hour's transient directory as fetch-feeds would.
fn stage_body(w: &Workdir, now: &str, key: &str, url: &str, body: &[u8]) {
    let day = &now[..10];
    let hour = &now[11..13];
    let dir = w.data.join(day).join(hour).join(".transient");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{key}.body")), body).unwrap();
    let meta = serde_json::json!({
        "source": url, "outlet": "Praja Varthe", "lang": "kn", "kind": "feed",
        "selector": null, "url": url, "content_type": "application/rss+xml"
    });
    std::fs::write(dir.join(format!("{key}.json")), meta.to_string()).unwrap();
}

#[test]
fn an_item_seen_in_an_earlier_hour_is_not_new_again() {
    let w = Workdir::new("extract_seen_links");
    let url = "https://www.prajavarthe.example/feed";
    let body = std::fs::read(fixtures().join("rss20-kannada.xml")).unwrap();
    let (h1, h2) = ("2026-11-30T06:05:00Z", "2026-11-30T07:05:00Z");
    stage_body(&w, h1, "a", url, &body);
    w.stage("extract", h1);
    let first = w.jsonl("2026-11-30/06/items.jsonl");
    assert_eq!(first.len(), 5);
    // Tracking parameters and fragments do not make a link new.
    assert!(first.iter().any(|i| i["link"] == "https://www.prajavarthe.example/rajya/belagavi-adhiveshana.html"));
    assert!(
        first
            .iter()
            .any(|i| i["link"] == "https://www.prajavarthe.example/kride/numbers.html")
    );
    // The undated item is dated by when it was first seen, and says so.
    let undated = first
        .iter()
        .find(|i| i["headline"] == "ದಿನಾಂಕವಿಲ್ಲದ ಸುದ್ದಿ")
        .unwrap();
    assert_eq!(undated["date_source"], "first-seen");
    assert_eq!(undated["published"], h1);
    let dated = first
        .iter()
        .find(|i| i["headline"] == "ಅಡಿಕೆ ಧಾರಣೆ & ಬೆಳೆಗಾರರ ಆತಂಕ")
        .unwrap();
    assert_eq!(dated["date_source"], "publisher");

    // The next hour the feed has one new item on top; with a tracking parameter changed on
    // an old one, it is still the same article.
    let text = String::from_utf8(body).unwrap().replacen(
        "<item>",
        "<item><title>ಹೊಸ ಸುದ್ದಿ</title><link>https://www.prajavarthe.example/rajya/new.html</link></item><item>",
        1,
    ).replace("utm_source=rss", "utm_source=app");
    stage_body(&w, h2, "a", url, text.as_bytes());
    w.stage("extract", h2);
    let second = w.jsonl("2026-11-30/07/items.jsonl");
    assert_eq!(second.len(), 1, "{second:?}");
    assert_eq!(second[0]["headline"], "ಹೊಸ ಸುದ್ದಿ");
    // The first hour's records keep their first-seen time.
    assert_eq!(w.jsonl("2026-11-30/06/items.jsonl"), first);
    assert!(first.iter().all(|i| i["first_seen"] == h1));
}

#[test]
fn a_broken_body_is_one_error_line_and_its_items_are_kept() {
    let w = Workdir::new("extract_broken_body");
    let now = "2026-11-30T06:05:00Z";
    let body = std::fs::read(fixtures().join("truncated.xml")).unwrap();
    stage_body(&w, now, "a", "https://www.prajavarthe.example/feed", &body);
    let out = w.stage("extract", now);
    assert_eq!(
        out.status.code(),
        Some(3),
        "a body with an error makes the stage exit 3"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("body ends inside <title>") && stderr.contains("(2 items read before it)"),
        "{stderr}"
    );
    assert_eq!(w.jsonl("2026-11-30/06/items.jsonl").len(), 2);
}

#[test]
fn a_pub_date_whose_zone_is_a_sign_and_a_kannada_letter_is_read_without_its_zone() {
    // Once a panic that stopped the whole stage: the zone was cut inside the letter.
    let body = "<rss><channel><item><title>ಸುದ್ದಿ</title><link>https://x.example/1</link>\
                <pubDate>Mon, 30 Nov 2026 06:05:00 +ಕ</pubDate></item>\
                <item><title>Next</title><link>https://x.example/2</link>\
                <pubDate>31 Dec 262142 23:59:59 -2359</pubDate></item></channel></rss>";
    let p = parse_body(
        Kind::Feed,
        body.as_bytes(),
        &Url::parse("https://x.example/feed").unwrap(),
        None,
        None,
    );
    assert_eq!(p.items.len(), 2);
    assert_eq!(
        huduku::time::fmt(p.items[0].published.unwrap()),
        "2026-11-30T06:05:00Z"
    );
    assert_eq!(
        p.items[1].published, None,
        "past the end of time is no date"
    );
}

/// Two headlines in a list, then whatever `rest` is.
fn deep_home_page(rest: &str) -> Vec<u8> {
    format!(
        "<html><body><ul class=\"h\"><li><a href=\"/a\">First</a></li>\
         <li><a href=\"/b\">Second</a></li></ul>{rest}<ul class=\"h\"><li><a href=\"/c\">After</a></li></ul></body></html>"
    )
    .into_bytes()
}

fn home(body: &[u8]) -> huduku::extract::Parsed {
    parse_body(
        Kind::Homepage,
        body,
        &Url::parse("https://deep.example/").unwrap(),
        Some("text/html"),
        Some("ul.h li"),
    )
}

#[test]
fn a_home_page_nested_80000_deep_is_read_to_the_depth_limit_and_keeps_what_came_before() {
    // Once 17 seconds of the HTML parser's work for 400 KB.
    let n = 80_000;
    let body = deep_home_page(&format!("{}x{}", "<div>".repeat(n), "</div>".repeat(n)));
    assert!(body.len() > 400_000);
    let p = home(&body);
    let heads: Vec<&str> = p.items.iter().map(|i| i.headline.as_str()).collect();
    assert_eq!(
        heads,
        ["First", "Second"],
        "the list after the cut is never read"
    );
    let e = p.error.expect("the cut is the body's error");
    assert!(
        e.contains("page nested deeper than 256 elements at line 1"),
        "{e}"
    );
    assert_eq!(huduku::extract::text::MAX_HTML_DEPTH, 256);
}

#[test]
fn a_ten_megabyte_home_page_of_nested_divs_is_read_to_the_depth_limit() {
    // Once hours of the HTML parser's work.
    let body = deep_home_page(&"<div>".repeat(2 * 1024 * 1024));
    assert!(body.len() >= 10 * 1024 * 1024);
    let p = home(&body);
    assert_eq!(p.items.len(), 2);
    assert!(p.error.unwrap().contains("nested deeper than 256 elements"));
    // A cut inside a headline's link drops that headline, which may be cut short.
    let body = deep_home_page(&format!(
        "<ul class=\"h\"><li><a href=\"/d\">Cut {}",
        "<span>".repeat(300)
    ));
    let p = home(&body);
    assert_eq!(p.items.len(), 2);
    assert_eq!(p.dropped, 1);
    assert!(p.error.unwrap().ends_with("its last headline dropped"));
    // Lists, tables and paragraphs that leave out their end tags are not deep.
    let flat = format!(
        "{}<table>{}</table>{}",
        "<ul><li>x".to_string() + &"<li>item".repeat(2000) + "</ul>",
        "<tr><td>a<td>b".repeat(2000),
        "<p>para<br><img src=x>".repeat(2000)
    );
    let p = home(&deep_home_page(&flat));
    assert_eq!(p.items.len(), 3, "{:?}", p.error);
    assert!(p.error.is_none());
}

#[test]
fn inline_xhtml_nested_80000_deep_stops_the_walk_at_the_depth_limit() {
    // Once 26 seconds: inline XHTML was followed however deep it went.
    let n = 80_000;
    let body = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>One</title><link href=\"https://x.example/1\"/></entry>\
         <entry><title type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">{}deep{}</div></title>\
         <link href=\"https://x.example/2\"/></entry></feed>",
        "<div>".repeat(n),
        "</div>".repeat(n)
    );
    let p = parse_body(
        Kind::Feed,
        body.as_bytes(),
        &Url::parse("https://x.example/feed").unwrap(),
        None,
        None,
    );
    assert_eq!(p.items.len(), 1);
    assert_eq!(p.items[0].headline, "One");
    let e = p.error.unwrap();
    assert!(
        e.contains("XML nested deeper than 512 elements at line 1"),
        "{e}"
    );
}

#[test]
fn a_title_of_40000_escaped_divs_is_read_only_to_the_depth_limit() {
    // Once 3.6 seconds and more: a comment sent the title whole to the HTML parser.
    let title = format!(
        "Lead {}x&lt;/div&gt;&lt;!-- c --&gt;",
        "&lt;div&gt;".repeat(40_000)
    );
    let body = format!(
        "<rss><channel><item><title>One</title><link>https://x.example/1</link></item>\
         <item><title>{title}</title><link>https://x.example/2</link></item></channel></rss>"
    );
    let p = parse_body(
        Kind::Feed,
        body.as_bytes(),
        &Url::parse("https://x.example/feed").unwrap(),
        None,
        None,
    );
    assert!(p.error.is_none());
    let heads: Vec<&str> = p.items.iter().map(|i| i.headline.as_str()).collect();
    // The text after the 256th open element is never read: "x" is not in the headline.
    assert_eq!(heads, ["One", "Lead"]);
}

fn feed(body: &str) -> huduku::extract::Parsed {
    parse_body(
        Kind::Feed,
        body.as_bytes(),
        &Url::parse("https://x.example/feed").unwrap(),
        None,
        None,
    )
}

#[test]
fn an_atom_entry_without_a_link_is_dropped_not_linked_to_its_id() {
    let p = feed(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\">\
         <entry><title>Only an id</title><id>https://x.example/2026/11/30/only-id</id></entry>\
         <entry><title>Both</title><id>tag:x.example,2026:2</id><link href=\"https://x.example/both\"/></entry>\
         <entry><title>Same</title><link href=\"https://x.example/same\"/><id>https://x.example/same</id></entry>\
         </feed>",
    );
    let got: Vec<(&str, &str)> = p
        .items
        .iter()
        .map(|i| (i.headline.as_str(), i.link.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("Both", "https://x.example/both"),
            ("Same", "https://x.example/same")
        ]
    );
    assert_eq!(p.dropped, 1, "the entry with only an id has no link");
    // An RSS guid that is a permalink still is one.
    let p = feed(
        "<rss><channel><item><title>G</title><guid>https://x.example/g</guid></item></channel></rss>",
    );
    assert_eq!(p.items[0].link, "https://x.example/g");
}

#[test]
fn control_and_bidi_characters_never_reach_a_headline_category_or_author() {
    let p = feed(
        "<rss xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><item>\
         <title>Bell\u{7} &#27;[2J \u{202e}live\u{202c} ಕ\u{200d}ನ್ನಡ\u{0}\tnews&#x2066;x&#x2069;</title>\
         <link>https://x.example/1</link><category>Sports\u{1b}[0m\u{9b}</category>\
         <dc:creator>\u{0}Ravi\u{200f} &#x7f;K</dc:creator>\
         <description>Sum\u{7}mary</description></item></channel></rss>",
    );
    let it = &p.items[0];
    assert_eq!(it.headline, "Bell [2J live ಕ\u{200d}ನ್ನಡ newsx");
    assert_eq!(it.category, ["Sports[0m"]);
    assert_eq!(it.author.as_deref(), Some("Ravi K"));
    assert_eq!(it.summary.as_deref(), Some("Summary"));
    let p = parse_body(
        Kind::Sitemap,
        "<urlset xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\"><url>\
         <loc>https://x.example/s</loc><news:news><news:title>\u{202d}Side\u{7}</news:title>\
         <news:publication><news:name>Pub\u{1b}</news:name></news:publication>\
         </news:news></url></urlset>"
            .as_bytes(),
        &Url::parse("https://x.example/sitemap.xml").unwrap(),
        None,
        None,
    );
    assert_eq!(p.items[0].headline, "Side");
    assert_eq!(p.items[0].publication.as_deref(), Some("Pub"));
    let p = home(&deep_home_page(
        "<ul class=\"h\"><li><a href=\"/z\">\u{0}Z\u{202e}z\u{7}</a></li></ul>",
    ));
    assert_eq!(p.items[2].headline, "Zz");
}

#[test]
fn every_charset_a_feed_can_carry_reads_as_its_script() {
    // Once U+FFFD throughout: UTF-32, EBCDIC and these labels were not read.
    let kannada = "ಕಾವೇರಿ ನೀರು: ತಮಿಳುನಾಡಿಗೆ ಬಿಡುಗಡೆ";
    let ebcdic = "[Mysuru] Dasara! 100% | café ¢";
    let cases = [
        ("charset-utf32le-bom.xml", kannada, "UTF-32LE"),
        ("charset-utf32be-bom.xml", kannada, "UTF-32BE"),
        ("charset-utf32le.xml", kannada, "UTF-32LE"),
        ("charset-ucs4be.xml", kannada, "UTF-32BE"),
        ("charset-cp037.xml", ebcdic, "IBM037"),
        ("charset-cp500.xml", ebcdic, "IBM500"),
        (
            "charset-437.xml",
            "Über die Brücke: café, Ñandú, ½ price",
            "IBM437",
        ),
        (
            "charset-ibm850.xml",
            "Ålesund: søndag, façade © Øre",
            "IBM850",
        ),
        ("charset-cp874.xml", "ข่าวภาษาไทย: กรุงเทพฯ", "windows-874"),
        (
            "charset-mac-cyrillic.xml",
            "Новости: Бенгалуру и Майсуру",
            "x-mac-cyrillic",
        ),
        (
            "charset-macgreek.xml",
            "Ειδήσεις: Αθήνα και Θεσσαλονίκη",
            "x-mac-greek",
        ),
    ];
    let rows = index();
    for (file, headline, encoding) in cases {
        let row = rows.iter().find(|r| r.file == file).unwrap();
        let body = std::fs::read(fixtures().join(file)).unwrap();
        let d = huduku::extract::charset::decode(&body, row.content_type.as_deref(), false);
        assert_eq!(d.encoding, encoding, "{file}");
        assert!(!d.bad_bytes && !d.text.contains('\u{fffd}'), "{file}");
        let p = first(row);
        assert!(p.error.is_none(), "{file}: {:?}", p.error);
        assert_eq!(p.items.len(), 1, "{file}");
        assert_eq!(p.items[0].headline, headline, "{file}");
        assert_eq!(
            huduku::time::fmt(p.items[0].published.unwrap()),
            "2026-11-30T06:05:00Z"
        );
    }
}
