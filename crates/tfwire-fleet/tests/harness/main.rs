//! The tests of tfwire-fleet, one binary: SQL over the committed small fleet against the
//! reference's answers, over the real clients' states against their documents, the scan's
//! projection, partitions and laziness, and the `tfwire-fleet` binary.

mod cli;
mod common;
mod fleet;
mod real_client;
mod scan;
