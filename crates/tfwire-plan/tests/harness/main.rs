//! One harness for tfwire-plan: the real corpus, hand-made fixtures, and tables of cases.
//!
//! `TFWIRE_TEST=substring` limits the corpus cases to files whose path contains it.

mod corpus;
mod documents;
mod merged;
mod model;
mod numbers;
mod rawstate;
mod real_client;
mod state_json;
mod summary_stream;
mod terraform;
