//! `fetch-videos`: see [`huduku::videos`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::videos::Args::parse();
    huduku::cli::main_with("fetch-videos", || huduku::videos::run(&args))
}
