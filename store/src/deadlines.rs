//! Turns running out: a player to move with under a day left on a Casual turn hears of it once
//! per turn on each channel they chose (mail, push). One query finds the turns due on a channel;
//! a claim on the seat's column for that channel makes the warning go out once, however many
//! instances look.

use sqlx::AnyConnection;

use crate::db::{now_ms, Database};

/// A day, in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// Where a warning goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// A letter to the player's verified address, if they asked for deadline mail.
    Mail,
    /// A notice to the player's subscribed devices, if they kept the deadline kind on.
    Push,
}

impl Channel {
    /// The seat's column holding the last turn warned of on this channel.
    fn claim_column(self) -> &'static str {
        match self {
            Channel::Mail => "warned_version",
            Channel::Push => "push_warned_version",
        }
    }

    /// What the player must have chosen for this channel, as a condition on `users u`.
    fn wanted(self) -> String {
        match self {
            Channel::Mail => "u.email IS NOT NULL AND u.mail_deadlines = 1".into(),
            Channel::Push => format!(
                "(u.push_kinds & {}) <> 0
                 AND EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.user_id = u.id)",
                domain::PushKind::bits(&[domain::PushKind::Deadline])
            ),
        }
    }
}

/// A turn with under a day left, whose player wants a warning on a channel and has none yet.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TurnEnding {
    /// The game.
    pub game_id: String,
    /// Its version: the turn the warning is for.
    pub version: i64,
    /// The player's seat.
    pub seat: i64,
    /// The player.
    pub user_id: i64,
    /// Their name.
    pub name: String,
    /// Their verified address, if any.
    pub email: Option<String>,
    /// The language they chose, if any.
    pub language: Option<String>,
    /// When their time runs out, unix ms.
    pub deadline_at: i64,
}

impl TurnEnding {
    /// Whole hours left, at least one.
    pub fn hours_left(&self) -> i64 {
        (self.deadline_at - now_ms()).div_euclid(3_600_000).max(1)
    }
}

/// Turns longer than a day (Casual: a Blitz turn is over before a warning is read) with under a
/// day left, whose player wants a warning on `channel` and was not warned there yet.
pub async fn due(db: &Database, channel: Channel) -> Result<Vec<TurnEnding>, sqlx::Error> {
    let now = now_ms();
    let sql = format!(
        "SELECT g.id AS game_id, g.version, s.seat, s.user_id, u.name, u.email, u.language,
                g.deadline_at
         FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         JOIN users u ON u.id = s.user_id
         WHERE g.status = $4 AND g.deadline_at > $1 AND g.deadline_at <= $2
           AND g.deadline_at - g.updated_at > $3 AND s.{claim} < g.version AND {wanted}
         ORDER BY g.deadline_at LIMIT 100",
        claim = channel.claim_column(),
        wanted = channel.wanted(),
    );
    sqlx::query_as(&sql)
        .bind(now)
        .bind(now + DAY_MS)
        .bind(DAY_MS)
        .bind(domain::Phase::Playing.as_str())
        .fetch_all(&db.pool)
        .await
}

/// Claims the warning of `due` on `channel`, on `conn` (the caller's transaction when the
/// warning is written with it): whether this caller is the one to send it.
pub async fn claim(
    conn: &mut AnyConnection,
    due: &TurnEnding,
    channel: Channel,
) -> Result<bool, sqlx::Error> {
    let sql = format!(
        "UPDATE game_seats SET {column} = $3 WHERE game_id = $1 AND seat = $2 AND {column} < $3",
        column = channel.claim_column()
    );
    let claimed = sqlx::query(&sql)
        .bind(&due.game_id)
        .bind(due.seat)
        .bind(due.version)
        .execute(conn)
        .await?;
    Ok(claimed.rows_affected() == 1)
}
