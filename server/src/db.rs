//! The database: connecting, creating the SQLite file on first start, and migrating.

use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

/// Opens the SQLite database at `url` (creating the file if it is missing) and applies every
/// migration not yet applied.
pub async fn connect(url: &str) -> Result<SqlitePool, sqlx::Error> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        // WAL lets readers proceed while a move commits.
        .journal_mode(SqliteJournalMode::Wal)
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new().connect_with(options).await?;
    sqlx::migrate!("../migrations/sqlite").run(&pool).await?;
    Ok(pool)
}

/// When this database was created, as recorded by the first migration.
pub async fn created_at(pool: &SqlitePool) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'created_at'")
        .fetch_one(pool)
        .await
}
