//! Why the rules refuse something. Each variant carries what a page needs to explain it.

use serde::{Deserialize, Serialize};

use crate::{powers::Power, tiles::HandTile, Pos};

/// A refused move or action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another player is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// No such seat in this game.
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(u8),
    /// A play with no tiles and no powers.
    #[error("place at least one tile")]
    EmptyMove,
    /// A cell outside the board.
    #[error("that cell is off the board")]
    OffBoard(Pos),
    /// A tile on a cell that already holds one.
    #[error("that cell is already taken")]
    Occupied(Pos),
    /// Two tiles on one cell.
    #[error("two tiles on the same cell")]
    SameCell(Pos),
    /// A tile on a cell a Rubber took out of play this turn.
    #[error("a Rubber took that cell out of play this turn")]
    OutOfPlay(Pos),
    /// The move uses a tile the hand does not hold.
    #[error("your hand has no such tile")]
    NotInHand(HandTile),
    /// The move uses a power the bar does not hold.
    #[error("your power bar has no {}", .0.name())]
    NotInPowerBar(Power),
    /// A letter outside the tile set's alphabet.
    #[error("that letter is not in this game's alphabet")]
    NoSuchLetter,
    /// The tiles are not in one row or one column.
    #[error("place all tiles in one row or one column")]
    NotInLine,
    /// The run of tiles has a hole.
    #[error("the tiles must form one unbroken line")]
    Gap(Pos),
    /// The first move misses the start cell.
    #[error("the first word must cover the centre square")]
    MissesStart,
    /// A later move does not touch the board.
    #[error("the word must connect to the tiles on the board")]
    NotConnected,
    /// The tiles form no word of two or more letters.
    #[error("a move must form a word of at least two letters")]
    NoWord,
    /// Words not in the dictionary.
    #[error("not in the dictionary: {}", .0.join(", "))]
    InvalidWords(Vec<String>),
    /// This ruleset has no powers, arrows or stops of that kind.
    #[error("this game has no such tiles or powers")]
    NotInRuleset,
    /// Rubber on the start cell before the first word.
    #[error("the first word has to land on the centre square before a Rubber may touch it")]
    RubberOnStart,
    /// A power aimed at an Alfa Power or Golden Tile.
    #[error("Alfa Power and Golden Tiles are immune to powers")]
    Immune(Pos),
    /// A power that needs a tile where there is none.
    #[error("that power needs a tile to act on")]
    NoTarget(Pos),
    /// An Alfa Morf naming the letter the tile already shows: it would spend the power for nothing.
    #[error("Alfa Morf must change the letter")]
    MorfToSameLetter(Pos),
    /// Two powers of one kind on one cell.
    #[error("one power of a kind per cell")]
    PowerTwiceOnCell(Pos),
    /// An arrow not at a corner of the move's word, or more than one.
    #[error("an arrow goes under the letter where the word turns, one per move")]
    ArrowMisplaced,
    /// A stop not at the end of a word.
    #[error("a stop goes at the end of a word")]
    StopMisplaced,
    /// Exchanging is not allowed now.
    #[error("exchanging is not allowed now")]
    SwapNotAllowed,
    /// Exchanging needs more tiles in the bag.
    #[error("the bag holds {in_bag} tiles; exchanging needs {needed}")]
    BagTooSmall {
        /// Tiles the exchange needs in the bag.
        needed: u32,
        /// Tiles in the bag.
        in_bag: u32,
    },
    /// No play to challenge.
    #[error("there is no play to challenge")]
    NothingToChallenge,
    /// The power bar is full.
    #[error("your power bar is full")]
    PowerBarFull,
    /// Not enough coins.
    #[error("that costs {price} coins; you have {coins}")]
    NotEnoughCoins {
        /// The price.
        price: i32,
        /// The buyer's coins.
        coins: i32,
    },
    /// Earned tiles cannot be bought or sold.
    #[error("{} cannot be bought or sold", .0.name())]
    NotForSale(Power),
}
