//! Board layouts: the premium of every cell.

use crate::data;

/// What a board cell adds to a tile placed on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// No premium.
    Plain,
    /// The cell the first move must cover; whether it also doubles the word is the ruleset's call.
    Start,
    /// Letter ×2.
    DoubleLetter,
    /// Letter ×3.
    TripleLetter,
    /// Word ×2.
    DoubleWord,
    /// Word ×3.
    TripleWord,
}

/// A board: its size and the premium of each cell, row by row.
#[derive(Debug, PartialEq, Eq)]
pub struct BoardLayout {
    /// The data file's name for it, e.g. `feud_15`.
    pub id: &'static str,
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width * height` cells, row-major.
    pub cells: &'static [Cell],
}

impl BoardLayout {
    /// Every board of the spec's data file.
    pub fn all() -> [&'static BoardLayout; 2] {
        [&data::CLASSIC_15, &data::FEUD_15]
    }

    /// The board with this data-file name, if there is one.
    pub fn by_id(id: &str) -> Option<&'static BoardLayout> {
        Self::all().into_iter().find(|board| board.id == id)
    }

    /// The cell at `row`, `col`, or `None` off the board.
    pub fn cell(&self, row: usize, col: usize) -> Option<Cell> {
        (row < self.height && col < self.width).then(|| self.cells[row * self.width + col])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_15_by_15_with_the_start_in_the_centre() {
        for board in BoardLayout::all() {
            assert_eq!(
                (board.width, board.height, board.cells.len()),
                (15, 15, 225)
            );
            assert_eq!(board.cell(7, 7), Some(Cell::Start), "{}", board.id);
            assert_eq!(board.cells.iter().filter(|&&c| c == Cell::Start).count(), 1);
        }
    }

    #[test]
    fn feud_board_has_the_premium_counts_of_rules_section_4() {
        let feud = BoardLayout::by_id("feud_15").unwrap();
        let count = |kind| feud.cells.iter().filter(|&&c| c == kind).count();
        assert_eq!(
            [
                count(Cell::DoubleLetter),
                count(Cell::TripleLetter),
                count(Cell::DoubleWord),
                count(Cell::TripleWord)
            ],
            [24, 20, 12, 8]
        );
    }
}
