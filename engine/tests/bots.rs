//! Bots play whole games legally at every level and in every ruleset they support, and cope with
//! boards holding stops and power tiles.

use dictionaries::FstLexicon;
use engine::{selfplay::play_game, Generator, Level, Trie};
use rules::{
    board::{BoardTile, Square, TileKind},
    play::{evaluate, Situation},
    Board, Language, Letter, Pos, RuleSet, Variant,
};

fn english() -> FstLexicon {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dictionaries/fst/en.fst");
    FstLexicon::read(&path).unwrap()
}

#[test]
fn every_level_plays_legal_moves_to_the_end_in_every_english_ruleset() {
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
        let trie = Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);
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
        let trie = Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);
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

#[test]
fn alfa_kraft_bots_buy_and_use_charge_or_dice_when_it_pays() {
    let lexicon = english();
    let variant = Variant::AlfaKraft {
        language: Language::English,
    };
    let rules = RuleSet::new(variant);
    let trie = Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);
    let mut purchases = 0;
    for seed in 0..4 {
        let record = play_game(variant, [Level::Expert, Level::Club], &trie, &lexicon, seed);
        assert_eq!(record.refused, 0);
        purchases += record.purchases;
    }
    assert!(purchases > 0, "no Charge or Dice bought in four games");
}
