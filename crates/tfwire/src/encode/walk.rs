//! The encoders' one walk: a value together with its type, checked as it goes, driving a
//! [`Sink`].

use super::sink::{Sink, Target, unencodable};
use crate::decode::collection::{first_duplicate, value_type};
use crate::decode::fault::Fault;
use crate::decode::shape::{Attrs, Cur, Elems, Shape};
use crate::error::{Error, ErrorKind, Expected, Fail, PathStep, Step};
use crate::program::{Node, Program};
use crate::ty::Ty;
use crate::value::{Dynamic, Value};
use bumpalo::Bump;

/// Containers and dynamic values nested deeper than this are refused (the encoders recurse).
const MAX_DEPTH: usize = crate::decode::Config::MAX_DEPTH;

/// Walks a value together with its type, checking it, and drives a sink.
pub(super) struct Walker<'p, 's, S: Sink> {
    program: &'p Program,
    sink: &'s mut S,
    /// Scratch arena for the types computed when checking collections of `dynamic`.
    scratch: Option<Bump>,
}

/// Whether an enclosing collection of `dynamic` or dynamic value will check the element
/// types of the collections inside (once they are walked), so that they need not.
#[derive(Clone, Copy)]
enum Checked {
    No,
    Yes,
}

impl<'p, 's, S: Sink> Walker<'p, 's, S> {
    pub(super) fn new(program: &'p Program, sink: &'s mut S) -> Self {
        Walker {
            program,
            sink,
            scratch: None,
        }
    }

    pub(super) fn run(mut self, value: &Value<'_>) -> Result<(), Error> {
        let root = Cur::Node(self.program.root());
        self.walk(value, root, 0, Checked::No)
            .map_err(|f| (*f).into_error())
    }

    #[cold]
    #[inline(never)]
    fn fail_at<T>(&self, kind: ErrorKind, at: usize) -> Step<T> {
        Err(Fail::new(kind, at))
    }

    #[cold]
    #[inline(never)]
    fn fail<T>(&self, kind: ErrorKind) -> Step<T> {
        Err(Fail::new(kind, self.sink.len()))
    }

    // The walk recurses through `walk` and one of the container methods; each is kept out of
    // the others (`inline(never)`, errors built in cold functions) so that the frames stay
    // small and `MAX_DEPTH` levels fit in a thread's stack even in debug builds.

    fn walk(&mut self, v: &Value<'_>, cur: Cur<'_>, depth: usize, checked: Checked) -> Step {
        if depth > MAX_DEPTH {
            return self.fail(too_deep());
        }
        let shape = cur.shape(self.program);
        match (*v, shape) {
            (Value::Null, _) => {
                self.sink.null();
                Ok(())
            }
            (Value::Unknown(r), _) => {
                let target = target(shape);
                self.sink.unknown(r, target).or_else(|k| self.fail(k))
            }
            (Value::Dynamic(d), Shape::Dynamic) => self.dynamic(d, depth, checked),
            (Value::Bool(b), Shape::Bool) => {
                self.sink.bool(b);
                Ok(())
            }
            (Value::Number(n), Shape::Number) => self.sink.number(n).or_else(|k| self.fail(k)),
            (Value::String(s), Shape::String) => self.string(s),
            (Value::Set(xs), Shape::Set(..)) if first_duplicate(xs).is_some() => {
                self.fail(duplicate_elements(xs))
            }
            (Value::List(xs), Shape::List(e, dynamic))
            | (Value::Set(xs), Shape::Set(e, dynamic)) => {
                let start = self.sink.len();
                let check = dynamic && matches!(checked, Checked::No);
                let inner = if check { Checked::Yes } else { checked };
                self.seq(xs, Elem::Same(e), depth, inner)?;
                if check {
                    self.check_collection(v, cur, start)?;
                }
                Ok(())
            }
            (Value::Tuple(xs), Shape::Tuple(elems)) => {
                if xs.len() != elems.len() {
                    return self.fail(tuple_length(elems.len(), xs.len()));
                }
                self.seq(xs, Elem::Tuple(elems), depth, checked)
            }
            (Value::Map(es), Shape::Map(e, dynamic)) => {
                let start = self.sink.len();
                let check = dynamic && matches!(checked, Checked::No);
                let inner = if check { Checked::Yes } else { checked };
                self.map(es, e, depth, inner)?;
                if check {
                    self.check_collection(v, cur, start)?;
                }
                Ok(())
            }
            (Value::Object(es), Shape::Object(attrs)) => self.object(es, attrs, depth, checked),
            (v, shape) => self.fail(mismatch(v, shape)),
        }
    }

    /// The elements of a list, set or tuple.
    #[inline(never)]
    fn seq(&mut self, xs: &[Value<'_>], elem: Elem<'_>, depth: usize, checked: Checked) -> Step {
        self.sink.begin_seq(xs.len()).or_else(|k| self.fail(k))?;
        for (i, x) in xs.iter().enumerate() {
            self.sink.seq_elem(i);
            let e = match elem {
                Elem::Same(e) => e,
                Elem::Tuple(elems) => elems.cur(i),
            };
            self.child(x, e, depth + 1, checked)
                .map_err(|f| f.step(PathStep::Index(i as u64)))?;
        }
        self.sink.end_seq();
        Ok(())
    }

    /// The entries of a map (keys sorted and unique: checked as they are written, in the
    /// same loop; a misplaced key is reported at the map, before any error inside it).
    #[inline(never)]
    fn map(
        &mut self,
        es: &[(&str, Value<'_>)],
        e: Cur<'_>,
        depth: usize,
        checked: Checked,
    ) -> Step {
        let start = self.sink.len();
        self.sink.begin_map(es.len()).or_else(|k| self.fail(k))?;
        let strings = matches!(e, Cur::Node(id) if matches!(self.program.node(id), Node::String));
        for (i, (k, x)) in es.iter().enumerate() {
            if i > 0 && !key_less(es[i - 1].0, k) {
                return self.fail_at(unsorted_keys(es[i - 1].0, k), start);
            }
            if strings
                && let Value::String(s) = *x
                && self.sink.entry_short_string(k, s)
            {
                continue;
            }
            let r = if crate::nfc::is_nfc(k) {
                self.sink.map_key(i, k).or_else(|k| self.fail(k))
            } else {
                self.fail(not_nfc("map key"))
            };
            r.and_then(|()| self.child(x, e, depth + 1, checked))
                .map_err(|f| entry_fault(f, es, i, start))?;
        }
        self.sink.end_map();
        Ok(())
    }

    /// The attributes of an object (names matching the type's: checked as they are written,
    /// in the same loop; a mismatch is reported at the object, before any error inside it).
    #[inline(never)]
    fn object(
        &mut self,
        es: &[(&str, Value<'_>)],
        attrs: Attrs<'_>,
        depth: usize,
        checked: Checked,
    ) -> Step {
        let start = self.sink.len();
        if es.len() != attrs.len() {
            return self.fail(attribute_mismatch(es, attrs));
        }
        self.sink.begin_map(es.len()).or_else(|k| self.fail(k))?;
        match attrs {
            // A compiled object, whose names' MessagePack encodings are precomputed.
            Attrs::Node(nodes) => {
                for (i, ((k, x), a)) in es.iter().zip(nodes).enumerate() {
                    if !same_name(k, &a.name) {
                        return self.fail_at(attribute_mismatch(es, attrs), start);
                    }
                    if let Value::String(s) = *x
                        && matches!(self.program.node(a.node), Node::String)
                        && self.sink.attr_short_string(a, s)
                    {
                        continue;
                    }
                    self.sink
                        .attr_key(i, a)
                        .or_else(|k| self.fail(k))
                        .and_then(|()| self.child(x, Cur::Node(a.node), depth + 1, checked))
                        .map_err(|f| attribute_fault(f, es, attrs, i, start))?;
                }
            }
            Attrs::Ty(_) => {
                for (i, (k, x)) in es.iter().enumerate() {
                    if !same_name(k, attrs.name(i)) {
                        return self.fail_at(attribute_mismatch(es, attrs), start);
                    }
                    self.sink
                        .map_key(i, k)
                        .or_else(|k| self.fail(k))
                        .and_then(|()| self.child(x, attrs.cur(i), depth + 1, checked))
                        .map_err(|f| attribute_fault(f, es, attrs, i, start))?;
                }
            }
        }
        self.sink.end_map();
        Ok(())
    }

    /// A string: checked to be in NFC, then written.
    #[inline(always)]
    fn string(&mut self, s: &str) -> Step {
        match self.sink.nfc_string(s) {
            Ok(true) => Ok(()),
            Ok(false) => self.fail(not_nfc("string")),
            Err(k) => self.fail(k),
        }
    }

    /// A container's child: the plain leaves of a compiled program (a string, number or bool
    /// where the program has one, or a null) written at once, anything else walked. The
    /// same checks as [`Walker::walk`]'s, without its general dispatch.
    #[inline(always)]
    fn child(&mut self, v: &Value<'_>, cur: Cur<'_>, depth: usize, checked: Checked) -> Step {
        if let Cur::Node(id) = cur
            && depth <= MAX_DEPTH
        {
            // The value's variant first: a null needs no node, a container no leaf test.
            match *v {
                Value::Null => {
                    self.sink.null();
                    return Ok(());
                }
                Value::String(s) if matches!(self.program.node(id), Node::String) => {
                    return self.string(s);
                }
                Value::Number(n) if matches!(self.program.node(id), Node::Number) => {
                    return self.sink.number(n).or_else(|k| self.fail(k));
                }
                Value::Bool(b) if matches!(self.program.node(id), Node::Bool) => {
                    self.sink.bool(b);
                    return Ok(());
                }
                _ => {}
            }
        }
        self.walk(v, cur, depth, checked)
    }

    /// A value with its own type, at a `dynamic` position.
    #[inline(never)]
    fn dynamic(&mut self, d: &Dynamic<'_>, depth: usize, checked: Checked) -> Step {
        if d.ty == Ty::Dynamic {
            // A value of unknown type at a dynamic position: nothing to wrap.
            return self.walk(&d.value, Cur::Ty(Ty::Dynamic), depth + 1, checked);
        }
        if ty_deeper_than(d.ty, MAX_DEPTH) {
            return self.fail(type_too_deep());
        }
        // The type must be the value's own: checked after the value (whose own dynamic
        // values' types are then known to be shallow enough to compare).
        let check = d.ty.has_dynamic() || d.ty.has_optional();
        let start = self.sink.len();
        self.sink.begin_dynamic(d.ty).or_else(|k| self.fail(k))?;
        let inner = if check { Checked::Yes } else { Checked::No };
        self.walk(&d.value, Cur::Ty(d.ty), depth + 1, inner)?;
        self.sink.end_dynamic(d.ty);
        if check {
            self.check_dynamic(d.ty, &d.value, start)?;
        }
        Ok(())
    }

    /// Checks that the elements of a collection whose element type contains `dynamic` have
    /// one type (as the decoders require; go-cty panics otherwise). Done once, at the
    /// outermost such collection, after its elements: the check covers everything inside it.
    fn check_collection(&mut self, v: &Value<'_>, cur: Cur<'_>, start: usize) -> Step {
        let scratch = self.scratch.get_or_insert_with(Bump::new);
        let r = value_type(self.program, scratch, v, cur).map(|_| ());
        scratch.reset();
        match r {
            Ok(()) => Ok(()),
            Err(Fault::Kind(k)) => self.fail_at(k, start),
            Err(_) => self.fail_at(unencodable("out of memory".to_owned()), start),
        }
    }

    /// Checks that a dynamic value's type is the value's own (as the decoders compute it:
    /// `dynamic` only where the value holds a null or unknown of unknown type, optional
    /// attributes only on a null or unknown object); this also covers the element types of
    /// the collections of `dynamic` inside.
    fn check_dynamic(&mut self, ty: Ty<'_>, value: &Value<'_>, start: usize) -> Step {
        let scratch = self.scratch.get_or_insert_with(Bump::new);
        let r = match value_type(self.program, scratch, value, Cur::Ty(ty)) {
            Ok(actual) if actual == ty => Ok(()),
            Ok(actual) => Err(unencodable(format!(
                "a dynamic value says its type is {ty}, but the value's type is {actual}"
            ))),
            Err(Fault::Kind(k)) => Err(k),
            Err(_) => Err(unencodable("out of memory".to_owned())),
        };
        scratch.reset();
        match r {
            Ok(()) => Ok(()),
            Err(k) => self.fail_at(k, start),
        }
    }
}

/// The element positions of a list or set (one for all), or of a tuple.
#[derive(Clone, Copy)]
enum Elem<'a> {
    Same(Cur<'a>),
    Tuple(Elems<'a>),
}

#[cold]
fn type_too_deep() -> ErrorKind {
    unencodable(format!(
        "the type of a dynamic value is nested more than {MAX_DEPTH} levels deep"
    ))
}

#[cold]
fn too_deep() -> ErrorKind {
    unencodable(format!(
        "the value is nested more than {MAX_DEPTH} levels deep"
    ))
}

#[cold]
fn tuple_length(expected: usize, found: usize) -> ErrorKind {
    ErrorKind::TupleLength {
        expected,
        found: found as u64,
    }
}

#[cold]
fn duplicate_elements(xs: &[Value<'_>]) -> ErrorKind {
    let (i, j) = first_duplicate(xs).unwrap_or_default();
    unencodable(format!(
        "set elements [{i}] and [{j}] are equal: a set holds each value once"
    ))
}

#[cold]
fn unsorted_keys(a: &str, b: &str) -> ErrorKind {
    unencodable(format!(
        "map keys must be sorted and unique: {b:?} comes after {a:?}"
    ))
}

#[cold]
fn mismatch(v: Value<'_>, shape: Shape<'_>) -> ErrorKind {
    if let Value::Dynamic(_) = v {
        return unencodable(
            "a value with a type of its own (Value::Dynamic) is allowed only at a dynamic \
             position"
                .to_owned(),
        );
    }
    ErrorKind::Mismatch {
        expected: expected(shape),
        found: v.kind_name(),
    }
}

/// Why an object's attribute names are not its type's, in order.
#[cold]
fn attribute_mismatch(es: &[(&str, Value<'_>)], attrs: Attrs<'_>) -> ErrorKind {
    if let Some((k, _)) = es.iter().find(|(k, _)| attrs.find(k).is_none()) {
        return ErrorKind::UnsupportedAttribute((*k).to_owned());
    }
    if let Some(name) = (0..attrs.len())
        .map(|i| attrs.name(i))
        .find(|name| es.iter().all(|(k, _)| k != name))
    {
        return ErrorKind::MissingAttribute(name.to_owned());
    }
    unencodable("object attributes must be sorted by name, each once".to_owned())
}

/// The error of attribute `i` of an object that starts at byte `start`: a mismatch of the
/// attribute names (anywhere in the object) takes precedence, as if the names had been
/// checked before the values; otherwise the fault inside, with the attribute's step.
#[cold]
#[inline(never)]
fn attribute_fault(
    f: Box<Fail>,
    es: &[(&str, Value<'_>)],
    attrs: Attrs<'_>,
    i: usize,
    start: usize,
) -> Box<Fail> {
    let names_match = es
        .iter()
        .enumerate()
        .all(|(j, (k, _))| same_name(k, attrs.name(j)));
    if !names_match {
        return Fail::new(attribute_mismatch(es, attrs), start);
    }
    f.step(PathStep::Attr(es[i].0.to_owned().into()))
}

/// The error of entry `i` of a map that starts at byte `start`: misplaced keys (anywhere in
/// the map) take precedence, as if the order had been checked before the values; otherwise
/// the fault inside, with the key's step.
#[cold]
#[inline(never)]
fn entry_fault(f: Box<Fail>, es: &[(&str, Value<'_>)], i: usize, start: usize) -> Box<Fail> {
    if let Some(w) = es.windows(2).position(|w| w[0].0 >= w[1].0) {
        return Fail::new(unsorted_keys(es[w].0, es[w + 1].0), start);
    }
    f.step(PathStep::Key(es[i].0.to_owned().into()))
}

/// `a < b` (bytewise), inlined for keys of one length from 8 to 16 bytes (the common case
/// of generated labels and tags: `memcmp` cost more than the comparison): two big-endian
/// words each, the second overlapping the first, which is equal when it is compared.
#[inline(always)]
fn key_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n == b.len() && (8..=16).contains(&n) {
        let word =
            |s: &[u8], at: usize| u64::from_be_bytes(s[at..at + 8].try_into().expect("8 bytes"));
        let (x, y) = (word(a, 0), word(b, 0));
        if x != y {
            return x < y;
        }
        return word(a, n - 8) < word(b, n - 8);
    }
    a < b
}

/// Whether an object's attribute name is the type's: the decoders fill objects with the
/// program's own names, so the addresses usually settle it.
#[inline(always)]
fn same_name(k: &str, name: &str) -> bool {
    core::ptr::eq(k, name) || k == name
}

#[cold]
fn not_nfc(what: &str) -> ErrorKind {
    unencodable(format!(
        "{what} is not in Unicode normalization form C (go-cty normalizes every string; \
         normalize it first)"
    ))
}

fn target(shape: Shape<'_>) -> Target {
    match shape {
        Shape::String => Target::String,
        Shape::Number => Target::Number,
        Shape::List(..) | Shape::Set(..) | Shape::Map(..) => Target::Collection,
        Shape::Bool | Shape::Object(_) | Shape::Tuple(_) => Target::Other,
        Shape::Dynamic => Target::Dynamic,
    }
}

fn expected(shape: Shape<'_>) -> Expected {
    match shape {
        Shape::Bool => Expected::Bool,
        Shape::Number => Expected::Number,
        Shape::String => Expected::String,
        Shape::Dynamic => Expected::DynamicWrapper,
        Shape::List(..) => Expected::List,
        Shape::Set(..) => Expected::Set,
        Shape::Map(..) => Expected::Map,
        Shape::Object(_) => Expected::Object,
        Shape::Tuple(_) => Expected::Tuple,
    }
}

/// Whether `ty` nests deeper than `max` (without recursing).
fn ty_deeper_than(ty: Ty<'_>, max: usize) -> bool {
    let mut stack = vec![(ty, 0usize)];
    while let Some((t, d)) = stack.pop() {
        if d > max {
            return true;
        }
        match t {
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => stack.push((*e, d + 1)),
            Ty::Object(attrs) => stack.extend(attrs.iter().map(|a| (a.ty, d + 1))),
            Ty::Tuple(es) => stack.extend(es.iter().map(|e| (*e, d + 1))),
            Ty::Bool | Ty::Number | Ty::String | Ty::Dynamic => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    /// `key_less` is `<` on every pair of keys of lengths 0 to 20 over a three-letter
    /// alphabet differing at any one or two positions.
    #[test]
    fn key_less_is_bytewise_order() {
        let mut checked = 0;
        for n in 0..=20usize {
            for m in [n, n.saturating_sub(1), n + 1] {
                let base: Vec<u8> = (0..n.max(m)).map(|i| b'a' + (i % 3) as u8).collect();
                for i in 0..=n.max(m) {
                    for j in 0..=n.max(m) {
                        for (ci, cj) in [(b'a', b'b'), (b'c', b'a'), (b'b', b'b')] {
                            let mut a = base[..n].to_vec();
                            let mut b = base[..m].to_vec();
                            if i < n {
                                a[i] = ci;
                            }
                            if j < m {
                                b[j] = cj;
                            }
                            let (a, b) =
                                (String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
                            assert_eq!(super::key_less(&a, &b), a < b, "{a:?} {b:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
