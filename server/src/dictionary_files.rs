//! `/dict/<id>.<hash>.fst`: each published dictionary version's FST for the browser. The hash is
//! part of the name, so a response never goes stale and browsers may keep it for a year without
//! asking again. A draft is served to an admin's session only, never cached, and anyone else gets
//! 404 as for a name that is no dictionary. The bytes are the loaded version's own, shared by
//! every response: a slow reader holds no copy.

use axum::{
    extract::{Path, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use bytes::Bytes;
use store::Services;

use crate::{page::Visitor, AppState};

pub fn router() -> Router<AppState> {
    Router::new().route("/dict/{file}", get(dictionary_file))
}

async fn dictionary_file(
    visitor: Visitor,
    State(services): State<Services>,
    Path(file): Path<String>,
) -> Response {
    match services
        .library
        .by_file_name(&file, visitor.is_admin())
        .await
    {
        Ok(Some(dictionary)) => {
            let published = dictionary
                .published
                .load(std::sync::atomic::Ordering::Relaxed);
            let cache = match published {
                true => "public, max-age=31536000, immutable",
                false => "private, no-store",
            };
            let bytes = Bytes::from_owner(dictionary.lexicon.shared_bytes());
            (
                [
                    (header::CONTENT_TYPE, "application/octet-stream"),
                    (header::CACHE_CONTROL, cache),
                ],
                bytes,
            )
                .into_response()
        }
        Ok(None) => (StatusCode::NOT_FOUND, "no such dictionary file").into_response(),
        Err(error) => {
            tracing::error!(%error, "serving a dictionary failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the dictionary could not be read",
            )
                .into_response()
        }
    }
}
