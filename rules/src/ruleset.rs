//! Rulesets as data. The five rulesets are constructors over [`RuleSet`]; the move validator and
//! the game never ask which ruleset they run, only what its data says.

use serde::{Deserialize, Serialize};

use crate::{
    board::{BoardLayout, Premium},
    tiles::TileSet,
};

/// A language with its own tile set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// English.
    English,
    /// Swedish (both Swedish dictionaries).
    Swedish,
    /// Danish.
    Danish,
    /// Norwegian bokmål.
    Norwegian,
}

impl Language {
    fn feud_tiles(self) -> &'static TileSet {
        let id = match self {
            Language::English => "feud_en",
            Language::Swedish => "feud_sv",
            Language::Danish => "feud_da",
            Language::Norwegian => "feud_nb",
        };
        TileSet::by_id(id).expect("feud tile sets are in the spec data")
    }
}

/// Which ruleset a game plays, with the options chosen at creation. Serialisable: a game stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// The flagship: powers, coins, Alfa Power and Golden tiles (docs/rules.md §2).
    AlfaKraft {
        /// The tile set's language.
        language: Language,
    },
    /// Scrabble-like with double challenge, English, 2–4 players (§3).
    Classic,
    /// Wordfeud rules (§4).
    Feud {
        /// The tile set's language.
        language: Language,
        /// Premiums shuffled with the game's seed.
        random_board: bool,
    },
    /// Swedish Alfapet on 17×17 (§5).
    Alfapet {
        /// 6, 7 or 8 tiles per hand.
        hand_size: u8,
        /// Whether the bag holds 2 arrows and 2 stops.
        special_tiles: bool,
    },
    /// Long words: length multipliers (§6).
    LongWords {
        /// An invalid word costs the turn instead of being rejected.
        hard_mode: bool,
    },
    /// The Daily Challenge (§2): one player, the Alfa Kraft board and bonuses without powers or
    /// coins, 10 turns, exchanges allowed; the score is the points made.
    Daily {
        /// The tile set's language.
        language: Language,
    },
}

/// When a player may exchange tiles as their turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwapRule {
    /// Never (Alfa Kraft: only the Swap power changes tiles).
    Never,
    /// While the bag holds at least this many tiles.
    WhileBagHolds(u8),
    /// While the bag holds at least as many tiles as are exchanged.
    WhileBagHasEnough,
}

/// What ends a game apart from going out, resigning and deadlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndAfter {
    /// This many passes in a row, by anyone, counted together.
    ConsecutivePasses(u8),
    /// Every player has passed this many times in a row.
    PassesPerPlayer(u8),
    /// This many scoreless turns in a row (passes, exchanges, withdrawn or zero-point plays).
    ScorelessTurns(u8),
    /// This many turns, whatever they were (the Daily Challenge); passes alone never end it.
    Turns(u8),
}

/// How words are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordCheck {
    /// An invalid word is rejected; the player tries again.
    Reject,
    /// Plays are not judged when made; the next player may challenge (double challenge).
    Challenge,
    /// An invalid word costs the turn ("Turn missed").
    LoseTurn,
}

/// How a word's points are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// Letters with letter premiums, times word premiums.
    Standard,
    /// Standard, times the length multiplier m(n) = n/2 capped at 8.5, rounded half up, with hook
    /// damping (a lone final S caps it at 1.5, a lone final D at 2.0).
    LengthMultiplier,
}

/// Who plays first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstPlayer {
    /// Given at creation (the joining player, the human against a bot, alternating in rematches).
    Given,
    /// Each player draws a tile; closest to A starts, a blank beats any letter; the tiles go back.
    ClosestToA,
    /// Each player draws a tile; the highest face value starts; the tiles go back.
    HighestValue,
}

/// A ruleset: everything the validator, the scorer and the game need to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSet {
    /// The variant this was built from.
    pub variant: Variant,
    /// Display name.
    pub name: &'static str,
    /// The board.
    pub layout: &'static BoardLayout,
    /// What the start cell is worth (Classic: DW; Wordfeud-style: nothing).
    pub start_premium: Premium,
    /// Feud's random board: the layout's premiums shuffled with the seed, start cell fixed and plain.
    pub random_board: bool,
    /// The bag's letters and blanks.
    pub tiles: &'static TileSet,
    /// Alfapet: arrows and stops in the bag, 2 of each.
    pub special_tiles: u8,
    /// Tiles per hand.
    pub hand_size: u8,
    /// Fewest players.
    pub min_players: u8,
    /// Most players.
    pub max_players: u8,
    /// Points for placing a whole hand's worth of tiles in one turn.
    pub bingo_bonus: i32,
    /// When exchanging is allowed.
    pub swap: SwapRule,
    /// When passing ends the game.
    pub end_after: EndAfter,
    /// How words are judged.
    pub word_check: WordCheck,
    /// How words are counted.
    pub scoring: Scoring,
    /// Alfa Kraft: `(tiles placed at least, bonus)`, highest first.
    pub placement_bonus: &'static [(u8, i32)],
    /// Alfa Kraft: `(words formed at least, bonus)`, highest first.
    pub combo_bonus: &'static [(u8, i32)],
    /// The player who goes out gains the others' leftovers.
    pub out_gains_leftovers: bool,
    /// Equal final scores are decided by the score before leftovers (Classic).
    pub tie_break_before_leftovers: bool,
    /// Who plays first.
    pub first_player: FirstPlayer,
    /// Alfa Kraft's coins, shop and powers.
    pub economy: bool,
}

/// Turns in a Daily Challenge.
pub const DAILY_TURNS: u8 = 10;

/// Alfa Kraft's placement bonus by tiles placed, power tiles included (docs/rules.md §2, decision).
const AK_PLACEMENT_BONUS: &[(u8, i32)] = &[(9, 60), (8, 50), (7, 40), (6, 15), (5, 5)];
/// Alfa Kraft's word combo bonus by words formed (docs/rules.md §2, decision).
const AK_COMBO_BONUS: &[(u8, i32)] = &[(5, 20), (4, 10), (3, 5)];

fn layout(id: &str) -> &'static BoardLayout {
    BoardLayout::by_id(id).expect("layouts are in the data files")
}

fn tiles(id: &str) -> &'static TileSet {
    TileSet::by_id(id).expect("tile sets are in the data files")
}

impl RuleSet {
    /// The ruleset for a variant.
    pub fn new(variant: Variant) -> RuleSet {
        let base = RuleSet {
            variant,
            name: "",
            layout: layout("feud_15"),
            start_premium: Premium::Plain,
            random_board: false,
            tiles: tiles("feud_en"),
            special_tiles: 0,
            hand_size: 7,
            min_players: 2,
            max_players: 2,
            bingo_bonus: 0,
            swap: SwapRule::WhileBagHolds(7),
            end_after: EndAfter::ConsecutivePasses(3),
            word_check: WordCheck::Reject,
            scoring: Scoring::Standard,
            placement_bonus: &[],
            combo_bonus: &[],
            out_gains_leftovers: false,
            tie_break_before_leftovers: false,
            first_player: FirstPlayer::Given,
            economy: false,
        };
        match variant {
            Variant::AlfaKraft { language } => RuleSet {
                name: "Alfa Kraft",
                tiles: language.feud_tiles(),
                swap: SwapRule::Never,
                placement_bonus: AK_PLACEMENT_BONUS,
                combo_bonus: AK_COMBO_BONUS,
                economy: true,
                ..base
            },
            Variant::Classic => RuleSet {
                name: "Classic",
                layout: layout("classic_15"),
                start_premium: Premium::DoubleWord,
                tiles: tiles("classic_en_100"),
                max_players: 4,
                bingo_bonus: 100,
                end_after: EndAfter::ScorelessTurns(6),
                word_check: WordCheck::Challenge,
                out_gains_leftovers: true,
                tie_break_before_leftovers: true,
                first_player: FirstPlayer::ClosestToA,
                ..base
            },
            Variant::Feud {
                language,
                random_board,
            } => RuleSet {
                name: "Feud",
                tiles: language.feud_tiles(),
                random_board,
                bingo_bonus: 40,
                out_gains_leftovers: true,
                ..base
            },
            Variant::Alfapet {
                hand_size,
                special_tiles,
            } => RuleSet {
                name: "Alfapet",
                layout: layout("alfapet_17"),
                tiles: tiles("alfapet_sv_120"),
                special_tiles: if special_tiles { 2 } else { 0 },
                hand_size: hand_size.clamp(6, 8),
                max_players: 4,
                bingo_bonus: match hand_size.clamp(6, 8) {
                    6 => 40,
                    7 => 50,
                    _ => 60,
                },
                swap: SwapRule::WhileBagHasEnough,
                end_after: EndAfter::PassesPerPlayer(2),
                first_player: FirstPlayer::HighestValue,
                ..base
            },
            Variant::Daily { language } => RuleSet {
                name: "Daily Challenge",
                tiles: language.feud_tiles(),
                min_players: 1,
                max_players: 1,
                swap: SwapRule::WhileBagHasEnough,
                end_after: EndAfter::Turns(DAILY_TURNS),
                placement_bonus: AK_PLACEMENT_BONUS,
                combo_bonus: AK_COMBO_BONUS,
                ..base
            },
            Variant::LongWords { hard_mode } => RuleSet {
                name: "Long words",
                layout: layout("classic_15"),
                start_premium: Premium::DoubleWord,
                tiles: tiles("longwords_en_100"),
                max_players: 4,
                end_after: EndAfter::PassesPerPlayer(2),
                word_check: if hard_mode {
                    WordCheck::LoseTurn
                } else {
                    WordCheck::Reject
                },
                scoring: Scoring::LengthMultiplier,
                ..base
            },
        }
    }

    /// The bonus from a `(at least, bonus)` table, highest threshold first.
    pub fn bonus_for(table: &[(u8, i32)], count: usize) -> i32 {
        table
            .iter()
            .find(|(min, _)| count >= usize::from(*min))
            .map_or(0, |(_, bonus)| *bonus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alfapet_bingo_follows_the_hand_size() {
        for (hand, bingo) in [(6, 40), (7, 50), (8, 60)] {
            let rules = RuleSet::new(Variant::Alfapet {
                hand_size: hand,
                special_tiles: false,
            });
            assert_eq!((rules.hand_size, rules.bingo_bonus), (hand, bingo));
        }
    }

    #[test]
    fn alfa_kraft_bonus_tables_match_rules_section_2() {
        let ak = RuleSet::new(Variant::AlfaKraft {
            language: Language::English,
        });
        let placement: Vec<i32> = (0..=10)
            .map(|n| RuleSet::bonus_for(ak.placement_bonus, n))
            .collect();
        assert_eq!(placement, [0, 0, 0, 0, 0, 5, 15, 40, 50, 60, 60]);
        let combo: Vec<i32> = (0..=6)
            .map(|n| RuleSet::bonus_for(ak.combo_bonus, n))
            .collect();
        assert_eq!(combo, [0, 0, 0, 5, 10, 20, 20]);
    }

    #[test]
    fn each_language_gets_its_tile_set() {
        let sv = RuleSet::new(Variant::Feud {
            language: Language::Swedish,
            random_board: false,
        });
        assert_eq!(sv.tiles.id, "feud_sv");
        assert_eq!(RuleSet::new(Variant::Classic).tiles.id, "classic_en_100");
    }
}
