//! The live bus: what changed, for the pages that are open on it. Every instance routes each
//! change to the pages it concerns ([`Bus::follow`]: a game's to its players' pages, a presence
//! to the pages that show it), so a change costs its own pages, not every page open; with SQLite
//! a change goes straight in, with Postgres it goes out as a `NOTIFY` and every instance's
//! listener (this one included) routes it the same way, so two players on two instances see each
//! other's moves ([`crate::db::Database::publish`]).

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc, Mutex, Weak,
    },
};

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

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
    /// A league season's or a tournament's standings or pairings changed: its pages ask again.
    Standings {
        /// The season's or tournament's id.
        id: String,
    },
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

/// What one open live page follows: its user's games and their chats, the presence of some
/// users (its game's other players, or everyone it shares a game with), and perhaps the lobby.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interest {
    /// The page's user: changes to games they sit in reach it.
    pub user: i64,
    /// The users whose presence it shows.
    pub presence_of: Vec<i64>,
    /// The lobby's list of open games.
    pub lobby: bool,
    /// A league season's or tournament's standings.
    pub standings: Option<String>,
}

/// How many changes a page may have waiting before it is told to ask again instead.
const PAGE_BACKLOG: usize = 64;

/// One registered page: where its changes go, whether some were dropped, how often it woke.
#[derive(Debug)]
struct Page {
    sender: mpsc::Sender<Change>,
    lagged: Arc<AtomicBool>,
    woken: Arc<AtomicU64>,
}

impl Page {
    fn deliver(&self, change: &Change) {
        self.woken.fetch_add(1, Ordering::Relaxed);
        if self.sender.try_send(change.clone()).is_err() {
            // Full (the page is behind): it will ask for everything again.
            self.lagged.store(true, Ordering::Relaxed);
        }
    }
}

/// The open pages of this instance by what they follow, so a change reaches only its own.
#[derive(Debug, Default)]
struct Pages {
    next: u64,
    pages: HashMap<u64, Page>,
    by_user: HashMap<i64, Vec<u64>>,
    by_presence: HashMap<i64, Vec<u64>>,
    lobby: Vec<u64>,
    by_standings: HashMap<String, Vec<u64>>,
}

impl Pages {
    fn add(&mut self, id: u64, interest: &Interest) {
        self.by_user.entry(interest.user).or_default().push(id);
        for user in &interest.presence_of {
            self.by_presence.entry(*user).or_default().push(id);
        }
        if interest.lobby {
            self.lobby.push(id);
        }
        if let Some(standings) = &interest.standings {
            self.by_standings
                .entry(standings.clone())
                .or_default()
                .push(id);
        }
    }

    fn remove(&mut self, id: u64, interest: &Interest) {
        let drop_from = |map: &mut HashMap<i64, Vec<u64>>, key: i64| {
            if let Some(ids) = map.get_mut(&key) {
                ids.retain(|i| *i != id);
                if ids.is_empty() {
                    map.remove(&key);
                }
            }
        };
        drop_from(&mut self.by_user, interest.user);
        for user in &interest.presence_of {
            drop_from(&mut self.by_presence, *user);
        }
        self.lobby.retain(|i| *i != id);
        if let Some(standings) = &interest.standings {
            if let Some(ids) = self.by_standings.get_mut(standings) {
                ids.retain(|i| *i != id);
                if ids.is_empty() {
                    self.by_standings.remove(standings);
                }
            }
        }
        self.pages.remove(&id);
    }

    /// The pages `change` concerns: a game's or chat's seated users, a user's presence, the
    /// lobby, or every page for a resync.
    fn deliver(&self, change: &Change) {
        let tell = |ids: Option<&Vec<u64>>| {
            for id in ids.into_iter().flatten() {
                if let Some(page) = self.pages.get(id) {
                    page.deliver(change);
                }
            }
        };
        match change {
            Change::Game { users, .. } | Change::Chat { users, .. } => {
                for user in users {
                    tell(self.by_user.get(user));
                }
            }
            Change::Presence { user } => tell(self.by_presence.get(user)),
            Change::Lobby => tell(Some(&self.lobby)),
            Change::Standings { id } => tell(self.by_standings.get(id)),
            Change::Resync => self.pages.values().for_each(|page| page.deliver(change)),
            Change::Dictionaries => {}
        }
    }
}

/// A page's place on the bus: its changes, until it is dropped.
#[derive(Debug)]
pub struct Follower {
    id: u64,
    interest: Interest,
    pages: Weak<Mutex<Pages>>,
    receiver: mpsc::Receiver<Change>,
    lagged: Arc<AtomicBool>,
    woken: Arc<AtomicU64>,
}

impl Follower {
    /// The next change for this page: [`Change::Resync`] when some were dropped because it fell
    /// behind; `None` once the bus is gone (the instance is stopping).
    pub async fn recv(&mut self) -> Option<Change> {
        let change = self.receiver.recv().await;
        match self.lagged.swap(false, Ordering::Relaxed) {
            true => Some(Change::Resync),
            false => change,
        }
    }

    /// Follows `user`'s presence too (a seat was taken).
    pub fn follow_presence(&mut self, user: i64) {
        if self.interest.presence_of.contains(&user) {
            return;
        }
        if let Some(pages) = self.pages.upgrade() {
            let mut pages = pages.lock().unwrap_or_else(|e| e.into_inner());
            pages.by_presence.entry(user).or_default().push(self.id);
        }
        self.interest.presence_of.push(user);
    }

    /// How many changes reached this page: what a commit costs the open pages is measured by it.
    pub fn woken(&self) -> u64 {
        self.woken.load(Ordering::Relaxed)
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        if let Some(pages) = self.pages.upgrade() {
            let mut pages = pages.lock().unwrap_or_else(|e| e.into_inner());
            pages.remove(self.id, &self.interest);
        }
    }
}

/// This instance's changes: to the open pages they concern ([`Bus::follow`]), and to every task
/// that subscribed to all of them ([`Bus::subscribe`]).
#[derive(Debug, Clone)]
pub struct Bus {
    sender: Arc<broadcast::Sender<Change>>,
    pages: Arc<Mutex<Pages>>,
}

impl Default for Bus {
    fn default() -> Bus {
        // A task that falls this far behind gets a resync instead of every change.
        Bus {
            sender: Arc::new(broadcast::channel(1024).0),
            pages: Arc::default(),
        }
    }
}

impl Bus {
    /// Every change from now on (the instance's own tasks: the dictionaries' sync).
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.sender.subscribe()
    }

    /// A page's changes from now on: those `interest` covers.
    pub fn follow(&self, interest: Interest) -> Follower {
        let (sender, receiver) = mpsc::channel(PAGE_BACKLOG);
        let (lagged, woken) = (Arc::<AtomicBool>::default(), Arc::<AtomicU64>::default());
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        let id = pages.next;
        pages.next += 1;
        pages.add(id, &interest);
        let page = Page {
            sender,
            lagged: lagged.clone(),
            woken: woken.clone(),
        };
        pages.pages.insert(id, page);
        Follower {
            id,
            interest,
            pages: Arc::downgrade(&self.pages),
            receiver,
            lagged,
            woken,
        }
    }

    /// Tells this instance's pages and tasks (with Postgres, the listener does this for every
    /// instance's changes). A change costs the pages it concerns, not every open page.
    pub fn send_here(&self, change: Change) {
        self.pages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .deliver(&change);
        // No receiver means no task listening: nothing to tell.
        let _ = self.sender.send(change);
    }
}

/// With Postgres: listens for every instance's changes and feeds them into `bus`, as long as
/// anyone holds the bus. Reconnects after a lost connection and then tells every page to resync,
/// since changes may have been missed meanwhile.
pub fn spawn_listener(bus: &Bus, url: String) {
    let bus = bus.downgrade();
    tokio::spawn(async move {
        while bus.sender.strong_count() > 0 {
            if let Err(error) = listen(&url, &bus).await {
                tracing::warn!(%error, "live listener lost its connection; retrying");
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
            if let Some(bus) = bus.upgrade() {
                bus.send_here(Change::Resync);
            }
        }
    });
}

/// The bus, not kept alive by the listener.
struct WeakBus {
    sender: Weak<broadcast::Sender<Change>>,
    pages: Weak<Mutex<Pages>>,
}

impl WeakBus {
    fn upgrade(&self) -> Option<Bus> {
        Some(Bus {
            sender: self.sender.upgrade()?,
            pages: self.pages.upgrade()?,
        })
    }
}

impl Bus {
    fn downgrade(&self) -> WeakBus {
        WeakBus {
            sender: Arc::downgrade(&self.sender),
            pages: Arc::downgrade(&self.pages),
        }
    }
}

async fn listen(url: &str, bus: &WeakBus) -> Result<(), sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    loop {
        // Wake now and then to notice a dropped database.
        let next =
            tokio::time::timeout(std::time::Duration::from_secs(5), listener.try_recv()).await;
        let Some(bus) = bus.upgrade() else {
            return Ok(());
        };
        match next {
            Err(_elapsed) => {}
            Ok(Ok(Some(notification))) => {
                match serde_json::from_str::<Change>(notification.payload()) {
                    Ok(change) => bus.send_here(change),
                    Err(error) => tracing::warn!(%error, "a live change did not parse"),
                }
            }
            // The connection dropped; `try_recv` reconnects on the next call.
            Ok(Ok(None)) => bus.send_here(Change::Resync),
            Ok(Err(error)) => return Err(error),
        }
    }
}
