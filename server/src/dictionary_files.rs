//! `/dict/<id>.<hash>.fst`: each published dictionary version's FST for the browser. The hash is part of the name,
//! so a response never goes stale and browsers may keep it for a year without asking again.

use axum::{
    extract::{Path, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use store::Services;

use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/dict/{file}", get(dictionary_file))
}

async fn dictionary_file(State(services): State<Services>, Path(file): Path<String>) -> Response {
    match services.library.by_file_name(&file).await {
        Ok(Some(dictionary)) => (
            [
                (header::CONTENT_TYPE, "application/octet-stream"),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            dictionary.lexicon.as_bytes().to_vec(),
        )
            .into_response(),
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
