//! Web Push: each device a player turned notifications on for (a subscription: the push
//! service's endpoint and the keys its payloads are encrypted to), the kinds they want and their
//! quiet hours, the server's VAPID key, and the queue the server's push task sends from.
//!
//! A notice is queued per subscription, off the commit's path (the commit's instance spawns it);
//! during the player's quiet hours it waits for their end. The task leases a notice, words it in
//! the player's language, encrypts and sends it; a push service's 404 or 410 says the
//! subscription is gone, and it is removed with whatever waits for it.

use domain::{GameResult, GameSummary, Notice, PushKind, Refusal};
use rules::{game::Status, Seat};

use crate::{
    db::{now_ms, Database},
    deadlines::{self, Channel, TurnEnding},
    moved::Reacting,
    queue::Queue,
    StoreError,
};

/// Tries before a notice is given up.
pub const MAX_ATTEMPTS: i64 = 6;
/// A day, in minutes.
const DAY_MINUTES: i64 = 24 * 60;

/// The push services browsers subscribe with. An endpoint elsewhere is refused: the server must
/// never be made to post to an address a visitor chose.
const PUSH_SERVICES: &[&str] = &[
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "web.push.apple.com",
    "notify.windows.com",
];

/// The server's VAPID private key (base64url, the 32-byte scalar), made by `new_key` the first
/// time and kept in the database, so every instance signs with the same one.
pub async fn vapid_key(
    db: &Database,
    new_key: impl FnOnce() -> String,
) -> Result<String, sqlx::Error> {
    sqlx::query(
        "INSERT INTO app_meta (key, value) VALUES ('vapid_private', $1) ON CONFLICT (key) DO NOTHING",
    )
    .bind(new_key())
    .execute(&db.pool)
    .await?;
    sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'vapid_private'")
        .fetch_one(&db.pool)
        .await
}

/// Whether `endpoint` is a known push service's (https), or under one of `extra` origins (a
/// test's push service on loopback, which the operator names).
pub fn endpoint_allowed(endpoint: &str, extra: &[String]) -> bool {
    if extra
        .iter()
        .any(|origin| endpoint.starts_with(&format!("{origin}/")))
    {
        return true;
    }
    let Some(rest) = endpoint.strip_prefix("https://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !host.contains(['@', ':'])
        && PUSH_SERVICES
            .iter()
            .any(|service| host == *service || host.ends_with(&format!(".{service}")))
}

/// A base64url key of `bytes` bytes, as a browser's subscription gives it.
fn is_key(text: &str, bytes: usize) -> bool {
    text.len() == (bytes * 4).div_ceil(3)
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The most devices one player's notifications go to.
pub const MAX_DEVICES: i64 = 10;

/// Keeps this device's subscription for `user` (a device that subscribed for another account
/// before now notifies this one).
pub async fn subscribe(
    db: &Database,
    user: i64,
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    extra: &[String],
) -> Result<(), StoreError> {
    if endpoint.len() > 1000 || !endpoint_allowed(endpoint, extra) {
        return Err(Refusal::Invalid("that is not a push service's address".into()).into());
    }
    if !is_key(p256dh, 65) || !is_key(auth, 16) {
        return Err(Refusal::Invalid("the subscription's keys are not well formed".into()).into());
    }
    // Counted and written holding the player: subscriptions made at once never pass the cap.
    let (_writer, mut tx) = db.begin_holding(user).await?;
    let others: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1 AND endpoint <> $2",
    )
    .bind(user)
    .bind(endpoint)
    .fetch_one(&mut *tx)
    .await?;
    if others >= MAX_DEVICES {
        return Err(Refusal::Invalid(format!(
            "notifications go to {MAX_DEVICES} devices at most: turn them off on one first"
        ))
        .into());
    }
    sqlx::query(
        "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = $1, p256dh = $3, auth = $4",
    )
    .bind(user)
    .bind(endpoint)
    .bind(p256dh)
    .bind(auth)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Forgets a subscription (this device turned notifications off), with what waits for it.
pub async fn unsubscribe(db: &Database, user: i64, endpoint: &str) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query(
        "DELETE FROM push_outbox WHERE subscription_id IN
             (SELECT id FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2)",
    )
    .bind(user)
    .bind(endpoint)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2")
        .bind(user)
        .bind(endpoint)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Quiet hours: no notification from `start` to `end`, minutes of the UTC day (the end may be
/// past midnight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quiet {
    /// Minute of the UTC day they start.
    pub start: i64,
    /// Minute of the UTC day they end.
    pub end: i64,
}

impl Quiet {
    /// When a notice made at `now` (unix ms) may go out: now, or the quiet hours' end.
    pub fn release(&self, now: i64) -> i64 {
        let minute = now.div_euclid(60_000);
        let length = (self.end - self.start).rem_euclid(DAY_MINUTES);
        let into = (minute - self.start).rem_euclid(DAY_MINUTES);
        match into < length {
            true => (minute + length - into) * 60_000,
            false => now,
        }
    }
}

/// What a player chose for their notifications.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSettings {
    /// Devices subscribed.
    pub devices: i64,
    /// The kinds they want.
    pub kinds: Vec<PushKind>,
    /// Their quiet hours, if any.
    pub quiet: Option<Quiet>,
}

#[derive(sqlx::FromRow)]
struct Choices {
    push_kinds: i64,
    quiet_start: Option<i64>,
    quiet_end: Option<i64>,
}

impl Choices {
    fn quiet(&self) -> Option<Quiet> {
        Some(Quiet {
            start: self.quiet_start?,
            end: self.quiet_end?,
        })
    }
}

async fn choices(db: &Database, user: i64) -> Result<Option<Choices>, sqlx::Error> {
    sqlx::query_as("SELECT push_kinds, quiet_start, quiet_end FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&db.pool)
        .await
}

/// A player's notification settings.
pub async fn settings(db: &Database, user: i64) -> Result<PushSettings, StoreError> {
    let devices: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1")
            .bind(user)
            .fetch_one(&db.pool)
            .await?;
    let choices = choices(db, user).await?;
    Ok(PushSettings {
        devices,
        kinds: choices
            .as_ref()
            .map_or_else(Vec::new, |c| PushKind::from_bits(c.push_kinds)),
        quiet: choices.as_ref().and_then(Choices::quiet),
    })
}

/// Chooses the kinds of notification and the quiet hours.
pub async fn choose(
    db: &Database,
    user: i64,
    kinds: &[PushKind],
    quiet: Option<Quiet>,
) -> Result<(), StoreError> {
    let in_day = |m: i64| (0..DAY_MINUTES).contains(&m);
    if quiet.is_some_and(|q| !in_day(q.start) || !in_day(q.end)) {
        return Err(Refusal::Invalid("quiet hours are minutes of the day".into()).into());
    }
    sqlx::query("UPDATE users SET push_kinds = $2, quiet_start = $3, quiet_end = $4 WHERE id = $1")
        .bind(user)
        .bind(PushKind::bits(kinds))
        .bind(quiet.map(|q| q.start))
        .bind(quiet.map(|q| q.end))
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Woken when this instance queues a notice, so its push task sends it at once rather than at
/// its next look.
pub static QUEUED: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Queues `notice` for each of `user`'s devices, if they want its kind; held until their quiet
/// hours end.
pub async fn notify(db: &Database, user: i64, notice: &Notice) -> Result<(), sqlx::Error> {
    let Some(choices) = choices(db, user).await? else {
        return Ok(());
    };
    if choices.push_kinds & PushKind::bits(&[notice.kind()]) == 0 {
        return Ok(());
    }
    let now = now_ms();
    let at = choices.quiet().map_or(now, |quiet| quiet.release(now));
    let event = serde_json::to_string(notice).unwrap_or_default();
    sqlx::query(
        "INSERT INTO push_outbox (subscription_id, notice, attempts, next_at, created_at)
         SELECT id, $2, 0, $3, $4 FROM push_subscriptions WHERE user_id = $1",
    )
    .bind(user)
    .bind(event)
    .bind(at)
    .bind(now)
    .execute(&db.pool)
    .await?;
    QUEUED.notify_one();
    Ok(())
}

/// [`notify`] on its own task: the caller (a commit) does not wait for it, and a failure is
/// logged, never the caller's.
pub fn notify_later(db: &Database, user: i64, notice: Notice) {
    let db = db.clone();
    tokio::spawn(async move {
        if let Err(error) = notify(&db, user, &notice).await {
            tracing::warn!(%error, user, "queueing a notification failed");
        }
    });
}

/// A person's seat as the notices after a move need it.
#[derive(sqlx::FromRow)]
struct Sitter {
    seat: i64,
    user_id: i64,
    name: String,
    /// Devices of theirs subscribed (none: nothing to queue).
    devices: i64,
}

/// What a move left, for its notices.
struct Moved {
    /// Whether it ended the game.
    over: bool,
    /// Scores (the final ones at the end), winners, whose turn, and what the mover did.
    summary: GameSummary,
}

impl Moved {
    /// Who hears what: the player now to move (not the mover); at the end every person but
    /// the one who ended it.
    fn notices(&self, game: &str, actor: Seat, sitters: &[Sitter]) -> Vec<(i64, Notice)> {
        let person = |seat: Seat| sitters.iter().find(|s| s.seat == i64::from(seat));
        let actor_user = person(actor).map(|s| s.user_id);
        // Pass-and-play: every seat is the mover's.
        if sitters.iter().all(|s| Some(s.user_id) == actor_user) {
            return Vec::new();
        }
        if self.over {
            let (scores, winners) = (&self.summary.scores, &self.summary.winners);
            return sitters
                .iter()
                .filter(|s| Some(s.user_id) != actor_user)
                .map(|s| {
                    let seat = Seat::try_from(s.seat).unwrap_or(Seat::MAX);
                    let score = |i: usize| scores.get(i).copied().unwrap_or(0);
                    let other = (0..scores.len())
                        .filter(|i| *i != usize::from(seat))
                        .map(score)
                        .max()
                        .unwrap_or(0);
                    let result = GameResult::of(winners, seat);
                    let notice = Notice::GameOver {
                        game: game.to_string(),
                        result,
                        score: score(usize::from(seat)),
                        other,
                    };
                    (s.user_id, notice)
                })
                .collect();
        }
        match (
            person(self.summary.to_move),
            &self.summary.last,
            person(actor),
        ) {
            (Some(next), Some(last), Some(mover)) if Some(next.user_id) != actor_user => {
                let notice = Notice::YourTurn {
                    game: game.to_string(),
                    opponent: mover.name.clone(),
                    last: last.turn.clone(),
                };
                vec![(next.user_id, notice)]
            }
            _ => Vec::new(),
        }
    }
}

/// The move's reaction ([`crate::moved`]): the players' devices hear of a move, unless the game
/// has one person in it or the move is a purchase or a sale (the trader's business alone). The
/// notices are queued on a task of their own.
pub fn on_move<'a>(db: &'a Database, made: &'a crate::moved::MoveMade<'a>) -> Reacting<'a> {
    if !made.alone() && !made.is_trade() {
        let moved = Moved {
            over: matches!(made.state.status(), Status::Over(_)),
            summary: made.summary.clone(),
        };
        after_move(db, made.game_id, made.action.seat(), moved);
    }
    Box::pin(std::future::ready(()))
}

/// After a move in game `id` by `actor` (`state` as it now stands), on a task of its own: the
/// player now to move hears it is their turn, with what the mover did; at the end every person
/// but the one who ended it hears the game is over.
fn after_move(db: &Database, id: &str, actor: Seat, moved: Moved) {
    let (db, id) = (db.clone(), id.to_string());
    tokio::spawn(async move {
        let sitters: Vec<Sitter> = match sqlx::query_as(
            "SELECT s.seat, s.user_id, u.name,
                    (SELECT COUNT(*) FROM push_subscriptions p WHERE p.user_id = s.user_id)
                        AS devices
             FROM game_seats s JOIN users u ON u.id = s.user_id
             WHERE s.game_id = $1 ORDER BY s.seat",
        )
        .bind(&id)
        .fetch_all(&db.pool)
        .await
        {
            Ok(sitters) => sitters,
            Err(error) => return tracing::warn!(%error, "reading seats to notify failed"),
        };
        let subscribed = |user: i64| sitters.iter().any(|s| s.user_id == user && s.devices > 0);
        for (user, notice) in moved.notices(&id, actor, &sitters) {
            if !subscribed(user) {
                continue;
            }
            if let Err(error) = notify(&db, user, &notice).await {
                tracing::warn!(%error, user, "queueing a notification failed");
            }
        }
    });
}

/// Tells the player of `due` their time is running out, unless another instance did.
pub async fn warn_deadline(db: &Database, due: &TurnEnding) -> Result<(), sqlx::Error> {
    let claimed = {
        let mut conn = db.pool.acquire().await?;
        deadlines::claim(&mut conn, due, Channel::Push).await?
    };
    if claimed {
        let (game, hours) = (due.game_id.clone(), due.hours_left());
        notify(db, due.user_id, &Notice::Deadline { game, hours }).await?;
    }
    Ok(())
}

/// A notice waiting to go out, with where to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Job {
    /// Its row.
    pub id: i64,
    /// The subscription.
    pub subscription_id: i64,
    /// The push service's endpoint.
    pub endpoint: String,
    /// The device's public key (base64url).
    pub p256dh: String,
    /// The device's auth secret (base64url).
    pub auth: String,
    /// The notice, as JSON ([`Notice`]).
    pub notice: String,
    /// The player's language, if they chose one.
    pub language: Option<String>,
    /// Tries so far.
    pub attempts: i64,
}

const QUEUE: Queue = Queue {
    table: "push_outbox",
    first_wait_ms: 10_000,
    max_attempts: MAX_ATTEMPTS,
};

/// Leases the next notice due, if any: no other sender takes it for a minute.
pub async fn next_due(db: &Database) -> Result<Option<Job>, sqlx::Error> {
    let select = "SELECT o.id, o.subscription_id, s.endpoint, s.p256dh, s.auth, o.notice,
                u.language, o.attempts
         FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
         JOIN users u ON u.id = s.user_id
         WHERE o.next_at <= $1 ORDER BY o.next_at LIMIT 1";
    QUEUE.next_due(db, select, |job: &Job| job.id).await
}

/// A notice went out (or can never go): it leaves the queue.
pub async fn done(db: &Database, id: i64) -> Result<(), sqlx::Error> {
    QUEUE.done(db, id).await
}

/// A notice could not go out: tried again after a doubling wait (10 s, 20 s, 40 s, …), or given
/// up after [`MAX_ATTEMPTS`] tries. Whether it will be tried again.
pub async fn failed(db: &Database, job: &Job) -> Result<bool, sqlx::Error> {
    QUEUE.failed(db, job.id, job.attempts).await
}

/// The push service says the subscription is gone (404 or 410): it is removed, with what waits
/// for it.
pub async fn gone(db: &Database, subscription: i64) -> Result<(), sqlx::Error> {
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query("DELETE FROM push_outbox WHERE subscription_id = $1")
        .bind(subscription)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM push_subscriptions WHERE id = $1")
        .bind(subscription)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Forgets `user`'s devices with what waits for them, and the notices waiting for other players'
/// devices that name them ("ann played …"), before the account forgets the name (see
/// [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    let name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query("DELETE FROM push_outbox WHERE notice LIKE $1 ESCAPE '\\'")
        .bind(format!("%\"{}\"%", name.replace('_', "\\_")))
        .execute(&mut *conn)
        .await?;
    crate::db::forget_user(
        conn,
        user,
        &[
            "DELETE FROM push_outbox WHERE subscription_id IN
                 (SELECT id FROM push_subscriptions WHERE user_id = $1)",
            "DELETE FROM push_subscriptions WHERE user_id = $1",
        ],
    )
    .await
}

/// `user`'s devices and notice settings, as they export them (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, StoreError> {
    let push = settings(db, user).await?;
    Ok(serde_json::json!({
        "devices": push.devices,
        "kinds": push.kinds.iter().map(|k| k.word()).collect::<Vec<_>>(),
        "quiet_utc_minutes": push.quiet.map(|q| [q.start, q.end]),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_push_services_endpoints_are_allowed() {
        let none: &[String] = &[];
        assert!(endpoint_allowed(
            "https://fcm.googleapis.com/fcm/send/abc",
            none
        ));
        assert!(endpoint_allowed(
            "https://wns2-by3p.notify.windows.com/w/?token=x",
            none
        ));
        assert!(!endpoint_allowed(
            "http://fcm.googleapis.com/fcm/send/abc",
            none
        ));
        assert!(!endpoint_allowed(
            "https://fcm.googleapis.com.evil.org/x",
            none
        ));
        assert!(!endpoint_allowed("https://user@fcm.googleapis.com/x", none));
        assert!(!endpoint_allowed("https://127.0.0.1/x", none));
        let test = ["http://127.0.0.1:4000".to_string()];
        assert!(endpoint_allowed("http://127.0.0.1:4000/push/1", &test));
        assert!(!endpoint_allowed("http://127.0.0.1:40001/push/1", &test));
    }

    #[test]
    fn quiet_hours_hold_a_notice_until_they_end() {
        let at = |h: i64, m: i64| (19_000 * 1440 + h * 60 + m) * 60_000;
        let night = Quiet {
            start: 22 * 60,
            end: 7 * 60,
        };
        assert_eq!(night.release(at(23, 30)), at(31, 0));
        assert_eq!(night.release(at(3, 0)), at(7, 0));
        assert_eq!(night.release(at(12, 0)), at(12, 0));
        let noon = Quiet {
            start: 12 * 60,
            end: 13 * 60,
        };
        assert_eq!(noon.release(at(12, 30)), at(13, 0));
        assert_eq!(noon.release(at(13, 0)), at(13, 0));
    }
}
