//! Rematches: after a finished game between two players, either may offer one; the other accepts
//! (a new game with the seats swapped, so the first move alternates) or declines, which is final.
//! The offerer may withdraw (and offer again); an offer lapses after seven days.

use domain::{OpponentKind, Phase, Refusal, RematchState, REMATCH_TTL_MS};
use rules::{GameConfig, Seat};

use super::{check_room, random_seed, seats};
use crate::blocks::{self, Contact};
use crate::{
    accounts::User,
    db::{now_ms, Database},
    games,
    library::versions,
    push,
    rows::{word_column, Word},
    StoreError,
};

/// A rematch as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rematch {
    /// Who offered it.
    pub offered_by: i64,
    /// Where it stands (an open offer past its time reads as expired).
    pub state: RematchState,
    /// The new game, once accepted.
    pub new_game_id: Option<String>,
}

/// A rematch offer's state as the table keeps it (that an open one has expired is worked out
/// from its time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    Open,
    Accepted,
    Declined,
    Cancelled,
}

word_column!(Kept {
    Open => "open",
    Accepted => "accepted",
    Declined => "declined",
    Cancelled => "cancelled",
});

/// A rematch as read.
#[derive(sqlx::FromRow)]
struct RematchRow {
    offered_by: i64,
    state: Kept,
    new_game_id: Option<String>,
    expires_at: i64,
}

/// The rematch after `game_id`, if one was offered.
pub async fn of(db: &Database, game_id: &str) -> Result<Option<Rematch>, StoreError> {
    let row: Option<RematchRow> = sqlx::query_as(
        "SELECT offered_by, state, new_game_id, expires_at FROM rematches WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let state = match row.state {
        Kept::Open if row.expires_at <= now_ms() => RematchState::Expired,
        Kept::Open => RematchState::Open,
        Kept::Accepted => RematchState::Accepted,
        Kept::Declined => RematchState::Declined,
        Kept::Cancelled => RematchState::Cancelled,
    };
    Ok(Some(Rematch {
        offered_by: row.offered_by,
        state,
        new_game_id: row.new_game_id,
    }))
}

/// The two players of a finished game between people: (seat 0's user, seat 1's user).
async fn players(db: &Database, game_id: &str, user: &User) -> Result<(i64, i64), StoreError> {
    let game = games::row(db, game_id).await?;
    let seats = seats(db, game_id).await?;
    let ids: Vec<i64> = seats
        .iter()
        .filter_map(|s| s.user.as_ref().map(|(id, _)| *id))
        .collect();
    if !ids.contains(&user.id) {
        return Err(Refusal::NoSuchGame.into());
    }
    let [a, b] = ids[..] else {
        return Err(Refusal::Invalid("rematches are for games between two players".into()).into());
    };
    if a == b || seats.iter().any(|s| s.bot.is_some()) {
        return Err(Refusal::Invalid("rematches are for games between two players".into()).into());
    }
    if game.phase != Phase::Over {
        return Err(Refusal::Invalid("the game is not over yet".into()).into());
    }
    Ok((a, b))
}

/// Offers a rematch (or offers again after withdrawing).
pub async fn offer(db: &Database, user: &User, game_id: &str) -> Result<(), StoreError> {
    let (a, b) = players(db, game_id, user).await?;
    blocks::check(db, a, b, Contact::Rematch).await?;
    let expires_at = now_ms() + REMATCH_TTL_MS;
    let renewed = sqlx::query(
        "UPDATE rematches SET state = 'open', offered_by = $2, expires_at = $3
         WHERE game_id = $1 AND state = 'cancelled'",
    )
    .bind(game_id)
    .bind(user.id)
    .bind(expires_at)
    .execute(&db.pool)
    .await?;
    let other = if a == user.id { b } else { a };
    let notice = domain::Notice::Rematch {
        game: game_id.to_string(),
        from: user.name.clone(),
    };
    if renewed.rows_affected() == 1 {
        push::notify_later(db, other, notice);
        return Ok(());
    }
    let inserted = sqlx::query(
        "INSERT INTO rematches (game_id, offered_by, state, expires_at) VALUES ($1, $2, 'open', $3)",
    )
    .bind(game_id)
    .bind(user.id)
    .bind(expires_at)
    .execute(&db.pool)
    .await;
    match inserted {
        Ok(_) => {
            push::notify_later(db, other, notice);
            Ok(())
        }
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(Refusal::RematchClosed.into())
        }
        Err(e) => Err(e.into()),
    }
}

/// Withdraws one's own open offer.
pub async fn cancel(db: &Database, user: &User, game_id: &str) -> Result<(), StoreError> {
    players(db, game_id, user).await?;
    let done = sqlx::query(
        "UPDATE rematches SET state = 'cancelled' WHERE game_id = $1 AND offered_by = $2 AND state = 'open'",
    )
    .bind(game_id)
    .bind(user.id)
    .execute(&db.pool)
    .await?;
    if done.rows_affected() != 1 {
        return Err(Refusal::RematchClosed.into());
    }
    Ok(())
}

/// Answers the other player's open, unexpired offer with `state` (inside the caller's
/// transaction when there is one); refused when there is no such offer.
async fn answer_offer(
    conn: &mut sqlx::AnyConnection,
    user: &User,
    game_id: &str,
    state: Kept,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE rematches SET state = $4 WHERE game_id = $1 AND offered_by <> $2
         AND state = 'open' AND expires_at > $3",
    )
    .bind(game_id)
    .bind(user.id)
    .bind(now_ms())
    .bind(state.word())
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() != 1 {
        return Err(Refusal::RematchClosed.into());
    }
    Ok(())
}

/// Declines the other player's open offer: final.
pub async fn decline(db: &Database, user: &User, game_id: &str) -> Result<(), StoreError> {
    players(db, game_id, user).await?;
    let mut conn = db.pool.acquire().await?;
    answer_offer(&mut conn, user, game_id, Kept::Declined).await
}

/// Accepts the other player's open offer: a new game with the seats swapped, so whoever moved
/// second last time moves first. Returns its id.
pub async fn accept(db: &Database, user: &User, game_id: &str) -> Result<String, StoreError> {
    let (seat0, seat1) = players(db, game_id, user).await?;
    blocks::check(db, seat0, seat1, Contact::Rematch).await?;
    check_room(db, seat0).await?;
    check_room(db, seat1).await?;
    let old = games::row(db, game_id).await?;
    // A rematch is a new game: it gets the dictionary's active version.
    let dictionary = dictionaries::DictionaryRef::parse(&old.config.dictionary)
        .ok_or_else(|| StoreError::Data(format!("no dictionary {}", old.config.dictionary)))?;
    let config = GameConfig {
        seed: random_seed(db),
        dictionary: versions::active_ref(db, dictionary.id).await?.to_string(),
        ..old.config.clone()
    };
    let (_writer, mut tx) = db.begin_write().await?;
    answer_offer(&mut tx, user, game_id, Kept::Accepted).await?;
    let id = games::insert(
        &mut tx,
        &config,
        Phase::Playing,
        OpponentKind::Rematch,
        old.rated,
    )
    .await?;
    for (seat, user_id) in [(0 as Seat, seat1), (1, seat0)] {
        sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES ($1, $2, $3)")
            .bind(&id)
            .bind(i64::from(seat))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("UPDATE rematches SET new_game_id = $2 WHERE game_id = $1")
        .bind(game_id)
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(id)
}

/// Withdraws `user`'s open rematch offers, as their account closes.
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rematches SET state = $2 WHERE offered_by = $1 AND state = $3")
        .bind(user)
        .bind(Kept::Cancelled.word())
        .bind(Kept::Open.word())
        .execute(&mut *conn)
        .await?;
    Ok(())
}
