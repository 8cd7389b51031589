//! Move generation: every legal placement of a rack on a board, scored exactly as the rules score
//! it. Appel and Jacobson's anchor search over a letter trie, with per-square cross-checks (the
//! letters that make a valid perpendicular word) as bitsets.
//!
//! The hot loop changes state, recurses and undoes; it never allocates. Moves are written into a
//! caller's `Vec` that is reused between calls.

use rules::{
    board::Square, play::tile_points, ruleset::Scoring, Board, Direction, HandTile, Letter,
    NewTile, Placement, Played, Pos, RuleSet,
};

use crate::trie::{Node, Trie};

/// Most tiles one move can place (Alfapet's largest hand).
pub const MAX_TILES: usize = 8;
const EMPTY: u8 = 255;
const BLOCKED: u8 = 254;

/// A generated move: its tiles, direction and exact score. Compact (28 bytes), since a position
/// can have tens of thousands of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// Per tile: row, column, letter with [`BLANK_BIT`] for a blank.
    tiles: [[u8; 3]; MAX_TILES],
    len: u8,
    /// The direction of its main word.
    pub direction: Direction,
    /// Points, bonuses included, as `rules::evaluate` counts them.
    pub score: i32,
    /// Words formed: the main word and each cross-word.
    pub words: u8,
    /// Letters in the main word.
    pub main_len: u8,
}

/// Marks a blank in [`Move`]'s letter byte.
const BLANK_BIT: u8 = 0x80;

impl Move {
    /// How many tiles it places.
    pub fn tile_count(&self) -> usize {
        usize::from(self.len)
    }

    /// The tiles placed, as the rules write them.
    pub fn tiles(&self) -> impl Iterator<Item = NewTile> + '_ {
        self.tiles[..usize::from(self.len)]
            .iter()
            .map(|&[row, col, code]| {
                let letter = Letter(code & !BLANK_BIT);
                let tile = if code & BLANK_BIT != 0 {
                    Played::Blank(letter)
                } else {
                    Played::Letter(letter)
                };
                NewTile {
                    pos: Pos::new(row, col),
                    tile,
                    arrow: false,
                }
            })
    }

    /// The move as the rules take it.
    pub fn placement(&self) -> Placement {
        Placement {
            tiles: self.tiles().collect(),
            powers: Vec::new(),
        }
    }

    /// The hand tiles it uses.
    pub fn hand_tiles(&self) -> impl Iterator<Item = HandTile> + '_ {
        self.tiles[..usize::from(self.len)]
            .iter()
            .map(|&[_, _, code]| {
                if code & BLANK_BIT != 0 {
                    HandTile::Blank
                } else {
                    HandTile::Letter(Letter(code))
                }
            })
    }
}

/// A rack as counts: how many of each letter, and blanks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rack {
    counts: [u8; 32],
    blanks: u8,
    /// Bit `l` set while the rack holds letter `l`; kept in step with `counts`.
    present: u32,
}

impl Rack {
    /// The letters and blanks of a hand; arrows and stops are left out.
    pub fn from_hand(hand: &[HandTile]) -> Rack {
        let mut rack = Rack::default();
        for tile in hand {
            match tile {
                HandTile::Letter(l) if usize::from(l.0) < 32 => rack.put(l.0),
                HandTile::Blank => rack.blanks += 1,
                _ => {}
            }
        }
        rack
    }

    /// Tiles in the rack.
    pub fn len(&self) -> usize {
        usize::from(self.blanks) + self.counts.iter().map(|&c| usize::from(c)).sum::<usize>()
    }

    /// Whether the rack is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The letters the rack can play: all of them while it holds a blank.
    #[inline]
    fn letters_mask(&self) -> u32 {
        if self.blanks > 0 {
            u32::MAX
        } else {
            self.present
        }
    }

    #[inline]
    fn take(&mut self, letter: u8) {
        let count = &mut self.counts[usize::from(letter)];
        *count -= 1;
        if *count == 0 {
            self.present &= !(1 << letter);
        }
    }

    #[inline]
    fn put(&mut self, letter: u8) {
        self.counts[usize::from(letter)] += 1;
        self.present |= 1 << letter;
    }
}

/// The perpendicular word a tile on an empty square would form, seen from the main word's
/// direction. One struct per square, so the search reads one cache line for it.
#[derive(Debug, Clone, Copy)]
struct Cross {
    /// Letters that make it a word (all letters when no such word forms).
    allowed: u32,
    /// Points of its existing tiles.
    sum: i32,
    /// Letters of its existing tiles.
    len: u8,
    /// Whether such a word forms at all.
    present: bool,
    /// Whether the square ends it (no tile after).
    ends: bool,
}

impl Cross {
    const NONE: Cross = Cross {
        allowed: u32::MAX,
        sum: 0,
        len: 0,
        present: false,
        ends: false,
    };
}

/// What the search needs to know about each square, computed once per position.
#[derive(Debug, Clone, Default)]
struct Analysis {
    width: usize,
    height: usize,
    /// Row-major: a letter index, [`EMPTY`] or [`BLOCKED`].
    letter: Vec<u8>,
    /// Row-major: an existing tile's points.
    value: Vec<i32>,
    /// Row-major: letter and word factors of unused premiums.
    letter_factor: Vec<i32>,
    word_factor: Vec<i32>,
    /// Row-major: empty and next to a tile (or the start on an empty board).
    anchor: Vec<bool>,
    /// Per direction of the main word, row-major: the perpendicular word through each square.
    cross: [Vec<Cross>; 2],
}

fn dir_index(dir: Direction) -> usize {
    match dir {
        Direction::Across => 0,
        Direction::Down => 1,
    }
}

impl Analysis {
    fn rebuild(&mut self, board: &Board, rules: &RuleSet, trie: &Trie) {
        let (w, h) = (usize::from(board.width()), usize::from(board.height()));
        let n = w * h;
        self.width = w;
        self.height = h;
        self.letter.clear();
        self.value.clear();
        self.letter_factor.clear();
        self.word_factor.clear();
        for &square in board.squares() {
            let (letter, value) = match square {
                Square::Empty => (EMPTY, 0),
                Square::Stop => (BLOCKED, 0),
                Square::Tile(t) => (t.letter.0, tile_points(rules.tiles, t)),
            };
            self.letter.push(letter);
            self.value.push(value);
        }
        for &premium in board.premiums() {
            self.letter_factor.push(premium.letter_factor());
            self.word_factor.push(premium.word_factor());
        }
        let is_letter = |l: u8| l < BLOCKED;
        self.anchor.clear();
        self.anchor.resize(n, false);
        let mut any_tile = false;
        for i in 0..n {
            if is_letter(self.letter[i]) {
                any_tile = true;
                continue;
            }
            if self.letter[i] != EMPTY {
                continue;
            }
            let (r, c) = (i / w, i % w);
            let near = (r > 0 && is_letter(self.letter[i - w]))
                || (r + 1 < h && is_letter(self.letter[i + w]))
                || (c > 0 && is_letter(self.letter[i - 1]))
                || (c + 1 < w && is_letter(self.letter[i + 1]));
            self.anchor[i] = near;
        }
        if !any_tile {
            let start = board.start();
            let i = usize::from(start.row) * w + usize::from(start.col);
            if self.letter[i] == EMPTY {
                self.anchor[i] = true;
            }
        }
        for dir in [Direction::Across, Direction::Down] {
            let d = dir_index(dir);
            self.cross[d].clear();
            self.cross[d].resize(n, Cross::NONE);
            // The perpendicular word runs along the other direction: step ±w for a main word
            // across, ±1 for a main word down.
            let step = if dir == Direction::Across {
                w as isize
            } else {
                1
            };
            for i in 0..n {
                if self.letter[i] != EMPTY {
                    continue;
                }
                // The perpendicular line through the square: its cells are `line_start + k·step`
                // for k in 0..line_len, and the square is at `pos`.
                let (r, c) = (i / w, i % w);
                let (pos, line_len) = if dir == Direction::Across {
                    (r, h)
                } else {
                    (c, w)
                };
                let before = pos > 0 && is_letter(self.letter[i - step as usize]);
                let after = pos + 1 < line_len && is_letter(self.letter[i + step as usize]);
                if !before && !after {
                    continue;
                }
                let mut first = pos;
                while first > 0 && is_letter(self.letter[i - (pos - first + 1) * step as usize]) {
                    first -= 1;
                }
                let mut last = pos;
                while last + 1 < line_len
                    && is_letter(self.letter[i + (last - pos + 1) * step as usize])
                {
                    last += 1;
                }
                let start = i as isize - ((pos - first) as isize) * step;
                let end = i as isize + ((last - pos) as isize) * step;
                let ends = end == i as isize;
                let mut sum = 0;
                let mut len = 0u8;
                let mut node = Trie::ROOT;
                let mut alive = true;
                let mut j = start;
                while j < i as isize {
                    sum += self.value[j as usize];
                    len += 1;
                    match trie.child(node, self.letter[j as usize]) {
                        Some(next) if alive => node = next,
                        _ => alive = false,
                    }
                    j += step;
                }
                let mut mask = 0u32;
                if start == i as isize {
                    // Only tiles after the square: one walk of the reversed trie answers it.
                    let suffix = (1..=((end - i as isize) / step))
                        .map(|k| self.letter[(i as isize + k * step) as usize]);
                    mask = trie.letters_before(suffix);
                } else if alive {
                    let mut letters = trie.children(node);
                    while letters != 0 {
                        let l = letters.trailing_zeros() as u8;
                        letters &= letters - 1;
                        let Some(mut at) = trie.child(node, l) else {
                            continue;
                        };
                        let mut ok = true;
                        let mut k = i as isize + step;
                        while k <= end {
                            match trie.child(at, self.letter[k as usize]) {
                                Some(next) => at = next,
                                None => {
                                    ok = false;
                                    break;
                                }
                            }
                            k += step;
                        }
                        if ok && trie.is_word(at) {
                            mask |= 1 << l;
                        }
                    }
                }
                let mut k = i as isize + step;
                while k <= end {
                    sum += self.value[k as usize];
                    len += 1;
                    k += step;
                }
                self.cross[d][i] = Cross {
                    allowed: mask,
                    sum,
                    len,
                    present: true,
                    ends,
                };
            }
        }
    }
}

/// A left part the rack can spell: its trie node, its letters (with [`BLANK_BIT`] for blanks) and
/// the rack left after it.
#[derive(Debug, Clone, Copy)]
struct Prefix {
    node: Node,
    /// The letters that may follow it (the node's children), kept here so scanning the list at
    /// each anchor never touches the trie.
    children: u32,
    len: u8,
    letters: [u8; MAX_TILES],
    rack: Rack,
}

/// Generates moves for one ruleset and dictionary. Reusable across positions; keeps its scratch
/// buffers between calls (only with the same ruleset and trie: not enforced).
#[derive(Debug, Clone)]
pub struct Generator<'a> {
    trie: &'a Trie,
    rules: &'a RuleSet,
    /// Face value per letter.
    values: Vec<i32>,
    /// Letters that trigger Long words' hook damping: S caps at 3 halves, D at 4.
    hook_caps: Vec<u8>,
    analysis: Analysis,
    /// Every left part the current rack can spell, shortest first: computed once per call, then
    /// scanned at each anchor instead of walking the trie again.
    prefixes: Vec<Prefix>,
}

/// Points gathered along the search: the main word's letters and factor, the cross-words, and
/// how many words the move forms so far.
#[derive(Debug, Clone, Copy)]
struct Acc {
    main: i32,
    factor: i32,
    cross: i32,
    words: u8,
}

impl Acc {
    const START: Acc = Acc {
        main: 0,
        factor: 1,
        cross: 0,
        words: 1,
    };
}

struct Search<'s, 'a> {
    gen: &'s Generator<'a>,
    dir: Direction,
    d: usize,
    lane: usize,
    lane_len: usize,
    /// Square index of the lane's offset 0, and the step between offsets.
    base: usize,
    stride: usize,
    rack: Rack,
    /// Tiles placed so far: lane offset, letter, blank.
    placed: [(u8, u8, bool); MAX_TILES],
    nplaced: usize,
    /// Per lane offset: the index into `placed` of a new tile there, or 255.
    new_at: [u8; 32],
    out: &'s mut Vec<Move>,
}

impl<'a> Generator<'a> {
    /// A generator for `rules` over `trie`.
    pub fn new(trie: &'a Trie, rules: &'a RuleSet) -> Generator<'a> {
        let values = rules
            .tiles
            .letters
            .iter()
            .map(|s| i32::from(s.points))
            .collect();
        let hook_caps = rules
            .tiles
            .letters
            .iter()
            .map(|s| match s.letter {
                'S' => 3,
                'D' => 4,
                _ => u8::MAX,
            })
            .collect();
        Generator {
            trie,
            rules,
            values,
            hook_caps,
            analysis: Analysis::default(),
            prefixes: Vec::new(),
        }
    }

    /// Every legal move of `hand` on `board`, written into `out` (cleared first).
    pub fn generate(&mut self, board: &Board, hand: &[HandTile], out: &mut Vec<Move>) {
        out.clear();
        let rack = Rack::from_hand(hand);
        if rack.is_empty() {
            return;
        }
        let mut analysis = std::mem::take(&mut self.analysis);
        analysis.rebuild(board, self.rules, self.trie);
        self.analysis = analysis;
        let mut prefixes = std::mem::take(&mut self.prefixes);
        prefixes.clear();
        // A left part leaves at least one tile for the anchor and fits before it on the board.
        let longest = (rack.len() - 1)
            .min(MAX_TILES - 1)
            .min(self.analysis.width.max(self.analysis.height) - 1);
        prefixes.push(Prefix {
            node: Trie::ROOT,
            children: self.trie.children(Trie::ROOT),
            len: 0,
            letters: [0; MAX_TILES],
            rack,
        });
        // Level by level, so the list comes out shortest first with no sort.
        let mut level = 0..1;
        for _ in 0..longest {
            let next_start = prefixes.len();
            for k in level.clone() {
                extend_prefix(self.trie, prefixes[k], &mut prefixes);
            }
            level = next_start..prefixes.len();
        }
        self.prefixes = prefixes;
        for dir in [Direction::Across, Direction::Down] {
            let (lanes, lane_len) = match dir {
                Direction::Across => (self.analysis.height, self.analysis.width),
                Direction::Down => (self.analysis.width, self.analysis.height),
            };
            for lane in 0..lanes {
                let (base, stride) = match dir {
                    Direction::Across => (lane * self.analysis.width, 1),
                    Direction::Down => (lane, self.analysis.width),
                };
                let mut search = Search {
                    gen: self,
                    dir,
                    d: dir_index(dir),
                    lane,
                    lane_len,
                    base,
                    stride,
                    rack,
                    placed: [(0, 0, false); MAX_TILES],
                    nplaced: 0,
                    new_at: [255; 32],
                    out,
                };
                search.lane();
            }
        }
    }

    /// The highest-scoring move, if any.
    pub fn best(
        &mut self,
        board: &Board,
        hand: &[HandTile],
        scratch: &mut Vec<Move>,
    ) -> Option<Move> {
        self.generate(board, hand, scratch);
        scratch.iter().copied().max_by_key(|m| m.score)
    }
}

impl Search<'_, '_> {
    #[inline]
    fn idx(&self, off: usize) -> usize {
        self.base + off * self.stride
    }

    fn lane(&mut self) {
        let an = &self.gen.analysis;
        let mut last_anchor: isize = -1;
        for off in 0..self.lane_len {
            let i = self.idx(off);
            if !an.anchor[i] {
                continue;
            }
            if off > 0 && an.letter[self.idx(off - 1)] < BLOCKED {
                // The left part is the run of tiles already there.
                let mut start = off;
                while start > 0 && an.letter[self.idx(start - 1)] < BLOCKED {
                    start -= 1;
                }
                let mut node = Trie::ROOT;
                let mut alive = true;
                let mut acc = Acc::START;
                for k in start..off {
                    acc.main += an.value[self.idx(k)];
                    match self.gen.trie.child(node, an.letter[self.idx(k)]) {
                        Some(next) => node = next,
                        None => {
                            alive = false;
                            break;
                        }
                    }
                }
                if alive {
                    self.extend_right(node, off, off, start, acc);
                }
            } else {
                // Empty squares to the left that are not anchors take the left part; no
                // perpendicular word touches them.
                let mut limit = 0;
                let mut k = off as isize - 1;
                while k > last_anchor && an.letter[self.idx(k as usize)] == EMPTY {
                    limit += 1;
                    k -= 1;
                }
                self.left_parts(off, limit);
            }
            last_anchor = off as isize;
        }
    }

    /// Tries every left part of up to `limit` letters before `anchor`, each then extended right.
    fn left_parts(&mut self, anchor: usize, limit: usize) {
        let gen = self.gen;
        let an = &gen.analysis;
        let at_anchor = an.cross[self.d][self.idx(anchor)].allowed;
        let full = self.rack;
        for prefix in &gen.prefixes {
            let len = usize::from(prefix.len);
            if len > limit {
                break;
            }
            // Most left parts cannot go on at the anchor: check that before setting anything up.
            if prefix.children & at_anchor & prefix.rack.letters_mask() == 0 {
                continue;
            }
            // Its tiles sit at anchor - len .. anchor; no cross-word touches those squares.
            let mut acc = Acc::START;
            for (k, &code) in prefix.letters[..len].iter().enumerate() {
                let off = anchor - len + k;
                let (letter, blank) = (code & !BLANK_BIT, code & BLANK_BIT != 0);
                self.placed[k] = (off as u8, letter, blank);
                self.new_at[off] = k as u8;
                let i = self.idx(off);
                acc.main += if blank {
                    0
                } else {
                    gen.values[usize::from(letter)]
                } * an.letter_factor[i];
                acc.factor *= an.word_factor[i];
            }
            self.nplaced = len;
            self.rack = prefix.rack;
            self.extend_right(prefix.node, anchor, anchor, anchor - len, acc);
            for off in anchor - len..anchor {
                self.new_at[off] = 255;
            }
            self.nplaced = 0;
        }
        self.rack = full;
    }

    fn extend_right(&mut self, node: Node, off: usize, anchor: usize, word_start: usize, acc: Acc) {
        let trie = self.gen.trie;
        let an = &self.gen.analysis;
        // One load of the node serves the word test, the children and every child's index.
        let (mask, first) = trie.node(node);
        let ends_word = off > anchor && Trie::is_word_mask(mask);
        let square = if off < self.lane_len {
            an.letter[self.idx(off)]
        } else {
            BLOCKED
        };
        if square == BLOCKED {
            if ends_word {
                self.record(word_start, off, acc);
            }
            return;
        }
        let i = self.idx(off);
        if square != EMPTY {
            if let Some(next) = Trie::child_of(mask, first, square) {
                let acc = Acc {
                    main: acc.main + an.value[i],
                    ..acc
                };
                self.extend_right(next, off + 1, anchor, word_start, acc);
            }
            return;
        }
        if ends_word {
            self.record(word_start, off, acc);
        }
        if self.nplaced == MAX_TILES {
            return;
        }
        let cross = an.cross[self.d][i];
        let letters = Trie::children_mask(mask) & cross.allowed & self.rack.letters_mask();
        if letters == 0 {
            return;
        }
        let (letter_factor, word_factor) = (an.letter_factor[i], an.word_factor[i]);
        let (has_cross, cross_sum) = (cross.present, cross.sum);
        let cross_halves = i32::from((cross.len + 1).min(17));
        let long_words = self.gen.rules.scoring == Scoring::LengthMultiplier;
        for blank in [false, true] {
            if blank && self.rack.blanks == 0 {
                break;
            }
            let mut candidates = if blank {
                letters
            } else {
                letters & self.rack.present
            };
            while candidates != 0 {
                let l = candidates.trailing_zeros() as u8;
                candidates &= candidates - 1;
                let Some(next) = Trie::child_of(mask, first, l) else {
                    continue;
                };
                if blank {
                    self.rack.blanks -= 1;
                } else {
                    self.rack.take(l);
                }
                let value = if blank {
                    0
                } else {
                    self.gen.values[usize::from(l)]
                } * letter_factor;
                let mut next_acc = Acc {
                    main: acc.main + value,
                    factor: acc.factor * word_factor,
                    ..acc
                };
                if has_cross {
                    let cross = (cross_sum + value) * word_factor;
                    next_acc.words += 1;
                    next_acc.cross += if long_words {
                        (cross * cross_halves + 1).div_euclid(2)
                    } else {
                        cross
                    };
                }
                self.placed[self.nplaced] = (off as u8, l, blank);
                self.new_at[off] = self.nplaced as u8;
                self.nplaced += 1;
                self.extend_right(next, off + 1, anchor, word_start, next_acc);
                self.nplaced -= 1;
                self.new_at[off] = 255;
                if blank {
                    self.rack.blanks += 1;
                } else {
                    self.rack.put(l);
                }
            }
        }
    }

    /// Long words, one new tile: the main word's points, the cross-word's, and the word count, with
    /// hook damping (a lone final S caps a word's multiplier at 1.5, a lone final D at 2.0).
    fn score_single_long(&self, start: usize, end: usize) -> (i32, i32, u8) {
        let gen = self.gen;
        let an = &gen.analysis;
        let (off, letter, blank) = self.placed[0];
        let cap = gen.hook_caps[usize::from(letter)];
        let mut main = 0;
        let mut main_factor = 1;
        let mut cross_total = 0;
        let mut words = 1u8;
        for k in start..end {
            let i = self.idx(k);
            if k != usize::from(off) {
                main += an.value[i];
                continue;
            }
            let value = if blank {
                0
            } else {
                gen.values[usize::from(letter)]
            } * an.letter_factor[i];
            main += value;
            main_factor *= an.word_factor[i];
            let info = an.cross[self.d][i];
            if info.present {
                words += 1;
                let cross = (info.sum + value) * an.word_factor[i];
                let mut halves = (info.len + 1).min(17);
                if info.ends && info.len >= 2 {
                    halves = halves.min(cap);
                }
                cross_total += (cross * i32::from(halves) + 1).div_euclid(2);
            }
        }
        let len = end - start;
        let mut halves = len.min(17) as u8;
        if usize::from(off) == end - 1 && len >= 3 {
            halves = halves.min(cap);
        }
        (
            (main * main_factor * i32::from(halves) + 1).div_euclid(2),
            cross_total,
            words,
        )
    }

    /// Scores the move whose main word covers `start..end` of the lane, and keeps it.
    fn record(&mut self, start: usize, end: usize, acc: Acc) {
        let gen = self.gen;
        let an = &gen.analysis;
        let rules = gen.rules;
        let n = self.nplaced;
        if n == 0 {
            return;
        }
        // A single tile forming words both ways is generated across; down, skip it.
        if n == 1 && self.dir == Direction::Down {
            let i = self.idx(usize::from(self.placed[0].0));
            let c = i % an.width;
            let left = c > 0 && an.letter[i - 1] < BLOCKED;
            let right = c + 1 < an.width && an.letter[i + 1] < BLOCKED;
            if left || right {
                return;
            }
        }
        let long_words = rules.scoring == Scoring::LengthMultiplier;
        let len = end - start;
        let (mut score, cross_total, words) = if long_words && n == 1 {
            // Only a single tile can trigger hook damping: count its words again with it.
            self.score_single_long(start, end)
        } else {
            let mut score = acc.main * acc.factor;
            if long_words {
                score = (score * len.min(17) as i32 + 1).div_euclid(2);
            }
            (score, acc.cross, acc.words)
        };
        score += cross_total;
        if rules.bingo_bonus > 0 && n == usize::from(rules.hand_size) {
            score += rules.bingo_bonus;
        }
        score += RuleSet::bonus_for(rules.placement_bonus, n)
            + RuleSet::bonus_for(rules.combo_bonus, usize::from(words));
        let mut tiles = [[0u8; 3]; MAX_TILES];
        for (k, &(off, letter, blank)) in self.placed[..n].iter().enumerate() {
            let (row, col) = match self.dir {
                Direction::Across => (self.lane as u8, off),
                Direction::Down => (off, self.lane as u8),
            };
            tiles[k] = [row, col, if blank { letter | BLANK_BIT } else { letter }];
        }
        self.out.push(Move {
            tiles,
            len: n as u8,
            direction: self.dir,
            score,
            words,
            main_len: len as u8,
        });
    }
}

/// Appends every one-letter extension of `at` that the rack can spell and some word starts with.
fn extend_prefix(trie: &Trie, at: Prefix, out: &mut Vec<Prefix>) {
    let mut letters = trie.children(at.node) & at.rack.letters_mask();
    while letters != 0 {
        let l = letters.trailing_zeros() as u8;
        letters &= letters - 1;
        let Some(node) = trie.child(at.node, l) else {
            continue;
        };
        let mut next = Prefix {
            node,
            children: trie.children(node),
            len: at.len + 1,
            ..at
        };
        if at.rack.counts[usize::from(l)] > 0 {
            next.rack.take(l);
            next.letters[usize::from(at.len)] = l;
            out.push(next);
            next.rack = at.rack;
        }
        if at.rack.blanks > 0 {
            next.rack.blanks -= 1;
            next.letters[usize::from(at.len)] = l | BLANK_BIT;
            out.push(next);
        }
    }
}
