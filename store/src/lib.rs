//! What the server keeps, in SQLite or Postgres: one module per domain, as lila keeps one module
//! per concept. Server only; the server functions in `app` stand on it.
//!
//! From the bottom up (a module names only modules above it in this list, so none is a cycle):
//!
//! | module | what it keeps |
//! |---|---|
//! | [`bus`] | the live changes, each routed to the open pages it concerns |
//! | [`states`] | games' states as last committed, in memory |
//! | [`streams`] | the live streams open on this instance, counted by player |
//! | [`ended`] | the end of a game, as an event with reactions |
//! | [`moved`] | a committed move, as an event with reactions |
//! | [`rows`] | reading JSON columns and enums' words into their types |
//! | `migrations` | the schema's migrations, and the allowance for reworded ones |
//! | [`db`] | the pool, the write transactions, publishing a change |
//! | [`presence`] | who has a live page open |
//! | [`limits`] | sign-in backoff, new accounts and analyses per hour |
//! | [`accounts`] | users, passwords, languages, sessions |
//! | `queue` | the tables of work the background tasks share (mail, push) |
//! | [`deadlines`] | turns running out, and who was warned of which on each channel |
//! | [`push`] | devices' push subscriptions, the kinds and quiet hours, the queue of notices |
//! | [`library`] | the dictionaries: versions, the audit log, builds, word reports, tries |
//! | [`services`] | what the server functions are handed |
//! | [`games`] | a game's row and log; the commit; telling its players |
//! | [`error`] | [`StoreError`] |
//! | [`ranks`] | Elo per dictionary, leaderboards, the recomputation |
//! | [`results`] | each player's facts of a finished game |
//! | [`statistics`] | a player's totals per ruleset and dictionary, and where they stand |
//! | [`blocks`] | who blocked whom; the one check every way of meeting asks |
//! | [`moderation`] | reports of players, mutes, suspensions and their log |
//! | [`seating`] | creating and joining games: bots, invites, the lobby, rematches |
//! | [`clocks`] | deadlines, time-outs and the Blitz Ready lobby |
//! | [`vacations`] | days a player's Casual clocks are paused |
//! | [`daily`] | the Daily Challenge: puzzles, attempts, standings, streaks |
//! | [`leagues`] | seasons of Casual play: divisions, their games and standings, promotion |
//! | [`tournaments`] | rounds that begin together: Swiss or round robin pairings, standings |
//! | [`profiles`] | a player's public page |
//! | [`records`] | a finished game's log, for analysis and export |
//! | [`friends`] | follows, who of them is online, recent opponents, challenges waiting |
//! | [`chat`] | a game's chat, for its players only |
//! | [`mail`] | addresses, reset links, reminders and the outbox of mail |
//! | [`nudges`] | reminding a player who keeps their opponent waiting |
//! | [`closing`] | closing an account: its games stay, the rest goes |
//! | [`exports`] | a person's data, as they take it with them |
//!
//! A game's moves and its end are the events other domains react to: [`games`] hands a
//! [`ended::GameEnded`] to the reactions [`connect`] gives the database (ranks, results, the
//! Daily Challenge), inside the transaction that records the end, and a [`moved::MoveMade`] to
//! the move's reactions (the state in memory, the live pages, waking the bots, push notices)
//! once a move has committed. The commit itself calls none of them.

pub mod accounts;
pub mod blocks;
pub mod bus;
pub mod chat;
pub mod clocks;
pub mod closing;
pub mod daily;
pub mod db;
pub mod deadlines;
pub mod ended;
pub mod error;
pub mod exports;
pub mod friends;
pub mod games;
pub mod leagues;
pub mod library;
pub mod limits;
pub mod mail;
mod migrations;
pub mod moderation;
pub mod moved;
pub mod nudges;
pub mod presence;
pub mod profiles;
pub mod push;
mod queue;
pub mod ranks;
pub mod records;
pub mod results;
pub mod rows;
pub mod seating;
pub mod services;
pub mod states;
pub mod statistics;
pub mod streams;
pub mod tournaments;
pub mod vacations;

pub use error::StoreError;
pub use services::Services;

/// Opens the database at `url` (a SQLite file, created if missing, or `postgres://…`), applies
/// its migrations, and has a game's end rate it, record its results and close a Daily Challenge
/// attempt and count a league game.
pub async fn connect(url: &str) -> Result<db::Database, sqlx::Error> {
    let db = db::Database::connect(url, ON_GAME_END, ON_MOVE).await?;
    daily::make_secret(&db).await?;
    Ok(db)
}

/// What happens after a move is committed, in this order: the new state is kept in memory before
/// any page is told of it, so the pages that ask find it there.
const ON_MOVE: &[moved::Reaction<db::Database>] = &[
    games::remember,
    games::on_move,
    seating::wake_bots,
    push::on_move,
    tournaments::on_move,
];

/// What happens when a game ends, in this order.
const ON_GAME_END: &[ended::Reaction] = &[
    ranks::on_game_end,
    results::on_game_end,
    daily::on_game_end,
    leagues::on_game_end,
    tournaments::on_game_end,
];
