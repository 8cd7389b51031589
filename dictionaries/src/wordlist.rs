//! Making a new version of a dictionary: reading an uploaded word list line by line (saying why
//! each refused line was refused), applying an admin's additions and removals, comparing with the
//! version it replaces, and building the FST with its content hash.

use std::collections::HashMap;

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
    let lines = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(index, raw)| {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            (u32::try_from(index + 1).unwrap_or(u32::MAX), raw)
        });
    let mut parsed = read(lines, alphabet, Source::List);
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
) -> Result<Parsed, crate::hunspell::HunspellError> {
    let forms = crate::hunspell::expand(dic, aff)?;
    let lines = forms.iter().map(|(line, form)| (*line, form.as_bytes()));
    Ok(read(lines, alphabet, Source::Hunspell))
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
) -> Parsed {
    let max = longest_word();
    let mut parsed = Parsed::default();
    let mut first_line: HashMap<String, u32> = HashMap::new();
    for (line, raw) in lines {
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
    let added = parse(add.as_bytes(), alphabet);
    let mut removed = parse(remove.as_bytes(), alphabet);
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
    let mut words = base.words();
    words.extend(added.words);
    words.sort_unstable();
    words.dedup();
    words.retain(|word| present.binary_search(word).is_err());
    let mut rejected = added.rejected;
    rejected.extend(removed.rejected);
    Parsed {
        words,
        rejected,
        binary: false,
    }
}

/// The report on `parsed` against `base` (its version number and words), with the warnings that
/// publishing it must confirm.
pub fn report(parsed: &Parsed, base: Option<(u32, &FstLexicon)>) -> Report {
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
        let old = base.words();
        let (added, removed) = diff(&old, &parsed.words);
        report.added = added.len() as u64;
        report.removed = removed.len() as u64;
        report.first_added = added
            .into_iter()
            .take(Report::DIFF_SHOWN)
            .cloned()
            .collect();
        report.first_removed = removed
            .into_iter()
            .take(Report::DIFF_SHOWN)
            .cloned()
            .collect();
        if report.removed * 2 > old.len() as u64 {
            report.warnings.push(Warning::RemovesMost {
                removed: report.removed,
                of: old.len() as u64,
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

/// The words only `new` has and those only `old` has; both lists sorted and unique.
fn diff<'a>(old: &'a [String], new: &'a [String]) -> (Vec<&'a String>, Vec<&'a String>) {
    let (mut added, mut removed) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(o), Some(n)) if o == n => (i, j) = (i + 1, j + 1),
            (Some(o), Some(n)) if o < n => {
                removed.push(o);
                i += 1;
            }
            (Some(o), None) => {
                removed.push(o);
                i += 1;
            }
            (_, Some(n)) => {
                added.push(n);
                j += 1;
            }
            (None, None) => unreachable!("the loop stops when both are done"),
        }
    }
    (added, removed)
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
    let mut builder = fst::SetBuilder::memory();
    for word in words {
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
