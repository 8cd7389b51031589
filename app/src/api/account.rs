//! Sign-up, sign-in and sign-out. Sign-ins are rate-limited per name and per address; a guest who
//! signs up keeps their games, and one who signs in hands them to that account.

use crate::wire::{Form, Wire};
use leptos::{prelude::*, server_fn::codec::Json};

#[cfg(feature = "ssr")]
use super::server::{current_user, failed, forget, me, remember, services, session};
use super::{Me, Refusal};

/// Who is signed in, if anyone.
#[server(input = Json, output = Wire, endpoint = "account/me")]
pub async fn who_am_i() -> Result<Option<Me>, ServerFnError> {
    let services = services()?;
    let session = session().await?;
    let Some(user) = current_user(&services, &session).await? else {
        return Ok(None);
    };
    Ok(Some(Me {
        standing: super::server::standing(&services, &user).await?,
        ..me(&user)
    }))
}

/// Creates an account and signs it in. A guest's row is named instead, so their games stay.
// The macro's generated argument struct has fields that cannot carry doc comments.
#[server(input = Form, output = Wire, endpoint = "account/sign-up")]
pub async fn sign_up(name: String, password: String) -> Result<Result<Me, Refusal>, ServerFnError> {
    let answer = signing_up(name.clone(), password).await?;
    plain_post::go_on("/signup", &name, &answer, true);
    Ok(answer)
}

#[cfg(feature = "ssr")]
async fn signing_up(name: String, password: String) -> Result<Result<Me, Refusal>, ServerFnError> {
    use store::accounts;
    let services = services()?;
    let session = session().await?;
    let current = current_user(&services, &session).await?;
    // A guest naming their account makes no new one.
    if !current.as_ref().is_some_and(|u| u.guest) {
        if let Err(refusal) = super::server::new_account_allowed(&services) {
            return Ok(Err(refusal));
        }
    }
    let created = match current {
        Some(guest) if guest.guest => {
            accounts::claim_guest(&services.db, &guest, &name, &password).await
        }
        _ => accounts::sign_up(&services.db, &name, &password).await,
    };
    let user = match created {
        Ok(user) => user,
        Err(accounts::AccountError::Refused(problem)) => return Ok(Err(Refusal::Account(problem))),
        Err(e) => return Err(failed(e)),
    };
    remember(&session, &user).await?;
    // The new account keeps the language its player is reading.
    if let Some(parts) = use_context::<http::request::Parts>() {
        let language = crate::i18n::from_headers(&parts.headers);
        store::accounts::set_language(&services.db, user.id, language)
            .await
            .map_err(failed)?;
    }
    tracing::info!(user = user.id, "signed up");
    Ok(Ok(me(&user)))
}

/// Signs in. Failures slow further tries down, doubling the wait each time: fast for one address
/// guessing one name, gently for the name from anywhere (so its owner is never locked out), see
/// [`store::limits::sign_ins`]. The failures are counted in the database, so every instance sees
/// them.
///
/// An account with two-factor sign-in also needs `code`: from its authenticator app, or one of
/// its recovery codes. Without one the answer is [`AccountProblem::CodeNeeded`](domain::AccountProblem),
/// which is not counted as a failure (the password was right).
#[server(input = Form, output = Wire, endpoint = "account/sign-in")]
pub async fn sign_in(
    name: String,
    password: String,
    #[server(default)] code: String,
) -> Result<Result<Me, Refusal>, ServerFnError> {
    let answer = signing_in(name.clone(), password, code).await?;
    plain_post::go_on("/signin", &name, &answer, false);
    Ok(answer)
}

#[cfg(feature = "ssr")]
async fn signing_in(
    name: String,
    password: String,
    code: String,
) -> Result<Result<Me, Refusal>, ServerFnError> {
    use store::accounts;
    let services = services()?;
    let session = session().await?;
    let db = &services.db;
    let both = async {
        let user = accounts::sign_in(db, &name, &password).await?;
        let passed = accounts::two_factor::pass(db, &user, &code).await?;
        Ok((user, passed))
    };
    let (user, passed) = match throttled(&services, &name, both).await? {
        Ok(signed_in) => signed_in,
        Err(refusal) => return Ok(Err(refusal)),
    };
    if let Some(guest) = current_user(&services, &session).await? {
        accounts::adopt_guest(&services.db, &guest, &user)
            .await
            .map_err(failed)?;
    }
    remember(&session, &user).await?;
    if passed {
        session
            .insert(accounts::sessions::SECOND_FACTOR_KEY, true)
            .await
            .map_err(failed)?;
    }
    // The account's language follows it to this browser.
    let language = store::accounts::language_of(db, user.id)
        .await
        .map_err(failed)?;
    if let Some(language) = language {
        remember_language(language);
    }
    Ok(Ok(Me {
        language,
        ..me(&user)
    }))
}

/// Runs `attempt` (a sign-in, a recovery) for `name` behind the sign-in backoff: refused at once
/// while the name or the address must wait; a refused attempt counts as a failure, a successful
/// one clears them.
#[cfg(feature = "ssr")]
async fn throttled<T>(
    services: &store::Services,
    name: &str,
    attempt: impl std::future::Future<Output = Result<T, store::accounts::AccountError>>,
) -> Result<Result<T, Refusal>, ServerFnError> {
    use domain::AccountProblem;
    use store::{accounts::AccountError, limits::sign_ins as throttle};
    let address = super::server::client_addr();
    let address = address.as_deref();
    let db = &services.db;
    if let Some(wait) = throttle::check(db, name, address).await.map_err(failed)? {
        return Ok(Err(Refusal::SlowDown {
            minutes: wait.as_secs().div_ceil(60).max(1),
        }));
    }
    match attempt.await {
        Ok(done) => {
            throttle::succeed(db, name, address).await.map_err(failed)?;
            Ok(Ok(done))
        }
        // The password was right; the form now asks for the code.
        Err(AccountError::Refused(problem @ AccountProblem::CodeNeeded)) => {
            Ok(Err(Refusal::Account(problem)))
        }
        Err(AccountError::Refused(problem)) => {
            throttle::fail(db, name, address).await.map_err(failed)?;
            tracing::info!(name = %name.trim(), "sign-in or recovery refused");
            Ok(Err(Refusal::Account(problem)))
        }
        Err(error) => Err(failed(error)),
    }
}

/// Signs out: the session is emptied and its cookie dropped.
#[server(input = Json, output = Wire, endpoint = "account/sign-out")]
pub async fn sign_out() -> Result<(), ServerFnError> {
    forget(&session().await?).await
}

/// Signs out from a page without scripts (its top bar's menu holds a plain form), then goes to
/// the start page.
#[server(input = Form, output = Wire, endpoint = "account/sign-out-form")]
pub async fn sign_out_form() -> Result<(), ServerFnError> {
    forget(&session().await?).await?;
    if crate::wire::accepts("text/html") {
        leptos_axum::redirect("/", false);
    }
    Ok(())
}

/// Chooses the interface language: remembered in a cookie, and in the account of a signed-in
/// player (guests included, so an account made from a guest keeps it). Answers with the
/// language's words, for the page to switch to.
#[server(input = Json, output = Wire, endpoint = "account/language")]
pub async fn set_language(language: crate::i18n::Lang) -> Result<Vec<String>, ServerFnError> {
    let services = services()?;
    let session = session().await?;
    if let Some(user) = current_user(&services, &session).await? {
        store::accounts::set_language(&services.db, user.id, language)
            .await
            .map_err(failed)?;
    }
    remember_language(language);
    Ok(crate::i18n::Texts::of(language).for_browser())
}

/// Sets the `lang` cookie on the response, which the server reads before rendering a page.
#[cfg(feature = "ssr")]
fn remember_language(language: crate::i18n::Lang) {
    crate::cookies::set(crate::i18n::COOKIE, language.code());
}

/// The page a new account goes to first, which offers its recovery codes, then on to `next`.
pub fn welcome_path(next: &str) -> String {
    let query = serde_urlencoded::to_string([("next", next)]).unwrap_or_default();
    format!("/welcome?{query}")
}

/// Where a plain form post (sent before the page has its script) goes next. Left alone, it would
/// go back to the form's page as if nothing had happened; instead a player who got in goes on to
/// the form's `?next=` (or the start page), and one refused sees the form again with the reason
/// and the name they typed.
#[cfg(feature = "ssr")]
mod plain_post {
    use super::{Me, Refusal};
    use leptos::prelude::use_context;

    /// The form page's address, as the pages read it.
    #[derive(serde::Serialize, serde::Deserialize, Default)]
    struct FormQuery {
        next: Option<String>,
        refused: Option<String>,
        name: Option<String>,
    }

    /// Sends a plain form post from `form_page` on after `answer` (a new account by way of
    /// `/welcome`, which offers its recovery codes); does nothing for the page's own requests.
    pub fn go_on(form_page: &str, name: &str, answer: &Result<Me, Refusal>, new_account: bool) {
        if !crate::wire::accepts("text/html") {
            return;
        }
        let Some(parts) = use_context::<http::request::Parts>() else {
            return;
        };
        // The form page's own address says where the player was headed.
        let asked: FormQuery = parts
            .headers
            .get(http::header::REFERER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<http::Uri>().ok())
            .and_then(|page| serde_qs::from_str(page.query()?).ok())
            .unwrap_or_default();
        let next = asked
            .next
            .filter(|next| domain::is_local_path(next))
            .unwrap_or_else(|| "/".into());
        let location = match answer {
            Ok(_) if new_account => super::welcome_path(&next),
            Ok(_) => next,
            Err(refusal) => {
                let back = FormQuery {
                    next: Some(next),
                    refused: refusal.as_address_word(),
                    name: Some(name.chars().take(40).collect()),
                };
                format!(
                    "{form_page}?{}",
                    serde_qs::to_string(&back).unwrap_or_default()
                )
            }
        };
        leptos_axum::redirect(&location, false);
    }
}

/// One of the caller's sessions, as settings list them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SessionCard {
    /// Names the session to sign it out.
    pub handle: String,
    /// The browser and system, when known.
    pub device: Option<String>,
    /// The day it was last used (days since the epoch), when known.
    pub seen_day: Option<i64>,
    /// This very session.
    pub current: bool,
}

/// The caller's session id, if the session has one yet.
#[cfg(feature = "ssr")]
async fn session_id() -> Result<Option<String>, ServerFnError> {
    Ok(session().await?.id().map(|id| id.to_string()))
}

/// Changes the caller's password (the current one first) and signs out every other session.
#[server(input = Form, output = Wire, endpoint = "account/password")]
pub async fn change_password(
    current: String,
    new: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    let keep = session_id().await?;
    super::server::as_member_form(async move |services, user| {
        use store::accounts::security;
        let confirmed = super::server::confirm_password(&services, &user, &current).await?;
        Ok(security::change_password(&services.db, &confirmed, &new, keep.as_deref()).await?)
    })
    .await
}

/// The caller's sessions: this one first, then the last used.
#[server(input = Json, output = Wire, endpoint = "account/sessions")]
pub async fn sessions() -> Result<Result<Vec<SessionCard>, Refusal>, ServerFnError> {
    let current = session_id().await?;
    super::server::as_member(async move |services, user| {
        let lines =
            store::accounts::security::sessions(&services.db, user.id, current.as_deref()).await?;
        Ok(lines
            .into_iter()
            .map(|l| SessionCard {
                handle: l.handle,
                device: l.device,
                seen_day: l.seen_day,
                current: l.current,
            })
            .collect())
    })
    .await
}

/// Signs out one of the caller's sessions (`handle` from [`sessions`]), or with `handle` empty
/// every other one.
#[server(input = Form, output = Wire, endpoint = "account/sign-out-sessions")]
pub async fn sign_out_sessions(handle: String) -> Result<Result<(), Refusal>, ServerFnError> {
    let current = session_id().await?;
    super::server::as_member_form(async move |services, user| {
        use store::accounts::security;
        match handle.trim() {
            "" => security::sign_out_others(&services.db, user.id, current.as_deref()).await?,
            handle => u64::from(security::sign_out_session(&services.db, user.id, handle).await?),
        };
        Ok(())
    })
    .await
}

/// New recovery codes for the caller (the password first), replacing any earlier ones: shown
/// this once.
#[server(input = Form, output = Wire, endpoint = "account/recovery-codes")]
pub async fn recovery_codes(
    password: String,
) -> Result<Result<Vec<String>, Refusal>, ServerFnError> {
    super::server::as_member(async move |services, user| {
        let confirmed = super::server::confirm_password(&services, &user, &password).await?;
        Ok(store::accounts::security::new_recovery_codes(&services.db, &confirmed).await?)
    })
    .await
}

/// Sets a new password with a recovery code, signs out every other session of the account and
/// signs this one in. Wrong names and codes slow further tries down as failed sign-ins do.
#[server(input = Form, output = Wire, endpoint = "account/recover")]
pub async fn recover(
    name: String,
    code: String,
    password: String,
) -> Result<Result<Me, Refusal>, ServerFnError> {
    let answer = recovering(name.clone(), code, password).await?;
    // An account with a second factor goes on to sign in with it.
    let form_page = match &answer {
        Err(Refusal::Account(domain::AccountProblem::PasswordSet)) => "/signin",
        _ => "/reset",
    };
    plain_post::go_on(form_page, &name, &answer, false);
    Ok(answer)
}

#[cfg(feature = "ssr")]
async fn recovering(
    name: String,
    code: String,
    password: String,
) -> Result<Result<Me, Refusal>, ServerFnError> {
    let services = services()?;
    let recovered = store::accounts::security::recover(&services.db, &name, &code, &password);
    let user = match throttled(&services, &name, recovered).await? {
        Ok(user) => user,
        Err(refusal) => return Ok(Err(refusal)),
    };
    tracing::info!(user = user.id, "password reset with a recovery code");
    super::server::sign_in_after_reset(&services, &user).await
}

/// Closes the caller's account once the password confirms it is theirs (see
/// [`store::closing`]) and signs this session out. A plain form post goes on to `/goodbye`.
#[server(input = Form, output = Wire, endpoint = "account/close")]
pub async fn close_account(password: String) -> Result<Result<(), Refusal>, ServerFnError> {
    let answer = super::server::as_member(async move |services, user| {
        let confirmed = super::server::confirm_password(&services, &user, &password).await?;
        store::closing::close(&services, &confirmed).await
    })
    .await?;
    match answer {
        Ok(()) => {
            forget(&session().await?).await?;
            if crate::wire::accepts("text/html") {
                leptos_axum::redirect("/goodbye", false);
            }
        }
        Err(_) => super::server::back_to_page(&answer),
    }
    Ok(answer)
}

/// Starts setting up two-factor sign-in: a new secret, which settings show until it is
/// confirmed with [`confirm_two_factor`].
#[server(input = Form, output = Wire, endpoint = "account/two-factor-begin")]
pub async fn begin_two_factor() -> Result<Result<(), Refusal>, ServerFnError> {
    let answer = super::server::as_member(async |services, user| {
        store::accounts::two_factor::begin(&services.db, &user).await?;
        Ok(())
    })
    .await?;
    // Back at the QR code to scan, far down the settings page.
    super::server::back_to_section(&answer, Some("two-factor"));
    Ok(answer)
}

/// Turns two-factor sign-in on with a code the new secret makes.
#[server(input = Form, output = Wire, endpoint = "account/two-factor-confirm")]
pub async fn confirm_two_factor(code: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async move |services, user| {
        Ok(store::accounts::two_factor::confirm(&services.db, &user, &code).await?)
    })
    .await
}

/// Turns two-factor sign-in off (the password first).
#[server(input = Form, output = Wire, endpoint = "account/two-factor-off")]
pub async fn two_factor_off(password: String) -> Result<Result<(), Refusal>, ServerFnError> {
    super::server::as_member_form(async move |services, user| {
        let confirmed = super::server::confirm_password(&services, &user, &password).await?;
        Ok(store::accounts::two_factor::disable(&services.db, &confirmed).await?)
    })
    .await
}
