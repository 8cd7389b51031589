//! What post-game analysis takes and gives: the turns of a finished game to analyse, each with
//! the board the player faced and the rack they held, and for each the engine's best moves beside
//! what they played (the engine's `analysis` computes those).
//!
//! The types are here, below the engine, because the pages show them and the browser's worker
//! exchanges them as JSON. A [`Turn`] carries only the analysed player's own rack, so nothing is
//! computed from, or says anything about, an opponent's hidden tiles.

use serde::{Deserialize, Serialize};

use crate::{
    game::TurnEvent, notation::play_notation, Action, Board, GameConfig, GameState, HandTile,
    Lexicon, RuleError, Seat,
};

/// How many of the engine's moves a turn lists.
pub const TOP: usize = 5;

/// One turn to analyse: the board before it, the player's rack, and what they did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Its place in the game's history, from 1.
    pub turn: u16,
    /// Whose turn.
    pub seat: Seat,
    /// The board the player faced.
    pub board: Board,
    /// The rack they held.
    pub rack: Vec<HandTile>,
    /// What they did, in game-record notation (`8H HORN`; `-` a pass, `-3` an exchange of 3).
    pub played: String,
    /// Its points.
    pub score: i32,
}

/// One of the engine's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// In game-record notation.
    pub notation: String,
    /// Its points.
    pub score: i32,
    /// Points plus the worth of the tiles kept, as the engine's Expert bot weighs them, in
    /// tenths of a point (whole numbers: the page needs no float parsing or formatting).
    pub equity_tenths: i32,
}

/// The analysis of one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnAnalysis {
    /// Its place in the game's history, from 1.
    pub turn: u16,
    /// Whose turn.
    pub seat: Seat,
    /// What was played, in notation.
    pub played: String,
    /// Its points.
    pub score: i32,
    /// The engine's best moves, highest score first (at most [`TOP`]).
    pub best: Vec<Candidate>,
    /// Points left on the table: the best score less the turn's (never below 0: a power can
    /// make a play worth more than any move of letters alone).
    pub missed: i32,
}

impl TurnAnalysis {
    /// The player found the engine's best score (or there was no move at all).
    pub fn best_find(&self) -> bool {
        self.missed == 0
    }
}

/// Each player's totals over their analysed turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Points left on the table.
    pub missed: i32,
    /// Turns that scored the engine's best (plays only).
    pub best_finds: u32,
    /// The highest-scoring of those: its turn and points.
    pub top_find: Option<(u16, i32)>,
    /// Turns analysed.
    pub turns: u32,
}

/// The turns `seats` took in the game `config` with the log `actions`, each with the rack the
/// player held (their own tiles only) and the board before it. Plays, passes and exchanges are
/// analysed; challenges, resignations and the clock's turns are not moves of a rack.
pub fn turns_of<L: Lexicon + ?Sized>(
    config: GameConfig,
    actions: &[Action],
    seats: &[Seat],
    lexicon: &L,
) -> Result<Vec<Turn>, RuleError> {
    let mut state = GameState::new(config);
    let mut turns = Vec::new();
    for action in actions {
        let seat = action.seat();
        let board = state.board().clone();
        let rack = state.hand(seat).to_vec();
        let before = state.history().len();
        state.apply(action, lexicon)?;
        for (index, record) in state.history().iter().enumerate().skip(before) {
            if record.seat != seat || !seats.contains(&seat) {
                continue;
            }
            let tiles = state.rules().tiles;
            let (played, score) = match &record.event {
                TurnEvent::Play {
                    tiles: placed,
                    total,
                    ..
                } => (play_notation(&board, placed, tiles), *total),
                TurnEvent::Pass { .. } | TurnEvent::TurnMissed => ("-".into(), 0),
                TurnEvent::Exchange { count } => (format!("-{count}"), 0),
                _ => continue,
            };
            turns.push(Turn {
                turn: u16::try_from(index + 1).unwrap_or(u16::MAX),
                seat,
                board: board.clone(),
                rack: rack.clone(),
                played,
                score,
            });
        }
    }
    Ok(turns)
}

/// Totals per seat (indexed by seat) over analysed turns.
pub fn summarise(turns: &[TurnAnalysis], players: u8) -> Vec<Summary> {
    let mut totals = vec![Summary::default(); usize::from(players)];
    for turn in turns {
        let Some(total) = totals.get_mut(usize::from(turn.seat)) else {
            continue;
        };
        total.turns += 1;
        total.missed += turn.missed;
        if turn.best_find() && !turn.best.is_empty() && turn.score > 0 {
            total.best_finds += 1;
            if total.top_find.is_none_or(|(_, points)| turn.score > points) {
                total.top_find = Some((turn.turn, turn.score));
            }
        }
    }
    totals
}
