//! The Daily Challenge's engine work, off the request path: the Expert bot's total on each new
//! puzzle (once per puzzle: the database keeps the first answer, whichever instance gives it) and
//! the review of each finished attempt (which reaches the attempt's open page as a live change).

use std::{sync::Arc, time::Duration};

use domain::{ReviewPlay, ReviewTurn};
use engine::daily::ReviewedTurn;
use rules::{game::TurnEvent, play::WordScore, RuleSet};
use store::{daily, games, Services, StoreError};

use store::library::tries::Tries;

/// How often the worker looks for work.
const EVERY: Duration = Duration::from_secs(3);

/// Runs forever.
pub async fn run(services: Services, tries: Arc<Tries>) {
    loop {
        if let Err(error) = bot_scores(&services, &tries).await {
            tracing::warn!(%error, "daily: the bot's totals failed");
        }
        if let Err(error) = reviews(&services, &tries).await {
            tracing::warn!(%error, "daily: the reviews failed");
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// Computes the bot's total of every puzzle without one.
pub async fn bot_scores(services: &Services, tries: &Arc<Tries>) -> Result<(), StoreError> {
    for puzzle in daily::puzzles_without_bot_score(&services.db).await? {
        let (day, version) = (puzzle.day, puzzle.version.to_string());
        let config = puzzle.config();
        let lexicon = services.lexicon(&version).await?;
        let tries = tries.clone();
        let total = super::thinking::think(move || {
            let rules = RuleSet::new(config.variant);
            let trie = tries.get(&config.dictionary, &lexicon, &rules)?;
            engine::daily::bot_total(config, &*lexicon, &trie).ok()
        })
        .await
        .map_err(StoreError::Data)?;
        if let Some(total) = total {
            if daily::set_bot_score(&services.db, day, &version, total).await? {
                tracing::info!(day = %day, %version, total, "daily: the bot's total");
            }
        }
    }
    Ok(())
}

/// Reviews every finished attempt without a review.
pub async fn reviews(services: &Services, tries: &Arc<Tries>) -> Result<(), StoreError> {
    for game_id in daily::attempts_without_review(&services.db).await? {
        let row = games::row(&services.db, &game_id).await?;
        let lexicon = services.game_lexicon(&row.config).await?;
        let actions = games::logs(&services.db, &[game_id.as_str()])
            .await?
            .remove(&game_id)
            .unwrap_or_default();
        let tries = tries.clone();
        let config = row.config.clone();
        let reviewed = super::thinking::think(move || {
            let rules = RuleSet::new(config.variant);
            let trie = tries.get(&config.dictionary, &lexicon, &rules)?;
            engine::daily::review(config, &actions, &*lexicon, &trie).ok()
        })
        .await
        .map_err(StoreError::Data)?;
        if let Some(reviewed) = reviewed {
            let turns: Vec<ReviewTurn> = reviewed.iter().filter_map(turn).collect();
            daily::set_review(&services.db, &game_id, &turns).await?;
        }
    }
    Ok(())
}

/// A reviewed turn as the end card lists it (the game's end itself is not a turn).
fn turn(reviewed: &ReviewedTurn) -> Option<ReviewTurn> {
    let (did, points) = match &reviewed.played.event {
        TurnEvent::Play { words, total, .. } => (
            ReviewPlay::Word(WordScore::main(words).unwrap_or_default().to_string()),
            *total,
        ),
        TurnEvent::Pass { .. } => (ReviewPlay::Passed, 0),
        TurnEvent::Exchange { count } => (ReviewPlay::Exchanged(u32::from(*count)), 0),
        TurnEvent::TurnMissed => (ReviewPlay::TurnLost, 0),
        TurnEvent::Resign => (ReviewPlay::Stopped, 0),
        _ => return None,
    };
    Some(ReviewTurn {
        did: Some(did),
        played: String::new(),
        points,
        best: reviewed.best.clone(),
    })
}
