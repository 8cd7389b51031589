//! `GET /api/live`: a server-sent event stream telling an open page what changed, so it asks
//! again at once instead of polling. `?game=<id>` follows one game (for its players only) and the
//! presence of its players; without it, the stream follows all the caller's games and their
//! players' presence (the game list); `&standings=<id>` adds a league season's or tournament's
//! standings (`standings` events) for its page. A game's page also hears of its chat (`chat`). Events carry no game data, only "this changed": what a player may see is still decided
//! by the ordinary server functions. While a stream is open its user counts as online.

use std::{collections::VecDeque, convert::Infallible, time::Duration};

use axum::{
    extract::{Query, State},
    http::StatusCode,
    response::sse::{Event, KeepAlive, Sse},
    routing::get,
    Router,
};
use futures_util::{stream, Stream};
use serde::Deserialize;
use store::{
    accounts::sessions::user_of,
    bus::{Change, Follower, Interest},
    clocks,
    db::Database,
    presence, seating, Services,
};
use tower_sessions::Session;

use crate::AppState;

/// Set when the server shuts down: every stream ends, so the graceful shutdown does not wait on
/// them forever, and the browsers reconnect (to another instance, or to this one restarted).
static SHUTDOWN: std::sync::OnceLock<tokio::sync::watch::Sender<bool>> = std::sync::OnceLock::new();

fn shutdown() -> &'static tokio::sync::watch::Sender<bool> {
    SHUTDOWN.get_or_init(|| tokio::sync::watch::channel(false).0)
}

/// Ends every live stream: called when the server starts shutting down.
pub fn close_all() {
    shutdown().send_replace(true);
}

/// What a `game` event for the games list carries: a browser drops an event whose data is empty
/// (the EventSource rules), so the list's events name it.
const LIST: &str = "list";

/// How often an idle stream sends a comment, so proxies keep it open (they commonly close one idle
/// for 60 s). Each open stream pays for it, so not more often.
const KEEP_ALIVE: Duration = Duration::from_secs(30);

/// How soon a browser tries again after losing the stream.
const RETRY: Duration = Duration::from_secs(1);

/// The live route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/live", get(open))
}

#[derive(Debug, Deserialize)]
struct Follow {
    game: Option<String>,
    /// The lobby page: its list of open games too.
    #[serde(default)]
    lobby: bool,
    /// A league's or tournament's page: its standings too (`?standings=<season or tournament>`).
    standings: Option<String>,
}

/// One open stream.
struct Feed {
    services: Services,
    changes: Follower,
    user: i64,
    /// The game followed, with its seats' users (`None` for a bot or an open seat).
    game: Option<(String, Vec<Option<i64>>)>,
    /// Following the lobby's open games too.
    lobby: bool,
    /// The season or tournament whose standings it follows.
    standings: Option<String>,
    presence: Presence,
    ready: VecDeque<Event>,
    closing: tokio::sync::watch::Receiver<bool>,
    /// The presence last sent (JSON), so an unchanged one is not sent again.
    shown: String,
}

/// The stream counted in its player's presence ([`presence::open`]) until it ends (the client
/// left). Leaving a friend Blitz match's Ready lobby also stops its countdown and clears both
/// flags.
///
/// The opening runs on a task of its own, so a client that leaves while the stream is still
/// opening cannot leave a row behind: the guard exists before the opening starts, and its closing
/// waits for the opening to finish.
struct Presence {
    db: Database,
    user: i64,
    game: Option<String>,
    /// The row's write, until it is done.
    opening: Option<tokio::task::JoinHandle<Result<(), sqlx::Error>>>,
    closed: bool,
}

impl Presence {
    /// Starts writing the row for a new stream of `user`.
    fn open(db: &Database, user: i64, game: Option<String>) -> Presence {
        let writer = db.clone();
        let opening = tokio::spawn(async move { presence::open(&writer, user).await });
        metrics::gauge!("alfakraft_live_streams").increment(1);
        Presence {
            db: db.clone(),
            user,
            game,
            opening: Some(opening),
            closed: false,
        }
    }

    /// Waits until the row is written.
    async fn opened(&mut self) -> Result<(), String> {
        let Some(opening) = self.opening.as_mut() else {
            return Ok(());
        };
        let written = opening.await;
        self.opening = None;
        written
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    /// Counts the stream closed, after its opening; `grace` as in [`presence::close`].
    async fn close(
        db: Database,
        user: i64,
        game: Option<String>,
        opening: Option<tokio::task::JoinHandle<Result<(), sqlx::Error>>>,
        grace: std::time::Duration,
    ) {
        if let Some(opening) = opening {
            let _ = opening.await;
        }
        if let Some(game) = game {
            if let Err(error) = clocks::stop_countdown(&db, &game).await {
                tracing::warn!(%error, "a left Ready lobby was not reset");
            }
        }
        if let Err(error) = presence::close(&db, user, grace).await {
            tracing::warn!(%error, "presence not cleared; it ages out");
        }
    }

    /// Closes now, before the server stops (a task spawned from `drop` might not get to run).
    async fn close_now(&mut self) {
        self.closed = true;
        let db = self.db.clone();
        let opening = self.opening.take();
        // The instance is stopping: no grace, its players' rows go now.
        let grace = std::time::Duration::ZERO;
        Presence::close(db, self.user, self.game.take(), opening, grace).await;
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        metrics::gauge!("alfakraft_live_streams").decrement(1);
        if self.closed {
            return;
        }
        tokio::spawn(Presence::close(
            self.db.clone(),
            self.user,
            self.game.take(),
            self.opening.take(),
            presence::GRACE,
        ));
    }
}

/// Who sits in each seat: a user's id, or `None` for a bot or an open seat.
fn seat_users(seats: &[seating::SeatRow]) -> Vec<Option<i64>> {
    seats.iter().map(seating::SeatRow::person).collect()
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
    // Standings are public: only the id's shape is checked, so a follower's memory stays small.
    let id_shaped =
        |id: &String| (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric());
    if follow.standings.as_ref().is_some_and(|id| !id_shaped(id)) {
        return Err(StatusCode::BAD_REQUEST);
    }
    let game = match follow.game {
        Some(id) => {
            // Strangers learn nothing, not even that the game exists.
            seating::my_seats(&services.db, &id, user.id)
                .await
                .map_err(|_| StatusCode::NOT_FOUND)?;
            let seats = seating::seats(&services.db, &id)
                .await
                .map_err(|e| failed(&e))?;
            Some((id, seat_users(&seats)))
        }
        None => None,
    };
    // Follow before announcing presence, so nothing between the two is missed: the game's other
    // players' presence, or (the games list) everyone the player shares a game with.
    let presence_of = match &game {
        Some((_, seats)) => seats
            .iter()
            .flatten()
            .copied()
            .filter(|u| *u != user.id)
            .collect(),
        None => presence::peers(&services.db, user.id)
            .await
            .map_err(|e| failed(&e))?,
    };
    let changes = services.db.live.follow(Interest {
        user: user.id,
        presence_of,
        lobby: follow.lobby,
        standings: follow.standings.clone(),
    });
    let mut presence = Presence::open(
        &services.db,
        user.id,
        game.as_ref().map(|(id, _)| id.clone()),
    );
    presence.opened().await.map_err(|e| failed(&e))?;
    let mut feed = Feed {
        presence,
        services,
        changes,
        user: user.id,
        game,
        lobby: follow.lobby,
        standings: follow.standings,
        ready: VecDeque::from([Event::default().retry(RETRY).comment("live")]),
        closing: shutdown().subscribe(),
        shown: String::new(),
    };
    feed.queue_presence().await;
    let events = stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

impl Feed {
    /// The next event to send; waits for one. `None` ends the stream (the server is stopping).
    async fn next(&mut self) -> Option<Event> {
        loop {
            if *self.closing.borrow() {
                self.presence.close_now().await;
                return None;
            }
            if let Some(event) = self.ready.pop_front() {
                return Some(event);
            }
            tokio::select! {
                _ = self.closing.changed() => {}
                change = self.changes.recv() => self.take(change).await,
            }
        }
    }

    async fn take(&mut self, change: Option<Change>) {
        match change {
            Some(Change::Game { id, users }) => {
                // Only the users named: a purchase reaches the trader's pages alone.
                let followed = users.contains(&self.user)
                    && self.game.as_ref().is_none_or(|(game, _)| *game == id);
                if !followed {
                    return;
                }
                // A seat that was open may have been taken: its player's presence counts now.
                if let Some((_, seats)) = self.game.as_mut().filter(|(_, s)| s.contains(&None)) {
                    if let Ok(now) = seating::seats(&self.services.db, &id).await {
                        *seats = seat_users(&now);
                        for user in seats.iter().flatten().filter(|u| **u != self.user) {
                            self.changes.follow_presence(*user);
                        }
                        self.queue_presence().await;
                    }
                }
                // The games list: a new game may bring a new opponent to show online.
                if self.game.is_none() {
                    for user in presence::peers(&self.services.db, self.user)
                        .await
                        .unwrap_or_default()
                    {
                        self.changes.follow_presence(user);
                    }
                }
                self.ready
                    .push_back(Event::default().event("game").data(id));
            }
            Some(Change::Chat { id, users }) if users.contains(&self.user) => {
                // The game's page asks for the chat alone; the games list, for its unread marks.
                let event = match &self.game {
                    Some((game, _)) if *game == id => Event::default().event("chat").data(id),
                    Some(_) => return,
                    None => Event::default().event("game").data(LIST),
                };
                self.ready.push_back(event);
            }
            // Only the presence this page follows reaches it.
            Some(Change::Presence { user }) if user != self.user => match &self.game {
                Some(_) => self.queue_presence().await,
                // The game list shows its opponents' presence: it asks again.
                None => self
                    .ready
                    .push_back(Event::default().event("game").data(LIST)),
            },
            Some(Change::Lobby) if self.lobby => {
                self.ready
                    .push_back(Event::default().event("game").data("lobby"));
            }
            Some(Change::Standings { id }) if self.standings.as_ref() == Some(&id) => {
                self.ready
                    .push_back(Event::default().event("standings").data(id));
            }
            // The library follows it (server/src/dictionary_sync.rs); running games keep their version.
            Some(
                Change::Presence { .. }
                | Change::Dictionaries
                | Change::Lobby
                | Change::Chat { .. }
                | Change::Standings { .. },
            ) => {}
            // Missed changes (this page fell behind, or the listener reconnected): ask again.
            Some(Change::Resync) => {
                let id = self
                    .game
                    .as_ref()
                    .map_or(LIST, |(id, _)| id.as_str())
                    .to_string();
                self.ready
                    .push_back(Event::default().event("game").data(id));
                if let Some(id) = &self.standings {
                    self.ready
                        .push_back(Event::default().event("standings").data(id.clone()));
                }
                self.queue_presence().await;
            }
            None => {
                // The bus is gone, so the instance is stopping: wait for the shutdown signal.
                let _ = self.closing.wait_for(|closing| *closing).await;
            }
        }
    }

    /// For a followed game: which seats are online, as JSON `[true, false, null]` (null for a
    /// bot or an open seat).
    async fn queue_presence(&mut self) {
        let Some((_, seats)) = &self.game else { return };
        let people: Vec<i64> = seats.iter().flatten().copied().collect();
        let here = presence::online_among(&self.services.db, &people)
            .await
            .unwrap_or_default();
        let online: Vec<Option<bool>> = seats
            .iter()
            .map(|seat| seat.map(|user| here.contains(&user)))
            .collect();
        let data = serde_json::to_string(&online).unwrap_or_default();
        if data != self.shown {
            self.shown = data.clone();
            self.ready
                .push_back(Event::default().event("presence").data(data));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client that leaves while its stream is still opening leaves no presence behind: the
    /// closing waits for the opening. (Before, a row written just as the request was dropped
    /// stayed "online" until it aged out.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stream_dropped_while_opening_leaves_no_presence() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("live.db").display());
        let db = store::connect(&url).await.unwrap();
        let user = store::accounts::create_guest(&db).await.unwrap().id;
        let mut changes = db.live.subscribe();
        for _ in 0..20 {
            drop(Presence::open(&db, user, None));
        }
        // An opening announces the player; once the grace is over, the last closing announces
        // them gone, and their row is gone with it.
        let mut told = 0;
        while told < 2 {
            let change = tokio::time::timeout(Duration::from_secs(10), changes.recv()).await;
            assert!(
                matches!(change, Ok(Ok(Change::Presence { .. }))),
                "{change:?}"
            );
            told += 1;
        }
        // Settled: nothing more comes.
        tokio::time::sleep(presence::GRACE + Duration::from_millis(500)).await;
        assert!(changes.try_recv().is_err());
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM presence")
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(rows, 0);
        assert!(!presence::online(&db, user).await.unwrap());
    }
}
