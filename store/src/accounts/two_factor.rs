//! Two-factor sign-in with time-based codes (RFC 6238: SHA-1, 6 digits, 30-second steps, the
//! parameters every authenticator app reads). Setting it up keeps a new secret aside until the
//! player types a code it makes, so a mistyped or unscanned secret never locks anyone out. A
//! code is accepted once (the last step used is stored) and one step early or late, for clocks
//! that drift; a recovery code ([`super::security`]) stands in for a lost phone, once.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use totp_rs::{Algorithm, Secret, TOTP};

use super::{security, AccountError, AccountProblem, User};
use crate::db::Database;

/// The issuer authenticator apps list the account under.
pub const ISSUER: &str = "Alfa Kraft";

/// A secret being set up, for the player to copy or scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The secret, base32, as apps take it typed.
    pub secret: String,
    /// The `otpauth://` address a QR code carries.
    pub uri: String,
}

fn totp(secret: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().ok()?;
    TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes).ok()
}

fn setup_of(secret: String, name: &str) -> Setup {
    // Base32 and names need no escaping; the issuer's space is %20, which every app reads
    // (some take `+` literally).
    let issuer = ISSUER.replace(' ', "%20");
    let uri = format!(
        "otpauth://totp/{issuer}:{name}?secret={secret}&issuer={issuer}&algorithm=SHA1&digits=6&period=30"
    );
    Setup { secret, uri }
}

/// The two-factor columns of a user.
#[derive(sqlx::FromRow)]
struct Factors {
    totp_secret: Option<String>,
    totp_pending: Option<String>,
    totp_step: i64,
}

async fn factors(db: &Database, user: i64) -> Result<Factors, AccountError> {
    let found: Option<Factors> =
        sqlx::query_as("SELECT totp_secret, totp_pending, totp_step FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&db.pool)
            .await?;
    Ok(found.unwrap_or(Factors {
        totp_secret: None,
        totp_pending: None,
        totp_step: 0,
    }))
}

/// Whether `user` signs in with a second factor.
pub async fn enabled(db: &Database, user: i64) -> Result<bool, AccountError> {
    Ok(factors(db, user).await?.totp_secret.is_some())
}

/// Where a player's two-factor sign-in stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Off.
    Off,
    /// A secret waits for a code to confirm it.
    SettingUp(Setup),
    /// On.
    On,
}

/// Where `user`'s two-factor sign-in stands, in one read.
pub async fn state(db: &Database, user: &User) -> Result<State, AccountError> {
    let factors = factors(db, user.id).await?;
    Ok(match (factors.totp_pending, factors.totp_secret) {
        (Some(secret), _) => State::SettingUp(setup_of(secret, &user.name)),
        (None, Some(_)) => State::On,
        (None, None) => State::Off,
    })
}

/// Starts setting up: a new secret (160 random bits), kept aside until [`confirm`].
pub async fn begin(db: &Database, user: &User) -> Result<Setup, AccountError> {
    let mut bytes = [0u8; 20];
    OsRng.fill_bytes(&mut bytes);
    let Secret::Encoded(secret) = Secret::Raw(bytes.to_vec()).to_encoded() else {
        unreachable!("to_encoded gives an encoded secret")
    };
    sqlx::query("UPDATE users SET totp_pending = $2 WHERE id = $1")
        .bind(user.id)
        .bind(&secret)
        .execute(&db.pool)
        .await?;
    Ok(setup_of(secret, &user.name))
}

/// The time step `code` is right for under `secret` (this one, or one either side), if any.
fn step_of(secret: &str, code: &str) -> Option<i64> {
    let totp = totp(secret)?;
    let code: String = code.chars().filter(char::is_ascii_digit).collect();
    let now = now_secs();
    let step = i64::try_from(now / 30).ok()?;
    [step, step - 1, step + 1]
        .into_iter()
        .find(|s| u64::try_from(*s).is_ok_and(|s| totp.generate(s * 30) == code))
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Records `step` as used, unless it or a later one was: whether the code may pass.
async fn take_step(db: &Database, user: i64, step: i64) -> Result<bool, AccountError> {
    let taken = sqlx::query("UPDATE users SET totp_step = $2 WHERE id = $1 AND totp_step < $2")
        .bind(user)
        .bind(step)
        .execute(&db.pool)
        .await?;
    Ok(taken.rows_affected() == 1)
}

/// Confirms the secret being set up with a code it makes: from now on sign-in asks for one.
pub async fn confirm(db: &Database, user: &User, code: &str) -> Result<(), AccountError> {
    let wrong = AccountError::Refused(AccountProblem::WrongSecondFactor);
    let Some(secret) = factors(db, user.id).await?.totp_pending else {
        return Err(wrong);
    };
    let step = step_of(&secret, code).ok_or(wrong)?;
    sqlx::query(
        "UPDATE users SET totp_secret = totp_pending, totp_pending = NULL, totp_step = $2
         WHERE id = $1 AND totp_pending = $3",
    )
    .bind(user.id)
    .bind(step)
    .bind(&secret)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Whether `session`, signed in as `user`, may act as an admin where the operator requires
/// two-factor sign-in of admins: the account has it on, and this session passed it when it
/// signed in. A session signed in before two-factor was turned on (perhaps a stolen one, which
/// turned it on itself) has not.
pub async fn passed_second_factor(
    db: &Database,
    session: &tower_sessions::Session,
    user: i64,
) -> Result<bool, crate::StoreError> {
    let read = |e: tower_sessions::session::Error| crate::StoreError::Data(format!("session: {e}"));
    let passed = session
        .get::<bool>(super::sessions::SECOND_FACTOR_KEY)
        .await
        .map_err(read)?
        == Some(true);
    Ok(passed && enabled(db, user).await?)
}

/// Turns two-factor sign-in off, once the password confirms it is the player.
pub async fn disable(db: &Database, confirmed: &security::Confirmed) -> Result<(), AccountError> {
    sqlx::query("UPDATE users SET totp_secret = NULL, totp_pending = NULL WHERE id = $1")
        .bind(confirmed.user())
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The second step of a sign-in whose password was right: passes when the account has no second
/// factor, or `code` is a current authenticator code not used before, or one of its unused
/// recovery codes (then used up). Whether a second factor was passed.
pub async fn pass(db: &Database, user: &User, code: &str) -> Result<bool, AccountError> {
    let factors = factors(db, user.id).await?;
    let Some(secret) = factors.totp_secret else {
        return Ok(false);
    };
    if code.trim().is_empty() {
        return Err(AccountError::Refused(AccountProblem::CodeNeeded));
    }
    let by_app = match step_of(&secret, code) {
        Some(step) if step > factors.totp_step => take_step(db, user.id, step).await?,
        _ => false,
    };
    if by_app || security::use_recovery_code(db, user.id, code).await? {
        Ok(true)
    } else {
        Err(AccountError::Refused(AccountProblem::WrongSecondFactor))
    }
}

/// The code an authenticator app shows for `secret` `steps` time steps from now (0 for now):
/// for tests, which play the app.
pub fn code_in(secret: &str, steps: i64) -> Option<String> {
    let at = now_secs().checked_add_signed(steps * 30)?;
    totp(secret).map(|t| t.generate(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_matches_its_step_and_the_steps_beside_it_only() {
        let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
        let totp = totp(secret).unwrap();
        let now = now_secs();
        let step = i64::try_from(now / 30).unwrap();
        assert_eq!(step_of(secret, &totp.generate(now)), Some(step));
        assert_eq!(step_of(secret, &totp.generate(now - 30)), Some(step - 1));
        assert_eq!(step_of(secret, &totp.generate(now - 90)), None);
        assert_eq!(step_of(secret, "12"), None);
    }

    #[test]
    fn the_address_names_the_issuer_and_the_account() {
        let setup = setup_of("ABC".into(), "ann");
        assert_eq!(
            setup.uri,
            "otpauth://totp/Alfa%20Kraft:ann?secret=ABC&issuer=Alfa%20Kraft&algorithm=SHA1&digits=6&period=30"
        );
    }
}
