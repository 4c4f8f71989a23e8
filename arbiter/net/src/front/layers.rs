//! What every request of a listener goes through before its route, from
//! the outside in: the `Host`/`Origin` [`guard`](super::guard) (a request
//! from elsewhere is refused before anything else is done for it), the body
//! size cap (`tower-http`'s `RequestBodyLimitLayer`: a body announced or
//! found larger is answered 413 without being read) and the request
//! deadline (`tower-http`'s `TimeoutLayer`: a request whose handling, its
//! body's arrival included, takes longer is answered 408 — a body announced
//! as 99,999,999,999 bytes and never sent holds nothing past it).
//! A WebSocket's request ends at its upgrade: the socket's life is not a
//! request's. Outermost, each request's span (`request{method=… route=…}`,
//! inside its connection's, which names the peer), so that every log line
//! of a request, the guard's refusal included, names its route.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use axum::Router;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tracing::Instrument;

use super::guard::{self, AllowedHosts};
use super::Limits;

/// `app` behind the front's layers.
pub fn wrap(app: Router, allowed: Option<AllowedHosts>, limits: &Limits) -> Router {
    let app = app
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .layer(RequestBodyLimitLayer::new(limits.max_body));
    let app = match allowed {
        Some(allowed) => app.layer(axum::middleware::from_fn_with_state(allowed, guard::guard)),
        None => app,
    };
    app.layer(axum::middleware::from_fn(in_span))
}

/// Handles `request` in a span naming its method and route (the path; why
/// not the query: it may carry what is nobody's business in a log).
async fn in_span(request: Request, next: Next) -> Response {
    // why error level: see the connection's span (`conn::serve`).
    let span = tracing::error_span!(
        "request",
        method = %request.method(),
        route = %request.uri().path(),
    );
    next.run(request).instrument(span).await
}
