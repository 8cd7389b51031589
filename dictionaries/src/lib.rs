//! The five dictionaries: which they are, what their manifest records, and [`FstLexicon`], the
//! [`rules::Lexicon`] over an `fst::Set` that the rules validate with and the engine walks.
//!
//! The FSTs are built by `build.sh` (sources fetched from the package registries) and committed in
//! `fst/`, with `fst/manifest.json` describing each.
#![deny(missing_docs)]

use serde::{Deserialize, Serialize};

use rules::{Language, TileSet};

#[cfg(feature = "catalog")]
pub mod catalog;
#[cfg(feature = "catalog")]
pub mod hunspell;
pub mod versions;
#[cfg(feature = "catalog")]
pub mod wordlist;

/// One of the five dictionaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DictionaryId {
    /// English: SCOWL ≤ 80.
    #[serde(rename = "en")]
    English,
    /// Swedish: DSSO (hunspell), all forms.
    #[serde(rename = "sv")]
    Swedish,
    /// Swedish (strict): DSSO forms of SAOL 14 headwords only.
    #[serde(rename = "sv-strict")]
    SwedishStrict,
    /// Danish: Stavekontrolden (hunspell).
    #[serde(rename = "da")]
    Danish,
    /// Norwegian bokmål: Debian's wnorwegian.
    #[serde(rename = "nb")]
    Norwegian,
}

impl DictionaryId {
    /// All five, in menu order.
    pub const ALL: [DictionaryId; 5] = [
        DictionaryId::English,
        DictionaryId::Swedish,
        DictionaryId::SwedishStrict,
        DictionaryId::Danish,
        DictionaryId::Norwegian,
    ];

    /// The short id used in file names and URLs: `en`, `sv`, `sv-strict`, `da`, `nb`.
    pub fn as_str(self) -> &'static str {
        match self {
            DictionaryId::English => "en",
            DictionaryId::Swedish => "sv",
            DictionaryId::SwedishStrict => "sv-strict",
            DictionaryId::Danish => "da",
            DictionaryId::Norwegian => "nb",
        }
    }

    /// Where its built FST lies in this source tree (`dictionaries/fst/<id>.fst`): for the
    /// tests, benches and tools run from a checkout.
    pub fn committed_fst(self) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fst")
            .join(format!("{}.fst", self.as_str()))
    }

    /// The dictionary with this short id.
    pub fn parse(id: &str) -> Option<DictionaryId> {
        Self::ALL.into_iter().find(|d| d.as_str() == id)
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            DictionaryId::English => "English",
            DictionaryId::Swedish => "Swedish",
            DictionaryId::SwedishStrict => "Swedish (strict)",
            DictionaryId::Danish => "Danish",
            DictionaryId::Norwegian => "Norwegian",
        }
    }

    /// The language, which picks the tile set.
    pub fn language(self) -> Language {
        match self {
            DictionaryId::English => Language::English,
            DictionaryId::Swedish | DictionaryId::SwedishStrict => Language::Swedish,
            DictionaryId::Danish => Language::Danish,
            DictionaryId::Norwegian => Language::Norwegian,
        }
    }

    /// The Wordfeud-style tile set of its language; its letters are the dictionary's alphabet.
    pub fn tile_set(self) -> &'static TileSet {
        let id = match self.language() {
            Language::English => "feud_en",
            Language::Swedish => "feud_sv",
            Language::Danish => "feud_da",
            Language::Norwegian => "feud_nb",
        };
        TileSet::by_id(id).expect("feud tile sets are in the spec data")
    }

    /// The alphabet: the tile set's letters, lower case, in UTF-8 byte order.
    pub fn alphabet(self) -> Vec<char> {
        self.tile_set()
            .letters
            .iter()
            .map(|spec| rules::case::lower(spec.letter))
            .collect()
    }
}

/// One version of one dictionary, as a game's config names it: `en@3`. A bare `en` is version 1,
/// the shipped list, which is what games made before dictionaries had versions name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DictionaryRef {
    /// The dictionary.
    pub id: DictionaryId,
    /// Its version, from 1.
    pub version: u32,
}

impl DictionaryRef {
    /// Reads `en@3` (or `en`, version 1).
    pub fn parse(text: &str) -> Option<DictionaryRef> {
        let (id, version) = match text.split_once('@') {
            Some((id, version)) => (id, version.parse().ok().filter(|v| *v >= 1)?),
            None => (text, 1),
        };
        Some(DictionaryRef {
            id: DictionaryId::parse(id)?,
            version,
        })
    }
}

impl std::fmt::Display for DictionaryRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.id.as_str(), self.version)
    }
}

/// What the manifest records of one dictionary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// The dictionary.
    pub id: DictionaryId,
    /// Display name.
    pub name: String,
    /// BCP 47 language tag.
    pub language: String,
    /// The letters words may use.
    pub alphabet: String,
    /// Words in the FST.
    pub word_count: u64,
    /// Size of the FST file in bytes.
    pub fst_bytes: u64,
    /// SHA-256 of the FST file, hex.
    pub sha256: String,
    /// Where the words come from, e.g. `deb:scowl`.
    pub source: String,
    /// The source package's version.
    pub source_version: String,
    /// The licence the list is under.
    pub licence: String,
    /// The attribution to show.
    pub attribution: String,
    /// Licence files in `licences/`.
    pub licence_files: Vec<String>,
}

/// The manifest: one entry per dictionary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The entries, in [`DictionaryId::ALL`] order.
    pub dictionaries: Vec<ManifestEntry>,
}

/// A dictionary as the pages show it: what it is, where the browser fetches it, its licences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DictionaryInfo {
    /// The dictionary.
    pub id: DictionaryId,
    /// Display name.
    pub name: String,
    /// Content-hashed URL of the FST.
    pub url: String,
    /// The version served at `url` (with `id`, what a game played on a device names).
    pub version: u32,
    /// How many words it holds.
    pub word_count: u64,
    /// FST size in bytes.
    pub fst_bytes: u64,
    /// The letters words may use.
    pub alphabet: String,
    /// Where the words come from.
    pub source: String,
    /// The source's version.
    pub source_version: String,
    /// The licence.
    pub licence: String,
    /// The attribution.
    pub attribution: String,
    /// Licence files, name and text (empty unless asked for).
    pub licences: Vec<(String, String)>,
}

/// Brings a source word into the dictionaries' form, or drops it: lower case only (a capitalised
/// entry is a proper noun and is dropped, not lowered), é folded to e, every letter in the
/// alphabet (so no hyphens, apostrophes, digits or other accents), 2–15 letters.
pub fn normalise(word: &str, alphabet: &[char]) -> Option<String> {
    let word = word.trim();
    if word.chars().next()?.is_uppercase() {
        return None;
    }
    let folded: String = word
        .chars()
        .map(|c| if c == 'é' { 'e' } else { c })
        .collect();
    let len = folded.chars().count();
    ((2..=15).contains(&len) && folded.chars().all(|c| alphabet.contains(&c))).then_some(folded)
}

/// A dictionary loaded from its FST: a [`rules::Lexicon`]. The bytes are shared, so a clone,
/// or a response that sends them, costs no copy.
#[derive(Clone)]
pub struct FstLexicon {
    set: fst::Set<SharedBytes>,
}

/// An FST's bytes behind a reference count: taken over from the `Vec` they were read into, never
/// copied.
#[derive(Clone)]
pub struct SharedBytes(std::sync::Arc<Vec<u8>>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for FstLexicon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FstLexicon")
            .field("words", &self.set.len())
            .finish()
    }
}

impl FstLexicon {
    /// Loads an FST file's bytes; fails if they are not an FST.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<FstLexicon, fst::Error> {
        Ok(FstLexicon {
            set: fst::Set::new(SharedBytes(std::sync::Arc::new(bytes)))?,
        })
    }

    /// Reads an FST file; the error names the file and says what went wrong.
    pub fn read(path: &std::path::Path) -> Result<FstLexicon, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        FstLexicon::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Builds one from words (any order; duplicates allowed). For tests and small lists.
    pub fn from_words<I, S>(words: I) -> FstLexicon
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut words: Vec<String> = words.into_iter().map(|w| w.as_ref().to_string()).collect();
        words.sort_unstable();
        words.dedup();
        let set = fst::Set::from_iter(words).expect("sorted, unique input");
        FstLexicon::from_bytes(set.into_fst().into_inner()).expect("an FST just built")
    }

    /// Words in the dictionary.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether it holds no words.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The FST's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.set.as_fst().as_bytes()
    }

    /// The FST's bytes, shared: for sending them without a copy.
    pub fn shared_bytes(&self) -> SharedBytes {
        self.set.as_fst().as_inner().clone()
    }

    /// Calls `f` with every word in byte order, without collecting them.
    pub fn each_word(&self, mut f: impl FnMut(&str)) {
        use fst::Streamer;
        let mut stream = self.set.stream();
        while let Some(word) = stream.next() {
            f(&String::from_utf8_lossy(word));
        }
    }

    /// Every word, in byte order.
    pub fn words(&self) -> Vec<String> {
        use fst::Streamer;
        let mut stream = self.set.stream();
        let mut words = Vec::with_capacity(self.set.len());
        while let Some(word) = stream.next() {
            words.push(String::from_utf8_lossy(word).into_owned());
        }
        words
    }
}

impl rules::Lexicon for FstLexicon {
    /// The address of an FST node: a prefix some word has.
    type Node = fst::raw::CompiledAddr;

    fn root(&self) -> Self::Node {
        self.set.as_fst().root().addr()
    }

    fn step(&self, node: Self::Node, byte: u8) -> Option<Self::Node> {
        let node = self.set.as_fst().node(node);
        node.find_input(byte).map(|i| node.transition_addr(i))
    }

    fn is_word(&self, node: Self::Node) -> bool {
        self.set.as_fst().node(node).is_final()
    }

    fn contains(&self, word: &str) -> bool {
        self.set.contains(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Lexicon;

    #[test]
    fn normalise_keeps_plain_words_and_drops_the_rest() {
        let sv = DictionaryId::Swedish.alphabet();
        assert_eq!(normalise("bilarnas", &sv), Some("bilarnas".into()));
        assert_eq!(normalise("idé", &sv), Some("ide".into()), "é folds to e");
        for dropped in [
            "Stockholm",
            "a",
            "e-post",
            "o'boy",
            "abc123",
            "sextiofemårsjubileumsfestligheter",
            "müsli",
        ] {
            assert_eq!(normalise(dropped, &sv), None, "{dropped}");
        }
    }

    #[test]
    fn the_walk_and_contains_agree() {
        let lexicon = FstLexicon::from_words(["bil", "bilar", "bilen", "år"]);
        for word in ["bil", "bilar", "bilen", "år", "bi", "bila", "å", ""] {
            let mut node = Some(lexicon.root());
            for &b in word.as_bytes() {
                node = node.and_then(|n| lexicon.step(n, b));
            }
            let walked = node.is_some_and(|n| lexicon.is_word(n));
            assert_eq!(walked, lexicon.contains(word), "{word}");
        }
        assert!(lexicon.step(lexicon.root(), b'b').is_some());
        assert!(lexicon.step(lexicon.root(), b'z').is_none());
    }

    #[test]
    fn refs_name_a_version_and_a_bare_id_is_the_first() {
        let en3 = DictionaryRef::parse("en@3").unwrap();
        assert_eq!((en3.id, en3.version), (DictionaryId::English, 3));
        assert_eq!(en3.to_string(), "en@3");
        assert_eq!(DictionaryRef::parse("sv-strict").unwrap().version, 1);
        for bad in ["en@0", "en@", "en@x", "xx@2", "", "@2"] {
            assert_eq!(DictionaryRef::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn ids_round_trip() {
        for id in DictionaryId::ALL {
            assert_eq!(DictionaryId::parse(id.as_str()), Some(id));
        }
    }
}
