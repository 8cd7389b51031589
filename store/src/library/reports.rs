//! Players' word reports: "this is a word" for one the dictionary refused, "this is not a word"
//! for one it accepted. One report per player, dictionary, word and kind; the admins' queue groups
//! the open ones by word, and a decision closes every open report of that word and kind.

use dictionaries::{
    versions::{MyReport, ReportGroup, ReportKind, ReportStatus},
    DictionaryId,
};
use domain::Refusal;

use crate::{
    accounts::User,
    db::{now_ms, Database},
    StoreError,
};

/// Open reports one player may have waiting: enough for honest use, and a cap on what one
/// account can pile into the admins' queue.
pub const MAX_OPEN_PER_PLAYER: i64 = 50;

/// Files `user`'s report of `word` in `dictionary`, made from game `game_id`. The word must be one
/// the dictionary's alphabet can spell; reporting the same thing again changes nothing.
pub async fn file(
    db: &Database,
    user: &User,
    dictionary: DictionaryId,
    word: &str,
    kind: ReportKind,
    game_id: &str,
) -> Result<(), StoreError> {
    let word = word.trim().to_lowercase();
    let letters = word.chars().count();
    let alphabet = dictionary.alphabet();
    if !(2..=dictionaries::wordlist::longest_word()).contains(&letters)
        || !word.chars().all(|c| alphabet.contains(&c))
    {
        // The word is said back, but not at any length a request may carry.
        let shown: String = word.chars().take(40).collect();
        let cut = if shown.len() < word.len() { "…" } else { "" };
        return Err(Refusal::Invalid(format!(
            "'{shown}{cut}' is not a word the {} dictionary could hold",
            dictionary.name()
        ))
        .into());
    }
    // The count and the insert in one transaction that holds the player: reports filed at once
    // never pass the cap together.
    let (_writer, mut tx) = db.begin_holding(user.id).await?;
    let open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM word_reports WHERE user_id = $1 AND status = 'open'",
    )
    .bind(user.id)
    .fetch_one(&mut *tx)
    .await?;
    if open >= MAX_OPEN_PER_PLAYER {
        return Err(Refusal::TooManyReports {
            open: u32::try_from(open).unwrap_or(u32::MAX),
        }
        .into());
    }
    sqlx::query(
        "INSERT INTO word_reports (dictionary, word, kind, user_id, game_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(dictionary.as_str())
    .bind(&word)
    .bind(kind.as_str())
    .bind(user.id)
    .bind(game_id)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A report as stored.
#[derive(sqlx::FromRow)]
struct ReportRow {
    dictionary: String,
    word: String,
    kind: String,
    status: String,
    created_at: i64,
}

/// A player's own reports and what became of them, newest first.
pub async fn mine(db: &Database, user: &User) -> Result<Vec<MyReport>, StoreError> {
    let rows: Vec<ReportRow> = sqlx::query_as(
        "SELECT dictionary, word, kind, status, created_at FROM word_reports WHERE user_id = $1
         ORDER BY created_at DESC, id DESC LIMIT 200",
    )
    .bind(user.id)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            let bad = || StoreError::Data("word_reports".into());
            Ok(MyReport {
                dictionary: DictionaryId::parse(&row.dictionary).ok_or_else(bad)?,
                word: row.word,
                kind: ReportKind::parse(&row.kind).ok_or_else(bad)?,
                status: ReportStatus::parse(&row.status).ok_or_else(bad)?,
                // The caller, who holds the active versions, says.
                in_effect: false,
                created_at: row.created_at,
            })
        })
        .collect()
}

/// The open reports of one word, as the queue groups them.
#[derive(sqlx::FromRow)]
struct GroupRow {
    dictionary: String,
    word: String,
    kind: String,
    reporters: i64,
    first_at: i64,
}

/// The open reports grouped by dictionary, word and kind, most reported first.
pub async fn queue(db: &Database) -> Result<Vec<ReportGroup>, StoreError> {
    let rows: Vec<GroupRow> = sqlx::query_as(
        "SELECT dictionary, word, kind, COUNT(*) AS reporters, MIN(created_at) AS first_at
         FROM word_reports WHERE status = 'open' GROUP BY dictionary, word, kind
         ORDER BY COUNT(*) DESC, MIN(created_at) LIMIT 500",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            let bad = || StoreError::Data("word_reports".into());
            Ok(ReportGroup {
                dictionary: DictionaryId::parse(&row.dictionary).ok_or_else(bad)?,
                word: row.word,
                kind: ReportKind::parse(&row.kind).ok_or_else(bad)?,
                reporters: u32::try_from(row.reporters).unwrap_or(u32::MAX),
                first_at: row.first_at,
            })
        })
        .collect()
}

/// Closes every open report of `word` and `kind` in `dictionary` as accepted or dismissed; how
/// many it closed (none: nothing was open).
pub async fn decide(
    db: &Database,
    admin: &User,
    dictionary: DictionaryId,
    word: &str,
    kind: ReportKind,
    status: ReportStatus,
) -> Result<u64, StoreError> {
    Ok(sqlx::query(
        "UPDATE word_reports SET status = $5, decided_by = $6, decided_at = $7
         WHERE dictionary = $1 AND word = $2 AND kind = $3 AND status = $4",
    )
    .bind(dictionary.as_str())
    .bind(word)
    .bind(kind.as_str())
    .bind(ReportStatus::Open.as_str())
    .bind(status.as_str())
    .bind(admin.id)
    .bind(now_ms())
    .execute(&db.pool)
    .await?
    .rows_affected())
}

/// Forgets the words `user` reported (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(conn, user, &["DELETE FROM word_reports WHERE user_id = $1"]).await
}

/// The words `user` reported and what became of them, as they export them (see
/// [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: &User) -> Result<serde_json::Value, StoreError> {
    let reports = mine(db, user).await?;
    Ok(reports
        .into_iter()
        .map(|r| {
            serde_json::json!({
                "dictionary": r.dictionary.as_str(), "word": r.word,
                "kind": format!("{:?}", r.kind), "status": format!("{:?}", r.status),
                "created_at": r.created_at,
            })
        })
        .collect())
}
