//! The Daily Challenge on SQLite and Postgres: one attempt per player and day (also when started
//! twice at once on two instances), resumed as it was, standings by score then finish, the bot's
//! total computed once, the review, streaks across days, and no draw beyond the rack in any
//! answer.

mod support;

use support::player;

use dictionaries::DictionaryId;
use rules::{daily::Day, Action, GameState, PlayerView, Status};
use serde_json::{json, Value};
use store::{daily, games};
use support::{
    a_play,
    browser::{each_database, ok, Browser, Server},
    unique_name,
};

/// A day of its own for a test, so tests sharing one database never share a puzzle's standings.
fn a_day_of_its_own() -> Day {
    let random = uuid::Uuid::new_v4().as_u128();
    // A past day (the standings page shows no future one), far from today's.
    Day(1 + (random % 19_000) as i64)
}

async fn state(server: &Server, id: &str) -> GameState {
    let lexicon = server.services.lexicon("en").await.unwrap();
    games::load(&server.db, id, &*lexicon).await.unwrap()
}

/// Plays an attempt to its end: `play` picks each turn's action from the view.
async fn play_out(server: &Server, id: &str, play: impl Fn(&PlayerView) -> Action) -> i32 {
    let lexicon = server.services.lexicon("en").await.unwrap();
    let mut state = state(server, id).await;
    while *state.status() == Status::Playing {
        let action = play(&state.view(0));
        state = games::commit(&server.db, id, state.version(), &action, &*lexicon)
            .await
            .unwrap();
    }
    let Status::Over(outcome) = state.status() else {
        unreachable!()
    };
    outcome.final_scores[0]
}

#[test]
fn one_attempt_per_player_and_day_even_when_started_twice_at_once() {
    each_database(async |db_name, server| {
        let ann = player(&server.db).await;
        let day = a_day_of_its_own();
        let other = support::second_instance(&server.db).await;
        let (first, second) = tokio::join!(
            daily::start(&server.db, &ann, DictionaryId::English, day),
            daily::start(&other, &ann, DictionaryId::English, day),
        );
        let (first, second) = (first.unwrap(), second.unwrap());
        assert_eq!(first, second, "{db_name}: one attempt");
        let attempts: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM daily_attempts WHERE user_id = $1")
                .bind(ann.id)
                .fetch_one(&server.db.pool)
                .await
                .unwrap();
        assert_eq!(attempts, 1, "{db_name}");
        // Another dictionary is another puzzle; the same day's puzzle is the same for everyone.
        let sv = daily::start(&server.db, &ann, DictionaryId::Swedish, day)
            .await
            .unwrap();
        assert_ne!(sv, first);
        let bob = player(&server.db).await;
        let bobs = daily::start(&server.db, &bob, DictionaryId::English, day)
            .await
            .unwrap();
        assert_eq!(
            state(&server, &bobs).await.hand(0),
            state(&server, &first).await.hand(0),
            "{db_name}: the same first rack"
        );
    });
}

#[test]
fn an_attempt_resumes_as_it_was_and_a_guest_keeps_it_on_signing_up() {
    each_database(async |db_name, server| {
        let mut guest = Browser::new(&server);
        let started = guest
            .call("/api/daily/start", json!({ "dictionary": "en" }))
            .await;
        let id = ok(&started).as_str().unwrap().to_string();
        let page = guest.page(&id).await;
        let view: PlayerView = serde_json::from_value(ok(&page)["view"].clone()).unwrap();
        assert_eq!(view.hand.len(), 7, "{db_name}");
        let played = guest.act(&id, 0, &a_play(&view)).await;
        assert!(ok(&played).is_object(), "{played}");
        // A reload (or a second click on Play) finds the same attempt, one turn in.
        let again = guest
            .call("/api/daily/start", json!({ "dictionary": "en" }))
            .await;
        assert_eq!(ok(&again), &json!(id));
        let today = guest.call("/api/daily/today", json!({})).await;
        let card = today["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["dictionary"] == "en")
            .unwrap();
        assert_eq!(
            card["state"]["InProgress"]["turns"],
            json!(1),
            "{db_name}: {today}"
        );
        // Signing up turns the guest into the player: the attempt stays theirs.
        let name = unique_name("kept");
        guest.sign_up(&name).await;
        let again = guest
            .call("/api/daily/start", json!({ "dictionary": "en" }))
            .await;
        assert_eq!(ok(&again), &json!(id), "{db_name}");
        // A guest who played (a bot game to its end, a Daily Challenge) and then signs in to an
        // account they had hands both over.
        let mut other = Browser::new(&server);
        let started = other
            .call("/api/daily/start", json!({ "dictionary": "sv" }))
            .await;
        let theirs = ok(&started).as_str().unwrap().to_string();
        let bot = ok(&other
            .create(json!({ "Bot": { "level": "beginner" } }))
            .await)["id"]
            .as_str()
            .unwrap()
            .to_string();
        let page = other.page(&bot).await;
        let view: PlayerView = serde_json::from_value(ok(&page)["view"].clone()).unwrap();
        ok(&other
            .act(
                &bot,
                u64::from(view.version),
                &Action::Resign { seat: view.seat },
            )
            .await);
        ok(&other
            .form("/api/account/sign-in", &name, "a good password")
            .await);
        let mine = other
            .call("/api/daily/start", json!({ "dictionary": "sv" }))
            .await;
        assert_eq!(
            ok(&mine),
            &json!(theirs),
            "{db_name}: the attempt came along"
        );
        // An ordinary game of the Daily ruleset cannot be made through the New Game function.
        let forged = guest
            .call(
                "/api/games/create",
                json!({ "new": {
                    "variant": { "Daily": { "language": "English" } },
                    "dictionary": "en", "format": "Casual", "opponent": { "Bot": { "level": "beginner" } },
                }}),
            )
            .await;
        assert!(forged.get("Err").is_some(), "{forged}");
    });
}

#[test]
fn standings_go_by_score_then_the_earlier_finish() {
    each_database(async |db_name, server| {
        let day = a_day_of_its_own();
        let (ann, bob, cat) = (
            player(&server.db).await,
            player(&server.db).await,
            player(&server.db).await,
        );
        let mut ids = Vec::new();
        for user in [&ann, &bob, &cat] {
            ids.push(
                daily::start(&server.db, user, DictionaryId::English, day)
                    .await
                    .unwrap(),
            );
        }
        // Ann and Bob pass every turn (0 points, Ann first); Cat plays words.
        assert_eq!(
            play_out(&server, &ids[0], |_| Action::Pass { seat: 0 }).await,
            0
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        assert_eq!(
            play_out(&server, &ids[1], |_| Action::Pass { seat: 0 }).await,
            0
        );
        let cat_score = play_out(&server, &ids[2], a_play).await;
        assert!(cat_score > 0, "{db_name}");
        let standings = daily::standings(&server.db, day, DictionaryId::English, 100)
            .await
            .unwrap();
        let names: Vec<&str> = standings.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [cat.name.as_str(), ann.name.as_str(), bob.name.as_str()],
            "{db_name}"
        );
        let result = daily::result(&server.db, &ids[1]).await.unwrap().unwrap();
        assert_eq!(
            (result.place, result.players, result.best_today),
            (3, 3, cat_score)
        );
        // The share text, as the end card words it in English.
        let share =
            app::routes::game::daily_summary::share_text(app::i18n::Texts::english(), &result);
        assert_eq!(
            share,
            format!("Alfa Kraft Daily {day} · English · 0 pts · #3 of 3")
        );
        // The standings page, for anyone.
        let mut visitor = Browser::new(&server);
        let (status, html) = visitor.get(&format!("/daily/en?day={day}")).await;
        assert_eq!(status, 200);
        assert!(
            html.find(&cat.name).unwrap() < html.find(&ann.name).unwrap(),
            "{html}"
        );
        assert_eq!(visitor.get("/daily/xx").await.0, 404);
        assert_eq!(
            visitor.get("/daily/en?day=2999-01-01").await.0,
            404,
            "no future puzzle"
        );
    });
}

#[test]
fn the_bot_plays_each_puzzle_once_and_every_finished_attempt_gets_its_review() {
    each_database(async |db_name, server| {
        let day = a_day_of_its_own();
        let ann = player(&server.db).await;
        let id = daily::start(&server.db, &ann, DictionaryId::English, day)
            .await
            .unwrap();
        let score = play_out(&server, &id, a_play).await;
        let tries = server.services.tries.clone();
        server::workers::daily::bot_scores(&server.services, &tries)
            .await
            .unwrap();
        let puzzle = daily::puzzle(&server.db, day, DictionaryId::English)
            .await
            .unwrap();
        let config = puzzle.config();
        let lexicon = server
            .services
            .lexicon(&puzzle.version.to_string())
            .await
            .unwrap();
        let rules = rules::RuleSet::new(config.variant);
        let trie = tries.get(&config.dictionary, &lexicon, &rules).unwrap();
        let expected = engine::daily::bot_total(config, &*lexicon, &trie).unwrap();
        assert_eq!(
            daily::bot_score(&server.db, day, DictionaryId::English)
                .await
                .unwrap(),
            Some(expected),
            "{db_name}"
        );
        // Once: a second answer changes nothing.
        assert!(
            !daily::set_bot_score(&server.db, day, &puzzle.version.to_string(), expected + 1)
                .await
                .unwrap()
        );
        server::workers::daily::reviews(&server.services, &tries)
            .await
            .unwrap();
        let result = daily::result(&server.db, &id).await.unwrap().unwrap();
        assert_eq!(result.score, score);
        assert_eq!(result.bot_score, Some(expected));
        let review = result.review.expect("reviewed");
        assert_eq!(review.len(), usize::from(rules::daily::TURNS), "{db_name}");
        for turn in &review {
            assert!(
                turn.did.is_some(),
                "{db_name}: every turn is typed: {turn:?}"
            );
            if let Some((_, best)) = &turn.best {
                assert!(
                    *best >= turn.points,
                    "{db_name}: the best is never worse: {turn:?}"
                );
            }
        }
        assert_eq!(
            review.iter().map(|t| t.points).sum::<i32>(),
            score,
            "{db_name}"
        );
        // A review stored before its turns were typed still reads, with its English words.
        let old: Vec<domain::ReviewTurn> =
            serde_json::from_str(r#"[{"played":"QUIZ for 42","points":42,"best":null}]"#).unwrap();
        assert_eq!(
            (&old[0].did, old[0].played.as_str()),
            (&None, "QUIZ for 42")
        );
    });
}

#[test]
fn streaks_count_days_in_a_row_up_to_today_or_yesterday() {
    each_database(async |db_name, server| {
        let ann = player(&server.db).await;
        let start = a_day_of_its_own();
        for offset in [0, 1, 2, 4] {
            let id = daily::start(
                &server.db,
                &ann,
                DictionaryId::English,
                Day(start.0 + offset),
            )
            .await
            .unwrap();
            play_out(&server, &id, |_| Action::Pass { seat: 0 }).await;
        }
        // Started but unfinished: not a day of the streak.
        daily::start(&server.db, &ann, DictionaryId::English, Day(start.0 + 5))
            .await
            .unwrap();
        let at = |offset| daily::streak(&server.db, ann.id, Day(start.0 + offset));
        let streak = at(4).await.unwrap();
        assert_eq!((streak.current, streak.best), (1, 3), "{db_name}");
        assert_eq!(
            at(5).await.unwrap().current,
            1,
            "{db_name}: today is still to play"
        );
        assert_eq!(at(6).await.unwrap().current, 0, "{db_name}: a day missed");
        assert_eq!(at(2).await.unwrap().current, 3, "{db_name}");
    });
}

#[test]
fn no_answer_shows_a_draw_beyond_the_rack() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let started = ann
            .call("/api/daily/start", json!({ "dictionary": "en" }))
            .await;
        let id = ok(&started).as_str().unwrap().to_string();
        for _ in 0..3 {
            let page = ann.page(&id).await;
            let view: PlayerView = serde_json::from_value(ok(&page)["view"].clone()).unwrap();
            ok(&ann.act(&id, u64::from(view.version), &a_play(&view)).await);
            ann.call("/api/daily/today", json!({})).await;
        }
        let state = state(&server, &id).await;
        let seed = state.config().seed.to_string();
        // The tiles the next exchange would bring: the draws to come.
        let mut ahead = state.clone();
        let lexicon = server.services.lexicon("en").await.unwrap();
        ahead
            .apply(
                &Action::Exchange {
                    seat: 0,
                    tiles: state.hand(0).to_vec(),
                },
                &*lexicon,
            )
            .unwrap();
        let next_draws = serde_json::to_string(ahead.hand(0)).unwrap();
        for body in ann.received.lock().unwrap().iter() {
            assert!(!body.contains(&seed), "{db_name}: the seed leaked");
            for key in ["\"seed\":", "\"bag\":", "\"config\":"] {
                assert!(!body.contains(key), "{db_name}: {key} in {body}");
            }
            assert!(
                !body.contains(&next_draws),
                "{db_name}: the next draws leaked"
            );
            if let Ok(value) = serde_json::from_str::<Value>(body) {
                if let Some(view) = value.get("Ok").and_then(|ok| ok.get("view")) {
                    assert_eq!(
                        view["hand"].as_array().unwrap().len(),
                        7,
                        "{db_name}: the rack only"
                    );
                }
            }
        }
        // Nor does today's finished board of anyone reach a stranger before the day is over.
        let done = daily::start(
            &server.db,
            &player(&server.db).await,
            DictionaryId::English,
            daily::today(),
        )
        .await
        .unwrap();
        play_out(&server, &done, |_| Action::Pass { seat: 0 }).await;
        assert_eq!(
            Browser::new(&server)
                .get(&format!("/game/{done}/turn/1"))
                .await
                .0,
            404
        );
    });
}

#[test]
fn an_attempt_started_before_midnight_finishes_that_days_puzzle() {
    each_database(async |db_name, server| {
        let ann = player(&server.db).await;
        let day = a_day_of_its_own();
        let id = daily::start(&server.db, &ann, DictionaryId::English, day)
            .await
            .unwrap();
        // Midnight passes: the next day's puzzle is a new one, not started.
        let next = daily::cards(&server.db, Some(ann.id), day.next())
            .await
            .unwrap();
        assert_eq!(next[0].state, domain::DailyState::NotStarted, "{db_name}");
        play_out(&server, &id, |_| Action::Pass { seat: 0 }).await;
        let result = daily::result(&server.db, &id).await.unwrap().unwrap();
        assert_eq!(
            result.day,
            day.to_string(),
            "{db_name}: it counts for the day it began"
        );
        let cards = daily::cards(&server.db, Some(ann.id), day).await.unwrap();
        assert!(
            matches!(cards[0].state, domain::DailyState::Done { .. }),
            "{db_name}"
        );
        // The profile shows the streak.
        let (status, html) = Browser::new(&server).get(&format!("/u/{}", ann.name)).await;
        assert_eq!(status, 200);
        assert!(html.contains("Daily Challenge streak"), "{html}");
    });
}

/// Regression: a day's seed came from the date and the dictionary alone, so anyone with the
/// source computed today's and tomorrow's racks. The puzzle is now drawn from a key no outsider
/// can compute (an HMAC under this installation's secret), of which the standings show the hash
/// while the day runs and the key once it is over, to check it by.
#[test]
fn a_days_puzzle_comes_from_a_secret_key_shown_as_its_hash_until_the_day_is_over() {
    each_database(async |db_name, server| {
        let day = a_day_of_its_own();
        let puzzle = daily::puzzle(&server.db, day, DictionaryId::English)
            .await
            .unwrap();
        let key = puzzle.key.expect("a new puzzle has a key");
        let version = puzzle.version.to_string();
        assert_ne!(
            puzzle.seed(),
            rules::daily::dated_seed(day, &version),
            "{db_name}: not the date's"
        );
        assert_eq!(puzzle.config().seed, key.seed());
        // Another installation (another secret) draws another puzzle for the same day.
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = store::connect(&format!(
            "sqlite://{}",
            dir.path().join("other.db").display()
        ))
        .await
        .unwrap();
        let theirs = daily::puzzle(&elsewhere, day, DictionaryId::English)
            .await
            .unwrap();
        assert_ne!(theirs.seed(), puzzle.seed(), "{db_name}");
        // Every attempt that day plays the same puzzle.
        let ann = player(&server.db).await;
        let id = daily::start(&server.db, &ann, DictionaryId::English, day)
            .await
            .unwrap();
        assert_eq!(state(&server, &id).await.config().seed, puzzle.seed());
        // While the day runs, the hash; once it is over, the key, whose hash it was.
        let running = daily::commitment(&server.db, day, DictionaryId::English, day)
            .await
            .unwrap();
        assert_eq!(
            running,
            Some(daily::Commitment::Hash(key.commitment())),
            "{db_name}"
        );
        let over = daily::commitment(&server.db, day, DictionaryId::English, day.next())
            .await
            .unwrap();
        let Some(daily::Commitment::Revealed {
            key: hex,
            hash,
            seed,
        }) = over
        else {
            panic!("{db_name}: {over:?}");
        };
        eprintln!("{db_name}: the puzzle of {day}: SHA-256 {hash}, key {hex}, seed {seed}");
        assert_eq!(hash, key.commitment());
        assert_eq!(dictionaries::wordlist::sha256(&key.0), hash);
        assert_eq!(daily::DayKey::parse(&hex), Some(key));
        assert_eq!(seed, puzzle.seed());
        // The standings of that (past) day show the key and its hash.
        let mut visitor = Browser::new(&server);
        let (status, page) = visitor.get(&format!("/daily/en?day={day}")).await;
        assert_eq!(status, 200);
        assert!(page.contains(&hex) && page.contains(&hash), "{db_name}");
    });
}

/// Regression: three visitors from one address each became a guest with an attempt, and all
/// three stood in the standings. Guests play, but only accounts are ranked.
#[test]
fn guests_play_the_daily_but_only_accounts_stand_in_its_standings() {
    each_database(async |db_name, server| {
        let day = a_day_of_its_own();
        let ann = player(&server.db).await;
        let id = daily::start(&server.db, &ann, DictionaryId::English, day)
            .await
            .unwrap();
        play_out(&server, &id, a_play).await;
        for _ in 0..3 {
            let guest = store::accounts::create_guest(&server.db).await.unwrap();
            let id = daily::start(&server.db, &guest, DictionaryId::English, day)
                .await
                .unwrap();
            play_out(&server, &id, a_play).await;
        }
        let standings = daily::standings(&server.db, day, DictionaryId::English, 100)
            .await
            .unwrap();
        let names: Vec<&str> = standings.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, [ann.name.as_str()], "{db_name}");
        let cards = daily::cards(&server.db, Some(ann.id), day).await.unwrap();
        assert!(
            matches!(
                cards[0].state,
                domain::DailyState::Done {
                    place: 1,
                    players: 1,
                    ..
                }
            ),
            "{db_name}: {:?}",
            cards[0].state
        );
    });
}
