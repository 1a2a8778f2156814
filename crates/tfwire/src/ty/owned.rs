//! Owned types: [`Type`], what callers build, parse, print and compile.

use super::arena::{AttrTy, Ty};
use super::json;
use crate::error::{Error, ErrorKind, Path};
use bumpalo::Bump;
use core::fmt;

/// A type constraint, owned.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `"bool"`
    Bool,
    /// `"number"`
    Number,
    /// `"string"`
    String,
    /// `"dynamic"`: the value carries its own type on the wire.
    Dynamic,
    /// `["list", T]`
    List(Box<Type>),
    /// `["set", T]`
    Set(Box<Type>),
    /// `["map", T]`
    Map(Box<Type>),
    /// `["object", {...}]` or `["object", {...}, [optional...]]`
    Object(ObjectType),
    /// `["tuple", [...]]`
    Tuple(Vec<Type>),
}

/// The attributes of an object type, sorted by name, each with its type and whether it is
/// optional (the third element of the object type JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectType {
    attrs: Vec<ObjectAttribute>,
}

/// One attribute of an object type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectAttribute {
    /// The attribute name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Whether the attribute is optional (may be omitted in configuration; on the wire it is
    /// always present).
    pub optional: bool,
}

impl ObjectType {
    /// An object type from `(name, type, optional)` triples in any order. A name given twice
    /// keeps its last definition.
    pub fn new<N: Into<String>>(attrs: impl IntoIterator<Item = (N, Type, bool)>) -> ObjectType {
        let mut v: Vec<ObjectAttribute> = attrs
            .into_iter()
            .map(|(n, ty, optional)| ObjectAttribute {
                name: n.into(),
                ty,
                optional,
            })
            .collect();
        // Stable sort, then keep the last of equal names.
        v.sort_by(|a, b| a.name.cmp(&b.name));
        let mut out: Vec<ObjectAttribute> = Vec::with_capacity(v.len());
        for a in v {
            match out.last_mut() {
                Some(last) if last.name == a.name => *last = a,
                _ => out.push(a),
            }
        }
        ObjectType { attrs: out }
    }

    /// The attributes, sorted by name.
    pub fn attributes(&self) -> &[ObjectAttribute] {
        &self.attrs
    }

    /// The attribute called `name`.
    pub fn get(&self, name: &str) -> Option<&ObjectAttribute> {
        self.attrs
            .binary_search_by(|a| a.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.attrs[i])
    }

    /// Number of attributes.
    pub fn len(&self) -> usize {
        self.attrs.len()
    }

    /// Whether the object type has no attributes.
    pub fn is_empty(&self) -> bool {
        self.attrs.is_empty()
    }
}

impl Type {
    /// `["list", elem]`
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }

    /// `["set", elem]`
    pub fn set(elem: Type) -> Type {
        Type::Set(Box::new(elem))
    }

    /// `["map", elem]`
    pub fn map(elem: Type) -> Type {
        Type::Map(Box::new(elem))
    }

    /// An object type from `(name, type, optional)` triples.
    pub fn object<N: Into<String>>(attrs: impl IntoIterator<Item = (N, Type, bool)>) -> Type {
        Type::Object(ObjectType::new(attrs))
    }

    /// `["tuple", [elems...]]`
    pub fn tuple(elems: impl IntoIterator<Item = Type>) -> Type {
        Type::Tuple(elems.into_iter().collect())
    }

    /// Parses type JSON (whitespace allowed).
    ///
    /// ```
    /// let e = tfwire::Type::from_json(r#"["list","strin"]"#).unwrap_err();
    /// assert_eq!(e.to_string(), r#"(root): invalid type: invalid primitive type name "strin" (at byte 8)"#);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidType`](crate::ErrorKind::InvalidType) at the offending byte.
    pub fn from_json(text: &str) -> Result<Type, Error> {
        let bump = Bump::new();
        match json::parse_text(&bump, text.as_bytes(), json::DEFAULT_MAX_DEPTH) {
            Ok(ty) => Ok(ty.to_type()),
            // The arena is unbounded: only the allocator can refuse.
            Err(f) if f.is_arena() => Err(Error::new(
                ErrorKind::InvalidType {
                    message: "out of memory".into(),
                    offset: None,
                },
                0,
                Path::root(),
            )),
            Err(f) => Err(f.into_error()),
        }
    }

    /// The compact type JSON, as go-cty's `MarshalType` writes it.
    pub fn to_json(&self) -> String {
        self.to_string()
    }

    /// Copies the type into an arena.
    pub fn to_ty<'a>(&self, bump: &'a Bump) -> Ty<'a> {
        match self {
            Type::Bool => Ty::Bool,
            Type::Number => Ty::Number,
            Type::String => Ty::String,
            Type::Dynamic => Ty::Dynamic,
            Type::List(e) => Ty::List(bump.alloc(e.to_ty(bump))),
            Type::Set(e) => Ty::Set(bump.alloc(e.to_ty(bump))),
            Type::Map(e) => Ty::Map(bump.alloc(e.to_ty(bump))),
            Type::Object(o) => {
                Ty::Object(bump.alloc_slice_fill_iter(o.attrs.iter().map(|a| AttrTy {
                    name: bump.alloc_str(&a.name),
                    ty: a.ty.to_ty(bump),
                    optional: a.optional,
                })))
            }
            Type::Tuple(es) => {
                Ty::Tuple(bump.alloc_slice_fill_iter(es.iter().map(|e| e.to_ty(bump))))
            }
        }
    }

    /// Whether `dynamic` appears anywhere in the type.
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::Bool | Type::Number | Type::String => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_dynamic(),
            Type::Object(o) => o.attrs.iter().any(|a| a.ty.has_dynamic()),
            Type::Tuple(es) => es.iter().any(Type::has_dynamic),
        }
    }
}

impl fmt::Display for Type {
    /// Writes the compact type JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bump = Bump::new();
        fmt::Display::fmt(&self.to_ty(&bump), f)
    }
}

impl core::str::FromStr for Type {
    type Err = Error;

    fn from_str(s: &str) -> Result<Type, Error> {
        Type::from_json(s)
    }
}

impl Ty<'_> {
    /// An owned copy.
    pub fn to_type(&self) -> Type {
        match *self {
            Ty::Bool => Type::Bool,
            Ty::Number => Type::Number,
            Ty::String => Type::String,
            Ty::Dynamic => Type::Dynamic,
            Ty::List(e) => Type::list(e.to_type()),
            Ty::Set(e) => Type::set(e.to_type()),
            Ty::Map(e) => Type::map(e.to_type()),
            Ty::Object(attrs) => Type::Object(ObjectType {
                attrs: attrs
                    .iter()
                    .map(|a| ObjectAttribute {
                        name: a.name.to_owned(),
                        ty: a.ty.to_type(),
                        optional: a.optional,
                    })
                    .collect(),
            }),
            Ty::Tuple(es) => Type::Tuple(es.iter().map(Ty::to_type).collect()),
        }
    }
}
