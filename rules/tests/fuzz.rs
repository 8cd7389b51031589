//! The standing fuzz campaign (issue 17): every ruleset gets random games of random actions —
//! plausible plays, passes, exchanges, challenges, trades, time-outs and bytes made into any action
//! at all — judged by a lexicon that refuses a fifth of all words, so invalid plays, challenges and
//! hard-mode penalties happen too. After every action: no panic, no tile made or lost, a refused
//! action changed nothing, and both views serialise; after every game: its log replays to the
//! same state.
//!
//! Each run starts from a fresh random seed, so CI explores new games every time; a failure is
//! shrunk to a small case, printed, and kept in `tests/fuzz.proptest-regressions`, which every
//! later run tries first (that file is the corpus). `ALFAKRAFT_FUZZ_CASES` sets the games per
//! ruleset (default 250, about 150,000 actions in all); the figures are printed at the end.

mod support;

use std::{
    io::Write,
    sync::atomic::{AtomicU64, Ordering::Relaxed},
};

use proptest::{
    prelude::*,
    test_runner::{Config, FileFailurePersistence, TestRunner},
};
use rules::{lexicon::Lexicon, Action, GameConfig, GameState, Status, Variant};
use support::random::{action_for, all_tiles, intent_strategy, language, Intent};

/// Accepts four words in five, by a hash of the word: the same words on every run and replay.
struct Picky;

impl Lexicon for Picky {
    type Node = u64;

    fn root(&self) -> u64 {
        0xcbf2_9ce4_8422_2325
    }

    fn step(&self, node: u64, byte: u8) -> Option<u64> {
        Some((node ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
    }

    fn is_word(&self, node: u64) -> bool {
        !node.is_multiple_of(5)
    }
}

/// What the campaign tried, over all rulesets.
#[derive(Default)]
struct Tally {
    actions: AtomicU64,
    accepted: AtomicU64,
    plays: AtomicU64,
    games_ended: AtomicU64,
    replays: AtomicU64,
}

/// The rulesets, each with the seats it is played with.
fn rulesets() -> Vec<(&'static str, BoxedStrategy<(Variant, u8)>)> {
    let seats = || 2u8..=4;
    vec![
        (
            "Alfa Kraft",
            (language(), seats())
                .prop_map(|(language, n)| (Variant::AlfaKraft { language }, n))
                .boxed(),
        ),
        (
            "Classic",
            seats().prop_map(|n| (Variant::Classic, n)).boxed(),
        ),
        (
            "Feud",
            (language(), any::<bool>(), seats())
                .prop_map(|(language, random_board, n)| {
                    (
                        Variant::Feud {
                            language,
                            random_board,
                        },
                        n,
                    )
                })
                .boxed(),
        ),
        (
            "Alfapet",
            (6u8..=8, any::<bool>(), seats())
                .prop_map(|(hand_size, special_tiles, n)| {
                    (
                        Variant::Alfapet {
                            hand_size,
                            special_tiles,
                        },
                        n,
                    )
                })
                .boxed(),
        ),
        (
            "Long words",
            (any::<bool>(), seats())
                .prop_map(|(hard_mode, n)| (Variant::LongWords { hard_mode }, n))
                .boxed(),
        ),
        (
            "Daily",
            language()
                .prop_map(|language| (Variant::Daily { language }, 1))
                .boxed(),
        ),
    ]
}

/// Checks a finished (or abandoned) game's log against the state it produced.
fn replays(config: GameConfig, log: &[Action], state: &GameState) -> Result<(), TestCaseError> {
    let replayed = GameState::replay(config, log, &Picky).map_err(|(i, e)| {
        TestCaseError::fail(format!("accepted action {i} refused on replay: {e}"))
    })?;
    prop_assert_eq!(&replayed, state, "the log replays to the same state");
    Ok(())
}

/// Plays the intents, one game after another when a game ends.
fn campaign(
    tally: &Tally,
    (variant, players): (Variant, u8),
    seed: u64,
    intents: &[Intent],
) -> Result<(), TestCaseError> {
    let mut config = GameConfig {
        players,
        ..support::config(variant, seed)
    };
    let mut state = GameState::new(config.clone());
    let mut initial = all_tiles(&state);
    let mut log = Vec::new();
    for intent in intents {
        let action = action_for(&state, intent);
        let before = state.clone();
        tally.actions.fetch_add(1, Relaxed);
        match state.apply(&action, &Picky) {
            Ok(()) => {
                tally.accepted.fetch_add(1, Relaxed);
                if matches!(action, Action::Play { .. }) {
                    tally.plays.fetch_add(1, Relaxed);
                }
                log.push(action);
            }
            Err(_) => prop_assert_eq!(&state, &before, "a refused {:?} changed the game", action),
        }
        prop_assert_eq!(&all_tiles(&state), &initial, "tiles conserved");
        for seat in 0..players {
            serde_json::to_string(&state.view(seat)).expect("a view serialises");
        }
        if matches!(state.status(), Status::Over(_)) {
            tally.games_ended.fetch_add(1, Relaxed);
            replays(config.clone(), &log, &state)?;
            tally.replays.fetch_add(1, Relaxed);
            // The next game of this case.
            config.seed = config.seed.wrapping_add(1);
            state = GameState::new(config.clone());
            initial = all_tiles(&state);
            log.clear();
        }
    }
    replays(config, &log, &state)?;
    tally.replays.fetch_add(1, Relaxed);
    Ok(())
}

#[test]
fn every_ruleset_survives_random_action_sequences() {
    let cases: u32 = std::env::var("ALFAKRAFT_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(250);
    let tally = Tally::default();
    let mut lines = Vec::new();
    for (name, ruleset) in rulesets() {
        let before = tally.actions.load(Relaxed);
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
                "tests/fuzz.proptest-regressions",
            ))),
            ..Config::default()
        });
        let strategy = (
            ruleset,
            any::<u64>(),
            prop::collection::vec(intent_strategy(), 40..160),
        );
        if let Err(failure) = runner.run(&strategy, |(ruleset, seed, intents)| {
            campaign(&tally, ruleset, seed, &intents)
        }) {
            panic!("{name}: {failure}");
        }
        lines.push(format!(
            "  {name}: {} actions",
            tally.actions.load(Relaxed) - before
        ));
    }
    let actions = tally.actions.load(Relaxed);
    let plays = tally.plays.load(Relaxed);
    // Printed past the test harness's capture, so CI's log carries the figures.
    let _ = writeln!(
        std::io::stderr(),
        "fuzz: {actions} actions tried, {} accepted ({plays} plays), {} games ended, {} logs replayed\n{}",
        tally.accepted.load(Relaxed),
        tally.games_ended.load(Relaxed),
        tally.replays.load(Relaxed),
        lines.join("\n")
    );
    // The campaign is only worth its name if it tries enough, and real plays among them.
    if cases >= 250 {
        assert!(actions >= 100_000, "only {actions} actions tried");
    }
    assert!(
        plays * 20 >= actions,
        "too few plays accepted: {plays} of {actions}"
    );
}
