//! The Master bot's think time a move, natively, on the positions of self-played games (Classic
//! games between the Club and Expert bots: the view of the player to move before each turn); `--write FILE` also writes the positions for `scripts/bot-bench.mjs`, which times the
//! same bot on the same positions through the browser's wasm module, as a game played on the
//! device runs it, and compares its moves with the ones played here.
//!
//! `bot-bench [--seed S] [--games N] [--write FILE]`

use std::time::{Duration, Instant};

use clap::Parser;

use dictionaries::FstLexicon;
use engine::{selfplay::play_game, Bot, Level, Trie};
use rules::{GameState, RuleSet, Status, Variant};

/// The Master bot's time a move natively.
#[derive(Parser)]
struct Args {
    /// The first self-played game's seed (the others follow it).
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// How many games' positions.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Also writes the positions to FILE, for `scripts/bot-bench.mjs`.
    #[arg(long, value_name = "FILE")]
    write: Option<String>,
}

fn main() {
    let Args { seed, games, write } = Args::parse();
    let lexicon = FstLexicon::read(&dictionaries::DictionaryId::English.committed_fst())
        .expect("the English dictionary");
    let variant = Variant::Classic;
    let rules = RuleSet::new(variant);
    let trie = Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);
    // The view of the player to move at the start of each turn of each game.
    let mut views = Vec::new();
    for game_seed in seed..seed + games {
        let game = play_game(
            variant,
            [Level::Club, Level::Expert],
            &trie,
            &lexicon,
            game_seed,
        );
        let (config, actions) = game.log;
        let mut state = GameState::new(config);
        views.push(state.view(state.to_move()));
        for action in &actions {
            let before = state.to_move();
            state.apply(action, &lexicon).expect("the game replays");
            if *state.status() == Status::Playing && state.to_move() != before {
                views.push(state.view(state.to_move()));
            }
        }
    }
    let (mut times, turns): (Vec<Duration>, Vec<_>) = views
        .iter()
        .enumerate()
        .map(|(i, view)| {
            let started = Instant::now();
            let turn = Bot::new(Level::Master, &trie, &rules, seed ^ i as u64).decide_turn(view);
            (started.elapsed(), turn)
        })
        .unzip();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "native: the Master on {} positions: median {:.0} ms, slowest {:.0} ms a move",
        times.len(),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1]),
    );
    if let Some(path) = write {
        let input = serde_json::json!({
            "variant": variant, "seed": seed, "views": views, "turns": turns,
        });
        std::fs::write(&path, input.to_string()).expect("the positions file");
        println!("positions written to {path}");
    }
}
