//! Friends: the players one follows (one way, as on Lichess), whether they are online, and the
//! people one played lately, one tap from following. Challenges to a friend are invites
//! addressed to them ([`crate::seating`]); this lists the ones waiting for an answer.

use crate::{
    accounts::User,
    blocks::{self, Contact},
    db::{now_ms, Database},
    games::{GameRecord, GameRow, GAME_COLUMNS},
    presence, ranks,
    ranks::Ranks,
    StoreError,
};

/// The most players one may follow.
pub const MAX_FOLLOWS: i64 = 500;

/// A player as the Friends page lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Friend {
    pub id: i64,
    pub name: String,
    /// Whether they have a live page open now.
    pub online: bool,
    /// Whether the reader follows them.
    pub followed: bool,
}

/// `user` follows the player called `name` (unless a block stands between them).
pub async fn follow(db: &Database, user: &User, name: &str) -> Result<(), StoreError> {
    let other = blocks::other(db, user, name).await?;
    blocks::check(db, user.id, other.id, Contact::Follow(name)).await?;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM follows WHERE follower = $1")
        .bind(user.id)
        .fetch_one(&db.pool)
        .await?;
    if count >= MAX_FOLLOWS {
        return Err(domain::Refusal::Invalid(format!(
            "you follow {MAX_FOLLOWS} players, the most allowed"
        ))
        .into());
    }
    sqlx::query(
        "INSERT INTO follows (follower, followed, created_at) SELECT $1, $2, $3
         WHERE NOT EXISTS (SELECT 1 FROM follows WHERE follower = $1 AND followed = $2)",
    )
    .bind(user.id)
    .bind(other.id)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// `user` stops following the player called `name`.
pub async fn unfollow(db: &Database, user: &User, name: &str) -> Result<(), StoreError> {
    let other = blocks::other(db, user, name).await?;
    sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
        .bind(user.id)
        .bind(other.id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Whether `user` follows `other`.
pub async fn follows(db: &Database, user: i64, other: i64) -> Result<bool, sqlx::Error> {
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM follows WHERE follower = $1 AND followed = $2")
            .bind(user)
            .bind(other)
            .fetch_one(&db.pool)
            .await?;
    Ok(count > 0)
}

#[derive(sqlx::FromRow)]
struct Named {
    id: i64,
    name: String,
}

/// The players `user` follows, online ones first, then by name; with their ranks.
pub async fn following(db: &Database, user: i64) -> Result<(Vec<Friend>, Ranks), StoreError> {
    let named: Vec<Named> = sqlx::query_as(
        "SELECT u.id, u.name FROM follows f JOIN users u ON u.id = f.followed
         WHERE f.follower = $1 ORDER BY u.name",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    let mut friends = with_presence(db, named, |_| true).await?;
    friends.sort_by_key(|f| !f.online);
    let ids: Vec<i64> = friends.iter().map(|f| f.id).collect();
    Ok((friends, ranks::of_players(db, &ids).await?))
}

/// The people `user` played lately (finished or under way, newest first, at most 10), whether
/// followed or not; blocked players are left out.
pub async fn recent_opponents(db: &Database, user: i64) -> Result<Vec<Friend>, StoreError> {
    let named: Vec<Named> = sqlx::query_as(&format!(
        "SELECT u.id, u.name FROM game_seats me JOIN game_seats them
             ON them.game_id = me.game_id AND them.user_id <> me.user_id
         JOIN users u ON u.id = them.user_id JOIN games g ON g.id = me.game_id
         WHERE me.user_id = $1 AND u.guest = 0 AND u.closed_at IS NULL AND {}
         GROUP BY u.id, u.name ORDER BY MAX(g.updated_at) DESC LIMIT 10",
        blocks::hidden_from("$1", "u.id")
    ))
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    let followed: Vec<i64> = sqlx::query_scalar("SELECT followed FROM follows WHERE follower = $1")
        .bind(user)
        .fetch_all(&db.pool)
        .await?;
    with_presence(db, named, |id| followed.contains(&id)).await
}

async fn with_presence(
    db: &Database,
    named: Vec<Named>,
    followed: impl Fn(i64) -> bool,
) -> Result<Vec<Friend>, StoreError> {
    let ids: Vec<i64> = named.iter().map(|n| n.id).collect();
    let online = presence::online_among(db, &ids).await?;
    Ok(named
        .into_iter()
        .map(|n| Friend {
            online: online.contains(&n.id),
            followed: followed(n.id),
            id: n.id,
            name: n.name,
        })
        .collect())
}

/// A challenge waiting for `user`'s answer.
#[derive(Debug, Clone)]
pub struct Challenge {
    /// The waiting game.
    pub game: GameRow,
    /// Who challenges, by id and name.
    pub from: (i64, String),
}

#[derive(sqlx::FromRow)]
struct ChallengeRow {
    #[sqlx(flatten)]
    game: GameRecord,
    from_id: i64,
    from_name: String,
}

/// The challenges waiting for `user`, newest first.
pub async fn challenges(db: &Database, user: i64) -> Result<Vec<Challenge>, StoreError> {
    let rows: Vec<ChallengeRow> = sqlx::query_as(&format!(
        "SELECT {GAME_COLUMNS}, u.id AS from_id, u.name AS from_name FROM invites i
         JOIN games g ON g.id = i.game_id
         JOIN game_seats s ON s.game_id = g.id AND s.seat = 0 JOIN users u ON u.id = s.user_id
         WHERE i.invitee = $1 AND i.state = 'open' AND i.expires_at > $2 AND g.status = 'waiting'
         ORDER BY g.updated_at DESC LIMIT 50"
    ))
    .bind(user)
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(Challenge {
                game: row.game.try_into()?,
                from: (row.from_id, row.from_name),
            })
        })
        .collect()
}

/// Forgets whom `user` follows and who follows them (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM follows WHERE follower = $1 OR followed = $1"],
    )
    .await
}

/// Whom `user` follows, by name, as they export it (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, sqlx::Error> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT u.name FROM follows f JOIN users u ON u.id = f.followed WHERE f.follower = $1
         ORDER BY u.name",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(serde_json::json!(names))
}
