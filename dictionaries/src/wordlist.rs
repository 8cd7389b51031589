//! Making a new version of a dictionary: reading an uploaded word list line by line (saying why
//! refused lines were refused), applying an admin's additions and removals, comparing with the
//! version it replaces, and building the FST with its content hash.
//!
//! Memory stays a small multiple of the upload whatever it holds: the words are gathered in one
//! buffer with eight bytes of bookkeeping each ([`Words`]), duplicates are found by sorting that
//! in place, and a report keeps the first [`Report::REJECTED_SHOWN`] refused lines and counts
//! the rest.

use std::{
    collections::BinaryHeap,
    sync::atomic::{AtomicU64, AtomicU8, Ordering},
};

use rules::BoardLayout;
use sha2::{Digest, Sha256};

use crate::{
    versions::{LineProblem, Rejected, Report, Warning},
    FstLexicon,
};

/// The longest word a board fits: longer words could never be played.
pub fn longest_word() -> usize {
    BoardLayout::all()
        .map(|layout| layout.width.max(layout.height))
        .max()
        .unwrap_or(15)
}

/// What a build is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for another build on this instance to finish: they run one at a time.
    Waiting,
    /// Reading the lines (or expanding the hunspell entries).
    Reading,
    /// Comparing with the version it replaces.
    Comparing,
    /// Building the FST.
    Building,
    /// Writing the version to the database.
    Saving,
}

/// How far a build is: shared between the build, which moves it, and the page that shows it.
#[derive(Debug, Default)]
pub struct Progress {
    stage: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
}

impl Progress {
    /// Moves to `stage`, of `total` steps.
    pub fn start(&self, stage: Stage, total: u64) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        self.stage.store(stage as u8, Ordering::Relaxed);
    }

    /// `done` steps of the stage are done.
    pub fn advance(&self, done: u64) {
        self.done.store(done, Ordering::Relaxed);
    }

    /// The stage, the steps done and the steps in it.
    pub fn now(&self) -> (Stage, u64, u64) {
        let stage = match self.stage.load(Ordering::Relaxed) {
            0 => Stage::Waiting,
            1 => Stage::Reading,
            2 => Stage::Comparing,
            3 => Stage::Building,
            _ => Stage::Saving,
        };
        let total = self.total.load(Ordering::Relaxed);
        (stage, self.done.load(Ordering::Relaxed).min(total), total)
    }
}

/// Steps between two updates of a [`Progress`].
const STEP: u64 = 16_384;

/// Sorted, unique words in one buffer: a word list in the least memory that can sort it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Words {
    text: String,
    /// Per word: where it starts in `text` (high 32 bits), its length in bytes (6 bits) and the
    /// line it came from (low 26 bits). Lines past 2^26 (a 64 MiB file of one-letter lines) and
    /// words longer than 63 bytes (no board fits one) never reach it.
    spans: Vec<u64>,
}

const LEN_BITS: u32 = 6;
const LINE_BITS: u32 = 26;
const LINE_MASK: u64 = (1 << LINE_BITS) - 1;
const LEN_MASK: u64 = (1 << LEN_BITS) - 1;

impl Words {
    /// The words of an iterator already in byte order, each once.
    pub fn from_sorted<'a>(words: impl IntoIterator<Item = &'a str>) -> Words {
        let mut set = Words::default();
        for word in words {
            set.push(word, 0);
        }
        set
    }

    /// Adds `word`, from `line`; sorting and duplicates are the caller's business until
    /// [`Words::sort_and_dedupe`].
    fn push(&mut self, word: &str, line: u32) {
        let start = self.text.len() as u64;
        self.text.push_str(word);
        let line = u64::from(line).min(LINE_MASK);
        self.spans
            .push(start << 32 | (word.len() as u64 & LEN_MASK) << LINE_BITS | line);
    }

    fn word_of(&self, span: u64) -> &str {
        let start = (span >> 32) as usize;
        let len = ((span >> LINE_BITS) & LEN_MASK) as usize;
        &self.text[start..start + len]
    }

    fn line_of(span: u64) -> u32 {
        (span & LINE_MASK) as u32
    }

    /// Sorts the words, in place, and keeps each one's first line; calls `duplicate` with the
    /// line of every later one, the line it came on first, and the word.
    fn sort_and_dedupe(&mut self, mut duplicate: impl FnMut(u32, u32, &str)) {
        let mut spans = std::mem::take(&mut self.spans);
        spans.sort_unstable_by(|a, b| {
            self.word_of(*a)
                .cmp(self.word_of(*b))
                .then(Words::line_of(*a).cmp(&Words::line_of(*b)))
        });
        let mut kept = 0;
        for i in 0..spans.len() {
            if kept > 0 && self.word_of(spans[kept - 1]) == self.word_of(spans[i]) {
                let word = self.word_of(spans[i]);
                duplicate(
                    Words::line_of(spans[i]),
                    Words::line_of(spans[kept - 1]),
                    word,
                );
                continue;
            }
            spans[kept] = spans[i];
            kept += 1;
        }
        spans.truncate(kept);
        spans.shrink_to_fit();
        self.spans = spans;
    }

    /// How many words.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The `index`th word in byte order.
    pub fn get(&self, index: usize) -> &str {
        self.word_of(self.spans[index])
    }

    /// The words, in byte order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.spans.iter().map(|&span| self.word_of(span))
    }
}

/// A word list read from text: its words, sorted and unique, and the lines not taken.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The words, in byte order.
    pub words: Words,
    /// The first [`Report::REJECTED_SHOWN`] lines not taken, in line order.
    pub rejected: Vec<Rejected>,
    /// Lines not taken, in all.
    pub rejected_total: u64,
    /// Whether the bytes look like a binary file rather than text.
    pub binary: bool,
    /// What a hunspell expansion had to leave out, for the report's warnings.
    pub cut: Vec<Warning>,
}

/// The refused lines as they are read: the first ones in full, the rest counted.
#[derive(Default)]
struct Refusals {
    shown: Vec<Rejected>,
    total: u64,
    not_utf8: u64,
}

impl Refusals {
    fn refuse(&mut self, line: u32, raw: &[u8], problem: LineProblem) {
        self.total += 1;
        if problem == LineProblem::NotUtf8 {
            self.not_utf8 += 1;
        }
        if self.shown.len() < Report::REJECTED_SHOWN {
            self.shown.push(Rejected {
                line,
                text: shown(raw),
                problem,
            });
        }
    }
}

/// A refused line as the report shows it: its first 80 characters, invalid bytes replaced, and
/// the characters that would reorder or control the text around it written out as `\u{…}`, so
/// the admin sees them and they do nothing.
fn shown(raw: &[u8]) -> String {
    let mut shown = String::new();
    for c in String::from_utf8_lossy(raw).chars().take(80) {
        let reorders = matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || reorders {
            shown.push_str(&c.escape_unicode().to_string());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Reads a word list: one word per line, `#` starts a comment, blank lines are skipped, letters
/// are lowered (and é folded to e, as the shipped lists are). A line is refused if it is not
/// UTF-8, holds more than one word, has one letter or more than a board fits, or a letter outside
/// `alphabet`; a repeated word is refused on its second line.
pub fn parse(bytes: &[u8], alphabet: &[char]) -> Parsed {
    parse_with(bytes, alphabet, &Progress::default())
}

/// [`parse`], moving `progress` along.
pub fn parse_with(bytes: &[u8], alphabet: &[char], progress: &Progress) -> Parsed {
    progress.start(Stage::Reading, bytes.len() as u64);
    let mut reader = Reader::new(alphabet, Source::List);
    let mut lines_with_text = 0u64;
    let mut offset = 0u64;
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        if (index as u64).is_multiple_of(STEP) {
            progress.advance(offset);
        }
        offset += raw.len() as u64 + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if !raw.iter().all(u8::is_ascii_whitespace) {
            lines_with_text += 1;
        }
        reader.line(u32::try_from(index + 1).unwrap_or(u32::MAX), raw);
    }
    let not_utf8 = reader.refusals.not_utf8;
    let mut parsed = reader.finish();
    // A NUL byte, or mostly undecodable lines, is no word list.
    parsed.binary =
        bytes.iter().take(65_536).any(|&b| b == 0) || not_utf8 * 10 > lines_with_text.max(1);
    parsed
}

/// Expands a hunspell `.dic` + `.aff` pair (see [`crate::hunspell`]) and reads the forms as
/// [`parse`] reads lines, except that a capitalised form (a name) is left out, as the shipped
/// lists leave them out, and a form two entries make is simply one word. Rejected forms carry the
/// number of the `.dic` line that made them. What the expansion's limits cut is said in
/// [`Parsed::cut`].
pub fn parse_hunspell(
    dic: &[u8],
    aff: &[u8],
    alphabet: &[char],
    progress: &Progress,
) -> Result<Parsed, crate::hunspell::HunspellError> {
    let lines = dic.split(|&b| b == b'\n').count() as u64;
    progress.start(Stage::Reading, lines);
    let mut reader = Reader::new(alphabet, Source::Hunspell);
    let mut forms = 0u64;
    let cut = crate::hunspell::expand_each(dic, aff, |line, form| {
        forms += 1;
        if forms.is_multiple_of(STEP) {
            progress.advance(u64::from(line));
        }
        reader.line(line, form.as_bytes());
    })?;
    let mut parsed = reader.finish();
    parsed.cut = cut.warnings();
    Ok(parsed)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    List,
    Hunspell,
}

/// Reads lines one at a time into [`Words`] and [`Refusals`].
struct Reader<'a> {
    alphabet: &'a [char],
    source: Source,
    max: usize,
    words: Words,
    refusals: Refusals,
    scratch: String,
}

impl<'a> Reader<'a> {
    fn new(alphabet: &'a [char], source: Source) -> Reader<'a> {
        Reader {
            alphabet,
            source,
            max: longest_word(),
            words: Words::default(),
            refusals: Refusals::default(),
            scratch: String::new(),
        }
    }

    fn line(&mut self, line: u32, raw: &[u8]) {
        if raw.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let Ok(text) = std::str::from_utf8(raw) else {
            self.refusals.refuse(line, raw, LineProblem::NotUtf8);
            return;
        };
        if self.source == Source::Hunspell && text.chars().next().is_some_and(char::is_uppercase) {
            self.refusals.refuse(line, raw, LineProblem::Capitalised);
            return;
        }
        match check_word(text, self.alphabet, self.max, &mut self.scratch) {
            Ok(false) => {}
            Ok(true) => self.words.push(&self.scratch, line),
            Err(problem) => self.refusals.refuse(line, raw, problem),
        }
    }

    /// The words sorted, each kept once: in a list a repeated word is refused on its later
    /// lines; in a hunspell expansion two entries may make one form.
    fn finish(self) -> Parsed {
        let Reader {
            mut words,
            mut refusals,
            source,
            ..
        } = self;
        // Only the first lines are shown: of the duplicates, keep the earliest few (a max-heap
        // of them), then merge with the other refusals, which came in line order.
        let mut earliest: BinaryHeap<(u32, u32, String)> = BinaryHeap::new();
        let mut duplicates = 0u64;
        words.sort_and_dedupe(|line, first_line, word| {
            if source == Source::Hunspell {
                return;
            }
            duplicates += 1;
            if earliest.len() < Report::REJECTED_SHOWN
                || earliest.peek().is_some_and(|latest| line < latest.0)
            {
                earliest.push((line, first_line, word.to_string()));
                if earliest.len() > Report::REJECTED_SHOWN {
                    earliest.pop();
                }
            }
        });
        let duplicates_shown = earliest
            .into_iter()
            .map(|(line, first_line, text)| Rejected {
                line,
                text,
                problem: LineProblem::Duplicate { first_line },
            });
        let mut shown: Vec<Rejected> = refusals.shown.drain(..).chain(duplicates_shown).collect();
        shown.sort_by_key(|r| r.line);
        shown.truncate(Report::REJECTED_SHOWN);
        Parsed {
            words,
            rejected: shown,
            rejected_total: refusals.total + duplicates,
            binary: false,
            cut: Vec::new(),
        }
    }
}

/// Puts one line's word, in the dictionaries' form, into `word` and says so; `false` for a
/// comment; or why the line is refused.
fn check_word(
    text: &str,
    alphabet: &[char],
    max: usize,
    word: &mut String,
) -> Result<bool, LineProblem> {
    let text = text.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return Ok(false);
    }
    if text.split_whitespace().nth(1).is_some() {
        return Err(LineProblem::SeveralWords);
    }
    word.clear();
    word.extend(
        text.chars()
            .flat_map(char::to_lowercase)
            .map(|c| if c == 'é' { 'e' } else { c }),
    );
    let letters = word.chars().count();
    if letters < 2 {
        return Err(LineProblem::TooShort);
    }
    if letters > max {
        return Err(LineProblem::TooLong {
            letters: letters as u32,
            max: max as u32,
        });
    }
    if let Some(c) = word.chars().find(|c| !alphabet.contains(c)) {
        return Err(LineProblem::OutsideAlphabet(c));
    }
    Ok(true)
}

/// An edit: `base`'s words with `add`'s taken and `remove`'s dropped (both read as word lists).
/// Refused lines of both are in `rejected`, line numbers counted in each list; a word to remove
/// that `base` lacks is refused as not in the dictionary.
pub fn edit(base: &FstLexicon, add: &str, remove: &str, alphabet: &[char]) -> Parsed {
    use rules::Lexicon;
    let progress = Progress::default();
    let added = parse_with(add.as_bytes(), alphabet, &progress);
    let removed = parse_with(remove.as_bytes(), alphabet, &progress);
    let (present, absent): (Vec<&str>, Vec<&str>) =
        removed.words.iter().partition(|word| base.contains(word));
    let mut rejected = added.rejected;
    rejected.extend(removed.rejected);
    rejected.extend(absent.iter().map(|word| Rejected {
        line: 0,
        text: (*word).to_string(),
        problem: LineProblem::NotInDictionary,
    }));
    // The base's words merged with the additions as they stream out of the FST, both in byte
    // order, less the removals: no second copy of the base to sort.
    let mut words = Words::default();
    let mut additions = added.words.iter().peekable();
    base.each_word(|word| {
        while let Some(new) = additions.next_if(|new| *new < word) {
            words.push(new, 0);
        }
        additions.next_if(|new| *new == word);
        if present.binary_search(&word).is_err() {
            words.push(word, 0);
        }
    });
    for new in additions {
        words.push(new, 0);
    }
    Parsed {
        words,
        rejected_total: added.rejected_total + removed.rejected_total + absent.len() as u64,
        rejected,
        binary: false,
        cut: Vec::new(),
    }
}

/// The report on `parsed` against `base` (its version number and words), with the warnings that
/// publishing it must confirm.
pub fn report(parsed: &Parsed, base: Option<(u32, &FstLexicon)>) -> Report {
    report_with(parsed, base, &Progress::default())
}

/// [`report`], moving `progress` along.
pub fn report_with(
    parsed: &Parsed,
    base: Option<(u32, &FstLexicon)>,
    progress: &Progress,
) -> Report {
    let mut report = Report {
        accepted: parsed.words.len() as u64,
        rejected_total: parsed.rejected_total,
        rejected: parsed
            .rejected
            .iter()
            .take(Report::REJECTED_SHOWN)
            .cloned()
            .collect(),
        ..Report::default()
    };
    if let Some((version, base)) = base {
        report.based_on = Some(version);
        progress.start(Stage::Comparing, base.len() as u64);
        // Both in byte order: one merge, the base streamed from its FST.
        let new = &parsed.words;
        let mut j = 0;
        let mut seen = 0u64;
        base.each_word(|old| {
            seen += 1;
            if seen.is_multiple_of(STEP) {
                progress.advance(seen);
            }
            while j < new.len() && new.get(j) < old {
                note(&mut report.added, &mut report.first_added, new.get(j));
                j += 1;
            }
            if j < new.len() && new.get(j) == old {
                j += 1;
            } else {
                note(&mut report.removed, &mut report.first_removed, old);
            }
        });
        for word in (j..new.len()).map(|i| new.get(i)) {
            note(&mut report.added, &mut report.first_added, word);
        }
        let of = base.len() as u64;
        if report.removed * 2 > of {
            report.warnings.push(Warning::RemovesMost {
                removed: report.removed,
                of,
            });
        }
    }
    if parsed.binary {
        report.warnings.insert(0, Warning::Binary);
    }
    if parsed.words.is_empty() {
        report.warnings.push(Warning::NoWords);
    }
    report.warnings.extend(parsed.cut.iter().cloned());
    report
}

/// Counts a word added or removed, keeping the first [`Report::DIFF_SHOWN`].
fn note(count: &mut u64, shown: &mut Vec<String>, word: &str) {
    *count += 1;
    if shown.len() < Report::DIFF_SHOWN {
        shown.push(word.to_string());
    }
}

/// A built version: the FST's bytes and their SHA-256.
#[derive(Debug, Clone)]
pub struct Built {
    /// The FST.
    pub fst: Vec<u8>,
    /// SHA-256 of `fst`, hex.
    pub sha256: String,
}

/// Builds the FST of sorted, unique words.
pub fn build(words: &Words) -> Built {
    build_with(words, &Progress::default())
}

/// [`build`], moving `progress` along.
pub fn build_with(words: &Words, progress: &Progress) -> Built {
    progress.start(Stage::Building, words.len() as u64);
    let mut builder = fst::SetBuilder::memory();
    for (index, word) in words.iter().enumerate() {
        if (index as u64).is_multiple_of(STEP) {
            progress.advance(index as u64);
        }
        builder
            .insert(word)
            .expect("the words are sorted and unique");
    }
    let fst = builder.into_inner().expect("an in-memory FST cannot fail");
    Built {
        sha256: sha256(&fst),
        fst,
    }
}

/// SHA-256, hex.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DictionaryId;

    fn words(parsed: &Parsed) -> Vec<&str> {
        parsed.words.iter().collect()
    }

    #[test]
    fn every_refused_line_says_why_and_where() {
        let en = DictionaryId::English.alphabet();
        let mut bytes =
            "# a comment\nHello\n\nworld # trailing comment\r\nhello\nx\nnaïve\ntwo words\n"
                .as_bytes()
                .to_vec();
        bytes.extend(b"abcdefghijklmnopqr\n\xff\xfebad\n");
        bytes.extend("café\n".as_bytes());
        let parsed = parse(&bytes, &en);
        assert_eq!(words(&parsed), ["cafe", "hello", "world"]);
        let problems: Vec<(u32, LineProblem)> = parsed
            .rejected
            .iter()
            .map(|r| (r.line, r.problem.clone()))
            .collect();
        assert_eq!(
            problems,
            [
                (5, LineProblem::Duplicate { first_line: 2 }),
                (6, LineProblem::TooShort),
                (7, LineProblem::OutsideAlphabet('ï')),
                (8, LineProblem::SeveralWords),
                (
                    9,
                    LineProblem::TooLong {
                        letters: 18,
                        max: 17
                    }
                ),
                (10, LineProblem::NotUtf8),
            ]
        );
        assert_eq!(parsed.rejected_total, 6);
        assert!(!parsed.binary);
        assert!(parse(b"abc\0def\n", &en).binary);
    }

    /// Regression: every refused line was kept, with its text, so a 49 MiB list of one-letter
    /// lines took gigabytes. The report keeps the first ones, in line order, and counts them all.
    #[test]
    fn a_list_of_refused_lines_keeps_the_first_ones_and_counts_the_rest() {
        let en = DictionaryId::English.alphabet();
        // A word for each number: its digits as letters.
        let word = |n: u32| -> String {
            n.to_string()
                .bytes()
                .map(|d| char::from(b'a' + d - b'0'))
                .collect()
        };
        let mut bytes = Vec::new();
        for i in 0..50_000u32 {
            // A hundred one-letter lines between the first words; a thousand words, each fifty
            // times.
            if i < 100 {
                bytes.extend(b"x\n");
            }
            bytes.extend(format!("w{}\n", word(i % 1000)).as_bytes());
        }
        let parsed = parse(&bytes, &en);
        assert_eq!(parsed.words.len(), 1000);
        assert_eq!(parsed.rejected_total, 100 + 49_000);
        assert_eq!(parsed.rejected.len(), Report::REJECTED_SHOWN);
        assert!(parsed.rejected.windows(2).all(|w| w[0].line < w[1].line));
        assert_eq!(parsed.rejected[0].problem, LineProblem::TooShort);
        // The first duplicate: the second "wa", on line 1,101 (i = 1000), of line 2.
        assert_eq!(
            parsed.rejected[100],
            Rejected {
                line: 1101,
                text: "wa".into(),
                problem: LineProblem::Duplicate { first_line: 2 },
            }
        );
    }

    /// Regression: a line with a right-to-left override was shown raw in the report, turning
    /// the text around it.
    #[test]
    fn a_refused_line_shows_reordering_characters_written_out() {
        let en = DictionaryId::English.alphabet();
        let parsed = parse("ab\u{202e}cd\n".as_bytes(), &en);
        assert_eq!(parsed.rejected[0].text, "ab\\u{202e}cd");
    }

    #[test]
    fn the_report_compares_with_the_base_and_warns() {
        let en = DictionaryId::English.alphabet();
        let base = FstLexicon::from_words(["alpha", "beta", "gamma", "delta"]);
        let parsed = parse(b"beta\nepsilon\nalpha\n", &en);
        let report = report(&parsed, Some((1, &base)));
        assert_eq!((report.accepted, report.added, report.removed), (3, 1, 2));
        assert_eq!(report.first_added, ["epsilon"]);
        assert_eq!(report.first_removed, ["delta", "gamma"]);
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        let parsed = parse(b"zeta\n", &en);
        let report = super::report(&parsed, Some((1, &base)));
        assert_eq!(
            report.warnings,
            [Warning::RemovesMost { removed: 4, of: 4 }]
        );
        let report = super::report(&parse(b"x\n", &en), Some((1, &base)));
        assert!(report.warnings.contains(&Warning::NoWords));
    }

    #[test]
    fn an_edit_adds_and_removes() {
        let en = DictionaryId::English.alphabet();
        let base = FstLexicon::from_words(["alpha", "beta"]);
        let parsed = edit(&base, "gamma\nBeta\n", "alpha\nomega\n", &en);
        assert_eq!(words(&parsed), ["beta", "gamma"]);
        assert_eq!(parsed.rejected.len(), 1);
        assert_eq!(parsed.rejected[0].problem, LineProblem::NotInDictionary);
    }

    #[test]
    fn a_build_reads_back_the_same_words() {
        let words = Words::from_sorted(["ab", "abc", "bär"]);
        let built = build(&words);
        let lexicon = FstLexicon::from_bytes(built.fst.clone()).unwrap();
        assert_eq!(lexicon.words(), ["ab", "abc", "bär"]);
        assert_eq!(built.sha256, sha256(&built.fst));
        assert_eq!(built.sha256.len(), 64);
    }
}
