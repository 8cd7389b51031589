//! The store's one error: an operation refused (with a reason for the player) or failed.

use domain::Refusal;

use crate::{accounts::AccountError, games::GameError};

/// A store operation that did not happen: refused (the player gets the reason) or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Refused, with a reason for the player.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// Something stored is not as the code expects (a bug or a tampered database).
    #[error("stored data: {0}")]
    Data(String),
}

impl From<GameError> for StoreError {
    fn from(error: GameError) -> StoreError {
        use GameError as G;
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

impl From<AccountError> for StoreError {
    fn from(error: AccountError) -> StoreError {
        match error {
            AccountError::Database(e) => StoreError::Database(e),
            AccountError::Hash(e) => StoreError::Data(e),
            AccountError::Refused(problem) => Refusal::Account(problem).into(),
            AccountError::SlowDown(wait) => Refusal::SlowDown {
                minutes: wait.as_secs().div_ceil(60).max(1),
            }
            .into(),
        }
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(error: serde_json::Error) -> StoreError {
        StoreError::Data(error.to_string())
    }
}
