//! One harness for tfwire-plugin: the proxy, the schema conversions, the values of every
//! message, the tap's worker and (with the `tls` feature) the tap's AutoMTLS transport, one
//! module each
//! (`cargo test -p tfwire-plugin --test harness proxy::`).

mod cassette;
#[path = "../../../tfwire/tests/harness/corpus_files.rs"]
mod corpus_files;
mod kinds;
mod proxy;
mod replay;
mod schema;
mod tap;
mod values;
mod worker;

use tfwire_plugin::tfplugin6::{provider_client::ProviderClient, read_state_bytes};

/// The state `s1` of the fake provider's state store `store`, read whole from the server
/// stream of `ReadStateBytes`.
async fn read_store_state(client: &mut ProviderClient<tonic::transport::Channel>) -> Vec<u8> {
    let mut read = client
        .read_state_bytes(read_state_bytes::Request {
            type_name: "store".into(),
            state_id: "s1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut state = Vec::new();
    while let Some(chunk) = read.message().await.unwrap() {
        state.extend_from_slice(&chunk.bytes);
    }
    state
}
