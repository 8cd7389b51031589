//! Bot turns, off the request path: a background task wakes after every commit (and every few
//! seconds, for games left over from a restart or made by another instance), asks the engine for
//! the move of each bot to move on the bot's own view, and commits it like any player's move.
//! Two instances racing on one game are harmless: the version check lets one commit through.

use std::{sync::Arc, time::Duration};

use engine::{bot::Bot, bot::Level};
use rules::{Action, GameState};
use store::{games, seating, Services};

use store::library::tries::Tries;

/// How often games are scanned even without a wake-up.
const SCAN_EVERY: Duration = Duration::from_secs(5);

/// Runs forever, playing every bot's turn.
pub async fn run(services: Services, tries: Arc<Tries>) {
    loop {
        match seating::bot_turns(&services.db).await {
            Ok(turns) => {
                for seating::BotTurn { game_id, level } in turns {
                    if let Err(error) = play_turn(&services, &tries, &game_id, &level).await {
                        tracing::warn!(game = %game_id, %error, "bot turn not played");
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "looking for bot turns failed"),
        }
        tries.sweep();
        // A wake-up during the scan is kept as a permit, so no commit is missed.
        let _ = tokio::time::timeout(SCAN_EVERY, services.db.bot_wakeup.notified()).await;
    }
}

async fn play_turn(
    services: &Services,
    tries: &Arc<Tries>,
    game_id: &str,
    level: &str,
) -> Result<(), String> {
    let level = Level::parse(level).ok_or_else(|| format!("unknown bot level {level}"))?;
    let row = games::row(&services.db, game_id)
        .await
        .map_err(|e| e.to_string())?;
    let lexicon = services
        .game_lexicon(&row.config)
        .await
        .map_err(|e| e.to_string())?;
    let state = games::load(&services.db, game_id, &*lexicon)
        .await
        .map_err(|e| e.to_string())?;
    let seat = state.to_move();
    let view = state.view(seat);
    let version = state.version();
    // The bot's own randomness: from the game id and version, never from the game's secret seed.
    let seed = game_id
        .bytes()
        .fold(u64::from(version), |h, b| h.rotate_left(5) ^ u64::from(b));
    let rules = state.rules().clone();
    let dictionary = row.config.dictionary.clone();
    let (lexicon2, tries2) = (lexicon.clone(), tries.clone());
    // The search is CPU work within the bot's budget: off the async workers, behind requests.
    let actions = super::thinking::think(move || {
        let trie = tries2
            .get(&dictionary, &lexicon2, &rules)
            .ok_or("no dictionary for the bot")?;
        let mut bot = Bot::new(level, &trie, &rules, seed);
        let started = std::time::Instant::now();
        let turn = bot.decide_turn(&view);
        metrics::histogram!("alfakraft_bot_move_seconds").record(started.elapsed());
        Ok::<_, &str>(turn)
    })
    .await??;
    let mut version = version;
    for action in actions {
        let committed = match games::commit(&services.db, game_id, version, &action, &*lexicon)
            .await
        {
            // The rules have the last word; a bot whose move they refuse (an engine bug) passes
            // rather than stall the game.
            Err(games::GameError::Rules(error)) => {
                tracing::error!(game = %game_id, %error, "the rules refused the bot's move: passing");
                games::commit(
                    &services.db,
                    game_id,
                    version,
                    &Action::Pass { seat },
                    &*lexicon,
                )
                .await
            }
            other => other,
        };
        let committed: GameState = committed.map_err(|e| e.to_string())?;
        version = committed.version();
        if committed.to_move() != seat || *committed.status() != rules::Status::Playing {
            break;
        }
    }
    tracing::info!(game = %game_id, level = level.name(), version, "bot moved");
    Ok(())
}
