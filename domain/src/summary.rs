//! What a list of games shows of each one (scores, whose turn, the last play, the winners),
//! worked out from the state when a move is committed and stored with the game, so a list is read,
//! not replayed.

use rules::{GameState, Seat, Status};
use serde::{Deserialize, Serialize};

use crate::LastTurn;

/// A game as a list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Scores by seat; the final ones (tiles left and coins counted) once the game is over.
    pub scores: Vec<i32>,
    /// Whose turn it is.
    pub to_move: Seat,
    /// The last turn taken, if any.
    pub last: Option<LastPlay>,
    /// Who won, once the game is over (several on a draw); empty while it goes on.
    pub winners: Vec<Seat>,
}

/// The last turn of a game and who took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastPlay {
    /// Who took it (for a challenge, the challenger).
    pub seat: Seat,
    /// What they did.
    pub turn: LastTurn,
}

/// How many summaries were made, with the `count-summaries` feature (tests only).
#[cfg(feature = "count-summaries")]
pub static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl GameSummary {
    /// The summary of `state`.
    pub fn of(state: &GameState) -> GameSummary {
        #[cfg(feature = "count-summaries")]
        MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let history = state.history();
        let last = history.last().map(|turn| {
            let seat = usize::from(turn.seat);
            let before = history.iter().rev().nth(1).and_then(|b| b.scores.get(seat));
            let points = turn.scores.get(seat).copied().unwrap_or(0) - before.copied().unwrap_or(0);
            LastPlay {
                seat: turn.seat,
                turn: LastTurn::of(&turn.event, points),
            }
        });
        let (scores, winners) = match state.status() {
            Status::Over(outcome) => (outcome.final_scores.clone(), outcome.winners.clone()),
            Status::Playing => (state.scores().to_vec(), Vec::new()),
        };
        GameSummary {
            scores,
            to_move: state.to_move(),
            last,
            winners,
        }
    }
}
