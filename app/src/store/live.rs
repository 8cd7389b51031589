//! Live events: what changed, for the pages that are open on it. Every instance keeps one
//! in-process broadcast; with SQLite a change goes straight into it, with Postgres it goes out as a
//! `NOTIFY` and every instance's listener (this one included) feeds it into its own broadcast, so
//! two players on two instances see each other's moves. Presence (who has a live page open) is
//! stored, so every instance can tell whether a player is away.

use std::sync::{Arc, Weak};

use serde::{Deserialize, Serialize};
use sqlx::Row;
use tokio::sync::broadcast;

use super::db::{now_ms, Backend, Database};

/// The Postgres channel every instance listens on.
const CHANNEL: &str = "alfakraft_live";

/// A presence row older than this is a connection that died without saying goodbye.
pub const PRESENCE_FRESH_MS: i64 = 30_000;

/// How often an open connection refreshes its presence row.
pub const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(10);

/// Something that changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A game's log, phase, seats or rematch changed; `users` sit in it.
    Game {
        /// The game's id.
        id: String,
        /// Who sits in it.
        users: Vec<i64>,
    },
    /// A user opened or closed a live page: their presence may have changed.
    Presence {
        /// Who.
        user: i64,
    },
    /// A dictionary's active version changed: every instance reloads its catalog.
    Dictionaries,
    /// The lobby's list of open games changed (one was opened, taken or withdrawn).
    Lobby,
    /// Changes may have been missed (the Postgres listener reconnected): every page asks again.
    Resync,
}

/// Who hears of a game's changes: the users seated in it, and the lobby's watchers when it is a
/// lobby game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audience {
    /// The seated users, in any order.
    pub users: Vec<i64>,
    /// Whether it is a lobby game.
    pub lobby: bool,
}

impl Audience {
    /// The change that tells this audience's seated users that game `id` changed.
    pub fn change_of(&self, id: &str) -> Change {
        let mut users = self.users.clone();
        users.sort_unstable();
        users.dedup();
        Change::Game {
            id: id.to_string(),
            users,
        }
    }
}

/// A change as Postgres carries it to every instance: the channel and the payload of
/// `pg_notify`, for a caller that sends it inside its own transaction (delivered on `COMMIT`,
/// never for a transaction rolled back).
pub fn notice(change: &Change) -> (&'static str, String) {
    (CHANNEL, serde_json::to_string(change).unwrap_or_default())
}

/// This instance's broadcast of changes.
#[derive(Debug, Clone)]
pub struct Bus {
    sender: Arc<broadcast::Sender<Change>>,
}

impl Default for Bus {
    fn default() -> Bus {
        // A slow page that falls this far behind gets a resync instead of every change.
        Bus {
            sender: Arc::new(broadcast::channel(1024).0),
        }
    }
}

impl Bus {
    /// Changes from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.sender.subscribe()
    }

    fn send_here(&self, change: Change) {
        // No receiver means no open page: nothing to tell.
        let _ = self.sender.send(change);
    }
}

impl Database {
    /// Tells every instance's open pages about `change`. A failure is logged, not returned: the
    /// change itself is stored, and pages catch up when they reconnect.
    pub async fn publish(&self, change: Change) {
        match self.backend {
            Backend::Sqlite => self.live.send_here(change),
            Backend::Postgres => {
                let (channel, payload) = notice(&change);
                if let Err(error) = sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(channel)
                    .bind(payload)
                    .execute(&self.pool)
                    .await
                {
                    tracing::warn!(%error, "could not publish a live change");
                }
            }
        }
    }

    /// Tells the player in `seat` of game `id` (and no one else) that it changed.
    pub async fn seat_changed(&self, id: &str, seat: rules::Seat) {
        let users = sqlx::query_scalar::<_, i64>(
            "SELECT user_id FROM game_seats WHERE game_id = $1 AND seat = $2 AND user_id IS NOT NULL",
        )
        .bind(id)
        .bind(i64::from(seat))
        .fetch_all(&self.pool)
        .await;
        self.publish_game(id, users).await;
    }

    /// Publishes a change of game `id` for `users`, as read from the seats.
    async fn publish_game(&self, id: &str, users: Result<Vec<i64>, sqlx::Error>) {
        match users {
            Ok(users) => {
                self.publish(Change::Game {
                    id: id.to_string(),
                    users,
                })
                .await
            }
            Err(error) => tracing::warn!(%error, "could not read a game's players"),
        }
    }

    /// Tells `audience` that game `id` changed, when the caller already knows who sits in it.
    pub async fn tell_game(&self, id: &str, audience: Audience) {
        self.publish(audience.change_of(id)).await;
        if audience.lobby {
            self.publish(Change::Lobby).await;
        }
    }

    /// Tells the players of game `id` that it changed, and the lobby's watchers when it is a
    /// lobby game (opened, taken or withdrawn).
    pub async fn game_changed(&self, id: &str) {
        // One read, on every commit: the seats' users and the game's kind.
        let seats = sqlx::query_as::<_, (Option<i64>, String)>(
            "SELECT s.user_id, g.opponent FROM games g JOIN game_seats s ON s.game_id = g.id
             WHERE g.id = $1",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await;
        let lobby = seats
            .as_ref()
            .is_ok_and(|seats| seats.iter().any(|(_, opponent)| opponent == "lobby"));
        let users = seats.map(|seats| {
            let mut users: Vec<i64> = seats.into_iter().filter_map(|(user, _)| user).collect();
            users.sort_unstable();
            users.dedup();
            users
        });
        self.publish_game(id, users).await;
        if lobby {
            self.publish(Change::Lobby).await;
        }
    }

    /// With Postgres: listens for every instance's changes and feeds them into this instance's
    /// broadcast, until the database is dropped. Reconnects after a lost connection and then
    /// tells every page to resync, since changes may have been missed meanwhile.
    pub(super) fn spawn_listener(&self, url: String) {
        let bus = Arc::downgrade(&self.live.sender);
        tokio::spawn(async move {
            while bus.strong_count() > 0 {
                if let Err(error) = listen(&url, &bus).await {
                    tracing::warn!(%error, "live listener lost its connection; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
                if let Some(sender) = bus.upgrade() {
                    let _ = sender.send(Change::Resync);
                }
            }
        });
    }
}

async fn listen(url: &str, bus: &Weak<broadcast::Sender<Change>>) -> Result<(), sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    loop {
        // Wake now and then to notice a dropped database.
        let next =
            tokio::time::timeout(std::time::Duration::from_secs(5), listener.try_recv()).await;
        let Some(sender) = bus.upgrade() else {
            return Ok(());
        };
        match next {
            Err(_elapsed) => {}
            Ok(Ok(Some(notification))) => {
                match serde_json::from_str::<Change>(notification.payload()) {
                    Ok(change) => {
                        let _ = sender.send(change);
                    }
                    Err(error) => tracing::warn!(%error, "a live change did not parse"),
                }
            }
            // The connection dropped; `try_recv` reconnects on the next call.
            Ok(Ok(None)) => {
                let _ = sender.send(Change::Resync);
            }
            Ok(Err(error)) => return Err(error),
        }
    }
}

/// Records open live connection `conn` (from [`new_conn`]) of `user`, for [`refresh`] and [`close`].
pub async fn open(db: &Database, conn: &str, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO presence (conn, user_id, seen_at) VALUES ($1, $2, $3)")
        .bind(conn)
        .bind(user)
        .bind(now_ms())
        .execute(&db.pool)
        .await?;
    db.publish(Change::Presence { user }).await;
    Ok(())
}

/// A new connection's id for [`open`].
pub fn new_conn() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Keeps an open connection's presence fresh.
pub async fn refresh(db: &Database, conn: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE presence SET seen_at = $2 WHERE conn = $1")
        .bind(conn)
        .bind(now_ms())
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Forgets a closed connection.
pub async fn close(db: &Database, conn: &str, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM presence WHERE conn = $1")
        .bind(conn)
        .execute(&db.pool)
        .await?;
    db.publish(Change::Presence { user }).await;
    Ok(())
}

/// Whether `user` has a live page open on any instance.
pub async fn online(db: &Database, user: i64) -> Result<bool, sqlx::Error> {
    Ok(online_among(db, &[user]).await?.contains(&user))
}

/// Which of `users` have a live page open on any instance: one query, however many are asked
/// about (a game's seats, or everyone in a player's game list).
pub async fn online_among(
    db: &Database,
    users: &[i64],
) -> Result<std::collections::HashSet<i64>, sqlx::Error> {
    if users.is_empty() {
        return Ok(Default::default());
    }
    let sql = format!(
        "SELECT DISTINCT user_id FROM presence WHERE seen_at > $1 AND user_id IN ({})",
        super::db::placeholders(2, users.len())
    );
    let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(now_ms() - PRESENCE_FRESH_MS);
    for user in users {
        query = query.bind(*user);
    }
    Ok(query.fetch_all(&db.pool).await?.into_iter().collect())
}

/// Whether two players share a game that is waiting or under way.
pub async fn share_a_game(db: &Database, a: i64, b: i64) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "SELECT COUNT(*) FROM game_seats x JOIN game_seats y ON y.game_id = x.game_id
         JOIN games g ON g.id = x.game_id
         WHERE x.user_id = $1 AND y.user_id = $2 AND g.status IN ('waiting', 'ready', 'playing')",
    )
    .bind(a)
    .bind(b)
    .fetch_one(&db.pool)
    .await?;
    Ok(row.try_get::<i64, _>(0)? > 0)
}

/// Deletes the rows of connections that died without closing (a crashed instance).
pub async fn sweep(db: &Database) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM presence WHERE seen_at <= $1")
        .bind(now_ms() - PRESENCE_FRESH_MS)
        .execute(&db.pool)
        .await?
        .rows_affected())
}
