//! The engine in the browser, in a Web Worker that loads this module only when it is needed: the
//! post-game analysis (`public/analysis-worker.js`, when a player opens analysis: it builds the
//! trie of the game's dictionary once and analyses the player's turns one at a time, so it can
//! report progress between them), and the bots of games played on the device
//! (`public/bot-worker.js`). The pages' bundles never contain the engine.
#![deny(missing_docs)]

use dictionaries::FstLexicon;
use engine::{analysis::Analyser, Bot, Level, Trie};
use rules::{
    analysis::{Turn, TurnAnalysis},
    PlayerView, RuleSet, Variant,
};
use wasm_bindgen::prelude::*;

/// One game's ruleset and words, ready to analyse its turns, and the turns analysed so far.
#[wasm_bindgen]
pub struct Analysis {
    rules: RuleSet,
    trie: Trie,
    done: Vec<TurnAnalysis>,
}

#[wasm_bindgen]
impl Analysis {
    /// The analysis of a game of `variant` (JSON, as the server sends it) with the dictionary
    /// whose FST bytes are `fst`.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str, fst: Vec<u8>) -> Result<Analysis, JsError> {
        let (rules, trie) = words_of(serde_json::from_str(variant)?, fst)?;
        Ok(Analysis {
            rules,
            trie,
            done: Vec::new(),
        })
    }

    /// Analyses one turn (JSON, as the server sends it).
    pub fn turn(&mut self, turn: &str) -> Result<(), JsError> {
        let turn: Turn = serde_json::from_str(turn)?;
        let analysed = Analyser::new(&self.trie, &self.rules).turn(&turn);
        self.done.push(analysed);
        Ok(())
    }

    /// The turns analysed so far, in postcard: the game page reads it as it reads the server's
    /// answers (its bundle has no JSON reader).
    pub fn results(&self) -> Result<Vec<u8>, JsError> {
        Ok(postcard::to_allocvec(&self.done)?)
    }
}

/// A game's ruleset and the trie of the dictionary whose FST bytes are `fst`.
fn words_of(variant: Variant, fst: Vec<u8>) -> Result<(RuleSet, Trie), JsError> {
    let rules = RuleSet::new(variant);
    let lexicon = FstLexicon::from_bytes(fst)?;
    let words = lexicon.words();
    let trie = Trie::new(words.iter().map(String::as_str), rules.tiles);
    Ok((rules, trie))
}

/// The bots of one ruleset and dictionary, for games played on the device: the same bots, at the
/// same five levels, as the server's.
#[wasm_bindgen]
pub struct Bots {
    rules: RuleSet,
    trie: Trie,
}

#[wasm_bindgen]
impl Bots {
    /// The bots of a game of `variant` (JSON) with the dictionary whose FST bytes are `fst`.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str, fst: Vec<u8>) -> Result<Bots, JsError> {
        let (rules, trie) = words_of(serde_json::from_str(variant)?, fst)?;
        Ok(Bots { rules, trie })
    }

    /// [`Bots::new`] with `variant` in postcard, as the pages write it (their bundle has no JSON
    /// writer).
    pub fn of_postcard(variant: &[u8], fst: Vec<u8>) -> Result<Bots, JsError> {
        let (rules, trie) = words_of(postcard::from_bytes(variant)?, fst)?;
        Ok(Bots { rules, trie })
    }

    /// [`Bots::turn`] in postcard, both ways, for the pages.
    pub fn play(&self, level: &str, seed: u64, view: &[u8]) -> Result<Vec<u8>, JsError> {
        let level = Level::parse(level).ok_or_else(|| JsError::new("no such bot level"))?;
        let view: PlayerView = postcard::from_bytes(view)?;
        let actions = Bot::new(level, &self.trie, &self.rules, seed).decide_turn(&view);
        Ok(postcard::to_allocvec(&actions)?)
    }

    /// The turn the bot of `level` (its name: `Beginner` … `Master`) plays from `view` (the
    /// seat's `PlayerView`, JSON), its randomness drawn from `seed`: its actions, as JSON.
    pub fn turn(&self, level: &str, seed: u64, view: &str) -> Result<String, JsError> {
        let level = Level::parse(level).ok_or_else(|| JsError::new("no such bot level"))?;
        let view: PlayerView = serde_json::from_str(view)?;
        let actions = Bot::new(level, &self.trie, &self.rules, seed).decide_turn(&view);
        Ok(serde_json::to_string(&actions)?)
    }
}
