//! Sign-up, sign-in and sign-out. Sign-ins are rate-limited per name and per address; a guest who
//! signs up keeps their games, and one who signs in hands them to that account.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use super::server::{current_user, failed, forget, me, remember, services, session};
use super::{Me, Refusal};

/// Who is signed in, if anyone.
#[server(input = leptos::server_fn::codec::Json, endpoint = "account/me")]
pub async fn who_am_i() -> Result<Option<Me>, ServerFnError> {
    let services = services()?;
    let session = session().await?;
    Ok(current_user(&services, &session).await?.as_ref().map(me))
}

/// Creates an account and signs it in. A guest's row is named instead, so their games stay.
// The macro's generated argument struct has fields that cannot carry doc comments.
#[allow(missing_docs)]
#[server(endpoint = "account/sign-up")]
pub async fn sign_up(name: String, password: String) -> Result<Result<Me, Refusal>, ServerFnError> {
    use crate::store::accounts;
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
        Err(accounts::AccountError::Database(e)) => return Err(failed(e)),
        Err(refused) => return Ok(Err(Refusal::Account(refused.to_string()))),
    };
    remember(&session, &user).await?;
    tracing::info!(user = user.id, "signed up");
    Ok(Ok(me(&user)))
}

/// Signs in. Failures slow further tries down, doubling the wait each time: fast for one address
/// guessing one name, gently for the name from anywhere (so its owner is never locked out), see
/// [`crate::store::throttle`]. The failures are counted in the database, so every instance sees
/// them.
#[allow(missing_docs)]
#[server(endpoint = "account/sign-in")]
pub async fn sign_in(name: String, password: String) -> Result<Result<Me, Refusal>, ServerFnError> {
    use crate::store::{accounts, throttle};
    let services = services()?;
    let session = session().await?;
    let address = super::server::client_addr();
    let address = address.as_deref();
    let db = &services.db;
    if let Some(wait) = throttle::check(db, &name, address).await.map_err(failed)? {
        return Ok(Err(Refusal::SlowDown {
            minutes: wait.as_secs().div_ceil(60).max(1),
        }));
    }
    let user = match accounts::sign_in(&services.db, &name, &password).await {
        Ok(user) => user,
        Err(accounts::AccountError::Database(e)) => return Err(failed(e)),
        Err(refused) => {
            throttle::fail(db, &name, address).await.map_err(failed)?;
            tracing::info!(name = %name.trim(), "sign-in refused");
            return Ok(Err(Refusal::Account(refused.to_string())));
        }
    };
    throttle::succeed(db, &name, address)
        .await
        .map_err(failed)?;
    if let Some(guest) = current_user(&services, &session).await? {
        accounts::adopt_guest(&services.db, &guest, &user)
            .await
            .map_err(failed)?;
    }
    remember(&session, &user).await?;
    Ok(Ok(me(&user)))
}

/// Signs out: the session is emptied and its cookie dropped.
#[server(input = leptos::server_fn::codec::Json, endpoint = "account/sign-out")]
pub async fn sign_out() -> Result<(), ServerFnError> {
    forget(&session().await?).await
}
