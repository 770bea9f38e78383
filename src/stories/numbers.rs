//! Numbers in a headline, read as values: digits in either script (Kannada ೦–೯ too), with
//! their grouping commas and a decimal point, scaled by the word after them (`crore` /
//! `ಕೋಟಿ`, `lakh` / `ಲಕ್ಷ`, `thousand` / `ಸಾವಿರ`, `million`, `billion`), and the small
//! numbers written as words (`three`, `ಮೂರು`, `ಮೂವರು`). So `₹800 ಕೋಟಿ` and `Rs 800 crore`
//! are one value, 8,000,000,000, and `3 killed` and `ಮೂವರು ಸಾವು` share 3.

/// A value, in hundredths (so `1.5 lakh` is exact).
pub type Value = u64;

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

/// Small numbers written as words: English, and Kannada (the number and its form for
/// people, `ಇಬ್ಬರು` two people, `ಮೂವರು` three).
fn word_value(w: &str) -> Option<u64> {
    const EN: [&str; 21] = [
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
    if let Some(n) = EN.iter().position(|x| *x == w) {
        // "one" is mostly "one of", not a count.
        return (n != 1).then_some(n as u64);
    }
    Some(match w {
        "ಎರಡು" | "ಇಬ್ಬರು" | "ಇಬ್ಬರ" => 2,
        "ಮೂರು" | "ಮೂವರು" | "ಮೂವರ" => 3,
        "ನಾಲ್ಕು" | "ನಾಲ್ವರು" | "ನಾಲ್ವರ" => 4,
        "ಐದು" | "ಐವರು" | "ಐವರ" => 5,
        "ಆರು" => 6,
        "ಏಳು" => 7,
        "ಎಂಟು" => 8,
        "ಒಂಬತ್ತು" => 9,
        "ಹತ್ತು" => 10,
        "ಇಪ್ಪತ್ತು" => 20,
        _ => return None,
    })
}

/// Kannada digits as ASCII ones.
fn ascii_digit(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        '೦'..='೯' => Some((c as u32 - '೦' as u32) as u8),
        _ => None,
    }
}

/// The values a headline names, sorted, each once.
pub fn values(text: &str) -> Vec<Value> {
    let lower = text.to_lowercase().replace(['\u{200c}', '\u{200d}'], "");
    let chars: Vec<char> = lower.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    // Words after the number, to find its scale.
    let word_at = |mut k: usize| -> String {
        while k < chars.len() && (chars[k] == ' ' || chars[k] == '-') {
            k += 1;
        }
        chars[k..]
            .iter()
            .take_while(|c| c.is_alphabetic() || is_mark(**c))
            .collect()
    };
    while i < chars.len() {
        let Some(d) = ascii_digit(chars[i]) else {
            i += 1;
            continue;
        };
        // Part of a word (a code like "G20" or "4G")? Still a number; keep it.
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
        if let Some(s) = scale(&word_at(i)) {
            v *= s;
        }
        out.push((v * 100.0).round() as Value);
    }
    for w in lower.split(|c: char| !(c.is_alphanumeric() || is_mark(c))) {
        if let Some(n) = word_value(w) {
            out.push(n * 100);
        }
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

    #[test]
    fn amounts_in_either_script_are_one_value() {
        assert_eq!(values("ಐಟಿ ಪಾರ್ಕ್‌ಗೆ ₹800 ಕೋಟಿ ಹೂಡಿಕೆ"), [800_0000000 * 100]);
        assert_eq!(values("IT park draws Rs 800 crore"), [800_0000000 * 100]);
        assert_eq!(values("Rs 1,200-crore plan"), [1200_0000000 * 100]);
        assert_eq!(values("ಕ್ವಿಂಟಲ್‌ಗೆ ₹52 ಸಾವಿರ"), values("Rs 52,000 a quintal"));
        assert_eq!(values("೩ ಸಾವು"), [300]);
        assert_eq!(values("ಡಿಸೆಂಬರ್ 8ರಿಂದ ಅಧಿವೇಶನ"), [800]);
        assert_eq!(values("Three killed"), values("ಮೂವರು ಸಾವು"));
        assert_eq!(values("Rs 1.5 lakh"), [150000 * 100]);
        assert_eq!(values("One of the best"), Vec::<Value>::new());
        assert_eq!(values("BFC held 1-1"), [100]);
    }
}
