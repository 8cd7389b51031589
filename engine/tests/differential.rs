//! The generator against brute force: on small boards and random positions, it must find exactly
//! the placements `rules::evaluate` accepts, with the same scores.

use std::collections::BTreeMap;

use engine::{Generator, Trie};
use rules::{
    board::{BoardLayout, LayoutCell},
    play::{evaluate, Situation},
    Board, Direction, HandTile, Language, Letter, NewTile, Placement, Played, Pos, RuleSet,
    Variant, WordList,
};
use support::{english, trie_of};

mod support;

/// A 7×7 board with every kind of premium, start in the centre.
static SMALL: BoardLayout = BoardLayout {
    id: "small_7",
    width: 7,
    height: 7,
    cells: &{
        use LayoutCell::*;
        [
            TripleWord,
            Plain,
            DoubleLetter,
            Plain,
            QuadrupleLetter,
            Plain,
            TripleWord, //
            Plain,
            DoubleWord,
            Plain,
            TripleLetter,
            Plain,
            NegativeLetter,
            Plain, //
            DoubleLetter,
            Plain,
            Plain,
            Plain,
            Plain,
            Plain,
            DoubleLetter, //
            Plain,
            TripleLetter,
            Plain,
            Start,
            Plain,
            TripleLetter,
            Plain, //
            QuadrupleWord,
            Plain,
            Plain,
            Plain,
            Plain,
            DoubleWord,
            Plain, //
            Plain,
            NegativeLetter,
            Plain,
            DoubleLetter,
            Plain,
            Plain,
            Plain, //
            TripleWord,
            Plain,
            DoubleLetter,
            Plain,
            Plain,
            Plain,
            TripleWord,
        ]
    },
};

/// Real English words over a few letters, 2–5 long: dense enough for many plays on a small board.
fn small_words() -> Vec<String> {
    english()
        .words()
        .into_iter()
        .filter(|w| w.len() <= 5 && w.chars().all(|c| "aeiorstnlsd".contains(c)))
        .collect()
}

fn rulesets() -> Vec<RuleSet> {
    let on_small = |variant| RuleSet {
        layout: &SMALL,
        ..RuleSet::new(variant)
    };
    vec![
        on_small(Variant::Feud {
            language: Language::English,
            random_board: false,
        }),
        on_small(Variant::LongWords { hard_mode: false }),
        on_small(Variant::AlfaKraft {
            language: Language::English,
        }),
        on_small(Variant::Classic),
    ]
}

type Found = BTreeMap<Vec<(Pos, Played)>, i32>;

fn key(tiles: &[NewTile]) -> Vec<(Pos, Played)> {
    let mut key: Vec<(Pos, Played)> = tiles.iter().map(|t| (t.pos, t.tile)).collect();
    key.sort();
    key
}

/// Every placement of up to the whole hand in one row or column, judged by the rules.
fn brute_force(rules: &RuleSet, board: &Board, hand: &[HandTile], words: &WordList) -> Found {
    let mut found = Found::new();
    let (w, h) = (board.width(), board.height());
    let letters = rules.tiles.letters.len() as u8;
    let mut consider = |tiles: Vec<NewTile>| {
        let placement = Placement {
            tiles,
            powers: vec![],
        };
        let at = Situation {
            rules,
            board,
            hand,
            bar: &[],
        };
        if let Ok(scored) = evaluate(at, &placement, words, &mut || 1) {
            if scored.invalid_words().is_empty() {
                found.insert(key(&placement.tiles), scored.total);
            }
        }
    };
    for dir in [Direction::Across, Direction::Down] {
        let (lanes, len) = if dir == Direction::Across {
            (h, w)
        } else {
            (w, h)
        };
        for lane in 0..lanes {
            let cells: Vec<Pos> = (0..len)
                .map(|off| {
                    if dir == Direction::Across {
                        Pos::new(lane, off)
                    } else {
                        Pos::new(off, lane)
                    }
                })
                .filter(|p| board.square(*p) == rules::Square::Empty)
                .collect();
            // Subsets of the lane's empty cells, then every way to put hand tiles on them.
            for mask in 1u32..(1 << cells.len()) {
                let chosen: Vec<Pos> = (0..cells.len())
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| cells[i])
                    .collect();
                if chosen.len() > hand.len() || (chosen.len() == 1 && dir == Direction::Down) {
                    continue;
                }
                assign(
                    &chosen,
                    hand,
                    &mut vec![false; hand.len()],
                    &mut Vec::new(),
                    letters,
                    &mut consider,
                );
            }
        }
    }
    found
}

fn assign(
    cells: &[Pos],
    hand: &[HandTile],
    used: &mut Vec<bool>,
    tiles: &mut Vec<NewTile>,
    letters: u8,
    consider: &mut dyn FnMut(Vec<NewTile>),
) {
    let Some(&pos) = cells.get(tiles.len()) else {
        consider(tiles.clone());
        return;
    };
    for i in 0..hand.len() {
        // The same tile twice in a hand gives the same placements: try the first unused one.
        if used[i] || (0..i).any(|j| !used[j] && hand[j] == hand[i]) {
            continue;
        }
        used[i] = true;
        match hand[i] {
            HandTile::Letter(l) => {
                tiles.push(NewTile::letter(pos, l));
                assign(cells, hand, used, tiles, letters, consider);
                tiles.pop();
            }
            HandTile::Blank => {
                for l in 0..letters {
                    tiles.push(NewTile {
                        pos,
                        tile: Played::Blank(Letter(l)),
                        arrow: false,
                    });
                    assign(cells, hand, used, tiles, letters, consider);
                    tiles.pop();
                }
            }
            _ => {}
        }
        used[i] = false;
    }
}

fn generated(rules: &RuleSet, trie: &Trie, board: &Board, hand: &[HandTile]) -> Found {
    let mut generator = Generator::new(trie, rules);
    let mut moves = Vec::new();
    generator.generate(board, hand, &mut moves);
    // The pruning search must find what the full one does: the top score, with the fewest tiles.
    let rank = |m: &engine::Move| (m.score, std::cmp::Reverse(m.tile_count()));
    assert_eq!(
        generator
            .best(board, hand, &mut Vec::new())
            .as_ref()
            .map(rank),
        moves.iter().map(rank).max(),
        "{} best move on\n{}",
        rules.name,
        rules::notation::board_to_text(board, rules.tiles)
    );
    let mut found = Found::new();
    for m in &moves {
        let tiles: Vec<NewTile> = m.tiles().collect();
        assert!(
            found.insert(key(&tiles), m.score).is_none(),
            "generated twice: {tiles:?}"
        );
    }
    found
}

fn rack(rules: &RuleSet, text: &str) -> Vec<HandTile> {
    rules::notation::parse_rack(text, rules.tiles).unwrap()
}

/// The board once `m`, played from `hand`, is on it.
fn after(
    rules: &RuleSet,
    board: &Board,
    hand: &[HandTile],
    m: &engine::Move,
    words: &dictionaries::FstLexicon,
) -> Board {
    let at = Situation {
        rules,
        board,
        hand,
        bar: &[],
    };
    evaluate(at, &m.placement(), words, &mut || 1)
        .unwrap()
        .board
}

/// A small deterministic generator for positions.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

#[test]
fn differential_generator_vs_brute_force_on_small_boards() {
    let small = small_words();
    let words = WordList::new(&small);
    let pool: Vec<char> = "AEIORSTNLD".chars().collect();
    let mut lcg = Lcg(7);
    let mut positions = 0;
    let mut moves_checked = 0;
    for rules in rulesets() {
        let trie = Trie::new(small.iter().map(String::as_str), rules.tiles);
        // One generator kept through every game, so it reads each position from the last one.
        let mut kept = Generator::new(&trie, &rules);
        let mut kept_moves = Vec::new();
        for game in 0..6 {
            let mut board = Board::new(rules.layout, rules.start_premium);
            for turn in 0..6 {
                let size = if game % 3 == 0 { 3 } else { 4 };
                let mut text: String = (0..size).map(|_| pool[lcg.next(pool.len())]).collect();
                if (game + turn) % 5 == 0 {
                    text.pop();
                    text.push('?');
                }
                let hand = rack(&rules, &text);
                let expected = brute_force(&rules, &board, &hand, &words);
                let got = generated(&rules, &trie, &board, &hand);
                kept.generate(&board, &hand, &mut kept_moves);
                let kept_found: Found = kept_moves
                    .iter()
                    .map(|m| (key(&m.tiles().collect::<Vec<_>>()), m.score))
                    .collect();
                assert_eq!(kept_found, got, "{} kept generator", rules.name);
                assert_eq!(
                    got,
                    expected,
                    "{} on\n{}\nrack {text}",
                    rules.name,
                    rules::notation::board_to_text(&board, rules.tiles)
                );
                positions += 1;
                moves_checked += got.len();
                if expected.is_empty() {
                    continue;
                }
                // Play a random legal move to reach the next position.
                let plays: Vec<&Vec<(Pos, Played)>> = expected.keys().collect();
                let chosen = plays[lcg.next(plays.len())];
                let placement = Placement {
                    tiles: chosen
                        .iter()
                        .map(|&(pos, tile)| NewTile {
                            pos,
                            tile,
                            arrow: false,
                        })
                        .collect(),
                    powers: vec![],
                };
                let at = Situation {
                    rules: &rules,
                    board: &board,
                    hand: &hand,
                    bar: &[],
                };
                board = evaluate(at, &placement, &words, &mut || 1).unwrap().board;
            }
        }
    }
    eprintln!("{positions} positions, {moves_checked} moves");
    assert!(positions >= 100, "{positions} positions");
    assert!(moves_checked >= 1000, "only {moves_checked} moves compared");
}

#[test]
fn generator_is_exact_on_the_real_board_and_dictionary() {
    let english = english();
    let rules = RuleSet::new(Variant::Classic);
    let trie = trie_of(&english, &rules);
    let mut board = Board::new(rules.layout, rules.start_premium);
    let mut generator = Generator::new(&trie, &rules);
    let mut moves = Vec::new();
    let mut lcg = Lcg(3);
    for rack_text in [
        "RETAINS", "QUIZ?AB", "EEEIIOU", "CRWTHSS", "AEINRS?", "JXKVWYZ", "DOGCATS", "LEAVING",
    ] {
        let hand = rack(&rules, rack_text);
        generator.generate(&board, &hand, &mut moves);
        for m in &moves {
            let at = Situation {
                rules: &rules,
                board: &board,
                hand: &hand,
                bar: &[],
            };
            let scored = evaluate(at, &m.placement(), &english, &mut || 1)
                .unwrap_or_else(|e| panic!("{e}: {:?}", m.placement()));
            assert!(
                scored.invalid_words().is_empty(),
                "{:?}",
                scored.invalid_words()
            );
            assert_eq!(scored.total, m.score, "{:?}", m.placement());
            assert_eq!(scored.words.len(), usize::from(m.words));
        }
        if let Some(m) = moves.get(lcg.next(moves.len().max(1))) {
            board = after(&rules, &board, &hand, m, &english);
        }
    }
}

#[test]
fn best_move_equals_the_full_search_on_every_bench_position() {
    let english = english();
    let rules = RuleSet::new(Variant::Classic);
    let trie = trie_of(&english, &rules);
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions.cgp")).unwrap();
    let mut generator = Generator::new(&trie, &rules);
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let mut positions = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let position = rules::notation::Position::parse(line, &rules).unwrap();
        let hand = &position.racks[0];
        generator.generate(&position.board, hand, &mut moves);
        let full = moves.iter().map(|m| m.score).max();
        let best = generator.best(&position.board, hand, &mut scratch);
        assert_eq!(best.map(|m| m.score), full, "{line}");
        assert!(scratch.len() <= moves.len());
        positions += 1;
    }
    assert_eq!(positions, 365);
}

/// A full hand drawn at random from the tile set (letters by their counts, and blanks).
fn random_hand(rules: &RuleSet, lcg: &mut Lcg) -> Vec<HandTile> {
    let bag: Vec<HandTile> = rules
        .tiles
        .letters
        .iter()
        .enumerate()
        .flat_map(|(l, spec)| {
            std::iter::repeat_n(HandTile::Letter(Letter(l as u8)), usize::from(spec.count))
        })
        .chain(std::iter::repeat_n(
            HandTile::Blank,
            usize::from(rules.tiles.blanks),
        ))
        .collect();
    (0..rules.hand_size)
        .map(|_| bag[lcg.next(bag.len())])
        .collect()
}

#[test]
fn best_move_equals_the_full_search_in_every_ruleset_on_real_boards() {
    // The bound counts the bingo only where the rack's letters and the board's make a word (and
    // Alfa Kraft's placement bonus for every tile count): games on the real boards and dictionary, with random full hands (blanks included) and the
    // boards filled by good moves, so bingos through the board's tiles come up.
    let english = english();
    let variants = [
        Variant::Classic,
        Variant::Feud {
            language: Language::English,
            random_board: false,
        },
        Variant::Alfapet {
            hand_size: 8,
            special_tiles: false,
        },
        Variant::Alfapet {
            hand_size: 6,
            special_tiles: false,
        },
        Variant::AlfaKraft {
            language: Language::English,
        },
        Variant::LongWords { hard_mode: false },
    ];
    let (mut checked, mut bingos) = (0, 0);
    for (game, variant) in variants.into_iter().enumerate() {
        let rules = RuleSet::new(variant);
        let trie = trie_of(&english, &rules);
        let mut generator = Generator::new(&trie, &rules);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let mut lcg = Lcg(11 + game as u64);
        let mut board = Board::new(rules.layout, rules.start_premium);
        for _ in 0..24 {
            let hand = random_hand(&rules, &mut lcg);
            generator.generate(&board, &hand, &mut moves);
            let full = moves.iter().map(|m| m.score).max();
            let best = generator.best(&board, &hand, &mut scratch);
            assert_eq!(
                best.map(|m| m.score),
                full,
                "{} with {hand:?} on\n{}",
                rules.name,
                rules::notation::board_to_text(&board, rules.tiles)
            );
            checked += 1;
            let Some(best) = best else { continue };
            bingos += usize::from(best.tile_count() == usize::from(rules.hand_size));
            board = after(&rules, &board, &hand, &best, &english);
        }
    }
    eprintln!("{checked} positions, {bingos} best moves a bingo");
    assert!(
        bingos >= 5,
        "only {bingos} bingos: the test no longer reaches them"
    );
}
