//! A player's list of games is read from each game's summary, stored with every move, not worked
//! out by replaying each game's log: on a real SQLite file and on Postgres, through the server
//! functions a page calls, with real moves (the engine's) in the real English dictionary.

use rules::{Action, GameState, PlayerView, Status};
use serde_json::{json, Value};
use store::games;
use support::browser::{each_database, ok, Browser, Server};

mod support;

/// A two-seat pass-and-play Classic game of `ann`'s; its id.
async fn classic(ann: &mut Browser) -> String {
    let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "PassAndPlay": { "players": 2 } } } });
    let created = ann.call("/api/games/create", new).await;
    ok(&created)["id"].as_str().unwrap().to_string()
}

/// The game's page: its card and the view of the seat to move.
async fn page(ann: &mut Browser, id: &str) -> (Value, PlayerView) {
    let page = ann.page(id).await;
    let view = serde_json::from_value(ok(&page)["view"].clone()).unwrap();
    (ok(&page)["card"].clone(), view)
}

/// Plays `turns` of the engine's Beginner moves, both seats.
async fn play(ann: &mut Browser, id: &str, turns: u64) {
    for turn in 0..turns {
        let (_, view) = page(ann, id).await;
        let rules = view.rules();
        let trie = support::load::trie();
        let action =
            engine::bot::Bot::new(engine::bot::Level::Beginner, trie, &rules, turn).decide(&view);
        ok(&ann.act(id, u64::from(view.version), &action).await);
    }
}

/// The card of game `id` in `ann`'s list.
async fn listed(ann: &mut Browser, id: &str) -> Value {
    let list = ann.call("/api/games/mine", json!({})).await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|card| card["id"] == id)
        .unwrap_or_else(|| panic!("{id} is listed: {list}"))
        .clone()
}

/// What a list shows of a game, of a card.
fn shown(card: &Value) -> Value {
    json!([
        card["scores"],
        card["to_move"],
        card["last"],
        card["winners"],
        card["my_turn"]
    ])
}

/// The game's stored summary, as the list reads it.
async fn stored(server: &Server, id: &str) -> Option<domain::GameSummary> {
    let text: Option<String> = sqlx::query_scalar("SELECT summary FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&server.db.pool)
        .await
        .unwrap();
    text.map(|t| serde_json::from_str(&t).unwrap())
}

/// The game's state, its log replayed.
async fn replayed(server: &Server, id: &str) -> GameState {
    games::load(&server.db, id, support::load::lexicon())
        .await
        .unwrap()
}

#[test]
fn the_list_shows_a_game_as_stored_with_its_last_move_without_reading_its_log() {
    each_database(async |name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&support::unique_name("lists")).await;
        let id = classic(&mut ann).await;
        play(&mut ann, &id, 5).await;
        let card = listed(&mut ann, &id).await;
        let (page_card, _) = page(&mut ann, &id).await;
        // The list says what the game page says, worked out from the state in play.
        assert_eq!(shown(&card), shown(&page_card), "{name}");
        let state = replayed(&server, &id).await;
        assert_eq!(
            stored(&server, &id).await,
            Some(domain::GameSummary::of(&state)),
            "{name}"
        );
        assert_eq!(card["scores"], json!(state.scores()), "{name}");
        let last = state.history().last().unwrap();
        assert_eq!(card["last"]["seat"], json!(last.seat), "{name}");
        // Without its log, and at a version no state in memory has, the game cannot be replayed;
        // the list shows it all the same.
        #[derive(sqlx::FromRow)]
        struct Logged {
            seq: i64,
            action: String,
            created_at: i64,
        }
        let log: Vec<Logged> = sqlx::query_as(
            "SELECT seq, action, created_at FROM game_actions WHERE game_id = $1 ORDER BY seq",
        )
        .bind(&id)
        .fetch_all(&server.db.pool)
        .await
        .unwrap();
        let unreadable = "DELETE FROM game_actions WHERE game_id = $1;
             UPDATE games SET version = version + 1000 WHERE id = $1";
        for sql in unreadable.split(';') {
            sqlx::query(sql)
                .bind(&id)
                .execute(&server.db.pool)
                .await
                .unwrap();
        }
        assert_eq!(listed(&mut ann, &id).await, card, "{name}");
        sqlx::query("UPDATE games SET version = version - 1000 WHERE id = $1")
            .bind(&id)
            .execute(&server.db.pool)
            .await
            .unwrap();
        // The log back, for the tests after this one on the shared Postgres database.
        for Logged {
            seq,
            action,
            created_at: at,
        } in log
        {
            sqlx::query(
                "INSERT INTO game_actions (game_id, seq, action, created_at)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(&id)
            .bind(seq)
            .bind(action)
            .bind(at)
            .execute(&server.db.pool)
            .await
            .unwrap();
        }
    });
}

#[test]
fn a_finished_game_is_listed_with_its_final_scores_and_its_winner() {
    each_database(async |name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&support::unique_name("lists")).await;
        let id = classic(&mut ann).await;
        play(&mut ann, &id, 4).await;
        // Six scoreless turns in a row end a Classic game: the tiles left are taken off.
        for _ in 0..6 {
            let (_, view) = page(&mut ann, &id).await;
            if view.status != Status::Playing {
                break;
            }
            let pass = Action::Pass { seat: view.seat };
            ok(&ann.act(&id, u64::from(view.version), &pass).await);
        }
        let state = replayed(&server, &id).await;
        let Status::Over(outcome) = state.status() else {
            panic!("{name}: the passes end the game");
        };
        assert_ne!(
            outcome.final_scores,
            state.scores(),
            "{name}: tiles were left"
        );
        let card = listed(&mut ann, &id).await;
        assert_eq!(card["phase"], "Over", "{name}");
        assert_eq!(card["scores"], json!(outcome.final_scores), "{name}");
        assert_eq!(card["winners"], json!(outcome.winners), "{name}");
        assert_eq!(card["last"]["turn"], "Passed", "{name}");
    });
}

#[test]
fn a_game_stored_before_summaries_is_listed_and_then_given_one() {
    each_database(async |name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&support::unique_name("lists")).await;
        let id = classic(&mut ann).await;
        play(&mut ann, &id, 3).await;
        let card = listed(&mut ann, &id).await;
        let summary = stored(&server, &id).await;
        sqlx::query("UPDATE games SET summary = NULL WHERE id = $1")
            .bind(&id)
            .execute(&server.db.pool)
            .await
            .unwrap();
        // Listed from its log meanwhile.
        assert_eq!(listed(&mut ann, &id).await, card, "{name}");
        let filled = games::summaries::backfill(&server.services).await.unwrap();
        assert!(filled >= 1, "{name}: {filled}");
        assert_eq!(stored(&server, &id).await, summary, "{name}");
        assert_eq!(listed(&mut ann, &id).await, card, "{name}");
    });
}

/// An invite game of `ann`'s that `bob` accepted: a game in play between two people.
async fn between(ann: &mut Browser, bob: &mut Browser) -> String {
    let created = ann.create(json!("Invite")).await;
    let id = ok(&created)["id"].as_str().unwrap().to_string();
    let token = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
    bob.call("/api/invites/get", json!({ "token": token }))
        .await;
    ok(&bob
        .call(
            "/api/invites/answer",
            json!({ "token": token, "accept": true }),
        )
        .await);
    id
}

/// Sets whose turn it is in game `id` (seat 0 is Ann's), and when it last changed.
async fn waiting_on(server: &Server, id: &str, seat: i64, since: i64) {
    sqlx::query("UPDATE games SET to_move = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(seat)
        .bind(since)
        .execute(&server.db.pool)
        .await
        .unwrap();
}

#[test]
fn next_game_goes_to_the_game_waiting_longest_on_the_player() {
    each_database(async |name, server| {
        let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
        ann.sign_up(&support::unique_name("nextann")).await;
        bob.sign_up(&support::unique_name("nextbob")).await;
        let (old, newer, theirs) = (
            between(&mut ann, &mut bob).await,
            between(&mut ann, &mut bob).await,
            between(&mut ann, &mut bob).await,
        );
        // Pass-and-play is always her turn: Next game never goes there.
        let local = classic(&mut ann).await;
        // Hers since long ago, hers since lately, Bob's (changed last of all).
        waiting_on(&server, &old, 0, 1_000).await;
        waiting_on(&server, &newer, 0, 2_000).await;
        waiting_on(&server, &theirs, 1, 3_000).await;
        waiting_on(&server, &local, 0, 500).await;

        let next = |current: &str| json!({ "current": current });
        assert_eq!(
            ann.call("/api/games/next", next(&local)).await,
            json!(old),
            "{name}"
        );
        assert_eq!(
            ann.call("/api/games/next", next(&old)).await,
            json!(newer),
            "{name}"
        );
        assert_eq!(
            bob.call("/api/games/next", next(&old)).await,
            json!(theirs),
            "{name}"
        );
        assert_eq!(
            bob.call("/api/games/next", next(&theirs)).await,
            json!(null),
            "{name}"
        );
        // A visitor has none; a made-up id is only a game not to go to.
        let mut visitor = Browser::new(&server);
        assert_eq!(
            visitor.call("/api/games/next", next(&old)).await,
            json!(null),
            "{name}"
        );
        assert_eq!(
            ann.call("/api/games/next", next("nope")).await,
            json!(old),
            "{name}"
        );
    });
}
