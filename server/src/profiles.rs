//! Profiles, leaderboards and a finished game's board over HTTP: `GET /u/<name>`,
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
        leaderboard,
        profile::{self, Viewer},
    },
};
use axum::{
    extract::{FromRequestParts, Path, Query, State},
    http::{request::Parts, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::get,
    Router,
};
use dictionaries::DictionaryId;
use domain::Phase;
use serde::Deserialize;
use store::{
    accounts::{sessions, Role, User},
    daily, games, profiles, ranks, seating, Services, StoreError,
};

use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/u/{name}", get(profile_page))
        .route("/leaderboard", get(leaderboard_page))
        .route("/daily/{dictionary}", get(daily_page))
        .route("/game/{id}/turn/{turn}", get(turn_page))
}

/// Whoever is signed in, if anyone (a guest counts as nobody for these pages' top bar), and the
/// language they read.
pub(crate) struct Visitor(pub(crate) Option<User>, app::i18n::Lang);

impl FromRequestParts<AppState> for Visitor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Visitor, Response> {
        let session = tower_sessions::Session::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let lang = app::i18n::from_headers(&parts.headers);
        match sessions::user_of(&state.services.db, &session).await {
            Ok(user) => Ok(Visitor(user, lang)),
            Err(error) => Err(failed(error)),
        }
    }
}

impl Visitor {
    /// Their account's id, a guest's too.
    pub(crate) fn user_id(&self) -> Option<i64> {
        self.0.as_ref().map(|u| u.id)
    }

    /// Whether they are a signed-in admin.
    pub(crate) fn is_admin(&self) -> bool {
        self.0.as_ref().is_some_and(|u| u.role == Role::Admin)
    }

    /// The language they read.
    pub(crate) fn texts(&self) -> Texts {
        Texts::of(self.1)
    }

    pub(crate) fn viewer(&self) -> Viewer {
        let user = self.0.as_ref().filter(|u| !u.guest);
        Viewer {
            name: user.map(|u| u.name.clone()),
            admin: user.is_some_and(|u| u.role == Role::Admin),
            head_to_head: None,
            texts: self.texts(),
            relation: None,
            said: None,
        }
    }
}

pub(crate) fn not_found(visitor: &Visitor) -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(app::routes::plain::not_found(visitor.texts())),
    )
        .into_response()
}

pub(crate) fn failed(error: StoreError) -> Response {
    tracing::error!(%error, "page: the store failed");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        "the server failed; please try again",
    )
        .into_response()
}

async fn profile_page(
    visitor: Visitor,
    State(services): State<Services>,
    Path(name): Path<String>,
    Query(said): Query<Said>,
) -> Response {
    let profile = match profiles::of(&services.db, &name).await {
        Ok(Some(profile)) => profile,
        Ok(None) => return not_found(&visitor),
        Err(error) => return failed(error),
    };
    let mut viewer = visitor.viewer();
    viewer.said = app::routes::plain::said(visitor.texts(), &said);
    if let Some(me) = visitor.0.as_ref().filter(|u| u.id != profile.user_id) {
        match profiles::head_to_head(&services.db, me.id, profile.user_id).await {
            Ok(record) if !record.is_empty() => viewer.head_to_head = Some(record),
            Ok(_) => {}
            Err(error) => return failed(error.into()),
        }
        if !me.guest {
            let (db, them) = (&services.db, profile.user_id);
            let relation = async {
                Ok::<_, sqlx::Error>(profile::Relation {
                    follows: store::friends::follows(db, me.id, them).await?,
                    blocks: store::blocks::blocks(db, me.id, them).await?,
                })
            };
            match relation.await {
                Ok(relation) => viewer.relation = Some(relation),
                Err(error) => return failed(error.into()),
            }
        }
    }
    Html(profile::page(profile, viewer)).into_response()
}

#[derive(Deserialize)]
struct BoardQuery {
    d: Option<String>,
}

async fn leaderboard_page(
    visitor: Visitor,
    State(services): State<Services>,
    Query(query): Query<BoardQuery>,
) -> Response {
    let dictionary = match query.d.as_deref() {
        None => DictionaryId::English,
        Some(d) => match DictionaryId::parse(d) {
            Some(d) => d,
            None => return not_found(&visitor),
        },
    };
    let qualifying = ranks::Qualifying::with_games(services.leaderboard_games);
    let top = match ranks::leaderboard(&services.db, dictionary, qualifying, 100).await {
        Ok(top) => top,
        Err(error) => return failed(error.into()),
    };
    let own = match visitor.0.as_ref() {
        Some(me) => match ranks::standing_of(&services.db, me.id, dictionary, qualifying).await {
            Ok(own) => own,
            Err(error) => return failed(error.into()),
        },
        None => None,
    };
    Html(leaderboard::page(
        dictionary,
        top,
        own,
        qualifying,
        visitor.viewer(),
    ))
    .into_response()
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
) -> Response {
    let today = daily::today();
    let (Some(dictionary), Some(day)) = (
        DictionaryId::parse(&dictionary),
        match query.day.as_deref() {
            None => Some(today),
            Some(day) => rules::daily::Day::parse(day).filter(|d| *d <= today),
        },
    ) else {
        return not_found(&visitor);
    };
    match daily_board(&services, &visitor, dictionary, day, today).await {
        Ok(board) => Html(daily_standings::page(board, visitor.viewer())).into_response(),
        Err(error) => failed(error),
    }
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
) -> Response {
    match finished_turn(&services, visitor.texts(), &id, &turn).await {
        Ok(Some(shown)) => Html(finished_turn::page(shown, visitor.viewer())).into_response(),
        Ok(None) | Err(StoreError::Refused(_)) => not_found(&visitor),
        Err(error) => failed(error),
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
    let ranks = ranks::of_players(&services.db, &cards::seated(&seats)).await?;
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
