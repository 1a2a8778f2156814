//! [`Path`]: where a value sits inside a larger one, in Terraform's syntax
//! (`.ingress[2].cidr_blocks[0]`, `.tags["env"]`): the one path type of the workspace.
//!
//! Decode and encode errors carry one ([`Error::path`](crate::Error::path)),
//! [`Value::at`](crate::Value::at), [`TypedJson::at`](crate::TypedJson::at) and
//! [`lookup`](crate::lookup()) follow one, and tfwire-plan re-exports it for its documents,
//! filters and diffs.
//!
//! # One rule for `.a.b` and `.a["b"]`
//!
//! A [`PathStep::Attr`] (`.name`) is an object attribute, a [`PathStep::Key`] (`["key"]`) a
//! map key: the spellings OpenTofu uses for go-cty's `GetAttrStep` and `IndexStep` with a
//! string key, and what a decoder that knows the type records. Selecting, comparing and
//! hashing treat the two alike: **a name step selects an object's attribute or a map's key
//! of that name, whichever the value has**, and `.tags.env == .tags["env"]`. The value
//! decides, not the spelling, because a person writing a path often cannot tell a map from
//! an object (a `show -json` document cannot either: both are JSON objects), and a value
//! never has both at one place. The variant only decides how the step prints.
//!
//! # Printing and parsing
//!
//! A path prints as its steps from the root: `.name` for an attribute whose name is an
//! identifier (`[A-Za-z_][A-Za-z0-9_-]*`), `["name"]` for any other attribute (as for a map
//! key; OpenTofu would print `.with space`, which does not read back), `[2]` for an element.
//! Names are JSON strings, with the characters that could break a line or a terminal
//! escaped ([`write_safe_str`](tfwire_json::write_safe_str)). The root prints as `(root)`,
//! its one spelling: a message `path: what went wrong` stays readable when the path is
//! empty.
//!
//! [`Path::parse`] reads what a path prints, and also: the root as the empty string or
//! `.`, and a first attribute without its dot (`tags["env"]`).

mod parse;
mod step;

pub use step::{Path, PathStep, is_identifier};
