//! `/metrics` in Prometheus' text format: requests by route and status, commit and bot timings,
//! commits by ruleset, live streams, games in progress, sign-in failures, rate-limit hits and the
//! database pool. Not public: it answers on a separate address (`--metrics-addr`), or on the
//! main one only to a bearer token (`--metrics-token`); with neither it does not exist and no
//! figures are kept.
//!
//! The figures are recorded where they happen with the `metrics` facade (the store records its
//! commits); this module installs the exporter and adds what is read at scrape time.

use std::{sync::OnceLock, time::Instant};

use axum::{
    extract::{MatchedPath, Request, State},
    http::{header, HeaderMap, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::AppState;
use store::db::Database;

/// The exporter and who may read it.
#[derive(Clone)]
pub struct Monitoring {
    handle: PrometheusHandle,
    /// Required as `Authorization: Bearer <token>` when set.
    token: Option<String>,
}

impl Monitoring {
    /// Starts keeping figures (once per process: the recorder is global) and answers scrapes
    /// that carry `token`, if one is given.
    pub fn start(token: Option<String>) -> Monitoring {
        static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
        let handle = HANDLE.get_or_init(|| {
            // Commits take milliseconds, bots up to seconds: buckets from 0.5 ms to 10 s.
            let buckets = [
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                10.0,
            ];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &buckets)
                .expect("the buckets are not empty")
                .install_recorder();
            match recorder {
                Ok(handle) => handle,
                // Another recorder is in place (a test's): keep figures apart from it.
                Err(_) => PrometheusBuilder::new().build_recorder().handle(),
            }
        });
        metrics::gauge!("alfakraft_build_info", "version" => crate::VERSION).set(1.0);
        Monitoring {
            handle: handle.clone(),
            token: token.filter(|t| !t.is_empty()),
        }
    }
}

/// `/metrics` for the main router: present only when a token guards it.
pub fn router(monitoring: Option<&Monitoring>) -> Router<AppState> {
    match monitoring {
        Some(m) if m.token.is_some() => Router::new().route("/metrics", get(scrape)),
        _ => Router::new(),
    }
}

/// The router for the separate metrics address: `/metrics` alone.
pub fn own_router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(scrape))
        .with_state(state)
}

async fn scrape(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(monitoring) = state.monitoring.as_ref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if let Some(token) = &monitoring.token {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        if !same(given.as_bytes(), token.as_bytes()) {
            return (
                StatusCode::UNAUTHORIZED,
                [(header::WWW_AUTHENTICATE, "Bearer")],
                "a bearer token is required",
            )
                .into_response();
        }
    }
    read_at_scrape(&state.db).await;
    monitoring.handle.run_upkeep();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        monitoring.handle.render(),
    )
        .into_response()
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// What is a state rather than an event: the pool, and the games being played.
async fn read_at_scrape(db: &Database) {
    metrics::gauge!("alfakraft_db_connections").set(db.pool.size() as f64);
    metrics::gauge!("alfakraft_db_connections_idle").set(db.pool.num_idle() as f64);
    match sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM games WHERE status = 'playing'")
        .fetch_one(&db.pool)
        .await
    {
        Ok(games) => metrics::gauge!("alfakraft_games_in_progress").set(games as f64),
        Err(error) => tracing::warn!(%error, "counting games in progress failed"),
    }
}

/// Counts every request by the route that took it (its pattern, so ids do not multiply the
/// series) and its status, and times it.
pub async fn track_requests(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|path| path.as_str().to_owned());
    let response = next.run(request).await;
    let status = response.status();
    // No route: a file of the site, or a 404 page for whatever path a client made up.
    let route = route.unwrap_or_else(|| {
        if status.is_success() || status == StatusCode::NOT_MODIFIED {
            "(file)".to_owned()
        } else {
            "(none)".to_owned()
        }
    });
    metrics::histogram!("alfakraft_http_request_seconds", "route" => route.clone())
        .record(started.elapsed());
    metrics::counter!(
        "alfakraft_http_requests_total",
        "route" => route,
        "status" => status.as_u16().to_string()
    )
    .increment(1);
    response
}
