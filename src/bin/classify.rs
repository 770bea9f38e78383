//! `classify`: see [`huduku::classify`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::classify::Args::parse();
    huduku::cli::main_with("classify", || huduku::classify::run(&args))
}
