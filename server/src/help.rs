//! `GET /help`: how to play, rendered on the server by `app::routes::help`.

use axum::{
    response::{Html, IntoResponse, Response},
    routing::get,
    Router,
};

use crate::{page::Visitor, AppState};

pub fn router() -> Router<AppState> {
    Router::new().route("/help", get(help_page))
}

async fn help_page(visitor: Visitor) -> Response {
    let viewer = visitor.viewer();
    Html(app::routes::help::page(
        viewer.texts,
        viewer.name.as_deref(),
        viewer.admin,
    ))
    .into_response()
}
