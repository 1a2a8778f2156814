//! Format versions: which documents this crate reads.
//!
//! Terraform's JSON output promises that minor versions only add properties, and asks
//! readers to reject an unsupported *major* version. This crate reads every `0.x` and `1.x`
//! `format_version` (plans, `show -json` states, and `prior_state` inside plans; also the
//! `plan_format_version` of Terraform Cloud's redacted plans) and rejects `2.0` and above.
//! Raw state files (`.tfstate`) are read at `version` 4 and the legacy version 3.

use crate::error::{Error, ErrorKind};
use core::fmt;

/// The highest major `format_version` this crate reads.
pub const MAX_FORMAT_MAJOR: u64 = 1;

/// A `MAJOR.MINOR` format version, as in `"format_version": "1.2"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FormatVersion {
    /// Incremented for incompatible changes.
    pub major: u64,
    /// Incremented for additions.
    pub minor: u64,
}

impl FormatVersion {
    /// Parses `MAJOR.MINOR`, the form the JSON output format document gives
    /// (`"1.0"`, `"1.1"`, `"2.0"`): two decimal numbers without leading zeros (`0` itself
    /// excepted), a point between them, nothing else, no spaces. `"1"`, `"1.2.3"`, `"01.2"`,
    /// `"1.2 "` and `"v1.2"` are not format versions.
    ///
    /// ```
    /// use tfwire_plan::FormatVersion;
    /// assert_eq!(FormatVersion::parse("1.2"), Some(FormatVersion { major: 1, minor: 2 }));
    /// for bad in ["v1", "1", "1.2.3", "01.2", "1.02", "1.2 ", " 1.2", "1.", ".2", "+1.2"] {
    ///     assert_eq!(FormatVersion::parse(bad), None, "{bad}");
    /// }
    /// ```
    pub fn parse(s: &str) -> Option<FormatVersion> {
        let (major, minor) = s.split_once('.')?;
        let num = |p: &str| -> Option<u64> {
            let digits = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
            let leading_zero = p.len() > 1 && p.starts_with('0');
            (digits && !leading_zero).then(|| p.parse().ok()).flatten()
        };
        Some(FormatVersion {
            major: num(major)?,
            minor: num(minor)?,
        })
    }

    /// Whether this crate reads documents of this version.
    pub fn is_supported(&self) -> bool {
        self.major <= MAX_FORMAT_MAJOR
    }
}

impl fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Parses and checks a format version property.
pub(crate) fn check(property: &'static str, s: &str) -> Result<FormatVersion, Error> {
    let v = FormatVersion::parse(s).ok_or_else(|| {
        Error::new(ErrorKind::InvalidVersion {
            property,
            found: s.to_string(),
        })
    })?;
    if !v.is_supported() {
        return Err(Error::new(ErrorKind::UnsupportedVersion {
            property,
            found: s.to_string(),
            supported: "format versions 0.x and 1.x",
        }));
    }
    Ok(v)
}
