//! The long lists of a document (resource changes, a module's planned resources) written
//! in contiguous chunks on scoped threads, one text a chunk, joined in order; and the
//! document limit they are all charged against together.

use crate::error::{Error, ErrorKind};
use std::sync::atomic::{AtomicU64, Ordering};

/// The fewest items a chunk is given: below twice this, a list is written on the calling
/// thread alone (a thread costs more than a few dozen changes take to write).
const MIN_CHUNK: usize = 64;

/// The most threads a list is written on.
const MAX_THREADS: usize = 8;

/// How many chunks a list of `len` items is written in.
fn chunks_for(len: usize) -> usize {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS));
    threads.min(len / MIN_CHUNK).max(1)
}

/// `f` over `items` cut into contiguous chunks, each on its own thread (the first on the
/// calling one), the results in the items' order. The first error in that order is
/// returned (each chunk stops at its own first error).
pub(crate) fn map_chunks<T, R, F>(items: &[T], f: F) -> Result<Vec<R>, Error>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> Result<R, Error> + Sync,
{
    let n = chunks_for(items.len());
    if n <= 1 {
        return Ok(vec![f(items)?]);
    }
    let size = items.len().div_ceil(n);
    let f = &f;
    std::thread::scope(|scope| {
        let rest: Vec<_> = items[size..]
            .chunks(size)
            .map(|chunk| scope.spawn(move || f(chunk)))
            .collect();
        let first = f(&items[..size]);
        // Every thread is joined before anything is returned.
        let rest: Vec<_> = rest.into_iter().map(|h| h.join()).collect();
        let mut out = Vec::with_capacity(n);
        out.push(first?);
        for r in rest {
            out.push(r.map_err(|_| Error::invalid("a thread writing the document stopped"))??);
        }
        Ok(out)
    })
}

/// The document limit shared by the chunks of one list: the bytes the document held
/// before the list, plus what every chunk has written of it so far.
pub(crate) struct Budget {
    before: u64,
    written: AtomicU64,
    limit: u64,
}

impl Budget {
    /// For a list written after `before` bytes of a document of at most `limit`.
    pub(crate) fn new(before: usize, limit: u64) -> Budget {
        Budget {
            before: before as u64,
            written: AtomicU64::new(0),
            limit,
        }
    }

    /// Charges a chunk's text, which has grown from `charged` bytes (what it already
    /// charged, updated) to `len`: refused once the document would exceed the limit (by
    /// one item's text a chunk at most).
    pub(crate) fn charge(&self, charged: &mut usize, len: usize) -> Result<(), Error> {
        let grown = (len - *charged) as u64;
        *charged = len;
        let total = self.written.fetch_add(grown, Ordering::Relaxed) + grown;
        if self.before.saturating_add(total) > self.limit {
            return Err(Error::new(ErrorKind::DocumentTooLarge {
                limit: self.limit,
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_the_items_order_and_the_first_error() {
        let items: Vec<usize> = (0..1000).collect();
        let sums = map_chunks(&items, |c| Ok(c.to_vec())).unwrap();
        assert_eq!(sums.concat(), items);
        let err = map_chunks(&items, |c| {
            if c.contains(&999) || c.contains(&0) {
                Err(Error::invalid(format!("at {}", c[0])))
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "at 0");
    }

    #[test]
    fn the_budget_counts_every_chunk() {
        let budget = Budget::new(10, 30);
        let (mut a, mut b) = (0, 0);
        budget.charge(&mut a, 10).unwrap();
        budget.charge(&mut b, 10).unwrap();
        assert_eq!(
            budget.charge(&mut a, 11).unwrap_err().to_string(),
            "the plan's JSON document would hold more than 30 bytes, the limit \
             (`Config::max_inflated_bytes`)"
        );
    }
}
