//! The loopback publisher web: a fake set of news outlets on 127.0.0.x
//! addresses, used by integration tests and the demo.
//!
//! Each sub-directory of the sites directory named by an IPv4 loopback
//! address (`127.0.0.21/`) is one site. All sites listen on the same port.
//! Files are served at their relative path (re-read on every request, with
//! `{{port}}` replaced by the real port); `_rules.json` scripts special
//! answers per path (see [`rules`]); a site with `_youtube.json` also answers
//! as a fake of the YouTube Data API under `/youtube/v3/` (see [`youtube`]).
//! Every request is appended to a JSON-lines log when its response is
//! finished: that log is the evidence of how polite
//! a client was, so connections are served concurrently (one thread each)
//! and nothing here ever serialises two requests.

pub mod http;
pub mod rules;
pub mod verify;
pub mod youtube;

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};

use self::http::Request;
use self::rules::{Entry, Rules};

/// How the web is started.
#[derive(Debug, Clone)]
pub struct Config {
    /// Directory with one sub-directory per site, named by its loopback address.
    pub sites_dir: PathBuf,
    /// Port shared by all sites; 0 lets the OS choose.
    pub port: u16,
    /// JSON-lines request log (appended to).
    pub log: PathBuf,
    /// File receiving the port number once every listener is up.
    pub ready: Option<PathBuf>,
    /// Default minimum duration of every response.
    pub latency_ms: u64,
    /// Serve every file as last modified at this time (seconds since the epoch) instead of
    /// its own modification time, so that two checkouts of the sites (whose files' times
    /// differ) answer with the same `Last-Modified` and the runs against them keep the same
    /// bytes (the demo's).
    pub fixed_mtime: Option<u64>,
    /// The JWK Set whose keys the web accepts signatures from (what `publish` serves at
    /// `/.well-known/http-message-signatures-directory`); without one, no key is known
    /// and a signed request is logged `unknown-key`.
    pub keys: Option<PathBuf>,
    /// The web's clock at start (seconds since the epoch): signatures are judged expired or
    /// early by it. Without one, time is not judged.
    pub clock: Option<i64>,
}

/// One outlet.
#[derive(Debug, Clone)]
pub struct Site {
    pub addr: Ipv4Addr,
    pub dir: PathBuf,
}

/// A started web: listeners are bound and being served by background threads.
pub struct Running {
    pub port: u16,
    pub sites: Vec<Site>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Running {
    /// Blocks for as long as the listeners run (normally until the process is killed).
    pub fn wait(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// The sites under `dir`, sorted by address.
pub fn discover_sites(dir: &Path) -> Result<Vec<Site>> {
    let mut sites = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        if !entry.file_type()?.is_dir() {
            continue;
        }
        let name = entry.file_name();
        let Some(addr) = name.to_str().and_then(|n| n.parse::<Ipv4Addr>().ok()) else {
            continue;
        };
        if !addr.is_loopback() {
            bail!(
                "site directory {} is not a loopback address",
                entry.path().display()
            );
        }
        sites.push(Site {
            addr,
            dir: entry.path(),
        });
    }
    if sites.is_empty() {
        bail!(
            "no site directories (named like 127.0.0.21) in {}",
            dir.display()
        );
    }
    sites.sort_by_key(|s| s.addr);
    Ok(sites)
}

/// Binds every site on one port (retrying with a fresh port when `port` is 0).
fn bind_all(sites: &[Site], port: u16) -> Result<(u16, Vec<TcpListener>)> {
    let attempts = if port == 0 { 20 } else { 1 };
    let mut last_err = None;
    'attempt: for _ in 0..attempts {
        let mut listeners = Vec::new();
        let mut port = port;
        for site in sites {
            match TcpListener::bind(SocketAddr::from((site.addr, port))) {
                Ok(l) => {
                    if port == 0 {
                        port = l.local_addr()?.port();
                    }
                    listeners.push(l);
                }
                Err(e) => {
                    last_err = Some(anyhow!(e).context(format!("binding {}:{}", site.addr, port)));
                    continue 'attempt;
                }
            }
        }
        return Ok((port, listeners));
    }
    Err(last_err.unwrap_or_else(|| anyhow!("could not bind")))
}

/// Binds all sites, starts serving and writes the ready file.
pub fn start(cfg: &Config) -> Result<Running> {
    let sites = discover_sites(&cfg.sites_dir)?;
    let (port, listeners) = bind_all(&sites, cfg.port)?;
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.log)
        .with_context(|| format!("opening log {}", cfg.log.display()))?;
    let verifier = match &cfg.keys {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the key set {}", path.display()))?;
            verify::Verifier::from_jwks(&text)
                .with_context(|| format!("the key set {}", path.display()))?
        }
        None => verify::Verifier::default(),
    };
    let verifier = match cfg.clock {
        Some(t) => verifier.with_clock(t),
        None => verifier,
    };
    let shared = Arc::new(Shared {
        port,
        latency_ms: cfg.latency_ms,
        fixed_mtime: cfg.fixed_mtime,
        verifier,
        log: Mutex::new(log),
        counters: Mutex::new(HashMap::new()),
    });
    let mut threads = Vec::new();
    for (site, listener) in sites.iter().zip(listeners) {
        let site = Arc::new(site.clone());
        let shared = shared.clone();
        threads.push(thread::spawn(move || accept_loop(listener, site, shared)));
    }
    if let Some(ready) = &cfg.ready {
        let mut tmp = ready.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, format!("{port}\n"))
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, ready).with_context(|| format!("renaming to {}", ready.display()))?;
    }
    Ok(Running {
        port,
        sites,
        threads,
    })
}

/// Starts the web and serves until the process is killed.
pub fn run(cfg: &Config) -> Result<()> {
    let running = start(cfg)?;
    let names: Vec<String> = running.sites.iter().map(|s| s.addr.to_string()).collect();
    crate::elog!(
        "loopback-web: listening on port {} (sites: {})",
        running.port,
        names.join(", ")
    );
    running.wait();
    Ok(())
}

struct Shared {
    port: u16,
    latency_ms: u64,
    fixed_mtime: Option<u64>,
    verifier: verify::Verifier,
    log: Mutex<File>,
    /// Requests seen per (site, path), for scripts.
    counters: Mutex<HashMap<(Ipv4Addr, String), usize>>,
}

fn accept_loop(listener: TcpListener, site: Arc<Site>, shared: Arc<Shared>) {
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let site = site.clone();
                let shared = shared.clone();
                thread::spawn(move || {
                    if let Err(e) = serve_connection(stream, &site, &shared)
                        && !quiet_error(&e)
                    {
                        crate::elog!("loopback-web: {}: {e}", site.addr);
                    }
                });
            }
            Err(e) => {
                crate::elog!("loopback-web: accept on {}: {e}", site.addr);
                thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

fn quiet_error(e: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        e.kind(),
        BrokenPipe | ConnectionReset | ConnectionAborted | UnexpectedEof | WouldBlock | TimedOut
    )
}

/// Serves the requests of one connection (keep-alive is supported).
fn serve_connection(stream: TcpStream, site: &Site, shared: &Shared) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    stream.set_write_timeout(Some(Duration::from_secs(120)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let Some(req) = (match http::read_request(&mut reader) {
            Ok(r) => r,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                let body = format!("bad request: {e}\n");
                let head = http::head_bytes(
                    400,
                    &[
                        ("Content-Type".into(), "text/plain; charset=utf-8".into()),
                        ("Content-Length".into(), body.len().to_string()),
                        ("Connection".into(), "close".into()),
                    ],
                );
                let _ = writer
                    .write_all(&head)
                    .and_then(|_| writer.write_all(body.as_bytes()));
                return Ok(());
            }
            Err(e) => return Err(e),
        }) else {
            return Ok(());
        };
        let arrived = Instant::now();
        let arrived_wall = Utc::now();
        http::skip_body(&mut reader, &req)?;
        let keep_alive = req.keep_alive();
        let (outcome, status, sent) = respond(&mut writer, &req, keep_alive, arrived, site, shared);
        let finished_wall = Utc::now();
        write_log(
            shared,
            site,
            &req,
            status,
            sent,
            arrived_wall,
            finished_wall,
        );
        outcome?;
        if !keep_alive {
            return Ok(());
        }
    }
}

/// A response body, possibly padded to a size without holding it in memory.
enum Body {
    Bytes(Vec<u8>),
    Padded {
        prefix: Vec<u8>,
        unit: Vec<u8>,
        pad_len: u64,
        suffix: Vec<u8>,
    },
}

impl Body {
    fn len(&self) -> u64 {
        match self {
            Body::Bytes(b) => b.len() as u64,
            Body::Padded {
                prefix,
                pad_len,
                suffix,
                ..
            } => prefix.len() as u64 + pad_len + suffix.len() as u64,
        }
    }

    /// Feeds the body to `f` in chunks.
    fn for_each_chunk(&self, mut f: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        match self {
            Body::Bytes(b) => f(b),
            Body::Padded {
                prefix,
                unit,
                pad_len,
                suffix,
            } => {
                f(prefix)?;
                let unit: &[u8] = if unit.is_empty() { b" " } else { unit };
                let per_chunk = (64 * 1024 / unit.len()).max(1);
                let chunk = unit.repeat(per_chunk);
                let full = pad_len / unit.len() as u64;
                let rem = (pad_len % unit.len() as u64) as usize;
                for _ in 0..full / per_chunk as u64 {
                    f(&chunk)?;
                }
                f(&chunk[..(full % per_chunk as u64) as usize * unit.len()])?;
                f(&b" ".repeat(rem))?;
                f(suffix)
            }
        }
    }

    fn etag(&self) -> String {
        let mut h = Sha256::new();
        let _ = self.for_each_chunk(|c| {
            h.update(c);
            Ok(())
        });
        let digest = h.finalize();
        let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        format!("\"{hex}\"")
    }
}

/// What to send for one request.
struct Plan {
    status: u16,
    headers: Vec<(String, String)>,
    body: Body,
    /// Whether a body is sent at all (not for HEAD, 304, 204).
    send_body: bool,
    delay: Duration,
    stall: Duration,
    latency: Duration,
}

/// Works out and writes the response; returns the I/O outcome, the status and
/// the body bytes written.
fn respond(
    w: &mut TcpStream,
    req: &Request,
    keep_alive: bool,
    arrived: Instant,
    site: &Site,
    shared: &Shared,
) -> (io::Result<()>, u16, u64) {
    let mut plan = match plan(req, site, shared) {
        Ok(p) => p,
        Err(e) => {
            let body = format!("loopback-web: {e:#}\n");
            crate::elog!(
                "loopback-web: {}: {} {}: {e:#}",
                site.addr,
                req.method,
                req.target
            );
            Plan {
                status: 500,
                headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
                body: Body::Bytes(body.into_bytes()),
                send_body: req.method != "HEAD",
                delay: Duration::ZERO,
                stall: Duration::ZERO,
                latency: Duration::from_millis(shared.latency_ms),
            }
        }
    };
    if plan.status != 304 && plan.status != 204 {
        set_header(
            &mut plan.headers,
            "Content-Length",
            plan.body.len().to_string(),
            false,
        );
    }
    set_header(
        &mut plan.headers,
        "Connection",
        if keep_alive { "keep-alive" } else { "close" }.into(),
        false,
    );
    thread::sleep(plan.delay);
    // Every response takes at least the site's latency, so overlapping
    // requests show up as overlapping intervals in the log.
    let ready_at = arrived + plan.latency;
    let now = Instant::now();
    if ready_at > now {
        thread::sleep(ready_at - now);
    }
    let mut sent = 0u64;
    let result = (|| {
        w.write_all(&http::head_bytes(plan.status, &plan.headers))?;
        w.flush()?;
        if !plan.send_body {
            return Ok(());
        }
        if !plan.stall.is_zero() {
            thread::sleep(plan.stall);
        }
        plan.body
            .for_each_chunk(|c| http::write_counted(w, c, &mut sent))?;
        w.flush()
    })();
    (result, plan.status, sent)
}

/// Sets a header, replacing any of the same name (case-insensitively);
/// `keep_existing` leaves an existing one alone.
fn set_header(headers: &mut Vec<(String, String)>, name: &str, value: String, keep_existing: bool) {
    if let Some(h) = headers
        .iter_mut()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
    {
        if !keep_existing {
            h.1 = value;
        }
    } else {
        headers.push((name.to_string(), value));
    }
}

fn subst_port(bytes: Vec<u8>, port: u16) -> Vec<u8> {
    const PAT: &[u8] = b"{{port}}";
    if !bytes.windows(PAT.len()).any(|w| w == PAT) {
        return bytes;
    }
    let port = port.to_string();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(PAT) {
            out.extend_from_slice(port.as_bytes());
            i += PAT.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("xml") => "application/xml",
        Some("rss") => "application/rss+xml",
        Some("atom") => "application/atom+xml",
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        Some("json") => "application/json",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Decodes `%XX` escapes.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The file a URL path maps to, if it may be served: no `..`, no segment
/// starting with `_`; a directory path means its `index.html`.
fn resolve_file(site_dir: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path);
    let mut rel = PathBuf::new();
    for seg in decoded.split('/').filter(|s| !s.is_empty()) {
        if seg.starts_with('_') || seg.starts_with('.') || seg.contains('\\') {
            return None;
        }
        rel.push(seg);
    }
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let mut path = site_dir.join(&rel);
    if decoded.ends_with('/') || rel.as_os_str().is_empty() || path.is_dir() {
        path = path.join("index.html");
    }
    path.is_file().then_some(path)
}

fn mtime_secs(path: &Path) -> Option<u64> {
    let m = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(m.duration_since(UNIX_EPOCH).ok()?.as_secs())
}

fn plan(req: &Request, site: &Site, shared: &Shared) -> Result<Plan> {
    if let Some(p) = youtube::plan(req, site, shared)? {
        return Ok(p);
    }
    let rules = Rules::load(&site.dir)?;
    let url_path = req.path().to_string();
    let n = {
        let mut counters = shared.counters.lock().unwrap_or_else(|e| e.into_inner());
        let c = counters.entry((site.addr, url_path.clone())).or_insert(0);
        *c += 1;
        *c - 1
    };
    let entry: Entry = rules.entry(&url_path, n).cloned().unwrap_or_default();
    let validators = rules.validators.unwrap_or(true);
    let latency = Duration::from_millis(rules.latency_ms.unwrap_or(shared.latency_ms));
    let port = shared.port;

    let file = resolve_file(&site.dir, &url_path);
    let explicit_body = entry.body.is_some() || entry.body_file.is_some();
    let has_body_source = explicit_body || entry.repeat_bytes.is_some();
    let status = match entry.status {
        Some(s) if s != 200 => s,
        _ if file.is_some() || has_body_source => 200,
        _ => 404,
    };

    // The base body and the path its content type comes from.
    let (mut base, type_path): (Vec<u8>, PathBuf) = if let Some(body) = &entry.body {
        (
            body.clone().into_bytes(),
            file.clone().unwrap_or_else(|| PathBuf::from(&url_path)),
        )
    } else if let Some(bf) = &entry.body_file {
        let p = site.dir.join(bf);
        let bytes =
            std::fs::read(&p).with_context(|| format!("reading body_file {}", p.display()))?;
        (bytes, p)
    } else if let Some(f) = &file {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        (bytes, f.clone())
    } else if status == 404 && entry.status.is_none() {
        (b"404 Not Found\n".to_vec(), PathBuf::from("404.txt"))
    } else {
        (Vec::new(), PathBuf::from(&url_path))
    };
    base = subst_port(base, port);

    let body = match entry.repeat_bytes {
        Some(total) => {
            const MARK: &[u8] = b"{{repeat}}";
            let (prefix, suffix) = match base.windows(MARK.len()).position(|w| w == MARK) {
                Some(i) => (base[..i].to_vec(), base[i + MARK.len()..].to_vec()),
                None => (base, Vec::new()),
            };
            let fixed = (prefix.len() + suffix.len()) as u64;
            let unit = entry
                .repeat_text
                .clone()
                .unwrap_or_else(|| "<!-- x -->\n".into());
            Body::Padded {
                prefix,
                unit: unit.into_bytes(),
                pad_len: total.saturating_sub(fixed),
                suffix,
            }
        }
        None => Body::Bytes(base),
    };

    let mut headers: Vec<(String, String)> = vec![
        ("Date".into(), httpdate::fmt_http_date(SystemTime::now())),
        ("Server".into(), "loopback-web".into()),
        ("Content-Type".into(), content_type(&type_path).into()),
    ];
    let mut status = status;
    let mut send_body = req.method != "HEAD";
    if validators && status == 200 {
        let etag = body.etag();
        let mtime = file
            .as_deref()
            .and_then(|f| shared.fixed_mtime.or_else(|| mtime_secs(f)));
        headers.push(("ETag".into(), etag.clone()));
        if let Some(m) = mtime {
            headers.push((
                "Last-Modified".into(),
                httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_secs(m)),
            ));
        }
        let not_modified = match req.header("if-none-match") {
            Some(inm) => inm == etag,
            None => match (req.header("if-modified-since"), mtime) {
                (Some(ims), Some(m)) => httpdate::parse_http_date(ims)
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .is_some_and(|t| t.as_secs() >= m),
                _ => false,
            },
        };
        if not_modified {
            status = 304;
            send_body = false;
            headers.retain(|(k, _)| k != "Content-Type");
        }
    }
    if status == 204 || status == 304 || (100..200).contains(&status) {
        send_body = false;
    }
    for (k, v) in &entry.headers {
        set_header(
            &mut headers,
            k,
            String::from_utf8_lossy(&subst_port(v.clone().into_bytes(), port)).into_owned(),
            false,
        );
    }
    Ok(Plan {
        status,
        headers,
        body,
        send_body,
        delay: Duration::from_millis(entry.delay_ms.unwrap_or(0)),
        stall: Duration::from_millis(entry.stall_body_ms.unwrap_or(0)),
        latency,
    })
}

/// One line of the request log. Field order is the log's column order.
#[derive(Serialize)]
struct LogLine<'a> {
    site: String,
    method: &'a str,
    path: &'a str,
    user_agent: Option<&'a str>,
    if_none_match: Option<&'a str>,
    if_modified_since: Option<&'a str>,
    status: u16,
    bytes: u64,
    arrived: String,
    finished: String,
    headers: &'a BTreeMap<String, String>,
    /// The web's own check of the request's signature.
    signature: verify::Check,
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

fn write_log(
    shared: &Shared,
    site: &Site,
    req: &Request,
    status: u16,
    bytes: u64,
    arrived: DateTime<Utc>,
    finished: DateTime<Utc>,
) {
    let path = youtube::redacted(&req.target);
    let line = LogLine {
        site: format!("{}:{}", site.addr, shared.port),
        method: &req.method,
        path: &path,
        user_agent: req.header("user-agent"),
        if_none_match: req.header("if-none-match"),
        if_modified_since: req.header("if-modified-since"),
        status,
        bytes,
        arrived: rfc3339(arrived),
        finished: rfc3339(finished),
        headers: &req.headers,
        signature: shared.verifier.check(&req.headers),
    };
    let mut text = match serde_json::to_string(&line) {
        Ok(t) => t,
        Err(e) => {
            crate::elog!("loopback-web: cannot serialise log line: {e}");
            return;
        }
    };
    text.push('\n');
    // One write per line on an append-mode file: a kill never leaves half a
    // request, and concurrent handlers never interleave.
    let mut log = shared.log.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(e) = log.write_all(text.as_bytes()) {
        crate::elog!("loopback-web: writing the log: {e}");
    }
}
