//! Renders Terraform and OpenTofu plans and states for people.
//!
//! [`escape`] holds the rules that keep a document's text from acting on a terminal or a
//! Markdown page; every renderer of the crate writes document strings through it.

#![forbid(unsafe_code)]

pub mod escape;
