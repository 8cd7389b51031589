//! Closing an account. The player's games stay for the people they played, who see "deleted
//! player" in their seat; everything else of the account goes: its name, password, sessions,
//! ranks and rank history, results, Daily Challenge attempts, follows, blocks, chat messages,
//! reports, sanctions, its e-mail address and its devices' push subscriptions. Games in play are resigned (the opponents win them) and games waiting
//! for a second player are called off first.
//!
//! What stays is the `users` row's id with a placeholder name no one can type (`deleted-<id>`)
//! and `closed_at`: the seats, the other players' results and rank histories point at it.

use domain::{AccountProblem, Refusal};
use rules::{Action, Seat};
use sqlx::AnyConnection;

use crate::{
    accounts::security::Confirmed,
    db::now_ms,
    games::{self, GameError},
    limits, Services, StoreError,
};

/// The placeholder name of a closed account.
fn placeholder(user: i64) -> String {
    format!("deleted-{user}")
}

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

/// Everything of the account but what the games need, inside the closing transaction.
async fn erase(tx: &mut AnyConnection, user: i64) -> Result<(), StoreError> {
    let now = now_ms();
    let name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(&mut *tx)
        .await?;
    // Games still waiting for a second player (lobby, invite, challenge, Ready lobby), theirs
    // or addressed to them, are called off.
    sqlx::query(
        "UPDATE games SET status = 'cancelled', updated_at = $2
         WHERE status IN ('waiting', 'ready') AND (
             id IN (SELECT game_id FROM game_seats WHERE user_id = $1)
             OR id IN (SELECT game_id FROM invites WHERE invitee = $1 AND state = 'open'))",
    )
    .bind(user)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    for sql in [
        "UPDATE invites SET invitee = NULL WHERE invitee = $1",
        "UPDATE rematches SET state = 'cancelled' WHERE offered_by = $1 AND state = 'open'",
        "DELETE FROM sessions WHERE user_id = $1",
        "DELETE FROM recovery_codes WHERE user_id = $1",
        "DELETE FROM presence WHERE user_id = $1",
        "DELETE FROM ranks WHERE user_id = $1",
        "DELETE FROM rank_history WHERE user_id = $1",
        "DELETE FROM game_results WHERE user_id = $1",
        "DELETE FROM daily_attempts WHERE user_id = $1",
        "DELETE FROM follows WHERE follower = $1 OR followed = $1",
        "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
        // An admin's decision on a report of theirs (or of them) stays in the log, without
        // the report it points at.
        "UPDATE moderation_log SET report_id = NULL WHERE report_id IN
             (SELECT id FROM player_reports WHERE reporter = $1 OR reported = $1
                 OR message_id IN (SELECT id FROM chat_messages WHERE author = $1))",
        "DELETE FROM player_reports WHERE reporter = $1 OR reported = $1
             OR message_id IN (SELECT id FROM chat_messages WHERE author = $1)",
        "DELETE FROM chat_messages WHERE author = $1",
        "UPDATE chat_messages SET hidden_from = NULL WHERE hidden_from = $1",
        "DELETE FROM sanctions WHERE user_id = $1",
        "DELETE FROM moderation_log WHERE user_id = $1",
        "DELETE FROM word_reports WHERE user_id = $1",
        "DELETE FROM mail_tokens WHERE user_id = $1",
        "DELETE FROM push_outbox WHERE subscription_id IN
             (SELECT id FROM push_subscriptions WHERE user_id = $1)",
        "DELETE FROM push_subscriptions WHERE user_id = $1",
        "DELETE FROM outbox WHERE recipient IN (SELECT email FROM users WHERE id = $1)
             OR recipient IN (SELECT email_pending FROM users WHERE id = $1)",
    ] {
        sqlx::query(sql).bind(user).execute(&mut *tx).await?;
    }
    sqlx::query(
        "UPDATE users SET name = $2, password_hash = '', language = NULL, chat_off = 0,
             totp_secret = NULL, totp_pending = NULL, email = NULL, email_pending = NULL,
             mail_digest = 0, mail_deadlines = 0, closed_at = $3 WHERE id = $1",
    )
    .bind(user)
    .bind(placeholder(user))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    // Notices waiting for other players' devices that name them ("ann played …") go too.
    sqlx::query("DELETE FROM push_outbox WHERE notice LIKE $1 ESCAPE '\\'")
        .bind(format!("%\"{}\"%", name.replace('_', "\\_")))
        .execute(&mut *tx)
        .await?;
    limits::sign_ins::forget_name(tx, &name).await?;
    Ok(())
}
