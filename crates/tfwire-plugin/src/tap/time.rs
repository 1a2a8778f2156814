//! The log's timestamps.

use std::time::SystemTime;

/// A time as RFC 3339 in UTC with microseconds (`2026-11-24T06:55:00.123456Z`), as the tap's
/// log records it. A time before 1970 is written as 1970-01-01T00:00:00.000000Z.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// let t = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661);
/// assert_eq!(tfwire_plugin::tap::rfc3339(t), "2000-02-29T01:01:01.000000Z");
/// ```
pub fn rfc3339(t: SystemTime) -> String {
    let mut s = String::with_capacity(27);
    write_rfc3339(&mut s, t);
    s
}

/// Appends `t` as [`rfc3339`] does (no heap allocation when `out` has room).
pub fn write_rfc3339(out: &mut String, t: SystemTime) {
    use core::fmt::Write as _;
    let d = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let _ = write!(
        out,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        d.subsec_micros()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rfc3339_dates() {
        let at = |s: u64, us: u32| {
            rfc3339(
                SystemTime::UNIX_EPOCH + Duration::from_secs(s) + Duration::from_micros(us.into()),
            )
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z");
        // 2000-02-29 (a leap day of a century leap year) and 2100-03-01 (2100 is not leap).
        assert_eq!(at(951_782_400 + 3661, 7), "2000-02-29T01:01:01.000007Z");
        assert_eq!(at(4_107_542_400, 999_999), "2100-03-01T00:00:00.999999Z");
    }
}
