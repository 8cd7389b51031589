//! Clocks: each online game stores when the player to move runs out of time. A background task
//! (on every instance) applies due time-outs through the ordinary commit, which checks the
//! version under the game's lock: however many instances try, and whether the deadline passed
//! while the server ran or while it was down, a time-out is applied exactly once.

use rules::{game::Format, Action, GameConfig, Seat};
use sqlx::Row;

use super::{
    db::{now_ms, Database},
    games::{self, GameError},
    live, Services, StoreError,
};
use crate::api::{Phase, Refusal};

/// When the player to move in a game starting its turn `now` runs out, or `None` when no clock
/// runs: pass-and-play is played on one device, at the table's own pace.
pub fn deadline(config: &GameConfig, opponent: &str, now: i64) -> Option<i64> {
    (opponent != "local").then(|| now + config.turn_limit_ms())
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
        let lexicon = services.game_lexicon(&config)?;
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
            matches!(g.phase, Phase::Waiting | Phase::Playing)
                && g.config.format == Format::Blitz
                && g.opponent != "local"
        });
    if busy {
        return Err(Refusal::BlitzBusy.into());
    }
    Ok(())
}
