//! Bots play whole games legally at every level and in every ruleset they support, and cope with
//! boards holding stops and power tiles.

use dictionaries::FstLexicon;
use engine::{selfplay::play_game, Bot, Generator, Level, Trie};
use rules::{
    board::{BoardTile, Square, TileKind},
    game::GameConfig,
    play::{evaluate, Situation},
    Action, Board, Format, GameState, HandTile, Language, Letter, Pos, Power, RuleSet, Variant,
};
use support::{english, trie_of};

mod support;

/// The Master's budget for games that check legality, not strength: it would otherwise think a
/// second a move.
fn quick_master() {
    engine::bot::set_master_budget(std::time::Duration::from_millis(60));
}

#[test]
fn every_level_plays_legal_moves_to_the_end_in_every_english_ruleset() {
    quick_master();
    let lexicon = english();
    let variants = [
        Variant::Feud {
            language: Language::English,
            random_board: true,
        },
        Variant::Classic,
        Variant::AlfaKraft {
            language: Language::English,
        },
        Variant::LongWords { hard_mode: true },
    ];
    for variant in variants {
        let rules = RuleSet::new(variant);
        let trie = trie_of(&lexicon, &rules);
        for (i, pair) in Level::ALL.windows(2).enumerate() {
            let record = play_game(variant, [pair[0], pair[1]], &trie, &lexicon, 40 + i as u64);
            assert_eq!(record.refused, 0, "{variant:?} {pair:?}");
            assert!(
                record.finished,
                "{variant:?} {pair:?} did not finish in {} turns",
                record.turns
            );
            assert!(record.scores.iter().any(|&s| s > 0));
        }
    }
}

#[test]
fn levels_have_increasing_ranks() {
    let ranks: Vec<i32> = Level::ALL.iter().map(|l| l.rank()).collect();
    assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
}

#[test]
fn stops_and_power_tiles_on_the_board_do_not_break_the_generator() {
    let lexicon = english();
    for variant in [
        Variant::AlfaKraft {
            language: Language::English,
        },
        Variant::Alfapet {
            hand_size: 7,
            special_tiles: true,
        },
    ] {
        let rules = RuleSet::new(variant);
        let trie = trie_of(&lexicon, &rules);
        let mut board = Board::new(rules.layout, rules.start_premium);
        let l = |c| rules.tiles.letter(c).unwrap_or(Letter(0));
        let start = board.start();
        // CAT through the start with its A an Alfa Power Tile, a stop after it, a golden S below.
        for (dc, c, kind) in [
            (0u8, 'c', TileKind::Normal),
            (1, 'a', TileKind::AlfaPower),
            (2, 't', TileKind::Normal),
        ] {
            let pos = Pos::new(start.row, start.col + dc);
            board.set(
                pos,
                Square::Tile(BoardTile {
                    letter: l(c),
                    kind,
                    arrow: dc == 1,
                    printed: None,
                }),
            );
        }
        board.set(Pos::new(start.row, start.col + 3), Square::Stop);
        board.set(
            Pos::new(start.row + 1, start.col),
            Square::Tile(BoardTile {
                letter: l('o'),
                kind: TileKind::Golden,
                arrow: false,
                printed: None,
            }),
        );
        let hand = rules::notation::parse_rack("SEATRON", rules.tiles).unwrap();
        let mut generator = Generator::new(&trie, &rules);
        let mut moves = Vec::new();
        generator.generate(&board, &hand, &mut moves);
        assert!(!moves.is_empty(), "{}", rules.name);
        for m in &moves {
            let at = Situation {
                rules: &rules,
                board: &board,
                hand: &hand,
                bar: &[],
            };
            let scored = evaluate(at, &m.placement(), &lexicon, &mut || 1).unwrap();
            assert!(scored.invalid_words().is_empty());
            assert_eq!(scored.total, m.score);
            assert!(
                m.tiles()
                    .all(|t| t.pos != Pos::new(start.row, start.col + 3)),
                "nothing goes on the stop"
            );
        }
    }
}

/// English Alfa Kraft: the dictionary, the variant, its rules and the bots' trie.
fn english_alfa_kraft() -> (FstLexicon, Variant, RuleSet, Trie) {
    let lexicon = english();
    let variant = Variant::AlfaKraft {
        language: Language::English,
    };
    let rules = RuleSet::new(variant);
    let trie = trie_of(&lexicon, &rules);
    (lexicon, variant, rules, trie)
}

#[test]
fn alfa_kraft_bots_buy_and_use_charge_or_dice_and_place_earned_tiles_when_it_pays() {
    let (lexicon, variant, _, trie) = english_alfa_kraft();
    let (mut purchases, mut power_tiles) = (0, 0);
    for seed in 0..4 {
        let record = play_game(variant, [Level::Expert, Level::Club], &trie, &lexicon, seed);
        assert_eq!(record.refused, 0);
        purchases += record.purchases;
        power_tiles += record.power_tiles;
    }
    assert!(purchases > 0, "no Charge or Dice bought in four games");
    assert!(
        power_tiles > 0,
        "no earned Golden or Alfa Power Tile placed in four games"
    );
}

#[test]
fn alfa_kraft_bots_with_no_move_swap_instead_of_passing_while_they_can_pay() {
    let (lexicon, variant, rules, trie) = english_alfa_kraft();
    let config = GameConfig {
        variant,
        dictionary: "en".into(),
        seed: 7,
        players: 2,
        first_seat: 0,
        format: Format::Casual,
    };
    let mut state = GameState::new(config);
    // No vowel: nothing to play on the empty board.
    let hand: Vec<HandTile> = "QZXJKVW"
        .chars()
        .map(|c| HandTile::Letter(rules.tiles.letter(c).unwrap()))
        .collect();
    state.set_hand_for_tests(0, &hand);

    // A Beginner passes; a Club bot buys a Swap (6 of its 10 coins) and swaps the lot.
    let mut beginner = Bot::new(Level::Beginner, &trie, &rules, 1);
    assert_eq!(
        beginner.decide_turn(&state.view(0)),
        vec![Action::Pass { seat: 0 }]
    );
    let mut club = Bot::new(Level::Club, &trie, &rules, 1);
    let actions = club.decide_turn(&state.view(0));
    assert_eq!(
        actions,
        vec![
            Action::Buy {
                seat: 0,
                power: Power::Swap
            },
            Action::UseSwap {
                seat: 0,
                tiles: hand.clone()
            },
        ]
    );
    for action in &actions {
        state.apply(action, &lexicon).unwrap();
    }
    // Its turn goes on, with a new hand and 4 coins: too few for another Swap, so a second
    // hopeless hand would be passed.
    assert_eq!(state.to_move(), 0);
    assert_eq!(state.coins(0), 4);
    assert_ne!(state.hand(0), hand.as_slice());
    state.set_hand_for_tests(0, &hand);
    assert_eq!(
        club.decide_turn(&state.view(0)),
        vec![Action::Pass { seat: 0 }]
    );
}

#[test]
fn the_master_bot_plays_legal_moves_to_the_end_in_the_scandinavian_rulesets() {
    quick_master();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dictionaries/fst");
    let games = [
        (
            "sv.fst",
            Variant::Alfapet {
                hand_size: 8,
                special_tiles: true,
            },
        ),
        (
            "sv.fst",
            Variant::AlfaKraft {
                language: Language::Swedish,
            },
        ),
        (
            "da.fst",
            Variant::Feud {
                language: Language::Danish,
                random_board: true,
            },
        ),
        (
            "nb.fst",
            Variant::Feud {
                language: Language::Norwegian,
                random_board: false,
            },
        ),
    ];
    for (file, variant) in games {
        let lexicon = FstLexicon::read(&dir.join(file)).unwrap();
        let rules = RuleSet::new(variant);
        let trie = trie_of(&lexicon, &rules);
        let record = play_game(variant, [Level::Master, Level::Club], &trie, &lexicon, 11);
        assert_eq!(record.refused, 0, "{variant:?}");
        assert!(record.finished, "{variant:?} did not finish");
        assert!(record.scores[0] > 0, "{variant:?}");
    }
}
