//! `robots-refresh`: see [`huduku::robots_refresh`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::robots_refresh::Args::parse();
    huduku::cli::main_with("robots-refresh", || huduku::robots_refresh::run(&args))
}
