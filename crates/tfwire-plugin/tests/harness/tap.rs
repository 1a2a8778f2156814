//! The tap's transport in-process: a client with a go-plugin-like P-521 certificate, the
//! proxy on unix sockets with AutoMTLS on both sides, and a tonic provider behind it. Calls
//! pass through; a client or provider with another certificate is refused. The provider is
//! the tap tests' fake (`tfwire-tap-testkit`).
#![cfg(feature = "tls")]

use std::path::Path;
use std::sync::Mutex;
use tfwire_plugin::proxy::{Forward, Frame, Observer};
use tfwire_plugin::tfplugin6::get_provider_schema;
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tls::{self, Identity, SocketDir};
use tokio::net::UnixListener;

#[derive(Default)]
struct Count(Mutex<Vec<(String, u64)>>);

impl Observer for Count {
    fn frame(&self, f: Frame<'_>) {
        self.0.lock().unwrap().push((f.method.to_owned(), f.call));
    }
}

async fn schema_version(path: &Path, client: &Identity, server: &Identity) -> Result<i64, String> {
    let config = tls::client_config(client, server.cert().clone()).unwrap();
    let channel = tls::connect(path, Some(config))
        .await
        .map_err(|e| e.to_string())?;
    let r = ProviderClient::new(channel)
        .get_provider_schema(get_provider_schema::Request {})
        .await
        .map_err(|e| e.to_string())?;
    Ok(r.into_inner().resource_schemas["db"].version)
}

#[tokio::test]
async fn mtls_both_sides_through_the_proxy() {
    let dir = SocketDir::new(None).unwrap();
    let mode = std::fs::metadata(dir.path()).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o700
    );
    // The provider: go-plugin's kind of certificate, requiring the tap's upstream one.
    let provider = Identity::generate_p521().unwrap();
    let tap_up = Identity::generate().unwrap();
    let tap_down = Identity::generate().unwrap();
    // OpenTofu: go-plugin's kind of certificate too (PLUGIN_CLIENT_CERT, as PEM).
    let tofu = Identity::generate_p521().unwrap();
    let tofu_cert = tls::cert_from_pem(&tofu.cert_pem()).unwrap();
    assert_eq!(&tofu_cert, tofu.cert());

    let provider_path = dir.path().join("provider.sock");
    let config = tls::server_config(&provider, tap_up.cert().clone()).unwrap();
    let incoming = tls::incoming(UnixListener::bind(&provider_path).unwrap(), Some(config));
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(tfwire_tap_testkit::fake())
            .serve_with_incoming(incoming),
    );

    let upstream = tls::connect(
        &provider_path,
        Some(tls::client_config(&tap_up, provider.cert().clone()).unwrap()),
    )
    .await
    .unwrap();
    let forward = Forward::new(upstream, Count::default());
    let seen = forward.observer().clone();
    let tap_path = dir.path().join("tap.sock");
    let config = tls::server_config(&tap_down, tofu_cert).unwrap();
    let incoming = tls::incoming(UnixListener::bind(&tap_path).unwrap(), Some(config));
    tokio::spawn(forward.router().serve_with_incoming(incoming));

    // Through the proxy: the provider's answer.
    assert_eq!(schema_version(&tap_path, &tofu, &tap_down).await, Ok(0));
    assert_eq!(
        *seen.0.lock().unwrap(),
        [
            ("/tfplugin6.Provider/GetProviderSchema".to_owned(), 0),
            ("/tfplugin6.Provider/GetProviderSchema".to_owned(), 0)
        ]
    );

    // A client with another certificate is refused by the tap; a client that pins another
    // server certificate refuses the tap; the provider refuses anyone but the tap.
    let stranger = Identity::generate_p521().unwrap();
    assert!(
        schema_version(&tap_path, &stranger, &tap_down)
            .await
            .is_err()
    );
    assert!(schema_version(&tap_path, &tofu, &stranger).await.is_err());
    assert!(
        schema_version(&provider_path, &tofu, &provider)
            .await
            .is_err()
    );
    assert_eq!(
        seen.0.lock().unwrap().len(),
        2,
        "refused calls never reach the proxy"
    );
}
