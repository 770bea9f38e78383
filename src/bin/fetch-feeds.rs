//! `fetch-feeds`: see [`huduku::fetch`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::fetch::Args::parse();
    huduku::cli::main_with("fetch-feeds", || huduku::fetch::run(&args))
}
