//! Letters, tile sets and the tiles a player holds.
//!
//! Inside the crate a letter is its index in the tile set's alphabet ([`Letter`]), which is sorted
//! by the letters' UTF-8 bytes: the order of the dictionaries' FSTs. Text converts at the edge
//! ([`TileSet::letter`], [`TileSet::char_of`]).

use serde::{Deserialize, Serialize};

/// A letter of a tile set's alphabet, as its index in [`TileSet::letters`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Letter(pub u8);

/// One letter of a tile set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LetterSpec {
    /// The letter as printed on the tile, upper case.
    pub letter: char,
    /// How many tiles of it the bag holds.
    pub count: u8,
    /// Its face value.
    pub points: u8,
}

/// A bag's contents: letters with counts and face values, plus blanks (worth 0).
#[derive(Debug, PartialEq, Eq)]
pub struct TileSet {
    /// The data file's name for it, e.g. `feud_en`.
    pub id: &'static str,
    /// How many blanks the bag holds.
    pub blanks: u8,
    /// Every letter, sorted by UTF-8 bytes; a [`Letter`] indexes this.
    pub letters: &'static [LetterSpec],
}

/// A word contained a letter the tile set does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnknownLetter(pub char);

impl std::fmt::Display for UnknownLetter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not a letter of this tile set", self.0)
    }
}

impl std::error::Error for UnknownLetter {}

impl TileSet {
    /// Every tile set: the spec's and our own.
    pub fn all() -> impl Iterator<Item = &'static TileSet> {
        data::TILE_SETS.iter().copied()
    }

    /// The tile set with this data-file name, if there is one.
    pub fn by_id(id: &str) -> Option<&'static TileSet> {
        Self::all().find(|set| set.id == id)
    }

    /// The letter for `ch` (either case), if the set has it.
    pub fn letter(&self, ch: char) -> Option<Letter> {
        let upper = crate::case::upper(ch);
        self.letters
            .iter()
            .position(|spec| spec.letter == upper)
            .map(|i| Letter(i as u8))
    }

    /// The upper-case character of a letter; `'?'` for an index outside the alphabet.
    pub fn char_of(&self, letter: Letter) -> char {
        self.letters
            .get(usize::from(letter.0))
            .map_or('?', |spec| spec.letter)
    }

    /// The face value of a letter; 0 for an index outside the alphabet.
    pub fn value(&self, letter: Letter) -> u8 {
        self.letters
            .get(usize::from(letter.0))
            .map_or(0, |spec| spec.points)
    }

    /// The face value of `ch` (either case), if the set has it.
    pub fn points(&self, ch: char) -> Option<u8> {
        self.letter(ch).map(|letter| self.value(letter))
    }

    /// A word as letters, or the first character the set lacks.
    pub fn parse_word(&self, word: &str) -> Result<Vec<Letter>, UnknownLetter> {
        word.chars()
            .map(|ch| self.letter(ch).ok_or(UnknownLetter(ch)))
            .collect()
    }

    /// Letters as a lower-case word, the dictionaries' spelling.
    pub fn spell(&self, letters: impl IntoIterator<Item = Letter>) -> String {
        letters
            .into_iter()
            .map(|l| crate::case::lower(self.char_of(l)))
            .collect()
    }

    /// The sum of the face values of a word's letters, with no premiums: what the word is worth on
    /// plain squares.
    pub fn face_value(&self, word: &str) -> Result<u32, UnknownLetter> {
        word.chars()
            .map(|ch| self.points(ch).map(u32::from).ok_or(UnknownLetter(ch)))
            .sum()
    }

    /// How many tiles the bag holds in all, blanks included.
    pub fn tile_count(&self) -> u32 {
        u32::from(self.blanks)
            + self
                .letters
                .iter()
                .map(|spec| u32::from(spec.count))
                .sum::<u32>()
    }
}

/// A tile in a hand or in the bag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum HandTile {
    /// An ordinary letter tile.
    Letter(Letter),
    /// A blank: worth 0, names its letter when placed.
    Blank,
    /// Alfapet's arrow: lets one move's word turn a corner.
    Arrow,
    /// Alfapet's stop: a black tile that ends runs.
    Stop,
}

impl HandTile {
    /// Face value left in a hand at the end of a game.
    pub fn leftover_value(self, tiles: &TileSet) -> i32 {
        match self {
            HandTile::Letter(letter) => i32::from(tiles.value(letter)),
            HandTile::Blank | HandTile::Arrow | HandTile::Stop => 0,
        }
    }
}

/// The tile sets of `data/`, compiled in by `build.rs`.
mod data {
    use super::{LetterSpec, TileSet};
    include!(concat!(env!("OUT_DIR"), "/tile_sets.rs"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_bag_holds_100_tiles() {
        assert_eq!(TileSet::by_id("classic_en_100").unwrap().tile_count(), 100);
    }

    #[test]
    fn feud_bags_hold_104_tiles_as_seed_003_says() {
        assert_eq!(TileSet::by_id("feud_en").unwrap().tile_count(), 104);
    }

    #[test]
    fn alfapet_bag_holds_120_tiles_with_a_q_and_no_w() {
        let set = TileSet::by_id("alfapet_sv_120").unwrap();
        assert_eq!(set.tile_count(), 120);
        assert!(set.points('q').is_some());
        assert!(set.points('w').is_none());
        assert_eq!(set.blanks, 2);
    }

    #[test]
    fn long_words_bag_flattens_j_q_x_z_to_four() {
        let set = TileSet::by_id("longwords_en_100").unwrap();
        assert_eq!(set.tile_count(), 100);
        for ch in ['J', 'Q', 'X', 'Z'] {
            assert_eq!(set.points(ch), Some(4));
        }
        assert_eq!(set.points('k'), Some(5));
    }

    #[test]
    fn seed_003_why_is_twelve_on_plain_squares() {
        // W 4 + H 4 + Y 4 in the Wordfeud English set; seed 003's WHY example then adds premiums
        // (H on TL: 4 + 12 + 4 = 20).
        assert_eq!(TileSet::by_id("feud_en").unwrap().face_value("why"), Ok(12));
    }

    #[test]
    fn swedish_letters_count_and_foreign_ones_are_named() {
        let sv = TileSet::by_id("feud_sv").unwrap();
        assert!(sv.face_value("åsna").is_ok());
        assert_eq!(sv.face_value("quiz"), Err(UnknownLetter('q')));
    }

    #[test]
    fn alphabets_are_in_utf8_byte_order() {
        for set in TileSet::all() {
            let bytes: Vec<String> = set
                .letters
                .iter()
                .map(|s| s.letter.to_lowercase().to_string())
                .collect();
            assert!(bytes.windows(2).all(|w| w[0] < w[1]), "{}", set.id);
        }
    }

    #[test]
    fn words_round_trip_through_letters() {
        let da = TileSet::by_id("feud_da").unwrap();
        let word = da.parse_word("bilernes").unwrap();
        assert_eq!(da.spell(word), "bilernes");
        assert_eq!(da.spell(da.parse_word("ÆØÅ").unwrap()), "æøå");
    }
}
