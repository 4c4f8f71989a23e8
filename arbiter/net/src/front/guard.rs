//! Refuses requests that a page from another site could make through the
//! user's browser. A server on 127.0.0.1 is still reachable from any page the
//! browser shows: through DNS rebinding (a hostile name that resolves to
//! 127.0.0.1, seen in `Host`) and through cross-site requests and WebSockets
//! (seen in `Origin`; browsers do not apply the same-origin policy to
//! WebSockets). So every request must name one of our own addresses in
//! `Host` (and in its target, when that is in absolute form), and, if it
//! carries an `Origin`, that origin must be this server.
//!
//! A header is read whole or not at all: two `Host` or two `Origin` fields
//! (RFC 9112 §3.2: a request with more than one `Host` is answered 400), or
//! one that is not visible ASCII, are refused with 400 — never read as the
//! first one, or as none.

use std::fmt;
use std::net::SocketAddr;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The `Host` values this server answers to.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    hosts: Vec<String>,
    /// The scheme of its pages' `Origin`: `https://` behind TLS, else `http://`.
    origin_scheme: &'static str,
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
        AllowedHosts {
            hosts,
            origin_scheme: "http://",
        }
    }

    /// The same hosts, for a listener serving TLS: its pages' `Origin` is
    /// `https://…` (and an `http://…` one is another server's page).
    pub fn over_tls(mut self) -> AllowedHosts {
        self.origin_scheme = "https://";
        self
    }

    /// Adds a host name (with port) the server may be reached by.
    pub fn allow(&mut self, host: impl Into<String>) {
        self.hosts.push(host.into());
    }

    fn allows_host(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }

    /// Checks a request's target and headers: one `Host`, at most one
    /// `Origin`, both text, both ours (and the target's authority, if any).
    pub fn check_request(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = single(headers, header::HOST, "Host")?;
        let origin = single(headers, header::ORIGIN, "Origin")?;
        if let Some(authority) = uri.authority() {
            // why: a target in absolute form (`GET http://evil/ HTTP/1.1`)
            // names the host the request is for (RFC 9112 §3.2.2).
            if !self.allows_host(authority.as_str()) {
                return Err(Refusal::ForeignHost(authority.as_str().to_owned()));
            }
        }
        self.check(host, origin)
    }

    /// Checks a request's `Host` and `Origin` values.
    pub fn check(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), Refusal> {
        let host = host.ok_or(Refusal::NoHost)?;
        if !self.allows_host(host) {
            return Err(Refusal::ForeignHost(host.to_owned()));
        }
        if let Some(origin) = origin {
            let own = origin
                .strip_prefix(self.origin_scheme)
                .is_some_and(|rest| self.allows_host(rest));
            if !own {
                return Err(Refusal::ForeignOrigin(origin.to_owned()));
            }
        }
        Ok(())
    }
}

/// The one value of header `name` (`label` in messages), if it is there:
/// two are refused, and so is one that is not visible ASCII.
fn single<'h>(
    headers: &'h HeaderMap,
    name: HeaderName,
    label: &'static str,
) -> Result<Option<&'h str>, Refusal> {
    let mut values = headers.get_all(name).iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(Refusal::Repeated(label));
    }
    first
        .to_str()
        .map(Some)
        .map_err(|_| Refusal::NotText(label))
}

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    NoHost,
    ForeignHost(String),
    ForeignOrigin(String),
    /// The header (by its name) came more than once.
    Repeated(&'static str),
    /// The header's value is not visible ASCII.
    NotText(&'static str),
}

impl Refusal {
    /// 400 for a malformed request, 403 for one from elsewhere.
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::Repeated(_) | Refusal::NotText(_) => StatusCode::BAD_REQUEST,
            Refusal::NoHost | Refusal::ForeignHost(_) | Refusal::ForeignOrigin(_) => {
                StatusCode::FORBIDDEN
            }
        }
    }
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
            Refusal::Repeated(name) => write!(
                f,
                "refused: the request has more than one {name} header (RFC 9112: one only)"
            ),
            Refusal::NotText(name) => write!(
                f,
                "refused: the request's {name} header is not plain ASCII text"
            ),
        }
    }
}

/// The middleware: refuses with 400 or 403 ([`Refusal::status`]) and the
/// reason as text.
pub async fn guard(State(allowed): State<AllowedHosts>, request: Request, next: Next) -> Response {
    match allowed.check_request(request.uri(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => {
            tracing::warn!(%refusal, "request refused");
            (refusal.status(), refusal.to_string()).into_response()
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
    fn behind_tls_the_origin_is_https() {
        let a = local().over_tls();
        let host = Some("127.0.0.1:8080");
        assert_eq!(a.check(host, Some("https://127.0.0.1:8080")), Ok(()));
        assert_eq!(
            a.check(host, Some("http://127.0.0.1:8080")),
            Err(Refusal::ForeignOrigin("http://127.0.0.1:8080".into()))
        );
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

    fn headers(pairs: &[(&HeaderName, &[u8])]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                (*name).clone(),
                axum::http::HeaderValue::from_bytes(value).expect("a header value"),
            );
        }
        map
    }

    #[test]
    fn a_repeated_or_non_ascii_host_or_origin_is_refused_whole() {
        let a = local();
        let uri = Uri::from_static("/api/config");
        let own = b"127.0.0.1:8080".as_slice();
        let origin = b"http://127.0.0.1:8080".as_slice();
        let check = |pairs: &[(&HeaderName, &[u8])]| a.check_request(&uri, &headers(pairs));
        assert_eq!(check(&[(&header::HOST, own)]), Ok(()));
        assert_eq!(
            check(&[(&header::HOST, own), (&header::ORIGIN, origin)]),
            Ok(())
        );
        // Own, then evil: read whole, not as its first value.
        let twice = check(&[(&header::HOST, own), (&header::HOST, b"evil.example:8080")]);
        assert_eq!(twice, Err(Refusal::Repeated("Host")));
        assert_eq!(twice.unwrap_err().status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            check(&[
                (&header::HOST, own),
                (&header::ORIGIN, origin),
                (&header::ORIGIN, b"http://evil.example"),
            ]),
            Err(Refusal::Repeated("Origin"))
        );
        // A byte above 0x7f: not "no Origin".
        let odd = check(&[
            (&header::HOST, own),
            (&header::ORIGIN, b"http://\xe9vil.example"),
        ]);
        assert_eq!(odd, Err(Refusal::NotText("Origin")));
        assert_eq!(
            check(&[(&header::HOST, b"127.0.0.1:8080\xff")]),
            Err(Refusal::NotText("Host"))
        );
        // A target in absolute form names the host as well.
        let absolute = Uri::from_static("http://evil.example:8080/api/config");
        assert_eq!(
            a.check_request(&absolute, &headers(&[(&header::HOST, own)])),
            Err(Refusal::ForeignHost("evil.example:8080".into()))
        );
        assert_eq!(
            a.check(Some("evil.example:8080"), None)
                .unwrap_err()
                .status(),
            StatusCode::FORBIDDEN
        );
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
