//! The `tap_handshake` and `tap_frames` targets: what `tfwire tap` reads from a provider and
//! from the calls it forwards.

use crate::input::{read_cuts, split_points};
use bytes::Bytes;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future as _;
use std::pin::Pin;
use std::task::{Context, Poll};
use tfwire_plugin::handshake::{Handshake, LineReader, MAX_LINE_BYTES};
use tfwire_plugin::rpc::{self, Direction, Message, Method};

/// The outcome of reading a handshake line: bytes of the output taken by the line, and the
/// line's bytes; or the error's message.
type LineOutcome = Result<(Option<usize>, Vec<u8>), String>;

/// Feeds `pieces` to a fresh reader, as the tap feeds what it reads.
fn read_line<'a>(pieces: impl Iterator<Item = &'a [u8]>) -> (LineOutcome, LineReader) {
    let mut reader = LineReader::new();
    let mut offset = 0;
    for piece in pieces {
        match reader.feed(piece) {
            Ok(None) => offset += piece.len(),
            Ok(Some(n)) => {
                assert!(
                    n <= piece.len() && n > 0,
                    "feed took {n} of {} bytes",
                    piece.len()
                );
                assert_eq!(piece[n - 1], b'\n', "the line ends at its newline");
                return (Ok((Some(offset + n), reader.line().to_vec())), reader);
            }
            Err(e) => {
                assert!(reader.line().len() <= MAX_LINE_BYTES);
                return (Err(e.to_string()), reader);
            }
        }
        assert!(
            reader.line().len() < MAX_LINE_BYTES,
            "the line grew past its bound"
        );
    }
    (Ok((None, reader.line().to_vec())), reader)
}

/// Checks the handshake line's reading and parsing on any output: a cuts section, then the
/// provider's standard output. The reader fed the pieces between the cuts (or one byte at a
/// time) finds the line the whole output gives, or the same error; a line holds at most
/// [`MAX_LINE_BYTES`] and no newline; errors are one line without terminal controls; a
/// parsed handshake prints as a line that parses back to it.
pub fn tap_handshake(data: &[u8]) {
    let (cuts, output) = read_cuts(data);
    let (whole, reader) = read_line(std::iter::once(output));
    let points = split_points(&cuts, output.len());
    let mut pieces = Vec::with_capacity(points.len() + 1);
    let mut at = 0;
    for p in points {
        pieces.push(&output[at..p]);
        at = p;
    }
    pieces.push(&output[at..]);
    let (chunked, _) = read_line(pieces.into_iter());
    assert_eq!(whole, chunked, "whole output vs the same in pieces");
    if output.len() <= 512 {
        let (bytes, _) = read_line(output.chunks(1));
        assert_eq!(whole, bytes, "whole output vs one byte at a time");
    }
    match &whole {
        Err(e) => crate::clean_message(e),
        Ok((_, line)) => assert!(!line.contains(&b'\n')),
    }
    match reader.handshake() {
        Err(e) => crate::clean_message(&e.to_string()),
        Ok(h) => {
            let line = h.to_line();
            let again = Handshake::parse(&line)
                .unwrap_or_else(|e| panic!("{line:?}, printed from {h:?}, does not parse: {e}"));
            assert_eq!(again, h, "printed as {line:?}");
        }
    }
}

/// A request or response body that yields its chunks, all ready.
struct Chunks(VecDeque<Bytes>);

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        Poll::Ready(
            self.get_mut()
                .0
                .pop_front()
                .map(|b| Ok(http_body::Frame::data(b))),
        )
    }
}

/// The largest message the frames check decodes (the decoder's limit).
const MAX_MESSAGE: usize = 1 << 16;

/// gRPC's framing read directly: the messages before the first bad thing, and whether the
/// body was clean (every byte in a whole, uncompressed message within the limit, or in a last
/// header alone, which tonic takes as the end).
fn reference_frames(mut body: &[u8]) -> (Vec<Bytes>, bool) {
    let mut out = Vec::new();
    loop {
        if body.is_empty() {
            return (out, true);
        }
        if body.len() < 5 || body[0] != 0 {
            return (out, false);
        }
        let len = u32::from_be_bytes([body[1], body[2], body[3], body[4]]) as usize;
        if len > MAX_MESSAGE {
            return (out, false);
        }
        // tonic ends a stream cleanly on a last header whose message has not begun (it
        // reports an EOF only when bytes are left over), dropping that message.
        if body.len() == 5 && len > 0 {
            return (out, true);
        }
        if body.len() - 5 < len {
            return (out, false);
        }
        out.push(Bytes::copy_from_slice(&body[5..5 + len]));
        body = &body[5 + len..];
    }
}

/// Checks the frames the tap sees on any body: a method byte (an index into
/// [`Method::all`]), a direction byte (bit 0: response), a cuts section, then an HTTP/2 body
/// of gRPC length-prefixed messages delivered in the pieces between the cuts. tonic's
/// decoder (with the proxy's raw codec, as the tap reads a call) gives the messages a direct
/// reading of the framing gives, and ends with an error exactly when the body is not clean;
/// each message decodes as its method's request or response, or fails, without a panic, and
/// every `DynamicValue` it carries lies inside the message.
pub fn tap_frames(data: &[u8]) {
    let [m, d, rest @ ..] = data else {
        return;
    };
    let methods: Vec<Method> = Method::all().collect();
    let method = methods[usize::from(*m) % methods.len()];
    let direction = if d & 1 == 0 {
        Direction::Request
    } else {
        Direction::Response
    };
    let (cuts, body) = read_cuts(rest);
    let mut chunks = VecDeque::new();
    let mut at = 0;
    for p in split_points(&cuts, body.len()) {
        chunks.push_back(Bytes::copy_from_slice(&body[at..p]));
        at = p;
    }
    chunks.push_back(Bytes::copy_from_slice(&body[at..]));
    let mut stream = tonic::Streaming::new_request(
        tfwire_plugin::proxy::RawCodec,
        Chunks(chunks),
        None,
        Some(MAX_MESSAGE),
    );
    let mut cx = Context::from_waker(std::task::Waker::noop());
    let mut seen = Vec::new();
    let ended_clean = loop {
        let next = std::pin::pin!(stream.message()).poll(&mut cx);
        match next {
            Poll::Pending => panic!("a body whose chunks are all ready left the decoder pending"),
            Poll::Ready(Ok(Some(m))) => seen.push(m),
            Poll::Ready(Ok(None)) => break true,
            Poll::Ready(Err(status)) => {
                crate::clean_message(status.message());
                break false;
            }
        }
    };
    let (expected, clean) = reference_frames(body);
    assert_eq!(
        seen, expected,
        "tonic's messages vs the framing read directly"
    );
    assert_eq!(ended_clean, clean, "the body ended clean");
    for message in seen {
        let range = message.as_ptr_range();
        match rpc::decode(method.path, direction, message.clone()) {
            None => panic!("{} is a known method", method.path),
            Some(Err(e)) => crate::clean_message(&e.to_string()),
            Some(Ok(Message::Values(v))) => {
                v.dynamic_values("", &mut |field| {
                    for b in [field.value.msgpack, field.value.json] {
                        let r = b.as_ptr_range();
                        assert!(
                            b.is_empty() || (range.start <= r.start && r.end <= range.end),
                            "a DynamicValue outside its message"
                        );
                    }
                });
            }
            Some(Ok(Message::ProviderSchema(s))) => {
                if let Err(e) = &*s {
                    crate::clean_message(&e.to_string());
                }
            }
            Some(Ok(Message::IdentitySchemas(s))) => {
                if let Err(e) = &s {
                    crate::clean_message(&e.to_string());
                }
            }
            Some(Ok(Message::Other)) => {}
        }
    }
}

/// A `tap_frames` input: the method's index in [`Method::all`], whether it is a response, the
/// cuts, and the body.
pub fn frames_input(method: usize, response: bool, cuts: &[u16], body: &[u8]) -> Vec<u8> {
    let mut v = vec![method as u8, u8::from(response)];
    v.extend_from_slice(&crate::input::with_cuts(cuts, body));
    v
}

/// A gRPC body of `messages`, each with its 5-byte prefix.
pub fn grpc_body(messages: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.push(0);
        out.extend_from_slice(&(m.len() as u32).to_be_bytes());
        out.extend_from_slice(m);
    }
    out
}
