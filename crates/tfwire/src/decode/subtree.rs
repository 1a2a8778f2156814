//! Decoding one value nested inside a larger MessagePack input, at a node of the program
//! (what [`crate::lookup`] runs on the value it found).

use super::Decoder;
use super::machine::Halt;
use super::msgpack::Complete;
use super::shape::Cur;
use super::source::{Source, Stop};
use crate::error::{Error, ErrorKind, Limit, Path};
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
        if input.len() > self.config.max_input_bytes {
            return Err(Error::new(
                ErrorKind::LimitExceeded {
                    limit: Limit::InputBytes,
                    max: self.config.max_input_bytes as u64,
                },
                0,
                Path::root(),
            ));
        }
        let mut src = Complete::new(input);
        let stacks = self.stacks.take().unwrap_or_default();
        let mut m = stacks.into_machine(program, arena, self.config, Cur::Node(node));
        let previous_limit = arena.allocation_limit();
        let budget = arena
            .allocated_bytes()
            .saturating_add(self.config.max_arena_bytes);
        arena.set_allocation_limit(Some(previous_limit.map_or(budget, |l| l.min(budget))));
        let result = match m.run(&mut src) {
            Ok(v) => match src.finish() {
                Ok(()) => Ok(v),
                Err(Stop::Fail(k, at)) => Err(Error::new(k, at, Path::root())),
                Err(Stop::Pending) => Err(Error::new(
                    ErrorKind::UnexpectedEof,
                    src.position(),
                    Path::root(),
                )),
            },
            Err(Halt::Error(e)) => Err(e),
            Err(Halt::Pending) => Err(Error::new(
                ErrorKind::UnexpectedEof,
                src.position(),
                Path::root(),
            )),
        };
        arena.set_allocation_limit(previous_limit);
        self.stacks = Some(m.into_stacks());
        result
    }
}
