//! [`Json`]: the untyped, borrowed view of one JSON value on the parsed tape, from the
//! workspace's one JSON layer ([`tfwire_json::view`], which says why it lives there).
//!
//! Attribute values inside plans and states are JSON wire values. Without a provider schema
//! they are read through this view; strings borrow from the input, containers are slices of
//! the tape, and skipping a subtree is O(1) (the tape records each container's size).

pub use tfwire_json::view::{Array, ArrayIter, Json, JsonKind, JsonNumber, Object, ObjectIter};

/// The character rule of the human ("safe") string writer ([`tfwire_json::write_safe_str`]),
/// re-exported from the JSON layer.
pub use tfwire_json::is_unsafe_char;
