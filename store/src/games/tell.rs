//! Telling the open pages of a game's players that it changed (through [`crate::bus`]), and the
//! move reactions that keep what follows a game as it is: the state in memory and the live
//! pages.

use domain::OpponentKind;
use rules::{Action, Seat};

use crate::{
    bus::{Audience, Change},
    db::Database,
    moved::{MoveMade, Reacting},
};

/// The move's reaction that keeps the game's new state in memory, for the next commit to judge
/// against and the next page to show without replaying the log.
pub fn remember<'a>(db: &'a Database, made: &'a MoveMade<'a>) -> Reacting<'a> {
    db.states.put(made.game_id, made.state.clone());
    Box::pin(std::future::ready(()))
}

/// The move's reaction that tells the open pages: a purchase or a sale only the trader's, any
/// other move every player's (unless its write told them already) and the lobby's watchers' for
/// a lobby game.
pub fn on_move<'a>(db: &'a Database, made: &'a MoveMade<'a>) -> Reacting<'a> {
    Box::pin(async move {
        match (made.action, made.audience) {
            (Action::Buy { seat, .. } | Action::Sell { seat, .. }, _) => {
                tell_seat(db, made.game_id, *seat).await
            }
            (_, Some(audience)) if made.told => {
                if audience.lobby {
                    db.publish(Change::Lobby).await;
                }
            }
            (_, Some(audience)) => tell(db, made.game_id, audience).await,
            (_, None) => tell_players(db, made.game_id).await,
        }
    })
}

/// Tells the player in `seat` of game `id` (and no one else) that it changed.
pub async fn tell_seat(db: &Database, id: &str, seat: Seat) {
    let users = sqlx::query_scalar::<_, i64>(
        "SELECT user_id FROM game_seats WHERE game_id = $1 AND seat = $2 AND user_id IS NOT NULL",
    )
    .bind(id)
    .bind(i64::from(seat))
    .fetch_all(&db.pool)
    .await;
    tell_users(db, id, users).await;
}

/// Publishes a change of game `id` for `users`, as read from the seats.
async fn tell_users(db: &Database, id: &str, users: Result<Vec<i64>, sqlx::Error>) {
    match users {
        Ok(users) => {
            db.publish(Change::Game {
                id: id.to_string(),
                users,
            })
            .await
        }
        Err(error) => tracing::warn!(%error, "could not read a game's players"),
    }
}

/// Tells `audience` that game `id` changed, when the caller already knows who sits in it.
pub async fn tell(db: &Database, id: &str, audience: &Audience) {
    db.publish(audience.change_of(id)).await;
    if audience.lobby {
        db.publish(Change::Lobby).await;
    }
}

/// A seat's user beside its game's kind, as [`tell_players`] reads them.
#[derive(sqlx::FromRow)]
struct SeatAudience {
    user_id: Option<i64>,
    opponent: String,
}

/// Tells the players of game `id` that it changed, and the lobby's watchers when it is a lobby
/// game (opened, taken or withdrawn).
pub async fn tell_players(db: &Database, id: &str) {
    // One read, on every commit: the seats' users and the game's kind.
    let seats = sqlx::query_as::<_, SeatAudience>(
        "SELECT s.user_id, g.opponent FROM games g JOIN game_seats s ON s.game_id = g.id
         WHERE g.id = $1",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await;
    let lobby = seats.as_ref().is_ok_and(|seats| {
        seats
            .iter()
            .any(|s| s.opponent == OpponentKind::Lobby.as_str())
    });
    let users = seats.map(|seats| {
        let mut users: Vec<i64> = seats.into_iter().filter_map(|s| s.user_id).collect();
        users.sort_unstable();
        users.dedup();
        users
    });
    tell_users(db, id, users).await;
    if lobby {
        db.publish(Change::Lobby).await;
    }
}
