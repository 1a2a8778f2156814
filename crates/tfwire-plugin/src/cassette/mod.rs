//! Cassettes: what a provider said during a run (the data types; reading and writing come
//! with the format).

mod data;

pub use data::{Call, CallStatus, Cassette, FORMAT, Session};
