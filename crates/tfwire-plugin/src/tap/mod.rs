//! The tap's observer: what `tfwire tap` runs beside the proxy ([`crate::proxy`]) to log a
//! provider's traffic.
//!
//! Every frame is handed (a cheap `Bytes` clone) to one worker thread ([`Worker`]) that
//! decodes its values with the provider's schema ([`crate::rpc`]'s table says which fields
//! are values and which schema types each), writes one JSON line per value
//! ([`crate::log::Record`], sensitive attributes masked), and keeps the figures ([`Stats`]).
//! Nothing runs on the forwarding path but a channel send that never waits: the channel is
//! bounded ([`WorkerConfig::queue`] events), and when it is full (the decoder fell that far
//! behind) the event is dropped and counted ([`Stats::dropped`]), the call goes on.
//!
//! The schema comes from the `GetProviderSchema` (protocol 5: `GetSchema`) and
//! `GetResourceIdentitySchemas` responses seen on the wire, or, when the client does not ask
//! (OpenTofu and Terraform cache schemas), from the tap asking itself ([`fetch_schemas`],
//! [`Tap::start_fetch`], [`Tap::fetched`]). [`WorkerConfig::validate`] checks configurations
//! beyond their type ([`validate_config`]).
//!
//! ```
//! use tfwire_plugin::proxy::{Frame, Observer};
//! use tfwire_plugin::rpc::Direction;
//! use tfwire_plugin::tap::{Upstream, Worker, WorkerConfig};
//!
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! // A provider that is never called here (the channel connects lazily).
//! let channel = {
//!     let _in = runtime.enter();
//!     tonic::transport::Endpoint::from_static("http://127.0.0.1:9").connect_lazy()
//! };
//! let worker = Worker::start(
//!     vec![Upstream::new(channel, runtime.handle().clone())],
//!     None,
//!     WorkerConfig::default(),
//! );
//! let tap = worker.observer(0);
//! // A GetMetadata request (an empty message): counted, no values.
//! let message = bytes::Bytes::new();
//! tap.frame(Frame {
//!     method: "/tfplugin6.Provider/GetMetadata",
//!     direction: Direction::Request,
//!     message: &message,
//!     call: 1,
//! });
//! drop(tap);
//! let mut stats = worker.finish();
//! assert_eq!(stats.values, 0);
//! assert!(stats.summary_json().starts_with(r#"{"rpcs":{"GetMetadata":{"calls":1,"frames":1"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fetch;
mod stats;
mod time;
mod validate;
mod worker;

pub(crate) use fetch::call as empty_unary;
pub use fetch::fetch_schemas;
pub use stats::Stats;
pub use time::{rfc3339, write_rfc3339};
pub use validate::validate_config;
pub use worker::{QUEUE, Tap, Upstream, Worker, WorkerConfig};
