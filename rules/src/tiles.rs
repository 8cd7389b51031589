//! Tile sets: which letters a bag holds, how many of each and what each is worth.

use crate::data;

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
    /// Every letter, in the data file's order.
    pub letters: &'static [LetterSpec],
}

/// A word contained a letter the tile set does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownLetter(pub char);

impl std::fmt::Display for UnknownLetter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not a letter of this tile set", self.0)
    }
}

impl std::error::Error for UnknownLetter {}

impl TileSet {
    /// Every tile set of the spec's data file.
    pub fn all() -> [&'static TileSet; 5] {
        [
            &data::CLASSIC_EN_100,
            &data::FEUD_EN,
            &data::FEUD_SV,
            &data::FEUD_DA,
            &data::FEUD_NB,
        ]
    }

    /// The tile set with this data-file name, if there is one.
    pub fn by_id(id: &str) -> Option<&'static TileSet> {
        Self::all().into_iter().find(|set| set.id == id)
    }

    /// The face value of `letter` (either case), if the set has it.
    pub fn points(&self, letter: char) -> Option<u8> {
        let upper = letter.to_uppercase().next()?;
        self.letters
            .iter()
            .find(|spec| spec.letter == upper)
            .map(|spec| spec.points)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_bag_holds_100_tiles() {
        assert_eq!(TileSet::by_id("classic_en_100").unwrap().tile_count(), 100);
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
}
