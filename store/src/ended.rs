//! The end of a game, as an event. The transaction that records a game's last action hands a
//! [`GameEnded`] to each reaction the database was opened with ([`crate::connect`]: the ranks,
//! the results and the Daily Challenge), in order and inside that same transaction: a game is
//! rated and recorded once, or not at all. `games` announces the end and knows none of its
//! listeners, so none of them is a cycle back into it.

use std::{future::Future, pin::Pin};

use domain::OpponentKind;
use rules::{GameState, Seat};
use sqlx::AnyConnection;

/// A game that has just ended.
#[derive(Debug)]
pub struct GameEnded<'a> {
    /// Its id.
    pub game_id: &'a str,
    /// The state its last action left, over.
    pub state: &'a GameState,
    /// Who sat where, in seat order.
    pub seats: &'a [EndedSeat],
    /// Whether its end moves ranks ([`crate::games::is_rated`]).
    pub rated: bool,
    /// Who it was against.
    pub opponent: OpponentKind,
    /// When it ended, unix ms.
    pub at: i64,
}

/// A seat of an ended game.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EndedSeat {
    /// Its number.
    pub seat: i64,
    /// The person in it.
    #[sqlx(rename = "user_id")]
    pub user: Option<i64>,
    /// The bot in it: its level's name.
    pub bot: Option<String>,
}

impl EndedSeat {
    /// The seat's number as the rules count seats.
    pub fn number(&self) -> Option<Seat> {
        Seat::try_from(self.seat).ok()
    }
}

/// What a reaction's work returns: done, inside the caller's transaction, or the database
/// failed (and the whole end is rolled back).
pub type Reacting<'a> = Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'a>>;

/// Something that happens when a game ends, on the connection that records the end.
pub type Reaction = for<'a> fn(&'a mut AnyConnection, &'a GameEnded<'a>) -> Reacting<'a>;

/// Win, draw or loss for `seat` in a game with these winners, as results and ranks store it
/// ([`domain::GameResult::of`]).
pub fn result_of(winners: &[Seat], seat: Seat) -> &'static str {
    domain::GameResult::of(winners, seat).as_str()
}
