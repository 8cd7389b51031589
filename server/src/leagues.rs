//! Leagues over HTTP, for anyone: `GET /leagues` and `GET /leagues/<id>`, rendered on the server
//! by `app::routes::leagues` from the store's seasons and standings.

use app::{
    api::Said,
    routes::leagues::{self, LeaguePage},
};
use axum::{
    extract::{Path, Query, State},
    response::Html,
    routing::get,
    Router,
};
use store::{leagues as store_leagues, leagues::SeasonStatus, Services};

use crate::{
    page::{PageError, Visitor},
    AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/leagues", get(list_page))
        .route("/leagues/{id}", get(league_page))
}

async fn list_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Result<Html<String>, PageError> {
    let cards = store_leagues::cards(&services.db, None, visitor.member()).await?;
    let mut viewer = visitor.viewer();
    viewer.said = app::routes::plain::said(visitor.texts(), &said);
    Ok(Html(leagues::list(cards, viewer)))
}

async fn league_page(
    visitor: Visitor,
    State(services): State<Services>,
    Path(id): Path<String>,
    Query(said): Query<Said>,
) -> Result<Html<String>, PageError> {
    let db = &services.db;
    let me = visitor.member();
    let card = store_leagues::cards(db, Some(&id), me)
        .await?
        .into_iter()
        .next()
        .ok_or(PageError::NotFound(visitor.texts()))?;
    let season = &card.season;
    let standings = store_leagues::standings(db, &season.id).await?;
    let previous = match season.status {
        SeasonStatus::Registration => match store_leagues::previous(db, season).await? {
            Some(before) => {
                let lines = store_leagues::standings(db, &before.id).await?;
                Some((before, lines))
            }
            None => None,
        },
        _ => None,
    };
    let (my_games, bank_days) = match me {
        Some(me) if card.entered => (
            store_leagues::games_of(db, &season.id, me).await?,
            Some(store_leagues::bank_days(db, &season.id, me).await?),
        ),
        _ => (Vec::new(), None),
    };
    let mut viewer = visitor.viewer();
    viewer.said = app::routes::plain::said(visitor.texts(), &said);
    let page = LeaguePage {
        card,
        standings,
        previous,
        my_games,
        bank_days,
    };
    Ok(Html(leagues::page(page, viewer)))
}
