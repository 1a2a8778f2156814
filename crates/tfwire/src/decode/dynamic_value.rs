//! The plugin protocol's `DynamicValue` container: MessagePack preferred, JSON as fallback.
//!
//! ```proto
//! message DynamicValue {
//!   bytes msgpack = 1;
//!   bytes json    = 2;
//! }
//! ```

use super::decoder::Decoder;
use crate::error::Error;
use crate::program::Program;
use crate::proto::{Field, Fields};
use crate::value::Value;
use bumpalo::Bump;

/// The two fields of a `DynamicValue` message.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DynamicValue<'a> {
    /// Field 1: the value as MessagePack (the normal case).
    pub msgpack: &'a [u8],
    /// Field 2: the value as JSON (legacy paths).
    pub json: &'a [u8],
}

impl<'a> DynamicValue<'a> {
    /// Reads the fields from the protobuf encoding of a `DynamicValue` message, as a proxy
    /// sees it on the wire. Unknown fields are skipped; a repeated field keeps its last
    /// occurrence (protobuf's rule for singular fields). No copy: the fields borrow `proto`.
    ///
    /// ```
    /// use tfwire::DynamicValue;
    /// // field 1 (msgpack) = a1 78, field 2 (json) = "x"
    /// let dv = DynamicValue::from_protobuf(&[0x0a, 0x02, 0xa1, 0x78, 0x12, 0x03, b'"', b'x', b'"'])?;
    /// assert_eq!((dv.msgpack, dv.json), (&[0xa1, 0x78][..], &b"\"x\""[..]));
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn from_protobuf(proto: &'a [u8]) -> Result<DynamicValue<'a>, Error> {
        let mut dv = DynamicValue::default();
        for field in Fields::new(proto, 0, "DynamicValue") {
            match field? {
                (1, Field::Bytes(b)) => dv.msgpack = b,
                (2, Field::Bytes(b)) => dv.json = b,
                _ => {}
            }
        }
        Ok(dv)
    }
}

impl Decoder {
    /// Decodes a `DynamicValue` as Terraform and OpenTofu do: the MessagePack field when it
    /// is set, else the JSON field, and a null when both are empty (OpenTofu's rule for an
    /// empty JSON payload).
    ///
    /// ```
    /// use tfwire::{Config, Decoder, DynamicValue, Program, Type};
    /// let program = Program::compile(&Type::from_json(r#"["object",{"attr":"string"}]"#)?);
    /// let arena = bumpalo::Bump::new();
    /// let mut d = Decoder::new(Config::default());
    /// let from_json = d.decode_dynamic_value(&program, DynamicValue { msgpack: b"", json: br#"{"attr":"bar"}"# }, &arena)?;
    /// let from_msgpack = d.decode_dynamic_value(&program, DynamicValue { msgpack: b"\x81\xa4attr\xa3bar", json: b"" }, &arena)?;
    /// assert_eq!(from_json, from_msgpack);
    /// assert!(d.decode_dynamic_value(&program, DynamicValue::default(), &arena)?.is_null());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_dynamic_value<'a>(
        &mut self,
        program: &'a Program,
        value: DynamicValue<'a>,
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        if !value.msgpack.is_empty() {
            self.decode_msgpack(program, value.msgpack, arena)
        } else if !value.json.is_empty() {
            self.decode_json(program, value.json, arena)
        } else {
            Ok(Value::Null)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protobuf_fields() {
        // unknown varint field 3, fixed32 field 4, then json, then msgpack twice (last wins)
        let proto = [
            0x18, 0x96, 0x01, 0x25, 1, 2, 3, 4, 0x12, 0x01, b'1', 0x0a, 0x01, 0xc0, 0x0a, 0x01,
            0x07,
        ];
        let dv = DynamicValue::from_protobuf(&proto).unwrap();
        assert_eq!((dv.msgpack, dv.json), (&[0x07][..], &b"1"[..]));
        assert_eq!(
            DynamicValue::from_protobuf(&[]).unwrap(),
            DynamicValue::default()
        );
    }

    #[test]
    fn bad_protobuf() {
        use crate::error::ErrorKind;
        for (bytes, msg) in [
            (
                &[0x0a, 0x05, 1][..],
                "protobuf DynamicValue: field 1 needs 5 bytes, more than the message holds",
            ),
            (
                &[
                    0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
                ][..],
                "protobuf DynamicValue: field 1 needs 18446744073709551615 bytes, more than the message holds",
            ),
            (
                &[0x0b][..],
                "protobuf DynamicValue: unsupported wire type 3 (field 1)",
            ),
            (
                &[0x25, 1][..],
                "protobuf DynamicValue: field 4 needs 4 bytes, more than the message holds",
            ),
        ] {
            let e = DynamicValue::from_protobuf(bytes).unwrap_err();
            assert_eq!(
                e.kind(),
                &ErrorKind::Syntax(
                    msg.strip_prefix("protobuf")
                        .map(|m| format!("protobuf{m}"))
                        .unwrap()
                ),
                "{bytes:?}"
            );
        }
        assert_eq!(
            DynamicValue::from_protobuf(&[0x0a]).unwrap_err().kind(),
            &ErrorKind::UnexpectedEof
        );
    }
}
