//! Blocks: a player stops another from reaching them. Every path where two players would meet
//! asks [`check`] (a challenge, an invite link, a lobby seat, a rematch, a follow), so a new path
//! has one function to call and one refusal to give; the lobby's list leaves out the games of
//! players [`hidden_from`] the viewer, and chat leaves out the messages of players the reader
//! blocked ([`crate::chat`]). A block holds both ways for meeting (neither can challenge the
//! other), and the blocked player is never told: they hear what a name that is nobody's gets.

use domain::{Refusal, SocialProblem};

use crate::{
    accounts::{self, User},
    db::{now_ms, Database},
    StoreError,
};

/// A way one player reaches another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact<'a> {
    /// A challenge to the player named so, as the caller typed the name.
    Challenge(&'a str),
    /// A follow of the player named so, as the caller typed the name.
    Follow(&'a str),
    /// Taking the seat of an invite link.
    Invite,
    /// Taking the seat of a lobby game.
    Lobby,
    /// Offering or accepting a rematch.
    Rematch,
}

impl Contact<'_> {
    /// What the caller is told when the way is closed, `by_caller` (the caller blocked the
    /// other) or not. The blocked player hears what a name that is nobody's gets: nothing
    /// tells them of the block. The blocker, who knows, hears that the other cannot be reached.
    fn refusal(self, by_caller: bool) -> Refusal {
        match self {
            Contact::Challenge(name) | Contact::Follow(name) if by_caller => {
                Refusal::Social(SocialProblem::Unreachable(shortened(name)))
            }
            Contact::Challenge(name) | Contact::Follow(name) => {
                Refusal::Social(SocialProblem::NoSuchPlayer(shortened(name)))
            }
            Contact::Invite => Refusal::InviteClosed,
            Contact::Lobby => Refusal::NoSuchGame,
            Contact::Rematch => Refusal::RematchClosed,
        }
    }
}

/// Refuses `contact` from `from` to `to` when either blocked the other.
pub async fn check(
    db: &Database,
    from: i64,
    to: i64,
    contact: Contact<'_>,
) -> Result<(), StoreError> {
    if between(db, from, to).await? {
        metrics::counter!("alfakraft_blocked_contacts_total").increment(1);
        let by_caller = blocks(db, from, to).await?;
        return Err(contact.refusal(by_caller).into());
    }
    Ok(())
}

/// Whether either of `a` and `b` blocked the other.
pub async fn between(db: &Database, a: i64, b: i64) -> Result<bool, sqlx::Error> {
    let count: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM blocks WHERE (blocker = $1 AND blocked = $2)
         OR (blocker = $2 AND blocked = $1)",
    )
    .bind(a)
    .bind(b)
    .fetch_one(&db.pool)
    .await?;
    Ok(count > 0)
}

/// A SQL condition, true when neither `viewer` (a bound parameter such as `$1`) nor `player` (a
/// column) blocked the other: for lists that leave blocked players out.
pub fn hidden_from(viewer: &str, player: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM blocks bl WHERE (bl.blocker = {viewer} AND bl.blocked = {player})
         OR (bl.blocker = {player} AND bl.blocked = {viewer}))"
    )
}

/// The player called `name`, or the refusal for a name that is nobody, or the caller.
pub async fn other(db: &Database, me: &User, name: &str) -> Result<User, StoreError> {
    let other = accounts::by_name(db, name)
        .await?
        .ok_or_else(|| Refusal::Social(SocialProblem::NoSuchPlayer(shortened(name))))?;
    if other.id == me.id {
        return Err(Refusal::Social(SocialProblem::Yourself).into());
    }
    Ok(other)
}

/// A name as a refusal repeats it: no longer than a name can be.
fn shortened(name: &str) -> String {
    name.trim().chars().take(40).collect()
}

/// `blocker` blocks the player called `name`: follows between them end, and challenges between
/// them still waiting are called off.
pub async fn block(db: &Database, blocker: &User, name: &str) -> Result<User, StoreError> {
    let blocked = other(db, blocker, name).await?;
    let now = now_ms();
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO blocks (blocker, blocked, created_at) SELECT $1, $2, $3
         WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE blocker = $1 AND blocked = $2)",
    )
    .bind(blocker.id)
    .bind(blocked.id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM follows WHERE (follower = $1 AND followed = $2)
         OR (follower = $2 AND followed = $1)",
    )
    .bind(blocker.id)
    .bind(blocked.id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE games SET status = 'cancelled', updated_at = $3 WHERE status = 'waiting' AND id IN (
             SELECT i.game_id FROM invites i JOIN game_seats s ON s.game_id = i.game_id AND s.seat = 0
             WHERE i.state = 'open' AND ((s.user_id = $1 AND i.invitee = $2)
                OR (s.user_id = $2 AND i.invitee = $1)))",
    )
    .bind(blocker.id)
    .bind(blocked.id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(blocked)
}

/// `blocker` lifts their block of the player called `name`.
pub async fn unblock(db: &Database, blocker: &User, name: &str) -> Result<(), StoreError> {
    let blocked = other(db, blocker, name).await?;
    sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
        .bind(blocker.id)
        .bind(blocked.id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Whether `blocker` blocked `blocked` (one way).
pub async fn blocks(db: &Database, blocker: i64, blocked: i64) -> Result<bool, sqlx::Error> {
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .fetch_one(&db.pool)
            .await?;
    Ok(count > 0)
}

/// The names of the players `user` blocked, in order.
pub async fn blocked_by(db: &Database, user: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT u.name FROM blocks b JOIN users u ON u.id = b.blocked WHERE b.blocker = $1
         ORDER BY u.name",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await
}

/// Forgets `user`'s blocks, both ways (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM blocks WHERE blocker = $1 OR blocked = $1"],
    )
    .await
}

/// Whom `user` blocks, by name, as they export it (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, sqlx::Error> {
    Ok(serde_json::json!(blocked_by(db, user).await?))
}
