//! The player's own pages over HTTP: `GET /friends` and `GET /settings`, rendered on the server
//! by `app::routes::{friends, settings}` for a signed-up player (anyone else is sent to sign
//! in); `POST /settings/recovery-codes`, which shows new recovery codes once; `GET
//! /settings/export`, everything kept of the player as a JSON file; and `GET /reset`,
//! a new password with a recovery code; `GET /welcome`, a new account's offer of recovery codes;
//! and `GET /goodbye`, after closing an account. Their forms post to the server functions
//! (`/api/friends/…`, `/api/blocks/…`, `/api/chat/setting`, `/api/account/…`), which send the
//! browser back.

use app::routes::settings::{
    self, ByMail, MailChoices, PushChoices, Settings, TwoFactor, Vacation,
};
use axum::{
    extract::{Form, Query, State},
    http::header,
    response::{Html, IntoResponse, Redirect, Response},
    routing::{get, post},
    Router,
};
use serde::Deserialize;
use store::{
    accounts::{security, two_factor, Role},
    blocks, chat, Services,
};

use crate::page::{PageError, Visitor};
use crate::AppState;
use app::api::Said;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/friends", get(friends_page))
        .route("/settings", get(settings_page))
        .route("/settings/recovery-codes", post(new_codes))
        .route("/settings/export", get(export))
        .route("/reset", get(reset_page))
        .route("/goodbye", get(goodbye))
        .route("/welcome", get(welcome))
        .route("/email/verify", get(verify_address))
}

fn urlencoded(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

/// Sign in first, then come back to `path`.
fn sign_in(path: &str) -> Response {
    Redirect::to(&format!("/signin?next={path}")).into_response()
}

async fn friends_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Result<Response, PageError> {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return Ok(sign_in("/friends"));
    };
    let friends = app::api::friends::server::friends(&services, user.id).await?;
    Ok(Html(app::routes::friends::page(
        visitor.texts(),
        &user.name,
        user.role == Role::Admin,
        friends,
        app::routes::plain::said(visitor.texts(), &said),
    ))
    .into_response())
}

async fn settings_page(
    visitor: Visitor,
    session: tower_sessions::Session,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Result<Response, PageError> {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return Ok(sign_in("/settings"));
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
        let two_factor = match two_factor::state(db, user).await? {
            two_factor::State::SettingUp(setup) => TwoFactor::SettingUp {
                qr_svg: qr_svg(&setup.uri),
                secret: setup.secret,
                uri: setup.uri,
            },
            two_factor::State::On => TwoFactor::On,
            two_factor::State::Off => TwoFactor::Off,
        };
        let mail = match services.mail_base {
            Some(_) => {
                let mail = store::mail::settings(db, user.id).await?;
                Some(MailChoices {
                    email: mail.email,
                    pending: mail.email_pending,
                    digest: mail.mail_digest,
                    deadlines: mail.mail_deadlines,
                })
            }
            None => None,
        };
        let push = store::push::settings(db, user.id).await?;
        let vacation = store::vacations::standing(db, user.id).await?;
        Ok::<_, store::StoreError>(Settings {
            vacation: Vacation {
                until: vacation.until,
                days_left: vacation.days_left,
                days_a_year: store::vacations::DAYS_A_YEAR,
            },
            push: PushChoices {
                devices: push.devices,
                kinds: push.kinds,
                quiet: push.quiet.map(|q| (q.start, q.end)),
            },
            mail,
            chat_off: chat::chat_off(db, user.id).await?,
            blocked: blocks::blocked_by(db, user.id).await?,
            sessions,
            codes_left: security::recovery_codes_left(db, user.id).await?,
            two_factor_required: services.admins_need_two_factor
                && user.role == Role::Admin
                && !store::accounts::two_factor::passed_second_factor(db, &session, user.id)
                    .await?,
            two_factor,
        })
    };
    Ok(Html(settings::page(
        visitor.texts(),
        &user.name,
        user.role == Role::Admin,
        read.await?,
        app::routes::plain::said(visitor.texts(), &said),
    ))
    .into_response())
}

/// An `otpauth://` address as a QR code, an SVG image sized by its container.
fn qr_svg(uri: &str) -> String {
    qrcode::QrCode::new(uri.as_bytes())
        .map(|code| {
            code.render::<qrcode::render::svg::Color>()
                .min_dimensions(200, 200)
                .build()
        })
        .unwrap_or_default()
}

/// The recovery codes form: the player's password, and from `/welcome`, where to go on to
/// after.
#[derive(Deserialize, Default)]
struct CodesForm {
    #[serde(default)]
    password: String,
    next: Option<String>,
}

/// New recovery codes, shown on the answer to the form itself: they never go into an address or
/// a redirect.
async fn new_codes(
    visitor: Visitor,
    State(services): State<Services>,
    address: Option<axum::Extension<store::limits::ClientAddr>>,
    Form(form): Form<CodesForm>,
) -> Result<Response, PageError> {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return Ok(sign_in("/settings"));
    };
    let next = form.next.filter(|next| domain::is_local_path(next));
    // The password first: with new codes, a stolen session could set a password of its own.
    let address = address.map(|a| a.0 .0.to_string());
    let confirmed =
        security::confirm_password(&services.db, user, &form.password, address.as_deref());
    let confirmed = match confirmed.await.map_err(store::StoreError::from) {
        Ok(confirmed) => confirmed,
        Err(store::StoreError::Refused(refusal)) => {
            let back = match &next {
                Some(next) => format!("/welcome?{}", urlencoded(&[("next", next.as_str())])),
                None => "/settings".into(),
            };
            let said = Said {
                done: false,
                refused: serde_json::to_string(&refusal).ok(),
            };
            let query = serde_urlencoded::to_string(&said).unwrap_or_default();
            let joiner = if back.contains('?') { '&' } else { '?' };
            return Ok(Redirect::to(&format!("{back}{joiner}{query}#codes")).into_response());
        }
        Err(error) => return Err(error.into()),
    };
    let codes = security::new_recovery_codes(&services.db, &confirmed)
        .await
        .map_err(store::StoreError::from)?;
    Ok(Html(settings::codes(
        visitor.texts(),
        &user.name,
        user.role == Role::Admin,
        codes,
        next,
    ))
    .into_response())
}

/// Everything kept of the signed-in player, as a JSON file to save.
async fn export(visitor: Visitor, State(services): State<Services>) -> Result<Response, PageError> {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return Ok(sign_in("/settings"));
    };
    let data = store::exports::of(&services, user).await?;
    Ok((
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
        .into_response())
}

/// `/reset?refused=…&name=…`, as the recovery form comes back when refused; `?token=…` from a
/// mailed link; `?done=true` once a link was asked for.
#[derive(Deserialize, Default)]
struct ResetQuery {
    refused: Option<String>,
    name: Option<String>,
    token: Option<String>,
    #[serde(default)]
    done: bool,
}

async fn reset_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(query): Query<ResetQuery>,
) -> Result<Html<String>, PageError> {
    let texts = visitor.texts();
    let mut refused = query
        .refused
        .as_deref()
        .and_then(app::api::Refusal::from_address_word);
    let mail = match (&services.mail_base, query.token) {
        (None, _) => ByMail::Off,
        (Some(_), Some(token)) => match store::mail::reset_open(&services.db, &token).await {
            Ok(true) => ByMail::Link { token },
            Ok(false) => {
                refused = Some(app::api::Refusal::Account(
                    domain::AccountProblem::LinkExpired,
                ));
                ByMail::Ask { sent: false }
            }
            Err(error) => return Err(error.into()),
        },
        (Some(_), None) => ByMail::Ask { sent: query.done },
    };
    let refused = refused.map(|refusal| app::i18n::refusal(texts, &refusal));
    let name = query.name.map(|n| n.chars().take(40).collect());
    Ok(Html(settings::reset(texts, refused, name, mail)))
}

/// `/email/verify?token=…`, the link that confirms an address.
#[derive(Deserialize, Default)]
struct VerifyQuery {
    #[serde(default)]
    token: String,
}

/// Confirms an address and goes on to settings, saying whether it worked.
async fn verify_address(
    State(services): State<Services>,
    Query(query): Query<VerifyQuery>,
) -> Result<Redirect, PageError> {
    let said = match store::mail::verify(&services.db, &query.token).await? {
        true => Said {
            done: true,
            refused: None,
        },
        false => Said {
            done: false,
            refused: serde_json::to_string(&app::api::Refusal::Account(
                domain::AccountProblem::LinkExpired,
            ))
            .ok(),
        },
    };
    let query = serde_urlencoded::to_string(&said).unwrap_or_default();
    Ok(Redirect::to(&format!("/settings?{query}")))
}

/// `/welcome?next=…`: a new account's first page.
#[derive(Deserialize, Default)]
struct WelcomeQuery {
    next: Option<String>,
    refused: Option<String>,
}

async fn welcome(visitor: Visitor, Query(query): Query<WelcomeQuery>) -> Response {
    let Some(user) = visitor.0.as_ref().filter(|u| !u.guest) else {
        return sign_in("/welcome");
    };
    let next = query
        .next
        .filter(|next| domain::is_local_path(next))
        .unwrap_or_else(|| "/".into());
    let said = Said {
        done: false,
        refused: query.refused,
    };
    let said = app::routes::plain::said(visitor.texts(), &said);
    Html(settings::welcome(visitor.texts(), &user.name, next, said)).into_response()
}

async fn goodbye(visitor: Visitor) -> Html<String> {
    Html(settings::goodbye(visitor.texts()))
}
