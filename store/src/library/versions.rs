//! Dictionary versions in the database: the shipped lists imported as version 1, drafts made by
//! uploads and edits, the active version of each dictionary, and the audit log of every change.
//! A version's row never changes after it is written, except to record its first publication.

use std::collections::HashMap;

use dictionaries::{
    catalog::Catalog,
    versions::{AuditAction, AuditEntry, DictionaryOverview, Origin, Report, VersionSummary},
    wordlist::Built,
    DictionaryId, DictionaryRef,
};
use domain::{DictionaryProblem, Refusal};

use crate::{
    accounts::User,
    bus::Change,
    db::{now_ms, Database},
    rows::Json,
    StoreError,
};

/// Imports each shipped list as version 1 of its dictionary, where the database has none yet, and
/// makes it active. Safe to run on every start and from several instances at once.
pub async fn import_shipped(db: &Database, shipped: &Catalog) -> Result<(), sqlx::Error> {
    for dictionary in &shipped.dictionaries {
        let id = dictionary.entry.id.as_str();
        let known: Option<i64> = sqlx::query_scalar(
            "SELECT version FROM dictionary_versions WHERE dictionary = $1 AND version = 1",
        )
        .bind(id)
        .fetch_optional(&db.pool)
        .await?;
        if known.is_some() {
            continue;
        }
        let now = now_ms();
        let words = dictionary.entry.word_count as i64;
        let (_writer, mut tx) = db.begin_write().await?;
        let inserted = sqlx::query(
            "INSERT INTO dictionary_versions (dictionary, version, fst, sha256, word_count, origin,
             based_on, report, note, created_by, created_at, published_by, published_at)
             VALUES ($1, 1, $2, $3, $4, 'shipped', NULL, $5, $6, NULL, $7, NULL, $7)
             ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(dictionary.lexicon.as_bytes().to_vec())
        .bind(&dictionary.entry.sha256)
        .bind(words)
        .bind(
            serde_json::to_string(&Report {
                accepted: dictionary.entry.word_count,
                ..Report::default()
            })
            .unwrap_or_default(),
        )
        .bind(format!(
            "{} {}",
            dictionary.entry.source, dictionary.entry.source_version
        ))
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 1 {
            sqlx::query(
                "INSERT INTO dictionary_active (dictionary, version, changed_at) VALUES ($1, 1, $2)
                 ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            audit(
                &mut tx,
                DictionaryRef {
                    id: dictionary.entry.id,
                    version: 1,
                },
                AuditAction::Import,
                None,
                "the shipped list",
                (words, 0, words),
            )
            .await?;
        }
        tx.commit().await?;
    }
    Ok(())
}

/// A dictionary's active version as stored.
#[derive(sqlx::FromRow)]
struct Active {
    dictionary: String,
    version: i64,
}

/// The version new games of each dictionary get.
pub async fn active_versions(db: &Database) -> Result<HashMap<DictionaryId, u32>, sqlx::Error> {
    let rows: Vec<Active> = sqlx::query_as("SELECT dictionary, version FROM dictionary_active")
        .fetch_all(&db.pool)
        .await?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            let id = DictionaryId::parse(&row.dictionary)?;
            Some((id, u32::try_from(row.version).ok()?))
        })
        .collect())
}

/// The version a new game of `id` gets, as its config names it (`en@3`).
pub async fn active_ref(db: &Database, id: DictionaryId) -> Result<DictionaryRef, sqlx::Error> {
    let version: Option<i64> =
        sqlx::query_scalar("SELECT version FROM dictionary_active WHERE dictionary = $1")
            .bind(id.as_str())
            .fetch_optional(&db.pool)
            .await?;
    Ok(DictionaryRef {
        id,
        version: version.and_then(|v| u32::try_from(v).ok()).unwrap_or(1),
    })
}

/// The newest draft of `id` made after its active version, if any: where the next edit starts,
/// so drafts made one after another build on each other instead of each dropping the others.
pub async fn newest_draft(
    db: &Database,
    id: DictionaryId,
) -> Result<Option<DictionaryRef>, sqlx::Error> {
    let version: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(v.version) FROM dictionary_versions v
         JOIN dictionary_active a ON a.dictionary = v.dictionary
         WHERE v.dictionary = $1 AND v.published_at IS NULL AND v.version > a.version",
    )
    .bind(id.as_str())
    .fetch_one(&db.pool)
    .await?;
    Ok(version
        .and_then(|v| u32::try_from(v).ok())
        .map(|version| DictionaryRef { id, version }))
}

/// A version's FST bytes, their SHA-256, and whether it is published.
#[derive(Debug, sqlx::FromRow)]
pub struct Fst {
    /// The FST.
    pub fst: Vec<u8>,
    /// Its SHA-256, hex.
    pub sha256: String,
    /// 1 once published, 0 for a draft.
    pub published: i64,
}

/// A version's FST and its hash.
pub async fn fst_of(db: &Database, at: DictionaryRef) -> Result<Option<Fst>, sqlx::Error> {
    sqlx::query_as(
        "SELECT fst, sha256,
                CAST(CASE WHEN published_at IS NULL THEN 0 ELSE 1 END AS BIGINT) AS published
         FROM dictionary_versions WHERE dictionary = $1 AND version = $2",
    )
    .bind(at.id.as_str())
    .bind(i64::from(at.version))
    .fetch_optional(&db.pool)
    .await
}

/// The version of `id` whose hash starts with `prefix` (as the browser's URL names it): only a
/// published one when `published`, else any.
pub async fn by_hash(
    db: &Database,
    id: DictionaryId,
    prefix: &str,
    published: bool,
) -> Result<Option<u32>, sqlx::Error> {
    let version: Option<i64> = sqlx::query_scalar(
        "SELECT version FROM dictionary_versions
         WHERE dictionary = $1 AND substr(sha256, 1, 16) = $2
           AND (published_at IS NOT NULL OR NOT $3)
         ORDER BY version DESC LIMIT 1",
    )
    .bind(id.as_str())
    .bind(prefix)
    .bind(published)
    .fetch_optional(&db.pool)
    .await?;
    Ok(version.and_then(|v| u32::try_from(v).ok()))
}

const SUMMARY: &str =
    "SELECT v.dictionary, v.version, v.word_count, CAST(length(v.fst) AS BIGINT) AS fst_bytes,
     v.sha256, v.origin, v.based_on, v.note, c.name AS created_by, v.created_at,
     p.name AS published_by, v.published_at,
     CAST(CASE WHEN a.version = v.version THEN 1 ELSE 0 END AS BIGINT) AS active, v.report
     FROM dictionary_versions v
     LEFT JOIN users c ON c.id = v.created_by
     LEFT JOIN users p ON p.id = v.published_by
     LEFT JOIN dictionary_active a ON a.dictionary = v.dictionary";

/// A version as [`SUMMARY`] reads it.
#[derive(sqlx::FromRow)]
struct SummaryRow {
    dictionary: String,
    version: i64,
    word_count: i64,
    fst_bytes: i64,
    sha256: String,
    origin: String,
    based_on: Option<i64>,
    note: String,
    created_by: Option<String>,
    created_at: i64,
    published_by: Option<String>,
    published_at: Option<i64>,
    active: i64,
    report: Json<Report>,
}

impl TryFrom<SummaryRow> for VersionSummary {
    type Error = StoreError;

    fn try_from(row: SummaryRow) -> Result<VersionSummary, StoreError> {
        let bad = |what: &str| StoreError::Data(format!("dictionary_versions: {what}"));
        Ok(VersionSummary {
            dictionary: DictionaryId::parse(&row.dictionary).ok_or_else(|| bad("id"))?,
            version: u32::try_from(row.version).map_err(|_| bad("version"))?,
            word_count: row.word_count.max(0) as u64,
            fst_bytes: row.fst_bytes.max(0) as u64,
            sha256: row.sha256,
            origin: Origin::parse(&row.origin).ok_or_else(|| bad("origin"))?,
            based_on: row.based_on.and_then(|v| u32::try_from(v).ok()),
            note: row.note,
            created_by: row.created_by,
            created_at: row.created_at,
            published_by: row.published_by,
            published_at: row.published_at,
            active: row.active == 1,
        })
    }
}

/// Every dictionary with all its versions, newest first.
pub async fn overview(db: &Database) -> Result<Vec<DictionaryOverview>, StoreError> {
    let rows: Vec<SummaryRow> = sqlx::query_as(&format!("{SUMMARY} ORDER BY v.version DESC"))
        .fetch_all(&db.pool)
        .await?;
    let mut versions: Vec<VersionSummary> = rows
        .into_iter()
        .map(VersionSummary::try_from)
        .collect::<Result<_, _>>()?;
    Ok(DictionaryId::ALL
        .into_iter()
        .map(|id| {
            let mine: Vec<VersionSummary> =
                versions.extract_if(.., |v| v.dictionary == id).collect();
            DictionaryOverview {
                id,
                alphabet: id.alphabet().into_iter().collect(),
                active: mine.iter().find(|v| v.active).map_or(1, |v| v.version),
                versions: mine,
            }
        })
        .collect())
}

/// One version with its report.
pub async fn version(
    db: &Database,
    at: DictionaryRef,
) -> Result<Option<(VersionSummary, Report)>, StoreError> {
    let row: Option<SummaryRow> = sqlx::query_as(&format!(
        "{SUMMARY} WHERE v.dictionary = $1 AND v.version = $2"
    ))
    .bind(at.id.as_str())
    .bind(i64::from(at.version))
    .fetch_optional(&db.pool)
    .await?;
    let Some(mut row) = row else { return Ok(None) };
    let report = std::mem::take(&mut row.report.0);
    Ok(Some((row.try_into()?, report)))
}

/// A new draft, made by `by` from `built` with `report`: its version number.
pub async fn create_draft(
    db: &Database,
    id: DictionaryId,
    built: &Built,
    report: &Report,
    origin: Origin,
    note: &str,
    by: &User,
) -> Result<DictionaryRef, StoreError> {
    let action = match origin {
        Origin::Edit => AuditAction::Edit,
        Origin::Upload | Origin::Shipped => AuditAction::Upload,
    };
    // Two admins saving at once may pick the same number: the primary key lets one through, and
    // the other takes the next number.
    for _ in 0..5 {
        let (_writer, mut tx) = db.begin_write().await?;
        let next: i64 = sqlx::query_scalar(
            "SELECT COALESCE(MAX(version), 0) + 1 FROM dictionary_versions WHERE dictionary = $1",
        )
        .bind(id.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let inserted = sqlx::query(
            "INSERT INTO dictionary_versions (dictionary, version, fst, sha256, word_count, origin,
             based_on, report, note, created_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING",
        )
        .bind(id.as_str())
        .bind(next)
        .bind(built.fst.as_slice())
        .bind(&built.sha256)
        .bind(report.accepted as i64)
        .bind(origin.as_str())
        .bind(report.based_on.map(i64::from))
        .bind(serde_json::to_string(report).map_err(|e| StoreError::Data(e.to_string()))?)
        .bind(said(note))
        .bind(by.id)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            continue;
        }
        let at = DictionaryRef {
            id,
            version: u32::try_from(next).map_err(|_| StoreError::Data("version".into()))?,
        };
        audit(
            &mut tx,
            at,
            action,
            Some(by.id),
            note,
            (
                report.added as i64,
                report.removed as i64,
                report.accepted as i64,
            ),
        )
        .await?;
        tx.commit().await?;
        return Ok(at);
    }
    Err(StoreError::Data(
        "could not number the new version: too many at once".into(),
    ))
}

/// Makes `at` the version new games get: a publish for a draft, a rollback for an earlier
/// version. A version whose report carries warnings needs `confirm`, and a rollback a reason (a
/// publish has its draft's note). Tells every instance, whose catalogs then load it.
pub async fn activate(
    db: &Database,
    at: DictionaryRef,
    by: &User,
    reason: &str,
    confirm: bool,
) -> Result<AuditAction, StoreError> {
    let Some((version, report)) = self::version(db, at).await? else {
        return Err(Refusal::Invalid(format!("{at} does not exist")).into());
    };
    if !report.warnings.is_empty() && !confirm {
        let warnings = report.warnings.clone();
        return Err(Refusal::Dictionary(DictionaryProblem::ConfirmWarnings(warnings)).into());
    }
    if version.active {
        return Err(Refusal::Dictionary(DictionaryProblem::AlreadyActive(at.to_string())).into());
    }
    let now = now_ms();
    let action = if version.published_at.is_none() {
        AuditAction::Publish
    } else {
        AuditAction::Rollback
    };
    let reason = match (reason.trim(), action) {
        ("", AuditAction::Rollback) => {
            return Err(Refusal::Dictionary(DictionaryProblem::ReasonNeeded).into())
        }
        ("", _) => "no reason given",
        (reason, _) => reason,
    };
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query(
        "UPDATE dictionary_versions SET published_at = $3, published_by = $4
         WHERE dictionary = $1 AND version = $2 AND published_at IS NULL",
    )
    .bind(at.id.as_str())
    .bind(i64::from(at.version))
    .bind(now)
    .bind(by.id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE dictionary_active SET version = $2, changed_at = $3 WHERE dictionary = $1")
        .bind(at.id.as_str())
        .bind(i64::from(at.version))
        .bind(now)
        .execute(&mut *tx)
        .await?;
    audit(
        &mut tx,
        at,
        action,
        Some(by.id),
        reason,
        (
            report.added as i64,
            report.removed as i64,
            version.word_count as i64,
        ),
    )
    .await?;
    tx.commit().await?;
    db.publish(Change::Dictionaries).await;
    Ok(action)
}

/// What an admin wrote (a note, a reason), as the panel and the audit log keep it: plain text
/// (see [`domain::plain_text`]), 500 characters at most.
fn said(text: &str) -> String {
    domain::plain_text(text).chars().take(500).collect()
}

async fn audit(
    conn: &mut sqlx::AnyConnection,
    at: DictionaryRef,
    action: AuditAction,
    user: Option<i64>,
    reason: &str,
    (added, removed, words): (i64, i64, i64),
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO dictionary_audit (dictionary, version, action, user_id, reason, added,
         removed, words, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(at.id.as_str())
    .bind(i64::from(at.version))
    .bind(action.as_str())
    .bind(user)
    .bind(said(reason))
    .bind(added)
    .bind(removed)
    .bind(words)
    .bind(now_ms())
    .execute(conn)
    .await?;
    Ok(())
}

/// An audit entry as stored, with its user's name.
#[derive(sqlx::FromRow)]
struct AuditRow {
    dictionary: String,
    version: i64,
    action: String,
    name: Option<String>,
    reason: String,
    added: i64,
    removed: i64,
    words: i64,
    at: i64,
}

/// The latest `limit` audit entries, newest first.
pub async fn audit_log(db: &Database, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
    let rows: Vec<AuditRow> = sqlx::query_as(
        "SELECT a.dictionary, a.version, a.action, u.name, a.reason, a.added, a.removed, a.words,
         a.at FROM dictionary_audit a LEFT JOIN users u ON u.id = a.user_id
         ORDER BY a.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            let bad = || StoreError::Data("dictionary_audit".into());
            Ok(AuditEntry {
                dictionary: DictionaryId::parse(&row.dictionary).ok_or_else(bad)?,
                version: u32::try_from(row.version).map_err(|_| bad())?,
                action: AuditAction::parse(&row.action).ok_or_else(bad)?,
                user: row.name,
                reason: row.reason,
                added: row.added.max(0) as u64,
                removed: row.removed.max(0) as u64,
                words: row.words.max(0) as u64,
                at: row.at,
            })
        })
        .collect()
}
