//! Resource instance addresses as the clients write, read and sort them.
//!
//! - [`write_hcl_quoted`]: a `for_each` key in an address, quoted as OpenTofu's and
//!   Terraform's `addrs.StringKey` quote it (HCL's quoted-string syntax): `"` and `\`
//!   escaped, `\n` `\r` `\t`, a template introducer doubled (`${` → `$${`, `%{` → `%%{`),
//!   every character Go's `unicode.IsPrint` rejects in the Go that built the clients
//!   ([`tfwire_json::escape::is_go_printable`]: controls, format characters, unassigned
//!   code points, characters of later Unicode versions) as `\u` with four lower-case hex
//!   digits (`\U` with eight above U+FFFF).
//! - [`InstanceAddr::parse`]: an address read back from that text (`module.m["a$${x}"].
//!   tfwire_item.k[0]`), so that `state show ADDRESS` finds every address `state list`
//!   prints, whichever way its keys were escaped.
//! - [`unquote_hcl`]: one quoted key read back (the reverse of [`write_hcl_quoted`]), for
//!   every crate that reads addresses.
//! - [`sort_state_list`]: the order of `tofu state list` (`addrs.AbsResourceInstance.Less`):
//!   shorter module paths first, then module names and keys, then ephemeral, data and
//!   managed resources, type, name and key; `count` indexes by number (`[9]` before
//!   `[10]`), `for_each` keys by their bytes, not by their quoted text.
//!
//! ```
//! use tfwire_plan::address::{InstanceAddr, sort_state_list};
//! let a = InstanceAddr::parse(r#"module.m["a$${x}"].tfwire_item.k["\u0041"]"#).unwrap();
//! assert_eq!(a.to_string(), r#"module.m["a$${x}"].tfwire_item.k["A"]"#);
//! let mut list = vec!["module.m[0].a.b".to_string(), "a.b[10]".into(), "a.b[9]".into()];
//! sort_state_list(&mut list);
//! assert_eq!(list, ["a.b[9]", "a.b[10]", "module.m[0].a.b"]);
//! ```

use core::cmp::Ordering;
use core::fmt;
use std::borrow::Cow;
use tfwire_json::escape::write_hcl_quoted;

/// An instance key of an address read back ([`InstanceAddr::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key<'a> {
    /// A `count` index.
    Int(u64),
    /// A `for_each` key, unescaped.
    Str(Cow<'a, str>),
}

impl Key<'_> {
    /// `addrs.InstanceKeyLess`: integers before strings, integers by value, strings by
    /// their bytes.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Str(a), Key::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Key::Int(_), Key::Str(_)) => Ordering::Less,
            (Key::Str(_), Key::Int(_)) => Ordering::Greater,
        }
    }
}

/// An absent key sorts before any key.
fn cmp_key(a: &Option<Key<'_>>, b: &Option<Key<'_>>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => a.cmp(b),
    }
}

impl fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Int(n) => write!(f, "[{n}]"),
            Key::Str(s) => {
                f.write_str("[")?;
                write_hcl_quoted(f, s)?;
                f.write_str("]")
            }
        }
    }
}

/// A resource instance address read back from its text (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceAddr<'a> {
    /// The module instance path: each call's name and key.
    pub module: Vec<(&'a str, Option<Key<'a>>)>,
    /// `""` (managed), `"data"` or `"ephemeral"`.
    pub mode: &'a str,
    /// The resource type.
    pub type_name: &'a str,
    /// The resource name.
    pub name: &'a str,
    /// The instance key.
    pub key: Option<Key<'a>>,
}

impl<'a> InstanceAddr<'a> {
    /// Reads an address: `module.NAME[KEY].` steps, an optional `data.` or `ephemeral.`,
    /// `TYPE.NAME` and an optional key, each key `[N]` or a quoted string with HCL's
    /// escapes (`\n`, `\r`, `\t`, `\"`, `\\`, `\uNNNN`, `\UNNNNNNNN`, `$${`, `%%{`). `None`
    /// for any other text (an unescaped template introducer, a key that does not close).
    pub fn parse(text: &'a str) -> Option<InstanceAddr<'a>> {
        let mut rest = text;
        let mut module = Vec::new();
        while let Some(after) = rest.strip_prefix("module.") {
            let (name, key, tail) = name_and_key(after)?;
            module.push((name, key));
            rest = tail.strip_prefix('.')?;
        }
        let mut mode = "";
        for m in ["data", "ephemeral"] {
            if let Some(after) = rest.strip_prefix(m).and_then(|r| r.strip_prefix('.')) {
                // `data.x` alone is a resource of type `data`.
                if after.contains('.') {
                    mode = m;
                    rest = after;
                }
                break;
            }
        }
        let (type_name, tail) = rest.split_once('.')?;
        if !plain_name(type_name) {
            return None;
        }
        let (name, key, tail) = name_and_key(tail)?;
        tail.is_empty().then_some(InstanceAddr {
            module,
            mode,
            type_name,
            name,
            key,
        })
    }

    /// The order of `tofu state list` and `terraform state list` (see the module docs).
    pub fn cmp_state_list(&self, other: &Self) -> Ordering {
        let modules = self.module.len().cmp(&other.module.len()).then_with(|| {
            for ((an, ak), (bn, bk)) in self.module.iter().zip(&other.module) {
                let o = an
                    .as_bytes()
                    .cmp(bn.as_bytes())
                    .then_with(|| cmp_key(ak, bk));
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        });
        let rank = |m: &str| match m {
            "ephemeral" => 0,
            "data" => 1,
            _ => 2,
        };
        modules
            .then_with(|| rank(self.mode).cmp(&rank(other.mode)))
            .then_with(|| self.type_name.as_bytes().cmp(other.type_name.as_bytes()))
            .then_with(|| self.name.as_bytes().cmp(other.name.as_bytes()))
            .then_with(|| cmp_key(&self.key, &other.key))
    }
}

/// The clients' text of the address: keys quoted by [`write_hcl_quoted`].
impl fmt::Display for InstanceAddr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, key) in &self.module {
            write!(f, "module.{name}")?;
            if let Some(k) = key {
                write!(f, "{k}")?;
            }
            f.write_str(".")?;
        }
        if !self.mode.is_empty() {
            write!(f, "{}.", self.mode)?;
        }
        write!(f, "{}.{}", self.type_name, self.name)?;
        if let Some(k) = &self.key {
            write!(f, "{k}")?;
        }
        Ok(())
    }
}

/// The address `text` written as the clients write it (its keys quoted by
/// [`write_hcl_quoted`]), or `text` itself when it does not read as an address: two texts
/// of one address have the same canonical form.
///
/// ```
/// use tfwire_plan::address::canonical;
/// assert_eq!(canonical(r#"a.b["\u003c"]"#), canonical(r#"a.b["<"]"#));
/// ```
pub fn canonical(text: &str) -> Cow<'_, str> {
    match InstanceAddr::parse(text) {
        Some(a) => {
            let s = a.to_string();
            if s == text {
                Cow::Borrowed(text)
            } else {
                Cow::Owned(s)
            }
        }
        None => Cow::Borrowed(text),
    }
}

/// Sorts addresses as `tofu state list` lists them (see the module docs); texts that do
/// not read as addresses come last, in byte order.
pub fn sort_state_list(addresses: &mut [String]) {
    let mut parsed: Vec<(Option<InstanceAddr<'_>>, &String)> = addresses
        .iter()
        .map(|a| (InstanceAddr::parse(a), a))
        .collect();
    parsed.sort_by(|(a, at), (b, bt)| match (a, b) {
        (Some(a), Some(b)) => a.cmp_state_list(b).then_with(|| at.cmp(bt)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => at.cmp(bt),
    });
    let sorted: Vec<String> = parsed.into_iter().map(|(_, s)| s.clone()).collect();
    for (slot, s) in addresses.iter_mut().zip(sorted) {
        *slot = s;
    }
}

/// A name: no separator, bracket or quote, not empty.
fn plain_name(s: &str) -> bool {
    !s.is_empty() && !s.contains(['.', '[', ']', '"'])
}

/// `NAME` and an optional `[KEY]` at the start of `s`, and what follows.
fn name_and_key(s: &str) -> Option<(&str, Option<Key<'_>>, &str)> {
    let end = s.find(['.', '[']).unwrap_or(s.len());
    let (name, rest) = s.split_at(end);
    if !plain_name(name) {
        return None;
    }
    let Some(inner) = rest.strip_prefix('[') else {
        return Some((name, None, rest));
    };
    if let Some(quoted) = inner.strip_prefix('"') {
        let (key, after) = unquote_hcl(quoted).ok()?;
        let after = after.strip_prefix(']')?;
        return Some((name, Some(Key::Str(key)), after));
    }
    let close = inner.find(']')?;
    let digits = &inner[..close];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse().ok()?;
    Some((name, Some(Key::Int(n)), &inner[close + 1..]))
}

/// The HCL quoted string whose text starts `s` (after the opening quote), unescaped, and
/// the text after its closing quote: the reverse of [`write_hcl_quoted`]. Escapes are
/// `\n` `\r` `\t` `\"` `\\`, `\u` with four and `\U` with eight hex digits; a doubled
/// template introducer (`$${`, `%%{`) stands for `${`, `%{`, and a bare one is refused (it
/// would start a template). No allocation when the key has no escape.
///
/// ```
/// use tfwire_plan::address::unquote_hcl;
/// let (key, rest) = unquote_hcl(r#"a$${x}\u0041"]"#).unwrap();
/// assert_eq!((&*key, rest), ("a${x}A", "]"));
/// assert_eq!(unquote_hcl("a${x}\"").unwrap_err(), "a template in a quoted key");
/// assert_eq!(unquote_hcl("a").unwrap_err(), "unterminated string");
/// ```
pub fn unquote_hcl(s: &str) -> Result<(Cow<'_, str>, &str), &'static str> {
    const UNTERMINATED: &str = "unterminated string";
    let bytes = s.as_bytes();
    let plain = bytes
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | b'$' | b'%'))
        .ok_or(UNTERMINATED)?;
    if bytes[plain] == b'"' {
        return Ok((Cow::Borrowed(&s[..plain]), &s[plain + 1..]));
    }
    let mut out = String::from(&s[..plain]);
    let mut chars = s[plain..].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((Cow::Owned(out), &s[plain + i + 1..])),
            '\\' => {
                let (_, e) = chars.next().ok_or(UNTERMINATED)?;
                match e {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let digits = if e == 'u' { 4 } else { 8 };
                        let mut n = 0u32;
                        for _ in 0..digits {
                            let h = chars.next().and_then(|(_, h)| h.to_digit(16));
                            n = n * 16 + h.ok_or("invalid \\u escape")?;
                        }
                        out.push(char::from_u32(n).ok_or("invalid \\u escape")?);
                    }
                    _ => return Err("invalid escape"),
                }
            }
            // `$${` is a literal `${` (the scanner matches it wherever it starts: in `$$${`,
            // after a plain `$`); a bare `${` would start a template.
            '$' | '%' => {
                let mut look = chars.clone();
                match (look.next(), look.next()) {
                    (Some((_, d)), Some((_, '{'))) if d == c => {
                        chars.next();
                        chars.next();
                        out.push(c);
                        out.push('{');
                    }
                    (Some((_, '{')), _) => return Err("a template in a quoted key"),
                    _ => out.push(c),
                }
            }
            c => out.push(c),
        }
    }
    Err(UNTERMINATED)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key quoted by `write_hcl_quoted` reads back as itself, alone and in an address.
    #[test]
    fn keys_read_back() {
        let keys = [
            "",
            "a",
            "a${x}",
            "a$${x}",
            "b%{y}",
            "$",
            "%",
            "$$",
            "%%{",
            "a$z",
            "<&>",
            "\"\\",
            "\n\r\t",
            "\u{1}\u{7f}\u{9b}\u{202e}",
            "é",
            "sp ace",
            "10",
        ];
        for k in keys {
            let mut text = String::from("module.m[");
            write_hcl_quoted(&mut text, k).unwrap();
            text.push_str("].t.n[");
            write_hcl_quoted(&mut text, k).unwrap();
            text.push(']');
            let a = InstanceAddr::parse(&text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(a.key, Some(Key::Str(Cow::Borrowed(k))), "{text}");
            assert_eq!(a.module[0].1, Some(Key::Str(Cow::Borrowed(k))), "{text}");
            assert_eq!(a.to_string(), text);
        }
    }

    /// Texts that are not addresses are refused, not misread.
    #[test]
    fn refuses_what_is_not_an_address() {
        for text in [
            "",
            "a",
            "a.",
            ".b",
            "a.b[",
            "a.b[]",
            "a.b[x]",
            "a.b[-1]",
            r#"a.b["x"#,
            r#"a.b["${x}"]"#,
            r#"a.b["%{x}"]"#,
            r#"a.b["\q"]"#,
            r#"a.b["\u12"]"#,
            "a.b[0]c",
            "module.m",
            "a.b.c",
        ] {
            assert_eq!(InstanceAddr::parse(text), None, "{text}");
        }
    }

    /// `data.` and `ephemeral.` are modes only before `TYPE.NAME`.
    #[test]
    fn modes() {
        let a = InstanceAddr::parse("data.t.n").unwrap();
        assert_eq!((a.mode, a.type_name, a.name), ("data", "t", "n"));
        let a = InstanceAddr::parse("data.n").unwrap();
        assert_eq!((a.mode, a.type_name, a.name), ("", "data", "n"));
    }

    /// The state list order: shorter module paths, ephemeral < data < managed, keys by
    /// value.
    #[test]
    fn state_list_order() {
        let mut list: Vec<String> = [
            "module.a.module.b.t.n",
            "module.m[10].t.n",
            "module.m[9].t.n",
            r#"module.m["a"].t.n"#,
            "t.n",
            "data.t.n",
            "ephemeral.t.n",
            r#"t.k["a\\"]"#,
            r#"t.k["a\u0001"]"#,
            r#"t.k["a$${x}"]"#,
            r#"t.k["a$z"]"#,
            "t.c[10]",
            "t.c[2]",
            "not an address",
        ]
        .map(String::from)
        .to_vec();
        sort_state_list(&mut list);
        assert_eq!(
            list,
            [
                "ephemeral.t.n",
                "data.t.n",
                "t.c[2]",
                "t.c[10]",
                r#"t.k["a\u0001"]"#,
                r#"t.k["a$z"]"#,
                r#"t.k["a$${x}"]"#,
                r#"t.k["a\\"]"#,
                "t.n",
                "module.m[9].t.n",
                "module.m[10].t.n",
                r#"module.m["a"].t.n"#,
                "module.a.module.b.t.n",
                "not an address",
            ]
        );
    }
}
