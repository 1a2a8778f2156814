//! Resource instance addresses as the plan file writes them (`module.a["x"].aws_s3_bucket.b[0]`):
//! parsed into their parts for the JSON fields (`module_address`, `mode`, `type`, `name`,
//! `index`) and for OpenTofu's ordering of `resource_changes`.

use crate::error::Error;
use core::cmp::Ordering;

/// An instance key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    None,
    Int(i64),
    Str(String),
    /// `[*]`: a key not known yet (Terraform's deferred changes, `index_unknown`).
    Unknown,
}

impl Key {
    /// OpenTofu's order: no key, then integers (numerically), then strings (bytewise), then
    /// unknown keys.
    fn cmp(&self, other: &Key) -> Ordering {
        let rank = |k: &Key| match k {
            Key::None => 0,
            Key::Int(_) => 1,
            Key::Str(_) => 2,
            Key::Unknown => 3,
        };
        match (self, other) {
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Str(a), Key::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

/// A resource's mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Managed,
    Data,
    Ephemeral,
}

impl Mode {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::Managed => "managed",
            Mode::Data => "data",
            Mode::Ephemeral => "ephemeral",
        }
    }

    /// OpenTofu's order: ephemeral, data, managed.
    fn rank(self) -> u8 {
        match self {
            Mode::Ephemeral => 0,
            Mode::Data => 1,
            Mode::Managed => 2,
        }
    }
}

/// A parsed resource instance address.
#[derive(Clone, Debug)]
pub(crate) struct Address<'a> {
    /// The module instance path, each step's name and key.
    pub(crate) module: Vec<(&'a str, Key)>,
    /// The module instance address as written (`module.a["x"]`), empty in the root module.
    pub(crate) module_text: &'a str,
    pub(crate) mode: Mode,
    pub(crate) type_name: &'a str,
    pub(crate) name: &'a str,
    pub(crate) key: Key,
}

impl<'a> Address<'a> {
    /// Parses an absolute resource instance address.
    pub(crate) fn parse(text: &'a str) -> Result<Address<'a>, Error> {
        let bad = |why: &str| Error::invalid(format!("invalid resource address {text:?}: {why}"));
        let mut rest = text;
        let mut module = Vec::new();
        let mut module_end = 0;
        while let Some(after) = rest.strip_prefix("module.") {
            let (name, r) = ident(after).ok_or_else(|| bad("a module name is expected"))?;
            let (key, r) = key(r).map_err(&bad)?;
            module.push((name, key));
            rest = r.strip_prefix('.').ok_or_else(|| bad("'.' is expected"))?;
            module_end = text.len() - rest.len() - 1;
        }
        let mode = if let Some(r) = rest.strip_prefix("data.") {
            rest = r;
            Mode::Data
        } else if let Some(r) = rest.strip_prefix("ephemeral.") {
            rest = r;
            Mode::Ephemeral
        } else {
            Mode::Managed
        };
        let (type_name, r) = ident(rest).ok_or_else(|| bad("a resource type is expected"))?;
        let r = r.strip_prefix('.').ok_or_else(|| bad("'.' is expected"))?;
        let (name, r) = ident(r).ok_or_else(|| bad("a resource name is expected"))?;
        let (key, r) = key(r).map_err(&bad)?;
        if !r.is_empty() {
            return Err(bad("unexpected text after the address"));
        }
        Ok(Address {
            module,
            module_text: &text[..module_end],
            mode,
            type_name,
            name,
            key,
        })
    }

    /// OpenTofu's order of resource instances: module path (shorter first, then step by
    /// step by name and key), then mode, type, name and key.
    pub(crate) fn cmp(&self, other: &Address<'_>) -> Ordering {
        self.module
            .len()
            .cmp(&other.module.len())
            .then_with(|| {
                for ((an, ak), (bn, bk)) in self.module.iter().zip(&other.module) {
                    let o = an.as_bytes().cmp(bn.as_bytes()).then_with(|| ak.cmp(bk));
                    if o.is_ne() {
                        return o;
                    }
                }
                Ordering::Equal
            })
            .then_with(|| self.mode.rank().cmp(&other.mode.rank()))
            .then_with(|| self.type_name.as_bytes().cmp(other.type_name.as_bytes()))
            .then_with(|| self.name.as_bytes().cmp(other.name.as_bytes()))
            .then_with(|| self.key.cmp(&other.key))
    }
}

/// The type and name of an action instance address (`module.a[0].action.TYPE.NAME[KEY]`).
pub(crate) fn action_parts(text: &str) -> Result<(&str, &str), Error> {
    let bad = |why: &str| Error::invalid(format!("invalid action address {text:?}: {why}"));
    let mut rest = text;
    while let Some(after) = rest.strip_prefix("module.") {
        let (_, r) = ident(after).ok_or_else(|| bad("a module name is expected"))?;
        let (_, r) = key(r).map_err(&bad)?;
        rest = r.strip_prefix('.').ok_or_else(|| bad("'.' is expected"))?;
    }
    let rest = rest
        .strip_prefix("action.")
        .ok_or_else(|| bad("`action.` is expected"))?;
    let (type_name, r) = ident(rest).ok_or_else(|| bad("an action type is expected"))?;
    let r = r.strip_prefix('.').ok_or_else(|| bad("'.' is expected"))?;
    let (name, r) = ident(r).ok_or_else(|| bad("an action name is expected"))?;
    let (_, r) = key(r).map_err(&bad)?;
    if !r.is_empty() {
        return Err(bad("unexpected text after the address"));
    }
    Ok((type_name, name))
}

/// An HCL identifier (letters, digits, `_`, `-`) at the start of `s`.
fn ident(s: &str) -> Option<(&str, &str)> {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(s.len());
    (end > 0).then(|| (&s[..end], &s[end..]))
}

/// An optional instance key at the start of `s`: `[0]`, `["text"]` (HCL quoting) or `[*]`.
fn key(s: &str) -> Result<(Key, &str), &'static str> {
    let Some(r) = s.strip_prefix('[') else {
        return Ok((Key::None, s));
    };
    if let Some(r) = r.strip_prefix("*]") {
        return Ok((Key::Unknown, r));
    }
    if let Some(q) = r.strip_prefix('"') {
        let (text, r) = tfwire_plan::address::unquote_hcl(q)?;
        let r = r.strip_prefix(']').ok_or("']' is expected")?;
        return Ok((Key::Str(text.into_owned()), r));
    }
    let end = r.find(']').ok_or("']' is expected")?;
    let n = r[..end]
        .parse()
        .map_err(|_| "an integer or a quoted key is expected")?;
    Ok((Key::Int(n), &r[end + 1..]))
}

/// The provider's address (`registry.opentofu.org/hashicorp/aws`) in a provider
/// configuration address (`module.a.provider["registry.opentofu.org/hashicorp/aws"].west`).
pub(crate) fn provider_name(config_addr: &str) -> Option<&str> {
    const OPEN: &str = "provider[\"";
    // Most are the root module's: no search.
    let start = if config_addr.starts_with(OPEN) {
        OPEN.len()
    } else {
        config_addr.find(OPEN)? + OPEN.len()
    };
    let len = config_addr[start..].find('"')?;
    Some(&config_addr[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders() {
        let a = Address::parse(r#"module.a["x\"y"].module.b[2].data.t_x.n["k $${v}"]"#).unwrap();
        assert_eq!(a.module_text, r#"module.a["x\"y"].module.b[2]"#);
        assert_eq!(a.module[0], ("a", Key::Str("x\"y".into())));
        assert_eq!(a.module[1], ("b", Key::Int(2)));
        assert_eq!((a.mode, a.type_name, a.name), (Mode::Data, "t_x", "n"));
        assert_eq!(a.key, Key::Str("k ${v}".into()));
        assert_eq!(
            action_parts(r#"module.action["k"].action.myaction.n[0]"#).unwrap(),
            ("myaction", "n")
        );
        for bad in ["action.t", "t.n", "action.t.n.x", "module.m.t.n"] {
            assert!(action_parts(bad).is_err(), "{bad}");
        }
        let w = Address::parse("module.m[*].t.n[*]").unwrap();
        assert_eq!((w.module[0].1.clone(), w.key), (Key::Unknown, Key::Unknown));
        let mut addrs = [
            "module.z.t.a",
            "t.b[\"a\"]",
            "t.b[10]",
            "t.b[9]",
            "data.t.a",
            "t.b",
            "module.a[1].t.a",
            "module.a[0].t.a",
        ]
        .map(|s| Address::parse(s).unwrap());
        addrs.sort_by(|a, b| a.cmp(b));
        let order: Vec<String> = addrs
            .iter()
            .map(|a| format!("{}{}.{}{:?}", a.module_text, a.type_name, a.name, a.key))
            .collect();
        assert_eq!(
            order,
            [
                "t.aNone",
                "t.bNone",
                "t.bInt(9)",
                "t.bInt(10)",
                "t.bStr(\"a\")",
                "module.a[0]t.aNone",
                "module.a[1]t.aNone",
                "module.zt.aNone",
            ]
        );
        for bad in [
            "",
            "t",
            "t.",
            "module.t.a",
            "t.a[",
            "t.a[\"x]",
            "t.a[x]",
            "t.a b",
        ] {
            assert!(Address::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            provider_name(r#"module.a.provider["registry.opentofu.org/hashicorp/aws"].west"#),
            Some("registry.opentofu.org/hashicorp/aws")
        );
    }
}
