//! The interface language an account chose, so that it follows the player to a new browser.

use sqlx::Row;

use super::db::Database;
use crate::i18n::Lang;

/// The account's language, if it ever chose one (an unknown stored value counts as none).
pub async fn language_of(db: &Database, user: i64) -> Result<Option<Lang>, sqlx::Error> {
    let row = sqlx::query("SELECT language FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row
        .and_then(|row| row.get::<Option<String>, _>(0))
        .and_then(|code| Lang::parse(&code)))
}

/// Remembers the account's language.
pub async fn set_language(db: &Database, user: i64, language: Lang) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET language = $1 WHERE id = $2")
        .bind(language.code())
        .bind(user)
        .execute(&db.pool)
        .await?;
    Ok(())
}
