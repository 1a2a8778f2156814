//! Finishing collections: set deduplication, map ordering, and the element-type unification
//! of collections whose element type contains `dynamic`.

use super::fault::Fault;
use super::shape::{Cur, Shape};
use crate::error::ErrorKind;
use crate::program::Program;
use crate::ty::{AttrTy, Ty};
use crate::value::{Dynamic, Value};
use bumpalo::Bump;
use core::cmp::Ordering;
use smallvec::SmallVec;

/// Sets at most this large are deduplicated by comparing every pair; larger ones by sorting.
const SMALL_SET: usize = 16;

/// Removes duplicate elements from `vals[base..]` as go-cty's sets do, keeping the first
/// of equal elements and the order of the rest. Returns the number of elements kept.
///
/// Equality is go-cty's: elements holding an unknown anywhere are never equal to anything;
/// nulls are equal; numbers compare with [`crate::Number::cty_eq`] (except that `-0` and `0`
/// stay apart, as in go-cty, whose set hashes tell them apart); strings bytewise after NFC.
pub(crate) fn dedup_set(vals: &mut [Value<'_>], base: usize, scratch: &mut Vec<u32>) -> usize {
    let elems = &mut vals[base..];
    let n = elems.len();
    if n < 2 {
        return n;
    }
    if n <= SMALL_SET {
        // Every element against the ones kept before it. Whether an element is wholly known
        // is found once (bit `i` of `known` for kept element `i`), not once per pair.
        let mut known = 0u32;
        let mut keep = 0;
        for r in 0..n {
            let x = elems[r];
            let x_known = x.is_wholly_known();
            let dup =
                x_known && (0..keep).any(|j| known & (1 << j) != 0 && known_eq(&elems[j], &x));
            if !dup {
                elems[keep] = x;
                known |= u32::from(x_known) << keep;
                keep += 1;
            }
        }
        return keep;
    }
    // Sort the indices of comparable elements, then mark all but the first of each run of
    // equal ones. Layout of `scratch`: `n` drop flags, then the sorted indices.
    scratch.clear();
    scratch.resize(n, 0);
    scratch.extend((0..n as u32).filter(|&i| elems[i as usize].is_wholly_known()));
    let (drop, sorted) = scratch.split_at_mut(n);
    sorted
        .sort_unstable_by(|&a, &b| cty_cmp(&elems[a as usize], &elems[b as usize]).then(a.cmp(&b)));
    let mut run_start = 0;
    for k in 1..sorted.len() {
        let (a, b) = (sorted[run_start] as usize, sorted[k] as usize);
        if cty_cmp(&elems[a], &elems[b]) == Ordering::Equal {
            drop[b] = 1;
        } else {
            run_start = k;
        }
    }
    let mut w = 0;
    for r in 0..n {
        if drop[r] == 0 {
            elems[w] = elems[r];
            w += 1;
        }
    }
    w
}

/// [`dedup_set`] for a set whose elements are all strings or nulls (a set of strings read
/// from JSON): equality is then `==` (strings already in NFC, nulls equal), so a small set
/// is deduplicated by comparing each element with the ones kept before it, without
/// go-cty's general comparison.
pub(crate) fn dedup_strings(elems: &mut [Value<'_>], scratch: &mut Vec<u32>) -> usize {
    debug_assert!(
        elems
            .iter()
            .all(|v| matches!(v, Value::String(_) | Value::Null))
    );
    let n = elems.len();
    if n > SMALL_SET {
        return dedup_set(elems, 0, scratch);
    }
    let mut keep = 0;
    for r in 0..n {
        let x = elems[r];
        let dup = elems[..keep].iter().any(|y| match (x, y) {
            (Value::String(a), Value::String(b)) => {
                crate::text::eq_short(a.as_bytes(), b.as_bytes())
            }
            (Value::Null, Value::Null) => true,
            _ => false,
        });
        if !dup {
            elems[keep] = x;
            keep += 1;
        }
    }
    keep
}

/// The first pair of equal elements of a set (by go-cty's set equality), as indices: a
/// [`Value::Set`] built by hand may hold duplicates that no go-cty set can.
pub(crate) fn first_duplicate(elems: &[Value<'_>]) -> Option<(usize, usize)> {
    let n = elems.len();
    if n <= SMALL_SET {
        return (1..n).find_map(|j| {
            (0..j)
                .find(|&i| set_eq(&elems[i], &elems[j]))
                .map(|i| (i, j))
        });
    }
    let mut sorted: Vec<usize> = (0..n).filter(|&i| elems[i].is_wholly_known()).collect();
    sorted.sort_unstable_by(|&a, &b| cty_cmp(&elems[a], &elems[b]).then(a.cmp(&b)));
    sorted
        .windows(2)
        .filter(|w| cty_cmp(&elems[w[0]], &elems[w[1]]) == Ordering::Equal)
        .map(|w| (w[0], w[1]))
        .min_by_key(|&(_, j)| j)
}

/// go-cty set equality of two elements.
fn set_eq(a: &Value<'_>, b: &Value<'_>) -> bool {
    a.is_wholly_known() && b.is_wholly_known() && known_eq(a, b)
}

/// go-cty set equality of two wholly known elements: [`cty_cmp`], with the commonest
/// elements (strings, bools, and numbers of one machine kind) compared directly.
#[inline]
fn known_eq(a: &Value<'_>, b: &Value<'_>) -> bool {
    use crate::Number::{F64, Int, Uint};
    match (a, b) {
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(Int(x)), Value::Number(Int(y))) => x == y,
        (Value::Number(Uint(x)), Value::Number(Uint(y))) => x == y,
        // Neither is NaN (the decoders reject it); `-0` and `0` stay apart, as in `cty_cmp`.
        (Value::Number(F64(x)), Value::Number(F64(y))) => x.to_bits() == y.to_bits(),
        (Value::Number(x), Value::Number(y)) => {
            // Equal numbers have the same nearest float: floats that differ (neither NaN)
            // settle it without the exact comparison, which writes decimal digits.
            let (f, g) = (x.to_f64(), y.to_f64());
            if f != g && !f.is_nan() && !g.is_nan() {
                return false;
            }
            cty_cmp(a, b) == Ordering::Equal
        }
        _ => cty_cmp(a, b) == Ordering::Equal,
    }
}

fn rank(v: &Value<'_>) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::List(_) => 4,
        Value::Set(_) => 5,
        Value::Map(_) => 6,
        Value::Object(_) => 7,
        Value::Tuple(_) => 8,
        Value::Dynamic(_) => 9,
        Value::Unknown(_) => 10,
    }
}

/// A total order on wholly known values, consistent with go-cty's equality.
pub(crate) fn cty_cmp(a: &Value<'_>, b: &Value<'_>) -> Ordering {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => x
            .cty_cmp(y)
            .then_with(|| negative_zero(x).cmp(&negative_zero(y))),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            x.len().cmp(&y.len()).then_with(|| {
                x.iter()
                    .zip(y.iter())
                    .map(|(p, q)| cty_cmp(p, q))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
        }
        (Value::Set(x), Value::Set(y)) => x.len().cmp(&y.len()).then_with(|| {
            // Sets compare as sorted sequences.
            let mut xs: Vec<&Value<'_>> = x.iter().collect();
            let mut ys: Vec<&Value<'_>> = y.iter().collect();
            xs.sort_by(|p, q| cty_cmp(p, q));
            ys.sort_by(|p, q| cty_cmp(p, q));
            xs.iter()
                .zip(ys.iter())
                .map(|(p, q)| cty_cmp(p, q))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        }),
        (Value::Map(x), Value::Map(y)) | (Value::Object(x), Value::Object(y)) => {
            x.len().cmp(&y.len()).then_with(|| {
                x.iter()
                    .zip(y.iter())
                    .map(|((kp, p), (kq, q))| {
                        kp.as_bytes().cmp(kq.as_bytes()).then_with(|| cty_cmp(p, q))
                    })
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
        }
        (Value::Dynamic(x), Value::Dynamic(y)) => cty_cmp(&x.value, &y.value),
        (Value::Dynamic(x), y) => cty_cmp(&x.value, y),
        (x, Value::Dynamic(y)) => cty_cmp(x, &y.value),
        _ => rank(a).cmp(&rank(b)),
    }
}

fn negative_zero(n: &crate::Number<'_>) -> bool {
    match *n {
        crate::Number::F64(f) => f == 0.0 && f.is_sign_negative(),
        crate::Number::F32(f) => f == 0.0 && f.is_sign_negative(),
        crate::Number::Decimal(t) => {
            t.starts_with('-') && n.cmp_exact(&crate::Number::Int(0)).is_eq()
        }
        _ => false,
    }
}

/// `a < b` bytewise, inlined (map keys are short: a `memcmp` call costs more than
/// comparing them): eight bytes at a time, as big-endian words, then byte by byte.
#[inline]
pub(crate) fn key_lt(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_be_bytes(a[i..i + 8].try_into().expect("8 bytes"));
        let y = u64::from_be_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        if x != y {
            return x < y;
        }
        i += 8;
    }
    match a[i..n].iter().zip(&b[i..n]).find(|(x, y)| x != y) {
        Some((x, y)) => x < y,
        None => a.len() < b.len(),
    }
}

/// Map entries sorted by key with unique keys (the last of equal keys wins), in the arena.
/// Entries that arrive sorted (go-cty writes them so) are copied as they are.
pub(crate) fn sorted_map<'a>(
    bump: &'a Bump,
    entries: &[(&'a str, Value<'a>)],
    scratch: &mut Vec<u32>,
) -> Option<&'a [(&'a str, Value<'a>)]> {
    if entries.windows(2).all(|w| key_lt(w[0].0, w[1].0)) {
        return bump.try_alloc_slice_copy(entries).ok().map(|s| &*s);
    }
    scratch.clear();
    scratch.extend(0..entries.len() as u32);
    scratch.sort_unstable_by(|&a, &b| {
        entries[a as usize]
            .0
            .cmp(entries[b as usize].0)
            .then(a.cmp(&b))
    });
    // Keep the last index of each run of equal keys.
    let mut w = 0;
    for r in 0..scratch.len() {
        let last_of_run = r + 1 == scratch.len()
            || entries[scratch[r] as usize].0 != entries[scratch[r + 1] as usize].0;
        if last_of_run {
            scratch[w] = scratch[r];
            w += 1;
        }
    }
    scratch.truncate(w);
    let mut it = scratch.iter().map(|&i| entries[i as usize]);
    bump.try_alloc_slice_fill_with(w, |_| it.next().expect("w entries"))
        .ok()
        .map(|s| &*s)
}

fn alloc<T>(bump: &Bump, v: T) -> Result<&T, Fault> {
    bump.try_alloc(v).map(|r| &*r).map_err(|_| Fault::ARENA)
}

fn alloc_slice<'a, T: Copy>(bump: &'a Bump, s: &[T]) -> Result<&'a [T], Fault> {
    bump.try_alloc_slice_copy(s)
        .map(|r| &*r)
        .map_err(|_| Fault::ARENA)
}

/// A position's type, as declared.
fn static_type<'a>(p: &'a Program, bump: &'a Bump, cur: Cur<'a>) -> Result<Ty<'a>, Fault> {
    match cur {
        Cur::Node(id) => match p.try_node_ty(id, bump) {
            Some(t) => Ok(t),
            None => Err(Fault::ARENA),
        },
        Cur::Ty(t) => Ok(t),
    }
}

/// The type of a value decoded at type position `cur`, as go-cty computes it: a null or
/// unknown value, and an empty collection's element, have the declared type; a known object
/// the types of its attribute values (without optional-attribute markers); a non-empty
/// collection the unified type of its elements; a dynamic position the type the value
/// carries (or `dynamic` for a null or unknown of unknown type).
pub(crate) fn value_type<'a>(
    p: &'a Program,
    bump: &'a Bump,
    v: &Value<'a>,
    cur: Cur<'a>,
) -> Result<Ty<'a>, Fault> {
    if matches!(v, Value::Null | Value::Unknown(_)) && !matches!(cur.shape(p), Shape::Dynamic)
        || !cur.has_dynamic(p) && !cur.has_optional(p)
    {
        return static_type(p, bump, cur);
    }
    Ok(match cur.shape(p) {
        Shape::Dynamic => match v {
            Value::Dynamic(d) => d.ty,
            _ => Ty::Dynamic,
        },
        Shape::Bool => Ty::Bool,
        Shape::Number => Ty::Number,
        Shape::String => Ty::String,
        Shape::List(e, _) | Shape::Set(e, _) => {
            let is_set = matches!(cur.shape(p), Shape::Set(..));
            let elems = match v {
                Value::List(x) | Value::Set(x) => *x,
                _ => &[],
            };
            let u = if elems.is_empty() {
                static_type(p, bump, e)?
            } else {
                let which = if is_set { "set" } else { "list" };
                elems
                    .iter()
                    .try_fold(Ty::Dynamic, |u, x| unify_with(p, bump, u, x, e, which))?
            };
            let inner = alloc(bump, u)?;
            if is_set {
                Ty::Set(inner)
            } else {
                Ty::List(inner)
            }
        }
        Shape::Map(e, _) => {
            let entries = match v {
                Value::Map(x) => *x,
                _ => &[],
            };
            let u = if entries.is_empty() {
                static_type(p, bump, e)?
            } else {
                entries
                    .iter()
                    .try_fold(Ty::Dynamic, |u, (_, x)| unify_with(p, bump, u, x, e, "map"))?
            };
            Ty::Map(alloc(bump, u)?)
        }
        Shape::Object(attrs) => {
            let entries = match v {
                Value::Object(x) => *x,
                _ => &[],
            };
            let mut out: SmallVec<[AttrTy<'a>; 8]> = SmallVec::with_capacity(attrs.len());
            for i in 0..attrs.len() {
                let t = match entries.get(i) {
                    Some((_, x)) => value_type(p, bump, x, attrs.cur(i))?,
                    None => static_type(p, bump, attrs.cur(i))?,
                };
                out.push(AttrTy {
                    name: attrs.name(i),
                    ty: t,
                    optional: false,
                });
            }
            Ty::Object(alloc_slice(bump, &out)?)
        }
        Shape::Tuple(elems) => {
            let vals = match v {
                Value::Tuple(x) => *x,
                _ => &[],
            };
            let mut out: SmallVec<[Ty<'a>; 8]> = SmallVec::with_capacity(elems.len());
            for i in 0..elems.len() {
                out.push(match vals.get(i) {
                    Some(x) => value_type(p, bump, x, elems.cur(i))?,
                    None => static_type(p, bump, elems.cur(i))?,
                });
            }
            Ty::Tuple(alloc_slice(bump, &out)?)
        }
    })
}

/// Unifies `u` with the type of element `x` (at position `e`).
fn unify_with<'a>(
    p: &'a Program,
    bump: &'a Bump,
    u: Ty<'a>,
    x: &Value<'a>,
    e: Cur<'a>,
    which: &'static str,
) -> Result<Ty<'a>, Fault> {
    let t = value_type(p, bump, x, e)?;
    unify(bump, u, t)?.ok_or_else(|| Fault::Kind(inconsistent(which, u, t)))
}

#[cold]
fn inconsistent(collection: &'static str, first: Ty<'_>, other: Ty<'_>) -> ErrorKind {
    ErrorKind::InconsistentElementTypes {
        collection,
        first: first.to_string(),
        other: other.to_string(),
    }
}

/// The most specific type both `a` and `b` conform to, where `dynamic` (a null, unknown or
/// empty collection of unknown type) conforms to anything; `None` when they conflict.
pub(crate) fn unify<'a>(bump: &'a Bump, a: Ty<'a>, b: Ty<'a>) -> Result<Option<Ty<'a>>, Fault> {
    if a == b {
        return Ok(Some(a));
    }
    let conflict = Ok(None);
    Ok(Some(match (a, b) {
        (Ty::Dynamic, t) | (t, Ty::Dynamic) => t,
        (Ty::List(x), Ty::List(y)) => match unify(bump, *x, *y)? {
            Some(t) => Ty::List(alloc(bump, t)?),
            None => return conflict,
        },
        (Ty::Set(x), Ty::Set(y)) => match unify(bump, *x, *y)? {
            Some(t) => Ty::Set(alloc(bump, t)?),
            None => return conflict,
        },
        (Ty::Map(x), Ty::Map(y)) => match unify(bump, *x, *y)? {
            Some(t) => Ty::Map(alloc(bump, t)?),
            None => return conflict,
        },
        (Ty::Object(x), Ty::Object(y)) => {
            if x.len() != y.len() || x.iter().zip(y.iter()).any(|(p, q)| p.name != q.name) {
                return conflict;
            }
            let mut out: SmallVec<[AttrTy<'a>; 8]> = SmallVec::with_capacity(x.len());
            for (p, q) in x.iter().zip(y.iter()) {
                let Some(t) = unify(bump, p.ty, q.ty)? else {
                    return conflict;
                };
                out.push(AttrTy {
                    name: p.name,
                    ty: t,
                    optional: false,
                });
            }
            Ty::Object(alloc_slice(bump, &out)?)
        }
        (Ty::Tuple(x), Ty::Tuple(y)) => {
            if x.len() != y.len() {
                return conflict;
            }
            let mut out: SmallVec<[Ty<'a>; 8]> = SmallVec::with_capacity(x.len());
            for (p, q) in x.iter().zip(y.iter()) {
                let Some(t) = unify(bump, *p, *q)? else {
                    return conflict;
                };
                out.push(t);
            }
            Ty::Tuple(alloc_slice(bump, &out)?)
        }
        _ => return conflict,
    }))
}

/// Gives a value decoded at position `cur` the type `to` (which fills some of the position's
/// `dynamic` holes). `keep`: whether positions that are `dynamic` in `cur` stay dynamic
/// positions (then a value there is wrapped with its new concrete type), or become concrete
/// (then wrappers are removed).
fn retype<'a>(
    p: &'a Program,
    bump: &'a Bump,
    v: Value<'a>,
    cur: Cur<'a>,
    to: Ty<'a>,
    keep: bool,
) -> Result<Value<'a>, Fault> {
    if !cur.has_dynamic(p) {
        return Ok(v);
    }
    let each = |xs: &[Value<'a>],
                f: &dyn Fn(usize) -> (Cur<'a>, Ty<'a>)|
     -> Result<&'a [Value<'a>], Fault> {
        let mut out: SmallVec<[Value<'a>; 8]> = SmallVec::with_capacity(xs.len());
        for (i, x) in xs.iter().enumerate() {
            let (c, t) = f(i);
            out.push(retype(p, bump, *x, c, t, keep)?);
        }
        alloc_slice(bump, &out)
    };
    let each_entry = |xs: &[(&'a str, Value<'a>)],
                      f: &dyn Fn(usize) -> (Cur<'a>, Ty<'a>)|
     -> Result<&'a [(&'a str, Value<'a>)], Fault> {
        let mut out: SmallVec<[(&'a str, Value<'a>); 8]> = SmallVec::with_capacity(xs.len());
        for (i, (k, x)) in xs.iter().enumerate() {
            let (c, t) = f(i);
            out.push((*k, retype(p, bump, *x, c, t, keep)?));
        }
        alloc_slice(bump, &out)
    };
    Ok(match cur.shape(p) {
        Shape::Dynamic => {
            let (inner, inner_cur) = match v {
                Value::Dynamic(d) => (d.value, Cur::Ty(d.ty)),
                other => (other, Cur::Ty(Ty::Dynamic)),
            };
            if !keep {
                // The position becomes concrete: unwrap (a plain null or unknown stays as it is).
                return if matches!(v, Value::Dynamic(_)) {
                    retype(p, bump, inner, inner_cur, to, false)
                } else {
                    Ok(v)
                };
            }
            if matches!(to, Ty::Dynamic) || matches!(v, Value::Dynamic(d) if d.ty == to) {
                return Ok(v);
            }
            let value = retype(p, bump, inner, inner_cur, to, false)?;
            Value::Dynamic(alloc(bump, Dynamic { ty: to, value })?)
        }
        Shape::List(e, _) | Shape::Set(e, _) => match (v, to) {
            (Value::List(xs), Ty::List(te)) => Value::List(each(xs, &|_| (e, *te))?),
            (Value::Set(xs), Ty::Set(te)) => Value::Set(each(xs, &|_| (e, *te))?),
            _ => v,
        },
        Shape::Map(e, _) => match (v, to) {
            (Value::Map(xs), Ty::Map(te)) => Value::Map(each_entry(xs, &|_| (e, *te))?),
            _ => v,
        },
        Shape::Object(attrs) => match (v, to) {
            (Value::Object(xs), Ty::Object(ta)) => {
                Value::Object(each_entry(xs, &|i| (attrs.cur(i), ta[i].ty))?)
            }
            _ => v,
        },
        Shape::Tuple(elems) => match (v, to) {
            (Value::Tuple(xs), Ty::Tuple(te)) => {
                Value::Tuple(each(xs, &|i| (elems.cur(i), te[i]))?)
            }
            _ => v,
        },
        Shape::Bool | Shape::Number | Shape::String => v,
    })
}

/// Unifies the element types of a list or set whose element type (at `elem`) contains
/// `dynamic`, and gives every element the unified type. go-cty requires all elements to share
/// one type and panics otherwise; tfwire reports an error, and (unlike go-cty) also accepts
/// elements whose types differ only where one holds a null, unknown or empty collection of
/// unknown type.
pub(crate) fn unify_elements<'a>(
    p: &'a Program,
    bump: &'a Bump,
    elems: &mut [Value<'a>],
    elem: Cur<'a>,
    which: &'static str,
) -> Result<(), Fault> {
    let u = elems
        .iter()
        .try_fold(Ty::Dynamic, |u, x| unify_with(p, bump, u, x, elem, which))?;
    if matches!(u, Ty::Dynamic) {
        return Ok(());
    }
    for x in elems.iter_mut() {
        *x = retype(p, bump, *x, elem, u, true)?;
    }
    Ok(())
}

/// [`unify_elements`] for the values of a map.
pub(crate) fn unify_entries<'a>(
    p: &'a Program,
    bump: &'a Bump,
    entries: &mut [(&'a str, Value<'a>)],
    elem: Cur<'a>,
) -> Result<(), Fault> {
    let u = entries.iter().try_fold(Ty::Dynamic, |u, (_, x)| {
        unify_with(p, bump, u, x, elem, "map")
    })?;
    if matches!(u, Ty::Dynamic) {
        return Ok(());
    }
    for (_, x) in entries.iter_mut() {
        *x = retype(p, bump, *x, elem, u, true)?;
    }
    Ok(())
}

/// The value of a dynamic wrapper whose wire type is `ty`: the content with its actual type.
pub(crate) fn wrap_dynamic<'a>(
    p: &'a Program,
    bump: &'a Bump,
    inner: Value<'a>,
    ty: Ty<'a>,
) -> Result<Value<'a>, Fault> {
    if matches!(ty, Ty::Dynamic) {
        // `["dynamic", v]`: v is itself a dynamic position's value.
        return Ok(inner);
    }
    let cur = Cur::Ty(ty);
    let actual = value_type(p, bump, &inner, cur)?;
    let value = if ty.has_dynamic() {
        retype(p, bump, inner, cur, actual, false)?
    } else {
        inner
    };
    Ok(Value::Dynamic(alloc(bump, Dynamic { ty: actual, value })?))
}

#[cfg(test)]
mod tests {
    use super::key_lt;

    /// `key_lt` agrees with `<` on keys of every length up to 20 that differ at every
    /// position, in either direction, and on prefixes.
    #[test]
    fn key_lt_agrees_with_str_order() {
        for len in 0..20usize {
            let a: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            for at in 0..len {
                for d in [b'0', b'z', 0x7f] {
                    let mut b = a.clone().into_bytes();
                    b[at] = d;
                    let b = String::from_utf8(b).expect("ASCII");
                    assert_eq!(key_lt(&a, &b), a < b, "{a:?} < {b:?}");
                    assert_eq!(key_lt(&b, &a), b < a, "{b:?} < {a:?}");
                }
            }
            for cut in 0..len {
                assert!(key_lt(&a[..cut], &a));
                assert!(!key_lt(&a, &a[..cut]));
            }
            assert!(!key_lt(&a, &a));
        }
    }
}
