//! What the server functions stand on, provided once by the server as Leptos context.

use std::sync::Arc;

use dictionaries::FstLexicon;

use crate::{
    db::Database,
    library::{tries::Tries, Library},
    limits::{Limiter, ANALYSES_PER_HOUR, NEW_ACCOUNTS_PER_HOUR},
    StoreError,
};

/// Everything a server function needs.
#[derive(Clone)]
pub struct Services {
    /// The database.
    pub db: Database,
    /// The dictionaries: every version in use, and the active one of each.
    pub library: Arc<Library>,
    /// Woken after every commit so a bot to move answers at once.
    pub bot_wakeup: Arc<tokio::sync::Notify>,
    /// New accounts (sign-ups and guests) per address.
    pub new_accounts: Arc<Limiter>,
    /// The engine's tries, shared by the bots, the Daily Challenge and analysis.
    pub tries: Arc<Tries>,
    /// Analyses run on the server, per user.
    pub analyses: Arc<Limiter>,
}

impl Services {
    /// Services over `db` and `library` with fresh limits and wake-up.
    pub fn new(db: Database, library: Arc<Library>) -> Services {
        Services {
            db,
            library,
            bot_wakeup: Arc::new(tokio::sync::Notify::new()),
            new_accounts: Arc::new(Limiter::new_accounts(NEW_ACCOUNTS_PER_HOUR)),
            tries: Arc::default(),
            analyses: Arc::new(Limiter::new(
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
