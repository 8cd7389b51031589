//! Games in the database: a config with its secret seed, and an append-only log of actions whose
//! fold is the game's state. A commit re-validates the action with `rules`, checks the version the
//! player saw, and appends in one transaction; the primary key (game_id, seq) is the last line of
//! defence against two commits at the same position.

use rules::{game::Status, Action, GameConfig, GameState, Lexicon, RuleError};
use sqlx::{any::AnyRow, pool::PoolConnection, Any, Row};

use super::{
    clock,
    db::{now_ms, Backend, Database, RawWrite},
    seating::GameRow,
};
use crate::domain::Phase;

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
    insert(&mut conn, config, "playing", "local", false).await
}

/// Inserts a game row (inside the caller's transaction when there is one); returns its id,
/// random and unguessable. `rated` is the creator's choice; only games between people are rated
/// whatever it says.
pub(crate) async fn insert(
    conn: &mut sqlx::AnyConnection,
    config: &GameConfig,
    status: &str,
    opponent: &str,
    rated: bool,
) -> Result<String, GameError> {
    let id = uuid::Uuid::new_v4().simple().to_string();
    let state = GameState::new(config.clone());
    let now = now_ms();
    let deadline = (status == "playing")
        .then(|| clock::deadline(config, opponent, now))
        .flatten();
    sqlx::query(
        "INSERT INTO games (id, config, version, status, to_move, created_at, updated_at, opponent,
         deadline_at, rated) VALUES ($1, $2, 0, $3, $4, $5, $5, $6, $7, $8)",
    )
    .bind(&id)
    .bind(serde_json::to_string(config)?)
    .bind(status)
    .bind(i32::from(state.to_move()))
    .bind(now)
    .bind(opponent)
    .bind(deadline)
    .bind(i64::from(rated))
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// A game as stored: its config and where it stands (its log is read only when needed).
struct Stored {
    config: GameConfig,
    /// Actions in its log.
    version: u32,
    /// `waiting`, `playing`, `over` or `cancelled`.
    status: String,
    /// `bot`, `invite`, `lobby` or `local`.
    opponent: String,
    deadline_at: Option<i64>,
    /// Whether its end moves ranks (see [`super::ranks::is_rated`]).
    rated: bool,
}

/// The game row after a move, as one literal for the statements below; its parameters ($1 to
/// $6) are bound by `update` in [`commit_in_transaction`].
macro_rules! update_game {
    () => {
        "UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, \
         deadline_at = $6 WHERE id = $1"
    };
}

/// The log's columns, for the action's place in it: its own values are $7 and $8, beside the
/// row's $1 and $5.
macro_rules! log_columns {
    () => {
        "INSERT INTO game_actions (game_id, seq, action, created_at)"
    };
}

/// The action's place in the log.
macro_rules! log_action {
    () => {
        concat!(log_columns!(), " VALUES ($1, $7, $8, $5)")
    };
}

/// [`update_game!`] only while the game is under way at the version the move was judged against
/// ($7, the action's place in the log): a move judged outside a transaction is written only if
/// nothing was written since.
macro_rules! update_unmoved_game {
    () => {
        concat!(update_game!(), " AND version = $7 AND status = 'playing'")
    };
}

/// A move's writes on SQLite, one batch: the action, then the row.
macro_rules! write_move {
    () => {
        concat!(log_action!(), "; ", update_game!())
    };
}

/// A move judged outside a transaction, written on SQLite in one batch and one transaction of its
/// own: the row if it has not moved on, then the action if the row was written; the action's
/// place comes back as a row only if both were.
const WRITE_UNMOVED: &str = concat!(
    "BEGIN IMMEDIATE; ",
    update_unmoved_game!(),
    "; ",
    log_columns!(),
    " SELECT $1, $7, $8, $5 WHERE changes() = 1 RETURNING seq; COMMIT"
);

/// [`WRITE_UNMOVED`] on Postgres: one statement, so its own transaction; with the live change
/// to tell ($9 the channel, $10 the payload) when `_AND_TELL`. A row back says it was written.
macro_rules! write_unmoved_pg {
    ($last:literal) => {
        concat!(
            "WITH moved AS (",
            update_unmoved_game!(),
            " RETURNING id), logged AS (",
            log_columns!(),
            " SELECT $1, $7, $8, $5 FROM moved RETURNING seq) ",
            $last
        )
    };
}

/// A move's writes on Postgres, one statement: the action, then the row.
const WRITE_PG: &str = concat!("WITH logged AS (", log_action!(), ") ", update_game!());

/// [`WRITE_PG`] with the live change to tell ($9 the channel, $10 the payload), which Postgres
/// delivers when the transaction commits.
const WRITE_AND_TELL_PG: &str = concat!(
    "WITH logged AS (",
    log_action!(),
    "), moved AS (",
    update_game!(),
    ") SELECT pg_notify($9, $10)"
);

/// [`write_unmoved_pg!`] with no one to tell.
const WRITE_UNMOVED_PG: &str = write_unmoved_pg!("SELECT seq FROM logged");

/// [`write_unmoved_pg!`], telling the players.
const WRITE_UNMOVED_AND_TELL_PG: &str = write_unmoved_pg!("SELECT pg_notify($9, $10) FROM logged");

/// A move's writes on SQLite.
const WRITE: &str = write_move!();

/// [`WRITE`], then `COMMIT`.
const WRITE_AND_COMMIT: &str = concat!(write_move!(), "; COMMIT");

/// The head's columns, in the order [`read_game`] reads them.
const HEAD: &str =
    "SELECT config, status, opponent, deadline_at, rated, version FROM games WHERE id = $1";

async fn read_game(conn: &mut PoolConnection<Any>, id: &str) -> Result<Stored, GameError> {
    read_game_with(conn, id, HEAD).await
}

/// [`read_game`] with the query `sql`: [`HEAD`] with something before or after it.
async fn read_game_with(
    conn: &mut PoolConnection<Any>,
    id: &str,
    sql: &str,
) -> Result<Stored, GameError> {
    // All of the batch's rows: sqlx's fetch_optional stops at a batch's first statement.
    let row: AnyRow = sqlx::query(sql)
        .bind(id)
        .fetch_all(&mut **conn)
        .await?
        .into_iter()
        .next()
        .ok_or(GameError::NotFound)?;
    let config: GameConfig = serde_json::from_str(&row.try_get::<String, _>(0)?)?;
    Ok(Stored {
        config,
        version: u32::try_from(row.try_get::<i64, _>(5)?).unwrap_or(0),
        status: row.try_get(1)?,
        opponent: row.try_get(2)?,
        deadline_at: row.try_get(3)?,
        rated: super::ranks::is_rated(
            &row.try_get::<String, _>(2)?,
            row.try_get::<i64, _>(4)? != 0,
        ),
    })
}

/// A game's log, in order.
async fn read_actions(conn: &mut PoolConnection<Any>, id: &str) -> Result<Vec<Action>, GameError> {
    let rows = sqlx::query("SELECT action FROM game_actions WHERE game_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&mut **conn)
        .await?;
    rows.iter()
        .map(|row| Ok(serde_json::from_str(&row.try_get::<String, _>(0)?)?))
        .collect()
}

/// The game's state at its stored version: as kept in memory, or its log replayed (and then
/// kept). The log, when it was read, comes along.
async fn state_of<L: Lexicon + ?Sized>(
    db: &Database,
    conn: &mut PoolConnection<Any>,
    id: &str,
    stored: &Stored,
    lexicon: &L,
) -> Result<(GameState, Option<Vec<Action>>), GameError> {
    if let Some(state) = db.states.get(id, stored.version) {
        return Ok((state, None));
    }
    let actions = read_actions(conn, id).await?;
    let state = replay(stored.config.clone(), &actions, lexicon)?;
    // Keyed by its own version: outside a transaction the log may have grown since the row was
    // read, and the state is still the true one at the version it has.
    db.states.put(id, state.clone());
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
pub async fn logs(
    db: &Database,
    ids: &[&str],
) -> Result<std::collections::HashMap<String, Vec<Action>>, GameError> {
    let mut logs: std::collections::HashMap<String, Vec<Action>> = Default::default();
    if ids.is_empty() {
        return Ok(logs);
    }
    let sql = format!(
        "SELECT game_id, action FROM game_actions WHERE game_id IN ({}) ORDER BY game_id, seq",
        super::db::placeholders(1, ids.len())
    );
    let mut query = sqlx::query(&sql);
    for id in ids {
        query = query.bind(*id);
    }
    for row in query.fetch_all(&db.pool).await? {
        let action: Action = serde_json::from_str(&row.try_get::<String, _>(1)?)?;
        logs.entry(row.try_get(0)?).or_default().push(action);
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
    let stored = read_game(&mut conn, id).await?;
    Ok(state_of(db, &mut conn, id, &stored, lexicon).await?.0)
}

/// Applies `action` if the game is still at `expected_version`, the player's time is not up and
/// the rules accept it; returns the new state and tells the players' open pages. Nothing is
/// written otherwise. A turn that passes to the next player starts that player's clock.
pub async fn commit<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
) -> Result<GameState, GameError> {
    Ok(
        commit_telling(db, id, expected_version, action, lexicon, None)
            .await?
            .state,
    )
}

/// A commit's outcome: the new state, and what it wrote to the game's row.
#[derive(Debug)]
pub struct Committed {
    /// The game after the action.
    pub state: GameState,
    /// When the player now to move runs out of time; `None` when no clock runs.
    pub deadline_at: Option<i64>,
    /// When it was committed, unix ms.
    pub at: i64,
}

/// What the caller read of a game just before a move (with its seats, in one query): who hears
/// of the move, and the row the move is first judged against.
#[derive(Debug)]
pub struct Seen<'a> {
    /// The game's row as read, with its version.
    pub row: &'a GameRow,
    /// Who hears of the move.
    pub audience: super::live::Audience,
}

/// [`commit`], for a caller that has just read the game (`seen`): the players are told without
/// reading who they are, and a move that keeps the game going is judged with no lock held and
/// written in one statement, if the game is still where the caller read it (else, or without
/// `seen`, the move is judged again in a transaction).
pub async fn commit_telling<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
    seen: Option<Seen<'_>>,
) -> Result<Committed, GameError> {
    let started = std::time::Instant::now();
    // On Postgres the players hear of a move through a NOTIFY sent with the move's writes (one
    // round trip less); a purchase or a sale is told to the trader alone, below.
    let tell = match (db.backend, &seen, action) {
        (_, _, Action::Buy { .. } | Action::Sell { .. }) => None,
        (Backend::Postgres, Some(seen), _) => {
            Some(super::live::notice(&seen.audience.change_of(id)))
        }
        _ => None,
    };
    let unmoved = match &seen {
        Some(seen) => {
            let (row, tell) = (seen.row, tell.as_ref());
            commit_unmoved(db, id, expected_version, action, lexicon, row, tell).await?
        }
        None => None,
    };
    let result = match unmoved {
        Some(committed) => {
            metrics::counter!("alfakraft_commits_lock_free_total").increment(1);
            Ok(committed)
        }
        None => commit_locked(db, id, expected_version, action, lexicon, tell.as_ref()).await,
    };
    metrics::histogram!("alfakraft_commit_seconds").record(started.elapsed());
    if let Ok(committed) = &result {
        metrics::counter!("alfakraft_commits_total", "ruleset" => committed.state.rules().name)
            .increment(1);
        db.states.put(id, committed.state.clone());
    }
    if result.is_ok() {
        match action {
            // A purchase or a sale is the trader's business until the rules reveal the coins:
            // only the trader's own pages hear of it.
            Action::Buy { seat, .. } | Action::Sell { seat, .. } => {
                db.seat_changed(id, *seat).await
            }
            _ => match seen {
                // The players were told with the commit; the lobby's watchers still are.
                Some(seen) if tell.is_some() => {
                    if seen.audience.lobby {
                        db.publish(super::live::Change::Lobby).await;
                    }
                }
                Some(seen) => db.tell_game(id, seen.audience).await,
                None => db.game_changed(id).await,
            },
        }
    }
    result
}

/// The move judged against `row` as the caller read it, outside any transaction, and written in
/// one statement only if the game is still under way at that version. That is the commit of
/// almost every move: two round trips to the database fewer than [`commit_locked`] (three on
/// Postgres), and no lock held while the rules judge it. `None` when this path cannot decide: the
/// state at that version is not in memory, the player's view or the row is out of date, the time
/// is up, the rules refuse the move, it ends the game (whose results are written with it, in a
/// transaction), or another write came first; the locked path then judges it again and gives
/// the answer.
async fn commit_unmoved<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
    row: &GameRow,
    tell: Option<&(&'static str, String)>,
) -> Result<Option<Committed>, GameError> {
    if row.phase != Phase::Playing || row.version != expected_version {
        return Ok(None);
    }
    let Some(mut state) = db.states.get(id, row.version) else {
        return Ok(None);
    };
    let now = now_ms();
    let judged = judge(
        &mut state,
        action,
        lexicon,
        &row.config,
        &row.opponent,
        row.deadline_at,
        now,
    );
    let deadline = match judged {
        Ok(deadline) if *state.status() == Status::Playing => deadline,
        _ => return Ok(None),
    };
    let action_json = serde_json::to_string(action)?;
    let write = |sql| bind_move(sql, id, &state, now, deadline, row.version, &action_json);
    let written = match db.backend {
        Backend::Sqlite => {
            let mut tx = db.raw_write().await?;
            let rows = write(WRITE_UNMOVED).fetch_all(&mut **tx.conn()).await;
            // The batch ended with its COMMIT; if it failed on the way, dropping `tx` rolls back.
            if rows.is_ok() {
                tx.committed();
            }
            rows
        }
        Backend::Postgres => {
            telling(write, WRITE_UNMOVED_PG, WRITE_UNMOVED_AND_TELL_PG, tell)
                .fetch_all(&db.pool)
                .await
        }
    };
    match written {
        Ok(rows) if !rows.is_empty() => Ok(Some(Committed {
            state,
            deadline_at: deadline,
            at: now,
        })),
        Ok(_) => Ok(None),
        // The log already has the place: another commit came first.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Judges `action` on `state`, the game as the commit finds it, at `now`: refused when the
/// player's time ran out at `deadline_at` or the rules refuse it, else applied to `state`. Returns
/// when the player now to move runs out of time: a new clock when the turn passed, the same one
/// when it did not, none once the game is over or with no clock.
fn judge<L: Lexicon + ?Sized>(
    state: &mut GameState,
    action: &Action,
    lexicon: &L,
    config: &GameConfig,
    opponent: &str,
    deadline_at: Option<i64>,
    now: i64,
) -> Result<Option<i64>, GameError> {
    if deadline_at.is_some_and(|d| d <= now)
        && action.seat() == state.to_move()
        && stopped_by_clock(action)
    {
        return Err(GameError::TimeUp);
    }
    let to_move_before = state.to_move();
    state.apply(action, lexicon)?;
    let turn_passed = ends_turn(action) || state.to_move() != to_move_before;
    Ok(match (*state.status() == Status::Playing, turn_passed) {
        (false, _) => None,
        (true, true) => clock::deadline(config, opponent, now),
        (true, false) => deadline_at,
    })
}

/// `sql` with a move's values bound: the game row's new values as $1 to $6 (see
/// [`update_game!`]), then the action's place in the log and the action as $7 and $8.
fn bind_move<'q>(
    sql: &'q str,
    id: &'q str,
    state: &GameState,
    now: i64,
    deadline: Option<i64>,
    seq: u32,
    action_json: &'q str,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    let playing = *state.status() == Status::Playing;
    sqlx::query(sql)
        .bind(id)
        .bind(i64::from(state.version()))
        .bind(if playing { "playing" } else { "over" })
        .bind(i32::from(state.to_move()))
        .bind(now)
        .bind(deadline)
        .bind(i64::from(seq))
        .bind(action_json)
}

/// A move's Postgres statement from `write`: `quiet`, or `told` with the live change to tell
/// bound as $9 (the channel) and $10 (the payload) when there is one.
fn telling<'q>(
    write: impl Fn(&'q str) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    quiet: &'q str,
    told: &'q str,
    tell: Option<&'q (&'static str, String)>,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    match tell {
        Some((channel, payload)) => write(told).bind(*channel).bind(payload.as_str()),
        None => write(quiet),
    }
}

/// The move judged and written in one transaction that holds the game (SQLite's write lock,
/// Postgres' lock on the game's row) from its first read to its last write.
async fn commit_locked<L: Lexicon + ?Sized>(
    db: &Database,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
    tell: Option<&(&'static str, String)>,
) -> Result<Committed, GameError> {
    // A second commit to the same game waits (SQLite's write lock, Postgres' row lock below),
    // then sees the new version.
    let mut tx = db.raw_write().await?;
    let result =
        commit_in_transaction(db, tx.conn(), id, expected_version, action, lexicon, tell).await;
    match &result {
        Ok((_, Ended::Committed)) => tx.committed(),
        Ok((_, Ended::Open)) => tx.commit().await?,
        // The first error is the one to tell (the BEGIN itself may have failed, leaving nothing
        // to roll back).
        Err(_) => {
            if let Err(error) = tx.rollback().await {
                tracing::debug!(%error, "rollback after a refused commit");
            }
        }
    }
    result.map(|(committed, _)| committed)
}

/// Where [`commit_in_transaction`] left the transaction.
enum Ended {
    /// Its last batch ended with `COMMIT` (SQLite, a move that does not end the game).
    Committed,
    /// Still open: the caller commits.
    Open,
}

/// Whether everything since `expected_version` is another seat buying or selling: nothing the
/// player's move depended on, so an opponent's purchase does not send the move back.
fn only_others_trades(log: &[Action], expected_version: u32, action: &Action) -> bool {
    log.get(expected_version as usize..).is_some_and(|since| {
        since.iter().all(|done| {
            matches!(done, Action::Buy { .. } | Action::Sell { .. }) && done.seat() != action.seat()
        })
    })
}

/// Whether `action` is one the clock stops once time is up: a turn by the player to move.
/// Resigning, buying and selling stay open; the time-out itself is the clock's.
fn stopped_by_clock(action: &Action) -> bool {
    !matches!(
        action,
        Action::TimedOut { .. } | Action::Resign { .. } | Action::Buy { .. } | Action::Sell { .. }
    )
}

/// Whether `action` ends its player's turn, so the next turn's clock starts. Using the Swap power
/// does not (the turn goes on), nor do buying and selling.
fn ends_turn(action: &Action) -> bool {
    matches!(
        action,
        Action::Play { .. }
            | Action::Pass { .. }
            | Action::Exchange { .. }
            | Action::Challenge { .. }
            | Action::TimedOut { .. }
    )
}

async fn commit_in_transaction<L: Lexicon + ?Sized>(
    db: &Database,
    conn: &mut PoolConnection<Any>,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
    tell: Option<&(&'static str, String)>,
) -> Result<(Committed, Ended), GameError> {
    // Each statement is a round trip to the database's thread, and on SQLite the writer lock is
    // held from the first to the last: the BEGIN goes with the first read and the two writes go
    // together. Postgres takes one statement at a time (the writes, and the NOTIFY that tells
    // the players, are one statement), and locks the game's row as it reads it.
    let stored = match db.backend {
        Backend::Sqlite => {
            read_game_with(
                conn,
                id,
                &format!("{}; {HEAD}", RawWrite::begin(db.backend)),
            )
            .await?
        }
        Backend::Postgres => {
            sqlx::Executor::execute(&mut **conn, RawWrite::begin(db.backend)).await?;
            read_game_with(conn, id, &format!("{HEAD} FOR UPDATE")).await?
        }
    };
    if matches!(stored.status.as_str(), "waiting" | "ready" | "cancelled") {
        return Err(GameError::NotStarted);
    }
    let (mut state, log) = state_of(db, conn, id, &stored, lexicon).await?;
    if state.version() != expected_version {
        let log = match log {
            Some(log) => log,
            None => read_actions(conn, id).await?,
        };
        if !only_others_trades(&log, expected_version, action) {
            return Err(GameError::MovedOn {
                current: state.version(),
            });
        }
    }
    // The log's next place (the version asked for, or later past others' trades).
    let seq = state.version();
    let now = now_ms();
    let deadline = judge(
        &mut state,
        action,
        lexicon,
        &stored.config,
        &stored.opponent,
        stored.deadline_at,
        now,
    )?;
    let playing = *state.status() == Status::Playing;
    let action_json = serde_json::to_string(action)?;
    let write = |sql| bind_move(sql, id, &state, now, deadline, seq, &action_json);
    let written = match db.backend {
        // One batch, with the COMMIT in it too unless the end of the game is still to be
        // recorded. A statement that fails stops the batch before the COMMIT.
        Backend::Sqlite => {
            write(if playing { WRITE_AND_COMMIT } else { WRITE })
                .execute(&mut **conn)
                .await
        }
        Backend::Postgres => {
            telling(write, WRITE_PG, WRITE_AND_TELL_PG, tell)
                .execute(&mut **conn)
                .await
        }
    };
    if let Err(sqlx::Error::Database(e)) = &written {
        if e.is_unique_violation() {
            return Err(GameError::MovedOn { current: seq + 1 });
        }
    }
    written?;
    if !playing {
        // In the same transaction as the end itself: a game is rated and its results kept once,
        // or not at all.
        let seats = super::results::seats(conn, id).await?;
        super::ranks::rate_ended(db.backend, conn, id, &seats, stored.rated, &state).await?;
        super::results::record(conn, id, &seats, &state, now).await?;
        if stored.opponent == "daily" {
            super::daily::finished(conn, id, &state).await?;
        }
    }
    let ended = match db.backend {
        Backend::Sqlite if playing => Ended::Committed,
        _ => Ended::Open,
    };
    Ok((
        Committed {
            state,
            deadline_at: deadline,
            at: now,
        },
        ended,
    ))
}
