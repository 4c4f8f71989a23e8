//! Refuses requests that a page from another site could make through the
//! user's browser. A server on 127.0.0.1 is still reachable from any page the
//! browser shows: through DNS rebinding (a hostile name that resolves to
//! 127.0.0.1, seen in `Host`) and through cross-site requests and WebSockets
//! (seen in `Origin`; browsers do not apply the same-origin policy to
//! WebSockets). So every request must name one of our own addresses in
//! `Host`, and, if it carries an `Origin`, that origin must be this server.

use std::fmt;
use std::net::SocketAddr;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The `Host` values this server answers to.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    hosts: Vec<String>,
}

impl AllowedHosts {
    /// The bound address itself, plus `localhost` and both loopback
    /// addresses when bound to a loopback (or the unspecified) address.
    pub fn for_address(addr: SocketAddr) -> AllowedHosts {
        let port = addr.port();
        let mut hosts = vec![match addr {
            SocketAddr::V4(a) => format!("{}:{port}", a.ip()),
            SocketAddr::V6(a) => format!("[{}]:{port}", a.ip()),
        }];
        if addr.ip().is_loopback() || addr.ip().is_unspecified() {
            for h in ["localhost", "127.0.0.1", "[::1]"] {
                let h = format!("{h}:{port}");
                if !hosts.contains(&h) {
                    hosts.push(h);
                }
            }
        }
        AllowedHosts { hosts }
    }

    /// Adds a host name (with port) the server may be reached by.
    pub fn allow(&mut self, host: impl Into<String>) {
        self.hosts.push(host.into());
    }

    fn allows_host(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }

    /// Checks a request's `Host` and `Origin` headers.
    pub fn check(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), Refusal> {
        let host = host.ok_or(Refusal::NoHost)?;
        if !self.allows_host(host) {
            return Err(Refusal::ForeignHost(host.to_owned()));
        }
        if let Some(origin) = origin {
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|rest| self.allows_host(rest));
            if !own {
                return Err(Refusal::ForeignOrigin(origin.to_owned()));
            }
        }
        Ok(())
    }
}

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    NoHost,
    ForeignHost(String),
    ForeignOrigin(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoHost => f.write_str("refused: the request has no Host header"),
            Refusal::ForeignHost(h) => write!(
                f,
                "refused: Host {h:?} is not this server (a DNS rebinding attempt?); \
                 open the address `arbiter serve` printed"
            ),
            Refusal::ForeignOrigin(o) => write!(
                f,
                "refused: a page from {o:?} may not use this server (cross-site request)"
            ),
        }
    }
}

/// The middleware: refuses with 403 and the reason as text.
pub async fn guard(State(allowed): State<AllowedHosts>, request: Request, next: Next) -> Response {
    let verdict = {
        let headers = request.headers();
        let value = |name| headers.get(name).and_then(|v| v.to_str().ok());
        allowed.check(value(header::HOST), value(header::ORIGIN))
    };
    match verdict {
        Ok(()) => next.run(request).await,
        Err(refusal) => {
            tracing::warn!(%refusal, "request refused");
            (StatusCode::FORBIDDEN, refusal.to_string()).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> AllowedHosts {
        AllowedHosts::for_address("127.0.0.1:8080".parse().expect("address"))
    }

    #[test]
    fn own_hosts_and_origins_pass() {
        let a = local();
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert_eq!(a.check(Some(host), None), Ok(()), "{host}");
            let origin = format!("http://{host}");
            assert_eq!(a.check(Some(host), Some(&origin)), Ok(()), "{origin}");
        }
    }

    #[test]
    fn rebinding_hosts_are_refused() {
        let a = local();
        for host in [
            "evil.example:8080",
            "127.0.0.1:9090",
            "127.0.0.1",
            "localhost",
        ] {
            assert_eq!(
                a.check(Some(host), None),
                Err(Refusal::ForeignHost(host.into())),
                "{host}"
            );
        }
        assert_eq!(a.check(None, None), Err(Refusal::NoHost));
    }

    #[test]
    fn foreign_origins_are_refused() {
        let a = local();
        for origin in [
            "http://evil.example",
            "http://127.0.0.1:9090",
            "https://127.0.0.1:8080",
            "null",
            "http://127.0.0.1:8080.evil.example",
        ] {
            assert_eq!(
                a.check(Some("127.0.0.1:8080"), Some(origin)),
                Err(Refusal::ForeignOrigin(origin.into())),
                "{origin}"
            );
        }
    }

    #[test]
    fn a_non_loopback_bind_answers_to_its_own_address_only() {
        let mut a = AllowedHosts::for_address("192.0.2.7:80".parse().expect("address"));
        assert!(a.check(Some("192.0.2.7:80"), None).is_ok());
        assert!(a.check(Some("localhost:80"), None).is_err());
        a.allow("board.lan:80");
        assert!(a
            .check(Some("board.lan:80"), Some("http://board.lan:80"))
            .is_ok());
    }
}
