//! Load for the tests that stop a server under it: players committing moves through the API, and
//! the check that every stored game replays whole, to the summary stored for the lists.

use std::sync::{
    atomic::{AtomicBool, AtomicU64, Ordering},
    Arc,
};

use rules::{GameState, PlayerView, RuleSet, Variant};
use serde_json::{json, Value};
use server::client::ApiClient;
use sqlx::Row;
use store::{db::Database, games};

pub fn trie() -> &'static engine::trie::Trie {
    static TRIE: std::sync::OnceLock<engine::trie::Trie> = std::sync::OnceLock::new();
    TRIE.get_or_init(|| {
        let lexicon = lexicon();
        let rules = RuleSet::new(Variant::Classic);
        engine::trie::Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles)
    })
}

pub fn lexicon() -> &'static dictionaries::FstLexicon {
    static LEXICON: std::sync::OnceLock<dictionaries::FstLexicon> = std::sync::OnceLock::new();
    LEXICON.get_or_init(|| {
        dictionaries::FstLexicon::read(&dictionaries::DictionaryId::English.committed_fst())
            .unwrap()
    })
}

/// Plays pass-and-play Classic games through the API until the server goes away; returns the
/// ids of every game it touched.
async fn player(base: String, commits: Arc<AtomicU64>, stop: Arc<AtomicBool>) -> Vec<String> {
    let mut client = ApiClient::new(&base);
    let name = super::unique_name("load");
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

/// Players committing moves on a server until stopped, counting the commits acknowledged.
pub struct Load {
    commits: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    players: Vec<tokio::task::JoinHandle<Vec<String>>>,
}

impl Load {
    /// Starts `players` players on the server at `base` (inside a Tokio runtime).
    pub fn start(base: &str, players: usize) -> Load {
        trie();
        let (commits, stop) = (
            Arc::new(AtomicU64::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let players = (0..players)
            .map(|_| tokio::spawn(player(base.to_string(), commits.clone(), stop.clone())))
            .collect();
        Load {
            commits,
            stop,
            players,
        }
    }

    /// The commits acknowledged so far.
    pub fn acknowledged(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Waits until at least `commits` are acknowledged.
    pub async fn until(&self, commits: u64) {
        let started = std::time::Instant::now();
        while self.acknowledged() < commits {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(120),
                "stuck: {} of {commits} commits acknowledged in 120 s",
                self.acknowledged()
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Stops the players (each finishes the call it is in); the ids of every game they touched,
    /// and the commits acknowledged in all.
    pub async fn stop(self) -> (Vec<String>, u64) {
        self.stop.store(true, Ordering::Relaxed);
        let mut ids = Vec::new();
        for player in self.players {
            ids.extend(player.await.unwrap());
        }
        (ids, self.commits.load(Ordering::Relaxed))
    }
}

pub async fn check_consistent(db: &Database, ids: &[String]) -> usize {
    let mut actions = 0;
    for id in ids {
        let row = sqlx::query("SELECT version, status, summary FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        let version: i64 = row.try_get("version").unwrap();
        let status: String = row.try_get("status").unwrap();
        let summary: String = row.try_get("summary").unwrap();
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
        assert_eq!(
            serde_json::from_str::<domain::GameSummary>(&summary).unwrap(),
            domain::GameSummary::of(&state),
            "{id}: the list's summary agrees with the fold"
        );
        actions += seqs.len();
    }
    actions
}
