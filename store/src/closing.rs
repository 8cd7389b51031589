//! Closing an account. The player's games stay for the people they played, who see "deleted
//! player" in their seat; games in play are resigned (the opponents win them). Everything else
//! goes: each domain forgets what it keeps of the player (`forget` in each module, asked in
//! turn, as `erase` lists them), and the `users` row keeps only its id, a placeholder name no
//! one can type (`deleted-<id>`) and `closed_at`, for the seats and the other players' results
//! and rank histories that point at it.

use domain::{AccountProblem, Refusal};
use rules::{Action, Seat};
use sqlx::AnyConnection;

use crate::{
    accounts::{self, security::Confirmed},
    blocks, chat, daily, friends,
    games::{self, GameError},
    leagues, library, mail, moderation, presence, push, ranks, results, seating, statistics,
    tournaments, vacations, Services, StoreError,
};

/// Closes the account whose password was just confirmed. Everything happens in one
/// transaction, the resignations too: it commits whole, or a failure anywhere changes nothing
/// (no game resigned, the account as it was) and is refused as
/// [`AccountProblem::NotClosed`](domain::AccountProblem::NotClosed).
pub async fn close(services: &Services, confirmed: &Confirmed) -> Result<(), StoreError> {
    // The slow hash was checked before the transaction, which would otherwise hold SQLite's
    // write lock through it; inside, the stored hash must still be the one that matched.
    let user = confirmed.user();
    let resigned = match close_confirmed(services, user, confirmed).await {
        Ok(resigned) => resigned,
        Err(StoreError::Refused(refusal)) => return Err(refusal.into()),
        Err(error) => {
            tracing::error!(%error, user, "closing an account failed; nothing changed");
            return Err(Refusal::Account(AccountProblem::NotClosed).into());
        }
    };
    for (game, action, committed) in resigned {
        games::announce(&services.db, &game, &action, &committed, None, false).await;
    }
    tracing::info!(user, "account closed");
    Ok(())
}

/// A game resigned by the close: its id, the resignation and what it committed.
type Resigned = (String, Action, games::Committed);

/// A game in play with one of the player's seats in it.
#[derive(sqlx::FromRow)]
struct InPlay {
    game_id: String,
    seat: i64,
}

/// The transaction: the account checked, its games in play resigned, everything erased. Returns
/// the resignations, announced once it has committed.
async fn close_confirmed(
    services: &Services,
    user: i64,
    confirmed: &Confirmed,
) -> Result<Vec<Resigned>, StoreError> {
    let db = &services.db;
    let (_writer, mut tx) = db.begin_holding(user).await?;
    let hash: Option<String> =
        sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1 AND closed_at IS NULL")
            .bind(user)
            .fetch_optional(&mut *tx)
            .await?;
    if !hash.is_some_and(|hash| confirmed.is_still(&hash)) {
        return Err(Refusal::Account(AccountProblem::WrongPassword).into());
    }
    let resigned = resign_all(services, &mut tx, user).await?;
    erase(&mut tx, user).await?;
    tx.commit().await?;
    Ok(resigned)
}

/// Resigns the player's games in play, each for the first of their seats in it (a pass-and-play
/// game ends with it too), inside the closing transaction.
async fn resign_all(
    services: &Services,
    conn: &mut AnyConnection,
    user: i64,
) -> Result<Vec<Resigned>, StoreError> {
    let in_play: Vec<InPlay> = sqlx::query_as(
        "SELECT s.game_id, MIN(s.seat) AS seat FROM game_seats s JOIN games g ON g.id = s.game_id
         WHERE s.user_id = $1 AND g.status = 'playing' GROUP BY s.game_id ORDER BY s.game_id",
    )
    .bind(user)
    .fetch_all(&mut *conn)
    .await?;
    let mut resigned = Vec::with_capacity(in_play.len());
    for InPlay { game_id, seat } in in_play {
        let seat = Seat::try_from(seat).unwrap_or(Seat::MAX);
        let row = games::row(&services.db, &game_id).await?;
        let lexicon = services.game_lexicon(&row.config).await?;
        match games::resign_within(&services.db, conn, &game_id, seat, &*lexicon).await {
            Ok(committed) => resigned.push((game_id, Action::Resign { seat }, committed)),
            // Over already (a time-out came first), or not a game one can resign: it stays.
            Err(GameError::Rules(_) | GameError::NotStarted) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(resigned)
}

/// Everything of the account but what the games need, inside the closing transaction: each
/// domain forgets what it keeps of the player, in an order that lets none point at what another
/// forgot (the reports before the chat lines they name; the name and addresses last).
async fn erase(conn: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    seating::forget(conn, user).await?;
    presence::forget(conn, user).await?;
    ranks::forget(conn, user).await?;
    results::forget(conn, user).await?;
    statistics::forget(conn, user).await?;
    daily::forget(conn, user).await?;
    leagues::forget(conn, user).await?;
    tournaments::forget(conn, user).await?;
    friends::forget(conn, user).await?;
    blocks::forget(conn, user).await?;
    moderation::forget(conn, user).await?;
    chat::forget(conn, user).await?;
    library::reports::forget(conn, user).await?;
    mail::forget(conn, user).await?;
    push::forget(conn, user).await?;
    vacations::forget(conn, user).await?;
    accounts::forget(conn, user).await
}
