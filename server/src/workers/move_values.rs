//! The engine's look at every finished game's turns, off the request path: for each player
//! recorded in a game's results, how many points their turns fell short of the engine's best
//! moves (the analysis a player can open on a finished game), added to their statistics once.
//! A few games each round on the engine's thread, which yields to requests, newest first, so
//! games from before the statistics are looked at too, in time.

use std::{collections::BTreeSet, sync::Arc, time::Duration};

use rules::{analysis::Turn, RuleSet};
use store::{
    library::tries::Tries,
    records, seating,
    statistics::{self, MoveValues},
    Services, StoreError,
};

/// How often the worker looks for work.
const EVERY: Duration = Duration::from_secs(10);

/// Games looked at each round, at most: a few tens of milliseconds of the engine each.
const BATCH: i64 = 4;

/// Runs forever.
pub async fn run(services: Services, tries: Arc<Tries>) {
    loop {
        if let Err(error) = step(&services, &tries).await {
            tracing::warn!(%error, "move values: a round failed");
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// Looks at up to [`BATCH`] games; returns how many.
pub async fn step(services: &Services, tries: &Arc<Tries>) -> Result<usize, StoreError> {
    let games = statistics::unanalysed(&services.db, BATCH).await?;
    for game_id in &games {
        // A game the engine cannot replay (its log or dictionary gone) counts no turn, rather
        // than being tried again every round.
        let values = values_of(services, tries, game_id)
            .await
            .unwrap_or_else(|error| {
                tracing::warn!(%error, game_id, "move values: cannot look at the game");
                Vec::new()
            });
        statistics::record_move_values(&services.db, game_id, &values).await?;
    }
    Ok(games.len())
}

/// What the engine finds of each seated person's turns in finished game `game_id`.
pub async fn values_of(
    services: &Services,
    tries: &Arc<Tries>,
    game_id: &str,
) -> Result<Vec<MoveValues>, StoreError> {
    let record = records::finished(services, game_id, None).await?;
    let people: BTreeSet<i64> = record
        .seats
        .iter()
        .filter_map(|s| s.user.as_ref().map(|(id, _)| *id))
        .collect();
    let mut turns: Vec<(i64, Vec<Turn>)> = Vec::new();
    for user in people {
        turns.push((user, record.turns(&seating::mine(&record.seats, user)?)?));
    }
    let config = record.row.config.clone();
    let lexicon = record.lexicon.clone();
    let tries = tries.clone();
    super::thinking::think(move || {
        let rules = RuleSet::new(config.variant);
        let trie = tries.get(&config.dictionary, &lexicon, &rules)?;
        let mut analyser = engine::analysis::Analyser::new(&trie, &rules);
        Some(
            turns
                .iter()
                .map(|(user, turns)| MoveValues {
                    user: *user,
                    turns: turns.len() as i64,
                    missed: turns
                        .iter()
                        .map(|turn| i64::from(analyser.turn(turn).missed))
                        .sum(),
                })
                .collect(),
        )
    })
    .await
    .map_err(StoreError::Data)?
    .ok_or_else(|| StoreError::Data(format!("game {game_id}: no trie for its dictionary")))
}
