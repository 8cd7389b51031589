//! `/healthz`: 200 with the version while the database answers, 503 otherwise.

use crate::{AppState, VERSION};
use axum::{extract::State, http::StatusCode, routing::get, Json, Router};
use serde::Serialize;
use store::db::Database;

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz))
}

#[derive(Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
    database_created_at: Option<String>,
}

async fn healthz(State(db): State<Database>) -> (StatusCode, Json<Health>) {
    match db.created_at().await {
        Ok(created) => (
            StatusCode::OK,
            Json(Health {
                status: "ok",
                version: VERSION,
                database_created_at: Some(created),
            }),
        ),
        Err(error) => {
            tracing::error!(%error, "health check: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Health {
                    status: "database unreachable",
                    version: VERSION,
                    database_created_at: None,
                }),
            )
        }
    }
}
