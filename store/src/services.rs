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
    /// New accounts (sign-ups and guests) per address.
    pub new_accounts: Arc<Limiter>,
    /// The engine's tries, shared by the bots, the Daily Challenge and analysis.
    pub tries: Arc<Tries>,
    /// Analyses run on the server, per user.
    pub analyses: Arc<Limiter>,
    /// The operator requires admins to sign in with a second factor: admin pages and requests
    /// send an admin without one to set it up.
    pub admins_need_two_factor: bool,
    /// The site's address for links in mail, when the operator configured a mail server;
    /// `None` hides every e-mail feature.
    pub mail_base: Option<String>,
    /// The server's VAPID public key (base64url), once the push task runs.
    pub push_key: Option<String>,
    /// **Tests only**: origins besides the push services' that subscriptions may name (a push
    /// service on loopback).
    pub push_test_origins: Vec<String>,
    /// Rated games that put a player on the leaderboard: [`domain::PROVISIONAL_GAMES`],
    /// unless a test lowers it.
    pub leaderboard_games: u32,
}

impl Services {
    /// Services over `db` and `library` with fresh limits and wake-up.
    pub fn new(db: Database, library: Arc<Library>) -> Services {
        Services {
            db,
            library,
            new_accounts: Arc::new(Limiter::new_accounts(NEW_ACCOUNTS_PER_HOUR)),
            tries: Arc::default(),
            analyses: Arc::new(Limiter::new(
                ANALYSES_PER_HOUR,
                std::time::Duration::from_secs(60 * 60),
            )),
            leaderboard_games: domain::PROVISIONAL_GAMES,
            admins_need_two_factor: false,
            mail_base: None,
            push_key: None,
            push_test_origins: Vec::new(),
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
