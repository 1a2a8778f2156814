//! Types in an arena.

/// A type constraint in a `bumpalo` arena: `Copy`, made of references, never dropped.
///
/// This is what a decoded dynamic value carries as its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty<'a> {
    /// `"bool"`
    Bool,
    /// `"number"`
    Number,
    /// `"string"`
    String,
    /// `"dynamic"`
    Dynamic,
    /// `["list", T]`
    List(&'a Ty<'a>),
    /// `["set", T]`
    Set(&'a Ty<'a>),
    /// `["map", T]`
    Map(&'a Ty<'a>),
    /// `["object", {...}]`, attributes sorted by name.
    Object(&'a [AttrTy<'a>]),
    /// `["tuple", [...]]`
    Tuple(&'a [Ty<'a>]),
}

/// An attribute of an object [`Ty`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttrTy<'a> {
    /// The name.
    pub name: &'a str,
    /// The type.
    pub ty: Ty<'a>,
    /// Whether it is optional.
    pub optional: bool,
}

impl<'a> Ty<'a> {
    /// Whether `dynamic` appears anywhere in the type.
    pub fn has_dynamic(&self) -> bool {
        match *self {
            Ty::Dynamic => true,
            Ty::Bool | Ty::Number | Ty::String => false,
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => e.has_dynamic(),
            Ty::Object(attrs) => attrs.iter().any(|a| a.ty.has_dynamic()),
            Ty::Tuple(es) => es.iter().any(Ty::has_dynamic),
        }
    }

    /// The attribute called `name` of an object type.
    pub fn attr(&self, name: &str) -> Option<&'a AttrTy<'a>> {
        match *self {
            Ty::Object(attrs) => attrs
                .binary_search_by(|a| a.name.cmp(name))
                .ok()
                .map(|i| &attrs[i]),
            _ => None,
        }
    }

    /// The type without optional-attribute markers (the type of a value, as opposed to a type
    /// constraint). Returns `self` when there are none; `None` if the arena refuses an
    /// allocation.
    pub fn try_without_optional(&self, bump: &'a bumpalo::Bump) -> Option<Ty<'a>> {
        if !self.has_optional() {
            return Some(*self);
        }
        let one = |t: Ty<'a>| bump.try_alloc(t).ok().map(|r| &*r);
        Some(match *self {
            Ty::List(e) => Ty::List(one(e.try_without_optional(bump)?)?),
            Ty::Set(e) => Ty::Set(one(e.try_without_optional(bump)?)?),
            Ty::Map(e) => Ty::Map(one(e.try_without_optional(bump)?)?),
            Ty::Object(attrs) => {
                let mut out = Vec::with_capacity(attrs.len());
                for a in attrs {
                    out.push(AttrTy {
                        name: a.name,
                        ty: a.ty.try_without_optional(bump)?,
                        optional: false,
                    });
                }
                Ty::Object(bump.try_alloc_slice_copy(&out).ok()?)
            }
            Ty::Tuple(es) => {
                let mut out = Vec::with_capacity(es.len());
                for e in es {
                    out.push(e.try_without_optional(bump)?);
                }
                Ty::Tuple(bump.try_alloc_slice_copy(&out).ok()?)
            }
            t => t,
        })
    }

    /// Whether an optional attribute appears anywhere in the type.
    pub fn has_optional(&self) -> bool {
        match *self {
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => e.has_optional(),
            Ty::Object(attrs) => attrs.iter().any(|a| a.optional || a.ty.has_optional()),
            Ty::Tuple(es) => es.iter().any(Ty::has_optional),
            _ => false,
        }
    }
}
