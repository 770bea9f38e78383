//! Kannada script in Latin letters, and the loose spelling under which a Kannada word and
//! its English spelling meet.
//!
//! [`latin`] is a fixed table (ISO 15919 without its diacritics: ā → a, ṇ → n, ś and ṣ → sh,
//! c → ch; the inherent vowel written; the anusvara as the nasal of the consonant after
//! it), so `ಬೆಂಗಳೂರು` reads `bengaluru` and `ಸಿದ್ದರಾಮಯ್ಯ` `siddaramayya`. English spellings
//! of Indian names vary (Siddaramaiah, Siddaramayya; Mysuru, Mysore; Kalaburagi,
//! Kalburgi), so both sides are then reduced by [`skeleton`] to a loose form (aspiration,
//! doubled letters, `w`/`v`, `y`/`i`, `ee`/`i` and the like made one) and compared by
//! [`meet`]: the same start, and few edits apart once Kannada's case endings (`-nalli`,
//! `-ge`, `-ina`) are allowed for.

/// Kannada script in Latin letters, for names that must be ASCII (an outlet page's file
/// name): ISO 15919 without its diacritics (ā → a, ṇ → n, ś and ṣ → sh, c → ch), the
/// inherent vowel written, the anusvara as the nasal of the consonant after it. Other text
/// passes through unchanged. Deterministic: the same name always gives the same letters.
pub fn latin(s: &str) -> String {
    fn consonant(c: char) -> Option<&'static str> {
        Some(match c {
            'ಕ' => "k",
            'ಖ' => "kh",
            'ಗ' => "g",
            'ಘ' => "gh",
            'ಙ' => "n",
            'ಚ' => "ch",
            'ಛ' => "chh",
            'ಜ' => "j",
            'ಝ' => "jh",
            'ಞ' => "n",
            'ಟ' => "t",
            'ಠ' => "th",
            'ಡ' => "d",
            'ಢ' => "dh",
            'ಣ' => "n",
            'ತ' => "t",
            'ಥ' => "th",
            'ದ' => "d",
            'ಧ' => "dh",
            'ನ' => "n",
            'ಪ' => "p",
            'ಫ' => "ph",
            'ಬ' => "b",
            'ಭ' => "bh",
            'ಮ' => "m",
            'ಯ' => "y",
            'ರ' | 'ಱ' => "r",
            'ಲ' | 'ಳ' | 'ೞ' => "l",
            'ವ' => "v",
            'ಶ' | 'ಷ' => "sh",
            'ಸ' => "s",
            'ಹ' => "h",
            _ => return None,
        })
    }
    fn vowel(c: char) -> Option<&'static str> {
        Some(match c {
            'ಅ' | 'ಆ' => "a",
            'ಇ' | 'ಈ' => "i",
            'ಉ' | 'ಊ' => "u",
            'ಋ' | 'ೠ' => "ru",
            'ಌ' | 'ೡ' => "lu",
            'ಎ' | 'ಏ' => "e",
            'ಐ' => "ai",
            'ಒ' | 'ಓ' => "o",
            'ಔ' => "au",
            _ => return None,
        })
    }
    fn sign(c: char) -> Option<&'static str> {
        Some(match c {
            'ಾ' => "a",
            'ಿ' | 'ೀ' => "i",
            'ು' | 'ೂ' => "u",
            'ೃ' | 'ೄ' => "ru",
            'ೢ' | 'ೣ' => "lu",
            'ೆ' | 'ೇ' => "e",
            'ೈ' => "ai",
            'ೊ' | 'ೋ' => "o",
            'ೌ' => "au",
            _ => return None,
        })
    }
    const VIRAMA: char = '್';
    const NUKTA: char = '಼';
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if let Some(k) = consonant(c) {
            out.push_str(k);
            while chars.get(i) == Some(&NUKTA) {
                i += 1;
            }
            match chars.get(i).copied() {
                Some(VIRAMA) => i += 1,
                Some(v) if sign(v).is_some() => {
                    out.push_str(sign(v).unwrap_or_default());
                    i += 1;
                }
                _ => out.push('a'),
            }
            // Length marks (ೕ ೖ) add nothing in Latin letters.
            while matches!(chars.get(i), Some('\u{0cd5}' | '\u{0cd6}')) {
                i += 1;
            }
        } else if let Some(v) = vowel(c) {
            out.push_str(v);
        } else if c == 'ಂ' {
            // The anusvara: m before a labial or where no stop follows, else n.
            let labial = matches!(chars.get(i), Some('ಪ' | 'ಫ' | 'ಬ' | 'ಭ' | 'ಮ'));
            let stop = chars
                .get(i)
                .and_then(|n| consonant(*n))
                .is_some_and(|_| ('ಕ'..='ನ').contains(&chars[i]));
            out.push(if labial || !stop { 'm' } else { 'n' });
        } else if c == 'ಃ' {
            out.push('h');
        } else if ('೦'..='೯').contains(&c) {
            out.push(char::from(b'0' + (c as u32 - '೦' as u32) as u8));
        } else if matches!(c, '\u{200c}' | '\u{200d}' | NUKTA | VIRAMA) || sign(c).is_some() {
            // Joiners, and marks with no letter before them.
        } else {
            out.push(c);
        }
    }
    out
}

/// A word in a loose Latin spelling, for comparing a transliterated Kannada word with an
/// English one: ASCII letters only, lower case; aspiration dropped (`kh` → `k`, `bh` →
/// `b`, `sh` → `s`), `ph`/`f` → `p`, `w` → `v`, `z` → `j`, `q`/`ck` → `k`, `c` → `k`
/// (but `ch` → `c`), `x` → `ks`; `ee`/`ii` → `i`, `oo`/`ou`/`uu` → `u`, `ai` and `ay`
/// before a consonant → `i`, `au`/`ow` → `u`, a `y` after a vowel dropped; doubled letters
/// made single; a final vowel dropped (Kannada writes one where English often leaves it
/// off or writes another: `mysuru`/`mysore`), and a final `h` (`siddaramaiah`).
pub fn skeleton(word: &str) -> String {
    let w: Vec<u8> = word
        .bytes()
        .filter(u8::is_ascii_alphabetic)
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let mut out: Vec<u8> = Vec::with_capacity(w.len());
    let mut i = 0;
    let at = |i: usize| w.get(i).copied().unwrap_or(0);
    while i < w.len() {
        let (c, n) = (w[i], at(i + 1));
        let vowel = |b: u8| matches!(b, b'a' | b'e' | b'i' | b'o' | b'u');
        let (push, step): (&[u8], usize) = match (c, n) {
            (b'c', b'h') => (b"c", 2),
            (b'c', b'k') => (b"k", 2),
            (b's', b'h') => (b"s", 2),
            (b'p', b'h') => (b"p", 2),
            (b'k' | b'g' | b't' | b'd' | b'b' | b'j', b'h') => (&w[i..i + 1], 2),
            (b'e', b'e') | (b'i', b'i') => (b"i", 2),
            (b'o', b'o') | (b'o', b'u') | (b'u', b'u') => (b"u", 2),
            (b'a', b'a') => (b"a", 2),
            (b'a', b'i') => (b"i", 2),
            (b'a', b'u') => (b"u", 2),
            (b'a', b'y') if !vowel(at(i + 2)) => (b"i", 2),
            (b'o', b'w') if !vowel(at(i + 2)) => (b"u", 2),
            (b'y', _) if !vowel(n) => (b"i", 1),
            (b'y', _) if i > 0 && vowel(at(i - 1)) => (b"", 1),
            (b'c', _) => (b"k", 1),
            (b'f', _) => (b"p", 1),
            (b'w', _) => (b"v", 1),
            (b'z', _) => (b"j", 1),
            (b'q', _) => (b"k", 1),
            (b'x', _) => (b"ks", 1),
            (b'h', _) if i + 1 == w.len() => (b"", 1),
            _ => (&w[i..i + 1], 1),
        };
        for &b in push {
            if out.last() != Some(&b) {
                out.push(b);
            }
        }
        i += step;
    }
    while out.len() > 3 && matches!(out.last(), Some(b'a' | b'u' | b'e' | b'o')) {
        out.pop();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Edits (insertions, deletions, substitutions) from one string to another, for short words.
pub fn edits(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &x) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(x != y))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Whether an English word and a Kannada word (both as [`skeleton`]s) may be one name:
/// at least four letters, the first two the same, and the English one within one edit
/// (two from nine letters up) of the Kannada one or of a start of it (its case ending
/// left off).
pub fn meet(en: &str, kn: &str) -> bool {
    let (a, b) = (en.as_bytes(), kn.as_bytes());
    if a.len() < 4 || b.len() < 4 || a[..2] != b[..2] {
        return false;
    }
    let allowed = if a.len() >= 9 { 2 } else { 1 };
    // The Kannada word cut to about the English one's length: its ending left off.
    let lo = a.len().saturating_sub(1).max(4);
    let hi = (a.len() + 1).min(b.len());
    if lo > b.len() {
        return edits(a, b) <= allowed && b.len() + allowed >= a.len();
    }
    (lo..=hi).any(|n| edits(a, &b[..n]) <= allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kn(s: &str) -> String {
        skeleton(&latin(s))
    }

    #[test]
    fn kannada_names_meet_their_english_spellings() {
        for (k, e) in [
            ("ಬೆಂಗಳೂರು", "Bengaluru"),
            ("ಮೈಸೂರಿನಲ್ಲಿ", "Mysuru"),
            ("ಮೈಸೂರು", "Mysore"),
            ("ಸಿದ್ದರಾಮಯ್ಯ", "Siddaramaiah"),
            ("ಸಿದ್ಧರಾಮಯ್ಯ", "Siddaramayya"),
            ("ಮಂಗಳೂರಿನಲ್ಲಿ", "Mangaluru"),
            ("ಹುಬ್ಬಳ್ಳಿ", "Hubballi"),
            ("ಶಿವಕುಮಾರ್", "Shivakumar"),
            ("ಮೆಟ್ರೊ", "Metro"),
            ("ತುಂಗಭದ್ರಾ", "Tungabhadra"),
        ] {
            assert!(
                meet(&skeleton(e), &kn(k)),
                "{k} {} / {e} {}",
                kn(k),
                skeleton(e)
            );
        }
        for (k, e) in [
            ("ಮೈಸೂರು", "Mumbai"),
            ("ಮಂಗಳೂರು", "Mumbai"),
            ("ಬೆಳಗಾವಿ", "Bengaluru"),
            ("ಮಳೆ", "Male"),
        ] {
            assert!(
                !meet(&skeleton(e), &kn(k)),
                "{k} {} / {e} {}",
                kn(k),
                skeleton(e)
            );
        }
    }
}
