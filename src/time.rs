//! Time as the pipeline sees it: a `--now` given on the command line, in UTC.
//!
//! Stages never read the clock on their own when `--now` is given, so a test or a replay
//! controls time completely. Days and hours are UTC and name the data directories.

use anyhow::{Context, Result};
use chrono::{DateTime, Duration, SecondsFormat, Utc};

/// Parses an RFC 3339 time (any offset) into UTC.
pub fn parse_now(s: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s.trim())
        .map(|t| t.with_timezone(&Utc))
        .with_context(|| {
            format!("--now {s:?} is not an RFC 3339 time such as 2026-11-30T06:05:00Z")
        })
}

/// The earliest time a stage acts at (`--now` or the clock): earlier is a clock that is wrong.
pub const EARLIEST: &str = "2020-01-01T00:00:00Z";
/// The first time a stage no longer acts at: later is a clock that is wrong, and every hold
/// computed from it would keep a source waiting for a lifetime.
pub const LATEST: &str = "2100-01-01T00:00:00Z";

/// Checks that a time to act at is in the sane range [[`EARLIEST`], [`LATEST`]).
pub fn check_sane(t: DateTime<Utc>, what: &str) -> Result<DateTime<Utc>> {
    let lo = parse_now(EARLIEST)?;
    let hi = parse_now(LATEST)?;
    if t < lo || t >= hi {
        anyhow::bail!(
            "{what} {} is outside {EARLIEST} .. {LATEST}: refusing to act at a time the clock cannot mean (check the system clock or --now)",
            fmt(t)
        );
    }
    Ok(t)
}

/// The clock, truncated to whole seconds (what `--now` defaults to).
pub fn clock() -> DateTime<Utc> {
    let now = Utc::now();
    DateTime::from_timestamp(now.timestamp(), 0).unwrap_or(now)
}

/// RFC 3339 in UTC with a `Z` and whole seconds: the one way times are written in records.
pub fn fmt(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// `YYYY-MM-DD` of a UTC time.
pub fn day(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d").to_string()
}

/// `HH` of a UTC time.
pub fn hour(t: DateTime<Utc>) -> String {
    t.format("%H").to_string()
}

/// Parses `YYYY-MM-DD` into midnight UTC of that day.
pub fn parse_day(s: &str) -> Result<DateTime<Utc>> {
    let d = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .with_context(|| format!("{s:?} is not a day such as 2026-11-30"))?;
    Ok(d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc())
}

/// Serde helpers for `DateTime<Utc>` written as [`fmt`] does.
pub mod rfc3339 {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::fmt(*t))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let s = String::deserialize(d)?;
        super::parse_now(&s).map_err(serde::de::Error::custom)
    }

    /// The same for `Option<DateTime<Utc>>`.
    pub mod option {
        use chrono::{DateTime, Utc};
        use serde::{Deserialize, Deserializer, Serializer};
        pub fn serialize<S: Serializer>(
            t: &Option<DateTime<Utc>>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match t {
                Some(t) => s.serialize_str(&crate::time::fmt(*t)),
                None => s.serialize_none(),
            }
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<DateTime<Utc>>, D::Error> {
            match Option::<String>::deserialize(d)? {
                Some(s) => crate::time::parse_now(&s)
                    .map(Some)
                    .map_err(serde::de::Error::custom),
                None => Ok(None),
            }
        }
    }
}

/// Whole days between two times (floor), for ages of headlines.
pub fn age_days(from: DateTime<Utc>, to: DateTime<Utc>) -> i64 {
    (to - from)
        .num_seconds()
        .div_euclid(Duration::days(1).num_seconds())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_accepts_offsets_and_writes_utc() {
        let t = parse_now("2026-11-30T11:35:00+05:30").unwrap();
        assert_eq!(fmt(t), "2026-11-30T06:05:00Z");
        assert_eq!(day(t), "2026-11-30");
        assert_eq!(hour(t), "06");
    }

    #[test]
    fn bad_now_names_the_expected_form() {
        let e = parse_now("yesterday").unwrap_err();
        assert!(format!("{e:#}").contains("RFC 3339"));
    }

    #[test]
    fn ages_are_floored_days() {
        let a = parse_now("2026-11-28T06:00:00Z").unwrap();
        assert_eq!(age_days(a, parse_now("2026-11-30T05:59:59Z").unwrap()), 1);
        assert_eq!(age_days(a, parse_now("2026-11-30T06:00:00Z").unwrap()), 2);
    }
}
