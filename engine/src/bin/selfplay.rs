//! Bots against each other: win rates and average scores, and positions for the bench.
//!
//! `selfplay [--games N] [--variant feud|classic|alfakraft|longwords] [--seed S]
//!           [--dump-positions FILE] [--learn-leaves FILE] [--think-ms MS] [LEVEL LEVEL]
//!
//! `--learn-leaves FILE` learns the variant's leave values from `--games` games (see
//! `engine::leaves`) and writes the table; `--think-ms` sets the Master bot's time a move.`
//!
//! With no levels it plays each level against the one below it.

use std::{path::PathBuf, process::ExitCode};

use dictionaries::FstLexicon;
use engine::{selfplay, Level, Trie};
use rules::{Language, RuleSet, Variant};

fn main() -> ExitCode {
    let mut games = 200u32;
    let mut seed = 1u64;
    let mut variant = Variant::Feud {
        language: Language::English,
        random_board: false,
    };
    let mut dump: Option<PathBuf> = None;
    let mut learn: Option<PathBuf> = None;
    let mut think_ms: Option<u64> = None;
    let mut levels = Vec::new();
    let mut fst = dictionaries::DictionaryId::English.committed_fst();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match arg.as_str() {
            "--games" => games = value().parse().unwrap_or(games),
            "--seed" => seed = value().parse().unwrap_or(seed),
            "--fst" => fst = PathBuf::from(value()),
            "--dump-positions" => dump = Some(PathBuf::from(value())),
            "--learn-leaves" => learn = Some(PathBuf::from(value())),
            "--think-ms" => think_ms = value().parse().ok(),
            "--variant" => {
                variant = match value().as_str() {
                    "classic" => Variant::Classic,
                    "alfakraft" => Variant::AlfaKraft {
                        language: Language::English,
                    },
                    "longwords" => Variant::LongWords { hard_mode: false },
                    _ => Variant::Feud {
                        language: Language::English,
                        random_board: false,
                    },
                }
            }
            "--help" | "-h" => {
                eprintln!("usage: selfplay [--games N] [--variant feud|classic|alfakraft|longwords] [--seed S] [--dump-positions FILE] [--fst FILE] [LEVEL LEVEL]");
                return ExitCode::SUCCESS;
            }
            name => match Level::parse(name) {
                Some(level) => levels.push(level),
                None => {
                    eprintln!("unknown level or option: {name} (levels: Beginner, Casual, Club, Expert, Master)");
                    return ExitCode::FAILURE;
                }
            },
        }
    }
    let lexicon = match FstLexicon::read(&fst) {
        Ok(lexicon) => lexicon,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let rules = RuleSet::new(variant);
    let trie = Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);

    if let Some(path) = learn {
        let started = std::time::Instant::now();
        let table = engine::leaves::learn(variant, &trie, &lexicon, u64::from(games), seed);
        if let Err(e) = std::fs::write(&path, table.to_text(rules.tiles)) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!(
            "leave values from {} samples of {games} games in {:.0} s written to {}",
            table.samples,
            started.elapsed().as_secs_f64(),
            path.display()
        );
        return ExitCode::SUCCESS;
    }
    if let Some(ms) = think_ms {
        engine::bot::set_master_budget(std::time::Duration::from_millis(ms));
    }
    if let Some(path) = dump {
        // Positions from games between every pair of levels, every stage of each game.
        let mut lines = Vec::new();
        for g in 0..u64::from(games) {
            let pair = [
                Level::ALL[(g % 4) as usize],
                Level::ALL[((g + 1) % 4) as usize],
                // (Master is left out: its positions are Expert's, slower to make.)
            ];
            lines.extend(selfplay::play_game(variant, pair, &trie, &lexicon, seed + g).positions);
        }
        let text = lines.join("\n") + "\n";
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!(
            "{} positions from {games} games written to {}",
            lines.len(),
            path.display()
        );
        return ExitCode::SUCCESS;
    }

    let pairs: Vec<[Level; 2]> = match levels.as_slice() {
        [a, b] => vec![[*a, *b]],
        [] => Level::ALL.windows(2).map(|w| [w[1], w[0]]).collect(),
        _ => {
            eprintln!("give two levels, or none for the ladder");
            return ExitCode::FAILURE;
        }
    };
    println!("{} games per match, {}", games, rules.name);
    println!(
        "{:<14} {:<10} {:>6} {:>6} {:>5} {:>7} {:>7} {:>6} {:>8} {:>8} {:>9}",
        "level",
        "vs",
        "wins",
        "losses",
        "draws",
        "avg",
        "avg vs",
        "elo+",
        "median",
        "p99",
        "slowest"
    );
    for [a, b] in pairs {
        let r = selfplay::play_match(variant, [a, b], &trie, &lexicon, games, seed);
        let avg = |i: usize| r.points[i] as f64 / f64::from(r.games.max(1));
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{:<14} {:<10} {:>6} {:>6} {:>5} {:>7.1} {:>7.1} {:>+6.0} {:>6.1}ms {:>6.1}ms {:>7.1}ms",
            format!("{} ({})", a.name(), a.rank()),
            b.name(),
            r.wins[0],
            r.wins[1],
            r.draws,
            avg(0),
            avg(1),
            r.elo_difference(),
            ms(r.first_level_time(0.5)),
            ms(r.first_level_time(0.99)),
            ms(r.slowest)
        );
        println!(
            "{{\"level\":\"{}\",\"vs\":\"{}\",\"games\":{},\"win_rate\":{:.3},\"elo_difference\":{:.0},\"avg_score\":{:.1},\"avg_score_vs\":{:.1},\"median_move_ms\":{:.1},\"p99_move_ms\":{:.1},\"slowest_move_ms\":{:.1},\"positions_per_s\":{:.0}}}",
            a.name(),
            b.name(),
            r.games,
            r.first_win_rate(),
            r.elo_difference(),
            avg(0),
            avg(1),
            ms(r.first_level_time(0.5)),
            ms(r.first_level_time(0.99)),
            ms(r.slowest),
            r.turns as f64 / r.elapsed.as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}
