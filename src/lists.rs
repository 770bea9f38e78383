//! The hand-kept lists in `pipeline/`: sources, opt-outs, permissions, takedowns and the
//! never-fetch list of aggregators and other people's copies.
//!
//! They are CSV files with a header row; lines starting with `#` are comments. A bad line
//! is an error naming the file and the line, and nothing is half-loaded.

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use url::Url;

/// Where the hand-kept lists live (`--pipeline`, default `pipeline`).
#[derive(Debug, Clone)]
pub struct Pipeline {
    pub root: PathBuf,
    /// The source list; `pipeline/sources.csv` unless `--sources` names another.
    pub sources: PathBuf,
}

impl Pipeline {
    pub fn new(root: impl Into<PathBuf>, sources: Option<PathBuf>) -> Pipeline {
        let root = root.into();
        let sources = sources.unwrap_or_else(|| root.join("sources.csv"));
        Pipeline { root, sources }
    }
    pub fn file(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }
}

/// What a source is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// RSS or Atom.
    Feed,
    /// A Google news sitemap (or an index of them).
    Sitemap,
    /// The list of headlines on the publisher's home page, found by a CSS selector.
    Homepage,
}

/// One line of the source list.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub outlet: String,
    pub lang: String,
    pub kind: Kind,
    pub section: String,
    pub url: Url,
    /// CSS selector for headline links (home pages only).
    pub selector: Option<String>,
    /// Whether an operator has checked the address (`checked`) or not (`unchecked`).
    pub status: String,
    /// Where this line came from, for error messages.
    pub line: u64,
}

impl Source {
    /// The site (origin) this source belongs to, e.g. `https://www.prajavani.net`.
    pub fn site(&self) -> String {
        site_of(&self.url)
    }
    /// A short stable name for files about this source: the first 16 hex of SHA-256 of the URL.
    pub fn key(&self) -> String {
        source_key(self.url.as_str())
    }
}

/// The first 16 hex digits of SHA-256 of a URL: names raw files of a source.
pub fn source_key(url: &str) -> String {
    crate::store::sha256_hex(url.as_bytes())[..16].to_string()
}

/// The origin of a URL as robots.txt sees it: scheme, host and port (`http://127.0.0.21:8080`).
pub fn site_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

#[derive(Deserialize)]
struct SourceRow {
    outlet: String,
    lang: String,
    kind: String,
    #[serde(default)]
    section: String,
    url: String,
    #[serde(default)]
    selector: String,
    #[serde(default)]
    status: String,
}

/// Reads CSV rows of type `T`, naming file and line in every error.
fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<(u64, T)>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    // Physical line of a byte offset (the csv crate's own line count skips comment lines).
    // A record's position is where the reader began looking for it, before any comment lines.
    let line_at = |byte: u64| {
        let mut at = (byte as usize).min(bytes.len());
        let mut line = bytes[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        while bytes.get(at) == Some(&b'#') {
            match bytes[at..].iter().position(|&b| b == b'\n') {
                Some(n) => {
                    at += n + 1;
                    line += 1;
                }
                None => break,
            }
        }
        line
    };
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .flexible(false)
        .from_reader(bytes.as_slice());
    let headers = rdr
        .headers()
        .with_context(|| format!("{}:1: reading the header row", path.display()))?
        .clone();
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| line_at(p.byte())).unwrap_or(0);
            anyhow::anyhow!("{}:{}: {}", path.display(), line, e)
        })?;
        let line = rec.position().map(|p| line_at(p.byte())).unwrap_or(0);
        let row: T = rec
            .deserialize(Some(&headers))
            .map_err(|e| anyhow::anyhow!("{}:{}: {}", path.display(), line, e))?;
        out.push((line, row));
    }
    Ok(out)
}

/// Reads rows of an optional list: a missing file is an empty list.
fn read_rows_opt<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<(u64, T)>> {
    if path.exists() {
        read_rows(path)
    } else {
        Ok(Vec::new())
    }
}

/// Accepts `http`/`https` URLs only.
pub fn parse_http_url(s: &str) -> Result<Url> {
    let url = Url::parse(s).with_context(|| format!("{s:?} is not a URL"))?;
    match url.scheme() {
        "http" | "https" if url.host().is_some() => Ok(url),
        _ => bail!("{s:?} is not an http(s) address"),
    }
}

/// Loads and checks the source list: every line a usable http(s) source, none an
/// aggregator or someone else's copy, no address twice.
pub fn load_sources(p: &Pipeline) -> Result<Vec<Source>> {
    let never = load_never_fetch(p)?;
    let path = &p.sources;
    let mut seen: BTreeMap<String, u64> = BTreeMap::new();
    let mut out = Vec::new();
    for (line, row) in read_rows::<SourceRow>(path)? {
        let at = || format!("{}:{}", path.display(), line);
        let url = parse_http_url(&row.url).with_context(at)?;
        let kind = match row.kind.as_str() {
            "feed" => Kind::Feed,
            "sitemap" => Kind::Sitemap,
            "homepage" => Kind::Homepage,
            k => bail!("{}: kind {k:?} is not one of feed, sitemap, homepage", at()),
        };
        if row.outlet.is_empty() {
            bail!("{}: the outlet is empty", at());
        }
        if row.lang.is_empty() {
            bail!("{}: the language is empty (kn, en, ...)", at());
        }
        let selector = (!row.selector.is_empty()).then(|| row.selector.clone());
        if kind == Kind::Homepage && selector.is_none() {
            bail!(
                "{}: a homepage source needs a CSS selector for its headline links",
                at()
            );
        }
        if let Some(hit) = never.matches(&url) {
            bail!(
                "{}: {} is {} ({}:{}); Huduku reads only the publisher's own site",
                at(),
                url,
                hit.what,
                never.path.display(),
                hit.line
            );
        }
        if let Some(first) = seen.insert(url.as_str().to_string(), line) {
            bail!("{}: {} is already listed on line {first}", at(), url);
        }
        out.push(Source {
            outlet: row.outlet,
            lang: row.lang,
            kind,
            section: row.section,
            url,
            selector,
            status: if row.status.is_empty() {
                "unchecked".into()
            } else {
                row.status
            },
            line,
        });
    }
    Ok(out)
}

/// One entry of the never-fetch list: a host (and its sub-domains), optionally a path prefix.
#[derive(Debug, Clone)]
pub struct NeverEntry {
    pub host: String,
    pub path_prefix: String,
    pub what: String,
    pub line: u64,
}

/// The list of aggregators, caches, archives, translation proxies and feed converters that
/// HudukuBot never reads in a publisher's place.
#[derive(Debug, Clone)]
pub struct NeverFetch {
    pub path: PathBuf,
    pub entries: Vec<NeverEntry>,
}

impl NeverFetch {
    /// The entry a URL falls under, if any: same host or a sub-domain of it, path prefix.
    pub fn matches(&self, url: &Url) -> Option<&NeverEntry> {
        let host = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
        self.entries.iter().find(|e| {
            (host == e.host || host.ends_with(&format!(".{}", e.host)))
                && url.path().starts_with(&e.path_prefix)
        })
    }
}

#[derive(Deserialize)]
struct NeverRow {
    host: String,
    #[serde(default)]
    path_prefix: String,
    what: String,
}

/// Loads `pipeline/never-fetch.csv` (it must exist: an empty list would silently allow all).
pub fn load_never_fetch(p: &Pipeline) -> Result<NeverFetch> {
    let path = p.file("never-fetch.csv");
    let mut entries = Vec::new();
    for (line, row) in read_rows::<NeverRow>(&path)? {
        if row.host.is_empty() || row.host.contains('/') {
            bail!(
                "{}:{}: host {:?} must be a bare host name",
                path.display(),
                line,
                row.host
            );
        }
        let path_prefix = if row.path_prefix.is_empty() {
            "/".to_string()
        } else {
            row.path_prefix
        };
        entries.push(NeverEntry {
            host: row.host.to_ascii_lowercase(),
            path_prefix,
            what: row.what,
            line,
        });
    }
    Ok(NeverFetch { path, entries })
}

/// An opt-out: a whole site, or an outlet by name.
#[derive(Debug, Clone, PartialEq)]
pub enum OptOut {
    Site {
        site: String,
        since: String,
        line: u64,
    },
    Outlet {
        outlet: String,
        since: String,
        line: u64,
    },
}

#[derive(Deserialize)]
struct OptOutRow {
    kind: String,
    value: String,
    since: String,
    #[serde(default)]
    #[allow(dead_code)]
    note: String,
}

/// The opt-outs from `pipeline/optouts.csv`.
#[derive(Debug, Clone, Default)]
pub struct OptOuts {
    pub entries: Vec<OptOut>,
}

impl OptOuts {
    /// Whether a source (by outlet name or by its site) has opted out.
    pub fn covers(&self, outlet: &str, site: &str) -> Option<&OptOut> {
        self.entries.iter().find(|o| match o {
            OptOut::Site { site: s, .. } => s == site,
            OptOut::Outlet { outlet: n, .. } => n.eq_ignore_ascii_case(outlet),
        })
    }
}

pub fn load_optouts(p: &Pipeline) -> Result<OptOuts> {
    let path = p.file("optouts.csv");
    let mut entries = Vec::new();
    for (line, row) in read_rows_opt::<OptOutRow>(&path)? {
        let at = format!("{}:{}", path.display(), line);
        crate::time::parse_day(&row.since).with_context(|| format!("{at}: since"))?;
        entries.push(match row.kind.as_str() {
            "site" => {
                let url = parse_http_url(&row.value).with_context(|| format!("{at}: site"))?;
                OptOut::Site {
                    site: site_of(&url),
                    since: row.since,
                    line,
                }
            }
            "outlet" => OptOut::Outlet {
                outlet: row.value,
                since: row.since,
                line,
            },
            k => bail!("{at}: kind {k:?} is not one of site, outlet"),
        });
    }
    Ok(OptOuts { entries })
}

/// A person's recorded permission to read a source or site again after a refusal or halt.
#[derive(Debug, Clone, PartialEq)]
pub struct Permission {
    /// A source URL, or a site origin (`https://example.com`), as written.
    pub target: String,
    pub granted: DateTime<Utc>,
    pub who: String,
    pub why: String,
    pub line: u64,
}

#[derive(Deserialize)]
struct PermissionRow {
    target: String,
    granted: String,
    who: String,
    why: String,
}

/// Loads the permissions as of `now`: a permission dated later than `now` is an error (a
/// date in the future would lift every refusal met until then, the moment it is made).
pub fn load_permissions(p: &Pipeline, now: DateTime<Utc>) -> Result<Vec<Permission>> {
    let path = p.file("permissions.csv");
    let mut out = Vec::new();
    for (line, row) in read_rows_opt::<PermissionRow>(&path)? {
        let at = format!("{}:{}", path.display(), line);
        let granted = crate::time::parse_now(&row.granted)
            .or_else(|_| crate::time::parse_day(&row.granted))
            .with_context(|| format!("{at}: granted must be a day or an RFC 3339 time"))?;
        if granted > now {
            bail!(
                "{at}: granted {} is later than now ({}): a permission is recorded when it is given, never ahead",
                crate::time::fmt(granted),
                crate::time::fmt(now)
            );
        }
        if row.who.is_empty() || row.why.is_empty() {
            bail!("{at}: a permission records who gave it and why");
        }
        let target = parse_http_url(&row.target).with_context(|| format!("{at}: target"))?;
        let target = if target.path() == "/" && !row.target.ends_with('/') {
            site_of(&target)
        } else {
            target.to_string()
        };
        out.push(Permission {
            target,
            granted,
            who: row.who,
            why: row.why,
            line,
        });
    }
    Ok(out)
}

/// A single headline taken down: its link, when and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Takedown {
    pub link: String,
    pub date: String,
    pub reason: String,
}

#[derive(Deserialize)]
struct TakedownRow {
    link: String,
    date: String,
    reason: String,
}

pub fn load_takedowns(p: &Pipeline) -> Result<Vec<Takedown>> {
    let path = p.file("takedowns.csv");
    let mut out = Vec::new();
    for (line, row) in read_rows_opt::<TakedownRow>(&path)? {
        let at = format!("{}:{}", path.display(), line);
        let link = parse_http_url(&row.link).with_context(|| format!("{at}: link"))?;
        crate::time::parse_day(&row.date).with_context(|| format!("{at}: date"))?;
        out.push(Takedown {
            link: crate::records::canonical_link(&link),
            date: row.date,
            reason: row.reason,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipeline_with(files: &[(&str, &str)]) -> (Pipeline, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "huduku-lists-{}-{}",
            std::process::id(),
            files[0].1.len()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        (Pipeline::new(&dir, None), dir)
    }

    const NEVER: &str = "host,path_prefix,what\nnews.google.com,,Google News (an aggregator)\ngoogle.com,/url,a Google redirect\n";

    #[test]
    fn aggregator_in_sources_is_refused_naming_the_line() {
        let (p, dir) = pipeline_with(&[
            (
                "sources.csv",
                "outlet,lang,kind,section,url,selector,status\nA,en,feed,top,https://a.example/feed,,\nB,en,feed,top,https://news.google.com/rss?hl=kn,,\n",
            ),
            ("never-fetch.csv", NEVER),
        ]);
        let e = format!("{:#}", load_sources(&p).unwrap_err());
        assert!(
            e.contains("sources.csv:3") && e.contains("Google News"),
            "{e}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bad_kind_and_non_http_name_the_line() {
        let (p, dir) = pipeline_with(&[
            (
                "sources.csv",
                "outlet,lang,kind,section,url,selector,status\n# a comment\nA,en,podcast,top,https://a.example/feed,,\n",
            ),
            ("never-fetch.csv", NEVER),
        ]);
        let e = format!("{:#}", load_sources(&p).unwrap_err());
        assert!(e.contains("sources.csv:3") && e.contains("podcast"), "{e}");
        std::fs::write(
            dir.join("sources.csv"),
            "outlet,lang,kind,section,url,selector,status\nA,en,feed,top,ftp://a.example/feed,,\n",
        )
        .unwrap();
        let e = format!("{:#}", load_sources(&p).unwrap_err());
        assert!(e.contains("sources.csv:2") && e.contains("http(s)"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn subdomain_of_a_never_fetch_host_matches() {
        let (p, dir) = pipeline_with(&[("never-fetch.csv", NEVER)]);
        let n = load_never_fetch(&p).unwrap();
        assert!(
            n.matches(&Url::parse("https://www.google.com/url?q=x").unwrap())
                .is_some()
        );
        assert!(
            n.matches(&Url::parse("https://www.google.com/search").unwrap())
                .is_none()
        );
        assert!(
            n.matches(&Url::parse("https://notgoogle.com/url").unwrap())
                .is_none()
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
