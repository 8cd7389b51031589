//! A client's mistake is a 400, never a 500. Server functions answer a request they cannot read
//! (truncated JSON, a wrong type, a missing field, an unknown variant, a number out of range,
//! invalid UTF-8) with status 500 and the decoder's message in their own error encoding; this
//! layer turns those into `400 Bad Request` with a short plain message, refuses bodies over
//! [`API_BODY_LIMIT`] with 413, and logs them at WARN at most once a second.

use std::sync::atomic::{AtomicU64, Ordering};

use axum::{
    body::Body,
    extract::Request,
    http::{header::CONTENT_LENGTH, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use http_body_util::BodyExt;

/// The largest body a server function accepts: every one of them takes a few hundred bytes.
pub const API_BODY_LIMIT: usize = 256 * 1024;

/// Server functions live under this prefix (the live stream too, which takes no body).
const API: &str = "/api/";

/// The error encodings of server_fn that mean "could not read the request".
const CLIENT_MISTAKES: [&str; 3] = ["Args|", "Deserialization|", "MissingArg|"];

/// The middleware.
pub async fn client_mistakes_are_400(request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with(API) {
        return next.run(request).await;
    }
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > API_BODY_LIMIT as u64) {
        return too_large();
    }
    let path = request.uri().path().to_string();
    // The body is read here, up to the limit (a body without a length is cut off there), to
    // refuse NUL characters: no text of ours holds one, and Postgres cannot store them.
    let (parts, body) = request.into_parts();
    let body = match http_body_util::Limited::new(body, API_BODY_LIMIT)
        .collect()
        .await
    {
        Ok(body) => body.to_bytes(),
        Err(error) if error.is::<http_body_util::LengthLimitError>() => return too_large(),
        Err(_) => {
            return (
                StatusCode::BAD_REQUEST,
                "bad request: the body could not be read",
            )
                .into_response()
        }
    };
    if holds_nul(&body) {
        let message = "text may not contain NUL characters";
        warn_now_and_then(&path, message);
        return (StatusCode::BAD_REQUEST, format!("bad request: {message}")).into_response();
    }
    let response = next.run(Request::from_parts(parts, Body::from(body))).await;
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR {
        return response;
    }
    let (parts, body) = response.into_parts();
    // The decoder's message may quote the whole value it could not read (an unknown variant
    // 66,000 characters long): what it says is in its first bytes, which are all that is read.
    let (head, whole) = first_bytes(body, ERROR_HEAD).await;
    let text = String::from_utf8_lossy(&head);
    let Some(message) = CLIENT_MISTAKES.iter().find_map(|p| text.strip_prefix(p)) else {
        return match whole {
            true => Response::from_parts(parts, Body::from(head)),
            false => (StatusCode::INTERNAL_SERVER_ERROR, "the server failed").into_response(),
        };
    };
    if message.contains("length limit exceeded") {
        return too_large();
    }
    let message = plain(message);
    warn_now_and_then(&path, &message);
    (StatusCode::BAD_REQUEST, format!("bad request: {message}")).into_response()
}

/// How much of a failed server function's answer is read to tell a client's mistake from a
/// failure.
const ERROR_HEAD: usize = 4096;

/// The first `most` bytes of `body` (all of it if shorter), and whether that is all of it.
async fn first_bytes(mut body: Body, most: usize) -> (Vec<u8>, bool) {
    let mut head = Vec::new();
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return (head, false);
        };
        if let Ok(data) = frame.into_data() {
            let room = most - head.len();
            head.extend_from_slice(&data[..data.len().min(room)]);
            if data.len() > room {
                return (head, false);
            }
        }
    }
    (head, true)
}

/// Whether a body carries a NUL character: raw, escaped in JSON, or encoded in a form.
fn holds_nul(body: &[u8]) -> bool {
    body.contains(&0)
        || body.windows(6).any(|w| w.eq_ignore_ascii_case(b"\\u0000"))
        || body.windows(3).any(|w| w == b"%00")
}

fn too_large() -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "request body too large: at most {} KB",
            API_BODY_LIMIT / 1024
        ),
    )
        .into_response()
}

/// The decoder's message without the layers of wrapping or the server's type names, on one
/// line and short: "missing field `id`", "invalid type: null, expected an object".
fn plain(message: &str) -> String {
    let mut message = message
        .rsplit("Error(")
        .next()
        .unwrap_or(message)
        .trim_end_matches(')')
        .replace('\n', " ");
    for (kind, said) in [
        ("expected struct ", "expected an object"),
        ("expected tuple struct ", "expected a list"),
        ("expected enum ", "expected one of the known values"),
        ("expected unit struct ", "expected nothing"),
    ] {
        while let Some(at) = message.find(kind) {
            let name_end = message[at + kind.len()..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(message.len(), |n| at + kind.len() + n);
            message.replace_range(at..name_end, said);
        }
    }
    let mut short: String = message.chars().take(200).collect();
    if short.len() < message.len() {
        short.push('…');
    }
    short
}

/// Logs a bad request at WARN, at most once a second, saying how many went unlogged meanwhile.
fn warn_now_and_then(path: &str, message: &str) {
    static LAST_SECOND: AtomicU64 = AtomicU64::new(0);
    static UNLOGGED: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    if LAST_SECOND.swap(now, Ordering::Relaxed) == now {
        UNLOGGED.fetch_add(1, Ordering::Relaxed);
        return;
    }
    let unlogged = UNLOGGED.swap(0, Ordering::Relaxed);
    tracing::warn!(path, message, unlogged, "bad request");
}

#[cfg(test)]
mod tests {
    use super::{holds_nul, plain};

    #[test]
    fn a_nul_is_found_raw_escaped_or_encoded() {
        for body in [
            &b"{\"name\":\"a\0b\"}"[..],
            br#"{"name":"a\u0000b"}"#,
            br#"{"name":"a\U0000b"}"#,
            b"name=a%00b",
        ] {
            assert!(holds_nul(body), "{}", String::from_utf8_lossy(body));
        }
        for body in [&br#"{"name":"a\u0001b"}"#[..], b"name=a%20b", b"100"] {
            assert!(!holds_nul(body), "{}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn messages_lose_their_wrapping_and_stay_short() {
        assert_eq!(
            plain("Error(\"missing field `id`\", line: 1, column: 2)"),
            "\"missing field `id`\", line: 1, column: 2"
        );
        assert_eq!(plain(&"x".repeat(500)).chars().count(), 201);
        assert_eq!(
            plain("invalid type: null, expected struct AdminOverview at line 1 column 4"),
            "invalid type: null, expected an object at line 1 column 4"
        );
        assert_eq!(
            plain("unknown variant `Fly`, expected enum Action"),
            "unknown variant `Fly`, expected one of the known values"
        );
    }
}
