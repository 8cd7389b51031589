//! The social pages over HTTP: `GET /friends` and `GET /settings`, rendered on the server by
//! `app::routes::{friends, settings}` for a signed-up player (anyone else is sent to sign in).
//! Their forms post to the server functions (`/api/friends/…`, `/api/blocks/…`,
//! `/api/chat/setting`), which send the browser back.

use axum::{
    extract::{Query, State},
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
    Router,
};
use store::{accounts::Role, blocks, chat, Services};

use crate::profiles::{failed, Visitor};
use crate::AppState;
use app::api::Said;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/friends", get(friends_page))
        .route("/settings", get(settings_page))
}

/// Sign in first, then come back to `path`.
fn sign_in(path: &str) -> Response {
    Redirect::to(&format!("/signin?next={path}")).into_response()
}

async fn friends_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Response {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return sign_in("/friends");
    };
    match app::api::friends::server::friends(&services, user.id).await {
        Ok(friends) => Html(app::routes::friends::page(
            visitor.texts(),
            &user.name,
            user.role == Role::Admin,
            friends,
            app::routes::plain::said(visitor.texts(), &said),
        ))
        .into_response(),
        Err(error) => failed(error),
    }
}

async fn settings_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Response {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return sign_in("/settings");
    };
    let db = &services.db;
    let read = async {
        Ok::<_, sqlx::Error>((
            chat::chat_off(db, user.id).await?,
            blocks::blocked_by(db, user.id).await?,
        ))
    };
    match read.await {
        Ok((chat_off, blocked)) => Html(app::routes::settings::page(
            visitor.texts(),
            &user.name,
            user.role == Role::Admin,
            chat_off,
            blocked,
            app::routes::plain::said(visitor.texts(), &said),
        ))
        .into_response(),
        Err(error) => failed(error.into()),
    }
}
