//! The player's own pages over HTTP: `GET /friends` and `GET /settings`, rendered on the server
//! by `app::routes::{friends, settings}` for a signed-up player (anyone else is sent to sign
//! in); `POST /settings/recovery-codes`, which shows new recovery codes once; `GET
//! /settings/export`, everything kept of the player as a JSON file; and `GET /reset`,
//! a new password with a recovery code. Their forms post to the server functions
//! (`/api/friends/…`, `/api/blocks/…`, `/api/chat/setting`, `/api/account/…`), which send the
//! browser back.

use app::routes::settings::{self, Settings};
use axum::{
    extract::{Query, State},
    http::header,
    response::{Html, IntoResponse, Redirect, Response},
    routing::{get, post},
    Router,
};
use serde::Deserialize;
use store::{
    accounts::{security, Role},
    blocks, chat, Services,
};

use crate::profiles::{failed, Visitor};
use crate::AppState;
use app::api::Said;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/friends", get(friends_page))
        .route("/settings", get(settings_page))
        .route("/settings/recovery-codes", post(new_codes))
        .route("/settings/export", get(export))
        .route("/reset", get(reset_page))
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
    session: tower_sessions::Session,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Response {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return sign_in("/settings");
    };
    let db = &services.db;
    let current = session.id().map(|id| id.to_string());
    let read = async {
        let sessions = security::sessions(db, user.id, current.as_deref())
            .await?
            .into_iter()
            .map(|l| app::api::account::SessionCard {
                handle: l.handle,
                device: l.device,
                seen_day: l.seen_day,
                current: l.current,
            })
            .collect();
        Ok::<_, store::StoreError>(Settings {
            chat_off: chat::chat_off(db, user.id).await?,
            blocked: blocks::blocked_by(db, user.id).await?,
            sessions,
            codes_left: security::recovery_codes_left(db, user.id).await?,
        })
    };
    match read.await {
        Ok(settings) => Html(settings::page(
            visitor.texts(),
            &user.name,
            user.role == Role::Admin,
            settings,
            app::routes::plain::said(visitor.texts(), &said),
        ))
        .into_response(),
        Err(error) => failed(error),
    }
}

/// New recovery codes, shown on the answer to the form itself: they never go into an address or
/// a redirect.
async fn new_codes(visitor: Visitor, State(services): State<Services>) -> Response {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return sign_in("/settings");
    };
    match security::new_recovery_codes(&services.db, user.id).await {
        Ok(codes) => Html(settings::codes(
            visitor.texts(),
            &user.name,
            user.role == Role::Admin,
            codes,
        ))
        .into_response(),
        Err(error) => failed(error.into()),
    }
}

/// Everything kept of the signed-in player, as a JSON file to save.
async fn export(visitor: Visitor, State(services): State<Services>) -> Response {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return sign_in("/settings");
    };
    match store::exports::of(&services, user).await {
        Ok(data) => (
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"alfakraft-{}.json\"", user.name),
                ),
                (header::CACHE_CONTROL, "private, no-store".to_string()),
            ],
            serde_json::to_string_pretty(&data).unwrap_or_default(),
        )
            .into_response(),
        Err(error) => failed(error),
    }
}

/// `/reset?refused=…&name=…`, as the recovery form comes back when refused.
#[derive(Deserialize, Default)]
struct ResetQuery {
    refused: Option<String>,
    name: Option<String>,
}

async fn reset_page(visitor: Visitor, Query(query): Query<ResetQuery>) -> Response {
    let texts = visitor.texts();
    let refused = query
        .refused
        .as_deref()
        .and_then(app::api::Refusal::from_address_word)
        .map(|refusal| app::i18n::refusal(texts, &refusal));
    let name = query.name.map(|n| n.chars().take(40).collect());
    Html(settings::reset(texts, refused, name)).into_response()
}
