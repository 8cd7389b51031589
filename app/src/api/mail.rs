//! E-mail, when the operator configured a mail server (else each function refuses and the pages
//! show none of it): a player's address, verified by a link; the mail they choose; and a new
//! password by a link sent to the verified address.

use crate::wire::{Form, Wire};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use super::server::{as_member_form, back_to_page, failed, services};
use super::{Me, Refusal};

/// The refusal when no mail server is configured.
#[cfg(feature = "ssr")]
fn no_mail() -> Refusal {
    Refusal::Invalid("e-mail is not set up on this site".into())
}

/// The site's address for links, or the refusal when there is no mail.
#[cfg(feature = "ssr")]
fn base(services: &store::Services) -> Result<String, store::StoreError> {
    services.mail_base.clone().ok_or_else(|| no_mail().into())
}

/// The reader's language, for the letter.
#[cfg(feature = "ssr")]
fn texts() -> crate::i18n::Texts {
    let lang = use_context::<http::request::Parts>()
        .map(|parts| crate::i18n::from_headers(&parts.headers))
        .unwrap_or_default();
    crate::i18n::Texts::of(lang)
}

/// Sets the caller's address (the password first: an address can reset the password): it
/// waits until the link mailed to it is followed.
#[server(input = Form, output = Wire, endpoint = "mail/address")]
pub async fn set_address(
    address: String,
    password: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        let base = base(&services)?;
        let texts = texts();
        store::mail::normalise_address(&address)?;
        let confirmed = super::server::confirm_password(&services, &user, &password).await?;
        store::mail::set_address(
            &services.db,
            &confirmed,
            &address,
            |token| format!("{base}/email/verify?token={token}"),
            |link| crate::i18n::letters::verify(texts, link),
        )
        .await
    })
    .await
}

/// Removes the caller's address and the mail sent to it.
#[server(input = Form, output = Wire, endpoint = "mail/remove")]
pub async fn remove_address() -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async |services, user| store::mail::remove_address(&services.db, user.id).await)
        .await
}

/// Chooses the mail the caller gets: a form's checkboxes, sent only when ticked.
#[server(input = Form, output = Wire, endpoint = "mail/choose")]
pub async fn choose_mail(
    #[server(default)] digest: String,
    #[server(default)] deadlines: String,
) -> Result<Result<(), Refusal>, ServerFnError> {
    as_member_form(async move |services, user| {
        base(&services)?;
        let ticked = |value: &str| !value.is_empty() && value != "false";
        store::mail::choose(&services.db, user.id, ticked(&digest), ticked(&deadlines)).await
    })
    .await
}

/// Mails a link that sets a new password to the account `who` names (its name or address), if
/// it has a verified address. The answer is the same whether or not it has, or exists.
#[server(input = Form, output = Wire, endpoint = "mail/forgot")]
pub async fn forgot(who: String) -> Result<Result<(), Refusal>, ServerFnError> {
    let services = services()?;
    let answer = match base(&services) {
        Err(_) => Err(no_mail()),
        Ok(base) => {
            let texts = texts();
            store::mail::request_reset(
                &services.db,
                &who,
                |token| format!("{base}/reset?token={token}"),
                |name, link| crate::i18n::letters::reset(texts, name, link),
            )
            .await
            .map_err(failed)?;
            Ok(())
        }
    };
    back_to_page(&answer);
    Ok(answer)
}

/// Sets a new password with a mailed link's token (once, within 30 minutes), signs out every
/// session of the account and signs this one in.
#[server(input = Form, output = Wire, endpoint = "mail/reset")]
pub async fn reset_by_link(
    token: String,
    password: String,
) -> Result<Result<Me, Refusal>, ServerFnError> {
    let services = services()?;
    let answer = match store::mail::reset(&services.db, &token, &password).await {
        Ok(user) => {
            tracing::info!(user = user.id, "password reset by mail");
            super::server::sign_in_after_reset(&services, &user).await?
        }
        Err(store::accounts::AccountError::Refused(problem)) => Err(Refusal::Account(problem)),
        Err(error) => return Err(failed(error)),
    };
    // A plain form post goes on to the start page (to sign in, for an account with a second
    // factor), or back to the form with its link and the reason (a refused password leaves the
    // link as good as it was).
    if crate::wire::accepts("text/html") {
        let location = match &answer {
            Ok(_) => "/".to_string(),
            Err(refusal @ Refusal::Account(domain::AccountProblem::PasswordSet)) => {
                let word = refusal.as_address_word().unwrap_or_default();
                format!("/signin?refused={word}")
            }
            Err(refusal) => {
                let word = refusal.as_address_word().unwrap_or_default();
                let query =
                    serde_urlencoded::to_string([("token", token.as_str()), ("refused", &word)]);
                format!("/reset?{}", query.unwrap_or_default())
            }
        };
        leptos_axum::redirect(&location, false);
    }
    Ok(answer)
}
