//! Ranks on SQLite and Postgres: a game between two people moves both ranks once when it ends,
//! and only then; pass-and-play and bot games are not rated; two instances ending the same game at
//! once rate it once.

mod support;

use rules::{Action, PlayerView};
use serde_json::json;
use server::{db::Database, games, ranks};
use sqlx::Row;
use support::{
    browser::{ok, refusal, runtime, server, Browser, Server},
    databases, unique_name,
};

fn each_database(test: impl AsyncFn(&'static str, Server)) {
    runtime().block_on(async {
        for (name, db, _dir) in databases().await {
            test(name, server(&db).await).await;
        }
    });
}

/// `name`'s rank and rated games in `dictionary`, if they have one.
async fn rank_of(db: &Database, name: &str, dictionary: &str) -> Option<(i64, i64)> {
    sqlx::query(
        "SELECT r.rank, r.games FROM ranks r JOIN users u ON u.id = r.user_id
         WHERE u.name = $1 AND r.dictionary = $2",
    )
    .bind(name)
    .bind(dictionary)
    .fetch_optional(&db.pool)
    .await
    .unwrap()
    .map(|row| (row.get(0), row.get(1)))
}

async fn history_rows(db: &Database, game: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM rank_history WHERE game_id = $1")
        .bind(game)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// Two new players in a friend game (ann invites, bob accepts and moves first); the game's id.
async fn friend_game(server: &Server) -> (Browser, String, Browser, String, String) {
    let (mut ann, mut bob) = (Browser::new(server), Browser::new(server));
    let (ann_name, bob_name) = (unique_name("ann"), unique_name("bob"));
    ann.sign_up(&ann_name).await;
    bob.sign_up(&bob_name).await;
    let created = ann.create(json!("Invite")).await;
    let id = ok(&created)["id"].as_str().unwrap().to_string();
    let token = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
    let accepted = bob
        .call(
            "/api/invites/answer",
            json!({ "token": token, "accept": true }),
        )
        .await;
    assert_eq!(ok(&accepted), &json!(id));
    (ann, ann_name, bob, bob_name, id)
}

fn view_of(page: &serde_json::Value) -> PlayerView {
    serde_json::from_value(ok(page)["view"].clone()).unwrap()
}

#[test]
fn a_friend_game_ended_by_resignation_moves_both_ranks_once() {
    each_database(async |db_name, server| {
        let (mut ann, ann_name, _bob, bob_name, id) = friend_game(&server).await;
        assert_eq!(
            rank_of(&server.db, &ann_name, "en").await,
            None,
            "unrated so far"
        );
        let version = u64::from(view_of(&ann.page(&id).await).version);
        let resigned = ann.act(&id, version, &Action::Resign { seat: 0 }).await;
        assert!(ok(&resigned).is_object(), "{db_name}: {resigned}");
        // 1200 against 1200 with K = 40: the winner gains 20, the loser gives 20.
        assert_eq!(
            rank_of(&server.db, &ann_name, "en").await,
            Some((1180, 1)),
            "{db_name}"
        );
        assert_eq!(rank_of(&server.db, &bob_name, "en").await, Some((1220, 1)));
        assert_eq!(history_rows(&server.db, &id).await, 2);
        // The game is over: resigning again is refused and rates nothing.
        let again = ann.act(&id, version + 1, &Action::Resign { seat: 0 }).await;
        assert!(
            refusal(&again).is_object() || refusal(&again).is_string(),
            "{again}"
        );
        assert_eq!(rank_of(&server.db, &ann_name, "en").await, Some((1180, 1)));
        assert_eq!(history_rows(&server.db, &id).await, 2, "{db_name}: once");
        let ann_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
            .bind(&ann_name)
            .fetch_one(&server.db.pool)
            .await
            .unwrap();
        let mine = ranks::of(&server.db, ann_id).await.unwrap();
        assert_eq!(mine.len(), 1);
        assert!(mine[0].provisional(), "one game is provisional");
        let history = ranks::history(&server.db, ann_id, dictionaries::DictionaryId::English)
            .await
            .unwrap();
        assert_eq!((history[0].before, history[0].after), (1200, 1180));
        assert_eq!(history[0].result, "loss");
    });
}

#[test]
fn pass_and_play_and_bot_games_are_not_rated() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        let name = unique_name("ann");
        ann.sign_up(&name).await;
        let local = ann.create_local().await;
        let bot = ok(&ann.create(json!({ "Bot": { "level": "beginner" } })).await)["id"]
            .as_str()
            .unwrap()
            .to_string();
        for id in [&local, &bot] {
            let view = view_of(&ann.page(id).await);
            let resigned = ann
                .act(
                    id,
                    u64::from(view.version),
                    &Action::Resign { seat: view.seat },
                )
                .await;
            assert!(ok(&resigned).is_object(), "{db_name}: {resigned}");
            assert_eq!(history_rows(&server.db, id).await, 0, "{db_name}");
        }
        assert_eq!(rank_of(&server.db, &name, "en").await, None, "{db_name}");
    });
}

#[test]
fn two_games_of_one_player_ending_at_once_are_rated_one_after_the_other() {
    each_database(async |db_name, server| {
        // Ann has a rank (one game against dave), then her games against bob and carl end at
        // the same moment, on two instances.
        let ann_name = unique_name("ann");
        let mut ann = Browser::new(&server);
        ann.sign_up(&ann_name).await;
        let mut ids = Vec::new();
        for friend in ["dave", "bob", "carl"] {
            let mut friend_browser = Browser::new(&server);
            friend_browser.sign_up(&unique_name(friend)).await;
            let created = ann.create(json!("Invite")).await;
            let token = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
            friend_browser
                .call(
                    "/api/invites/answer",
                    json!({ "token": token, "accept": true }),
                )
                .await;
            ids.push(ok(&created)["id"].as_str().unwrap().to_string());
        }
        let other = second_instance(&server).await;
        let lexicon = server.services.lexicon("en").await.unwrap();
        let resign = Action::Resign { seat: 0 };
        games::commit(&server.db, &ids[0], 0, &resign, &*lexicon)
            .await
            .unwrap();
        assert_eq!(rank_of(&server.db, &ann_name, "en").await, Some((1180, 1)));
        let (first, second) = tokio::join!(
            games::commit(&server.db, &ids[1], 0, &resign, &*lexicon),
            games::commit(&other, &ids[2], 0, &resign, &*lexicon),
        );
        first.unwrap();
        second.unwrap();
        // 1180 → 1161 (against 1200, expected ≈ 0.47) → 1143 (expected ≈ 0.44): one after the
        // other, never both from 1180.
        assert_eq!(
            rank_of(&server.db, &ann_name, "en").await,
            Some((1143, 3)),
            "{db_name}"
        );
    });
}

/// Another connection pool on the same database, standing for a second instance.
async fn second_instance(server: &Server) -> Database {
    match server.db.backend {
        server::db::Backend::Postgres => {
            Database::connect(&std::env::var("ALFAKRAFT_TEST_POSTGRES_URL").unwrap())
                .await
                .unwrap()
        }
        server::db::Backend::Sqlite => server.db.clone(),
    }
}

#[test]
fn two_instances_ending_one_game_at_once_rate_it_once() {
    each_database(async |db_name, server| {
        let (mut ann, ann_name, _bob, bob_name, id) = friend_game(&server).await;
        let version = view_of(&ann.page(&id).await).version;
        let other = second_instance(&server).await;
        let lexicon = server.services.lexicon("en").await.unwrap();
        let (first, second) = tokio::join!(
            games::commit(
                &server.db,
                &id,
                version,
                &Action::Resign { seat: 0 },
                &*lexicon
            ),
            games::commit(&other, &id, version, &Action::Resign { seat: 1 }, &*lexicon),
        );
        assert!(
            first.is_ok() != second.is_ok(),
            "{db_name}: exactly one ends the game"
        );
        assert_eq!(history_rows(&server.db, &id).await, 2, "{db_name}");
        let ranks = (
            rank_of(&server.db, &ann_name, "en").await.unwrap(),
            rank_of(&server.db, &bob_name, "en").await.unwrap(),
        );
        assert!(
            ranks == ((1180, 1), (1220, 1)) || ranks == ((1220, 1), (1180, 1)),
            "{db_name}: {ranks:?}"
        );
    });
}
