//! Dictionaries as the rules see them: a set of lower-case words that can also be walked byte by
//! byte, which is what a move generator needs.

/// A word list. Words are lower case, in the dictionaries' UTF-8 spelling.
///
/// The walk (`root`, `step`, `is_word`) follows a word's bytes from the empty prefix; a node stands
/// for a prefix that at least one word has.
pub trait Lexicon {
    /// A prefix reached by the walk.
    type Node: Copy;

    /// The empty prefix.
    fn root(&self) -> Self::Node;

    /// The prefix one byte longer, if any word starts with it.
    fn step(&self, node: Self::Node, byte: u8) -> Option<Self::Node>;

    /// Whether the prefix is itself a word.
    fn is_word(&self, node: Self::Node) -> bool;

    /// Whether `word` is in the list.
    fn contains(&self, word: &str) -> bool {
        let mut node = self.root();
        for &byte in word.as_bytes() {
            match self.step(node, byte) {
                Some(next) => node = next,
                None => return false,
            }
        }
        self.is_word(node)
    }
}

/// Accepts every word. For re-scoring plays already known to be valid (a move generator's), and
/// for tests that exercise placement rules without a dictionary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AcceptAll;

impl Lexicon for AcceptAll {
    type Node = ();

    fn root(&self) {}

    fn step(&self, _: (), _: u8) -> Option<()> {
        Some(())
    }

    fn is_word(&self, _: ()) -> bool {
        true
    }
}

/// A small in-memory word list: tests, examples, and anywhere a few words will do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WordList {
    /// Sorted, unique, lower case.
    words: Vec<String>,
}

impl WordList {
    /// A list of these words (any case; stored lower case, sorted, without duplicates).
    pub fn new<I, S>(words: I) -> WordList
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut words: Vec<String> = words
            .into_iter()
            .map(|w| crate::case::lower_str(w.as_ref()))
            .collect();
        words.sort_unstable();
        words.dedup();
        WordList { words }
    }

    /// How many words the list holds.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the list holds no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// A node of [`WordList`]'s walk: the words `lo..hi` share the first `depth` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordListNode {
    lo: u32,
    hi: u32,
    depth: u32,
}

impl Lexicon for WordList {
    type Node = WordListNode;

    fn root(&self) -> WordListNode {
        WordListNode {
            lo: 0,
            hi: self.words.len() as u32,
            depth: 0,
        }
    }

    fn step(&self, node: WordListNode, byte: u8) -> Option<WordListNode> {
        let range = &self.words[node.lo as usize..node.hi as usize];
        let depth = node.depth as usize;
        // Within the range every word shares `depth` bytes, so the byte at `depth` is sorted
        // (a word that ends at `depth` sorts first, as None).
        let key = |w: &String| w.as_bytes().get(depth).copied();
        let lo = range.partition_point(|w| key(w) < Some(byte));
        let hi = range.partition_point(|w| key(w) <= Some(byte));
        (lo < hi).then(|| WordListNode {
            lo: node.lo + lo as u32,
            hi: node.lo + hi as u32,
            depth: node.depth + 1,
        })
    }

    fn is_word(&self, node: WordListNode) -> bool {
        node.lo < node.hi && self.words[node.lo as usize].len() == node.depth as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contains_exactly_its_words() {
        let list = WordList::new(["Horn", "farm", "farms", "bilarnas", "år"]);
        for word in ["horn", "farm", "farms", "bilarnas", "år"] {
            assert!(list.contains(word), "{word}");
        }
        for word in ["hor", "far", "farmss", "", "a", "ä"] {
            assert!(!list.contains(word), "{word}");
        }
    }

    #[test]
    fn the_walk_reaches_every_prefix_and_no_other() {
        let list = WordList::new(["ab", "abc", "b"]);
        let a = list.step(list.root(), b'a').unwrap();
        assert!(!list.is_word(a));
        let ab = list.step(a, b'b').unwrap();
        assert!(list.is_word(ab));
        assert!(list.step(ab, b'c').is_some_and(|n| list.is_word(n)));
        assert!(list.step(ab, b'd').is_none());
        assert!(list.step(list.root(), b'c').is_none());
    }
}
