//! Games played on a device against a bot, sent to the player's account: over, kept as a
//! finished, unrated bot game when every move replays under the rules; going on, kept as the
//! latest copy until it ends; refused, with nothing stored, when anything is off (an illegal
//! move, a changed score, a rated flag). On a real SQLite file and on Postgres, through the
//! server's API.

mod support;

use app::api::{
    device::{AccountCopy, DeviceGame},
    GameCard,
};
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
        let id = ok(&send(&mut ann, &game).await)["Game"]
            .as_str()
            .unwrap()
            .to_string();
        // Sent again (a retry after a lost answer): the same game, nothing new stored.
        let before = rows(&server.db, &name).await;
        assert_eq!(
            ok(&send(&mut ann, &game).await),
            &json!({ "Game": id }),
            "{db_name}"
        );
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
        let mut early_scores = going_on(&game, first_play + 1);
        early_scores.scores[1] += 1;
        tampered.push(("scores sent", early_scores));
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
        assert_eq!(copies(&mut ann).await, json!([]), "{db_name}: no copy kept");
        // The untampered game is kept, so what was refused was the tampering.
        ok(&send(&mut ann, &game).await);
    });
}

/// `game` as its device sends it after its first `actions` actions, going on.
fn going_on(game: &DeviceGame, actions: usize) -> DeviceGame {
    let config = GameConfig {
        variant: game.variant,
        dictionary: game.dictionary.clone(),
        seed: game.seed,
        players: 2,
        first_seat: game.first_seat,
        format: Format::Casual,
    };
    let mut state = GameState::new(config);
    for action in &game.actions[..actions] {
        state.apply(action, support::load::lexicon()).unwrap();
    }
    assert_eq!(*state.status(), Status::Playing);
    DeviceGame {
        actions: game.actions[..actions].to_vec(),
        scores: domain::GameSummary::of(&state).scores,
        ..game.clone()
    }
}

/// The caller's copies as the account answers them.
async fn copies(browser: &mut Browser) -> serde_json::Value {
    ok(&browser.post_form("/api/games/device/copies", &[]).await).clone()
}

/// How many actions each of the caller's copies holds, newest first, by key.
async fn copied(browser: &mut Browser) -> Vec<(String, usize)> {
    let copies: Vec<AccountCopy> = serde_json::from_value(copies(browser).await).unwrap();
    copies
        .into_iter()
        .map(|c| (c.copy.game.key, c.copy.game.actions.len()))
        .collect()
}

#[test]
fn a_device_game_going_on_is_copied_to_the_account_until_it_ends() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("cop")).await;
        let game = played_on_a_device(&server.db, 13).await;
        let key = game.key.clone();
        assert!(game.actions.len() > 12, "{db_name}: a real game");
        let answer = send(&mut ann, &going_on(&game, 10)).await;
        assert_eq!(ok(&answer), &json!("Copy"), "{db_name}");
        assert_eq!(copied(&mut ann).await, [(key.clone(), 10)], "{db_name}");
        // With where another device fetches its words.
        let copy = copies(&mut ann).await;
        assert!(
            copy[0]["dictionary_url"]
                .as_str()
                .is_some_and(|url| url.starts_with("/dict/")),
            "{db_name}: {copy}"
        );
        // A send that arrives late (fewer actions) does not undo a later one.
        ok(&send(&mut ann, &going_on(&game, 5)).await);
        ok(&send(&mut ann, &going_on(&game, 12)).await);
        ok(&send(&mut ann, &going_on(&game, 11)).await);
        assert_eq!(copied(&mut ann).await, [(key.clone(), 12)], "{db_name}");
        // Nobody else sees it; a guest has no account to keep copies in.
        let mut bob = Browser::new(&server);
        bob.sign_up(&unique_name("cop")).await;
        assert_eq!(copies(&mut bob).await, json!([]), "{db_name}");
        let mut guest = Browser::new(&server);
        guest.create_local().await;
        let answer = guest.post_form("/api/games/device/copies", &[]).await;
        assert_eq!(refusal(&answer), "AccountNeeded", "{db_name}");
        // Bob discarding a key of Ann's forgets nothing of hers.
        ok(&bob
            .post_form("/api/games/device/discard", &[("key", &key)])
            .await);
        assert_eq!(copied(&mut ann).await.len(), 1, "{db_name}");
        // Over, it is a game of the account's, and the copy is gone; a copy sent late stays out.
        let id = ok(&send(&mut ann, &game).await)["Game"].clone();
        assert!(id.is_string(), "{db_name}");
        assert_eq!(copied(&mut ann).await, [], "{db_name}");
        let late = send(&mut ann, &going_on(&game, 12)).await;
        assert_eq!(ok(&late), &json!({ "Game": id }), "{db_name}");
        assert_eq!(copied(&mut ann).await, [], "{db_name}");
    });
}

#[test]
fn an_account_keeps_a_bounded_number_of_copies_and_forgets_a_discarded_one() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("cap")).await;
        let game = played_on_a_device(&server.db, 14).await;
        let early = going_on(&game, 2);
        let keyed = |n: usize| DeviceGame {
            key: format!("game-{n}"),
            ..early.clone()
        };
        for n in 0..app::api::device::DEVICE_COPIES {
            assert_eq!(
                ok(&send(&mut ann, &keyed(n)).await),
                &json!("Copy"),
                "{db_name}"
            );
        }
        let answer = send(&mut ann, &keyed(99)).await;
        let said = refusal(&answer)["Invalid"].as_str().unwrap_or_default();
        assert!(said.contains("at most 20"), "{db_name}: {answer}");
        // A copy already kept still takes its later sends.
        ok(&send(
            &mut ann,
            &DeviceGame {
                key: "game-0".into(),
                ..going_on(&game, 3)
            },
        )
        .await);
        // Discarded on the device, it leaves the account, and makes room.
        ok(&ann
            .post_form("/api/games/device/discard", &[("key", "game-3")])
            .await);
        let left = copied(&mut ann).await;
        assert_eq!(left.len(), app::api::device::DEVICE_COPIES - 1, "{db_name}");
        assert!(left.iter().all(|(key, _)| key != "game-3"), "{db_name}");
        assert!(left.contains(&("game-0".into(), 3)), "{db_name}");
        assert_eq!(
            ok(&send(&mut ann, &keyed(99)).await),
            &json!("Copy"),
            "{db_name}"
        );
    });
}
