//! Renders Terraform and OpenTofu plans and states for people.
//!
//! - [`show`]: a plan as `tofu show PLANFILE` or `terraform show PLANFILE` draws it, byte
//!   for byte, from the `show -json` document and the provider schemas.
//! - [`state`]: one resource of a state as `tofu state show` / `terraform state show`
//!   draws it.
//! - [`summary`]: a plan's summary as a table, a tree, Markdown (within a byte budget) or
//!   JSON.
//! - [`escape`]: the rules that keep a document's text from acting on a terminal or a
//!   Markdown page; every renderer of the crate writes document strings through it.
//! - [`paint`]: the ANSI colours of actions and their markers.
//!
//! See the crate's README for examples and for the diff model the renderers share.

#![forbid(unsafe_code)]

mod error;
pub mod escape;
pub mod paint;
pub mod show;
pub mod state;
pub mod summary;

pub use error::Error;

/// The README's examples, run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
