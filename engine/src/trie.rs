//! The word list as a letter trie laid out breadth-first in two flat arrays: a node's children sit
//! side by side, so stepping by a letter is one bit test and one popcount, with no search.

use rules::{Letter, TileSet};

/// Bit 31 of a node's mask: the path to it spells a word. Alphabets have at most 31 letters.
const TERMINAL: u32 = 1 << 31;

/// A node: an index into [`Trie`]'s arrays. The root is 0.
pub type Node = u32;

/// A trie over a tile set's letters, built once per dictionary and shared by every search.
#[derive(Debug, Clone)]
pub struct Trie {
    /// Per node, side by side so one cache line serves a step: the mask (bit `l` set when a child
    /// with letter `l` exists; [`TERMINAL`] when a word ends) and the index of its first child
    /// (children are contiguous, in letter order).
    nodes: Vec<[u32; 2]>,
    /// The same for every word spelled backwards: which letters may go before a run of tiles.
    reversed: Vec<[u32; 2]>,
    /// The letters of every word, each word's as the sum of its letters' keys, in a blocked
    /// Bloom filter: a key sets four bits of one 64-bit word, with 32 to 64 bits per word of
    /// the list, so a set of letters that no word has passes for one about once in several
    /// thousand asks (never the other way round), and an ask reads one word of memory. The
    /// best-move search asks it whether some of a rack's tiles, with the board's letters a move
    /// would run through, can make a word at all before it searches there, and whether a whole
    /// hand can (the bingo): 2 MiB for the English list.
    spellable: Vec<u64>,
    /// How far a key is shifted down to give its word of `spellable`.
    spellable_shift: u32,
    /// Each letter's part of a key.
    letter_keys: [u64; 32],
}

/// Bits of the filter of words' letters, per word of the list (at least).
const SPELLABLE_BITS_PER_WORD: usize = 32;

impl Trie {
    /// Builds the trie of `words` (lower case, any order), keeping those spelled entirely in the
    /// tile set's letters.
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>, tiles: &TileSet) -> Trie {
        let mut spelled: Vec<Vec<u8>> = words
            .into_iter()
            .filter_map(|w| tiles.parse_word(w).ok())
            .map(|letters| letters.into_iter().map(|l| l.0).collect())
            .filter(|w: &Vec<u8>| !w.is_empty())
            .collect();
        spelled.sort_unstable();
        spelled.dedup();
        let nodes = minimise(&Trie::layout(&spelled));
        let words = (spelled.len() * SPELLABLE_BITS_PER_WORD / 64)
            .next_power_of_two()
            .max(2);
        let spellable_shift = 64 - words.trailing_zeros();
        let mut spellable = vec![0u64; words];
        for word in &spelled {
            let key = word
                .iter()
                .map(|&l| Trie::make_letter_key(l))
                .fold(0, u64::wrapping_add);
            let (at, bits) = Trie::spellable_bits(key, spellable_shift);
            spellable[at] |= bits;
        }
        for word in &mut spelled {
            word.reverse();
        }
        spelled.sort_unstable();
        let reversed = minimise(&Trie::layout(&spelled));
        Trie {
            nodes,
            reversed,
            spellable,
            spellable_shift,
            letter_keys: std::array::from_fn(|l| Trie::make_letter_key(l as u8)),
        }
    }

    /// A letter's key: a set of letters' key is the wrapping sum of theirs, whatever the order.
    #[inline]
    pub fn letter_key(&self, letter: u8) -> u64 {
        self.letter_keys[usize::from(letter & 31)]
    }

    fn make_letter_key(letter: u8) -> u64 {
        // splitmix64 of the letter: 64 well-mixed bits each.
        let mut z = u64::from(letter)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Where `key` sits in the filter of words' letters: the word its top bits pick, and the
    /// four bits there that its lowest 24 bits pick.
    #[inline]
    fn spellable_bits(key: u64, shift: u32) -> (usize, u64) {
        let bits = (0..4).fold(0u64, |bits, k| bits | 1 << (key >> (6 * k) & 63));
        ((key >> shift) as usize, bits)
    }

    /// Whether some word may have exactly the letters whose keys (see [`Trie::letter_key`]) add
    /// up to `key`. A no is certain; a yes is rarely wrong, which is safe for a bound.
    #[inline]
    pub fn may_spell(&self, key: u64) -> bool {
        let (at, bits) = Trie::spellable_bits(key, self.spellable_shift);
        self.spellable[at] & bits == bits
    }

    /// Lays out the trie of sorted, unique words breadth-first.
    fn layout(words: &[Vec<u8>]) -> Vec<[u32; 2]> {
        let mut first = vec![0u32];
        let mut mask = vec![0u32];
        let mut queue = std::collections::VecDeque::from([(0usize, 0usize, words.len(), 0usize)]);
        while let Some((node, lo, hi, depth)) = queue.pop_front() {
            let mut i = lo;
            // Sorted: a word that ends here comes before every longer word sharing its prefix.
            if i < hi && words[i].len() == depth {
                mask[node] |= TERMINAL;
                i += 1;
            }
            first[node] = first.len() as u32;
            while i < hi {
                let letter = words[i][depth];
                let mut j = i;
                while j < hi && words[j][depth] == letter {
                    j += 1;
                }
                let child = first.len();
                first.push(0);
                mask.push(0);
                mask[node] |= 1 << letter;
                queue.push_back((child, i, j, depth + 1));
                i = j;
            }
        }
        mask.into_iter().zip(first).map(|(m, f)| [m, f]).collect()
    }

    /// The root: the empty prefix.
    pub const ROOT: Node = 0;

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the trie has only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// A node's mask and first child, for callers that step from one node several times.
    #[inline]
    pub fn node(&self, node: Node) -> (u32, u32) {
        let [mask, first] = self.nodes[node as usize];
        (mask, first)
    }

    /// From [`Trie::node`]'s mask: whether the node ends a word.
    #[inline]
    pub fn is_word_mask(mask: u32) -> bool {
        mask & TERMINAL != 0
    }

    /// From [`Trie::node`]'s mask: the letters that extend the node.
    #[inline]
    pub fn children_mask(mask: u32) -> u32 {
        mask & !TERMINAL
    }

    /// From [`Trie::node`]'s mask and first child: the child for `letter`, if any.
    #[inline]
    pub fn child_of(mask: u32, first: u32, letter: u8) -> Option<Node> {
        let bit = 1u32 << letter;
        (mask & bit != 0).then(|| first + (mask & (bit - 1)).count_ones())
    }

    /// The letters that extend `node`, as a bitset.
    #[inline]
    pub fn children(&self, node: Node) -> u32 {
        self.nodes[node as usize][0] & !TERMINAL
    }

    /// The node one letter further, if any word continues so.
    #[inline]
    pub fn child(&self, node: Node, letter: u8) -> Option<Node> {
        let [mask, first] = self.nodes[node as usize];
        let bit = 1u32 << letter;
        (mask & bit != 0).then(|| first + (mask & (bit - 1)).count_ones())
    }

    /// Whether the path to `node` spells a word.
    #[inline]
    pub fn is_word(&self, node: Node) -> bool {
        self.nodes[node as usize][0] & TERMINAL != 0
    }

    /// The letters that can go right before `letters` to make a word (`letters` non-empty): read
    /// from the reversed trie in one walk.
    pub fn letters_before(&self, letters: impl DoubleEndedIterator<Item = u8>) -> u32 {
        let Some(node) = self.reversed_node(letters.rev()) else {
            return 0;
        };
        let [mask, first] = self.reversed[node as usize];
        let mut allowed = 0;
        let mut letters = mask & !TERMINAL;
        let mut child = first;
        while letters != 0 {
            let l = letters.trailing_zeros();
            letters &= letters - 1;
            if self.reversed[child as usize][0] & TERMINAL != 0 {
                allowed |= 1 << l;
            }
            child += 1;
        }
        allowed
    }

    /// The letters that can go right before `letters` (given last first) at the end of a word:
    /// the letters that end a word when `letters` is empty, none when no word ends with
    /// `letters`. Read from the reversed trie in one walk.
    pub fn letters_ending_before(&self, letters: impl Iterator<Item = u8>) -> u32 {
        self.reversed_node(letters)
            .map_or(0, |node| self.reversed[node as usize][0] & !TERMINAL)
    }

    /// The node of the reversed trie that `letters` (given last first) lead to, if some word
    /// ends with them.
    fn reversed_node(&self, letters: impl Iterator<Item = u8>) -> Option<Node> {
        let mut node = 0u32;
        for l in letters {
            let [mask, first] = self.reversed[node as usize];
            node = Trie::child_of(mask, first, l)?;
        }
        Some(node)
    }

    /// Whether the letters spell a word.
    pub fn contains(&self, letters: &[Letter]) -> bool {
        let mut node = Self::ROOT;
        for l in letters {
            match self.child(node, l.0) {
                Some(next) => node = next,
                None => return false,
            }
        }
        self.is_word(node)
    }
}

/// Shares identical subtrees (a DAWG): a node's children form one block, and parents whose
/// blocks would be equal point at the same one. The walk is unchanged; the arrays shrink several
/// times over, so more of them stays in cache.
fn minimise(tree: &[[u32; 2]]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = vec![[0, 0]];
    let mut blocks: std::collections::HashMap<Vec<[u32; 2]>, u32> =
        std::collections::HashMap::new();
    let mut canonical = vec![[0u32; 2]; tree.len()];
    // Breadth-first order puts children after their parent: walk backwards, children first.
    for x in (0..tree.len()).rev() {
        let [mask, first] = tree[x];
        let count = (mask & !TERMINAL).count_ones() as usize;
        let start = if count == 0 {
            0
        } else {
            let block: Vec<[u32; 2]> = canonical[first as usize..first as usize + count].to_vec();
            match blocks.get(&block) {
                Some(&start) => start,
                None => {
                    let start = out.len() as u32;
                    out.extend_from_slice(&block);
                    blocks.insert(block, start);
                    start
                }
            }
        };
        canonical[x] = [mask, start];
    }
    out[0] = canonical[0];
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_exactly_its_words() {
        let tiles = TileSet::by_id("feud_en").unwrap();
        let trie = Trie::new(["cat", "cats", "at", "ca"], tiles);
        let w = |s: &str| tiles.parse_word(s).unwrap();
        for word in ["cat", "cats", "at", "ca"] {
            assert!(trie.contains(&w(word)), "{word}");
        }
        for word in ["c", "catss", "ta", "a"] {
            assert!(!trie.contains(&w(word)), "{word}");
        }
        let c = trie.child(Trie::ROOT, w("c")[0].0).unwrap();
        assert_eq!(trie.children(c), 1 << w("a")[0].0);
        // Before "at": c makes "cat"; nothing else does.
        assert_eq!(
            trie.letters_before(w("at").iter().map(|l| l.0)),
            1 << w("c")[0].0
        );
        assert_eq!(trie.letters_before(w("ts").iter().map(|l| l.0)), 0);
        // The filter of words' letters knows every word's letters, in any order, and (with so few
        // words) nothing else.
        let key = |s: &str| {
            w(s).iter()
                .map(|l| trie.letter_key(l.0))
                .fold(0, u64::wrapping_add)
        };
        for letters in ["cat", "tac", "stac", "at", "ta", "ca"] {
            assert!(trie.may_spell(key(letters)), "{letters}");
        }
        for letters in ["c", "cc", "cab", "tt", "sat"] {
            assert!(!trie.may_spell(key(letters)), "{letters}");
        }
    }
}
