//! The HTTP answer to a refused WebSocket upgrade, shared by `/umi`
//! ([`crate::remote::endpoint`]) and `/kgp` ([`crate::remote::kgp`]).
//! why a module of its own: both routes refuse alike, and neither may
//! import the other (the layering test refuses circles).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::remote::registry::Refused;

/// The answer to a refused upgrade: 401 for a token that proves nobody,
/// 429 with `Retry-After` (whole seconds) when trying again later helps
/// (an address locked out by its failed token checks, a remote id at its
/// connection limit), 403 otherwise; the body says why (also for `/kgp`).
pub fn refusal(why: &Refused) -> Response {
    let status = match why {
        Refused::UnknownToken => StatusCode::UNAUTHORIZED,
        Refused::TooManyFailures { .. } | Refused::AtLimit { .. } => StatusCode::TOO_MANY_REQUESTS,
        Refused::NotHere { .. } | Refused::NotAllowed { .. } => StatusCode::FORBIDDEN,
    };
    let mut response = (status, why.to_string()).into_response();
    if let Some(secs) = why.retry_secs() {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}
