//! Upper bounds on what a move can score, for the best-move search: per place a word can start
//! (an anchor and the length of its left part), before searching it, so the places that cannot
//! beat the best move found are never visited. Inside a place there is no bound: checking one at
//! every step of the search cost more than the steps it saved (measured on engine-bench's
//! positions, 327k instructions per call with it, 309k without).
//!
//! The bingo is the loosest part of such a bound (50 points in Classic, for any move that could
//! place a whole hand), and most racks cannot make one where they are: a word that takes a
//! whole hand from a given square covers exactly the next hand-size empty squares and the board's
//! tiles among them, so its letters are known, and the trie's index of words by their letters
//! says whether any word has them. Only starts where one does count the bingo.

use std::cell::Cell;

use rules::{ruleset::Scoring, Direction, RuleSet};

use crate::trie::Trie;

use super::{
    analysis::{dir_index, Analysis},
    Rack, BLOCKED, EMPTY, MAX_TILES,
};

/// What bounds a move's score for one rack: its tiles' values, highest first, and the bonuses.
/// The squares' part is in each lane's [`Ahead`].
pub(super) struct Bound<'r> {
    rules: &'r RuleSet,
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
    /// The most the bonuses give a move of one to `t` tiles, by `t`; and the same without the
    /// bingo, for a move that cannot make one.
    bonus_upto: [i32; MAX_TILES + 1],
    bonus_no_bingo: [i32; MAX_TILES + 1],
    /// Set when the rack can earn the bingo: it holds a whole hand.
    whole_hand: Option<WholeHand<'r>>,
    /// The most tiles a move can place from a start where no word takes the whole hand (see
    /// [`Ahead::bingo`]): one fewer than the hand when the rack is one, else any number.
    most_without_bingo: usize,
    /// The most tiles a word of the rack's letters alone can take: a move whose word meets no
    /// tile of the board places no more.
    most_alone: usize,
}

/// What a rack of a whole hand can spell with all of its tiles, for the bingo's part of a bound:
/// a word of its letters alone, or with the board's letters its word runs through. Asked of the
/// trie's index of words by their letters; with a blank (any of the alphabet's letters) the
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
            0 => self.trie.has_hand_word(key),
            1 => (0..self.alphabet).any(|l| {
                self.trie
                    .has_hand_word(key.wrapping_add(self.trie.letter_key(l)))
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

/// Upper bounds, per lane offset and number of tiles still to place, of what the squares there
/// can add to a move: for ordering a lane's spans. Each table is
/// `[offset][tiles]`: what a move placing that many tiles on the lane's empty squares from that
/// offset on meets on its way.
#[derive(Debug, Clone)]
pub(super) struct Ahead {
    /// Points the squares add to the main word before its word factors: the board's tiles it
    /// passes or runs on through (up to the next empty square), and the letter premiums, each
    /// what the richest tile that fits the square gains there beyond its face value.
    squares: [[i32; MAX_TILES + 1]; 33],
    /// The product of the squares' word factors.
    word: [[i32; MAX_TILES + 1]; 33],
    /// Every cross-word at its richest.
    cross: [[i32; MAX_TILES + 1]; 33],
    /// How many tiles fit from each offset on.
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

impl Ahead {
    pub(super) const EMPTY: Ahead = Ahead {
        squares: [[0; MAX_TILES + 1]; 33],
        word: [[1; MAX_TILES + 1]; 33],
        cross: [[0; MAX_TILES + 1]; 33],
        room: [0; 33],
        square: [BLOCKED; 33],
        bingo: [false; 33],
        halves: 2,
        most_tiles: [0; 33],
    };

    /// The most any move whose word starts at lane offset `start` can score.
    #[inline]
    pub(super) fn of_start(&self, bound: &Bound, start: usize) -> i32 {
        let tiles = bound
            .tiles
            .min(usize::from(self.room[start]))
            .min(usize::from(self.most_tiles[start]));
        let letters = bound.top[tiles] + self.squares[start][tiles];
        let mut main = letters * self.word[start][tiles];
        if self.halves != 2 {
            main = (main * self.halves + 1).div_euclid(2);
        }
        let bonuses = if self.bingo[start] {
            &bound.bonus_upto
        } else {
            &bound.bonus_no_bingo
        };
        main + self.cross[start][tiles] + bonuses[tiles]
    }
}

impl<'r> Bound<'r> {
    /// The bounds for `rack`, whose longest word of its letters alone, shorter than the whole
    /// rack, has `alone` letters (0 for none).
    pub(super) fn new(
        rules: &'r RuleSet,
        trie: &'r Trie,
        letter_values: &[i32],
        rack: Rack,
        alone: usize,
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
            let mut most = 0;
            std::array::from_fn(|t| {
                if t > 0 {
                    most = most.max(by_tiles[t] + combo_upto[t + 1]);
                }
                most
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
            bonus_upto: bonus_of(true),
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

    /// The highest value of a rack tile that fits square `i`, the main word running along `d`
    /// (a blank fits anywhere, worth nothing).
    fn richest_tile(&self, an: &Analysis, d: usize, i: usize) -> i32 {
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
    fn richest_cross(&self, an: &Analysis, d: usize, i: usize, tile: i32) -> i32 {
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

    /// Fills `ahead` for a lane: from its last square back to its first, what a move meets from
    /// each offset on with each number of tiles is what it meets on that square and then from
    /// the next offset on with one tile fewer (or as many, past a tile already there).
    pub(super) fn ahead(&self, an: &Analysis, dir: Direction, lane: usize, ahead: &mut Ahead) {
        let d = dir_index(dir);
        let (lane_len, base, stride) = an.lane(dir, lane);
        ahead.halves = if self.rules.scoring == Scoring::LengthMultiplier {
            lane_len.min(17) as i32
        } else {
            2
        };
        // Past the lane's end, and on a square no word passes: nothing more.
        let stop = |ahead: &mut Ahead, off: usize| {
            ahead.squares[off] = [0; MAX_TILES + 1];
            ahead.word[off] = [1; MAX_TILES + 1];
            ahead.cross[off] = [0; MAX_TILES + 1];
            ahead.room[off] = 0;
        };
        stop(ahead, lane_len);
        for off in (0..lane_len).rev() {
            let i = base + off * stride;
            match an.letter[i] {
                EMPTY if an.cross[d][i].allowed & self.letters != 0 => {
                    let tile = self.richest_tile(an, d, i);
                    let gain = (an.letter_factor[i] - 1).max(0) * tile;
                    let factor = an.word_factor[i];
                    let cross = self.richest_cross(an, d, i, tile);
                    // A tile here, then one fewer from the next offset on.
                    shift(&mut ahead.squares[off..=off + 1], 0, |e| gain + e);
                    shift(&mut ahead.word[off..=off + 1], 1, |w| factor * w);
                    shift(&mut ahead.cross[off..=off + 1], 0, |c| cross + c);
                    ahead.room[off] = (ahead.room[off + 1] + 1).min(MAX_TILES as u8);
                    ahead.square[off] = EMPTY;
                }
                // No tile of the rack fits, or a stop.
                EMPTY | BLOCKED => {
                    stop(ahead, off);
                    ahead.square[off] = BLOCKED;
                }
                // A tile already there: the word takes its points and goes on as from the next.
                _ => {
                    let value = an.value[i];
                    let next = ahead.squares[off + 1];
                    ahead.squares[off] = next.map(|e| value + e);
                    ahead.word[off] = ahead.word[off + 1];
                    ahead.cross[off] = ahead.cross[off + 1];
                    ahead.room[off] = ahead.room[off + 1];
                    ahead.square[off] = an.letter[i];
                }
            }
        }
        self.bingo_starts(lane_len, ahead);
        self.most_tiles(lane_len, ahead);
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

/// Sets the first of two rows of a table from the second, shifted by one tile: `rows[0][0]` to
/// `first`, and `rows[0][t]` to `f(rows[1][t - 1])`. Whole rows with fixed bounds, so the loop
/// compiles to a few vector instructions.
#[inline(always)]
fn shift(rows: &mut [[i32; MAX_TILES + 1]], first: i32, f: impl Fn(i32) -> i32) {
    let [row, next] = rows else {
        return;
    };
    row[0] = first;
    for t in 1..=MAX_TILES {
        row[t] = f(next[t - 1]);
    }
}
