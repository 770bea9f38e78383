//! Huduku's YouTube Data API key: where it may come from, and how it is kept out of sight.
//!
//! The key comes from the environment (`HUDUKU_YOUTUBE_KEY`) or from a file (`--key-file`),
//! never both. A key file must be a file of the operator's own: not inside a repository or
//! a checkout (an ancestor folder holding `.git` or `Cargo.toml`), not inside the data
//! directory (whose files are kept and published) or the pipeline directory, and readable
//! by no one but its owner (`chmod 600`). The key is never printed, logged or written: its
//! `Debug` form is `[key]`, and [`Key::redact`] takes it out of any text (an error message
//! that might quote the address it was sent in) before the text goes anywhere.

use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// The environment variable holding the key.
pub const ENV: &str = "HUDUKU_YOUTUBE_KEY";

/// The key. Prints as `[key]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(String);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[key]")
    }
}

impl Key {
    /// The key itself, for the one place it goes: the request's `key=` parameter.
    pub(super) fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced by `[key]`.
    pub fn redact(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.0, "[key]")
        }
    }

    /// Reads a key as given (trimmed): one word of letters, digits, `-`, `_` or `.`, as
    /// Google's keys are. The message of a bad key never quotes it.
    pub fn parse(text: &str, from: &str) -> Result<Key> {
        let k = text.trim();
        if k.is_empty() {
            bail!("{from} is empty: no YouTube API key");
        }
        if k.len() > 200
            || !k
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        {
            bail!(
                "{from} does not hold one API key (one word of letters, digits, '-', '_' or '.'; nothing else in the file)"
            );
        }
        Ok(Key(k.to_string()))
    }
}

/// Where a key file must not be: the data and pipeline directories.
pub struct Forbidden<'a> {
    pub data: &'a Path,
    pub pipeline: &'a Path,
}

/// The key, from `--key-file` or the environment (`env`: the value of [`ENV`], if set).
/// `None` when neither gives one.
pub fn load(file: Option<&Path>, env: Option<String>, not_in: &Forbidden) -> Result<Option<Key>> {
    let env = env.filter(|v| !v.trim().is_empty());
    match (file, env) {
        (Some(_), Some(_)) => {
            bail!("the YouTube API key is given twice, in {ENV} and by --key-file: give it one way")
        }
        (None, Some(v)) => Key::parse(&v, ENV).map(Some),
        (Some(path), None) => read_file(path, not_in).map(Some),
        (None, None) => Ok(None),
    }
}

/// A path made absolute, with symbolic links resolved as far as it exists.
fn absolute(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}

fn read_file(path: &Path, not_in: &Forbidden) -> Result<Key> {
    use std::os::unix::fs::PermissionsExt;
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| anyhow::anyhow!("--key-file {shown}: cannot read it ({e})"))?;
    if !meta.is_file() {
        bail!("--key-file {shown} is not a file");
    }
    let real = absolute(path);
    for (dir, what) in [
        (
            not_in.data,
            "the data directory, whose files are kept and published",
        ),
        (not_in.pipeline, "the pipeline directory"),
    ] {
        if real.starts_with(absolute(dir)) {
            bail!(
                "--key-file {shown} is inside {what} ({}): keep the key outside the repository and the data, e.g. /etc/huduku/youtube.key",
                dir.display()
            );
        }
    }
    for dir in real.ancestors().skip(1) {
        if dir.join(".git").exists() || dir.join("Cargo.toml").exists() {
            bail!(
                "--key-file {shown} is inside a repository or checkout ({}): a key must never be where it could be committed; keep it outside, e.g. /etc/huduku/youtube.key",
                dir.display()
            );
        }
    }
    let mode = meta.permissions().mode();
    if mode & 0o077 != 0 {
        bail!(
            "--key-file {shown} can be read or written by others (mode {:04o}): make it the owner's alone with `chmod 600 {shown}`",
            mode & 0o7777
        );
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("--key-file {shown}: cannot read it ({e})"))?;
    Key::parse(&text, &format!("--key-file {shown}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_never_shows_itself() {
        let k = Key::parse("AIzaSyDUMMY-key_1234567890abcdefghijk\n", "test").unwrap();
        assert_eq!(format!("{k:?}"), "[key]");
        assert_eq!(
            k.redact("GET /youtube/v3/channels?key=AIzaSyDUMMY-key_1234567890abcdefghijk&x=1"),
            "GET /youtube/v3/channels?key=[key]&x=1"
        );
        let e = Key::parse("two words", "HUDUKU_YOUTUBE_KEY").unwrap_err();
        assert!(!format!("{e:#}").contains("two words"));
    }

    #[test]
    fn the_key_is_given_one_way() {
        let here = Path::new(".");
        let not_in = Forbidden {
            data: here,
            pipeline: here,
        };
        assert!(load(None, None, &not_in).unwrap().is_none());
        assert!(load(None, Some("  ".into()), &not_in).unwrap().is_none());
        assert!(load(None, Some("abc".into()), &not_in).unwrap().is_some());
        let e = load(Some(Path::new("/x")), Some("abc".into()), &not_in).unwrap_err();
        assert!(format!("{e:#}").contains("given twice"));
    }
}
