//! What one seat may see, and the preview computed from it.
//!
//! A [`PlayerView`] is built only from public facts and the seat's own hand and power bar; it has
//! no field that could hold another hand, the bag's contents or the seed.

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, Square},
    error::RuleError,
    game::{Format, GameState, Seat, Status, TurnEvent, TurnRecord},
    lexicon::Lexicon,
    play::{evaluate, square_of, Placement, ScoredPlay, Situation},
    powers::{Power, StagedPower},
    ruleset::{RuleSet, Variant},
    tiles::HandTile,
};

/// One seat's view of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Whose view.
    pub seat: Seat,
    /// Ruleset and options.
    pub variant: Variant,
    /// Casual or Blitz.
    pub format: Format,
    /// Dictionary id.
    pub dictionary: String,
    /// The board before the first move (for replaying the history).
    pub initial_board: Board,
    /// The board now.
    pub board: Board,
    /// The seat's own hand.
    pub hand: Vec<HandTile>,
    /// Every seat's hand size.
    pub hand_sizes: Vec<u8>,
    /// Tiles left in the bag.
    pub bag_size: u32,
    /// The tiles this seat cannot see, the bag and the other hands together, counted by tile in
    /// tile order: what a player tracking tiles works out, with nothing of who holds which.
    #[serde(default)]
    pub unseen: Vec<(HandTile, u8)>,
    /// Scores so far.
    pub scores: Vec<i32>,
    /// Who is to move.
    pub to_move: Seat,
    /// Playing or over.
    pub status: Status,
    /// The public history.
    pub history: Vec<TurnRecord>,
    /// Coins: the seat's own live count, the others' as last revealed.
    pub coins: Vec<i32>,
    /// The seat's own power bar.
    pub power_bar: Vec<Power>,
    /// Blitz inactivity strikes.
    pub strikes: Vec<u8>,
    /// Passes in a row.
    pub consecutive_passes: u8,
    /// Whether this seat may challenge the last play now.
    pub can_challenge: bool,
    /// Actions applied; a move is submitted against it.
    pub version: u32,
}

impl GameState {
    /// What `seat` may see.
    pub fn view(&self, seat: Seat) -> PlayerView {
        let config = self.config();
        let coins = (0..config.players)
            .map(|s| {
                if s == seat {
                    self.coins(s)
                } else {
                    self.shown_coins()[usize::from(s)]
                }
            })
            .collect();
        PlayerView {
            seat,
            variant: config.variant,
            format: config.format,
            dictionary: config.dictionary.clone(),
            initial_board: self.initial_board().clone(),
            board: self.board().clone(),
            hand: self.hand(seat).to_vec(),
            hand_sizes: (0..config.players)
                .map(|s| self.hand(s).len() as u8)
                .collect(),
            bag_size: self.bag().len() as u32,
            unseen: self.unseen_by(seat),
            scores: self.scores().to_vec(),
            to_move: self.to_move(),
            status: self.status().clone(),
            history: self.history().to_vec(),
            coins,
            power_bar: self.power_bar(seat).to_vec(),
            strikes: self.strikes().to_vec(),
            consecutive_passes: self.consecutive_passes(),
            can_challenge: self.can_challenge(seat),
            version: self.version(),
        }
    }
}

impl GameState {
    fn unseen_by(&self, seat: Seat) -> Vec<(HandTile, u8)> {
        let others = (0..self.config().players)
            .filter(|s| *s != seat)
            .flat_map(|s| self.hand(s));
        let mut counts = std::collections::BTreeMap::<HandTile, u8>::new();
        for tile in self.bag().tiles().iter().chain(others) {
            *counts.entry(*tile).or_default() += 1;
        }
        counts.into_iter().collect()
    }
}

impl PlayerView {
    /// The ruleset.
    pub fn rules(&self) -> RuleSet {
        RuleSet::new(self.variant)
    }

    /// Judges and scores a placement exactly as the server will, from this view alone. A Dice
    /// roll is unknown until the server commits the play: the preview counts it as 1 and lists it
    /// in [`ScoredPlay::dice`].
    pub fn preview<L: Lexicon + ?Sized>(
        &self,
        placement: &Placement,
        lexicon: &L,
    ) -> Result<ScoredPlay, RuleError> {
        let rules = self.rules();
        let situation = Situation {
            rules: &rules,
            board: &self.board,
            hand: &self.hand,
            bar: &self.power_bar,
        };
        evaluate(situation, placement, lexicon, &mut || 1)
    }

    /// The board after each entry of the history, rebuilt from public records alone: what the
    /// history slider shows.
    pub fn boards_after_each_turn(&self) -> Vec<Board> {
        boards_after_each_turn(&self.initial_board, &self.history)
    }
}

/// Replays public turn records onto the starting board; one board per record.
pub fn boards_after_each_turn(initial: &Board, history: &[TurnRecord]) -> Vec<Board> {
    let mut boards: Vec<Board> = Vec::with_capacity(history.len());
    let mut board = initial.clone();
    for (i, record) in history.iter().enumerate() {
        match &record.event {
            TurnEvent::Play { tiles, powers, .. } => {
                for power in powers {
                    match *power {
                        StagedPower::Rubber(pos) => {
                            board.set(pos, Square::Empty);
                            board.erase_premium(pos);
                        }
                        StagedPower::AlfaMorf(pos, letter) => {
                            if let Some(tile) = board.tile(pos) {
                                board.set(pos, Square::Tile(tile.morphed(letter)));
                            }
                        }
                        StagedPower::Charge(_) | StagedPower::Dice(_) => {}
                    }
                }
                for new in tiles {
                    board.set(new.pos, square_of(*new));
                }
            }
            TurnEvent::Challenge {
                withdrawn: true, ..
            } => {
                // The withdrawn play was the record just before; the board goes back to before it.
                board = if i >= 2 {
                    boards[i - 2].clone()
                } else {
                    initial.clone()
                };
            }
            _ => {}
        }
        boards.push(board.clone());
    }
    boards
}
