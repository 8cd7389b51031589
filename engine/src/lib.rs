//! Move generation and bots, built on the `rules` crate.
//!
//! - [`trie`]: the word list as a flat letter trie.
//! - [`movegen`]: every legal move of a rack, scored exactly as `rules::evaluate` scores it.
//! - [`bot`]: players of several levels that see only their own view.
//! - [`analysis`]: a finished game's turns beside the engine's best moves.
//! - [`daily`]: the bot's total on a Daily Challenge and the review of an attempt.
//! - [`endgame`]: the best move once the bag is empty, by search.
#![deny(missing_docs)]

pub mod analysis;
pub mod bot;
pub mod daily;
pub mod endgame;
pub mod leaves;
pub mod movegen;
pub mod selfplay;
pub mod trie;

pub use bot::{Bot, Level};
pub use movegen::{Generator, Move, Rack};
pub use trie::Trie;
