//! The admin panel's HTTP parts beside its server functions: the 404 for anyone else who asks
//! for an `/admin` page, and the upload of word lists.
//!
//! `POST /admin/upload`: an admin uploads a word list for a dictionary (a multipart form with
//! `dictionary`, `note` and `file`, plus `aff` when the file is a hunspell `.dic`, so the panel's form works before the page is hydrated). The
//! list is read line by line, compared with the active version and built into a draft off the
//! async workers; the answer redirects to the draft's report. Anyone but an admin gets 404; a
//! body over the configured limit gets 413 and nothing is written.

use app::store::{accounts::Role, sessions, Services, StoreError};
use axum::{
    extract::{DefaultBodyLimit, Multipart, Request, State},
    http::StatusCode,
    middleware::Next,
    response::{Html, IntoResponse, Redirect, Response},
    routing::post,
    Router,
};
use dictionaries::{versions::Origin, wordlist, DictionaryId};

use crate::AppState;

pub fn router(limit: usize) -> Router<AppState> {
    Router::new()
        .route("/admin/upload", post(upload))
        .layer(DefaultBodyLimit::max(limit))
}

/// `/admin` and every page below it answer 404 to anyone but an admin: the page itself shows
/// "Page not found" once the panel's server function refuses, and this gives it the status, which
/// a streamed page could not set after its head was sent.
pub async fn pages_for_admins_only(
    State(services): State<Services>,
    session: tower_sessions::Session,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let is_page = (path == "/admin" || path.starts_with("/admin/"))
        && request.method() == axum::http::Method::GET;
    if !is_page {
        return next.run(request).await;
    }
    let admin = matches!(
        sessions::user_of(&services.db, &session).await,
        Ok(Some(user)) if user.role == Role::Admin
    );
    let mut response = next.run(request).await;
    if !admin {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    response
}

/// The answer to a multipart body that broke off or went past the limit.
fn malformed(error: axum::extract::multipart::MultipartError, limit: usize) -> Response {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let mb = limit / (1024 * 1024);
        return refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the file is larger than the upload limit of {mb} MB"),
        );
    }
    refused(error.status(), &format!("a malformed upload: {error}"))
}

/// A short page saying what went wrong, with the way back.
fn refused(status: StatusCode, message: &str) -> Response {
    let escaped = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    (
        status,
        Html(format!(
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Upload refused</title>\
             <link rel=\"stylesheet\" href=\"/pkg/alfakraft.css\"></head><body><main class=\"page\">\
             <h1>Upload refused</h1><p class=\"error\" data-testid=\"upload-error\">{escaped}</p>\
             <p><a href=\"/admin\">Back to the dictionaries</a></p></main></body></html>"
        )),
    )
        .into_response()
}

async fn upload(
    State(services): State<Services>,
    State(state): State<AppState>,
    session: tower_sessions::Session,
    mut form: Multipart,
) -> Response {
    let admin = match sessions::user_of(&services.db, &session).await {
        Ok(Some(user)) if user.role == Role::Admin => user,
        Ok(_) => return (StatusCode::NOT_FOUND, "not found").into_response(),
        Err(error) => {
            tracing::error!(%error, "upload: reading the session failed");
            return refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server failed; try again",
            );
        }
    };
    let (mut dictionary, mut note, mut file, mut aff) = (None, String::new(), None, None);
    let mut file_name = String::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(error) => return malformed(error, state.upload_limit),
        };
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            file_name = field.file_name().unwrap_or_default().to_lowercase();
        }
        let value = match field.bytes().await {
            Ok(value) => value,
            Err(error) => return malformed(error, state.upload_limit),
        };
        match name.as_str() {
            "dictionary" => {
                dictionary = DictionaryId::parse(String::from_utf8_lossy(&value).trim())
            }
            "note" => {
                note = String::from_utf8_lossy(&value)
                    .trim()
                    .chars()
                    .take(500)
                    .collect()
            }
            "file" => file = Some(value),
            "aff" if !value.is_empty() => aff = Some(value),
            _ => {}
        }
    }
    let Some(id) = dictionary else {
        return refused(StatusCode::BAD_REQUEST, "choose a dictionary");
    };
    let Some(file) = file.filter(|f| !f.is_empty()) else {
        return refused(StatusCode::BAD_REQUEST, "choose a file: one word per line");
    };
    if aff.is_none() && file_name.ends_with(".dic") {
        return refused(
            StatusCode::BAD_REQUEST,
            "a hunspell .dic needs its .aff: choose both files",
        );
    }
    if note.is_empty() {
        note = "uploaded list".into();
    }
    let alphabet = id.alphabet();
    match services
        .library
        .draft(
            &admin,
            id,
            None,
            Origin::Upload,
            &note,
            move |_active| match aff {
                Some(aff) => {
                    wordlist::parse_hunspell(&file, &aff, &alphabet).map_err(|e| e.to_string())
                }
                None => Ok(wordlist::parse(&file, &alphabet)),
            },
        )
        .await
    {
        Ok((at, report)) => {
            tracing::info!(dictionary = %at, words = report.accepted, rejected = report.rejected_total, "word list uploaded as a draft");
            Redirect::to(&format!("/admin/{}/{}", id.as_str(), at.version)).into_response()
        }
        Err(StoreError::Refused(refusal)) => refused(
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!("the files cannot be read: {refusal}"),
        ),
        Err(error) => {
            tracing::error!(%error, "upload: the draft could not be made");
            refused(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the draft could not be built; the active version is unchanged",
            )
        }
    }
}
