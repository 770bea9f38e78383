//! Numbers in a headline, read as values: digits in either script (Kannada ೦–೯ too), with
//! their grouping commas and a decimal point, scaled by the word after them (`crore` /
//! `ಕೋಟಿ`, `lakh` / `ಲಕ್ಷ`, `thousand` / `ಸಾವಿರ`, `million`, `billion`), and the small
//! numbers written as words (`three`, `ಮೂರು`, `ಮೂವರು`). So `₹800 ಕೋಟಿ` and `Rs 800 crore`
//! are one value, 8,000,000,000, and `3 killed` and `ಮೂವರು ಸಾವು` share 3. Kilograms are
//! counted in grams (`1.2 kg` is `1,200 grams`).

/// A value, in hundredths (so `1.5 lakh` is exact).
pub type Value = u64;

/// A number a headline names: its value, whether it is an amount of money (a rupee
/// sign or `Rs` before it, or a scale word after it), and the word that says what it
/// counts: the (up to three) words after it (`three teams`, `₹10 lakh relief`,
/// `12 Bengaluru-bound flights`), none when a Kannada ending is joined to it (`8ಕ್ಕೆ`). Durations (`11 hours`, `24-hour`,
/// `೧೧ ಗಂಟೆ`) are left out: they say how long, not which event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Number {
    pub amount: bool,
    pub value: Value,
    pub what: Vec<String>,
}

fn scale(word: &str) -> Option<f64> {
    let w = word.trim_start_matches('-');
    let en = |p: &[&str]| p.iter().any(|x| w == *x);
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
    } else {
        None
    }
}

/// A unit after a number that changes its value (kilograms to grams), or marks it a duration.
enum Unit {
    Times(f64),
    Money,
    Duration,
}

fn unit(word: &str) -> Option<Unit> {
    let w = word.trim_start_matches('-');
    let en = |p: &[&str]| p.iter().any(|x| w == *x);
    if en(&["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"])
        || w.starts_with("ಕೆಜಿ")
        || w.starts_with("ಕೆ.ಜಿ")
        || w.starts_with("ಕಿಲೋ")
    {
        Some(Unit::Times(1000.0))
    } else if en(&["rupees", "rupee"]) || w.starts_with("ರೂಪಾಯಿ") || w == "ರೂ" {
        Some(Unit::Money)
    } else if en(&[
        "hour", "hours", "hrs", "hr", "minute", "minutes", "mins", "day", "days", "week", "weeks",
        "month", "months",
    ]) || ["ಗಂಟೆ", "ನಿಮಿಷ", "ದಿನ", "ವಾರ", "ತಿಂಗಳ"]
        .iter()
        .any(|p| w.starts_with(p))
    {
        Some(Unit::Duration)
    } else {
        None
    }
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
fn word_value(w: &str) -> Option<f64> {
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

/// The numbers a headline names, sorted, each once.
pub fn values(text: &str) -> Vec<Number> {
    let lower = text.to_lowercase().replace(['\u{200c}', '\u{200d}'], "");
    let chars: Vec<char> = lower.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    // The word after position k (past spaces and a hyphen), and where it ends.
    let word_at = |mut k: usize| -> (String, usize) {
        while k < chars.len() && (chars[k] == ' ' || chars[k] == '-') {
            k += 1;
        }
        let w: String = chars[k..]
            .iter()
            .take_while(|c| c.is_alphabetic() || is_mark(**c) || **c == '.')
            .collect();
        let end = k + w.chars().count();
        (w.trim_end_matches('.').to_string(), end)
    };
    while i < chars.len() {
        let Some(d) = ascii_digit(chars[i]) else {
            i += 1;
            continue;
        };
        // Money when a rupee sign, or Rs as a word of its own (not the end of `Blasters`),
        // comes just before.
        let before: String = chars[i.saturating_sub(5)..i].iter().collect();
        let before = before.trim_end();
        let word_end = |end: &str| {
            before.strip_suffix(end).is_some_and(|rest| {
                !rest
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphabetic() || is_mark(c))
            })
        };
        let mut amount =
            before.ends_with('₹') || word_end("rs") || word_end("rs.") || word_end("ರೂ");
        let mut n = d as f64;
        let mut frac = 0.0;
        let mut div = 1.0;
        let mut in_frac = false;
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
                }
                i += 1;
            } else {
                break;
            }
        }
        let mut v = n + frac;
        // A Kannada ending joined to the digits (`8ಕ್ಕೆ`, `10ರಿಂದ`): no word says what.
        let joined = chars.get(i).is_some_and(|&c| is_mark(c));
        let (mut word, mut end) = word_at(i);
        if let Some(s) = scale(&word) {
            v *= s;
            (word, end) = word_at(end);
        }
        let mut what = Vec::new();
        if !joined {
            let (mut w, mut e) = (word.clone(), end);
            while !w.is_empty() && what.len() < 4 {
                what.push(w);
                (w, e) = word_at(e);
            }
        }
        match unit(&word) {
            Some(Unit::Duration) => continue,
            Some(Unit::Times(t)) => {
                v *= t;
                what = vec!["g".to_string()];
            }
            Some(Unit::Money) => {
                amount = true;
                if !what.is_empty() {
                    what.remove(0);
                }
            }
            None => {}
        }
        out.push(Number {
            amount,
            value: (v * 100.0).round() as Value,
            what,
        });
    }
    let ws: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || is_mark(c)))
        .filter(|w| !w.is_empty())
        .collect();
    let mut k = 0;
    while k < ws.len() {
        let w = ws[k];
        // A thousand, or a round number, then a smaller one: one number (`ಸಾವಿರದ
        // ಎಂಟುನೂರು`, 1,800; `ಇನ್ನೂರ ಹನ್ನೆರಡು`, 212; `twenty-three`); a unit then
        // `hundred` (`two hundred`).
        let head = if w == "ಸಾವಿರದ" {
            Some(1000.0)
        } else {
            word_value(w)
        };
        let Some(mut n) = head else {
            k += 1;
            continue;
        };
        let mut last = k;
        if let Some(m) = ws.get(k + 1).and_then(|next| word_value(next)) {
            if ws[k + 1] == "hundred" && n < 10.0 {
                n *= 100.0;
                last = k + 1;
            } else if m < n && n % 10.0 == 0.0 && n >= 20.0 {
                n += m;
                last = k + 1;
            }
        }
        if w == "ಸಾವಿರದ" && last == k {
            k += 1;
            continue;
        }
        k = last + 1;
        if ws
            .get(last + 1)
            .is_some_and(|next| matches!(unit(next), Some(Unit::Duration)))
        {
            continue;
        }
        let scaled_by = ws.get(last + 1).and_then(|next| scale(next));
        let scaled = scaled_by.unwrap_or(1.0);
        let from = (last + 1 + usize::from(scaled_by.is_some())).min(ws.len());
        let amount = ws
            .get(from)
            .is_some_and(|w| matches!(unit(w), Some(Unit::Money)));
        let what = ws[from..(from + 4).min(ws.len())]
            .iter()
            .map(|w| w.to_string())
            .collect();
        out.push(Number {
            amount,
            value: (n * scaled * 100.0).round() as Value,
            what,
        });
    }
    out.sort_unstable();
    out.dedup();
    out
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
        assert_eq!(what("1.2 kg gold"), [vec!["g"]]);
        // A Kannada ending joined to the number: nothing says what it counts.
        assert_eq!(what("ಮೃತರ ಸಂಖ್ಯೆ 8ಕ್ಕೆ ಏರಿಕೆ"), [Vec::<String>::new()]);
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
        assert_eq!(v("One of the best"), []);
        assert_eq!(v("doused after 11 hours; 24-hour operation, ೧೧ ಗಂಟೆಗಳ"), []);
        assert_eq!(v("BFC held 1-1"), [(false, 1)]);
        // Rs only as a word of its own: `Blasters 2-1` is a score, not money.
        assert_eq!(v("Kerala Blasters 2-1"), [(false, 1), (false, 2)]);
        assert_eq!(v("Kerala Rs 2 lakh"), [(true, 200000)]);
    }
}
