//! Expanding a hunspell dictionary (`.dic` stems with affix flags, `.aff` rules) into every word
//! form, the way `dictionaries/build.sh` does with npm's hunspell-reader for the shipped Swedish
//! and Danish lists: each stem's prefixes and suffixes are applied (prefix and suffix together
//! where both allow it, continuation classes to a depth of five), forms that still need an affix
//! (`NEEDAFFIX`) are dropped, and so are forbidden forms (`FORBIDDENWORD`) and forms allowed only
//! inside compounds (`ONLYINCOMPOUND`). Compounding rules are not expanded: they describe an
//! unbounded set of words.
//!
//! An admin uploads these files, and a few bytes of affix rules can multiply into millions of
//! forms (one stem with 26 chained suffixes made 12 million): the expansion is bounded, and
//! [`Cut`] says what it left out.

use std::collections::HashMap;

use crate::versions::Warning;

/// How deep continuation classes are followed (hunspell-reader's default).
const MAX_DEPTH: u32 = 5;

/// The most forms one `.dic` entry may make: the real dictionaries' richest entries make a few
/// hundred.
pub const FORMS_PER_ENTRY: u32 = 20_000;

/// The most forms a whole expansion may make: Danish, the largest shipped, makes about a
/// million.
pub const FORMS_IN_ALL: u64 = 5_000_000;

/// What an expansion left out because of its limits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cut {
    /// Entries that made more than [`FORMS_PER_ENTRY`] forms: only that many were taken.
    pub entries: u32,
    /// The `.dic` line of the first such entry.
    pub first_line: u32,
    /// The `.dic` line at which [`FORMS_IN_ALL`] forms were reached: the entries from there on
    /// were not read.
    pub stopped_at: Option<u32>,
}

impl Cut {
    /// The report's warnings for what was cut: publishing the draft must confirm them.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut warnings = Vec::new();
        if self.entries > 0 {
            warnings.push(Warning::EntriesCut {
                entries: self.entries,
                first_line: self.first_line,
                most: FORMS_PER_ENTRY,
            });
        }
        if let Some(line) = self.stopped_at {
            warnings.push(Warning::ExpansionStopped {
                line,
                most: FORMS_IN_ALL,
            });
        }
        warnings
    }
}

/// Why a hunspell pair could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunspellError(pub String);

impl std::error::Error for HunspellError {}

impl std::fmt::Display for HunspellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How the `.aff` writes flags (`FLAG`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FlagType {
    /// One character per flag (the default; `FLAG UTF-8` too).
    Char,
    /// Two characters per flag.
    Long,
    /// Decimal numbers separated by commas.
    Num,
}

type Flag = u32;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Any,
    One(char),
    Set { negated: bool, chars: Vec<char> },
}

impl Part {
    fn matches(&self, c: char) -> bool {
        match self {
            Part::Any => true,
            Part::One(one) => *one == c,
            Part::Set { negated, chars } => chars.contains(&c) != *negated,
        }
    }
}

/// An affix entry's condition: which characters the end (suffix) or start (prefix) must have.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Condition(Vec<Part>);

impl Condition {
    fn parse(text: &str) -> Condition {
        if text == "." || text == "0" {
            return Condition(Vec::new());
        }
        let mut parts = Vec::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                '.' => parts.push(Part::Any),
                '[' => {
                    let mut set: Vec<char> = chars.by_ref().take_while(|&c| c != ']').collect();
                    let negated = set.first() == Some(&'^');
                    if negated {
                        set.remove(0);
                    }
                    parts.push(Part::Set {
                        negated,
                        chars: set,
                    });
                }
                c => parts.push(Part::One(c)),
            }
        }
        Condition(parts)
    }

    fn matches(&self, word: &[char], suffix: bool) -> bool {
        let n = self.0.len();
        if word.len() < n {
            return false;
        }
        let window = if suffix {
            &word[word.len() - n..]
        } else {
            &word[..n]
        };
        self.0.iter().zip(window).all(|(part, &c)| part.matches(c))
    }
}

#[derive(Debug, Clone)]
struct Entry {
    strip: Vec<char>,
    add: Vec<char>,
    continuation: Vec<Flag>,
    condition: Condition,
}

#[derive(Debug, Clone)]
struct Class {
    suffix: bool,
    /// Whether a prefix and a suffix of such classes combine on one stem.
    cross: bool,
    entries: Vec<Entry>,
}

/// What a set of flags says of a form beyond its affixes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Marks {
    forbidden: bool,
    only_in_compound: bool,
    need_affix: bool,
}

/// A parsed `.aff`.
#[derive(Debug)]
pub struct Affixes {
    flag_type: FlagType,
    aliases: Vec<Vec<Flag>>,
    classes: HashMap<Flag, Class>,
    forbidden: Option<Flag>,
    only_in_compound: Option<Flag>,
    need_affix: Option<Flag>,
    /// The `SET` encoding, as written.
    pub encoding: String,
}

/// Decodes `bytes` in a hunspell `SET` encoding (UTF-8 or ISO-8859-1, the ones word lists use).
fn decode(bytes: &[u8], encoding: &str) -> Result<String, HunspellError> {
    match encoding.to_ascii_uppercase().as_str() {
        "UTF-8" | "UTF8" => String::from_utf8(bytes.to_vec())
            .map_err(|e| HunspellError(format!("not valid UTF-8, as SET says: {e}"))),
        "ISO8859-1" | "ISO-8859-1" | "LATIN1" => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
        other => Err(HunspellError(format!(
            "the encoding {other} is not supported: convert the files to UTF-8"
        ))),
    }
}

impl Affixes {
    /// Reads an `.aff` file.
    pub fn parse(bytes: &[u8]) -> Result<Affixes, HunspellError> {
        // SET comes first in practice; find it on the raw bytes, which are ASCII up to it.
        let encoding = bytes
            .split(|&b| b == b'\n')
            .filter_map(|line| std::str::from_utf8(line).ok())
            .find_map(|line| {
                line.trim()
                    .strip_prefix("SET ")
                    .map(|e| e.trim().to_string())
            })
            .unwrap_or_else(|| "ISO8859-1".into());
        let text = decode(bytes, &encoding)?;
        let mut affixes = Affixes {
            flag_type: FlagType::Char,
            aliases: Vec::new(),
            classes: HashMap::new(),
            forbidden: None,
            only_in_compound: None,
            need_affix: None,
            encoding,
        };
        // Flag definitions may come after the rules that use them: read the settings first.
        let lines: Vec<Vec<&str>> = text
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .filter(|fields| !fields.is_empty() && !fields[0].starts_with('#'))
            .collect();
        for fields in &lines {
            if let ["FLAG", kind, ..] = fields[..] {
                affixes.flag_type = match kind {
                    "long" => FlagType::Long,
                    "num" => FlagType::Num,
                    "UTF-8" => FlagType::Char,
                    other => return Err(HunspellError(format!("unknown FLAG type {other}"))),
                };
            }
        }
        let one = |affixes: &Affixes, text: &str| affixes.flags(text).first().copied();
        let mut alias_header_seen = false;
        for fields in &lines {
            match fields[..] {
                ["FORBIDDENWORD", flag, ..] => affixes.forbidden = one(&affixes, flag),
                ["ONLYINCOMPOUND", flag, ..] => affixes.only_in_compound = one(&affixes, flag),
                ["NEEDAFFIX", flag, ..] | ["PSEUDOROOT", flag, ..] => {
                    affixes.need_affix = one(&affixes, flag)
                }
                ["AF", value, ..] => {
                    // The first AF line is the count; the others are numbered from 1.
                    if alias_header_seen {
                        let flags = affixes.raw_flags(value);
                        affixes.aliases.push(flags);
                    } else {
                        alias_header_seen = true;
                    }
                }
                [kind @ ("PFX" | "SFX"), flag, cross, _count] => {
                    let Some(flag) = one(&affixes, flag) else {
                        continue;
                    };
                    affixes.classes.entry(flag).or_insert(Class {
                        suffix: kind == "SFX",
                        cross: cross == "Y",
                        entries: Vec::new(),
                    });
                }
                [kind @ ("PFX" | "SFX"), flag, strip, add, ref rest @ ..] => {
                    let Some(flag) = one(&affixes, flag) else {
                        continue;
                    };
                    let (add, continuation) = match add.split_once('/') {
                        Some((add, cont)) => (add, affixes.flags(cont)),
                        None => (add, Vec::new()),
                    };
                    let entry = Entry {
                        strip: if strip == "0" {
                            Vec::new()
                        } else {
                            strip.chars().collect()
                        },
                        add: if add == "0" {
                            Vec::new()
                        } else {
                            add.chars().collect()
                        },
                        continuation,
                        condition: Condition::parse(rest.first().copied().unwrap_or(".")),
                    };
                    let class = affixes.classes.entry(flag).or_insert(Class {
                        suffix: kind == "SFX",
                        cross: false,
                        entries: Vec::new(),
                    });
                    class.entries.push(entry);
                }
                _ => {}
            }
        }
        Ok(affixes)
    }

    /// The flags written in `text` (or, with aliases, the alias `text` numbers).
    fn flags(&self, text: &str) -> Vec<Flag> {
        if !self.aliases.is_empty() {
            if let Ok(n) = text.parse::<usize>() {
                return n
                    .checked_sub(1)
                    .and_then(|i| self.aliases.get(i))
                    .cloned()
                    .unwrap_or_default();
            }
        }
        self.raw_flags(text)
    }

    /// The flags written in `text`, in the file's flag type.
    fn raw_flags(&self, text: &str) -> Vec<Flag> {
        let mut flags: Vec<Flag> = match self.flag_type {
            FlagType::Char => text.chars().map(u32::from).collect(),
            FlagType::Long => {
                let chars: Vec<char> = text.chars().collect();
                chars
                    .chunks(2)
                    .map(|pair| {
                        pair.iter()
                            .fold(0u32, |acc, &c| acc * 0x11_0000 + u32::from(c))
                    })
                    .collect()
            }
            FlagType::Num => text
                .split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect(),
        };
        let mut seen = std::collections::HashSet::new();
        flags.retain(|f| seen.insert(*f));
        flags
    }

    fn marks(&self, flags: &[Flag]) -> Marks {
        let has = |flag: Option<Flag>| flag.is_some_and(|f| flags.contains(&f));
        Marks {
            forbidden: has(self.forbidden),
            only_in_compound: has(self.only_in_compound),
            need_affix: has(self.need_affix),
        }
    }

    /// Every form of one `.dic` entry (`word/flags`, maybe followed by morphology), at most
    /// [`FORMS_PER_ENTRY`]; whether it made more.
    fn expand_entry(&self, line: &str, out: &mut Vec<String>) -> bool {
        let first = line.split_whitespace().next().unwrap_or("");
        let (word, flags) = match first.split_once('/') {
            Some((word, flags)) => (word, self.flags(flags)),
            None => (first, Vec::new()),
        };
        if word.is_empty() {
            return false;
        }
        let root = Form {
            word: word.chars().collect(),
            marks: self.marks(&flags),
            rules: self.affix_rules(&flags),
        };
        let mut budget = FORMS_PER_ENTRY;
        !self.apply(root, MAX_DEPTH, out, &mut budget)
    }

    fn affix_rules(&self, flags: &[Flag]) -> Vec<Flag> {
        flags
            .iter()
            .copied()
            .filter(|f| self.classes.contains_key(f))
            .collect()
    }

    /// The form itself (unless it still needs an affix) and everything its rules make of it,
    /// as long as `budget` lasts; `false` once it ran out (the rest of the entry is left out).
    fn apply(&self, form: Form, depth: u32, out: &mut Vec<String>, budget: &mut u32) -> bool {
        if !form.marks.need_affix && !form.marks.forbidden && !form.marks.only_in_compound {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            out.push(form.word.iter().collect());
        }
        if depth == 0 {
            return true;
        }
        let combinable: Vec<Flag> = form
            .rules
            .iter()
            .copied()
            .filter(|f| self.classes[f].suffix && self.classes[f].cross)
            .collect();
        for flag in &form.rules {
            let class = &self.classes[flag];
            for entry in &class.entries {
                if !entry.condition.matches(&form.word, class.suffix) {
                    continue;
                }
                let word = &form.word;
                let stripped = if class.suffix {
                    word.strip_suffix(entry.strip.as_slice())
                } else {
                    word.strip_prefix(entry.strip.as_slice())
                };
                let Some(stripped) = stripped else {
                    continue;
                };
                let word: Vec<char> = if class.suffix {
                    stripped.iter().chain(&entry.add).copied().collect()
                } else {
                    entry.add.iter().chain(stripped).copied().collect()
                };
                // A prefix that combines keeps the stem's combining suffixes; the continuation
                // classes come on top; marks carry over, but an affix satisfies NEEDAFFIX.
                let mut rules = if !class.suffix && class.cross {
                    combinable.clone()
                } else {
                    Vec::new()
                };
                rules.extend(self.affix_rules(&entry.continuation));
                let added = self.marks(&entry.continuation);
                let marks = Marks {
                    forbidden: form.marks.forbidden || added.forbidden,
                    only_in_compound: form.marks.only_in_compound || added.only_in_compound,
                    need_affix: added.need_affix,
                };
                if !self.apply(Form { word, marks, rules }, depth - 1, out, budget) {
                    return false;
                }
            }
        }
        true
    }
}

struct Form {
    word: Vec<char>,
    marks: Marks,
    rules: Vec<Flag>,
}

/// Expands a `.dic` with its `.aff`: hands `each` every form, with its entry's line number (the
/// count on the first line is line 1), in the order the entries come, within the limits
/// ([`FORMS_PER_ENTRY`], [`FORMS_IN_ALL`], a depth of five); says what the limits cut.
pub fn expand_each(
    dic: &[u8],
    aff: &[u8],
    mut each: impl FnMut(u32, &str),
) -> Result<Cut, HunspellError> {
    let affixes = Affixes::parse(aff)?;
    let text = decode(dic, &affixes.encoding)?;
    let mut forms = Vec::new();
    let mut cut = Cut::default();
    let mut made = 0u64;
    for (index, line) in text.lines().enumerate().skip(1) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if made >= FORMS_IN_ALL {
            cut.stopped_at = Some(number);
            break;
        }
        if affixes.expand_entry(line, &mut forms) {
            if cut.entries == 0 {
                cut.first_line = number;
            }
            cut.entries += 1;
        }
        made += forms.len() as u64;
        for form in forms.drain(..) {
            each(number, &form);
        }
    }
    Ok(cut)
}

/// Every form [`expand_each`] makes, with its entry's line number.
pub fn expand(dic: &[u8], aff: &[u8]) -> Result<Vec<(u32, String)>, HunspellError> {
    let mut out = Vec::new();
    expand_each(dic, aff, |line, form| out.push((line, form.to_string())))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: one stem with 26 suffix classes, each continuing with all of them, expanded
    /// into 26^5 (12 million) forms and gigabytes. Each entry now stops at FORMS_PER_ENTRY, and
    /// the report says so.
    #[test]
    fn an_affix_bomb_is_cut_at_the_entry_limit_and_says_so() {
        let flags: String = ('A'..='Z').collect();
        let mut aff = String::from("SET UTF-8\n");
        for flag in flags.chars() {
            // Each class adds a letter and continues with every class.
            let letter = flag.to_ascii_lowercase();
            aff.push_str(&format!(
                "SFX {flag} Y 1\nSFX {flag} 0 {letter}/{flags} .\n"
            ));
        }
        let dic = format!("2\nbomb/{flags}\nord\n");
        let mut forms = 0u64;
        let mut lines = std::collections::HashSet::new();
        let cut = expand_each(dic.as_bytes(), aff.as_bytes(), |line, _| {
            forms += 1;
            lines.insert(line);
        })
        .unwrap();
        assert_eq!(
            forms,
            u64::from(FORMS_PER_ENTRY) + 1,
            "the bomb's share, and ord"
        );
        assert_eq!(lines.len(), 2);
        assert_eq!(
            cut,
            Cut {
                entries: 1,
                first_line: 2,
                stopped_at: None
            }
        );
        assert_eq!(
            cut.warnings(),
            [Warning::EntriesCut {
                entries: 1,
                first_line: 2,
                most: FORMS_PER_ENTRY
            }]
        );
    }

    fn words(dic: &str, aff: &str) -> Vec<String> {
        let mut words: Vec<String> = expand(dic.as_bytes(), aff.as_bytes())
            .unwrap()
            .into_iter()
            .map(|(_, w)| w)
            .collect();
        words.sort();
        words.dedup();
        words
    }

    const AFF: &str = "SET UTF-8\n\
        FORBIDDENWORD %\nNEEDAFFIX !\nONLYINCOMPOUND Z\n\
        SFX A Y 3\nSFX A 0 ar [^e]\nSFX A e ar e\nSFX A 0 s/B .\n\
        SFX B Y 1\nSFX B 0 t .\n\
        PFX O Y 1\nPFX O 0 o .\n\
        PFX N N 1\nPFX N 0 un .\n\
        SFX C N 1\nSFX C 0 na/Z .\n";

    #[test]
    fn suffixes_strip_and_match_their_conditions_and_continue() {
        assert_eq!(
            words("2\nbil/A\nlinje/A\n", AFF),
            ["bil", "bilar", "bils", "bilst", "linjar", "linje", "linjes", "linjest",]
        );
    }

    #[test]
    fn a_prefix_combines_with_suffixes_only_where_both_allow_it() {
        // O and A both cross: obil, obilar, obils, obilst. N does not: unbil alone.
        assert_eq!(
            words("1\nbil/AON\n", AFF),
            ["bil", "bilar", "bils", "bilst", "obil", "obilar", "obils", "obilst", "unbil",]
        );
    }

    #[test]
    fn needaffix_forbidden_and_compound_only_forms_are_left_out() {
        assert_eq!(
            words("3\nstam/!A\nfel/%\nkatt/C\n", AFF),
            ["katt", "stamar", "stams", "stamst",]
        );
    }

    #[test]
    fn numeric_and_long_flags_and_aliases_are_read() {
        let num = "SET UTF-8\nFLAG num\nSFX 101 Y 1\nSFX 101 0 en .\nSFX 7 Y 1\nSFX 7 0 s .\n";
        assert_eq!(words("1\nhus/101,7\n", num), ["hus", "husen", "huss"]);
        let long = "SET UTF-8\nFLAG long\nSFX Aa Y 1\nSFX Aa 0 er .\n";
        assert_eq!(words("1\nhus/Aa\n", long), ["hus", "huser"]);
        let aliases =
            "SET UTF-8\nAF 2\nAF A\nAF AB\nSFX A Y 1\nSFX A 0 a .\nSFX B Y 1\nSFX B 0 b .\n";
        assert_eq!(
            words("2\nx/1\ny/2\n", aliases),
            ["x", "xa", "y", "ya", "yb"]
        );
    }

    #[test]
    fn latin1_files_are_decoded_and_other_encodings_refused() {
        let aff = b"SET ISO8859-1\nSFX A Y 1\nSFX A 0 \xe4r .\n";
        let out = expand(b"1\nb\xe5t/A\n", aff).unwrap();
        assert_eq!(
            out,
            [
                (2, "b\u{e5}t".to_string()),
                (2, "b\u{e5}t\u{e4}r".to_string())
            ]
        );
        assert!(expand(b"1\nx\n", b"SET KOI8-R\n").is_err());
    }
}
