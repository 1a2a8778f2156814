//! Renders Terraform and OpenTofu plans and states for people.
//!
//! [`escape`] holds the rules that keep a document's text from acting on a terminal or a
//! Markdown page; every renderer of the crate writes document strings through it.
//! [`summary`] writes a plan's summary as a table, a tree, Markdown (within a byte budget)
//! or JSON.

#![forbid(unsafe_code)]

pub mod escape;
pub mod summary;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
