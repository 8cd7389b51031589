//! What the server and the page say to each other, and how.
//!
//! The page reads everything it gets from the server (server functions' answers and the data a
//! page is rendered with) as postcard, a compact binary form whose reader compiles to a fraction
//! of a JSON parser's size in the browser bundle: postcard's reader never looks up a field by
//! name, so a type's reader is one short sequence of reads (issue 18). Everyone else (scripts,
//! tests, `curl`) keeps the JSON API: a server function answers postcard only to a request that
//! accepts `application/x-postcard`, as the page's requests do, and JSON to anything else.
//!
//! Postcard is not self-describing, so a type sent this way must serialise every field every time
//! (no `skip_serializing_if`, `untagged` or `flatten`); the tests below round-trip such a type.

use leptos::server_fn::codec::{JsonEncoding, Post};
use leptos::server_fn::{Bytes, ContentType, Decodes, Encodes, Format, FormatType};
use serde::{de::DeserializeOwned, Serialize};

/// The media type of postcard bodies.
pub const POSTCARD: &str = "application/x-postcard";

/// Why a value could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WireError(String);

/// A server function's answer: postcard for the page, JSON for everyone else (`output = Wire`).
///
/// Its arguments stay JSON (`input = Json`): postcard would save the bundle only 1.6 KB, and
/// binary bodies would defeat the server's refusal of NUL characters (`bad_requests`), which
/// reads the raw body.
pub type Wire = Post<WireEncoding>;

/// [`Wire`]'s encoding of a value.
pub struct WireEncoding;

impl ContentType for WireEncoding {
    const CONTENT_TYPE: &'static str = POSTCARD;
}

impl FormatType for WireEncoding {
    const FORMAT_TYPE: Format = Format::Binary;
}

impl<T: Serialize> Encodes<T> for WireEncoding {
    type Error = WireError;

    fn encode(value: &T) -> Result<Bytes, WireError> {
        #[cfg(feature = "ssr")]
        if !server::page_is_asking() {
            return server::as_json(value);
        }
        to_bytes(value).map(Bytes::from)
    }
}

impl<T: DeserializeOwned> Decodes<T> for WireEncoding {
    type Error = WireError;

    fn decode(bytes: Bytes) -> Result<T, WireError> {
        from_bytes(&bytes)
    }
}

/// A form's fields (signing in and up): JSON from the page, like every other server function's
/// arguments, and also the urlencoded body of the same form posted plainly, before the page
/// hydrates. The page never encodes a form, so no form reader is in its bundle.
pub type Form = Post<FormOrJson>;

/// [`Form`]'s encoding of a value.
pub struct FormOrJson;

impl ContentType for FormOrJson {
    const CONTENT_TYPE: &'static str = JsonEncoding::CONTENT_TYPE;
}

impl FormatType for FormOrJson {
    const FORMAT_TYPE: Format = Format::Text;
}

impl<T: Serialize> Encodes<T> for FormOrJson {
    type Error = WireError;

    fn encode(value: &T) -> Result<Bytes, WireError> {
        JsonEncoding::encode(value).map_err(|e| WireError(e.to_string()))
    }
}

impl<T: DeserializeOwned> Decodes<T> for FormOrJson {
    type Error = WireError;

    fn decode(bytes: Bytes) -> Result<T, WireError> {
        // A JSON object starts with `{`; a urlencoded form starts with a field's name.
        if bytes.first() == Some(&b'{') {
            return JsonEncoding::decode(bytes).map_err(|e| WireError(e.to_string()));
        }
        #[cfg(feature = "ssr")]
        return serde_qs::from_bytes(&bytes).map_err(|e| WireError(e.to_string()));
        #[cfg(not(feature = "ssr"))]
        Err(WireError("a form is read on the server".into()))
    }
}

/// `value` as postcard.
pub fn to_bytes<T: Serialize>(value: &T) -> Result<Vec<u8>, WireError> {
    postcard::to_allocvec(value).map_err(|e| WireError(e.to_string()))
}

/// A value read from postcard.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    postcard::from_bytes(bytes).map_err(|e| WireError(e.to_string()))
}

#[cfg(feature = "ssr")]
pub use server::accepts;

#[cfg(feature = "ssr")]
mod server {
    use super::{WireError, POSTCARD};
    use leptos::prelude::use_context;
    use leptos::server_fn::Bytes;

    /// Whether the request being answered accepts postcard (the page's requests do).
    pub fn page_is_asking() -> bool {
        accepts(POSTCARD)
    }

    /// Whether the request being answered names `media_type` in its `Accept`.
    pub fn accepts(media_type: &str) -> bool {
        use_context::<http::request::Parts>().is_some_and(|parts| {
            parts
                .headers
                .get_all(http::header::ACCEPT)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .any(|accept| accept.contains(media_type))
        })
    }

    /// `value` as JSON, and the response labelled so (server functions label their answers with
    /// the codec's one media type, postcard's).
    pub fn as_json<T: serde::Serialize>(value: &T) -> Result<Bytes, WireError> {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.insert_header(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static("application/json"),
            );
        }
        serde_json::to_vec(value)
            .map(Bytes::from)
            .map_err(|e| WireError(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::{ReviewPlay, ReviewTurn};

    #[test]
    fn a_review_turn_with_nothing_in_words_round_trips() {
        // `played` is empty for every review since `did` came in: a field left out when empty
        // (as it once was, for JSON's sake) would shift every later field in postcard.
        let turns = vec![
            ReviewTurn {
                did: Some(ReviewPlay::Word("QUIZ".into())),
                played: String::new(),
                points: 42,
                best: Some(("QUIZZES".into(), 90)),
            },
            ReviewTurn {
                did: None,
                played: "passed".into(),
                points: 0,
                best: None,
            },
        ];
        let bytes = to_bytes(&turns).unwrap();
        assert_eq!(from_bytes::<Vec<ReviewTurn>>(&bytes).unwrap(), turns);
    }

    #[test]
    fn bytes_that_are_not_the_type_are_an_error_not_a_panic() {
        assert!(from_bytes::<Vec<ReviewTurn>>(&[5, 1, 2]).is_err());
    }
}
