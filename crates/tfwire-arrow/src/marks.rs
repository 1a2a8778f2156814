//! Marker trees (sensitive, unknown), owned: read from a document's marker JSON
//! (`after_sensitive`, `sensitive_values`, `after_unknown`, ...) or from a raw state's
//! `sensitive_attributes` paths.

use crate::error::Error;
use tfwire_plan::{Json, Path, PathStep};

/// Which parts of a value are marked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Marks {
    /// Nothing here or below.
    #[default]
    None,
    /// All of it.
    All,
    /// Members of an object or map.
    Members(Vec<(String, Marks)>),
    /// Elements of a list, set or tuple.
    Elements(Vec<Marks>),
}

impl Marks {
    pub(crate) fn is_all(&self) -> bool {
        matches!(self, Marks::All)
    }

    /// Whether anything at or below is marked.
    pub(crate) fn any(&self) -> bool {
        match self {
            Marks::None => false,
            Marks::All => true,
            Marks::Members(ms) => ms.iter().any(|(_, m)| m.any()),
            Marks::Elements(es) => es.iter().any(Marks::any),
        }
    }

    /// The marks of a member. A tree of elements looked into by name does not fit the
    /// value: the member counts as marked (fail closed).
    pub(crate) fn member(&self, name: &str) -> Marks {
        match self {
            Marks::None => Marks::None,
            Marks::All | Marks::Elements(_) => Marks::All,
            Marks::Members(ms) => ms
                .iter()
                .find(|(n, _)| n == name)
                .map_or(Marks::None, |(_, m)| m.clone()),
        }
    }

    /// The marks of an element (fail closed as [`Marks::member`]).
    pub(crate) fn element(&self, i: usize) -> Marks {
        match self {
            Marks::None => Marks::None,
            Marks::All | Marks::Members(_) => Marks::All,
            Marks::Elements(es) => es.get(i).cloned().unwrap_or(Marks::None),
        }
    }

    /// Reads a marker tree as the clients write one: `true` marks all; `false`, `null` or
    /// absent mark nothing; an object or array is a tree. Anything else cannot be read as
    /// sensitivity, and is an error (fail closed) for the caller to report.
    pub(crate) fn from_json(v: Option<Json<'_>>) -> Result<Marks, Error> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(Marks::None);
        };
        if let Some(b) = v.as_bool() {
            return Ok(if b { Marks::All } else { Marks::None });
        }
        if let Some(o) = v.as_object() {
            let mut out = Vec::new();
            for (k, m) in o.iter() {
                let m = Marks::from_json(Some(m))?;
                if m != Marks::None {
                    out.push((k.to_owned(), m));
                }
            }
            return Ok(if out.is_empty() {
                Marks::None
            } else {
                Marks::Members(out)
            });
        }
        if let Some(a) = v.as_array() {
            let mut out = Vec::with_capacity(a.len());
            for m in a.iter() {
                out.push(Marks::from_json(Some(m))?);
            }
            return Ok(if out.iter().all(|m| *m == Marks::None) {
                Marks::None
            } else {
                Marks::Elements(out)
            });
        }
        let mut e = Error::new(format!(
            "a marker tree (true, false, an object or an array) is required, found {}",
            v.kind()
        ));
        if let Some(o) = v.offset() {
            e = e.with_offset(o);
        }
        Err(e)
    }

    /// Marks the value at `path` (and all below it).
    pub(crate) fn insert(&mut self, steps: &[PathStep<'_>]) {
        let Some((first, rest)) = steps.split_first() else {
            *self = Marks::All;
            return;
        };
        match (first, &mut *self) {
            (_, Marks::All) => {}
            (PathStep::Index(i), Marks::None | Marks::Elements(_)) => {
                if *self == Marks::None {
                    *self = Marks::Elements(Vec::new());
                }
                if let Marks::Elements(es) = self {
                    // Bounded: a state's paths index its own values.
                    let i = usize::try_from(*i).unwrap_or(usize::MAX).min(1 << 20);
                    while es.len() <= i {
                        es.push(Marks::None);
                    }
                    es[i].insert(rest);
                }
            }
            (PathStep::Attr(k) | PathStep::Key(k), Marks::None | Marks::Members(_)) => {
                if *self == Marks::None {
                    *self = Marks::Members(Vec::new());
                }
                if let Marks::Members(ms) = self {
                    let at = match ms.iter().position(|(n, _)| n == k.as_ref()) {
                        Some(at) => at,
                        None => {
                            ms.push((k.to_string(), Marks::None));
                            ms.len() - 1
                        }
                    };
                    ms[at].1.insert(rest);
                }
            }
            // Two paths that disagree on the shape: mark the whole node.
            _ => *self = Marks::All,
        }
    }

    /// The marks of a set of paths.
    pub(crate) fn from_paths(paths: &[Path<'_>]) -> Marks {
        let mut m = Marks::None;
        for p in paths {
            m.insert(p.steps());
        }
        m
    }
}
