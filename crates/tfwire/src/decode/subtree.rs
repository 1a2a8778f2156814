//! Decoding one value nested inside a larger MessagePack input, at a node of the program
//! (what [`crate::lookup`] runs on the value it found), through the decoder's one run
//! loop and its limits.

use super::Decoder;
use super::msgpack::Complete;
use crate::error::Error;
use crate::program::{NodeId, Program};
use crate::value::Value;
use bumpalo::Bump;

impl Decoder {
    /// Decodes `input`, a complete MessagePack value, as the value at `node` of `program`.
    /// Errors are reported relative to `input`.
    pub(crate) fn decode_msgpack_at<'a>(
        &mut self,
        program: &'a Program,
        node: NodeId,
        input: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        self.check_input(input)?;
        let mut src = Complete::new(input);
        self.run_at(program, node, arena, &mut src, input.len())
    }
}
