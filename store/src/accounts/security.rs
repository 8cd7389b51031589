//! Securing an account: changing the password (which signs out every other session), the
//! account's sessions (the device, the day last used) with signing out one or every other, and
//! recovery codes: shown once, kept hashed, each resets a lost password once.

use sha2::{Digest, Sha256};

use super::{
    check_password, hash_later, normalise_name, password_work, verify, AccountError,
    AccountProblem, User, DUMMY,
};
use crate::db::{now_ms, Database};

/// How many recovery codes a player gets at a time.
pub const RECOVERY_CODES: usize = 10;

/// One of an account's sessions, as its list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLine {
    /// Names the session to sign it out; not its id, which would let anyone who saw the list
    /// use the session.
    pub handle: String,
    /// The browser and system it was opened with, when known.
    pub device: Option<String>,
    /// The day it was last used (days since the epoch), when known.
    pub seen_day: Option<i64>,
    /// The session asking.
    pub current: bool,
}

/// A session's handle: the first 16 hex digits of its id's SHA-256.
pub fn handle_of(session_id: &str) -> String {
    let digest = Sha256::digest(session_id.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    id: String,
    data: String,
}

/// The sessions `user` is signed in with (`current` is the asking one's id), the last used first.
pub async fn sessions(
    db: &Database,
    user: i64,
    current: Option<&str>,
) -> Result<Vec<SessionLine>, AccountError> {
    let rows: Vec<SessionRow> =
        sqlx::query_as("SELECT id, data FROM sessions WHERE user_id = $1 AND expires_at > $2")
            .bind(user)
            .bind(now_ms() / 1000)
            .fetch_all(&db.pool)
            .await?;
    let mut lines: Vec<SessionLine> = rows
        .into_iter()
        .map(|row| {
            let data: serde_json::Value = serde_json::from_str(&row.data).unwrap_or_default();
            let field = |key: &str| data.get("data").and_then(|d| d.get(key)).cloned();
            SessionLine {
                handle: handle_of(&row.id),
                device: field(super::sessions::DEVICE_KEY)
                    .and_then(|d| d.as_str().map(str::to_string)),
                seen_day: field(super::sessions::SEEN_KEY).and_then(|d| d.as_i64()),
                current: current == Some(row.id.as_str()),
            }
        })
        .collect();
    lines.sort_by_key(|l| (!l.current, std::cmp::Reverse(l.seen_day)));
    Ok(lines)
}

/// Signs `user`'s session with `handle` out; whether there was one.
pub async fn sign_out_session(
    db: &Database,
    user: i64,
    handle: &str,
) -> Result<bool, AccountError> {
    let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions WHERE user_id = $1")
        .bind(user)
        .fetch_all(&db.pool)
        .await?;
    let Some(id) = ids.into_iter().find(|id| handle_of(id) == handle) else {
        return Ok(false);
    };
    sqlx::query("DELETE FROM sessions WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user)
        .execute(&db.pool)
        .await?;
    Ok(true)
}

/// Signs every session of `user` out but `keep` (none kept without one); returns how many.
pub async fn sign_out_others(
    db: &Database,
    user: i64,
    keep: Option<&str>,
) -> Result<u64, AccountError> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
        .bind(user)
        .bind(keep.unwrap_or(""))
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected())
}

/// Changes the confirmed player's password and signs out every other session (`keep` is the
/// asking one's id).
pub async fn change_password(
    db: &Database,
    confirmed: &Confirmed,
    new: &str,
    keep: Option<&str>,
) -> Result<(), AccountError> {
    check_password(new)?;
    set_password(db, confirmed.user, new).await?;
    sign_out_others(db, confirmed.user, keep).await?;
    Ok(())
}

/// Proof that a signed-in player has just typed their current password: what changing it,
/// closing the account, new recovery codes, adding an e-mail address and turning two-factor
/// sign-in off take, so that a stolen session alone can do none of them.
#[derive(Debug)]
pub struct Confirmed {
    user: i64,
    /// The hash the password matched, to check that it is still the account's.
    hash: String,
}

impl Confirmed {
    /// The player.
    pub fn user(&self) -> i64 {
        self.user
    }

    /// Whether `hash`, read again inside a transaction, is still the one the password matched.
    pub(crate) fn is_still(&self, hash: &str) -> bool {
        self.hash == hash
    }
}

/// Confirms that `password` is `user`'s, behind the sign-in backoff for their name (and
/// `address`, the request's): wrong passwords slow further tries as failed sign-ins do, so a
/// stolen session cannot guess the password quickly.
pub async fn confirm_password(
    db: &Database,
    user: &User,
    password: &str,
    address: Option<&str>,
) -> Result<Confirmed, AccountError> {
    use crate::limits::sign_ins as throttle;
    if let Some(wait) = throttle::check(db, &user.name, address).await? {
        return Err(AccountError::SlowDown(wait));
    }
    let stored: Option<String> =
        sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1 AND guest = 0")
            .bind(user.id)
            .fetch_optional(&db.pool)
            .await?;
    let known = stored.is_some();
    let hash = stored.unwrap_or_else(|| DUMMY.to_string());
    let (typed, against) = (password.to_string(), hash.clone());
    if known && password_work(move || verify(&typed, &against)).await? {
        throttle::succeed(db, &user.name, address).await?;
        return Ok(Confirmed {
            user: user.id,
            hash,
        });
    }
    throttle::fail(db, &user.name, address).await?;
    Err(AccountError::Refused(AccountProblem::WrongPassword))
}

pub(crate) async fn set_password(
    db: &Database,
    user: i64,
    password: &str,
) -> Result<(), AccountError> {
    let hash = hash_later(password).await?;
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
        .bind(user)
        .bind(hash)
        .execute(&mut *tx)
        .await?;
    // A new password, however it was set, ends every reset link still waiting: one sent to
    // an address an attacker added, or an older one lying in a mailbox.
    sqlx::query(
        "UPDATE mail_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'reset'
         AND used_at IS NULL",
    )
    .bind(user)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A code as kept: its SHA-256, hex, of the code as typed without dashes or case. Codes carry
/// 50 random bits, so a fast hash is enough (a slow one protects guessable passwords).
fn code_hash(code: &str) -> String {
    let plain: String = code
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    Sha256::digest(plain.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// New recovery codes for the confirmed player, replacing any earlier ones: shown once, as
/// `abcde-fghij`.
pub async fn new_recovery_codes(
    db: &Database,
    confirmed: &Confirmed,
) -> Result<Vec<String>, AccountError> {
    let user = confirmed.user;
    // Letters and digits that cannot be mistaken for one another.
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let codes: Vec<String> = (0..RECOVERY_CODES)
        .map(|_| {
            let bytes = uuid::Uuid::new_v4().into_bytes();
            let letters: String = bytes[..10]
                .iter()
                .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
                .collect();
            format!("{}-{}", &letters[..5], &letters[5..])
        })
        .collect();
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query("DELETE FROM recovery_codes WHERE user_id = $1")
        .bind(user)
        .execute(&mut *tx)
        .await?;
    for code in &codes {
        sqlx::query(
            "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES ($1, $2, $3)",
        )
        .bind(user)
        .bind(code_hash(code))
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(codes)
}

/// How many unused recovery codes `user` has.
pub async fn recovery_codes_left(db: &Database, user: i64) -> Result<i64, AccountError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL",
    )
    .bind(user)
    .fetch_one(&db.pool)
    .await?)
}

/// Uses up one of `user`'s unused recovery codes, if `code` is one: whether it was.
pub async fn use_recovery_code(db: &Database, user: i64, code: &str) -> Result<bool, AccountError> {
    let used = sqlx::query(
        "UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2
         AND used_at IS NULL",
    )
    .bind(user)
    .bind(code_hash(code))
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(used.rows_affected() == 1)
}

/// Sets a new password for the player called `name` with one of their unused recovery codes,
/// which is then used up, and signs out every session of theirs. A wrong name or code is the
/// same refusal.
pub async fn recover(
    db: &Database,
    name: &str,
    code: &str,
    new: &str,
) -> Result<User, AccountError> {
    check_password(new)?;
    let wrong = AccountError::Refused(AccountProblem::WrongCode);
    let name =
        normalise_name(name).map_err(|_| AccountError::Refused(AccountProblem::WrongCode))?;
    let Some(user) = super::by_name(db, &name).await? else {
        return Err(wrong);
    };
    if !use_recovery_code(db, user.id, code).await? {
        return Err(wrong);
    }
    set_password(db, user.id, new).await?;
    sign_out_others(db, user.id, None).await?;
    Ok(user)
}

/// A short name for the browser and system a `User-Agent` header names: "Firefox on Android".
pub fn device_of(user_agent: &str) -> String {
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
    ]
    .into_iter()
    .find(|(mark, _)| user_agent.contains(mark))
    .map_or("A browser", |(_, name)| name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .into_iter()
    .find(|(mark, _)| user_agent.contains(mark))
    .map(|(_, name)| name);
    match system {
        Some(system) => format!("{browser} on {system}"),
        None => browser.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_named_by_browser_and_system() {
        let chrome_android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
        assert_eq!(device_of(chrome_android), "Chrome on Android");
        let safari_iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
        assert_eq!(device_of(safari_iphone), "Safari on iPhone");
        assert_eq!(
            device_of("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"),
            "Firefox on Linux"
        );
        assert_eq!(device_of("curl/8"), "A browser");
    }

    #[test]
    fn codes_match_however_they_are_typed() {
        assert_eq!(code_hash("abcde-fghjk"), code_hash(" ABCDE FGHJK "));
        assert_ne!(code_hash("abcde-fghjk"), code_hash("abcde-fghjm"));
    }
}
