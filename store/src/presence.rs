//! Presence: who has a live page open. Stored, so every instance can tell whether a player is
//! away (a Blitz strike) or online (the dot beside a name).
//!
//! A connection writes its row when it opens and deletes it when it closes; in between, each
//! instance keeps all of its rows fresh with one statement per [`HEARTBEAT`] ([`refresh_instance`]),
//! so 10,000 open pages cost one write every ten seconds, not a thousand a second. The rows of an
//! instance that died age out, and the sweep that deletes them tells the pages that showed them.

use crate::{
    bus::Change,
    db::{now_ms, placeholders, Database},
};

/// A presence row older than this is a connection that died without saying goodbye.
pub const PRESENCE_FRESH_MS: i64 = 30_000;

/// How often an instance refreshes its connections' rows.
pub const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(10);

/// This process's name in the presence table: random at each start.
static INSTANCE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| uuid::Uuid::new_v4().simple().to_string());

/// Records open live connection `conn` (from [`new_conn`]) of `user`, until [`close`].
pub async fn open(db: &Database, conn: &str, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO presence (conn, user_id, seen_at, instance) VALUES ($1, $2, $3, $4)")
        .bind(conn)
        .bind(user)
        .bind(now_ms())
        .bind(&*INSTANCE)
        .execute(&db.pool)
        .await?;
    db.publish(Change::Presence { user }).await;
    Ok(())
}

/// A new connection's id for [`open`].
pub fn new_conn() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Keeps every connection of this instance fresh, in one statement; how many there are.
pub async fn refresh_instance(db: &Database) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("UPDATE presence SET seen_at = $2 WHERE instance = $1")
            .bind(&*INSTANCE)
            .bind(now_ms())
            .execute(&db.pool)
            .await?
            .rows_affected(),
    )
}

/// Forgets a closed connection.
pub async fn close(db: &Database, conn: &str, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM presence WHERE conn = $1")
        .bind(conn)
        .execute(&db.pool)
        .await?;
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
