//! Move generation: every legal placement of a rack on a board, scored exactly as the rules score
//! it. Appel and Jacobson's anchor search over a letter trie, with per-square cross-checks (the
//! letters that make a valid perpendicular word) as bitsets.
//!
//! The hot loop changes state, recurses and undoes; it never allocates. Moves are written into a
//! caller's `Vec` that is reused between calls.

use rules::{
    play::square_of, ruleset::Scoring, Board, Direction, HandTile, Letter, NewTile, Placement,
    Played, Pos, RuleSet,
};

use std::{collections::BinaryHeap, ops::RangeInclusive};

use crate::trie::{Node, Trie};

mod board_scan;
mod bound;
mod rack;

use board_scan::{dir_index, BoardScan, Left, Span, BLOCKED, EMPTY};
use bound::{Ahead, Bound, Choices};
pub use rack::{Rack, MAX_TILES};

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

    /// `board` with the move's tiles on it.
    pub fn played_on(&self, board: &Board) -> Board {
        let mut after = board.clone();
        for t in self.tiles() {
            after.set(t.pos, square_of(t));
        }
        after
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
    analysis: BoardScan,
    /// Every left part the current rack can spell, shortest first: computed once per call, then
    /// scanned at each anchor instead of walking the trie again.
    prefixes: Vec<Prefix>,
    /// Where each length starts in `prefixes`, and where the list ends.
    levels: Vec<usize>,
    /// Per length: the letters that can follow some left part of that length (from the rest of
    /// the rack). An anchor that takes none of them has no move with such a left part.
    follows: Vec<u32>,
    /// The anchors of the current position, each with its left part.
    spans: Vec<Span>,
    /// Scratch for [`Generator::best`]: per direction and lane, the bounds of what its squares
    /// can add.
    aheads: Vec<Ahead>,
    /// Scratch for [`Generator::best`]: what to search, each with its bound (see [`Spot::key`]).
    queue: Vec<u64>,
    /// Scratch for [`Generator::best`]: every choice of the rack's tiles.
    choices: Choices,
}

/// Where [`Generator::best`] searches: a span, for one with a free left part one length of it,
/// and the most tiles its moves place. Each length has its own bound (its word starts there), so
/// a span's long left parts wait until the floor has risen and are usually never searched; and
/// each number of tiles, so a spot whose letters spell no word gives way to the same place with
/// one tile fewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spot {
    span: u32,
    left: u8,
    /// How many tiles its moves place.
    tiles: u8,
}

impl Spot {
    /// The spot and its bound in one number that orders by the bound, so the queue compares
    /// single words (5.8k instructions a call fewer than a queue of tuples).
    fn key(self, bound: i32) -> u64 {
        let bound = (i64::from(bound) - i64::from(i32::MIN)) as u64;
        bound << 32 | u64::from(self.span) << 8 | u64::from(self.left) << 4 | u64::from(self.tiles)
    }

    /// The spot and the bound in a [`Spot::key`].
    fn of_key(key: u64) -> (i32, Spot) {
        let bound = ((key >> 32) as i64 + i64::from(i32::MIN)) as i32;
        let spot = Spot {
            span: (key >> 8) as u32 & 0xFF_FFFF,
            left: (key >> 4) as u8 & 0xF,
            tiles: key as u8 & 0xF,
        };
        (bound, spot)
    }
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

struct Search<'s, 'a: 's> {
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
    /// Moves scoring less are not kept.
    floor: i32,
    /// When searching for the best move only: `floor` rises to each move kept, so only a move at
    /// least as good as every one before it is written out.
    rising: bool,
    /// The most tiles a move may place.
    tiles: usize,
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
            analysis: BoardScan::default(),
            prefixes: Vec::new(),
            levels: Vec::new(),
            follows: Vec::new(),
            spans: Vec::new(),
            aheads: Vec::new(),
            queue: Vec::new(),
            choices: Choices::default(),
        }
    }

    /// Every legal move of `hand` on `board`, written into `out` (cleared first).
    pub fn generate(&mut self, board: &Board, hand: &[HandTile], out: &mut Vec<Move>) {
        out.clear();
        let Some(rack) = self.prepare(board, hand) else {
            return;
        };
        for k in 0..self.spans.len() {
            let span = self.spans[k];
            self.search(span, 0..=MAX_TILES, MAX_TILES, rack, None, out);
        }
    }

    /// The highest-scoring move, if any; among equal scores, one placing the fewest tiles.
    ///
    /// Searches the spots (where a word starts, and how many tiles it places) in descending order
    /// of the most a move there could score, skips those whose letters spell no word, and stops
    /// at the first that cannot beat the best found: most of the board is never searched.
    /// `scratch` receives only the moves that were the best so far when found.
    pub fn best(
        &mut self,
        board: &Board,
        hand: &[HandTile],
        scratch: &mut Vec<Move>,
    ) -> Option<Move> {
        scratch.clear();
        let rack = self.prepare(board, hand)?;
        // The longest word of the rack's letters alone: the bounds of a rack with a blank need it
        // (without one, each spot asks the rack's letters itself).
        let alone = if rack.blanks > 0 {
            self.prefixes
                .iter()
                .rev()
                .find(|p| self.trie.is_word(p.node))
                .map_or(0, |p| usize::from(p.len))
        } else {
            0
        };
        // Without blanks, every different choice of the rack's tiles, for each spot's question.
        let known = rack.blanks == 0 && rack.len() <= MAX_TILES;
        if known {
            self.choices.fill(self.trie, &rack);
        }
        let choices = known.then_some(&self.choices);
        let bound = Bound::new(self.rules, self.trie, &self.values, rack, alone, choices);
        // Per direction and lane: the bounds of what its squares can add, filled for each lane
        // with an anchor (the spans come lane by lane), and each span's bound from them.
        let mut aheads = std::mem::take(&mut self.aheads);
        let lanes = self.analysis.width.max(self.analysis.height);
        aheads.resize_with(2 * lanes, || Ahead::EMPTY);
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        let mut filled = usize::MAX;
        // Each place a word can start, with the most tiles its move can place there.
        let mut push = |ahead: &Ahead, span: usize, left: usize, start: usize| {
            let tiles = ahead.most_tiles(&bound, start);
            if tiles > left {
                let spot = Spot {
                    span: span as u32,
                    left: left as u8,
                    tiles: tiles as u8,
                };
                queue.push(spot.key(ahead.of_spot(&bound, start, tiles)));
            }
        };
        for (k, span) in self.spans.iter().enumerate() {
            let lane = dir_index(span.dir) * lanes + span.lane;
            if lane != filled {
                bound.ahead(&self.analysis, span.dir, span.lane, &mut aheads[lane]);
                filled = lane;
            }
            let ahead = &aheads[lane];
            if ahead.room[span.anchor] == 0 {
                continue;
            }
            match span.left {
                Left::Tiles { .. } => push(ahead, k, 0, span.word_start(0)),
                // A left part leaves a tile for the anchor; the prefixes say how long one can be.
                Left::Free { limit } => {
                    let at_anchor = self.analysis.letters_at(span.dir, span.lane, span.anchor);
                    for len in 0..=limit.min(self.levels.len() - 2) {
                        if self.follows[len] & at_anchor != 0 {
                            push(ahead, k, len, span.word_start(len));
                        }
                    }
                }
            }
        }
        // Most promising first.
        let mut queue = BinaryHeap::from(queue);
        let mut floor = i32::MIN;
        while let Some((most, spot)) = queue.pop().map(Spot::of_key) {
            // An equal score still counts: it may place fewer tiles.
            if most < floor {
                break;
            }
            let (left, tiles) = (usize::from(spot.left), usize::from(spot.tiles));
            let span = self.spans[spot.span as usize];
            let start = span.word_start(left);
            let ahead = &aheads[dir_index(span.dir) * lanes + span.lane];
            // A move of that many tiles there spells a word of its tiles and the board's letters
            // it runs through. Where the rack has no such word, the place waits again with one
            // tile fewer (and a bound no higher); where it has, one search finds every move of
            // up to that many tiles there.
            if !bound.can_end(ahead.last_run(start, tiles))
                || !bound.can_spell(tiles, ahead.board_letters(start, tiles))
            {
                if tiles > left + 1 {
                    let fewer = Spot {
                        tiles: spot.tiles - 1,
                        ..spot
                    };
                    queue.push(fewer.key(ahead.of_spot(&bound, start, tiles - 1)));
                }
                continue;
            }
            floor = self.search(span, left..=left, tiles, rack, Some(floor), scratch);
        }
        self.aheads = aheads;
        self.queue = queue.into_vec();
        scratch
            .iter()
            .copied()
            .max_by_key(|m| (m.score, std::cmp::Reverse(m.tile_count())))
    }

    /// Reads the position and the rack: the analysis, the left parts and the spans. `None` for a
    /// rack with nothing to play.
    fn prepare(&mut self, board: &Board, hand: &[HandTile]) -> Option<Rack> {
        let rack = Rack::from_hand(hand);
        if rack.is_empty() {
            return None;
        }
        let mut analysis = std::mem::take(&mut self.analysis);
        let changed = analysis.update(board, self.rules, self.trie);
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
        self.levels.clear();
        self.levels.push(0);
        for _ in 0..longest {
            let next_start = prefixes.len();
            for k in level.clone() {
                extend_prefix(self.trie, prefixes[k], &mut prefixes);
            }
            level = next_start..prefixes.len();
            self.levels.push(next_start);
        }
        self.levels.push(prefixes.len());
        self.follows.clear();
        self.follows.extend(self.levels.windows(2).map(|level| {
            prefixes[level[0]..level[1]]
                .iter()
                .fold(0, |all, p| all | (p.children & p.rack.letters_mask()))
        }));
        self.prefixes = prefixes;
        // The spans follow from the board alone: kept while it stays as it was (a bot weighing
        // racks, or a player's previews, asks of one position many times).
        if changed {
            let mut spans = std::mem::take(&mut self.spans);
            spans.clear();
            self.analysis.spans(&mut spans);
            self.spans = spans;
        }
        Some(rack)
    }

    /// Every move from `span` (with a free left part, of the lengths in `left`), appended to
    /// `out`; or, given the best score so far, only each move that is at least as good as every
    /// one found before it. Returns the best score so far.
    fn search(
        &self,
        span: Span,
        left: RangeInclusive<usize>,
        tiles: usize,
        rack: Rack,
        best: Option<i32>,
        out: &mut Vec<Move>,
    ) -> i32 {
        let an = &self.analysis;
        let (lane_len, base, stride) = an.lane(span.dir, span.lane);
        let mut search = Search {
            gen: self,
            dir: span.dir,
            d: dir_index(span.dir),
            lane: span.lane,
            lane_len,
            base,
            stride,
            rack,
            placed: [(0, 0, false); MAX_TILES],
            nplaced: 0,
            new_at: [255; 32],
            floor: best.unwrap_or(i32::MIN),
            rising: best.is_some(),
            tiles,
            out,
        };
        search.span(span, left);
        search.floor
    }
}

impl Search<'_, '_> {
    #[inline]
    fn idx(&self, off: usize) -> usize {
        self.base + off * self.stride
    }

    fn span(&mut self, span: Span, left: RangeInclusive<usize>) {
        let an = &self.gen.analysis;
        match span.left {
            Left::Tiles { start } => {
                // The left part is the run of tiles already there.
                let mut node = Trie::ROOT;
                let mut acc = Acc::START;
                for k in start..span.anchor {
                    acc.main += an.value[self.idx(k)];
                    match self.gen.trie.child(node, an.letter[self.idx(k)]) {
                        Some(next) => node = next,
                        None => return,
                    }
                }
                self.extend_right(node, span.anchor, span.anchor, start, acc);
            }
            Left::Free { limit } => {
                let longest = (*left.end()).min(limit);
                self.left_parts(span.anchor, *left.start()..=longest)
            }
        }
    }

    /// Tries every left part with a length in `lens` before `anchor`, each then extended right.
    fn left_parts(&mut self, anchor: usize, lens: RangeInclusive<usize>) {
        let gen = self.gen;
        let an = &gen.analysis;
        let at_anchor = an.letters_at(self.dir, self.lane, anchor);
        let full = self.rack;
        let longest = (*lens.end()).min(gen.levels.len() - 2);
        for len in *lens.start()..=longest {
            if gen.follows[len] & at_anchor == 0 {
                continue;
            }
            for prefix in &gen.prefixes[gen.levels[len]..gen.levels[len + 1]] {
                self.left_part(prefix, anchor, at_anchor);
            }
        }
        self.rack = full;
    }

    /// Puts `prefix` before `anchor` and extends it right, unless it cannot go on there.
    #[inline]
    fn left_part(&mut self, prefix: &Prefix, anchor: usize, at_anchor: u32) {
        let gen = self.gen;
        let an = &gen.analysis;
        let len = usize::from(prefix.len);
        // Most left parts cannot go on at the anchor: check that before setting anything up.
        if prefix.children & at_anchor & prefix.rack.letters_mask() == 0 {
            return;
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
        if self.nplaced == self.tiles {
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
        if score < self.floor {
            return;
        }
        if self.rising {
            // Searching for the best only: from now on, nothing worse is worth keeping.
            self.floor = score;
        }
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
