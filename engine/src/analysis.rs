//! Post-game analysis: for each of a player's turns, the engine's best moves for the rack they
//! held on the board they faced, beside what they played.
//!
//! The same code runs on the server and, compiled to wasm, in the player's browser (a Web Worker
//! fed by the server with [`Turn`]s): either gives the same [`TurnAnalysis`].

pub use rules::analysis::{summarise, turns_of, Candidate, Summary, Turn, TurnAnalysis, TOP};
use rules::{notation::play_notation, RuleSet};

use crate::{bot::leave_value, leaves::leave, movegen::Move, Generator, Trie};

/// Analyses turns of one game's ruleset and dictionary.
pub struct Analyser<'a> {
    rules: &'a RuleSet,
    generator: Generator<'a>,
    moves: Vec<Move>,
}

impl<'a> Analyser<'a> {
    /// An analyser for `rules` with the words of `trie`.
    pub fn new(trie: &'a Trie, rules: &'a RuleSet) -> Analyser<'a> {
        Analyser {
            rules,
            generator: Generator::new(trie, rules),
            moves: Vec::new(),
        }
    }

    /// The engine's best moves for the turn, and what the player left on the table.
    pub fn turn(&mut self, turn: &Turn) -> TurnAnalysis {
        self.generator
            .generate(&turn.board, &turn.rack, &mut self.moves);
        // Highest score first; among equals the better leave, then the notation, so that every
        // run (and the browser's) lists the same five.
        let mut best: Vec<Candidate> = Vec::with_capacity(TOP + 1);
        let mut seen: Vec<Vec<rules::NewTile>> = Vec::new();
        self.moves
            .sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
        for m in &self.moves {
            if let Some(last) = best.get(TOP - 1) {
                if m.score < last.score {
                    break;
                }
            }
            // A one-tile move is found across and down: the same move.
            let mut placed: Vec<rules::NewTile> = m.tiles().collect();
            placed.sort_by_key(|t| t.pos);
            if seen.contains(&placed) {
                continue;
            }
            seen.push(placed);
            best.push(self.candidate(turn, m));
        }
        best.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then(b.equity_tenths.cmp(&a.equity_tenths))
                .then_with(|| a.notation.cmp(&b.notation))
        });
        best.truncate(TOP);
        let missed = best.first().map_or(0, |b| (b.score - turn.score).max(0));
        TurnAnalysis {
            turn: turn.turn,
            seat: turn.seat,
            played: turn.played.clone(),
            score: turn.score,
            best,
            missed,
        }
    }

    fn candidate(&self, turn: &Turn, m: &Move) -> Candidate {
        let placed: Vec<rules::NewTile> = m.tiles().collect();
        let kept = leave(&turn.rack, m);
        let equity = f64::from(m.score) + leave_value(self.rules, &kept);
        Candidate {
            notation: play_notation(&turn.board, &placed, self.rules.tiles),
            score: m.score,
            equity_tenths: (equity * 10.0).round() as i32,
        }
    }
}
