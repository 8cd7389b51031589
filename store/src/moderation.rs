//! Moderation: players report a player or one of their messages; admins work the queue and
//! dismiss a report, mute a player (no chat) or suspend them (no new games, no joining, no chat),
//! for a while or for good, and lift what they did. Every decision names its reason and goes
//! into the log. A sanctioned player's running games go on; they see what was done, why and until
//! when ([`standing`]).

use domain::{Refusal, SocialProblem};

use crate::{
    accounts::User,
    blocks,
    db::{now_ms, Database},
    rows::{word_column, Word},
    StoreError,
};

/// The most reports of players one player may have waiting for an admin.
pub const MAX_OPEN_REPORTS: i64 = 20;

/// The longest reason a report or a decision keeps, in characters.
pub const REASON_MAX_CHARS: usize = 500;

/// What a sanction takes away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SanctionKind {
    /// Chat.
    Mute,
    /// New games, joining games, and chat.
    Suspend,
}

word_column!(SanctionKind {
    Mute => "mute",
    Suspend => "suspend",
});

/// What an admin did, as the moderation log keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModerationAction {
    /// Closed a report, asking for nothing.
    Dismiss,
    /// Muted the player.
    Mute,
    /// Suspended the player.
    Suspend,
    /// Lifted a sanction.
    Lift,
}

word_column!(ModerationAction {
    Dismiss => "dismiss",
    Mute => "mute",
    Suspend => "suspend",
    Lift => "lift",
});

/// Where a report of a player stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportStatus {
    /// Waiting for an admin.
    Open,
    /// Closed asking for nothing.
    Dismissed,
    /// Closed with a sanction.
    Actioned,
}

word_column!(ReportStatus {
    Open => "open",
    Dismissed => "dismissed",
    Actioned => "actioned",
});

/// A sanction in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sanction {
    /// Its id, to lift it.
    pub id: i64,
    pub kind: SanctionKind,
    /// The admin's reason, shown to the player.
    pub reason: String,
    /// Until when, unix ms; `None` for good.
    pub until: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct SanctionRow {
    id: i64,
    kind: SanctionKind,
    reason: String,
    until: Option<i64>,
}

impl From<SanctionRow> for Sanction {
    fn from(row: SanctionRow) -> Sanction {
        Sanction {
            id: row.id,
            kind: row.kind,
            reason: row.reason,
            until: row.until,
        }
    }
}

/// The sanctions in force on `user`, the most severe first.
pub async fn standing(db: &Database, user: i64) -> Result<Vec<Sanction>, sqlx::Error> {
    let rows: Vec<SanctionRow> = sqlx::query_as(
        "SELECT id, kind, reason, until FROM sanctions WHERE user_id = $1 AND lifted_at IS NULL
         AND (until IS NULL OR until > $2) ORDER BY kind DESC, id",
    )
    .bind(user)
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().map(Sanction::from).collect())
}

/// The latest end of the sanctions of `kind` among `standing` (`None` inside: for good).
fn longest(standing: &[Sanction], kinds: &[SanctionKind]) -> Option<Option<i64>> {
    let ends = standing
        .iter()
        .filter(|s| kinds.contains(&s.kind))
        .map(|s| s.until);
    ends.reduce(|a, b| match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        _ => None,
    })
}

/// Refuses a suspended player a new game or a seat.
pub async fn check_may_play(db: &Database, user: i64) -> Result<(), StoreError> {
    match longest(&standing(db, user).await?, &[SanctionKind::Suspend]) {
        Some(until) => Err(Refusal::Social(SocialProblem::Suspended(until)).into()),
        None => Ok(()),
    }
}

/// Refuses a muted or suspended player a message.
pub async fn check_may_chat(db: &Database, user: i64) -> Result<(), StoreError> {
    let standing = standing(db, user).await?;
    if let Some(until) = longest(&standing, &[SanctionKind::Suspend]) {
        return Err(Refusal::Social(SocialProblem::Suspended(until)).into());
    }
    match longest(&standing, &[SanctionKind::Mute]) {
        Some(until) => Err(Refusal::Social(SocialProblem::Muted(until)).into()),
        None => Ok(()),
    }
}

/// A reason as kept: trimmed, not empty, at most [`REASON_MAX_CHARS`].
fn reason_of(reason: &str) -> Result<String, StoreError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Refusal::Social(SocialProblem::ReasonNeeded).into());
    }
    Ok(reason.chars().take(REASON_MAX_CHARS).collect())
}

/// `reporter` reports the player called `name`, or (with `message`) one of their chat messages,
/// which the reporter must have been able to read (a message of a game they sit in).
pub async fn report(
    db: &Database,
    reporter: &User,
    name: &str,
    message: Option<i64>,
    reason: &str,
) -> Result<(), StoreError> {
    let reason = reason_of(reason)?;
    let reported = match message {
        Some(id) => {
            let author: Option<i64> = sqlx::query_scalar(
                "SELECT m.author FROM chat_messages m JOIN game_seats s ON s.game_id = m.game_id
                 WHERE m.id = $1 AND s.user_id = $2 AND m.author <> $2",
            )
            .bind(id)
            .bind(reporter.id)
            .fetch_optional(&db.pool)
            .await?;
            author.ok_or_else(|| Refusal::Invalid("no such message".into()))?
        }
        None => blocks::other(db, reporter, name).await?.id,
    };
    // Counted and written holding the reporter: reports filed at once never pass the cap.
    let (_writer, mut tx) = db.begin_holding(reporter.id).await?;
    let open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM player_reports WHERE reporter = $1 AND status = 'open'",
    )
    .bind(reporter.id)
    .fetch_one(&mut *tx)
    .await?;
    if open >= MAX_OPEN_REPORTS {
        return Err(Refusal::Social(SocialProblem::TooManyReports).into());
    }
    sqlx::query(
        "INSERT INTO player_reports (reporter, reported, message_id, reason, created_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(reporter.id)
    .bind(reported)
    .bind(message)
    .bind(reason)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A chat line as the queue shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Line {
    pub id: i64,
    /// Its author's name.
    pub author: String,
    pub body: String,
    pub sent_at: i64,
}

/// An open report with what an admin needs to decide it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedReport {
    pub id: i64,
    pub reporter: String,
    /// The reported player's id and name.
    pub reported: (i64, String),
    pub reason: String,
    pub created_at: i64,
    /// The message reported, if one was, with up to three lines before and after it.
    pub context: Vec<Line>,
    pub message: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct ReportRow {
    id: i64,
    reporter: String,
    reported_id: i64,
    reported: String,
    reason: String,
    created_at: i64,
    message_id: Option<i64>,
    game_id: Option<String>,
}

/// The open reports, oldest first (at most 100).
pub async fn queue(db: &Database) -> Result<Vec<QueuedReport>, sqlx::Error> {
    let rows: Vec<ReportRow> = sqlx::query_as(
        "SELECT r.id, a.name AS reporter, r.reported AS reported_id, b.name AS reported, r.reason,
                r.created_at, r.message_id, m.game_id
         FROM player_reports r JOIN users a ON a.id = r.reporter JOIN users b ON b.id = r.reported
         LEFT JOIN chat_messages m ON m.id = r.message_id
         WHERE r.status = 'open' ORDER BY r.created_at, r.id LIMIT 100",
    )
    .fetch_all(&db.pool)
    .await?;
    let mut queue = Vec::with_capacity(rows.len());
    for row in rows {
        let context = match (row.message_id, &row.game_id) {
            (Some(id), Some(game)) => context(db, game, id).await?,
            _ => Vec::new(),
        };
        queue.push(QueuedReport {
            id: row.id,
            reporter: row.reporter,
            reported: (row.reported_id, row.reported),
            reason: row.reason,
            created_at: row.created_at,
            context,
            message: row.message_id,
        });
    }
    Ok(queue)
}

/// Message `id` of `game` with up to three lines before and after it.
async fn context(db: &Database, game: &str, id: i64) -> Result<Vec<Line>, sqlx::Error> {
    let select = "SELECT m.id, u.name AS author, m.body, m.sent_at FROM chat_messages m
                  JOIN users u ON u.id = m.author WHERE m.game_id = $1";
    let mut before: Vec<Line> = sqlx::query_as(&format!(
        "{select} AND m.id <= $2 ORDER BY m.id DESC LIMIT 4"
    ))
    .bind(game)
    .bind(id)
    .fetch_all(&db.pool)
    .await?;
    before.reverse();
    let after: Vec<Line> = sqlx::query_as(&format!("{select} AND m.id > $2 ORDER BY m.id LIMIT 3"))
        .bind(game)
        .bind(id)
        .fetch_all(&db.pool)
        .await?;
    before.extend(after);
    Ok(before)
}

/// An entry of the moderation log.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Decision {
    /// The admin's name.
    pub admin: String,
    /// What was done.
    pub action: ModerationAction,
    pub reason: String,
    pub until: Option<i64>,
    pub at: i64,
}

/// A player's record for the admins: reports of them and what was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// Reports of them, ever (open, dismissed or acted on).
    pub reports: i64,
    /// The log of decisions about them, newest first (at most 20).
    pub decisions: Vec<Decision>,
    /// Sanctions in force.
    pub standing: Vec<Sanction>,
}

/// `user`'s record for the admins.
pub async fn history(db: &Database, user: i64) -> Result<History, sqlx::Error> {
    let reports: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM player_reports WHERE reported = $1")
            .bind(user)
            .fetch_one(&db.pool)
            .await?;
    let decisions: Vec<Decision> = sqlx::query_as(
        "SELECT u.name AS admin, l.action, l.reason, l.until, l.at FROM moderation_log l
         JOIN users u ON u.id = l.admin_id WHERE l.user_id = $1 ORDER BY l.at DESC, l.id DESC
         LIMIT 20",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(History {
        reports,
        decisions,
        standing: standing(db, user).await?,
    })
}

/// What an admin decides about a report or a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The report asks for nothing.
    Dismiss,
    /// A sanction until then (unix ms), or for good.
    Sanction(SanctionKind, Option<i64>),
}

/// `admin` decides about `user` (and closes `report`, when given) for `reason`, logged.
pub async fn decide(
    db: &Database,
    admin: &User,
    user: i64,
    report: Option<i64>,
    verdict: Verdict,
    reason: &str,
) -> Result<(), StoreError> {
    let reason = reason_of(reason)?;
    let now = now_ms();
    let (_writer, mut tx) = db.begin_write().await?;
    if let Some(report) = report {
        let status = match verdict {
            Verdict::Dismiss => ReportStatus::Dismissed,
            Verdict::Sanction(..) => ReportStatus::Actioned,
        };
        let closed = sqlx::query(
            "UPDATE player_reports SET status = $2, decided_by = $3, decided_at = $4
             WHERE id = $1 AND reported = $5 AND status = 'open'",
        )
        .bind(report)
        .bind(status.word())
        .bind(admin.id)
        .bind(now)
        .bind(user)
        .execute(&mut *tx)
        .await?;
        if closed.rows_affected() != 1 {
            return Err(Refusal::Invalid("that report is not open".into()).into());
        }
    }
    let (action, until) = match verdict {
        Verdict::Dismiss => (ModerationAction::Dismiss, None),
        Verdict::Sanction(kind, until) => {
            sqlx::query(
                "INSERT INTO sanctions (user_id, kind, reason, until, created_by, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(user)
            .bind(kind.word())
            .bind(&reason)
            .bind(until)
            .bind(admin.id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let action = match kind {
                SanctionKind::Mute => ModerationAction::Mute,
                SanctionKind::Suspend => ModerationAction::Suspend,
            };
            (action, until)
        }
    };
    log(&mut tx, admin, user, action, &reason, until, report).await?;
    tx.commit().await?;
    Ok(())
}

/// `admin` lifts sanction `id` for `reason`, logged.
pub async fn lift(db: &Database, admin: &User, id: i64, reason: &str) -> Result<(), StoreError> {
    let reason = reason_of(reason)?;
    let (_writer, mut tx) = db.begin_write().await?;
    let user: Option<i64> = sqlx::query_scalar(
        "UPDATE sanctions SET lifted_by = $2, lifted_at = $3 WHERE id = $1 AND lifted_at IS NULL
         RETURNING user_id",
    )
    .bind(id)
    .bind(admin.id)
    .bind(now_ms())
    .fetch_optional(&mut *tx)
    .await?;
    let user = user.ok_or_else(|| Refusal::Invalid("that sanction is not in force".into()))?;
    log(
        &mut tx,
        admin,
        user,
        ModerationAction::Lift,
        &reason,
        None,
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn log(
    conn: &mut sqlx::AnyConnection,
    admin: &User,
    user: i64,
    action: ModerationAction,
    reason: &str,
    until: Option<i64>,
    report: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO moderation_log (admin_id, user_id, action, reason, until, report_id, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(admin.id)
    .bind(user)
    .bind(action.word())
    .bind(reason)
    .bind(until)
    .bind(report)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The players under a sanction now, with it, for the panel (at most 100).
pub async fn sanctioned(db: &Database) -> Result<Vec<(String, Sanction)>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        name: String,
        #[sqlx(flatten)]
        sanction: SanctionRow,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT u.name, s.id, s.kind, s.reason, s.until FROM sanctions s
         JOIN users u ON u.id = s.user_id
         WHERE s.lifted_at IS NULL AND (s.until IS NULL OR s.until > $1)
         ORDER BY s.created_at DESC LIMIT 100",
    )
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.name, r.sanction.into()))
        .collect())
}

/// Forgets the reports `user` filed or was the subject of (a decision on one stays in the log, without the report it points at), their sanctions and their log (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &[
            // Before the chat's own forgetting: a report of a message of theirs goes with it.
            "UPDATE moderation_log SET report_id = NULL WHERE report_id IN
             (SELECT id FROM player_reports WHERE reporter = $1 OR reported = $1
                 OR message_id IN (SELECT id FROM chat_messages WHERE author = $1))",
            "DELETE FROM player_reports WHERE reporter = $1 OR reported = $1
             OR message_id IN (SELECT id FROM chat_messages WHERE author = $1)",
            "DELETE FROM sanctions WHERE user_id = $1",
            "DELETE FROM moderation_log WHERE user_id = $1",
        ],
    )
    .await
}

/// The reports of players `user` filed, as they export them (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, sqlx::Error> {
    #[derive(serde::Serialize, sqlx::FromRow)]
    struct Filed {
        reported: String,
        reason: String,
        status: String,
        created_at: i64,
    }
    let filed: Vec<Filed> = sqlx::query_as(
        "SELECT u.name AS reported, r.reason, r.status, r.created_at FROM player_reports r
         JOIN users u ON u.id = r.reported WHERE r.reporter = $1 ORDER BY r.created_at",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(serde_json::json!(filed))
}
