//! The competitions' background task: every few seconds, starts the league seasons whose
//! registration closed and finishes those whose last game is over (`store::leagues`), and starts
//! the tournaments and rounds that are due (`store::tournaments`). Every instance runs one; each
//! step claims its season or tournament in its own transaction, so one instance takes it.

use std::time::Duration;

use store::{leagues, tournaments, Services};

/// How often they are looked at: a season or a round starts within seconds of its time.
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
        match tournaments::advance(&services.db).await {
            Ok(0) => {}
            Ok(moved) => tracing::info!(moved, "tournaments moved on"),
            Err(error) => tracing::warn!(%error, "moving tournaments on failed"),
        }
    }
}
