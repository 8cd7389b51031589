//! `GET /api/live`: a server-sent event stream telling an open page what changed, so it asks
//! again at once instead of polling. `?game=<id>` follows one game (for its players only) and the
//! presence of its players; without it, the stream follows all the caller's games and their
//! players' presence (the game list). Events carry no game data, only "this changed": what a player may see is still decided
//! by the ordinary server functions. While a stream is open its user counts as online.

use std::{collections::VecDeque, convert::Infallible, time::Duration};

use app::store::{
    clock,
    live::{self, Change, HEARTBEAT},
    seating,
    sessions::user_of,
    Services,
};
use axum::{
    extract::{Query, State},
    http::StatusCode,
    response::sse::{Event, KeepAlive, Sse},
    routing::get,
    Router,
};
use futures_util::{stream, Stream};
use serde::Deserialize;
use tokio::sync::broadcast::{self, error::RecvError};
use tower_sessions::Session;

use crate::AppState;

/// The live route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/live", get(open))
}

#[derive(Debug, Deserialize)]
struct Follow {
    game: Option<String>,
}

/// One open stream.
struct Feed {
    services: Services,
    changes: broadcast::Receiver<Change>,
    user: i64,
    /// The game followed, with its seats' users (`None` for a bot or an open seat).
    game: Option<(String, Vec<Option<i64>>)>,
    presence: Presence,
    heartbeat: tokio::time::Interval,
    ready: VecDeque<Event>,
}

/// The stream's row in the presence table, deleted when the stream ends (the client left).
/// Leaving a friend Blitz match's Ready lobby also stops its countdown and clears both flags.
struct Presence {
    services: Services,
    conn: String,
    user: i64,
    game: Option<String>,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let (db, conn, user) = (self.services.db.clone(), self.conn.clone(), self.user);
        let game = self.game.take();
        tokio::spawn(async move {
            if let Err(error) = live::close(&db, &conn, user).await {
                tracing::warn!(%error, "presence not cleared; it ages out");
            }
            if let Some(game) = game {
                if let Err(error) = clock::stop_countdown(&db, &game).await {
                    tracing::warn!(%error, "a left Ready lobby was not reset");
                }
            }
        });
    }
}

async fn open(
    State(services): State<Services>,
    session: Session,
    Query(follow): Query<Follow>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, StatusCode> {
    let failed = |error: &dyn std::fmt::Display| {
        tracing::warn!(%error, "live stream not opened");
        StatusCode::INTERNAL_SERVER_ERROR
    };
    let user = user_of(&services.db, &session)
        .await
        .map_err(|e| failed(&e))?
        // No content tells the browser not to reconnect: there is nothing to follow.
        .ok_or(StatusCode::NO_CONTENT)?;
    let game = match follow.game {
        Some(id) => {
            // Strangers learn nothing, not even that the game exists.
            seating::my_seats(&services.db, &id, user.id)
                .await
                .map_err(|_| StatusCode::NOT_FOUND)?;
            let seats = seating::seats(&services.db, &id)
                .await
                .map_err(|e| failed(&e))?;
            Some((
                id,
                seats.iter().map(|s| s.user.as_ref().map(|u| u.0)).collect(),
            ))
        }
        None => None,
    };
    // Subscribe before announcing presence, so nothing between the two is missed.
    let changes = services.db.live.subscribe();
    let conn = live::open(&services.db, user.id)
        .await
        .map_err(|e| failed(&e))?;
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut feed = Feed {
        presence: Presence {
            services: services.clone(),
            conn,
            user: user.id,
            game: game.as_ref().map(|(id, _)| id.clone()),
        },
        services,
        changes,
        user: user.id,
        game,
        heartbeat,
        ready: VecDeque::new(),
    };
    feed.queue_presence().await;
    let events = stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await;
        Some((Ok(event), feed))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

impl Feed {
    /// The next event to send; waits for one.
    async fn next(&mut self) -> Event {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return event;
            }
            tokio::select! {
                change = self.changes.recv() => self.take(change).await,
                _ = self.heartbeat.tick() => {
                    if let Err(error) = live::refresh(&self.services.db, &self.presence.conn).await {
                        tracing::warn!(%error, "presence not refreshed");
                    }
                }
            }
        }
    }

    async fn take(&mut self, change: Result<Change, RecvError>) {
        match change {
            Ok(Change::Game { id, users }) => {
                let followed = match &self.game {
                    Some((game, _)) => *game == id,
                    None => users.contains(&self.user),
                };
                if followed {
                    self.ready
                        .push_back(Event::default().event("game").data(id));
                }
            }
            Ok(Change::Presence { user }) if user != self.user => match &self.game {
                Some((_, seats)) => {
                    if seats.contains(&Some(user)) {
                        self.queue_presence().await;
                    }
                }
                // The game list shows its opponents' presence: it asks again.
                None => {
                    let db = &self.services.db;
                    if live::share_a_game(db, self.user, user)
                        .await
                        .unwrap_or(false)
                    {
                        self.ready
                            .push_back(Event::default().event("game").data(""));
                    }
                }
            },
            Ok(Change::Presence { .. }) => {}
            // Missed changes (this page fell behind, or the listener reconnected): ask again.
            Ok(Change::Resync) | Err(RecvError::Lagged(_)) => {
                let id = self
                    .game
                    .as_ref()
                    .map_or("", |(id, _)| id.as_str())
                    .to_string();
                self.ready
                    .push_back(Event::default().event("game").data(id));
                self.queue_presence().await;
            }
            Err(RecvError::Closed) => {
                // The instance is shutting down; the browser reconnects elsewhere.
                std::future::pending::<()>().await;
            }
        }
    }

    /// For a followed game: which seats are online, as JSON `[true, false, null]` (null for a
    /// bot or an open seat).
    async fn queue_presence(&mut self) {
        let Some((_, seats)) = &self.game else { return };
        let mut online = Vec::with_capacity(seats.len());
        for seat in seats {
            online.push(match seat {
                Some(user) => Some(
                    live::online(&self.services.db, *user)
                        .await
                        .unwrap_or(false),
                ),
                None => None,
            });
        }
        let data = serde_json::to_string(&online).unwrap_or_default();
        self.ready
            .push_back(Event::default().event("presence").data(data));
    }
}
