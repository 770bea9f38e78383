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
}

impl Common {
    pub fn now(&self) -> Result<DateTime<Utc>> {
        match &self.now {
            Some(s) => crate::time::check_sane(crate::time::parse_now(s)?, "--now"),
            None => crate::time::check_sane(crate::time::clock(), "the clock"),
        }
    }
    pub fn data(&self) -> Data {
        Data::new(&self.data)
    }
    pub fn pipeline(&self) -> Pipeline {
        Pipeline::new(&self.pipeline, self.sources.clone()).with_network(self.network.clone())
    }
    /// Takes the data directory's stage lock for the run (see [`crate::store::DataLock`]).
    pub fn lock(&self, stage: &str) -> Result<crate::store::DataLock> {
        crate::store::DataLock::take(&self.data(), stage)
    }
}

/// The exit status of a stage that finished but had items fail (one bad feed among many):
/// the run's outputs are complete and written; the failures are in its log.
pub const EXIT_SOME_FAILED: i32 = 3;

/// Runs a stage's `run` and turns its result into an exit status: 0 all well,
/// [`EXIT_SOME_FAILED`] when some items failed, 1 when the stage itself failed.
pub fn main_with(name: &str, run: impl FnOnce() -> Result<Report>) -> std::process::ExitCode {
    match run() {
        Ok(report) => {
            if !report.summary.is_empty() {
                eprintln!("{name}: {}", report.summary);
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
            eprintln!("{name}: error: {e:#}");
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
