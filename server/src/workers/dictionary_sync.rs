//! Keeps this instance's dictionaries in step with the database: a publish or rollback on any
//! instance arrives as a live change and the library reloads the active versions at once; every
//! minute it also looks again (a missed change costs at most that) and lets go of the versions no
//! game has used for ten minutes.

use std::time::Duration;

use store::{bus::Change, Services};
use tokio::sync::broadcast::error::RecvError;

/// How long an inactive version stays loaded after a game last asked for it.
const IDLE: Duration = Duration::from_secs(600);

/// Runs forever.
pub async fn run(services: Services) {
    let mut changes = services.db.live.subscribe();
    let mut every_minute = tokio::time::interval(Duration::from_secs(60));
    loop {
        let refresh = tokio::select! {
            change = changes.recv() => match change {
                Ok(Change::Dictionaries | Change::Resync) | Err(RecvError::Lagged(_)) => true,
                Ok(_) => false,
                Err(RecvError::Closed) => return,
            },
            _ = every_minute.tick() => {
                let dropped = services.library.sweep(IDLE);
                if dropped > 0 {
                    tracing::info!(dropped, "idle dictionary versions let go");
                }
                true
            }
        };
        if refresh {
            if let Err(error) = services.library.refresh().await {
                tracing::warn!(%error, "reloading the active dictionaries failed");
            }
        }
    }
}
