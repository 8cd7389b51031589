//! `/dict/<id>.<hash>.fst`: each dictionary's FST for the browser. The hash is part of the name,
//! so a response never goes stale and browsers may keep it for a year without asking again.

use std::sync::Arc;

use axum::{
    extract::{Path, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use dictionaries::catalog::Catalog;

use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/dict/{file}", get(dictionary_file))
}

async fn dictionary_file(
    State(catalog): State<Arc<Catalog>>,
    Path(file): Path<String>,
) -> Response {
    match catalog.by_file_name(&file) {
        Some(dictionary) => (
            [
                (header::CONTENT_TYPE, "application/octet-stream"),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            dictionary.lexicon.as_bytes().to_vec(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such dictionary file").into_response(),
    }
}
