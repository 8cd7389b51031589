//! Ranks on SQLite and Postgres: a game between two people moves both ranks once when it ends,
//! and only then; pass-and-play and bot games are not rated; two instances ending the same game at
//! once rate it once.

mod support;

use support::browser::view_of;

use rules::Action;
use serde_json::json;
use sqlx::Row;
use store::{db::Database, games, ranks};
use support::{
    browser::{
        each_database, friend_game, friend_game_rated, ok, refusal, runtime, server, Browser,
        FriendGame, Server,
    },
    unique_name,
};

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
    .map(|row| (row.get("rank"), row.get("games")))
}

async fn history_rows(db: &Database, game: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM rank_history WHERE game_id = $1")
        .bind(game)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

#[test]
fn a_friend_game_ended_by_resignation_moves_both_ranks_once() {
    each_database(async |db_name, server| {
        let FriendGame {
            mut ann,
            ann_name,
            bob: _bob,
            bob_name,
            id,
        } = friend_game(&server).await;
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
        assert!(mine[0].shown().provisional, "one game is provisional");
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
        let other = support::second_instance(&server.db).await;
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

#[test]
fn two_instances_ending_one_game_at_once_rate_it_once() {
    each_database(async |db_name, server| {
        let FriendGame {
            mut ann,
            ann_name,
            bob: _bob,
            bob_name,
            id,
        } = friend_game(&server).await;
        let version = view_of(&ann.page(&id).await).version;
        let other = support::second_instance(&server.db).await;
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

/// Ends game `id` with whoever is to move resigning, through the store.
async fn resign_now(server: &Server, id: &str) {
    let lexicon = server.services.lexicon("en").await.unwrap();
    let state = games::load(&server.db, id, &*lexicon).await.unwrap();
    games::commit(
        &server.db,
        id,
        state.version(),
        &Action::Resign {
            seat: state.to_move(),
        },
        &*lexicon,
    )
    .await
    .unwrap();
}

#[test]
fn an_unrated_game_moves_no_rank_but_counts_on_the_profile() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
        let (ann_name, bob_name) = (unique_name("ann"), unique_name("bob"));
        ann.sign_up(&ann_name).await;
        bob.sign_up(&bob_name).await;
        let id = friend_game_rated(&mut ann, &mut bob, false).await;
        assert_eq!(ok(&ann.page(&id).await)["card"]["rated"], json!(false));
        resign_now(&server, &id).await;
        assert_eq!(history_rows(&server.db, &id).await, 0, "{db_name}");
        assert_eq!(rank_of(&server.db, &ann_name, "en").await, None);
        let page = ann.page(&id).await;
        assert_eq!(ok(&page)["rank_changes"], json!([null, null]), "{db_name}");
        assert_eq!(
            ok(&page)["head_to_head"],
            json!({ "wins": 1, "draws": 0, "losses": 0 }),
            "{db_name}: bob resigned first, so ann won"
        );
        let (status, html) = ann.get(&format!("/u/{ann_name}")).await;
        assert_eq!(status, 200);
        assert!(html.contains("No rated game yet"), "{html}");
        assert!(
            html.contains(&format!("/u/{bob_name}")),
            "the opponent links to their profile"
        );
    });
}

#[test]
fn passes_and_a_rematch_end_rated_games_too() {
    each_database(async |db_name, server| {
        let FriendGame {
            mut ann,
            ann_name,
            mut bob,
            bob_name,
            id,
        } = friend_game(&server).await;
        // Everyone passes until the pass limit ends the game.
        let lexicon = server.services.lexicon("en").await.unwrap();
        for _ in 0..20 {
            let state = games::load(&server.db, &id, &*lexicon).await.unwrap();
            if !matches!(state.status(), rules::Status::Playing) {
                break;
            }
            let seat = state.to_move();
            games::commit(
                &server.db,
                &id,
                state.version(),
                &Action::Pass { seat },
                &*lexicon,
            )
            .await
            .unwrap();
        }
        assert_eq!(
            history_rows(&server.db, &id).await,
            2,
            "{db_name}: passes end it, rated"
        );
        // The rematch (seats swapped) is rated like the game it follows.
        let offered = ann
            .call("/api/games/rematch", json!({ "id": id, "answer": "Offer" }))
            .await;
        assert!(ok(&offered).is_object(), "{offered}");
        let accepted = bob
            .call(
                "/api/games/rematch",
                json!({ "id": id, "answer": "Accept" }),
            )
            .await;
        let rematch = ok(&accepted)["rematch"]["new_game_id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(ok(&bob.page(&rematch).await)["card"]["rated"], json!(true));
        resign_now(&server, &rematch).await;
        assert_eq!(history_rows(&server.db, &rematch).await, 2, "{db_name}");
        assert_eq!(rank_of(&server.db, &ann_name, "en").await.unwrap().1, 2);
        assert_eq!(rank_of(&server.db, &bob_name, "en").await.unwrap().1, 2);
    });
}

#[test]
fn recompute_ranks_reproduces_the_stored_ranks_and_repairs_a_tampered_one() {
    runtime().block_on(async {
        // Its own databases: the recomputation reads every game in them.
        for (db_name, db, _dir) in support::own_databases().await {
            let server = server(&db).await;
            let mut players = Vec::new();
            for name in ["ann", "bob", "carl", "dora"] {
                let mut browser = Browser::new(&server);
                let name = unique_name(name);
                browser.sign_up(&name).await;
                players.push((browser, name));
            }
            // Six games, some ending at once on two connections.
            let pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)];
            let mut ids = Vec::new();
            for (a, b) in pairs {
                let (left, right) = players.split_at_mut(b);
                let id = friend_game_rated(&mut left[a].0, &mut right[0].0, true).await;
                ids.push(id);
            }
            for pair in ids.chunks(2) {
                tokio::join!(resign_now(&server, &pair[0]), resign_now(&server, &pair[1]));
            }
            let check = ranks::recompute(&server.services, false).await.unwrap();
            assert_eq!(check.games, 6, "{db_name}");
            assert_eq!(check.differences, vec![], "{db_name}: the replay matches");
            let stored: Vec<_> = {
                let mut all = Vec::new();
                for (_, name) in &players {
                    all.push(rank_of(&db, name, "en").await.unwrap());
                }
                all
            };
            sqlx::query("UPDATE ranks SET rank = rank + 7 WHERE user_id = (SELECT id FROM users WHERE name = $1)")
                .bind(&players[2].1)
                .execute(&db.pool)
                .await
                .unwrap();
            let found = ranks::recompute(&server.services, false).await.unwrap();
            assert_eq!(found.differences.len(), 1, "{db_name}: {found:?}");
            assert_eq!(found.differences[0].0, players[2].1);
            ranks::recompute(&server.services, true).await.unwrap();
            for ((_, name), was) in players.iter().zip(&stored) {
                assert_eq!(rank_of(&db, name, "en").await.as_ref(), Some(was), "{db_name}: {name}");
            }
            let again = ranks::recompute(&server.services, false).await.unwrap();
            assert!(again.differences.is_empty(), "{db_name}");
        }
    });
}

#[test]
fn ranks_stop_being_provisional_after_ten_games_and_show_on_cards_profiles_and_the_board() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
        let (ann_name, bob_name) = (unique_name("ann"), unique_name("bob"));
        ann.sign_up(&ann_name).await;
        bob.sign_up(&bob_name).await;
        let mut last = String::new();
        for game in 0..10 {
            let id = friend_game_rated(&mut ann, &mut bob, true).await;
            let page = ann.page(&id).await;
            let shown = &ok(&page)["card"]["seats"][0]["Player"]["rank"];
            assert_eq!(shown["provisional"], json!(true), "{db_name}: game {game}");
            resign_now(&server, &id).await; // bob, to move, resigns: ann wins
            last = id;
        }
        let page = ann.page(&last).await;
        let seats = &ok(&page)["card"]["seats"];
        assert_eq!(
            seats[0]["Player"]["rank"]["provisional"],
            json!(false),
            "{page}"
        );
        let ann_rank = seats[0]["Player"]["rank"]["rank"].as_i64().unwrap();
        assert!(ann_rank > 1300, "{db_name}: ten wins: {ann_rank}");
        let changes = ok(&page)["rank_changes"].as_array().unwrap();
        assert!(changes[0].as_i64().unwrap() > 0 && changes[1].as_i64().unwrap() < 0);
        assert_eq!(
            ok(&page)["head_to_head"],
            json!({ "wins": 10, "draws": 0, "losses": 0 })
        );
        // The profile: the rank without ?, ten points on the chart, ten games listed.
        let (status, html) = bob.get(&format!("/u/{ann_name}")).await;
        assert_eq!(status, 200);
        assert!(html.contains(&format!(">{ann_rank}<")), "{html}");
        assert_eq!(html.matches("<circle class=\"point\"").count(), 10);
        assert_eq!(html.matches("data-game=").count(), 10);
        assert!(
            html.contains("You against"),
            "bob sees his record against ann"
        );
        // The leaderboard: both qualify with ten games; bob is below ann.
        let board = ranks::leaderboard(
            &server.db,
            dictionaries::DictionaryId::English,
            ranks::Qualifying {
                min_games: 10,
                active_days: 90,
            },
            10_000,
        )
        .await
        .unwrap();
        let place = |name: &str| board.iter().position(|s| s.name == name).unwrap();
        assert!(place(&ann_name) < place(&bob_name), "{db_name}");
        let bob_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
            .bind(&bob_name)
            .fetch_one(&server.db.pool)
            .await
            .unwrap();
        let own = ranks::standing_of(
            &server.db,
            bob_id,
            dictionaries::DictionaryId::English,
            ranks::Qualifying {
                min_games: 10,
                active_days: 90,
            },
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(own.place as usize, place(&bob_name) + 1, "{db_name}");
        let (status, html) = bob.get("/leaderboard?d=en").await;
        assert_eq!(status, 200);
        assert!(html.contains("at least 10 rated games"), "{html}");
        // A profile or a board that does not exist is a 404, not a 500.
        assert_eq!(bob.get("/u/nobody_here_at_all").await.0, 404);
        assert_eq!(bob.get("/leaderboard?d=xx").await.0, 404);
        assert_eq!(bob.get(&format!("/game/{last}/turn/999")).await.0, 404);
        let (status, html) = bob.get(&format!("/game/{last}/turn/1")).await;
        assert_eq!(status, 200, "{html}");
        assert!(html.contains("resigned"), "{html}");
    });
}

#[test]
fn a_game_played_to_its_end_is_rated_once_with_its_results() {
    each_database(async |db_name, server| {
        let FriendGame {
            ann: _ann,
            ann_name,
            bob: _bob,
            bob_name,
            id,
        } = friend_game(&server).await;
        // Both seats play the beginner bot's moves, each from its own view, to the end.
        let lexicon = server.services.lexicon("en").await.unwrap();
        let words = lexicon.words();
        let mut trie = None;
        let mut state = games::load(&server.db, &id, &*lexicon).await.unwrap();
        for turn in 0..400u64 {
            if !matches!(state.status(), rules::Status::Playing) {
                break;
            }
            let view = state.view(state.to_move());
            let rules = view.rules();
            let trie = trie.get_or_insert_with(|| {
                engine::trie::Trie::new(words.iter().map(String::as_str), rules.tiles)
            });
            let action = engine::bot::Bot::new(engine::bot::Level::Beginner, trie, &rules, turn)
                .decide(&view);
            state = games::commit(&server.db, &id, state.version(), &action, &*lexicon)
                .await
                .unwrap();
            if let rules::Status::Playing = state.status() {
                assert_eq!(history_rows(&server.db, &id).await, 0, "not before the end");
            }
        }
        let rules::Status::Over(outcome) = state.status().clone() else {
            panic!("{db_name}: the game did not end");
        };
        assert!(
            matches!(
                outcome.reason,
                rules::game::EndReason::WentOut(_) | rules::game::EndReason::Passes
            ),
            "{db_name}: {outcome:?}"
        );
        assert_eq!(
            history_rows(&server.db, &id).await,
            2,
            "{db_name}: rated once"
        );
        // The results hold the final scores, as the end card shows them.
        let scores: Vec<(String, i64)> = sqlx::query(
            "SELECT u.name, r.score FROM game_results r JOIN users u ON u.id = r.user_id
             WHERE r.game_id = $1 ORDER BY r.seat",
        )
        .bind(&id)
        .fetch_all(&server.db.pool)
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get("name"), row.get("score")))
        .collect();
        assert_eq!(
            scores,
            vec![
                (ann_name.clone(), i64::from(outcome.final_scores[0])),
                (bob_name.clone(), i64::from(outcome.final_scores[1]))
            ],
            "{db_name}"
        );
        // Results lost (or never written, for games older than them) are rebuilt from the log
        // as they were.
        let all = "SELECT user_id, seat, opponent_user, result, score, opponent_score, bingos,
                   best_word, best_score, best_turn FROM game_results WHERE game_id = $1 ORDER BY seat";
        let rows = |db: &Database| {
            let (db, id) = (db.clone(), id.clone());
            async move {
                sqlx::query(all)
                    .bind(&id)
                    .fetch_all(&db.pool)
                    .await
                    .unwrap()
                    .iter()
                    .map(|row| {
                        (0..10)
                            .map(|i| {
                                row.try_get::<Option<i64>, _>(i)
                                    .map(|v| format!("{v:?}"))
                                    .unwrap_or_else(|_| {
                                        row.get::<Option<String>, _>(i).unwrap_or_default()
                                    })
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            }
        };
        let kept = rows(&server.db).await;
        sqlx::query("DELETE FROM game_results WHERE game_id = $1")
            .bind(&id)
            .execute(&server.db.pool)
            .await
            .unwrap();
        assert!(store::results::backfill(&server.services).await.unwrap() >= 1);
        assert_eq!(rows(&server.db).await, kept, "{db_name}");
        // Once: a second backfill leaves them as they are (other tests' games on the shared
        // database may still lack results, so its count is not this test's to judge).
        store::results::backfill(&server.services).await.unwrap();
        assert_eq!(rows(&server.db).await, kept, "{db_name}: once");
        let (ann_rank, bob_rank) = (
            rank_of(&server.db, &ann_name, "en").await.unwrap().0,
            rank_of(&server.db, &bob_name, "en").await.unwrap().0,
        );
        match outcome.winners[..] {
            [0] => assert!(ann_rank > bob_rank, "{db_name}"),
            [1] => assert!(bob_rank > ann_rank, "{db_name}"),
            _ => assert_eq!(ann_rank, bob_rank, "{db_name}: a draw"),
        }
    });
}
