//! Helpers that build the model from the tape: arena-allocated lists and members, with error
//! paths added while unwinding, never on the hot path. The kind checks themselves
//! (`expect_object`, `opt_str`, ...) are the shared JSON view's ([`Json`]), their error
//! ([`tfwire_json::view::Unexpected`]) mapped into this crate's once (`From`).

use crate::error::{Error, ErrorKind};
use crate::json::{Json, Object};
use bumpalo::Bump;

/// What every builder needs: the arena (byte offsets come with each value, see
/// [`Json::offset`]).
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    pub(crate) arena: &'a Bump,
    /// The tape is a skeleton ([`Parser::parse_summary`](crate::Parser::parse_summary),
    /// [`Parser::parse_change`](crate::Parser::parse_change)): the top-level members the
    /// pre-pass sets aside are not modelled, whatever is left of their values.
    pub(crate) skeleton: bool,
}

pub(crate) type Result<T> = core::result::Result<T, Error>;

impl<'a> Cx<'a> {
    #[cold]
    pub(crate) fn invalid(&self, msg: String, v: Json<'a>) -> Error {
        Error::new(ErrorKind::Invalid(msg)).with_offset(v.offset())
    }

    /// Adds the member `key`, whose value is `v`, to an error's path (and the key's offset
    /// if the error has none).
    #[cold]
    pub(crate) fn in_key(&self, e: Error, key: &str, v: Json<'a>) -> Error {
        e.in_key(key).with_offset(v.key_offset())
    }

    /// An array of `T` in the arena (`null` is the empty list); element errors get their
    /// index in the path.
    pub(crate) fn list<T: Copy>(
        &self,
        v: Json<'a>,
        mut f: impl FnMut(&Cx<'a>, Json<'a>) -> Result<T>,
    ) -> Result<&'a [T]> {
        if v.is_null() {
            return Ok(&[]);
        }
        let arr = v.expect_array()?;
        let mut out = bumpalo::collections::Vec::with_capacity_in(arr.len(), self.arena);
        for (i, item) in arr.iter().enumerate() {
            out.push(f(self, item).map_err(|e| e.in_index(i))?);
        }
        Ok(out.into_bump_slice())
    }

    /// An object of named `T` in the arena (`null` is empty); member errors get their key
    /// in the path.
    pub(crate) fn named<T: Copy>(
        &self,
        v: Json<'a>,
        mut f: impl FnMut(&Cx<'a>, &'a str, Json<'a>) -> Result<T>,
    ) -> Result<&'a [T]> {
        if v.is_null() {
            return Ok(&[]);
        }
        let obj = v.expect_object()?;
        let mut out = bumpalo::collections::Vec::with_capacity_in(obj.len(), self.arena);
        for (k, item) in obj.iter() {
            out.push(f(self, k, item).map_err(|e| self.in_key(e, k, item))?);
        }
        Ok(out.into_bump_slice())
    }

    /// An array of strings (`null` is empty).
    pub(crate) fn strings(&self, v: Json<'a>) -> Result<&'a [&'a str]> {
        self.list(v, |_, s| Ok(s.expect_str()?))
    }

    /// Runs `f` for each member of an object, adding the key to any error's path.
    pub(crate) fn members(
        &self,
        v: Json<'a>,
        mut f: impl FnMut(&'a str, Json<'a>) -> Result<()>,
    ) -> Result<Object<'a>> {
        let obj = v.expect_object()?;
        for (k, item) in obj.iter() {
            f(k, item).map_err(|e| self.in_key(e, k, item))?;
        }
        Ok(obj)
    }
}
