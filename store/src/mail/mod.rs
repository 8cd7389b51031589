//! E-mail, when the operator configured a server for it: a player's address (verified by a link),
//! the mail they chose (a daily digest of the games waiting for them, a warning a day before a
//! Casual deadline), password resets by link, and the outbox the server's mail task sends from.
//!
//! Mail is written to the [`outbox`] in the database, never sent on the request's path; the
//! [`reminders`] choose what the digest and the deadline warnings say and to whom. A link's
//! token is kept only as its SHA-256.

use sha2::{Digest, Sha256};

use crate::{
    accounts::{self, security::Confirmed, AccountError, User},
    db::{now_ms, Database},
    StoreError,
};
use domain::{AccountProblem, Refusal};
use outbox::enqueue;

pub mod outbox;
pub mod reminders;

/// How long a reset link works.
pub const RESET_MINUTES: i64 = 30;
/// How long an address's verification link works.
pub const VERIFY_HOURS: i64 = 48;
/// Reset links one account may be sent in an hour.
pub const RESETS_PER_HOUR: i64 = 3;
/// Links to verify an address one account may have sent in an hour.
pub const ADDRESS_LETTERS_PER_HOUR: i64 = 3;

/// What a player chose to receive, and where.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct MailSettings {
    /// The verified address, if any.
    pub email: Option<String>,
    /// An address waiting for its link to be followed.
    pub email_pending: Option<String>,
    /// A daily digest of the games waiting for them.
    pub mail_digest: bool,
    /// A warning a day before a Casual deadline.
    pub mail_deadlines: bool,
}

/// A player's mail settings.
pub async fn settings(db: &Database, user: i64) -> Result<MailSettings, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        email: Option<String>,
        email_pending: Option<String>,
        mail_digest: i64,
        mail_deadlines: i64,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT email, email_pending, mail_digest, mail_deadlines FROM users WHERE id = $1",
    )
    .bind(user)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map_or_else(MailSettings::default, |r| MailSettings {
        email: r.email,
        email_pending: r.email_pending,
        mail_digest: r.mail_digest != 0,
        mail_deadlines: r.mail_deadlines != 0,
    }))
}

/// An address as kept: trimmed, lower case; refused unless it is one a mailer takes: at most
/// 254 characters, a local part of the letters, digits and marks RFC 5322 allows unquoted
/// (dots only between them), `@`, and a domain of two or more labels of letters, digits and
/// inner hyphens. Anything else could never be sent, and would only wait in the outbox.
pub fn normalise_address(address: &str) -> Result<String, Refusal> {
    let address = address.trim().to_lowercase();
    let atom = |part: &str, allowed: &dyn Fn(char) -> bool| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || allowed(c))
    };
    let local_ok = |local: &str| {
        local.len() <= 64
            && local
                .split('.')
                .all(|atom_| atom(atom_, &|c| "!#$%&'*+/=?^_`{|}~-".contains(c)))
    };
    let domain_ok = |domain: &str| {
        domain.split('.').count() >= 2
            && domain.split('.').all(|label| {
                label.len() <= 63
                    && atom(label, &|c| c == '-')
                    && !label.starts_with('-')
                    && !label.ends_with('-')
            })
    };
    let well_formed = address.len() <= 254
        && address
            .split_once('@')
            .is_some_and(|(local, domain)| local_ok(local) && domain_ok(domain));
    well_formed
        .then_some(address)
        .ok_or(Refusal::Invalid("that is not an e-mail address".into()))
}

/// How many links for `purpose` ('verify' or 'reset') `user` was sent in the hour before `now`,
/// used or not.
async fn links_this_hour(
    conn: &mut sqlx::AnyConnection,
    user: i64,
    purpose: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM mail_tokens WHERE user_id = $1 AND purpose = $2 AND created_at > $3",
    )
    .bind(user)
    .bind(purpose)
    .bind(now - 3_600_000)
    .fetch_one(&mut *conn)
    .await
}

fn hash(token: &str) -> String {
    Sha256::digest(token.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A new link token: 128 random bits, hex.
fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Starts changing the confirmed player's address to `address`: it waits as pending, and a
/// link to verify it goes out (`link` makes the page's address from the token), at most
/// [`ADDRESS_LETTERS_PER_HOUR`] an hour, so no account makes the server mail strangers. The
/// verified address, if any, stays until the new one is verified.
pub async fn set_address(
    db: &Database,
    confirmed: &Confirmed,
    address: &str,
    link: impl Fn(&str) -> String,
    letter: impl Fn(&str) -> (String, String),
) -> Result<(), StoreError> {
    let address = normalise_address(address)?;
    let user = confirmed.user();
    let token = new_token();
    let now = now_ms();
    let (_writer, mut tx) = db.begin_holding(user).await?;
    if links_this_hour(&mut tx, user, "verify", now).await? >= ADDRESS_LETTERS_PER_HOUR {
        return Err(Refusal::Account(AccountProblem::TooManyLetters).into());
    }
    sqlx::query("UPDATE users SET email_pending = $2 WHERE id = $1")
        .bind(user)
        .bind(&address)
        .execute(&mut *tx)
        .await?;
    // Earlier links end, but stay counted for the hour.
    sqlx::query(
        "UPDATE mail_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'verify'
         AND used_at IS NULL",
    )
    .bind(user)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO mail_tokens (token_hash, user_id, purpose, address, created_at, expires_at)
         VALUES ($1, $2, 'verify', $3, $4, $5)",
    )
    .bind(hash(&token))
    .bind(user)
    .bind(&address)
    .bind(now)
    .bind(now + VERIFY_HOURS * 3_600_000)
    .execute(&mut *tx)
    .await?;
    let (subject, body) = letter(&link(&token));
    enqueue(&mut tx, &address, &subject, &body).await?;
    tx.commit().await?;
    Ok(())
}

/// A verification link's token as used: whose, and the address it proves.
#[derive(sqlx::FromRow)]
struct VerifyToken {
    user_id: i64,
    address: Option<String>,
}

/// Follows a verification link: the address it was sent to becomes the account's. Whether the
/// link was good (unused, unexpired, and the address still the one waiting).
pub async fn verify(db: &Database, token: &str) -> Result<bool, StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let found: Option<VerifyToken> = sqlx::query_as(
        "UPDATE mail_tokens SET used_at = $2 WHERE token_hash = $1 AND purpose = 'verify'
         AND used_at IS NULL AND expires_at > $2 RETURNING user_id, address",
    )
    .bind(hash(token))
    .bind(now_ms())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(VerifyToken {
        user_id: user,
        address: Some(address),
    }) = found
    else {
        return Ok(false);
    };
    let done = sqlx::query(
        "UPDATE users SET email = $2, email_pending = NULL WHERE id = $1 AND email_pending = $2",
    )
    .bind(user)
    .bind(&address)
    .execute(&mut *tx)
    .await;
    match done {
        Ok(done) if done.rows_affected() == 1 => {
            tx.commit().await?;
            Ok(true)
        }
        Ok(_) => Ok(false),
        // Another account verified the same address first.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Removes the account's address (verified and pending) and turns its mail off.
pub async fn remove_address(db: &Database, user: i64) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE users SET email = NULL, email_pending = NULL, mail_digest = 0, mail_deadlines = 0
         WHERE id = $1",
    )
    .bind(user)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Chooses which mail the player receives.
pub async fn choose(
    db: &Database,
    user: i64,
    digest: bool,
    deadlines: bool,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE users SET mail_digest = $2, mail_deadlines = $3 WHERE id = $1")
        .bind(user)
        .bind(i64::from(digest))
        .bind(i64::from(deadlines))
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// An account a reset link may go to, and its verified address.
#[derive(sqlx::FromRow)]
struct Addressee {
    id: i64,
    name: String,
    email: String,
}

/// Sends a reset link to the account `who` names (its name, or its verified address), if it
/// has a verified address and has not had [`RESETS_PER_HOUR`] links this hour. The caller
/// answers the same whatever happened, so no one learns whether an account or address exists.
pub async fn request_reset(
    db: &Database,
    who: &str,
    link: impl Fn(&str) -> String,
    letter: impl Fn(&str, &str) -> (String, String),
) -> Result<(), StoreError> {
    let who = who.trim().to_lowercase();
    let found: Option<Addressee> = sqlx::query_as(
        "SELECT id, name, email FROM users WHERE (name = $1 OR email = $1)
         AND email IS NOT NULL AND closed_at IS NULL AND guest = 0",
    )
    .bind(&who)
    .fetch_optional(&db.pool)
    .await?;
    let Some(Addressee {
        id: user,
        name,
        email: address,
    }) = found
    else {
        return Ok(());
    };
    let now = now_ms();
    // Counted and written holding the account, so requests made at once never pass the cap.
    let (_writer, mut tx) = db.begin_holding(user).await?;
    if links_this_hour(&mut tx, user, "reset", now).await? >= RESETS_PER_HOUR {
        return Ok(());
    }
    let token = new_token();
    sqlx::query(
        "INSERT INTO mail_tokens (token_hash, user_id, purpose, created_at, expires_at)
         VALUES ($1, $2, 'reset', $3, $4)",
    )
    .bind(hash(&token))
    .bind(user)
    .bind(now)
    .bind(now + RESET_MINUTES * 60_000)
    .execute(&mut *tx)
    .await?;
    let (subject, body) = letter(&name, &link(&token));
    enqueue(&mut tx, &address, &subject, &body).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether a reset link's token may still be used (for the page that asks the new password).
pub async fn reset_open(db: &Database, token: &str) -> Result<bool, StoreError> {
    let open: Option<i64> = sqlx::query_scalar(
        "SELECT user_id FROM mail_tokens WHERE token_hash = $1 AND purpose = 'reset'
         AND used_at IS NULL AND expires_at > $2",
    )
    .bind(hash(token))
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await?;
    Ok(open.is_some())
}

/// Sets a new password with a reset link's token, once, and signs out every session of the
/// account; the account, to sign this browser in.
pub async fn reset(db: &Database, token: &str, password: &str) -> Result<User, AccountError> {
    accounts::check_password(password)?;
    let user: Option<i64> = sqlx::query_scalar(
        "UPDATE mail_tokens SET used_at = $2 WHERE token_hash = $1 AND purpose = 'reset'
         AND used_at IS NULL AND expires_at > $2 RETURNING user_id",
    )
    .bind(hash(token))
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await?;
    let expired = AccountError::Refused(AccountProblem::LinkExpired);
    let user = user.ok_or(expired)?;
    let user = accounts::by_id(db, user)
        .await?
        .ok_or(AccountError::Refused(AccountProblem::LinkExpired))?;
    accounts::security::set_password(db, user.id, password).await?;
    accounts::security::sign_out_others(db, user.id, None).await?;
    Ok(user)
}

/// Forgets `user`'s address links and the letters waiting for their addresses (before the account forgets the addresses) (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &[
            "DELETE FROM mail_tokens WHERE user_id = $1",
            "DELETE FROM outbox WHERE recipient IN (SELECT email FROM users WHERE id = $1)
             OR recipient IN (SELECT email_pending FROM users WHERE id = $1)",
        ],
    )
    .await
}

/// `user`'s address and what they get by mail, as they export it (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, StoreError> {
    let mail = settings(db, user).await?;
    Ok(serde_json::json!({
        "email": mail.email, "mail_digest": mail.mail_digest,
        "mail_deadlines": mail.mail_deadlines,
    }))
}
