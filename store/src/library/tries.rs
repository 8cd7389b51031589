//! The engine's tries, shared by the bots and the Daily Challenge worker: one per dictionary
//! version and tile set, built on first use and let go when unused.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use dictionaries::{DictionaryRef, FstLexicon};
use engine::trie::Trie;
use rules::RuleSet;

/// How long a trie no bot has used stays in memory: a version that only finished games used, or
/// one a publish replaced, is let go; a game still on it builds it again on its next bot turn.
const TRIE_IDLE: Duration = Duration::from_secs(600);

/// Tries by (dictionary version, tile set): built on the first bot turn that needs one. A
/// version is immutable, so a trie never goes stale; it is dropped after [`TRIE_IDLE`] unused.
#[derive(Default)]
pub struct Tries(Mutex<HashMap<TrieKey, (Arc<Trie>, Instant)>>);

/// A dictionary version and a tile set's id.
type TrieKey = (DictionaryRef, &'static str);

impl Tries {
    /// The trie of `dictionary` (a version reference) for `rules`' tile set, built on first use.
    pub fn get(
        &self,
        dictionary: &str,
        lexicon: &FstLexicon,
        rules: &RuleSet,
    ) -> Option<Arc<Trie>> {
        let key = (DictionaryRef::parse(dictionary)?, rules.tiles.id);
        if let Some((trie, used)) = self.0.lock().ok()?.get_mut(&key) {
            *used = Instant::now();
            return Some(trie.clone());
        }
        let words = lexicon.words();
        let trie = Arc::new(Trie::new(words.iter().map(String::as_str), rules.tiles));
        self.0
            .lock()
            .ok()?
            .insert(key, (trie.clone(), Instant::now()));
        Some(trie)
    }

    /// Lets go of the tries unused for a while.
    pub fn sweep(&self) {
        if let Ok(mut tries) = self.0.lock() {
            tries.retain(|_, (_, used)| used.elapsed() < TRIE_IDLE);
        }
    }
}
