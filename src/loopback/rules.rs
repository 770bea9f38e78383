//! `_rules.json`: a site's scripted behaviour.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

/// The parsed `_rules.json` of one site. Every field is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Send `ETag`/`Last-Modified` and honour conditional requests (default true).
    pub validators: Option<bool>,
    /// Minimum time every response takes, overriding `--latency-ms`.
    pub latency_ms: Option<u64>,
    /// Per-path scripts: the n-th request to the path gets the n-th entry,
    /// the last entry repeats.
    #[serde(default)]
    pub paths: BTreeMap<String, Vec<Entry>>,
}

/// One scripted answer. Missing fields mean "as the file would be served".
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub status: Option<u16>,
    /// Headers added to (or overriding) the normal ones; `{{port}}` is substituted.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Literal body replacing the file's.
    pub body: Option<String>,
    /// Body read from this file (relative to the site directory).
    pub body_file: Option<String>,
    /// Sleep this long before answering.
    pub delay_ms: Option<u64>,
    /// Send the head, then sleep this long before the body.
    pub stall_body_ms: Option<u64>,
    /// Make the body exactly this many bytes: the base body (file, `body` or
    /// `body_file`) has its `{{repeat}}` marker replaced by padding (or the
    /// padding is appended when there is no marker).
    pub repeat_bytes: Option<u64>,
    /// The padding unit for `repeat_bytes` (default `<!-- x -->\n`).
    pub repeat_text: Option<String>,
}

impl Rules {
    /// Reads `site_dir/_rules.json`; no file means no rules.
    pub fn load(site_dir: &Path) -> Result<Rules> {
        let path = site_dir.join("_rules.json");
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Rules::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// The entry for the `n`-th (0-based) request to `path`, if the path is scripted.
    pub fn entry(&self, path: &str, n: usize) -> Option<&Entry> {
        let script = self.paths.get(path)?;
        script.get(n).or_else(|| script.last())
    }
}
