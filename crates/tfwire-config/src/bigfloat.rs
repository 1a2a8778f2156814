//! go-cty's numbers for constant arithmetic: binary floats with a 512-bit mantissa, rounded
//! to nearest even after each operation (as Go's `math/big.Float` with precision 512, what
//! `cty.ParseNumberVal` makes of a literal), written as the shortest decimal that identifies
//! them (`Text('f', -1)`).

use core::cmp::Ordering;

/// The mantissa bits.
const PREC: u64 = 512;

/// The most digits an operand may have (a 512-bit float has about 155 significant digits).
const MAX_DIGITS: usize = 400;

/// The most bits an intermediate value may shift by (bounds the work on hostile exponents).
const MAX_SHIFT: u64 = 1 << 14;

/// An unsigned integer: little-endian 64-bit limbs, no high zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u64>);

impl Big {
    fn zero() -> Big {
        Big(Vec::new())
    }
    fn small(n: u64) -> Big {
        let mut b = Big(vec![n]);
        b.trim();
        b
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() as u64) * 64 - u64::from(top.leading_zeros()),
        }
    }
    fn bit(&self, i: u64) -> bool {
        let limb = (i / 64) as usize;
        limb < self.0.len() && (self.0[limb] >> (i % 64)) & 1 == 1
    }
    fn shl(&self, n: u64) -> Big {
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut out = vec![0u64; limbs];
        let mut carry = 0u64;
        for &l in &self.0 {
            if bits == 0 {
                out.push(l);
            } else {
                out.push((l << bits) | carry);
                carry = l >> (64 - bits);
            }
        }
        if carry != 0 {
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    /// `self = self × 2 + low`.
    fn shl1_in_place(&mut self, low: bool) {
        let mut carry = u64::from(low);
        for l in &mut self.0 {
            let next = *l >> 63;
            *l = (*l << 1) | carry;
            carry = next;
        }
        if carry != 0 {
            self.0.push(carry);
        }
    }
    fn cmp(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
    fn add(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()) + 1);
        let mut carry = 0u128;
        for i in 0..self.0.len().max(o.0.len()) {
            let s = u128::from(*self.0.get(i).unwrap_or(&0))
                + u128::from(*o.0.get(i).unwrap_or(&0))
                + carry;
            out.push(s as u64);
            carry = s >> 64;
        }
        out.push(carry as u64);
        let mut b = Big(out);
        b.trim();
        b
    }
    /// `self - o`, for `self >= o`.
    fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i128;
        for i in 0..self.0.len() {
            let mut d = i128::from(self.0[i]) - i128::from(*o.0.get(i).unwrap_or(&0)) - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 64;
                borrow = 1;
            }
            out.push(d as u64);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn mul(&self, o: &Big) -> Big {
        let mut out = vec![0u64; self.0.len() + o.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in o.0.iter().enumerate() {
                let t = u128::from(a) * u128::from(b) + u128::from(out[i + j]) + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            let mut k = i + o.0.len();
            while carry != 0 {
                let t = u128::from(out[k]) + carry;
                out[k] = t as u64;
                carry = t >> 64;
                k += 1;
            }
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    /// Quotient and remainder, bit by bit (the operands here are a few hundred bits).
    fn divrem(&self, d: &Big) -> (Big, Big) {
        let mut q = Big(vec![0u64; self.0.len()]);
        let mut r = Big::zero();
        for i in (0..self.bits()).rev() {
            r.shl1_in_place(self.bit(i));
            if r.cmp(d) != Ordering::Less {
                r = r.sub(d);
                q.0[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        q.trim();
        (q, r)
    }
    fn pow(base: u64, n: u64) -> Big {
        let mut out = Big::small(1);
        let b = Big::small(base);
        for _ in 0..n {
            out = out.mul(&b);
        }
        out
    }
    /// Quotient and remainder by a small divisor, limb by limb.
    fn divrem_small(&self, d: u64) -> (Big, u64) {
        let mut q = vec![0u64; self.0.len()];
        let mut r = 0u128;
        for i in (0..self.0.len()).rev() {
            let cur = (r << 64) | u128::from(self.0[i]);
            q[i] = (cur / u128::from(d)) as u64;
            r = cur % u128::from(d);
        }
        let mut b = Big(q);
        b.trim();
        (b, r as u64)
    }
    fn decimal(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let mut parts = Vec::new();
        let mut n = self.clone();
        while !n.is_zero() {
            let (q, r) = n.divrem_small(10_000_000_000_000_000_000);
            parts.push(r);
            n = q;
        }
        let mut s = parts.pop().unwrap_or(0).to_string();
        for p in parts.iter().rev() {
            s.push_str(&format!("{p:019}"));
        }
        s
    }
}

/// A number: `(-1)^neg × mant × 2^exp`, `mant` of exactly [`PREC`] bits (or zero).
#[derive(Clone, Debug)]
pub(crate) struct Float {
    neg: bool,
    mant: Big,
    exp: i64,
}

impl Float {
    /// `num / den × 2^exp`, rounded to [`PREC`] bits, nearest even.
    fn round(neg: bool, num: &Big, den: &Big, exp: i64) -> Option<Float> {
        if num.is_zero() {
            return Some(Float {
                neg,
                mant: Big::zero(),
                exp: 0,
            });
        }
        let mut s = PREC as i64 - (num.bits() as i64 - den.bits() as i64);
        loop {
            if s.unsigned_abs() > MAX_SHIFT {
                return None;
            }
            let (n, d) = if s >= 0 {
                (num.shl(s as u64), den.clone())
            } else {
                (num.clone(), den.shl((-s) as u64))
            };
            let (mut q, r) = n.divrem(&d);
            match q.bits().cmp(&PREC) {
                Ordering::Greater => s -= 1,
                Ordering::Less => s += 1,
                Ordering::Equal => {
                    let twice = r.shl(1);
                    let up = match twice.cmp(&d) {
                        Ordering::Greater => true,
                        Ordering::Equal => q.bit(0),
                        Ordering::Less => false,
                    };
                    let mut e = exp - s;
                    if up {
                        q = q.add(&Big::small(1));
                        if q.bits() > PREC {
                            q = q.divrem_small(2).0;
                            e += 1;
                        }
                    }
                    return Some(Float {
                        neg,
                        mant: q,
                        exp: e,
                    });
                }
            }
        }
    }

    /// A canonical decimal text (`-12.5`, `0`, `-0`), as `ParseNumberVal` reads it.
    pub(crate) fn parse(text: &str) -> Option<Float> {
        let (neg, digits) = match text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, text),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if int.is_empty() || !(int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())) {
            return None;
        }
        if int.len() + frac.len() > MAX_DIGITS {
            return None;
        }
        let mut n = Big::zero();
        let ten = Big::small(10);
        for b in int.bytes().chain(frac.bytes()) {
            n = n.mul(&ten).add(&Big::small(u64::from(b - b'0')));
        }
        Float::round(neg, &n, &Big::pow(10, frac.len() as u64), 0)
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.mant.is_zero()
    }

    pub(crate) fn is_neg(&self) -> bool {
        self.neg
    }

    /// `self + o` (or `self - o` with `negate_o`).
    pub(crate) fn add(&self, o: &Float, negate_o: bool) -> Option<Float> {
        let oneg = o.neg != negate_o;
        if self.is_zero() && o.is_zero() {
            return Some(Float {
                neg: self.neg && oneg,
                mant: Big::zero(),
                exp: 0,
            });
        }
        if self.is_zero() {
            return Some(Float {
                neg: oneg,
                ..o.clone()
            });
        }
        if o.is_zero() {
            return Some(self.clone());
        }
        let e = self.exp.min(o.exp);
        let a = self.mant.shl(
            u64::try_from(self.exp - e)
                .ok()
                .filter(|s| *s <= MAX_SHIFT)?,
        );
        let b = o
            .mant
            .shl(u64::try_from(o.exp - e).ok().filter(|s| *s <= MAX_SHIFT)?);
        let (neg, n) = if self.neg == oneg {
            (self.neg, a.add(&b))
        } else {
            match a.cmp(&b) {
                Ordering::Greater => (self.neg, a.sub(&b)),
                Ordering::Less => (oneg, b.sub(&a)),
                Ordering::Equal => (false, Big::zero()),
            }
        };
        Float::round(neg, &n, &Big::small(1), e)
    }

    pub(crate) fn mul(&self, o: &Float) -> Option<Float> {
        let neg = self.neg != o.neg;
        Float::round(
            neg,
            &self.mant.mul(&o.mant),
            &Big::small(1),
            self.exp + o.exp,
        )
    }

    /// `self / o`; `None` for a zero divisor (an infinity, which JSON cannot hold).
    pub(crate) fn div(&self, o: &Float) -> Option<Float> {
        if o.is_zero() {
            return None;
        }
        let neg = self.neg != o.neg;
        Float::round(neg, &self.mant, &o.mant, self.exp - o.exp)
    }

    /// The shortest decimal that rounds back to this number (Go's `Text('f', -1)`).
    pub(crate) fn text(&self) -> String {
        let sign = if self.neg { "-" } else { "" };
        if self.is_zero() {
            return format!("{sign}0");
        }
        // The exact value, and the bounds half an ulp either side, as decimal digits with
        // the position of the decimal point.
        let mant2 = self.mant.shl(1);
        let exp2 = self.exp - 1;
        let (digits, point) = exact_decimal(&mant2, exp2);
        let (lower, _) = exact_decimal(&mant2.sub(&Big::small(1)), exp2);
        let (upper, _) = exact_decimal(&mant2.add(&Big::small(1)), exp2);
        let inclusive = !self.mant.bit(0);
        let d = digits.as_bytes();
        let (l, u) = (lower.as_bytes(), upper.as_bytes());
        let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(b'0');
        let mut out: Vec<u8> = d.to_vec();
        let mut point = point;
        for i in 0..d.len() {
            let m = d[i];
            let li = at(l, i);
            let ui = at(u, i);
            let okdown = li != m || inclusive && i + 1 == l.len();
            let okup = m != ui && (inclusive || m + 1 < ui || i + 1 < u.len());
            let n = i + 1;
            let round_up = match (okdown, okup) {
                (true, true) => Some(should_round_up(d, n)),
                (true, false) => Some(false),
                (false, true) => Some(true),
                (false, false) => None,
            };
            if let Some(up) = round_up {
                out.truncate(n);
                if up {
                    point += round_up_digits(&mut out);
                }
                break;
            }
        }
        while out.last() == Some(&b'0') {
            out.pop();
        }
        format!("{sign}{}", format_f(&out, point))
    }
}

/// Go's `decimal.shouldRoundUp`: half rounds to even.
fn should_round_up(d: &[u8], n: usize) -> bool {
    if d.get(n) == Some(&b'5') && n + 1 == d.len() {
        return n > 0 && (d[n - 1] - b'0') % 2 == 1;
    }
    d.get(n).is_some_and(|&c| c >= b'5')
}

/// Adds one at the last digit; returns 1 when a new leading digit appears.
fn round_up_digits(out: &mut Vec<u8>) -> i64 {
    for i in (0..out.len()).rev() {
        if out[i] < b'9' {
            out[i] += 1;
            out.truncate(i + 1);
            return 0;
        }
    }
    out.clear();
    out.push(b'1');
    1
}

/// `mant × 2^exp` as its decimal digits (no leading zeros) and the position of the decimal
/// point (value = 0.DIGITS × 10^point).
fn exact_decimal(mant: &Big, exp: i64) -> (String, i64) {
    let (n, frac_digits) = if exp >= 0 {
        (mant.shl(exp as u64), 0i64)
    } else {
        (mant.mul(&Big::pow(5, exp.unsigned_abs())), -exp)
    };
    let s = n.decimal();
    let point = s.len() as i64 - frac_digits;
    let s = s.trim_end_matches('0').to_owned();
    (s, point)
}

/// Digits with the decimal point at `point`, as `%f` writes them.
fn format_f(digits: &[u8], point: i64) -> String {
    let d = core::str::from_utf8(digits).unwrap_or("0");
    if d.is_empty() {
        return "0".into();
    }
    if point <= 0 {
        format!("0.{}{d}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= d.len() {
        format!("{d}{}", "0".repeat(point as usize - d.len()))
    } else {
        let (i, f) = d.split_at(point as usize);
        format!("{i}.{f}")
    }
}
