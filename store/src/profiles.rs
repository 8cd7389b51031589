//! Profiles: a player's public record, read from the results and rank history of finished games
//! (never from a game's log, so nothing hidden can leak and a profile costs a few indexed
//! queries however many games the player has).

use dictionaries::DictionaryId;
use domain::{HeadToHead, ShownRank, Streak};

use crate::{daily, db::Database, ranks, StoreError};

/// A rank in one dictionary with its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankLine {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The rank now.
    pub rank: ShownRank,
    /// Rated games.
    pub games: u32,
    /// The rank after each rated game, oldest first.
    pub points: Vec<i32>,
}

/// Counts over every finished game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Totals {
    /// Finished games.
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
    /// The highest final score.
    pub highest: i32,
    /// All final scores added up (for the average).
    pub points: i64,
    /// Plays that used a whole hand.
    pub bingos: u32,
}

/// Games and wins in one ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesetRecord {
    /// The stored ruleset key (`alfakraft`, …).
    pub ruleset: String,
    /// Finished games.
    pub played: u32,
    pub won: u32,
}

/// The best play a player ever made.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BestPlay {
    /// Its main word.
    #[sqlx(rename = "best_word")]
    pub word: String,
    /// Its points.
    #[sqlx(rename = "best_score")]
    pub score: i32,
    /// The game.
    pub game_id: String,
    /// Its index in the game's history.
    #[sqlx(rename = "best_turn", try_from = "i64")]
    pub turn: u32,
}

/// One finished game as the profile lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentGame {
    /// The game.
    pub game_id: String,
    /// The other person's name, or the bot's level.
    pub opponent: Opponent,
    /// Ruleset key.
    pub ruleset: String,
    pub dictionary: String,
    /// `win`, `draw` or `loss`.
    pub result: String,
    /// Final score.
    pub score: i32,
    /// The opponent's final score.
    pub opponent_score: i32,
    /// The rank change of a rated game.
    pub rank_change: Option<i32>,
    /// When it ended, unix ms.
    pub ended_at: i64,
}

/// Who a game was against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opponent {
    /// A person.
    Player(String),
    /// A bot level.
    Bot(String),
    /// A person who closed their account.
    Deleted,
    /// Nobody known.
    Unknown,
}

/// A player's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The user id.
    pub user_id: i64,
    pub name: String,
    /// A guest account.
    pub guest: bool,
    /// When the account was made, unix ms.
    pub joined: i64,
    /// Ranks by dictionary.
    pub ranks: Vec<RankLine>,
    pub totals: Totals,
    /// By ruleset.
    pub rulesets: Vec<RulesetRecord>,
    /// The best play.
    pub best: Option<BestPlay>,
    /// The last 20 finished games, newest first.
    pub recent: Vec<RecentGame>,
    /// Days in a row with a finished Daily Challenge.
    pub daily_streak: Streak,
}

/// The counts of [`Totals`] as SQL gives them: sums over no rows are NULL. (Postgres sums
/// integers into a `NUMERIC`, hence the queries' casts to `BIGINT`.)
#[derive(sqlx::FromRow)]
struct TotalsRow {
    played: i64,
    won: Option<i64>,
    lost: Option<i64>,
    drawn: Option<i64>,
    highest: Option<i64>,
    points: Option<i64>,
    bingos: Option<i64>,
}

impl From<TotalsRow> for Totals {
    fn from(row: TotalsRow) -> Totals {
        let count = |n: Option<i64>| u32::try_from(n.unwrap_or(0)).unwrap_or(0);
        Totals {
            played: count(Some(row.played)),
            won: count(row.won),
            lost: count(row.lost),
            drawn: count(row.drawn),
            highest: i32::try_from(row.highest.unwrap_or(0)).unwrap_or(0),
            points: row.points.unwrap_or(0),
            bingos: count(row.bingos),
        }
    }
}

/// A ruleset's line as SQL gives it.
#[derive(sqlx::FromRow)]
struct RulesetRow {
    ruleset: String,
    played: i64,
    won: Option<i64>,
}

/// A user as the profile names them.
#[derive(sqlx::FromRow)]
struct Person {
    id: i64,
    name: String,
    guest: i64,
    created_at: i64,
}

async fn person(db: &Database, name: &str) -> Result<Option<Person>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, guest, created_at FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&db.pool)
        .await
}

/// The id of the player whose profile is at `name`, and the name as stored.
pub async fn player(db: &Database, name: &str) -> Result<Option<(i64, String)>, StoreError> {
    Ok(person(db, name).await?.map(|p| (p.id, p.name)))
}

/// The profile of the player called `name`, if there is one.
pub async fn of(db: &Database, name: &str) -> Result<Option<Profile>, StoreError> {
    let Some(person) = person(db, name).await? else {
        return Ok(None);
    };
    let user_id = person.id;
    // The statistics' totals, one row per ruleset and dictionary, rather than every result.
    let totals: TotalsRow = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(games), 0) AS BIGINT) AS played,
                CAST(SUM(wins) AS BIGINT) AS won,
                CAST(SUM(games - wins - draws) AS BIGINT) AS lost,
                CAST(SUM(draws) AS BIGINT) AS drawn,
                CAST(MAX(best_game) AS BIGINT) AS highest, CAST(SUM(points) AS BIGINT) AS points,
                CAST(SUM(bingos) AS BIGINT) AS bingos
         FROM player_statistics WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    let rulesets: Vec<RulesetRow> = sqlx::query_as(
        "SELECT ruleset, CAST(SUM(games) AS BIGINT) AS played, CAST(SUM(wins) AS BIGINT) AS won
         FROM player_statistics WHERE user_id = $1 GROUP BY ruleset ORDER BY ruleset",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    let best = sqlx::query_as(
        "SELECT best_word, best_score, game_id, best_turn FROM game_results
         WHERE user_id = $1 AND best_score IS NOT NULL ORDER BY best_score DESC, ended_at LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(Some(Profile {
        user_id,
        name: person.name,
        guest: person.guest != 0,
        joined: person.created_at,
        ranks: rank_lines(db, user_id).await?,
        totals: totals.into(),
        rulesets: rulesets
            .into_iter()
            .map(|row| RulesetRecord {
                ruleset: row.ruleset,
                played: u32::try_from(row.played).unwrap_or(0),
                won: u32::try_from(row.won.unwrap_or(0)).unwrap_or(0),
            })
            .collect(),
        best,
        recent: recent(db, user_id).await?,
        daily_streak: daily::streak(db, user_id, daily::today()).await?,
    }))
}

/// A point of a rank's history.
#[derive(sqlx::FromRow)]
struct RankPoint {
    dictionary: String,
    rank_after: i32,
}

/// The player's ranks, each with its history.
async fn rank_lines(db: &Database, user_id: i64) -> Result<Vec<RankLine>, sqlx::Error> {
    let mut lines: Vec<RankLine> = ranks::of(db, user_id)
        .await?
        .into_iter()
        .map(|rank| RankLine {
            dictionary: rank.dictionary,
            rank: rank.shown(),
            games: rank.games,
            points: Vec::new(),
        })
        .collect();
    let points: Vec<RankPoint> = sqlx::query_as(
        "SELECT dictionary, rank_after FROM rank_history WHERE user_id = $1
         ORDER BY dictionary, games_before",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    for point in points {
        if let Some(line) = lines
            .iter_mut()
            .find(|l| l.dictionary.as_str() == point.dictionary)
        {
            line.points.push(point.rank_after);
        }
    }
    Ok(lines)
}

/// A finished game as read for the profile's list.
#[derive(sqlx::FromRow)]
struct RecentRow {
    game_id: String,
    name: Option<String>,
    closed_at: Option<i64>,
    opponent_bot: Option<String>,
    ruleset: String,
    dictionary: String,
    result: String,
    score: i32,
    opponent_score: i32,
    ended_at: i64,
    rank_before: Option<i32>,
    rank_after: Option<i32>,
}

/// The player's last 20 finished games, newest first.
async fn recent(db: &Database, user_id: i64) -> Result<Vec<RecentGame>, sqlx::Error> {
    let rows: Vec<RecentRow> = sqlx::query_as(
        "SELECT r.game_id, u.name, u.closed_at, r.opponent_bot, r.ruleset, r.dictionary, r.result, r.score,
                r.opponent_score, r.ended_at, h.rank_before, h.rank_after
         FROM game_results r
         LEFT JOIN users u ON u.id = r.opponent_user
         LEFT JOIN rank_history h ON h.game_id = r.game_id AND h.user_id = r.user_id
         WHERE r.user_id = $1 ORDER BY r.ended_at DESC, r.game_id LIMIT 20",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| RecentGame {
            game_id: row.game_id,
            opponent: match (row.name, row.opponent_bot) {
                (Some(_), _) if row.closed_at.is_some() => Opponent::Deleted,
                (Some(name), _) => Opponent::Player(name),
                (None, Some(level)) => Opponent::Bot(level),
                (None, None) => Opponent::Unknown,
            },
            ruleset: row.ruleset,
            dictionary: row.dictionary,
            result: row.result,
            score: row.score,
            opponent_score: row.opponent_score,
            rank_change: row
                .rank_before
                .zip(row.rank_after)
                .map(|(before, after)| after - before),
            ended_at: row.ended_at,
        })
        .collect())
}

/// The games one player finished against another with one result.
#[derive(sqlx::FromRow)]
struct ResultCount {
    result: String,
    games: i64,
}

/// `user`'s record against `other` over their finished games.
pub async fn head_to_head(db: &Database, user: i64, other: i64) -> Result<HeadToHead, sqlx::Error> {
    let rows: Vec<ResultCount> = sqlx::query_as(
        "SELECT result, COUNT(*) AS games FROM game_results
         WHERE user_id = $1 AND opponent_user = $2 GROUP BY result",
    )
    .bind(user)
    .bind(other)
    .fetch_all(&db.pool)
    .await?;
    let mut record = HeadToHead::default();
    for row in rows {
        let count = u32::try_from(row.games).unwrap_or(0);
        match row.result.as_str() {
            "win" => record.wins = count,
            "draw" => record.draws = count,
            _ => record.losses = count,
        }
    }
    Ok(record)
}
