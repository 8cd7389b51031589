//! The database: SQLite (the embedded default, a file created on first start, WAL) or Postgres
//! (`DATABASE_URL=postgres://…`), behind one `AnyPool` so every query is written once. Queries use
//! `$1`-style parameters, which both accept.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::{
    any::{install_default_drivers, AnyPoolOptions},
    AnyConnection, AnyPool, Connection, Executor,
};

use crate::{
    bus::{self, Bus, Change},
    ended::Reaction,
    states::States,
    streams::Streams,
};

/// How long a Postgres connection may sit idle before it is pinged on its way out of the pool.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(30);

/// Which database a pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A Postgres server.
    Postgres,
}

impl Backend {
    /// The database `conn` talks to.
    pub fn of(conn: &AnyConnection) -> Backend {
        match conn.backend_name() {
            "PostgreSQL" => Backend::Postgres,
            _ => Backend::Sqlite,
        }
    }
}

/// A connection pool and what it is connected to.
#[derive(Debug, Clone)]
pub struct Database {
    /// The pool.
    pub pool: AnyPool,
    /// The backend.
    pub backend: Backend,
    /// SQLite has one writer at a time: commits queue here, in order, instead of in SQLite's busy
    /// handler, which sleeps in steps of up to 100 ms and made the slowest commits wait for it.
    pub sqlite_writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// This instance's live changes, for the open pages (see [`crate::bus`]).
    pub live: Bus,
    /// Games' states as last committed or loaded here (see [`crate::states`]).
    pub states: States,
    /// The live streams open here, by user, and this instance's name in the presence table (see
    /// [`crate::presence`]).
    pub streams: Streams,
    /// What happens, inside the transaction that records it, when a game ends (see
    /// [`crate::ended`]).
    pub on_game_end: &'static [Reaction],
    /// What happens once a move has been committed (see [`crate::moved`]).
    pub on_move: &'static [crate::moved::Reaction<Database>],
    /// Woken when a bot may have a turn to play (a move in a bot game, a new bot game, a
    /// time-out), so the bots' task answers at once instead of at its next scan.
    pub bot_wakeup: std::sync::Arc<tokio::sync::Notify>,
    /// **Tests only**: the seed every new game gets (`ALFAKRAFT_FIXED_SEED`), for a known deal.
    pub fixed_seed: Option<u64>,
}

impl Database {
    /// Connects (creating a SQLite file if it is missing) and applies every migration not yet
    /// applied; `on_game_end` runs whenever a game ends, `on_move` after every committed move.
    /// [`crate::connect`] passes the store's own reactions.
    pub(crate) async fn connect(
        url: &str,
        on_game_end: &'static [Reaction],
        on_move: &'static [crate::moved::Reaction<Database>],
    ) -> Result<Database, sqlx::Error> {
        install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let mut url = url.to_string();
        if backend == Backend::Sqlite && !url.contains("mode=") {
            url.push_str(if url.contains('?') {
                "&mode=rwc"
            } else {
                "?mode=rwc"
            });
        }
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 8 } else { 16 })
            // sqlx pings every connection it hands out by default: a round trip to the
            // connection's thread (SQLite) or the server (Postgres) before every query batch,
            // several per request. A SQLite connection is a file handle that cannot go stale, so
            // it is never pinged; a Postgres connection is pinged only after it sat idle long
            // enough for the server or a proxy to have dropped it.
            .test_before_acquire(false)
            .before_acquire(move |conn, meta| {
                Box::pin(async move {
                    if backend == Backend::Postgres && meta.idle_for >= STALE_AFTER {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
            })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // Writers wait for each other instead of failing at once. In WAL mode
                        // `synchronous = NORMAL` syncs the log at checkpoints, not at every
                        // commit: a committed move survives the process dying (kill -9, a
                        // panic), and a power loss can take the last moments of commits back but
                        // never leaves the file inconsistent (README, "What a commit
                        // guarantees"). Syncing every commit cost more than the rest of it.
                        conn.execute(
                            "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; \
                             PRAGMA synchronous = NORMAL;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        if backend == Backend::Sqlite {
            // WAL lets readers proceed while a move commits; the setting stays with the file.
            pool.execute("PRAGMA journal_mode = WAL").await?;
        }
        crate::migrations::run(&pool, backend == Backend::Postgres).await?;
        let db = Database {
            pool,
            backend,
            sqlite_writer: Default::default(),
            live: Default::default(),
            states: Default::default(),
            streams: Default::default(),
            on_game_end,
            on_move,
            bot_wakeup: Default::default(),
            fixed_seed: None,
        };
        if backend == Backend::Postgres {
            bus::spawn_listener(&db.live, url);
        }
        Ok(db)
    }

    /// Begins a transaction that writes. On SQLite it is `BEGIN IMMEDIATE` behind this instance's
    /// writer lock (hold the guard as long as the transaction): a deferred transaction that read
    /// before another write committed cannot upgrade to writing, and fails "database is locked"
    /// at once instead of waiting. On Postgres a plain `BEGIN`; no guard.
    pub async fn begin_write(
        &self,
    ) -> Result<
        (
            Option<tokio::sync::OwnedMutexGuard<()>>,
            sqlx::Transaction<'static, sqlx::Any>,
        ),
        sqlx::Error,
    > {
        match self.backend {
            Backend::Sqlite => {
                let writer = self.sqlite_writer.clone().lock_owned().await;
                let tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
                Ok((Some(writer), tx))
            }
            Backend::Postgres => Ok((None, self.pool.begin().await?)),
        }
    }

    /// [`Database::begin_write`], holding player `user` too: on Postgres their row, locked. What
    /// one player may do only so often (chat, reports, devices) is counted and written inside it,
    /// so requests of theirs made at once are counted one after another and never pass a cap
    /// together (SQLite's write lock already orders them).
    pub async fn begin_holding(
        &self,
        user: i64,
    ) -> Result<
        (
            Option<tokio::sync::OwnedMutexGuard<()>>,
            sqlx::Transaction<'static, sqlx::Any>,
        ),
        sqlx::Error,
    > {
        let (writer, mut tx) = self.begin_write().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE")
                .bind(user)
                .fetch_optional(&mut *tx)
                .await?;
        }
        Ok((writer, tx))
    }

    /// A connection of its own (and on SQLite this instance's writer lock) for a write
    /// transaction begun with a plain statement, for the move commit's hot path: the caller sends
    /// [`RawWrite::begin`]'s statement first, alone or at the head of a batch. See [`RawWrite`] for what makes
    /// that safe.
    pub async fn raw_write(&self) -> Result<RawWrite, sqlx::Error> {
        // The writer lock first, then the connection, as `begin_write` takes them. Taken the
        // other way round, commits waiting for the lock held every connection while a write
        // transaction holding it waited for one: all writes stalled until the pool's timeout.
        // This way a commit in the queue holds no connection, which leaves them to readers.
        let writer = match self.backend {
            Backend::Sqlite => Some(self.sqlite_writer.clone().lock_owned().await),
            Backend::Postgres => None,
        };
        let conn = self.pool.acquire().await?;
        Ok(RawWrite {
            conn: Some(conn),
            writer,
        })
    }

    /// Tells every instance's open pages about `change`. A failure is logged, not returned: the
    /// change itself is stored, and pages catch up when they reconnect.
    pub async fn publish(&self, change: Change) {
        match self.backend {
            Backend::Sqlite => self.live.send_here(change),
            Backend::Postgres => {
                let (channel, payload) = bus::notice(&change);
                if let Err(error) = sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(channel)
                    .bind(payload)
                    .execute(&self.pool)
                    .await
                {
                    tracing::warn!(%error, "could not publish a live change");
                }
            }
        }
    }

    /// When this database was created, as recorded by the first migration.
    pub async fn created_at(&self) -> Result<String, sqlx::Error> {
        sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'created_at'")
            .fetch_one(&self.pool)
            .await
    }
}

/// A write transaction begun with a plain `BEGIN` on a pooled connection, which sqlx does not
/// track as a transaction (so that on SQLite the `BEGIN` and the first read, and the last writes,
/// each go to the database's thread in one batch). It ends with [`RawWrite::commit`],
/// [`RawWrite::rollback`] or [`RawWrite::committed`]; whatever else ends it (an error on the way, or its future dropped half-way because the client went away
/// or the server is stopping) rolls it back from a task of its own before the connection and
/// SQLite's writer lock are given back. Without that, the connection would go back to the pool
/// still inside the transaction, holding SQLite's write lock for good.
pub struct RawWrite {
    conn: Option<sqlx::pool::PoolConnection<sqlx::Any>>,
    writer: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl RawWrite {
    /// The statement that begins the transaction. SQLite takes the write lock up front, so a
    /// transaction that has read never fails to upgrade; Postgres locks rows as it goes.
    pub fn begin(backend: Backend) -> &'static str {
        match backend {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }

    /// The connection, inside the transaction once it has begun.
    pub fn conn(&mut self) -> &mut sqlx::pool::PoolConnection<sqlx::Any> {
        self.conn
            .as_mut()
            .expect("the transaction is open until it ends")
    }

    /// Says the transaction was committed by a batch that ended with `COMMIT`: gives the
    /// connection and the lock back.
    pub fn committed(mut self) {
        self.release();
    }

    /// Commits; on an error the transaction is rolled back.
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        self.conn().execute("COMMIT").await?;
        self.release();
        Ok(())
    }

    /// Rolls back.
    pub async fn rollback(mut self) -> Result<(), sqlx::Error> {
        self.conn().execute("ROLLBACK").await?;
        self.release();
        Ok(())
    }

    /// Gives the connection back to the pool, then the writer lock.
    fn release(&mut self) {
        drop(self.conn.take());
        drop(self.writer.take());
    }
}

impl Drop for RawWrite {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        let writer = self.writer.take();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // No runtime left (the process is ending): closing the connection ends the
            // transaction with it.
            return;
        };
        runtime.spawn(async move {
            // Queued after whatever statement was under way; fails harmlessly if the BEGIN
            // itself never ran.
            if let Err(error) = conn.execute("ROLLBACK").await {
                tracing::debug!(%error, "rolling back an abandoned transaction");
            }
            drop(conn);
            drop(writer);
        });
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `$first, $first+1, …`: `count` numbered parameters for an `IN (…)` list. Both dialects number
/// parameters this way.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs each of `statements` on `conn` with `$1` bound to `user`, in order: what a domain
/// forgets of an account that is closing, inside the closing transaction.
pub(crate) async fn forget_user(
    conn: &mut AnyConnection,
    user: i64,
    statements: &[&str],
) -> Result<(), sqlx::Error> {
    for sql in statements {
        sqlx::query(sql).bind(user).execute(&mut *conn).await?;
    }
    Ok(())
}
