//! TLS built in (rustls, the ring provider): a listener given a certificate
//! and its key (`--tls-cert FILE --tls-key FILE`, PEM) speaks only TLS —
//! `https://` for the pages, `wss://` for the sockets — and the bridge
//! (`arbiter connect wss://…`) checks the arbiter's certificate against the
//! webpki roots (Mozilla's list, as browsers do) or a private CA (`--ca`).
//!
//! The handshake of an accepted connection runs on the connection's own
//! task, within the header deadline ([`super::Limits::header_timeout`]):
//! a client that opens a socket and sends nothing, or a plain `http://`
//! client, costs a place for that long and then is closed with a logged
//! reason. Certificate files are read once, at start: a bad one is an error
//! before anything is served, naming the file and what is wrong with it.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rustls::crypto::CryptoProvider;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// A listener's TLS: its certificate chain and key, ready to accept.
#[derive(Clone)]
pub struct Tls {
    acceptor: TlsAcceptor,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tls { .. }")
    }
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The certificates of a PEM file (at least one), or what is wrong with it.
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(Iterator::collect::<Result<Vec<_>, _>>)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "{}: no certificate in it (expected PEM, \"-----BEGIN CERTIFICATE-----\")",
            path.display()
        ));
    }
    Ok(certs)
}

impl Tls {
    /// The TLS of a listener serving the chain in `cert` (PEM, the server's
    /// certificate first) with the private key in `key` (PEM: PKCS #8,
    /// PKCS #1 or SEC1).
    pub fn from_pem_files(cert: &Path, key_file: &Path) -> Result<Tls, String> {
        let chain = certificates(cert).map_err(|e| format!("--tls-cert {e}"))?;
        let key = PrivateKeyDer::from_pem_file(key_file).map_err(|e| {
            format!(
                "--tls-key {}: {e} (expected a PEM private key)",
                key_file.display()
            )
        })?;
        let config = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| {
                format!(
                    "--tls-cert {} and --tls-key {}: {e}",
                    cert.display(),
                    key_file.display()
                )
            })?;
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }

    /// The server side of the handshake on `stream`, within `deadline`.
    pub async fn accept(
        &self,
        stream: TcpStream,
        deadline: Duration,
    ) -> io::Result<TlsStream<TcpStream>> {
        match tokio::time::timeout(deadline, self.acceptor.accept(stream)).await {
            Ok(done) => done,
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "no TLS handshake within {}s (--header-timeout)",
                    deadline.as_secs_f64()
                ),
            )),
        }
    }
}

/// The client side's trust: the certificates of `ca` (PEM) if given, else
/// the webpki roots.
pub fn client_config(ca: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    match ca {
        Some(path) => {
            for cert in certificates(path).map_err(|e| format!("--ca {e}"))? {
                roots
                    .add(cert)
                    .map_err(|e| format!("--ca {}: {e}", path.display()))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}
