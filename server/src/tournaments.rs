//! Tournaments over HTTP: `GET /tournaments` (public ones, and the viewer's private ones) and
//! `GET /tournaments/<id>` (anyone with the link), rendered on the server by
//! `app::routes::tournaments` from the store's tournaments, standings and pairings.

use app::{
    api::Said,
    routes::tournaments::{self, TournamentPage},
};
use axum::{
    extract::{Path, Query, State},
    response::Html,
    routing::get,
    Router,
};
use store::{db::now_ms, tournaments as store_tournaments, Services};

use crate::{
    page::{PageError, Visitor},
    AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tournaments", get(list_page))
        .route("/tournaments/{id}", get(tournament_page))
}

async fn list_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(said): Query<Said>,
) -> Result<Html<String>, PageError> {
    let cards = store_tournaments::cards(&services.db, None, visitor.member()).await?;
    let mut viewer = visitor.viewer();
    viewer.said = app::routes::plain::said(visitor.texts(), &said);
    Ok(Html(tournaments::list(cards, viewer, now_ms())))
}

async fn tournament_page(
    visitor: Visitor,
    State(services): State<Services>,
    Path(id): Path<String>,
    Query(said): Query<Said>,
) -> Result<Html<String>, PageError> {
    let db = &services.db;
    let me = visitor.member();
    let card = store_tournaments::cards(db, Some(&id), me)
        .await?
        .into_iter()
        .next()
        .ok_or(PageError::NotFound(visitor.texts()))?;
    let standings = store_tournaments::standings(db, &id).await?;
    let boards = store_tournaments::boards(db, &id).await?;
    let mut viewer = visitor.viewer();
    viewer.said = app::routes::plain::said(visitor.texts(), &said);
    let page = TournamentPage {
        card,
        standings,
        boards,
        me,
        now: now_ms(),
    };
    Ok(Html(tournaments::page(page, viewer)))
}
