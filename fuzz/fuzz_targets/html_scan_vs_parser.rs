//! Differential: wherever the simple scan of an HTML fragment gives a reading, it is the
//! full HTML parser's reading.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let (scan, full) = huduku::extract::text::html_to_text_both_ways(&s);
    if let Some(scan) = scan {
        assert_eq!(scan, full, "{s:?}");
    }
});
