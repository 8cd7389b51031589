//! Move-generation speed on a file of positions, against the crates.io `scrabble` crate on the same
//! positions and word list.
//!
//! `engine-bench [--positions FILE] [--fst FILE] [--runs N] [--quiet]` (`--help` says more)
//!
//! A position line is CGP-like: rows separated by `/`, digits for runs of empty cells, upper case
//! for tiles, lower case for blanks, then the rack (`?` a blank). Positions use the Classic board
//! and tile values, which are the `scrabble` crate's standard ones. Prints one line per position,
//! then a JSON summary line.

use std::{path::PathBuf, process::ExitCode, time::Instant};

use clap::Parser;

use dictionaries::FstLexicon;
use engine::{selfplay, Generator, Level, Trie};
use rules::{notation::Position, Board, RuleSet, Square, Variant};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    v[v.len() / 2]
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// The board in the `scrabble` crate's text form: a row per line, `.` for empty.
fn scrabble_board_text(board: &Board, rules: &RuleSet) -> String {
    let mut out = String::new();
    for row in 0..board.height() {
        for col in 0..board.width() {
            match board.square(rules::Pos::new(row, col)) {
                Square::Tile(t) if t.kind == rules::board::TileKind::Blank => {
                    out.extend(rules.tiles.char_of(t.letter).to_lowercase())
                }
                Square::Tile(t) => out.push(rules.tiles.char_of(t.letter)),
                _ => out.push('.'),
            }
        }
        out.push('\n');
    }
    out
}

/// Times `f` `runs` times and returns the median in microseconds.
fn time_us(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(&mut samples)
}

/// Times generating `hand`'s moves on `board` right after an untimed call on `before`, `runs`
/// times, and returns the median in microseconds.
fn time_after(
    runs: usize,
    generator: &mut Generator,
    before: &Board,
    board: &Board,
    hand: &[rules::HandTile],
) -> f64 {
    let mut moves = Vec::new();
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            generator.generate(before, hand, &mut moves);
            let t = Instant::now();
            generator.generate(board, hand, &mut moves);
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(&mut samples)
}

/// Move-generation speed on a file of positions, against the `scrabble` crate.
#[derive(Parser)]
struct Args {
    /// The positions, one CGP-like line each.
    #[arg(long = "positions", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/positions.cgp"))]
    positions_path: PathBuf,
    /// The word list (an FST); the committed English one by default.
    #[arg(long)]
    fst: Option<PathBuf>,
    /// Timed runs per position; each figure is their median.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Only the JSON summary, no line per position.
    #[arg(long)]
    quiet: bool,
}

fn main() -> ExitCode {
    let Args {
        positions_path,
        fst,
        runs,
        quiet,
    } = Args::parse();
    let fst = fst.unwrap_or_else(|| dictionaries::DictionaryId::English.committed_fst());
    let runs = runs as usize;
    let lexicon = match FstLexicon::read(&fst) {
        Ok(lexicon) => lexicon,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let text = match std::fs::read_to_string(&positions_path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", positions_path.display());
            return ExitCode::FAILURE;
        }
    };
    let rules = RuleSet::new(Variant::Classic);
    let words = lexicon.words();
    let started = Instant::now();
    let trie = Trie::new(words.iter().map(String::as_str), rules.tiles);
    let trie_ms = started.elapsed().as_secs_f64() * 1e3;

    let config = scrabble::rules::GameConfig::standard();
    let started = Instant::now();
    let their_lexicon = match scrabble::lexicon::Lexicon::from_words(
        &config.alphabet,
        words.iter().map(|w| w.to_uppercase()),
    ) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("scrabble lexicon: {e:?}");
            return ExitCode::FAILURE;
        }
    };
    let their_build_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut their_generator = scrabble::movegen::MoveGenerator::new(&config);

    let mut generator = Generator::new(&trie, &rules);
    let mut moves = Vec::new();
    let (mut all_us, mut best_us, mut their_us) = (Vec::new(), Vec::new(), Vec::new());
    let (mut moves_total, mut mismatches, mut positions) = (0usize, 0usize, 0usize);
    // A one-tile rack: the analysis of the board (cross-checks, anchors) is most of the work.
    let (mut one_fresh_us, mut one_after_move_us, mut one_same_us) =
        (Vec::new(), Vec::new(), Vec::new());
    let empty = Board::new(rules.layout, rules.start_premium);
    let mut previous = empty.clone();
    let mut worst: Vec<(f64, f64, usize, String)> = Vec::new();
    if !quiet {
        println!(
            "{:>4} {:>7} {:>7} {:>9} {:>9} {:>9} {:>7}  rack",
            "#", "moves", "theirs", "all_us", "best_us", "their_us", "agree"
        );
    }
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let position = match Position::parse(line, &rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("skipping a malformed position ({e}): {line}");
                continue;
            }
        };
        let hand = position.racks.first().cloned().unwrap_or_default();
        let all = time_us(runs, || {
            generator.generate(&position.board, &hand, &mut moves)
        });
        let count = moves.len();
        let best = time_us(runs, || {
            let _ = generator.best(&position.board, &hand, &mut moves);
        });
        let one_tile = &hand[..hand.len().min(1)];
        // Fresh: the generator last saw an empty board, so it reads this one whole.
        one_fresh_us.push(time_after(
            runs,
            &mut generator,
            &empty,
            &position.board,
            one_tile,
        ));
        // After a move: it last saw the previous position (the file's positions follow games),
        // so it reads only the lines that changed.
        one_after_move_us.push(time_after(
            runs,
            &mut generator,
            &previous,
            &position.board,
            one_tile,
        ));
        one_same_us.push(time_us(runs, || {
            generator.generate(&position.board, one_tile, &mut moves)
        }));
        previous = position.board.clone();
        let board = match scrabble::board::Board::parse(
            &config.layout,
            &config.alphabet,
            &scrabble_board_text(&position.board, &rules),
        ) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("scrabble board: {e:?}");
                return ExitCode::FAILURE;
            }
        };
        let rack_text: String = hand
            .iter()
            .map(|t| match t {
                rules::HandTile::Letter(l) => rules.tiles.char_of(*l),
                _ => '?',
            })
            .collect();
        let Ok(rack) = scrabble::rack::Rack::parse(&config.alphabet, &rack_text) else {
            eprintln!("scrabble rack: {rack_text}");
            return ExitCode::FAILURE;
        };
        let mut their_count = 0;
        let theirs = time_us(runs, || {
            their_count = their_generator
                .generate(&board, &rack, &their_lexicon)
                .len()
        });
        positions += 1;
        moves_total += count;
        if count != their_count {
            mismatches += 1;
        }
        all_us.push(all);
        best_us.push(best);
        worst.push((best, all, positions, line.to_string()));
        their_us.push(theirs);
        if !quiet {
            println!(
                "{positions:>4} {count:>7} {their_count:>7} {all:>9.1} {best:>9.1} {theirs:>9.1} {:>7}  {rack_text}",
                if count == their_count { "yes" } else { "NO" }
            );
        }
    }

    // Self-play throughput: club bots (full generation every move) on Classic.
    let started = Instant::now();
    let mut turns = 0u64;
    for seed in 0..10 {
        turns += u64::from(
            selfplay::play_game(
                Variant::Classic,
                [Level::Club, Level::Club],
                &trie,
                &lexicon,
                seed,
            )
            .turns,
        );
    }
    let selfplay_rate = turns as f64 / started.elapsed().as_secs_f64();

    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (best, all, n, line) in worst.iter().take(5) {
        eprintln!("slowest best move: #{n} {best:.1} us (all moves {all:.1} us): {line}");
    }
    println!(
        "{{\"one_tile_fresh_median_us\":{:.1},\"one_tile_after_move_median_us\":{:.1},\"one_tile_same_board_median_us\":{:.1}}}",
        median(&mut one_fresh_us),
        median(&mut one_after_move_us),
        median(&mut one_same_us),
    );
    println!(
        "{{\"positions\":{positions},\"moves_total\":{moves_total},\"all_moves_median_us\":{:.1},\"all_moves_p95_us\":{:.1},\"best_move_median_us\":{:.1},\"best_move_p95_us\":{:.1},\"selfplay_positions_per_s\":{:.0},\"scrabble_crate_all_moves_median_us\":{:.1},\"scrabble_crate_all_moves_p95_us\":{:.1},\"move_count_mismatches\":{mismatches},\"trie_build_ms\":{trie_ms:.0},\"scrabble_crate_lexicon_build_ms\":{their_build_ms:.0}}}",
        median(&mut all_us.clone()),
        percentile(&mut all_us, 0.95),
        median(&mut best_us.clone()),
        percentile(&mut best_us, 0.95),
        selfplay_rate,
        median(&mut their_us.clone()),
        percentile(&mut their_us, 0.95),
    );
    ExitCode::SUCCESS
}
