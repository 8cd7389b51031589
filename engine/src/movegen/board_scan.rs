//! What the search reads from the board: per square its letter, premiums, whether it anchors a
//! move, and the cross-checks each way. Kept between calls and brought up to date line by line.

use rules::{
    board::{Premium, Square},
    play::tile_points,
    Board, Direction, RuleSet,
};

use crate::trie::Trie;

/// A square with no tile (in [`BoardScan::letter`]).
pub(super) const EMPTY: u8 = 255;
/// A square a word cannot cross: an Alfapet stop.
pub(super) const BLOCKED: u8 = 254;

/// The perpendicular word a tile on an empty square would form, seen from the main word's
/// direction. One struct per square, so the search reads one cache line for it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cross {
    /// Letters that make it a word (all letters when no such word forms).
    pub(super) allowed: u32,
    /// Points of its existing tiles.
    pub(super) sum: i32,
    /// Letters of its existing tiles.
    pub(super) len: u8,
    /// Whether such a word forms at all.
    pub(super) present: bool,
    /// Whether the square ends it (no tile after).
    pub(super) ends: bool,
}

impl Cross {
    pub(super) const NONE: Cross = Cross {
        allowed: u32::MAX,
        sum: 0,
        len: 0,
        present: false,
        ends: false,
    };
}

/// What the search needs to know about each square. Kept between calls: a new position is
/// compared with the last one, and only the lines through squares that changed are read again.
#[derive(Debug, Clone, Default)]
pub(super) struct BoardScan {
    pub(super) width: usize,
    pub(super) height: usize,
    /// The position analysed, to find what changed in the next one.
    squares: Vec<Square>,
    premiums: Vec<Premium>,
    /// Row-major: a letter index, [`EMPTY`] or [`BLOCKED`].
    pub(super) letter: Vec<u8>,
    /// Row-major: an existing tile's points.
    pub(super) value: Vec<i32>,
    /// Row-major: letter and word factors of unused premiums.
    pub(super) letter_factor: Vec<i32>,
    pub(super) word_factor: Vec<i32>,
    /// Row-major: empty and next to a tile (or the start on an empty board).
    pub(super) anchor: Vec<bool>,
    /// Per direction of the main word, row-major: the perpendicular word through each square.
    pub(super) cross: [Vec<Cross>; 2],
}

pub(super) fn dir_index(dir: Direction) -> usize {
    match dir {
        Direction::Across => 0,
        Direction::Down => 1,
    }
}

/// Squares changed beyond which reading the whole board again is cheaper than reading lines.
const MOST_CHANGED: usize = 12;

impl BoardScan {
    /// Brings the analysis up to `board`: everything when the shape, the tile count or most
    /// squares changed, else only the rows and columns through the changed squares. A move
    /// touches one or two lines each way, so the cross-checks of the rest are kept. Returns
    /// whether anything changed.
    pub(super) fn update(&mut self, board: &Board, rules: &RuleSet, trie: &Trie) -> bool {
        let (w, h) = (usize::from(board.width()), usize::from(board.height()));
        let mut changed = [0usize; MOST_CHANGED];
        let mut count = 0;
        let comparable = self.width == w
            && self.height == h
            && self.squares.len() == w * h
            && !board.is_empty()
            && self.letter.iter().any(|&l| l < BLOCKED);
        if comparable {
            let squares = board.squares().iter().zip(board.premiums());
            for (i, (square, premium)) in squares.enumerate() {
                if self.squares[i] != *square || self.premiums[i] != *premium {
                    if count == MOST_CHANGED {
                        count += 1;
                        break;
                    }
                    changed[count] = i;
                    count += 1;
                }
            }
        }
        if !comparable || count > MOST_CHANGED {
            self.rebuild(board, rules, trie);
            return true;
        }
        if count == 0 {
            return false;
        }
        let (mut rows, mut cols) = (0u64, 0u64);
        for &i in &changed[..count] {
            self.read(i, board.squares()[i], board.premiums()[i], rules);
            rows |= 1 << (i / w);
            cols |= 1 << (i % w);
        }
        for &i in &changed[..count] {
            let (r, c) = (i / w, i % w);
            self.anchor[i] = self.is_anchor(i);
            if r > 0 {
                self.anchor[i - w] = self.is_anchor(i - w);
            }
            if r + 1 < h {
                self.anchor[i + w] = self.is_anchor(i + w);
            }
            if c > 0 {
                self.anchor[i - 1] = self.is_anchor(i - 1);
            }
            if c + 1 < w {
                self.anchor[i + 1] = self.is_anchor(i + 1);
            }
        }
        // A main word across meets perpendicular words in the columns; down, in the rows.
        for c in (0..w).filter(|c| cols & (1 << c) != 0) {
            for r in 0..h {
                self.cross[0][r * w + c] = self.cross_at(Direction::Across, r * w + c, trie);
            }
        }
        for r in (0..h).filter(|r| rows & (1 << r) != 0) {
            for c in 0..w {
                self.cross[1][r * w + c] = self.cross_at(Direction::Down, r * w + c, trie);
            }
        }
        true
    }

    /// Reads the whole board.
    fn rebuild(&mut self, board: &Board, rules: &RuleSet, trie: &Trie) {
        let (w, h) = (usize::from(board.width()), usize::from(board.height()));
        let n = w * h;
        self.width = w;
        self.height = h;
        self.squares.clear();
        self.squares.resize(n, Square::Empty);
        self.premiums.clear();
        self.premiums.resize(n, Premium::Plain);
        self.letter.resize(n, EMPTY);
        self.value.resize(n, 0);
        self.letter_factor.resize(n, 1);
        self.word_factor.resize(n, 1);
        let squares = board.squares().iter().zip(board.premiums());
        for (i, (&square, &premium)) in squares.enumerate() {
            self.read(i, square, premium, rules);
        }
        self.anchor.clear();
        self.anchor.resize(n, false);
        for i in 0..n {
            self.anchor[i] = self.is_anchor(i);
        }
        if board.is_empty() {
            let start = board.start();
            let i = usize::from(start.row) * w + usize::from(start.col);
            self.anchor[i] = self.letter[i] == EMPTY;
        }
        for dir in [Direction::Across, Direction::Down] {
            let d = dir_index(dir);
            self.cross[d].clear();
            self.cross[d].resize(n, Cross::NONE);
            for i in 0..n {
                self.cross[d][i] = self.cross_at(dir, i, trie);
            }
        }
    }

    /// Takes square `i` of the board as it is now.
    fn read(&mut self, i: usize, square: Square, premium: Premium, rules: &RuleSet) {
        self.squares[i] = square;
        self.premiums[i] = premium;
        (self.letter[i], self.value[i]) = match square {
            Square::Empty => (EMPTY, 0),
            Square::Stop => (BLOCKED, 0),
            Square::Tile(t) => (t.letter.0, tile_points(rules.tiles, t)),
        };
        self.letter_factor[i] = premium.letter_factor();
        self.word_factor[i] = premium.word_factor();
    }

    /// Whether square `i` is empty and next to a tile.
    fn is_anchor(&self, i: usize) -> bool {
        let (w, h) = (self.width, self.height);
        let is_letter = |l: u8| l < BLOCKED;
        if self.letter[i] != EMPTY {
            return false;
        }
        let (r, c) = (i / w, i % w);
        (r > 0 && is_letter(self.letter[i - w]))
            || (r + 1 < h && is_letter(self.letter[i + w]))
            || (c > 0 && is_letter(self.letter[i - 1]))
            || (c + 1 < w && is_letter(self.letter[i + 1]))
    }

    /// The perpendicular word a tile on square `i` would form with a main word along `dir`.
    fn cross_at(&self, dir: Direction, i: usize, trie: &Trie) -> Cross {
        let (w, h) = (self.width, self.height);
        let is_letter = |l: u8| l < BLOCKED;
        if self.letter[i] != EMPTY {
            return Cross::NONE;
        }
        // The perpendicular word runs along the other direction: step ±w for a main word
        // across, ±1 for a main word down. Its cells are `line_start + k·step` for k in
        // 0..line_len, and the square is at `pos`.
        let step = if dir == Direction::Across { w } else { 1 };
        let (r, c) = (i / w, i % w);
        let (pos, line_len) = if dir == Direction::Across {
            (r, h)
        } else {
            (c, w)
        };
        let before = pos > 0 && is_letter(self.letter[i - step]);
        let after = pos + 1 < line_len && is_letter(self.letter[i + step]);
        if !before && !after {
            return Cross::NONE;
        }
        let mut first = pos;
        while first > 0 && is_letter(self.letter[i - (pos - first + 1) * step]) {
            first -= 1;
        }
        let mut last = pos;
        while last + 1 < line_len && is_letter(self.letter[i + (last - pos + 1) * step]) {
            last += 1;
        }
        let start = i - (pos - first) * step;
        let end = i + (last - pos) * step;
        let mut sum = 0;
        let mut len = 0u8;
        let mut node = Trie::ROOT;
        let mut alive = true;
        for j in (start..i).step_by(step) {
            sum += self.value[j];
            len += 1;
            match trie.child(node, self.letter[j]) {
                Some(next) if alive => node = next,
                _ => alive = false,
            }
        }
        let mut allowed = 0u32;
        if start == i {
            // Only tiles after the square: one walk of the reversed trie answers it.
            allowed =
                trie.letters_before((i + step..end + 1).step_by(step).map(|k| self.letter[k]));
        } else if alive {
            let mut letters = trie.children(node);
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let Some(mut at) = trie.child(node, l) else {
                    continue;
                };
                let mut ok = true;
                for k in (i + step..=end).step_by(step) {
                    match trie.child(at, self.letter[k]) {
                        Some(next) => at = next,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if ok && trie.is_word(at) {
                    allowed |= 1 << l;
                }
            }
        }
        for k in (i + step..=end).step_by(step) {
            sum += self.value[k];
            len += 1;
        }
        Cross {
            allowed,
            sum,
            len,
            present: true,
            ends: end == i,
        }
    }
}

impl BoardScan {
    /// Row `lane` (across) or column `lane` (down) as a line of squares: its length, the index of
    /// its first square and the step between squares.
    pub(super) fn lane(&self, dir: Direction, lane: usize) -> (usize, usize, usize) {
        match dir {
            Direction::Across => (self.width, lane * self.width, 1),
            Direction::Down => (self.height, lane, self.width),
        }
    }

    /// The letters a tile at offset `off` of a lane may be, the main word running along it.
    pub(super) fn letters_at(&self, dir: Direction, lane: usize, off: usize) -> u32 {
        let (_, base, stride) = self.lane(dir, lane);
        self.cross[dir_index(dir)][base + off * stride].allowed
    }

    /// Every anchor of the position, lane by lane, with what lies before it.
    pub(super) fn spans(&self, out: &mut Vec<Span>) {
        for dir in [Direction::Across, Direction::Down] {
            let lanes = match dir {
                Direction::Across => self.height,
                Direction::Down => self.width,
            };
            for lane in 0..lanes {
                let (lane_len, base, stride) = self.lane(dir, lane);
                let idx = |off: usize| base + off * stride;
                let mut last_anchor: isize = -1;
                for anchor in 0..lane_len {
                    if !self.anchor[idx(anchor)] {
                        continue;
                    }
                    let left = if anchor > 0 && self.letter[idx(anchor - 1)] < BLOCKED {
                        let mut start = anchor;
                        while start > 0 && self.letter[idx(start - 1)] < BLOCKED {
                            start -= 1;
                        }
                        Left::Tiles { start }
                    } else {
                        // Empty squares to the left that are not anchors take the left part; no
                        // perpendicular word touches them.
                        let mut limit = 0;
                        let mut k = anchor as isize - 1;
                        while k > last_anchor && self.letter[idx(k as usize)] == EMPTY {
                            limit += 1;
                            k -= 1;
                        }
                        Left::Free { limit }
                    };
                    out.push(Span {
                        dir,
                        lane,
                        anchor,
                        left,
                    });
                    last_anchor = anchor as isize;
                }
            }
        }
    }
}

/// Where moves start: an anchor in a lane, and what lies before it. Every move is found from
/// exactly one span, its leftmost (topmost) anchor.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) dir: Direction,
    pub(super) lane: usize,
    pub(super) anchor: usize,
    pub(super) left: Left,
}

impl Span {
    /// Where the word of a move from this span starts, with a free left part of `left` tiles.
    pub(super) fn word_start(&self, left: usize) -> usize {
        match self.left {
            Left::Tiles { start } => start,
            Left::Free { .. } => self.anchor - left,
        }
    }
}

/// What precedes an anchor in its lane.
#[derive(Debug, Clone, Copy)]
pub(super) enum Left {
    /// Tiles already on the board from this lane offset up to the anchor: they are the left part.
    Tiles { start: usize },
    /// Up to this many empty squares that are not anchors: the rack may put a left part there.
    Free { limit: usize },
}
