//! Alfa Kraft's powers: what they cost and what they are (docs/rules.md §2; prices and effects are our
//! decisions, the mechanics of buying, selling, slots and staging are seed 000's).

use serde::{Deserialize, Serialize};

/// Most items a power bar holds, bought powers and earned tiles together.
pub const POWER_BAR_SLOTS: usize = 7;

/// Coins each player starts with.
pub const STARTING_COINS: i32 = 10;

/// The coins a play of `total` points earns: one per full ten.
pub fn coins_for(total: i32) -> i32 {
    total.max(0) / 10
}

/// The tiles a play earns, in the order they join the bar: an Alfa Power Tile for placing six
/// tiles or more, a Golden Tile for forming four words or more.
pub fn earned_tiles(tiles_placed: usize, words: usize) -> impl Iterator<Item = Power> {
    [
        (tiles_placed >= 6, Power::AlfaPowerTile),
        (words >= 4, Power::GoldenTile),
    ]
    .into_iter()
    .filter_map(|(earned, power)| earned.then_some(power))
}

/// An item of the power bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Power {
    /// Tap: exchange selected hand tiles with the bag; the turn goes on.
    Swap,
    /// Drag onto a staged tile: its face value ×3 this turn.
    Charge,
    /// Drag onto a staged tile: its face value × a die roll 1–6 drawn at commit.
    Dice,
    /// Drag onto a board cell: erase its premium, or send its tile back to the bag.
    Rubber,
    /// Drag onto a board tile: change its letter.
    AlfaMorf,
    /// Earned by placing 6+ tiles: placed like a blank anywhere, worth 2× its letter.
    AlfaPowerTile,
    /// Earned by forming 4+ words: placed like a blank, doubles each word through it.
    GoldenTile,
}

impl Power {
    /// Every power in shop order, earned tiles last.
    pub const ALL: [Power; 7] = [
        Power::Swap,
        Power::Charge,
        Power::Dice,
        Power::Rubber,
        Power::AlfaMorf,
        Power::AlfaPowerTile,
        Power::GoldenTile,
    ];

    /// The shop price in coins; `None` for the earned tiles, which cannot be bought or sold.
    pub fn price(self) -> Option<i32> {
        match self {
            Power::Swap => Some(6),
            Power::Charge => Some(8),
            Power::Dice => Some(5),
            Power::Rubber => Some(10),
            Power::AlfaMorf => Some(12),
            Power::AlfaPowerTile | Power::GoldenTile => None,
        }
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Power::Swap => "Swap",
            Power::Charge => "Charge",
            Power::Dice => "Dice",
            Power::Rubber => "Rubber",
            Power::AlfaMorf => "Alfa Morf",
            Power::AlfaPowerTile => "Alfa Power Tile",
            Power::GoldenTile => "Golden Tile",
        }
    }
}

/// A power staged for the next Play, with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StagedPower {
    /// Charge on the tile staged at this cell.
    Charge(crate::Pos),
    /// Dice on the tile staged at this cell.
    Dice(crate::Pos),
    /// Rubber on this board cell.
    Rubber(crate::Pos),
    /// Alfa Morf: the board tile at this cell becomes this letter.
    AlfaMorf(crate::Pos, crate::Letter),
}

impl StagedPower {
    /// The power bar item it uses.
    pub fn power(self) -> Power {
        match self {
            StagedPower::Charge(_) => Power::Charge,
            StagedPower::Dice(_) => Power::Dice,
            StagedPower::Rubber(_) => Power::Rubber,
            StagedPower::AlfaMorf(..) => Power::AlfaMorf,
        }
    }

    /// The cell it targets.
    pub fn target(self) -> crate::Pos {
        match self {
            StagedPower::Charge(pos) | StagedPower::Dice(pos) | StagedPower::Rubber(pos) => pos,
            StagedPower::AlfaMorf(pos, _) => pos,
        }
    }
}
