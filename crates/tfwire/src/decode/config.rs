//! Decoding limits and options: [`Config`].

use crate::error::{Error, ErrorKind, Limit, Path};

/// Decoding limits and options. Every limit has a safe default; a value that exceeds one is
/// rejected with [`ErrorKind::LimitExceeded`] naming it.
///
/// # Memory
///
/// Nothing is ever reserved from a length the input declares. The arena a decode fills holds
/// at most about **3 times the input** for MessagePack and **4 times** for JSON (which also
/// keeps simd-json's working copy of the document there): measured 2.0–2.5x and 3.0x on the
/// `resource`, `state-list`, `strings` and `numbers` payloads (`tests/alloc.rs` checks the
/// bound). The decoder's own scratch (its frame and element stacks) is a fraction of that and
/// is reused from one decode to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// Deepest nesting of containers (lists, sets, maps, objects, tuples, dynamic wrappers,
    /// and type JSON inside dynamic values). Default 256; at most [`Config::MAX_DEPTH`].
    pub max_depth: usize,
    /// Largest input accepted, in bytes. Default 1 GiB.
    pub max_input_bytes: usize,
    /// Most arena memory one decode may use, in bytes (enforced with bumpalo's allocation
    /// limit for the duration of the decode). Default 4 GiB. A JSON decode whose fast
    /// typed walk over the tape gives up (an error, or a value it does not cover) decodes
    /// again on the general path with a budget of its own, so it may leave up to twice the
    /// budget in the arena.
    pub max_arena_bytes: usize,
    /// Most elements in one list, set, map, tuple or object. Default 2^26.
    pub max_collection_len: usize,
    /// Most arena memory one decode may use relative to its input: the arena may grow by
    /// at most this many times the input's size plus
    /// [`Config::AMPLIFICATION_ALLOWANCE`] (and never past `max_arena_bytes`). Default 64,
    /// far above what any wire value needs (2–4 times), so that a small input cannot
    /// expand (a refined unknown list of a declared length, a chunked decoder fed bytes
    /// one at a time) into a large value. The limit is checked by the arena itself: it
    /// costs nothing per value.
    pub max_amplification: usize,
    /// JSON only: ignore object attributes the type does not declare (as terraform-plugin-go
    /// does for `RawState` written by an older schema version) instead of rejecting them.
    /// Default `false`.
    pub lenient: bool,
    /// JSON only: a value at a `dynamic` position is plain JSON of the type it implies
    /// (go-cty's `json.ImpliedType`: `null` is a null, bools, numbers and strings are
    /// themselves, arrays tuples, objects objects), as `show -json` plans and states write
    /// resource values, instead of a `{"type": T, "value": V}` object. Read from simd-json's
    /// tape only ([`Decoder::decode_json_nodes`], and [`Decoder::decode_json`] unless it
    /// falls back to the byte-wise reader, which rejects such values). Default `false`.
    ///
    /// [`Decoder::decode_json_nodes`]: crate::Decoder::decode_json_nodes
    /// [`Decoder::decode_json`]: crate::Decoder::decode_json
    pub plain_dynamic: bool,
}

impl Config {
    /// The largest accepted `max_depth`: deeper values would risk the stack of the recursive
    /// consumers (encoders, printers).
    pub const MAX_DEPTH: usize = crate::ty::json::MAX_DEPTH;

    /// The defaults.
    pub const fn new() -> Config {
        Config {
            max_depth: 256,
            max_input_bytes: 1 << 30,
            max_arena_bytes: 4 << 30,
            max_collection_len: 1 << 26,
            max_amplification: 64,
            lenient: false,
            plain_dynamic: false,
        }
    }

    /// The arena memory every decode may use beyond `max_amplification` times its input.
    pub const AMPLIFICATION_ALLOWANCE: usize = 1 << 20;

    /// The arena budget of a decode of `input_len` bytes, and the limit that sets it.
    pub(crate) fn arena_budget(&self, input_len: usize) -> (usize, Limit) {
        let relative = input_len
            .saturating_mul(self.max_amplification)
            .saturating_add(Config::AMPLIFICATION_ALLOWANCE);
        if relative < self.max_arena_bytes {
            (relative, Limit::Amplification)
        } else {
            (self.max_arena_bytes, Limit::ArenaBytes)
        }
    }

    /// With `max_depth` (clamped to [`Config::MAX_DEPTH`]).
    pub const fn max_depth(mut self, n: usize) -> Config {
        self.max_depth = if n > Config::MAX_DEPTH {
            Config::MAX_DEPTH
        } else {
            n
        };
        self
    }

    /// With `max_input_bytes`.
    pub const fn max_input_bytes(mut self, n: usize) -> Config {
        self.max_input_bytes = n;
        self
    }

    /// With `max_arena_bytes`.
    pub const fn max_arena_bytes(mut self, n: usize) -> Config {
        self.max_arena_bytes = n;
        self
    }

    /// With `max_collection_len`.
    pub const fn max_collection_len(mut self, n: usize) -> Config {
        self.max_collection_len = n;
        self
    }

    /// With `max_amplification`.
    pub const fn max_amplification(mut self, n: usize) -> Config {
        self.max_amplification = n;
        self
    }

    /// With `plain_dynamic`.
    pub const fn plain_dynamic(mut self, yes: bool) -> Config {
        self.plain_dynamic = yes;
        self
    }

    /// With `lenient`.
    pub const fn lenient(mut self, yes: bool) -> Config {
        self.lenient = yes;
        self
    }

    /// Checks an input's length against `max_input_bytes`.
    pub(crate) fn check_input_len(&self, len: usize) -> Result<(), Error> {
        if len > self.max_input_bytes {
            return Err(Error::new(
                ErrorKind::LimitExceeded {
                    limit: Limit::InputBytes,
                    max: self.max_input_bytes as u64,
                },
                0,
                Path::root(),
            ));
        }
        Ok(())
    }

    /// The configured value of `limit`, as errors report it.
    pub(crate) const fn limit_max(&self, limit: Limit) -> u64 {
        (match limit {
            Limit::Depth => self.max_depth,
            Limit::InputBytes => self.max_input_bytes,
            Limit::ArenaBytes => self.max_arena_bytes,
            Limit::CollectionLen => self.max_collection_len,
            Limit::Amplification => self.max_amplification,
        }) as u64
    }

    /// An arena error names the limit that set the budget: `max_amplification` when it
    /// was below `max_arena_bytes`.
    #[cold]
    pub(crate) fn name_arena_limit(&self, e: Error, limit: Limit) -> Error {
        match (e.kind(), limit) {
            (
                ErrorKind::LimitExceeded {
                    limit: Limit::ArenaBytes,
                    ..
                },
                Limit::Amplification,
            ) => Error::new(
                ErrorKind::LimitExceeded {
                    limit,
                    max: self.limit_max(limit),
                },
                e.offset(),
                e.path().clone(),
            ),
            _ => e,
        }
    }

    pub(super) fn checked(mut self) -> Config {
        self.max_depth = self.max_depth.clamp(1, Config::MAX_DEPTH);
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}
