//! `replay`: see [`huduku::replay`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::replay::Args::parse();
    huduku::cli::main_with("replay", || huduku::replay::run(&args))
}
