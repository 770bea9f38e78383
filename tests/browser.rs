//! The public pages in a real browser: Debian's chromium, headless, opens the pages `publish` wrote for the demo outlets straight from disk and the tests
//! read the DOM it built: every headline a link to its publisher's page, Kannada text,
//! a language switch that leads to the same page in the other language, Opinion only
//! where the publisher says so, nothing removed. Screenshots at a phone's and a desktop's
//! width go to `target/screenshots/` for people to look at.
//!
//! Chromium is required: CI (`.ci/run`) installs it; without it these tests fail.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use support::pipeline::{Workdir, describe, repo};
use support::web::Web;

const DEMO_NOW: &str = "2026-11-30T06:05:00Z";
const DAY: &str = "2026-11-30";
/// Taken down after the demo ran.
const TAKEN_DOWN: &str = "Mandya farmers stage protest over delayed sugarcane dues";
/// The outlet that opts out after the demo ran.
const OPTED_OUT: &str = "Coastal Karnataka Times";

/// The demo, run once for all tests here: the real stages against the loopback web, then
/// an opt-out and a takedown, and publish again.
struct Demo {
    w: Workdir,
    /// headline → its publisher URL, for every demo headline.
    links: BTreeMap<String, String>,
    /// Headlines of the opted-out outlet.
    opted_out: Vec<String>,
}

fn demo() -> &'static Demo {
    static DEMO: OnceLock<Demo> = OnceLock::new();
    DEMO.get_or_init(|| {
        let w = Workdir::new("browser_demo");
        let web = Web::start(&repo().join("tests/web/demo"), &w.dir);
        w.sources_from(&repo().join("pipeline/demo/sources.csv"), &web);
        w.daily(DEMO_NOW);
        w.hourly(DEMO_NOW);
        let mut links = BTreeMap::new();
        let mut opted_out = Vec::new();
        for (headline, path, addr) in demo_headlines() {
            if addr == "127.0.0.23" {
                opted_out.push(headline.clone());
            }
            links.insert(headline, format!("{}{}", web.base(&addr), path));
        }
        drop(web);
        w.append(
            "takedowns.csv",
            &format!("{},{DAY},asked by the publisher", links[TAKEN_DOWN]),
        );
        w.append(
            "optouts.csv",
            &format!("outlet,{OPTED_OUT},{DAY},email from the editor"),
        );
        w.stage("publish", DEMO_NOW);
        Demo {
            w,
            links,
            opted_out,
        }
    })
}

/// (headline, article path, address) for every row of the demo web's README tables.
fn demo_headlines() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(repo().join("tests/web/demo/README.md")).unwrap();
    let mut addr = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("## 127.0.0.") {
            addr = format!("127.0.0.{}", &rest[..2]);
        }
        if line.starts_with("| 2026-") {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let path = cells
                .iter()
                .rev()
                .find(|c| c.starts_with("`/news/"))
                .unwrap()
                .trim_matches('`')
                .to_string();
            out.push((cells[3].to_string(), path, addr.clone()));
        }
    }
    assert!(out.len() >= 20, "the README lists the demo's headlines");
    out
}

/// The expected headlines on the public pages: the demo's, less what was removed.
fn shown(d: &Demo) -> BTreeSet<String> {
    d.links
        .keys()
        .filter(|h| *h != TAKEN_DOWN && !d.opted_out.contains(h))
        .cloned()
        .collect()
}

fn removed(d: &Demo) -> Vec<String> {
    let mut r = d.opted_out.clone();
    r.push(TAKEN_DOWN.to_string());
    r
}

fn chromium() -> PathBuf {
    let path = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    assert!(
        path.exists(),
        "{} not found: these tests need Debian's chromium (apt-get install chromium fonts-noto-core; .ci/run installs it)",
        path.display()
    );
    path
}

/// Chromium, headless, with a fresh profile and no network chatter. The pages carry no
/// script at all (checked below), so what it renders is what a reader without JavaScript sees.
fn browser(profile: &Path) -> Command {
    let mut c = Command::new(chromium());
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]);
    c.arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// A fresh, unshared profile directory for one chromium run.
fn profile(name: &str) -> PathBuf {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("chromium-profiles")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn file_url(path: &Path) -> url::Url {
    url::Url::from_file_path(path.canonicalize().unwrap()).unwrap()
}

/// The DOM chromium built for a page, serialised; each page is rendered once per run.
fn dom(path: &Path) -> String {
    static SEEN: std::sync::Mutex<BTreeMap<PathBuf, String>> =
        std::sync::Mutex::new(BTreeMap::new());
    if let Some(d) = SEEN.lock().unwrap().get(path) {
        return d.clone();
    }
    let d = render_dom(path);
    SEEN.lock().unwrap().insert(path.to_path_buf(), d.clone());
    d
}

fn render_dom(path: &Path) -> String {
    let name = path.to_string_lossy().replace(['/', '.'], "_");
    let prof = profile(&name);
    let mut c = browser(&prof);
    c.arg("--dump-dom").arg(file_url(path).as_str());
    let out = c.output().expect("running chromium");
    let _ = std::fs::remove_dir_all(&prof);
    assert!(
        out.status.success() && !out.stdout.is_empty(),
        "chromium could not render {}:\n{}",
        path.display(),
        describe(&c, &out)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn site(d: &Demo) -> PathBuf {
    d.w.data.join("site")
}

fn sel(s: &str) -> scraper::Selector {
    scraper::Selector::parse(s).unwrap()
}

/// (href, text, lang) of every headline link in a rendered page.
fn headline_links(doc: &scraper::Html) -> Vec<(String, String, Option<String>)> {
    doc.select(&sel("a.h"))
        .filter(|a| {
            a.value()
                .attr("href")
                .is_some_and(|h| h.starts_with("http"))
        })
        .map(|a| {
            (
                a.value().attr("href").unwrap().to_string(),
                a.text().collect(),
                a.value().attr("lang").map(String::from),
            )
        })
        .collect()
}

#[test]
fn every_headline_is_a_link_to_its_publishers_page() {
    let d = demo();
    let want = shown(d);
    for page in [
        "index.html",
        "kn/index.html",
        "en/index.html",
        &format!("en/days/{DAY}.html"),
        &format!("kn/days/{DAY}.html"),
    ] {
        let doc = scraper::Html::parse_document(&dom(&site(d).join(page)));
        let links = headline_links(&doc);
        let mut seen = BTreeSet::new();
        for (href, text, _) in &links {
            assert_eq!(
                d.links.get(text),
                Some(href),
                "{page}: {text:?} links to {href}"
            );
            seen.insert(text.clone());
        }
        assert_eq!(seen, want, "{page} shows exactly the public headlines");
    }
    // Outlet and topic pages link the same way.
    let doc = scraper::Html::parse_document(&dom(
        &site(d).join("en/outlets/deccan-daily-chronicle.html")
    ));
    let links = headline_links(&doc);
    assert!(links.len() >= 8, "{links:?}");
    assert!(
        links
            .iter()
            .all(|(href, text, _)| d.links.get(text) == Some(href) && href.contains("127.0.0.22"))
    );
}

#[test]
fn kannada_text_renders_with_lang_on_each_headline() {
    let d = demo();
    let kn = scraper::Html::parse_document(&dom(&site(d).join("kn/index.html")));
    assert_eq!(
        kn.select(&sel("html")).next().unwrap().value().attr("lang"),
        Some("kn")
    );
    let h1: String = kn.select(&sel("h1")).next().unwrap().text().collect();
    assert_eq!(h1, "ಇತ್ತೀಚಿನ ಮುಖ್ಯಾಂಶಗಳು");
    let links = headline_links(&kn);
    let kannada = "ಬೆಳಗಾವಿಯಲ್ಲಿ ಡಿಸೆಂಬರ್ 8ರಿಂದ ವಿಧಾನಮಂಡಲದ ಚಳಿಗಾಲದ ಅಧಿವೇಶನ";
    assert!(
        links
            .iter()
            .any(|(_, t, l)| t == kannada && l.as_deref() == Some("kn")),
        "{links:?}"
    );
    assert!(
        links
            .iter()
            .any(|(_, t, l)| t.starts_with("Namma Metro") && l.as_deref() == Some("en"))
    );
    assert!(
        links.iter().all(|(_, _, l)| l.is_some()),
        "every headline carries its lang"
    );
    // The English pages keep the Kannada headlines as written.
    let en = scraper::Html::parse_document(&dom(&site(d).join("en/index.html")));
    assert!(
        headline_links(&en)
            .iter()
            .any(|(_, t, l)| t == kannada && l.as_deref() == Some("kn"))
    );
    // The promise, in Kannada, from the same constants.
    let fetching = dom(&site(d).join("kn/fetching.html"));
    assert!(fetching.contains("ಹುಡುಕು ಹೇಗೆ ತರುತ್ತದೆ") && fetching.contains(huduku::polite::USER_AGENT));
}

#[test]
fn language_switch_leads_to_the_same_page_in_the_other_language() {
    let d = demo();
    let root = site(d).canonicalize().unwrap();
    for page in [
        "index.html",
        "kn/index.html",
        &format!("en/days/{DAY}.html"),
        "kn/topics/politics.html",
        "en/outlets/index.html",
        "kn/fetching.html",
        "en/publishers.html",
        "kn/takedowns.html",
        "en/privacy.html",
    ] {
        let path = site(d).join(page);
        let doc = scraper::Html::parse_document(&dom(&path));
        let lang = doc
            .select(&sel("html"))
            .next()
            .unwrap()
            .value()
            .attr("lang")
            .unwrap()
            .to_string();
        let switch = doc
            .select(&sel("a.switch"))
            .next()
            .unwrap_or_else(|| panic!("{page}: no language switch"));
        let target = file_url(&path)
            .join(switch.value().attr("href").unwrap())
            .unwrap()
            .to_file_path()
            .unwrap();
        assert!(
            target.exists(),
            "{page}: the switch leads to {}, which does not exist",
            target.display()
        );
        // The twin as chromium renders it where it is the subject of its own checks, else from disk.
        let twin = scraper::Html::parse_document(&std::fs::read_to_string(&target).unwrap());
        let other = twin
            .select(&sel("html"))
            .next()
            .unwrap()
            .value()
            .attr("lang")
            .unwrap()
            .to_string();
        assert_ne!(lang, other, "{page} → {}", target.display());
        // Same page: same place in the site, other language directory.
        let rel = target
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let expected = if page == "index.html" {
            "en/index.html".to_string()
        } else {
            format!("{other}/{}", page.split_once('/').unwrap().1)
        };
        assert_eq!(rel, expected);
        // And back.
        let back = twin.select(&sel("a.switch")).next().unwrap();
        let back = file_url(&target)
            .join(back.value().attr("href").unwrap())
            .unwrap()
            .to_file_path()
            .unwrap();
        let back_rel = back
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let original = if page == "index.html" {
            "kn/index.html"
        } else {
            page
        };
        assert_eq!(back_rel, original);
    }
}

#[test]
fn opinion_is_labelled_only_where_the_publisher_says_so() {
    let d = demo();
    for (page, label) in [("kn/index.html", "ಅಭಿಪ್ರಾಯ"), ("en/index.html", "Opinion")]
    {
        let doc = scraper::Html::parse_document(&dom(&site(d).join(page)));
        let mut labelled = BTreeSet::new();
        for li in doc.select(&sel("ul.hl li")) {
            let ops: Vec<String> = li.select(&sel(".op")).map(|e| e.text().collect()).collect();
            if let Some(h) = li.select(&sel("a.h")).next()
                && !ops.is_empty()
            {
                assert_eq!(ops, [label], "{page}");
                labelled.insert(h.text().collect::<String>());
            }
        }
        assert_eq!(
            labelled,
            BTreeSet::from([
                "ಕನ್ನಡ ಶಾಲೆಗಳನ್ನು ಉಳಿಸುವ ಹೊಣೆ ಯಾರದು?".to_string(),
                "Editorial: The city needs buses, not another flyover".to_string()
            ]),
            "{page}"
        );
        assert_eq!(
            doc.select(&sel(".op")).count(),
            2,
            "{page}: no other Opinion label"
        );
    }
}

#[test]
fn nothing_removed_and_no_author_is_anywhere_on_the_site() {
    let d = demo();
    let removed = removed(d);
    assert!(removed.len() >= 7);
    // In the rendered DOM of the main pages ...
    for page in [
        "index.html",
        "en/index.html",
        &format!("kn/days/{DAY}.html"),
        &format!("en/days/{DAY}.html"),
        "kn/topics/politics.html",
    ] {
        let text = dom(&site(d).join(page));
        for h in &removed {
            assert!(!text.contains(h.as_str()), "{page} shows removed {h:?}");
        }
    }
    // ... and in every file under the site, open data included.
    let authors = [
        "ಪ್ರಜ್ವಲ್ ಹೆಗಡೆ",
        "Nikhil Rao",
        "Reshma Kamath",
        "The Editorial Board",
        "Ganesh Upadhyaya",
    ];
    let mut files = 0;
    for rel in
        d.w.data_files()
            .into_iter()
            .filter(|p| p.starts_with("site"))
    {
        files += 1;
        let text =
            String::from_utf8_lossy(&std::fs::read(d.w.data.join(&rel)).unwrap()).into_owned();
        for h in &removed {
            assert!(
                !text.contains(h.as_str()),
                "{} holds removed {h:?}",
                rel.display()
            );
        }
        for a in authors {
            assert!(!text.contains(a), "{} shows the author {a}", rel.display());
        }
    }
    assert!(files > 40);
    assert!(
        !site(d)
            .join("en/outlets/coastal-karnataka-times.html")
            .exists()
    );
}

#[test]
fn pages_are_accessible_and_light_in_the_browser() {
    let d = demo();
    for page in [
        "kn/index.html",
        "en/days/index.html",
        "en/outlets/index.html",
        "kn/topics/politics.html",
        "kn/fetching.html",
        "kn/publishers.html",
        "en/takedowns.html",
        "kn/privacy.html",
        "en/videos.html",
    ] {
        let path = site(d).join(page);
        let doc = scraper::Html::parse_document(&dom(&path));
        assert_eq!(doc.select(&sel("h1")).count(), 1, "{page}");
        let skip = doc.select(&sel("a[href]")).next().unwrap();
        assert_eq!(
            skip.value().attr("href"),
            Some("#main"),
            "{page}: skip link first"
        );
        assert_eq!(doc.select(&sel("#main")).count(), 1);
        assert_eq!(
            doc.select(&sel(
                "script, img, iframe, link[rel=stylesheet], object, embed"
            ))
            .count(),
            0,
            "{page}"
        );
        assert_eq!(
            doc.select(&sel("nav[aria-label] a[aria-current]")).count(),
            1,
            "{page}: the current section is marked"
        );
        let bytes = std::fs::metadata(&path).unwrap().len();
        assert!(bytes < 48 * 1024, "{page} weighs {bytes} bytes");
    }
}

#[test]
fn screenshots_at_phone_and_desktop_width() {
    let d = demo();
    let out = repo().join("target/screenshots");
    std::fs::create_dir_all(&out).unwrap();
    for page in [
        "kn/index.html",
        "en/index.html",
        "kn/fetching.html",
        "kn/publishers.html",
        "en/takedowns.html",
        "kn/privacy.html",
        "en/outlets/index.html",
    ] {
        for (label, w, h) in [("phone", 390, 844), ("desktop", 1366, 900)] {
            let png = out.join(format!(
                "{}-{label}.png",
                page.trim_end_matches(".html").replace('/', "-")
            ));
            let _ = std::fs::remove_file(&png);
            let prof = profile(&format!("shot-{label}-{}", page.replace(['/', '.'], "_")));
            let mut c = browser(&prof);
            c.arg(format!("--screenshot={}", png.display()))
                .arg(format!("--window-size={w},{h}"))
                .arg(file_url(&site(d).join(page)).as_str());
            let res = c.output().expect("running chromium");
            let _ = std::fs::remove_dir_all(&prof);
            assert!(res.status.success(), "{}", describe(&c, &res));
            let bytes = std::fs::read(&png)
                .unwrap_or_else(|e| panic!("{}: {e}\n{}", png.display(), describe(&c, &res)));
            assert_eq!(
                &bytes[..8],
                b"\x89PNG\r\n\x1a\n",
                "{} is a PNG",
                png.display()
            );
            let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
            assert_eq!(width, w, "{} is {w} pixels wide", png.display());
            assert!(
                bytes.len() > 10_000,
                "{} has something on it",
                png.display()
            );
        }
    }
}

/// Where a link on a page leads inside the site, if it does: a relative link, or an
/// absolute one under the site's base URL. `None` for a link that leaves the site.
fn inside(root: &Path, page: &Path, href: &str) -> Option<(PathBuf, Option<String>)> {
    const BASE: &str = "https://huduku.org/";
    let target = if let Some(rest) = href.strip_prefix(BASE) {
        url::Url::from_directory_path(root.canonicalize().unwrap())
            .unwrap()
            .join(rest)
            .unwrap()
    } else if href.contains(':') {
        return None;
    } else {
        file_url(page).join(href).unwrap()
    };
    let fragment = target.fragment().map(String::from);
    let mut path = target.to_file_path().unwrap();
    if href.split('#').next().is_some_and(|h| h.ends_with('/')) || path.is_dir() {
        path = path.join("index.html");
    }
    Some((path, fragment))
}

/// Walks the site from its root page, following every internal link of every page it
/// reaches: each leads to a file that exists (and, with a `#fragment`, to an element of that
/// id), nothing a page loads comes from elsewhere, and every page written is reached.
#[test]
fn every_internal_link_of_the_site_leads_to_a_page_that_exists() {
    let d = demo();
    let root = site(d).canonicalize().unwrap();
    // Readers come in at the root; publishers at the address in HudukuBot's user agent.
    let ua = huduku::polite::USER_AGENT;
    let ua_url = ua.split_once("(+").unwrap().1.trim_end_matches(')');
    let (ua_page, _) = inside(&root, &root.join("index.html"), ua_url).unwrap();
    assert!(ua_page.is_file(), "the user agent's {ua_url} is no page");
    let mut queue = vec![root.join("index.html"), ua_page.clone()];
    let mut reached: BTreeSet<PathBuf> = queue.iter().cloned().collect();
    let mut dead = Vec::new();
    let mut links = 0;
    while let Some(page) = queue.pop() {
        let doc = scraper::Html::parse_document(&std::fs::read_to_string(&page).unwrap());
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        // Nothing is loaded from anywhere: no script, frame, image or outside style sheet.
        assert_eq!(
            doc.select(&sel(
                "script, iframe, img, object, embed, video, audio, source, link[rel=stylesheet]"
            ))
            .count(),
            0,
            "{name} loads something"
        );
        for el in doc.select(&sel("[href], [src]")) {
            let is_a = el.value().name() == "a";
            for attr in ["href", "src"] {
                let Some(href) = el.value().attr(attr) else {
                    continue;
                };
                links += 1;
                let Some((target, fragment)) = inside(&root, &page, href) else {
                    // Only a link a reader follows may leave the site.
                    assert!(
                        is_a && (href.starts_with("http://") || href.starts_with("https://")),
                        "{name}: <{} {attr}={href:?}> leaves the site",
                        el.value().name()
                    );
                    continue;
                };
                if !target.is_file() {
                    dead.push(format!("{name} → {href}"));
                    continue;
                }
                let is_html = target.extension().is_some_and(|e| e == "html");
                if let Some(id) = fragment.filter(|f| !f.is_empty()) {
                    let there = if target == page {
                        doc.clone()
                    } else {
                        scraper::Html::parse_document(&std::fs::read_to_string(&target).unwrap())
                    };
                    let by_id = there
                        .select(&sel("[id]"))
                        .any(|e| e.value().attr("id") == Some(id.as_str()));
                    if !by_id {
                        dead.push(format!("{name} → {href} (no #{id})"));
                    }
                }
                if is_html && reached.insert(target.clone()) {
                    queue.push(target);
                }
            }
        }
    }
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
    let written: BTreeSet<PathBuf> =
        d.w.data_files()
            .into_iter()
            .filter(|p| p.starts_with("site") && p.extension().is_some_and(|e| e == "html"))
            .map(|p| d.w.data.join(p).canonicalize().unwrap())
            .collect();
    let orphans: Vec<_> = written.difference(&reached).collect();
    assert!(orphans.is_empty(), "pages no link leads to: {orphans:?}");
    assert!(
        written.len() > 40 && links > 1000,
        "{} pages, {links} links",
        written.len()
    );
}

/// The pages "How Huduku fetches" names exist in both languages, it links to them in the
/// page's own language, and they say what the promise says they say.
#[test]
fn the_pages_the_fetching_promise_names_exist_in_both_languages() {
    let d = demo();
    let root = site(d).canonicalize().unwrap();
    for lang in ["kn", "en"] {
        let page = root.join(format!("{lang}/fetching.html"));
        let doc = scraper::Html::parse_document(&dom(&page));
        let main_links: BTreeSet<PathBuf> = doc
            .select(&sel("main a[href]"))
            .filter_map(|a| inside(&root, &page, a.value().attr("href").unwrap()))
            .map(|(p, _)| p)
            .collect();
        for name in ["publishers.html", "takedowns.html", "privacy.html"] {
            let target = root.join(format!("{lang}/{name}"));
            assert!(
                main_links.contains(&target),
                "{lang}/fetching.html does not link to {lang}/{name} in its text: {main_links:?}"
            );
            let text: String = scraper::Html::parse_document(&dom(&target))
                .select(&sel("main"))
                .next()
                .unwrap()
                .text()
                .collect();
            assert!(text.contains("contact@huduku.org"), "{lang}/{name}");
        }
    }
    let text = |page: &str| -> String {
        let doc = scraper::Html::parse_document(&dom(&root.join(page)));
        let t: String = doc.select(&sel("main")).next().unwrap().text().collect();
        t.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let publishers = text("en/publishers.html");
    for want in [
        huduku::polite::USER_AGENT,
        "User-agent: HudukuBot Disallow: /",
        "From the next run",
        "takes its headlines off every public page and out of the open data, past days included",
        "A person at Huduku records the permission: what it covers, the day it was given, who gave it and why.",
        "about once an hour, never more often than once every 10 minutes",
    ] {
        assert!(
            publishers.contains(want),
            "For publishers lacks {want:?}:\n{publishers}"
        );
    }
    // The demo took one headline down after it ran: counted, never listed.
    let takedowns = text("en/takedowns.html");
    assert!(
        takedowns.contains("1 headline removed on request."),
        "{takedowns}"
    );
    assert!(!takedowns.contains(TAKEN_DOWN));
    assert!(text("kn/takedowns.html").contains("ಕೋರಿಕೆಯ ಮೇರೆಗೆ ತೆಗೆದವು: 1 ಮುಖ್ಯಾಂಶ."));
    let privacy = text("en/privacy.html");
    for want in [
        "The pages set no cookies, run no scripts, and load nothing from anywhere else",
        "the author line where a feed gives one: kept, never shown",
        "Summaries are never kept",
        "The pages show the last 30 days.",
        "anything fetched 29 days ago is deleted: YouTube’s policies allow 30 days at most.",
        "your browser sends nothing to YouTube or Google",
    ] {
        assert!(privacy.contains(want), "Privacy lacks {want:?}:\n{privacy}");
    }
    let doc = scraper::Html::parse_document(&dom(&root.join("kn/privacy.html")));
    let hrefs: BTreeSet<&str> = doc
        .select(&sel("main a[href]"))
        .map(|a| a.value().attr("href").unwrap())
        .collect();
    assert!(hrefs.contains("https://www.youtube.com/t/terms"));
    assert!(hrefs.contains("https://policies.google.com/privacy"));
}

/// `(href, attribute)` of every `head link` matching `q` in a rendered page.
fn head_links(doc: &scraper::Html, q: &str) -> Vec<String> {
    doc.select(&sel(&format!("head {q}")))
        .filter_map(|l| l.value().attr("href").map(String::from))
        .collect()
}

#[test]
fn pages_name_their_canonical_address_twins_feed_and_icon_in_the_browser() {
    let d = demo();
    const BASE: &str = huduku::publish::DEFAULT_BASE;
    for (page, feed) in [
        ("index.html", Some("kn/feeds/latest.xml")),
        ("kn/index.html", Some("kn/feeds/latest.xml")),
        ("en/index.html", Some("en/feeds/latest.xml")),
        (&format!("en/days/{DAY}.html") as &str, None),
        (
            "kn/topics/politics.html",
            Some("kn/feeds/topics/politics.xml"),
        ),
        (
            "en/outlets/deccan-daily-chronicle.html",
            Some("en/feeds/outlets/deccan-daily-chronicle.xml"),
        ),
        ("en/outlets/index.html", None),
    ] {
        let path = site(d).join(page);
        let doc = scraper::Html::parse_document(&dom(&path));
        let own = if page == "index.html" {
            "kn/index.html"
        } else {
            page
        };
        assert_eq!(
            head_links(&doc, "link[rel=canonical]"),
            [format!("{BASE}{own}")],
            "{page}"
        );
        let rest = own.split_once('/').unwrap().1;
        for (hreflang, lang) in [("kn", "kn"), ("en", "en"), ("x-default", "kn")] {
            assert_eq!(
                head_links(&doc, &format!("link[rel=alternate][hreflang={hreflang}]")),
                [format!("{BASE}{lang}/{rest}")],
                "{page}: {hreflang}"
            );
        }
        let feeds = head_links(&doc, "link[rel=alternate][type='application/atom+xml']");
        assert_eq!(
            feeds,
            feed.map(|f| format!("{BASE}{f}"))
                .into_iter()
                .collect::<Vec<_>>(),
            "{page}"
        );
        if let Some(f) = feed {
            let parsed =
                feed_rs::parser::parse(&std::fs::read(site(d).join(f)).unwrap()[..]).unwrap();
            assert!(!parsed.entries.is_empty(), "{f}");
        }
        // The icon is linked, and there, so a browser asks for no /favicon.ico.
        let icons = head_links(&doc, "link[rel=icon]");
        assert_eq!(icons.len(), 1, "{page}");
        let icon = file_url(&path)
            .join(&icons[0])
            .unwrap()
            .to_file_path()
            .unwrap();
        assert!(icon.is_file(), "{page}: {}", icon.display());
        let description = doc
            .select(&sel("head meta[name=description]"))
            .next()
            .and_then(|m| m.value().attr("content"))
            .unwrap_or_default()
            .to_string();
        assert!(description.len() > 40, "{page}: {description:?}");
    }
}

#[test]
fn counts_take_the_singular_for_one_in_the_browser() {
    let d = demo();
    let mut singular = 0;
    for (page, one, many) in [
        ("en/topics/index.html", " headline)", " headlines)"),
        ("kn/topics/index.html", " ಮುಖ್ಯಾಂಶ)", " ಮುಖ್ಯಾಂಶಗಳು)"),
        ("en/days/index.html", " headline)", " headlines)"),
        ("kn/index.html", " ಮುಖ್ಯಾಂಶ)", " ಮುಖ್ಯಾಂಶಗಳು)"),
    ] {
        let doc = scraper::Html::parse_document(&dom(&site(d).join(page)));
        let mut counts = 0;
        for li in doc.select(&sel("main li")) {
            let text: String = li.text().collect();
            let Some((_, tail)) = text.rsplit_once(" (") else {
                continue;
            };
            let Some((n, word)) = tail.split_once(' ') else {
                continue;
            };
            let Ok(n) = n.parse::<usize>() else { continue };
            let word = format!(" {word}");
            counts += 1;
            if n == 1 {
                singular += 1;
                assert_eq!(word.trim_end(), one.trim_end(), "{page}: {text}");
            } else {
                assert!(word.starts_with(many.trim_end()), "{page}: {text}");
            }
        }
        assert!(counts > 0, "{page} shows counts");
    }
    assert!(singular > 0, "the demo has a topic of one headline");
}

#[test]
fn the_outlets_page_says_what_each_site_did_in_words_in_the_browser() {
    // A refusal by challenge, a halt and a source failing for days, as the fetcher records them.
    let w = Workdir::new("browser_outlets_words");
    std::fs::write(
        &w.sources,
        "outlet,lang,kind,section,url,selector,status\n\
         ನಮ್ಮ ಪತ್ರಿಕೆ,kn,feed,top,https://kn.example/rss.xml,,checked\n\
         Hill Herald,en,feed,top,https://hill.example/feed.xml,,checked\n\
         Plains Post,en,feed,top,https://plains.example/feed.xml,,checked\n",
    )
    .unwrap();
    let stop = |at: &str, reason: &str| serde_json::json!({"at": at, "url": "x", "status": 403, "reason": reason, "evidence": "x"});
    let state = serde_json::json!({
        "sources": {"https://kn.example/rss.xml": {"etag": null, "last_modified": null, "failures": 40, "failing_since": "2026-11-27T05:05:00Z", "last_request": "2026-11-30T05:05:00Z", "last_success": "2026-11-27T04:05:00Z"}},
        "sites": {
            "https://hill.example": {"wait_until": null, "waits_in_a_row": 0, "refused": stop("2026-11-20T07:05:00Z", "challenge-cloudflare"), "halted": null},
            "https://plains.example": {"wait_until": null, "waits_in_a_row": 3, "refused": null, "halted": stop("2026-11-25T09:05:00Z", "halted-3-waits")}
        }
    });
    std::fs::write(
        w.data.join("state.json"),
        serde_json::to_string(&state).unwrap(),
    )
    .unwrap();
    std::fs::create_dir_all(w.data.join(DAY)).unwrap();
    w.stage("publish", DEMO_NOW);
    for (page, says) in [
        (
            "en/outlets/index.html",
            [
                "it answered with a Cloudflare page that checks for robots",
                "it asked HudukuBot to wait 3 times in a row",
                "Not answering since 27 Nov 2026",
            ],
        ),
        (
            "kn/outlets/index.html",
            [
                "Cloudflare ಪುಟವನ್ನು ಉತ್ತರವಾಗಿ ನೀಡಿತು",
                "ಸತತ 3 ಬಾರಿ ಕಾಯಲು ಹೇಳಿತು",
                "27 ನವೆಂಬರ್ 2026 ರಿಂದ ಉತ್ತರಿಸುತ್ತಿಲ್ಲ",
            ],
        ),
    ] {
        let doc = scraper::Html::parse_document(&dom(&w.data.join("site").join(page)));
        let main: String = doc
            .select(&sel("main"))
            .next()
            .unwrap()
            .text()
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for s in says {
            assert!(main.contains(s), "{page}: {s:?} in {main}");
        }
        for raw in ["challenge-", "halted-3", "https://", "refused-"] {
            assert!(!main.contains(raw), "{page}: {raw} shown raw: {main}");
        }
        // The Kannada outlet has a page that reads, and is not "Read" while failing.
        let kn = doc
            .select(&sel("main li"))
            .find(|li| li.text().collect::<String>().contains("ನಮ್ಮ ಪತ್ರಿಕೆ"))
            .unwrap();
        let href = kn
            .select(&sel("a.h"))
            .next()
            .unwrap()
            .value()
            .attr("href")
            .unwrap();
        assert!(href.ends_with("namma-patrike.html"), "{page}: {href}");
        let text: String = kn.text().collect();
        assert!(
            !text.contains("Read") && !text.contains("ಓದಲಾಗುತ್ತಿದೆ"),
            "{page}: {text}"
        );
    }
}
