//! Profiles, statistics and leaderboards at volume: seeds a fresh database with 10,000 players
//! and 100,000 finished rated games (results, rank history and ranks, rated in order with the
//! real Elo; one player in 2,000 of them), then renders `/u/<name>`, `/u/<name>/statistics` and
//! `/leaderboard` through the whole router and prints their times.
//!
//! `cargo bench -p server --bench rank_pages` (SQLite in a temporary folder), or with
//! `BENCH_DATABASE_URL=postgres://…` on an empty Postgres database.

use std::time::{Duration, Instant};

use axum::{body::Body, http::Request};
use dictionaries::DictionaryId;
use leptos::prelude::LeptosOptions;
use rules::rank::{updated_rank, GameResult, STARTING_RANK};
use server::{router, AppState};
use store::{db::Database, ranks};
use tower::ServiceExt;

const PLAYERS: usize = 10_000;
const GAMES: usize = 100_000;
const CHUNK: usize = 200;

/// A small deterministic generator (xorshift), so every run seeds the same data.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

async fn insert_rows(db: &Database, table: &str, columns: &[&str], rows: &[Vec<Value>]) {
    for chunk in rows.chunks(CHUNK) {
        let width = columns.len();
        let values: Vec<String> = (0..chunk.len())
            .map(|r| {
                let cells: Vec<String> = (0..width)
                    .map(|c| format!("${}", r * width + c + 1))
                    .collect();
                format!("({})", cells.join(", "))
            })
            .collect();
        let sql = format!(
            "INSERT INTO {table} ({}) VALUES {}",
            columns.join(", "),
            values.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for row in chunk {
            for value in row {
                query = match value {
                    Value::Int(i) => query.bind(*i),
                    Value::Text(t) => query.bind(t.clone()),
                    Value::Null => query.bind(None::<i64>),
                };
            }
        }
        query.execute(&db.pool).await.unwrap();
    }
}

/// Finished games and their seats.
async fn insert_games(db: &Database, games: &[Vec<Value>], seats: &[Vec<Value>]) {
    let columns = [
        "id",
        "config",
        "status",
        "to_move",
        "created_at",
        "updated_at",
        "opponent",
    ];
    insert_rows(db, "games", &columns, games).await;
    insert_rows(db, "game_seats", &["game_id", "seat", "user_id"], seats).await;
}

enum Value {
    Int(i64),
    Text(String),
    Null,
}

async fn seed(db: &Database) -> Vec<String> {
    use Value::{Int, Null, Text};
    let now = store::db::now_ms();
    let day = 86_400_000;
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("player_{i:05}")).collect();
    let users: Vec<Vec<Value>> = names
        .iter()
        .map(|n| vec![Text(n.clone()), Text(String::new()), Int(now - 200 * day)])
        .collect();
    insert_rows(
        db,
        "users",
        &["name", "password_hash", "created_at"],
        &users,
    )
    .await;
    let first_id: i64 = sqlx::query_scalar("SELECT MIN(id) FROM users WHERE name LIKE 'player_%'")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    let mut rank = vec![(STARTING_RANK, 0u32, 0i64); PLAYERS];
    let (mut games, mut seats, mut results, mut history) = (vec![], vec![], vec![], vec![]);
    let config = r#"{"variant":{"Classic":null},"dictionary":"en","seed":1,"players":2,"first_seat":0,"format":"Casual"}"#;
    for g in 0..GAMES {
        // A few players play a lot: half the games go to the first 1,000.
        // (Player 0 plays only those below.)
        let pick = |r: &mut Random| {
            if r.below(2) == 0 {
                1 + r.below(999)
            } else {
                1 + r.below(PLAYERS - 1)
            }
        };
        // One player in every fiftieth game: 2,000 games.
        let a = if g % 50 == 0 { 0 } else { pick(&mut random) };
        let mut b = pick(&mut random);
        while b == a {
            b = 1 + random.below(PLAYERS - 1);
        }
        let ended = now - 120 * day + (g as i64) * (120 * day / GAMES as i64);
        let id = format!("bench{g:08}");
        let (score_a, score_b) = (
            200 + random.below(300) as i64,
            200 + random.below(300) as i64,
        );
        let (ra, rb) = (rank[a], rank[b]);
        let result = |mine: i64, theirs: i64| match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => ("win", GameResult::Win),
            std::cmp::Ordering::Less => ("loss", GameResult::Loss),
            std::cmp::Ordering::Equal => ("draw", GameResult::Draw),
        };
        let after_a = updated_rank(ra.0, rb.0, result(score_a, score_b).1, ra.1);
        let after_b = updated_rank(rb.0, ra.0, result(score_b, score_a).1, rb.1);
        games.push(vec![
            Text(id.clone()),
            Text(config.into()),
            Text("over".into()),
            Int(0),
            Int(ended),
            Int(ended),
            Text("invite".into()),
        ]);
        for (seat, (me, other, mine, theirs, before, after)) in [
            (a, b, score_a, score_b, ra, after_a),
            (b, a, score_b, score_a, rb, after_b),
        ]
        .into_iter()
        .enumerate()
        {
            let (user, opponent) = (first_id + me as i64, first_id + other as i64);
            seats.push(vec![Text(id.clone()), Int(seat as i64), Int(user)]);
            let best = 20 + random.below(120) as i64;
            results.push(vec![
                Text(id.clone()),
                Int(user),
                Int(seat as i64),
                Int(opponent),
                Null,
                Text("classic".into()),
                Text("en".into()),
                Text(result(mine, theirs).0.into()),
                Int(mine),
                Int(theirs),
                Int(random.below(3) as i64),
                Text("QUIXOTIC".into()),
                Int(best),
                Int(random.below(20) as i64),
                Int(ended),
            ]);
            history.push(vec![
                Text(id.clone()),
                Int(user),
                Text("en".into()),
                Int(opponent),
                Text(result(mine, theirs).0.into()),
                Int(i64::from(before.0)),
                Int(i64::from(after)),
                Int(ended),
                Int(i64::from(before.1)),
            ]);
            rank[me] = (after, before.1 + 1, ended);
        }
    }
    insert_games(db, &games, &seats).await;
    insert_rows(
        db,
        "game_results",
        &[
            "game_id",
            "user_id",
            "seat",
            "opponent_user",
            "opponent_bot",
            "ruleset",
            "dictionary",
            "result",
            "score",
            "opponent_score",
            "bingos",
            "best_word",
            "best_score",
            "best_turn",
            "ended_at",
        ],
        &results,
    )
    .await;
    insert_rows(
        db,
        "rank_history",
        &[
            "game_id",
            "user_id",
            "dictionary",
            "opponent",
            "result",
            "rank_before",
            "rank_after",
            "at",
            "games_before",
        ],
        &history,
    )
    .await;
    // The statistics the reaction to each game's end would have added up.
    sqlx::query(
        "INSERT INTO player_statistics (user_id, ruleset, dictionary, games, wins, draws, points,
             opponent_points, bingos, exchanges, timeouts, best_play, best_game)
         SELECT user_id, ruleset, dictionary, COUNT(*),
                SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END),
                SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),
                SUM(score), SUM(opponent_score), SUM(bingos), 0, 0,
                COALESCE(MAX(best_score), 0), MAX(score)
         FROM game_results GROUP BY user_id, ruleset, dictionary",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    let ranks: Vec<Vec<Value>> = rank
        .iter()
        .enumerate()
        .filter(|(_, r)| r.1 > 0)
        .map(|(i, r)| {
            vec![
                Int(first_id + i as i64),
                Text("en".into()),
                Int(i64::from(r.0)),
                Int(i64::from(r.1)),
                Int(r.2),
            ]
        })
        .collect();
    insert_rows(
        db,
        "ranks",
        &["user_id", "dictionary", "rank", "games", "updated_at"],
        &ranks,
    )
    .await;
    names
}

fn percentiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} requests)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
        times.len()
    )
}

async fn get(app: &axum::Router, path: &str) -> Duration {
    fetch(app, path).await.0
}

async fn fetch(app: &axum::Router, path: &str) -> (Duration, String) {
    let started = Instant::now();
    let response = app
        .clone()
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        started.elapsed(),
        String::from_utf8_lossy(&body).into_owned(),
    )
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
        let started = Instant::now();
        let names = seed(&db).await;
        println!(
            "seeded {PLAYERS} players and {GAMES} rated games in {:.1} s ({})",
            started.elapsed().as_secs_f64(),
            db_kind(&url)
        );
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../dictionaries");
        let catalog = dictionaries::catalog::Catalog::load(std::path::Path::new(root)).unwrap();
        let library = store::library::Library::open(db.clone(), std::sync::Arc::new(catalog))
            .await
            .unwrap();
        let options = LeptosOptions::builder().output_name("alfakraft").build();
        let app = router(AppState::new(options, db.clone(), library, false));
        let mut random = Random(42);
        for _ in 0..20 {
            get(&app, "/u/player_00000").await;
        }
        let mut profiles = Vec::new();
        for _ in 0..1000 {
            let name = &names[random.below(names.len())];
            profiles.push(get(&app, &format!("/u/{name}")).await);
        }
        println!(
            "profile /u/<name>, random players: {}",
            percentiles(profiles)
        );
        let mut busiest = Vec::new();
        for _ in 0..200 {
            busiest.push(get(&app, "/u/player_00000").await);
        }
        println!(
            "profile of a player with 2,000 games: {}",
            percentiles(busiest)
        );
        let (_, statistics) = fetch(&app, "/u/player_00000/statistics").await;
        let games = statistics
            .split_once("data-stat=\"games\">")
            .and_then(|(_, rest)| rest.split_once("</dd>"))
            .map(|(cell, _)| cell.replace("<!>", "").replace("<!---->", ""));
        assert_eq!(games.as_deref(), Some("2000"), "all 2,000 games counted");
        let compared = ["Compared with", "Nobody near"]
            .iter()
            .find_map(|start| {
                let (_, rest) = statistics.split_once(start)?;
                Some(format!("{start}{}", rest.split_once("</p>")?.0))
            })
            .expect("the comparison's line");
        println!("statistics of the player with 2,000 games: {compared}");
        let mut busiest = Vec::new();
        for _ in 0..500 {
            busiest.push(get(&app, "/u/player_00000/statistics").await);
        }
        println!(
            "statistics of a player with 2,000 games: {}",
            percentiles(busiest)
        );
        let mut pages = Vec::new();
        for _ in 0..1000 {
            let name = &names[random.below(names.len())];
            pages.push(get(&app, &format!("/u/{name}/statistics")).await);
        }
        println!(
            "statistics /u/<name>/statistics, random players: {}",
            percentiles(pages)
        );
        // The pages measured are the real ones: a full board, a profile with its games.
        let (_, board) = fetch(&app, "/leaderboard?d=en").await;
        assert_eq!(board.matches("data-testid=\"standing-").count(), 100);
        let (_, profile) = fetch(&app, "/u/player_00000").await;
        assert_eq!(profile.matches("data-game=").count(), 20);
        let mut boards = Vec::new();
        for _ in 0..500 {
            boards.push(get(&app, "/leaderboard?d=en").await);
        }
        println!("leaderboard top 100: {}", percentiles(boards));
        let mut places = Vec::new();
        let first: i64 = sqlx::query_scalar("SELECT MIN(id) FROM users WHERE name LIKE 'player_%'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
        for _ in 0..1000 {
            let user = first + random.below(PLAYERS) as i64;
            let started = Instant::now();
            ranks::standing_of(
                &db,
                user,
                DictionaryId::English,
                ranks::Qualifying::with_games(ranks::PROVISIONAL_GAMES),
            )
            .await
            .unwrap();
            places.push(started.elapsed());
        }
        println!("a viewer's own place: {}", percentiles(places));

        // One day's Daily Challenge with 10,000 finished attempts.
        let day = rules::daily::Day::parse("2026-11-30").unwrap();
        seed_daily(&db, day, first).await;
        let path = format!("/daily/en?day={day}");
        let (_, board) = fetch(&app, &path).await;
        assert_eq!(board.matches("data-testid=\"daily-standing-").count(), 100);
        let mut boards = Vec::new();
        for _ in 0..500 {
            boards.push(get(&app, &path).await);
        }
        println!("daily standings, 10,000 attempts: {}", percentiles(boards));
        let mut results = Vec::new();
        for _ in 0..1000 {
            let game = format!("daily{:05}", random.below(PLAYERS));
            let started = Instant::now();
            store::daily::result(&db, &game).await.unwrap().unwrap();
            results.push(started.elapsed());
        }
        println!(
            "an attempt's end card (place, best, bot): {}",
            percentiles(results)
        );
    });
}

/// 10,000 finished attempts at the puzzle of `day`, one per player.
async fn seed_daily(db: &Database, day: rules::daily::Day, first_user: i64) {
    use Value::{Int, Text};
    sqlx::query("INSERT INTO daily_puzzles (day, dictionary, version, bot_score) VALUES ($1, 'en', 'en', 400)")
        .bind(day.0)
        .execute(&db.pool)
        .await
        .unwrap();
    let seed = rules::daily::dated_seed(day, "en");
    let config =
        serde_json::to_string(&rules::daily::config(seed, "en", rules::Language::English)).unwrap();
    let mut random = Random(7);
    let start = store::db::now_ms() - 86_400_000;
    let (mut games, mut seats, mut attempts) = (vec![], vec![], vec![]);
    for player in 0..PLAYERS {
        let id = format!("daily{player:05}");
        let finished = start + player as i64 * 5_000;
        games.push(vec![
            Text(id.clone()),
            Text(config.clone()),
            Text("over".into()),
            Int(0),
            Int(start),
            Int(finished),
            Text("daily".into()),
        ]);
        seats.push(vec![
            Text(id.clone()),
            Int(0),
            Int(first_user + player as i64),
        ]);
        attempts.push(vec![
            Int(day.0),
            Text("en".into()),
            Int(first_user + player as i64),
            Text(id),
            Int(start),
            Int(random.below(500) as i64),
            Int(finished),
        ]);
    }
    insert_games(db, &games, &seats).await;
    insert_rows(
        db,
        "daily_attempts",
        &[
            "day",
            "dictionary",
            "user_id",
            "game_id",
            "started_at",
            "score",
            "finished_at",
        ],
        &attempts,
    )
    .await;
}

fn db_kind(url: &str) -> &'static str {
    if url.starts_with("postgres") {
        "Postgres"
    } else {
        "SQLite"
    }
}
