//! What the database suites share: the databases they run against.
#![allow(dead_code)]

use server::db::Database;

/// Every database the suite runs against: a fresh SQLite file always, and the Postgres server named
/// by `ALFAKRAFT_TEST_POSTGRES_URL` (required under CI). Tests keep to their own rows (random ids,
/// unique names), so they can share the Postgres database.
pub async fn databases() -> Vec<(&'static str, Database, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Database::connect(&format!(
        "sqlite://{}",
        dir.path().join("test.db").display()
    ))
    .await
    .unwrap();
    let mut all = vec![("sqlite", sqlite, Some(dir))];
    match std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        Ok(url) => all.push((
            "postgres",
            Database::connect(&url).await.expect("connect to Postgres"),
            None,
        )),
        Err(_) if std::env::var_os("CI").is_some() => {
            panic!("CI must test Postgres: set ALFAKRAFT_TEST_POSTGRES_URL")
        }
        Err(_) => eprintln!("ALFAKRAFT_TEST_POSTGRES_URL is not set: Postgres skipped in this run"),
    }
    all
}

/// A name no other test run uses.
pub fn unique_name(prefix: &str) -> String {
    format!(
        "{prefix}_{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}
