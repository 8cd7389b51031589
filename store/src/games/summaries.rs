//! What a list shows of each game ([`GameSummary`]) is stored with every move; a game stored
//! before that has none until [`backfill`] gives it one, and a list meanwhile works it out from
//! the log ([`summary_of`]).

use domain::GameSummary;

use super::{load, row, GameRow};
use crate::{services::Services, StoreError};

/// Game `row`'s summary worked out from its log: for a game stored before summaries were kept.
pub async fn summary_of(services: &Services, row: &GameRow) -> Result<GameSummary, StoreError> {
    let lexicon = services.game_lexicon(&row.config).await?;
    let state = load(&services.db, &row.id, &*lexicon).await?;
    Ok(GameSummary::of(&state))
}

/// Stores a summary for every game that has none, a page of games at a time; a game whose log
/// does not replay is logged and left. Returns how many were stored.
pub async fn backfill(services: &Services) -> Result<usize, StoreError> {
    let db = &services.db;
    let (mut after, mut stored) = (String::new(), 0);
    loop {
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM games WHERE summary IS NULL AND id > $1 ORDER BY id LIMIT 200",
        )
        .bind(&after)
        .fetch_all(&db.pool)
        .await?;
        let Some(last) = ids.last() else {
            return Ok(stored);
        };
        after.clone_from(last);
        for id in &ids {
            let summary = match summary_of(services, &row(db, id).await?).await {
                Ok(summary) => summary,
                Err(error) => {
                    tracing::warn!(%error, game = id, "a game's summary could not be worked out");
                    continue;
                }
            };
            // A move meanwhile wrote a newer one: it stays.
            sqlx::query("UPDATE games SET summary = $2 WHERE id = $1 AND summary IS NULL")
                .bind(id)
                .bind(serde_json::to_string(&summary)?)
                .execute(&db.pool)
                .await?;
            stored += 1;
        }
    }
}
