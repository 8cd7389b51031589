//! A table of work the background tasks of every instance share (the mail `outbox`, the
//! `push_outbox`): each row is due at its `next_at`; a sender leases one (no other takes it for a
//! minute), deletes it once done, or on failure makes it due again after a doubling wait until
//! it has had its tries.

use crate::db::{now_ms, Database};

/// How long a sender holds a row before another may take it.
const LEASE_MS: i64 = 60_000;

/// A queue table and its retry policy.
pub(crate) struct Queue {
    /// The table: `id`, `attempts`, `next_at` columns.
    pub table: &'static str,
    /// The wait after the first failure, doubled after each next one.
    pub first_wait_ms: i64,
    /// Tries before a row is given up.
    pub max_attempts: i64,
}

impl Queue {
    /// Leases the first row `select` reads (given `$1`, now: the rows due, the earliest first),
    /// unless another sender took it meanwhile.
    pub async fn next_due<T>(
        &self,
        db: &Database,
        select: &str,
        id: impl Fn(&T) -> i64,
    ) -> Result<Option<T>, sqlx::Error>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        let now = now_ms();
        let (_writer, mut tx) = db.begin_write().await?;
        let row: Option<T> = sqlx::query_as(select)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
        if let Some(row) = &row {
            let lease = format!(
                "UPDATE {} SET next_at = $2 WHERE id = $1 AND next_at <= $3",
                self.table
            );
            let leased = sqlx::query(&lease)
                .bind(id(row))
                .bind(now + LEASE_MS)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            if leased.rows_affected() != 1 {
                return Ok(None);
            }
        }
        tx.commit().await?;
        Ok(row)
    }

    /// Row `id` is done (or never can be): it leaves the table.
    pub async fn done(&self, db: &Database, id: i64) -> Result<(), sqlx::Error> {
        sqlx::query(&format!("DELETE FROM {} WHERE id = $1", self.table))
            .bind(id)
            .execute(&db.pool)
            .await?;
        Ok(())
    }

    /// Row `id`, tried `attempts` times before, failed again: due again after the doubling
    /// wait, or given up. Whether it will be tried again.
    pub async fn failed(&self, db: &Database, id: i64, attempts: i64) -> Result<bool, sqlx::Error> {
        let attempts = attempts + 1;
        if attempts >= self.max_attempts {
            self.done(db, id).await?;
            return Ok(false);
        }
        let wait = self.first_wait_ms << (attempts - 1).min(20);
        let retry = format!(
            "UPDATE {} SET attempts = $2, next_at = $3 WHERE id = $1",
            self.table
        );
        sqlx::query(&retry)
            .bind(id)
            .bind(attempts)
            .bind(now_ms() + wait)
            .execute(&db.pool)
            .await?;
        Ok(true)
    }
}
