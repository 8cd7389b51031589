//! Games played on a device against a bot, sent to the player's account once over: kept as a
//! finished, unrated bot game when every move replays under the rules; refused, with nothing
//! stored, when anything is off (an illegal move, a changed score, a rated flag, an unfinished
//! game). On a real SQLite file and on Postgres, through the server's API.

mod support;

use app::api::{device::DeviceGame, GameCard};
use dictionaries::DictionaryId;
use engine::bot::{Bot, Level};
use rules::{game::Format, Action, GameConfig, GameState, RuleSet, Status, Variant};
use serde_json::json;
use store::db::Database;
use support::{
    browser::{each_database, ok, refusal, Browser},
    unique_name,
};

/// A whole Classic game between two Beginner bots, as a device would have played it with the
/// player in seat 0: the record it sends.
async fn played_on_a_device(db: &Database, seed: u64) -> DeviceGame {
    let dictionary = store::library::versions::active_ref(db, DictionaryId::English)
        .await
        .unwrap()
        .to_string();
    let config = GameConfig {
        variant: Variant::Classic,
        dictionary: dictionary.clone(),
        seed,
        players: 2,
        first_seat: 0,
        format: Format::Casual,
    };
    let (lexicon, trie) = (support::load::lexicon(), support::load::trie());
    let rules = RuleSet::new(Variant::Classic);
    let mut state = GameState::new(config);
    let mut actions = Vec::new();
    while *state.status() == Status::Playing && actions.len() < 400 {
        let seat = state.to_move();
        let mut bot = Bot::new(Level::Beginner, trie, &rules, seed ^ actions.len() as u64);
        for action in bot.decide_turn(&state.view(seat)) {
            state.apply(&action, lexicon).unwrap();
            actions.push(action);
        }
    }
    let Status::Over(outcome) = state.status() else {
        panic!("the bots finish");
    };
    DeviceGame {
        key: uuid::Uuid::new_v4().to_string(),
        variant: Variant::Classic,
        dictionary,
        seed,
        first_seat: 0,
        bot_seat: 1,
        level: "Beginner".into(),
        actions,
        scores: outcome.final_scores.clone(),
        rated: false,
    }
}

/// How many rows of the tables a device game writes are `name`'s (the Postgres database is
/// shared with the tests running beside these).
async fn rows(db: &Database, name: &str) -> Vec<i64> {
    let theirs = "(SELECT s.game_id FROM game_seats s JOIN users u ON u.id = s.user_id
                   WHERE u.name = $1)";
    let mut counts = Vec::new();
    for sql in [
        format!("SELECT COUNT(*) FROM games WHERE id IN {theirs}"),
        format!("SELECT COUNT(*) FROM game_actions WHERE game_id IN {theirs}"),
        format!("SELECT COUNT(*) FROM game_seats WHERE game_id IN {theirs}"),
        format!("SELECT COUNT(*) FROM game_results WHERE game_id IN {theirs}"),
    ] {
        let count = sqlx::query_scalar(&sql)
            .bind(name)
            .fetch_one(&db.pool)
            .await;
        counts.push(count.unwrap());
    }
    counts
}

async fn send(browser: &mut Browser, game: &DeviceGame) -> serde_json::Value {
    browser
        .call("/api/games/device", json!({ "game": game }))
        .await
}

#[test]
fn a_finished_device_game_is_kept_once_as_an_unrated_bot_game() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        let name = unique_name("dev");
        ann.sign_up(&name).await;
        let game = played_on_a_device(&server.db, 11).await;
        let id = ok(&send(&mut ann, &game).await)
            .as_str()
            .unwrap()
            .to_string();
        // Sent again (a retry after a lost answer): the same game, nothing new stored.
        let before = rows(&server.db, &name).await;
        assert_eq!(ok(&send(&mut ann, &game).await), &json!(id), "{db_name}");
        assert_eq!(rows(&server.db, &name).await, before, "{db_name}");
        // In the player's list, finished, with the bot in seat 1 and the device's final scores.
        let mine: Vec<GameCard> =
            serde_json::from_value(ann.call("/api/games/mine", json!({})).await).unwrap();
        let card = mine.iter().find(|c| c.id == id).expect("listed");
        assert_eq!(card.phase, app::api::Phase::Over, "{db_name}");
        assert_eq!(card.scores, game.scores, "{db_name}");
        assert_eq!(card.seats[1].label(), "Beginner bot (550)", "{db_name}");
        // Its page and history, and its GCG.
        let page = ann.page(&id).await;
        assert_eq!(ok(&page)["card"]["phase"], "Over", "{db_name}");
        let history = support::browser::view_of(&page).history;
        assert!(!history.is_empty(), "{db_name}");
        let (status, gcg) = ann.get(&format!("/game/{id}/gcg")).await;
        assert_eq!(status, 200, "{db_name}");
        assert!(gcg.starts_with("#character-encoding UTF-8"), "{db_name}");
        // The player's results hold it, unrated: no rank moved.
        let results: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM game_results WHERE game_id = $1")
                .bind(&id)
                .fetch_one(&server.db.pool)
                .await
                .unwrap();
        assert_eq!(results, 1, "{db_name}: the player's result");
        let ranked: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM rank_history WHERE game_id = $1")
                .bind(&id)
                .fetch_one(&server.db.pool)
                .await
                .unwrap();
        assert_eq!(ranked, 0, "{db_name}");
    });
}

#[test]
fn a_tampered_device_game_is_refused_and_nothing_of_it_stored() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        let name = unique_name("tam");
        ann.sign_up(&name).await;
        let game = played_on_a_device(&server.db, 12).await;
        let first_play = game
            .actions
            .iter()
            .position(|a| matches!(a, Action::Play { .. }))
            .expect("the bots played a word");
        let mut tampered: Vec<(&str, DeviceGame)> = Vec::new();
        // An illegal move: the first word played again, out of turn, where it already stands.
        let mut again = game.clone();
        let play = again.actions[first_play].clone();
        again.actions.insert(first_play + 1, play);
        tampered.push(("does not replay", again));
        let mut scores = game.clone();
        scores.scores[0] += 50;
        tampered.push(("scores sent", scores));
        let mut rated = game.clone();
        rated.rated = true;
        tampered.push(("never rated", rated));
        let mut unfinished = game.clone();
        unfinished.actions.truncate(first_play + 1);
        tampered.push(("only a finished game", unfinished));
        let mut huge = game.clone();
        huge.actions = vec![Action::Pass { seat: 0 }; app::api::device::DEVICE_GAME_ACTIONS + 1];
        tampered.push(("more than", huge));
        let mut unknown = game.clone();
        unknown.dictionary = "en@999".into();
        tampered.push(("no dictionary", unknown));
        // A visitor becomes a guest by starting a game on the server; a guest has no account to
        // keep a device game in, and a visitor is asked to sign in.
        let mut guest = Browser::new(&server);
        guest.create_local().await;
        let mut visitor = Browser::new(&server);
        let before = rows(&server.db, &name).await;
        let answer = send(&mut guest, &game).await;
        assert_eq!(refusal(&answer), "AccountNeeded", "{db_name}: {answer}");
        let answer = send(&mut visitor, &game).await;
        assert_eq!(refusal(&answer), "SignInFirst", "{db_name}: {answer}");
        for (why, game) in &tampered {
            let answer = send(&mut ann, game).await;
            let said = refusal(&answer)["Invalid"].as_str().unwrap_or_default();
            assert!(said.contains(why), "{db_name}: {why}: {answer}");
        }
        assert_eq!(
            rows(&server.db, &name).await,
            before,
            "{db_name}: nothing stored"
        );
        // The untampered game is kept, so what was refused was the tampering.
        ok(&send(&mut ann, &game).await);
    });
}
