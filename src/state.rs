//! Durable fetch state, one file: `DATA/state.json`, rewritten atomically.
//!
//! Per source: validators (kept byte for byte), the earliest next request (hourly rhythm,
//! feed caching hints, back-off after failures) and the failure count. Per site: the wait a
//! 429/503 asked for, the count of such answers in a row, and refusals and halts with their
//! reason, time and evidence. A refusal or halt is lifted only by a newer line in
//! `pipeline/permissions.csv`. Every change here is explained by a line in a `fetch.jsonl`.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Why a site or source is stopped, with the evidence kept for the publisher and the operator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stop {
    #[serde(with = "crate::time::rfc3339")]
    pub at: DateTime<Utc>,
    /// What was asked when it happened.
    pub url: String,
    pub status: Option<u16>,
    /// `refused-403`, `challenge-cloudflare`, `robots-401`, `robots-search-no`, `halted-3-waits`, ...
    pub reason: String,
    /// Header lines or body markers that showed it.
    pub evidence: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceState {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// Not to be requested before this time.
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub next_due: Option<DateTime<Utc>>,
    /// Failures in a row (time-out, connection error, 5xx, broken or oversized body).
    #[serde(default)]
    pub failures: u32,
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub last_success: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteState {
    /// Asked to wait (429/503): no request before this time.
    #[serde(with = "crate::time::rfc3339::option", default)]
    pub wait_until: Option<DateTime<Utc>>,
    /// 429/503 answers in a row.
    #[serde(default)]
    pub waits_in_a_row: u32,
    /// A refusal (401, 403, 451, challenge): final until a permission line lifts it.
    pub refused: Option<Stop>,
    /// Three waits in a row: stopped until a permission line clears it.
    pub halted: Option<Stop>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub sources: BTreeMap<String, SourceState>,
    pub sites: BTreeMap<String, SiteState>,
}

impl State {
    /// Loads the state file; a missing file is a fresh state.
    pub fn load(path: &Path) -> Result<State> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
                format!(
                    "{} is not a valid state file (move it aside to rebuild from nothing)",
                    path.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        crate::store::write_json(path, self)
    }

    pub fn site(&mut self, site: &str) -> &mut SiteState {
        self.sites.entry(site.to_string()).or_default()
    }

    pub fn source(&mut self, url: &str) -> &mut SourceState {
        self.sources.entry(url.to_string()).or_default()
    }
}
