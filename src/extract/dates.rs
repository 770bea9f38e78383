//! Publication times as newsrooms write them: RFC 822 (named and numeric zones, IST among
//! them, two-digit years, no seconds, no day name), ISO 8601 / W3C datetimes (full, compact,
//! with or without zone, date only), and asctime. A time without a zone is UTC, as feed
//! readers have always read it; a date without a time is midnight UTC. Anything else is no
//! date at all (the item is then dated by when it was first seen), never a guess.
//!
//! Publisher text is untrusted: no input makes this panic (no byte slicing off a character
//! boundary, no unchecked time arithmetic), and a time outside the years 1 to 9999 is no date,
//! so every date kept is one RFC 3339 can write and read back (`0001` to `9999`).

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};

/// Parses a feed or sitemap date.
pub fn parse(s: &str) -> Option<DateTime<Utc>> {
    let s = s.trim();
    if s.is_empty() || s.len() > 100 {
        return None;
    }
    iso8601(s).or_else(|| rfc822(s)).or_else(|| asctime(s))
}

/// Offset in minutes east of UTC for a zone name, or `None` if unknown.
fn zone_name(z: &str) -> Option<i64> {
    let h = |h: i64| Some(h * 60);
    match z {
        "ut" | "utc" | "gmt" | "z" | "wet" => h(0),
        // India Standard Time: the zone of most of the outlets this reads.
        "ist" => Some(5 * 60 + 30),
        "adt" => h(-3),
        "ast" | "at" | "edt" => h(-4),
        "est" | "et" | "cdt" => h(-5),
        "cst" | "ct" | "mdt" => h(-6),
        "mst" | "mt" | "pdt" => h(-7),
        "pst" | "pt" => h(-8),
        "bst" | "cet" | "met" => h(1),
        "cest" | "mest" | "eet" => h(2),
        "eest" => h(3),
        "pkt" => h(5),
        "npt" => Some(5 * 60 + 45),
        "sgt" | "hkt" | "awst" => h(8),
        "jst" | "kst" => h(9),
        "aest" => h(10),
        // Military single letters as RFC 822 defines them (feed readers' reading).
        "a" => h(-1),
        "n" => h(1),
        "m" => h(-12),
        "y" => h(12),
        _ => None,
    }
}

/// `+0530`, `+05:30`, `-05`, `+5:30` to minutes east of UTC.
fn numeric_zone(z: &str) -> Option<i64> {
    let (sign, rest) = match z.as_bytes().first()? {
        b'+' => (1, &z[1..]),
        b'-' => (-1, &z[1..]),
        _ => return None,
    };
    // Digits and a colon only: anything else is no zone (and the byte offsets below are
    // then character boundaries).
    if !rest.bytes().all(|b| b.is_ascii_digit() || b == b':') {
        return None;
    }
    let (h, m) = if let Some((h, m)) = rest.split_once(':') {
        (h, m)
    } else if rest.len() > 2 {
        rest.split_at(rest.len() - 2)
    } else {
        (rest, "0")
    };
    if h.is_empty() || h.len() > 2 || m.len() > 2 {
        return None;
    }
    let h: i64 = h.parse().ok()?;
    let m: i64 = m.parse().ok()?;
    if h > 23 || m > 59 {
        return None;
    }
    Some(sign * (h * 60 + m))
}

fn zone(z: &str) -> Option<i64> {
    let z = z.trim().to_ascii_lowercase();
    let z = z.strip_prefix("etc/").unwrap_or(&z);
    if z.is_empty() {
        return Some(0);
    }
    if let Some(rest) = z.strip_prefix("gmt").or_else(|| z.strip_prefix("utc")) {
        if rest.is_empty() {
            return Some(0);
        }
        return numeric_zone(rest);
    }
    numeric_zone(z).or_else(|| zone_name(z))
}

fn month(m: &str) -> Option<u32> {
    let m = m.to_ascii_lowercase();
    let names = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let p = m.get(..3)?;
    names.iter().position(|n| *n == p).map(|i| i as u32 + 1)
}

fn hms(t: &str) -> Option<(u32, u32, u32)> {
    let mut it = t.split(':');
    let h: u32 = it.next()?.parse().ok()?;
    let m: u32 = it.next().map_or(Some(0), |m| m.parse().ok())?;
    let s: u32 = it.next().map_or(Some(0), |s| {
        s.split('.').next().and_then(|s| s.parse().ok())
    })?;
    if it.next().is_some() {
        return None;
    }
    Some((h, m, s))
}

/// Years a kept date may fall in: the ones RFC 3339 writes with four digits.
const YEARS: std::ops::RangeInclusive<i32> = 1..=9999;

fn make(y: i32, mo: u32, d: u32, (h, mi, s): (u32, u32, u32), east: i64) -> Option<DateTime<Utc>> {
    let s = if s == 60 { 59 } else { s };
    if !YEARS.contains(&y) {
        return None;
    }
    let naive = NaiveDate::from_ymd_opt(y, mo, d)?.and_hms_opt(h, mi, s)?;
    let t = naive
        .and_utc()
        .checked_sub_signed(Duration::try_minutes(east)?)?;
    YEARS.contains(&t.year()).then_some(t)
}

/// RFC 822 / 2822 as feeds write it.
fn rfc822(s: &str) -> Option<DateTime<Utc>> {
    let cleaned = s.replace(',', " ");
    let mut parts: Vec<&str> = cleaned.split_whitespace().collect();
    if parts
        .first()
        .is_some_and(|p| p.len() >= 3 && !p.as_bytes()[0].is_ascii_digit() && month(p).is_none())
    {
        parts.remove(0); // the day name
    }
    if parts.len() < 3 {
        return None;
    }
    let (day, mon) = match (parts[0].parse::<u32>(), month(parts[1])) {
        (Ok(d), Some(m)) => (d, m),
        _ => match (month(parts[0]), parts[1].parse::<u32>()) {
            (Some(m), Ok(d)) => (d, m),
            _ => return None,
        },
    };
    let ytext = parts[2];
    if !ytext.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut year: i32 = ytext.parse().ok()?;
    if ytext.len() <= 2 {
        year += if year < 90 { 2000 } else { 1900 };
    }
    let time = match parts.get(3) {
        Some(t) => hms(t)?,
        None => (0, 0, 0),
    };
    let east = match parts.get(4) {
        Some(z) => zone(z).unwrap_or(0),
        None => 0,
    };
    if parts.len() > 6 {
        return None;
    }
    make(year, mon, day, time, east)
}

/// ISO 8601 and its W3C profile: `2026-11-30`, `2026-11-30T06:05Z`,
/// `2026-11-30 11:35:00+05:30`, `20261130T060500Z`, `2026-11`, `2026`.
fn iso8601(s: &str) -> Option<DateTime<Utc>> {
    let b = s.as_bytes();
    if b.len() < 4 || !b[..4].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (date, rest) = match s.find(['T', 't', ' ']) {
        Some(i) => (&s[..i], s[i + 1..].trim()),
        None => (s, ""),
    };
    let (y, mo, d) = if date.contains('-') {
        let mut it = date.splitn(3, '-');
        let y: i32 = it.next()?.parse().ok()?;
        let mo: u32 = it.next().map_or(Some(1), |m| m.parse().ok())?;
        let d: u32 = it.next().map_or(Some(1), |d| d.parse().ok())?;
        (y, mo, d)
    } else if date.len() == 8 && date.bytes().all(|c| c.is_ascii_digit()) {
        (
            date[..4].parse().ok()?,
            date[4..6].parse().ok()?,
            date[6..].parse().ok()?,
        )
    } else if date.len() == 4 {
        (date.parse().ok()?, 1, 1)
    } else {
        return None;
    };
    if date.len() < 4 || date[..4].parse::<i32>().ok()? != y {
        return None;
    }
    if rest.is_empty() {
        return make(y, mo, d, (0, 0, 0), 0);
    }
    // Split the time from its zone.
    let zi = rest.find(['Z', 'z', '+', '-', ' ']).unwrap_or(rest.len());
    let (time, z) = rest.split_at(zi);
    let time = if !time.contains(':')
        && time.len() >= 4
        && time.bytes().all(|c| c.is_ascii_digit() || c == b'.')
    {
        // compact hhmmss
        let h = &time[..2];
        let m = &time[2..4];
        let sec = time.get(4..6).unwrap_or("0");
        (h.parse().ok()?, m.parse().ok()?, sec.parse().ok()?)
    } else {
        hms(time)?
    };
    let east = zone(z.trim())?;
    make(y, mo, d, time, east)
}

/// `Sun Jan  4 16:29:06 PST 2004` or `Sun Jan 4 16:29:06 2004`.
fn asctime(s: &str) -> Option<DateTime<Utc>> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    if !(5..=6).contains(&parts.len()) {
        return None;
    }
    let mon = month(parts[1])?;
    let day: u32 = parts[2].parse().ok()?;
    let time = hms(parts[3])?;
    let (east, year) = if parts.len() == 6 {
        (zone(parts[4])?, parts[5])
    } else {
        (0, parts[4])
    };
    if !year.bytes().all(|b| b.is_ascii_digit()) {
        return None; // `+0530` is a zone, not a year
    }
    make(year.parse().ok()?, mon, day, time, east)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> String {
        parse(s)
            .map(crate::time::fmt)
            .unwrap_or_else(|| "none".into())
    }

    #[test]
    fn rfc822_with_named_and_numeric_zones() {
        assert_eq!(t("Mon, 30 Nov 2026 11:35:00 +0530"), "2026-11-30T06:05:00Z");
        assert_eq!(t("Mon, 30 Nov 2026 11:35:00 IST"), "2026-11-30T06:05:00Z");
        assert_eq!(t("Mon, 30 Nov 2026 01:05:00 EST"), "2026-11-30T06:05:00Z");
        assert_eq!(t("30 Nov 2026 06:05 GMT"), "2026-11-30T06:05:00Z");
        assert_eq!(t("Mon, 30 Nov 26 06:05:00 Z"), "2026-11-30T06:05:00Z");
        assert_eq!(
            t("Monday, 30 November 2026 11:35:00 +05:30"),
            "2026-11-30T06:05:00Z"
        );
        assert_eq!(
            t("Mon, 30 Nov 2026 06:05:00 GMT+05:30"),
            "2026-11-30T00:35:00Z"
        );
        assert_eq!(t("Mon, 30 Nov 2026"), "2026-11-30T00:00:00Z");
        assert_eq!(t("Nov 30 2026 06:05:00 GMT"), "2026-11-30T06:05:00Z");
    }

    #[test]
    fn iso8601_and_w3c_forms() {
        assert_eq!(t("2026-11-30T11:35:00+05:30"), "2026-11-30T06:05:00Z");
        assert_eq!(t("2026-11-30T06:05:00.123Z"), "2026-11-30T06:05:00Z");
        assert_eq!(t("2026-11-30T11:35+05:30"), "2026-11-30T06:05:00Z");
        assert_eq!(t("2026-11-30 11:35:00 +0530"), "2026-11-30T06:05:00Z");
        assert_eq!(t("2026-11-30T06:05:00"), "2026-11-30T06:05:00Z");
        assert_eq!(t("20261130T060500Z"), "2026-11-30T06:05:00Z");
        assert_eq!(t("2026-11-30"), "2026-11-30T00:00:00Z");
        assert_eq!(t("2026-11"), "2026-11-01T00:00:00Z");
    }

    #[test]
    fn asctime_and_nonsense() {
        assert_eq!(t("Mon Nov 30 06:05:00 2026"), "2026-11-30T06:05:00Z");
        assert_eq!(t("yesterday"), "none");
        assert_eq!(t("2026-13-45"), "none");
        assert_eq!(t("31 Feb 2026 10:00:00 GMT"), "none");
        assert_eq!(t(""), "none");
    }

    #[test]
    fn a_zone_of_a_sign_and_a_multibyte_character_is_no_zone() {
        // Once a panic: the zone was split two bytes from its end, inside the character.
        assert_eq!(t("Mon, 30 Nov 2026 06:05:00 +ಕ"), "2026-11-30T06:05:00Z");
        assert_eq!(t("Mon, 30 Nov 2026 06:05:00 -ಕನ್ನಡ"), "2026-11-30T06:05:00Z");
        assert_eq!(
            t("Mon, 30 Nov 2026 06:05:00 GMT+é1"),
            "2026-11-30T06:05:00Z"
        );
        assert_eq!(t("2026-11-30T06:05:00+ಕ"), "none");
        assert_eq!(t("Mon Nov 30 06:05:00 +ಕ 2026"), "none");
    }

    #[test]
    fn dates_at_the_ends_of_time_are_no_dates_and_never_panic() {
        // Once a panic: the zone's offset pushed the time past the last one chrono holds.
        assert_eq!(t("31 Dec 262142 23:59:59 -2359"), "none");
        assert_eq!(t("1 Jan -262143 00:00:00 +2359"), "none");
        // A year RFC 3339 cannot write would make items.jsonl unreadable to the next stage.
        assert_eq!(t("31 Dec 99999 10:00:00 GMT"), "none");
        assert_eq!(t("Fri, 31 Dec 9999 23:30:00 -0100"), "none");
        assert_eq!(t("Fri, 31 Dec 9999 23:30:00 +0100"), "9999-12-31T22:30:00Z");
        assert_eq!(t("1 Jan 0001 00:00:00 +0530"), "none");
        for s in [
            "Fri, 31 Dec 9999 23:30:00 +0100",
            "1 Jan 0001 06:00:00 +0530",
        ] {
            let text = t(s);
            assert_eq!(
                crate::time::fmt(crate::time::parse_now(&text).unwrap()),
                text
            );
        }
        assert_eq!(t("4294967295 Dec 2026 10:00:00 GMT"), "none");
        assert_eq!(t("Mon Nov 30 99:99:99 2026"), "none");
    }
}
