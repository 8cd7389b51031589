//! A finished game's record: its log, for analysis and for export. Only finished games have one
//! to give (a Daily Challenge's once its day is over, or its boards would give the puzzle away),
//! and only the reader's own racks are ever read from it.

use std::sync::Arc;

use dictionaries::FstLexicon;
use domain::{Phase, Refusal};
use rules::{analysis::Turn, Action, Seat};

use crate::{
    daily,
    games::{self, GameRow},
    seating::{self, SeatRow},
    Services, StoreError,
};

/// A finished game with its seats, its log and the dictionary version it was played with.
pub struct Record {
    /// The game.
    pub row: GameRow,
    /// Who sat where.
    pub seats: Vec<SeatRow>,
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// Its dictionary version's words.
    pub lexicon: Arc<FstLexicon>,
}

/// The record of game `id` for `reader` (a user, or a visitor), if it is over. A game not over
/// yet (or a Daily Challenge whose day is not) is refused as such to the people seated in it,
/// and as no such game to anyone else, as a game that does not exist is: a stranger learns
/// nothing of a game under way, not even that it exists.
pub async fn finished(
    services: &Services,
    id: &str,
    reader: Option<i64>,
) -> Result<Record, StoreError> {
    let seating::Table {
        game: row, seats, ..
    } = seating::table(&services.db, id).await?;
    let open = row.phase != Phase::Over
        || daily::day_of(&services.db, id)
            .await?
            .is_some_and(|day| day >= daily::today());
    if open {
        let seated = reader.is_some_and(|user| seating::mine(&seats, user).is_ok());
        return Err(match seated {
            true => Refusal::NotOver,
            false => Refusal::NoSuchGame,
        }
        .into());
    }
    let lexicon = services.game_lexicon(&row.config).await?;
    let actions = games::logs(&services.db, &[id])
        .await?
        .remove(id)
        .unwrap_or_default();
    Ok(Record {
        row,
        seats,
        actions,
        lexicon,
    })
}

impl Record {
    /// The seats `user` holds (none for a visitor; every seat of their pass-and-play game).
    pub fn seats_of(&self, user: Option<i64>) -> Vec<Seat> {
        user.map(|id| seating::mine(&self.seats, id).unwrap_or_default())
            .unwrap_or_default()
    }

    /// The whole game in GCG notation, with racks only for `reader`'s own seats (the others' only
    /// as their plays showed them).
    pub fn gcg(&self, reader: Option<i64>) -> Result<String, StoreError> {
        let mine = self.seats_of(reader);
        // GCG names are single words.
        let names: Vec<String> = self
            .seats
            .iter()
            .map(|s| s.plain_name().replace(char::is_whitespace, "_"))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        rules::notation::export_game(
            &self.row.config,
            &self.actions,
            &names,
            &*self.lexicon,
            |seat| mine.contains(&seat),
        )
        .map_err(|error| StoreError::Data(format!("game {}: {error}", self.row.id)))
    }

    /// The turns of `seats` to analyse, each with its own rack only.
    pub fn turns(&self, seats: &[Seat]) -> Result<Vec<Turn>, StoreError> {
        rules::analysis::turns_of(
            self.row.config.clone(),
            &self.actions,
            seats,
            &*self.lexicon,
        )
        .map_err(|error| StoreError::Data(format!("game {}: {error}", self.row.id)))
    }
}

/// Counts an analysis the server runs for `user`, or refuses it when they have had their share
/// of the hour.
pub fn count_analysis(services: &Services, user: i64) -> Result<(), StoreError> {
    let key = user.to_string();
    if let Some(wait) = services.analyses.check(&[&key]) {
        return Err(Refusal::AnalysesUsedUp {
            minutes: wait.as_secs().div_ceil(60).max(1),
        }
        .into());
    }
    services.analyses.record(&[&key]);
    Ok(())
}

/// Every game `user` sat in, oldest first, each with its seats by name and its GCG once it is
/// over, as they export them (see [`crate::exports`]).
pub(crate) async fn export(
    services: &Services,
    user: i64,
) -> Result<serde_json::Value, StoreError> {
    let mut games = Vec::new();
    for row in games_of(&services.db, user).await? {
        games.push(exported(services, user, row).await?);
    }
    Ok(serde_json::Value::Array(games))
}

/// Every game `user` sat in, oldest first.
async fn games_of(db: &crate::db::Database, user: i64) -> Result<Vec<GameRow>, StoreError> {
    let rows: Vec<games::GameRecord> = sqlx::query_as(&format!(
        "SELECT DISTINCT {} FROM games g JOIN game_seats s ON s.game_id = g.id
         WHERE s.user_id = $1 ORDER BY g.updated_at",
        games::GAME_COLUMNS
    ))
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(GameRow::try_from)
        .collect::<Result<_, _>>()?)
}

/// One game: its facts, its seats by name, and its GCG once it is over.
async fn exported(
    services: &Services,
    user: i64,
    row: GameRow,
) -> Result<serde_json::Value, StoreError> {
    let seats = seating::seats(&services.db, &row.id).await?;
    let names: Vec<String> = seats.iter().map(seating::SeatRow::plain_name).collect();
    let gcg = match finished(services, &row.id, Some(user)).await {
        Ok(record) => Some(record.gcg(Some(user))?),
        Err(StoreError::Refused(_)) => None,
        Err(error) => return Err(error),
    };
    Ok(serde_json::json!({
        "id": row.id, "status": row.phase.as_str(), "opponent": row.opponent.as_str(),
        "dictionary": row.config.dictionary, "variant": row.config.variant,
        "rated": row.rated, "updated_at": row.updated_at, "seats": names, "gcg": gcg,
    }))
}
