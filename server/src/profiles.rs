//! Profiles, leaderboards and a finished game's board over HTTP: `GET /u/<name>`,
//! `GET /u/<name>/statistics`,
//! `GET /leaderboard?d=<dictionary>`, `GET /daily/<dictionary>?day=<YYYY-MM-DD>` and
//! `GET /game/<id>/turn/<n>`, rendered on the server by `app::routes::{profile, leaderboard,
//! daily_standings, finished_turn}` from public facts only.

use app::{
    api::play::server as cards,
    api::Said,
    i18n::{format_name, ruleset_name, Texts},
    routes::{
        daily_standings::{self, DailyBoard},
        finished_turn::{self, FinishedTurn},
        leaderboard, profile,
        statistics::{self as statistics_page, PlayerStatistics},
    },
};
use axum::{
    extract::{Path, Query, State},
    response::Html,
    routing::get,
    Router,
};
use dictionaries::DictionaryId;
use domain::Phase;
use serde::Deserialize;
use store::{daily, games, profiles, ranks, seating, statistics, Services, StoreError};

use crate::{
    page::{PageError, Visitor},
    AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/u/{name}", get(profile_page))
        .route("/u/{name}/statistics", get(player_statistics))
        .route("/leaderboard", get(leaderboard_page))
        .route("/daily/{dictionary}", get(daily_page))
        .route("/game/{id}/turn/{turn}", get(turn_page))
}

async fn profile_page(
    visitor: Visitor,
    State(services): State<Services>,
    Path(name): Path<String>,
    Query(said): Query<Said>,
) -> Result<Html<String>, PageError> {
    let db = &services.db;
    let profile = profiles::of(db, &name)
        .await?
        .ok_or(PageError::NotFound(visitor.texts()))?;
    let mut viewer = visitor.viewer();
    viewer.said = app::routes::plain::said(visitor.texts(), &said);
    if let Some(me) = visitor.0.as_ref().filter(|u| u.id != profile.user_id) {
        let record = profiles::head_to_head(db, me.id, profile.user_id).await?;
        viewer.head_to_head = (!record.is_empty()).then_some(record);
        if !me.guest {
            let them = profile.user_id;
            viewer.relation = Some(profile::Relation {
                follows: store::friends::follows(db, me.id, them).await?,
                blocks: store::blocks::blocks(db, me.id, them).await?,
            });
        }
    }
    Ok(Html(profile::page(profile, viewer)))
}

async fn player_statistics(
    visitor: Visitor,
    State(services): State<Services>,
    Path(name): Path<String>,
) -> Result<Html<String>, PageError> {
    let (user, name) = profiles::player(&services.db, &name)
        .await?
        .ok_or(PageError::NotFound(visitor.texts()))?;
    let lines = statistics::of(&services.db, user).await?;
    Ok(Html(statistics_page::page(
        PlayerStatistics { name, lines },
        visitor.viewer(),
    )))
}

#[derive(Deserialize)]
struct BoardQuery {
    d: Option<String>,
}

async fn leaderboard_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(query): Query<BoardQuery>,
) -> Result<Html<String>, PageError> {
    let dictionary = match query.d.as_deref() {
        None => DictionaryId::English,
        Some(d) => DictionaryId::parse(d).ok_or(PageError::NotFound(visitor.texts()))?,
    };
    let qualifying = ranks::Qualifying::with_games(services.leaderboard_games);
    let top = ranks::leaderboard(&services.db, dictionary, qualifying, 100).await?;
    let own = match visitor.0.as_ref() {
        Some(me) => ranks::standing_of(&services.db, me.id, dictionary, qualifying).await?,
        None => None,
    };
    let viewer = visitor.viewer();
    Ok(Html(leaderboard::page(
        dictionary, top, own, qualifying, viewer,
    )))
}

#[derive(Deserialize)]
struct DayQuery {
    day: Option<String>,
}

async fn daily_page(
    visitor: Visitor,
    State(services): State<Services>,
    Path(dictionary): Path<String>,
    Query(query): Query<DayQuery>,
) -> Result<Html<String>, PageError> {
    let today = daily::today();
    let (Some(dictionary), Some(day)) = (
        DictionaryId::parse(&dictionary),
        match query.day.as_deref() {
            None => Some(today),
            Some(day) => rules::daily::Day::parse(day).filter(|d| *d <= today),
        },
    ) else {
        return Err(PageError::NotFound(visitor.texts()));
    };
    let board = daily_board(&services, &visitor, dictionary, day, today).await?;
    Ok(Html(daily_standings::page(board, visitor.viewer())))
}

async fn daily_board(
    services: &Services,
    visitor: &Visitor,
    dictionary: DictionaryId,
    day: rules::daily::Day,
    today: rules::daily::Day,
) -> Result<DailyBoard, StoreError> {
    let db = &services.db;
    let own = match &visitor.0 {
        Some(user) => daily::standing_of(db, day, dictionary, user).await?,
        None => None,
    };
    // The day before's winning board, once that day is over.
    let yesterday = match daily::standings(db, day.previous(), dictionary, 1)
        .await?
        .pop()
    {
        Some(winner) => {
            let turns = games::version(db, &winner.game_id).await?;
            Some((winner, turns as usize))
        }
        None => None,
    };
    Ok(DailyBoard {
        commitment: daily::commitment(db, day, dictionary, today).await?,
        dictionary,
        day,
        today,
        top: daily::standings(db, day, dictionary, 100).await?,
        own,
        bot_score: daily::bot_score(db, day, dictionary).await?,
        yesterday,
    })
}

async fn turn_page(
    visitor: Visitor,
    State(services): State<Services>,
    Path((id, turn)): Path<(String, String)>,
) -> Result<Html<String>, PageError> {
    match finished_turn(&services, visitor.texts(), &id, &turn).await {
        Ok(Some(shown)) => Ok(Html(finished_turn::page(shown, visitor.viewer()))),
        Ok(None) | Err(StoreError::Refused(_)) => Err(PageError::NotFound(visitor.texts())),
        Err(error) => Err(error.into()),
    }
}

/// Turn `turn` (from 1) of finished game `id`, if both exist.
async fn finished_turn(
    services: &Services,
    texts: Texts,
    id: &str,
    turn: &str,
) -> Result<Option<FinishedTurn>, StoreError> {
    let Ok(turn) = turn.parse::<usize>() else {
        return Ok(None);
    };
    let row = games::row(&services.db, id).await?;
    if row.phase != Phase::Over {
        return Ok(None);
    }
    // A Daily Challenge's boards would give its puzzle away until its day is over.
    if let Some(day) = daily::day_of(&services.db, id).await? {
        if day >= daily::today() {
            return Ok(None);
        }
    }
    let lexicon = services.game_lexicon(&row.config).await?;
    let state = games::load(&services.db, id, &*lexicon).await?;
    // The history and boards are the same from any seat once the game is over.
    let view = state.view(0);
    let mut boards = view.boards_after_each_turn();
    let Some(record) = (1..=boards.len())
        .contains(&turn)
        .then(|| view.history[turn - 1].clone())
    else {
        return Ok(None);
    };
    let seats = seating::seats(&services.db, id).await?;
    let dictionary = cards::dictionary_of(&row.config);
    let ranks = ranks::of_players(&services.db, &store::seating::people(&seats)).await?;
    Ok(Some(FinishedTurn {
        game_id: row.id.clone(),
        title: format!(
            "{} · {} · {}",
            ruleset_name(texts, &row.config.variant),
            dictionary.name(),
            format_name(texts, row.config.format)
        ),
        seats: cards::holders(&seats, &ranks, dictionary),
        turn,
        turns: boards.len(),
        record,
        board: boards.swap_remove(turn - 1),
        tiles: view.rules().tiles,
    }))
}
