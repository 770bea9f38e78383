//! Publisher text made plain (`html_to_text`, `plain`, `guess`, `collapse`, `cap`) on any
//! text: never a panic, and nothing hidden (controls, bidi overrides) in what comes out.
#![no_main]

use huduku::extract::text::{cap, collapse, guess, hidden, html_nesting_cut, html_to_text, plain};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for out in [html_to_text(&s), plain(&s), guess(&s), collapse(&s)] {
        assert!(!out.contains(hidden), "{s:?} -> {out:?}");
        assert!(!out.starts_with(' ') && !out.ends_with(' '));
        let capped = cap(out.clone(), 7);
        assert!(capped.chars().count() <= 8);
    }
    if let Some(c) = html_nesting_cut(&s, 8) {
        assert!(c.at < s.len() && s.is_char_boundary(c.at));
    }
});
