//! Dictionary versions as the admin panel and the players see them: what an upload or an edit
//! was found to hold, the versions of a dictionary, the audit log and players' word reports. Plain
//! data, shared by the store that writes it, the server functions that send it and the pages.

use serde::{Deserialize, Serialize};

use crate::DictionaryId;

/// Why a line of an upload (or of an edit) was not taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineProblem {
    /// The line's bytes are not UTF-8.
    NotUtf8,
    /// More than one word on the line.
    SeveralWords,
    /// One letter: words have at least two.
    TooShort,
    /// Longer than the largest board.
    TooLong {
        /// Letters in the word.
        letters: u32,
        /// The most a board fits.
        max: u32,
    },
    /// A letter the dictionary's alphabet lacks.
    OutsideAlphabet(char),
    /// The word came earlier in the same list.
    Duplicate {
        /// The line it came on first.
        first_line: u32,
    },
    /// A word to remove that the dictionary does not hold.
    NotInDictionary,
    /// A capitalised form of a hunspell dictionary: a name, which the lists leave out.
    Capitalised,
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineProblem::NotUtf8 => f.write_str("not valid UTF-8"),
            LineProblem::SeveralWords => f.write_str("more than one word"),
            LineProblem::TooShort => f.write_str("one letter: words have at least two"),
            LineProblem::TooLong { letters, max } => {
                write!(
                    f,
                    "{letters} letters: longer than the largest board ({max})"
                )
            }
            LineProblem::OutsideAlphabet(c) => write!(f, "'{c}' is not in the alphabet"),
            LineProblem::Duplicate { first_line } => {
                write!(f, "duplicate of line {first_line}")
            }
            LineProblem::NotInDictionary => f.write_str("not in the dictionary"),
            LineProblem::Capitalised => f.write_str("capitalised: a name"),
        }
    }
}

/// One line that was not taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// Its line number, from 1.
    pub line: u32,
    /// The line as written (invalid bytes replaced).
    pub text: String,
    /// Why the line was refused.
    pub problem: LineProblem,
}

/// Something about a draft that publishing it must confirm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Warning {
    /// The upload looks like a binary file, not a word list.
    Binary,
    /// Not one word was taken.
    NoWords,
    /// It would remove more than half of the words of the version it was compared with.
    RemovesMost {
        /// Words removed.
        removed: u64,
        /// Words the compared version has.
        of: u64,
    },
    /// Hunspell entries made more forms than one entry may: only the first `most` of each were
    /// taken.
    EntriesCut {
        /// How many entries were cut.
        entries: u32,
        /// The `.dic` line of the first.
        first_line: u32,
        /// The most forms an entry may make.
        most: u32,
    },
    /// A hunspell expansion reached the most forms one may make: the entries from `line` on
    /// were not read.
    ExpansionStopped {
        /// The `.dic` line it stopped at.
        line: u32,
        /// The most forms an expansion may make.
        most: u64,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::Binary => f.write_str("the file looks binary, not like a word list"),
            Warning::NoWords => f.write_str("not one valid word"),
            Warning::RemovesMost { removed, of } => write!(
                f,
                "it removes {removed} of the active version's {of} words, more than half"
            ),
            Warning::EntriesCut {
                entries,
                first_line,
                most,
            } => write!(
                f,
                "entries that made more than {most} forms: {entries} (the first on line \
                 {first_line}); only the first {most} forms of each were taken"
            ),
            Warning::ExpansionStopped { line, most } => write!(
                f,
                "the expansion stopped at {most} forms, on line {line}: the entries from there \
                 on were not read"
            ),
        }
    }
}

/// What an upload or an edit was found to hold, shown before anything is published.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Words in the new version.
    pub accepted: u64,
    /// Lines not taken, in all.
    pub rejected_total: u64,
    /// The first [`Report::REJECTED_SHOWN`] of them.
    pub rejected: Vec<Rejected>,
    /// The version compared with.
    pub based_on: Option<u32>,
    /// Words added against it.
    pub added: u64,
    /// Words removed against it.
    pub removed: u64,
    /// The first [`Report::DIFF_SHOWN`] added, in byte order.
    pub first_added: Vec<String>,
    /// The first [`Report::DIFF_SHOWN`] removed, in byte order.
    pub first_removed: Vec<String>,
    /// What publishing must confirm.
    pub warnings: Vec<Warning>,
}

impl Report {
    /// Rejected lines kept in a report.
    pub const REJECTED_SHOWN: usize = 1000;
    /// Added and removed words kept in a report, each.
    pub const DIFF_SHOWN: usize = 100;
}

/// How a version came to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// The list the project ships, imported on first start.
    Shipped,
    /// An uploaded list.
    Upload,
    /// Words added to or removed from another version.
    Edit,
}

impl Origin {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Shipped => "shipped",
            Origin::Upload => "upload",
            Origin::Edit => "edit",
        }
    }

    /// From the stored name.
    pub fn parse(text: &str) -> Option<Origin> {
        [Origin::Shipped, Origin::Upload, Origin::Edit]
            .into_iter()
            .find(|o| o.as_str() == text)
    }
}

/// One version of a dictionary, as the panel lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionSummary {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// Its number.
    pub version: u32,
    /// How many words it holds.
    pub word_count: u64,
    /// FST size in bytes.
    pub fst_bytes: u64,
    /// SHA-256 of the FST, hex.
    pub sha256: String,
    /// How it came to be.
    pub origin: Origin,
    /// The version it was compared with.
    pub based_on: Option<u32>,
    /// The admin's reason.
    pub note: String,
    /// Who made it (none for the shipped list).
    pub created_by: Option<String>,
    /// When, unix ms.
    pub created_at: i64,
    /// Who first published it.
    pub published_by: Option<String>,
    /// When it was first published, unix ms; `None` for a draft never published.
    pub published_at: Option<i64>,
    /// Whether new games get it now.
    pub active: bool,
}

/// A dictionary in the panel: what it is and all its versions, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DictionaryOverview {
    /// The dictionary.
    pub id: DictionaryId,
    /// The letters its words may use.
    pub alphabet: String,
    /// The version new games get.
    pub active: u32,
    /// Every version, newest first.
    pub versions: Vec<VersionSummary>,
}

/// What was done to a dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuditAction {
    /// The shipped list was imported on first start.
    Import,
    /// A list was uploaded as a draft.
    Upload,
    /// Words were added or removed, making a draft.
    Edit,
    /// A draft became active.
    Publish,
    /// An earlier version became active again.
    Rollback,
}

impl AuditAction {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::Import => "import",
            AuditAction::Upload => "upload",
            AuditAction::Edit => "edit",
            AuditAction::Publish => "publish",
            AuditAction::Rollback => "rollback",
        }
    }

    /// From the stored name.
    pub fn parse(text: &str) -> Option<AuditAction> {
        [
            AuditAction::Import,
            AuditAction::Upload,
            AuditAction::Edit,
            AuditAction::Publish,
            AuditAction::Rollback,
        ]
        .into_iter()
        .find(|a| a.as_str() == text)
    }
}

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The version acted on.
    pub version: u32,
    /// What was done.
    pub action: AuditAction,
    /// Who did it (none for the import).
    pub user: Option<String>,
    /// The admin's reason, as given.
    pub reason: String,
    /// Words added.
    pub added: u64,
    /// Words removed.
    pub removed: u64,
    /// Words in the version.
    pub words: u64,
    /// When, unix ms.
    pub at: i64,
}

/// What a player says of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReportKind {
    /// The dictionary refused it, but it is a word.
    Missing,
    /// The dictionary accepted it, but it is no word.
    Wrong,
}

impl ReportKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportKind::Missing => "missing",
            ReportKind::Wrong => "wrong",
        }
    }

    /// From the stored name.
    pub fn parse(text: &str) -> Option<ReportKind> {
        [ReportKind::Missing, ReportKind::Wrong]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// What became of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReportStatus {
    /// Waiting for an admin.
    Open,
    /// Taken into a draft (added or removed).
    Accepted,
    /// Dismissed.
    Dismissed,
}

impl ReportStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportStatus::Open => "open",
            ReportStatus::Accepted => "accepted",
            ReportStatus::Dismissed => "dismissed",
        }
    }

    /// From the stored name.
    pub fn parse(text: &str) -> Option<ReportStatus> {
        [
            ReportStatus::Open,
            ReportStatus::Accepted,
            ReportStatus::Dismissed,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// Open reports of one word, as the admins' queue groups them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportGroup {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The word.
    pub word: String,
    /// What the players say of it.
    pub kind: ReportKind,
    /// How many players say so.
    pub reporters: u32,
    /// The first report, unix ms.
    pub first_at: i64,
}

/// One of a player's own reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyReport {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The word.
    pub word: String,
    /// What they said of it.
    pub kind: ReportKind,
    /// What became of it.
    pub status: ReportStatus,
    /// Accepted, and the version new games get has the change: the word added, or gone.
    pub in_effect: bool,
    /// When they reported it, unix ms.
    pub created_at: i64,
}
