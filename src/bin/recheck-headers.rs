//! `recheck-headers`: see [`huduku::recheck`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::recheck::Args::parse();
    huduku::cli::main_with("recheck-headers", || huduku::recheck::run(&args))
}
