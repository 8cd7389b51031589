//! The installable app's server side: the service worker at `/sw.js`, named for this build of
//! the site (so a new release is a new worker with its own cache, see `public/sw.js`), and the
//! page it shows offline, `/offline`. The manifest and the icons are plain files of the site.

use axum::{
    http::{header, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::get,
    Router,
};

use crate::{page::Visitor, site, AppState};

pub fn router(state: &AppState) -> Router<AppState> {
    let worker = worker_script(state);
    Router::new()
        .route(
            "/sw.js",
            get(move || {
                let worker = worker.clone();
                async move { serve_worker(worker) }
            }),
        )
        .route("/offline", get(offline))
}

/// The worker's script with the build's name set at its top; `None` when the site has no
/// worker (a server built before the bundle).
fn worker_script(state: &AppState) -> Option<std::sync::Arc<str>> {
    let script = site::file(&state.site, &state.leptos_options.site_root, "sw.js")?;
    let script = String::from_utf8(script).ok()?;
    let version = site::version(&state.site, &state.leptos_options.site_root);
    Some(format!("const VERSION = '{version}';\n{script}").into())
}

fn serve_worker(script: Option<std::sync::Arc<str>>) -> Response {
    match script {
        Some(script) => (
            [
                (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
                // The browser asks again on each visit; a new release is a new worker.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            script.to_string(),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn offline(visitor: Visitor) -> Html<String> {
    Html(app::routes::plain::offline(visitor.texts()))
}
