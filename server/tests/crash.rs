//! A server killed (SIGKILL) while players commit moves restarts with every game consistent: each
//! stored log replays, its sequence has no gap, and the game row agrees with the fold.

mod support;

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use rules::{GameState, PlayerView, RuleSet, Variant};
use serde_json::{json, Value};
use server::{client::ApiClient, db::Database, games};
use sqlx::Row;

fn trie() -> &'static engine::trie::Trie {
    static TRIE: std::sync::OnceLock<engine::trie::Trie> = std::sync::OnceLock::new();
    TRIE.get_or_init(|| {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dictionaries/fst/en.fst");
        let lexicon = dictionaries::FstLexicon::read(&dir).unwrap();
        let rules = RuleSet::new(Variant::Classic);
        engine::trie::Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles)
    })
}

fn lexicon() -> &'static dictionaries::FstLexicon {
    static LEXICON: std::sync::OnceLock<dictionaries::FstLexicon> = std::sync::OnceLock::new();
    LEXICON.get_or_init(|| {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dictionaries/fst/en.fst");
        dictionaries::FstLexicon::read(&dir).unwrap()
    })
}

/// Plays pass-and-play Classic games through the API until the server goes away; returns the
/// ids of every game it touched.
async fn player(base: String, commits: Arc<AtomicU64>, stop: Arc<AtomicBool>) -> Vec<String> {
    let mut client = ApiClient::new(&base);
    let name = support::unique_name("crash");
    let Ok((200, _)) = client
        .form(
            "/api/account/sign-up",
            &[("name", &name), ("password", "a good password")],
        )
        .await
    else {
        return Vec::new();
    };
    let mut ids = Vec::new();
    let mut seed = 1;
    'games: while !stop.load(Ordering::Relaxed) {
        let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
            "opponent": { "PassAndPlay": { "players": 2 } } } });
        let Ok((200, body)) = client.json("/api/games/create", &new).await else {
            break;
        };
        let created: Value = serde_json::from_str(&body).unwrap();
        let id = created["Ok"]["id"].as_str().unwrap().to_string();
        ids.push(id.clone());
        loop {
            let Ok((200, body)) = client.json("/api/games/get", &json!({ "id": id })).await else {
                break 'games;
            };
            let page: Value = serde_json::from_str(&body).unwrap();
            if page["Ok"]["card"]["phase"] != "Playing" {
                continue 'games;
            }
            let view: PlayerView = serde_json::from_value(page["Ok"]["view"].clone()).unwrap();
            let rules = view.rules();
            seed += 1;
            let action = engine::bot::Bot::new(engine::bot::Level::Beginner, trie(), &rules, seed)
                .decide(&view);
            let args = json!({ "id": id, "expected_version": view.version, "action": action });
            match client.json("/api/games/act", &args).await {
                Ok((200, _)) => {
                    commits.fetch_add(1, Ordering::Relaxed);
                }
                _ => break 'games,
            }
        }
    }
    ids
}

async fn check_consistent(db: &Database, ids: &[String]) -> usize {
    let mut actions = 0;
    for id in ids {
        let row = sqlx::query("SELECT version, status FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        let version: i64 = row.try_get(0).unwrap();
        let status: String = row.try_get(1).unwrap();
        let seqs: Vec<i64> =
            sqlx::query_scalar("SELECT seq FROM game_actions WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&db.pool)
                .await
                .unwrap();
        assert_eq!(
            seqs,
            (0..seqs.len() as i64).collect::<Vec<_>>(),
            "{id}: no gaps"
        );
        assert_eq!(version, seqs.len() as i64, "{id}: the row counts its log");
        let state: GameState = games::load(db, id, lexicon())
            .await
            .unwrap_or_else(|e| panic!("{id} replays: {e}"));
        assert_eq!(i64::from(state.version()), version);
        let playing = *state.status() == rules::Status::Playing;
        assert_eq!(
            status == "playing",
            playing,
            "{id}: status agrees with the fold"
        );
        actions += seqs.len();
    }
    actions
}

fn kill_mid_commit(database_url: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut child, base) = support::spawn_server(dir.path(), database_url);
    let commits = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let ids: Vec<String> = runtime.block_on(async {
        trie();
        let players: Vec<_> = (0..8)
            .map(|_| tokio::spawn(player(base.clone(), commits.clone(), stop.clone())))
            .collect();
        // Let commits flow, then kill the server without warning while they do.
        while commits.load(Ordering::Relaxed) < 100 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        child.kill().unwrap();
        child.wait().unwrap();
        stop.store(true, Ordering::Relaxed);
        let mut ids = Vec::new();
        for player in players {
            ids.extend(player.await.unwrap());
        }
        ids
    });
    assert!(!ids.is_empty());
    let (mut restarted, base) = support::spawn_server(dir.path(), database_url);
    let url = database_url
        .map(str::to_string)
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("alfakraft.db").display()));
    runtime.block_on(async {
        let mut client = ApiClient::new(&base);
        let (status, _) = client.get("/healthz").await.unwrap();
        assert_eq!(status, 200, "the restarted server is healthy");
        let db = Database::connect(&url).await.unwrap();
        let actions = check_consistent(&db, &ids).await;
        let acknowledged = commits.load(Ordering::Relaxed) as usize;
        eprintln!(
            "{} games, {actions} actions stored, {acknowledged} acknowledged before the kill",
            ids.len()
        );
        // Every acknowledged commit is stored; at most one in flight per player may have been
        // stored without its answer arriving.
        assert!(
            actions >= acknowledged,
            "{actions} stored < {acknowledged} acknowledged"
        );
        assert!(
            actions <= acknowledged + 8,
            "{actions} stored, {acknowledged} acknowledged"
        );
    });
    restarted.kill().unwrap();
    restarted.wait().unwrap();
}

#[test]
fn a_server_killed_mid_commit_on_sqlite_restarts_consistent() {
    kill_mid_commit(None);
}

#[test]
fn a_server_killed_mid_commit_on_postgres_restarts_consistent() {
    match std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        Ok(url) => kill_mid_commit(Some(&url)),
        Err(_) if std::env::var_os("CI").is_some() => panic!("CI must test Postgres"),
        Err(_) => eprintln!("ALFAKRAFT_TEST_POSTGRES_URL is not set: Postgres skipped"),
    }
}
