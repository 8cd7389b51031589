//! A property test (issue 17, point 5): `games/create` given arbitrary JSON — every field of a
//! new game with any value at all, fields missing or added, or a body of any shape — answers 200
//! with a game or a typed refusal, or 400 for what cannot be read; never a 500, never a panic,
//! and never a game that makes no sense: every game it creates has seats within its ruleset's
//! range, Alfapet hands of 6 to 8, tiles of its dictionary's language, a full first hand for
//! every seat and pass-and-play names of at most 20 characters.

use std::cell::RefCell;

use proptest::{
    prelude::*,
    test_runner::{Config, TestRunner},
};
use rules::{lexicon::AcceptAll, Language, Variant};
use serde_json::{json, Map, Value};
use store::{db::Database, games};

mod support;

use support::{
    browser::{server, Browser},
    fuzz::any_json,
};

/// A number a field might be sent: small, at the edges of the integer types, or anything.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        12 => (-2i64..12).prop_map(Value::from),
        1 => prop_oneof![Just(255i64), Just(256), Just(-1), Just(1 << 32), Just(i64::MIN)].prop_map(Value::from),
        1 => any_json(),
    ]
}

/// Mostly one of the given words, sometimes any string, sometimes any JSON.
fn word(words: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![
        24 => prop::sample::select(words).prop_map(Value::from),
        1 => ".{0,24}".prop_map(Value::from),
        1 => any_json(),
    ]
}

fn flag() -> impl Strategy<Value = Value> {
    prop_oneof![24 => any::<bool>().prop_map(Value::from), 1 => any_json()]
}

fn language() -> impl Strategy<Value = Value> {
    word(&["English", "Swedish", "Danish", "Norwegian"])
}

fn variant() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => Just(json!("Classic")),
        2 => language().prop_map(|language| json!({ "AlfaKraft": { "language": language } })),
        2 => (language(), flag()).prop_map(|(language, random_board)| json!({ "Feud": { "language": language, "random_board": random_board } })),
        2 => (number(), flag()).prop_map(|(hand_size, special_tiles)| json!({ "Alfapet": { "hand_size": hand_size, "special_tiles": special_tiles } })),
        2 => flag().prop_map(|hard_mode| json!({ "LongWords": { "hard_mode": hard_mode } })),
        1 => language().prop_map(|language| json!({ "Daily": { "language": language } })),
        1 => any_json(),
    ]
}

/// A ruleset with a dictionary of its language (options still any), the way the form pairs them.
fn matched() -> impl Strategy<Value = (Value, Value)> {
    const DICTIONARIES: [(&str, &str); 5] = [
        ("English", "en"),
        ("Swedish", "sv"),
        ("Swedish", "sv-strict"),
        ("Danish", "da"),
        ("Norwegian", "nb"),
    ];
    let pair = prop::sample::select(&DICTIONARIES[..]);
    prop_oneof![
        Just((json!("Classic"), json!("en"))),
        pair.clone().prop_map(|(l, d)| (json!({ "AlfaKraft": { "language": l } }), json!(d))),
        (pair, flag()).prop_map(|((l, d), random_board)| {
            (json!({ "Feud": { "language": l, "random_board": random_board } }), json!(d))
        }),
        (number(), flag(), prop::sample::select(&["sv", "sv-strict"][..])).prop_map(
            |(hand_size, special_tiles, d)| {
                (json!({ "Alfapet": { "hand_size": hand_size, "special_tiles": special_tiles } }), json!(d))
            }
        ),
        flag().prop_map(|hard_mode| (json!({ "LongWords": { "hard_mode": hard_mode } }), json!("en"))),
    ]
}

fn opponent() -> impl Strategy<Value = Value> {
    let names = prop::collection::vec(
        prop_oneof![12 => ".{0,30}".prop_map(Value::from), 1 => any_json()],
        0..6,
    );
    prop_oneof![
        3 => word(&["beginner", "casual", "club", "expert", "grandmaster"])
            .prop_map(|level| json!({ "Bot": { "level": level } })),
        3 => Just(json!("Invite")),
        3 => Just(json!("Lobby")),
        3 => (number(), names)
            .prop_map(|(players, names)| json!({ "PassAndPlay": { "players": players, "names": names } })),
        1 => any_json(),
    ]
}

/// A new game's fields, each possibly nonsense, one possibly missing and one possibly extra; now
/// and then a body of another shape altogether.
fn body() -> impl Strategy<Value = Value> {
    let dictionary = prop_oneof![
        12 => word(&["en", "sv", "sv-strict", "da", "nb"]),
        1 => word(&["en@1", "nb@99999999999", "EN", "xx", ""]),
    ];
    let fields = (
        prop_oneof![2 => matched(), 1 => (variant(), dictionary)],
        word(&["Casual", "Blitz"]),
        opponent(),
        flag(),
        prop_oneof![12 => Just(None), 1 => (0usize..5).prop_map(Some)],
        prop_oneof![4 => Just(None), 1 => (".{0,8}", any_json()).prop_map(Some)],
    )
        .prop_map(
            |((variant, dictionary), format, opponent, rated, missing, extra)| {
                let mut new: Map<String, Value> = [
                    ("variant", variant),
                    ("dictionary", dictionary),
                    ("format", format),
                    ("opponent", opponent),
                    ("rated", rated),
                ]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
                if let Some(i) = missing {
                    let key = new.keys().nth(i).cloned().unwrap();
                    new.remove(&key);
                }
                if let Some((key, value)) = extra {
                    new.insert(key, value);
                }
                json!({ "new": new })
            },
        );
    prop_oneof![12 => fields, 1 => any_json()]
}

/// The language a dictionary's words are in, by its id (`sv-strict@2` → Swedish).
fn language_of(dictionary: &str) -> Language {
    match dictionary.split('@').next().unwrap() {
        "en" => Language::English,
        "sv" | "sv-strict" => Language::Swedish,
        "da" => Language::Danish,
        "nb" => Language::Norwegian,
        other => panic!("a game with the dictionary {other}"),
    }
}

/// The game `id` as stored makes sense.
async fn sensible(db: &Database, ann: &mut Browser, id: &str) -> Result<(), String> {
    let state = games::load(db, id, &AcceptAll)
        .await
        .map_err(|e| format!("the game does not load: {e}"))?;
    let config = state.config();
    let rules = state.rules();
    let seats = config.players;
    if !(rules.min_players..=rules.max_players).contains(&seats) {
        return Err(format!("{} seats in {}", seats, rules.name));
    }
    let language = language_of(&config.dictionary);
    let fits = match config.variant {
        Variant::AlfaKraft { language: l } | Variant::Feud { language: l, .. } => l == language,
        Variant::Classic | Variant::LongWords { .. } => language == Language::English,
        Variant::Alfapet { hand_size, .. } => {
            (6..=8).contains(&hand_size) && language == Language::Swedish
        }
        Variant::Daily { .. } => false,
    };
    if !fits {
        return Err(format!("{:?} with {}", config.variant, config.dictionary));
    }
    if (0..seats).any(|seat| state.hand(seat).len() != usize::from(rules.hand_size)) {
        return Err("a first hand is not full".into());
    }
    let page = ann.call("/api/games/get", json!({ "id": id })).await;
    let names: Vec<String> = page["Ok"]["card"]["seats"]
        .as_array()
        .ok_or(format!("no seats on the page: {page}"))?
        .iter()
        .filter_map(|seat| seat["name"].as_str().map(str::to_string))
        .collect();
    if let Some(long) = names.iter().find(|n| n.chars().count() > 20) {
        return Err(format!("a seat named {long:?}"));
    }
    Ok(())
}

#[test]
fn new_games_from_arbitrary_json_are_made_sensibly_or_refused() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    for (name, db, _dir) in runtime.block_on(support::databases()) {
        let app = runtime.block_on(server(&db));
        let ann = RefCell::new(Browser::new(&app));
        runtime.block_on(ann.borrow_mut().sign_up(&support::unique_name("ann")));
        let tally = RefCell::new((0u32, 0u32, 0u32));
        let mut runner = TestRunner::new(Config {
            cases: 200,
            failure_persistence: None,
            ..Config::default()
        });
        let outcome = runner.run(&body(), |body| {
            let mut ann = ann.borrow_mut();
            let (status, answer) = runtime.block_on(ann.raw(
                "/api/games/create",
                body.to_string(),
                &[("sec-fetch-site", "same-origin")],
            ));
            let mut tally = tally.borrow_mut();
            match status {
                400 => {
                    tally.2 += 1;
                    prop_assert!(
                        answer.starts_with("bad request") && !answer.contains("ServerFnError"),
                        "400 says {}",
                        answer
                    );
                }
                200 => {
                    let answer: Value = serde_json::from_str(&answer).expect("JSON");
                    if let Some(id) = answer["Ok"]["id"].as_str() {
                        tally.0 += 1;
                        let made = runtime.block_on(sensible(&db, &mut ann, id));
                        prop_assert!(made.is_ok(), "{} made from {}: {:?}", id, body, made);
                        // Room for the next: a player may have only so many games at once.
                        runtime
                            .block_on(
                                sqlx::query("UPDATE games SET status = 'cancelled' WHERE id = $1")
                                    .bind(id)
                                    .execute(&db.pool),
                            )
                            .unwrap();
                    } else {
                        tally.1 += 1;
                        prop_assert!(
                            answer["Err"].is_object() || answer["Err"].is_string(),
                            "{}",
                            answer
                        );
                    }
                }
                _ => prop_assert!(false, "{} for {}: {}", status, body, answer),
            }
            Ok(())
        });
        if let Err(failure) = outcome {
            panic!("{name}: {failure}");
        }
        let (made, refused, unreadable) = *tally.borrow();
        eprintln!("{name}: {made} games made, {refused} refused, {unreadable} unreadable");
        // The generator must reach all three answers, or the property says little.
        assert!(
            made >= 10 && refused >= 10 && unreadable >= 10,
            "{name}: {made} made, {refused} refused, {unreadable} unreadable"
        );
    }
}
