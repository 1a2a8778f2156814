//! Attributes written as blocks: a legacy provider's attribute whose type is a list or set
//! of objects may be configured with block syntax (`ingress { ... }` for an `ingress`
//! attribute). The clients turn such blocks into one attribute expression (OpenTofu's and
//! Terraform's `lang/blocktoattr`): its value is the list of the blocks' objects, its
//! references those of the blocks' arguments.

use crate::expr;
use crate::value::{Kind, Ty, Val};
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Body, Structure};
use std::collections::BTreeMap;
use tfwire::Type;
use tfwire::schema::{AttributeType, Block};

/// The attributes of `schema` that blocks may stand for: those whose type is a list or set
/// of objects, unless the schema holds a type the clients never fix up (nested attribute
/// types, tuples, objects, maps of objects, collections of collections of non-primitives,
/// anywhere in the schema).
pub(crate) fn ambiguous_names(schema: &Block) -> Vec<(&str, &tfwire::ObjectType)> {
    if skip(schema) {
        return Vec::new();
    }
    schema
        .attributes
        .iter()
        .filter_map(|a| match &a.ty {
            AttributeType::Type(Type::List(e) | Type::Set(e)) => match &**e {
                Type::Object(o) => Some((a.name.as_str(), o)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn skip(schema: &Block) -> bool {
    for a in &schema.attributes {
        let ty = match &a.ty {
            AttributeType::Nested(_) => return true,
            AttributeType::Type(t) => t,
        };
        match ty {
            Type::Tuple(_) | Type::Object(_) => return true,
            Type::Map(e) if matches!(**e, Type::Object(_)) => return true,
            Type::List(e) | Type::Set(e) | Type::Map(e) => match &**e {
                Type::List(inner) | Type::Set(inner) | Type::Map(inner)
                    if !matches!(**inner, Type::Bool | Type::Number | Type::String) =>
                {
                    return true;
                }
                _ => {}
            },
            _ => {}
        }
    }
    schema.block_types.iter().any(|b| skip(&b.block))
}

/// The value of the blocks as one attribute: a list of objects of `ety`, when every
/// argument is a constant of its attribute's type.
pub(crate) fn value(bodies: &[&Body], ety: &tfwire::ObjectType) -> Option<Val> {
    let items: Option<Vec<Val>> = bodies.iter().map(|b| object(b, ety)).collect();
    Some(Val::Seq(Kind::Collection, items?))
}

/// One block's object: every attribute of `ety`, null where the block does not set it.
fn object(body: &Body, ety: &tfwire::ObjectType) -> Option<Val> {
    let mut nested: BTreeMap<&str, Vec<&Body>> = BTreeMap::new();
    let mut set: BTreeMap<&str, &Expression> = BTreeMap::new();
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let name = a.key.value().as_str();
                ety.get(name)?;
                set.insert(name, &a.value);
            }
            Structure::Block(b) => {
                let name = b.ident.value().as_str();
                match ety.get(name).map(|a| &a.ty) {
                    Some(Type::List(e) | Type::Set(e)) if matches!(**e, Type::Object(_)) => {
                        nested.entry(name).or_default().push(&b.body);
                    }
                    // An argument the type does not have: the client's decoding fails.
                    _ => return None,
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    for a in ety.attributes() {
        let ty = ty_of(&a.ty);
        let v = if let Some(e) = set.get(a.name.as_str()) {
            ty.convert(&expr::constant(e)?)?
        } else if let Some(bodies) = nested.get(a.name.as_str()) {
            let (Type::List(e) | Type::Set(e)) = &a.ty else {
                return None;
            };
            let Type::Object(inner) = &**e else {
                return None;
            };
            if matches!(a.ty, Type::Set(_)) && bodies.len() > 1 {
                // go-cty orders a set of objects by hash: not reproduced.
                return None;
            }
            value(bodies, inner)?
        } else {
            Val::Null
        };
        out.insert(a.name.clone(), v);
    }
    Some(Val::Map(Kind::Structural, out))
}

/// The arguments of the blocks (and of their nested blocks), in the order written, for
/// their references.
pub(crate) fn arguments<'b>(bodies: &[&'b Body], out: &mut Vec<&'b Expression>) {
    for body in bodies {
        for s in body.iter() {
            match s {
                Structure::Attribute(a) => out.push(&a.value),
                Structure::Block(b) => arguments(&[&b.body], out),
            }
        }
    }
}

/// A schema type as a type constraint.
fn ty_of(t: &Type) -> Ty {
    match t {
        Type::Bool => Ty::Bool,
        Type::Number => Ty::Number,
        Type::String => Ty::String,
        Type::Dynamic => Ty::Any,
        Type::List(e) => Ty::List(Box::new(ty_of(e))),
        Type::Set(e) => Ty::Set(Box::new(ty_of(e))),
        Type::Map(e) => Ty::Map(Box::new(ty_of(e))),
        Type::Tuple(items) => Ty::Tuple(items.iter().map(ty_of).collect()),
        Type::Object(o) => Ty::Object(
            o.attributes()
                .iter()
                .map(|a| (a.name.clone(), (ty_of(&a.ty), a.optional, None)))
                .collect(),
        ),
    }
}
