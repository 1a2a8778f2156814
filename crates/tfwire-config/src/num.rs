//! Arithmetic on constant numbers as go-cty does it: sums, differences, products and
//! quotients in 512-bit binary floats ([`crate::bigfloat`]), remainders of decimals of up to
//! 38 digits exactly. What falls outside (a zero divisor, operands beyond those bounds) is
//! left unevaluated: the expression is written without its `constant_value`.

use crate::bigfloat::Float;
use core::cmp::Ordering;

/// A decimal: `mant / 10^scale`, with the sign of a zero kept (`-0`).
#[derive(Clone, Copy, Debug)]
struct Dec {
    mant: i128,
    scale: u32,
    neg_zero: bool,
}

/// The most fractional digits a remainder's operands may have.
const MAX_SCALE: u32 = 30;

impl Dec {
    fn parse(text: &str) -> Option<Dec> {
        if text == "-0" {
            return Some(Dec {
                mant: 0,
                scale: 0,
                neg_zero: true,
            });
        }
        let (neg, digits) = match text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, text),
        };
        if digits.contains(['e', 'E']) {
            return None;
        }
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let scale = u32::try_from(frac.len()).ok()?;
        if scale > MAX_SCALE || int.len() + frac.len() > 38 {
            return None;
        }
        let mut mant: i128 = 0;
        for c in int.chars().chain(frac.chars()) {
            mant = mant
                .checked_mul(10)?
                .checked_add(i128::from(c.to_digit(10)?))?;
        }
        Some(Dec {
            mant: if neg { -mant } else { mant },
            scale,
            neg_zero: false,
        })
    }

    fn is_neg(&self) -> bool {
        self.mant < 0 || self.neg_zero
    }

    /// Both operands at the same scale.
    fn align(a: Dec, b: Dec) -> Option<(i128, i128, u32)> {
        let scale = a.scale.max(b.scale);
        let am = a.mant.checked_mul(10i128.checked_pow(scale - a.scale)?)?;
        let bm = b.mant.checked_mul(10i128.checked_pow(scale - b.scale)?)?;
        Some((am, bm, scale))
    }

    fn text(&self) -> String {
        if self.mant == 0 {
            return if self.neg_zero {
                "-0".into()
            } else {
                "0".into()
            };
        }
        let neg = self.mant < 0;
        let digits = self.mant.unsigned_abs().to_string();
        let scale = self.scale as usize;
        let (int, frac) = if digits.len() > scale {
            let (i, f) = digits.split_at(digits.len() - scale);
            (i.to_owned(), f.to_owned())
        } else {
            (
                "0".to_owned(),
                format!("{}{digits}", "0".repeat(scale - digits.len())),
            )
        };
        let frac = frac.trim_end_matches('0');
        let sign = if neg { "-" } else { "" };
        if frac.is_empty() {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}.{frac}")
        }
    }
}

/// An arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// `a op b` on canonical number texts; `None` where the result is not reproduced (division
/// by zero, operands beyond the bounds of [`crate::bigfloat`]).
pub(crate) fn arith(op: Op, a: &str, b: &str) -> Option<String> {
    if op == Op::Mod {
        return modulo(a, b);
    }
    let x = Float::parse(a)?;
    let y = Float::parse(b)?;
    if op == Op::Div && y.is_zero() {
        // An infinity (0 / 0 fails): it compares, but JSON cannot hold it.
        if x.is_zero() {
            return None;
        }
        return Some(
            if x.is_neg() != y.is_neg() {
                "-Inf"
            } else {
                "+Inf"
            }
            .into(),
        );
    }
    let r = match op {
        Op::Add => x.add(&y, false)?,
        Op::Sub => x.add(&y, true)?,
        Op::Mul => x.mul(&y)?,
        _ => x.div(&y)?,
    };
    Some(r.text())
}

/// The remainder of a truncated division, on decimals of up to 38 digits.
fn modulo(a: &str, b: &str) -> Option<String> {
    let x = Dec::parse(a)?;
    let y = Dec::parse(b)?;
    if y.mant == 0 {
        return None;
    }
    let (am, bm, scale) = Dec::align(x, y)?;
    let mant = am % bm;
    Some(
        Dec {
            mant,
            scale,
            neg_zero: mant == 0 && x.is_neg(),
        }
        .text(),
    )
}

/// Compares two canonical number texts.
pub(crate) fn compare(a: &str, b: &str) -> Option<Ordering> {
    let x = tfwire::Number::parse(a).ok()?;
    let y = tfwire::Number::parse(b).ok()?;
    Some(x.cmp_exact(&y))
}
