//! `signing-key`: makes and shows the Ed25519 key HudukuBot signs its requests with.
//!
//! ```text
//! signing-key new FILE      make a key (FILE must not exist; mode 600; outside any repository)
//! signing-key show FILE     check a key file and print its keyid and public JWK
//! signing-key jwks FILE...  print the JWK Set of these keys (what the key directory serves)
//! ```
//! The private half is never printed. See docs/signing.md for installing and rotating keys.

use clap::{Parser, Subcommand};
use huduku::polite::sign::Key;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "signing-key", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Make a new key pair and write it to FILE, readable by its owner only.
    New { file: PathBuf },
    /// Check a key file (owner-only, outside any repository) and print its keyid and public JWK.
    Show { file: PathBuf },
    /// Print the JWK Set of these keys, the first the one in use (two during a changeover).
    Jwks {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() {
    let cli = Cli::parse();
    let result = (|| -> anyhow::Result<()> {
        match &cli.command {
            Command::New { file } => {
                let key = Key::generate(file)?;
                println!("keyid {}", key.keyid);
                println!("{}", key.public_jwk());
                huduku::elog!(
                    "signing-key: wrote {}; set HUDUKU_SIGNING_KEY={} for the stages",
                    file.display(),
                    file.display()
                );
            }
            Command::Show { file } => {
                let key = Key::load(file)?;
                println!("keyid {}", key.keyid);
                println!("{}", key.public_jwk());
            }
            Command::Jwks { files } => {
                let keys = files
                    .iter()
                    .map(|f| Key::load(f))
                    .collect::<anyhow::Result<Vec<Key>>>()?;
                let members: Vec<String> = keys.iter().map(Key::public_jwk).collect();
                println!("{{\"keys\":[{}]}}", members.join(","));
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        huduku::elog!("signing-key: {e:#}");
        std::process::exit(1);
    }
}
