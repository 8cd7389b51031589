//! Chat in a game between people (not a bot's, not pass-and-play, not a Daily Challenge): part
//! of the game's record for its players and no one else, never in an export. A message is 1 to
//! [`CHAT_MAX_CHARS`] characters, at most [`CHAT_BURST`] a player every [`CHAT_WINDOW_SECS`]
//! seconds (counted in the database, so across instances). A player who turned chat off sees none
//! and no one can write in their games; a reader never sees the messages of players they blocked;
//! a muted or suspended player cannot write. A message reaches the players' open pages on the
//! game's live stream ([`Change::Chat`]).

use std::collections::HashMap;

use domain::{OpponentKind, Refusal, SocialProblem, CHAT_BURST, CHAT_MAX_CHARS, CHAT_WINDOW_SECS};

use crate::{
    accounts::User,
    bus::Change,
    db::{now_ms, Database},
    moderation, seating, StoreError,
};

/// The most messages a page loads: the newest of a game's chat.
pub const HISTORY: i64 = 200;

/// A message as its readers see it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Line {
    /// Its id, increasing within a game.
    pub id: i64,
    /// Its author's id and name.
    pub author: i64,
    pub name: String,
    pub body: String,
    /// When it was sent, unix ms.
    pub sent_at: i64,
}

/// A game's chat as one of its players sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Room {
    /// No chat: not a game between people.
    Closed,
    /// Someone in it turned chat off: the reader, or another player (who is not named: their
    /// settings are their own).
    Off {
        /// Whether the reader did.
        by_reader: bool,
    },
    /// The chat.
    Open {
        /// Its messages, oldest first, without those of players the reader blocked.
        lines: Vec<Line>,
        /// Why the reader cannot write (muted or suspended), if they cannot.
        silenced: Option<Refusal>,
    },
}

/// Whether games of this kind have chat: those between people.
fn has_chat(kind: OpponentKind) -> bool {
    kind.between_people()
}

/// The people seated in game `id` (refused as no such game unless `reader` is one of them), and
/// whether the game has chat: between people, none of whom turned it off.
async fn seated(db: &Database, id: &str, reader: i64) -> Result<(Vec<i64>, Room), StoreError> {
    // The game and its seats in one read.
    seated_at(&seating::table(db, id).await?, reader)
}

/// [`seated`], for a caller that has read the game's table already (which says who turned
/// chat off).
fn seated_at(table: &seating::Table, reader: i64) -> Result<(Vec<i64>, Room), StoreError> {
    let seating::Table { game, seats, .. } = table;
    seating::mine(seats, reader)?;
    let users = seating::people(seats);
    if !has_chat(game.opponent) || users.len() < 2 {
        return Ok((users, Room::Closed));
    }
    let off: Vec<i64> = seats
        .iter()
        .filter(|s| s.chat_off)
        .filter_map(seating::SeatRow::person)
        .collect();
    let room = match off.is_empty() {
        true => Room::Open {
            lines: Vec::new(),
            silenced: None,
        },
        false => Room::Off {
            by_reader: off.contains(&reader),
        },
    };
    Ok((users, room))
}

/// Game `id`'s chat as `reader` sees it.
pub async fn room(db: &Database, id: &str, reader: i64) -> Result<Room, StoreError> {
    room_at(db, &seating::table(db, id).await?, reader).await
}

/// [`room`], for a caller that has read the game's table already (the game page).
pub async fn room_at(
    db: &Database,
    table: &seating::Table,
    reader: i64,
) -> Result<Room, StoreError> {
    let id = table.game.id.as_str();
    let (_, room) = seated_at(table, reader)?;
    if !matches!(room, Room::Open { .. }) {
        return Ok(room);
    }
    let mut lines: Vec<Line> = sqlx::query_as(
        "SELECT m.id, m.author, u.name, m.body, m.sent_at FROM chat_messages m
         JOIN users u ON u.id = m.author
         WHERE m.game_id = $1 AND (m.hidden_from IS NULL OR m.hidden_from <> $2) AND NOT EXISTS
             (SELECT 1 FROM blocks b WHERE b.blocker = $2 AND b.blocked = m.author)
         ORDER BY m.id DESC LIMIT $3",
    )
    .bind(id)
    .bind(reader)
    .bind(HISTORY)
    .fetch_all(&db.pool)
    .await?;
    lines.reverse();
    let silenced = match moderation::check_may_chat(db, reader).await {
        Ok(()) => None,
        Err(StoreError::Refused(refusal)) => Some(refusal),
        Err(error) => return Err(error),
    };
    Ok(Room::Open { lines, silenced })
}

/// A message as kept: made plain ([`domain::plain_text`]: no control or reordering characters,
/// white space collapsed), with something visible in it, and at most [`CHAT_MAX_CHARS`]
/// characters (not bytes: an emoji of several is counted by them).
pub fn message_of(text: &str) -> Result<String, Refusal> {
    // Nothing that reorders the text shown beside it (the author's name, the next line).
    let body = domain::plain_text(text);
    let length = body.chars().count();
    if !body.chars().any(visible) || length > CHAT_MAX_CHARS {
        return Err(Refusal::Social(SocialProblem::BadMessage));
    }
    Ok(body)
}

/// Whether `c` shows by itself: not white space, a zero-width character (which stay inside a
/// message, joining emoji), a variation selector or a combining mark, of which alone a message
/// would look empty.
fn visible(c: char) -> bool {
    !c.is_whitespace()
        && !matches!(c,
            '\u{00ad}' | '\u{034f}' | '\u{180e}' | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}'
            | '\u{feff}' | '\u{fe00}'..='\u{fe0f}' | '\u{0300}'..='\u{036f}'
            | '\u{1ab0}'..='\u{1aff}' | '\u{1dc0}'..='\u{1dff}' | '\u{20d0}'..='\u{20ff}'
            | '\u{fe20}'..='\u{fe2f}' | '\u{e0000}'..='\u{e007f}')
}

/// `author` writes `text` in game `id`'s chat; its players' pages hear of it.
pub async fn send(db: &Database, id: &str, author: &User, text: &str) -> Result<(), StoreError> {
    let body = message_of(text)?;
    let (users, room) = seated(db, id, author.id).await?;
    if !matches!(room, Room::Open { .. }) {
        return Err(Refusal::Social(SocialProblem::NoChat).into());
    }
    moderation::check_may_chat(db, author.id).await?;
    let now = now_ms();
    // Counted and written holding the author: messages sent at once never pass the limit.
    let (_writer, mut tx) = db.begin_holding(author.id).await?;
    let recent: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM chat_messages WHERE author = $1 AND sent_at > $2")
            .bind(author.id)
            .bind(now - CHAT_WINDOW_SECS * 1000)
            .fetch_one(&mut *tx)
            .await?;
    if recent >= CHAT_BURST {
        metrics::counter!("alfakraft_rate_limited_total", "limit" => "chat").increment(1);
        return Err(Refusal::Social(SocialProblem::TooFast).into());
    }
    let sent: i64 = sqlx::query_scalar(
        // Written to a player who blocks the author: hidden from them for good (an unblock later
        // does not show it).
        "INSERT INTO chat_messages (game_id, author, body, sent_at, hidden_from)
         VALUES ($1, $2, $3, $4, (SELECT b.blocker FROM blocks b
             JOIN game_seats s ON s.game_id = $1 AND s.user_id = b.blocker
             WHERE b.blocked = $2 LIMIT 1))
         RETURNING id",
    )
    .bind(id)
    .bind(author.id)
    .bind(&body)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("UPDATE game_seats SET chat_seen = $3 WHERE game_id = $1 AND user_id = $2")
        .bind(id)
        .bind(author.id)
        .bind(sent)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    db.publish(Change::Chat {
        id: id.to_string(),
        users,
    })
    .await;
    Ok(())
}

/// `reader` has seen game `id`'s chat up to now. Writes only when there is something new: every
/// load of a game's page reads its chat.
pub async fn mark_seen(db: &Database, id: &str, reader: i64) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE game_seats SET chat_seen = newest.id
         FROM (SELECT COALESCE(MAX(id), 0) AS id FROM chat_messages WHERE game_id = $1) newest
         WHERE game_id = $1 AND user_id = $2 AND chat_seen < newest.id",
    )
    .bind(id)
    .bind(reader)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A game's messages its reader has not seen, counted.
#[derive(sqlx::FromRow)]
struct Unread {
    game_id: String,
    unread: i64,
}

/// How many messages `reader` has not seen, by game (games with none are left out).
pub async fn unread(db: &Database, reader: i64) -> Result<HashMap<String, u32>, StoreError> {
    if chat_off(db, reader).await? {
        return Ok(HashMap::new());
    }
    let rows: Vec<Unread> = sqlx::query_as(
        "SELECT m.game_id, COUNT(*) AS unread FROM chat_messages m
         JOIN game_seats s ON s.game_id = m.game_id AND s.user_id = $1
         WHERE m.author <> $1 AND m.id > s.chat_seen
         AND (m.hidden_from IS NULL OR m.hidden_from <> $1) AND NOT EXISTS
             (SELECT 1 FROM blocks b WHERE b.blocker = $1 AND b.blocked = m.author)
         GROUP BY m.game_id",
    )
    .bind(reader)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.game_id, u32::try_from(row.unread).unwrap_or(u32::MAX)))
        .collect())
}

/// Whether `user` turned chat off.
pub async fn chat_off(db: &Database, user: i64) -> Result<bool, sqlx::Error> {
    let off: Option<i64> = sqlx::query_scalar("SELECT chat_off FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&db.pool)
        .await?;
    Ok(off.unwrap_or(0) != 0)
}

/// Turns `user`'s chat off (or on again).
pub async fn set_chat_off(db: &Database, user: i64, off: bool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET chat_off = $2 WHERE id = $1")
        .bind(user)
        .bind(i64::from(off))
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Forgets what `user` wrote, and that messages were hidden from them (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &[
            "DELETE FROM chat_messages WHERE author = $1",
            "UPDATE chat_messages SET hidden_from = NULL WHERE hidden_from = $1",
        ],
    )
    .await
}

/// The chats of `user`'s games, as they export them (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, sqlx::Error> {
    #[derive(serde::Serialize, sqlx::FromRow)]
    struct Line {
        game_id: String,
        author: String,
        body: String,
        sent_at: i64,
    }
    let lines: Vec<Line> = sqlx::query_as(
        "SELECT m.game_id, u.name AS author, m.body, m.sent_at FROM chat_messages m
         JOIN users u ON u.id = m.author
         WHERE m.game_id IN (SELECT game_id FROM game_seats WHERE user_id = $1)
         ORDER BY m.game_id, m.id",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(serde_json::json!(lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_plain_visible_and_counted_in_characters() {
        // Reordering characters go; the words stay in the order typed.
        assert_eq!(
            message_of("gg \u{202e}olleh\u{2066}x\u{2069} \u{200f}!").unwrap(),
            "gg olleh x !"
        );
        for empty in [
            "",
            "   ",
            "\u{200b}\u{200c}\u{feff}",
            "\u{0301}\u{0302}",
            "\u{202e}\u{200e}",
        ] {
            assert!(message_of(empty).is_err(), "{empty:?}");
        }
        // A family emoji joined by zero-width joiners is one message, kept whole.
        let family = "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}";
        assert_eq!(message_of(family).unwrap(), family);
        // The limit counts characters: the longest message of four-byte emoji passes.
        let longest = "\u{1f600}".repeat(CHAT_MAX_CHARS);
        assert_eq!(
            message_of(&longest).unwrap().chars().count(),
            CHAT_MAX_CHARS
        );
        assert!(message_of(&format!("{longest}a")).is_err());
        let marked = "e\u{0301}".repeat(CHAT_MAX_CHARS / 2);
        assert!(message_of(&marked).is_ok());
        assert!(message_of(&format!("{marked}e")).is_err());
    }
}
