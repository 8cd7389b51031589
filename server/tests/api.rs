//! The server functions over HTTP (the router, called as a browser would), on SQLite and on
//! Postgres: accounts, guests, games, invites, the lobby, bots, and what must never happen —
//! reading or acting on someone else's game, leaking hidden information, forking a game.

mod support;

use support::browser::view_of;

use std::time::Duration;

use app::api::GameCard;
use axum::{body::Body, http::Request};
use http_body_util::BodyExt;
use rules::{Action, GameState, HandTile, PlayerView};
use serde_json::{json, Value};
use store::{db::Database, games};
use support::{
    a_play,
    browser::{each_database, friend_game, ok, refusal, Browser, FriendGame, Server},
    unique_name,
};
use tower::ServiceExt;

async fn answer_invite(browser: &mut Browser, token: &str, accept: bool) -> Value {
    browser
        .call(
            "/api/invites/answer",
            json!({ "token": token, "accept": accept }),
        )
        .await
}

async fn stored(server: &Server, id: &str) -> GameState {
    let lexicon = server.services.lexicon("en").await.unwrap();
    games::load(&server.db, id, &*lexicon).await.unwrap()
}

async fn log_len(db: &Database, id: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM game_actions WHERE game_id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

#[test]
fn the_page_is_answered_in_postcard_and_everyone_else_in_json_with_the_same_values() {
    use app::api::{play::GamePage, Refusal};
    each_database(async |db_name, server| {
        // A finished game between two people: the page's richest answer (rematch, head to head).
        let (mut ann, _bob, id) = finished_friend_game(&server).await;
        let as_json: Result<GamePage, Refusal> =
            serde_json::from_value(ann.page(&id).await).unwrap();
        let (media_type, bytes) = ann
            .call_as_page("/api/games/get", json!({ "id": id }))
            .await;
        assert_eq!(media_type, app::wire::POSTCARD, "{db_name}");
        let as_postcard: Result<GamePage, Refusal> = app::wire::from_bytes(&bytes).unwrap();
        assert!(as_json.is_ok(), "{db_name}: {as_json:?}");
        assert_eq!(as_postcard, as_json, "{db_name}");

        // A refusal travels the same way.
        let mut eve = Browser::new(&server);
        eve.sign_up(&unique_name("eve")).await;
        let (_, bytes) = eve
            .call_as_page("/api/games/get", json!({ "id": id }))
            .await;
        let refused: Result<GamePage, Refusal> = app::wire::from_bytes(&bytes).unwrap();
        assert!(refused.is_err(), "{db_name}: {refused:?}");
        assert_eq!(
            refusal(&eve.page(&id).await),
            &serde_json::to_value(refused.unwrap_err()).unwrap()
        );
    });
}

#[test]
fn another_players_game_can_be_neither_read_nor_acted_on() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let id = ann.create_local().await;
        let before = stored(&server, &id).await;

        let mut eve = Browser::new(&server);
        assert_eq!(
            refusal(&eve.page(&id).await),
            "SignInFirst",
            "{db_name}: no session"
        );
        eve.sign_up(&unique_name("eve")).await;
        assert_eq!(refusal(&eve.page(&id).await), "NoSuchGame", "{db_name}");
        // The page answers as any address that leads nowhere: her game for her, 404 for eve, as
        // for a game that does not exist.
        let (status, html) = ann.get(&format!("/game/{id}")).await;
        assert_eq!(status, 200, "{db_name}");
        assert!(html.contains("data-testid=\"scoreboard\""), "{db_name}");
        for path in [format!("/game/{id}"), "/game/no-such-game".to_string()] {
            let (status, html) = eve.get(&path).await;
            assert_eq!(status, 404, "{db_name}: {path}");
            assert!(html.contains("no such game"), "{db_name}: {path}");
        }
        for action in [
            Action::Pass { seat: 0 },
            Action::Resign { seat: 0 },
            Action::Resign { seat: 1 },
        ] {
            assert_eq!(refusal(&eve.act(&id, 0, &action).await), "NoSuchGame");
        }
        let resigned = eve.call("/api/games/resign", json!({ "id": id })).await;
        assert_eq!(refusal(&resigned), "NoSuchGame");
        assert_eq!(
            log_len(&server.db, &id).await,
            0,
            "{db_name}: nothing was written"
        );
        assert_eq!(stored(&server, &id).await.version(), before.version());
        // Her own list does not show it either.
        let mine = eve.call("/api/games/mine", json!({})).await;
        assert_eq!(mine.as_array().unwrap().len(), 0);
    });
}

#[test]
fn the_game_list_shows_each_game_as_it_stands() {
    each_database(async |db_name, server| {
        // Ann: a friend game two plays in, a pass-and-play game one play in, and a fresh one.
        let FriendGame {
            mut ann,
            mut bob,
            id: friend,
            ..
        } = friend_game(&server).await;
        for browser in [&mut bob, &mut ann] {
            let view = view_of(&browser.page(&friend).await);
            ok(&browser
                .act(&friend, u64::from(view.version), &a_play(&view))
                .await);
        }
        let played = ann.create_local().await;
        let view = view_of(&ann.page(&played).await);
        ok(&ann
            .act(&played, u64::from(view.version), &a_play(&view))
            .await);
        let fresh = ann.create_local().await;

        let mine = ann.call("/api/games/mine", json!({})).await;
        let cards: Vec<GameCard> = serde_json::from_value(mine).unwrap();
        let mut listed: Vec<&str> = cards.iter().map(|c| c.id.as_str()).collect();
        listed.sort();
        let mut expected = vec![friend.as_str(), played.as_str(), fresh.as_str()];
        expected.sort();
        assert_eq!(listed, expected, "{db_name}");
        for card in &cards {
            let state = stored(&server, &card.id).await;
            assert_eq!(card.scores, state.scores(), "{db_name}: {}", card.id);
            assert_eq!(card.to_move, state.to_move(), "{db_name}: {}", card.id);
            let labels: Vec<String> = card.seats.iter().map(|s| s.label()).collect();
            let with_bob = card.id == friend;
            assert_eq!(labels.len(), 2, "{db_name}: {labels:?}");
            if !with_bob {
                // Pass-and-play seats without names given: the owner, then "Player 2".
                assert_eq!(labels[1], "Player 2", "{db_name}: {labels:?}");
            }
            assert_eq!(card.my_seats, if with_bob { vec![0] } else { vec![0, 1] });
        }
    });
}

#[test]
fn no_response_carries_another_hand_the_bag_or_the_seed() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        let mut bob = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        bob.sign_up(&unique_name("bob")).await;
        let created = ann.create(json!("Invite")).await;
        let id = ok(&created)["id"].as_str().unwrap().to_string();
        let token = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
        bob.call("/api/invites/get", json!({ "token": token }))
            .await;
        let accepted = answer_invite(&mut bob, &token, true).await;
        assert_eq!(ok(&accepted), &json!(id));
        // A few real turns each, every answer recorded.
        for _ in 0..3 {
            for (browser, seat) in [(&mut bob, 1u8), (&mut ann, 0u8)] {
                let page = browser.page(&id).await;
                let view = view_of(&page);
                assert_eq!(view.seat, seat);
                let played = browser
                    .act(&id, u64::from(view.version), &a_play(&view))
                    .await;
                ok(&played);
                browser.call("/api/games/mine", json!({})).await;
            }
        }
        let state = stored(&server, &id).await;
        let seed = state.config().seed.to_string();
        // Keys, not bare words: "bag" or "seed" may well be played on the board.
        for (browser, me, other) in [(&ann, 0u8, 1u8), (&bob, 1, 0)] {
            let other_hand = serde_json::to_string(state.hand(other)).unwrap();
            for body in browser.received.lock().unwrap().iter() {
                assert!(!body.contains(&seed), "{db_name}: the seed leaked: {body}");
                assert!(
                    !body.contains("\"seed\":"),
                    "{db_name}: a seed field: {body}"
                );
                assert!(!body.contains("\"bag\":"), "{db_name}: a bag field: {body}");
                assert!(!body.contains("\"config\":"), "{db_name}: a config: {body}");
                assert!(
                    !body.contains(&format!("\"hand\":{other_hand}")),
                    "{db_name}: seat {me} saw seat {other}'s hand"
                );
                if let Ok(value) = serde_json::from_str::<Value>(body) {
                    if let Some(view) = value.get("Ok").and_then(|ok| ok.get("view")) {
                        let view: PlayerView = serde_json::from_value(view.clone()).unwrap();
                        assert_eq!(view.seat, me, "{db_name}: someone else's view");
                    }
                }
            }
        }
        // The bag's order is nowhere either: the view only counts it.
        let bag_order: Vec<HandTile> = state.bag().tiles().to_vec();
        let bag_json = serde_json::to_string(&bag_order).unwrap();
        for body in ann.received.lock().unwrap().iter() {
            assert!(bag_order.len() < 3 || !body.contains(&bag_json));
        }
    });
}

#[test]
fn two_concurrent_commits_of_one_move_leave_exactly_one() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let id = ann.create_local().await;
        for round in 0..6u64 {
            let view = view_of(&ann.page(&id).await);
            let action = a_play(&view);
            let (mut first, mut second) = (ann.clone(), ann.clone());
            let (a, b) = tokio::join!(
                first.act(&id, round, &action),
                second.act(&id, round, &action)
            );
            let oks = [&a, &b].iter().filter(|x| x.get("Ok").is_some()).count();
            assert_eq!(oks, 1, "{db_name} round {round}: {a} / {b}");
            let loser = if a.get("Ok").is_some() { &b } else { &a };
            assert!(
                refusal(loser).get("MovedOn").is_some(),
                "{db_name}: the second is told the game moved on: {loser}"
            );
            assert_eq!(log_len(&server.db, &id).await, (round + 1) as i64);
        }
    });
}

#[test]
fn malformed_and_forged_actions_are_refused_and_change_nothing() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let created = ann.create(json!({ "Bot": { "level": "beginner" } })).await;
        let id = ok(&created)["id"].as_str().unwrap().to_string();
        let page = ann.page(&id).await;
        let view = view_of(&page);
        assert_eq!(view.to_move, 0, "the human starts against a bot");

        // Not JSON, and JSON of the wrong shape: a clear error, nothing stored.
        for body in [
            "{not json".to_string(),
            json!({ "id": id, "expected_version": 0, "action": { "Fly": {} } }).to_string(),
            json!({ "id": id, "action": { "Pass": { "seat": 0 } } }).to_string(),
        ] {
            let (status, text) = ann
                .raw("/api/games/act", body, &[("sec-fetch-site", "same-origin")])
                .await;
            assert!(status >= 400, "{db_name}: {status} {text}");
            assert!(!text.is_empty(), "{db_name}: the error says something");
        }
        // Forged: the bot's seat, a tile not in the hand, the clock's action, a stale version,
        // an unknown game.
        let bot_seat = ann.act(&id, 0, &Action::Pass { seat: 1 }).await;
        assert_eq!(refusal(&bot_seat), "NotYourSeat");
        // A tile no tile set has, on the start cell.
        let play = Action::Play {
            seat: 0,
            placement: rules::Placement {
                tiles: vec![rules::NewTile {
                    pos: view.board.start(),
                    tile: rules::Played::Letter(rules::Letter(250)),
                    arrow: false,
                }],
                powers: Vec::new(),
            },
        };
        let forged = ann.act(&id, 0, &play).await;
        assert!(refusal(&forged).get("Rules").is_some(), "{forged}");
        let clock = ann
            .act(
                &id,
                0,
                &Action::TimedOut {
                    seat: 0,
                    away: false,
                },
            )
            .await;
        assert!(refusal(&clock).get("Invalid").is_some());
        let stale = ann.act(&id, 5, &Action::Pass { seat: 0 }).await;
        assert_eq!(refusal(&stale)["MovedOn"]["current"], 0);
        let unknown = ann.act("no-such-game", 0, &Action::Pass { seat: 0 }).await;
        assert_eq!(refusal(&unknown), "NoSuchGame");
        assert_eq!(
            log_len(&server.db, &id).await,
            0,
            "{db_name}: nothing stored"
        );
    });
}

#[test]
fn cross_site_requests_are_refused() {
    each_database(async |_, server| {
        let mut eve = Browser::new(&server);
        let args = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
            "opponent": { "PassAndPlay": { "players": 2 } } } })
        .to_string();
        for headers in [
            vec![("sec-fetch-site", "cross-site")],
            vec![("sec-fetch-site", "same-site")],
            vec![("origin", "https://evil.example")],
        ] {
            let (status, _) = eve.raw("/api/games/create", args.clone(), &headers).await;
            assert_eq!(status, 403, "{headers:?}");
        }
        let (status, _) = eve
            .raw(
                "/api/games/create",
                args.clone(),
                &[("origin", "http://localhost")],
            )
            .await;
        assert_eq!(status, 200);
        assert!(eve.cookie.is_some(), "the guest got a session");
    });
}

#[test]
fn sign_in_attempts_are_rate_limited() {
    each_database(async |db_name, server| {
        let name = unique_name("ann");
        Browser::new(&server).sign_up(&name).await;
        let mut mallory = Browser::new(&server);
        // Without a client address (this router is called directly) only the name's soft
        // throttle counts: 20 free failures, then waits doubling from one second, at most 30.
        for _ in 0..21 {
            let wrong = mallory
                .form("/api/account/sign-in", &name, "not the password")
                .await;
            assert!(
                refusal(&wrong).get("Account").is_some(),
                "{db_name}: {wrong}"
            );
        }
        let right = mallory
            .form("/api/account/sign-in", &name, "a good password")
            .await;
        assert!(
            refusal(&right).get("SlowDown").is_some(),
            "{db_name}: even the right password waits: {right}"
        );
        // A second instance on the same database is no way around it.
        let db = support::second_instance(&server.db).await;
        let elsewhere = support::browser::server(&db).await;
        let right = Browser::new(&elsewhere)
            .form("/api/account/sign-in", &name, "a good password")
            .await;
        assert!(
            refusal(&right).get("SlowDown").is_some(),
            "{db_name}: the other instance makes it wait too: {right}"
        );
        // ...a moment, not a lockout: the owner gets in once the second has passed.
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let owner = Browser::new(&server)
            .form("/api/account/sign-in", &name, "a good password")
            .await;
        ok(&owner);
        // Another account is not slowed by these failures.
        let other = unique_name("bob");
        Browser::new(&server).sign_up(&other).await;
        let fine = mallory
            .form("/api/account/sign-in", &other, "a good password")
            .await;
        ok(&fine);
    });
}

/// Posts the sign-in or sign-up form as a browser does before the page has its script: urlencoded,
/// asking for a page, from the form's page `referer`. The status and where it is sent.
async fn plain_post(
    browser: &mut Browser,
    path: &str,
    name: &str,
    password: &str,
    referer: &str,
) -> (u16, String) {
    let body = serde_urlencoded::to_string([("name", name), ("password", password)]).unwrap();
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("accept", "text/html,application/xhtml+xml,*/*;q=0.8"),
        ("sec-fetch-site", "same-origin"),
        ("referer", referer),
    ];
    let (status, _) = browser.raw(path, body, &headers).await;
    (status, browser.location.clone().unwrap_or_default())
}

/// A local address's path and its query's fields.
fn path_and_query(location: &str) -> (String, std::collections::HashMap<String, String>) {
    let (path, query) = location.split_once('?').unwrap_or((location, ""));
    (path.to_string(), serde_urlencoded::from_str(query).unwrap())
}

#[test]
fn plain_form_posts_go_on_to_next_on_this_site_or_back_with_the_reason() {
    each_database(async |db_name, server| {
        let name = unique_name("pia");
        let signup = "http://localhost/signup?next=//evil.example";
        // Refused: back to the form, with the reason and the name, and never headed off the site.
        let mut pia = Browser::new(&server);
        let (status, location) =
            plain_post(&mut pia, "/api/account/sign-up", &name, "short", signup).await;
        assert_eq!(status, 302, "{db_name}");
        let (path, query) = path_and_query(&location);
        assert_eq!(path, "/signup", "{db_name}: {location}");
        assert_eq!(query["refused"], "bad-password", "{db_name}: {location}");
        assert_eq!(query["name"], name, "{db_name}: {location}");
        assert_eq!(query["next"], "/", "{db_name}: {location}");
        let (status, page) = pia.get(&location).await;
        assert_eq!(status, 200, "{db_name}");
        assert!(
            page.contains("A password has 8 to 200 characters."),
            "{db_name}"
        );
        assert!(page.contains(&format!("value=\"{name}\"")), "{db_name}");
        // In: by way of the offer of recovery codes, on to the start page rather than the
        // other site.
        let signup = "http://localhost/signup?next=/%5Cevil.example";
        let (status, location) = plain_post(
            &mut pia,
            "/api/account/sign-up",
            &name,
            "a good password",
            signup,
        )
        .await;
        assert_eq!(
            (status, location.as_str()),
            (302, "/welcome?next=%2F"),
            "{db_name}"
        );
        // Signing in from elsewhere: a wrong password comes back, the right one goes on.
        let signin = "http://localhost/signin?next=/help";
        let mut other = Browser::new(&server);
        let (_, location) = plain_post(
            &mut other,
            "/api/account/sign-in",
            &name,
            "a bad password",
            signin,
        )
        .await;
        let (path, query) = path_and_query(&location);
        assert_eq!(path, "/signin", "{db_name}: {location}");
        assert_eq!(query["refused"], "wrong", "{db_name}: {location}");
        assert_eq!(query["next"], "/help", "{db_name}: {location}");
        let (_, page) = other.get(&location).await;
        assert!(page.contains("Wrong name or password."), "{db_name}");
        let (status, location) = plain_post(
            &mut other,
            "/api/account/sign-in",
            &name,
            "a good password",
            signin,
        )
        .await;
        assert_eq!((status, location.as_str()), (302, "/help"), "{db_name}");
        assert_eq!(
            other.call("/api/account/me", json!({})).await["name"],
            name,
            "{db_name}"
        );
        // A forged reason in an address shows nothing but a known message.
        let (_, page) = other.get("/signin?refused=%3Cscript%3E").await;
        assert!(!page.contains("form-error"), "{db_name}");
    });
}

#[test]
fn a_guest_plays_a_bot_at_once_and_keeps_the_game_on_sign_up() {
    each_database(async |db_name, server| {
        let mut guest = Browser::new(&server);
        let created = guest.create(json!({ "Bot": { "level": "casual" } })).await;
        let id = ok(&created)["id"].as_str().unwrap().to_string();
        let me = guest.call("/api/account/me", json!({})).await;
        assert_eq!(me["guest"], true, "{db_name}: {me}");
        // Guests do not invite or join the lobby.
        assert_eq!(
            refusal(&guest.create(json!("Invite")).await),
            "AccountNeeded"
        );
        let name = unique_name("gus");
        ok(&guest.sign_up(&name).await);
        let me = guest.call("/api/account/me", json!({})).await;
        assert_eq!(me["name"], name.as_str());
        assert_eq!(me["guest"], false);
        let mine = guest.call("/api/games/mine", json!({})).await;
        assert_eq!(mine[0]["id"], id.as_str(), "{db_name}: the game stayed");
        // Signed out, the game is not reachable; signed in again, it is.
        guest.call("/api/account/sign-out", json!({})).await;
        assert_eq!(refusal(&guest.page(&id).await), "SignInFirst");
        let signed_in = guest
            .form("/api/account/sign-in", &name, "a good password")
            .await;
        // The account's language (the one it was made in) comes with it, as a cookie beside
        // the session's.
        assert_eq!(ok(&signed_in)["language"], "en", "{db_name}");
        assert_eq!(guest.cookie_named("lang"), Some("en"));
        ok(&guest.page(&id).await);
    });
}

#[test]
fn pass_and_play_seats_carry_their_own_names() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        let name = unique_name("ann");
        ann.sign_up(&name).await;
        let created = ann
            .create(json!({ "PassAndPlay": { "players": 2, "names": ["", "  Leo   the  Lion "] } }))
            .await;
        let id = ok(&created)["id"].as_str().unwrap().to_string();
        let page = ann.page(&id).await;
        let seats = &ok(&page)["card"]["seats"];
        // Blank: the owner's name for the first seat; given names with their spaces tidied.
        assert_eq!(
            seats,
            &json!([{ "Local": { "name": name } }, { "Local": { "name": "Leo the Lion" } }]),
            "{db_name}"
        );
        let long = "x".repeat(21);
        let refused = ann
            .create(json!({ "PassAndPlay": { "players": 2, "names": ["ann", long] } }))
            .await;
        assert!(
            refusal(&refused).get("Invalid").is_some(),
            "{db_name}: {refused}"
        );
    });
}

#[test]
fn twenty_active_games_at_most() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let mut first = String::new();
        for i in 0..20 {
            let created = ann.create(json!({ "PassAndPlay": { "players": 2 } })).await;
            if i == 0 {
                first = ok(&created)["id"].as_str().unwrap().to_string();
            }
        }
        let refused = ann.create(json!({ "PassAndPlay": { "players": 2 } })).await;
        assert_eq!(refusal(&refused)["TooManyGames"], 20, "{db_name}");
        // Finishing one makes room.
        ok(&ann.call("/api/games/resign", json!({ "id": first })).await);
        ok(&ann.create(json!({ "PassAndPlay": { "players": 2 } })).await);
    });
}

#[test]
fn invites_are_accepted_once_declined_or_expire() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let created = ann.create(json!("Invite")).await;
        let path = ok(&created)["invite_path"].as_str().unwrap().to_string();
        let token = path.strip_prefix("/invite/").unwrap().to_string();
        assert!(token.len() >= 64, "unguessable");
        // Ann cannot accept her own.
        let own = answer_invite(&mut ann, &token, true).await;
        assert_eq!(refusal(&own), "OwnGame");
        // A visitor sees the offer, must sign up to accept, then moves first.
        let mut bob = Browser::new(&server);
        let card = bob
            .call("/api/invites/get", json!({ "token": token }))
            .await;
        assert_eq!(ok(&card)["open"], true);
        let early = answer_invite(&mut bob, &token, true).await;
        assert_eq!(refusal(&early), "SignInFirst");
        bob.sign_up(&unique_name("bob")).await;
        let accepted = answer_invite(&mut bob, &token, true).await;
        let id = ok(&accepted).as_str().unwrap().to_string();
        let page = bob.page(&id).await;
        assert_eq!(
            ok(&page)["card"]["my_turn"],
            true,
            "{db_name}: the joiner starts"
        );
        assert_eq!(ok(&page)["card"]["phase"], "Playing");
        // The link is used up.
        let mut carl = Browser::new(&server);
        carl.sign_up(&unique_name("carl")).await;
        let late = answer_invite(&mut carl, &token, true).await;
        assert_eq!(refusal(&late), "InviteClosed");

        // Declined: the game is called off.
        let created = ann.create(json!("Invite")).await;
        let id2 = ok(&created)["id"].as_str().unwrap().to_string();
        let token2 = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
        ok(&answer_invite(&mut carl, &token2, false).await);
        assert_eq!(ok(&ann.page(&id2).await)["card"]["phase"], "Cancelled");
        let after = answer_invite(&mut bob, &token2, true).await;
        assert_eq!(refusal(&after), "InviteClosed");

        // Expired: refused, and the sweep calls the game off.
        let created = ann.create(json!("Invite")).await;
        let id3 = ok(&created)["id"].as_str().unwrap().to_string();
        let token3 = ok(&created)["invite_path"].as_str().unwrap()[8..].to_string();
        sqlx::query("UPDATE invites SET expires_at = 0 WHERE token = $1")
            .bind(&token3)
            .execute(&server.db.pool)
            .await
            .unwrap();
        let card = bob
            .call("/api/invites/get", json!({ "token": token3 }))
            .await;
        assert_eq!(ok(&card)["open"], false);
        let expired = answer_invite(&mut bob, &token3, true).await;
        assert_eq!(refusal(&expired), "InviteClosed");
        store::seating::expire_invites(&server.db).await.unwrap();
        assert_eq!(ok(&ann.page(&id3).await)["card"]["phase"], "Cancelled");
        // Unknown tokens say the same as closed ones.
        let unknown = bob
            .call("/api/invites/get", json!({ "token": "nope" }))
            .await;
        assert_eq!(refusal(&unknown), "InviteClosed");
    });
}

#[test]
fn the_lobby_lists_open_games_and_seats_exactly_one_joiner() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let created = ann.create(json!("Lobby")).await;
        let id = ok(&created)["id"].as_str().unwrap().to_string();
        let mut bob = Browser::new(&server);
        let mut carl = Browser::new(&server);
        bob.sign_up(&unique_name("bob")).await;
        carl.sign_up(&unique_name("carl")).await;
        let listed = bob.call("/api/lobby/list", json!({})).await;
        assert!(
            listed
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["id"] == id.as_str()),
            "{db_name}: {listed}"
        );
        let (mut bob2, mut carl2) = (bob.clone(), carl.clone());
        let (b, c) = tokio::join!(
            bob2.call("/api/lobby/join", json!({ "id": id })),
            carl2.call("/api/lobby/join", json!({ "id": id }))
        );
        let joined = [&b, &c].iter().filter(|x| x.get("Ok").is_some()).count();
        assert_eq!(joined, 1, "{db_name}: {b} / {c}");
        let listed = bob.call("/api/lobby/list", json!({})).await;
        assert!(!listed
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str()));
        let winner = if b.get("Ok").is_some() {
            &mut bob
        } else {
            &mut carl
        };
        assert_eq!(ok(&winner.page(&id).await)["card"]["my_turn"], true);
    });
}

#[test]
fn a_bot_answers_off_the_request_path() {
    each_database(async |db_name, server| {
        let worker = tokio::spawn(server::workers::bots::run(
            server.services.clone(),
            Default::default(),
        ));
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        // The strongest level, which thinks longest.
        let created = ann.create(json!({ "Bot": { "level": "master" } })).await;
        let id = ok(&created)["id"].as_str().unwrap().to_string();
        let view = view_of(&ann.page(&id).await);
        ok(&ann.act(&id, 0, &a_play(&view)).await);
        // The act answered at once; the bot's move arrives afterwards.
        let mut waited = 0;
        let page = loop {
            let page = ann.page(&id).await;
            if ok(&page)["card"]["my_turn"] == true {
                break page;
            }
            waited += 1;
            assert!(waited < 600, "{db_name}: the bot never moved");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let view = view_of(&page);
        assert!(view.version >= 2, "{db_name}");
        assert_eq!(view.history.len(), 2, "{db_name}: one turn each");
        assert_eq!(view.history[1].seat, 1);
        worker.abort();
    });
}

/// A friend game Bob resigned: finished, between two people.
async fn finished_friend_game(server: &Server) -> (Browser, Browser, String) {
    let FriendGame {
        ann, mut bob, id, ..
    } = friend_game(server).await;
    ok(&bob.call("/api/games/resign", json!({ "id": id })).await);
    (ann, bob, id)
}

async fn rematch(browser: &mut Browser, id: &str, answer: &str) -> Value {
    browser
        .call("/api/games/rematch", json!({ "id": id, "answer": answer }))
        .await
}

#[test]
fn a_rematch_is_offered_withdrawn_accepted_with_seats_swapped_or_declined_for_good() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob, id) = finished_friend_game(&server).await;
        let mut eve = Browser::new(&server);
        eve.sign_up(&unique_name("eve")).await;
        assert_eq!(
            refusal(&rematch(&mut eve, &id, "Offer").await),
            "NoSuchGame"
        );

        let offered = rematch(&mut ann, &id, "Offer").await;
        assert_eq!(ok(&offered)["rematch"]["state"], "Open", "{db_name}");
        assert_eq!(ok(&offered)["rematch"]["offered_by_me"], true);
        assert_eq!(
            refusal(&rematch(&mut ann, &id, "Offer").await),
            "RematchClosed"
        );
        assert_eq!(ok(&bob.page(&id).await)["rematch"]["offered_by_me"], false);
        // Ann cannot accept her own offer; she may withdraw it and offer again.
        assert_eq!(
            refusal(&rematch(&mut ann, &id, "Accept").await),
            "RematchClosed"
        );
        let withdrawn = rematch(&mut ann, &id, "Cancel").await;
        assert_eq!(ok(&withdrawn)["rematch"]["state"], "Cancelled");
        assert_eq!(
            refusal(&rematch(&mut bob, &id, "Accept").await),
            "RematchClosed"
        );
        ok(&rematch(&mut ann, &id, "Offer").await);

        // Bob accepts: a new game with the seats swapped, so Ann (second last time) starts.
        let accepted = rematch(&mut bob, &id, "Accept").await;
        assert_eq!(ok(&accepted)["rematch"]["state"], "Accepted", "{db_name}");
        let new_id = ok(&accepted)["rematch"]["new_game_id"]
            .as_str()
            .unwrap()
            .to_string();
        let page = ann.page(&new_id).await;
        assert_eq!(ok(&page)["card"]["my_seats"], json!([1]));
        assert_eq!(
            ok(&page)["card"]["my_turn"],
            true,
            "{db_name}: the first move alternates"
        );
        assert_eq!(ok(&page)["card"]["phase"], "Playing");
        assert_eq!(
            refusal(&rematch(&mut bob, &id, "Decline").await),
            "RematchClosed"
        );

        // Declined is final.
        let (mut ann, mut bob, id) = finished_friend_game(&server).await;
        ok(&rematch(&mut ann, &id, "Offer").await);
        let declined = rematch(&mut bob, &id, "Decline").await;
        assert_eq!(ok(&declined)["rematch"]["state"], "Declined");
        assert_eq!(
            refusal(&rematch(&mut ann, &id, "Offer").await),
            "RematchClosed"
        );
        assert_eq!(
            refusal(&rematch(&mut bob, &id, "Offer").await),
            "RematchClosed"
        );

        // An offer lapses after seven days.
        let (mut ann, mut bob, id) = finished_friend_game(&server).await;
        ok(&rematch(&mut ann, &id, "Offer").await);
        sqlx::query("UPDATE rematches SET expires_at = 0 WHERE game_id = $1")
            .bind(&id)
            .execute(&server.db.pool)
            .await
            .unwrap();
        assert_eq!(ok(&bob.page(&id).await)["rematch"]["state"], "Expired");
        assert_eq!(
            refusal(&rematch(&mut bob, &id, "Accept").await),
            "RematchClosed"
        );

        // Not for bot games, nor games still in play.
        let mut carl = Browser::new(&server);
        carl.sign_up(&unique_name("carl")).await;
        let bot_game = carl.create(json!({ "Bot": { "level": "beginner" } })).await;
        let bot_id = ok(&bot_game)["id"].as_str().unwrap().to_string();
        assert!(refusal(&rematch(&mut carl, &bot_id, "Offer").await)
            .get("Invalid")
            .is_some());
    });
}

#[test]
fn buying_and_selling_work_on_the_others_turn_and_do_not_send_the_movers_move_back() {
    each_database(async |db_name, server| {
        let FriendGame {
            mut ann,
            mut bob,
            id,
            ..
        } = friend_game(&server).await;
        // Bob (seat 1) is to move; Ann buys with a version long gone, then sells.
        let buy = Action::Buy {
            seat: 0,
            power: rules::Power::Dice,
        };
        let bought = view_of(&ann.act(&id, 0, &buy).await);
        assert_eq!(bought.power_bar, vec![rules::Power::Dice], "{db_name}");
        assert_eq!(bought.coins[0], 5, "{db_name}");
        let sell = Action::Sell {
            seat: 0,
            power: rules::Power::Dice,
        };
        let sold = view_of(&ann.act(&id, 0, &sell).await);
        assert!(sold.power_bar.is_empty(), "{db_name}");
        assert_eq!(sold.coins[0], 10, "{db_name}: the full price back");
        // Selling what is not in the bar is refused, and changes nothing.
        let again = ann.act(&id, 0, &sell).await;
        assert!(refusal(&again)["Rules"].is_object() || refusal(&again)["Rules"].is_string());
        assert_eq!(log_len(&server.db, &id).await, 2, "{db_name}");
        // Bob's move, made against the version he saw before Ann's trades, is not sent back:
        // her purchase and sale changed nothing it depended on.
        let passed = view_of(&bob.act(&id, 0, &Action::Pass { seat: 1 }).await);
        assert_eq!(passed.version, 3, "{db_name}");
        assert_eq!(log_len(&server.db, &id).await, 3, "{db_name}");
        // The same move again is a double submission: refused, nothing added.
        let twice = bob.act(&id, 0, &Action::Pass { seat: 1 }).await;
        assert!(refusal(&twice)["MovedOn"].is_object(), "{db_name}: {twice}");
        assert_eq!(log_len(&server.db, &id).await, 3, "{db_name}");
    });
}

/// `GET /api/live{query}` as `browser`.
async fn live_response(browser: &Browser, query: &str) -> axum::response::Response {
    let mut request = Request::get(format!("/api/live{query}")).header("host", "localhost");
    if let Some(cookie) = &browser.cookie {
        request = request.header("cookie", cookie);
    }
    browser
        .app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

/// Opens `/api/live` as `browser` and returns the status and, when open, the first bytes.
async fn open_live(browser: &Browser, query: &str) -> (u16, String) {
    let response = live_response(browser, query).await;
    let status = response.status().as_u16();
    if status != 200 {
        return (status, String::new());
    }
    let mut body = response.into_body();
    let frame = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
        .await
        .expect("a first event")
        .unwrap()
        .unwrap();
    let bytes = frame.into_data().unwrap_or_default();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[test]
fn the_live_stream_is_for_players_only() {
    each_database(async |db_name, server| {
        let mut ann = Browser::new(&server);
        ann.sign_up(&unique_name("ann")).await;
        let id = ann.create_local().await;
        let stranger = Browser::new(&server);
        assert_eq!(
            open_live(&stranger, "").await.0,
            204,
            "{db_name}: no session"
        );
        let mut eve = Browser::new(&server);
        eve.sign_up(&unique_name("eve")).await;
        let query = format!("?game={id}");
        assert_eq!(open_live(&eve, &query).await.0, 404, "{db_name}: not hers");
        let (status, first) = open_live(&ann, &query).await;
        assert_eq!(status, 200, "{db_name}");
        assert!(first.contains("retry:"), "{db_name}: {first}");
    });
}

/// The text of `body`'s frames until `until` appears in it, or nothing more comes for `quiet`.
async fn read_live(body: &mut Body, until: &str, quiet: Duration) -> String {
    let mut seen = String::new();
    while !seen.contains(until) {
        match tokio::time::timeout(quiet, body.frame()).await {
            Ok(Some(Ok(frame))) => seen.push_str(&String::from_utf8_lossy(
                &frame.into_data().unwrap_or_default(),
            )),
            _ => break,
        }
    }
    seen
}

/// `browser`'s live stream of game `id`, read past its opening until it goes quiet.
async fn quiet_live(browser: &Browser, id: &str) -> Body {
    let mut body = live_response(browser, &format!("?game={id}"))
        .await
        .into_body();
    read_live(&mut body, "never", Duration::from_millis(500)).await;
    body
}

#[test]
fn a_move_is_announced_to_the_other_players_page_and_a_refused_one_is_not() {
    // On Postgres the announcement is a NOTIFY inside the move's own transaction: it must go out
    // when the move commits, and not for a move that is refused.
    each_database(async |db_name, server| {
        let FriendGame {
            ann, mut bob, id, ..
        } = friend_game(&server).await;
        let mut body = quiet_live(&ann, &id).await;
        let stale = bob.act(&id, 5, &Action::Pass { seat: 1 }).await;
        moved_on_unannounced(db_name, &stale, &mut body).await;
        ok(&bob.act(&id, 0, &Action::Pass { seat: 1 }).await);
        let after_move = read_live(&mut body, "event: game", Duration::from_secs(5)).await;
        assert!(
            after_move.contains("event: game"),
            "{db_name}: {after_move}"
        );
        // The same move again (a double submission) is refused, and not announced either.
        let twice = bob.act(&id, 0, &Action::Pass { seat: 1 }).await;
        moved_on_unannounced(db_name, &twice, &mut body).await;
    });
}

/// `answer` refuses a move as out of date, and the live stream `body` announces nothing within a
/// second.
async fn moved_on_unannounced(db_name: &str, answer: &Value, body: &mut Body) {
    assert!(
        refusal(answer)["MovedOn"].is_object(),
        "{db_name}: {answer}"
    );
    let after = read_live(body, "event: game", Duration::from_secs(1)).await;
    assert!(!after.contains("event: game"), "{db_name}: {after}");
}

#[test]
fn an_opponents_purchase_is_not_announced_to_the_player_to_move() {
    each_database(async |db_name, server| {
        let FriendGame {
            mut ann, bob, id, ..
        } = friend_game(&server).await;
        // The opening and the presence, then quiet.
        let mut body = quiet_live(&bob, &id).await;
        // Ann (not to move) buys a power: Bob's page hears nothing of it.
        let buy = Action::Buy {
            seat: 0,
            power: rules::Power::Dice,
        };
        ok(&ann.act(&id, 0, &buy).await);
        let after_buy = read_live(&mut body, "event: game", Duration::from_secs(1)).await;
        assert!(!after_buy.contains("event: game"), "{db_name}: {after_buy}");
        // Her resignation is news to him.
        ok(&ann.call("/api/games/resign", json!({ "id": id })).await);
        let after_resign = read_live(&mut body, "event: game", Duration::from_secs(5)).await;
        assert!(
            after_resign.contains("event: game"),
            "{db_name}: {after_resign}"
        );
    });
}

/// A game's chat reaches its players and no one else: not a stranger asking with the game's id
/// anywhere (the game, its chat, the live stream, the lists, the public pages), and not the
/// game's record (GCG) even for its players.
#[test]
fn no_response_carries_a_chat_to_anyone_not_seated() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob, id) = finished_friend_game(&server).await;
        let secret = format!("zebra{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
        ok(&ann
            .call("/api/chat/send", json!({ "game": id, "text": secret }))
            .await);
        let read = bob.call("/api/chat/read", json!({ "game": id })).await;
        assert!(read.to_string().contains(&secret), "{db_name}: {read}");
        let mut eve = Browser::new(&server);
        eve.sign_up(&unique_name("eve")).await;
        for (path, args) in [
            ("/api/games/get", json!({ "id": id })),
            ("/api/chat/read", json!({ "game": id })),
            ("/api/chat/send", json!({ "game": id, "text": "hello" })),
            ("/api/games/mine", json!({})),
            ("/api/lobby/list", json!({})),
            ("/api/friends/list", json!({})),
            ("/api/analysis/turns", json!({ "id": id })),
        ] {
            let answer = eve.call(path, args).await.to_string();
            assert!(
                !answer.contains(&secret),
                "{db_name}: {path} told a stranger: {answer}"
            );
        }
        let ann_name = ann.call("/api/account/me", json!({})).await["name"]
            .as_str()
            .unwrap()
            .to_string();
        for path in [
            format!("/game/{id}/gcg"),
            format!("/game/{id}/turn/0"),
            format!("/u/{ann_name}"),
            "/friends".to_string(),
        ] {
            let (_, body) = eve.get(&path).await;
            assert!(!body.contains(&secret), "{db_name}: {path} told a stranger");
            let (_, body) = bob.get(&path).await;
            assert!(
                !body.contains(&secret),
                "{db_name}: {path} carries the chat"
            );
        }
        assert_eq!(open_live(&eve, &format!("game={id}")).await.0, 404);
    });
}

/// The profile's and the Friends page's forms, posted without a script, come back to their
/// page, which says what became of them in the reader's words; an address cannot make a page
/// say anything else.
#[test]
fn plain_social_forms_come_back_to_their_page() {
    each_database(async |db_name, server| {
        let (ann, bob) = (unique_name("ann"), unique_name("bob"));
        let mut pia = Browser::new(&server);
        pia.sign_up(&ann).await;
        Browser::new(&server).sign_up(&bob).await;
        let post = async |browser: &mut Browser, path: &str, name: &str, referer: &str| {
            let body = serde_urlencoded::to_string([("name", name)]).unwrap();
            let headers = [
                ("content-type", "application/x-www-form-urlencoded"),
                ("accept", "text/html"),
                ("sec-fetch-site", "same-origin"),
                ("host", "localhost"),
                ("referer", referer),
            ];
            let (status, _) = browser.raw(path, body, &headers).await;
            (status, browser.location.clone().unwrap_or_default())
        };
        let profile = format!("http://localhost/u/{bob}?done=true");
        let (status, location) = post(&mut pia, "/api/friends/follow", &bob, &profile).await;
        assert_eq!(
            (status, location.as_str()),
            (302, format!("/u/{bob}?done=true").as_str()),
            "{db_name}"
        );
        let (_, page) = pia.get(&location).await;
        assert!(
            page.contains("Done.") && page.contains("data-testid=\"unfollow\""),
            "{db_name}"
        );
        let (_, location) = post(
            &mut pia,
            "/api/friends/follow",
            "nobody",
            "http://localhost/friends",
        )
        .await;
        let (path, _) = path_and_query(&location);
        assert_eq!(path, "/friends", "{db_name}: {location}");
        let (_, page) = pia.get(&location).await;
        assert!(
            page.contains("There is no player called nobody."),
            "{db_name}"
        );
        assert!(
            page.contains(&format!("data-friend=\"{bob}\"")),
            "{db_name}"
        );
        // Off-site referers and made-up refusals lead nowhere and say nothing.
        let (_, location) = post(
            &mut pia,
            "/api/friends/unfollow",
            &bob,
            "https://evil.example/x",
        )
        .await;
        assert!(location.starts_with("/?"), "{db_name}: {location}");
        let (_, page) = pia
            .get("/friends?refused=%22Pay%20at%20evil.example%22")
            .await;
        assert!(!page.contains("evil.example"), "{db_name}");
    });
}

/// "Export my data": the player's account, their games with the GCG of the finished ones, their
/// chats; nothing of anyone else's games, and never a password hash or a session.
#[test]
fn a_player_exports_their_data_and_only_theirs() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob, id) = finished_friend_game(&server).await;
        ok(&ann
            .call(
                "/api/chat/send",
                json!({ "game": id, "text": "well played" }),
            )
            .await);
        let bob_name = bob.call("/api/account/me", json!({})).await["name"].clone();
        let bob_name = bob_name.as_str().unwrap();
        ann.post_form("/api/friends/follow", &[("name", bob_name)])
            .await;
        let (status, body) = ann.get("/settings/export").await;
        assert_eq!(status, 200, "{db_name}");
        let data: Value = serde_json::from_str(&body).unwrap();
        let name = ann.call("/api/account/me", json!({})).await["name"].clone();
        assert_eq!(data["account"]["name"], name, "{db_name}");
        let game = data["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == json!(id))
            .expect("the game");
        assert_eq!(game["status"], "over");
        assert!(
            game["gcg"]
                .as_str()
                .unwrap()
                .starts_with("#character-encoding UTF-8"),
            "{db_name}: {game}"
        );
        assert_eq!(data["chats"][0]["body"], "well played", "{db_name}");
        // Every domain's part, each with its own fields.
        let keys = |value: &Value| {
            let mut keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
            keys.sort();
            keys.join(" ")
        };
        assert_eq!(
            keys(&data),
            "account blocks chats exported_at follows games notifications player_reports \
             ranks vacations word_reports",
            "{db_name}"
        );
        assert_eq!(
            keys(&data["account"]),
            "chat_off created_at email language mail_deadlines mail_digest name role \
             two_factor",
            "{db_name}"
        );
        assert_eq!(
            keys(&data["notifications"]),
            "devices kinds quiet_utc_minutes",
            "{db_name}"
        );
        assert_eq!(data["account"]["two_factor"], false, "{db_name}");
        assert_eq!(data["follows"], json!([bob_name]), "{db_name}");
        assert_eq!(data["blocks"], json!([]), "{db_name}");
        // The friend game was rated: a rank in English, with the game in its history.
        assert_eq!(
            data["ranks"][0]["history"][0]["game_id"],
            json!(id),
            "{db_name}"
        );
        assert_eq!(data["ranks"][0]["history"][0]["result"], "win", "{db_name}");
        for secret in ["argon2", "password_hash", "\"seed\""] {
            assert!(
                !body.contains(secret),
                "{db_name}: the export carries {secret}"
            );
        }
        let mut eve = Browser::new(&server);
        eve.sign_up(&unique_name("eve")).await;
        let (_, theirs) = eve.get("/settings/export").await;
        assert!(
            !theirs.contains(&id) && !theirs.contains("well played"),
            "{db_name}"
        );
        let (status, _) = Browser::new(&server).get("/settings/export").await;
        assert_eq!(status, 303, "{db_name}: a visitor is sent to sign in");
    });
}
