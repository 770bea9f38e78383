//! `publish`: see [`huduku::publish`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = huduku::publish::Args::parse();
    huduku::cli::main_with("publish", || huduku::publish::run(&args))
}
