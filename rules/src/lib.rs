//! The game's rules: boards, tiles, the five rulesets, move validation and scoring, and the game as
//! a fold over its actions with redacted player views.
//!
//! Pure and deterministic, with no I/O: the server commits moves with this crate and the browser,
//! compiled to wasm32, previews them with the very same code ([`PlayerView::preview`]).
//!
//! Map of the crate:
//! - [`tiles`], [`board`]: letters, tile sets, layouts and the live board; data from `data/`.
//! - [`ruleset`]: the five rulesets as values of one [`RuleSet`] type.
//! - [`play`]: [`evaluate`] judges and scores a placement; the one judge for server and browser.
//! - [`game`]: config + seed + actions → [`GameState`]; [`view`]: what one seat may see.
//! - [`bag`]: the seeded draw; [`lexicon`]: the dictionary trait; [`notation`]: text formats;
//!   [`rank`]: Elo; [`analysis`]: what post-game analysis takes and gives.
#![deny(missing_docs)]

pub mod analysis;
pub mod bag;
pub mod board;
pub mod case;
pub mod daily;
pub mod error;
pub mod game;
pub mod lexicon;
pub mod notation;
pub mod play;
pub mod powers;
pub mod rank;
pub mod ruleset;
pub mod tiles;
pub mod view;

pub use board::{Board, BoardLayout, Direction, Pos, Premium, Square};
pub use error::RuleError;
pub use game::{Action, Format, GameConfig, GameState, Seat, Status};
pub use lexicon::{Lexicon, WordList};
pub use play::{evaluate, NewTile, Placement, Played, ScoredPlay};
pub use powers::{Power, StagedPower};
pub use ruleset::{Language, RuleSet, Variant};
pub use tiles::{HandTile, Letter, TileSet, UnknownLetter};
pub use view::PlayerView;
