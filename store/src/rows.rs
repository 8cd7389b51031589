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
