//! The admins' moderation panel over HTTP: `GET /admin/moderation` (the queue of reported players
//! and messages, and the sanctions in force), `POST /admin/moderation/decide` (dismiss, mute or
//! suspend, with a reason) and `POST /admin/moderation/lift`. Anyone but an admin gets 404, as
//! for the dictionary panel; every POST passes the cross-site check; each form redirects back
//! with what was done (post, redirect, get).

use app::api::moderation::ops;
use axum::{
    extract::{Form, Query, State},
    response::{Html, Response},
    routing::{get, post},
    Router,
};
use serde::Deserialize;
use store::{moderation, Services, StoreError};

use crate::AppState;
use crate::{
    admin::{back, Admin, PageQuery},
    page::PageError,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/moderation", get(panel))
        .route("/admin/moderation/decide", post(decide))
        .route("/admin/moderation/lift", post(lift))
}

async fn panel(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Query(query): Query<PageQuery>,
) -> Result<Html<String>, PageError> {
    let db = &services.db;
    let failed = |error: sqlx::Error| PageError::of_store(texts, error.into());
    let mut queue = Vec::new();
    for report in moderation::queue(db).await.map_err(failed)? {
        let history = moderation::history(db, report.reported.0)
            .await
            .map_err(failed)?;
        queue.push((report, history));
    }
    let sanctioned = moderation::sanctioned(db).await.map_err(failed)?;
    Ok(Html(app::routes::moderation::page(
        texts,
        &admin.name,
        queue,
        sanctioned,
        query.flash(),
    )))
}

#[derive(Deserialize)]
struct Decision {
    user: i64,
    report: Option<i64>,
    action: store::moderation::ModerationAction,
    #[serde(default)]
    amount: String,
    reason: String,
}

async fn decide(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Form(form): Form<Decision>,
) -> Response {
    let done = ops::decide(
        &services,
        &admin,
        form.user,
        form.report,
        form.action,
        &form.amount,
        &form.reason,
    )
    .await;
    let done = done.map(|_| app::tr!(texts, social.done).to_string());
    back(texts, "/admin/moderation", done)
}

#[derive(Deserialize)]
struct Lift {
    sanction: i64,
    reason: String,
}

async fn lift(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Form(form): Form<Lift>,
) -> Response {
    let done: Result<String, StoreError> =
        moderation::lift(&services.db, &admin, form.sanction, &form.reason)
            .await
            .map(|()| app::tr!(texts, social.done).to_string());
    back(texts, "/admin/moderation", done)
}
