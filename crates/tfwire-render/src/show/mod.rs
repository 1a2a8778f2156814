//! The human view of a plan, byte for byte as `tofu show PLANFILE` draws it (OpenTofu
//! v1.12's `internal/command/jsonformat`), or as `terraform show PLANFILE` draws it
//! (Terraform v1.16's, with [`Dialect::Terraform`] in [`Options::dialect`]), from the
//! `show -json` document and the provider schemas (`providers schema -json`).
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut json = br#"{"format_version":"1.2","resource_changes":[{"address":"aws_instance.web",
//!   "mode":"managed","type":"aws_instance","name":"web","provider_name":"registry.opentofu.org/hashicorp/aws",
//!   "change":{"actions":["create"],"before":null,"after":{"ami":"ami-1"},"after_unknown":{"id":true}}}]}"#
//!     .to_vec();
//! let tape = tfwire_plan::Parser::new().parse(&mut json)?;
//! let arena = bumpalo::Bump::new();
//! let plan = tape.plan(&arena)?;
//! let text = tfwire_render::show::render_plan(plan, None, tfwire_render::show::Options::default())?;
//! assert!(text.contains("  # aws_instance.web will be created\n"));
//! assert!(text.contains("      + ami = \"ami-1\"\n"));
//! assert!(text.contains("Plan: 1 to add, 0 to change, 0 to destroy."));
//! # Ok(()) }
//! ```
//!
//! The pipeline: `value` walks one change's before/after/unknown/sensitive trees, `differ`
//! turns a change and its schema into a diff tree, `draw` draws the tree, and `plan` lays
//! out the document (drift, changes, the `Plan:` line, outputs).
//!
//! Without a schema for a resource, its top-level attributes are drawn from the values
//! (their keys, typed from the values); the differences this makes are listed in the CLI's
//! `plan show --help` and README, and the CLI's tests check that everything else (headers,
//! reasons, notes, ordering, the `Plan:` line, outputs) is still OpenTofu's byte for byte.
//!
//! Two things the JSON does not record are fixed here: the width (OpenTofu wraps its prose
//! and draws its rule at 78 columns when its output is not a terminal, and at the
//! terminal's width on one; this crate always uses 78, the width of the oracles and of CI
//! logs) and the planning mode (`-destroy`, `-refresh-only`: a binary plan file records it;
//! a JSON plan does not, and it is read from what the plan holds, see [`PlanMode`]).
//!
//! Limits: values nest at most [`DEPTH_MAX`](crate::escape::DEPTH_MAX) levels deep in the
//! drawing (deeper ones are drawn as a marker); lists are aligned element by element with
//! a longest common subsequence only while the middle of the two lists (what is left once
//! their common prefix and suffix are set aside) holds at most 2^24 cells; above that, its
//! elements are shown removed and added.

mod actions;
pub(crate) mod differ;
pub(crate) mod draw;
pub(crate) mod fallback;
pub(crate) mod node;
mod plan;
pub(crate) mod text;
pub(crate) mod value;

pub use node::Node;
pub use plan::{Options, PlanMode, render_change, render_output, render_plan};
pub use value::Dialect;
