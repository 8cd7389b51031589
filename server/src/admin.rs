//! The admin panel over HTTP: its pages (rendered on the server by `app::routes::admin`, with no
//! wasm) and the plain forms they post. Anyone but an admin gets 404 for every one of them. Each
//! form does its work through `app::api::admin::ops`, the same code as the panel's server
//! functions, and redirects back to a page with a message (post, redirect, get), so a reload
//! never repeats a change. Every POST passes the cross-site check in front of the router.
//!
//! `POST /admin/upload` takes a word list for a dictionary (a multipart form with `dictionary`,
//! `note` and `file`, plus `aff` when the file is a hunspell `.dic`). The list is read line by
//! line, compared with the active version and built into a draft in the background; the answer
//! redirects at once to the build's progress, which leads to the draft's report. A body over the
//! configured limit gets 413 and nothing is written.

use app::{
    api::admin::ops,
    i18n::Texts,
    routes::admin::{self as pages, Flash},
    tr,
};
use axum::{
    extract::{DefaultBodyLimit, Form, FromRequestParts, Multipart, Path, Query, State},
    http::{request::Parts, StatusCode},
    response::{Html, IntoResponse, Redirect, Response},
    routing::{get, post},
    Router,
};
use dictionaries::{
    versions::{AuditAction, Origin, ReportKind},
    wordlist, DictionaryId, DictionaryRef,
};
use domain::Refusal;
use serde::Deserialize;
use store::{
    accounts::{sessions, Role, User},
    library::builds::BuildState,
    Services, StoreError,
};

use crate::{page::PageError, AppState};

/// What went wrong, said on a short page with the way back.
fn said(texts: Texts, status: StatusCode, message: &str) -> Response {
    PageError::said(texts, status, message).into_response()
}

pub fn router(limit: usize) -> Router<AppState> {
    Router::new()
        .route("/admin", get(overview))
        .route("/admin/{dictionary}/{version}", get(version))
        .route("/admin/edit", post(edit))
        .route("/admin/activate", post(activate))
        .route("/admin/decide", post(decide))
        .route("/admin/builds/{key}", get(build))
        .route(
            "/admin/upload",
            post(upload).layer(DefaultBodyLimit::max(limit)),
        )
}

/// A signed-in admin, as an extractor, with the language they read: anyone else is answered
/// 404, as if the panel did not exist.
pub(crate) struct Admin(pub(crate) User, pub(crate) Texts);

impl FromRequestParts<AppState> for Admin {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Admin, Response> {
        let session = tower_sessions::Session::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let words = Texts::of(app::i18n::from_headers(&parts.headers));
        admin_of(&state.services, &session, words)
            .await
            .map(|user| Admin(user, words))
    }
}

/// The signed-in admin, or the answer for anyone else. An admin without the second factor the
/// operator requires is sent to set it up first.
async fn admin_of(
    services: &Services,
    session: &tower_sessions::Session,
    texts: Texts,
) -> Result<User, Response> {
    let unavailable = |error: &dyn std::fmt::Display| {
        tracing::error!(%error, "admin: reading the account failed");
        said(
            texts,
            StatusCode::SERVICE_UNAVAILABLE,
            tr!(texts, admin.server_failed_retry),
        )
    };
    let user = match sessions::user_of(&services.db, session).await {
        Ok(Some(user)) if user.role == Role::Admin => user,
        Ok(_) => return Err(PageError::NotFound(texts).into_response()),
        Err(error) => return Err(unavailable(&error)),
    };
    if services.admins_need_two_factor {
        match store::accounts::two_factor::passed_second_factor(&services.db, session, user.id)
            .await
        {
            Ok(true) => {}
            Ok(false) => return Err(Redirect::to("/settings#two-factor").into_response()),
            Err(error) => return Err(unavailable(&error)),
        }
    }
    Ok(user)
}

/// Back to `path` with what was done, or why not.
pub(crate) fn back(texts: Texts, path: &str, outcome: Result<String, StoreError>) -> Response {
    let (key, text) = match outcome {
        Ok(done) => ("ok", done),
        Err(StoreError::Refused(refusal)) => ("error", app::i18n::refusal(texts, &refusal)),
        Err(error) => return PageError::of_store(texts, error).into_response(),
    };
    let query = serde_urlencoded::to_string([(key, text)]).unwrap_or_default();
    Redirect::to(&format!("{path}?{query}")).into_response()
}

#[derive(Deserialize, Default)]
pub(crate) struct PageQuery {
    ok: Option<String>,
    error: Option<String>,
    word: Option<String>,
}

impl PageQuery {
    pub(crate) fn flash(&self) -> Flash {
        Flash {
            ok: self.ok.clone(),
            error: self.error.clone(),
        }
    }
}

async fn overview(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Query(query): Query<PageQuery>,
) -> Result<Html<String>, PageError> {
    let panel = ops::panel(&services)
        .await
        .map_err(|error| PageError::of_store(texts, error))?;
    Ok(Html(pages::overview(
        texts,
        &admin.name,
        panel,
        query.flash(),
    )))
}

async fn version(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Path((dictionary, version)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
) -> Result<Html<String>, PageError> {
    let (Some(id), Ok(version)) = (DictionaryId::parse(&dictionary), version.parse::<u32>()) else {
        return Err(PageError::NotFound(texts));
    };
    let at = DictionaryRef { id, version };
    let detail = match ops::version(&services, at).await {
        Ok(detail) => detail,
        Err(StoreError::Refused(_)) => return Err(PageError::NotFound(texts)),
        Err(error) => return Err(PageError::of_store(texts, error)),
    };
    let mut flash = query.flash();
    let word = query
        .word
        .as_deref()
        .map(str::trim)
        .filter(|w| !w.is_empty());
    let lookup = match word {
        Some(word) => match ops::lookup(&services, at, word).await {
            Ok(lookup) => Some(lookup),
            Err(StoreError::Refused(refusal)) => {
                flash.error = Some(app::i18n::refusal(texts, &refusal));
                None
            }
            Err(error) => return Err(PageError::of_store(texts, error)),
        },
        None => None,
    };
    Ok(Html(pages::version(
        texts,
        &admin.name,
        detail,
        lookup,
        flash,
    )))
}

#[derive(Deserialize)]
struct EditForm {
    dictionary: String,
    #[serde(default)]
    add: String,
    #[serde(default)]
    remove: String,
    #[serde(default)]
    reason: String,
}

async fn edit(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Form(form): Form<EditForm>,
) -> Response {
    let made = match ops::dictionary(&form.dictionary) {
        Ok(id) => ops::edit(&services, &admin, id, form.add, form.remove, &form.reason).await,
        Err(refusal) => Err(refusal.into()),
    };
    match made {
        Ok(at) => back(
            texts,
            &format!("/admin/{}/{}", at.id.as_str(), at.version),
            Ok(tr!(texts, admin.draft_made, at)),
        ),
        Err(error) => back(texts, "/admin", Err(error)),
    }
}

#[derive(Deserialize)]
struct ActivateForm {
    dictionary: String,
    version: u32,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    confirm: Option<String>,
}

async fn activate(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Form(form): Form<ActivateForm>,
) -> Response {
    let id = match ops::dictionary(&form.dictionary) {
        Ok(id) => id,
        Err(refusal) => return back(texts, "/admin", Err(refusal.into())),
    };
    let at = DictionaryRef {
        id,
        version: form.version,
    };
    let confirm = form.confirm.as_deref() == Some("true");
    let done = ops::activate(&services, &admin, at, &form.reason, confirm)
        .await
        .map(|action| match action {
            AuditAction::Rollback => tr!(texts, admin.rolled_back, at),
            _ => tr!(texts, admin.now_active, at),
        });
    back(
        texts,
        &format!("/admin/{}/{}", id.as_str(), at.version),
        done,
    )
}

#[derive(Deserialize)]
struct DecideForm {
    dictionary: String,
    word: String,
    kind: String,
    accept: bool,
}

async fn decide(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Form(form): Form<DecideForm>,
) -> Response {
    let (Ok(id), Some(kind)) = (
        ops::dictionary(&form.dictionary),
        ReportKind::parse(&form.kind),
    ) else {
        return back(
            texts,
            "/admin",
            Err(Refusal::Invalid("no such report".into()).into()),
        );
    };
    let done = ops::decide(&services, &admin, id, &form.word, kind, form.accept)
        .await
        .map(|draft| match draft {
            Some(at) => tr!(texts, admin.accepted_into, at),
            None => tr!(texts, admin.dismissed, word = form.word),
        });
    back(texts, "/admin", done)
}

/// The answer to a multipart body that broke off or went past the limit.
fn malformed(
    texts: Texts,
    error: axum::extract::multipart::MultipartError,
    limit: usize,
) -> Response {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let mb = limit / (1024 * 1024);
        return said(
            texts,
            StatusCode::PAYLOAD_TOO_LARGE,
            &tr!(texts, admin.too_large, mb),
        );
    }
    said(texts, error.status(), &tr!(texts, admin.malformed, error))
}

async fn upload(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    State(state): State<AppState>,
    mut form: Multipart,
) -> Response {
    let (mut dictionary, mut note, mut file, mut aff) = (None, String::new(), None, None);
    let mut file_name = String::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(error) => return malformed(texts, error, state.upload_limit),
        };
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            file_name = field.file_name().unwrap_or_default().to_lowercase();
        }
        let value = match field.bytes().await {
            Ok(value) => value,
            Err(error) => return malformed(texts, error, state.upload_limit),
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
        return said(
            texts,
            StatusCode::BAD_REQUEST,
            tr!(texts, admin.choose_dictionary),
        );
    };
    let Some(file) = file.filter(|f| !f.is_empty()) else {
        return said(
            texts,
            StatusCode::BAD_REQUEST,
            tr!(texts, admin.choose_file),
        );
    };
    if aff.is_none() && file_name.ends_with(".dic") {
        return said(texts, StatusCode::BAD_REQUEST, tr!(texts, admin.needs_aff));
    }
    if note.is_empty() {
        note = "uploaded list".into();
    }
    let alphabet = id.alphabet();
    let build =
        services
            .library
            .start_draft(
                admin,
                id,
                Origin::Upload,
                note,
                move |_active, progress| match aff {
                    Some(aff) => wordlist::parse_hunspell(&file, &aff, &alphabet, progress)
                        .map_err(|e| e.to_string()),
                    None => Ok(wordlist::parse_with(&file, &alphabet, progress)),
                },
            );
    Redirect::to(&format!("/admin/builds/{build}")).into_response()
}

/// `/admin/builds/<key>`: the build's progress bar, which reloads itself each second; once the
/// draft exists, its page; if the build failed, why (nothing was written).
async fn build(
    Admin(admin, texts): Admin,
    State(services): State<Services>,
    Path(key): Path<String>,
) -> Response {
    let Some(build) = services.library.builds.get(&key) else {
        return said(texts, StatusCode::NOT_FOUND, tr!(texts, admin.no_build));
    };
    match build.state() {
        BuildState::Done(at) => back(
            texts,
            &format!("/admin/{}/{}", at.id.as_str(), at.version),
            Ok(tr!(texts, admin.draft_built, at)),
        ),
        BuildState::Failed(why) => said(texts, StatusCode::UNPROCESSABLE_ENTITY, &why),
        BuildState::Running { stage, done, total } => Html(pages::building(
            texts,
            &admin.name,
            build.dictionary,
            stage,
            done,
            total,
        ))
        .into_response(),
    }
}
