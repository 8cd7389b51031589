//! A committed move, as an event. Once a move's transaction has committed, the commit hands a
//! [`MoveMade`] to each reaction the database was opened with ([`crate::connect`]: the state in
//! memory, the live pages, waking the bots, push notices), in order, awaiting each. A reaction
//! cannot fail the move: whatever fails in it is its own to log, and the move stands; one with
//! slow work (a notice to queue) starts a task of its own. `games` announces the move and knows
//! none of its listeners, so none of them is a cycle back into it.

use std::{future::Future, pin::Pin};

use domain::OpponentKind;
use rules::{Action, GameState};

use crate::bus::Audience;

/// A move that has just been committed.
#[derive(Debug)]
pub struct MoveMade<'a> {
    /// The game's id.
    pub game_id: &'a str,
    /// The action committed.
    pub action: &'a Action,
    /// The game after it.
    pub state: &'a GameState,
    /// The game's summary after it, as the commit wrote it.
    pub summary: &'a domain::GameSummary,
    /// Who the game is against, when the committer read its row before the move.
    pub opponent: Option<OpponentKind>,
    /// The seated people and whether it is a lobby game, when the committer read them before the
    /// move; `None`, and a reaction that needs them reads them.
    pub audience: Option<&'a Audience>,
    /// Whether the players' open pages were told with the move's own write (Postgres sends the
    /// change inside the statement).
    pub told: bool,
}

impl MoveMade<'_> {
    /// Whether the game has one person in it (pass-and-play, the Daily Challenge), so no one
    /// else is told, when the committer knows; `false` when it does not.
    pub fn alone(&self) -> bool {
        matches!(
            self.opponent,
            Some(OpponentKind::Local | OpponentKind::Daily)
        )
    }

    /// Whether the move is a purchase or a sale: the trader's business until the rules reveal
    /// the coins.
    pub fn is_trade(&self) -> bool {
        matches!(self.action, Action::Buy { .. } | Action::Sell { .. })
    }
}

/// A reaction's work, awaited by the commit before the next reaction's.
pub type Reacting<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Something that happens after a move is committed, given the database it was committed to
/// (`D` is [`crate::db::Database`], which names this module, not the other way round).
pub type Reaction<D> = for<'a> fn(&'a D, &'a MoveMade<'a>) -> Reacting<'a>;
