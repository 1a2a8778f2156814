//! Selecting resource changes: [`Glob`] patterns over addresses and types, and the
//! [`Filter`] that [`crate::Summary::filtered`] applies.

use crate::change::skip_brackets;
use crate::error::{Error, ErrorKind};
use crate::summary::{COUNT_KEYS, ChangeSummary, Counts, Summary};
/// The shell-style pattern of filters and masks, from tfwire's core crate (one matcher for
/// the workspace): re-exported here, where filters take it.
pub use tfwire::glob::Glob;

/// Which resource changes to keep: every condition given must hold; within one condition,
/// any of its values may match; a change an exclusion matches is left out whatever else
/// matches.
///
/// ```
/// use tfwire_plan::Filter;
/// let f = Filter::new().action("replace")?.action("delete")?.type_glob("aws_*");
/// assert!(!f.is_empty());
/// let f = f.exclude_type_glob("aws_iam_*").exclude_address_glob("*[\"prod\"]");
/// assert!(!f.is_empty());
/// assert!(Filter::new().action("creat").is_err());
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Filter {
    actions: Vec<String>,
    types: Vec<Glob>,
    addresses: Vec<Glob>,
    /// `None`: the root module.
    modules: Vec<Option<Glob>>,
    exclude_types: Vec<Glob>,
    exclude_addresses: Vec<Glob>,
}

impl Filter {
    /// A filter that keeps everything.
    pub fn new() -> Filter {
        Filter::default()
    }

    /// Keeps changes whose summary key is `action`: `create`, `update`, `delete`,
    /// `replace`, `read`, `no_op` (or `no-op`), `forget`, or a joined key such as
    /// `create+forget`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Invalid`] for any other word, naming the accepted ones.
    pub fn action(mut self, action: &str) -> Result<Filter, Error> {
        let key = if action == "no-op" { "no_op" } else { action };
        let joined = key.contains('+') && key.split('+').all(|a| !a.is_empty());
        if !COUNT_KEYS.contains(&key) && !joined {
            return Err(Error::argument(ErrorKind::Invalid(format!(
                "unknown action {}: expected one of {}, or actions joined with '+' \
                 (e.g. create+forget)",
                tfwire_json::Safe(action),
                COUNT_KEYS.join(", ")
            ))));
        }
        self.actions.push(key.to_string());
        Ok(self)
    }

    /// Keeps changes whose resource type matches the [`Glob`] (`aws_iam_*`).
    pub fn type_glob(mut self, pattern: &str) -> Filter {
        self.types.push(Glob::new(pattern));
        self
    }

    /// Keeps changes whose address (or address before a move) matches the [`Glob`].
    pub fn address_glob(mut self, pattern: &str) -> Filter {
        self.addresses.push(Glob::new(pattern));
        self
    }

    /// Keeps changes in module `module` or below it: `module.vpc` selects
    /// `module.vpc`, `module.vpc[0]`, `module.vpc["a"]` and `module.vpc.module.subnets`.
    /// The module may be a [`Glob`] (`module.app_*`); `root` (or the empty string) selects
    /// the root module's own resources.
    pub fn module(mut self, module: &str) -> Filter {
        self.modules
            .push((!matches!(module, "" | "root")).then(|| Glob::new(module)));
        self
    }

    /// Leaves out changes whose resource type matches the [`Glob`], whatever else matches.
    pub fn exclude_type_glob(mut self, pattern: &str) -> Filter {
        self.exclude_types.push(Glob::new(pattern));
        self
    }

    /// Leaves out changes whose address (or address before a move) matches the [`Glob`],
    /// whatever else matches.
    pub fn exclude_address_glob(mut self, pattern: &str) -> Filter {
        self.exclude_addresses.push(Glob::new(pattern));
        self
    }

    /// Whether the filter keeps everything.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
            && self.types.is_empty()
            && self.addresses.is_empty()
            && self.modules.is_empty()
            && self.exclude_types.is_empty()
            && self.exclude_addresses.is_empty()
    }

    /// Whether `change` is kept.
    pub fn matches(&self, change: &ChangeSummary<'_>) -> bool {
        let at_address = |g: &Glob| {
            g.matches(change.address) || change.previous_address.is_some_and(|p| g.matches(p))
        };
        !self
            .exclude_types
            .iter()
            .any(|g| g.matches(change.type_name))
            && !self.exclude_addresses.iter().any(at_address)
            && (self.actions.is_empty() || self.actions.iter().any(|a| *a == change.kind.key()))
            && (self.types.is_empty() || self.types.iter().any(|g| g.matches(change.type_name)))
            && (self.addresses.is_empty() || self.addresses.iter().any(at_address))
            && (self.modules.is_empty()
                || self.modules.iter().any(|g| match g {
                    None => change.module_address.is_empty(),
                    Some(g) => module_matches(g, change.module_address),
                }))
    }
}

/// Whether `module` (a module instance address) is the module `g` names or below it.
fn module_matches(g: &Glob, module: &str) -> bool {
    // Every ancestor (and the module itself), with and without its last instance key:
    // `module.a`, `module.a[0]`, `module.a[0].module.b`, ...
    let b = module.as_bytes();
    let mut i = 0;
    while b[i..].starts_with(b"module.") {
        i += "module.".len();
        while i < b.len() && b[i] != b'.' && b[i] != b'[' {
            i += 1;
        }
        if g.matches(&module[..i]) {
            return true;
        }
        if i < b.len() && b[i] == b'[' {
            i = skip_brackets(b, i);
            if g.matches(&module[..i]) {
                return true;
            }
        }
        if i >= b.len() || b[i] != b'.' {
            break;
        }
        i += 1;
    }
    false
}

impl<'a> Summary<'a> {
    /// The summary of the changes (drift entries, deferred changes) that `filter` selects,
    /// counted again; [`Summary::unfiltered`] keeps the whole plan's numbers. Output changes
    /// and action invocations stay as they are.
    ///
    /// ```
    /// use tfwire_plan::{Filter, Summary};
    /// let mut input = br#"{"format_version":"1.2","resource_changes":[
    ///   {"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a","change":{"actions":["create"]}},
    ///   {"address":"module.net.aws_subnet.b[0]","module_address":"module.net","mode":"managed",
    ///    "type":"aws_subnet","name":"b","index":0,"change":{"actions":["delete"]}}]}"#.to_vec();
    /// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
    /// let arena = bumpalo::Bump::new();
    /// let summary = Summary::of(tape.plan(&arena)?);
    /// let only = summary.filtered(&Filter::new().module("module.net"));
    /// assert_eq!((only.counts.get("create"), only.counts.get("delete")), (0, 1));
    /// assert_eq!(only.unfiltered, Some((2, 0)));
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    pub fn filtered(&self, filter: &Filter) -> Summary<'a> {
        let pick = |list: &[ChangeSummary<'a>]| -> (Counts, Vec<ChangeSummary<'a>>) {
            let mut counts = Counts::default();
            let mut out = Vec::new();
            for c in list.iter().filter(|c| filter.matches(c)) {
                counts.add(c.kind);
                out.push(c.clone());
            }
            (counts, out)
        };
        let (counts, changes) = pick(&self.changes);
        let (drift, drift_changes) = pick(&self.drift_changes);
        let (deferred, deferred_changes) = pick(&self.deferred_changes);
        Summary {
            format_version: self.format_version,
            terraform_version: self.terraform_version,
            counts,
            drift,
            changes,
            drift_changes,
            unfiltered: Some(
                self.unfiltered
                    .unwrap_or((self.changes.len(), self.drift_changes.len())),
            ),
            outputs: self.outputs.clone(),
            output_changes: self.output_changes.clone(),
            deferred,
            deferred_changes,
            action_invocations: self.action_invocations.clone(),
            deferred_action_invocations: self.deferred_action_invocations.clone(),
            client: self.client,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::module_of;

    #[test]
    fn modules() {
        for (address, module) in [
            ("aws_instance.a", ""),
            ("module.a.aws_instance.a", "module.a"),
            ("module.a[0].module.b.data.x.y", "module.a[0].module.b"),
            (
                r#"module.a["x.y]"].aws_instance.a["k"]"#,
                r#"module.a["x.y]"]"#,
            ),
            (r#"module.a["q\"].z"].t.n"#, r#"module.a["q\"].z"]"#),
            ("module.a", ""),
        ] {
            assert_eq!(module_of(address), module, "{address}");
        }
        for (pattern, module, want) in [
            ("module.a", "module.a", true),
            ("module.a", "module.a[0]", true),
            ("module.a", r#"module.a["k"].module.b"#, true),
            ("module.a", "module.ab", false),
            ("module.a[0]", "module.a[1]", false),
            ("module.a.module.b", "module.a.module.b.module.c", true),
            ("module.*", "module.x", true),
            ("*", "module.x", true),
            ("module.a", "", false),
        ] {
            assert_eq!(
                module_matches(&Glob::new(pattern), module),
                want,
                "{pattern} {module}"
            );
        }
    }
}
