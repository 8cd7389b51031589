//! Vacations: a player pauses their clock in every Casual game for the days they choose, up to
//! [`DAYS_A_YEAR`] in any 365 days. A pause moves deadlines, so nothing that reads a deadline
//! (the time-out sweep, the warnings, the pages) needs to know of vacations: a Casual turn of
//! the player's gets its deadline moved on by the part of the vacation still to come, when the
//! vacation starts ([`start`]) or when the turn passes to them during it ([`pause_due`], run by
//! the clock every second); an early end ([`end`]) moves those deadlines back by what is left.
//!
//! A turn's pause is marked by the deadline it gave (`games.paused_deadline`): a turn whose
//! deadline is still that one is paused already, however often a trade bumps its version.

use domain::Refusal;
use rules::game::Format;
use sqlx::AnyConnection;

use crate::{
    db::{now_ms, Database},
    games,
    rows::Json,
    StoreError,
};

/// Vacation days a player has in any 365 days.
pub const DAYS_A_YEAR: i64 = 14;
/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// A player's vacations as their settings show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// When the vacation under way ends, unix ms; `None` when there is none.
    pub until: Option<i64>,
    /// Days still to take in the 365 days from now back; a day begun counts as taken.
    pub days_left: i64,
}

/// A vacation as stored.
#[derive(sqlx::FromRow)]
struct Taken {
    starts_at: i64,
    ends_at: i64,
}

impl Taken {
    /// Days it takes from the allowance: each begun day.
    fn days(&self) -> i64 {
        (self.ends_at - self.starts_at + DAY_MS - 1)
            .div_euclid(DAY_MS)
            .max(1)
    }
}

/// `user`'s vacation under way, if any, and the days they have left.
pub async fn standing(db: &Database, user: i64) -> Result<Standing, sqlx::Error> {
    let mut conn = db.pool.acquire().await?;
    standing_on(&mut conn, user, now_ms()).await
}

async fn standing_on(
    conn: &mut AnyConnection,
    user: i64,
    now: i64,
) -> Result<Standing, sqlx::Error> {
    let taken: Vec<Taken> = sqlx::query_as(
        "SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 AND starts_at > $2",
    )
    .bind(user)
    .bind(now - 365 * DAY_MS)
    .fetch_all(&mut *conn)
    .await?;
    Ok(Standing {
        until: taken
            .iter()
            .filter(|t| t.starts_at <= now && now < t.ends_at)
            .map(|t| t.ends_at)
            .max(),
        days_left: (DAYS_A_YEAR - taken.iter().map(Taken::days).sum::<i64>()).max(0),
    })
}

/// The vacations under way of the players in `users`: each one's end, unix ms.
pub async fn until_of(
    db: &Database,
    users: &[i64],
) -> Result<std::collections::HashMap<i64, i64>, sqlx::Error> {
    if users.is_empty() {
        return Ok(Default::default());
    }
    let now = now_ms();
    let sql = format!(
        "SELECT user_id, MAX(ends_at) FROM vacations
         WHERE starts_at <= $1 AND ends_at > $1 AND user_id IN ({}) GROUP BY user_id",
        crate::db::placeholders(2, users.len())
    );
    let mut query = sqlx::query_as::<_, (i64, i64)>(&sql).bind(now);
    for user in users {
        query = query.bind(*user);
    }
    Ok(query.fetch_all(&db.pool).await?.into_iter().collect())
}

/// A Casual turn of a player on vacation, as [`pause`] needs it.
#[derive(sqlx::FromRow)]
struct Turn {
    id: String,
    config: Json<rules::GameConfig>,
    updated_at: i64,
    deadline_at: i64,
    starts_at: i64,
    ends_at: i64,
}

/// The turns under way of players on vacation at `now` (of `user` alone when given), with the
/// pause not yet given when `unpaused`.
async fn turns(
    conn: &mut AnyConnection,
    user: Option<i64>,
    now: i64,
    unpaused: bool,
) -> Result<Vec<Turn>, sqlx::Error> {
    let sql = format!(
        "SELECT g.id, g.config, g.updated_at, g.deadline_at, v.starts_at, v.ends_at
         FROM vacations v
         JOIN game_seats s ON s.user_id = v.user_id
         JOIN games g ON g.id = s.game_id AND g.to_move = s.seat
         WHERE v.starts_at <= $1 AND v.ends_at > $1 AND g.status = 'playing'
           AND g.deadline_at IS NOT NULL {user} {unpaused}",
        user = if user.is_some() {
            "AND v.user_id = $2"
        } else {
            ""
        },
        unpaused = if unpaused {
            "AND (g.paused_deadline IS NULL OR g.paused_deadline <> g.deadline_at)"
        } else {
            ""
        },
    );
    let mut query = sqlx::query_as::<_, Turn>(&sql).bind(now);
    if let Some(user) = user {
        query = query.bind(user);
    }
    let turns = query.fetch_all(&mut *conn).await?;
    // Only Casual clocks pause: a Blitz turn is two minutes.
    Ok(turns
        .into_iter()
        .filter(|t| t.config.0.format == Format::Casual)
        .collect())
}

/// Moves each turn's deadline on by the part of its vacation after the turn began, if it is
/// still the deadline read; returns the games paused.
async fn pause(conn: &mut AnyConnection, turns: Vec<Turn>) -> Result<Vec<String>, sqlx::Error> {
    let mut paused = Vec::new();
    for turn in turns {
        let deadline = turn.deadline_at + turn.ends_at - turn.updated_at.max(turn.starts_at);
        let moved = sqlx::query(
            "UPDATE games SET deadline_at = $3, paused_deadline = $3
             WHERE id = $1 AND deadline_at = $2 AND status = 'playing'",
        )
        .bind(&turn.id)
        .bind(turn.deadline_at)
        .bind(deadline)
        .execute(&mut *conn)
        .await?;
        if moved.rows_affected() == 1 {
            paused.push(turn.id);
        }
    }
    Ok(paused)
}

/// Starts `user`'s vacation of `days` days now, pausing their clock in every Casual game whose
/// turn is theirs; refused when one is under way or the days are not theirs to take.
pub async fn start(db: &Database, user: i64, days: i64) -> Result<Standing, StoreError> {
    let (_writer, mut tx) = db.begin_holding(user).await?;
    let now = now_ms();
    let standing = standing_on(&mut tx, user, now).await?;
    if standing.until.is_some() {
        return Err(Refusal::Invalid("you are on vacation already".into()).into());
    }
    if !(1..=standing.days_left).contains(&days) {
        return Err(Refusal::Invalid(format!(
            "a vacation is 1 to {} days: you have {} left this year",
            standing.days_left, standing.days_left
        ))
        .into());
    }
    sqlx::query("INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)")
        .bind(user)
        .bind(now)
        .bind(now + days * DAY_MS)
        .execute(&mut *tx)
        .await?;
    // Every turn of theirs, paused or not by an earlier vacation: this one pauses it again.
    let turns = turns(&mut tx, Some(user), now, false).await?;
    let paused = pause(&mut tx, turns).await?;
    let standing = standing_on(&mut tx, user, now).await?;
    tx.commit().await?;
    tell(db, &paused).await;
    Ok(standing)
}

/// Ends `user`'s vacation under way now: the deadlines it moved come back by the time it had
/// left, and the whole days not begun are theirs again.
pub async fn end(db: &Database, user: i64) -> Result<Standing, StoreError> {
    let (_writer, mut tx) = db.begin_holding(user).await?;
    let now = now_ms();
    let Some(until) = standing_on(&mut tx, user, now).await?.until else {
        return Err(Refusal::Invalid("you are not on vacation".into()).into());
    };
    let back = until - now;
    let games: Vec<String> = sqlx::query_scalar(
        "SELECT g.id FROM game_seats s JOIN games g ON g.id = s.game_id AND g.to_move = s.seat
         WHERE s.user_id = $1 AND g.status = 'playing' AND g.paused_deadline = g.deadline_at",
    )
    .bind(user)
    .fetch_all(&mut *tx)
    .await?;
    for id in &games {
        sqlx::query(
            "UPDATE games SET deadline_at = deadline_at - $2, paused_deadline = deadline_at - $2
             WHERE id = $1",
        )
        .bind(id)
        .bind(back)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE vacations SET ends_at = $3 WHERE user_id = $1 AND ends_at = $2")
        .bind(user)
        .bind(until)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    let standing = standing_on(&mut tx, user, now).await?;
    tx.commit().await?;
    tell(db, &games).await;
    Ok(standing)
}

/// Pauses the turns that passed to players on vacation since the last look; returns the games
/// paused. Every instance's clock runs it: the deadline each update expects lets one apply it.
pub async fn pause_due(db: &Database) -> Result<Vec<String>, sqlx::Error> {
    let now = now_ms();
    let turns = {
        let mut conn = db.pool.acquire().await?;
        turns(&mut conn, None, now, true).await?
    };
    if turns.is_empty() {
        return Ok(Vec::new());
    }
    let (_writer, mut tx) = db.begin_write().await?;
    let paused = pause(&mut tx, turns).await?;
    tx.commit().await?;
    tell(db, &paused).await;
    Ok(paused)
}

/// Tells the players of each game that its clock moved.
async fn tell(db: &Database, games: &[String]) {
    for id in games {
        games::tell_players(db, id).await;
    }
}

/// `user`'s vacations, for their export: each one's start and end, unix ms.
pub async fn export(db: &Database, user: i64) -> Result<serde_json::Value, sqlx::Error> {
    let taken: Vec<Taken> = sqlx::query_as(
        "SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 ORDER BY starts_at",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(taken
        .iter()
        .map(|t| serde_json::json!({ "starts_at": t.starts_at, "ends_at": t.ends_at }))
        .collect())
}

/// Forgets a closing account's vacations.
pub(crate) async fn forget(conn: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(conn, user, &["DELETE FROM vacations WHERE user_id = $1"]).await
}
