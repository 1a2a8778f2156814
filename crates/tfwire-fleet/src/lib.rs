//! SQL over fleets of OpenTofu and Terraform states and plans: the tables of
//! [`tfwire_arrow`] (one per resource type, typed from the provider schemas, plus
//! `resources`, `attributes` and `outputs`) as DataFusion tables.
//!
//! - [`provider`]: [`FleetTable`], a `TableProvider` that reads its inputs only when a scan
//!   runs, spread over the session's `target_partitions`, decoding only the columns the
//!   query reads; [`register`] registers every table of a schema cache.
//! - [`distributed`]: the same tables under Ballista (the codecs that carry a table and its
//!   scan to a cluster's nodes as plain data, the scheduler, the executor, the client's
//!   session).
//! - [`output`]: query results as a table, CSV or JSON ([`output::Writer`]), exact numbers,
//!   nothing a terminal would act on; [`canonical_rows`], the canonical text of each cell.
//!
//! See the crate README for the `tfwire-fleet` binary (`export`, `query`, `scheduler`,
//! `executor`), a runnable example, and running on a cluster.

#![forbid(unsafe_code)]

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod distributed;
pub mod output;
pub mod provider;

pub use output::canonical_rows;
pub use provider::{FleetScan, FleetTable, Registration, register};
