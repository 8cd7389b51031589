//! Presence: who has a live page open. Stored, so every instance can tell whether a player is
//! away (a Blitz strike) or online (the dot beside a name).
//!
//! An instance keeps one row per player with a page open on it, not one per page: it counts each
//! player's open streams in memory ([`crate::streams`]) and writes only the first one's opening
//! and the last one's closing, and that only once [`GRACE`] has passed with none open, so a page
//! that reloads or moves to another page (closing its stream, then opening the next) writes
//! nothing.
//! In between, each instance keeps all of its rows fresh with one statement per [`HEARTBEAT`]
//! ([`refresh_instance`]): 10,000 open pages cost one write every ten seconds. The rows of an
//! instance that died age out, and the sweep that deletes them tells the pages that showed them.

use std::time::Duration;

use crate::{
    bus::Change,
    db::{now_ms, placeholders, Database},
    streams::Count,
};

/// A presence row older than this is a connection that died without saying goodbye.
pub const PRESENCE_FRESH_MS: i64 = 30_000;

/// How often an instance refreshes its connections' rows.
pub const HEARTBEAT: Duration = Duration::from_secs(10);

/// How long a player whose last page here closed still counts as here: long enough for a page
/// to reload or open the next one.
pub const GRACE: Duration = Duration::from_secs(3);

/// Counts a new live stream of `user`; the first one on this instance writes the player's row
/// and tells the pages that show them. Until [`close`].
pub async fn open(db: &Database, user: i64) -> Result<(), sqlx::Error> {
    // Held across the write: a closing of the same player waits for it, so the row and the count
    // agree.
    let mut streams = db.streams.by_user.lock().await;
    if let Some(here) = streams.get_mut(&user) {
        here.open += 1;
        here.openings += 1;
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO presence (conn, user_id, seen_at, instance) VALUES ($1, $2, $3, $4)
         ON CONFLICT (conn) DO UPDATE SET seen_at = $3",
    )
    .bind(db.streams.row(user))
    .bind(user)
    .bind(now_ms())
    .bind(&*db.streams.instance)
    .execute(&db.pool)
    .await?;
    streams.insert(
        user,
        Count {
            open: 1,
            openings: 1,
        },
    );
    drop(streams);
    db.publish(Change::Presence { user }).await;
    Ok(())
}

/// Keeps every row of this instance fresh, in one statement; how many there are.
pub async fn refresh_instance(db: &Database) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("UPDATE presence SET seen_at = $2 WHERE instance = $1")
            .bind(&*db.streams.instance)
            .bind(now_ms())
            .execute(&db.pool)
            .await?
            .rows_affected(),
    )
}

/// Counts a closed stream of `user`. When it was their last here and no other opens within
/// `grace` ([`GRACE`], or none when the instance is stopping), their row goes and the pages that
/// show them are told. Returns once that is settled.
pub async fn close(db: &Database, user: i64, grace: Duration) -> Result<(), sqlx::Error> {
    let openings = {
        let mut streams = db.streams.by_user.lock().await;
        let Some(here) = streams.get_mut(&user) else {
            return Ok(());
        };
        here.open = here.open.saturating_sub(1);
        if here.open > 0 {
            return Ok(());
        }
        here.openings
    };
    tokio::time::sleep(grace).await;
    let mut streams = db.streams.by_user.lock().await;
    if !streams
        .get(&user)
        .is_some_and(|here| here.open == 0 && here.openings == openings)
    {
        return Ok(());
    }
    sqlx::query("DELETE FROM presence WHERE conn = $1")
        .bind(db.streams.row(user))
        .execute(&db.pool)
        .await?;
    streams.remove(&user);
    drop(streams);
    db.publish(Change::Presence { user }).await;
    Ok(())
}

/// Whether `user` has a live page open on any instance.
pub async fn online(db: &Database, user: i64) -> Result<bool, sqlx::Error> {
    Ok(online_among(db, &[user]).await?.contains(&user))
}

/// Which of `users` have a live page open on any instance: one query, however many are asked
/// about (a game's seats, or everyone in a player's game list).
pub async fn online_among(
    db: &Database,
    users: &[i64],
) -> Result<std::collections::HashSet<i64>, sqlx::Error> {
    if users.is_empty() {
        return Ok(Default::default());
    }
    let sql = format!(
        "SELECT DISTINCT user_id FROM presence WHERE seen_at > $1 AND user_id IN ({})",
        placeholders(2, users.len())
    );
    let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(now_ms() - PRESENCE_FRESH_MS);
    for user in users {
        query = query.bind(*user);
    }
    Ok(query.fetch_all(&db.pool).await?.into_iter().collect())
}

/// The people `user` shares a game waiting or under way with: whose presence their game list
/// shows.
pub async fn peers(db: &Database, user: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT DISTINCT y.user_id FROM game_seats x JOIN game_seats y ON y.game_id = x.game_id
         JOIN games g ON g.id = x.game_id
         WHERE x.user_id = $1 AND y.user_id IS NOT NULL AND y.user_id <> $1
           AND g.status IN ('waiting', 'ready', 'playing')",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await
}

/// Deletes the rows of connections that died without closing (a crashed instance), and tells
/// the pages that showed those players; how many rows went.
pub async fn sweep(db: &Database) -> Result<u64, sqlx::Error> {
    let mut gone: Vec<i64> =
        sqlx::query_scalar("DELETE FROM presence WHERE seen_at <= $1 RETURNING user_id")
            .bind(now_ms() - PRESENCE_FRESH_MS)
            .fetch_all(&db.pool)
            .await?;
    let rows = gone.len() as u64;
    gone.sort_unstable();
    gone.dedup();
    for user in gone {
        db.publish(Change::Presence { user }).await;
    }
    Ok(rows)
}

/// Forgets that `user` has pages open (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(conn, user, &["DELETE FROM presence WHERE user_id = $1"]).await
}
