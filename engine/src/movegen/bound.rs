//! Upper bounds on what a move can score, for the best-move search: per span (an anchor and its
//! left part) before searching it, and per lane offset while searching, so whole spans and
//! branches that cannot beat the best move found are never visited.

use rules::{ruleset::Scoring, Direction, RuleSet};

use super::{
    analysis::{dir_index, Analysis},
    Acc, Left, Rack, Span, BLOCKED, EMPTY, MAX_TILES,
};

/// The most a move can score from a span: the rack's highest tiles on the span's highest letter
/// premiums, every word premium it can reach, every cross-word at its richest, and every bonus
/// the tile count allows. Never below the true best, so a search may skip any span whose bound
/// cannot beat what it already found.
pub(super) struct Bound<'r> {
    rules: &'r RuleSet,
    /// Tile values of the rack, highest first (blanks count 0).
    values: [i32; MAX_TILES],
    tiles: usize,
    letters: u32,
    /// Per letter, its value if the rack holds it, else -1; and the rack's letters, blanks left
    /// out.
    held: [i32; 32],
    present: u32,
    /// The most the bonuses give a move with a tile count in `lo..=hi`, as `[lo][hi]`.
    bonus_between: [[i32; MAX_TILES + 1]; MAX_TILES + 1],
    /// Per tile count: the placement bonus and the bingo.
    bonus_by_tiles: [i32; MAX_TILES + 1],
    /// Per word count w: the highest combo bonus for up to w words.
    combo_upto: [i32; MAX_TILES + 2],
}

/// Upper bounds, per lane offset from the anchor on and per number of tiles still to place, of
/// what the squares there can add to a move being built: for cutting branches inside one span.
#[derive(Debug, Clone)]
pub(super) struct Ahead {
    /// Points of the board's tiles the word would pass or run on through.
    existing: [[i32; MAX_TILES + 1]; 33],
    /// Letter premiums: what the richest tile that fits each square would gain there beyond its
    /// face value.
    extra: [[i32; MAX_TILES + 1]; 33],
    /// The product of their word factors.
    word: [[i32; MAX_TILES + 1]; 33],
    /// Every cross-word at its richest.
    cross: [[i32; MAX_TILES + 1]; 33],
    /// How many tiles fit from each offset on.
    pub(super) room: [u8; 33],
    /// Long words' length multiplier, in halves, for the longest word the lane allows.
    halves: i32,
    /// The most the bonuses give a move with a tile count in `lo..=hi`, as `[lo][hi]`.
    bonus: [[i32; MAX_TILES + 1]; MAX_TILES + 1],
}

impl Ahead {
    pub(super) const EMPTY: Ahead = Ahead {
        existing: [[0; MAX_TILES + 1]; 33],
        extra: [[0; MAX_TILES + 1]; 33],
        word: [[1; MAX_TILES + 1]; 33],
        cross: [[0; MAX_TILES + 1]; 33],
        room: [0; 33],
        halves: 2,
        bonus: [[0; MAX_TILES + 1]; MAX_TILES + 1],
    };

    /// The most a move can score that has `acc` so far with `placed` tiles, and places up to
    /// `tiles` more, worth `points` at face value, from lane offset `off` on.
    #[inline]
    pub(super) fn most(
        &self,
        off: usize,
        tiles: usize,
        points: i32,
        placed: usize,
        acc: &Acc,
    ) -> i32 {
        let tiles = tiles.min(usize::from(self.room[off]));
        let letters = points + self.extra[off][tiles];
        let mut main =
            (acc.main + self.existing[off][tiles] + letters) * acc.factor * self.word[off][tiles];
        if self.halves != 2 {
            main = (main * self.halves + 1).div_euclid(2);
        }
        let bonus = self.bonus[(placed + 1).min(MAX_TILES)][(placed + tiles).min(MAX_TILES)];
        main + acc.cross + self.cross[off][tiles] + bonus
    }
}

impl<'r> Bound<'r> {
    pub(super) fn new(rules: &'r RuleSet, letter_values: &[i32], rack: Rack) -> Bound<'r> {
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
        let mut bound = Bound {
            rules,
            values,
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
            bonus_between: [[0; MAX_TILES + 1]; MAX_TILES + 1],
            bonus_by_tiles: std::array::from_fn(|t| {
                let bingo = if t == usize::from(rules.hand_size) {
                    rules.bingo_bonus.max(0)
                } else {
                    0
                };
                bingo + RuleSet::bonus_for(rules.placement_bonus, t)
            }),
            combo_upto: [0; MAX_TILES + 2],
        };
        let mut combo = 0;
        for words in 1..=MAX_TILES + 1 {
            combo = combo.max(RuleSet::bonus_for(rules.combo_bonus, words));
            bound.combo_upto[words] = combo;
        }
        for lo in 1..=MAX_TILES {
            let mut most = 0;
            for hi in lo..=MAX_TILES {
                // At most one cross-word per tile.
                most = most.max(bound.bonus(hi, hi + 1));
                bound.bonus_between[lo][hi] = most;
            }
        }
        bound
    }

    /// The most the bonuses give a move of `tiles` tiles forming at most `words` words.
    fn bonus(&self, tiles: usize, words: usize) -> i32 {
        self.bonus_by_tiles[tiles] + self.combo_upto[words.min(MAX_TILES + 1)]
    }

    /// The highest value of a rack tile that fits square `i`, the main word running along `d`
    /// (a blank fits anywhere, worth nothing).
    fn richest_tile(&self, an: &Analysis, d: usize, i: usize) -> i32 {
        let mut fits = an.cross[d][i].allowed & self.present;
        let mut most = 0;
        while fits != 0 {
            most = most.max(self.held[fits.trailing_zeros() as usize]);
            fits &= fits - 1;
        }
        most
    }

    /// The richest cross-word a tile on square `i` can form, the main word running along `d`.
    fn richest_cross(&self, an: &Analysis, d: usize, i: usize) -> i32 {
        let cross = an.cross[d][i];
        if !cross.present {
            return 0;
        }
        let tile = self.richest_tile(an, d, i);
        let words = (cross.sum + tile * an.letter_factor[i].max(0)) * an.word_factor[i];
        if self.rules.scoring == Scoring::LengthMultiplier {
            (words * i32::from((cross.len + 1).min(17)) + 1).div_euclid(2)
        } else {
            words
        }
    }

    /// A first bound for `span`, cheap enough for every anchor: the squares it can reach, as if
    /// one word could take the best of them.
    pub(super) fn of(&self, an: &Analysis, span: Span) -> i32 {
        let d = dir_index(span.dir);
        let (lane_len, base, stride) = an.lane(span.dir, span.lane);
        let idx = |off: usize| base + off * stride;
        let long_words = self.rules.scoring == Scoring::LengthMultiplier;
        // Per reachable empty square: its letter factor (a negative one counts as nothing, a blank
        // can go there), word factor and richest cross-word.
        let mut letter_factors = [0i32; 2 * MAX_TILES];
        let mut word_factors = [1i32; 2 * MAX_TILES];
        let mut crosses = [0i32; 2 * MAX_TILES];
        let mut squares = 0;
        let mut cross_words = 0;
        let mut existing = 0;
        let mut length = 0;
        match span.left {
            Left::Tiles { start } => {
                existing += (start..span.anchor).map(|k| an.value[idx(k)]).sum::<i32>();
                length += span.anchor - start;
            }
            Left::Free { limit } => {
                for k in span.anchor - limit.min(self.tiles - 1)..span.anchor {
                    letter_factors[squares] = an.letter_factor[idx(k)].max(0);
                    word_factors[squares] = an.word_factor[idx(k)];
                    squares += 1;
                    length += 1;
                }
            }
        }
        let mut off = span.anchor;
        let mut right = 0;
        while off < lane_len && right < self.tiles {
            let i = idx(off);
            match an.letter[i] {
                BLOCKED => break,
                EMPTY => {
                    let cross = an.cross[d][i];
                    if cross.allowed & self.letters == 0 {
                        break;
                    }
                    letter_factors[squares] = an.letter_factor[i].max(0);
                    word_factors[squares] = an.word_factor[i];
                    if cross.present {
                        crosses[squares] = self.richest_cross(an, d, i);
                        cross_words += 1;
                    }
                    squares += 1;
                    right += 1;
                }
                _ => existing += an.value[i],
            }
            length += 1;
            off += 1;
        }
        // The main word runs on through the tiles after the last square a tile can reach.
        while off < lane_len && an.letter[idx(off)] < BLOCKED {
            existing += an.value[idx(off)];
            length += 1;
            off += 1;
        }
        let letter_factors = &mut letter_factors[..squares];
        let word_factors = &mut word_factors[..squares];
        let crosses = &mut crosses[..squares];
        letter_factors.sort_unstable_by(|a, b| b.cmp(a));
        word_factors.sort_unstable_by(|a, b| b.cmp(a));
        crosses.sort_unstable_by(|a, b| b.cmp(a));
        let (mut letters, mut factor, mut cross) = (0, 1, 0);
        let mut most = i32::MIN;
        for t in 1..=squares.min(self.tiles) {
            letters += self.values[t - 1] * letter_factors[t - 1];
            factor *= word_factors[t - 1];
            cross += crosses[t - 1];
            let mut main = (existing + letters) * factor;
            if long_words {
                main = (main * length.min(17) as i32 + 1).div_euclid(2);
            }
            most = most.max(main + cross + self.bonus(t, 1 + t.min(cross_words)));
        }
        most
    }

    /// What the squares of a lane from each offset on can add, for cutting branches inside any
    /// span of the lane.
    pub(super) fn ahead(&self, an: &Analysis, dir: Direction, lane: usize, ahead: &mut Ahead) {
        let d = dir_index(dir);
        let (lane_len, base, stride) = an.lane(dir, lane);
        // Per square: a tile's points, or an empty square's letter premium gain, word factor and
        // richest cross-word; `None` where the word cannot pass (no tile of the rack fits, or a
        // stop).
        let mut squares = [None; 32];
        for (off, square) in squares[..lane_len].iter_mut().enumerate() {
            let i = base + off * stride;
            *square = match an.letter[i] {
                EMPTY if an.cross[d][i].allowed & self.letters != 0 => Some((
                    true,
                    (an.letter_factor[i] - 1).max(0) * self.richest_tile(an, d, i),
                    an.word_factor[i],
                    self.richest_cross(an, d, i),
                )),
                EMPTY | BLOCKED => None,
                _ => Some((false, an.value[i], 1, 0)),
            };
        }
        ahead.halves = if self.rules.scoring == Scoring::LengthMultiplier {
            lane_len.min(17) as i32
        } else {
            2
        };
        ahead.bonus = self.bonus_between;
        for off in 0..lane_len {
            // Walk on from `off`: after `placed` empty squares, the figures for that many tiles.
            let (mut existing, mut extra, mut word, mut cross) = (0, 0, 1, 0);
            let mut placed = 0;
            let mut j = off;
            while let Some(Some((empty, gain, factor, richest))) = squares.get(j).copied() {
                if j >= lane_len || (empty && placed == MAX_TILES) {
                    break;
                }
                if empty {
                    ahead.existing[off][placed] = existing;
                    placed += 1;
                    extra += gain;
                    word *= factor;
                    cross += richest;
                    ahead.extra[off][placed] = extra;
                    ahead.word[off][placed] = word;
                    ahead.cross[off][placed] = cross;
                } else {
                    existing += gain;
                }
                j += 1;
            }
            ahead.room[off] = placed as u8;
            ahead.extra[off][0] = 0;
            ahead.word[off][0] = 1;
            ahead.cross[off][0] = 0;
            for more in placed..=MAX_TILES {
                ahead.existing[off][more] = existing;
                ahead.extra[off][more] = extra;
                ahead.word[off][more] = word;
                ahead.cross[off][more] = cross;
            }
        }
    }
}
