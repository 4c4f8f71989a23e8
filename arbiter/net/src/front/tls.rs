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
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::crypto::CryptoProvider;
use rustls_pki_types::pem::{self, PemObject};
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

/// Why TLS cannot be set up as the flags say; each names the flag and the
/// file.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// `flag`: `--tls-cert` or `--ca`.
    #[error("{flag} {}: {source}", .path.display())]
    Certificates {
        flag: &'static str,
        path: PathBuf,
        source: pem::Error,
    },
    #[error(
        "{flag} {}: no certificate in it (expected PEM, \"-----BEGIN CERTIFICATE-----\")",
        .path.display()
    )]
    NoCertificate { flag: &'static str, path: PathBuf },
    #[error("--tls-key {}: {source} (expected a PEM private key)", .path.display())]
    Key { path: PathBuf, source: pem::Error },
    /// The protocol versions of the crypto provider (a bug if ever).
    #[error("TLS: {0}")]
    Protocols(#[source] rustls::Error),
    /// The key does not go with the certificate, or is of no kind rustls
    /// takes.
    #[error("--tls-cert {} and --tls-key {}: {source}", .cert.display(), .key.display())]
    Pair {
        cert: PathBuf,
        key: PathBuf,
        source: rustls::Error,
    },
    /// A certificate of `--ca` cannot be trusted as a root.
    #[error("--ca {}: {source}", .path.display())]
    Root {
        path: PathBuf,
        source: rustls::Error,
    },
}

/// The certificates of a PEM file (at least one), or what is wrong with it;
/// `flag`: the flag that named it.
fn certificates(path: &Path, flag: &'static str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(Iterator::collect::<Result<Vec<_>, _>>)
        .map_err(|source| TlsError::Certificates {
            flag,
            path: path.to_owned(),
            source,
        })?;
    if certs.is_empty() {
        return Err(TlsError::NoCertificate {
            flag,
            path: path.to_owned(),
        });
    }
    Ok(certs)
}

impl Tls {
    /// The TLS of a listener serving the chain in `cert` (PEM, the server's
    /// certificate first) with the private key in `key` (PEM: PKCS #8,
    /// PKCS #1 or SEC1).
    pub fn from_pem_files(cert: &Path, key_file: &Path) -> Result<Tls, TlsError> {
        let chain = certificates(cert, "--tls-cert")?;
        let key = PrivateKeyDer::from_pem_file(key_file).map_err(|source| TlsError::Key {
            path: key_file.to_owned(),
            source,
        })?;
        let config = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(TlsError::Protocols)?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|source| TlsError::Pair {
                cert: cert.to_owned(),
                key: key_file.to_owned(),
                source,
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
pub fn client_config(ca: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, TlsError> {
    let mut roots = rustls::RootCertStore::empty();
    match ca {
        Some(path) => {
            for cert in certificates(path, "--ca")? {
                roots.add(cert).map_err(|source| TlsError::Root {
                    path: path.to_owned(),
                    source,
                })?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(TlsError::Protocols)?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}
