//! Validate + score of typical moves on a mid-game board: what the server does for every commit
//! and the browser for every preview update.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rules::{
    notation::parse_move,
    play::{evaluate, Situation},
    Board, HandTile, Placement, Played, RuleSet, Variant, WordList,
};

fn hand_for(placement: &Placement) -> Vec<HandTile> {
    placement
        .tiles
        .iter()
        .map(|t| match t.tile {
            Played::Letter(l) => HandTile::Letter(l),
            _ => HandTile::Blank,
        })
        .collect()
}

/// A word list of realistic size for the lookups: the few words the plays need among 50,000
/// generated ones.
fn lexicon() -> WordList {
    let mut words: Vec<String> = [
        "horn", "farm", "farms", "paste", "mob", "not", "be", "bit", "pi", "at",
    ]
    .map(String::from)
    .to_vec();
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    while words.len() < 50_000 {
        let len = 2 + (seed % 9) as usize;
        let word: String = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                letters[(seed % 26) as usize] as char
            })
            .collect();
        words.push(word);
    }
    WordList::new(words)
}

fn bench_evaluate(c: &mut Criterion) {
    let rules = RuleSet::new(Variant::Classic);
    let words = lexicon();
    let mut board = Board::new(rules.layout, rules.start_premium);
    // Seed 004's first three turns lay HORN, FARM and PASTE/FARMS.
    for (coordinate, word) in [("8F", "HORN"), ("H6", "FA.M"), ("10F", "PASTE")] {
        let placement = parse_move(&board, rules.tiles, coordinate, word).unwrap();
        let hand = hand_for(&placement);
        let at = Situation {
            rules: &rules,
            board: &board,
            hand: &hand,
            bar: &[],
        };
        board = evaluate(at, &placement, &words, &mut || 1).unwrap().board;
    }
    let mut group = c.benchmark_group("evaluate");
    for (name, coordinate, word) in [
        ("mob_not_be_3_words", "9H", ".OB"),
        ("bit_pi_at_3_words", "11E", "BIT"),
    ] {
        let placement = parse_move(&board, rules.tiles, coordinate, word).unwrap();
        let hand = hand_for(&placement);
        group.bench_function(name, |b| {
            b.iter(|| {
                let at = Situation {
                    rules: &rules,
                    board: &board,
                    hand: &hand,
                    bar: &[],
                };
                black_box(
                    evaluate(at, black_box(&placement), &words, &mut || 1)
                        .unwrap()
                        .total,
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_evaluate);
criterion_main!(benches);
