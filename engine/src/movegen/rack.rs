//! The rack as the search holds it: counts per letter and blanks, with a bit per letter held.

use rules::HandTile;

/// Most tiles one move can place (Alfapet's largest hand).
pub const MAX_TILES: usize = 8;

/// A rack as counts: how many of each letter, and blanks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rack {
    pub(super) counts: [u8; 32],
    pub(super) blanks: u8,
    /// Bit `l` set while the rack holds letter `l`; kept in step with `counts`.
    pub(super) present: u32,
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
    pub(super) fn letters_mask(&self) -> u32 {
        if self.blanks > 0 {
            u32::MAX
        } else {
            self.present
        }
    }

    #[inline]
    pub(super) fn take(&mut self, letter: u8) {
        let count = &mut self.counts[usize::from(letter)];
        *count -= 1;
        if *count == 0 {
            self.present &= !(1 << letter);
        }
    }

    #[inline]
    pub(super) fn put(&mut self, letter: u8) {
        self.counts[usize::from(letter)] += 1;
        self.present |= 1 << letter;
    }
}
