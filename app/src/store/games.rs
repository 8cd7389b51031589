//! Games in the database: a config with its secret seed, and an append-only log of actions whose
//! fold is the game's state. A commit re-validates the action with `rules`, checks the version the
//! player saw, and appends in one transaction; the primary key (game_id, seq) is the last line of
//! defence against two commits at the same position.

use rules::{game::Status, Action, GameConfig, GameState, Lexicon, RuleError};
use sqlx::{any::AnyRow, pool::PoolConnection, Any, Executor, Row};

use super::db::{now_ms, Backend, Database};

/// Why a commit or a load did not happen.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No game has that id.
    #[error("there is no such game")]
    NotFound,
    /// Someone else's action came first: the player's view is out of date.
    #[error("the game moved on: reload it (now at version {current})")]
    MovedOn {
        /// The game's version now.
        current: u32,
    },
    /// The game is waiting for its second player, or was called off before it began.
    #[error("the game has not started")]
    NotStarted,
    /// The rules refuse the action.
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// The stored log does not replay: a bug or a tampered database.
    #[error("the stored game does not replay: action {index}: {error}")]
    Corrupt {
        /// Index of the first action refused.
        index: usize,
        /// Why.
        error: RuleError,
    },
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A stored value is not what the code expects.
    #[error("stored data: {0}")]
    Data(#[from] serde_json::Error),
}

/// Creates a game from its config, under way with no seats recorded; returns its id.
pub async fn create(db: &Database, config: &GameConfig) -> Result<String, GameError> {
    let mut conn = db.pool.acquire().await?;
    insert(&mut conn, config, "playing", "local").await
}

/// Inserts a game row (inside the caller's transaction when there is one); returns its id,
/// random and unguessable.
pub(crate) async fn insert(
    conn: &mut sqlx::AnyConnection,
    config: &GameConfig,
    status: &str,
    opponent: &str,
) -> Result<String, GameError> {
    let id = uuid::Uuid::new_v4().simple().to_string();
    let state = GameState::new(config.clone());
    let now = now_ms();
    sqlx::query(
        "INSERT INTO games (id, config, version, status, to_move, created_at, updated_at, opponent)
         VALUES ($1, $2, 0, $3, $4, $5, $5, $6)",
    )
    .bind(&id)
    .bind(serde_json::to_string(config)?)
    .bind(status)
    .bind(i32::from(state.to_move()))
    .bind(now)
    .bind(opponent)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// Where a game stands as stored: `waiting`, `playing`, `over` or `cancelled`.
async fn read_game(
    conn: &mut PoolConnection<Any>,
    id: &str,
) -> Result<(GameConfig, Vec<Action>, String), GameError> {
    let row: AnyRow = sqlx::query("SELECT config, status FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **conn)
        .await?
        .ok_or(GameError::NotFound)?;
    let config: GameConfig = serde_json::from_str(&row.try_get::<String, _>(0)?)?;
    let status: String = row.try_get(1)?;
    let rows = sqlx::query("SELECT action FROM game_actions WHERE game_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&mut **conn)
        .await?;
    let actions = rows
        .iter()
        .map(|row| Ok(serde_json::from_str(&row.try_get::<String, _>(0)?)?))
        .collect::<Result<Vec<Action>, GameError>>()?;
    Ok((config, actions, status))
}

fn replay<L: Lexicon + ?Sized>(
    config: GameConfig,
    actions: &[Action],
    lexicon: &L,
) -> Result<GameState, GameError> {
    GameState::replay(config, actions, lexicon)
        .map_err(|(index, error)| GameError::Corrupt { index, error })
}

/// The game's state: its log replayed.
pub async fn load<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    lexicon: &L,
) -> Result<GameState, GameError> {
    let mut conn = db.pool.acquire().await?;
    let (config, actions, _) = read_game(&mut conn, id).await?;
    replay(config, &actions, lexicon)
}

/// Applies `action` if the game is still at `expected_version` and the rules accept it; returns
/// the new state. Nothing is written otherwise.
pub async fn commit<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
) -> Result<GameState, GameError> {
    let _writer = match db.backend {
        Backend::Sqlite => Some(db.sqlite_writer.lock().await),
        Backend::Postgres => None,
    };
    let mut conn = db.pool.acquire().await?;
    // SQLite takes the write lock up front; Postgres locks the game's row below. Either way a
    // second commit to the same game waits, then sees the new version.
    let begin = match db.backend {
        Backend::Sqlite => "BEGIN IMMEDIATE",
        Backend::Postgres => "BEGIN",
    };
    conn.execute(begin).await?;
    let result = commit_in_transaction(db, &mut conn, id, expected_version, action, lexicon).await;
    match &result {
        Ok(_) => {
            conn.execute("COMMIT").await?;
        }
        Err(_) => {
            conn.execute("ROLLBACK").await?;
        }
    }
    result
}

async fn commit_in_transaction<L: Lexicon + ?Sized>(
    db: &Database,
    conn: &mut PoolConnection<Any>,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
) -> Result<GameState, GameError> {
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT version FROM games WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(&mut **conn)
            .await?;
    }
    let (config, actions, status) = read_game(conn, id).await?;
    if status == "waiting" || status == "cancelled" {
        return Err(GameError::NotStarted);
    }
    let mut state = replay(config, &actions, lexicon)?;
    if state.version() != expected_version {
        return Err(GameError::MovedOn {
            current: state.version(),
        });
    }
    state.apply(action, lexicon)?;
    let now = now_ms();
    let inserted = sqlx::query(
        "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(i64::from(expected_version))
    .bind(serde_json::to_string(action)?)
    .bind(now)
    .execute(&mut **conn)
    .await;
    if let Err(sqlx::Error::Database(e)) = &inserted {
        if e.is_unique_violation() {
            return Err(GameError::MovedOn {
                current: expected_version + 1,
            });
        }
    }
    inserted?;
    let status = if *state.status() == Status::Playing {
        "playing"
    } else {
        "over"
    };
    sqlx::query(
        "UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5 WHERE id = $1",
    )
    .bind(id)
    .bind(i64::from(state.version()))
    .bind(status)
    .bind(i32::from(state.to_move()))
    .bind(now)
    .execute(&mut **conn)
    .await?;
    Ok(state)
}
