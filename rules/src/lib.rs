//! The game's rules: tile sets, boards and scoring for every ruleset.
//!
//! Pure and deterministic, with no I/O: the server commits moves with this crate and the browser,
//! compiled to wasm32, previews them with the very same code.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod board;
mod tiles;

pub use board::{BoardLayout, Cell};
pub use tiles::{LetterSpec, TileSet, UnknownLetter};

mod data {
    use crate::{BoardLayout, Cell, LetterSpec, TileSet};
    include!(concat!(env!("OUT_DIR"), "/data.rs"));
}
