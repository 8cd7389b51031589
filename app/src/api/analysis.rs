//! Analysis of a finished game: the caller's turns (their own racks only) for the browser's
//! worker to analyse, and the same analysis run by the server for a device too slow to, a few
//! times an hour per player.

use crate::wire::Wire;
use leptos::{prelude::*, server_fn::codec::Json};
use rules::{
    analysis::{Turn, TurnAnalysis},
    Variant,
};
use serde::{Deserialize, Serialize};

use super::Refusal;

/// What the browser's analysis needs: the caller's turns and the game's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisInput {
    /// The game's ruleset.
    pub variant: Variant,
    /// Where its dictionary version is fetched (content-hashed, immutable).
    pub dictionary_url: String,
    /// Seats in the game.
    pub players: u8,
    /// The caller's turns, in order.
    pub turns: Vec<Turn>,
}

/// The caller's turns in finished game `id`, to analyse in the browser.
#[server(input = Json, output = Wire, endpoint = "analysis/turns")]
pub async fn analysis_turns(id: String) -> Result<Result<AnalysisInput, Refusal>, ServerFnError> {
    use store::records;
    super::server::as_player(async |services, user| {
        let record = records::finished(&services, &id, Some(user.id)).await?;
        let seats = store::seating::mine(&record.seats, user.id)?;
        let dictionary_url = services
            .library
            .named(&record.row.config.dictionary)
            .await?
            .url
            .clone();
        Ok(AnalysisInput {
            variant: record.row.config.variant,
            dictionary_url,
            players: record.row.config.players,
            turns: record.turns(&seats)?,
        })
    })
    .await
}

/// The caller's turns in finished game `id`, analysed by the server (counted: a few an hour).
#[server(input = Json, output = Wire, endpoint = "analysis/run")]
pub async fn analyse_on_server(
    id: String,
) -> Result<Result<Vec<TurnAnalysis>, Refusal>, ServerFnError> {
    use store::{records, StoreError};
    super::server::as_player(async |services, user| {
        let record = records::finished(&services, &id, Some(user.id)).await?;
        let seats = store::seating::mine(&record.seats, user.id)?;
        let turns = record.turns(&seats)?;
        records::count_analysis(&services, user.id)?;
        let tries = services.tries.clone();
        let started = std::time::Instant::now();
        let analysed = tokio::task::spawn_blocking(move || {
            let rules = rules::RuleSet::new(record.row.config.variant);
            let trie = tries
                .get(&record.row.config.dictionary, &record.lexicon, &rules)
                .ok_or_else(|| StoreError::Data("no trie for the game's dictionary".into()))?;
            let mut analyser = engine::analysis::Analyser::new(&trie, &rules);
            Ok::<_, StoreError>(turns.iter().map(|t| analyser.turn(t)).collect::<Vec<_>>())
        })
        .await
        .map_err(|e| StoreError::Data(format!("analysis: {e}")))??;
        metrics::histogram!("analysis_seconds").record(started.elapsed().as_secs_f64());
        Ok(analysed)
    })
    .await
}
