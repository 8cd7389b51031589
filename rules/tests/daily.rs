//! The Daily Challenge as a game: the same puzzle for the same day and dictionary version, ten
//! turns of one player with exchanges allowed, and a final score that is the points made.

mod support;

use rules::{
    daily::{self, Day},
    game::EndReason,
    Action, GameState, HandTile, Language, RuleError, Status, WordList,
};

fn rack(state: &GameState) -> String {
    let tiles = state.rules().tiles;
    state
        .hand(0)
        .iter()
        .map(|t| match t {
            HandTile::Letter(l) => tiles.spell([*l]).to_uppercase(),
            _ => "?".to_string(),
        })
        .collect()
}

fn day() -> Day {
    Day::parse("2026-12-01").unwrap()
}

#[test]
fn one_days_first_racks_are_pinned_per_dictionary() {
    // Version 1 of each dictionary, as games name it, with the seed of the days before day keys.
    // If these change, the puzzles of those days changed with them.
    for (dictionary, language, first) in [
        ("en@1", Language::English, "CENYVOS"),
        ("sv@1", Language::Swedish, "XPNSBOS"),
        ("sv-strict@1", Language::Swedish, "AINENGS"),
        ("da@1", Language::Danish, "IEØYRXH"),
        ("nb@1", Language::Norwegian, "GNFPRLS"),
    ] {
        let seed = daily::dated_seed(day(), dictionary);
        let state = GameState::new(daily::config(seed, dictionary, language));
        assert_eq!(rack(&state), first, "{dictionary}");
    }
}

#[test]
fn the_same_moves_draw_the_same_tiles_and_another_day_deals_another_rack() {
    let config = daily::config(daily::dated_seed(day(), "en"), "en", Language::English);
    let words = WordList::new(["qq"]);
    let (mut a, mut b) = (
        GameState::new(config.clone()),
        GameState::new(config.clone()),
    );
    assert_eq!(rack(&a), rack(&b));
    let exchange = Action::Exchange {
        seat: 0,
        tiles: a.hand(0)[..3].to_vec(),
    };
    a.apply(&exchange, &words).unwrap();
    b.apply(&exchange, &words).unwrap();
    assert_eq!(rack(&a), rack(&b), "the same draws after the same exchange");
    let tomorrow = GameState::new(daily::config(
        daily::dated_seed(day().next(), "en"),
        "en",
        Language::English,
    ));
    assert_ne!(rack(&tomorrow), rack(&GameState::new(config)));
}

#[test]
fn ten_turns_end_it_and_the_score_is_the_points_made() {
    let mut state = GameState::new(daily::config(
        daily::dated_seed(day(), "en"),
        "en",
        Language::English,
    ));
    let words = WordList::new(["qq"]);
    assert_eq!(state.players(), 1);
    for turn in 0..10 {
        assert_eq!(*state.status(), Status::Playing, "turn {turn}");
        assert_eq!(state.to_move(), 0, "one player moves every turn");
        let action = if turn % 2 == 0 {
            Action::Pass { seat: 0 }
        } else {
            Action::Exchange {
                seat: 0,
                tiles: state.hand(0)[..2].to_vec(),
            }
        };
        state.apply(&action, &words).unwrap();
    }
    let Status::Over(outcome) = state.status().clone() else {
        panic!("ten turns end it");
    };
    assert_eq!(outcome.reason, EndReason::TurnLimit);
    assert_eq!(
        outcome.final_scores,
        vec![0],
        "no leftovers taken off, no coins added"
    );
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(
        state.apply(&Action::Pass { seat: 0 }, &words),
        Err(RuleError::GameOver)
    );
    assert_eq!(state.coins(0), 0, "no coins");
}
