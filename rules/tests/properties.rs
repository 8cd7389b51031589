//! Property tests over random games: tile conservation, replay determinism, redaction, previews
//! that match commits, and no panics on any input.

mod support;

use proptest::prelude::*;
use rules::{
    board::{Square, TileKind},
    game::TurnEvent,
    Action, Direction, GameConfig, GameState, HandTile, Language, Letter, NewTile, Placement,
    Played, Pos, Power, StagedPower, Variant,
};

/// Every word is accepted, so random placements that obey the geometry rules get played.
use rules::lexicon::AcceptAll as EveryWord;

fn variant_strategy() -> impl Strategy<Value = Variant> {
    let language = prop_oneof![
        Just(Language::English),
        Just(Language::Swedish),
        Just(Language::Danish),
        Just(Language::Norwegian)
    ];
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
enum Intent {
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
}

fn intent_strategy() -> impl Strategy<Value = Intent> {
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
    ]
}

fn subset(hand: &[HandTile], mask: u8) -> Vec<HandTile> {
    hand.iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << (i % 8)) != 0)
        .map(|(_, t)| *t)
        .collect()
}

/// Lays up to `count` hand tiles in a line from (row, col), skipping occupied cells; the start is
/// pulled to the centre on an empty board so first moves can succeed.
fn placement_for(state: &GameState, intent: &Intent) -> Placement {
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

fn action_for(state: &GameState, intent: &Intent) -> Action {
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
    }
}

/// Every tile that came from the bag, wherever it is now, as a sorted multiset.
fn all_tiles(state: &GameState) -> Vec<HandTile> {
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

/// Plays the intents; returns the final state and the accepted actions.
fn run(config: &GameConfig, intents: &[Intent]) -> (GameState, Vec<Action>) {
    let mut state = GameState::new(config.clone());
    let mut accepted = Vec::new();
    for intent in intents {
        let action = action_for(&state, intent);
        if state.apply(&action, &EveryWord).is_ok() {
            accepted.push(action);
        }
    }
    (state, accepted)
}

fn config(variant: Variant, seed: u64, players: u8) -> GameConfig {
    GameConfig {
        players,
        seed,
        ..support::config(variant, seed)
    }
}

proptest! {
    // 256 cases each by default; PROPTEST_CASES=5000 for a longer hunt.

    #[test]
    fn tiles_are_conserved_after_any_action_sequence(
        variant in variant_strategy(), seed in any::<u64>(), players in 2u8..=4,
        intents in prop::collection::vec(intent_strategy(), 1..80),
    ) {
        let config = config(variant, seed, players);
        let initial = all_tiles(&GameState::new(config.clone()));
        let mut state = GameState::new(config);
        for intent in &intents {
            let action = action_for(&state, intent);
            let _ = state.apply(&action, &EveryWord);
            prop_assert_eq!(&all_tiles(&state), &initial);
        }
    }

    #[test]
    fn replaying_the_log_gives_the_same_state(
        variant in variant_strategy(), seed in any::<u64>(),
        intents in prop::collection::vec(intent_strategy(), 1..80),
    ) {
        let config = config(variant, seed, 2);
        let (state, accepted) = run(&config, &intents);
        let replayed = GameState::replay(config, &accepted, &EveryWord).expect("an accepted log replays");
        prop_assert_eq!(replayed, state);
    }

    #[test]
    fn a_view_shows_no_other_hand_no_bag_order_and_no_seed(
        variant in variant_strategy(), seed in (1u64 << 40)..u64::MAX,
        intents in prop::collection::vec(intent_strategy(), 1..60),
    ) {
        let config = config(variant, seed, 2);
        let (state, _) = run(&config, &intents);
        for seat in 0..2u8 {
            let view = state.view(seat);
            let json = serde_json::to_string(&view).unwrap();
            prop_assert!(!json.contains(&seed.to_string()));
            // Change what the viewer must not know: the other hand (traded with the bag) and the
            // bag's order. The view must not change at all.
            let mut altered = state.clone();
            let other = 1 - seat;
            let bag: Vec<HandTile> = altered.bag().tiles().to_vec();
            let other_hand = altered.hand(other).to_vec();
            let replacement: Vec<HandTile> = bag.iter().copied().filter(|t| !other_hand.contains(t)).take(other_hand.len()).collect();
            if replacement.len() == other_hand.len() {
                altered.set_hand_for_tests(other, &replacement);
            }
            altered.reverse_bag_for_tests();
            prop_assert_eq!(serde_json::to_string(&altered.view(seat)).unwrap(), json);
        }
    }

    #[test]
    fn the_preview_equals_the_committed_score_and_history_rebuilds_the_board(
        variant in variant_strategy(), seed in any::<u64>(),
        intents in prop::collection::vec(intent_strategy(), 1..60),
    ) {
        let mut state = GameState::new(config(variant, seed, 2));
        for intent in &intents {
            let action = action_for(&state, intent);
            let preview = match &action {
                Action::Play { seat, placement } if placement.powers.iter().all(|p| !matches!(p, StagedPower::Dice(_))) => {
                    state.view(*seat).preview(placement, &EveryWord).ok()
                }
                _ => None,
            };
            let turns = state.history().len();
            if state.apply(&action, &EveryWord).is_ok() {
                if let (Some(preview), Some(TurnEvent::Play { total, .. })) = (preview, state.history().get(turns).map(|r| &r.event)) {
                    prop_assert_eq!(preview.total, *total);
                }
            }
        }
        let view = state.view(0);
        let boards = view.boards_after_each_turn();
        if let Some(last) = boards.last() {
            prop_assert_eq!(last, state.board());
        }
    }

    #[test]
    fn no_input_makes_the_rules_panic(
        variant in variant_strategy(), seed in any::<u64>(),
        raw in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), 0u8..12), 1..60),
    ) {
        let mut state = GameState::new(config(variant, seed, 2));
        let words = rules::WordList::new(["ab", "abc"]);
        for (a, b, c, d, kind) in raw {
            let pos = Pos::new(a, b);
            let letter = Letter(c);
            let tile = match d % 5 { 0 => Played::Letter(letter), 1 => Played::Blank(letter), 2 => Played::AlfaPower(letter), 3 => Played::Golden(letter), _ => Played::Stop };
            let action = match kind {
                0..=3 => Action::Play { seat: d % 3, placement: Placement { tiles: vec![NewTile { pos, tile, arrow: c % 2 == 0 }; usize::from(a % 3)], powers: vec![] } },
                4 => Action::Play { seat: d % 3, placement: Placement { tiles: vec![], powers: vec![StagedPower::Rubber(pos), StagedPower::AlfaMorf(pos, letter)] } },
                5 => Action::Exchange { seat: d % 3, tiles: vec![HandTile::Letter(letter); usize::from(a % 9)] },
                6 => Action::UseSwap { seat: d % 3, tiles: vec![HandTile::Blank; usize::from(a % 9)] },
                7 => Action::Buy { seat: d % 3, power: Power::ALL[usize::from(c % 7)] },
                8 => Action::Sell { seat: d, power: Power::ALL[usize::from(c % 7)] },
                9 => Action::Challenge { seat: d },
                10 => Action::TimedOut { seat: d % 3, away: c % 2 == 0 },
                _ => Action::Pass { seat: d },
            };
            let _ = state.apply(&action, &words);
            let _ = state.view(d % 2).preview(&Placement { tiles: vec![NewTile { pos, tile, arrow: false }], powers: vec![] }, &words);
        }
    }
}

#[test]
fn random_games_really_place_tiles() {
    // Guards the generators above: if they stopped producing legal plays, the properties would
    // pass vacuously.
    let intents: Vec<Intent> = (0..40)
        .map(|i| Intent::Play {
            count: 3,
            row: (i * 7 % 15) as u8,
            col: (i * 5 % 15) as u8,
            down: i % 2 == 0,
            blank_letter: 1,
            power: None,
        })
        .collect();
    let (state, accepted) = run(
        &config(
            Variant::Feud {
                language: Language::English,
                random_board: false,
            },
            7,
            2,
        ),
        &intents,
    );
    assert!(
        accepted.len() >= 5,
        "only {} plays accepted",
        accepted.len()
    );
    assert!(
        state
            .board()
            .cells()
            .filter(|(_, s)| *s != Square::Empty)
            .count()
            >= 10
    );
}
