//! One harness for tfwire-plugin: the proxy, the schema conversions, the values of every
//! message, the tap's worker and (with the `tls` feature) the tap's AutoMTLS transport, one
//! module each
//! (`cargo test -p tfwire-plugin --test harness proxy::`).

mod cassette;
mod kinds;
mod proxy;
mod replay;
mod schema;
mod tap;
mod values;
mod worker;
