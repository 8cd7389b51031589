//! What the mail task reminds players of: a warning when a day is left on a Casual turn (found
//! by [`crate::deadlines`]), and a daily digest of the games waiting for them. Each is claimed in the transaction that puts its
//! letter in the outbox (the seat's warned version, the user's digest day), so however many
//! instances look, a player gets one of each.

use super::outbox::enqueue;
use crate::{
    db::{now_ms, Database},
    deadlines::{self, Channel, TurnEnding},
};

/// A day, in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// Sends the warning `due` calls for by mail, unless another instance did: whether this one
/// did.
pub async fn warn(
    db: &Database,
    due: &TurnEnding,
    subject: &str,
    body: &str,
) -> Result<bool, sqlx::Error> {
    let Some(email) = &due.email else {
        return Ok(false);
    };
    let (_writer, mut tx) = db.begin_write().await?;
    if !deadlines::claim(&mut tx, due, Channel::Mail).await? {
        return Ok(false);
    }
    enqueue(&mut tx, email, subject, body).await?;
    tx.commit().await?;
    Ok(true)
}

/// A player whose digest for today is not out yet.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DigestDue {
    /// The player.
    pub user_id: i64,
    /// Their name.
    pub name: String,
    /// Their verified address.
    pub email: String,
    /// The language they chose, if any.
    pub language: Option<String>,
}

/// Today, as days since the epoch (UTC).
pub fn today() -> i64 {
    now_ms() / DAY_MS
}

/// Players who asked for the digest and have not had today's.
pub async fn digests_due(db: &Database, day: i64) -> Result<Vec<DigestDue>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id AS user_id, name, email, language FROM users
         WHERE mail_digest = 1 AND email IS NOT NULL AND digest_day < $1 ORDER BY id LIMIT 100",
    )
    .bind(day)
    .fetch_all(&db.pool)
    .await
}

/// The games waiting for `user`'s move (not pass-and-play, whose every seat is theirs), the
/// longest waiting first.
pub async fn waiting_for(db: &Database, user: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT g.id FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         WHERE s.user_id = $1 AND g.status = 'playing' AND g.opponent <> 'local'
         ORDER BY g.updated_at LIMIT 50",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await
}

/// Marks `user`'s digest for `day` done, sending `letter` (none when no game waits), unless
/// another instance did: whether this one did.
pub async fn send_digest(
    db: &Database,
    due: &DigestDue,
    day: i64,
    letter: Option<(String, String)>,
) -> Result<bool, sqlx::Error> {
    let (_writer, mut tx) = db.begin_write().await?;
    let claimed = sqlx::query("UPDATE users SET digest_day = $2 WHERE id = $1 AND digest_day < $2")
        .bind(due.user_id)
        .bind(day)
        .execute(&mut *tx)
        .await?;
    if claimed.rows_affected() != 1 {
        return Ok(false);
    }
    if let Some((subject, body)) = letter {
        enqueue(&mut tx, &due.email, &subject, &body).await?;
    }
    tx.commit().await?;
    Ok(true)
}
