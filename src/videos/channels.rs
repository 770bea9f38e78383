//! `pipeline/channels.csv`: the YouTube channels whose newest uploads the video pages list.
//!
//! A hand-kept CSV like the other lists in `pipeline/`: a header row `channel_id,name,lang`,
//! `#` comment lines, and a bad line is an error naming the file and the line (nothing is
//! asked then). A channel id is `UC` and 22 characters of `[A-Za-z0-9_-]`, as YouTube writes
//! them; `lang` is `kn` or `en`; `name` is how the pages name the channel (the list's words,
//! not YouTube's). No file lists no channels.

use anyhow::{Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One listed channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    pub id: String,
    pub name: String,
    pub lang: String,
    /// The line of the list it came from, for messages.
    pub line: u64,
}

#[derive(Deserialize)]
struct Row {
    channel_id: String,
    name: String,
    lang: String,
}

/// Whether a string is a YouTube channel id: `UC` and 22 of `[A-Za-z0-9_-]`.
pub fn is_channel_id(s: &str) -> bool {
    s.len() == 24 && s.starts_with("UC") && s[2..].bytes().all(id_byte)
}

/// Whether a string is a YouTube video id: 11 of `[A-Za-z0-9_-]`.
pub fn is_video_id(s: &str) -> bool {
    s.len() == 11 && s.bytes().all(id_byte)
}

/// Whether a string could be a playlist id (`UU…` for uploads): 2 to 64 of `[A-Za-z0-9_-]`.
pub fn is_playlist_id(s: &str) -> bool {
    (2..=64).contains(&s.len()) && s.bytes().all(id_byte)
}

fn id_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Reads the channel list. A missing file is an empty list; every other problem is an error
/// naming the file and the line.
pub fn load(path: &Path) -> Result<Vec<Channel>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let rows: Vec<(u64, Row)> = crate::lists::read_rows(path)?;
    let mut seen: BTreeMap<String, u64> = BTreeMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for (line, r) in rows {
        let at = format!("{}:{line}", path.display());
        if !is_channel_id(&r.channel_id) {
            bail!(
                "{at}: channel_id {:?} is not a YouTube channel id (UC and 22 letters, digits, '-' or '_', as in a channel's address youtube.com/channel/UC…)",
                r.channel_id
            );
        }
        if !crate::lists::LANGS.contains(&r.lang.as_str()) {
            bail!(
                "{at}: lang {:?} for {}: expected kn or en",
                r.lang,
                r.channel_id
            );
        }
        if r.name.is_empty() || r.name.chars().any(crate::publish::rows::unwanted) {
            bail!(
                "{at}: name for {} must be one line of plain text",
                r.channel_id
            );
        }
        if let Some(first) = seen.insert(r.channel_id.clone(), line) {
            bail!(
                "{at}: {} is listed twice (first at line {first})",
                r.channel_id
            );
        }
        out.push(Channel {
            id: r.channel_id,
            name: r.name,
            lang: r.lang,
            line,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(name: &str, text: &str) -> Result<Vec<Channel>> {
        let dir =
            std::env::temp_dir().join(format!("huduku-channels-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("channels.csv");
        std::fs::write(&p, text).unwrap();
        let r = load(&p);
        let _ = std::fs::remove_dir_all(&dir);
        r
    }

    const HEAD: &str = "# a comment\nchannel_id,name,lang\n";

    #[test]
    fn ids_are_judged_as_youtube_writes_them() {
        assert!(is_channel_id("UCabcdefghijklmnopqrst_-"));
        assert!(!is_channel_id("UCabcdefghijklmnopqrst_"));
        assert!(!is_channel_id("UUabcdefghijklmnopqrst_-"));
        assert!(!is_channel_id("UCabcdefghijklmnopqrst_/"));
        assert!(is_video_id("dQw4w9WgXcQ"));
        assert!(!is_video_id("dQw4w9WgXc"));
        assert!(!is_video_id("dQw4w9WgX\"Q"));
    }

    #[test]
    fn a_good_list_loads_with_its_lines_and_an_empty_one_is_empty() {
        let list = load_text(
            "good",
            &format!("{HEAD}UCabcdefghijklmnopqrst_-,ಒಂದು ವಾಹಿನಿ,kn\n# between\nUCabcdefghijklmnopqrst01,Two,en\n"),
        )
        .unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].line, list[1].line), (3, 5));
        assert_eq!(list[0].name, "ಒಂದು ವಾಹಿನಿ");
        assert!(load_text("empty", HEAD).unwrap().is_empty());
        assert!(
            load(Path::new("/nonexistent/channels.csv"))
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_bad_line_names_the_file_and_the_line() {
        for (line, what) in [
            ("UCshort,A,en", "not a YouTube channel id"),
            ("UCabcdefghijklmnopqrst_-,A,hi", "expected kn or en"),
            ("UCabcdefghijklmnopqrst_-,,en", "plain text"),
            ("UCabcdefghijklmnopqrst_-,A,en,extra", "channels.csv:3"),
        ] {
            let e = load_text("bad", &format!("{HEAD}{line}\n")).unwrap_err();
            let e = format!("{e:#}");
            assert!(e.contains("channels.csv:3"), "{line}: {e}");
            assert!(e.contains(what), "{line}: {e}");
        }
        let e = load_text(
            "twice",
            &format!("{HEAD}UCabcdefghijklmnopqrst_-,A,en\nUCabcdefghijklmnopqrst_-,B,kn\n"),
        )
        .unwrap_err();
        assert!(
            format!("{e:#}").contains(
                "channels.csv:4: UCabcdefghijklmnopqrst_- is listed twice (first at line 3)"
            ),
            "{e:#}"
        );
    }
}
