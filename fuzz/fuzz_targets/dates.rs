//! `extract::dates::parse` on any text: never a panic, and a date it gives is one RFC 3339
//! writes and reads back (so the next stage can read items.jsonl).
#![no_main]

use chrono::Datelike;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    if let Some(t) = huduku::extract::dates::parse(&s) {
        assert!((1..=9999).contains(&t.year()), "{s:?}: {t}");
        let text = huduku::time::fmt(t);
        assert_eq!(huduku::time::parse_now(&text).unwrap(), t, "{s:?}");
    }
});
