//! `--tls-cert FILE --tls-key FILE`: TLS built in for every listener of a
//! command (`serve`'s board; `--live` and `--remote-listen` of `match` and
//! `tournament`), through the front ([`arbiter_net::front::tls`]). One certificate
//! for all of them: they are one host's listeners.

use std::path::PathBuf;

use clap::Args;

use crate::cli::CliError;
use arbiter_net::front::tls::Tls;

/// The help heading of the TLS flags. why on each flag, not the struct's
/// `next_help_heading`: clap keeps that heading on for the flags declared
/// after the flattened struct, filing them under TLS.
pub const TLS_HEADING: &str = "TLS (every listener of this command)";

#[derive(Args, Clone, Debug, Default)]
pub struct TlsArgs {
    /// Serve TLS (https://, wss://) with this certificate chain (PEM, the
    /// server's certificate first); needs --tls-key.
    #[arg(long, help_heading = TLS_HEADING, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM: PKCS #8, PKCS #1 or SEC1).
    #[arg(long, help_heading = TLS_HEADING, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
}

impl TlsArgs {
    /// The listeners' TLS, read once (an error names the file and what is
    /// wrong with it); `None` without the flags.
    pub fn load(&self) -> Result<Option<Tls>, CliError> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Tls::from_pem_files(cert, key)
                .map(Some)
                .map_err(|e| CliError::Usage(e.to_string())),
            // clap's `requires` makes one without the other a usage error.
            _ => Ok(None),
        }
    }
}
