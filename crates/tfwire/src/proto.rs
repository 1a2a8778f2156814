//! A minimal protobuf wire reader, for the few plugin-protocol messages tfwire reads
//! (`DynamicValue`, `GetProviderSchema.Response` and its schema messages). No allocation,
//! fields borrowed from the message.

use crate::error::{Error, ErrorKind, Path};

/// One field of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
}

/// Iterates the fields of one message: `(field number, value, offset of the field)`.
pub(crate) struct Fields<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Offset of `buf[0]` in the outermost message (for error offsets).
    base: usize,
    what: &'static str,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(buf: &'a [u8], base: usize, what: &'static str) -> Fields<'a> {
        Fields {
            buf,
            pos: 0,
            base,
            what,
        }
    }

    /// The offset (in the outermost message) of `bytes`, a slice of this message.
    pub(crate) fn offset_of(&self, bytes: &[u8]) -> usize {
        self.base + (bytes.as_ptr() as usize - self.buf.as_ptr() as usize)
    }

    fn bad(&self, at: usize, m: String) -> Error {
        Error::new(
            ErrorKind::Syntax(format!("protobuf {}: {m}", self.what)),
            self.base + at,
            Path::root(),
        )
    }

    fn varint(&mut self) -> Result<u64, Error> {
        let start = self.pos;
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.buf.get(self.pos) else {
                return Err(Error::new(
                    ErrorKind::UnexpectedEof,
                    self.base + self.pos,
                    Path::root(),
                ));
            };
            self.pos += 1;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.bad(start, "varint longer than 10 bytes".into()))
    }

    fn take(&mut self, n: u64, field: u64) -> Result<&'a [u8], Error> {
        let at = self.pos;
        let end = usize::try_from(n)
            .ok()
            .and_then(|n| self.pos.checked_add(n))
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| {
                self.bad(
                    at,
                    format!("field {field} needs {n} bytes, more than the message holds"),
                )
            })?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, Field<'a>), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.buf.len() {
            return None;
        }
        let at = self.pos;
        let r = (|| {
            let tag = self.varint()?;
            let (field, wire) = (tag >> 3, tag & 7);
            if field == 0 {
                return Err(self.bad(at, "field number 0".into()));
            }
            let v = match wire {
                0 => Field::Varint(self.varint()?),
                1 => Field::Fixed64(u64::from_le_bytes(
                    self.take(8, field)?.try_into().expect("8 bytes"),
                )),
                2 => {
                    let n = self.varint()?;
                    Field::Bytes(self.take(n, field)?)
                }
                5 => Field::Fixed32(u32::from_le_bytes(
                    self.take(4, field)?.try_into().expect("4 bytes"),
                )),
                _ => {
                    return Err(
                        self.bad(at, format!("unsupported wire type {wire} (field {field})"))
                    );
                }
            };
            Ok((field, v))
        })();
        if r.is_err() {
            self.pos = self.buf.len();
        }
        Some(r)
    }
}
