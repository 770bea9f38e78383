//! `extract`: see [`huduku::extract`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::extract::Args::parse();
    huduku::cli::main_with("extract", || huduku::extract::run(&args))
}
