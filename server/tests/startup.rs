//! The server against a real SQLite file: created on first start, migrated, and reported healthy.

use axum::{body::Body, http::Request};
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use server::{router, AppState};
use tower::ServiceExt;

mod support;

async fn get_with_headers(app: axum::Router, uri: &str) -> (u16, axum::http::HeaderMap, Vec<u8>) {
    let response = app
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, body.to_vec())
}

async fn app_with_fresh_database(dir: &tempfile::TempDir) -> (axum::Router, std::path::PathBuf) {
    let file = dir.path().join("alfakraft.db");
    let pool = store::connect(&format!("sqlite://{}", file.display()))
        .await
        .expect("open database");
    let leptos_options = LeptosOptions::builder().output_name("alfakraft").build();
    let library = support::library(&pool).await;
    (
        router(AppState::new(leptos_options, pool, library, false)),
        file,
    )
}

async fn get(app: axum::Router, uri: &str) -> (u16, String) {
    let response = app
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

async fn first_start_creates_the_sqlite_file_and_healthz_reports_the_version_body() {
    let dir = tempfile::tempdir().unwrap();
    let (app, file) = app_with_fresh_database(&dir).await;
    assert!(file.exists(), "the database file is created on first start");

    let (status, body) = get(app, "/healthz").await;
    assert_eq!(status, 200);
    let health: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    assert!(health["database_created_at"]
        .as_str()
        .is_some_and(|at| at.ends_with('Z')));
}

async fn a_second_start_keeps_the_database_body() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _) = app_with_fresh_database(&dir).await;
    let (_, first) = get(app, "/healthz").await;
    // Opening again runs the migrations again: they must be recognised as applied, and the data kept.
    let (app, _) = app_with_fresh_database(&dir).await;
    let (status, second) = get(app, "/healthz").await;
    assert_eq!(status, 200);
    let created = |body: &str| {
        serde_json::from_str::<serde_json::Value>(body).unwrap()["database_created_at"].clone()
    };
    assert_eq!(created(&first), created(&second));
}

async fn the_start_page_is_rendered_on_the_server_body() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _) = app_with_fresh_database(&dir).await;
    let (status, body) = get(app, "/").await;
    assert_eq!(status, 200);
    // `<!>` marks where hydration finds a text node's end (Leptos' erased components write them).
    assert!(
        body.replace("<!>", "").contains("<h1>Alfa Kraft</h1>"),
        "{body}"
    );
    assert!(
        body.contains("/pkg/alfakraft_bg.wasm"),
        "the page loads the bundle to hydrate"
    );
}

async fn an_unknown_path_is_a_404_page_body() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _) = app_with_fresh_database(&dir).await;
    let (status, body) = get(app, "/no/such/page").await;
    assert_eq!(status, 404);
    assert!(body.contains("Page not found"));
}

async fn dictionaries_are_served_at_content_hashed_urls_with_long_cache_headers_body() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _) = app_with_fresh_database(&dir).await;
    let catalog = support::catalog();
    let en = catalog.get(dictionaries::DictionaryId::English).unwrap();
    let (status, headers, body) = get_with_headers(app.clone(), &en.url).await;
    assert_eq!(status, 200);
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(body.len() as u64, en.entry.fst_bytes);
    let (status, _, _) = get_with_headers(app, "/dict/en.0123456789abcdef.fst").await;
    assert_eq!(status, 404, "a stale or made-up hash is not served");
}

async fn the_make_admin_command_promotes_an_existing_account_body() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("alfakraft.db").display());
    let db = store::connect(&url).await.unwrap();
    store::accounts::sign_up(&db, "first_admin", "a good password")
        .await
        .unwrap();
    let run = |name: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_alfakraft"))
            .args([
                "--data-dir",
                dir.path().to_str().unwrap(),
                "--log",
                "warn",
                "make-admin",
                name,
            ])
            .output()
            .unwrap()
    };
    let promoted = run("first_admin");
    assert!(
        promoted.status.success(),
        "{}",
        String::from_utf8_lossy(&promoted.stderr)
    );
    let user = store::accounts::sign_in(&db, "first_admin", "a good password")
        .await
        .unwrap();
    assert_eq!(user.role, store::accounts::Role::Admin);
    let missing = run("nobody_at_all");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("there is no account called nobody_at_all"));
}

/// One runtime for every test here: Leptos spawns rendering work on the runtime it runs in, and a
/// test's own runtime dropped while another test's page still waits on such work hung about one
/// run in a hundred.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    })
}

#[test]
fn first_start_creates_the_sqlite_file_and_healthz_reports_the_version() {
    runtime().block_on(first_start_creates_the_sqlite_file_and_healthz_reports_the_version_body());
}

#[test]
fn a_second_start_keeps_the_database() {
    runtime().block_on(a_second_start_keeps_the_database_body());
}

#[test]
fn the_start_page_is_rendered_on_the_server() {
    runtime().block_on(the_start_page_is_rendered_on_the_server_body());
}

#[test]
fn an_unknown_path_is_a_404_page() {
    runtime().block_on(an_unknown_path_is_a_404_page_body());
}

#[test]
fn dictionaries_are_served_at_content_hashed_urls_with_long_cache_headers() {
    runtime()
        .block_on(dictionaries_are_served_at_content_hashed_urls_with_long_cache_headers_body());
}

#[test]
fn the_make_admin_command_promotes_an_existing_account() {
    runtime().block_on(the_make_admin_command_promotes_an_existing_account_body());
}

/// The checksum sqlx keeps of a migration, as hex.
async fn checksum(db: &store::db::Database, version: i64) -> String {
    let bytes: Vec<u8> =
        sqlx::query_scalar("SELECT checksum FROM _sqlx_migrations WHERE version = $1")
            .bind(version)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn set_checksum(db: &store::db::Database, version: i64, hex: &str) {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    sqlx::query("UPDATE _sqlx_migrations SET checksum = $1 WHERE version = $2")
        .bind(bytes)
        .bind(version)
        .execute(&db.pool)
        .await
        .unwrap();
}

/// What databases applied of migration 9 before its comment was reworded.
const RANKS_BEFORE: &str = "341d112c083ac60ee15837494eeb0b1121be64b2529c2d8e1d76afcc010c4496533711e1415f0a4864e2fcd1e7a36404";

/// The same, of the text now.
const NOW_RANKS: &str = "7a491970dbdd29060249432574bdcb3ecfdff88627ae93c892271c8d79a453dff44c3c89f548f3d5134efb98ba61b695";

async fn a_database_migrated_before_a_comment_was_reworded_still_opens_body() {
    let mut urls = vec![];
    let dir = tempfile::tempdir().unwrap();
    urls.push(format!("sqlite://{}", dir.path().join("old.db").display()));
    if let Ok(url) = std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        urls.push(url);
    }
    for url in &urls {
        let db = store::connect(url).await.unwrap();
        let now = checksum(&db, 9).await;
        assert_ne!(now, RANKS_BEFORE, "{url}: the text was reworded");
        // sqlx's checksum is the SHA-384 of the file's text, as the old one was taken.
        assert_eq!(now, NOW_RANKS, "{url}");
        // As a database that applied the old text has it: it opens, and keeps the new checksum.
        set_checksum(&db, 9, RANKS_BEFORE).await;
        let again = store::connect(url)
            .await
            .expect("a reworded migration is accepted");
        assert_eq!(checksum(&again, 9).await, now, "{url}");
        if url.starts_with("sqlite") {
            // Any other change to an applied migration is still refused (only on the test's own
            // file: the Postgres database is shared with tests running beside this one).
            set_checksum(&db, 9, &"00".repeat(48)).await;
            let changed = store::connect(url).await;
            assert!(
                changed.as_ref().is_err_and(|e| e.to_string().contains("9")),
                "{url}: {:?}",
                changed.err()
            );
        }
    }
}

#[test]
fn a_database_migrated_before_a_comment_was_reworded_still_opens() {
    runtime().block_on(a_database_migrated_before_a_comment_was_reworded_still_opens_body());
}
