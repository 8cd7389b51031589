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
