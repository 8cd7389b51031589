//! The bag: a seeded, reproducible draw. The same seed and the same actions give the same tiles on
//! every platform, native and wasm alike, because the generator is integer-only and ours.

use serde::{Deserialize, Serialize};

use crate::tiles::{HandTile, Letter, TileSet};

/// SplitMix64: small, fast, and identical on every target. Not for secrets; the seed is the secret.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), without modulo bias worth speaking of for small `n`.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A die roll, 1–6.
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// The tiles not yet drawn. Their order is irrelevant: each draw picks at random.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bag {
    tiles: Vec<HandTile>,
}

impl Bag {
    /// A full bag: every letter of the set, its blanks, and `special` arrows and stops each.
    pub fn full(set: &TileSet, special: u8) -> Bag {
        let mut tiles = Vec::with_capacity(set.tile_count() as usize);
        for (i, spec) in set.letters.iter().enumerate() {
            tiles.extend(std::iter::repeat_n(
                HandTile::Letter(Letter(i as u8)),
                usize::from(spec.count),
            ));
        }
        tiles.extend(std::iter::repeat_n(
            HandTile::Blank,
            usize::from(set.blanks),
        ));
        tiles.extend(std::iter::repeat_n(HandTile::Arrow, usize::from(special)));
        tiles.extend(std::iter::repeat_n(HandTile::Stop, usize::from(special)));
        Bag { tiles }
    }

    /// Tiles left.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether no tile is left.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Draws up to `n` tiles at random.
    pub fn draw(&mut self, n: usize, rng: &mut Rng) -> Vec<HandTile> {
        (0..n.min(self.tiles.len()))
            .map(|_| self.tiles.swap_remove(rng.below(self.tiles.len())))
            .collect()
    }

    /// Puts tiles back.
    pub fn put_back(&mut self, tiles: impl IntoIterator<Item = HandTile>) {
        self.tiles.extend(tiles);
    }

    /// The tiles, in no meaningful order (for audits and tests; never sent to a player).
    pub fn tiles(&self) -> &[HandTile] {
        &self.tiles
    }

    /// Takes one particular tile out, if the bag holds it. For tests that need a known hand.
    #[doc(hidden)]
    pub fn take_for_tests(&mut self, tile: HandTile) -> bool {
        match self.tiles.iter().position(|t| *t == tile) {
            Some(i) => {
                self.tiles.swap_remove(i);
                true
            }
            None => false,
        }
    }

    /// Reorders the tiles; draws stay random. For tests showing that views do not depend on it.
    #[doc(hidden)]
    pub fn reverse_for_tests(&mut self) {
        self.tiles.reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_tiles() {
        let set = TileSet::by_id("feud_sv").unwrap();
        let draws = |seed| {
            let mut bag = Bag::full(set, 0);
            let mut rng = Rng::new(seed);
            (bag.draw(7, &mut rng), bag.draw(7, &mut rng))
        };
        assert_eq!(draws(42), draws(42));
        assert_ne!(draws(42), draws(43));
    }

    #[test]
    fn known_sequence_pins_the_generator() {
        // If this changes, every stored game would replay differently: the generator is part of
        // the save format.
        let mut rng = Rng::new(1);
        assert_eq!(rng.next_u64(), 0x910A_2DEC_8902_5CC1);
    }

    #[test]
    fn drawing_never_takes_more_than_the_bag_holds() {
        let mut bag = Bag::full(TileSet::by_id("feud_en").unwrap(), 0);
        let mut rng = Rng::new(7);
        assert_eq!(bag.draw(200, &mut rng).len(), 104);
        assert!(bag.is_empty());
        assert!(bag.draw(3, &mut rng).is_empty());
    }
}
