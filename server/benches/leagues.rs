//! Leagues at volume: a 16-player division's page (`/leagues/<id>`, through the whole router)
//! after each of its 240 games, each ended through the real commit with its standings reaction;
//! then a season's rollover at 10,000 players: the season's start (divisions and every game),
//! its finish (places, movements, the next season) and the next season's start.
//!
//! `cargo bench -p server --bench leagues` (SQLite in a temporary folder), or with
//! `BENCH_DATABASE_URL=postgres://…` on an empty Postgres database.

use std::time::{Duration, Instant};

use axum::{body::Body, http::Request};
use dictionaries::DictionaryId;
use leptos::prelude::LeptosOptions;
use rules::{Action, Variant};
use server::{router, AppState};
use store::{db::Database, games, leagues};
use tower::ServiceExt;

const DIVISION: usize = 16;
const SEASON: usize = 10_000;

fn percentiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} times)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
        times.len()
    )
}

async fn get(app: &axum::Router, path: &str) -> Duration {
    let started = Instant::now();
    let response = app
        .clone()
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    started.elapsed()
}

/// `count` players named `<prefix>_<n>`, registered for `season` (rows written directly: the
/// bench measures the season, not sign-ups).
async fn players(db: &Database, prefix: &str, count: usize, season: &str) -> Vec<i64> {
    let now = store::db::now_ms();
    let mut ids = Vec::with_capacity(count);
    for chunk in (0..count).collect::<Vec<_>>().chunks(500) {
        let mut tx = db.pool.begin().await.unwrap();
        for i in chunk {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO users (name, password_hash, created_at) VALUES ($1, '', $2) RETURNING id",
            )
            .bind(format!("{prefix}_{i:05}"))
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
            ids.push(id);
        }
        tx.commit().await.unwrap();
    }
    register(db, &ids, season).await;
    ids
}

async fn register(db: &Database, users: &[i64], season: &str) {
    for chunk in users.chunks(500) {
        let mut tx = db.pool.begin().await.unwrap();
        for user in chunk {
            sqlx::query("INSERT INTO league_entries (season_id, user_id) VALUES ($1, $2)")
                .bind(season)
                .bind(*user)
                .execute(&mut *tx)
                .await
                .unwrap();
        }
        tx.commit().await.unwrap();
    }
}

async fn league(db: &Database, name: &str) -> (String, String) {
    let id = leagues::create(db, name, Variant::Classic, DictionaryId::English, 0)
        .await
        .unwrap();
    let season = leagues::cards(db, Some(&id), None).await.unwrap()[0]
        .season
        .id
        .clone();
    (id, season)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let url = std::env::var("BENCH_DATABASE_URL")
            .unwrap_or_else(|_| format!("sqlite://{}", dir.path().join("bench.db").display()));
        let db = store::connect(&url).await.unwrap();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../dictionaries");
        let catalog = dictionaries::catalog::Catalog::load(std::path::Path::new(root)).unwrap();
        let library = store::library::Library::open(db.clone(), std::sync::Arc::new(catalog))
            .await
            .unwrap();
        let options = LeptosOptions::builder().output_name("alfakraft").build();
        let app = router(AppState::new(options, db.clone(), library, false));
        let lexicon =
            dictionaries::FstLexicon::read(&DictionaryId::English.committed_fst()).unwrap();

        // A division of 16: every game ended in turn, the league's page read after each.
        let (id, season) = league(&db, "Division").await;
        players(&db, "div", DIVISION, &season).await;
        let made = leagues::start(&db, &season).await.unwrap();
        assert_eq!(made.len(), DIVISION * (DIVISION - 1));
        let path = format!("/leagues/{id}");
        let (mut commits, mut pages) = (Vec::new(), Vec::new());
        for game in &made {
            let state = games::load(&db, game, &lexicon).await.unwrap();
            let resign = Action::Resign {
                seat: state.to_move(),
            };
            let started = Instant::now();
            games::commit(&db, game, state.version(), &resign, &lexicon)
                .await
                .unwrap();
            commits.push(started.elapsed());
            pages.push(get(&app, &path).await);
        }
        let standings = leagues::standings(&db, &season).await.unwrap();
        assert_eq!(
            standings.iter().map(|s| s.played).sum::<i64>(),
            2 * made.len() as i64
        );
        println!("a game's end with its standings: {}", percentiles(commits));
        println!(
            "the division's page after each game: {}",
            percentiles(pages)
        );

        // A season of 10,000.
        let (_, season) = league(&db, "Season").await;
        let everyone = players(&db, "season", SEASON, &season).await;
        let started = Instant::now();
        let made = leagues::start(&db, &season).await.unwrap();
        println!(
            "a season's start, {SEASON} players: {:.1} s ({} games)",
            started.elapsed().as_secs_f64(),
            made.len()
        );
        sqlx::query(
            "UPDATE games SET status = 'over'
             WHERE id IN (SELECT game_id FROM league_games WHERE season_id = $1)",
        )
        .bind(&season)
        .execute(&db.pool)
        .await
        .unwrap();
        let started = Instant::now();
        let next = leagues::finish(&db, &season).await.unwrap().unwrap();
        println!(
            "its finish (places, movements, the next season): {:.2} s",
            started.elapsed().as_secs_f64()
        );
        register(&db, &everyone, &next).await;
        let started = Instant::now();
        leagues::start(&db, &next).await.unwrap();
        println!(
            "the next season's start by the movements: {:.1} s",
            started.elapsed().as_secs_f64()
        );
    });
}
