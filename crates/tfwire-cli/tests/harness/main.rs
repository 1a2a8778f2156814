//! One harness for tfwire-cli: the `tfwire` binary run as a user runs it, one module per
//! command or concern. Select tests by name as usual (`cargo test -p tfwire-cli --test
//! harness summaries::`); the corpus-wide tests take no filter of their own.

mod cassette;
mod common;
mod dump;
mod fleet;
mod hostile;
mod inputs;
mod limits;
mod masks;
mod outputs;
mod planfile;
mod readme;
mod rendering;
mod replay;
mod schema;
mod schema_cache;
mod show;
mod summaries;
mod tap;
mod terraform;
mod transcode;
mod typed;
