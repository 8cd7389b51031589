//! The outbox: mail waits here, written in the transaction of what it tells, until the server's
//! mail task (on every instance) leases it, sends it and deletes it. A failure is tried again
//! after doubling waits, up to [`MAX_ATTEMPTS`] tries.

use crate::{
    db::{now_ms, Database},
    queue::Queue,
};

/// Tries before a message is given up.
pub const MAX_ATTEMPTS: i64 = 8;

/// A message waiting in the outbox.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Letter {
    /// Its row.
    pub id: i64,
    /// The address it goes to.
    pub recipient: String,
    /// Its subject line.
    pub subject: String,
    /// Its plain-text body.
    pub body: String,
    /// Tries so far.
    pub attempts: i64,
}

/// Puts a message in the outbox, on `conn` (the caller's transaction, so a message goes out
/// only with what it tells of).
pub async fn enqueue(
    conn: &mut sqlx::AnyConnection,
    recipient: &str,
    subject: &str,
    body: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO outbox (recipient, subject, body, attempts, next_at, created_at)
         VALUES ($1, $2, $3, 0, $4, $4)",
    )
    .bind(recipient)
    .bind(subject)
    .bind(body)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

const QUEUE: Queue = Queue {
    table: "outbox",
    first_wait_ms: 30_000,
    max_attempts: MAX_ATTEMPTS,
};

/// Leases the next message due, if any: no other sender takes it for a minute.
pub async fn next_due(db: &Database) -> Result<Option<Letter>, sqlx::Error> {
    let select = "SELECT id, recipient, subject, body, attempts FROM outbox
         WHERE next_at <= $1 ORDER BY next_at LIMIT 1";
    QUEUE
        .next_due(db, select, |letter: &Letter| letter.id)
        .await
}

/// A message went out, or never can: it leaves the outbox (its body may hold a link).
pub async fn sent(db: &Database, id: i64) -> Result<(), sqlx::Error> {
    QUEUE.done(db, id).await
}

/// A message could not go out: tried again after a doubling wait (30 s, 1 min, 2 min, …), or
/// given up after [`MAX_ATTEMPTS`] tries. Whether it will be tried again.
pub async fn failed(db: &Database, letter: &Letter) -> Result<bool, sqlx::Error> {
    QUEUE.failed(db, letter.id, letter.attempts).await
}
