//! The live bus: what changed, for the pages that are open on it. Every instance keeps one
//! in-process broadcast; with SQLite a change goes straight into it, with Postgres it goes out as a
//! `NOTIFY` and every instance's listener (this one included) feeds it into its own broadcast, so
//! two players on two instances see each other's moves ([`crate::db::Database::publish`]).

use std::sync::{Arc, Weak};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

/// The Postgres channel every instance listens on.
const CHANNEL: &str = "alfakraft_live";

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
    /// A message was written in a game's chat; `users` sit in it.
    Chat {
        /// The game's id.
        id: String,
        /// Who sits in it.
        users: Vec<i64>,
    },
    /// A user opened or closed a live page: their presence may have changed.
    Presence { user: i64 },
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

    /// Tells this instance's open pages (with Postgres, the listener does this for every
    /// instance's changes).
    pub fn send_here(&self, change: Change) {
        // No receiver means no open page: nothing to tell.
        let _ = self.sender.send(change);
    }
}

/// With Postgres: listens for every instance's changes and feeds them into `bus`, as long as
/// anyone holds the bus. Reconnects after a lost connection and then tells every page to resync,
/// since changes may have been missed meanwhile.
pub fn spawn_listener(bus: &Bus, url: String) {
    let bus = Arc::downgrade(&bus.sender);
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
