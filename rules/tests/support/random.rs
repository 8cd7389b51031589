//! Random games for the property tests and the fuzz campaign: what a random player tries, turned
//! into an action against the current state, and the tile count that every action must keep.

use proptest::prelude::*;
use rules::{
    board::{Square, TileKind},
    Action, Direction, GameState, HandTile, Language, Letter, NewTile, Placement, Played, Pos,
    Power, StagedPower, Variant,
};

/// Any of the four tile-set languages.
pub fn language() -> impl Strategy<Value = Language> + Clone {
    prop_oneof![
        Just(Language::English),
        Just(Language::Swedish),
        Just(Language::Danish),
        Just(Language::Norwegian)
    ]
}

/// Every ruleset for two or more seats, with its options.
pub fn variant_strategy() -> impl Strategy<Value = Variant> {
    let language = language();
    prop_oneof![
        language
            .clone()
            .prop_map(|language| Variant::AlfaKraft { language }),
        Just(Variant::Classic),
        (language, any::<bool>()).prop_map(|(language, random_board)| Variant::Feud {
            language,
            random_board
        }),
        (6u8..=8, any::<bool>()).prop_map(|(hand_size, special_tiles)| Variant::Alfapet {
            hand_size,
            special_tiles
        }),
        any::<bool>().prop_map(|hard_mode| Variant::LongWords { hard_mode }),
    ]
}

/// What a random player tries; turned into an action against the current state.
#[derive(Debug, Clone)]
pub enum Intent {
    Play {
        count: usize,
        row: u8,
        col: u8,
        down: bool,
        blank_letter: u8,
        power: Option<u8>,
    },
    Pass,
    Exchange(u8),
    Challenge(u8),
    Buy(u8, u8),
    Sell(u8, u8),
    Swap(u8),
    TimedOut(bool),
    Resign(u8),
    /// Bytes made into any action at all: a wrong seat, tiles nobody holds, cells off the board.
    Raw([u8; 5]),
}

pub fn intent_strategy() -> impl Strategy<Value = Intent> {
    prop_oneof![
        12 => (1usize..=8, 0u8..17, 0u8..17, any::<bool>(), any::<u8>(), proptest::option::of(0u8..8))
            .prop_map(|(count, row, col, down, blank_letter, power)| Intent::Play { count, row, col, down, blank_letter, power }),
        2 => Just(Intent::Pass),
        1 => any::<u8>().prop_map(Intent::Exchange),
        1 => (0u8..4).prop_map(Intent::Challenge),
        2 => (0u8..2, 0u8..7).prop_map(|(s, p)| Intent::Buy(s, p)),
        1 => (0u8..2, 0u8..7).prop_map(|(s, p)| Intent::Sell(s, p)),
        1 => any::<u8>().prop_map(Intent::Swap),
        1 => any::<bool>().prop_map(Intent::TimedOut),
        0 => (0u8..2).prop_map(Intent::Resign),
        2 => any::<[u8; 5]>().prop_map(Intent::Raw),
    ]
}

pub fn subset(hand: &[HandTile], mask: u8) -> Vec<HandTile> {
    hand.iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << (i % 8)) != 0)
        .map(|(_, t)| *t)
        .collect()
}

/// Lays up to `count` hand tiles in a line from (row, col), skipping occupied cells; the start is
/// pulled to the centre on an empty board so first moves can succeed.
pub fn placement_for(state: &GameState, intent: &Intent) -> Placement {
    let Intent::Play {
        count,
        row,
        col,
        down,
        blank_letter,
        power,
    } = *intent
    else {
        unreachable!()
    };
    let board = state.board();
    let dir = if down {
        Direction::Down
    } else {
        Direction::Across
    };
    let mut pos = if board.is_empty() {
        board.start()
    } else {
        Pos::new(row % board.height(), col % board.width())
    };
    let alphabet = state.rules().tiles.letters.len() as u8;
    let hand = state.hand(state.to_move());
    let mut tiles = Vec::new();
    for tile in hand
        .iter()
        .copied()
        .filter(|t| !matches!(t, HandTile::Arrow))
        .take(count)
    {
        while board.tile(pos).is_some() || board.square(pos) == Square::Stop {
            match pos.step(dir, true).filter(|p| board.contains(*p)) {
                Some(next) => pos = next,
                None => break,
            }
        }
        if !board.contains(pos) || board.square(pos) != Square::Empty {
            break;
        }
        let played = match tile {
            HandTile::Letter(l) => Played::Letter(l),
            HandTile::Blank => Played::Blank(Letter(blank_letter % alphabet)),
            HandTile::Stop => Played::Stop,
            HandTile::Arrow => unreachable!(),
        };
        tiles.push(NewTile {
            pos,
            tile: played,
            arrow: false,
        });
        match pos.step(dir, true).filter(|p| board.contains(*p)) {
            Some(next) => pos = next,
            None => break,
        }
    }
    let mut powers = Vec::new();
    let bar = state.power_bar(state.to_move());
    if let (Some(which), Some(first)) = (power, tiles.first()) {
        match which {
            0 if bar.contains(&Power::Charge) => powers.push(StagedPower::Charge(first.pos)),
            1 if bar.contains(&Power::Dice) => powers.push(StagedPower::Dice(first.pos)),
            2 if bar.contains(&Power::Rubber) => {
                powers.push(StagedPower::Rubber(Pos::new(row % 15, col % 15)))
            }
            3 if bar.contains(&Power::AlfaMorf) => {
                if let Some((p, _)) = board
                    .cells()
                    .find(|(_, s)| matches!(s, Square::Tile(t) if !t.is_immune()))
                {
                    powers.push(StagedPower::AlfaMorf(p, Letter(blank_letter % alphabet)));
                }
            }
            4 if bar.contains(&Power::AlfaPowerTile) => {
                if let Some(t) = tiles.first_mut() {
                    if let Some(l) = t.tile.letter() {
                        t.tile = Played::AlfaPower(l);
                    }
                }
            }
            5 if bar.contains(&Power::GoldenTile) => {
                if let Some(t) = tiles.last_mut() {
                    if let Some(l) = t.tile.letter() {
                        t.tile = Played::Golden(l);
                    }
                }
            }
            _ => {}
        }
    }
    Placement { tiles, powers }
}

pub fn action_for(state: &GameState, intent: &Intent) -> Action {
    let seat = state.to_move();
    let hand = state.hand(seat);
    match *intent {
        Intent::Play { .. } => Action::Play {
            seat,
            placement: placement_for(state, intent),
        },
        Intent::Pass => Action::Pass { seat },
        Intent::Exchange(mask) => Action::Exchange {
            seat,
            tiles: subset(hand, mask),
        },
        Intent::Challenge(s) => Action::Challenge {
            seat: s % state.players(),
        },
        Intent::Buy(s, p) => Action::Buy {
            seat: s,
            power: Power::ALL[usize::from(p)],
        },
        Intent::Sell(s, p) => Action::Sell {
            seat: s,
            power: Power::ALL[usize::from(p)],
        },
        Intent::Swap(mask) => Action::UseSwap {
            seat,
            tiles: subset(hand, mask),
        },
        Intent::TimedOut(away) => Action::TimedOut { seat, away },
        Intent::Resign(s) => Action::Resign { seat: s },
        Intent::Raw(bytes) => raw_action(bytes),
    }
}

/// Any action from five bytes, with no regard for the state.
pub fn raw_action([a, b, c, d, kind]: [u8; 5]) -> Action {
    let pos = Pos::new(a, b);
    let letter = Letter(c);
    let tile = match d % 5 {
        0 => Played::Letter(letter),
        1 => Played::Blank(letter),
        2 => Played::AlfaPower(letter),
        3 => Played::Golden(letter),
        _ => Played::Stop,
    };
    match kind % 12 {
        0..=3 => Action::Play {
            seat: d % 3,
            placement: Placement {
                tiles: vec![
                    NewTile {
                        pos,
                        tile,
                        arrow: c % 2 == 0
                    };
                    usize::from(a % 3)
                ],
                powers: vec![],
            },
        },
        4 => Action::Play {
            seat: d % 3,
            placement: Placement {
                tiles: vec![],
                powers: vec![StagedPower::Rubber(pos), StagedPower::AlfaMorf(pos, letter)],
            },
        },
        5 => Action::Exchange {
            seat: d % 3,
            tiles: vec![HandTile::Letter(letter); usize::from(a % 9)],
        },
        6 => Action::UseSwap {
            seat: d % 3,
            tiles: vec![HandTile::Blank; usize::from(a % 9)],
        },
        7 => Action::Buy {
            seat: d % 3,
            power: Power::ALL[usize::from(c % 7)],
        },
        8 => Action::Sell {
            seat: d,
            power: Power::ALL[usize::from(c % 7)],
        },
        9 => Action::Challenge { seat: d },
        10 => Action::TimedOut {
            seat: d % 3,
            away: c % 2 == 0,
        },
        _ => Action::Pass { seat: d },
    }
}

/// Every tile that came from the bag, wherever it is now, as a sorted multiset.
pub fn all_tiles(state: &GameState) -> Vec<HandTile> {
    let mut tiles: Vec<HandTile> = state.bag().tiles().to_vec();
    for seat in 0..state.players() {
        tiles.extend_from_slice(state.hand(seat));
    }
    for (_, square) in state.board().cells() {
        match square {
            Square::Tile(t) => {
                match t.kind {
                    TileKind::Normal => tiles.push(HandTile::Letter(t.printed.unwrap_or(t.letter))),
                    TileKind::Blank => tiles.push(HandTile::Blank),
                    // Power tiles come from the power bar, not the bag.
                    TileKind::AlfaPower | TileKind::Golden => {}
                }
                if t.arrow {
                    tiles.push(HandTile::Arrow);
                }
            }
            Square::Stop => tiles.push(HandTile::Stop),
            Square::Empty => {}
        }
    }
    tiles.sort();
    tiles
}
