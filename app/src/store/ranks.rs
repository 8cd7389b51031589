//! Ranks: Elo per dictionary (RULES.md §2, `rules::rank`). A standard two-player game between
//! two people (a friend's invite or the lobby) is rated in its dictionary when it ends, inside the
//! transaction that records the end, however it ends (the last move, a resignation, a time-out from
//! any instance's clock, a pass limit, a Blitz forfeit): the game can end only once, and the
//! history's primary key refuses a second rating besides. Pass-and-play and bot games are not
//! rated.

use dictionaries::{DictionaryId, DictionaryRef};
use rules::{
    game::Status,
    rank::{updated_rank, GameResult, STARTING_RANK},
    GameState,
};
use sqlx::{pool::PoolConnection, Any, Row};

use super::db::{now_ms, Backend, Database};

/// A player's rank in one dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rank {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The rank.
    pub rank: i32,
    /// Rated games finished in it.
    pub games: u32,
}

/// Rated games before a rank stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 10;

impl Rank {
    /// Whether it rests on fewer than [`PROVISIONAL_GAMES`] games (shown as `1240?`).
    pub fn provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }
}

/// Whether a game with this opponent kind is rated.
pub fn is_rated(opponent: &str) -> bool {
    matches!(opponent, "invite" | "lobby")
}

/// Rates game `game_id`, which `state` has just ended, on `conn` inside the transaction that
/// records the end. Does nothing for an unrated game, or one not between two different people.
pub async fn rate_ended(
    backend: Backend,
    conn: &mut PoolConnection<Any>,
    game_id: &str,
    opponent: &str,
    state: &GameState,
) -> Result<(), sqlx::Error> {
    let Status::Over(outcome) = state.status() else {
        return Ok(());
    };
    if !is_rated(opponent) {
        return Ok(());
    }
    let Some(dictionary) = DictionaryRef::parse(&state.config().dictionary).map(|at| at.id) else {
        return Ok(());
    };
    let seats: Vec<(i64, Option<i64>)> =
        sqlx::query("SELECT seat, user_id FROM game_seats WHERE game_id = $1 ORDER BY seat")
            .bind(game_id)
            .fetch_all(&mut **conn)
            .await?
            .iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect();
    let [(0, Some(first)), (1, Some(second))] = seats[..] else {
        return Ok(());
    };
    if first == second {
        return Ok(());
    }
    let result = |seat: u8| match (outcome.winners.contains(&seat), outcome.winners.len()) {
        (true, 1) => GameResult::Win,
        (true, _) => GameResult::Draw,
        (false, _) => GameResult::Loss,
    };
    // Both players' rows exist and, on Postgres, are locked (in user order, so two games ending
    // at once never wait on each other in a circle) until this transaction ends: two games of one
    // player ending together are rated one after the other, not both from the same rank.
    let now = now_ms();
    for user in [first.min(second), first.max(second)] {
        sqlx::query(
            "INSERT INTO ranks (user_id, dictionary, rank, games, updated_at)
             VALUES ($1, $2, $3, 0, $4) ON CONFLICT (user_id, dictionary) DO NOTHING",
        )
        .bind(user)
        .bind(dictionary.as_str())
        .bind(i64::from(STARTING_RANK))
        .bind(now)
        .execute(&mut **conn)
        .await?;
    }
    if backend == Backend::Postgres {
        sqlx::query(
            "SELECT user_id FROM ranks WHERE dictionary = $1 AND user_id IN ($2, $3)
             ORDER BY user_id FOR UPDATE",
        )
        .bind(dictionary.as_str())
        .bind(first)
        .bind(second)
        .fetch_all(&mut **conn)
        .await?;
    }
    let mut before = Vec::new();
    for user in [first, second] {
        before.push(current(conn, user, dictionary).await?);
    }
    for (seat, (user, opponent)) in [(first, second), (second, first)].into_iter().enumerate() {
        let (rank, games) = before[seat];
        let (opponent_rank, _) = before[1 - seat];
        let result = result(seat as u8);
        let after = updated_rank(rank, opponent_rank, result, games);
        sqlx::query(
            "INSERT INTO rank_history
                 (game_id, user_id, dictionary, opponent, result, rank_before, rank_after, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(game_id)
        .bind(user)
        .bind(dictionary.as_str())
        .bind(opponent)
        .bind(result_name(result))
        .bind(i64::from(rank))
        .bind(i64::from(after))
        .bind(now)
        .execute(&mut **conn)
        .await?;
        sqlx::query(
            "UPDATE ranks SET rank = $3, games = games + 1, updated_at = $4
             WHERE user_id = $1 AND dictionary = $2",
        )
        .bind(user)
        .bind(dictionary.as_str())
        .bind(i64::from(after))
        .bind(now)
        .execute(&mut **conn)
        .await?;
    }
    Ok(())
}

fn result_name(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

/// A player's rank and rated games in `dictionary` now (the start for a first game).
async fn current(
    conn: &mut PoolConnection<Any>,
    user: i64,
    dictionary: DictionaryId,
) -> Result<(i32, u32), sqlx::Error> {
    let row = sqlx::query("SELECT rank, games FROM ranks WHERE user_id = $1 AND dictionary = $2")
        .bind(user)
        .bind(dictionary.as_str())
        .fetch_optional(&mut **conn)
        .await?;
    Ok(row.map_or((STARTING_RANK, 0), |row| {
        (
            i32::try_from(row.get::<i64, _>(0)).unwrap_or(STARTING_RANK),
            u32::try_from(row.get::<i64, _>(1)).unwrap_or(0),
        )
    }))
}

/// A player's ranks, one per dictionary they have finished a rated game in.
pub async fn of(db: &Database, user: i64) -> Result<Vec<Rank>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT dictionary, rank, games FROM ranks WHERE user_id = $1 AND games > 0
         ORDER BY dictionary",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            Some(Rank {
                dictionary: DictionaryId::parse(&row.get::<String, _>(0))?,
                rank: i32::try_from(row.get::<i64, _>(1)).ok()?,
                games: u32::try_from(row.get::<i64, _>(2)).ok()?,
            })
        })
        .collect())
}

/// One rated game of a player, as the history keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rated {
    /// The game.
    pub game_id: String,
    /// The opponent's user id.
    pub opponent: i64,
    /// Win, draw or loss, as stored.
    pub result: String,
    /// The rank before the game.
    pub before: i32,
    /// The rank after it.
    pub after: i32,
}

/// A player's rated games in `dictionary`, oldest first.
pub async fn history(
    db: &Database,
    user: i64,
    dictionary: DictionaryId,
) -> Result<Vec<Rated>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT game_id, opponent, result, rank_before, rank_after FROM rank_history
         WHERE user_id = $1 AND dictionary = $2 ORDER BY at, game_id",
    )
    .bind(user)
    .bind(dictionary.as_str())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|row| Rated {
            game_id: row.get(0),
            opponent: row.get(1),
            result: row.get(2),
            before: i32::try_from(row.get::<i64, _>(3)).unwrap_or(STARTING_RANK),
            after: i32::try_from(row.get::<i64, _>(4)).unwrap_or(STARTING_RANK),
        })
        .collect())
}
