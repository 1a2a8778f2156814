//! [`Json`]: the untyped, borrowed view of one JSON value on the parsed tape, from tfwire's
//! one JSON layer ([`tfwire::json::view`], which says why it lives there).
//!
//! Attribute values inside plans and states are JSON wire values. Without a provider schema
//! they are read through this view; strings borrow from the input, containers are slices of
//! the tape, and skipping a subtree is O(1) (the tape records each container's size).

pub use tfwire::json::view::{Array, ArrayIter, Json, JsonKind, JsonNumber, Object, ObjectIter};

pub(crate) use tfwire::json::Safe as Quoted;
/// The human ("safe") string writer and its character rule, from tfwire's one JSON layer
/// ([`tfwire::json`]): re-exported so that plan and state JSON and every message quote text
/// the same way.
pub use tfwire::json::{is_unsafe_char, write_safe_str as write_json_str};
