//! Clocks: each online game stores when the player to move runs out of time. A background task
//! (on every instance) applies due time-outs through the ordinary commit, which checks the
//! version under the game's lock: however many instances try, and whether the deadline passed
//! while the server ran or while it was down, a time-out is applied exactly once.
//!
//! A friend Blitz match starts from a Ready lobby: when both players are ready a 3-second
//! countdown runs; un-readying or leaving (closing the page) stops it and clears both flags.

use domain::{OpponentKind, Phase, Refusal};
use rules::{Action, GameConfig, Seat};

use crate::{
    db::{now_ms, Database},
    games::{self, GameError},
    presence,
    rows::Json,
    Services, StoreError,
};

/// A time-out the clock applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeOut {
    /// The game.
    pub game_id: String,
    /// Whose time ran out.
    pub seat: Seat,
    /// Whether they were away (no live page open): a Blitz strike.
    pub away: bool,
}

/// A game whose player to move ran out of time.
#[derive(sqlx::FromRow)]
struct Due {
    id: String,
    config: Json<GameConfig>,
    version: i64,
    to_move: i64,
    user_id: Option<i64>,
}

/// Applies every time-out now due; returns those this call applied (another instance may have
/// applied some of the due ones first: those are skipped).
pub async fn expire_due(services: &Services) -> Result<Vec<TimeOut>, StoreError> {
    let db = &services.db;
    let due: Vec<Due> = sqlx::query_as(
        "SELECT g.id, g.config, g.version, g.to_move, s.user_id FROM games g
         JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         WHERE g.status = 'playing' AND g.deadline_at <= $1 ORDER BY g.deadline_at LIMIT 100",
    )
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    let mut applied = Vec::new();
    for Due {
        id: game_id,
        config: Json(config),
        version,
        to_move,
        user_id,
    } in due
    {
        let version = u32::try_from(version).unwrap_or(u32::MAX);
        let seat = Seat::try_from(to_move).unwrap_or(Seat::MAX);
        // A bot is never away; a person is when no page of theirs is open on any instance.
        let away = match user_id {
            Some(user) => !presence::online(db, user).await?,
            None => false,
        };
        let lexicon = services.game_lexicon(&config).await?;
        let action = Action::TimedOut { seat, away };
        match games::commit(db, &game_id, version, &action, &*lexicon).await {
            Ok(_) => applied.push(TimeOut {
                game_id,
                seat,
                away,
            }),
            // The player moved, or another instance applied it first.
            Err(GameError::MovedOn { .. }) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(applied)
}

/// The Ready lobby's countdown, from both ready to the first move.
pub const COUNTDOWN_MS: i64 = 3_000;

/// Sets the caller's Ready flag in a Ready lobby. When both are ready the countdown starts (the
/// match then starts after [`COUNTDOWN_MS`]); un-readying clears both flags and stops it.
pub async fn set_ready(
    db: &Database,
    game_id: &str,
    seat: Seat,
    ready: bool,
) -> Result<(), StoreError> {
    let row = games::row(db, game_id).await?;
    if row.phase != Phase::Ready {
        return Err(Refusal::Invalid("this match is not waiting for Ready".into()).into());
    }
    if !ready {
        return stop_countdown(db, game_id).await;
    }
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query("UPDATE game_seats SET ready = 1 WHERE game_id = $1 AND seat = $2")
        .bind(game_id)
        .bind(i64::from(seat))
        .execute(&mut *tx)
        .await?;
    let waiting: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM game_seats WHERE game_id = $1 AND ready = 0")
            .bind(game_id)
            .fetch_one(&mut *tx)
            .await?;
    let starts_at = now_ms() + COUNTDOWN_MS;
    let counting = waiting == 0
        && sqlx::query(
            "UPDATE games SET starts_at = $2 WHERE id = $1 AND status = 'ready' AND starts_at IS NULL",
        )
        .bind(game_id)
        .bind(starts_at)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
    tx.commit().await?;
    games::tell_players(db, game_id).await;
    if counting {
        // Start on the dot; the clock task's sweep is the fallback if this instance stops.
        let db = db.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(COUNTDOWN_MS as u64)).await;
            if let Err(error) = start_due(&db).await {
                tracing::warn!(%error, "starting a Blitz match failed");
            }
        });
    }
    Ok(())
}

/// Stops a Ready lobby's countdown and clears both flags (someone un-readied or left).
pub async fn stop_countdown(db: &Database, game_id: &str) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let lobby = sqlx::query("UPDATE games SET starts_at = NULL WHERE id = $1 AND status = 'ready'")
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    if lobby.rows_affected() == 0 {
        return Ok(());
    }
    sqlx::query("UPDATE game_seats SET ready = 0 WHERE game_id = $1")
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    games::tell_players(db, game_id).await;
    Ok(())
}

/// A Ready-lobby match whose countdown ran out.
#[derive(sqlx::FromRow)]
struct Starting {
    id: String,
    config: Json<GameConfig>,
    opponent: String,
}

/// Starts every Ready-lobby match whose countdown ran out; returns their ids. The update is
/// conditional, so each starts once however many instances try.
pub async fn start_due(db: &Database) -> Result<Vec<String>, StoreError> {
    let now = now_ms();
    let due: Vec<Starting> = sqlx::query_as(
        "SELECT id, config, opponent FROM games WHERE status = 'ready' AND starts_at <= $1",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut started = Vec::new();
    for Starting {
        id,
        config: Json(config),
        opponent,
    } in due
    {
        let opponent = OpponentKind::parse(&opponent)
            .ok_or_else(|| StoreError::Data(format!("opponent {opponent}")))?;
        let done = sqlx::query(
            "UPDATE games SET status = 'playing', starts_at = NULL, deadline_at = $3, updated_at = $2
             WHERE id = $1 AND status = 'ready' AND starts_at <= $2",
        )
        .bind(&id)
        .bind(now)
        .bind(games::deadline(&config, opponent, now))
        .execute(&db.pool)
        .await?;
        if done.rows_affected() == 1 {
            games::tell_players(db, &id).await;
            started.push(id);
        }
    }
    Ok(started)
}
