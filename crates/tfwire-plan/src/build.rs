//! Helpers that build the model from the tape: kind checks with precise errors, and
//! arena-allocated lists. Error paths are added while unwinding, never on the hot path.

use crate::error::{Error, ErrorKind};
use crate::json::{Array, Json, Object};
use bumpalo::Bump;

/// What every builder needs: the arena (byte offsets come with each value, see
/// [`Json::offset`]).
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    pub(crate) arena: &'a Bump,
}

pub(crate) type Result<T> = core::result::Result<T, Error>;

impl<'a> Cx<'a> {
    #[cold]
    pub(crate) fn mismatch(&self, expected: &'static str, v: Json<'a>) -> Error {
        Error::mismatch(expected, v).with_offset(v.offset())
    }

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

    pub(crate) fn object(&self, v: Json<'a>) -> Result<Object<'a>> {
        v.as_object().ok_or_else(|| self.mismatch("an object", v))
    }

    pub(crate) fn array(&self, v: Json<'a>) -> Result<Array<'a>> {
        v.as_array().ok_or_else(|| self.mismatch("an array", v))
    }

    pub(crate) fn string(&self, v: Json<'a>) -> Result<&'a str> {
        v.as_str().ok_or_else(|| self.mismatch("a string", v))
    }

    /// A string, or `None` for `null`.
    pub(crate) fn opt_string(&self, v: Json<'a>) -> Result<Option<&'a str>> {
        if v.is_null() {
            return Ok(None);
        }
        self.string(v).map(Some)
    }

    /// A bool, or `None` for `null`.
    pub(crate) fn opt_bool(&self, v: Json<'a>) -> Result<Option<bool>> {
        if v.is_null() {
            return Ok(None);
        }
        v.as_bool()
            .map(Some)
            .ok_or_else(|| self.mismatch("a bool", v))
    }

    /// A non-negative integer, or `None` for `null`.
    pub(crate) fn opt_uint(&self, v: Json<'a>) -> Result<Option<u64>> {
        if v.is_null() {
            return Ok(None);
        }
        match v.as_u64() {
            Some(n) => Ok(Some(n)),
            None if v.as_number().is_some() => {
                Err(self.invalid(format!("expected a non-negative integer, found {v}"), v))
            }
            None => Err(self.mismatch("a non-negative integer", v)),
        }
    }

    /// A value that is present and not `null`.
    pub(crate) fn opt_value(&self, v: Json<'a>) -> Option<Json<'a>> {
        (!v.is_null()).then_some(v)
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
        let arr = self.array(v)?;
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
        let obj = self.object(v)?;
        let mut out = bumpalo::collections::Vec::with_capacity_in(obj.len(), self.arena);
        for (k, item) in obj.iter() {
            out.push(f(self, k, item).map_err(|e| self.in_key(e, k, item))?);
        }
        Ok(out.into_bump_slice())
    }

    /// An array of strings (`null` is empty).
    pub(crate) fn strings(&self, v: Json<'a>) -> Result<&'a [&'a str]> {
        self.list(v, |cx, s| cx.string(s))
    }

    /// Runs `f` for each member of an object, adding the key to any error's path.
    pub(crate) fn members(
        &self,
        v: Json<'a>,
        mut f: impl FnMut(&'a str, Json<'a>) -> Result<()>,
    ) -> Result<Object<'a>> {
        let obj = self.object(v)?;
        for (k, item) in obj.iter() {
            f(k, item).map_err(|e| self.in_key(e, k, item))?;
        }
        Ok(obj)
    }
}
