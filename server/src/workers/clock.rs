//! The clock's background task: every second, pauses the turns of players on vacation, gives
//! league turns out of time a day from their time bank, applies the time-outs that are due and
//! starts the Ready-lobby matches whose countdown ran out (see `store::clocks`). Every instance
//! runs one; the commit's version check lets exactly one apply each time-out.

use std::time::Duration;

use store::{clocks, leagues, vacations, Services};

/// How often due time-outs are looked for: Blitz turns are 120 s, so a second is close enough.
const EVERY: Duration = Duration::from_secs(1);

/// Runs forever.
pub async fn run(services: Services) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        // Turns that passed to players on vacation are paused before any could time out.
        if let Err(error) = vacations::pause_due(&services.db).await {
            tracing::warn!(%error, "pausing clocks for vacations failed");
        }
        // A league turn out of time draws on its player's time bank before it could time out.
        if let Err(error) = leagues::draw_banks(&services.db).await {
            tracing::warn!(%error, "drawing on league time banks failed");
        }
        match clocks::expire_due(&services).await {
            Ok(applied) => {
                for t in &applied {
                    tracing::info!(game = %t.game_id, seat = t.seat, away = t.away, "time-out applied");
                }
            }
            Err(error) => tracing::warn!(%error, "applying time-outs failed"),
        }
        // Ready lobbies whose countdown ran out (normally started on the dot by the instance
        // that counted down; this catches one that stopped meanwhile).
        if let Err(error) = clocks::start_due(&services.db).await {
            tracing::warn!(%error, "starting Blitz matches failed");
        }
    }
}
