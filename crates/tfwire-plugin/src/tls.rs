//! go-plugin's AutoMTLS for a proxy: fresh self-signed certificates, TLS configurations that
//! trust exactly one peer certificate, and gRPC over unix sockets with or without TLS.
//!
//! Under AutoMTLS (go-plugin's default, used by Terraform and OpenTofu) the client generates a
//! self-signed certificate and passes it to the plugin in `PLUGIN_CLIENT_CERT` (PEM); the plugin
//! generates its own and prints it in its handshake line ([`crate::handshake`]). Each side then
//! trusts exactly the other's certificate. A proxy in the middle plays both roles: towards the
//! provider it is the client (its own [`Identity`], the provider's certificate pinned), towards
//! OpenTofu the server (another [`Identity`], OpenTofu's certificate pinned).
//!
//! The peers' certificates are go-plugin's: ECDSA P-521, self-signed, marked as CAs. They are
//! compared byte for byte with the pinned one (a CA used as an end entity would fail a webpki
//! path check, and there is no path to build: the pin is the trust); the TLS handshake's
//! signatures are still verified with the pinned certificate's key, which is why the crypto
//! provider is aws-lc-rs (ring cannot verify P-521). The proxy's own keys are P-256.
//! ALPN is `h2` on both sides (grpc-go requires it).

use crate::handshake::pem_certificate;
use crate::{Error, ErrorKind};
use core::fmt;
use hyper_util::rt::TokioIo;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{
    ClientConfig, DigitallySignedStruct, DistinguishedName, ServerConfig, SignatureScheme,
};
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{UnixListener, UnixStream};
use tokio_rustls::{TlsAcceptor, TlsConnector};
use tonic::transport::server::Connected;
use tonic::transport::{Channel, Endpoint, Uri};

/// The server name both sides of go-plugin's TLS use.
pub const SERVER_NAME: &str = "localhost";

#[cold]
fn err(what: &str, e: impl fmt::Display) -> Error {
    Error::new(ErrorKind::Tls, format!("{what}: {e}"))
}

/// The crypto provider of every configuration here (aws-lc-rs: P-521 signatures).
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// A certificate and its private key, generated for one run.
pub struct Identity {
    cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key.
        f.debug_struct("Identity")
            .field("cert_bytes", &self.cert.len())
            .finish_non_exhaustive()
    }
}

impl Identity {
    /// A fresh ECDSA P-256 key and a self-signed certificate for `localhost`, usable for both
    /// client and server authentication and marked as a CA, as go-plugin's are (Go's verifier
    /// accepts it as its own root).
    pub fn generate() -> Result<Identity, Error> {
        Identity::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)
    }

    /// As [`Identity::generate`] with an ECDSA P-521 key, go-plugin's own kind: for tests
    /// that stand in for OpenTofu or a provider.
    pub fn generate_p521() -> Result<Identity, Error> {
        Identity::generate_for(&rcgen::PKCS_ECDSA_P521_SHA512)
    }

    fn generate_for(alg: &'static rcgen::SignatureAlgorithm) -> Result<Identity, Error> {
        use rcgen::{
            BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
            KeyUsagePurpose,
        };
        let key = KeyPair::generate_for(alg).map_err(|e| err("key", e))?;
        let mut params =
            CertificateParams::new(vec![SERVER_NAME.to_owned()]).map_err(|e| err("params", e))?;
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(DnType::CommonName, SERVER_NAME);
        params
            .distinguished_name
            .push(DnType::OrganizationName, "tfwire tap");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
            KeyUsagePurpose::KeyAgreement,
            KeyUsagePurpose::KeyCertSign,
        ];
        params.extended_key_usages = vec![
            ExtendedKeyUsagePurpose::ClientAuth,
            ExtendedKeyUsagePurpose::ServerAuth,
        ];
        let cert = params
            .self_signed(&key)
            .map_err(|e| err("certificate", e))?;
        Ok(Identity {
            cert: cert.der().clone(),
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
        })
    }

    /// The certificate (DER).
    pub fn cert(&self) -> &CertificateDer<'static> {
        &self.cert
    }

    /// The certificate as PEM (for `PLUGIN_CLIENT_CERT`).
    pub fn cert_pem(&self) -> String {
        pem_certificate(&self.cert)
    }

    fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(self.key.clone_key())
    }
}

/// The first certificate of a PEM text (`PLUGIN_CLIENT_CERT`).
pub fn cert_from_pem(pem: &str) -> Result<CertificateDer<'static>, Error> {
    CertificateDer::from_pem_slice(pem.as_bytes()).map_err(|e| err("PLUGIN_CLIENT_CERT", e))
}

/// Trusts exactly one certificate, and verifies handshake signatures with its key.
#[derive(Debug)]
struct Pinned {
    cert: CertificateDer<'static>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl Pinned {
    fn check(&self, end_entity: &CertificateDer<'_>) -> Result<(), rustls::Error> {
        if end_entity.as_ref() == self.cert.as_ref() {
            Ok(())
        } else {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::ApplicationVerificationFailure,
            ))
        }
    }
}

/// The signature checks of both verifiers: the handshake's signatures are checked with the
/// provider's algorithms (the certificate itself is pinned, [`Pinned::check`]).
macro_rules! signatures {
    () => {
        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
        }

        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
        }

        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            self.algorithms.supported_schemes()
        }
    };
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.check(end_entity)
            .map(|()| ServerCertVerified::assertion())
    }

    signatures!();
}

impl ClientCertVerifier for Pinned {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        self.check(end_entity)
            .map(|()| ClientCertVerified::assertion())
    }

    signatures!();
}

fn pinned(cert: CertificateDer<'static>, provider: &CryptoProvider) -> Arc<Pinned> {
    Arc::new(Pinned {
        cert,
        algorithms: provider.signature_verification_algorithms,
    })
}

/// The server side: `identity`'s certificate, requiring the client to present exactly `client`.
pub fn server_config(
    identity: &Identity,
    client: CertificateDer<'static>,
) -> Result<Arc<ServerConfig>, Error> {
    let provider = provider();
    let verifier = pinned(client, &provider);
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| err("TLS versions", e))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(vec![identity.cert.clone()], identity.key())
        .map_err(|e| err("server certificate", e))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(Arc::new(config))
}

/// The client side: presents `identity`'s certificate, trusts exactly `server`.
pub fn client_config(
    identity: &Identity,
    server: CertificateDer<'static>,
) -> Result<Arc<ClientConfig>, Error> {
    let provider = provider();
    let verifier = pinned(server, &provider);
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| err("TLS versions", e))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_client_auth_cert(vec![identity.cert.clone()], identity.key())
        .map_err(|e| err("client certificate", e))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(Arc::new(config))
}

/// A unix socket connection, plain or under TLS: what the proxy's server is served on.
pub enum Conn {
    /// Plaintext (h2c): AutoMTLS off, or reattach mode.
    Plain(UnixStream),
    /// TLS, server side.
    Server(Box<tokio_rustls::server::TlsStream<UnixStream>>),
    /// TLS, client side.
    Client(Box<tokio_rustls::client::TlsStream<UnixStream>>),
}

impl fmt::Debug for Conn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Conn::Plain(_) => "Conn::Plain",
            Conn::Server(_) => "Conn::Server",
            Conn::Client(_) => "Conn::Client",
        })
    }
}

macro_rules! each {
    ($self:ident, $s:ident => $e:expr) => {
        match $self.get_mut() {
            Conn::Plain($s) => {
                let $s = Pin::new($s);
                $e
            }
            Conn::Server($s) => {
                let $s = Pin::new(&mut **$s);
                $e
            }
            Conn::Client($s) => {
                let $s = Pin::new(&mut **$s);
                $e
            }
        }
    };
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        each!(self, s => s.poll_read(cx, buf))
    }
}

impl AsyncWrite for Conn {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, b: &[u8]) -> Poll<io::Result<usize>> {
        each!(self, s => s.poll_write(cx, b))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        each!(self, s => s.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        each!(self, s => s.poll_shutdown(cx))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        each!(self, s => s.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Conn::Plain(s) => s.is_write_vectored(),
            Conn::Server(s) => s.is_write_vectored(),
            Conn::Client(s) => s.is_write_vectored(),
        }
    }
}

impl Connected for Conn {
    type ConnectInfo = ();

    fn connect_info(&self) {}
}

/// The connections accepted on `listener`, each after its TLS handshake when `tls` is given.
/// A connection whose handshake fails is dropped (with a line on standard error) and the
/// listener goes on; the stream ends only when accepting fails.
pub fn incoming(
    listener: UnixListener,
    tls: Option<Arc<ServerConfig>>,
) -> tokio_stream::wrappers::ReceiverStream<io::Result<Conn>> {
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    let acceptor = tls.map(TlsAcceptor::from);
    tokio::spawn(async move {
        loop {
            let stream = match listener.accept().await {
                Ok((s, _)) => s,
                Err(e) => {
                    let _ = tx.send(Err(e)).await;
                    return;
                }
            };
            let tx = tx.clone();
            match &acceptor {
                None => {
                    if tx.send(Ok(Conn::Plain(stream))).await.is_err() {
                        return;
                    }
                }
                Some(a) => {
                    let a = a.clone();
                    tokio::spawn(async move {
                        match a.accept(stream).await {
                            Ok(s) => {
                                let _ = tx.send(Ok(Conn::Server(Box::new(s)))).await;
                            }
                            Err(e) => eprintln!("tfwire tap: a TLS handshake failed: {e}"),
                        }
                    });
                }
            }
        }
    });
    tokio_stream::wrappers::ReceiverStream::new(rx)
}

/// Connects to a gRPC server on a unix socket, under TLS when `tls` is given (the server name
/// is [`SERVER_NAME`]). The channel reconnects on the same terms when the connection drops.
pub async fn connect(path: &Path, tls: Option<Arc<ClientConfig>>) -> Result<Channel, Error> {
    let connector = UnixConnector {
        path: Arc::from(path),
        tls: tls.map(TlsConnector::from),
    };
    Endpoint::from_static("http://localhost")
        .connect_with_connector(connector)
        .await
        .map_err(|e| {
            err(
                &format!("connecting to {}", path.display()),
                source_chain(&e),
            )
        })
}

/// An error with its sources (tonic's transport errors say little at the top).
fn source_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

#[derive(Clone)]
struct UnixConnector {
    path: Arc<Path>,
    tls: Option<TlsConnector>,
}

type ConnectFuture = Pin<Box<dyn Future<Output = io::Result<TokioIo<Conn>>> + Send>>;

impl tonic::codegen::Service<Uri> for UnixConnector {
    type Response = TokioIo<Conn>;
    type Error = io::Error;
    type Future = ConnectFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Uri) -> ConnectFuture {
        let (path, tls) = (self.path.clone(), self.tls.clone());
        Box::pin(async move {
            let stream = UnixStream::connect(&*path).await?;
            Ok(TokioIo::new(match tls {
                None => Conn::Plain(stream),
                Some(c) => {
                    let name = ServerName::try_from(SERVER_NAME)
                        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
                    Conn::Client(Box::new(c.connect(name, stream).await?))
                }
            }))
        })
    }
}

/// A private temporary directory (mode 0700) for a proxy's sockets, removed on drop.
#[derive(Debug)]
pub struct SocketDir {
    path: PathBuf,
}

impl SocketDir {
    /// A new directory under `parent` (go-plugin's `PLUGIN_UNIX_SOCKET_DIR` when set, else the
    /// system's temporary directory).
    pub fn new(parent: Option<&Path>) -> io::Result<SocketDir> {
        use std::os::unix::fs::DirBuilderExt;
        let parent = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        for attempt in 0..100u32 {
            let path = parent.join(format!(
                "tfwire-tap-{}-{:08x}",
                std::process::id(),
                stamp.wrapping_add(attempt.wrapping_mul(0x9e37_79b9))
            ));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(SocketDir { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free name for the tap's socket directory",
        ))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for SocketDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
