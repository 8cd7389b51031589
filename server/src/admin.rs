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
    domain::Refusal,
    routes::admin::{self as pages, Flash},
    store::{
        accounts::{Role, User},
        builds::BuildState,
        sessions, Services, StoreError,
    },
};
use axum::{
    extract::{DefaultBodyLimit, Form, FromRequestParts, Multipart, Path, Query, State},
    http::{request::Parts, StatusCode},
    response::{Html, IntoResponse, Redirect, Response},
    routing::{get, post},
    Router,
};
use dictionaries::{
    versions::{Origin, ReportKind},
    wordlist, DictionaryId, DictionaryRef,
};
use serde::Deserialize;

use crate::AppState;

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

/// A signed-in admin, as an extractor: anyone else is answered 404, as if the panel did not
/// exist.
struct Admin(User);

impl FromRequestParts<AppState> for Admin {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Admin, Response> {
        let session = tower_sessions::Session::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        admin_of(&state.services, &session).await.map(Admin)
    }
}

/// The signed-in admin, or the answer for anyone else.
async fn admin_of(
    services: &Services,
    session: &tower_sessions::Session,
) -> Result<User, Response> {
    match sessions::user_of(&services.db, session).await {
        Ok(Some(user)) if user.role == Role::Admin => Ok(user),
        Ok(_) => Err(not_found()),
        Err(error) => {
            tracing::error!(%error, "admin: reading the session failed");
            Err(refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server failed; try again",
            ))
        }
    }
}

fn not_found() -> Response {
    let english = app::i18n::Words::english();
    (
        StatusCode::NOT_FOUND,
        Html(app::routes::plain::not_found(english)),
    )
        .into_response()
}

/// A refusal's text for the page; `None`, logged, when the server itself failed.
fn refusal_text(error: StoreError) -> Option<String> {
    match error {
        StoreError::Refused(refusal) => Some(refusal.to_string()),
        error => {
            tracing::error!(%error, "admin: the store failed");
            None
        }
    }
}

fn server_failed() -> Response {
    refused(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the server failed; nothing was changed",
    )
}

/// Back to `path` with what was done, or why not.
fn back(path: &str, outcome: Result<String, StoreError>) -> Response {
    let (key, text) = match outcome {
        Ok(done) => ("ok", done),
        Err(error) => match refusal_text(error) {
            Some(refusal) => ("error", refusal),
            None => return server_failed(),
        },
    };
    let query = serde_urlencoded::to_string([(key, text)]).unwrap_or_default();
    Redirect::to(&format!("{path}?{query}")).into_response()
}

#[derive(Deserialize, Default)]
struct PageQuery {
    ok: Option<String>,
    error: Option<String>,
    word: Option<String>,
}

impl PageQuery {
    fn flash(&self) -> Flash {
        Flash {
            ok: self.ok.clone(),
            error: self.error.clone(),
        }
    }
}

async fn overview(
    Admin(admin): Admin,
    State(services): State<Services>,
    Query(query): Query<PageQuery>,
) -> Response {
    match ops::panel(&services).await {
        Ok(panel) => Html(pages::overview(&admin.name, panel, query.flash())).into_response(),
        Err(error) => failed(error),
    }
}

/// A store failure while showing a page.
fn failed(error: StoreError) -> Response {
    match refusal_text(error) {
        Some(refusal) => refused(StatusCode::BAD_REQUEST, &refusal),
        None => server_failed(),
    }
}

async fn version(
    Admin(admin): Admin,
    State(services): State<Services>,
    Path((dictionary, version)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
) -> Response {
    let (Some(id), Ok(version)) = (DictionaryId::parse(&dictionary), version.parse::<u32>()) else {
        return not_found();
    };
    let at = DictionaryRef { id, version };
    let detail = match ops::version(&services, at).await {
        Ok(detail) => detail,
        Err(StoreError::Refused(_)) => return not_found(),
        Err(error) => return failed(error),
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
            Err(error) => {
                flash.error = Some(match refusal_text(error) {
                    Some(refusal) => refusal,
                    None => return server_failed(),
                });
                None
            }
        },
        None => None,
    };
    Html(pages::version(&admin.name, detail, lookup, flash)).into_response()
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
    Admin(admin): Admin,
    State(services): State<Services>,
    Form(form): Form<EditForm>,
) -> Response {
    let made = match ops::dictionary(&form.dictionary) {
        Ok(id) => ops::edit(&services, &admin, id, form.add, form.remove, &form.reason).await,
        Err(refusal) => Err(refusal.into()),
    };
    match made {
        Ok(at) => back(
            &format!("/admin/{}/{}", at.id.as_str(), at.version),
            Ok(format!("Draft {at} made: check it, then publish it.")),
        ),
        Err(error) => back("/admin", Err(error)),
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
    Admin(admin): Admin,
    State(services): State<Services>,
    Form(form): Form<ActivateForm>,
) -> Response {
    let id = match ops::dictionary(&form.dictionary) {
        Ok(id) => id,
        Err(refusal) => return back("/admin", Err(refusal.into())),
    };
    let at = DictionaryRef {
        id,
        version: form.version,
    };
    let confirm = form.confirm.as_deref() == Some("true");
    let done = ops::activate(&services, &admin, at, &form.reason, confirm).await;
    back(&format!("/admin/{}/{}", id.as_str(), at.version), done)
}

#[derive(Deserialize)]
struct DecideForm {
    dictionary: String,
    word: String,
    kind: String,
    accept: bool,
}

async fn decide(
    Admin(admin): Admin,
    State(services): State<Services>,
    Form(form): Form<DecideForm>,
) -> Response {
    let (Ok(id), Some(kind)) = (
        ops::dictionary(&form.dictionary),
        ReportKind::parse(&form.kind),
    ) else {
        return back(
            "/admin",
            Err(Refusal::Invalid("no such report".into()).into()),
        );
    };
    let done = ops::decide(&services, &admin, id, &form.word, kind, form.accept)
        .await
        .map(|draft| match draft {
            Some(at) => format!("Accepted into draft {at}: publish it to make it count."),
            None => format!("Dismissed the reports of '{}'.", form.word),
        });
    back("/admin", done)
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
    (status, Html(pages::not_done(message))).into_response()
}

async fn upload(
    Admin(admin): Admin,
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
    Admin(admin): Admin,
    State(services): State<Services>,
    Path(key): Path<String>,
) -> Response {
    let Some(build) = services.library.builds.get(&key) else {
        return refused(
            StatusCode::NOT_FOUND,
            "no such build here: it ended more than ten minutes ago, or another instance has it",
        );
    };
    match build.state() {
        BuildState::Done(at) => back(
            &format!("/admin/{}/{}", at.id.as_str(), at.version),
            Ok(format!(
                "Draft {at} built: check the report, then publish it."
            )),
        ),
        BuildState::Failed(why) => refused(StatusCode::UNPROCESSABLE_ENTITY, &why),
        BuildState::Running { stage, done, total } => Html(pages::building(
            &admin.name,
            build.dictionary,
            stage.describe(),
            done,
            total,
        ))
        .into_response(),
    }
}
