//! The engine on a Daily Challenge puzzle (`rules::daily`): the Expert bot's total, computed once
//! per puzzle, and the review of a finished attempt, turn by turn beside the best-scoring play on
//! the player's own board with the player's own rack.

use rules::{
    game::{TurnEvent, TurnRecord},
    play::WordScore,
    Action, GameConfig, GameState, Lexicon, RuleError, Status,
};

use crate::{bot::Bot, movegen::Generator, trie::Trie, Level};

/// The Expert bot's total on the puzzle `config`, playing its turns alone.
pub fn bot_total<L: Lexicon + ?Sized>(
    config: GameConfig,
    lexicon: &L,
    trie: &Trie,
) -> Result<i32, RuleError> {
    let mut state = GameState::new(config);
    let rules = state.rules().clone();
    let mut bot = Bot::new(Level::Expert, trie, &rules, 1);
    while *state.status() == Status::Playing {
        let view = state.view(0);
        for action in bot.decide_turn(&view) {
            if state.apply(&action, lexicon).is_err() {
                // The rules have the last word: a refused move is a pass.
                state.apply(&Action::Pass { seat: 0 }, lexicon)?;
                break;
            }
        }
    }
    Ok(final_score(&state))
}

fn final_score(state: &GameState) -> i32 {
    match state.status() {
        Status::Over(outcome) => outcome.final_scores.first().copied().unwrap_or(0),
        Status::Playing => state.scores()[0],
    }
}

/// One turn of an attempt: what the player did, and the best-scoring play the engine finds on
/// the same board with the same rack (its main word and points; `None` when there is none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedTurn {
    /// The turn as played.
    pub played: TurnRecord,
    /// The best play there.
    pub best: Option<(String, i32)>,
}

/// The review of an attempt at the puzzle `config` with the log `actions`.
pub fn review<L: Lexicon + ?Sized>(
    config: GameConfig,
    actions: &[Action],
    lexicon: &L,
    trie: &Trie,
) -> Result<Vec<ReviewedTurn>, RuleError> {
    let mut state = GameState::new(config);
    let rules = state.rules().clone();
    let mut generator = Generator::new(trie, &rules);
    let mut scratch = Vec::new();
    let mut turns = Vec::new();
    for action in actions {
        let best = generator
            .best(state.board(), state.hand(0), &mut scratch)
            .and_then(|best| {
                let mut tried = state.clone();
                let play = Action::Play {
                    seat: 0,
                    placement: best.placement(),
                };
                tried.apply(&play, lexicon).ok()?;
                match &tried.history().last()?.event {
                    TurnEvent::Play { words, total, .. } => Some((WordScore::main(words)?, *total)),
                    _ => None,
                }
            });
        let before = state.history().len();
        state.apply(action, lexicon)?;
        for played in state.history()[before..].iter().cloned() {
            turns.push(ReviewedTurn {
                played,
                best: best.clone(),
            });
        }
    }
    Ok(turns)
}
