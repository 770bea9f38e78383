//! Huduku: HudukuBot's pipeline, as a library.
//!
//! Six thin binaries (`src/bin/`) call the stage modules here, beside `replay` (which readies
//! a replay's folder and compares it with the kept files), `fetch-videos` (a few YouTube
//! channels' newest uploads through YouTube's own API, [`videos`]; not HudukuBot, and not
//! through [`polite`]) and `loopback-web` (the tests' publisher web and fake API). Every
//! request to a publisher goes through [`polite`]; every kept file is written through
//! [`store`].

/// A line on stderr that never panics: a stage whose stderr is a closed pipe (a log reader
/// that went away) carries on, and its kept files are what count.
#[macro_export]
macro_rules! elog {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod classify;
pub mod cli;
pub mod extract;
pub mod fetch;
pub mod hosts;
pub mod lists;
pub mod loopback;
pub mod polite;
pub mod publish;
pub mod recheck;
pub mod records;
pub mod replay;
pub mod robots_refresh;
pub mod state;
pub mod store;
pub mod stories;
pub mod time;
pub mod videos;
