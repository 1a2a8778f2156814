//! Canonical decimal text, computed independently of the crates under test (this file is
//! also included by `tfwire-arrow`'s tests).

/// The canonical number for a decimal text: sign, no exponent, no leading zeros, no trailing
/// fractional zeros (an independent implementation, for the vectors go-cty rounds; also the
/// tfwire-arrow tests' expected decimal cells).
pub(crate) fn normalize_decimal(t: &str) -> String {
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().expect("exponent")),
        None => (t, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: String = format!("{int}{frac}");
    let point = int.len() as i64 + exp;
    let lead = digits.len() - digits.trim_start_matches('0').len();
    let digits = digits
        .trim_start_matches('0')
        .trim_end_matches('0')
        .to_owned();
    if digits.is_empty() {
        return "0".into();
    }
    let point = point - lead as i64;
    let n = digits.len() as i64;
    let body = if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point >= n {
        format!("{}{}", digits, "0".repeat((point - n) as usize))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    if neg { format!("-{body}") } else { body }
}
