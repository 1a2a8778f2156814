//! Comparing decode results and values.

use tfwire::{Error, Number, Refinements, Value, canonical};

/// A decode result in comparable form: the canonical text of the value, or the error (kind,
/// offset and path).
pub(crate) type Outcome = Result<String, Error>;

pub(crate) fn outcome(r: Result<Value<'_>, Error>) -> Outcome {
    r.map(|v| canonical::to_string(&v))
}

/// Whether `b`, read back from the JSON written for `a`, is `a` as JSON keeps it: a float
/// comes back as the decimal of the same binary64, everything else exactly.
pub(crate) fn same_json_value(a: &Value<'_>, b: &Value<'_>) -> bool {
    same_by(a, b, &|a, b| match (a, b) {
        (Value::Number(x @ (Number::F64(_) | Number::F32(_))), Value::Number(y)) => {
            Some(x.to_f64() == y.to_f64())
        }
        _ => None,
    })
}

/// Whether `b`, read back from the MessagePack written for `a`, is `a` as the encoder
/// writes it: exactly, except where go-cty's encoding itself loses something:
/// - a string prefix refinement longer than 256 bytes is shortened;
/// - a decimal `-0` is written as the integer 0 (a float64 `-0` stays one), so it comes back
///   as 0, and a set that held both `-0` and `0` (go-cty keeps them apart) comes back with
///   them merged.
pub(crate) fn same_msgpack_value(a: &Value<'_>, b: &Value<'_>) -> bool {
    same_by(a, b, &|a, b| match (a, b) {
        (Value::Unknown(x), Value::Unknown(y)) => {
            let (x, y) = (
                x.copied().unwrap_or_default(),
                y.copied().unwrap_or_default(),
            );
            Some(match (x.prefix, y.prefix) {
                (Some(p), q) if p.len() > 256 => {
                    let q = q.unwrap_or("");
                    q.len() <= 256
                        && p.starts_with(q)
                        && Refinements { prefix: None, ..x } == Refinements { prefix: None, ..y }
                }
                _ => x == y,
            })
        }
        (Value::Number(x), Value::Number(y)) => Some(x == y || (is_zero(x) && is_zero(y))),
        (Value::Set(x), Value::Set(y)) if x.len() != y.len() => {
            let found_in =
                |p: &Value<'_>, ys: &[Value<'_>]| ys.iter().any(|q| same_msgpack_value(p, q));
            Some(x.iter().all(|p| found_in(p, y)) && y.iter().all(|q| found_in(q, x)))
        }
        _ => None,
    })
}

fn is_zero(n: &Number<'_>) -> bool {
    n.cmp_exact(&Number::Int(0)).is_eq()
}

/// Structural equality, with `leaf` deciding the pairs it knows about.
fn same_by(
    a: &Value<'_>,
    b: &Value<'_>,
    leaf: &impl Fn(&Value<'_>, &Value<'_>) -> Option<bool>,
) -> bool {
    if let Some(same) = leaf(a, b) {
        return same;
    }
    let seq = |x: &[Value<'_>], y: &[Value<'_>]| {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_by(p, q, leaf))
    };
    let entries = |x: &[(&str, Value<'_>)], y: &[(&str, Value<'_>)]| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|((k, p), (l, q))| k == l && same_by(p, q, leaf))
    };
    match (*a, *b) {
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::List(x), Value::List(y))
        | (Value::Set(x), Value::Set(y))
        | (Value::Tuple(x), Value::Tuple(y)) => seq(x, y),
        (Value::Map(x), Value::Map(y)) | (Value::Object(x), Value::Object(y)) => entries(x, y),
        (Value::Dynamic(x), Value::Dynamic(y)) => x.ty == y.ty && same_by(&x.value, &y.value, leaf),
        (x, y) => x == y,
    }
}

/// Whether JSON can hold `v`: no unknown value and no infinity anywhere in it.
pub(crate) fn json_can_hold(v: &Value<'_>) -> bool {
    match *v {
        Value::Unknown(_) => false,
        Value::Number(Number::F64(f)) => f.is_finite(),
        Value::Number(Number::F32(f)) => f.is_finite(),
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => xs.iter().all(json_can_hold),
        Value::Map(es) | Value::Object(es) => es.iter().all(|(_, x)| json_can_hold(x)),
        Value::Dynamic(d) => json_can_hold(&d.value),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
    }
}
