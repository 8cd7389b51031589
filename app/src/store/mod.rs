//! What the server functions stand on (server side only): the database, accounts, sessions, the
//! games' action logs, who sits where, and the sign-in rate limit.

pub mod accounts;
pub mod clock;
pub mod db;
pub mod games;
pub mod limiter;
pub mod live;
pub mod rematch;
pub mod seating;
pub mod sessions;

use std::sync::Arc;

use dictionaries::{catalog::Catalog, DictionaryId, FstLexicon};

/// Everything a server function needs, provided once by the server as Leptos context.
#[derive(Clone)]
pub struct Services {
    /// The database.
    pub db: db::Database,
    /// The dictionaries.
    pub catalog: Arc<Catalog>,
    /// Woken after every commit so a bot to move answers at once.
    pub bot_wakeup: Arc<tokio::sync::Notify>,
    /// Failed sign-ins per name and per address.
    pub sign_in_limiter: Arc<limiter::Limiter>,
}

impl Services {
    /// Services over `db` and `catalog` with a fresh limiter and wake-up.
    pub fn new(db: db::Database, catalog: Arc<Catalog>) -> Services {
        Services {
            db,
            catalog,
            bot_wakeup: Arc::new(tokio::sync::Notify::new()),
            sign_in_limiter: Arc::new(limiter::Limiter::sign_in()),
        }
    }

    /// The lexicon of a game; a config naming no loaded dictionary is a data error.
    pub fn game_lexicon(&self, config: &rules::GameConfig) -> Result<Arc<FstLexicon>, StoreError> {
        self.lexicon(&config.dictionary)
            .ok_or_else(|| StoreError::Data(format!("no dictionary {}", config.dictionary)))
    }

    /// The lexicon a game's config names (`en`, `sv`, …).
    pub fn lexicon(&self, dictionary: &str) -> Option<Arc<FstLexicon>> {
        let id = DictionaryId::parse(dictionary)?;
        self.catalog.get(id).map(|d| d.lexicon.clone())
    }
}

/// A store operation that did not happen: refused (the player gets the reason) or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Refused, with a reason for the player.
    #[error(transparent)]
    Refused(#[from] crate::api::Refusal),
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// Something stored is not as the code expects (a bug or a tampered database).
    #[error("stored data: {0}")]
    Data(String),
}

impl From<games::GameError> for StoreError {
    fn from(error: games::GameError) -> StoreError {
        use crate::api::Refusal;
        use games::GameError as G;
        match error {
            G::NotFound => Refusal::NoSuchGame.into(),
            G::MovedOn { current } => Refusal::MovedOn { current }.into(),
            G::NotStarted => Refusal::NotStarted.into(),
            G::TimeUp => Refusal::TimeUp.into(),
            G::Rules(rule) => Refusal::Rules(rule).into(),
            G::Database(e) => StoreError::Database(e),
            e @ (G::Corrupt { .. } | G::Data(_)) => StoreError::Data(e.to_string()),
        }
    }
}

impl From<accounts::AccountError> for StoreError {
    fn from(error: accounts::AccountError) -> StoreError {
        use accounts::AccountError as A;
        match error {
            A::Database(e) => StoreError::Database(e),
            A::Hash(e) => StoreError::Data(e),
            refused => crate::api::Refusal::Account(refused.to_string()).into(),
        }
    }
}

/// The client's address, put into each request by the server (from the connection) so the
/// sign-in limit can count per address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub std::net::IpAddr);
