//! What rows are read into beside sqlx's own types: every query maps its row to a struct by
//! column name (`#[derive(sqlx::FromRow)]` with `query_as`), and a column holding JSON text (a
//! game's config, an action, a report) reads straight into its type through [`Json`].

use serde::de::DeserializeOwned;
use sqlx::{
    any::{AnyTypeInfo, AnyValueRef},
    error::BoxDynError,
    Any, Decode, Type,
};

/// A text column holding JSON, read as the `T` it encodes; a value that does not parse fails
/// the row's read with the column's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T> Type<Any> for Json<T> {
    fn type_info() -> AnyTypeInfo {
        <String as Type<Any>>::type_info()
    }

    fn compatible(ty: &AnyTypeInfo) -> bool {
        <String as Type<Any>>::compatible(ty)
    }
}

impl<'r, T: DeserializeOwned> Decode<'r, Any> for Json<T> {
    fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <String as Decode<'r, Any>>::decode(value)?;
        Ok(Json(serde_json::from_str(&text)?))
    }
}

/// An enum kept as a word in a text column: the word it writes, and the value a word reads back
/// as, if it is one of its words.
pub trait Word: Sized + Copy + 'static {
    /// Every value with its word.
    const WORDS: &'static [(Self, &'static str)];

    /// The word kept for `self`.
    fn word(self) -> &'static str
    where
        Self: PartialEq,
    {
        Self::WORDS
            .iter()
            .find(|(value, _)| *value == self)
            .map_or("", |(_, word)| word)
    }

    /// The value `word` stands for; `None` for a word it does not have.
    fn from_word(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(_, known)| *known == word)
            .map(|(value, _)| *value)
    }
}

/// Gives an enum its words (`word_column!(Kind { Value => "word", … })`, [`Word`]) and reads it
/// from a text column: a word it does not have fails the row's read with the column's name,
/// rather than standing for some other value.
macro_rules! word_column {
    ($kind:ident { $($value:ident => $word:literal),+ $(,)? }) => {
        impl $crate::rows::Word for $kind {
            const WORDS: &'static [($kind, &'static str)] = &[$(($kind::$value, $word)),+];
        }

        impl sqlx::Type<sqlx::Any> for $kind {
            fn type_info() -> sqlx::any::AnyTypeInfo {
                <String as sqlx::Type<sqlx::Any>>::type_info()
            }

            fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
                <String as sqlx::Type<sqlx::Any>>::compatible(ty)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Any> for $kind {
            fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let word = <String as sqlx::Decode<'r, sqlx::Any>>::decode(value)?;
                <$kind as $crate::rows::Word>::from_word(&word)
                    .ok_or_else(|| format!("{word:?} is no {}", stringify!($kind)).into())
            }
        }
    };
}
pub(crate) use word_column;

#[cfg(test)]
mod sql_words {
    //! The store's SQL compares state columns with words written in the statement
    //! (`status = 'playing'`); each such word must be one of the words its enum reads and
    //! writes, so renaming a state's word cannot leave a statement matching nothing.

    use super::Word;

    /// Every `'word'` the SQL in `source` compares `column` with (`=`, `<>`, `IN (…)`).
    fn compared(source: &str, column: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut rest = source;
        while let Some(at) = rest.find(column) {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + column.len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let after = after.trim_start();
            let list = if let Some(list) = after.strip_prefix("IN") {
                let list = list.trim_start();
                match list.strip_prefix('(') {
                    Some(list) => &list[..list.find(')').unwrap_or(0)],
                    None => continue,
                }
            } else if let Some(value) = after.strip_prefix("<>").or(after.strip_prefix('=')) {
                let value = value.trim_start();
                &value[..value
                    .find([' ', '\n', ',', ')', ';', '"'])
                    .unwrap_or(value.len())]
            } else {
                continue;
            };
            for item in list.split(',') {
                if let Some(word) = item.trim().strip_prefix('\'') {
                    words.push(word.trim_end_matches('\'').to_string());
                }
            }
        }
        words
    }

    fn sources(dir: &std::path::Path, into: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, into);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                into.push((path.display().to_string(), text));
            }
        }
    }

    #[test]
    fn every_state_word_in_the_sql_is_a_word_of_its_enum() {
        let mut files = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let status = |w: &str| {
            domain::Phase::parse(w).is_some()
                || dictionaries::versions::ReportStatus::parse(w).is_some()
                || crate::moderation::ReportStatus::from_word(w).is_some()
                || crate::leagues::SeasonStatus::from_word(w).is_some()
                || crate::tournaments::TournamentStatus::from_word(w).is_some()
        };
        let state = |w: &str| {
            crate::seating::InviteState::from_word(w).is_some()
                || crate::seating::rematch::Kept::from_word(w).is_some()
        };
        let opponent = |w: &str| domain::OpponentKind::parse(w).is_some();
        type Known<'a> = &'a dyn Fn(&str) -> bool;
        let columns: [(&str, Known); 3] = [
            ("status", &status),
            ("state", &state),
            ("opponent", &opponent),
        ];
        let mut checked = 0;
        for (path, text) in &files {
            // This test's own text aside.
            let text = text.split("mod sql_words").next().unwrap_or_default();
            for (column, known) in columns {
                for word in compared(text, column) {
                    assert!(
                        known(&word),
                        "{path}: {column} compared with unknown '{word}'"
                    );
                    checked += 1;
                }
            }
        }
        // The scan finds the words it is there to check (some 50 when written).
        assert!(checked >= 45, "only {checked} state words found");
        assert_eq!(
            compared(
                "WHERE g.status IN ('waiting', 'ready') AND i.state = 'open'",
                "status"
            ),
            ["waiting", "ready"]
        );
    }
}
