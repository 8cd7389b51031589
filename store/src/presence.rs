//! Presence: who has a live page open. Stored, so every instance can tell whether a player is
//! away (a Blitz strike) or online (the dot beside a name).

use crate::{
    bus::Change,
    db::{now_ms, placeholders, Database},
};

/// A presence row older than this is a connection that died without saying goodbye.
pub const PRESENCE_FRESH_MS: i64 = 30_000;

/// How often an open connection refreshes its presence row.
pub const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(10);

/// Records open live connection `conn` (from [`new_conn`]) of `user`, for [`refresh`] and [`close`].
pub async fn open(db: &Database, conn: &str, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO presence (conn, user_id, seen_at) VALUES ($1, $2, $3)")
        .bind(conn)
        .bind(user)
        .bind(now_ms())
        .execute(&db.pool)
        .await?;
    db.publish(Change::Presence { user }).await;
    Ok(())
}

/// A new connection's id for [`open`].
pub fn new_conn() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Keeps an open connection's presence fresh.
pub async fn refresh(db: &Database, conn: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE presence SET seen_at = $2 WHERE conn = $1")
        .bind(conn)
        .bind(now_ms())
        .execute(&db.pool)
        .await?;
    Ok(())
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

/// Whether two players share a game that is waiting or under way.
pub async fn share_a_game(db: &Database, a: i64, b: i64) -> Result<bool, sqlx::Error> {
    let shared: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM game_seats x JOIN game_seats y ON y.game_id = x.game_id
         JOIN games g ON g.id = x.game_id
         WHERE x.user_id = $1 AND y.user_id = $2 AND g.status IN ('waiting', 'ready', 'playing')",
    )
    .bind(a)
    .bind(b)
    .fetch_one(&db.pool)
    .await?;
    Ok(shared > 0)
}

/// Deletes the rows of connections that died without closing (a crashed instance).
pub async fn sweep(db: &Database) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM presence WHERE seen_at <= $1")
        .bind(now_ms() - PRESENCE_FRESH_MS)
        .execute(&db.pool)
        .await?
        .rows_affected())
}
