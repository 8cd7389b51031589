//! The fuzz campaign over the server functions that came after `games/create`'s property test
//! (`new_game_json.rs`): the admin's, the Daily Challenge's, word reports, analysis, the
//! language switch, the social layer's (friends, blocks, chat, reports) and the account's
//! (password, sessions, recovery codes, two-factor sign-in, closing), e-mail, push, device
//! games' records and copies, vacations, nudges, leagues and tournaments. Each is called with arbitrary bodies — its fields with plausible or absurd
//! values, fields missing or extra, bodies of another shape — by a player and by an admin, on
//! SQLite and Postgres. Every answer is a 200 with a value or a typed refusal, or a 400 or 413
//! naming what could not be read; never a 500. And what they write stays whole: a player's open
//! reports within the cap, each dictionary's versions numbered 1, 2, 3… with one of them active.

use std::cell::RefCell;

use proptest::{
    prelude::*,
    test_runner::{Config, TestRunner},
};
use serde_json::{json, Map, Value};
use store::db::Database;

mod support;

use support::{
    browser::{server, Browser},
    fuzz::any_json,
};

/// Mostly one of `words`, sometimes any string, a long one (longer than an error message is
/// expected to be, as an attacker found), or any JSON.
fn word(words: &'static [&'static str]) -> BoxedStrategy<Value> {
    prop_oneof![
        12 => prop::sample::select(words).prop_map(Value::from),
        2 => ".{0,24}".prop_map(Value::from),
        1 => (60_000usize..140_000).prop_map(|n| Value::from("x".repeat(n))),
        1 => any_json(),
    ]
    .boxed()
}

/// A number as a field might be sent.
fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        8 => (0i64..5).prop_map(Value::from),
        1 => prop_oneof![Just(-1i64), Just(1 << 32), Just(i64::MAX)].prop_map(Value::from),
        1 => any_json(),
    ]
    .boxed()
}

const DICTIONARIES: &[&str] = &["en", "sv", "sv-strict", "da", "nb"];

/// One call: the function, whether it takes a form (else JSON), and its fields.
fn call() -> impl Strategy<Value = (&'static str, bool, Map<String, Value>)> {
    let game = word(&["a-game", "0123456789abcdef0123456789abcdef"]);
    let text = word(&["qwrtzy", "ab", "hello\nworld", "", "smörgås"]);
    let kind = word(&["Missing", "Wrong"]);
    // The fuzzing players' names are made at run time: these stand for a real name, nobody, and
    // oneself's shape.
    let name = word(&["fuzz_friend", "nobody", "", "ADMIN"]);
    let fields = |pairs: Vec<(&'static str, BoxedStrategy<Value>)>| {
        let (names, values): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        values.prop_map(move |values| {
            names
                .iter()
                .zip(values)
                .map(|(n, v)| (n.to_string(), v))
                .collect::<Map<String, Value>>()
        })
    };
    prop_oneof![
        fields(vec![("language", word(&["en", "sv", "da", "nb", "fr"]))]).prop_map(|f| (
            "/api/account/language",
            false,
            f
        )),
        fields(vec![]).prop_map(|f| ("/api/daily/today", false, f)),
        fields(vec![("dictionary", word(DICTIONARIES))]).prop_map(|f| (
            "/api/daily/start",
            false,
            f
        )),
        fields(vec![
            ("game", game.clone()),
            ("word", text.clone()),
            ("kind", kind.clone())
        ])
        .prop_map(|f| ("/api/reports/file", false, f)),
        fields(vec![]).prop_map(|f| ("/api/reports/mine", false, f)),
        fields(vec![("id", game.clone())]).prop_map(|f| ("/api/analysis/turns", false, f)),
        fields(vec![("id", game.clone())]).prop_map(|f| ("/api/analysis/run", false, f)),
        fields(vec![("name", name.clone())]).prop_map(|f| ("/api/friends/follow", true, f)),
        fields(vec![("name", name.clone())]).prop_map(|f| ("/api/friends/unfollow", true, f)),
        fields(vec![]).prop_map(|f| ("/api/friends/list", true, f)),
        fields(vec![
            ("game", game.clone()),
            ("accept", word(&["true", "false"]))
        ])
        .prop_map(|f| ("/api/friends/answer", true, f)),
        fields(vec![("name", name.clone())]).prop_map(|f| ("/api/blocks/block", true, f)),
        fields(vec![("name", name.clone())]).prop_map(|f| ("/api/blocks/unblock", true, f)),
        fields(vec![("game", game.clone())]).prop_map(|f| ("/api/chat/read", true, f)),
        fields(vec![("game", game.clone()), ("text", text.clone())]).prop_map(|f| (
            "/api/chat/send",
            true,
            f
        )),
        fields(vec![("off", word(&["true", "false"]))]).prop_map(|f| (
            "/api/chat/setting",
            true,
            f
        )),
        fields(vec![
            ("name", name.clone()),
            ("message", number()),
            ("reason", text.clone())
        ])
        .prop_map(|f| ("/api/moderation/report", true, f)),
        fields(vec![("current", text.clone()), ("new", text.clone())]).prop_map(|f| (
            "/api/account/password",
            true,
            f
        )),
        fields(vec![]).prop_map(|f| ("/api/account/sessions", false, f)),
        fields(vec![("handle", word(&["", "0123456789abcdef"]))]).prop_map(|f| (
            "/api/account/sign-out-sessions",
            true,
            f
        )),
        fields(vec![]).prop_map(|f| ("/api/account/recovery-codes", true, f)),
        fields(vec![("password", text.clone())]).prop_map(|f| ("/api/account/close", true, f)),
        fields(vec![]).prop_map(|f| ("/api/account/two-factor-begin", true, f)),
        fields(vec![("code", word(&["123456", "", "abcde-fghjk"]))]).prop_map(|f| (
            "/api/account/two-factor-confirm",
            true,
            f
        )),
        fields(vec![("password", text.clone())]).prop_map(|f| (
            "/api/account/two-factor-off",
            true,
            f
        )),
        fields(vec![("address", text.clone())]).prop_map(|f| ("/api/mail/address", true, f)),
        fields(vec![]).prop_map(|f| ("/api/mail/remove", true, f)),
        fields(vec![
            ("digest", word(&["on", ""])),
            ("deadlines", word(&["on", ""]))
        ])
        .prop_map(|f| ("/api/mail/choose", true, f)),
        fields(vec![("who", text.clone())]).prop_map(|f| ("/api/mail/forgot", true, f)),
        fields(vec![("token", text.clone()), ("password", text.clone())]).prop_map(|f| (
            "/api/mail/reset",
            true,
            f
        )),
        fields(vec![]).prop_map(|f| ("/api/push/key", false, f)),
        fields(vec![
            (
                "endpoint",
                word(&[
                    "https://fcm.googleapis.com/fcm/send/x",
                    "http://127.0.0.1/x"
                ])
            ),
            ("p256dh", text.clone()),
            ("auth", text.clone())
        ])
        .prop_map(|f| ("/api/push/subscribe", false, f)),
        fields(vec![("endpoint", text.clone())]).prop_map(|f| ("/api/push/unsubscribe", false, f)),
        fields(vec![
            ("turn", word(&["on", ""])),
            ("quiet_from", word(&["22", "", "25"])),
            ("quiet_to", word(&["7", "x"])),
            ("offset", word(&["-60", "99999"]))
        ])
        .prop_map(|f| ("/api/push/choose", true, f)),
        fields(vec![
            ("name", name),
            ("code", word(&["abcde-fghjk", ""])),
            ("password", text.clone())
        ])
        .prop_map(|f| ("/api/account/recover", true, f)),
        fields(vec![]).prop_map(|f| ("/api/admin/overview", false, f)),
        fields(vec![
            ("dictionary", word(DICTIONARIES)),
            ("version", number())
        ])
        .prop_map(|f| ("/api/admin/version", false, f)),
        fields(vec![
            ("dictionary", word(DICTIONARIES)),
            ("add", text.clone()),
            ("remove", text.clone()),
            ("reason", text.clone()),
        ])
        .prop_map(|f| ("/api/admin/edit", true, f)),
        fields(vec![
            ("dictionary", word(DICTIONARIES)),
            ("version", number()),
            ("word", text.clone())
        ])
        .prop_map(|f| ("/api/admin/lookup", true, f)),
        fields(vec![
            ("dictionary", word(DICTIONARIES)),
            ("version", number()),
            ("reason", text.clone()),
            ("confirm", word(&["true", "false"])),
        ])
        .prop_map(|f| ("/api/admin/activate", true, f)),
        fields(vec![
            ("dictionary", word(DICTIONARIES)),
            ("word", text.clone()),
            ("kind", kind),
            ("accept", word(&["true", "false"])),
        ])
        .prop_map(|f| ("/api/admin/decide-report", true, f)),
        fields(vec![(
            "days",
            word(&["3", "0", "15", "-1", "x", "99999999999999999999"])
        )])
        .prop_map(|f| ("/api/vacation/start", true, f)),
        fields(vec![]).prop_map(|f| ("/api/vacation/end", true, f)),
        fields(vec![("id", game.clone())]).prop_map(|f| ("/api/games/nudge", false, f)),
        fields(vec![("season", word(&["", "0123456789abcdef", "../x"]))]).prop_map(|f| (
            "/api/leagues/register",
            true,
            f
        )),
        fields(vec![("season", word(&["", "0123456789abcdef"]))]).prop_map(|f| (
            "/api/leagues/unregister",
            true,
            f
        )),
        fields(vec![
            ("name", text.clone()),
            (
                "ruleset",
                word(&[
                    "classic",
                    "alfakraft",
                    "feud",
                    "alfapet",
                    "longwords",
                    "daily"
                ])
            ),
            ("dictionary", word(DICTIONARIES)),
            ("days", word(&["3", "0", "31", "x"])),
        ])
        .prop_map(|f| ("/api/leagues/create", true, f)),
        fields(vec![(
            "tournament",
            word(&["", "0123456789abcdef", "../x"])
        )])
        .prop_map(|f| ("/api/tournaments/enter", true, f)),
        fields(vec![("tournament", word(&["", "0123456789abcdef"]))]).prop_map(|f| (
            "/api/tournaments/check-in",
            true,
            f
        )),
        fields(vec![("tournament", word(&["", "0123456789abcdef"]))]).prop_map(|f| (
            "/api/tournaments/withdraw",
            true,
            f
        )),
        fields(vec![
            ("name", text.clone()),
            ("ruleset", word(&["classic", "feud", "daily"])),
            ("dictionary", word(DICTIONARIES)),
            ("format", word(&["blitz", "casual", "bullet"])),
            ("pairing", word(&["swiss", "round_robin", "knockout"])),
            ("rounds", word(&["4", "0", "12", "x"])),
            (
                "minutes",
                word(&["60", "0", "43201", "-5", "99999999999999999999"])
            ),
            ("private", word(&["1", ""])),
        ])
        .prop_map(|f| ("/api/tournaments/create", true, f)),
        fields(vec![("game", device_game())]).prop_map(|f| ("/api/games/device", false, f)),
        fields(vec![]).prop_map(|f| ("/api/games/device/copies", true, f)),
        fields(vec![(
            "key",
            word(&["3f2c9a1e-0000-4000-8000-000000000001", "", "../x"])
        )])
        .prop_map(|f| ("/api/games/device/discard", true, f)),
    ]
}

/// A device game's record as sent, its fields plausible or absurd (the server must replay it or
/// refuse it, never fail).
fn device_game() -> BoxedStrategy<Value> {
    let actions = prop_oneof![
        2 => Just(json!([])),
        2 => Just(json!([{ "Pass": { "seat": 0 } }, { "Pass": { "seat": 1 } }])),
        1 => Just(json!([{ "Resign": { "seat": 0 } }])),
        1 => (0usize..1_200).prop_map(|n| Value::from(vec![json!({ "Pass": { "seat": 0 } }); n])),
        1 => any_json(),
    ];
    let variant = prop_oneof![
        3 => Just(json!("Classic")),
        2 => Just(json!({ "AlfaKraft": { "language": "English" } })),
        1 => any_json(),
    ];
    let pairs: Vec<(&'static str, BoxedStrategy<Value>)> = vec![
        (
            "key",
            word(&["3f2c9a1e-0000-4000-8000-000000000001", "", "../x"]),
        ),
        ("variant", variant.boxed()),
        ("dictionary", word(&["en@1", "en", "en@999", "sv@1"])),
        ("seed", number()),
        ("first_seat", number()),
        ("bot_seat", number()),
        ("level", word(&["Beginner", "Master", "God"])),
        ("actions", actions.boxed()),
        (
            "scores",
            prop_oneof![Just(json!([0, 0])), any_json()].boxed(),
        ),
        (
            "rated",
            prop_oneof![4 => Just(json!(false)), 1 => Just(json!(true)), 1 => any_json()].boxed(),
        ),
    ];
    let (names, values): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
    values
        .prop_map(move |values| {
            let fields = names.iter().zip(values).map(|(n, v)| (n.to_string(), v));
            Value::Object(fields.collect())
        })
        .boxed()
}

/// A call with one field perhaps missing and one perhaps added; now and then a body of another
/// shape altogether.
fn body() -> impl Strategy<Value = (&'static str, bool, Value)> {
    (
        call(),
        prop_oneof![8 => Just(None), 1 => (0usize..4).prop_map(Some)],
        prop_oneof![8 => Just(None), 1 => (".{0,6}", any_json()).prop_map(Some)],
        prop_oneof![12 => Just(false), 1 => Just(true)],
    )
        .prop_map(|((path, form, mut fields), missing, extra, other)| {
            if let Some(key) = missing.and_then(|i| fields.keys().nth(i).cloned()) {
                fields.remove(&key);
            }
            if let Some((key, value)) = extra {
                fields.insert(key, value);
            }
            let body = if other {
                json!([fields])
            } else {
                Value::Object(fields)
            };
            (path, form, body)
        })
}

/// A form's body from JSON fields: strings as they are, anything else as its JSON.
fn form_of(body: &Value) -> String {
    let Value::Object(fields) = body else {
        return body.to_string();
    };
    let pairs: Vec<(String, String)> = fields
        .iter()
        .map(|(k, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), text)
        })
        .collect();
    serde_urlencoded::to_string(pairs).unwrap()
}

/// A body short enough to read in a failure's message.
fn shown(body: &Value) -> String {
    let text = body.to_string();
    match text.char_indices().nth(200) {
        Some((end, _)) => format!("{}… ({} bytes)", &text[..end], text.len()),
        None => text,
    }
}

/// What the calls wrote is whole.
async fn whole(db: &Database, player: i64) -> Result<(), String> {
    let open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM word_reports WHERE user_id = $1 AND status = 'open'",
    )
    .bind(player)
    .fetch_one(&db.pool)
    .await
    .map_err(|e| e.to_string())?;
    if open > store::library::reports::MAX_OPEN_PER_PLAYER {
        return Err(format!("{open} open reports"));
    }
    let open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM player_reports WHERE reporter = $1 AND status = 'open'",
    )
    .bind(player)
    .fetch_one(&db.pool)
    .await
    .map_err(|e| e.to_string())?;
    if open > store::moderation::MAX_OPEN_REPORTS {
        return Err(format!("{open} open reports of players"));
    }
    for id in ["en", "sv", "sv-strict", "da", "nb"] {
        let versions: Vec<i64> = sqlx::query_scalar(
            "SELECT version FROM dictionary_versions WHERE dictionary = $1 ORDER BY version",
        )
        .bind(id)
        .fetch_all(&db.pool)
        .await
        .map_err(|e| e.to_string())?;
        if versions != (1..=versions.len() as i64).collect::<Vec<_>>() {
            return Err(format!("{id}: versions {versions:?}"));
        }
        let active: i64 =
            sqlx::query_scalar("SELECT version FROM dictionary_active WHERE dictionary = $1")
                .bind(id)
                .fetch_one(&db.pool)
                .await
                .map_err(|e| e.to_string())?;
        if !versions.contains(&active) {
            return Err(format!("{id}: active version {active} does not exist"));
        }
    }
    Ok(())
}

#[test]
fn the_newer_server_functions_answer_arbitrary_bodies_without_a_500() {
    let runtime = support::browser::runtime();
    for (name, db, _dir) in runtime.block_on(support::own_databases()) {
        let app = runtime.block_on(server(&db));
        let player_name = support::unique_name("fuzz");
        let admin_name = support::unique_name("fuzz");
        let (mut player, mut admin) = (Browser::new(&app), Browser::new(&app));
        runtime.block_on(async {
            player.sign_up(&player_name).await;
            admin.sign_up(&admin_name).await;
            assert!(store::accounts::make_admin(&db, &admin_name).await.unwrap());
            // Someone to follow, block and report (already there from an earlier run on Postgres).
            let _ = store::accounts::sign_up(&db, "fuzz_friend", "a good password").await;
        });
        let player_id = runtime
            .block_on(store::accounts::sign_in(
                &db,
                &player_name,
                "a good password",
            ))
            .unwrap()
            .id;
        let browsers = RefCell::new((player, admin));
        let tally = RefCell::new([0u32; 3]);
        let mut runner = TestRunner::new(Config {
            cases: 150,
            failure_persistence: None,
            ..Config::default()
        });
        let outcome = runner.run(
            &(body(), any::<bool>()),
            |((path, form, body), as_admin)| {
                let mut browsers = browsers.borrow_mut();
                let browser = if as_admin {
                    &mut browsers.1
                } else {
                    &mut browsers.0
                };
                let (content_type, sent) = match form {
                    true => ("application/x-www-form-urlencoded", form_of(&body)),
                    false => ("application/json", body.to_string()),
                };
                let (status, answer) = runtime.block_on(browser.raw(
                    path,
                    sent,
                    &[
                        ("content-type", content_type),
                        ("sec-fetch-site", "same-origin"),
                    ],
                ));
                let mut tally = tally.borrow_mut();
                match status {
                    200 => tally[0] += 1,
                    400 | 413 => {
                        tally[1] += 1;
                        prop_assert!(
                            answer.starts_with("bad request") || answer.starts_with("request body"),
                            "{} {}: {}",
                            status,
                            path,
                            answer.chars().take(200).collect::<String>()
                        );
                    }
                    _ => prop_assert!(
                        false,
                        "{} for {} {}: {}",
                        status,
                        path,
                        shown(&body),
                        answer
                    ),
                }
                if answer.contains("\"Err\"") {
                    tally[2] += 1;
                }
                let whole = runtime.block_on(whole(&db, player_id));
                prop_assert!(
                    whole.is_ok(),
                    "after {} {}: {:?}",
                    path,
                    shown(&body),
                    whole
                );
                Ok(())
            },
        );
        if let Err(failure) = outcome {
            panic!("{name}: {failure}");
        }
        let [answered, unreadable, refused] = *tally.borrow();
        eprintln!("{name}: {answered} answered ({refused} refused), {unreadable} unreadable");
        assert!(
            answered >= 30 && unreadable >= 10 && refused >= 10,
            "{name}: the generator reaches every kind of answer"
        );
    }
}
