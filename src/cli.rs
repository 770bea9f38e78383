//! What every stage's command line shares: `--now`, `--data`, `--pipeline`, `--sources`,
//! and the way a stage ends (a summary line on stderr, errors with their whole context).

use anyhow::Result;
use chrono::{DateTime, Utc};
use clap::Args;
use std::path::PathBuf;

use crate::lists::Pipeline;
use crate::store::Data;

/// Options common to every stage.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// The time to act at, RFC 3339 (default: the clock). Tests and replays set it.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// The data directory: dated outputs and the durable state.
    #[arg(long, value_name = "DIR", default_value = "data")]
    pub data: PathBuf,
    /// The directory of hand-kept lists (opt-outs, permissions, takedowns, topic lexicons).
    #[arg(long, value_name = "DIR", default_value = "pipeline")]
    pub pipeline: PathBuf,
    /// The source list (default: PIPELINE/sources.csv).
    #[arg(long, value_name = "CSV")]
    pub sources: Option<PathBuf>,
    /// Address ranges that may be asked although they are not public, each with a note
    /// (default: PIPELINE/network.csv; no file allows none). The demo and the tests allow
    /// 127.0.0.0/8, where their publishers live.
    #[arg(long, value_name = "CSV")]
    pub network: Option<PathBuf>,
    /// The private key every request HudukuBot sends is signed with: a JWK file outside any
    /// git working tree, readable by its owner only (make one with `signing-key new FILE`).
    /// The stages that ask publishers refuse to start without it.
    #[arg(long, value_name = "FILE", env = crate::polite::sign::KEY_ENV)]
    pub signing_key: Option<PathBuf>,
    /// The form of the Signature-Agent header (verifiers in the field differ): directory
    /// (the key set's address, the current draft), origin (-00) or string (the oldest).
    #[arg(long, value_enum, value_name = "FORM", env = crate::polite::sign::FORM_ENV, default_value = "directory")]
    pub signature_agent: crate::polite::sign::AgentForm,
}

/// The time the stage acts at, once read: for its summary line.
static ACTING_AT: std::sync::OnceLock<DateTime<Utc>> = std::sync::OnceLock::new();

impl Common {
    pub fn now(&self) -> Result<DateTime<Utc>> {
        let t = match &self.now {
            Some(s) => crate::time::check_sane(crate::time::parse_now(s)?, "--now"),
            None => crate::time::check_sane(crate::time::clock(), "the clock"),
        }?;
        let _ = ACTING_AT.set(t);
        Ok(t)
    }
    pub fn data(&self) -> Data {
        Data::new(&self.data)
    }
    pub fn pipeline(&self) -> Pipeline {
        Pipeline::new(&self.pipeline, self.sources.clone()).with_network(self.network.clone())
    }
    /// The signer of this run's requests, from `--signing-key`: a clear error, before
    /// anything is asked, when there is no key or it cannot be used.
    pub fn signer(&self, now: DateTime<Utc>) -> Result<crate::polite::sign::Signer> {
        use crate::polite::sign;
        let path = self.signing_key.as_ref().ok_or_else(|| {
            anyhow::anyhow!(
                "no signing key: HudukuBot signs every request it sends. Set {} (or --signing-key) to a key file made with `signing-key new FILE`, outside the repository",
                sign::KEY_ENV
            )
        })?;
        let key = sign::Key::load(path)?;
        let origin = sign::agent_origin(crate::polite::USER_AGENT)
            .ok_or_else(|| anyhow::anyhow!("the user agent names no address"))?;
        sign::Signer::new(key, self.signature_agent, &origin, now, None)
    }
    /// Takes the data directory's stage lock for the run (see [`crate::store::DataLock`]).
    pub fn lock(&self, stage: &str) -> Result<crate::store::DataLock> {
        crate::store::DataLock::take(&self.data(), stage)
    }
}

/// The exit status of a stage that finished but had items fail (one bad feed among many):
/// the run's outputs are complete and written; the failures are in its log.
pub const EXIT_SOME_FAILED: i32 = 3;

/// The exit status of a stage that finished but learned something a person must act on:
/// a new refusal or halt recorded this run, or every request failing at the network level.
/// Wins over [`EXIT_SOME_FAILED`]; make carries on and ends non-zero, saying so.
pub const EXIT_ATTENTION: i32 = 4;

static ATTENTION: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Records something a person must act on; the stage then exits [`EXIT_ATTENTION`].
pub fn needs_attention(what: String) {
    ATTENTION
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(what);
}

/// Runs a stage's `run` and turns its result into an exit status: 0 all well,
/// [`EXIT_SOME_FAILED`] when some items failed, [`EXIT_ATTENTION`] when a person must act,
/// 1 when the stage itself failed.
pub fn main_with(name: &str, run: impl FnOnce() -> Result<Report>) -> std::process::ExitCode {
    let started = std::time::Instant::now();
    match run() {
        Ok(report) => {
            if !report.summary.is_empty() {
                // The summary says when it acted (--now) and when it ran (the clock), so a
                // log line read at 3 a.m. places itself.
                let when = match ACTING_AT.get() {
                    Some(t) => format!(
                        " [now {}; clock {}; {:.1} s]",
                        crate::time::fmt(*t),
                        crate::time::fmt(crate::time::clock()),
                        started.elapsed().as_secs_f64()
                    ),
                    None => String::new(),
                };
                crate::elog!("{name}: {}{when}", report.summary);
            }
            let attention =
                std::mem::take(&mut *ATTENTION.lock().unwrap_or_else(|p| p.into_inner()));
            if !attention.is_empty() {
                for a in &attention {
                    crate::elog!("{name}: a person must act: {a}");
                }
                return std::process::ExitCode::from(EXIT_ATTENTION as u8);
            }
            if report.failed > 0 {
                std::process::ExitCode::from(EXIT_SOME_FAILED as u8)
            } else {
                std::process::ExitCode::SUCCESS
            }
        }
        Err(e) => {
            if let Some(io) = e.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::BrokenPipe
            {
                return std::process::ExitCode::SUCCESS;
            }
            crate::elog!("{name}: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// A stage's closing account: one line for the operator, and how many items failed.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub summary: String,
    pub failed: usize,
}
