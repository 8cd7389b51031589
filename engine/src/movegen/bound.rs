//! Upper bounds on what a move can score, for the best-move search: per spot (a place a word can
//! start, an anchor and the length of its left part, and a number of tiles), before searching
//! it, so the spots that cannot beat the best move found are never visited. Inside a spot there
//! is no bound: checking one at every step of the search cost more than the steps it saved
//! (measured on engine-bench's positions, 327k instructions per call with it, 309k without).
//!
//! A move that places a given number of tiles from a given square covers exactly the next that
//! many squares a tile fits and the board's tiles among and right after them, so its squares are
//! known, and so are the board's letters in its word: the word is some of the rack's letters and
//! those. The trie's filter of words' letters says whether any word has them, and most spots turn
//! out to have none, so they are never searched. For the bingo (50 points in Classic, the
//! loosest part of a bound) the same question is asked of the whole hand at every start.

use std::cell::Cell;

use rules::{ruleset::Scoring, Direction, RuleSet};

use crate::trie::Trie;

use super::{
    board_scan::{dir_index, BoardScan, BLOCKED, EMPTY},
    rack::{Rack, MAX_TILES},
};

/// What bounds a move's score for one rack: its tiles' values, highest first, and the bonuses.
/// The squares' part is in each lane's [`Ahead`].
pub(super) struct Bound<'r> {
    rules: &'r RuleSet,
    trie: &'r Trie,
    /// Tiles in the rack.
    tiles: usize,
    /// The letters it can play: all of them while it holds a blank.
    letters: u32,
    /// Per letter, its value if the rack holds it, else -1; and the rack's letters, blanks left
    /// out.
    held: [i32; 32],
    present: u32,
    /// The value of its richest letter.
    richest: i32,
    /// Face value of the rack's `k` highest tiles, by `k` (blanks count 0): what any `k` of its
    /// tiles are worth at most.
    top: [i32; MAX_TILES + 1],
    /// The most the bonuses give a move of `t` tiles, by `t`; and the same without the bingo,
    /// for a move that cannot make one.
    bonus: [i32; MAX_TILES + 1],
    bonus_no_bingo: [i32; MAX_TILES + 1],
    /// Every different choice of the rack's tiles, for a rack without blanks.
    choices: Option<&'r Choices>,
    /// The answers of [`Bound::can_spell`] so far, by a hash of the question: many places ask
    /// the same (no letters of the board, or the same ones).
    asked: [Cell<u64>; 64],
    answers: Cell<u64>,
    /// Set when the rack can earn the bingo: it holds a whole hand.
    whole_hand: Option<WholeHand<'r>>,
    /// The most tiles a move can place from a start where no word takes the whole hand (see
    /// [`Ahead::bingo`]): one fewer than the hand when the rack is one, else any number.
    most_without_bingo: usize,
    /// The most tiles a word of the rack's letters alone can take: a move whose word meets no
    /// tile of the board places no more.
    most_alone: usize,
}

/// Every different choice of a rack's tiles (for a rack without blanks), as the sum of its
/// letters' keys (see [`Trie::letter_key`]): at most 2⁸ for eight tiles.
#[derive(Debug, Clone, Default)]
pub(super) struct Choices {
    /// The keys, fewest tiles first.
    keys: Vec<u64>,
    /// Where the choices of each number of tiles begin in `keys`, and where the last end.
    by_size: [u16; MAX_TILES + 2],
    /// Scratch: each choice as it is grown, with its number of tiles.
    grown: Vec<(u8, u64)>,
}

impl Choices {
    /// Every choice of `rack`'s letters (no more than [`MAX_TILES`] of them), grown letter by
    /// letter from the empty one, then put in order of size.
    pub(super) fn fill(&mut self, trie: &Trie, rack: &Rack) {
        let grown = &mut self.grown;
        grown.clear();
        grown.push((0, 0));
        let mut present = rack.present;
        while present != 0 {
            let l = present.trailing_zeros() as u8;
            present &= present - 1;
            let have = rack.counts[usize::from(l)];
            for k in 0..grown.len() {
                let (size, key) = grown[k];
                for more in 1..=have {
                    let letters = trie.letter_key(l).wrapping_mul(u64::from(more));
                    grown.push((size + more, key.wrapping_add(letters)));
                }
            }
        }
        self.by_size = [0; MAX_TILES + 2];
        for &(size, _) in grown.iter() {
            self.by_size[usize::from(size) + 1] += 1;
        }
        for t in 1..self.by_size.len() {
            self.by_size[t] += self.by_size[t - 1];
        }
        let mut next = self.by_size;
        self.keys.resize(grown.len(), 0);
        for &(size, key) in grown.iter() {
            self.keys[usize::from(next[usize::from(size)])] = key;
            next[usize::from(size)] += 1;
        }
    }

    /// The choices of `tiles` tiles.
    fn of_size(&self, tiles: usize) -> &[u64] {
        &self.keys[usize::from(self.by_size[tiles])..usize::from(self.by_size[tiles + 1])]
    }
}

/// What a rack of a whole hand can spell with all of its tiles, for the bingo's part of a bound:
/// a word of its letters alone, or with the board's letters its word runs through. Asked of the
/// trie's filter of words' letters; with a blank (any of the alphabet's letters) the
/// answer for each single board letter is kept once asked.
struct WholeHand<'r> {
    trie: &'r Trie,
    /// The rack's letters, blanks left out, as a sum of [`Trie::letter_key`].
    key: u64,
    blanks: u8,
    /// Letters of the alphabet, for what a blank can stand for.
    alphabet: u8,
    /// Whether the rack alone spells a word.
    alone: bool,
    /// Per letter of the board: whether its answer is known, and whether the rack with it spells
    /// a word.
    known: Cell<u32>,
    with: Cell<u32>,
}

impl WholeHand<'_> {
    /// Whether the rack's tiles, with the board's letters whose keys add up to `board` (0 for
    /// none), spell a word. Two or more blanks could stand for too much to ask: then, yes.
    fn spells(&self, board: u64) -> bool {
        let key = self.key.wrapping_add(board);
        match self.blanks {
            0 => self.trie.may_spell(key),
            1 => (0..self.alphabet).any(|l| {
                self.trie
                    .may_spell(key.wrapping_add(self.trie.letter_key(l)))
            }),
            _ => true,
        }
    }

    /// Whether the rack with the board's letter `letter` spells a word, asked once per letter.
    fn spells_with(&self, letter: u8) -> bool {
        let bit = 1u32 << (letter & 31);
        if self.known.get() & bit == 0 {
            self.known.set(self.known.get() | bit);
            if self.spells(self.trie.letter_key(letter)) {
                self.with.set(self.with.get() | bit);
            }
        }
        self.with.get() & bit != 0
    }
}

/// What the squares of a lane can add to a move, for the bound of each place a word can start
/// there. A move placing `t` tiles from an offset on covers the next `t` squares a tile fits and
/// the board's tiles among and right after them, so each part of its bound is a difference of
/// two running sums along the lane: one pass fills them, and the whole stays small enough for
/// every lane's to stay in the fastest cache.
#[derive(Debug, Clone)]
pub(super) struct Ahead {
    /// Per offset: how many squares a tile fits lie before it (its rank among them).
    rank: [u8; 33],
    /// Per rank: where the word ends if its last tile goes on that square (the first square
    /// after it that holds no tile of the board).
    past: [u8; 33],
    /// Per offset, summed over the board's tiles before it: their points, and their letters'
    /// keys (see [`Trie::letter_key`]).
    points_before: [i32; 33],
    keys_before: [u64; 33],
    /// Per rank, summed over the squares of lower rank: the letter premiums, each what the
    /// richest tile that fits the square gains there beyond its face value; every cross-word at
    /// its richest; and the word factors, as exponents of 2 and 3 (a ×4 counts as two ×2).
    gains: [i32; 33],
    crosses: [i32; 33],
    twos: [u8; 33],
    threes: [u8; 33],
    /// How many tiles fit from each offset on (at most [`MAX_TILES`]).
    pub(super) room: [u8; 33],
    /// Per offset: the board's letter there, or [`EMPTY`] where a tile of the rack fits, or
    /// [`BLOCKED`] where none does.
    square: [u8; 33],
    /// Per offset: whether a word starting there may earn the bingo, as far as the letters of
    /// the board it would run through and the rack's letters tell. Where it cannot, no move
    /// from there places the whole hand, and the bounds count one tile fewer.
    bingo: [bool; 33],
    /// Long words' length multiplier, in halves, for the longest word the lane allows.
    halves: i32,
    /// Per offset: the most tiles a move whose word starts there can place. One fewer than the
    /// hand where no word takes it all (see `bingo`); where the word cannot reach the board's
    /// tiles, no more than a word of the rack's letters alone takes.
    most_tiles: [u8; 33],
}

/// Powers of 3, for the product of the word factors.
const POW3: [i32; MAX_TILES + 1] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

impl Ahead {
    pub(super) const EMPTY: Ahead = Ahead {
        rank: [0; 33],
        past: [0; 33],
        points_before: [0; 33],
        keys_before: [0; 33],
        gains: [0; 33],
        crosses: [0; 33],
        twos: [0; 33],
        threes: [0; 33],
        room: [0; 33],
        square: [BLOCKED; 33],
        bingo: [false; 33],
        halves: 2,
        most_tiles: [0; 33],
    };

    /// The most tiles a move whose word starts at lane offset `start` can place.
    #[inline]
    pub(super) fn most_tiles(&self, bound: &Bound, start: usize) -> usize {
        bound
            .tiles
            .min(usize::from(self.room[start]))
            .min(usize::from(self.most_tiles[start]))
    }

    /// Where the word of a move that starts at `start` and places `tiles` tiles (one or more,
    /// at most [`Ahead::most_tiles`]) ends, and the ranks of its squares.
    #[inline]
    fn reach(&self, start: usize, tiles: usize) -> (usize, usize, usize) {
        let first = usize::from(self.rank[start]);
        let last = first + tiles;
        (usize::from(self.past[last - 1]), first, last)
    }

    /// The most a move can score whose word starts at lane offset `start` and that places
    /// exactly `tiles` tiles (one or more, at most [`Ahead::most_tiles`]): the rack's richest
    /// tiles on the squares it covers, every premium and cross-word there at its richest, and
    /// the bonuses.
    #[inline(always)]
    pub(super) fn of_spot(&self, bound: &Bound, start: usize, tiles: usize) -> i32 {
        let (end, first, last) = self.reach(start, tiles);
        let letters = bound.top[tiles] + self.points_before[end] - self.points_before[start]
            + self.gains[last]
            - self.gains[first];
        let word = (1 << (self.twos[last] - self.twos[first]))
            * POW3[usize::from(self.threes[last] - self.threes[first])];
        let mut main = letters * word;
        if self.halves != 2 {
            main = (main * self.halves + 1).div_euclid(2);
        }
        let bonus = if self.bingo[start] {
            bound.bonus[tiles]
        } else {
            bound.bonus_no_bingo[tiles]
        };
        main + self.crosses[last] - self.crosses[first] + bonus
    }

    /// The board's letters that a word starting at `start` and placing `tiles` tiles (one or
    /// more) runs through, as their keys summed.
    #[inline]
    pub(super) fn board_letters(&self, start: usize, tiles: usize) -> u64 {
        let (end, _, _) = self.reach(start, tiles);
        self.keys_before[end].wrapping_sub(self.keys_before[start])
    }

    /// The board's tiles a word starting at `start` and placing `tiles` tiles (one or more) ends
    /// with, right after its last new tile: their letters, last first (none when the word ends
    /// with a new tile).
    #[inline]
    pub(super) fn last_run(&self, start: usize, tiles: usize) -> impl Iterator<Item = u8> + '_ {
        let (end, _, _) = self.reach(start, tiles);
        self.square[..end]
            .iter()
            .rev()
            .copied()
            .take_while(|&square| square < BLOCKED)
    }
}

impl<'r> Bound<'r> {
    /// The bounds for `rack`, whose longest word of its letters alone, shorter than the whole
    /// rack, has `alone` letters (0 for none; asked only of a rack with a blank), and which
    /// has `choices` of its tiles when it has no blank.
    pub(super) fn new(
        rules: &'r RuleSet,
        trie: &'r Trie,
        letter_values: &[i32],
        rack: Rack,
        alone: usize,
        choices: Option<&'r Choices>,
    ) -> Bound<'r> {
        let mut values = [0; MAX_TILES];
        let mut tiles = 0;
        for (letter, &count) in rack.counts.iter().enumerate() {
            for _ in 0..count {
                if tiles < MAX_TILES {
                    values[tiles] = letter_values.get(letter).copied().unwrap_or(0).max(0);
                    tiles += 1;
                }
            }
        }
        // Blanks are worth nothing; they stay as the zeros after the letters.
        tiles = (tiles + usize::from(rack.blanks)).min(MAX_TILES);
        values.sort_unstable_by(|a, b| b.cmp(a));
        let mut top = [0; MAX_TILES + 1];
        for k in 0..MAX_TILES {
            top[k + 1] = top[k] + values[k];
        }
        let bonus_of = |bingo: bool| -> [i32; MAX_TILES + 1] {
            let by_tiles: [i32; MAX_TILES + 1] = std::array::from_fn(|t| {
                let bingo = if bingo && t == usize::from(rules.hand_size) {
                    rules.bingo_bonus.max(0)
                } else {
                    0
                };
                bingo + RuleSet::bonus_for(rules.placement_bonus, t)
            });
            // The highest combo bonus for up to w words; a move forms at most one cross-word per
            // tile.
            let mut combo = 0;
            let combo_upto: [i32; MAX_TILES + 2] = std::array::from_fn(|words| {
                if words > 0 {
                    combo = combo.max(RuleSet::bonus_for(rules.combo_bonus, words));
                }
                combo
            });
            std::array::from_fn(|t| {
                if t > 0 {
                    by_tiles[t] + combo_upto[t + 1]
                } else {
                    0
                }
            })
        };
        let whole_hand = (rules.bingo_bonus > 0 && rack.len() == usize::from(rules.hand_size))
            .then(|| {
                let mut hand = WholeHand {
                    trie,
                    key: (0..32u8)
                        .flat_map(|l| {
                            std::iter::repeat_n(l, usize::from(rack.counts[usize::from(l)]))
                        })
                        .map(|l| trie.letter_key(l))
                        .fold(0, u64::wrapping_add),
                    blanks: rack.blanks,
                    alphabet: rules.tiles.letters.len().min(32) as u8,
                    alone: false,
                    known: Cell::new(0),
                    with: Cell::new(0),
                };
                hand.alone = hand.spells(0);
                hand
            });
        Bound {
            rules,
            trie,
            choices,
            asked: std::array::from_fn(|_| Cell::new(0)),
            answers: Cell::new(0),
            tiles,
            letters: rack.letters_mask(),
            held: std::array::from_fn(|l| {
                if rack.counts[l] > 0 {
                    letter_values.get(l).copied().unwrap_or(0).max(0)
                } else {
                    -1
                }
            }),
            present: rack.present,
            richest: values[0],
            top,
            bonus: bonus_of(true),
            bonus_no_bingo: bonus_of(false),
            most_without_bingo: if whole_hand.is_some() {
                tiles - 1
            } else {
                MAX_TILES
            },
            // The whole rack's own word is known only for a whole hand.
            most_alone: match &whole_hand {
                Some(hand) if !hand.alone => alone,
                _ => MAX_TILES,
            },
            whole_hand,
        }
    }

    /// Whether a word can end with a tile of the rack and then the board's letters `run` (given
    /// last first; none is no question): a word ending with the board's tiles has one of the
    /// rack's letters right before them.
    pub(super) fn can_end(&self, run: impl Iterator<Item = u8>) -> bool {
        self.trie.letters_ending_before(run) & self.letters != 0
    }

    /// Whether some `tiles` of the rack's tiles with the board's letters whose keys add up to
    /// `board` could spell a word, asked of the trie's filter of words' letters. With a
    /// blank, too many letters to ask: yes.
    pub(super) fn can_spell(&self, tiles: usize, board: u64) -> bool {
        let Some(choices) = &self.choices else {
            return true;
        };
        // The question as one number (never 0, which marks an empty slot), and its slot.
        let question = board.wrapping_add(tiles as u64 + 1).max(1);
        let slot = (question.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize;
        if self.asked[slot].get() == question {
            return self.answers.get() >> slot & 1 != 0;
        }
        let answer = choices
            .of_size(tiles)
            .iter()
            .any(|&choice| self.trie.may_spell(choice.wrapping_add(board)));
        self.asked[slot].set(question);
        let bit = 1u64 << slot;
        self.answers
            .set(self.answers.get() & !bit | if answer { bit } else { 0 });
        answer
    }

    /// The highest value of a rack tile that fits square `i`, the main word running along `d`
    /// (a blank fits anywhere, worth nothing).
    fn richest_tile(&self, an: &BoardScan, d: usize, i: usize) -> i32 {
        let mut fits = an.cross[d][i].allowed & self.present;
        if fits == self.present {
            return self.richest;
        }
        let mut most = 0;
        while fits != 0 {
            most = most.max(self.held[fits.trailing_zeros() as usize]);
            fits &= fits - 1;
        }
        most
    }

    /// The richest cross-word a tile on square `i` can form, the main word running along `d`,
    /// given the richest tile that fits there.
    fn richest_cross(&self, an: &BoardScan, d: usize, i: usize, tile: i32) -> i32 {
        let cross = an.cross[d][i];
        if !cross.present {
            return 0;
        }
        let words = (cross.sum + tile * an.letter_factor[i].max(0)) * an.word_factor[i];
        if self.rules.scoring == Scoring::LengthMultiplier {
            (words * i32::from((cross.len + 1).min(17)) + 1).div_euclid(2)
        } else {
            words
        }
    }

    /// Fills `ahead` for a lane: the running sums from its first square on, then the room and
    /// where words end from its last square back.
    pub(super) fn ahead(&self, an: &BoardScan, dir: Direction, lane: usize, ahead: &mut Ahead) {
        let d = dir_index(dir);
        let (lane_len, base, stride) = an.lane(dir, lane);
        ahead.halves = if self.rules.scoring == Scoring::LengthMultiplier {
            lane_len.min(17) as i32
        } else {
            2
        };
        let mut rank = 0;
        for off in 0..lane_len {
            let i = base + off * stride;
            ahead.rank[off] = rank as u8;
            ahead.points_before[off + 1] = ahead.points_before[off];
            ahead.keys_before[off + 1] = ahead.keys_before[off];
            match an.letter[i] {
                EMPTY if an.cross[d][i].allowed & self.letters != 0 => {
                    let tile = self.richest_tile(an, d, i);
                    let (twos, threes) = match an.word_factor[i] {
                        2 => (1, 0),
                        3 => (0, 1),
                        4 => (2, 0),
                        _ => (0, 0),
                    };
                    ahead.gains[rank + 1] =
                        ahead.gains[rank] + (an.letter_factor[i] - 1).max(0) * tile;
                    ahead.crosses[rank + 1] =
                        ahead.crosses[rank] + self.richest_cross(an, d, i, tile);
                    ahead.twos[rank + 1] = ahead.twos[rank] + twos;
                    ahead.threes[rank + 1] = ahead.threes[rank] + threes;
                    ahead.square[off] = EMPTY;
                    rank += 1;
                }
                // No tile of the rack fits, or a stop.
                EMPTY | BLOCKED => ahead.square[off] = BLOCKED,
                letter => {
                    ahead.points_before[off + 1] += an.value[i];
                    ahead.keys_before[off + 1] =
                        ahead.keys_before[off + 1].wrapping_add(self.trie.letter_key(letter));
                    ahead.square[off] = letter;
                }
            }
        }
        let (mut room, mut gap) = (0u8, lane_len as u8);
        for off in (0..lane_len).rev() {
            match ahead.square[off] {
                EMPTY => {
                    room = (room + 1).min(MAX_TILES as u8);
                    ahead.past[usize::from(ahead.rank[off])] = gap;
                    gap = off as u8;
                }
                BLOCKED => (room, gap) = (0, off as u8),
                _ => {}
            }
            ahead.room[off] = room;
        }
        if self.choices.is_some() {
            // Without blanks, each spot's own question of the rack's letters (see
            // `Bound::can_spell`) says as much as the passes below, and only where it is asked.
            ahead.bingo[..lane_len].fill(true);
            ahead.most_tiles[..lane_len].fill(MAX_TILES as u8);
        } else {
            self.bingo_starts(lane_len, ahead);
            self.most_tiles(lane_len, ahead);
        }
    }

    /// Fills `ahead.most_tiles`, from the lane's end back: a word starting on an empty square
    /// meets a tile of the board only if the run of empty squares it starts ends at one and the
    /// rack can fill that run.
    fn most_tiles(&self, lane_len: usize, ahead: &mut Ahead) {
        // Empty squares from `off` on before the next that is not, and whether that one holds a
        // tile.
        let (mut run, mut tile_after) = (0, false);
        for off in (0..lane_len).rev() {
            let most = if ahead.bingo[off] {
                MAX_TILES
            } else {
                self.most_without_bingo
            };
            ahead.most_tiles[off] = match ahead.square[off] {
                EMPTY => {
                    run += 1;
                    if tile_after && run <= most {
                        most
                    } else {
                        most.min(self.most_alone)
                    }
                }
                BLOCKED => {
                    (run, tile_after) = (0, false);
                    most
                }
                _ => {
                    (run, tile_after) = (0, true);
                    most
                }
            } as u8;
        }
    }

    /// Fills `ahead.bingo`: from each offset, the word that takes every tile of a whole hand runs
    /// over the next that many empty squares and the board's tiles among and right after them.
    /// It can earn the bingo only if the rack's letters with those tiles' spell a word. One pass,
    /// a window sliding along the lane.
    fn bingo_starts(&self, lane_len: usize, ahead: &mut Ahead) {
        ahead.bingo[..lane_len].fill(false);
        let Some(hand) = &self.whole_hand else {
            return;
        };
        let need = self.rules.hand_size;
        let trie = hand.trie;
        // The window `start..end`: its empty squares, and its tiles: how many, their letters'
        // keys summed, and the last one's letter.
        let (mut end, mut empties, mut tiles, mut keys, mut letter) = (0, 0u8, 0u8, 0u64, 0u8);
        // The last board letters asked about with a blank, and the answer.
        let mut asked: Option<(u64, bool)> = None;
        for start in 0..lane_len {
            if end <= start {
                (end, empties, tiles, keys) = (start, 0, 0, 0);
            }
            // Only where a whole hand fits does the bingo count (the tables give no more tiles).
            if ahead.room[start] >= need {
                while empties < need {
                    match ahead.square[end] {
                        EMPTY => empties += 1,
                        l => {
                            tiles += 1;
                            keys = keys.wrapping_add(trie.letter_key(l));
                            letter = l;
                        }
                    }
                    end += 1;
                }
                // The word runs on through the tiles right after its last new one.
                let (mut through, mut key, mut last, mut after) = (tiles, keys, letter, end);
                while after < lane_len && ahead.square[after] < BLOCKED {
                    through += 1;
                    key = key.wrapping_add(trie.letter_key(ahead.square[after]));
                    last = ahead.square[after];
                    after += 1;
                }
                ahead.bingo[start] = match (through, hand.blanks) {
                    (0, _) => hand.alone,
                    // One of the board's letters and a blank: kept per letter for the call.
                    (1, 1) => hand.spells_with(last),
                    // The window often keeps its tiles as it slides: ask once for them.
                    _ => match asked {
                        Some((asked, spells)) if asked == key => spells,
                        _ => {
                            let spells = hand.spells(key);
                            asked = Some((key, spells));
                            spells
                        }
                    },
                };
            }
            if end > start {
                match ahead.square[start] {
                    EMPTY => empties -= 1,
                    BLOCKED => {}
                    l => {
                        tiles -= 1;
                        keys = keys.wrapping_sub(trie.letter_key(l));
                    }
                }
            }
        }
    }
}
