//! A move's commit: judged by the rules against the game as the database has it, and written
//! with its place in the log, in as few round trips as the database allows. Almost every move
//! takes [`commit_unmoved`]'s path (judged against the row the caller just read, written in one
//! guarded statement); anything else, and every move that ends the game, takes
//! [`commit_locked`]'s (one transaction holding the game from its first read to its last write).
//!
//! The statements bind the game row's new values as `$1` to `$6` (id, version, status, to_move,
//! updated_at, deadline_at), then the action's place in the log and the action as `$7` and `$8`
//! and the game's summary for lists as `$9` ([`bind_move`]); a statement that also tells the
//! players binds the Postgres channel and payload as `$10` and `$11`.

use domain::{GameSummary, OpponentKind, Phase};
use rules::{game::Status, Action, GameConfig, GameState, Lexicon};
use sqlx::{Any, AnyConnection};

use super::{read_actions, row_with, state_of, GameError, GameRow, GAME_COLUMNS};
use crate::{
    bus::{self, Audience},
    db::{now_ms, Backend, Database, RawWrite},
    ended::GameEnded,
    moved::MoveMade,
};

/// A move's writes on SQLite, one batch: the action, then the row.
const WRITE: &str =
    "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $7, $8, $5);
     UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
     WHERE id = $1";

/// [`WRITE`], then `COMMIT`.
const WRITE_AND_COMMIT: &str =
    "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $7, $8, $5);
     UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
     WHERE id = $1; COMMIT";

/// A move judged outside a transaction, written on SQLite in one batch and one transaction of
/// its own: the row only while the game is under way at the version the move was judged against
/// (`$7`, the action's place in the log), then the action if the row was written; the action's
/// place comes back as a row only if both were.
const WRITE_UNMOVED: &str = "BEGIN IMMEDIATE;
     UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
     WHERE id = $1 AND version = $7 AND status = 'playing';
     INSERT INTO game_actions (game_id, seq, action, created_at)
     SELECT $1, $7, $8, $5 WHERE changes() = 1 RETURNING seq; COMMIT";

/// A move's writes on Postgres, one statement: the action, then the row.
const WRITE_PG: &str = "WITH logged AS (
         INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $7, $8, $5))
     UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
     WHERE id = $1";

/// [`WRITE_PG`] with the live change to tell, which Postgres delivers when the transaction
/// commits.
const WRITE_AND_TELL_PG: &str = "WITH logged AS (
         INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $7, $8, $5)),
     moved AS (
         UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
         WHERE id = $1)
     SELECT pg_notify($10, $11)";

/// [`WRITE_UNMOVED`] on Postgres: one statement, so its own transaction. A row back says it
/// was written.
const WRITE_UNMOVED_PG: &str = "WITH moved AS (
         UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
         WHERE id = $1 AND version = $7 AND status = 'playing' RETURNING id),
     logged AS (
         INSERT INTO game_actions (game_id, seq, action, created_at)
         SELECT $1, $7, $8, $5 FROM moved RETURNING seq)
     SELECT seq FROM logged";

/// [`WRITE_UNMOVED_PG`], telling the players.
const WRITE_UNMOVED_AND_TELL_PG: &str = "WITH moved AS (
         UPDATE games SET version = $2, status = $3, to_move = $4, updated_at = $5, deadline_at = $6,
         summary = $9
         WHERE id = $1 AND version = $7 AND status = 'playing' RETURNING id),
     logged AS (
         INSERT INTO game_actions (game_id, seq, action, created_at)
         SELECT $1, $7, $8, $5 FROM moved RETURNING seq)
     SELECT pg_notify($10, $11) FROM logged";

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
    /// Its summary for lists, as written with it: computed once per commit, for the lists, the
    /// reactions and the mover's page.
    pub summary: GameSummary,
    /// When the player now to move runs out of time; `None` when no clock runs.
    pub deadline_at: Option<i64>,
    /// When it was committed, unix ms.
    pub at: i64,
}

impl Committed {
    /// `row`, the game's row as read before the move, as this commit wrote it.
    pub fn written(&self, row: &GameRow) -> GameRow {
        GameRow {
            phase: match self.state.status() {
                Status::Playing => Phase::Playing,
                _ => Phase::Over,
            },
            deadline_at: self.deadline_at,
            updated_at: self.at,
            version: self.state.version(),
            ..row.clone()
        }
    }
}

/// What the caller read of a game just before a move (with its seats, in one query): who hears
/// of the move, and the row the move is first judged against.
#[derive(Debug)]
pub struct Seen<'a> {
    /// The game's row as read, with its version.
    pub row: &'a GameRow,
    /// Who hears of the move.
    pub audience: Audience,
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
        (Backend::Postgres, Some(seen), _) => Some(bus::notice(&seen.audience.change_of(id))),
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
        announce(db, id, action, committed, seen.as_ref(), tell.is_some()).await;
    }
    result
}

/// Hands the committed move to the reactions the database was opened with, in order: `seen`,
/// what the committer read of the game before it, and whether its write `told` the players.
pub(crate) async fn announce(
    db: &Database,
    id: &str,
    action: &Action,
    committed: &Committed,
    seen: Option<&Seen<'_>>,
    told: bool,
) {
    let made = MoveMade {
        game_id: id,
        action,
        state: &committed.state,
        summary: &committed.summary,
        opponent: seen.map(|seen| seen.row.opponent),
        audience: seen.map(|seen| &seen.audience),
        told,
    };
    for react in db.on_move {
        react(db, &made).await;
    }
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
        row.opponent,
        row.deadline_at,
        now,
    );
    let deadline = match judged {
        Ok(deadline) if *state.status() == Status::Playing => deadline,
        _ => return Ok(None),
    };
    let text = Text::of(action, &state)?;
    let write = |sql| bind_move(sql, id, &state, now, deadline, row.version, &text);
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
            summary: text.summary,
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
    opponent: OpponentKind,
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
        (true, true) => super::deadline(config, opponent, now),
        (true, false) => deadline_at,
    })
}

/// What a move writes as JSON (the action, and the game's summary after it), and the summary
/// itself, made once.
struct Text {
    action: String,
    summary_json: String,
    summary: GameSummary,
}

impl Text {
    fn of(action: &Action, state: &GameState) -> Result<Text, serde_json::Error> {
        let summary = GameSummary::of(state);
        Ok(Text {
            action: serde_json::to_string(action)?,
            summary_json: serde_json::to_string(&summary)?,
            summary,
        })
    }
}

/// `sql` with a move's values bound: the game row's new values as $1 to $6, the action's place
/// in the log and the action as $7 and $8, and the game's summary for lists as $9.
fn bind_move<'q>(
    sql: &'q str,
    id: &'q str,
    state: &GameState,
    now: i64,
    deadline: Option<i64>,
    seq: u32,
    text: &'q Text,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    let playing = *state.status() == Status::Playing;
    sqlx::query(sql)
        .bind(id)
        .bind(i64::from(state.version()))
        .bind(if playing { Phase::Playing } else { Phase::Over }.as_str())
        .bind(i32::from(state.to_move()))
        .bind(now)
        .bind(deadline)
        .bind(i64::from(seq))
        .bind(text.action.as_str())
        .bind(text.summary_json.as_str())
}

/// A move's Postgres statement from `write`: `quiet`, or `told` with the live change to tell
/// bound as $10 (the channel) and $11 (the payload) when there is one.
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
        Ok((_, Left::Committed)) => tx.committed(),
        Ok((_, Left::Open)) => tx.commit().await?,
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
enum Left {
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
    conn: &mut AnyConnection,
    id: &str,
    expected_version: u32,
    action: &Action,
    lexicon: &L,
    tell: Option<&(&'static str, String)>,
) -> Result<(Committed, Left), GameError> {
    // Each statement is a round trip to the database's thread, and on SQLite the writer lock is
    // held from the first to the last: the BEGIN goes with the first read and the two writes go
    // together. Postgres takes one statement at a time (the writes, and the NOTIFY that tells
    // the players, are one statement), and locks the game's row as it reads it.
    let row = match db.backend {
        Backend::Sqlite => {
            let sql = format!(
                "{}; SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1",
                RawWrite::begin(db.backend)
            );
            row_with(conn, id, &sql).await?
        }
        Backend::Postgres => {
            sqlx::Executor::execute(&mut *conn, RawWrite::begin(db.backend)).await?;
            let sql = format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1 FOR UPDATE");
            row_with(conn, id, &sql).await?
        }
    };
    let moves = Moves::Commit {
        expected_version,
        tell,
    };
    judge_and_write(db, conn, &row, action, lexicon, moves).await
}

/// Resigns `seat` of game `id` inside a write transaction the caller has begun on `conn` and
/// will end: what closing an account does, so that a failure later in the same transaction
/// resigns nothing. Nothing is told or kept in memory; once the caller has committed, it hands
/// the move to the reactions ([`announce`]).
pub(crate) async fn resign_within<L: Lexicon + ?Sized>(
    db: &Database,
    conn: &mut AnyConnection,
    id: &str,
    seat: rules::Seat,
    lexicon: &L,
) -> Result<Committed, GameError> {
    let lock = match db.backend {
        // The caller's BEGIN IMMEDIATE holds the write lock already.
        Backend::Sqlite => "",
        Backend::Postgres => " FOR UPDATE",
    };
    let sql = format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1{lock}");
    let row = row_with(conn, id, &sql).await?;
    let action = Action::Resign { seat };
    let (committed, _) =
        judge_and_write(db, conn, &row, &action, lexicon, Moves::WithinCallers).await?;
    Ok(committed)
}

/// Whose transaction a move is written in, and what it is judged against.
enum Moves<'a> {
    /// A move's own commit: judged against the version the player saw, and on SQLite committed
    /// in the writes' own batch when the game goes on.
    Commit {
        expected_version: u32,
        tell: Option<&'a (&'static str, String)>,
    },
    /// Inside a transaction of the caller's, which ends it: judged against the game as it is.
    WithinCallers,
}

/// Judges `action` on game `row`, read inside the transaction on `conn` with the game held, and
/// writes it there, with the reactions to the game's end when it ends.
async fn judge_and_write<L: Lexicon + ?Sized>(
    db: &Database,
    conn: &mut AnyConnection,
    row: &GameRow,
    action: &Action,
    lexicon: &L,
    moves: Moves<'_>,
) -> Result<(Committed, Left), GameError> {
    let id = row.id.as_str();
    if matches!(row.phase, Phase::Waiting | Phase::Ready | Phase::Cancelled) {
        return Err(GameError::NotStarted);
    }
    let (mut state, log) = state_of(db, conn, row, lexicon).await?;
    let (expected_version, tell, own_commit) = match moves {
        Moves::Commit {
            expected_version,
            tell,
        } => (expected_version, tell, true),
        Moves::WithinCallers => (state.version(), None, false),
    };
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
        &row.config,
        row.opponent,
        row.deadline_at,
        now,
    )?;
    let playing = *state.status() == Status::Playing;
    let text = Text::of(action, &state)?;
    let write = |sql| bind_move(sql, id, &state, now, deadline, seq, &text);
    let commit_now = playing && own_commit;
    let written = match db.backend {
        // One batch, with the COMMIT in it too unless the end of the game is still to be
        // recorded (or the transaction is the caller's). A statement that fails stops the batch
        // before the COMMIT.
        Backend::Sqlite => {
            write(if commit_now { WRITE_AND_COMMIT } else { WRITE })
                .execute(&mut *conn)
                .await
        }
        Backend::Postgres => {
            telling(write, WRITE_PG, WRITE_AND_TELL_PG, tell)
                .execute(&mut *conn)
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
        let seats = super::ended_seats(conn, id).await?;
        let ended = GameEnded {
            game_id: id,
            state: &state,
            seats: &seats,
            rated: row.rated,
            opponent: row.opponent,
            at: now,
        };
        for react in db.on_game_end {
            react(conn, &ended).await?;
        }
    }
    let left = match db.backend {
        Backend::Sqlite if commit_now => Left::Committed,
        _ => Left::Open,
    };
    Ok((
        Committed {
            state,
            summary: text.summary,
            deadline_at: deadline,
            at: now,
        },
        left,
    ))
}
