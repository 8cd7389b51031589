//! The Alfa Kraft server: serves the app (rendered on the server, hydrated in the browser), its
//! server functions, static assets and `/healthz`.

pub mod accounts;
pub mod config;
pub mod db;
mod dictionary_files;
pub mod games;
mod health;
pub mod sessions;

use std::sync::Arc;

use app::{shell, App};
use axum::{extract::FromRef, Router};
use dictionaries::catalog::Catalog;
use leptos::prelude::{provide_context, LeptosOptions};
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_http::{compression::CompressionLayer, trace::TraceLayer};

/// What every request handler can reach.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// Leptos' settings: where the bundle lives, the output name.
    pub leptos_options: LeptosOptions,
    /// The database.
    pub db: db::Database,
    /// The dictionaries, loaded at start.
    pub catalog: Arc<Catalog>,
    /// Whether session cookies carry the Secure flag (behind HTTPS).
    pub secure_cookies: bool,
}

/// The whole HTTP surface, ready to serve or to call in tests with `oneshot`.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    // Pages and server functions reach the dictionaries through Leptos' context.
    let context = {
        let catalog = state.catalog.clone();
        move || provide_context(catalog.clone())
    };
    // Sessions live in the database; the cookie is HttpOnly, SameSite=Lax and, behind HTTPS, Secure.
    let sessions =
        tower_sessions::SessionManagerLayer::new(sessions::DbSessionStore::new(state.db.clone()))
            .with_secure(state.secure_cookies)
            .with_http_only(true)
            .with_same_site(tower_sessions::cookie::SameSite::Lax)
            .with_expiry(tower_sessions::Expiry::OnInactivity(
                tower_sessions::cookie::time::Duration::days(30),
            ));
    Router::new()
        .merge(health::router())
        .merge(dictionary_files::router())
        .leptos_routes_with_context(&state, routes, context, {
            let options = state.leptos_options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .layer(sessions)
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// The version this binary was built from.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
