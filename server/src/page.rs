//! What the server's own pages share: who is looking ([`Visitor`]) and what a page answers
//! when it cannot be shown ([`PageError`], which a handler returns with `?`): not found, said on
//! a short page (the admin panel's refusals), or the store's failure.

use app::{i18n::Texts, routes::profile::Viewer};
use axum::{
    extract::FromRequestParts,
    http::{request::Parts, StatusCode},
    response::{Html, IntoResponse, Response},
};
use store::{
    accounts::{sessions, Role, User},
    StoreError,
};

use crate::AppState;

/// Whoever is signed in, if anyone (a guest counts as nobody for these pages' top bar), and the
/// language they read.
pub(crate) struct Visitor(pub(crate) Option<User>, app::i18n::Lang);

impl FromRequestParts<AppState> for Visitor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Visitor, Response> {
        let session = tower_sessions::Session::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let lang = app::i18n::from_headers(&parts.headers);
        match sessions::user_of(&state.services.db, &session).await {
            Ok(user) => Ok(Visitor(user, lang)),
            Err(error) => Err(failed(error)),
        }
    }
}

impl Visitor {
    /// Their account's id, a guest's too.
    pub(crate) fn user_id(&self) -> Option<i64> {
        self.0.as_ref().map(|u| u.id)
    }

    /// Their id when they have signed up: a guest enters no league or tournament.
    pub(crate) fn member(&self) -> Option<i64> {
        self.0.as_ref().filter(|u| !u.guest).map(|u| u.id)
    }

    /// Whether they are a signed-in admin.
    pub(crate) fn is_admin(&self) -> bool {
        self.0.as_ref().is_some_and(|u| u.role == Role::Admin)
    }

    /// The language they read.
    pub(crate) fn texts(&self) -> Texts {
        Texts::of(self.1)
    }

    pub(crate) fn viewer(&self) -> Viewer {
        let user = self.0.as_ref().filter(|u| !u.guest);
        Viewer {
            name: user.map(|u| u.name.clone()),
            admin: user.is_some_and(|u| u.role == Role::Admin),
            head_to_head: None,
            texts: self.texts(),
            relation: None,
            said: None,
        }
    }
}

/// The store failed while making a page: logged, and said without its details.
pub(crate) fn failed(error: StoreError) -> Response {
    PageError::Failed(error).into_response()
}

/// Why a page could not be shown.
#[derive(Debug)]
pub(crate) enum PageError {
    /// Nothing is at that address (or not for this visitor): 404, in their language.
    NotFound(Texts),
    /// What went wrong, said in the visitor's words on a short page with the way back (the admin
    /// panel's), with its status.
    Said {
        texts: Texts,
        status: StatusCode,
        message: String,
    },
    /// The store failed: 500, logged.
    Failed(StoreError),
}

impl PageError {
    /// `message`, said with `status`.
    pub(crate) fn said(texts: Texts, status: StatusCode, message: impl Into<String>) -> PageError {
        let message = message.into();
        PageError::Said {
            texts,
            status,
            message,
        }
    }

    /// The store's `error`, said: a refusal in its own words (400); anything else logged and
    /// said as the server's failure (500).
    pub(crate) fn of_store(texts: Texts, error: StoreError) -> PageError {
        match refusal_text(texts, error) {
            Some(refusal) => PageError::said(texts, StatusCode::BAD_REQUEST, refusal),
            None => PageError::said(
                texts,
                StatusCode::INTERNAL_SERVER_ERROR,
                app::tr!(texts, admin.server_failed),
            ),
        }
    }
}

/// A refusal's text in the visitor's words; `None`, logged, when the server itself failed.
pub(crate) fn refusal_text(texts: Texts, error: StoreError) -> Option<String> {
    match error {
        StoreError::Refused(refusal) => Some(app::i18n::refusal(texts, &refusal)),
        error => {
            tracing::error!(%error, "page: the store failed");
            None
        }
    }
}

impl From<StoreError> for PageError {
    fn from(error: StoreError) -> PageError {
        PageError::Failed(error)
    }
}

impl From<sqlx::Error> for PageError {
    fn from(error: sqlx::Error) -> PageError {
        PageError::Failed(error.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::NotFound(texts) => (
                StatusCode::NOT_FOUND,
                Html(app::routes::plain::not_found(texts)),
            )
                .into_response(),
            PageError::Said {
                texts,
                status,
                message,
            } => (status, Html(app::routes::admin::not_done(texts, &message))).into_response(),
            PageError::Failed(error) => {
                tracing::error!(%error, "page: the store failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the server failed; please try again",
                )
                    .into_response()
            }
        }
    }
}
