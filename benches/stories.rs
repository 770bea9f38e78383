//! `make bench`, the stories' part: grouping 50,000 synthetic headlines of one 48-hour
//! window (`huduku::stories::Grouper::group`, as publish runs it for a day), on one core.
//! The design's target is under 5 s.
//!
//! The headlines are made from a few hundred events, each told by two to six outlets in
//! Kannada and English with their own wording, numbers and places, among many headlines of
//! one outlet alone, so the inverted index sees the kind of repetition real days have.
//! Nothing here is a test: machines are shared and noisy, so read the figure as a bound.

use std::time::Instant;

use huduku::stories::{Grouper, Headline, glossary::Glossary};

const PLACES: [(&str, &str); 12] = [
    ("Mysuru", "ಮೈಸೂರಿನಲ್ಲಿ"),
    ("Mangaluru", "ಮಂಗಳೂರಿನಲ್ಲಿ"),
    ("Hubballi", "ಹುಬ್ಬಳ್ಳಿಯಲ್ಲಿ"),
    ("Belagavi", "ಬೆಳಗಾವಿಯಲ್ಲಿ"),
    ("Kalaburagi", "ಕಲಬುರಗಿಯಲ್ಲಿ"),
    ("Udupi", "ಉಡುಪಿಯಲ್ಲಿ"),
    ("Hassan", "ಹಾಸನದಲ್ಲಿ"),
    ("Tumakuru", "ತುಮಕೂರಿನಲ್ಲಿ"),
    ("Shivamogga", "ಶಿವಮೊಗ್ಗದಲ್ಲಿ"),
    ("Ballari", "ಬಳ್ಳಾರಿಯಲ್ಲಿ"),
    ("Mandya", "ಮಂಡ್ಯದಲ್ಲಿ"),
    ("Bengaluru", "ಬೆಂಗಳೂರಿನಲ್ಲಿ"),
];
const KINDS: [(&str, &str); 8] = [
    (
        "heavy rain floods low-lying areas",
        "ಭಾರಿ ಮಳೆ: ತಗ್ಗು ಪ್ರದೇಶ ಜಲಾವೃತ",
    ),
    ("killed as bus overturns", "ಬಸ್ ಪಲ್ಟಿ: ಸಾವು"),
    ("farmers stage protest over dues", "ಬಾಕಿಗೆ ಆಗ್ರಹಿಸಿ ರೈತರ ಪ್ರತಿಭಟನೆ"),
    ("police arrest gang for chain snatching", "ಸರಗಳ್ಳರ ತಂಡದ ಬಂಧನ"),
    ("leopard sighted near school", "ಶಾಲೆ ಬಳಿ ಚಿರತೆ ಪ್ರತ್ಯಕ್ಷ"),
    ("crore plan for ring road cleared", "ಕೋಟಿ ವರ್ತುಲ ರಸ್ತೆ ಯೋಜನೆಗೆ ಒಪ್ಪಿಗೆ"),
    ("dengue cases rise sharply", "ಡೆಂಗಿ ಪ್ರಕರಣ ಹೆಚ್ಚಳ"),
    ("fire guts warehouse", "ಗೋದಾಮಿಗೆ ಬೆಂಕಿ"),
];
const FILLER: [&str; 16] = [
    "council", "market", "temple", "school", "hospital", "college", "traffic", "water", "festival",
    "tender", "cricket", "court", "survey", "library", "stadium", "lake",
];

fn main() {
    let glossary =
        Glossary::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pipeline"))
            .expect("the glossary");
    let grouper = Grouper::new(glossary);
    let n = 50_000usize;
    let start = huduku::time::parse_now("2026-11-29T00:00:00Z").unwrap();
    let mut rows: Vec<(String, String, &str, String, chrono::DateTime<chrono::Utc>)> =
        Vec::with_capacity(n);
    let mut i = 0usize;
    // A simple deterministic sequence in place of randomness.
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    while rows.len() < n {
        let r = next();
        let at = start + chrono::Duration::seconds((r % (48 * 3600)) as i64);
        let (place, kplace) = PLACES[(r >> 20) as usize % PLACES.len()];
        let (kind, kkind) = KINDS[(r >> 28) as usize % KINDS.len()];
        let num = 2 + (r >> 36) % 400;
        if r % 3 == 0 {
            // An event told by several outlets in both languages.
            let e = i;
            for k in 0..(2 + (r >> 40) % 5) {
                let t = at + chrono::Duration::minutes(17 * k as i64);
                let (lang, text) = if k % 2 == 0 {
                    ("en", format!("{place}: {num} {kind}, case {e}"))
                } else {
                    ("kn", format!("{kplace} {num} {kkind} ({e})"))
                };
                rows.push((
                    format!("{i:016x}"),
                    format!("Outlet {}", k % 12),
                    lang,
                    text,
                    t,
                ));
                i += 1;
            }
        } else {
            let w1 = FILLER[(r >> 44) as usize % FILLER.len()];
            let w2 = FILLER[(r >> 50) as usize % FILLER.len()];
            let text = format!("{place} {w1} {w2} news item number {i} of the day");
            rows.push((
                format!("{i:016x}"),
                format!("Outlet {}", r % 12),
                "en",
                text,
                at,
            ));
            i += 1;
        }
    }
    rows.truncate(n);
    let items: Vec<Headline> = rows
        .iter()
        .map(|(id, outlet, lang, text, at)| Headline {
            id,
            outlet,
            lang,
            headline: text,
            published: *at,
            opinion: false,
        })
        .collect();
    let t = Instant::now();
    let groups = grouper.group(&items);
    let took = t.elapsed();
    let grouped: usize = groups.iter().map(Vec::len).sum();
    println!(
        "stories: {n} headlines of a 48-hour window grouped in {:.2} s on one core ({} stories, {grouped} headlines in them; target under 5 s)",
        took.as_secs_f64(),
        groups.len()
    );
}
