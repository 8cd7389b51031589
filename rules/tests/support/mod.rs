//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod random;

use rules::{
    notation::{parse_move, parse_rack},
    Format, GameConfig, GameState, HandTile, Language, Placement, Variant,
};

pub const ENGLISH: Language = Language::English;

pub fn config(variant: Variant, seed: u64) -> GameConfig {
    GameConfig {
        variant,
        dictionary: "test@1".into(),
        seed,
        players: 2,
        first_seat: 0,
        format: Format::Casual,
    }
}

pub fn feud() -> Variant {
    Variant::Feud {
        language: ENGLISH,
        random_board: false,
    }
}

pub fn alfa_kraft() -> Variant {
    Variant::AlfaKraft { language: ENGLISH }
}

/// Tiles written as a rack: letters, `?` blank, `>` arrow, `#` stop.
pub fn tiles(state: &GameState, rack: &str) -> Vec<HandTile> {
    parse_rack(rack, state.rules().tiles).expect("a rack")
}

/// A new game whose seat to move holds exactly `rack`.
pub fn game_with_hand(variant: Variant, rack: &str) -> GameState {
    let mut state = GameState::new(config(variant, 1));
    let seat = state.to_move();
    let hand = tiles(&state, rack);
    state.set_hand_for_tests(seat, &hand);
    state
}

/// A play written as GCG does (`8H`, `H8`; `.` played through; lower case blank).
pub fn mv(state: &GameState, coordinate: &str, word: &str) -> Placement {
    parse_move(state.board(), state.rules().tiles, coordinate, word).expect("a readable move")
}
