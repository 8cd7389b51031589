//! The Alfa Kraft server: serves the app (rendered on the server, hydrated in the browser), its
//! server functions, static assets and `/healthz`.

mod admin;
pub mod backup;
mod bad_requests;
pub mod client;
pub mod config;
mod csrf;
mod dictionary_files;
pub mod events;
mod health;
mod help;
mod installable;
mod leagues;
mod moderation;
pub mod monitoring;
mod page;
mod profiles;
mod records;
pub mod serve;
pub mod site;
mod social;
mod tournaments;
pub mod workers;

use std::sync::Arc;

use app::{shell, App};
use axum::{
    extract::{ConnectInfo, FromRef, Request},
    middleware::{self, Next},
    response::Response,
    Router,
};
use leptos::prelude::{provide_context, LeptosOptions};
use leptos_axum::{generate_route_list, LeptosRoutes};
use store::{db, library::Library, Services};
use tower_http::{
    compression::{CompressionLayer, CompressionLevel},
    trace::TraceLayer,
};

/// What every request handler can reach.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// Leptos' settings: where the bundle lives, the output name.
    pub leptos_options: LeptosOptions,
    /// The database.
    pub db: db::Database,
    /// Whether session cookies carry the Secure flag (behind HTTPS).
    pub secure_cookies: bool,
    /// What the server functions use: database, dictionaries, bot wake-up, sign-in limit.
    pub services: Services,
    /// The largest word-list upload accepted, in bytes.
    pub upload_limit: usize,
    /// Where the bundle and the public assets are served from.
    pub site: site::SiteFiles,
    /// The figures `/metrics` serves, when the operator asked for them.
    pub monitoring: Option<monitoring::Monitoring>,
}

impl AppState {
    /// The state for serving `db` and the dictionaries of `library`.
    pub fn new(
        leptos_options: LeptosOptions,
        db: db::Database,
        library: Arc<Library>,
        secure_cookies: bool,
    ) -> AppState {
        AppState {
            services: Services::new(db.clone(), library),
            leptos_options,
            db,
            secure_cookies,
            upload_limit: 50 * 1024 * 1024,
            site: site::SiteFiles::Folder,
            monitoring: None,
        }
    }
}

/// The whole HTTP surface, ready to serve or to call in tests with `oneshot`.
pub fn router(state: AppState) -> Router {
    // Generated once per process: while the list is generated, Leptos suspends every resource
    // first polled anywhere in the process for good (leptos#4773), so a second router made while
    // the first serves (as tests do) could leave a page hanging.
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    let routes = ROUTES.get_or_init(|| generate_route_list(App)).clone();
    // Pages and server functions reach the store and the dictionaries through Leptos' context.
    let inline_assets = site::inline_assets(&state.site, &state.leptos_options.site_root);
    let context = {
        let services = state.services.clone();
        move || {
            provide_context(services.clone());
            if let Some(assets) = &inline_assets {
                provide_context(assets.clone());
            }
        }
    };
    // Sessions live in the database; the cookie is HttpOnly, SameSite=Lax and, behind HTTPS, Secure.
    let sessions = tower_sessions::SessionManagerLayer::new(
        store::accounts::sessions::DbSessionStore::new(state.db.clone()),
    )
    .with_secure(state.secure_cookies)
    .with_http_only(true)
    .with_same_site(tower_sessions::cookie::SameSite::Lax)
    .with_expiry(tower_sessions::Expiry::OnInactivity(
        tower_sessions::cookie::time::Duration::days(30),
    ));
    Router::new()
        .merge(health::router())
        .merge(dictionary_files::router())
        .merge(admin::router(state.upload_limit))
        .merge(profiles::router())
        .merge(leagues::router())
        .merge(tournaments::router())
        .merge(social::router())
        .merge(moderation::router())
        .merge(records::router())
        .merge(help::router())
        .merge(installable::router(&state))
        .merge(events::router())
        .merge(monitoring::router(state.monitoring.as_ref()))
        .leptos_routes_with_context(&state, routes, context.clone(), {
            let options = state.leptos_options.clone();
            move || shell(options.clone())
        })
        .fallback(files_or_not_found(&state, context))
        .layer(sessions)
        .layer(middleware::from_fn(bad_requests::client_mistakes_are_400))
        // A body that stops coming for half a minute is given up (the head has its own limit).
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            std::time::Duration::from_secs(30),
        ))
        .layer(middleware::from_fn(csrf::same_origin_only))
        .layer(middleware::from_fn(client_addr))
        // Pages are compressed as they stream: brotli where the browser takes it, at a level that
        // costs about 2 ms for a game page (level 11 would take 80).
        .layer(CompressionLayer::new().quality(CompressionLevel::Precise(5)))
        .layer(middleware::from_fn(monitoring::track_requests))
        .layer(TraceLayer::new_for_http())
        // Counts the requests being served: the Master bot's search waits while there are any.
        .layer(middleware::from_fn(workers::thinking::requests_first))
        .with_state(state)
}

/// The handler for every path no route takes: a file of the site, or the app's 404 page, which
/// is the app too and needs the same context to show who is signed in.
fn files_or_not_found(
    state: &AppState,
    context: impl Fn() + Clone + Send + Sync + 'static,
) -> axum::routing::MethodRouter<AppState> {
    match state.site {
        site::SiteFiles::Folder => {
            axum::routing::any(leptos_axum::file_and_error_handler_with_context::<
                AppState,
                _,
            >(context, shell))
        }
        site::SiteFiles::Embedded => {
            let options = state.leptos_options.clone();
            let not_found = leptos_axum::render_app_to_stream_with_context(context, move || {
                shell(options.clone())
            });
            axum::routing::any(move |request: Request| {
                let not_found = not_found.clone();
                async move {
                    match site::embedded_file(request.method(), request.uri(), request.headers()) {
                        Some(file) => file,
                        None => not_found(request).await,
                    }
                }
            })
        }
    }
}

/// Records the peer's address for the sign-in limit (served with connect info; tests without it
/// simply have no address).
async fn client_addr(mut request: Request, next: Next) -> Response {
    if let Some(ConnectInfo(addr)) = request
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .copied()
    {
        request
            .extensions_mut()
            .insert(store::limits::ClientAddr(addr.ip()));
    }
    next.run(request).await
}

/// The version this binary was built from.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
