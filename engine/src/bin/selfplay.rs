//! Bots against each other: win rates and average scores, and positions for the bench.
//!
//! `selfplay [--games N] [--variant feud|classic|alfakraft|longwords] [--seed S]
//!           [--dump-positions FILE] [--learn-leaves FILE [--synergy]] [--think-ms MS]
//!           [LEVEL LEVEL]`
//! (`--help` says what each does). With no levels it plays each level against the one below it.

use std::{path::PathBuf, process::ExitCode};

use clap::Parser;

use dictionaries::FstLexicon;
use engine::{
    selfplay::{self, Player},
    Level, Trie,
};
use rules::{Language, RuleSet, Variant};

/// The ruleset a match is played in.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Ruleset {
    Feud,
    Classic,
    Alfakraft,
    Longwords,
}

impl Ruleset {
    fn variant(self) -> Variant {
        match self {
            Ruleset::Classic => Variant::Classic,
            Ruleset::Alfakraft => Variant::AlfaKraft {
                language: Language::English,
            },
            Ruleset::Longwords => Variant::LongWords { hard_mode: false },
            Ruleset::Feud => Variant::Feud {
                language: Language::English,
                random_board: false,
            },
        }
    }
}

/// Bots against each other: win rates and average scores, and positions for the bench.
#[derive(Parser)]
struct Args {
    /// Games per match.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// The first game's seed; game `g` gets seed + g.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The ruleset, in English.
    #[arg(long, value_enum, default_value = "feud")]
    variant: Ruleset,
    /// The word list (an FST); the committed English one by default.
    #[arg(long)]
    fst: Option<PathBuf>,
    /// Writes positions from games between every pair of levels to FILE, for engine-bench.
    #[arg(long = "dump-positions", value_name = "FILE")]
    dump: Option<PathBuf>,
    /// Learns the ruleset's leave values from `--games` games and writes the table to FILE.
    #[arg(long = "learn-leaves", value_name = "FILE")]
    learn: Option<PathBuf>,
    /// With `--learn-leaves`: a value per pair of tiles kept too (the Expert's table).
    #[arg(long)]
    synergy: bool,
    /// Instead of a match: searches this many endgames (from the moment the bag empties in
    /// games of two Club bots, seeds from `--seed`) within the Master's time a move, and prints
    /// the search's time, depth and whether it was exact; with two levels, plays each endgame
    /// out between them both ways and prints what the first gains.
    #[arg(long, value_name = "N")]
    endgames: Option<u64>,
    /// With `--endgames` and two levels: play from when the bag holds this many tiles (a
    /// pre-endgame) instead of none.
    #[arg(long, default_value_t = 0)]
    bag: usize,
    /// The Master bot's time a move, in ms.
    #[arg(long = "think-ms")]
    think_ms: Option<u64>,
    /// Two levels to match (Beginner, Casual, Club, Expert, Master; `<level>-before` for the
    /// level as it played before its learned leaves and endgame search, Yardstick for the Expert
    /// before its leaves were learned); none plays each level against the one below it.
    #[arg(value_parser = parse_level)]
    levels: Vec<Player>,
}

fn parse_level(name: &str) -> Result<Player, String> {
    Player::parse(name).ok_or_else(|| {
        format!(
            "no level {name} (Beginner, Casual, Club, Expert, Master, <level>-before, Yardstick)"
        )
    })
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (games, seed, variant) = (args.games, args.seed, args.variant.variant());
    let (dump, learn, think_ms, levels) = (args.dump, args.learn, args.think_ms, args.levels);
    let fst = args
        .fst
        .unwrap_or_else(|| dictionaries::DictionaryId::English.committed_fst());
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
        let table = engine::leaves::learn(
            variant,
            &trie,
            &lexicon,
            u64::from(games),
            seed,
            args.synergy,
        );
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
    if let Some(count) = args.endgames {
        return match levels.as_slice() {
            [] => search_endgames(variant, &trie, &lexicon, count, seed),
            [a, b] => endgame_duel(variant, [*a, *b], &trie, &lexicon, (count, args.bag), seed),
            _ => {
                eprintln!("give two levels to play the endgames out, or none to search them");
                ExitCode::FAILURE
            }
        };
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

    let pairs: Vec<[Player; 2]> = match levels.as_slice() {
        [a, b] => vec![[*a, *b]],
        [] => Level::ALL
            .windows(2)
            .map(|w| [w[1].into(), w[0].into()])
            .collect(),
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
            format!("{} ({})", a.name(), a.level.rank()),
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

/// Searches `count` endgames of `variant` within the Master's budget: one line each, then the
/// median and slowest time and how many were exact.
fn search_endgames(
    variant: Variant,
    trie: &Trie,
    lexicon: &FstLexicon,
    count: u64,
    seed: u64,
) -> ExitCode {
    let rules = RuleSet::new(variant);
    let mut generator = engine::Generator::new(trie, &rules);
    let (mut times, mut exact) = (Vec::new(), 0);
    let mut game = seed;
    while (times.len() as u64) < count {
        game += 1;
        let Some(state) = selfplay::endgame(variant, trie, lexicon, game, 0, 2 * 7) else {
            continue;
        };
        let seat = state.to_move();
        let view = state.view(seat);
        let theirs = state.view(1 - seat).hand;
        let started = web_time::Instant::now();
        let clock = engine::endgame::Clock {
            deadline: started + engine::bot::master_budget(),
            pause: None,
        };
        let Some(solved) = engine::endgame::solve(
            &mut generator,
            &rules,
            &view.board,
            &view.hand,
            &theirs,
            clock,
        ) else {
            continue;
        };
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!(
            "game {game}: {} against {} tiles, {ms:.1} ms, depth {}, {} positions, spread {:+}{}",
            view.hand.len(),
            theirs.len(),
            solved.depth,
            solved.nodes,
            solved.spread,
            if solved.exact { ", exact" } else { "" }
        );
        exact += usize::from(solved.exact);
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} endgames: median {:.1} ms, slowest {:.1} ms, exact {exact}",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    ExitCode::SUCCESS
}

/// Plays `count` endgames of `variant` (from when the bag holds `bag` tiles) out between
/// `players`, each both ways (the first in the
/// seat to move, then in the other): the first's average spread gain over the second and how
/// many games the two ways end differently.
fn endgame_duel(
    variant: Variant,
    players: [Player; 2],
    trie: &Trie,
    lexicon: &FstLexicon,
    (count, bag): (u64, usize),
    seed: u64,
) -> ExitCode {
    let (mut played, mut gain, mut turned, mut refused) = (0u64, 0i64, [0u32; 2], 0u32);
    let mut game = seed;
    while played < count {
        game += 1;
        let Some(state) = selfplay::endgame(variant, trie, lexicon, game, bag, 2 * 7) else {
            continue;
        };
        let mover = usize::from(state.to_move());
        // The spread for the seat to move, with the first player there, then the second.
        let spreads: Vec<Option<i32>> = [players, [players[1], players[0]]]
            .into_iter()
            .map(|[at_move, other]| {
                let seats = match mover {
                    0 => [at_move, other],
                    _ => [other, at_move],
                };
                let finals = selfplay::play_out(state.clone(), seats, trie, lexicon, game)?;
                Some(finals[mover] - finals[1 - mover])
            })
            .collect();
        let [Some(first), Some(second)] = spreads[..] else {
            refused += 1;
            continue;
        };
        // The first's gain: seated to move it made `first`; the second there made `second`,
        // and the other way round the first faced the same position from the other seat.
        gain += i64::from(first - second);
        let wins = |spread: i32| spread > 0;
        if wins(first) != wins(second) {
            turned[usize::from(wins(second))] += 1;
        }
        played += 1;
        println!(
            "game {game}: to move, {} {first:+}, {} {second:+}",
            players[0].name(),
            players[1].name()
        );
    }
    println!(
        "{played} endgames both ways: {} gains {:+.2} points a game on {}; it wins {} games the other loses, and loses {} the other wins; {refused} refused",
        players[0].name(),
        gain as f64 / (2 * played) as f64,
        players[1].name(),
        turned[0],
        turned[1]
    );
    ExitCode::SUCCESS
}
