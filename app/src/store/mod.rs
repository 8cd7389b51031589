//! What the server functions stand on (server side only): the database, accounts, sessions, the
//! games' action logs, who sits where, and the sign-in rate limit.

pub mod accounts;
pub mod builds;
pub mod clock;
pub mod daily;
pub mod db;
pub mod games;
pub mod languages;
pub mod library;
pub mod limiter;
pub mod live;
pub mod profiles;
pub mod ranks;
pub mod records;
pub mod rematch;
pub mod reports;
pub mod results;
pub mod seating;
pub mod sessions;
pub mod states;
pub mod throttle;
pub mod tries;
pub mod versions;

use std::sync::Arc;

use dictionaries::FstLexicon;

/// New accounts one address may make in an hour, unless the server is told otherwise.
pub const NEW_ACCOUNTS_PER_HOUR: usize = 30;

/// Analyses one player may ask of the server in an hour (the browser's own are not counted).
pub const ANALYSES_PER_HOUR: usize = 10;

/// Everything a server function needs, provided once by the server as Leptos context.
#[derive(Clone)]
pub struct Services {
    /// The database.
    pub db: db::Database,
    /// The dictionaries: every version in use, and the active one of each.
    pub library: Arc<library::Library>,
    /// Woken after every commit so a bot to move answers at once.
    pub bot_wakeup: Arc<tokio::sync::Notify>,
    /// New accounts (sign-ups and guests) per address.
    pub new_accounts: Arc<limiter::Limiter>,
    /// The engine's tries, shared by the bots, the Daily Challenge and analysis.
    pub tries: Arc<tries::Tries>,
    /// Analyses run on the server, per user.
    pub analyses: Arc<limiter::Limiter>,
}

impl Services {
    /// Services over `db` and `library` with a fresh limiter and wake-up.
    pub fn new(db: db::Database, library: Arc<library::Library>) -> Services {
        Services {
            db,
            library,
            bot_wakeup: Arc::new(tokio::sync::Notify::new()),
            new_accounts: Arc::new(limiter::Limiter::new_accounts(NEW_ACCOUNTS_PER_HOUR)),
            tries: Arc::default(),
            analyses: Arc::new(limiter::Limiter::new(
                ANALYSES_PER_HOUR,
                std::time::Duration::from_secs(60 * 60),
            )),
        }
    }

    /// The lexicon of a game: the dictionary version it started with. A config naming no
    /// stored version is a data error.
    pub async fn game_lexicon(
        &self,
        config: &rules::GameConfig,
    ) -> Result<Arc<FstLexicon>, StoreError> {
        self.lexicon(&config.dictionary).await
    }

    /// The lexicon a game's config names (`en@3`, or `en` for version 1).
    pub async fn lexicon(&self, dictionary: &str) -> Result<Arc<FstLexicon>, StoreError> {
        Ok(self.library.named(dictionary).await?.lexicon.clone())
    }
}

/// A store operation that did not happen: refused (the player gets the reason) or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Refused, with a reason for the player.
    #[error(transparent)]
    Refused(#[from] crate::domain::Refusal),
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// Something stored is not as the code expects (a bug or a tampered database).
    #[error("stored data: {0}")]
    Data(String),
}

impl From<games::GameError> for StoreError {
    fn from(error: games::GameError) -> StoreError {
        use crate::domain::Refusal;
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
            A::Refused(problem) => crate::domain::Refusal::Account(problem).into(),
        }
    }
}

/// The client's address, put into each request by the server (from the connection) so the
/// sign-in limit can count per address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub std::net::IpAddr);
