//! `extract::charset::decode` on any bytes, as XML and as HTML, with and without a declared
//! charset (the first byte picks one).
#![no_main]

use libfuzzer_sys::fuzz_target;

const TYPES: [Option<&str>; 10] = [
    None,
    Some("text/xml; charset=utf-8"),
    Some("text/xml; charset=windows-1252"),
    Some("text/xml; charset=utf-16"),
    Some("text/xml; charset=utf-32be"),
    Some("text/xml; charset=cp500"),
    Some("text/xml; charset=850"),
    Some("text/xml; charset=macgreek"),
    Some("text/xml; charset=shift_jis"),
    Some("text/xml; charset=\"x-unknown\""),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let ct = TYPES[usize::from(pick >> 1) % TYPES.len()];
    let d = huduku::extract::charset::decode(body, ct, pick & 1 == 1);
    assert!(!d.encoding.is_empty());
    // Bytes that were not valid are reported, never dropped silently.
    if body.is_empty() {
        assert!(d.text.is_empty());
    }
});
