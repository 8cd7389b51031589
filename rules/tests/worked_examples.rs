//! Every worked example of the rulesets (docs/rules.md), each a named test.

use rules::{
    board::{BoardLayout, LayoutCell},
    notation::parse_move,
    play::{evaluate, Situation},
    Board, HandTile, Language, Placement, Premium, RuleSet, ScoredPlay, TileSet, Variant, WordList,
};

/// Scores a play of `word` at `coordinate`, the hand holding exactly the tiles it needs, and
/// returns the result with the board it leaves.
fn play(
    rules: &RuleSet,
    board: &Board,
    coordinate: &str,
    word: &str,
    words: &WordList,
) -> ScoredPlay {
    let placement = parse_move(board, rules.tiles, coordinate, word).expect("a readable move");
    let hand = hand_for(&placement);
    let at = Situation {
        rules,
        board,
        hand: &hand,
        bar: &[],
    };
    evaluate(at, &placement, words, &mut || 1).expect("a legal play")
}

fn hand_for(placement: &Placement) -> Vec<HandTile> {
    placement
        .tiles
        .iter()
        .map(|t| match t.tile {
            rules::Played::Letter(l) => HandTile::Letter(l),
            _ => HandTile::Blank,
        })
        .collect()
}

fn word_points(play: &ScoredPlay) -> Vec<(String, i32)> {
    play.words
        .iter()
        .map(|w| (w.word.clone(), w.points))
        .collect()
}

// Seed 003 (Wordfeud): WHY with W 4, H 4, Y 4. No cell of feud_15 has a TL followed by a DW, so a
// one-row board made for the example carries the premiums.
static WHY_TL: BoardLayout = BoardLayout {
    id: "why_tl",
    width: 3,
    height: 1,
    cells: &[
        LayoutCell::Start,
        LayoutCell::TripleLetter,
        LayoutCell::Plain,
    ],
};
static WHY_TL_DW: BoardLayout = BoardLayout {
    id: "why_tl_dw",
    width: 3,
    height: 1,
    cells: &[
        LayoutCell::Start,
        LayoutCell::TripleLetter,
        LayoutCell::DoubleWord,
    ],
};

#[test]
fn seed_003_why_with_h_on_tl_scores_20() {
    let rules = RuleSet {
        layout: &WHY_TL,
        ..RuleSet::new(Variant::Feud {
            language: Language::English,
            random_board: false,
        })
    };
    let board = Board::new(rules.layout, rules.start_premium);
    let scored = play(&rules, &board, "1A", "WHY", &WordList::new(["why"]));
    assert_eq!(scored.total, 20);
}

#[test]
fn seed_003_why_with_h_on_tl_and_y_on_dw_scores_40() {
    let rules = RuleSet {
        layout: &WHY_TL_DW,
        ..RuleSet::new(Variant::Feud {
            language: Language::English,
            random_board: false,
        })
    };
    let board = Board::new(rules.layout, rules.start_premium);
    let scored = play(&rules, &board, "1A", "WHY", &WordList::new(["why"]));
    assert_eq!(scored.total, 40);
}

#[test]
fn seed_003_blank_scores_nothing_even_on_a_letter_premium_but_doubles_on_a_word_premium() {
    let rules = RuleSet {
        layout: &WHY_TL_DW,
        ..RuleSet::new(Variant::Feud {
            language: Language::English,
            random_board: false,
        })
    };
    let board = Board::new(rules.layout, rules.start_premium);
    // W 4 + blank h 0 on TL + Y 4, doubled: 16.
    let scored = play(&rules, &board, "1A", "WhY", &WordList::new(["why"]));
    assert_eq!(scored.total, 16);
}

/// Seed 004 (AlphaFun): five turns on the Classic board with R on the centre square.
#[test]
fn seed_004_scoring_examples_horn_farm_paste_mob_bit() {
    let rules = RuleSet::new(Variant::Classic);
    let words = WordList::new([
        "horn", "farm", "farms", "paste", "mob", "not", "be", "bit", "pi", "at",
    ]);
    let mut board = Board::new(rules.layout, rules.start_premium);
    let turns = [
        // Turn 1: HORN across row 8, R on the centre (DW): (4+1+1+1)×2.
        ("8F", "HORN", 14, vec![("horn", 14)]),
        // Turn 2: FARM down column H through the R, no premiums.
        ("H6", "FA.M", 9, vec![("farm", 9)]),
        // Turn 3: PASTE across row 10, P and E on TL, its S extending FARM to FARMS.
        ("10F", "PASTE", 25, vec![("paste", 15), ("farms", 10)]),
        // Turn 4: MOB across row 9 from the M, O on DL; NOT and BE down.
        ("9H", ".OB", 16, vec![("mob", 8), ("not", 4), ("be", 4)]),
        // Turn 5: BIT across row 11, B on DW; PI and AT down.
        ("11E", "BIT", 16, vec![("bit", 10), ("pi", 4), ("at", 2)]),
    ];
    for (coordinate, word, total, expected) in turns {
        let scored = play(&rules, &board, coordinate, word, &words);
        let mut got = word_points(&scored);
        got.sort();
        let mut expected: Vec<(String, i32)> = expected
            .into_iter()
            .map(|(w, p)| (w.to_string(), p))
            .collect();
        expected.sort();
        assert_eq!(got, expected, "{word}");
        assert_eq!(scored.total, total, "{word}");
        assert!(scored.invalid_words().is_empty());
        board = scored.board;
    }
}

#[test]
fn seed_004_bingo_with_seven_tiles_adds_100() {
    let rules = RuleSet::new(Variant::Classic);
    let board = Board::new(rules.layout, rules.start_premium);
    // RETAINS across row 8 from column E: R1 E1 T1 A1 I1 N1 S1, H on the DW centre: 7×2 + 100.
    let scored = play(&rules, &board, "8E", "RETAINS", &WordList::new(["retains"]));
    assert_eq!(scored.total, 114);
}

/// A 15×15 board with no premiums, for the Long-words table (which counts plain squares).
const PLAIN_CELLS: [LayoutCell; 225] = {
    let mut cells = [LayoutCell::Plain; 225];
    cells[112] = LayoutCell::Start;
    cells
};
static PLAIN_15: BoardLayout = BoardLayout {
    id: "plain_15",
    width: 15,
    height: 15,
    cells: &PLAIN_CELLS,
};

fn long_words() -> RuleSet {
    RuleSet {
        layout: &PLAIN_15,
        start_premium: Premium::Plain,
        ..RuleSet::new(Variant::LongWords { hard_mode: false })
    }
}

fn long_word_points(word: &str) -> i32 {
    let rules = long_words();
    let board = Board::new(rules.layout, rules.start_premium);
    let scored = play(
        &rules,
        &board,
        "8H",
        &word.to_uppercase(),
        &WordList::new([word]),
    );
    scored.total
}

#[test]
fn seed_002_two_letter_rare_plays_score_5() {
    for word in ["qi", "za", "xu", "jo"] {
        assert_eq!(long_word_points(word), 5, "{word}");
    }
}

#[test]
fn seed_002_zanier_27() {
    assert_eq!(long_word_points("zanier"), 27);
}

#[test]
fn seed_002_quiver_36() {
    assert_eq!(long_word_points("quiver"), 36);
}

#[test]
fn seed_002_joinery_46_rounds_45_5_half_up() {
    assert_eq!(long_word_points("joinery"), 46);
}

#[test]
fn seed_002_jukebox_67() {
    assert_eq!(long_word_points("jukebox"), 67);
}

#[test]
fn seed_002_quarter_35() {
    assert_eq!(long_word_points("quarter"), 35);
}

/// Lays `existing` across row 8 ending on the centre (or from column A when longer), then hooks
/// `hook` onto its end.
fn hook_multiplier(existing: &str, hook: &str) -> Option<u8> {
    let rules = long_words();
    let full = format!("{existing}{hook}");
    let words = WordList::new([existing, full.as_str()]);
    let board = Board::new(rules.layout, rules.start_premium);
    let column = char::from(b'A' + 8u8.saturating_sub(existing.len() as u8));
    let coordinate = format!("8{column}");
    let first = play(
        &rules,
        &board,
        &coordinate,
        &existing.to_uppercase(),
        &words,
    );
    let dots = ".".repeat(existing.len());
    let second = play(
        &rules,
        &first.board,
        &coordinate,
        &format!("{dots}{}", hook.to_uppercase()),
        &words,
    );
    assert_eq!(second.words.len(), 1);
    second.words[0].length_halves
}

#[test]
fn seed_002_duplicate_plus_s_is_capped_at_1_5() {
    assert_eq!(hook_multiplier("duplicate", "s"), Some(3));
}

#[test]
fn seed_002_bake_plus_d_is_capped_at_2_0() {
    assert_eq!(hook_multiplier("bake", "d"), Some(4));
}

#[test]
fn seed_002_super_placed_whole_gets_the_full_2_5() {
    let rules = long_words();
    let board = Board::new(rules.layout, rules.start_premium);
    let scored = play(&rules, &board, "8H", "SUPER", &WordList::new(["super"]));
    assert_eq!(scored.words[0].length_halves, Some(5));
    // S1 U1 P3 E1 R1 = 7, ×2.5 = 17.5 → 18.
    assert_eq!(scored.total, 18);
}

#[test]
fn seed_002_an_s_that_is_part_of_a_longer_new_word_is_not_damped() {
    let rules = long_words();
    let words = WordList::new(["bake", "bakes", "es"]);
    let board = Board::new(rules.layout, rules.start_premium);
    let first = play(&rules, &board, "8E", "BAKE", &words);
    // Two new tiles, E above the S: the hook rule needs the S to be the only new tile.
    let second = play(&rules, &first.board, "I7", "ES", &words);
    assert!(second.invalid_words().is_empty());
    let bakes = second.words.iter().find(|w| w.word == "bakes").unwrap();
    assert_eq!(bakes.length_halves, Some(5));
}

#[test]
fn rules_alfapet_negative_square_counts_minus_twice_the_face_value() {
    let rules = RuleSet::new(Variant::Alfapet {
        hand_size: 7,
        special_tiles: false,
    });
    let board = Board::new(rules.layout, rules.start_premium);
    // Row 9 of alfapet_17: NL at columns C, G, K, O; the start is I9. BÅT from G9: B on NL.
    let scored = play(&rules, &board, "9G", "BÅT", &WordList::new(["båt"]));
    let sv = TileSet::by_id("alfapet_sv_120").unwrap();
    let (b, a, t) = (
        sv.points('b').unwrap(),
        sv.points('å').unwrap(),
        sv.points('t').unwrap(),
    );
    assert_eq!(
        scored.total,
        -2 * i32::from(b) + i32::from(a) + i32::from(t)
    );
}

#[test]
fn rules_alfapet_bingo_is_40_50_60_by_hand_size() {
    for (hand_size, bonus) in [(6u8, 40), (7, 50), (8, 60)] {
        let rules = RuleSet::new(Variant::Alfapet {
            hand_size,
            special_tiles: false,
        });
        let board = Board::new(rules.layout, rules.start_premium);
        let word = &"ABCDEFGH"[..usize::from(hand_size)];
        let scored = play(&rules, &board, "9D", word, &WordList::new([word]));
        assert!(
            scored.bonuses.contains(&rules::play::Bonus::Bingo(bonus)),
            "{hand_size}"
        );
    }
}
