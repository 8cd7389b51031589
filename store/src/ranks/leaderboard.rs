//! Leaderboards: the best qualifying players of a dictionary, and any player's own place. Both
//! read the `ranks_board` index (dictionary, rank) and stay fast at 10,000 players.

use crate::db::{now_ms, Database};
use dictionaries::DictionaryId;

/// Who makes the leaderboard: enough rated games, and one recently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Qualifying {
    /// Rated games in the dictionary at least.
    pub min_games: u32,
    /// A rated game in the last this many days.
    pub active_days: u32,
}

impl Qualifying {
    /// At least `min_games` rated games (normally [`super::PROVISIONAL_GAMES`]) and one in the last 90
    /// days.
    pub fn with_games(min_games: u32) -> Qualifying {
        Qualifying {
            min_games,
            active_days: 90,
        }
    }

    fn since(&self) -> i64 {
        now_ms() - i64::from(self.active_days) * 86_400_000
    }
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// Place, from 1.
    pub place: u32,
    /// The player's name.
    pub name: String,
    /// Their rank.
    pub rank: i32,
    /// Their rated games in the dictionary.
    pub games: u32,
}

/// A player's line as read: name, rank and rated games.
#[derive(sqlx::FromRow)]
struct Line {
    name: String,
    rank: i32,
    games: i64,
}

impl Line {
    fn at(self, place: u32) -> Standing {
        Standing {
            place,
            name: self.name,
            rank: self.rank,
            games: u32::try_from(self.games).unwrap_or(0),
        }
    }
}

/// The top `limit` qualifying players of `dictionary`, best first (ties: the earlier account).
pub async fn leaderboard(
    db: &Database,
    dictionary: DictionaryId,
    qualifying: Qualifying,
    limit: u32,
) -> Result<Vec<Standing>, sqlx::Error> {
    let rows: Vec<Line> = sqlx::query_as(
        "SELECT u.name, r.rank, r.games FROM ranks r JOIN users u ON u.id = r.user_id
         WHERE r.dictionary = $1 AND r.games >= $2 AND r.updated_at >= $3
         ORDER BY r.rank DESC, r.user_id LIMIT $4",
    )
    .bind(dictionary.as_str())
    .bind(i64::from(qualifying.min_games))
    .bind(qualifying.since())
    .bind(i64::from(limit))
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(i, line)| line.at(i as u32 + 1))
        .collect())
}

/// `user`'s own line on the leaderboard of `dictionary`, if they qualify: the place counts the
/// qualifying players ranked above them.
pub async fn standing_of(
    db: &Database,
    user: i64,
    dictionary: DictionaryId,
    qualifying: Qualifying,
) -> Result<Option<Standing>, sqlx::Error> {
    let Some(line) = sqlx::query_as::<_, Line>(
        "SELECT u.name, r.rank, r.games FROM ranks r JOIN users u ON u.id = r.user_id
         WHERE r.user_id = $1 AND r.dictionary = $2 AND r.games >= $3 AND r.updated_at >= $4",
    )
    .bind(user)
    .bind(dictionary.as_str())
    .bind(i64::from(qualifying.min_games))
    .bind(qualifying.since())
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let above: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM ranks
         WHERE dictionary = $1 AND games >= $2 AND updated_at >= $3
           AND (rank > $4 OR (rank = $4 AND user_id < $5))",
    )
    .bind(dictionary.as_str())
    .bind(i64::from(qualifying.min_games))
    .bind(qualifying.since())
    .bind(i64::from(line.rank))
    .bind(user)
    .fetch_one(&db.pool)
    .await?;
    Ok(Some(line.at(above as u32 + 1)))
}
