//! Ranks: Elo per dictionary (`rules::rank`). A standard two-player game between two people (a
//! friend's invite, the lobby or a rematch) is rated in its dictionary when it ends, inside the
//! transaction that records the end ([`on_game_end`]), however it ends (the last move, a
//! resignation, a time-out from any instance's clock, a pass limit, a Blitz forfeit): the game can
//! end only once, and the history's primary key refuses a second rating besides. Pass-and-play
//! and bot games are not rated.

use dictionaries::{DictionaryId, DictionaryRef};
use rules::{
    game::Status,
    rank::{updated_rank, GameResult, STARTING_RANK},
};
use sqlx::AnyConnection;

mod history;
mod leaderboard;
mod recompute;

use domain::ShownRank;
pub use domain::PROVISIONAL_GAMES;
pub use leaderboard::{leaderboard, standing_of, Qualifying, Standing};
pub use recompute::{recompute, Recomputed};

use self::history::HistoryRow;
use crate::{
    db::{now_ms, placeholders, Backend, Database},
    ended::{result_of, GameEnded, Reacting},
};

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

impl Rank {
    /// As shown beside the player's name.
    pub fn shown(&self) -> ShownRank {
        ShownRank::new(self.rank, self.games)
    }
}

/// Rates the game that just ended, inside the transaction that records the end (a
/// [`crate::ended::Reaction`]).
pub fn on_game_end<'a>(conn: &'a mut AnyConnection, ended: &'a GameEnded<'a>) -> Reacting<'a> {
    Box::pin(rate_ended(conn, ended))
}

/// Rates `ended` on `conn`. Does nothing for an unrated game, or one not between two different
/// people.
async fn rate_ended(conn: &mut AnyConnection, ended: &GameEnded<'_>) -> Result<(), sqlx::Error> {
    let Status::Over(outcome) = ended.state.status() else {
        return Ok(());
    };
    if !ended.rated {
        return Ok(());
    }
    let Some(dictionary) = DictionaryRef::parse(&ended.state.config().dictionary).map(|at| at.id)
    else {
        return Ok(());
    };
    let [first, second] = ended.seats else {
        return Ok(());
    };
    let (0, Some(first), 1, Some(second)) = (first.seat, first.user, second.seat, second.user)
    else {
        return Ok(());
    };
    if first == second {
        return Ok(());
    }
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
        .execute(&mut *conn)
        .await?;
    }
    if Backend::of(conn) == Backend::Postgres {
        sqlx::query(
            "SELECT user_id FROM ranks WHERE dictionary = $1 AND user_id IN ($2, $3)
             ORDER BY user_id FOR UPDATE",
        )
        .bind(dictionary.as_str())
        .bind(first)
        .bind(second)
        .fetch_all(&mut *conn)
        .await?;
    }
    let mut before = Vec::new();
    for user in [first, second] {
        before.push(current(conn, user, dictionary).await?);
    }
    for (seat, (user, opponent)) in [(first, second), (second, first)].into_iter().enumerate() {
        let (rank, games) = before[seat];
        let (opponent_rank, _) = before[1 - seat];
        let result = result_of(&outcome.winners, seat as u8);
        let after = updated_rank(rank, opponent_rank, game_result(result), games);
        let row = HistoryRow {
            game_id: ended.game_id,
            user,
            dictionary,
            opponent,
            result,
            before: rank,
            after,
            at: now,
            games_before: games,
        };
        row.insert(conn).await?;
        sqlx::query(
            "UPDATE ranks SET rank = $3, games = games + 1, updated_at = $4
             WHERE user_id = $1 AND dictionary = $2",
        )
        .bind(user)
        .bind(dictionary.as_str())
        .bind(i64::from(after))
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The rules' result for a stored one.
fn game_result(result: &str) -> GameResult {
    match result {
        "win" => GameResult::Win,
        "draw" => GameResult::Draw,
        _ => GameResult::Loss,
    }
}

/// A rank as stored: the Elo and the rated games it rests on.
#[derive(sqlx::FromRow)]
struct Stored {
    rank: i32,
    games: i64,
}

impl Stored {
    fn games(&self) -> u32 {
        u32::try_from(self.games).unwrap_or(0)
    }
}

/// A player's rank and rated games in `dictionary` now (the start for a first game).
async fn current(
    conn: &mut AnyConnection,
    user: i64,
    dictionary: DictionaryId,
) -> Result<(i32, u32), sqlx::Error> {
    let stored: Option<Stored> =
        sqlx::query_as("SELECT rank, games FROM ranks WHERE user_id = $1 AND dictionary = $2")
            .bind(user)
            .bind(dictionary.as_str())
            .fetch_optional(&mut *conn)
            .await?;
    Ok(stored.map_or((STARTING_RANK, 0), |s| (s.rank, s.games())))
}

/// A rank of a player, with its dictionary.
#[derive(sqlx::FromRow)]
struct RankRow {
    user_id: i64,
    dictionary: String,
    #[sqlx(flatten)]
    stored: Stored,
}

/// A player's ranks, one per dictionary they have finished a rated game in.
pub async fn of(db: &Database, user: i64) -> Result<Vec<Rank>, sqlx::Error> {
    let rows: Vec<RankRow> = sqlx::query_as(
        "SELECT user_id, dictionary, rank, games FROM ranks WHERE user_id = $1 AND games > 0
         ORDER BY dictionary",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            Some(Rank {
                dictionary: DictionaryId::parse(&row.dictionary)?,
                rank: row.stored.rank,
                games: row.stored.games(),
            })
        })
        .collect())
}

/// One rated game of a player, as the history keeps it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Rated {
    /// The game.
    pub game_id: String,
    /// The opponent's user id.
    pub opponent: i64,
    /// Win, draw or loss, as stored.
    pub result: String,
    /// The rank before the game.
    #[sqlx(rename = "rank_before")]
    pub before: i32,
    /// The rank after it.
    #[sqlx(rename = "rank_after")]
    pub after: i32,
}

/// A player's rated games in `dictionary`, oldest first.
pub async fn history(
    db: &Database,
    user: i64,
    dictionary: DictionaryId,
) -> Result<Vec<Rated>, sqlx::Error> {
    sqlx::query_as(
        "SELECT game_id, opponent, result, rank_before, rank_after FROM rank_history
         WHERE user_id = $1 AND dictionary = $2 ORDER BY at, game_id",
    )
    .bind(user)
    .bind(dictionary.as_str())
    .fetch_all(&db.pool)
    .await
}

/// The ranks of several players in every dictionary they have one in, to show beside their
/// names; anyone missing shows the start, provisional.
#[derive(Debug, Default)]
pub struct Ranks(std::collections::HashMap<(i64, DictionaryId), ShownRank>);

impl Ranks {
    /// `user`'s rank in `dictionary`.
    pub fn of(&self, user: i64, dictionary: DictionaryId) -> ShownRank {
        self.0
            .get(&(user, dictionary))
            .copied()
            .unwrap_or(ShownRank::new(STARTING_RANK, 0))
    }

    /// Adds a stored rank: `user`'s `rank` after `games` games in `dictionary` (an id no longer
    /// known is passed over).
    pub(crate) fn add(&mut self, user: i64, dictionary: &str, rank: i32, games: i64) {
        let Some(dictionary) = DictionaryId::parse(dictionary) else {
            return;
        };
        let games = u32::try_from(games).unwrap_or(0);
        self.0
            .insert((user, dictionary), ShownRank::new(rank, games));
    }
}

/// The ranks of `users` (in one query).
pub async fn of_players(db: &Database, users: &[i64]) -> Result<Ranks, sqlx::Error> {
    let mut ranks = Ranks::default();
    if users.is_empty() {
        return Ok(ranks);
    }
    let sql = format!(
        "SELECT user_id, dictionary, rank, games FROM ranks WHERE user_id IN ({})",
        placeholders(1, users.len())
    );
    let mut query = sqlx::query_as::<_, RankRow>(&sql);
    for user in users {
        query = query.bind(*user);
    }
    for row in query.fetch_all(&db.pool).await? {
        ranks.add(
            row.user_id,
            &row.dictionary,
            row.stored.rank,
            row.stored.games,
        );
    }
    Ok(ranks)
}

/// A player's change of rank in one rated game.
#[derive(sqlx::FromRow)]
struct Change {
    user_id: i64,
    rank_before: i32,
    rank_after: i32,
}

/// What a rated game did to each player's rank: user id → (before, after). Empty for a game
/// not (yet) rated.
pub async fn changes(
    db: &Database,
    game_id: &str,
) -> Result<std::collections::HashMap<i64, (i32, i32)>, sqlx::Error> {
    let rows: Vec<Change> = sqlx::query_as(
        "SELECT user_id, rank_before, rank_after FROM rank_history WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|c| (c.user_id, (c.rank_before, c.rank_after)))
        .collect())
}

/// Forgets `user`'s ranks and their history (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &[
            "DELETE FROM ranks WHERE user_id = $1",
            "DELETE FROM rank_history WHERE user_id = $1",
        ],
    )
    .await
}

/// `user`'s ranks, each with its history, as they export them (see [`crate::exports`]).
pub(crate) async fn export(db: &Database, user: i64) -> Result<serde_json::Value, sqlx::Error> {
    let mut ranks = Vec::new();
    for rank in of(db, user).await? {
        let history = history(db, user, rank.dictionary).await?;
        ranks.push(serde_json::json!({
            "dictionary": rank.dictionary.as_str(),
            "rank": rank.rank,
            "games": rank.games,
            "history": history.iter().map(|h| serde_json::json!({
                "game_id": h.game_id, "result": h.result,
                "rank_before": h.before, "rank_after": h.after,
            })).collect::<Vec<_>>(),
        }));
    }
    Ok(serde_json::Value::Array(ranks))
}
