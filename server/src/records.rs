//! A finished game's record for other tools: `GET /game/<id>/gcg` downloads the whole game in
//! GCG notation, `GET /game/<id>/turn/<n>/cgp` the position after turn `n` in CGP notation.
//! Anyone may download a finished game's record, as anyone may see its history; a rack is
//! written only for the reader's own seats (the others' only as their plays showed them).

use axum::{
    extract::{Path, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use rules::{notation::Position, GameState};
use store::{records, Services, StoreError};

use crate::{
    page::{PageError, Visitor},
    AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/game/{id}/gcg", get(game_record))
        .route("/game/{id}/turn/{turn}/cgp", get(position))
}

/// A text file to save, named after the game.
fn download(name: String, text: String) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
            (header::CACHE_CONTROL, "private, no-cache".to_string()),
        ],
        text,
    )
        .into_response()
}

/// The finished game `id` as `visitor` may read it. Refusals are a 404 to a downloader (no such
/// game, or not over yet); a failure a 500.
async fn finished(
    services: &Services,
    visitor: &Visitor,
    id: &str,
) -> Result<records::Record, PageError> {
    match records::finished(services, id, visitor.user_id()).await {
        Ok(record) => Ok(record),
        Err(StoreError::Refused(_)) => Err(PageError::NotFound(visitor.texts())),
        Err(error) => Err(error.into()),
    }
}

async fn game_record(
    visitor: Visitor,
    State(services): State<Services>,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let record = finished(&services, &visitor, &id).await?;
    let text = record.gcg(visitor.user_id())?;
    Ok(download(format!("alfakraft-{id}.gcg"), text))
}

async fn position(
    visitor: Visitor,
    State(services): State<Services>,
    Path((id, turn)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let Ok(turn) = turn.parse::<usize>() else {
        return Err(PageError::NotFound(visitor.texts()));
    };
    let record = finished(&services, &visitor, &id).await?;
    let mine = record.seats_of(visitor.user_id());
    // The game up to its turn `turn`: the first actions that make that many turns.
    let mut state = GameState::new(record.row.config.clone());
    for action in &record.actions {
        if state.history().len() >= turn {
            break;
        }
        if let Err(error) = state.apply(action, &*record.lexicon) {
            return Err(StoreError::Data(format!("game {id}: {error}")).into());
        }
    }
    if turn == 0 || state.history().len() < turn {
        return Ok((StatusCode::NOT_FOUND, "no such turn").into_response());
    }
    // The player to move first; their rack only if it is the reader's own.
    let to_move = state.to_move();
    let players = state.players();
    let order: Vec<u8> = (0..players).map(|i| (to_move + i) % players).collect();
    // Every player's rack field, in that order: empty but for the reader's own (`/` alone when
    // the reader is not to move).
    let racks = order
        .iter()
        .map(|&s| {
            if s == to_move && mine.contains(&s) {
                state.hand(s).to_vec()
            } else {
                Vec::new()
            }
        })
        .collect();
    let position = Position {
        board: state.board().clone(),
        racks,
        scores: order
            .iter()
            .map(|&s| state.scores()[usize::from(s)])
            .collect(),
        scoreless_turns: state.consecutive_passes(),
    };
    Ok(download(
        format!("alfakraft-{id}-{turn}.cgp"),
        format!("{}\n", position.to_text(state.rules().tiles)),
    ))
}
