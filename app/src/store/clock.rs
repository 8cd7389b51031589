//! Clocks: each online game stores when the player to move runs out of time. A background task
//! (on every instance) applies due time-outs through the ordinary commit, which checks the
//! version under the game's lock: however many instances try, and whether the deadline passed
//! while the server ran or while it was down, a time-out is applied exactly once.
//!
//! A friend Blitz match starts from a Ready lobby: when both players are ready a 3-second
//! countdown runs; un-readying or leaving (closing the page) stops it and clears both flags.

use rules::{game::Format, Action, GameConfig, Seat};
use sqlx::Row;

use super::{
    db::{now_ms, Database},
    games::{self, GameError},
    live, Services, StoreError,
};
use crate::domain::{Phase, Refusal};

/// When the player to move in a game starting its turn `now` runs out, or `None` when no clock
/// runs: pass-and-play is played on one device, at the table's own pace, and a Daily Challenge
/// at the player's.
pub fn deadline(config: &GameConfig, opponent: &str, now: i64) -> Option<i64> {
    (!matches!(opponent, "local" | "daily")).then(|| now + config.turn_limit_ms())
}

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

/// Applies every time-out now due; returns those this call applied (another instance may have
/// applied some of the due ones first: those are skipped).
pub async fn expire_due(services: &Services) -> Result<Vec<TimeOut>, StoreError> {
    let db = &services.db;
    let due = sqlx::query(
        "SELECT g.id, g.config, g.version, CAST(g.to_move AS BIGINT), s.user_id FROM games g
         JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         WHERE g.status = 'playing' AND g.deadline_at <= $1 ORDER BY g.deadline_at LIMIT 100",
    )
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    let mut applied = Vec::new();
    for row in due {
        let game_id: String = row.try_get(0)?;
        let config: GameConfig = serde_json::from_str(&row.try_get::<String, _>(1)?)
            .map_err(|e| StoreError::Data(e.to_string()))?;
        let version = u32::try_from(row.try_get::<i64, _>(2)?).unwrap_or(u32::MAX);
        let seat = Seat::try_from(row.try_get::<i64, _>(3)?).unwrap_or(Seat::MAX);
        let user: Option<i64> = row.try_get(4)?;
        // A bot is never away; a person is when no page of theirs is open on any instance.
        let away = match user {
            Some(user) => !live::online(db, user).await?,
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

/// Refuses a second Blitz match: a player has one under way (waiting or playing) at a time.
/// Pass-and-play does not count.
pub async fn check_one_blitz(db: &Database, user_id: i64) -> Result<(), StoreError> {
    let busy = super::seating::my_games(db, user_id)
        .await?
        .iter()
        .any(|g| {
            matches!(g.phase, Phase::Waiting | Phase::Ready | Phase::Playing)
                && g.config.format == Format::Blitz
                && g.opponent != "local"
        });
    if busy {
        return Err(Refusal::BlitzBusy.into());
    }
    Ok(())
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
    let row = super::seating::game(db, game_id).await?;
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
    db.game_changed(game_id).await;
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
    db.game_changed(game_id).await;
    Ok(())
}

/// Starts every Ready-lobby match whose countdown ran out; returns their ids. The update is
/// conditional, so each starts once however many instances try.
pub async fn start_due(db: &Database) -> Result<Vec<String>, StoreError> {
    let now = now_ms();
    let due = sqlx::query(
        "SELECT id, config, opponent FROM games WHERE status = 'ready' AND starts_at <= $1",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut started = Vec::new();
    for row in due {
        let id: String = row.try_get(0)?;
        let config: GameConfig = serde_json::from_str(&row.try_get::<String, _>(1)?)
            .map_err(|e| StoreError::Data(e.to_string()))?;
        let opponent: String = row.try_get(2)?;
        let done = sqlx::query(
            "UPDATE games SET status = 'playing', starts_at = NULL, deadline_at = $3, updated_at = $2
             WHERE id = $1 AND status = 'ready' AND starts_at <= $2",
        )
        .bind(&id)
        .bind(now)
        .bind(deadline(&config, &opponent, now))
        .execute(&db.pool)
        .await?;
        if done.rows_affected() == 1 {
            db.game_changed(&id).await;
            started.push(id);
        }
    }
    Ok(started)
}
