//! A schema-agnostic, incremental MessagePack tokenizer and byte-level writer.
//!
//! This is the wire layer of [tfwire](https://github.com/tfwire/tfwire): it knows the
//! MessagePack formats and nothing of Terraform types. It never allocates.
//!
//! ```
//! use tfwire_msgpack::{Kind, Tokenizer};
//!
//! // {"a": [1, "x"]}
//! let bytes = [0x81, 0xa1, b'a', 0x92, 0x01, 0xa1, b'x'];
//! let mut tokens = Tokenizer::new(&bytes);
//! assert_eq!(tokens.next_token()?.kind, Kind::Map(1));
//! let key = tokens.next_token()?;
//! assert_eq!(tokens.payload(&key), b"a");
//! assert_eq!(tokens.next_token()?.kind, Kind::Array(2));
//! assert_eq!(tokens.next_token()?.kind, Kind::Uint(1));
//! let s = tokens.next_token()?;
//! assert_eq!((s.kind, s.span.start), (Kind::Str(1), 5));
//! assert!(tokens.is_empty());
//! # Ok::<(), tfwire_msgpack::Error>(())
//! ```
//!
//! # Incremental by design
//!
//! Every read works on the bytes that are available. When they end inside a token, the
//! tokenizer does not fail: it returns [`ErrorKind::Incomplete`] with the number of further
//! bytes it needs to finish that token, and leaves its position where the token starts, so
//! the caller can append bytes and try again. [`read_header`] is the lowest layer: it decodes
//! one marker and its length fields from a byte slice, and is what a chunked reader uses.
//!
//! # Hostile lengths
//!
//! Nothing here reserves memory from a declared length. A `str32`/`bin32`/`ext32` whose
//! payload runs past the available bytes is reported as incomplete with the exact shortfall;
//! an `array32`/`map32` header is a token of its own, and [`Token::min_remaining`] tells how
//! many bytes its elements need at the very least, so a caller that knows the input is complete
//! can reject `dd ff ff ff ff` at once. [`Tokenizer::skip_value`] walks any value, however
//! large it claims to be, in constant memory.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod header;
mod token;
mod tokenizer;
pub mod write;

pub use error::{Error, ErrorKind};
pub use header::{Header, read_header, str_token};
pub use token::{Format, Kind, Span, Token};
pub use tokenizer::Tokenizer;
