//! Keeping `bytes::Bytes` chunks alive while the values decoded from them are in use.

use bytes::Bytes;
use core::cell::RefCell;

/// Owns the `Bytes` chunks of a chunked decode, so that values can borrow strings from them
/// without a copy.
///
/// [`ChunkStore::push`] takes a chunk and hands back its bytes, borrowed from the store: feed
/// them to a [`ChunkedDecoder`](crate::ChunkedDecoder). The chunks are released when the
/// store is dropped, which the borrow checker orders after every value that borrows them.
///
/// ```
/// use bytes::Bytes;
/// use tfwire::{ChunkStore, Config, Decoder, Progress, Program, Type};
/// let program = Program::compile(&Type::from_json(r#"["list","string"]"#)?);
/// let store = ChunkStore::new();
/// let arena = bumpalo::Bump::new();
/// let mut decoder = Decoder::new(Config::default());
/// let mut chunked = decoder.chunked(&program, &arena);
/// for chunk in [Bytes::from_static(b"\x92\xa3abc"), Bytes::from(b"\xa3def".to_vec())] {
///     chunked.feed(store.push(chunk))?;
/// }
/// let v = chunked.finish()?;
/// assert_eq!(v.index(1).unwrap().as_str(), Some("def")); // borrowed from the second chunk
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct ChunkStore {
    chunks: RefCell<Vec<Bytes>>,
}

impl ChunkStore {
    /// An empty store.
    pub fn new() -> ChunkStore {
        ChunkStore::default()
    }

    /// Keeps `chunk` until the store is dropped and returns its bytes.
    pub fn push(&self, chunk: Bytes) -> &[u8] {
        let (ptr, len) = (chunk.as_ptr(), chunk.len());
        self.chunks.borrow_mut().push(chunk);
        // SAFETY: `ptr..ptr+len` is the content of a `Bytes`, which never moves or changes
        // while any handle to it lives (moving the handle into the vector, or the vector
        // reallocating, moves only the handle). The handle stays in `self.chunks` until
        // `self` is dropped (nothing removes chunks), and the returned slice borrows `self`,
        // so the content outlives the slice. The bytes are never written (`Bytes` is
        // immutable), so sharing them is sound.
        unsafe { core::slice::from_raw_parts(ptr, len) }
    }

    /// Number of chunks kept.
    pub fn len(&self) -> usize {
        self.chunks.borrow().len()
    }

    /// Whether no chunk was pushed.
    pub fn is_empty(&self) -> bool {
        self.chunks.borrow().is_empty()
    }
}
