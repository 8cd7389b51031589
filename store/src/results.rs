//! Game results: the public facts of a finished game for each person who played it (score,
//! result, bingos, best play), written in the transaction that records the end. Profiles are
//! made of these rows, so a profile never replays a game and never sees anything a spectator
//! of the finished game could not.

use rules::{
    game::{EndReason, Status, TurnEvent},
    play::Bonus,
    GameState, Seat, Variant,
};
use sqlx::AnyConnection;

use crate::{
    ended::{result_of, EndedSeat, GameEnded, Reacting},
    games, statistics, Services, StoreError,
};

/// The stable name of a ruleset, as results store it (`alfakraft`, `classic`, …).
pub fn ruleset_key(variant: &Variant) -> &'static str {
    match variant {
        Variant::AlfaKraft { .. } => "alfakraft",
        Variant::Classic => "classic",
        Variant::Feud { .. } => "feud",
        Variant::Alfapet { .. } => "alfapet",
        Variant::LongWords { .. } => "longwords",
        Variant::Daily { .. } => "daily",
    }
}

/// A ruleset's name for a stored key.
pub fn ruleset_title(key: &str) -> &'static str {
    match key {
        "alfakraft" => "Alfa Kraft",
        "classic" => "Classic",
        "feud" => "Feud",
        "alfapet" => "Alfapet",
        "longwords" => "Long words",
        "daily" => "Daily Challenge",
        _ => "Other",
    }
}

/// One seat's facts from a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// `win`, `draw` or `loss`.
    pub result: &'static str,
    /// Final score.
    pub score: i32,
    /// The best of the other seats' final scores.
    pub opponent_score: i32,
    /// Plays that used a whole hand.
    pub bingos: i32,
    /// The best play that stood: its main word, points and index in the history.
    pub best: Option<(String, i32, usize)>,
    /// Turns spent exchanging tiles.
    pub exchanges: i32,
    /// Lost on time: a deadline passed, or Blitz strikes for sitting idle.
    pub timed_out: bool,
}

/// `seat`'s facts from `state`, or `None` while the game goes on.
pub fn facts(state: &GameState, seat: Seat) -> Option<Facts> {
    let Status::Over(outcome) = state.status() else {
        return None;
    };
    let score = outcome.final_scores.get(usize::from(seat)).copied()?;
    let opponent_score = outcome
        .final_scores
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != usize::from(seat))
        .map(|(_, s)| *s)
        .max()
        .unwrap_or(0);
    let history = state.history();
    let mut bingos = 0;
    let mut exchanges = 0;
    let mut best: Option<(String, i32, usize)> = None;
    for (index, turn) in history.iter().enumerate() {
        if turn.seat == seat && matches!(turn.event, TurnEvent::Exchange { .. }) {
            exchanges += 1;
        }
        let TurnEvent::Play {
            words,
            bonuses,
            total,
            ..
        } = &turn.event
        else {
            continue;
        };
        // A play withdrawn after a challenge never counted.
        let withdrawn = matches!(
            history.get(index + 1).map(|t| &t.event),
            Some(TurnEvent::Challenge {
                withdrawn: true,
                ..
            })
        );
        if turn.seat != seat || withdrawn {
            continue;
        }
        bingos += i32::from(bonuses.iter().any(|b| matches!(b, Bonus::Bingo(_))));
        if let Some(word) = rules::play::WordScore::main(words) {
            if best.as_ref().is_none_or(|(_, points, _)| total > points) {
                best = Some((word, *total, index));
            }
        }
    }
    Some(Facts {
        result: result_of(&outcome.winners, seat),
        score,
        opponent_score,
        bingos,
        best,
        exchanges,
        timed_out: matches!(outcome.reason, EndReason::TimedOut(s) | EndReason::Strikes(s) if s == seat),
    })
}

/// Records the results of the game that just ended, inside the transaction that records the end
/// (a [`crate::ended::Reaction`]).
pub fn on_game_end<'a>(conn: &'a mut AnyConnection, ended: &'a GameEnded<'a>) -> Reacting<'a> {
    Box::pin(record(
        conn,
        ended.game_id,
        ended.seats,
        ended.state,
        ended.at,
    ))
}

/// Records the results of game `game_id` with these `seats`, which `state` ended at `ended_at`,
/// for each person seated (on `conn`, inside the transaction that records the end), and adds
/// them to the player's statistics. Pass-and-play games, one person in every seat, record
/// nothing; a game already recorded is left as it is, and counted once.
pub async fn record(
    conn: &mut AnyConnection,
    game_id: &str,
    seats: &[EndedSeat],
    state: &GameState,
    ended_at: i64,
) -> Result<(), sqlx::Error> {
    let people: std::collections::BTreeSet<i64> = seats.iter().filter_map(|s| s.user).collect();
    if people.len() == 1 && seats.iter().all(|s| s.user.is_some()) {
        return Ok(());
    }
    let config = state.config();
    let dictionary = dictionaries::DictionaryRef::parse(&config.dictionary).map_or_else(
        || config.dictionary.clone(),
        |at| at.id.as_str().to_string(),
    );
    for seated in seats {
        let Some(user) = seated.user else { continue };
        let Some(facts) = seated.number().and_then(|s| facts(state, s)) else {
            continue;
        };
        // Two-player games name the other seat; with more, the first other person.
        let other = seats.iter().find(|s| s.seat != seated.seat);
        let (best_word, best_score, best_turn) = match &facts.best {
            Some((word, score, turn)) => (
                Some(word.clone()),
                Some(i64::from(*score)),
                Some(*turn as i64),
            ),
            None => (None, None, None),
        };
        let ruleset = ruleset_key(&config.variant);
        let inserted = sqlx::query(
            "INSERT INTO game_results (game_id, user_id, seat, opponent_user, opponent_bot, ruleset,
                 dictionary, result, score, opponent_score, bingos, best_word, best_score,
                 best_turn, ended_at, exchanges, timed_out)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
             ON CONFLICT (game_id, user_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(user)
        .bind(seated.seat)
        .bind(other.and_then(|o| o.user))
        .bind(other.and_then(|o| o.bot.clone()))
        .bind(ruleset)
        .bind(&dictionary)
        .bind(facts.result)
        .bind(i64::from(facts.score))
        .bind(i64::from(facts.opponent_score))
        .bind(i64::from(facts.bingos))
        .bind(best_word)
        .bind(best_score)
        .bind(best_turn)
        .bind(ended_at)
        .bind(i64::from(facts.exchanges))
        .bind(i64::from(facts.timed_out))
        .execute(&mut *conn)
        .await?;
        if inserted.rows_affected() == 1 {
            let game = statistics::Game {
                won: facts.result == "win",
                drawn: facts.result == "draw",
                score: facts.score,
                opponent_score: facts.opponent_score,
                bingos: facts.bingos,
                exchanges: facts.exchanges,
                timed_out: facts.timed_out,
                best_play: facts.best.as_ref().map_or(0, |(_, points, _)| *points),
            };
            statistics::add(&mut *conn, user, ruleset, &dictionary, &game).await?;
        }
    }
    Ok(())
}

/// Records the results of every finished game between people or against a bot that has none:
/// the games that ended before results were kept. Each is replayed once; afterwards the query
/// finds nothing. Returns how many games were recorded.
pub async fn backfill(services: &Services) -> Result<usize, StoreError> {
    let db = &services.db;
    let missing: Vec<Missing> = sqlx::query_as(
        "SELECT g.id, g.updated_at FROM games g
         WHERE g.status = 'over' AND g.opponent IN ('bot', 'invite', 'lobby', 'rematch')
           AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id)
           AND NOT EXISTS (SELECT 1 FROM game_seats s JOIN users u ON u.id = s.user_id
                           WHERE s.game_id = g.id AND u.closed_at IS NOT NULL)",
    )
    .fetch_all(&db.pool)
    .await?;
    for Missing { id, updated_at } in &missing {
        let config = games::row(db, id).await?.config;
        let lexicon = services.game_lexicon(&config).await?;
        let state = games::load(db, id, &*lexicon).await?;
        let mut conn = db.pool.acquire().await?;
        let seated = games::ended_seats(&mut conn, id).await?;
        record(&mut conn, id, &seated, &state, *updated_at).await?;
    }
    Ok(missing.len())
}

/// A finished game without results, and when it ended.
#[derive(sqlx::FromRow)]
struct Missing {
    id: String,
    updated_at: i64,
}

/// Forgets `user`'s facts of finished games (their opponents keep theirs) (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(conn, user, &["DELETE FROM game_results WHERE user_id = $1"]).await
}
