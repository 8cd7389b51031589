//! The engine's post-game analysis in the browser. A Web Worker (`public/analysis-worker.js`)
//! loads this module only when a player opens analysis, builds the trie of the game's dictionary
//! once, and analyses the player's turns one at a time, so it can report progress between them.
//! The game page's own bundle never contains the engine.
#![deny(missing_docs)]

use dictionaries::FstLexicon;
use engine::{analysis::Analyser, Trie};
use rules::{
    analysis::{Turn, TurnAnalysis},
    RuleSet, Variant,
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
        let variant: Variant = serde_json::from_str(variant)?;
        let rules = RuleSet::new(variant);
        let lexicon = FstLexicon::from_bytes(fst)?;
        let words = lexicon.words();
        let trie = Trie::new(words.iter().map(String::as_str), rules.tiles);
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
