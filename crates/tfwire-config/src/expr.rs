//! HCL expressions without a context: the constant value HCL computes for them (`Value(nil)`),
//! the references the client finds in them (`lang.ReferencesInExpr` + `addrs.ParseRef`), and
//! type constraints (`typeexpr`).

use crate::num;
use crate::value::{Kind, Ty, Val};
use hcl_edit::expr::{BinaryOperator, Expression, ObjectKey, TraversalOperator, UnaryOperator};
use hcl_edit::template::{Directive, Element, Template};
use std::collections::BTreeMap;

/// The value of `e` evaluated with no variables and no functions, when that succeeds.
pub(crate) fn constant(e: &Expression) -> Option<Val> {
    let mut scope = Scope {
        vars: Vec::new(),
        budget: MAX_WORK,
    };
    eval(e, &mut scope).filter(|v| !has_infinity(v))
}

/// The work one constant may cost: each expression evaluated counts one, each value a `for`
/// variable copies and each template's text count their size. Past it the expression is left
/// unevaluated (nested `for` expressions could otherwise multiply their lengths).
const MAX_WORK: u64 = 4_000_000;

/// Whether a value holds an infinite number (go-cty cannot write it as JSON).
fn has_infinity(v: &Val) -> bool {
    match v {
        Val::Number(n) => n.ends_with("Inf"),
        Val::Seq(_, items) => items.iter().any(has_infinity),
        Val::Map(_, m) => m.values().any(has_infinity),
        _ => false,
    }
}

/// The names `for` expressions bind (innermost last) and the work left.
struct Scope {
    vars: Vec<(String, Val)>,
    budget: u64,
}

impl Scope {
    /// Spends `n` units of work; `None` when none are left.
    fn charge(&mut self, n: u64) -> Option<()> {
        self.budget = self.budget.checked_sub(n)?;
        Some(())
    }
}

/// A value's size, for the work budget.
fn weight(v: &Val) -> u64 {
    match v {
        Val::String(s) | Val::Number(s) => 1 + s.len() as u64 / 16,
        Val::Seq(_, items) => 1 + items.iter().map(weight).sum::<u64>(),
        Val::Map(_, m) => {
            1 + m
                .iter()
                .map(|(k, v)| k.len() as u64 / 16 + weight(v))
                .sum::<u64>()
        }
        _ => 1,
    }
}

/// The most elements a `for` expression or a template `for` directive may produce while
/// evaluating a constant: beyond it the expression is left unevaluated.
const MAX_ITERATIONS: usize = 100_000;

fn eval(e: &Expression, scope: &mut Scope) -> Option<Val> {
    scope.charge(1)?;
    match e {
        Expression::Null(_) => Some(Val::Null),
        Expression::Bool(b) => Some(Val::Bool(*b.value())),
        Expression::Number(n) => number_literal(n),
        Expression::String(s) => Some(Val::String(s.value().clone())),
        Expression::Array(a) => {
            let items: Option<Vec<Val>> = a.iter().map(|i| eval(i, scope)).collect();
            Some(Val::Seq(Kind::Structural, items?))
        }
        Expression::Object(o) => {
            let mut out = BTreeMap::new();
            for (k, v) in o.iter() {
                let key = match k {
                    ObjectKey::Ident(i) => i.value().as_str().to_owned(),
                    ObjectKey::Expression(e) => match e {
                        // A keyword or a bare name as a key is its name.
                        Expression::Null(_) => "null".to_owned(),
                        Expression::Variable(v) => v.value().as_str().to_owned(),
                        _ => eval(e, scope)?.as_template_str()?,
                    },
                };
                let val = eval(v.expr(), scope)?;
                if out.insert(key, val).is_some() {
                    return None;
                }
            }
            Some(Val::Map(Kind::Structural, out))
        }
        Expression::StringTemplate(t) => template(t, scope),
        Expression::HeredocTemplate(h) => template(&h.template, scope),
        Expression::Parenthesis(p) => eval(p.inner(), scope),
        Expression::Variable(v) => {
            let found = scope
                .vars
                .iter()
                .rev()
                .find(|(n, _)| n == v.value().as_str())
                .map(|(_, v)| v.clone())?;
            scope.charge(weight(&found))?;
            Some(found)
        }
        Expression::Conditional(c) => {
            let t = eval(&c.true_expr, scope);
            let f = eval(&c.false_expr, scope);
            let chosen = match eval(&c.cond_expr, scope)? {
                Val::Bool(true) => t.clone()?,
                Val::Bool(false) => f.clone()?,
                _ => return None,
            };
            unify(chosen, t.as_ref()?, f.as_ref()?)
        }
        Expression::UnaryOp(u) => {
            let v = eval(&u.expr, scope)?;
            match (u.operator.value(), v) {
                (UnaryOperator::Not, Val::Bool(b)) => Some(Val::Bool(!b)),
                (UnaryOperator::Neg, v) => Some(negate(&to_number(&v)?)),
                _ => None,
            }
        }
        Expression::BinaryOp(b) => {
            let l = eval(&b.lhs_expr, scope)?;
            let r = eval(&b.rhs_expr, scope)?;
            binary(*b.operator.value(), l, r)
        }
        Expression::Traversal(t) => {
            let v = eval(&t.expr, scope)?;
            apply_ops(v, &t.operators, scope)
        }
        Expression::ForExpr(f) => for_expr(f, scope),
        Expression::FuncCall(_) => None,
    }
}

/// Applies traversal operators to a value; a splat applies the rest to each element.
fn apply_ops(
    mut v: Val,
    ops: &[hcl_edit::Decorated<TraversalOperator>],
    scope: &mut Scope,
) -> Option<Val> {
    for (i, op) in ops.iter().enumerate() {
        v = match op.value() {
            TraversalOperator::GetAttr(name) => match v {
                Val::Map(_, m) => m.get(name.value().as_str())?.clone(),
                _ => return None,
            },
            TraversalOperator::Index(k) => index(v, &eval(k, scope)?)?,
            TraversalOperator::LegacyIndex(n) => index(v, &Val::Number(n.value().to_string()))?,
            TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => {
                let items = match v {
                    Val::Null => Vec::new(),
                    Val::Seq(_, items) => items,
                    other => vec![other],
                };
                let rest = &ops[i + 1..];
                let out: Option<Vec<Val>> = items
                    .into_iter()
                    .map(|item| apply_ops(item, rest, scope))
                    .collect();
                return Some(Val::Seq(Kind::Structural, out?));
            }
        };
    }
    Some(v)
}

/// The (key, value) pairs a `for` expression or a template `for` directive iterates over a
/// constant collection (a sequence's keys are its indexes); `None` for anything else, or
/// past [`MAX_ITERATIONS`].
fn iteration(coll: Val) -> Option<Vec<(Val, Val)>> {
    let pairs: Vec<(Val, Val)> = match coll {
        Val::Seq(_, items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (Val::Number(i.to_string()), v))
            .collect(),
        Val::Map(_, m) => m.into_iter().map(|(k, v)| (Val::String(k), v)).collect(),
        _ => return None,
    };
    (pairs.len() <= MAX_ITERATIONS).then_some(pairs)
}

/// A `for` expression over a constant collection.
fn for_expr(f: &hcl_edit::expr::ForExpr, scope: &mut Scope) -> Option<Val> {
    let pairs = iteration(eval(&f.intro.collection_expr, scope)?)?;
    let key_var = f
        .intro
        .key_var
        .as_ref()
        .map(|k| k.value().as_str().to_owned());
    let value_var = f.intro.value_var.value().as_str().to_owned();
    let mut list = Vec::new();
    let mut map: BTreeMap<String, Val> = BTreeMap::new();
    let mut groups: BTreeMap<String, Vec<Val>> = BTreeMap::new();
    for (k, v) in pairs {
        let n = scope.vars.len();
        if let Some(kv) = &key_var {
            scope.vars.push((kv.clone(), k));
        }
        scope.vars.push((value_var.clone(), v));
        let result = (|| -> Option<Option<(Option<String>, Val)>> {
            if let Some(c) = &f.cond {
                match eval(&c.expr, scope)? {
                    Val::Bool(true) => {}
                    Val::Bool(false) => return Some(None),
                    _ => return None,
                }
            }
            let key = match &f.key_expr {
                Some(k) => Some(eval(k, scope)?.as_template_str()?),
                None => None,
            };
            Some(Some((key, eval(&f.value_expr, scope)?)))
        })();
        scope.vars.truncate(n);
        match result? {
            None => {}
            Some((None, v)) => list.push(v),
            Some((Some(k), v)) if f.grouping => groups.entry(k).or_default().push(v),
            // A duplicate key is an error without the grouping `...`.
            Some((Some(k), _)) if map.contains_key(&k) => return None,
            Some((Some(k), v)) => {
                map.insert(k, v);
            }
        }
    }
    Some(match &f.key_expr {
        None => Val::Seq(Kind::Structural, list),
        Some(_) if f.grouping => Val::Map(
            Kind::Structural,
            groups
                .into_iter()
                .map(|(k, v)| (k, Val::Seq(Kind::Structural, v)))
                .collect(),
        ),
        Some(_) => Val::Map(Kind::Structural, map),
    })
}

/// The result of a conditional: both branches converted to their common type where they
/// are primitives of different types (a string wins).
fn unify(chosen: Val, t: &Val, f: &Val) -> Option<Val> {
    let prim = |v: &Val| matches!(v, Val::String(_) | Val::Number(_) | Val::Bool(_));
    let kind = |v: &Val| core::mem::discriminant(v);
    if prim(t) && prim(f) && kind(t) != kind(f) {
        if matches!(t, Val::String(_)) || matches!(f, Val::String(_)) {
            return chosen.as_template_str().map(Val::String);
        }
        return None;
    }
    Some(chosen)
}

fn number_literal(n: &hcl_edit::Formatted<hcl_edit::Number>) -> Option<Val> {
    let repr: &str = crate::parse::literal_text(n)?;
    let text: String = repr.chars().filter(|c| !c.is_whitespace()).collect();
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.as_str()),
    };
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() || digits.starts_with(['.', 'e', 'E']) {
        format!("0{digits}")
    } else {
        digits.to_owned()
    };
    let v = Val::number(&digits)?;
    Some(if neg {
        match v {
            Val::Number(n) => negate(&n),
            v => v,
        }
    } else {
        v
    })
}

fn negate(n: &str) -> Val {
    Val::Number(match n.strip_prefix('-') {
        Some(p) => p.to_owned(),
        None => format!("-{n}"),
    })
}

fn index(v: Val, key: &Val) -> Option<Val> {
    match v {
        Val::Seq(_, items) => {
            let n = to_number(key)?;
            let i: usize = n.parse().ok()?;
            items.into_iter().nth(i)
        }
        Val::Map(_, mut m) => m.remove(&key.as_template_str()?),
        _ => None,
    }
}

/// A number operand: numbers, and strings that convert to one.
fn to_number(v: &Val) -> Option<String> {
    match v {
        Val::Number(n) => Some(n.clone()),
        Val::String(s) => match Val::number(s.trim_start_matches('+'))? {
            Val::Number(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

fn binary(op: BinaryOperator, l: Val, r: Val) -> Option<Val> {
    use BinaryOperator as B;
    match op {
        B::Eq => Some(Val::Bool(equal(&l, &r))),
        B::NotEq => Some(Val::Bool(!equal(&l, &r))),
        B::And | B::Or => match (l, r) {
            (Val::Bool(a), Val::Bool(b)) => {
                Some(Val::Bool(if op == B::And { a && b } else { a || b }))
            }
            _ => None,
        },
        _ => {
            let a = to_number(&l)?;
            let b = to_number(&r)?;
            let arith = |o| num::arith(o, &a, &b).map(Val::Number);
            match op {
                B::Less => Some(Val::Bool(num::compare(&a, &b)?.is_lt())),
                B::LessEq => Some(Val::Bool(num::compare(&a, &b)?.is_le())),
                B::Greater => Some(Val::Bool(num::compare(&a, &b)?.is_gt())),
                B::GreaterEq => Some(Val::Bool(num::compare(&a, &b)?.is_ge())),
                B::Plus => arith(num::Op::Add),
                B::Minus => arith(num::Op::Sub),
                B::Mul => arith(num::Op::Mul),
                B::Div => arith(num::Op::Div),
                B::Mod => arith(num::Op::Mod),
                _ => None,
            }
        }
    }
}

/// go-cty's equality of known values: numbers by value (`-0` equals `0`).
fn equal(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Number(x), Val::Number(y)) => num::compare(x, y) == Some(core::cmp::Ordering::Equal),
        (Val::Seq(_, x), Val::Seq(_, y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Val::Map(_, x), Val::Map(_, y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && equal(a, b))
        }
        _ => a == b,
    }
}

/// A template's value: a lone interpolation is the interpolated value itself; otherwise
/// the literals and the interpolated strings, with the whitespace that `~` markers strip
/// removed.
fn template(t: &Template, scope: &mut Scope) -> Option<Val> {
    let elements: Vec<&Element> = t.iter().collect();
    if let [Element::Interpolation(i)] = elements.as_slice() {
        return eval(&i.expr, scope);
    }
    let mut out = Out::default();
    render(t, scope, &mut out)?;
    scope.charge(out.text.len() as u64 / 16)?;
    Some(Val::String(out.text))
}

/// A template's text under construction, and whether the next literal loses its leading
/// whitespace.
#[derive(Default)]
struct Out {
    text: String,
    /// Where the last literal ended, when nothing came after it.
    literal_end: Option<usize>,
    strip_next: bool,
}

impl Out {
    fn literal(&mut self, s: &str) {
        let s = if self.strip_next { s.trim_start() } else { s };
        self.strip_next = false;
        self.text.push_str(s);
        self.literal_end = Some(self.text.len());
    }
    fn value(&mut self, s: &str) {
        self.strip_next = false;
        self.text.push_str(s);
        self.literal_end = None;
    }
    /// A marker: strips the literal before it and/or the one after it.
    fn marker(&mut self, strip: hcl_edit::template::Strip) {
        if strip.strip_start() && self.literal_end == Some(self.text.len()) {
            let trimmed = self.text.trim_end().len();
            self.text.truncate(trimmed);
        }
        self.literal_end = None;
        self.strip_next = strip.strip_end();
    }
}

fn render(t: &Template, scope: &mut Scope, out: &mut Out) -> Option<()> {
    for e in t.iter() {
        match e {
            Element::Literal(l) => out.literal(l.value()),
            Element::Interpolation(i) => {
                let v = eval(&i.expr, scope)?.as_template_str()?;
                strip_around(out, i.strip, |out| out.value(&v));
            }
            Element::Directive(d) => match &**d {
                Directive::If(i) => {
                    let cond = match eval(&i.if_expr.cond_expr, scope)? {
                        Val::Bool(b) => b,
                        _ => return None,
                    };
                    out.marker(i.if_expr.strip);
                    if cond {
                        render(&i.if_expr.template, scope, out)?;
                    }
                    if let Some(e) = &i.else_expr {
                        out.marker(e.strip);
                        if !cond {
                            render(&e.template, scope, out)?;
                        }
                    }
                    out.marker(i.endif_expr.strip);
                }
                Directive::For(f) => {
                    let pairs = iteration(eval(&f.for_expr.collection_expr, scope)?)?;
                    out.marker(f.for_expr.strip);
                    for (k, v) in pairs {
                        let n = scope.vars.len();
                        if let Some(kv) = &f.for_expr.key_var {
                            scope.vars.push((kv.value().as_str().to_owned(), k));
                        }
                        scope
                            .vars
                            .push((f.for_expr.value_var.value().as_str().to_owned(), v));
                        let r = render(&f.for_expr.template, scope, out);
                        scope.vars.truncate(n);
                        r?;
                        if out.text.len() > MAX_TEMPLATE_BYTES {
                            return None;
                        }
                    }
                    out.marker(f.endfor_expr.strip);
                }
            },
        }
    }
    Some(())
}

/// The longest string a constant template may build.
const MAX_TEMPLATE_BYTES: usize = 16 << 20;

/// An interpolation's own `~` markers: `${~` strips the literal before, `~}` the one after.
fn strip_around(out: &mut Out, strip: hcl_edit::template::Strip, f: impl FnOnce(&mut Out)) {
    if strip.strip_start() && out.literal_end == Some(out.text.len()) {
        let trimmed = out.text.trim_end().len();
        out.text.truncate(trimmed);
    }
    f(out);
    out.strip_next = strip.strip_end();
}

/// One step of a traversal after its root.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    Attr(String),
    Index(Val),
}

/// An absolute traversal: a root name and its steps.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Traversal {
    pub(crate) root: String,
    pub(crate) steps: Vec<Step>,
}

/// The traversals (variables) of `e`, in HCL's walk order, without the names a `for`
/// expression binds, then the provider functions it calls (as one-step traversals).
pub(crate) fn traversals(e: &Expression) -> Vec<Traversal> {
    let mut out = Vec::new();
    let mut funcs = Vec::new();
    walk(e, &mut Vec::new(), &mut out, &mut funcs);
    out.extend(funcs.into_iter().map(|root| Traversal {
        root,
        steps: Vec::new(),
    }));
    out
}

fn walk(
    e: &Expression,
    bound: &mut Vec<String>,
    out: &mut Vec<Traversal>,
    funcs: &mut Vec<String>,
) {
    match e {
        Expression::Null(_)
        | Expression::Bool(_)
        | Expression::Number(_)
        | Expression::String(_) => {}
        Expression::Array(a) => a.iter().for_each(|i| walk(i, bound, out, funcs)),
        Expression::Object(o) => {
            for (k, v) in o.iter() {
                if let ObjectKey::Expression(k) = k {
                    // A bare name as a key is the name itself, not a reference.
                    if !matches!(k, Expression::Variable(_)) {
                        walk(k, bound, out, funcs);
                    }
                }
                walk(v.expr(), bound, out, funcs);
            }
        }
        Expression::StringTemplate(t) => walk_template(t, bound, out, funcs),
        Expression::HeredocTemplate(h) => walk_template(&h.template, bound, out, funcs),
        Expression::Parenthesis(p) => walk(p.inner(), bound, out, funcs),
        Expression::Variable(v) => push(out, bound, v.value().as_str(), Vec::new()),
        Expression::Conditional(c) => {
            walk(&c.cond_expr, bound, out, funcs);
            walk(&c.true_expr, bound, out, funcs);
            walk(&c.false_expr, bound, out, funcs);
        }
        Expression::FuncCall(f) => {
            if f.name.namespace.first().map(|n| n.value().as_str()) == Some("provider") {
                let mut name: Vec<&str> = f
                    .name
                    .namespace
                    .iter()
                    .map(|n| n.value().as_str())
                    .collect();
                name.push(f.name.name.value().as_str());
                funcs.push(name.join("::"));
            }
            f.args.iter().for_each(|a| walk(a, bound, out, funcs));
        }
        Expression::Traversal(t) => {
            let mut rest = &t.operators[..];
            if let Expression::Variable(root) = &t.expr {
                let mut steps = Vec::new();
                while let Some((op, tail)) = rest.split_first() {
                    let step = match op.value() {
                        TraversalOperator::GetAttr(n) => Step::Attr(n.value().as_str().to_owned()),
                        TraversalOperator::LegacyIndex(i) => {
                            Step::Index(Val::Number(i.value().to_string()))
                        }
                        TraversalOperator::Index(k) => match literal_key(k) {
                            Some(v) => Step::Index(v),
                            None => break,
                        },
                        _ => break,
                    };
                    steps.push(step);
                    rest = tail;
                }
                push(out, bound, root.value().as_str(), steps);
            } else {
                walk(&t.expr, bound, out, funcs);
            }
            for op in rest {
                if let TraversalOperator::Index(k) = op.value() {
                    walk(k, bound, out, funcs);
                }
            }
        }
        Expression::UnaryOp(u) => walk(&u.expr, bound, out, funcs),
        Expression::BinaryOp(b) => {
            walk(&b.lhs_expr, bound, out, funcs);
            walk(&b.rhs_expr, bound, out, funcs);
        }
        Expression::ForExpr(f) => {
            walk(&f.intro.collection_expr, bound, out, funcs);
            let n = bound.len();
            if let Some(k) = &f.intro.key_var {
                bound.push(k.value().as_str().to_owned());
            }
            bound.push(f.intro.value_var.value().as_str().to_owned());
            if let Some(k) = &f.key_expr {
                walk(k, bound, out, funcs);
            }
            walk(&f.value_expr, bound, out, funcs);
            if let Some(c) = &f.cond {
                walk(&c.expr, bound, out, funcs);
            }
            bound.truncate(n);
        }
    }
}

fn walk_template(
    t: &Template,
    bound: &mut Vec<String>,
    out: &mut Vec<Traversal>,
    funcs: &mut Vec<String>,
) {
    for e in t.iter() {
        match e {
            Element::Literal(_) => {}
            Element::Interpolation(i) => walk(&i.expr, bound, out, funcs),
            Element::Directive(d) => match &**d {
                Directive::If(i) => {
                    walk(&i.if_expr.cond_expr, bound, out, funcs);
                    walk_template(&i.if_expr.template, bound, out, funcs);
                    if let Some(e) = &i.else_expr {
                        walk_template(&e.template, bound, out, funcs);
                    }
                }
                Directive::For(f) => {
                    walk(&f.for_expr.collection_expr, bound, out, funcs);
                    let n = bound.len();
                    if let Some(k) = &f.for_expr.key_var {
                        bound.push(k.value().as_str().to_owned());
                    }
                    bound.push(f.for_expr.value_var.value().as_str().to_owned());
                    walk_template(&f.for_expr.template, bound, out, funcs);
                    bound.truncate(n);
                }
            },
        }
    }
}

fn push(out: &mut Vec<Traversal>, bound: &[String], root: &str, steps: Vec<Step>) {
    if bound.iter().any(|b| b == root) {
        return;
    }
    out.push(Traversal {
        root: root.to_owned(),
        steps,
    });
}

/// The key of an index step HCL folds into a traversal: a literal (number, bool, null) or a
/// string without interpolation.
fn literal_key(k: &Expression) -> Option<Val> {
    match k {
        Expression::Number(n) => number_literal(n),
        Expression::String(s) => Some(Val::String(s.value().clone())),
        Expression::Bool(b) => Some(Val::Bool(*b.value())),
        Expression::StringTemplate(t) => {
            let mut s = String::new();
            for e in t.iter() {
                match e {
                    Element::Literal(l) => s.push_str(l.value()),
                    _ => return None,
                }
            }
            Some(Val::String(s))
        }
        _ => None,
    }
}

/// The subject of a `depends_on` entry, as the client writes it (empty where it does not
/// parse as one reference).
pub(crate) fn subject(e: &Expression) -> String {
    let ts = traversals(e);
    match ts.as_slice() {
        [t] => parse_ref(t, false).map(|r| r.0).unwrap_or_default(),
        _ => String::new(),
    }
}

/// The reference strings `jsonconfig` writes for `e`'s traversals.
pub(crate) fn references(e: &Expression, terraform: bool) -> Vec<String> {
    let mut out = Vec::new();
    for t in traversals(e) {
        // Terraform does not count provider functions as references.
        if terraform && t.root.starts_with("provider::") {
            continue;
        }
        reference_strings(&t, terraform, &mut out);
    }
    out
}

/// What `addrs.ParseRef` makes of a traversal, unwrapped into the strings `jsonconfig`
/// writes (each prefix of the remaining steps, the subject, the subject without its key).
fn reference_strings(t: &Traversal, terraform: bool, out: &mut Vec<String>) {
    let Some((subject, remaining, extra)) = parse_ref(t, terraform) else {
        return;
    };
    for n in (1..=remaining.len()).rev() {
        out.push(format!("{subject}{}", traversal_str(&remaining[..n])));
    }
    out.push(subject);
    if let Some(e) = extra {
        out.push(e);
    }
}

/// The subject, the remaining steps and the subject without its instance key.
type Ref<'t> = (String, &'t [Step], Option<String>);

fn parse_ref(t: &Traversal, terraform: bool) -> Option<Ref<'_>> {
    let root = t.root.as_str();
    let steps = &t.steps[..];
    match root {
        "count" | "each" | "local" | "path" | "terraform" | "var" => single_attr(root, steps),
        "tofu" if !terraform => single_attr(root, steps),
        "self" => Some(("self".to_owned(), steps, None)),
        "data" | "ephemeral" | "resource" => {
            let (Some(Step::Attr(ty)), true) = (steps.first(), steps.len() >= 2) else {
                return None;
            };
            let prefix = match root {
                "resource" => "",
                "data" => "data.",
                _ => "ephemeral.",
            };
            resource_ref(prefix, ty, &steps[1..])
        }
        "module" => {
            let Some(Step::Attr(name)) = steps.first() else {
                return None;
            };
            let call = format!("module.{name}");
            let rest = &steps[1..];
            match rest.split_first() {
                None => Some((call, rest, None)),
                Some((Step::Index(k), tail)) => {
                    let inst = format!("{call}{}", instance_key(k)?);
                    match tail.split_first() {
                        None => Some((inst, tail, Some(call))),
                        Some((Step::Attr(out), tail)) => {
                            Some((format!("{inst}.{out}"), tail, Some(inst)))
                        }
                        Some(_) => None,
                    }
                }
                Some((Step::Attr(out), tail)) => Some((format!("{call}.{out}"), tail, Some(call))),
            }
        }
        "template" | "lazy" | "arg" if !terraform => None,
        _ if root.starts_with("provider::") => Some((root.to_owned(), &[], None)),
        _ => resource_ref("", root, steps),
    }
}

fn single_attr<'t>(root: &str, steps: &'t [Step]) -> Option<Ref<'t>> {
    match steps.split_first() {
        Some((Step::Attr(name), rest)) => Some((format!("{root}.{name}"), rest, None)),
        // The client keeps a reference with an empty name (and an error it ignores here).
        _ => Some((format!("{root}."), &[], None)),
    }
}

fn resource_ref<'t>(prefix: &str, ty: &str, steps: &'t [Step]) -> Option<Ref<'t>> {
    let Some((Step::Attr(name), rest)) = steps.split_first() else {
        return None;
    };
    let resource = format!("{prefix}{ty}.{name}");
    match rest.split_first() {
        None => Some((resource, rest, None)),
        Some((Step::Index(k), tail)) => {
            let inst = format!("{resource}{}", instance_key(k)?);
            Some((inst, tail, Some(resource)))
        }
        Some(_) => Some((resource, rest, None)),
    }
}

/// An instance key as an address writes it (`[0]`, `["a"]`), when the key is valid.
fn instance_key(k: &Val) -> Option<String> {
    match k {
        Val::Number(n) => {
            let i: i64 = n.parse().ok()?;
            Some(format!("[{i}]"))
        }
        Val::String(s) => Some(format!("[{}]", hcl_quoted(s))),
        _ => None,
    }
}

/// A string quoted as HCL writes it (OpenTofu's and Terraform's `toHCLQuotedString`).
fn hcl_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing to a String cannot fail.
    let _ = tfwire_json::escape::write_hcl_quoted(&mut out, s);
    out
}

/// Steps as `addrs.TraversalStr` writes them.
fn traversal_str(steps: &[Step]) -> String {
    let mut out = String::new();
    for s in steps {
        match s {
            Step::Attr(n) => {
                out.push('.');
                out.push_str(n);
            }
            Step::Index(Val::String(k)) => {
                out.push('[');
                out.push_str(&go_quote(k));
                out.push(']');
            }
            Step::Index(Val::Number(n)) => {
                out.push('[');
                out.push_str(&number_g10(n));
                out.push(']');
            }
            Step::Index(_) => out.push_str("[...]"),
        }
    }
    out
}

/// A number as Go's `big.Float.Text('g', 10)`: up to 10 significant digits, exponent form
/// past them.
fn number_g10(n: &str) -> String {
    let (neg, digits) = match n.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", n),
    };
    if !digits.contains('.') && digits.len() <= 10 {
        return n.to_owned();
    }
    match digits.parse::<f64>() {
        Ok(f) => {
            let s = format!("{f:.9e}");
            let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
            let mant = mant.trim_end_matches('0').trim_end_matches('.');
            let exp: i32 = exp.parse().unwrap_or(0);
            if (-4..10).contains(&exp) {
                let plain = format!("{f}");
                format!("{neg}{plain}")
            } else {
                let sign = if exp < 0 { '-' } else { '+' };
                format!("{neg}{mant}e{sign}{:02}", exp.abs())
            }
        }
        Err(_) => n.to_owned(),
    }
}

/// A string as Go's `%q` writes it (`strconv.Quote`).
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing to a String cannot fail.
    let _ = tfwire_json::escape::write_go_quoted(&mut out, s);
    out
}

/// A type constraint expression (`string`, `list(object({a = optional(number, 1)}))`).
pub(crate) fn type_constraint(e: &Expression) -> Option<Ty> {
    match e {
        Expression::Variable(v) => match v.value().as_str() {
            "string" => Some(Ty::String),
            "number" => Some(Ty::Number),
            "bool" => Some(Ty::Bool),
            "any" => Some(Ty::Any),
            _ => None,
        },
        Expression::Parenthesis(p) => type_constraint(p.inner()),
        Expression::FuncCall(f) if f.name.namespace.is_empty() => {
            let args: Vec<&Expression> = f.args.iter().collect();
            let one = || -> Option<Box<Ty>> {
                match args.as_slice() {
                    [a] => type_constraint(a).map(Box::new),
                    _ => None,
                }
            };
            match f.name.name.value().as_str() {
                "list" => one().map(Ty::List),
                "set" => one().map(Ty::Set),
                "map" => one().map(Ty::Map),
                "tuple" => match args.as_slice() {
                    [Expression::Array(a)] => {
                        let items: Option<Vec<Ty>> = a.iter().map(type_constraint).collect();
                        items.map(Ty::Tuple)
                    }
                    _ => None,
                },
                "object" => match args.as_slice() {
                    [Expression::Object(o)] => {
                        let mut attrs = BTreeMap::new();
                        for (k, v) in o.iter() {
                            let name = match k {
                                ObjectKey::Ident(i) => i.value().as_str().to_owned(),
                                ObjectKey::Expression(Expression::Variable(i)) => {
                                    i.value().as_str().to_owned()
                                }
                                ObjectKey::Expression(e) => match constant(e)? {
                                    Val::String(s) => s,
                                    _ => return None,
                                },
                            };
                            attrs.insert(name, optional_attr(v.expr())?);
                        }
                        Some(Ty::Object(attrs))
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// An object attribute's type: `optional(T)`, `optional(T, default)` or `T`.
fn optional_attr(e: &Expression) -> Option<(Ty, bool, Option<Val>)> {
    if let Expression::FuncCall(f) = e
        && f.name.namespace.is_empty()
        && f.name.name.value().as_str() == "optional"
    {
        let args: Vec<&Expression> = f.args.iter().collect();
        return match args.as_slice() {
            [t] => Some((type_constraint(t)?, true, None)),
            [t, d] => {
                let ty = type_constraint(t)?;
                let d = ty.convert(&constant(d)?)?;
                Some((ty, true, Some(d)))
            }
            _ => None,
        };
    }
    Some((type_constraint(e)?, false, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constant value of the attribute `a` of `text`.
    fn constant_of(text: &str) -> Option<Val> {
        let body = crate::parse::parse_body("t.tf", text).unwrap();
        constant(&body.get_attribute("a").unwrap().value)
    }

    #[test]
    fn literals_beyond_binary64_are_exact() {
        // go-cty writes these as `constant_value` (the fidelity-numbers scenario).
        let e400 = format!("1{}", "0".repeat(400));
        assert_eq!(constant_of("a = 1e400\n"), Some(Val::Number(e400.clone())));
        assert_eq!(
            constant_of("a = -1e400\n"),
            Some(Val::Number(format!("-{e400}")))
        );
        assert_eq!(
            constant_of("a = 1e-400\n"),
            Some(Val::Number(format!("0.{}1", "0".repeat(399))))
        );
        let digits = format!("9{}7", "1".repeat(398));
        assert_eq!(
            constant_of(&format!("a = {digits}\n")),
            Some(Val::Number(digits.clone()))
        );
        assert_eq!(
            constant_of("a = [1e400, \"1e400\"]\n"),
            Some(Val::Seq(
                Kind::Structural,
                vec![Val::Number(e400), Val::String("1e400".into())]
            ))
        );
    }
}
