//! Boards: layouts from the data files, and the live board of a game.

use serde::{Deserialize, Serialize};

use crate::tiles::Letter;

/// A cell of a layout as the data file writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutCell {
    /// `..`: no premium.
    Plain,
    /// `**`: the start cell; whether it also doubles the word is the ruleset's call.
    Start,
    /// `DL`: letter ×2.
    DoubleLetter,
    /// `TL`: letter ×3.
    TripleLetter,
    /// `QL`: letter ×4.
    QuadrupleLetter,
    /// `DW`: word ×2.
    DoubleWord,
    /// `TW`: word ×3.
    TripleWord,
    /// `QW`: word ×4.
    QuadrupleWord,
    /// `NL`: the tile counts −2 × its face value.
    NegativeLetter,
}

/// A board layout: its size and the premium of each cell, row by row.
#[derive(Debug, PartialEq, Eq)]
pub struct BoardLayout {
    /// The data file's name for it, e.g. `feud_15`.
    pub id: &'static str,
    /// Cells per row.
    pub width: usize,
    /// Rows (cells per column).
    pub height: usize,
    /// `width * height` cells, row-major.
    pub cells: &'static [LayoutCell],
}

impl BoardLayout {
    /// Every layout: the spec's and our own.
    pub fn all() -> impl Iterator<Item = &'static BoardLayout> {
        data::BOARDS.iter().copied()
    }

    /// The layout with this data-file name, if there is one.
    pub fn by_id(id: &str) -> Option<&'static BoardLayout> {
        Self::all().find(|board| board.id == id)
    }

    /// The cell at `row`, `col`, or `None` off the board.
    pub fn cell(&self, row: usize, col: usize) -> Option<LayoutCell> {
        (row < self.height && col < self.width).then(|| self.cells[row * self.width + col])
    }
}

/// What a board cell does to a tile placed on it this turn. Premiums are consumed: once a tile
/// covers a cell (or a Rubber erases it), the cell is [`Premium::Plain`] for the rest of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Premium {
    /// No premium.
    Plain,
    /// Letter ×2.
    DoubleLetter,
    /// Letter ×3.
    TripleLetter,
    /// Letter ×4.
    QuadrupleLetter,
    /// Word ×2.
    DoubleWord,
    /// Word ×3.
    TripleWord,
    /// Word ×4.
    QuadrupleWord,
    /// The tile counts −2 × its face value in each word.
    NegativeLetter,
}

impl Premium {
    /// The factor on the tile's value: 1 plain, 2–4 letter premiums, −2 negative.
    pub fn letter_factor(self) -> i32 {
        match self {
            Premium::DoubleLetter => 2,
            Premium::TripleLetter => 3,
            Premium::QuadrupleLetter => 4,
            Premium::NegativeLetter => -2,
            _ => 1,
        }
    }

    /// The factor on the whole word: 1, or 2–4 for word premiums.
    pub fn word_factor(self) -> i32 {
        match self {
            Premium::DoubleWord => 2,
            Premium::TripleWord => 3,
            Premium::QuadrupleWord => 4,
            _ => 1,
        }
    }
}

/// A cell's coordinates: row from the top, column from the left, both from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Row, 0 at the top.
    pub row: u8,
    /// Column, 0 at the left.
    pub col: u8,
}

impl Pos {
    /// The cell at `row`, `col`.
    pub const fn new(row: u8, col: u8) -> Self {
        Pos { row, col }
    }

    /// The neighbour one step along `dir` (forward when `forward`), if it is not off the top or left.
    pub fn step(self, dir: Direction, forward: bool) -> Option<Pos> {
        let (dr, dc) = match dir {
            Direction::Across => (0, 1),
            Direction::Down => (1, 0),
        };
        let (row, col) = if forward {
            (self.row.checked_add(dr)?, self.col.checked_add(dc)?)
        } else {
            (self.row.checked_sub(dr)?, self.col.checked_sub(dc)?)
        };
        Some(Pos { row, col })
    }
}

/// The two directions words read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Left to right.
    Across,
    /// Top to bottom.
    Down,
}

impl Direction {
    /// The other direction.
    pub fn other(self) -> Direction {
        match self {
            Direction::Across => Direction::Down,
            Direction::Down => Direction::Across,
        }
    }
}

/// How a tile on the board was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileKind {
    /// An ordinary letter tile.
    Normal,
    /// A blank standing for its letter; worth 0.
    Blank,
    /// Alfa Kraft's Alfa Power Tile: 2× its letter's face value; immune to powers.
    AlfaPower,
    /// Alfa Kraft's Golden Tile: doubles each word through it in the turn it is placed; immune.
    Golden,
}

/// A tile lying on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardTile {
    /// The letter it shows.
    pub letter: Letter,
    /// How it was played.
    pub kind: TileKind,
    /// Alfapet: an arrow lies under it, where a word turned.
    pub arrow: bool,
    /// The letter printed on it, when Alfa Morf made it show another; a Rubber sends the printed
    /// tile back to the bag.
    #[serde(default)]
    pub printed: Option<Letter>,
}

impl BoardTile {
    /// The tile after Alfa Morf names `letter` for it: it shows and scores the new letter; a blank
    /// stays a blank (worth 0), and a letter tile remembers what it was printed as, for the bag.
    pub fn morphed(self, letter: Letter) -> BoardTile {
        let printed = match self.kind {
            TileKind::Blank => None,
            _ => self.printed.or(Some(self.letter)),
        };
        BoardTile {
            letter,
            printed,
            ..self
        }
    }

    /// Alfa Power and Golden Tiles cannot be targeted by any power.
    pub fn is_immune(self) -> bool {
        matches!(self.kind, TileKind::AlfaPower | TileKind::Golden)
    }
}

/// What a board cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Square {
    /// Nothing yet.
    Empty,
    /// A letter tile.
    Tile(BoardTile),
    /// Alfapet's stop: no run continues through it.
    Stop,
}

/// The live board of a game: what lies where, and which premiums are still unused.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    width: u8,
    height: u8,
    start: Pos,
    /// `width * height`, row-major; consumed premiums are `Plain`.
    premiums: Vec<Premium>,
    /// `width * height`, row-major.
    squares: Vec<Square>,
}

impl Board {
    /// An empty board from a layout; the start cell gets `start_premium`.
    pub fn new(layout: &BoardLayout, start_premium: Premium) -> Board {
        let mut start = Pos::new(layout.height as u8 / 2, layout.width as u8 / 2);
        let premiums = layout
            .cells
            .iter()
            .enumerate()
            .map(|(i, cell)| match cell {
                LayoutCell::Plain => Premium::Plain,
                LayoutCell::Start => {
                    start = Pos::new((i / layout.width) as u8, (i % layout.width) as u8);
                    start_premium
                }
                LayoutCell::DoubleLetter => Premium::DoubleLetter,
                LayoutCell::TripleLetter => Premium::TripleLetter,
                LayoutCell::QuadrupleLetter => Premium::QuadrupleLetter,
                LayoutCell::DoubleWord => Premium::DoubleWord,
                LayoutCell::TripleWord => Premium::TripleWord,
                LayoutCell::QuadrupleWord => Premium::QuadrupleWord,
                LayoutCell::NegativeLetter => Premium::NegativeLetter,
            })
            .collect();
        Board {
            width: layout.width as u8,
            height: layout.height as u8,
            start,
            premiums,
            squares: vec![Square::Empty; layout.width * layout.height],
        }
    }

    /// Cells per row.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows (cells per column).
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The cell the first move must cover.
    pub fn start(&self) -> Pos {
        self.start
    }

    /// Whether `pos` lies on the board.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.row < self.height && pos.col < self.width
    }

    fn index(&self, pos: Pos) -> Option<usize> {
        self.contains(pos)
            .then(|| usize::from(pos.row) * usize::from(self.width) + usize::from(pos.col))
    }

    /// What lies at `pos`; off the board reads as empty.
    pub fn square(&self, pos: Pos) -> Square {
        self.index(pos).map_or(Square::Empty, |i| self.squares[i])
    }

    /// The tile at `pos`, if one lies there.
    pub fn tile(&self, pos: Pos) -> Option<BoardTile> {
        match self.square(pos) {
            Square::Tile(tile) => Some(tile),
            _ => None,
        }
    }

    /// The unused premium at `pos` (`Plain` off the board).
    pub fn premium(&self, pos: Pos) -> Premium {
        self.index(pos).map_or(Premium::Plain, |i| self.premiums[i])
    }

    /// Puts `square` at `pos`; a tile or stop consumes the cell's premium. Off the board: nothing.
    pub fn set(&mut self, pos: Pos, square: Square) {
        if let Some(i) = self.index(pos) {
            self.squares[i] = square;
            if square != Square::Empty {
                self.premiums[i] = Premium::Plain;
            }
        }
    }

    /// Erases the premium at `pos` for the rest of the game (Rubber on an empty cell).
    pub fn erase_premium(&mut self, pos: Pos) {
        if let Some(i) = self.index(pos) {
            self.premiums[i] = Premium::Plain;
        }
    }

    /// Replaces the premiums in row-major order (the Feud random board).
    pub(crate) fn set_premiums(&mut self, premiums: Vec<Premium>) {
        debug_assert_eq!(premiums.len(), self.premiums.len());
        self.premiums = premiums;
    }

    /// Every premium, row-major.
    pub fn premiums(&self) -> &[Premium] {
        &self.premiums
    }

    /// Every square, row-major.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// Whether no tile or stop lies anywhere.
    pub fn is_empty(&self) -> bool {
        self.squares.iter().all(|s| *s == Square::Empty)
    }

    /// Every cell with its position, row-major.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, Square)> + '_ {
        let width = usize::from(self.width);
        self.squares
            .iter()
            .enumerate()
            .map(move |(i, square)| (Pos::new((i / width) as u8, (i % width) as u8), *square))
    }

    /// Whether a letter tile lies orthogonally next to `pos`.
    pub fn touches_tile(&self, pos: Pos) -> bool {
        [Direction::Across, Direction::Down]
            .into_iter()
            .flat_map(|dir| [pos.step(dir, true), pos.step(dir, false)])
            .flatten()
            .any(|p| self.tile(p).is_some())
    }
}

/// The layouts of `data/`, compiled in by `build.rs`.
mod data {
    use super::{BoardLayout, LayoutCell};
    include!(concat!(env!("OUT_DIR"), "/boards.rs"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_boards_are_15_by_15_with_the_start_in_the_centre() {
        for id in ["classic_15", "feud_15"] {
            let board = BoardLayout::by_id(id).unwrap();
            assert_eq!(
                (board.width, board.height, board.cells.len()),
                (15, 15, 225)
            );
            assert_eq!(board.cell(7, 7), Some(LayoutCell::Start), "{id}");
            assert_eq!(
                board
                    .cells
                    .iter()
                    .filter(|&&c| c == LayoutCell::Start)
                    .count(),
                1
            );
        }
    }

    #[test]
    fn feud_board_has_the_premium_counts_of_rules_section_4() {
        let feud = BoardLayout::by_id("feud_15").unwrap();
        let count = |kind| feud.cells.iter().filter(|&&c| c == kind).count();
        assert_eq!(
            [
                count(LayoutCell::DoubleLetter),
                count(LayoutCell::TripleLetter),
                count(LayoutCell::DoubleWord),
                count(LayoutCell::TripleWord)
            ],
            [24, 20, 12, 8]
        );
    }

    #[test]
    fn alfapet_board_is_17_by_17_symmetric_with_the_start_in_the_centre() {
        let board = BoardLayout::by_id("alfapet_17").unwrap();
        assert_eq!((board.width, board.height), (17, 17));
        assert_eq!(board.cell(8, 8), Some(LayoutCell::Start));
        for r in 0..17 {
            for c in 0..17 {
                let cell = board.cell(r, c);
                assert_eq!(cell, board.cell(c, r));
                assert_eq!(cell, board.cell(16 - r, c));
                assert_eq!(cell, board.cell(r, 16 - c));
            }
        }
        for kind in [
            LayoutCell::QuadrupleLetter,
            LayoutCell::QuadrupleWord,
            LayoutCell::NegativeLetter,
        ] {
            assert!(board.cells.contains(&kind), "{kind:?}");
        }
    }

    #[test]
    fn placing_a_tile_consumes_the_premium() {
        let mut board = Board::new(
            BoardLayout::by_id("classic_15").unwrap(),
            Premium::DoubleWord,
        );
        let start = board.start();
        assert_eq!(board.premium(start), Premium::DoubleWord);
        board.set(
            start,
            Square::Tile(BoardTile {
                letter: Letter(0),
                kind: TileKind::Normal,
                arrow: false,
                printed: None,
            }),
        );
        assert_eq!(board.premium(start), Premium::Plain);
        assert!(!board.is_empty());
    }
}
