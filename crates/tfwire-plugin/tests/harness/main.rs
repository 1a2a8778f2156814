//! One harness for tfwire-plugin: the proxy, the schema conversions and the values of
//! every message, one module each (`cargo test -p tfwire-plugin --test harness proxy::`).

mod proxy;
mod schema;
mod values;
