//! Sessions in the database: a tower-sessions store over the same pool as everything else, so a
//! session survives a restart and is shared by every instance on one Postgres.

use async_trait::async_trait;
use tower_sessions::{
    session::{Id, Record},
    session_store::{Error, Result},
    SessionStore,
};

use super::{Role, User};
use crate::{
    db::{now_ms, Database},
    StoreError,
};

/// The session key holding the signed-in user's id.
pub const USER_KEY: &str = "user_id";

/// The session key holding the day (since the epoch) the session was last used on.
pub const SEEN_KEY: &str = "seen_day";

/// The session key holding the browser and system the session was signed in with, for the
/// player's list of sessions ([`super::security::device_of`]).
pub const DEVICE_KEY: &str = "device";

/// The session key set when the session was signed in with a second factor: an authenticator
/// code, or a recovery code in its place.
pub const SECOND_FACTOR_KEY: &str = "second_factor";

/// The session key holding the signed-in user's [`Account`] as read with the session: put in
/// the record when it is loaded, never stored (see [`DbSessionStore`]).
const ACCOUNT_KEY: &str = "account";

/// The signed-in user's row as loading the session read it (a [`User`] is deliberately not
/// serialisable; this lives only in the loaded record).
#[derive(serde::Serialize, serde::Deserialize)]
struct Account {
    id: i64,
    name: String,
    role: String,
    guest: bool,
}

/// The user a session belongs to, if any.
///
/// A session used on a new day is marked so: tower-sessions saves a session (and pushes its
/// 30-day expiry on) only when it changed, so without this a player active every day would be
/// signed out 30 days after signing in. Once a day keeps it to one write per player per day.
pub async fn user_of(
    db: &Database,
    session: &tower_sessions::Session,
) -> std::result::Result<Option<User>, StoreError> {
    let read = |e: tower_sessions::session::Error| StoreError::Data(format!("session: {e}"));
    let Some(id) = session.get::<i64>(USER_KEY).await.map_err(read)? else {
        return Ok(None);
    };
    let today = now_ms() / (24 * 60 * 60 * 1000);
    if session.get::<i64>(SEEN_KEY).await.map_err(read)? != Some(today) {
        session.insert(SEEN_KEY, today).await.map_err(read)?;
    }
    // The account read with the session, unless the session names someone else by now (signed
    // in during this request) or was saved before sessions kept their user beside them.
    match session.get::<Account>(ACCOUNT_KEY).await.map_err(read)? {
        Some(account) if account.id == id => Ok(Some(User {
            id,
            name: account.name,
            role: Role::parse(&account.role),
            guest: account.guest,
        })),
        _ => Ok(super::by_id(db, id).await?),
    }
}

/// The session store.
#[derive(Debug, Clone)]
pub struct DbSessionStore {
    db: Database,
}

impl DbSessionStore {
    /// A store on `db`.
    pub fn new(db: Database) -> DbSessionStore {
        DbSessionStore { db }
    }

    /// Removes every expired session; returns how many.
    pub async fn delete_expired(&self) -> Result<u64> {
        let now = now_ms() / 1000;
        let deleted = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.db.pool)
            .await
            .map_err(backend)?;
        Ok(deleted.rows_affected())
    }

    /// Inserts `record`, with its user beside it and without the account read with it;
    /// `on_conflict` says what an existing row with its id gets. Returns the rows written.
    async fn write(&self, record: &Record, on_conflict: &str) -> Result<u64> {
        let user_id = record
            .data
            .get(USER_KEY)
            .and_then(serde_json::Value::as_i64);
        let data = match record.data.contains_key(ACCOUNT_KEY) {
            true => {
                let mut stored = record.clone();
                stored.data.remove(ACCOUNT_KEY);
                serde_json::to_string(&stored)
            }
            false => serde_json::to_string(record),
        }
        .map_err(|e| Error::Encode(e.to_string()))?;
        let sql = format!(
            "INSERT INTO sessions (id, data, expires_at, user_id) VALUES ($1, $2, $3, $4)
             ON CONFLICT (id) {on_conflict}"
        );
        let done = sqlx::query(&sql)
            .bind(record.id.to_string())
            .bind(data)
            .bind(record.expiry_date.unix_timestamp())
            .bind(user_id)
            .execute(&self.db.pool)
            .await
            .map_err(backend)?;
        Ok(done.rows_affected())
    }
}

/// A session's row with its user's account beside it (none for a visitor's session).
#[derive(sqlx::FromRow)]
struct Loaded {
    user_id: Option<i64>,
    name: Option<String>,
    role: Option<String>,
    guest: Option<i64>,
    data: String,
}

fn backend(error: sqlx::Error) -> Error {
    Error::Backend(error.to_string())
}

#[async_trait]
impl SessionStore for DbSessionStore {
    /// A new session: inserted only if its id is free, under a fresh id otherwise (a collision
    /// of 128 random bits, which must still never hand one visitor another's session).
    async fn create(&self, record: &mut Record) -> Result<()> {
        while self.write(record, "DO NOTHING").await? == 0 {
            record.id = Id::default();
        }
        Ok(())
    }

    async fn save(&self, record: &Record) -> Result<()> {
        self.write(
            record,
            "DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at,
             user_id = excluded.user_id",
        )
        .await
        .map(drop)
    }

    /// The record, with its user's account as it is now (read in the same query) under
    /// [`ACCOUNT_KEY`], for [`user_of`].
    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        let now = now_ms() / 1000;
        let Some(row) = sqlx::query_as::<_, Loaded>(
            "SELECT u.id AS user_id, u.name, u.role, u.guest, s.data
             FROM sessions s LEFT JOIN users u ON u.id = s.user_id
             WHERE s.id = $1 AND s.expires_at > $2",
        )
        .bind(id.to_string())
        .bind(now)
        .fetch_optional(&self.db.pool)
        .await
        .map_err(backend)?
        else {
            return Ok(None);
        };
        let mut record: Record =
            serde_json::from_str(&row.data).map_err(|e| Error::Decode(e.to_string()))?;
        // Whatever a record says under the key is replaced: only the database's row counts.
        record.data.remove(ACCOUNT_KEY);
        if let (Some(id), Some(name), Some(role), Some(guest)) =
            (row.user_id, row.name, row.role, row.guest)
        {
            let account = Account {
                id,
                name,
                role,
                guest: guest != 0,
            };
            let account =
                serde_json::to_value(account).map_err(|e| Error::Encode(e.to_string()))?;
            record.data.insert(ACCOUNT_KEY.to_string(), account);
        }
        Ok(Some(record))
    }

    async fn delete(&self, id: &Id) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(id.to_string())
            .execute(&self.db.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}
