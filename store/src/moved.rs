//! A committed move, as an event. Once a move's transaction has committed, the commit hands a
//! [`MoveMade`] to each reaction the database was opened with ([`crate::connect`]: push
//! notices today), in order, on the committing task. A reaction starts its own work and
//! returns at once; whatever fails in it is its own to log, and the move stands. `games`
//! announces the move and knows none of its listeners, so none of them is a cycle back into
//! it.

use rules::{Action, GameState};

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
    /// Whether the game has one person in it (pass-and-play, the Daily Challenge), so no one else
    /// is told, when the committer knows; `false` when it does not.
    pub alone: bool,
}

/// Something that happens after a move is committed, given the database it was committed to
/// (`D` is [`crate::db::Database`], which names this module, not the other way round).
pub type Reaction<D> = fn(&D, &MoveMade<'_>);
