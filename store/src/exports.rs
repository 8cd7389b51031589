//! A person's data, as they take it with them ("Export my data" in settings): their account,
//! every game they sat in (with its GCG once it is over), their ranks and rank history, the word
//! reports and player reports they filed, the chats of their games, and whom they follow and
//! block. One JSON document, built on request for its owner only.

use serde::Serialize;
use serde_json::{json, Value};

use crate::{
    accounts::User,
    db::{now_ms, Database},
    games::{GameRecord, GameRow, GAME_COLUMNS},
    library::reports,
    ranks, records, seating, Services, StoreError,
};

/// A chat message of one of their games.
#[derive(Serialize, sqlx::FromRow)]
struct ChatLine {
    game_id: String,
    author: String,
    body: String,
    sent_at: i64,
}

/// A report of a player they filed.
#[derive(Serialize, sqlx::FromRow)]
struct PlayerReport {
    reported: String,
    reason: String,
    status: String,
    created_at: i64,
}

/// The account's own row, as exported.
#[derive(sqlx::FromRow)]
struct AccountRow {
    created_at: i64,
    language: Option<String>,
    chat_off: i64,
}

/// Everything the store keeps of `user`, as JSON.
pub async fn of(services: &Services, user: &User) -> Result<Value, StoreError> {
    let db = &services.db;
    let account: AccountRow =
        sqlx::query_as("SELECT created_at, language, chat_off FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_one(&db.pool)
            .await?;
    let mail = crate::mail::settings(db, user.id).await?;
    let push = crate::push::settings(db, user.id).await?;
    let mut games = Vec::new();
    for row in games_of(db, user.id).await? {
        games.push(game(services, user.id, row).await?);
    }
    let mut ranks_out = Vec::new();
    for rank in ranks::of(db, user.id).await? {
        let history = ranks::history(db, user.id, rank.dictionary).await?;
        ranks_out.push(json!({
            "dictionary": rank.dictionary.as_str(),
            "rank": rank.rank,
            "games": rank.games,
            "history": history.iter().map(|h| json!({
                "game_id": h.game_id, "result": h.result,
                "rank_before": h.before, "rank_after": h.after,
            })).collect::<Vec<_>>(),
        }));
    }
    let word_reports: Vec<Value> = reports::mine(db, user)
        .await?
        .into_iter()
        .map(|r| {
            json!({
                "dictionary": r.dictionary.as_str(), "word": r.word,
                "kind": format!("{:?}", r.kind), "status": format!("{:?}", r.status),
                "created_at": r.created_at,
            })
        })
        .collect();
    let player_reports: Vec<PlayerReport> = sqlx::query_as(
        "SELECT u.name AS reported, r.reason, r.status, r.created_at FROM player_reports r
         JOIN users u ON u.id = r.reported WHERE r.reporter = $1 ORDER BY r.created_at",
    )
    .bind(user.id)
    .fetch_all(&db.pool)
    .await?;
    let chats: Vec<ChatLine> = sqlx::query_as(
        "SELECT m.game_id, u.name AS author, m.body, m.sent_at FROM chat_messages m
         JOIN users u ON u.id = m.author
         WHERE m.game_id IN (SELECT game_id FROM game_seats WHERE user_id = $1)
         ORDER BY m.game_id, m.id",
    )
    .bind(user.id)
    .fetch_all(&db.pool)
    .await?;
    let names = |sql: &'static str| async move {
        sqlx::query_scalar::<_, String>(sql)
            .bind(user.id)
            .fetch_all(&db.pool)
            .await
    };
    Ok(json!({
        "exported_at": now_ms(),
        "account": {
            "name": user.name, "role": user.role.as_str(), "created_at": account.created_at,
            "language": account.language, "chat_off": account.chat_off != 0,
            "email": mail.email, "mail_digest": mail.mail_digest,
            "mail_deadlines": mail.mail_deadlines,
            "two_factor": crate::accounts::two_factor::enabled(db, user.id).await?,
        },
        "notifications": {
            "devices": push.devices,
            "kinds": push.kinds.iter().map(|k| k.word()).collect::<Vec<_>>(),
            "quiet_utc_minutes": push.quiet.map(|q| [q.start, q.end]),
        },
        "ranks": ranks_out,
        "games": games,
        "word_reports": word_reports,
        "player_reports": player_reports,
        "chats": chats,
        "follows": names("SELECT u.name FROM follows f JOIN users u ON u.id = f.followed WHERE f.follower = $1 ORDER BY u.name").await?,
        "blocks": names("SELECT u.name FROM blocks b JOIN users u ON u.id = b.blocked WHERE b.blocker = $1 ORDER BY u.name").await?,
    }))
}

/// Every game `user` sat in, oldest first.
async fn games_of(db: &Database, user: i64) -> Result<Vec<GameRow>, StoreError> {
    let rows: Vec<GameRecord> = sqlx::query_as(&format!(
        "SELECT DISTINCT {GAME_COLUMNS} FROM games g JOIN game_seats s ON s.game_id = g.id
         WHERE s.user_id = $1 ORDER BY g.updated_at"
    ))
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(GameRow::try_from)
        .collect::<Result<_, _>>()?)
}

/// One game: its facts, its seats by name, and its GCG once it is over.
async fn game(services: &Services, user: i64, row: GameRow) -> Result<Value, StoreError> {
    let seats = seating::seats(&services.db, &row.id).await?;
    let names: Vec<String> = seats.iter().map(seating::SeatRow::plain_name).collect();
    let gcg = match records::finished(services, &row.id, Some(user)).await {
        Ok(record) => Some(record.gcg(Some(user))?),
        Err(StoreError::Refused(_)) => None,
        Err(error) => return Err(error),
    };
    Ok(json!({
        "id": row.id, "status": row.phase.as_str(), "opponent": row.opponent.as_str(),
        "dictionary": row.config.dictionary, "variant": row.config.variant,
        "rated": row.rated, "updated_at": row.updated_at, "seats": names, "gcg": gcg,
    }))
}
