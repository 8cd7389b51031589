//! What the engine's test files share: the committed English dictionary, a trie of a lexicon for
//! a ruleset's tiles, and the two English rulesets the bots are measured in.

#![allow(dead_code)] // each test file uses its own share

use dictionaries::{DictionaryId, FstLexicon};
use engine::Trie;
use rules::{Language, RuleSet, Variant};

/// The English dictionary as committed (`dictionaries/fst/en.fst`).
pub fn english() -> FstLexicon {
    FstLexicon::read(&DictionaryId::English.committed_fst()).unwrap()
}

/// The trie of every word of `lexicon`, over `rules`' tile set.
pub fn trie_of(lexicon: &FstLexicon, rules: &RuleSet) -> Trie {
    Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles)
}

/// Classic and English Alfa Kraft: the rulesets of the self-play matches.
pub const MATCH_VARIANTS: [Variant; 2] = [
    Variant::Classic,
    Variant::AlfaKraft {
        language: Language::English,
    },
];
