//! The leagues' background task: every few seconds, starts the seasons whose registration closed
//! and finishes those whose last game is over (see `store::leagues`). Every instance runs one;
//! each step checks the season's status in its own transaction, so one instance takes it.

use std::time::Duration;

use store::{leagues, Services};

/// How often seasons are looked at: a season starts within seconds of its registration closing.
const EVERY: Duration = Duration::from_secs(5);

/// Runs forever.
pub async fn run(services: Services) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        match leagues::advance(&services.db).await {
            Ok(0) => {}
            Ok(moved) => tracing::info!(moved, "league seasons moved on"),
            Err(error) => tracing::warn!(%error, "moving league seasons on failed"),
        }
    }
}
