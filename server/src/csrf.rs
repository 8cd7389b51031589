//! Cross-site request protection for the server functions. Browsers mark every request with where
//! it came from (`Sec-Fetch-Site`, and `Origin` on every cross-origin POST); a state-changing
//! request from another site is refused before it reaches a handler. Requests with neither header
//! are not from a browser page, so they carry no victim's cookie to abuse and pass.

use axum::{
    extract::Request,
    http::{header, Method, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// The middleware.
pub async fn same_origin_only(request: Request, next: Next) -> Response {
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return next.run(request).await;
    }
    if let Some(reason) = cross_site(&request) {
        tracing::warn!(path = %request.uri().path(), reason, "cross-site request refused");
        return (
            StatusCode::FORBIDDEN,
            format!("cross-site request refused: {reason}"),
        )
            .into_response();
    }
    next.run(request).await
}

fn cross_site(request: &Request) -> Option<&'static str> {
    let headers = request.headers();
    if let Some(site) = headers.get("sec-fetch-site") {
        // `none` is the user typing the address or using a bookmark.
        return match site.as_bytes() {
            b"same-origin" | b"none" => None,
            _ => Some("Sec-Fetch-Site is not same-origin"),
        };
    }
    let origin = headers.get(header::ORIGIN)?;
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let origin = origin.to_str().ok().unwrap_or("");
    let origin_host = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    (origin_host != Some(host)).then_some("Origin does not match Host")
}
