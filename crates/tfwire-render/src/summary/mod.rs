//! Plan summaries for people and programs: what a [`Summary`](tfwire_plan::Summary) (the
//! counts and the per-change list that `tfwire-plan` models, filtered or not) says, written
//! as an aligned text table ([`write_table`]), a tree of modules ([`write_tree`]),
//! GitHub-flavoured Markdown for pull request comments, shrunk to a byte budget when asked
//! ([`write_markdown`]), or one JSON object ([`write_json`]). These are the formats of
//! `tfwire plan summary`, byte for byte.
//!
//! ```
//! use tfwire_render::summary::{self, Options};
//!
//! let mut input = br#"{"format_version":"1.2","resource_changes":[
//!   {"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a",
//!    "change":{"actions":["create"]}},
//!   {"address":"aws_instance.b","mode":"managed","type":"aws_instance","name":"b",
//!    "change":{"actions":["delete","create"]},"action_reason":"replace_because_tainted"}]}"#
//!     .to_vec();
//! let tape = tfwire_plan::Parser::new().parse(&mut input)?;
//! let arena = bumpalo::Bump::new();
//! let plan = tape.plan(&arena)?;
//! let s = tfwire_plan::Summary::of(plan);
//!
//! let mut table = String::new();
//! summary::write_table(&mut table, &s, &Options::default())?;
//! assert_eq!(table, "\
//! Plan (format 1.2)
//!
//! ACTION   ADDRESS         NOTES
//! create   aws_instance.a
//! replace  aws_instance.b  tainted
//!
//! Changes: 1 create, 0 update, 0 delete, 1 replace
//! ");
//!
//! let json = summary::to_json(&s);
//! assert!(json.starts_with(r#"{"format_version":"1.2","counts":{"create":1,"update":0,"delete":0,"replace":1,"#));
//!
//! // Markdown within a byte budget: the details go first, the totals stay.
//! let mut options = Options::default();
//! options.max_bytes = Some(600);
//! let mut md = String::new();
//! summary::write_markdown(&mut md, plan, &s, &options)?;
//! assert!(md.starts_with("### Plan: 1 to create, 0 to update, 0 to delete, 1 to replace\n"));
//! assert!(md.len() <= 600);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every string of the document goes through [`escape`](crate::escape): the table and the
//! tree are safe for a terminal (with ANSI colours only when [`Options::color`] asks), the
//! Markdown renders every document string as inert code, and the JSON escapes what a
//! terminal would act on ([`Escape::Safe`](tfwire_json::Escape::Safe)).

mod json;
mod markdown;
mod options;
mod table;
mod tree;
mod words;

pub use json::{to_json, write_change_members, write_json};
pub use markdown::write_markdown;
pub use options::{Error, Options};
pub use table::write_table;
pub use tree::write_tree;
