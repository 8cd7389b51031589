//! Accounts: sign-up and sign-in with argon2id password hashes, roles, the interface language
//! an account chose, the sessions that remember who is signed in ([`sessions`]), securing an
//! account ([`security`]) and its second factor ([`two_factor`]).
//!
//! Hash parameters (OWASP's recommendation for argon2id): 19 MiB of memory, 2 passes, 1 lane,
//! 16-byte random salt, 32-byte hash, stored as a PHC string so the parameters travel with it.
//!
//! That cost is on purpose, so it is kept off the async runtime and bounded: hashing and checking
//! run on the blocking pool, as many at once as the machine has cores, and the rest wait their
//! turn. A burst of sign-ups then takes time, not gigabytes, and never stalls other requests.

use argon2::{
    password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Algorithm, Argon2, Params, Version,
};
use domain::{AccountProblem, Lang};

use crate::db::{now_ms, Database};

pub mod security;
pub mod sessions;
pub mod two_factor;

/// What a user may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Plays games.
    Player,
    /// Also manages dictionaries.
    Admin,
}

impl Role {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Admin => "admin",
        }
    }

    /// From its stored name; anything but `admin` is a player.
    pub(crate) fn parse(text: &str) -> Role {
        if text == "admin" {
            Role::Admin
        } else {
            Role::Player
        }
    }
}

/// A signed-up user. Deliberately without the password hash, and not serialisable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Database id.
    pub id: i64,
    /// Unique name, lower case.
    pub name: String,
    /// Player or admin.
    pub role: Role,
    /// A guest: made on first play, no password until they sign up.
    pub guest: bool,
}

/// Why an account action failed. The messages are safe to show.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The player's request is refused: the reason is theirs to read.
    #[error(transparent)]
    Refused(#[from] AccountProblem),
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// Too many wrong passwords: the next try must wait this long.
    #[error("too many failed attempts: wait {0:?}")]
    SlowDown(std::time::Duration),
    /// Hashing failed (should not happen with valid parameters).
    #[error("password hashing: {0}")]
    Hash(String),
}

/// A well-formed hash to verify against when the name is unknown, so that case costs the same time
/// as a wrong password.
const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Ip3ykGCyqvIGkXbQTCcNm3tf4eq5pz0JMzQ4P8W5mCc";

fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, Some(32)).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Normalises and checks a name: lower case ASCII letters, digits and underscores, 3–20 long.
pub fn normalise_name(name: &str) -> Result<String, AccountError> {
    let name = name.trim().to_ascii_lowercase();
    let ok = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    ok.then_some(name)
        .ok_or(AccountError::Refused(AccountProblem::BadName))
}

pub(crate) fn check_password(password: &str) -> Result<(), AccountError> {
    (8..=200)
        .contains(&password.chars().count())
        .then_some(())
        .ok_or(AccountError::Refused(AccountProblem::BadPassword))
}

/// Hashes a password with a fresh salt, as a PHC string.
pub fn hash_password(password: &str) -> Result<String, AccountError> {
    let salt = SaltString::generate(&mut OsRng);
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AccountError::Hash(e.to_string()))
}

fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .is_ok_and(|hash| hasher().verify_password(password.as_bytes(), &hash).is_ok())
}

/// Password work that may run at once: one per core.
static PASSWORD_WORK: std::sync::LazyLock<tokio::sync::Semaphore> =
    std::sync::LazyLock::new(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    });

/// Runs password work on the blocking pool, once a slot is free.
async fn password_work<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AccountError> {
    let _slot = PASSWORD_WORK
        .acquire()
        .await
        .map_err(|e| AccountError::Hash(e.to_string()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| AccountError::Hash(e.to_string()))
}

/// [`hash_password`], off the async runtime.
async fn hash_later(password: &str) -> Result<String, AccountError> {
    let password = password.to_string();
    password_work(move || hash_password(&password)).await?
}

/// Creates a player account.
pub async fn sign_up(db: &Database, name: &str, password: &str) -> Result<User, AccountError> {
    let name = normalise_name(name)?;
    check_password(password)?;
    let hash = hash_later(password).await?;
    let inserted = sqlx::query_scalar::<_, i64>("INSERT INTO users (name, password_hash, role, created_at) VALUES ($1, $2, 'player', $3) RETURNING id")
        .bind(&name)
        .bind(&hash)
        .bind(now_ms())
        .fetch_one(&db.pool)
        .await;
    match inserted {
        Ok(id) => Ok(User {
            id,
            name,
            role: Role::Player,
            guest: false,
        }),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(AccountError::Refused(AccountProblem::NameTaken))
        }
        Err(e) => Err(e.into()),
    }
}

/// Turns a guest into a player with a name and password: the same row, so every game the guest
/// started stays theirs.
pub async fn claim_guest(
    db: &Database,
    guest: &User,
    name: &str,
    password: &str,
) -> Result<User, AccountError> {
    let name = normalise_name(name)?;
    check_password(password)?;
    let hash = hash_later(password).await?;
    let updated = sqlx::query(
        "UPDATE users SET name = $1, password_hash = $2, guest = 0 WHERE id = $3 AND guest = 1",
    )
    .bind(&name)
    .bind(&hash)
    .bind(guest.id)
    .execute(&db.pool)
    .await;
    match updated {
        Ok(done) if done.rows_affected() == 1 => Ok(User {
            id: guest.id,
            name,
            role: guest.role,
            guest: false,
        }),
        // Someone claimed this guest in another tab: sign up afresh.
        Ok(_) => sign_up(db, &name, password).await,
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(AccountError::Refused(AccountProblem::NameTaken))
        }
        Err(e) => Err(e.into()),
    }
}

/// Makes a guest account: a random name, no password (an empty hash never verifies).
pub async fn create_guest(db: &Database) -> Result<User, AccountError> {
    let name = format!("guest_{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    let id = sqlx::query_scalar::<_, i64>("INSERT INTO users (name, password_hash, role, created_at, guest) VALUES ($1, '', 'player', $2, 1) RETURNING id")
        .bind(&name)
        .bind(now_ms())
        .fetch_one(&db.pool)
        .await?;
    Ok(User {
        id,
        name,
        role: Role::Player,
        guest: true,
    })
}

/// A `users` row as read, without the password hash.
#[derive(sqlx::FromRow)]
struct UserRecord {
    id: i64,
    name: String,
    role: String,
    guest: i64,
}

impl From<UserRecord> for User {
    fn from(record: UserRecord) -> User {
        User {
            id: record.id,
            name: record.name,
            role: Role::parse(&record.role),
            guest: record.guest != 0,
        }
    }
}

/// The user with this id, if there is one.
pub async fn by_id(db: &Database, id: i64) -> Result<Option<User>, AccountError> {
    let record: Option<UserRecord> =
        sqlx::query_as("SELECT id, name, role, guest FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(record.map(User::from))
}

/// The signed-up player called `name` (as typed: it is lowered first); guests have no name
/// anyone could type, so they are not found.
pub async fn by_name(db: &Database, name: &str) -> Result<Option<User>, AccountError> {
    let record: Option<UserRecord> =
        sqlx::query_as("SELECT id, name, role, guest FROM users WHERE name = $1 AND guest = 0 AND closed_at IS NULL")
            .bind(name.trim().to_lowercase())
            .fetch_optional(&db.pool)
            .await?;
    Ok(record.map(User::from))
}

/// Hands a guest's seats, results, statistics and Daily Challenge attempts to the account they
/// signed in to, then removes the guest. Where the account already has an attempt at the same puzzle, that
/// one stands (the guest's game stays an ordinary finished game).
pub async fn adopt_guest(db: &Database, guest: &User, user: &User) -> Result<(), AccountError> {
    if !guest.guest || guest.id == user.id {
        return Ok(());
    }
    let (_writer, mut tx) = db.begin_write().await?;
    for sql in [
        "UPDATE game_seats SET user_id = $1 WHERE user_id = $2",
        "UPDATE game_results SET user_id = $1 WHERE user_id = $2",
        "UPDATE game_results SET opponent_user = $1 WHERE opponent_user = $2",
        "DELETE FROM daily_attempts WHERE user_id = $2 AND EXISTS (SELECT 1 FROM daily_attempts o
             WHERE o.user_id = $1 AND o.day = daily_attempts.day
               AND o.dictionary = daily_attempts.dictionary)",
        "UPDATE daily_attempts SET user_id = $1 WHERE user_id = $2",
        // The guest's statistics, added line by line to the account's.
        "INSERT INTO player_statistics (user_id, ruleset, dictionary, games, wins, draws, points,
             opponent_points, bingos, exchanges, timeouts, best_play, best_game, analysed_turns,
             missed)
         SELECT $1, ruleset, dictionary, games, wins, draws, points, opponent_points, bingos,
                exchanges, timeouts, best_play, best_game, analysed_turns, missed
         FROM player_statistics WHERE user_id = $2
         ON CONFLICT (user_id, ruleset, dictionary) DO UPDATE SET
             games = player_statistics.games + excluded.games,
             wins = player_statistics.wins + excluded.wins,
             draws = player_statistics.draws + excluded.draws,
             points = player_statistics.points + excluded.points,
             opponent_points = player_statistics.opponent_points + excluded.opponent_points,
             bingos = player_statistics.bingos + excluded.bingos,
             exchanges = player_statistics.exchanges + excluded.exchanges,
             timeouts = player_statistics.timeouts + excluded.timeouts,
             best_play = CASE WHEN excluded.best_play > player_statistics.best_play
                 THEN excluded.best_play ELSE player_statistics.best_play END,
             best_game = CASE WHEN excluded.best_game > player_statistics.best_game
                 THEN excluded.best_game ELSE player_statistics.best_game END,
             analysed_turns = player_statistics.analysed_turns + excluded.analysed_turns,
             missed = player_statistics.missed + excluded.missed",
        "DELETE FROM player_statistics WHERE user_id = $2",
    ] {
        sqlx::query(sql)
            .bind(user.id)
            .bind(guest.id)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("DELETE FROM users WHERE id = $1 AND guest = 1")
        .bind(guest.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// What a sign-in checks a password against.
#[derive(sqlx::FromRow)]
struct Credentials {
    id: i64,
    password_hash: String,
    role: String,
}

/// Checks a name and password; the same work is done whether or not the name exists, so the
/// answer's timing does not tell.
pub async fn sign_in(db: &Database, name: &str, password: &str) -> Result<User, AccountError> {
    let name = normalise_name(name)
        .map_err(|_| AccountError::Refused(AccountProblem::WrongCredentials))?;
    let found: Option<Credentials> =
        sqlx::query_as("SELECT id, password_hash, role FROM users WHERE name = $1")
            .bind(&name)
            .fetch_optional(&db.pool)
            .await?;
    let stored = found
        .as_ref()
        .map_or_else(|| DUMMY.to_string(), |f| f.password_hash.clone());
    let password = password.to_string();
    if !password_work(move || verify(&password, &stored)).await? {
        return Err(AccountError::Refused(AccountProblem::WrongCredentials));
    }
    let found = found.ok_or(AccountError::Refused(AccountProblem::WrongCredentials))?;
    Ok(User {
        id: found.id,
        name,
        role: Role::parse(&found.role),
        guest: false,
    })
}

/// Gives a user the admin role (the first admin is made this way, from the command line).
pub async fn make_admin(db: &Database, name: &str) -> Result<bool, AccountError> {
    let name = normalise_name(name)?;
    let updated = sqlx::query("UPDATE users SET role = $1 WHERE name = $2")
        .bind(Role::Admin.as_str())
        .bind(&name)
        .execute(&db.pool)
        .await?;
    Ok(updated.rows_affected() == 1)
}

/// The account's language, if it ever chose one (an unknown stored value counts as none).
pub async fn language_of(db: &Database, user: i64) -> Result<Option<Lang>, sqlx::Error> {
    let code: Option<Option<String>> =
        sqlx::query_scalar("SELECT language FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&db.pool)
            .await?;
    Ok(code.flatten().and_then(|code| Lang::parse(&code)))
}

/// Remembers the account's language, so that it follows the player to a new browser.
pub async fn set_language(db: &Database, user: i64, language: Lang) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET language = $1 WHERE id = $2")
        .bind(language.code())
        .bind(user)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The placeholder name of a closed account: one no one can type, so no one can sign in as it.
fn placeholder(user: i64) -> String {
    format!("deleted-{user}")
}

/// Forgets the account itself, last of all (see [`crate::closing`]): its sessions, recovery
/// codes and sign-in failures go, and its row keeps only its id, a placeholder name and when it
/// closed, for the seats and the other players' results that point at it.
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    let name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(&mut *conn)
        .await?;
    crate::db::forget_user(
        conn,
        user,
        &[
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM recovery_codes WHERE user_id = $1",
        ],
    )
    .await?;
    sqlx::query(
        "UPDATE users SET name = $2, password_hash = '', language = NULL, chat_off = 0,
             totp_secret = NULL, totp_pending = NULL, email = NULL, email_pending = NULL,
             mail_digest = 0, mail_deadlines = 0, closed_at = $3 WHERE id = $1",
    )
    .bind(user)
    .bind(placeholder(user))
    .bind(crate::db::now_ms())
    .execute(&mut *conn)
    .await?;
    crate::limits::sign_ins::forget_name(conn, &name).await
}

/// The account as its owner exports it (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: &User) -> Result<serde_json::Value, AccountError> {
    #[derive(sqlx::FromRow)]
    struct AccountRow {
        created_at: i64,
        language: Option<String>,
        chat_off: i64,
    }
    let account: AccountRow =
        sqlx::query_as("SELECT created_at, language, chat_off FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_one(&db.pool)
            .await?;
    Ok(serde_json::json!({
        "name": user.name, "role": user.role.as_str(), "created_at": account.created_at,
        "language": account.language, "chat_off": account.chat_off != 0,
        "two_factor": two_factor::enabled(db, user.id).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dummy_hash_parses_so_unknown_names_cost_a_full_verification() {
        assert!(PasswordHash::new(DUMMY).is_ok());
        assert!(!verify("anything", DUMMY));
    }

    #[test]
    fn names_are_lowered_and_checked() {
        assert_eq!(normalise_name("  Ann_99 ").unwrap(), "ann_99");
        assert!(normalise_name("a-b").is_err());
    }
}
