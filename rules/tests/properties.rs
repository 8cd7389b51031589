//! Property tests over random games: tile conservation, replay determinism, redaction, previews
//! that match commits, and no panics on any input.

mod support;

use proptest::prelude::*;
use rules::{
    board::Square, game::TurnEvent, Action, GameConfig, GameState, HandTile, Language, StagedPower,
    Variant,
};
use support::random::{action_for, all_tiles, intent_strategy, variant_strategy, Intent};

/// Every word is accepted, so random placements that obey the geometry rules get played.
use rules::lexicon::AcceptAll as EveryWord;

/// Plays the intents; returns the final state and the accepted actions.
fn run(config: &GameConfig, intents: &[Intent]) -> (GameState, Vec<Action>) {
    let mut state = GameState::new(config.clone());
    let mut accepted = Vec::new();
    for intent in intents {
        let action = action_for(&state, intent);
        if state.apply(&action, &EveryWord).is_ok() {
            accepted.push(action);
        }
    }
    (state, accepted)
}

fn config(variant: Variant, seed: u64, players: u8) -> GameConfig {
    GameConfig {
        players,
        seed,
        ..support::config(variant, seed)
    }
}

proptest! {
    // 256 cases each by default; PROPTEST_CASES=5000 for a longer hunt.

    #[test]
    fn tiles_are_conserved_after_any_action_sequence(
        variant in variant_strategy(), seed in any::<u64>(), players in 2u8..=4,
        intents in prop::collection::vec(intent_strategy(), 1..80),
    ) {
        let config = config(variant, seed, players);
        let initial = all_tiles(&GameState::new(config.clone()));
        let mut state = GameState::new(config);
        for intent in &intents {
            let action = action_for(&state, intent);
            let _ = state.apply(&action, &EveryWord);
            prop_assert_eq!(&all_tiles(&state), &initial);
        }
    }

    #[test]
    fn replaying_the_log_gives_the_same_state(
        variant in variant_strategy(), seed in any::<u64>(),
        intents in prop::collection::vec(intent_strategy(), 1..80),
    ) {
        let config = config(variant, seed, 2);
        let (state, accepted) = run(&config, &intents);
        let replayed = GameState::replay(config, &accepted, &EveryWord).expect("an accepted log replays");
        prop_assert_eq!(replayed, state);
    }

    #[test]
    fn a_view_shows_no_other_hand_no_bag_order_and_no_seed(
        variant in variant_strategy(), seed in (1u64 << 40)..u64::MAX,
        intents in prop::collection::vec(intent_strategy(), 1..60),
    ) {
        let config = config(variant, seed, 2);
        let (state, _) = run(&config, &intents);
        for seat in 0..2u8 {
            let view = state.view(seat);
            let json = serde_json::to_string(&view).unwrap();
            prop_assert!(!json.contains(&seed.to_string()));
            // Change what the viewer must not know: the other hand (traded with the bag) and the
            // bag's order. The view must not change at all.
            let mut altered = state.clone();
            let other = 1 - seat;
            let bag: Vec<HandTile> = altered.bag().tiles().to_vec();
            let other_hand = altered.hand(other).to_vec();
            let replacement: Vec<HandTile> = bag.iter().copied().filter(|t| !other_hand.contains(t)).take(other_hand.len()).collect();
            if replacement.len() == other_hand.len() {
                altered.set_hand_for_tests(other, &replacement);
            }
            altered.reverse_bag_for_tests();
            prop_assert_eq!(serde_json::to_string(&altered.view(seat)).unwrap(), json);
        }
    }

    #[test]
    fn the_preview_equals_the_committed_score_and_history_rebuilds_the_board(
        variant in variant_strategy(), seed in any::<u64>(),
        intents in prop::collection::vec(intent_strategy(), 1..60),
    ) {
        let mut state = GameState::new(config(variant, seed, 2));
        for intent in &intents {
            let action = action_for(&state, intent);
            let preview = match &action {
                Action::Play { seat, placement } if placement.powers.iter().all(|p| !matches!(p, StagedPower::Dice(_))) => {
                    state.view(*seat).preview(placement, &EveryWord).ok()
                }
                _ => None,
            };
            let turns = state.history().len();
            if state.apply(&action, &EveryWord).is_ok() {
                if let (Some(preview), Some(TurnEvent::Play { total, .. })) = (preview, state.history().get(turns).map(|r| &r.event)) {
                    prop_assert_eq!(preview.total, *total);
                }
            }
        }
        let view = state.view(0);
        let boards = view.boards_after_each_turn();
        if let Some(last) = boards.last() {
            prop_assert_eq!(last, state.board());
        }
    }

    #[test]
    fn no_input_makes_the_rules_panic(
        variant in variant_strategy(), seed in any::<u64>(),
        raw in prop::collection::vec(any::<[u8; 5]>(), 1..60),
    ) {
        let mut state = GameState::new(config(variant, seed, 2));
        let words = rules::WordList::new(["ab", "abc"]);
        for bytes in raw {
            let action = support::random::raw_action(bytes);
            if let Action::Play { placement, .. } = &action {
                let _ = state.view(bytes[3] % 2).preview(placement, &words);
            }
            let _ = state.apply(&action, &words);
        }
    }
}

#[test]
fn random_games_really_place_tiles() {
    // Guards the generators above: if they stopped producing legal plays, the properties would
    // pass vacuously.
    let intents: Vec<Intent> = (0..40)
        .map(|i| Intent::Play {
            count: 3,
            row: (i * 7 % 15) as u8,
            col: (i * 5 % 15) as u8,
            down: i % 2 == 0,
            blank_letter: 1,
            power: None,
        })
        .collect();
    let (state, accepted) = run(
        &config(
            Variant::Feud {
                language: Language::English,
                random_board: false,
            },
            7,
            2,
        ),
        &intents,
    );
    assert!(
        accepted.len() >= 5,
        "only {} plays accepted",
        accepted.len()
    );
    assert!(
        state
            .board()
            .cells()
            .filter(|(_, s)| *s != Square::Empty)
            .count()
            >= 10
    );
}
