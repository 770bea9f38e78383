//! The hand-kept lists in `pipeline/`: sources, opt-outs, permissions, takedowns, the
//! never-fetch list of aggregators and other people's copies, the hosts an outlet publishes on
//! besides its sources' (`hosts.csv`), and the address ranges an operator allows although
//! they are not public (`network.csv`).
//!
//! They are CSV files with a header row; lines starting with `#` are comments. A bad line
//! is an error naming the file and the line, and nothing is half-loaded.

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use url::Url;

use crate::hosts::{Hosts, Listed};
use crate::polite::address::{Allowed, Cidr, Network};

/// The languages Huduku publishes in; a source in another is a mistake in the list.
pub const LANGS: [&str; 2] = ["kn", "en"];

/// Where the hand-kept lists live (`--pipeline`, default `pipeline`).
#[derive(Debug, Clone)]
pub struct Pipeline {
    pub root: PathBuf,
    /// The source list; `pipeline/sources.csv` unless `--sources` names another.
    pub sources: PathBuf,
    /// The allowed address ranges; `pipeline/network.csv` unless `--network` names another.
    pub network: PathBuf,
}

impl Pipeline {
    pub fn new(root: impl Into<PathBuf>, sources: Option<PathBuf>) -> Pipeline {
        let root = root.into();
        let sources = sources.unwrap_or_else(|| root.join("sources.csv"));
        let network = root.join("network.csv");
        Pipeline {
            root,
            sources,
            network,
        }
    }
    /// The same lists with another file of allowed address ranges.
    pub fn with_network(mut self, network: Option<PathBuf>) -> Pipeline {
        if let Some(n) = network {
            self.network = n;
        }
        self
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

/// The `status` values of a source an operator has checked (robots.txt, one look under
/// HudukuBot's name with `fetch-feeds --check URL`, the publisher's terms): `checked`; the
/// demo's and the tests' own outlets are `demo` and `test`. Every other value (`unchecked`,
/// empty, a typo) is never fetched.
pub const FETCHED_STATUSES: &[&str] = &["checked", "demo", "test"];

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
    /// Whether an operator has checked it, so it may be fetched ([`FETCHED_STATUSES`]).
    pub fn checked(&self) -> bool {
        FETCHED_STATUSES.contains(&self.status.as_str())
    }

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
pub(crate) fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<(u64, T)>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    // Physical line of a byte offset (the csv crate's own line count skips comment lines).
    // A record's position is where the reader began looking for it, before any comment or
    // blank lines.
    let line_at = |byte: u64| {
        let mut at = (byte as usize).min(bytes.len());
        let mut line = bytes[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        // Comment lines and blank lines (which the csv crate skips too) are not the record's.
        while matches!(bytes.get(at), Some(b'#' | b'\n' | b'\r')) {
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

/// Accepts `http`/`https` URLs only, judged as written: `http://` or `https://` and then a
/// host (`http:///f.xml` is not read as host `f.xml`), no white space or control characters
/// (the URL parser would percent-encode them and fetch something nobody wrote), and no
/// credentials (`user:password@`), which HudukuBot never sends.
pub fn parse_http_url(s: &str) -> Result<Url> {
    let raw = s.trim();
    if let Some(c) = raw.chars().find(|c| c.is_whitespace() || c.is_control()) {
        bail!("{raw:?} contains {c:?}: write the address without it, or percent-encoded");
    }
    let lower = raw.to_ascii_lowercase();
    let Some(rest) = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
    else {
        bail!("{raw:?} is not an http(s) address (it begins with http:// or https://)");
    };
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    if authority.is_empty() {
        bail!("{raw:?} has no host between // and the path");
    }
    if authority.contains('@') {
        bail!("{raw:?} carries credentials (user:password@): HudukuBot never sends them");
    }
    let url = Url::parse(raw).with_context(|| format!("{raw:?} is not a URL"))?;
    match url.scheme() {
        "http" | "https"
            if url.host().is_some() && url.username().is_empty() && url.password().is_none() =>
        {
            Ok(url)
        }
        _ => bail!("{raw:?} is not an http(s) address"),
    }
}

/// Loads and checks the source list: every line a usable http(s) source in Kannada or
/// English (a home page with a CSS selector that parses), none an aggregator or someone
/// else's copy, no address twice, and at least one line.
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
            bail!("{}: the language is empty (kn or en)", at());
        }
        if !LANGS.contains(&row.lang.as_str()) {
            bail!(
                "{}: language {:?} is not one of {}",
                at(),
                row.lang,
                LANGS.join(", ")
            );
        }
        let selector = (!row.selector.is_empty()).then(|| row.selector.clone());
        if kind == Kind::Homepage && selector.is_none() {
            bail!(
                "{}: a homepage source needs a CSS selector for its headline links",
                at()
            );
        }
        if let Some(css) = &selector
            && let Err(e) = scraper::Selector::parse(css)
        {
            bail!("{}: the CSS selector {css:?} does not parse: {e}", at());
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
    if out.is_empty() {
        bail!(
            "{}: no sources (a list without a line would fetch nothing)",
            path.display()
        );
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

#[derive(Deserialize)]
struct HostRow {
    outlet: String,
    host: String,
    #[serde(default)]
    note: String,
}

/// Loads `pipeline/hosts.csv` (outlet, host, note): hosts that are an outlet's own besides
/// its sources' hosts and their registrable domains, each with its sub-domains. No file is
/// an empty list. Each host is a bare host name or address; when `sources` is given, each
/// outlet must be one of the source list's.
pub fn load_hosts(p: &Pipeline, sources: Option<&[Source]>) -> Result<Hosts> {
    let path = p.file("hosts.csv");
    let mut by_outlet: BTreeMap<String, Vec<Listed>> = BTreeMap::new();
    for (line, row) in read_rows_opt::<HostRow>(&path)? {
        let at = format!("{}:{}", path.display(), line);
        if row.outlet.is_empty() {
            bail!("{at}: the outlet is empty");
        }
        let host = crate::hosts::norm_host(&row.host);
        let bare = !host.is_empty()
            && !host.contains(['/', '@', ' ', '?', '#'])
            && url::Host::parse(&host).is_ok()
            && (!host.contains(':') || host.parse::<std::net::Ipv6Addr>().is_ok());
        if !bare {
            bail!(
                "{at}: host {:?} must be a bare host name or address (no scheme, port, path or user)",
                row.host
            );
        }
        if let Some(sources) = sources {
            known_outlet(sources, &row.outlet).map_err(|e| anyhow!("{at}: {e}"))?;
        }
        by_outlet
            .entry(row.outlet.to_lowercase())
            .or_default()
            .push(Listed {
                host,
                note: row.note,
                line,
            });
    }
    Ok(Hosts { path, by_outlet })
}

#[derive(Deserialize)]
struct NetworkRow {
    range: String,
    note: String,
}

/// Loads the address ranges an operator allows although they are not public
/// (`pipeline/network.csv`, or `--network`): range in CIDR form, and a note saying why. No
/// file allows nothing, which is what production wants; the demo and the tests allow
/// 127.0.0.0/8 on purpose.
pub fn load_network(p: &Pipeline) -> Result<Network> {
    let path = &p.network;
    let mut allowed = Vec::new();
    for (line, row) in read_rows_opt::<NetworkRow>(path)? {
        let at = format!("{}:{}", path.display(), line);
        let range = Cidr::parse(&row.range).map_err(|e| anyhow!("{at}: {e}"))?;
        if row.note.is_empty() {
            bail!("{at}: an allowed range needs a note saying why");
        }
        allowed.push(Allowed {
            range,
            note: row.note,
            line,
        });
    }
    Ok(Network {
        path: path.display().to_string(),
        allowed,
    })
}

/// Ok if `outlet` names an outlet of the source list (whatever its case); otherwise why not,
/// with the outlet it probably meant if one is close.
fn known_outlet(sources: &[Source], outlet: &str) -> std::result::Result<(), String> {
    if sources
        .iter()
        .any(|s| s.outlet.eq_ignore_ascii_case(outlet))
    {
        return Ok(());
    }
    let wanted = outlet.to_lowercase();
    let near = sources
        .iter()
        .map(|s| (edit_distance(&wanted, &s.outlet.to_lowercase()), &s.outlet))
        .min();
    let limit = (wanted.chars().count() / 3).max(2);
    Err(match near {
        Some((d, name)) if d <= limit => {
            format!("outlet {outlet:?} is not in the source list; did you mean {name:?}?")
        }
        _ => format!("outlet {outlet:?} is not in the source list"),
    })
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
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

/// Loads `pipeline/optouts.csv`, checking each line against the source list: an outlet must
/// be one of its outlets, a site one of the publisher's own hosts of some source (so a typo
/// cannot leave the real outlet fetched). Without a source list (an empty `sources`, as a
/// replay with none has) the lines are only read.
pub fn load_optouts(p: &Pipeline, sources: &[Source], hosts: &Hosts) -> Result<OptOuts> {
    let optouts = read_optouts(p)?;
    if sources.is_empty() {
        return Ok(optouts);
    }
    let path = p.file("optouts.csv");
    for o in &optouts.entries {
        match o {
            OptOut::Outlet { outlet, line, .. } => known_outlet(sources, outlet)
                .map_err(|e| anyhow!("{}:{line}: {e}", path.display()))?,
            OptOut::Site { site, line, .. } => {
                let url = Url::parse(site)?;
                let owned = sources
                    .iter()
                    .any(|s| hosts.scope(&s.outlet, &s.url).owns(&url));
                if !owned {
                    let near = sources
                        .iter()
                        .map(|s| (edit_distance(site, &s.site()), s.site()))
                        .min()
                        .filter(|(d, _)| *d <= (site.len() / 4).max(2));
                    bail!(
                        "{}:{line}: site {site} is no host of any source in the source list{}",
                        path.display(),
                        near.map(|(_, s)| format!("; did you mean {s}?"))
                            .unwrap_or_default()
                    );
                }
            }
        }
    }
    Ok(optouts)
}

/// Reads `pipeline/optouts.csv` without checking it against the source list.
pub fn read_optouts(p: &Pipeline) -> Result<OptOuts> {
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

    /// A pipeline directory of its own for one test (`name` keeps parallel tests apart).
    fn lists(name: &str, files: &[(&str, &str)]) -> (Pipeline, PathBuf) {
        let dir = std::env::temp_dir().join(format!("huduku-lists-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("never-fetch.csv"), NEVER).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        (Pipeline::new(&dir, None), dir)
    }

    const HEAD: &str = "outlet,lang,kind,section,url,selector,status\n";

    fn sources_error(name: &str, body: &str) -> String {
        let (p, dir) = lists(name, &[("sources.csv", &format!("{HEAD}{body}"))]);
        let e = format!("{:#}", load_sources(&p).unwrap_err());
        std::fs::remove_dir_all(dir).unwrap();
        e
    }

    #[test]
    fn an_address_is_read_as_written() {
        let ok = "A,en,feed,top,https://a.example/feed,,\n";
        for (name, line, needle) in [
            (
                "empty_authority",
                "B,en,feed,top,http:///f.xml,,\n",
                "no host",
            ),
            (
                "one_slash",
                "B,en,feed,top,http:/f.xml,,\n",
                "begins with http://",
            ),
            (
                "space",
                "B,en,feed,top,https://b.example/top feed.xml,,\n",
                "' '",
            ),
            (
                "tab",
                "B,en,feed,top,https://b.example/a\tb.xml,,\n",
                "'\\t'",
            ),
            (
                "userinfo",
                "B,en,feed,top,https://u:p@b.example/feed,,\n",
                "credentials",
            ),
            (
                "user_only",
                "B,en,feed,top,https://u@b.example/feed,,\n",
                "credentials",
            ),
        ] {
            let e = sources_error(name, &format!("{ok}{line}"));
            assert!(
                e.contains("sources.csv:3") && e.contains(needle),
                "{name}: {e}"
            );
        }
        assert!(parse_http_url("HTTPS://Example.com/x").is_ok());
        assert!(parse_http_url("https://example.com/ಸುದ್ದಿ").is_ok());
    }

    #[test]
    fn a_source_list_with_no_sources_is_an_error() {
        for (name, text) in [
            ("zero_bytes", ""),
            ("header_only", HEAD),
            (
                "comments",
                "# nothing yet\noutlet,lang,kind,section,url,selector,status\n# still nothing\n",
            ),
        ] {
            let (p, dir) = lists(name, &[("sources.csv", text)]);
            let e = format!("{:#}", load_sources(&p).unwrap_err());
            assert!(
                e.contains("sources.csv") && e.contains("no sources"),
                "{name}: {e}"
            );
            std::fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn a_language_other_than_kannada_or_english_names_the_line() {
        let e = sources_error(
            "lang",
            "A,en,feed,top,https://a.example/feed,,\nB,hi,feed,top,https://b.example/feed,,\n",
        );
        assert!(
            e.contains("sources.csv:3") && e.contains("\"hi\"") && e.contains("kn, en"),
            "{e}"
        );
    }

    #[test]
    fn a_css_selector_that_does_not_parse_names_the_line() {
        let e = sources_error(
            "css",
            "A,en,feed,top,https://a.example/feed,,\n# a comment\nB,en,homepage,top,https://b.example/,ul.headlines >> li[,\n",
        );
        assert!(
            e.contains("sources.csv:4") && e.contains("CSS selector"),
            "{e}"
        );
        let (p, dir) = lists(
            "css_ok",
            &[(
                "sources.csv",
                &format!("{HEAD}B,en,homepage,top,https://b.example/,ul.headlines li a,\n"),
            )],
        );
        assert_eq!(
            load_sources(&p).unwrap()[0].selector.as_deref(),
            Some("ul.headlines li a")
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    const TWO: &str = "Prajavani,kn,feed,top,https://www.prajavani.net/feed,,\nDeccan Herald,en,feed,top,https://www.deccanherald.com/rss,,\n";

    fn optouts_error(name: &str, optouts: &str) -> String {
        let (p, dir) = lists(
            name,
            &[
                ("sources.csv", &format!("{HEAD}{TWO}")),
                ("optouts.csv", &format!("kind,value,since,note\n{optouts}")),
            ],
        );
        let sources = load_sources(&p).unwrap();
        let hosts = load_hosts(&p, Some(&sources)).unwrap();
        let r = load_optouts(&p, &sources, &hosts);
        std::fs::remove_dir_all(dir).unwrap();
        match r {
            Ok(_) => String::new(),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn an_opt_out_must_name_a_listed_outlet_or_site() {
        let e = optouts_error("optout_typo", "outlet,Prajavanni,2026-11-30,email\n");
        assert!(
            e.contains("optouts.csv:2") && e.contains("did you mean \"Prajavani\""),
            "{e}"
        );
        let e = optouts_error("optout_unknown", "outlet,Times Now,2026-11-30,email\n");
        assert!(
            e.contains("optouts.csv:2") && !e.contains("did you mean"),
            "{e}"
        );
        let e = optouts_error(
            "optout_site_typo",
            "site,https://www.prajavanii.net,2026-11-30,email\n",
        );
        assert!(
            e.contains("optouts.csv:2") && e.contains("did you mean https://www.prajavani.net"),
            "{e}"
        );
        // Case does not matter; another host of the publisher's registrable domain is its site.
        assert_eq!(
            optouts_error("optout_case", "outlet,deccan herald,2026-11-30,\n"),
            ""
        );
        assert_eq!(
            optouts_error(
                "optout_epaper",
                "site,https://epaper.prajavani.net,2026-11-30,\n"
            ),
            ""
        );
    }

    #[test]
    fn hosts_csv_lines_name_their_file_and_line() {
        let load = |name: &str, hosts: &str| {
            let (p, dir) = lists(
                name,
                &[
                    ("sources.csv", &format!("{HEAD}{TWO}")),
                    ("hosts.csv", &format!("outlet,host,note\n{hosts}")),
                ],
            );
            let sources = load_sources(&p).unwrap();
            let r = load_hosts(&p, Some(&sources)).map_err(|e| format!("{e:#}"));
            std::fs::remove_dir_all(dir).unwrap();
            r
        };
        let h = load(
            "hosts_ok",
            "prajavani,IMG.Prajavani-CDN.example.,their image and article CDN\n",
        )
        .unwrap();
        let scope = h.scope(
            "Prajavani",
            &Url::parse("https://www.prajavani.net/feed").unwrap(),
        );
        assert!(scope.owns(&Url::parse("https://img.prajavani-cdn.example/a.html").unwrap()));
        for (name, line, needle) in [
            (
                "hosts_scheme",
                "Prajavani,https://cdn.example,\n",
                "bare host",
            ),
            ("hosts_path", "Prajavani,cdn.example/news,\n", "bare host"),
            ("hosts_port", "Prajavani,cdn.example:8080,\n", "bare host"),
            (
                "hosts_outlet",
                "Prajavany,cdn.example,\n",
                "did you mean \"Prajavani\"",
            ),
        ] {
            let e = load(name, &format!("# a comment\n{line}")).unwrap_err();
            assert!(
                e.contains("hosts.csv:3") && e.contains(needle),
                "{name}: {e}"
            );
        }
    }

    #[test]
    fn network_csv_lines_name_their_file_and_line() {
        let load = |name: &str, text: &str| {
            let (p, dir) = lists(name, &[("network.csv", text)]);
            let r = load_network(&p).map_err(|e| format!("{e:#}"));
            std::fs::remove_dir_all(dir).unwrap();
            r
        };
        let n = load("net_ok", "range,note\n127.0.0.0/8,the loopback web\n").unwrap();
        assert_eq!(n.allowed.len(), 1);
        assert!(n.check("127.0.0.9".parse().unwrap()).is_ok());
        assert!(load("net_none", "range,note\n").unwrap().allowed.is_empty());
        let e = load("net_bad", "range,note\n10.0.0.1/8,office\n").unwrap_err();
        assert!(
            e.contains("network.csv:2") && e.contains("host bits"),
            "{e}"
        );
        let e = load("net_note", "range,note\n10.0.0.0/8,\n").unwrap_err();
        assert!(e.contains("network.csv:2") && e.contains("note"), "{e}");
        let (p, dir) = lists("net_missing", &[]);
        assert!(
            load_network(&p).unwrap().allowed.is_empty(),
            "no file allows nothing"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
