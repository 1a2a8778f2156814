//! Fast, zero-copy reading of Terraform and OpenTofu plan and state documents:
//! `terraform show -json` plans and states, Terraform Cloud redacted plans, and raw
//! `.tfstate` files.
//!
//! ```
//! use tfwire_plan::{Document, Parser, Path, Summary};
//!
//! let mut input = br#"{
//!   "format_version": "1.2", "terraform_version": "1.9.8",
//!   "resource_changes": [{
//!     "address": "aws_instance.web[0]", "mode": "managed", "type": "aws_instance",
//!     "name": "web", "index": 0, "provider_name": "registry.terraform.io/hashicorp/aws",
//!     "change": {
//!       "actions": ["delete", "create"],
//!       "before": {"ami": "ami-1", "id": "i-1", "tags": {"env": "prod"}},
//!       "after": {"ami": "ami-2", "tags": {"env": "prod"}},
//!       "after_unknown": {"id": true, "tags": {}},
//!       "before_sensitive": false,
//!       "after_sensitive": {"tags": {"env": true}},
//!       "replace_paths": [["ami"]]
//!     },
//!     "action_reason": "replace_because_cannot_update"
//!   }]
//! }"#.to_vec();
//!
//! // One pass of simd-json over the input, then a typed model in an arena. Strings and
//! // values borrow from the input; nothing is copied.
//! let mut parser = Parser::new();
//! let tape = parser.parse(&mut input)?;
//! let arena = bumpalo::Bump::new();
//! let Document::Plan(plan) = tape.document(&arena)? else { panic!("not a plan") };
//!
//! let rc = &plan.resource_changes[0];
//! assert_eq!(rc.change.kind().key(), "replace");
//! assert_eq!(rc.change.replace_paths[0].to_string(), ".ami");
//!
//! // The merged view: known/unknown and sensitive at every node, walkable by path.
//! let after = rc.change.after_view();
//! assert!(after.at(&Path::parse(".id")?).unwrap().is_unknown());
//! assert!(after.at(&Path::parse(r#".tags["env"]"#)?).unwrap().is_sensitive());
//!
//! let summary = Summary::of(&plan);
//! assert_eq!(summary.counts.get("replace"), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What it reads
//!
//! - **Plans** of every `format_version` 0.x and 1.x ([`Plan`]), including documents without
//!   a `format_version` (hand-trimmed fixtures) and Terraform Cloud redacted plans
//!   (`plan_format_version`). Format version 2.0 and above is rejected, as the format's
//!   documentation asks. What Terraform writes beside OpenTofu is modelled too: action
//!   invocations ([`ActionInvocation`]), deferred changes ([`DeferredChange`]), resource
//!   identities, `["create","forget"]` ([`ChangeKind::ReplaceForget`]); [`Plan::client`] tells
//!   the two clients' plans apart, and [`Summary::plan_line`] counts as each does.
//! - **`show -json` states** ([`State`]) of format versions 0.x and 1.x.
//! - **Raw state files** ([`RawState`], version 4; [`LegacyState`], version 3).
//! - Input in UTF-8 (with or without a byte-order mark) or UTF-16 (transcoded).
//!
//! [`Tape::document`] tells the kinds apart from the top-level keys. Every object of the
//! model keeps its `raw` JSON, so properties this crate does not know (newer minor
//! versions, junk keys in hand-edited fixtures) stay reachable.
//!
//! # Values
//!
//! Attribute values are untyped [`Json`] views. The [`decode`] module is the extension
//! point for decoding them with provider schemas through `tfwire`'s compiled programs.
//!
//! # Writing `show -json` of a raw state
//!
//! [`write_state_json`] (and [`state_show_json`], from the file's bytes) writes the document
//! `tofu show -json terraform.tfstate` / `terraform show -json terraform.tfstate` writes, byte
//! for byte, from a [`RawState`] and the provider schemas; [`ctyjson`] has the value writers
//! it and tfwire-planfile share.
//!
//! # What protects the caller
//!
//! The parser is simd-json's (validating, UTF-8 checked); nesting deeper than
//! [`ParserConfig::max_depth`] (1024) is rejected before any model is built, which also bounds
//! the recursion of the model builders and the merged view. Inputs of 4 GiB and more are
//! rejected. Every failure is an [`Error`] naming the JSON path and, when known, the byte
//! offset. No `unsafe` code: `#![forbid(unsafe_code)]`.
//!
//! # Memory
//!
//! The input buffer is parsed in place (string escapes are decoded into it), so the
//! caller's `Vec` is the only copy of the text. The tape takes 24 bytes per JSON value;
//! simd-json's scratch buffers (kept in the [`Parser`] for reuse) take about 1–1.5 times
//! the input while parsing; the model takes a few hundred bytes per resource change.

#![forbid(unsafe_code)]

mod action;
pub mod address;
mod build;
mod change;
mod checks;
pub mod config;
pub mod ctyjson;
pub mod decode;
mod diff;
mod document;
mod error;
mod filter;
mod json;
mod jsonstate;
mod mask;
mod merged;
mod plan;
mod rawstate;
mod state;
mod summary;
mod tape;
mod values;
mod version;

pub use action::{
    ActionInvocation, ActionTiming, ActionTrigger, DeferredActionInvocation, LifecycleTrigger,
    TriggerEvent,
};
pub use change::module_of;
pub use change::{
    Action, AttrPath, Change, ChangeKind, DeferredChange, Importing, OutputChange, ResourceChange,
};
pub use checks::{Check, CheckAddress, CheckInstance, CheckStatus};
pub use config::Configuration;
pub use diff::{Diff, DiffOp, Shape};
pub use document::{Document, DocumentKind};
pub use error::{Error, ErrorKind};
pub use filter::{Filter, Glob};
pub use json::{Array, ArrayIter, Json, JsonKind, JsonNumber, Object, ObjectIter, is_unsafe_char};
pub use jsonstate::{
    CheckRecord, MAX_MODULE_DEPTH, StateJson, module_ancestors, state_show_json, write_checks,
    write_state_json,
};
pub use mask::{masked_marks, with_masked_plan};
pub use merged::{Mark, Merged};
pub use plan::{Client, Plan, RelevantAttribute, Variable};
pub use rawstate::{
    InstanceAddress, LegacyModule, LegacyResource, LegacyState, RawInstance, RawResource, RawState,
    StateHeader,
};
pub use state::State;
pub use summary::{
    ActionSummary, COUNT_KEYS, ChangeSummary, Counts, OutputSummary, PlanLine, Summary,
};
pub use tape::{
    Encoding, INPUT_PADDING, Parser, ParserConfig, Tape, UNSHAPED_MAX_BYTES, transcode,
};
/// tfwire's one path type (its module documents the syntax and the rule for `.a.b` and
/// `.a["b"]`), for documents' values, filters and diffs.
pub use tfwire::{Path, PathStep};
pub use values::{Index, Mode, Module, Output, Resource, Values};
pub use version::{FormatVersion, MAX_FORMAT_MAJOR};
