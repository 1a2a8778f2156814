//! Drawing a [`Diff`] tree as text, the way OpenTofu's `show` draws it
//! (`internal/command/jsonformat/computed/renderers`), or Terraform's where [`Opts::dialect`]
//! says so (write-only attributes, multi-line strings, strings holding JSON, unknown groups
//! of blocks, the forget symbol).

use super::differ::{self, Blocks, Diff, Prim, R};
use super::text::{attribute_name, color, json_prefix, quote};
use super::value::{Dialect, Matcher, Unknown, V, Val, written};
use crate::escape::{DEPTH_MAX, Padded, column_width};
use std::fmt::Write as _;
use tfwire_plan::DiffOp;
use tfwire_plan::Json;

/// How a subtree is drawn.
#[derive(Clone, Copy, Default)]
pub(crate) struct Opts {
    pub(crate) color: bool,
    /// Never write `-> null` after a deleted value.
    pub(crate) no_null_suffix: bool,
    /// Write `# forces replacement` on this value whatever its own flag says.
    pub(crate) force_replacement: bool,
    /// Show unchanged members instead of counting them.
    pub(crate) show_unchanged: bool,
    /// Leave out the `+`/`-`/`~` column.
    pub(crate) hide_symbols: bool,
    /// Never write `# forces replacement` on this value (Terraform, on the prior value of
    /// one that becomes unknown and says it itself).
    pub(crate) forbid_replacement: bool,
    /// Whose rules to draw by.
    pub(crate) dialect: Dialect,
}

impl Opts {
    /// The options for a child: everything but the forced or forbidden `# forces
    /// replacement`.
    fn child(self) -> Opts {
        Opts {
            force_replacement: false,
            forbid_replacement: false,
            ..self
        }
    }

    fn c(&self, s: &str) -> String {
        color(s, self.color)
    }
}

/// The marker of a value's op, as colour markup.
pub(crate) fn op_markup(op: DiffOp) -> &'static str {
    match op {
        DiffOp::Create => "  [green]+[reset]",
        DiffOp::Delete => "  [red]-[reset]",
        DiffOp::Update => "  [yellow]~[reset]",
        DiffOp::NoOp => "   ",
    }
}

fn symbol(a: DiffOp, o: Opts) -> String {
    if o.hide_symbols {
        String::new()
    } else {
        format!("{} ", o.c(op_markup(a)))
    }
}

fn null_suffix(a: DiffOp, o: Opts) -> String {
    if !o.no_null_suffix && a == DiffOp::Delete {
        o.c(" [dark_gray]-> null[reset]")
    } else {
        String::new()
    }
}

fn forces(replace: bool, o: Opts) -> String {
    if (replace || o.force_replacement) && !o.forbid_replacement {
        o.c(" [red]# forces replacement[reset]")
    } else {
        String::new()
    }
}

fn pad(n: usize) -> String {
    "    ".repeat(n)
}

/// The line counting `n` unchanged members (`what`: `attribute`, `element`, `block`) left
/// out of a container at `indent`.
fn unchanged_line(buf: &mut String, what: &str, n: usize, indent: usize, o: Opts) {
    let _ = writeln!(
        buf,
        "{}{}{}",
        pad(indent + 1),
        symbol(DiffOp::NoOp, o),
        unchanged(what, n, o)
    );
}

fn unchanged(what: &str, n: usize, o: Opts) -> String {
    let s = if n == 1 { "" } else { "s" };
    o.c(&format!(
        "[dark_gray]# ({n} unchanged {what}{s} hidden)[reset]"
    ))
}

/// `key` left-aligned in `width` (a width in bytes, as OpenTofu measures it, filled up by
/// characters; at most [`crate::escape::ALIGN_MAX`], see [`column_width`]).
fn aligned(key: &str, width: usize) -> String {
    Padded::chars(key, width).to_string()
}

fn is_important(key: &str) -> bool {
    matches!(key, "id" | "name" | "tags")
}

/// Draws `d` at `indent` (in steps of four spaces). A collection or block more than
/// [`DEPTH_MAX`] levels deep is drawn as a marker, `# (nested deeper than 32 levels, not
/// shown)`, so indentation cannot make the output grow with the square of the nesting.
pub(crate) fn render(d: &Diff<'_>, indent: usize, o: Opts) -> String {
    if indent > DEPTH_MAX
        && matches!(
            d.r,
            R::Object { .. } | R::Map { .. } | R::List { .. } | R::Set { .. } | R::Block { .. }
        )
    {
        return format!("{}{}", too_deep(o), forces(d.replace, o));
    }
    match &d.r {
        R::Primitive { before, after, ty } => primitive(d, *before, *after, *ty, indent, o),
        R::Object { attrs, nested } => object(d, attrs, *nested, indent, o),
        R::Map { elems, nested } => map(d, elems, *nested, indent, o),
        R::List { elems, context } => list(d, elems, *context, indent, o),
        R::Set { elems, nested } => set(d, elems, *nested, indent, o),
        R::Block { attrs, blocks } => block(d, attrs, blocks, indent, o),
        R::Unknown(before) => match before {
            Some(b) if d.op != DiffOp::Create => format!(
                "{} -> (known after apply){}",
                render(
                    b,
                    indent,
                    Opts {
                        no_null_suffix: true,
                        forbid_replacement: o.dialect == Dialect::Terraform && d.replace,
                        ..o
                    }
                ),
                forces(d.replace, o)
            ),
            _ => format!("(known after apply){}", forces(d.replace, o)),
        },
        R::Sensitive { .. } => format!(
            "(sensitive value){}{}",
            null_suffix(d.op, o),
            forces(d.replace, o)
        ),
        R::SensitiveBlock { .. } => sensitive_block(d.replace, indent, o),
        R::TypeChange(b, a) => {
            let o = Opts {
                no_null_suffix: true,
                ..o
            };
            format!(
                "{} {} {}",
                render(b, indent, o),
                o.c("[yellow]->[reset]"),
                render(a, indent, o)
            )
        }
        R::WriteOnly { sensitive } => match o.dialect {
            Dialect::OpenTofu => format!(
                "(write-only attribute){}{}",
                forces(d.replace, o),
                null_suffix(d.op, o)
            ),
            Dialect::Terraform => format!(
                "({}write-only attribute){}{}",
                if *sensitive { "sensitive, " } else { "" },
                null_suffix(d.op, o),
                forces(d.replace, o)
            ),
        },
    }
}

/// The marker drawn for a value nested deeper than [`DEPTH_MAX`] levels.
fn too_deep(o: Opts) -> String {
    o.c(&format!(
        "[dark_gray]# (nested deeper than {DEPTH_MAX} levels, not shown)[reset]"
    ))
}

fn sensitive_block(replace: bool, indent: usize, o: Opts) -> String {
    let prefix = format!("{}{}", pad(indent), symbol(DiffOp::NoOp, o));
    format!(
        "{{{}\n{prefix}  # At least one attribute in this block is (or was) sensitive,\n{prefix}  # so its contents will not be displayed.\n{prefix}}}",
        forces(replace, o)
    )
}

/// The warnings drawn above a value whose sensitivity changes.
pub(crate) fn warnings(d: &Diff<'_>, indent: usize, o: Opts) -> Vec<String> {
    match &d.r {
        R::Sensitive {
            inner,
            before,
            after,
        } => sensitivity_warning(inner.op, *before, *after, "attribute value", indent, o),
        R::SensitiveBlock {
            inner,
            before,
            after,
        } => sensitivity_warning(inner.op, *before, *after, "block", indent, o),
        _ => Vec::new(),
    }
}

fn sensitivity_warning(
    inner: DiffOp,
    before: bool,
    after: bool,
    what: &str,
    indent: usize,
    o: Opts,
) -> Vec<String> {
    if before == after || matches!(inner, DiffOp::Create | DiffOp::Delete) {
        return Vec::new();
    }
    let w = if before {
        o.c(&format!(
            "  # [yellow]Warning[reset]: this {what} will no longer be marked as sensitive\n{}  # after applying this change.",
            pad(indent)
        ))
    } else {
        o.c(&format!(
            "  # [yellow]Warning[reset]: this {what} will be marked as sensitive and will not\n{}  # display in UI output after applying this change.",
            pad(indent)
        ))
    };
    if what == "attribute value" && inner == DiffOp::NoOp {
        vec![format!("{w} The value is unchanged.")]
    } else {
        vec![w]
    }
}

fn write_warnings(buf: &mut String, d: &Diff<'_>, indent: usize, o: Opts) {
    for w in warnings(d, indent, o) {
        let _ = writeln!(buf, "{}{w}", pad(indent));
    }
}

fn prim_value(v: V<'_>, o: Opts) -> String {
    match v {
        None => o.c("[dark_gray]null[reset]"),
        Some(j) => match (j.as_bool(), j.number_text()) {
            (Some(true), _) => "true".into(),
            (Some(false), _) => "false".into(),
            (_, Some(n)) => n,
            _ => j.to_string(),
        },
    }
}

fn primitive(
    d: &Diff<'_>,
    before: V<'_>,
    after: V<'_>,
    ty: Prim,
    indent: usize,
    o: Opts,
) -> String {
    if ty == Prim::String {
        return string(d, before, after, indent, o);
    }
    let (b, a) = (prim_value(before, o), prim_value(after, o));
    let f = forces(d.replace, o);
    match d.op {
        DiffOp::Create => format!("{a}{f}"),
        DiffOp::Delete => format!("{b}{}{f}", null_suffix(d.op, o)),
        DiffOp::NoOp => format!("{b}{f}"),
        _ => format!("{b} {} {a}{f}", o.c("[yellow]->[reset]")),
    }
}

/// A string value as the string renderer sees it.
struct Evaluated {
    text: String,
    /// The JSON text at the start of the string, when it starts with an object or array.
    json: Option<Vec<u8>>,
    multiline: bool,
    null: bool,
    /// Not a string at all (a document whose values do not match the schema): drawn as
    /// JSON text.
    raw: bool,
}

fn evaluate(v: V<'_>, o: Opts) -> Evaluated {
    let mut e = Evaluated {
        text: String::new(),
        json: None,
        multiline: false,
        null: false,
        raw: false,
    };
    let Some(j) = v else {
        e.text = o.c("[dark_gray]null[reset]");
        e.null = true;
        return e;
    };
    let Some(s) = j.as_str() else {
        e.text = j.to_string();
        e.raw = true;
        return e;
    };
    // OpenTofu reads the JSON value at the start of the string; Terraform only a string
    // that is one JSON value (and white space).
    let is_ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    if let Some(n) = json_prefix(s)
        .filter(|&n| o.dialect == Dialect::OpenTofu || s.as_bytes()[n..].iter().all(|&c| is_ws(c)))
    {
        e.text = s.to_string();
        e.json = Some(s.as_bytes()[..n].to_vec());
        return e;
    }
    if s.contains('\n') {
        e.text = s.trim().to_string();
        e.multiline = true;
    } else {
        e.text = s.to_string();
    }
    e
}

impl Evaluated {
    fn simple(&self) -> String {
        if self.null || self.raw {
            self.text.clone()
        } else {
            quote(&self.text)
        }
    }
}

fn heredoc_lines(text: &str, indent: usize, o: Opts) -> Vec<String> {
    text.split('\n')
        .map(|l| format!("{}{}{l}", pad(indent + 1), symbol(DiffOp::NoOp, o)))
        .collect()
}

fn string(d: &Diff<'_>, before: V<'_>, after: V<'_>, indent: usize, o: Opts) -> String {
    let lines: Vec<String> = match d.op {
        DiffOp::Create | DiffOp::NoOp => {
            let s = evaluate(after, o);
            if let Some(j) = &s.json {
                return if d.op == DiffOp::NoOp {
                    as_json(d, Some(j), Some(j), indent, o)
                } else {
                    as_json(d, None, Some(j), indent, o)
                };
            }
            if !s.multiline {
                return format!("{}{}", s.simple(), forces(d.replace, o));
            }
            heredoc_lines(&s.text, indent, o)
        }
        DiffOp::Delete => {
            let s = evaluate(before, o);
            if s.null {
                return format!("{}{}", s.simple(), forces(d.replace, o));
            }
            if let Some(j) = &s.json {
                return as_json(d, Some(j), None, indent, o);
            }
            if !s.multiline {
                return format!(
                    "{}{}{}",
                    s.simple(),
                    null_suffix(d.op, o),
                    forces(d.replace, o)
                );
            }
            heredoc_lines(&s.text, indent, o)
        }
        _ => {
            let (b, a) = (evaluate(before, o), evaluate(after, o));
            if let (Some(bj), Some(aj)) = (&b.json, &a.json) {
                return as_json(d, Some(bj), Some(aj), indent, o);
            }
            if b.json.is_some() || a.json.is_some() {
                let tc = Diff {
                    r: R::TypeChange(
                        Box::new(Diff {
                            r: R::Primitive {
                                before,
                                after: None,
                                ty: Prim::String,
                            },
                            op: DiffOp::Delete,
                            replace: false,
                        }),
                        Box::new(Diff {
                            r: R::Primitive {
                                before: None,
                                after,
                                ty: Prim::String,
                            },
                            op: DiffOp::Create,
                            replace: false,
                        }),
                    ),
                    op: d.op,
                    replace: d.replace,
                };
                return render(&tc, indent, o);
            }
            if !b.multiline && !a.multiline {
                return format!(
                    "{} {} {}{}",
                    b.simple(),
                    o.c("[yellow]->[reset]"),
                    a.simple(),
                    forces(d.replace, o)
                );
            }
            let bl: Vec<&str> = b.text.split('\n').collect();
            let al: Vec<&str> = a.text.split('\n').collect();
            let mut out = Vec::new();
            let mut line = |action: DiffOp, text: &str| {
                out.push(format!("{}{}{text}", pad(indent + 1), symbol(action, o)));
            };
            differ::align(
                &bl,
                &al,
                |x| *x,
                |_, _| false,
                o.dialect,
                |bi, ai| {
                    if bi >= bl.len() {
                        line(DiffOp::Create, al[ai]);
                    } else if ai >= al.len() {
                        line(DiffOp::Delete, bl[bi]);
                    } else if bl[bi] != al[ai] {
                        // Terraform's lines paired by position.
                        line(DiffOp::Delete, bl[bi]);
                        line(DiffOp::Create, al[ai]);
                    } else {
                        line(DiffOp::NoOp, bl[bi]);
                    }
                },
            );
            out
        }
    };
    format!(
        "<<-EOT{}\n{}\n{}{}EOT{}",
        forces(d.replace, o),
        lines.join("\n"),
        pad(indent),
        symbol(DiffOp::NoOp, o),
        null_suffix(d.op, o)
    )
}

/// A string holding JSON, drawn as a `jsonencode(...)` diff of the decoded values.
fn as_json(
    d: &Diff<'_>,
    before: Option<&[u8]>,
    after: Option<&[u8]>,
    indent: usize,
    o: Opts,
) -> String {
    let mut parser = tfwire_plan::Parser::new();
    let (mut bbuf, mut abuf) = (
        before.map(<[u8]>::to_vec).unwrap_or_default(),
        after.map(<[u8]>::to_vec).unwrap_or_default(),
    );
    let btape = match before {
        Some(_) => parser.parse(&mut bbuf).ok(),
        None => None,
    };
    let atape = match after {
        Some(_) => parser.parse(&mut abuf).ok(),
        None => None,
    };
    let (bj, aj): (Option<Json<'_>>, Option<Json<'_>>) = (
        btape.as_ref().map(|t| t.root()),
        atape.as_ref().map(|t| t.root()),
    );
    if before.is_some() && bj.is_none() || after.is_some() && aj.is_none() {
        // The scanner accepted text the parser did not (not expected): draw it as text.
        let tc = Diff {
            r: R::Primitive {
                before: None,
                after: None,
                ty: Prim::Null,
            },
            op: d.op,
            replace: d.replace,
        };
        return render(&tc, indent, o);
    }
    let v = Val {
        before: written(bj),
        after: written(aj),
        before_explicit: d.op != DiffOp::Create,
        after_explicit: d.op != DiffOp::Delete,
        unknown: Unknown::None,
        before_sensitive: None,
        after_sensitive: None,
        replace: Matcher::paths(Vec::new(), false),
        relevant: Matcher::Always,
        dialect: o.dialect,
        non_legacy: false,
        children: Default::default(),
    };
    let jd = differ::json(&v);
    let mut action = d.op;
    let mut jo = Opts {
        no_null_suffix: true,
        ..o.child()
    };
    let (mut whitespace, mut replace) = ("", String::new());
    if jd.op == DiffOp::NoOp && d.op == DiffOp::Update {
        whitespace = if d.replace {
            " # whitespace changes force replacement"
        } else {
            " # whitespace changes"
        };
        jo.show_unchanged = true;
        action = DiffOp::NoOp;
    } else {
        replace = forces(d.replace, o);
    }
    let rendered = render(&jd, indent + 1, jo);
    if matches!(d.op, DiffOp::Create | DiffOp::Delete) {
        action = DiffOp::NoOp;
    }
    if rendered.contains('\n') {
        format!(
            "jsonencode({whitespace}\n{}{}{rendered}{replace}\n{}{}){}",
            pad(indent + 1),
            symbol(action, o),
            pad(indent),
            symbol(DiffOp::NoOp, o),
            null_suffix(d.op, o)
        )
    } else {
        format!("jsonencode({rendered}){whitespace}{replace}")
    }
}

/// Writes the attributes of an object or a block, one a line, `=` aligned: the important
/// ones (`id`, `name`, `tags`) always, with the options `io`; the others with `ao`, those
/// unchanged counted in one line instead unless `o` shows them.
fn attributes(
    buf: &mut String,
    attrs: &[(&str, Diff<'_>)],
    indent: usize,
    o: Opts,
    ao: Opts,
    io: Opts,
) {
    let width = column_width(attrs.iter().map(|(k, _)| attribute_name(k).len()));
    let mut hidden = 0;
    for (key, a) in attrs {
        let important = is_important(key);
        if !important && a.op == DiffOp::NoOp && !o.show_unchanged {
            hidden += 1;
            continue;
        }
        let ao = if important { io } else { ao };
        write_warnings(buf, a, indent + 1, if important { io } else { o });
        let _ = writeln!(
            buf,
            "{}{}{} = {}",
            pad(indent + 1),
            symbol(a.op, ao),
            aligned(&attribute_name(key), width),
            render(a, indent + 1, ao)
        );
    }
    if hidden > 0 {
        unchanged_line(buf, "attribute", hidden, indent, o);
    }
}

fn object(
    d: &Diff<'_>,
    attrs: &[(&str, Diff<'_>)],
    nested: bool,
    indent: usize,
    o: Opts,
) -> String {
    if attrs.is_empty() {
        return format!("{{}}{}{}", null_suffix(d.op, o), forces(d.replace, o));
    }
    let ao = Opts {
        no_null_suffix: !nested,
        ..o.child()
    };
    let io = Opts {
        show_unchanged: true,
        ..ao.child()
    };
    let mut buf = format!("{{{}\n", forces(d.replace, o));
    attributes(&mut buf, attrs, indent, o, ao, io);
    close_elements(buf, 0, '}', d, indent, o)
}

fn map(d: &Diff<'_>, elems: &[(&str, Diff<'_>)], nested: bool, indent: usize, o: Opts) -> String {
    let self_forces = d.replace && !nested;
    let child_forces = d.replace && nested;
    if elems.is_empty() {
        return format!("{{}}{}{}", null_suffix(d.op, o), forces(self_forces, o));
    }
    let mut sorted: Vec<&(&str, Diff<'_>)> = elems.iter().collect();
    sorted.sort_by(|x, y| x.0.cmp(y.0));
    let width = column_width(sorted.iter().map(|(k, _)| quote(k).len()));
    let eo = Opts {
        no_null_suffix: d.op == DiffOp::Delete || nested,
        force_replacement: child_forces,
        ..o.child()
    };
    let mut buf = format!("{{{}\n", forces(self_forces, o));
    let name = |key: &str| {
        let k = quote(key);
        if nested { k } else { aligned(&k, width) }
    };
    let elements = sorted.into_iter().map(|(k, e)| (Some(*k), e));
    let hidden = element_lines(&mut buf, elements, name, indent, o, eo);
    close_elements(buf, hidden, '}', d, indent, o)
}

fn list(d: &Diff<'_>, elems: &[Diff<'_>], context: bool, indent: usize, o: Opts) -> String {
    if elems.is_empty() {
        return format!("[]{}{}", null_suffix(d.op, o), forces(d.replace, o));
    }
    let eo = Opts {
        no_null_suffix: true,
        ..o.child()
    };
    let uo = Opts {
        show_unchanged: true,
        ..o.child()
    };
    let mut held: Vec<&Diff<'_>> = Vec::new();
    let mut render_next = false;
    let mut buf = format!("[{}\n", forces(d.replace, o));
    for e in elems {
        if e.op == DiffOp::NoOp && !render_next && !o.show_unchanged {
            held.push(e);
            continue;
        }
        render_next = false;
        let mut eo = eo;
        if context {
            if held.len() > 1 {
                unchanged_line(&mut buf, "element", held.len() - 1, indent, eo);
            }
            if let Some(last) = held.last() {
                element_line(&mut buf, last, "", ",", indent, uo);
            }
            held.clear();
            if e.op == DiffOp::NoOp {
                eo = uo;
            } else {
                render_next = true;
            }
        }
        write_warnings(&mut buf, e, indent + 1, eo);
        element_line(&mut buf, e, "", ",", indent, eo);
    }
    close_elements(buf, held.len(), ']', d, indent, o)
}

/// Writes one element of a list, set or map after its change's symbol: `lead` (a map's
/// `KEY = `), the value, then `comma`.
fn element_line(buf: &mut String, e: &Diff<'_>, lead: &str, comma: &str, indent: usize, eo: Opts) {
    let _ = writeln!(
        buf,
        "{}{}{lead}{}{comma}",
        pad(indent + 1),
        symbol(e.op, eo),
        render(e, indent + 1, eo)
    );
}

fn set(d: &Diff<'_>, elems: &[Diff<'_>], nested: bool, indent: usize, o: Opts) -> String {
    let self_forces = d.replace && !nested;
    let child_forces = d.replace && nested;
    if elems.is_empty() {
        return format!("[]{}{}", null_suffix(d.op, o), forces(self_forces, o));
    }
    let eo = Opts {
        no_null_suffix: true,
        force_replacement: child_forces,
        ..o.child()
    };
    let mut buf = format!("[{}\n", forces(self_forces, o));
    let elements = elems.iter().map(|e| (None, e));
    let hidden = element_lines(&mut buf, elements, str::to_string, indent, o, eo);
    close_elements(buf, hidden, ']', d, indent, o)
}

/// Writes the elements of a map (`KEY = VALUE`, the key as `name` writes it; an object
/// value followed by a comma) or of a set (`VALUE,`), one a line under its warnings; the
/// unchanged ones are counted instead unless `o` shows them. Returns how many were.
fn element_lines<'e, 'a: 'e>(
    buf: &mut String,
    elements: impl Iterator<Item = (Option<&'e str>, &'e Diff<'a>)>,
    name: impl Fn(&str) -> String,
    indent: usize,
    o: Opts,
    eo: Opts,
) -> usize {
    let mut hidden = 0;
    for (key, e) in elements {
        if e.op == DiffOp::NoOp && !o.show_unchanged {
            hidden += 1;
            continue;
        }
        write_warnings(buf, e, indent + 1, o);
        let (lead, comma) = match key {
            Some(k) if matches!(e.r, R::Object { .. }) => (format!("{} = ", name(k)), ","),
            Some(k) => (format!("{} = ", name(k)), ""),
            None => (String::new(), ","),
        };
        element_line(buf, e, &lead, comma, indent, eo);
    }
    hidden
}

/// Ends a list, set, map or object drawn member by member: the count of unchanged elements
/// left out, then the closing bracket with the null suffix.
fn close_elements(
    mut buf: String,
    hidden: usize,
    bracket: char,
    d: &Diff<'_>,
    indent: usize,
    o: Opts,
) -> String {
    if hidden > 0 {
        unchanged_line(&mut buf, "element", hidden, indent, o);
    }
    let _ = write!(
        buf,
        "{}{}{bracket}{}",
        pad(indent),
        symbol(DiffOp::NoOp, o),
        null_suffix(d.op, o)
    );
    buf
}

fn block(
    d: &Diff<'_>,
    attrs: &[(&str, Diff<'_>)],
    groups: &[differ::Group<'_>],
    indent: usize,
    o: Opts,
) -> String {
    if attrs.is_empty() && groups.is_empty() {
        return format!("{{}}{}", forces(d.replace, o));
    }
    let io = Opts {
        show_unchanged: true,
        ..o.child()
    };
    let mut buf = format!("{{{}\n", forces(d.replace, o));
    attributes(&mut buf, attrs, indent, o, o.child(), io);
    let mut hidden_blocks = 0;
    let mut sorted: Vec<&differ::Group<'_>> = groups.iter().collect();
    sorted.sort_by(|x, y| x.name.cmp(y.name));
    for g in sorted {
        let mut found = false;
        let mut one = |b: &Diff<'_>, label: &str, o: Opts, buf: &mut String| {
            let creating = b.op == DiffOp::Create && g.after_sensitive;
            let deleting = b.op == DiffOp::Delete && g.before_sensitive;
            let modifying = matches!(b.op, DiffOp::Update | DiffOp::NoOp)
                && (g.after_sensitive || g.before_sensitive);
            let masked = creating || deleting || modifying;
            let action =
                if masked && b.op == DiffOp::NoOp && g.before_sensitive != g.after_sensitive {
                    DiffOp::Update
                } else {
                    b.op
                };
            if action == DiffOp::NoOp && !o.show_unchanged {
                hidden_blocks += 1;
                return;
            }
            if !found && !attrs.is_empty() {
                buf.push('\n');
                found = true;
            }
            let bo = Opts {
                force_replacement: g.replace,
                ..o.child()
            };
            let (warns, body) = if masked {
                (
                    sensitivity_warning(
                        b.op,
                        g.before_sensitive,
                        g.after_sensitive,
                        "block",
                        indent + 1,
                        bo,
                    ),
                    sensitive_block(b.replace, indent + 1, bo),
                )
            } else {
                (warnings(b, indent + 1, bo), render(b, indent + 1, bo))
            };
            for w in warns {
                let _ = writeln!(buf, "{}{w}", pad(indent + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{}{label} {body}",
                pad(indent + 1),
                symbol(action, bo),
                attribute_name(g.name)
            );
        };
        // Terraform: a wholly unknown group of blocks is one line first, with the
        // action of the block it is in.
        if g.unknown && !matches!(g.blocks, Blocks::Single(_)) {
            let u = Diff {
                r: R::Unknown(None),
                op: d.op,
                replace: false,
            };
            one(&u, "", o, &mut buf);
        }
        match &g.blocks {
            Blocks::Single(b) => one(b, "", o, &mut buf),
            Blocks::Map(m) => {
                let mut keys: Vec<&(&str, Diff<'_>)> = m.iter().collect();
                keys.sort_by(|x, y| x.0.cmp(y.0));
                for (k, b) in keys {
                    one(b, &format!(" {}", quote(k)), o, &mut buf);
                }
            }
            Blocks::Set(list) | Blocks::List(list) => {
                for b in list {
                    one(b, "", o, &mut buf);
                }
            }
        }
    }
    if hidden_blocks > 0 {
        buf.push('\n');
        unchanged_line(&mut buf, "block", hidden_blocks, indent, o);
    }
    let _ = write!(buf, "{}{}}}", pad(indent), symbol(DiffOp::NoOp, o));
    buf
}
