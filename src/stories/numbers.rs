//! Numbers in a headline, read as values: digits in either script (Kannada ೦–೯ too), with
//! their grouping commas and a decimal point, scaled by the word after them (`crore` /
//! `ಕೋಟಿ`, `lakh` / `ಲಕ್ಷ`, `thousand` / `ಸಾವಿರ`, `million`, `billion`), and the small
//! numbers written as words (`three`, `ಮೂರು`, `ಮೂವರು`). So `₹800 ಕೋಟಿ` and `Rs 800 crore`
//! are one value, 8,000,000,000, and `3 killed` and `ಮೂವರು ಸಾವು` share 3. Measures are
//! values in their unit (`1.2 kg` is `1,200 grams`, `14 ಸೆಂ.ಮೀ` is `140 mm`); see [`Number`].

use crate::publish::i18n::MONTHS_KN;

/// A value, in hundredths (so `1.5 lakh` is exact).
pub type Value = u64;

/// A number a headline names: its value, whether it is an amount of money (a rupee
/// sign or `Rs` before it, or `rupees` after it), the unit it is measured in, the words
/// that say what it counts, and whether the gate compares it.
///
/// - **Value**: in hundredths (so `1.5 lakh` is exact), scaled by `crore`, `lakh`,
///   `thousand` (`2 ಕೋಟಿ 10 ಲಕ್ಷ` is 2.1 crore), and in the unit's base: grams for `kg`,
///   `tonnes` and `quintal`, millimetres for `cm`. A price per quintal or tonne is a price
///   per kilogram (`₹52,000 a quintal`, `ಕ್ವಿಂಟಲ್‌ಗೆ ₹52 ಸಾವಿರ` and `₹520 a kg` are one).
/// - **Unit**: `g`, `mm`, `km` or `%` (`15%`, `15 per cent`, `ಶೇ 15`), when one says.
/// - **What**: the (up to four) words after it, up to a punctuation mark (`police form three
///   teams`: `teams`; `ನಾಲ್ಕು ವಿಕೆಟ್‌: ಹುಬ್ಬಳ್ಳಿ`: `ವಿಕೆಟ್`), none when a Kannada ending is joined
///   to it (`8ಕ್ಕೆ`).
/// - **Counted**: false for a number that names no count of the event: a year (`2026`), a
///   date (`March 23`, `ಮಾರ್ಚ್ 23ರಿಂದ`), a label (`T20`, `NH 75`, `Exam-2`, `42nd`,
///   `42ನೇ`), a score (`38-31`, `356/4`) or a bound (`over 200`, `70ಕ್ಕೂ ಹೆಚ್ಚು`). Such a
///   number is still evidence that two headlines share it.
///
/// Durations (`11 hours`, `24-hour`, `೧೧ ಗಂಟೆ`) are left out: they say how long, not which
/// event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Number {
    pub amount: bool,
    pub value: Value,
    pub unit: Option<&'static str>,
    pub what: Vec<String>,
    pub counted: bool,
    /// A change (`₹4,700 ಇಳಿಕೆ`, "a ₹2 hike", "falls by ₹20"), not a level.
    pub change: bool,
    /// The English word just before it when nothing after it says what it counts: the
    /// verb that does ("injures five", "saves 38").
    pub before: Option<String>,
    /// Whether it counts people as Kannada says so: a person numeral (`ಇಬ್ಬರು`, `ಮೂವರ`,
    /// `ನಾಲ್ವರು`, `ಐವರು`) or a number before `ಮಂದಿ` or `ಜನ` (`6 ಮಂದಿ`).
    pub people: bool,
    /// A bound, not a count (`over 3.1 lakh`, `ಮೂರು ಲಕ್ಷಕ್ಕೂ ಹೆಚ್ಚು`, `crosses 41°C`): it is
    /// not compared as a count, but a count near it agrees with it.
    pub bound: bool,
}

/// The people's forms of Kannada numbers as words begin (`ಇಬ್ಬರು`, `ಇಬ್ಬರ`); the words for
/// people a number comes before are the stories' [`super::PEOPLE_KN`].
const PEOPLE_FORMS: &[&str] = &["ಇಬ್ಬರ", "ಮೂವರ", "ನಾಲ್ವರ", "ಐವರ"];

/// Whether the words after a number say it counts people (`6 ಮಂದಿ`, `ನಾಲ್ಕು ಜನ`).
fn people_after(what: &[String]) -> bool {
    what.first()
        .is_some_and(|w| super::PEOPLE_KN.contains(&w.as_str()))
}

/// The English word before a number that nothing after it says the meaning of: the verb
/// that says what it counts ("injures five").
fn verb_before(prev: Option<&str>) -> Option<String> {
    prev.filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
        .map(str::to_string)
}

fn scale(word: &str) -> Option<f64> {
    let w = word.trim_start_matches('-');
    let en = |p: &[&str]| p.contains(&w);
    if en(&["crore", "crores", "cr"]) || w.starts_with("ಕೋಟಿ") {
        Some(1e7)
    } else if en(&["lakh", "lakhs", "lac", "lacs"]) || w.starts_with("ಲಕ್ಷ") {
        Some(1e5)
    } else if en(&["thousand", "thousands"]) || w.starts_with("ಸಾವಿರ") {
        Some(1e3)
    } else if en(&["million", "millions", "mn"]) || w.starts_with("ಮಿಲಿಯನ್") {
        Some(1e6)
    } else if en(&["billion", "billions", "bn"]) || w.starts_with("ಬಿಲಿಯನ್") {
        Some(1e9)
    } else if en(&["dozen"]) || w == "ಡಜನ್" {
        Some(12.0)
    } else {
        None
    }
}

/// What a word after a number says of it: a unit of measure (its factor to the unit's
/// base, and the base), money, or a duration.
enum After {
    Measure(f64, &'static str),
    Money,
    Duration,
}

/// Units of measure, each with its factor to its base and the base, in English and as the
/// Kannada word begins (so that its endings, `ಕೆ.ಜಿಗೆ`, are read too). Kilometres come
/// before kilograms: `ಕಿಲೋಮೀಟರ್` begins as `ಕಿಲೋ` does.
const MEASURES: [(&[&str], &[&str], f64, &str); 15] = [
    (
        &[
            "km",
            "kms",
            "kilometre",
            "kilometres",
            "kilometer",
            "kilometers",
        ],
        &["ಕಿ.ಮೀ", "ಕಿಮೀ", "ಕಿಲೋಮೀಟರ್", "ಕಿಲೋ ಮೀಟರ್"],
        1.0,
        "km",
    ),
    (
        &["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"],
        &["ಕೆಜಿ", "ಕೆ.ಜಿ", "ಕಿಲೋ", "ಕಿ.ಗ್ರಾಂ"],
        1000.0,
        "g",
    ),
    (
        &["g", "gm", "gms", "gram", "grams", "gramme", "grammes"],
        &["ಗ್ರಾಂ", "ಗ್ರಾಮ್"],
        1.0,
        "g",
    ),
    (&["tonne", "tonnes", "ton", "tons", "mt"], &["ಟನ್"], 1e6, "g"),
    (&["quintal", "quintals"], &["ಕ್ವಿಂಟಲ್"], 1e5, "g"),
    (
        &[
            "mm",
            "millimetre",
            "millimetres",
            "millimeter",
            "millimeters",
        ],
        &["ಮಿ.ಮೀ", "ಮಿಮೀ", "ಮಿಲಿಮೀಟರ್", "ಮಿ.ಮೀ."],
        1.0,
        "mm",
    ),
    (
        &[
            "cm",
            "centimetre",
            "centimetres",
            "centimeter",
            "centimeters",
        ],
        &["ಸೆಂ.ಮೀ", "ಸೆಂಮೀ", "ಸೆಂಟಿಮೀಟರ್"],
        10.0,
        "mm",
    ),
    (
        &["m", "metre", "metres", "meter", "meters", "mtr", "mtrs"],
        &["ಮೀಟರ್", "ಮೀ."],
        1.0,
        "m",
    ),
    (
        &["degree", "degrees", "°c", "celsius"],
        &["ಡಿಗ್ರಿ", "ಡಿ.ಸೆ"],
        1.0,
        "°C",
    ),
    (&["mw", "megawatt", "megawatts"], &["ಮೆಗಾವಾಟ್"], 1.0, "MW"),
    (&["gw", "gigawatt", "gigawatts"], &["ಗಿಗಾವಾಟ್"], 1000.0, "MW"),
    (
        &["litre", "litres", "liter", "liters", "ltr", "ltrs"],
        &["ಲೀಟರ್", "ಲೀ."],
        1.0,
        "l",
    ),
    (&["acre", "acres"], &["ಎಕರೆ"], 1.0, "acre"),
    (&["tmc", "tmcft"], &["ಟಿಎಂಸಿ"], 1.0, "tmc"),
    (&["cusec", "cusecs"], &["ಕ್ಯೂಸೆಕ್"], 1.0, "cusec"),
];

fn measure(word: &str) -> Option<(f64, &'static str)> {
    let w = word.trim_start_matches('-');
    MEASURES
        .iter()
        .find(|(en, kn, _, _)| en.contains(&w) || kn.iter().any(|k| w.starts_with(k)))
        .map(|&(_, _, factor, base)| (factor, base))
}

fn after(word: &str) -> Option<After> {
    let w = word.trim_start_matches('-');
    let en = |p: &[&str]| p.contains(&w);
    if let Some((factor, base)) = measure(w) {
        Some(After::Measure(factor, base))
    } else if en(&["rupees", "rupee"]) || w.starts_with("ರೂಪಾಯಿ") || w == "ರೂ" {
        Some(After::Money)
    } else if en(&[
        "hour", "hours", "hrs", "hr", "minute", "minutes", "mins", "day", "days", "week", "weeks",
        "month", "months",
    ]) || ["ಗಂಟೆ", "ನಿಮಿಷ", "ದಿನ", "ವಾರ", "ತಿಂಗಳ"].iter().any(|p| {
        // The word itself or with an ending (`ದಿನಗಳ`, `ವಾರದ`), not a longer word that
        // begins as it does (`ವಾರ್ಡ್`, a ward; `ದಿನಾಂಕ`, a date; `ದಿನಸಿ`, groceries).
        w.strip_prefix(p).is_some_and(|rest| {
            !rest.starts_with(|c: char| c == '\u{0ccd}' || ('\u{0cbe}'..='\u{0ccc}').contains(&c))
                && !rest.starts_with("ಸಿ")
        })
    }) {
        Some(After::Duration)
    } else {
        None
    }
}

/// Words before a number that make it a bound, not a count (`over 200`, `ಸುಮಾರು 50`).
const BOUND_BEFORE: &[&str] = &[
    "over",
    "nearly",
    "about",
    "around",
    "above",
    "almost",
    "upto",
    "than",
    "under",
    "beyond",
    "crosses",
    "crossed",
    "cross",
    "past",
    "ಸುಮಾರು",
    "ಅಂದಾಜು",
];

/// Words after a number (past its scale and `rupees`) that make it a change, not a
/// level: `₹4,700 ಇಳಿಕೆ` is a fall of ₹4,700, not a price of ₹4,700, so it is no
/// disagreement with `ಕೆ.ಜಿಗೆ ₹೪೬೮`. With an ending joined to the number the number is
/// the level it came to (`₹468ಕ್ಕೆ ಇಳಿಕೆ`, "down to ₹468").
const CHANGE_AFTER: &[&str] = &[
    "hike",
    "rise",
    "drop",
    "fall",
    "cut",
    "increase",
    "decrease",
    "dip",
    "jump",
    "slump",
    "ಇಳಿಕೆ",
    "ಏರಿಕೆ",
    "ಕುಸಿತ",
    "ಹೆಚ್ಚಳ",
    "ಕಡಿತ",
    "ಜಿಗಿತ",
];

/// Words before an amount that make it a change (`falls by ₹20`; "by six wickets" is
/// a count).
const CHANGE_BEFORE: &[&str] = &["by"];

/// Words before a number that make it a label (`NH 75`, `Ward 12`, `ಹೆದ್ದಾರಿ ೭೫`).
const LABEL_BEFORE: &[&str] = &[
    "nh",
    "sh",
    "no",
    "ward",
    "phase",
    "gate",
    "platform",
    "route",
    "terminal",
    "number",
    "ನಂ",
    "ನಂಬರ್",
    "ವಾರ್ಡ್",
];

/// Kannada words for a person that an age comes before (`೭೨ರ ವೃದ್ಧೆ`, `12 ವರ್ಷದ ಬಾಲಕ`,
/// `50ರ ಹರೆಯದ ವ್ಯಕ್ತಿ`), as they begin, besides the people words of where people come
/// from ([`super::ORIGIN_KN`]: `೨೩ರ ಯುವಕ`).
const AGED_KN: &[&str] = &[
    "ವೃದ್ಧ",
    "ಬಾಲೆ",
    "ಮಗು",
    "ಹರೆಯ",
    "ಅಜ್ಜ",
    "ರೈತ",
    "ಕಾರ್ಮಿಕ",
    "ಚಾಲಕ",
    "ಯುವ",
];

/// Whether the number whose digits run from `start` to `end` is a person's age: "Parvathamma,
/// 68, and grandson", "(34)", "34-year-old", "aged 72", `೭೨ರ ವೃದ್ಧೆ`, `12 ವರ್ಷದ ಬಾಲಕ`. An age
/// says who, not how many: two headlines that share it share evidence, and two ages are no
/// two counts of the event. Only a whole number of at most three digits is one.
fn is_age(chars: &[char], start: usize, end: usize, prev: &[&str], next: &[String]) -> bool {
    if end - start > 3 || chars[start..end].iter().any(|&c| ascii_digit(c).is_none()) {
        return false;
    }
    if prev.first() == Some(&"aged")
        || ["year", "years", "yr", "yrs"].contains(&next[0].as_str()) && next[1] == "old"
    {
        return true;
    }
    // Set off by commas or brackets on both sides, as a name's age is.
    let mut b = start;
    while b > 0 && chars[b - 1] == ' ' {
        b -= 1;
    }
    let mut a = end;
    while a < chars.len() && chars[a] == ' ' {
        a += 1;
    }
    if b > 0
        && matches!(chars[b - 1], ',' | '(')
        && (a == chars.len() || matches!(chars[a], ',' | ')' | ';' | ':'))
    {
        return true;
    }
    (next[0] == "ರ" || next[0].starts_with("ವರ್ಷದ"))
        && super::ORIGIN_KN
            .iter()
            .chain(AGED_KN)
            .any(|p| next[1].starts_with(p))
}

/// Months in English (the month before or after a day); Kannada's (before it) are the
/// pages' own.
const MONTHS_EN: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

/// Kannada's months as desks shorten them, each with a dot (`ಏ.28`, `ಸೆ. 29ಕ್ಕೆ`,
/// `ನ.೨೮ರ`): a day after one is a date.
const MONTHS_KN_SHORT: &[&str] = &[
    "ಜ",
    "ಜನ",
    "ಫೆ",
    "ಫೆಬ್ರ",
    "ಮಾ",
    "ಏ",
    "ಏಪ್ರಿ",
    "ಜೂ",
    "ಜು",
    "ಆ",
    "ಆಗ",
    "ಸೆ",
    "ಸೆಪ್ಟೆಂ",
    "ಅ",
    "ಅಕ್ಟೋ",
    "ನ",
    "ನವೆಂ",
    "ಡಿ",
    "ಡಿಸೆಂ",
];

fn month(w: &str) -> bool {
    // `ಮೇ` begins ಮೇಯರ್ and ಮೇಲೆ: it is May only as a word of its own.
    MONTHS_EN.contains(&w)
        || w == "ಮೇ"
        || MONTHS_KN[..4]
            .iter()
            .chain(&MONTHS_KN[5..])
            .any(|m| w.starts_with(m))
}

/// The English words for zero to twenty, each at its value: read here, written by the
/// pages that say small counts in words.
pub const EN_WORDS: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// English tens, each at its value.
const EN_TENS: [(&str, u64); 8] = [
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

/// Kannada number words, each at its value: the units, the teens, the tens, the hundreds
/// and the people's forms (`ಇಬ್ಬರು`, two people). Compounds are made of them (`ಇಪ್ಪತ್ತಮೂರು`, 23; `ನೂರಿಪ್ಪತ್ತು`, 120).
const KN: [(&str, u64); 44] = [
    ("ಒಂದು", 1),
    ("ಎರಡು", 2),
    ("ಮೂರು", 3),
    ("ನಾಲ್ಕು", 4),
    ("ಐದು", 5),
    ("ಆರು", 6),
    ("ಏಳು", 7),
    ("ಎಂಟು", 8),
    ("ಒಂಬತ್ತು", 9),
    ("ಹತ್ತು", 10),
    ("ಹನ್ನೊಂದು", 11),
    ("ಹನ್ನೆರಡು", 12),
    ("ಹದಿಮೂರು", 13),
    ("ಹದಿನಾಲ್ಕು", 14),
    ("ಹದಿನೈದು", 15),
    ("ಹದಿನಾರು", 16),
    ("ಹದಿನೇಳು", 17),
    ("ಹದಿನೆಂಟು", 18),
    ("ಹತ್ತೊಂಬತ್ತು", 19),
    ("ಇಪ್ಪತ್ತು", 20),
    ("ಮೂವತ್ತು", 30),
    ("ನಲವತ್ತು", 40),
    ("ನಲುವತ್ತು", 40),
    ("ಐವತ್ತು", 50),
    ("ಅರವತ್ತು", 60),
    ("ಎಪ್ಪತ್ತು", 70),
    ("ಎಂಬತ್ತು", 80),
    ("ಎಂಭತ್ತು", 80),
    ("ತೊಂಬತ್ತು", 90),
    ("ನೂರು", 100),
    ("ಇನ್ನೂರು", 200),
    ("ಮುನ್ನೂರು", 300),
    ("ನಾನೂರು", 400),
    ("ನಾಲ್ಕುನೂರು", 400),
    ("ಐನೂರು", 500),
    ("ಆರುನೂರು", 600),
    ("ಏಳುನೂರು", 700),
    ("ಎಂಟುನೂರು", 800),
    ("ಒಂಬೈನೂರು", 900),
    ("ಒಂಬತ್ತುನೂರು", 900),
    ("ಇಬ್ಬರು", 2),
    ("ಮೂವರು", 3),
    ("ನಾಲ್ವರು", 4),
    ("ಐವರು", 5),
];

/// A vowel sign at the start of the rest of a compound stands for the vowel that began its
/// word (`ಇಪ್ಪತ್ತ` + `ೊಂದು` is `ಇಪ್ಪತ್ತ` + `ಒಂದು`).
fn vowel_of(sign: char) -> Option<char> {
    let (signs, vowels) = ("ಾಿೀುೂೆೇೈೊೋ", "ಆಇಈಉಊಎಏಐಒಓ");
    signs
        .chars()
        .position(|c| c == sign)
        .and_then(|i| vowels.chars().nth(i))
}

/// A Kannada number word's value: a word of [`KN`], its people's form ending (`ಇಬ್ಬರ`),
/// its dative (`ಐದಕ್ಕೆ`), a larger word followed by a smaller one (`ಇಪ್ಪತ್ತಮೂರು`, 23;
/// `ನೂರಿಪ್ಪತ್ತು`, 120; `ಎರಡುಸಾವಿರ` is left to the scale words), or `-ೂವರೆ`, and a half
/// (`ಒಂದೂವರೆ`, 1.5).
fn kn_value(w: &str) -> Option<f64> {
    // "Hundreds of", "thousands of", "tens of": no number.
    if w.starts_with("ನೂರಾರು") || w.starts_with("ಸಾವಿರಾರು") || w.starts_with("ಹತ್ತಾರು")
    {
        return None;
    }
    if let Some(unit) = w.strip_suffix("ೂವರೆ") {
        return kn_value(&format!("{unit}ು")).map(|v| v + 0.5);
    }
    let dative = w.strip_suffix("ಕ್ಕೆ");
    for &(base, n) in &KN {
        let stem = base.strip_suffix('ು').unwrap_or(base);
        if w == base || dative == Some(stem) || (base.ends_with("ರು") && w == stem) {
            return Some(n as f64);
        }
    }
    // The longest word of the table that begins it, less its final ು, then a smaller
    // number.
    let mut best: Option<f64> = None;
    for &(base, n) in &KN {
        let stem = base.strip_suffix('ು').unwrap_or(base);
        if n < 20 || !w.starts_with(stem) || w.len() == stem.len() {
            continue;
        }
        let rest = &w[stem.len()..];
        let mut cs = rest.chars();
        let first = cs.next()?;
        let value = match vowel_of(first) {
            Some(v) => kn_value(&format!("{v}{}", cs.as_str())),
            None => kn_value(rest),
        };
        if let Some(r) = value.filter(|&r| r < n as f64) {
            best = Some(best.map_or(n as f64 + r, |b: f64| b.max(n as f64 + r)));
        }
    }
    best
}

/// Numbers written as words: English (to twenty, and its tens) and Kannada ([`kn_value`]).
pub fn word_value(w: &str) -> Option<f64> {
    if let Some(n) = EN_WORDS.iter().position(|x| *x == w) {
        // "one" is mostly "one of", not a count.
        return (n != 1).then_some(n as f64);
    }
    if let Some(&(_, n)) = EN_TENS.iter().find(|(t, _)| *t == w) {
        return Some(n as f64);
    }
    if w == "hundred" {
        return Some(100.0);
    }
    // "ಒಂದು" alone is mostly "a", "one of", as in English; a word not in Kannada is no
    // Kannada number.
    if w == "ಒಂದು" || !w.starts_with(|c: char| ('\u{0c80}'..='\u{0cff}').contains(&c)) {
        return None;
    }
    kn_value(w)
}

/// Kannada digits as ASCII ones.
fn ascii_digit(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        '೦'..='೯' => Some((c as u32 - '೦' as u32) as u8),
        _ => None,
    }
}

/// A word of a headline as the number reader sees it: its text, and whether a punctuation
/// mark (not a space, hyphen or dot) follows it.
struct Token {
    text: String,
    broken: bool,
}

/// The headline's words (letters, Kannada marks, digits, and a dot inside a word such as
/// `ಕೆ.ಜಿ`), each with whether a punctuation mark follows it.
fn tokens(chars: &[char]) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut word = String::new();
    let inside = |c: char| is_mark(c) || c.is_alphanumeric();
    for (k, &c) in chars.iter().enumerate() {
        let dotted = c == '.'
            && !word.is_empty()
            && chars
                .get(k + 1)
                .is_some_and(|&n| inside(n) && !n.is_ascii_digit());
        if inside(c) || dotted {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(Token {
                text: std::mem::take(&mut word),
                broken: false,
            });
        }
        if !matches!(c, ' ' | '-' | '.' | '\u{2013}')
            && let Some(last) = out.last_mut()
        {
            last.broken = true;
        }
    }
    if !word.is_empty() {
        out.push(Token {
            text: word,
            broken: false,
        });
    }
    out
}

/// The words that say what a number counts: from `from`, up to a punctuation mark or a
/// number, at most four.
fn what_of(ts: &[Token], from: usize) -> Vec<String> {
    let mut what = Vec::new();
    for t in ts.iter().skip(from).take(4) {
        if t.text.chars().any(|c| ascii_digit(c).is_some()) {
            break;
        }
        what.push(t.text.clone());
        if t.broken {
            break;
        }
    }
    what
}

/// A price per quintal or tonne, as a price per kilogram: the factor to divide it by.
/// The unit follows the price in English (`₹52,000 a quintal`) and comes before it, with a
/// dative ending, in Kannada (`ಕ್ವಿಂಟಲ್‌ಗೆ ₹52 ಸಾವಿರ`, `ಕ್ವಿಂಟಲ್ ಈರುಳ್ಳಿಗೆ ₹600`).
fn per_kg(before: &[&str], next: &[&str]) -> f64 {
    let grams = |w: &str| measure(w).filter(|m| m.1 == "g").map(|m| m.0 / 1000.0);
    if let [a, unit, ..] = next
        && ["a", "per", "an"].contains(a)
        && let Some(f) = grams(unit)
    {
        return f;
    }
    if before.first().is_some_and(|w| w.ends_with("ಗೆ"))
        && let Some(f) = before.iter().take(2).find_map(|w| grams(w))
    {
        return f;
    }
    1.0
}

/// The numbers a headline names, sorted, each once.
pub fn values(text: &str) -> Vec<Number> {
    let lower = text.to_lowercase().replace(['\u{200c}', '\u{200d}'], "");
    let chars: Vec<char> = lower.chars().collect();
    let mut out = Vec::new();
    // The words before position k (past spaces, a rupee sign, a hyphen and `Rs`), nearest
    // first, up to a punctuation mark.
    let before = |k: usize| -> Vec<String> {
        let mut ws = Vec::new();
        let mut j = k;
        while ws.len() < 2 {
            while j > 0 && matches!(chars[j - 1], ' ' | '₹' | '-' | '\u{2013}') {
                j -= 1;
            }
            let end = j;
            while j > 0
                && (is_mark(chars[j - 1]) || chars[j - 1].is_alphanumeric() || chars[j - 1] == '.')
            {
                j -= 1;
            }
            if j == end {
                break;
            }
            let w: String = chars[j..end].iter().collect();
            let w = w.trim_matches('.').to_string();
            if !["rs", "ರೂ"].contains(&w.as_str()) {
                ws.push(w);
            }
        }
        ws
    };
    // The word after position k (past spaces and a hyphen), and where it ends.
    let word_at = |mut k: usize| -> (String, usize) {
        while k < chars.len() && matches!(chars[k], ' ' | '-' | '\u{2013}') {
            k += 1;
        }
        let w: String = chars[k..]
            .iter()
            .take_while(|c| is_mark(**c) || c.is_alphabetic() || **c == '.')
            .collect();
        let end = k + w.chars().count();
        (w.trim_end_matches('.').to_string(), end)
    };
    let ts: Vec<Token> = tokens(&chars);
    let mut i = 0;
    // Where each number's digits began: a second number right after a first one's scale
    // (`2 ಕೋಟಿ 10 ಲಕ್ಷ`) is part of it.
    let mut skip_to = 0;
    while i < chars.len() {
        let Some(d) = ascii_digit(chars[i]) else {
            i += 1;
            continue;
        };
        let start = i;
        // Money when a rupee sign, or Rs as a word of its own (not the end of `Blasters`),
        // comes just before.
        let near: String = chars[i.saturating_sub(5)..i].iter().collect();
        let near = near.trim_end();
        let word_end = |end: &str| {
            near.strip_suffix(end).is_some_and(|rest| {
                !rest
                    .chars()
                    .next_back()
                    .is_some_and(|c| is_mark(c) || c.is_alphabetic())
            })
        };
        let mut amount = near.ends_with('₹') || word_end("rs") || word_end("rs.") || word_end("ರೂ");
        let mut n = d as f64;
        let mut frac = 0.0;
        let mut div = 1.0;
        let mut in_frac = false;
        let mut grouped = false;
        i += 1;
        while i < chars.len() {
            let c = chars[i];
            if let Some(d) = ascii_digit(c) {
                if in_frac {
                    div *= 10.0;
                    frac += d as f64 / div;
                } else {
                    n = n * 10.0 + d as f64;
                }
                i += 1;
            } else if (c == ',' || c == '.')
                && chars.get(i + 1).and_then(|c| ascii_digit(*c)).is_some()
                && !(c == '.' && in_frac)
            {
                if c == '.' {
                    in_frac = true;
                } else {
                    grouped = true;
                }
                i += 1;
            } else {
                break;
            }
        }
        if start < skip_to {
            continue;
        }
        let mut v = n + frac;
        let prev = before(start);
        let prev: Vec<&str> = prev.iter().map(String::as_str).collect();
        let glued = |k: usize| {
            chars
                .get(k)
                .is_some_and(|&c| is_mark(c) || c.is_alphabetic())
        };
        let digit_at = |k: usize| chars.get(k).and_then(|&c| ascii_digit(c)).is_some();
        // The whole number in digits after position k and its spaces, and where it ends (`2
        // ಕೋಟಿ 10 ಲಕ್ಷ`, `3 ಕೆ.ಜಿ 100 ಗ್ರಾಂ`: the 10, the 100).
        let whole_after = |mut k: usize| {
            while k < chars.len() && chars[k] == ' ' {
                k += 1;
            }
            let mut m = None;
            while let Some(d) = chars.get(k).and_then(|&c| ascii_digit(c)) {
                m = Some(m.unwrap_or(0.0) * 10.0 + d as f64);
                k += 1;
            }
            m.map(|m| (m, k))
        };
        let joiner = |c: char| matches!(c, '-' | '\u{2013}' | '/' | ':');
        // What follows the digits, joined to them: an ending (`8ಕ್ಕೆ`), an ordinal
        // (`42nd`, `42ನೇ`), a bound (`70ಕ್ಕೂ`), a score (`38-31`).
        let tail: String = chars[i..]
            .iter()
            .take_while(|c| is_mark(**c) || c.is_alphabetic())
            .collect();
        let ordinal = ["st", "nd", "rd", "th"].contains(&tail.as_str()) || tail.starts_with("ನೇ");
        let score = (chars.get(i).is_some_and(|&c| joiner(c)) && digit_at(i + 1))
            || (start >= 2 && joiner(chars[start - 1]) && digit_at(start - 2));
        // Glued to a word before it (`t20`, `nh66`, `exam-2`, `ಪರೀಕ್ಷೆ-2`): a label.
        let label = (start >= 1 && glued(start - 1) && !amount)
            || (start >= 2 && chars[start - 1] == '-' && glued(start - 2))
            || prev
                .first()
                .is_some_and(|w| LABEL_BEFORE.contains(w) || w.starts_with("ಹೆದ್ದಾರಿ"));
        let joined = tail.chars().next().is_some_and(is_mark);
        let bound = tail.starts_with("ಕ್ಕೂ")
            || chars.get(i) == Some(&'+')
            || prev.first().is_some_and(|w| BOUND_BEFORE.contains(w));
        let celsius = chars.get(i) == Some(&'°')
            || (chars.get(i) == Some(&' ') && chars.get(i + 1) == Some(&'°'));
        let mut percent = chars.get(i) == Some(&'%')
            || (chars.get(i) == Some(&' ') && chars.get(i + 1) == Some(&'%'))
            || prev.first().is_some_and(|w| w.starts_with("ಶೇ"));
        let (mut word, mut end) = word_at(i);
        let mut scaled = false;
        let mut bounded = false;
        if let Some(s) = scale(&word) {
            v *= s;
            scaled = true;
            bounded = word.ends_with("ಕ್ಕೂ");
            (word, end) = word_at(end);
            // `₹2 ಸಾವಿರ ಕೋಟಿ`, `Rs 3.7 lakh crore`: a larger scale after a scale multiplies.
            if let Some(s2) = scale(&word).filter(|&s2| s2 > s) {
                v *= s2;
                (word, end) = word_at(end);
            }
            // `2 ಕೋಟಿ 10 ಲಕ್ಷ`: a smaller scale's number after a crore or a lakh adds to it.
            if s >= 1e5
                && let Some((m, j)) = whole_after(end)
            {
                let (w2, e2) = word_at(j);
                if let Some(s2) = scale(&w2).filter(|&s2| s2 < s && m * s2 < s) {
                    v += m * s2;
                    skip_to = j;
                    (word, end) = word_at(e2);
                }
            }
        }
        let bound = bound || bounded;
        let next: Vec<String> = {
            let (a, e) = (word.clone(), end);
            let (b, _) = word_at(e);
            vec![a, b]
        };
        if next[0] == "per" && next[1] == "cent" || ["percent", "pc"].contains(&next[0].as_str()) {
            percent = true;
        }
        let mut what = Vec::new();
        if !joined && !percent {
            let (mut w, mut e) = (word.clone(), end);
            while !w.is_empty() && what.len() < 4 {
                what.push(w);
                if chars
                    .get(e)
                    .is_some_and(|&c| !matches!(c, ' ' | '-' | '\u{2013}' | '.'))
                {
                    break;
                }
                (w, e) = word_at(e);
            }
        }
        let mut unit = if percent {
            Some("%")
        } else {
            celsius.then_some("°C")
        };
        if celsius {
            what.clear();
        }
        match after(&word) {
            Some(After::Duration) => continue,
            Some(After::Measure(factor, base)) if !amount => {
                v *= factor;
                unit = Some(base);
                what.clear();
                // `3 ಕೆ.ಜಿ 100 ಗ್ರಾಂ`, "2 kg 100 g": the smaller measure after a larger one
                // of its base adds to it.
                if factor > 1.0
                    && let Some((m, j)) = whole_after(end)
                {
                    let (w2, _) = word_at(j);
                    if let Some(After::Measure(f2, b2)) = after(&w2)
                        && b2 == base
                        && f2 < factor
                        && m * f2 < factor
                    {
                        v += m * f2;
                        skip_to = j;
                    }
                }
            }
            Some(After::Money) => {
                amount = true;
                if !what.is_empty() {
                    what.remove(0);
                }
            }
            _ => {}
        }
        let mut as_written = None;
        if amount {
            let next: Vec<&str> = next.iter().map(String::as_str).collect();
            as_written = to_per_kg(&mut v, per_kg(&prev, &next));
        }
        let change = !joined
            && (CHANGE_AFTER.contains(&next[0].as_str())
                || matches!(after(&next[0]), Some(After::Money))
                    && CHANGE_AFTER.contains(&next[1].as_str())
                || amount && prev.first().is_some_and(|w| CHANGE_BEFORE.contains(w)));
        let year = !amount
            && !scaled
            && !grouped
            && frac == 0.0
            && unit.is_none()
            && i - start == 4
            && (1900.0..=2100.0).contains(&n);
        let age = is_age(&chars, start, i, &prev, &next);
        let dotted = chars[..start]
            .iter()
            .rev()
            .find(|c| **c != ' ')
            .is_some_and(|c| *c == '.');
        let date = prev.first().is_some_and(|w| month(w))
            || dotted && prev.first().is_some_and(|w| MONTHS_KN_SHORT.contains(w))
            || (MONTHS_EN.contains(&word.as_str()) && word != "may")
            || MONTHS_KN.iter().any(|m| word == *m);
        let counted = !(year || date || ordinal || score || label || bound || age);
        let before = (counted && what.is_empty() && !amount && unit.is_none() && !joined)
            .then(|| verb_before(prev.first().copied()))
            .flatten();
        let people = people_after(&what);
        let number = Number {
            amount,
            value: (v * 100.0).round() as Value,
            unit,
            what,
            counted,
            change,
            before,
            people,
            bound,
        };
        push_read(&mut out, number, as_written);
    }
    // Numbers written as words.
    let mut k = 0;
    while k < ts.len() {
        let w = ts[k].text.as_str();
        let next_scale = ts.get(k + 1).and_then(|t| scale(&t.text));
        // A thousand, or a round number, then a smaller one: one number (`ಸಾವಿರದ
        // ಎಂಟುನೂರು`, 1,800; `ಇನ್ನೂರ ಹನ್ನೆರಡು`, 212; `twenty-three`); a unit then
        // `hundred` or `ನೂರು` (`two hundred`, `ಆರು ನೂರು`); `one` or `ಒಂದು` before a scale
        // (`ಒಂದು ಕೋಟಿ`).
        let head = if w == "ಸಾವಿರದ" {
            Some(1000.0)
        } else if (w == "ಒಂದು" || w == "one") && next_scale.is_some() && !ts[k].broken {
            Some(1.0)
        } else {
            word_value(w)
        };
        let Some(mut n) = head else {
            k += 1;
            continue;
        };
        let last;
        (n, last) = joined_word(&ts, k, n);
        if w == "ಸಾವಿರದ" && last == k {
            k += 1;
            continue;
        }
        let prev = (k > 0 && !ts[k - 1].broken).then(|| ts[k - 1].text.as_str());
        let k0 = k;
        k = last + 1;
        let open = !ts[last].broken;
        if open
            && ts
                .get(last + 1)
                .is_some_and(|next| matches!(after(&next.text), Some(After::Duration)))
        {
            continue;
        }
        let scaled_by = ts
            .get(last + 1)
            .filter(|_| open)
            .and_then(|next| scale(&next.text));
        let mut value = n * scaled_by.unwrap_or(1.0);
        let mut from = last + 1 + usize::from(scaled_by.is_some());
        // `ನಾಲ್ಕು ಸಾವಿರದ ಇನ್ನೂರು`, `four thousand two hundred`: the hundreds after a
        // thousand add to it.
        if scaled_by == Some(1e3)
            && !ts[from - 1].broken
            && let Some((m, used)) = below_thousand(&ts[from.min(ts.len())..])
        {
            value += m;
            from += used;
            k = from;
        }
        // `ಎರಡು ಸಾವಿರ ಕೋಟಿ`, `ಎರಡು ಸಾವಿರದ ನಾನೂರು ಕೋಟಿ`, `three lakh crore`: a larger
        // scale after them multiplies.
        if let Some(s) = scaled_by {
            let s2 = ts
                .get(from)
                .filter(|_| !ts[from - 1].broken)
                .and_then(|t| scale(&t.text))
                .filter(|&s2| s2 > s && value < s2);
            if let Some(s2) = s2 {
                value *= s2;
                from += 1;
                k = from;
            }
        }
        // `ಒಂದು ಕೋಟಿ ಎಂಬತ್ತು ಲಕ್ಷ`, `ಒಂದು ಲಕ್ಷದ ಹನ್ನೆರಡು ಸಾವಿರ`: a smaller scale's number after
        // a crore or a lakh adds to it.
        if let Some(s) = scaled_by.filter(|&s| s >= 1e5 && !ts[from - 1].broken) {
            let m = ts.get(from).and_then(|t| word_value(&t.text));
            let s2 = ts
                .get(from + 1)
                .filter(|_| !ts[from].broken)
                .and_then(|t| scale(&t.text));
            if let (Some(m), Some(s2)) = (m, s2)
                && s2 < s
                && m * s2 < s
            {
                value += m * s2;
                from += 2;
                k = from;
            }
        }
        let from = from.min(ts.len());
        let said = from > last + 1 && ts[from - 1].broken || from == last + 1 && !open;
        let amount = !said
            && ts
                .get(from)
                .is_some_and(|t| matches!(after(&t.text), Some(After::Money)));
        let what = if said || amount && ts[from].broken {
            Vec::new()
        } else {
            what_of(&ts, from + usize::from(amount))
        };
        let mut as_written = None;
        if amount {
            let near: Vec<&str> = (k0.saturating_sub(2)..k0)
                .rev()
                .take_while(|&j| !ts[j].broken)
                .map(|j| ts[j].text.as_str())
                .collect();
            let next: Vec<&str> = ts[(from + 1).min(ts.len())..]
                .iter()
                .take(2)
                .map(|t| t.text.as_str())
                .collect();
            as_written = to_per_kg(&mut value, per_kg(&near, &next));
        }
        let percent = prev.is_some_and(|p| p.starts_with("ಶೇ"));
        let bound = prev.is_some_and(|p| BOUND_BEFORE.contains(&p))
            || ts[from.min(ts.len()) - 1].text.ends_with("ಕ್ಕೂ");
        let at = from + usize::from(amount);
        let change = !said
            && (ts
                .get(at)
                .is_some_and(|t| CHANGE_AFTER.contains(&t.text.as_str()))
                || amount && prev.is_some_and(|p| CHANGE_BEFORE.contains(&p)));
        let date = prev.is_some_and(month);
        // `two-wheeler`: a kind of vehicle, not a count.
        let label = ts.get(from).is_some_and(|t| t.text.starts_with("wheeler"));
        let measured = ts
            .get(from)
            .filter(|_| !said && !amount)
            .and_then(|t| measure(&t.text));
        let mut unit = percent.then_some("%");
        if let Some((factor, base)) = measured {
            value *= factor;
            unit = Some(base);
        }
        let counted = !(bound || date || label);
        let before = (counted && what.is_empty() && !amount && unit.is_none())
            .then(|| verb_before(prev))
            .flatten();
        let people = PEOPLE_FORMS.iter().any(|p| w.starts_with(p)) || people_after(&what);
        let number = Number {
            amount,
            value: (value * 100.0).round() as Value,
            unit,
            what: if unit.is_some() { Vec::new() } else { what },
            counted,
            change,
            before,
            people,
            bound,
        };
        push_read(&mut out, number, as_written);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A price read per kilogram where [`per_kg`] gave a factor: the value as written then, for
/// [`push_read`].
fn to_per_kg(value: &mut f64, per: f64) -> Option<f64> {
    (per != 1.0).then(|| {
        let written = *value;
        *value /= per;
        written
    })
}

/// A number read, and the same read as written where it was read per kilogram (a price
/// per quintal or tonne): a desk may leave the unit out (`ಟನ್ ಕಬ್ಬಿಗೆ ₹3,500`, `ಮೂರೂವರೆ
/// ಸಾವಿರ ರೂಪಾಯಿ ದರ`).
fn push_read(out: &mut Vec<Number>, number: Number, as_written: Option<f64>) {
    if let Some(w) = as_written {
        out.push(Number {
            value: (w * 100.0).round() as Value,
            ..number.clone()
        });
    }
    out.push(number);
}

/// The number `n` that the word at `k` begins, with the word after it when that word goes
/// on with it (`two hundred`, `ಆರು ನೂರು`; `twenty-three`, `ಇನ್ನೂರ ಹನ್ನೆರಡು`, `ಸಾವಿರದ
/// ಎಂಟುನೂರು`), and the last word it took.
fn joined_word(ts: &[Token], k: usize, n: f64) -> (f64, usize) {
    match ts
        .get(k + 1)
        .filter(|_| !ts[k].broken)
        .and_then(|next| word_value(&next.text))
    {
        Some(m) if m == 100.0 && n < 10.0 => (n * 100.0, k + 1),
        Some(m) if m < n && n % 10.0 == 0.0 && n >= 20.0 => (n + m, k + 1),
        _ => (n, k),
    }
}

/// A number below a thousand written as words at the start of `ts`, and how many words
/// it took: `ಇನ್ನೂರು`, `ಎಂಟುನೂರು`, `two hundred`, `ಆರು ನೂರು`, `ಇನ್ನೂರ ಹನ್ನೆರಡು`.
fn below_thousand(ts: &[Token]) -> Option<(f64, usize)> {
    let n = word_value(&ts.first()?.text).filter(|&n| n < 1000.0)?;
    let (n, last) = joined_word(ts, 0, n);
    Some((n, last + 1))
}

/// A combining mark of Kannada (vowel signs, virama, anusvara): part of a word.
fn is_mark(c: char) -> bool {
    matches!(c, '\u{0c80}'..='\u{0cff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<(bool, u64)> {
        values(s)
            .into_iter()
            .map(|n| (n.amount, n.value / 100))
            .collect()
    }

    #[test]
    fn kannada_and_english_number_words_are_values() {
        let n = |s: &str| v(s).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(n("ಇಪ್ಪತ್ತಮೂರು ಮಂದಿಗೆ ಕಾಲರಾ"), [23]);
        assert_eq!(n("ಇಪ್ಪತ್ತೊಂದು ಸುತ್ತು ಕುಶಾಲತೋಪು"), [21]);
        assert_eq!(n("ನೂರಿಪ್ಪತ್ತು ಹೊಸ ಆಂಬುಲೆನ್ಸ್‌"), [120]);
        assert_eq!(n("ಸಾವಿರದ ಎಂಟುನೂರು ಶಿಕ್ಷಕರ ಹುದ್ದೆ"), [1800]);
        assert_eq!(n("ಇನ್ನೂರ ಹನ್ನೆರಡು ಮನೆಗಳು"), [212]);
        assert_eq!(n("ನಲವತ್ತು ಬಸ್"), [40]);
        assert_eq!(n("ಮೂವತ್ತೈದು ಮಂದಿ"), [35]);
        assert_eq!(n("ಇಪ್ಪತ್ತಕ್ಕೆ ಏರಿಕೆ"), [20]);
        assert_eq!(v("ಒಂದೂವರೆ ಸಾವಿರ ಜನ"), [(false, 1500)]);
        assert_eq!(n("twenty-three injured"), [23]);
        assert_eq!(n("two hundred families"), [200]);
        assert_eq!(n("ಮೂರು ಸಾವಿರ"), [3000]);
        // `ಒಂದು` alone is "a", and a thousand alone is a scale, not a count.
        assert!(n("ಒಂದು ಸಾವು").is_empty() && n("ಸಾವಿರದ ಕನಸು").is_empty());
        assert!(n("ನೂರಾರು ಅಂಗನವಾಡಿ ಕಾರ್ಯಕರ್ತೆಯರು").is_empty());
    }

    #[test]
    fn a_count_says_what_it_counts() {
        let what = |s: &str| values(s).into_iter().map(|n| n.what).collect::<Vec<_>>();
        assert_eq!(what("police form three teams"), [vec!["teams"]]);
        assert_eq!(
            what("12 Bengaluru-bound flights"),
            [vec!["bengaluru", "bound", "flights"]]
        );
        assert_eq!(what("₹10 ಲಕ್ಷ ಪರಿಹಾರ"), [vec!["ಪರಿಹಾರ"]]);
        // A unit says it: the words after it do not.
        assert_eq!(what("1.2 kg gold"), [Vec::<String>::new()]);
        // What a count counts ends at a punctuation mark.
        assert_eq!(what("ನಾಲ್ಕು ವಿಕೆಟ್‌: ಹುಬ್ಬಳ್ಳಿ ಟೈಗರ್ಸ್‌"), [vec!["ವಿಕೆಟ್"]]);
        assert_eq!(
            what("3 fishermen missing, 4 swim"),
            [vec!["fishermen", "missing"], vec!["swim"]]
        );
        // A Kannada ending joined to the number: nothing says what it counts.
        assert_eq!(what("ಮೃತರ ಸಂಖ್ಯೆ 8ಕ್ಕೆ ಏರಿಕೆ"), [Vec::<String>::new()]);
    }

    #[test]
    fn measures_are_values_in_their_unit() {
        let m = |s: &str| {
            values(s)
                .into_iter()
                .map(|n| (n.value / 100, n.unit))
                .collect::<Vec<_>>()
        };
        assert_eq!(m("5,340 kg"), m("5.34 ಟನ್"));
        assert_eq!(m("5,340 kg"), [(5_340_000, Some("g"))]);
        assert_eq!(m("1.2 kg"), m("1,200 grams"));
        assert_eq!(m("14 ಸೆಂ.ಮೀ ಮಳೆ"), m("೧೪೦ ಮಿ.ಮೀ ಮಳೆ"));
        assert_eq!(m("140 mm rain"), [(140, Some("mm"))]);
        assert_eq!(m("44.2°C"), m("44.2 ಡಿಗ್ರಿ ಸೆಲ್ಸಿಯಸ್"));
        assert_eq!(m("18.45 GW"), m("18,450 MW"));
        assert_eq!(m("ಆರು ಸಾವಿರ ಲೀಟರ್‌ ನೀರು"), m("6,000 litres of water"));
        assert_eq!(m("61.3% pass"), [(61, Some("%"))]);
        assert_eq!(m("ಶೇ 61.3 ವಿದ್ಯಾರ್ಥಿಗಳು"), m("61.3 per cent"));
        assert_eq!(m("ಶೇ ೬೧.೩ ಫಲಿತಾಂಶ"), m("61.3%"));
        // `ಮೀನುಗಾರರು` begins as `ಮೀ.` does not.
        assert_eq!(m("3 ಮೀನುಗಾರರು"), [(3, None)]);
    }

    #[test]
    fn an_age_is_not_a_count() {
        let counted = |s: &str| values(s).iter().filter(|n| n.counted).count();
        for s in [
            "Parvathamma, 68, and grandson killed",
            "Ravi (34) held",
            "34-year-old crushed as tree falls",
            "aged 72, rescued",
            "೨೩ರ ಯುವಕ ನಾಪತ್ತೆ",
            "12 ವರ್ಷದ ಬಾಲಕ ಸಾವು",
        ] {
            assert_eq!(counted(s), 0, "{s}");
            // Still evidence that two headlines share it.
            assert_eq!(values(s).len(), 1, "{s}");
        }
        // A count set off by a comma on one side only is a count.
        assert_eq!(counted("Bulls win 36-33, 5 injured"), 1);
        assert_eq!(counted("Karnataka 241, Saurashtra 180"), 2);
    }

    #[test]
    fn years_dates_labels_scores_and_bounds_are_not_counts() {
        let counted = |s: &str| {
            values(s)
                .into_iter()
                .filter(|n| n.counted)
                .map(|n| n.value / 100)
                .collect::<Vec<_>>()
        };
        assert_eq!(counted("Dasara 2026: nine jumbos"), [9]);
        assert_eq!(
            counted("Karnataka chase down 184 in Mushtaq Ali T20"),
            [184]
        );
        assert_eq!(counted("SSLC Exam-2 results: 61.3% pass"), [61]);
        assert_eq!(counted("ಪರೀಕ್ಷೆ-2 ಫಲಿತಾಂಶ"), [0u64; 0]);
        assert_eq!(counted("NH 75 shut; ರಾಷ್ಟ್ರೀಯ ಹೆದ್ದಾರಿ ೭೫ರಲ್ಲಿ"), [0u64; 0]);
        assert_eq!(counted("42nd convocation; 42ನೇ ಘಟಿಕೋತ್ಸವ: 146 ಮಂದಿಗೆ ಪದಕ"), [146]);
        assert_eq!(
            counted("Bulls edge Titans 36-33; 41–29ರ ಜಯ; 356/4"),
            [0u64; 0]
        );
        assert_eq!(
            counted("ಮಾರ್ಚ್ 23ರಿಂದ ಪರೀಕ್ಷೆ, ಏಪ್ರಿಲ್‌ 9ಕ್ಕೆ ಕೊನೆ; from Oct 12; 23 March"),
            [0u64; 0]
        );
        assert_eq!(
            counted("ಏ.೨೮ಕ್ಕೆ ಮರುಪರೀಕ್ಷೆ; ಸೆ. 29ರಿಂದ; ನ.೨೮ರ ಗಡುವು; ಬಿ.ಕಾಂ 6 ವಿದ್ಯಾರ್ಥಿಗಳು"),
            [6]
        );
        assert_eq!(counted("ಮೂರು ಲಕ್ಷಕ್ಕೂ ಹೆಚ್ಚು ಅಭ್ಯರ್ಥಿಗಳು; 3.1 ಲಕ್ಷಕ್ಕೂ ಅಧಿಕ"), [0u64; 0]);
        assert_eq!(counted("ಮೇಯರ್ 3 ವಾರ್ಡ್‌ಗೆ ಭೇಟಿ"), [3]);
        assert_eq!(
            counted("dengue tally crosses 200; over 40 trees; 70ಕ್ಕೂ ಹೆಚ್ಚು"),
            [0u64; 0]
        );
        assert_eq!(counted("60 scooters gutted at two-wheeler showroom"), [60]);
        // The values are still there, as evidence that two headlines share them.
        assert_eq!(v("NH 75 shut").len(), 1);
    }

    #[test]
    fn a_price_per_quintal_is_a_price_per_kilogram() {
        // Read per kilogram, and as written too: a desk may leave the unit out.
        let both = |s: &str, kg: u64, written: u64| {
            assert_eq!(v(s), [(true, kg), (true, written)], "{s}");
        };
        assert_eq!(v("₹510 a kg"), [(true, 510)]);
        both("Rs 51,000 a quintal", 510, 51_000);
        assert_eq!(v("ಕೆ.ಜಿಗೆ ₹೫೧೦ಕ್ಕೆ ಏರಿಕೆ"), v("₹510 a kg"));
        both("ಕ್ವಿಂಟಲ್ಗೆ 51 ಸಾವಿರ ರೂಪಾಯಿ", 510, 51_000);
        both("ಕ್ವಿಂಟಲ್‌ಗೆ ₹2 ಸಾವಿರ ಕುಸಿತ", 20, 2000);
        assert_eq!(v("ಕೆ.ಜಿಗೆ ಇಪ್ಪತ್ತು ರೂಪಾಯಿ ಇಳಿಕೆ"), [(true, 20)]);
        assert_eq!(v("ಕ್ವಿಂಟಲ್ ಈರುಳ್ಳಿಗೆ ₹600"), v("ಈರುಳ್ಳಿ ಕ್ವಿಂಟಲ್‌ಗೆ ಆರು ನೂರು ರೂಪಾಯಿ"));
        both("ಕ್ವಿಂಟಲ್ ಈರುಳ್ಳಿಗೆ ₹600", 6, 600);
        both("ಟನ್ ಕಬ್ಬಿಗೆ ₹3,500 ದರ", 3, 3500);
        assert_eq!(v("ಮೂರೂವರೆ ಸಾವಿರ ರೂಪಾಯಿ ದರ"), [(true, 3500)]);
        // Without a unit, a price is as it is written.
        assert_eq!(v("ಈರುಳ್ಳಿಗೆ ₹600"), [(true, 600)]);
    }

    #[test]
    fn a_crore_and_lakhs_are_one_amount() {
        assert_eq!(v("2 ಕೋಟಿ 10 ಲಕ್ಷ ರೂಪಾಯಿ ಟೋಪಿ"), v("Rs 2.1 crore"));
        assert_eq!(v("ಒಂದು ಕೋಟಿ ಎಂಬತ್ತು ಲಕ್ಷ ರೂಪಾಯಿ ಮೌಲ್ಯದ ಒಡವೆ"), v("₹1.8 ಕೋಟಿ ಮೌಲ್ಯದ"));
        assert_eq!(v("ಒಂದು ಲಕ್ಷದ ಹನ್ನೆರಡು ಸಾವಿರ ವಿದ್ಯಾರ್ಥಿಗಳು"), [(false, 112_000)]);
        assert_eq!(v("ಆರು ನೂರು ಮನೆಗಳು"), [(false, 600)]);
    }

    #[test]
    fn a_rise_or_a_fall_is_a_change_and_the_level_it_came_to_is_not() {
        let change = |s: &str| values(s).into_iter().map(|n| n.change).collect::<Vec<_>>();
        // Per kilogram and as written.
        assert_eq!(change("ಕ್ವಿಂಟಲ್‌ಗೆ ₹4,700 ಇಳಿಕೆ"), [true, true]);
        assert_eq!(change("ಕ್ವಿಂಟಲ್ಗೆ ₹2 ಸಾವಿರ ಕುಸಿತ"), [true, true]);
        assert_eq!(change("ಕೆ.ಜಿಗೆ ಇಪ್ಪತ್ತು ರೂಪಾಯಿ ಇಳಿಕೆ"), [true]);
        assert_eq!(change("milk price up by Rs 2 a litre"), [true]);
        assert_eq!(change("a ₹2 hike"), [true]);
        assert_eq!(change("ಚಾಲಿ ಕೆ.ಜಿಗೆ ₹೪೬೮ಕ್ಕೆ ಇಳಿಕೆ"), [false]);
        assert_eq!(change("ಮೃತರ ಸಂಖ್ಯೆ 8ಕ್ಕೆ ಏರಿಕೆ"), [false]);
        // A margin is a count.
        assert_eq!(change("beat Punjab by six wickets"), [false]);
    }

    #[test]
    fn thousands_and_their_hundreds_and_a_crore_of_them_are_one_number() {
        assert_eq!(v("ನಾಲ್ಕು ಸಾವಿರದ ಇನ್ನೂರು ಶಿಕ್ಷಕರ ನೇಮಕಾತಿ"), [(false, 4200)]);
        assert_eq!(v("four thousand two hundred teachers"), [(false, 4200)]);
        assert_eq!(v("ಮೂರು ಸಾವಿರದ ಆರು ನೂರು ಮನೆಗಳು"), [(false, 3600)]);
        assert_eq!(v("ಎರಡು ಸಾವಿರದ ಇನ್ನೂರ ಹನ್ನೆರಡು ಮನೆಗಳು"), [(false, 2212)]);
        assert_eq!(v("₹2 ಸಾವಿರ ಕೋಟಿ ಯೋಜನೆ"), v("Rs 2,000 crore plan"));
        assert_eq!(v("ಎರಡು ಸಾವಿರ ಕೋಟಿ ರೂಪಾಯಿ"), v("₹2,000 ಕೋಟಿ"));
        assert_eq!(v("Rs 3.7 lakh crore budget"), [(true, 3_700_000_000_000)]);
        let n = |s: &str| v(s).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(n("ಎರಡು ಸಾವಿರದ ನಾನೂರು ಕೋಟಿ"), [2400_0000000]);
    }

    #[test]
    fn amounts_in_either_script_are_one_value() {
        assert_eq!(v("ಐಟಿ ಪಾರ್ಕ್‌ಗೆ ₹800 ಕೋಟಿ ಹೂಡಿಕೆ"), [(true, 800_0000000)]);
        assert_eq!(v("IT park draws Rs 800 crore"), [(true, 800_0000000)]);
        assert_eq!(v("800 ಕೋಟಿ ರೂಪಾಯಿ ವೆಚ್ಚ"), [(true, 800_0000000)]);
        assert_eq!(v("₹೮೦೦ ಕೋಟಿ"), [(true, 800_0000000)]);
        assert_eq!(v("Rs 1,200-crore plan"), [(true, 1200_0000000)]);
        assert_eq!(v("ಕ್ವಿಂಟಲ್‌ಗೆ ₹52 ಸಾವಿರ"), v("Rs 52,000 a quintal"));
        assert_eq!(v("೩ ಸಾವು"), [(false, 3)]);
        assert_eq!(v("ಡಿಸೆಂಬರ್ 8ರಿಂದ ಅಧಿವೇಶನ"), [(false, 8)]);
        assert_eq!(v("Three killed"), v("ಮೂವರು ಸಾವು"));
        assert_eq!(v("ಮೃತರ ಸಂಖ್ಯೆ ಐದಕ್ಕೆ ಏರಿಕೆ"), [(false, 5)]);
        assert_eq!(v("Rs 1.5 lakh"), [(true, 150000)]);
        // A scale word alone makes a large count, not money.
        assert_eq!(v("2 lakh visitors"), [(false, 200000)]);
        assert_eq!(v("ಎರಡು ಲಕ್ಷ ಜನ"), [(false, 200000)]);
        assert_eq!(v("ಎರಡು ಲಕ್ಷ ರೂಪಾಯಿ"), [(true, 200000)]);
        assert_eq!(v("₹5ಲಕ್ಷ ರೂಪಾಯಿ"), [(true, 500000)]);
        assert_eq!(v("1.2 kg gold"), v("1,200 grams"));
        assert_eq!(v("೧.೨ ಕೆ.ಜಿ ಚಿನ್ನ"), [(false, 1200)]);
        assert_eq!(v("3 ಕೆ.ಜಿ 100 ಗ್ರಾಂ ಚಿನ್ನ"), v("3.1 kg gold"));
        assert_eq!(v("2 kg 100 g of gold"), [(false, 2100)]);
        assert_eq!(v("two dozen pupils"), v("24 pupils"));
        assert_eq!(v("One of the best"), []);
        assert_eq!(
            v("doused after 11 hours; 24-hour operation, ೧೧ ಗಂಟೆಗಳ, 3 ದಿನಗಳ"),
            []
        );
        assert_eq!(v("3 ವಾರ್ಡ್‌ಗಳು, 2 ದಿನಸಿ ಅಂಗಡಿ"), [(false, 2), (false, 3)]);
        assert_eq!(v("BFC held 1-1"), [(false, 1)]);
        // Rs only as a word of its own: `Blasters 2-1` is a score, not money.
        assert_eq!(v("Kerala Blasters 2-1"), [(false, 1), (false, 2)]);
        assert_eq!(v("Kerala Rs 2 lakh"), [(true, 200000)]);
    }
}
