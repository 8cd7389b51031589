//! Making a new version of a dictionary: reading an uploaded word list line by line (saying why
//! each refused line was refused), applying an admin's additions and removals, comparing with the
//! version it replaces, and building the FST with its content hash.

use std::{
    collections::HashMap,
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
    /// Reading the lines (or expanding the hunspell entries).
    Reading,
    /// Comparing with the version it replaces.
    Comparing,
    /// Building the FST.
    Building,
    /// Writing the version to the database.
    Saving,
}

impl Stage {
    /// For the progress bar.
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Reading => "reading the list",
            Stage::Comparing => "comparing with the active version",
            Stage::Building => "building the dictionary",
            Stage::Saving => "saving the draft",
        }
    }
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
            0 => Stage::Reading,
            1 => Stage::Comparing,
            2 => Stage::Building,
            _ => Stage::Saving,
        };
        let total = self.total.load(Ordering::Relaxed);
        (stage, self.done.load(Ordering::Relaxed).min(total), total)
    }
}

/// Steps between two updates of a [`Progress`].
const STEP: u64 = 16_384;

/// A word list read from text: its words, sorted and unique, and the lines not taken.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The words, in byte order.
    pub words: Vec<String>,
    /// Lines not taken (all of them; the report keeps the first ones).
    pub rejected: Vec<Rejected>,
    /// Whether the bytes look like a binary file rather than text.
    pub binary: bool,
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
    progress.start(Stage::Reading, bytes.split(|&b| b == b'\n').count() as u64);
    let lines = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(index, raw)| {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            (u32::try_from(index + 1).unwrap_or(u32::MAX), raw)
        });
    let mut parsed = read(lines, alphabet, Source::List, progress);
    // A NUL byte, or mostly undecodable lines, is no word list.
    let lines_with_text = bytes
        .split(|&b| b == b'\n')
        .filter(|raw| !raw.iter().all(u8::is_ascii_whitespace))
        .count();
    let not_utf8 = parsed
        .rejected
        .iter()
        .filter(|r| r.problem == LineProblem::NotUtf8)
        .count();
    parsed.binary =
        bytes.iter().take(65_536).any(|&b| b == 0) || not_utf8 * 10 > lines_with_text.max(1);
    parsed
}

/// Expands a hunspell `.dic` + `.aff` pair (see [`crate::hunspell`]) and reads the forms as
/// [`parse`] reads lines, except that a capitalised form (a name) is left out, as the shipped
/// lists leave them out, and a form two entries make is simply one word. Rejected forms carry the
/// number of the `.dic` line that made them.
pub fn parse_hunspell(
    dic: &[u8],
    aff: &[u8],
    alphabet: &[char],
    progress: &Progress,
) -> Result<Parsed, crate::hunspell::HunspellError> {
    progress.start(Stage::Reading, 0);
    let forms = crate::hunspell::expand(dic, aff)?;
    progress.start(Stage::Reading, forms.len() as u64);
    let lines = forms.iter().map(|(line, form)| (*line, form.as_bytes()));
    Ok(read(lines, alphabet, Source::Hunspell, progress))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    List,
    Hunspell,
}

fn read<'a>(
    lines: impl Iterator<Item = (u32, &'a [u8])>,
    alphabet: &[char],
    source: Source,
    progress: &Progress,
) -> Parsed {
    let max = longest_word();
    let mut parsed = Parsed::default();
    let mut first_line: HashMap<String, u32> = HashMap::new();
    for (index, (line, raw)) in lines.enumerate() {
        if (index as u64).is_multiple_of(STEP) {
            progress.advance(index as u64);
        }
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let reject = |problem: LineProblem| Rejected {
            line,
            text: String::from_utf8_lossy(raw).chars().take(80).collect(),
            problem,
        };
        let Ok(text) = std::str::from_utf8(raw) else {
            parsed.rejected.push(reject(LineProblem::NotUtf8));
            continue;
        };
        if source == Source::Hunspell && text.chars().next().is_some_and(char::is_uppercase) {
            parsed.rejected.push(reject(LineProblem::Capitalised));
            continue;
        }
        match check_word(text, alphabet, max) {
            Ok(None) => {}
            Ok(Some(word)) => match first_line.get(&word) {
                Some(_) if source == Source::Hunspell => {}
                Some(&first) => parsed
                    .rejected
                    .push(reject(LineProblem::Duplicate { first_line: first })),
                None => {
                    first_line.insert(word.clone(), line);
                    parsed.words.push(word);
                }
            },
            Err(problem) => parsed.rejected.push(reject(problem)),
        }
    }
    parsed.words.sort_unstable();
    parsed
}

/// One line's word in the dictionaries' form, `None` for a comment, or why it is refused.
fn check_word(text: &str, alphabet: &[char], max: usize) -> Result<Option<String>, LineProblem> {
    let text = text.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return Ok(None);
    }
    if text.split_whitespace().nth(1).is_some() {
        return Err(LineProblem::SeveralWords);
    }
    let word: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'é' { 'e' } else { c })
        .collect();
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
    Ok(Some(word))
}

/// An edit: `base`'s words with `add`'s taken and `remove`'s dropped (both read as word lists).
/// Refused lines of both are in `rejected`, line numbers counted in each list; a word to remove
/// that `base` lacks is refused as not in the dictionary.
pub fn edit(base: &FstLexicon, add: &str, remove: &str, alphabet: &[char]) -> Parsed {
    use rules::Lexicon;
    let progress = Progress::default();
    let added = read_text(add, alphabet, &progress);
    let mut removed = read_text(remove, alphabet, &progress);
    let (present, absent): (Vec<String>, Vec<String>) = std::mem::take(&mut removed.words)
        .into_iter()
        .partition(|word| base.contains(word));
    removed
        .rejected
        .extend(absent.into_iter().map(|word| Rejected {
            line: 0,
            text: word,
            problem: LineProblem::NotInDictionary,
        }));
    // The base's words merged with the additions as they stream out of the FST, both in byte
    // order, less the removals: no second copy of the base to sort.
    let mut words = Vec::with_capacity(base.len() + added.words.len());
    let mut additions = added.words.into_iter().peekable();
    base.each_word(|word| {
        while let Some(new) = additions.next_if(|new| new.as_str() < word) {
            words.push(new);
        }
        additions.next_if(|new| new == word);
        if present.binary_search_by(|p| p.as_str().cmp(word)).is_err() {
            words.push(word.to_string());
        }
    });
    words.extend(additions);
    let mut rejected = added.rejected;
    rejected.extend(removed.rejected);
    Parsed {
        words,
        rejected,
        binary: false,
    }
}

fn read_text(text: &str, alphabet: &[char], progress: &Progress) -> Parsed {
    let lines = text.lines().enumerate().map(|(index, line)| {
        (
            u32::try_from(index + 1).unwrap_or(u32::MAX),
            line.as_bytes(),
        )
    });
    read(lines, alphabet, Source::List, progress)
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
        rejected_total: parsed.rejected.len() as u64,
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
            while j < new.len() && new[j].as_str() < old {
                note(&mut report.added, &mut report.first_added, &new[j]);
                j += 1;
            }
            if j < new.len() && new[j] == old {
                j += 1;
            } else {
                note(&mut report.removed, &mut report.first_removed, old);
            }
        });
        for word in &new[j..] {
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
pub fn build(words: &[String]) -> Built {
    build_with(words, &Progress::default())
}

/// [`build`], moving `progress` along.
pub fn build_with(words: &[String], progress: &Progress) -> Built {
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
        assert_eq!(parsed.words, ["cafe", "hello", "world"]);
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
        assert!(!parsed.binary);
        assert!(parse(b"abc\0def\n", &en).binary);
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
        assert_eq!(parsed.words, ["beta", "gamma"]);
        assert_eq!(parsed.rejected.len(), 1);
        assert_eq!(parsed.rejected[0].problem, LineProblem::NotInDictionary);
    }

    #[test]
    fn a_build_reads_back_the_same_words() {
        let words: Vec<String> = ["ab", "abc", "bär"].map(String::from).to_vec();
        let built = build(&words);
        let lexicon = FstLexicon::from_bytes(built.fst.clone()).unwrap();
        assert_eq!(lexicon.words(), words);
        assert_eq!(built.sha256, sha256(&built.fst));
        assert_eq!(built.sha256.len(), 64);
    }
}
