//! The time to analyse a whole game: a Classic game between the Club and Expert bots (both
//! players' turns, as a pass-and-play player would have them analysed), analysed natively here;
//! `--write FILE` also writes the turns for `scripts/analysis-bench.mjs`, which times the same
//! turns through the browser's wasm module.
//!
//! `analysis-bench [--seed S] [--write FILE]`

use std::time::{Duration, Instant};

use clap::Parser;

use dictionaries::FstLexicon;
use engine::{analysis::Analyser, selfplay::play_game, Level, Trie};
use rules::{analysis::turns_of, RuleSet, Variant};

/// The time to analyse a whole game natively.
#[derive(Parser)]
struct Args {
    /// The self-played game's seed.
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// Also writes the game's turns to FILE, for `scripts/analysis-bench.mjs`.
    #[arg(long, value_name = "FILE")]
    write: Option<String>,
}

fn main() {
    let Args { seed, write } = Args::parse();
    let lexicon = FstLexicon::read(&dictionaries::DictionaryId::English.committed_fst())
        .expect("the English dictionary");
    let variant = Variant::Classic;
    let rules = RuleSet::new(variant);
    let started = Instant::now();
    let trie = Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);
    let trie_time = started.elapsed();
    let game = play_game(variant, [Level::Club, Level::Expert], &trie, &lexicon, seed);
    let (config, actions) = &game.log;
    let turns = turns_of(config.clone(), actions, &[0, 1], &lexicon).expect("the game replays");
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        let mut analyser = Analyser::new(&trie, &rules);
        for turn in &turns {
            std::hint::black_box(analyser.turn(turn));
        }
        best = best.min(started.elapsed());
    }
    println!(
        "native: {} turns analysed in {:.1} ms (best of 5; {:.2} ms a turn); the trie built in {:.0} ms",
        turns.len(),
        best.as_secs_f64() * 1000.0,
        best.as_secs_f64() * 1000.0 / turns.len() as f64,
        trie_time.as_secs_f64() * 1000.0
    );
    if let Some(path) = write {
        let input = serde_json::json!({ "variant": variant, "turns": turns });
        std::fs::write(&path, input.to_string()).expect("the turns file");
        println!("turns written to {path}");
    }
}
