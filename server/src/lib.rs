//! The Alfa Kraft server: serves the app (rendered on the server, hydrated in the browser), its
//! server functions, static assets and `/healthz`.

pub mod config;
pub mod db;
mod health;

use app::{shell, App};
use axum::{extract::FromRef, Router};
use leptos::prelude::LeptosOptions;
use leptos_axum::{generate_route_list, LeptosRoutes};
use sqlx::SqlitePool;
use tower_http::{compression::CompressionLayer, trace::TraceLayer};

/// What every request handler can reach.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// Leptos' settings: where the bundle lives, the output name.
    pub leptos_options: LeptosOptions,
    /// The database.
    pub db: SqlitePool,
}

/// The whole HTTP surface, ready to serve or to call in tests with `oneshot`.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    Router::new()
        .merge(health::router())
        .leptos_routes(&state, routes, {
            let options = state.leptos_options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// The version this binary was built from.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
