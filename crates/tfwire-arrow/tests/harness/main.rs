//! One harness for tfwire-arrow: the real-client corpora, the mapping per cty type,
//! projection, sensitivity, hostile inputs, discovery and export.
//!
//! `TFWIRE_TEST=substring` limits the corpus cases to scenarios whose path contains it.

mod common;
mod corpus;
mod export;
mod mapping;
mod sensitive;
