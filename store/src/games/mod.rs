//! Games in the database: a config with its secret seed, and an append-only log of actions whose
//! fold is the game's state. A commit ([`commit`]) re-validates the action with `rules`, checks
//! the version the player saw, and appends in one transaction; the primary key (game_id, seq) is
//! the last line of defence against two commits at the same position. The end of a game is
//! announced to the reactions the database was opened with ([`crate::ended`]).

mod commit;
pub mod summaries;
mod tell;

use std::collections::HashMap;

use domain::{GameSummary, OpponentKind, Phase};
use rules::{Action, GameConfig, GameState, Lexicon, RuleError};
use sqlx::AnyConnection;

pub(crate) use commit::{announce, resign_within};
pub use commit::{commit, commit_telling, Committed, Seen};
pub use tell::{on_move, remember, tell, tell_players, tell_seat};

use crate::{
    db::{now_ms, placeholders, Database},
    ended::EndedSeat,
    rows::Json,
};

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
    /// The game is waiting for its second player (or for both to be ready), or was called off
    /// before it began.
    #[error("the game has not started")]
    NotStarted,
    /// The player's time for this turn ran out; the clock's time-out is on its way.
    #[error("your time for this turn is up")]
    TimeUp,
    /// The rules refuse the action.
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// The stored log does not replay: a bug or a tampered database.
    #[error("the stored game does not replay: action {index}: {error}")]
    Corrupt {
        /// Index of the first action refused.
        index: usize,
        error: RuleError,
    },
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A stored value is not what the code expects.
    #[error("stored data: {0}")]
    Data(String),
}

impl From<serde_json::Error> for GameError {
    fn from(error: serde_json::Error) -> GameError {
        GameError::Data(error.to_string())
    }
}

/// When the player to move in a game starting its turn `now` runs out, or `None` when no clock
/// runs for its kind of opponent.
pub fn deadline(config: &GameConfig, opponent: OpponentKind, now: i64) -> Option<i64> {
    opponent.has_clock().then(|| now + config.turn_limit_ms())
}

/// Whether a game against this kind of opponent, with this rated flag (the New Game form's
/// checkbox, kept by a rematch), moves ranks: only games between people can.
pub fn is_rated(opponent: OpponentKind, rated: bool) -> bool {
    rated && opponent.between_people()
}

/// A game's row without its log.
#[derive(Debug, Clone)]
pub struct GameRow {
    pub id: String,
    /// Config, with the secret seed: never send it.
    pub config: GameConfig,
    /// Stored phase.
    pub phase: Phase,
    /// Who it is against.
    pub opponent: OpponentKind,
    /// Last change, unix ms.
    pub updated_at: i64,
    /// When the player to move runs out of time, unix ms; `None` when no clock runs.
    pub deadline_at: Option<i64>,
    /// In a Ready lobby, once both are ready: when the match starts, unix ms.
    pub starts_at: Option<i64>,
    /// Whether its end moves the players' ranks.
    pub rated: bool,
    /// Actions in its log: the version a page shows and a move is judged against.
    pub version: u32,
}

/// The columns of [`GameRecord`], from `games g`, for a query's select list.
pub(crate) const GAME_COLUMNS: &str =
    "g.id, g.config, g.status, g.opponent, g.updated_at, g.deadline_at, g.starts_at, g.rated, g.version";

/// A `games` row as read ([`GAME_COLUMNS`]), before it is checked into a [`GameRow`].
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct GameRecord {
    id: String,
    config: Json<GameConfig>,
    status: String,
    opponent: String,
    updated_at: i64,
    deadline_at: Option<i64>,
    starts_at: Option<i64>,
    rated: i64,
    version: i64,
}

impl TryFrom<GameRecord> for GameRow {
    type Error = GameError;

    fn try_from(record: GameRecord) -> Result<GameRow, GameError> {
        let opponent = OpponentKind::parse(&record.opponent)
            .ok_or_else(|| GameError::Data(format!("opponent {}", record.opponent)))?;
        Ok(GameRow {
            id: record.id,
            config: record.config.0,
            phase: Phase::parse(&record.status)
                .ok_or_else(|| GameError::Data(format!("status {}", record.status)))?,
            opponent,
            updated_at: record.updated_at,
            deadline_at: record.deadline_at,
            starts_at: record.starts_at,
            rated: is_rated(opponent, record.rated != 0),
            version: u32::try_from(record.version)
                .map_err(|_| GameError::Data(format!("version {}", record.version)))?,
        })
    }
}

/// Creates a game from its config, under way with no seats recorded; returns its id.
pub async fn create(db: &Database, config: &GameConfig) -> Result<String, GameError> {
    let mut conn = db.pool.acquire().await?;
    insert(
        &mut conn,
        config,
        Phase::Playing,
        OpponentKind::Local,
        false,
    )
    .await
}

/// Inserts a game row (inside the caller's transaction when there is one); returns its id,
/// random and unguessable. `rated` is the creator's choice; only games between people are rated
/// whatever it says.
pub(crate) async fn insert(
    conn: &mut AnyConnection,
    config: &GameConfig,
    phase: Phase,
    opponent: OpponentKind,
    rated: bool,
) -> Result<String, GameError> {
    let id = uuid::Uuid::new_v4().simple().to_string();
    let state = GameState::new(config.clone());
    let now = now_ms();
    let deadline = (phase == Phase::Playing)
        .then(|| deadline(config, opponent, now))
        .flatten();
    sqlx::query(
        "INSERT INTO games (id, config, version, status, to_move, created_at, updated_at, opponent,
         deadline_at, rated, summary) VALUES ($1, $2, 0, $3, $4, $5, $5, $6, $7, $8, $9)",
    )
    .bind(&id)
    .bind(serde_json::to_string(config)?)
    .bind(phase.as_str())
    .bind(i32::from(state.to_move()))
    .bind(now)
    .bind(opponent.as_str())
    .bind(deadline)
    .bind(i64::from(rated))
    .bind(serde_json::to_string(&GameSummary::of(&state))?)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// Seats two players in new game `id` of `config` (inside the caller's transaction): `starter`
/// where the rules make the first move (a ruleset that draws for it has drawn from the seed
/// already), `other` in the other seat. A league or tournament pairing decides who starts this
/// way, whatever the ruleset's draw.
pub(crate) async fn seat_pair(
    conn: &mut AnyConnection,
    id: &str,
    config: &GameConfig,
    starter: i64,
    other: i64,
) -> Result<(), sqlx::Error> {
    let first = i64::from(GameState::new(config.clone()).to_move());
    for (seat, user) in [(first, starter), (1 - first, other)] {
        sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(seat)
            .bind(user)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// A game's row.
pub async fn row(db: &Database, id: &str) -> Result<GameRow, GameError> {
    let record: GameRecord = sqlx::query_as(&format!(
        "SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(GameError::NotFound)?;
    record.try_into()
}

/// A game's row read with the query `sql` ([`GAME_COLUMNS`] of game `$1`, with something before
/// or after it: the commit's `BEGIN`, Postgres' `FOR UPDATE`).
async fn row_with(conn: &mut AnyConnection, id: &str, sql: &str) -> Result<GameRow, GameError> {
    // All of the batch's rows: sqlx's fetch_optional stops at a batch's first statement.
    let record: GameRecord = sqlx::query_as(sql)
        .bind(id)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .next()
        .ok_or(GameError::NotFound)?;
    record.try_into()
}

/// One action of a game's log.
#[derive(sqlx::FromRow)]
struct LoggedAction {
    game_id: String,
    action: Json<Action>,
}

/// A game's log, in order.
async fn read_actions(conn: &mut AnyConnection, id: &str) -> Result<Vec<Action>, GameError> {
    let rows: Vec<LoggedAction> =
        sqlx::query_as("SELECT game_id, action FROM game_actions WHERE game_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows.into_iter().map(|row| row.action.0).collect())
}

/// The game's state at its stored version: as kept in memory, or its log replayed (and then
/// kept). The log, when it was read, comes along.
async fn state_of<L: Lexicon + ?Sized>(
    db: &Database,
    conn: &mut AnyConnection,
    row: &GameRow,
    lexicon: &L,
) -> Result<(GameState, Option<Vec<Action>>), GameError> {
    if let Some(state) = db.states.get(&row.id, row.version) {
        return Ok((state, None));
    }
    let actions = read_actions(conn, &row.id).await?;
    let state = replay(row.config.clone(), &actions, lexicon)?;
    // Keyed by its own version: outside a transaction the log may have grown since the row was
    // read, and the state is still the true one at the version it has.
    db.states.put(&row.id, state.clone());
    Ok((state, Some(actions)))
}

/// A game's state from its config and log (as [`logs`] reads them); a log the rules refuse is
/// corrupt.
pub fn replay<L: Lexicon + ?Sized>(
    config: GameConfig,
    actions: &[Action],
    lexicon: &L,
) -> Result<GameState, GameError> {
    GameState::replay(config, actions, lexicon)
        .map_err(|(index, error)| GameError::Corrupt { index, error })
}

/// The logs of several games in one query, by game id (a list page replays them all). A game
/// with no action yet has no entry.
pub async fn logs(db: &Database, ids: &[&str]) -> Result<HashMap<String, Vec<Action>>, GameError> {
    let mut logs: HashMap<String, Vec<Action>> = HashMap::new();
    if ids.is_empty() {
        return Ok(logs);
    }
    let sql = format!(
        "SELECT game_id, action FROM game_actions WHERE game_id IN ({}) ORDER BY game_id, seq",
        placeholders(1, ids.len())
    );
    let mut query = sqlx::query_as::<_, LoggedAction>(&sql);
    for id in ids {
        query = query.bind(*id);
    }
    for row in query.fetch_all(&db.pool).await? {
        logs.entry(row.game_id).or_default().push(row.action.0);
    }
    Ok(logs)
}

/// The game's version (actions applied), without replaying it.
pub async fn version(db: &Database, id: &str) -> Result<u32, GameError> {
    let version: i64 = sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .ok_or(GameError::NotFound)?;
    Ok(u32::try_from(version).unwrap_or(0))
}

/// The game's state: its log replayed.
pub async fn load<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    lexicon: &L,
) -> Result<GameState, GameError> {
    let mut conn = db.pool.acquire().await?;
    let row = row_with(
        &mut conn,
        id,
        &format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"),
    )
    .await?;
    Ok(state_of(db, &mut conn, &row, lexicon).await?.0)
}

/// The seats of game `game_id` in order, on `conn` (the transaction that records its end).
pub async fn ended_seats(
    conn: &mut AnyConnection,
    game_id: &str,
) -> Result<Vec<EndedSeat>, sqlx::Error> {
    sqlx::query_as("SELECT seat, user_id, bot FROM game_seats WHERE game_id = $1 ORDER BY seat")
        .bind(game_id)
        .fetch_all(&mut *conn)
        .await
}

#[cfg(test)]
mod structure {
    /// The game core announces moves and ends ([`crate::moved`], [`crate::ended`]) and knows none
    /// of the domains that react to them, nor calls its own reactions (`tell`) itself.
    #[test]
    fn the_game_core_imports_no_reaction() {
        let sources = [
            include_str!("mod.rs"),
            include_str!("commit.rs"),
            include_str!("summaries.rs"),
        ];
        for source in sources {
            // This test's own list of names aside.
            let source = source.split("mod structure").next().unwrap_or_default();
            for listener in [
                "crate::push",
                "crate::mail",
                "crate::ranks",
                "crate::results",
                "crate::seating",
                "crate::daily",
                "bot_wakeup",
                "tell_players(",
                "tell_seat(",
            ] {
                let imports = source.lines().any(|line| {
                    let line = line.trim_start();
                    !line.starts_with("//") && line.contains(listener)
                });
                assert!(!imports, "the game core names {listener}");
            }
        }
    }
}
