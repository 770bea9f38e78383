//! `loopback-web`: the fake publisher web for tests and the demo.
//! See `huduku::loopback` for what it serves and logs.

use std::path::PathBuf;

use clap::Parser;
use huduku::loopback::{Config, run};

/// Serve fake news outlets on 127.0.0.x loopback addresses and log every request.
#[derive(Parser, Debug)]
#[command(name = "loopback-web", version)]
struct Cli {
    /// Directory with one sub-directory per site, named by its loopback address (e.g. 127.0.0.21).
    #[arg(long)]
    sites: PathBuf,
    /// Port shared by every site (0: let the OS choose one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// JSON-lines request log, appended to.
    #[arg(long)]
    log: PathBuf,
    /// File receiving the port number once all listeners are up (written atomically).
    #[arg(long)]
    ready: Option<PathBuf>,
    /// Minimum duration of every response, in milliseconds (a site's _rules.json may override it).
    #[arg(long, default_value_t = 20)]
    latency_ms: u64,
    /// Serve every file as last modified at this time (RFC 3339) rather than at its file's
    /// own time, so that runs against two checkouts of the sites give the same bytes.
    #[arg(long, value_name = "RFC3339")]
    fixed_mtime: Option<String>,
    /// The JWK Set of the keys whose signatures the web accepts; every request's signature
    /// is checked and the result logged.
    #[arg(long, value_name = "JSON")]
    keys: Option<PathBuf>,
    /// The web's clock at start (RFC 3339), running on with the wall clock: signatures
    /// expired or made in the future by it are logged so. Without it, time is not judged.
    #[arg(long, value_name = "RFC3339")]
    clock: Option<String>,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let fixed_mtime = match &cli.fixed_mtime {
        Some(t) => {
            let at = chrono::DateTime::parse_from_rfc3339(t)
                .map_err(|e| anyhow::anyhow!("--fixed-mtime {t:?}: not an RFC 3339 time ({e})"))?;
            Some(
                u64::try_from(at.timestamp())
                    .map_err(|_| anyhow::anyhow!("--fixed-mtime {t:?}: before 1970"))?,
            )
        }
        None => None,
    };
    let clock = match &cli.clock {
        Some(t) => Some(
            chrono::DateTime::parse_from_rfc3339(t)
                .map_err(|e| anyhow::anyhow!("--clock {t:?}: not an RFC 3339 time ({e})"))?
                .timestamp(),
        ),
        None => None,
    };
    run(&Config {
        sites_dir: cli.sites,
        port: cli.port,
        log: cli.log,
        ready: cli.ready,
        latency_ms: cli.latency_ms,
        fixed_mtime,
        keys: cli.keys,
        clock,
    })
}
