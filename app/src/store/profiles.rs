//! Profiles: a player's public record, read from the results and rank history of finished games
//! (never from a game's log, so nothing hidden can leak and a profile costs a few indexed
//! queries however many games the player has).

use dictionaries::DictionaryId;
use rules::rank::STARTING_RANK;
use sqlx::Row;

use super::{db::Database, ranks};
use crate::domain::{HeadToHead, ShownRank, Streak};

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
    /// Won.
    pub won: u32,
    /// Lost.
    pub lost: u32,
    /// Drawn.
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
    /// Won.
    pub won: u32,
}

/// The best play a player ever made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestPlay {
    /// Its main word.
    pub word: String,
    /// Its points.
    pub score: i32,
    /// The game.
    pub game_id: String,
    /// Its index in the game's history.
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
    /// Dictionary.
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
    /// Nobody known.
    Unknown,
}

/// A player's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The user id.
    pub user_id: i64,
    /// Name.
    pub name: String,
    /// A guest account.
    pub guest: bool,
    /// When the account was made, unix ms.
    pub joined: i64,
    /// Ranks by dictionary.
    pub ranks: Vec<RankLine>,
    /// Counts.
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

fn int(row: &sqlx::any::AnyRow, index: usize) -> i64 {
    row.try_get::<Option<i64>, _>(index)
        .ok()
        .flatten()
        .unwrap_or(0)
}

/// The profile of the player called `name`, if there is one.
pub async fn of(db: &Database, name: &str) -> Result<Option<Profile>, super::StoreError> {
    let Some(user) = sqlx::query("SELECT id, name, guest, created_at FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&db.pool)
        .await?
    else {
        return Ok(None);
    };
    let user_id: i64 = user.get(0);
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
    let points = sqlx::query(
        "SELECT dictionary, rank_after FROM rank_history WHERE user_id = $1
         ORDER BY dictionary, games_before",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    for row in &points {
        let dictionary = row.get::<String, _>(0);
        if let Some(line) = lines
            .iter_mut()
            .find(|l| l.dictionary.as_str() == dictionary)
        {
            line.points
                .push(i32::try_from(int(row, 1)).unwrap_or(STARTING_RANK));
        }
    }
    let totals = sqlx::query(
        "SELECT COUNT(*),
                CAST(SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS BIGINT),
                CAST(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS BIGINT),
                MAX(score), CAST(SUM(score) AS BIGINT), CAST(SUM(bingos) AS BIGINT)
         FROM game_results WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    let count = |i| u32::try_from(int(&totals, i)).unwrap_or(0);
    let totals = Totals {
        played: count(0),
        won: count(1),
        lost: count(2),
        drawn: count(3),
        highest: i32::try_from(int(&totals, 4)).unwrap_or(0),
        points: int(&totals, 5),
        bingos: count(6),
    };
    let rulesets = sqlx::query(
        "SELECT ruleset, COUNT(*), CAST(SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS BIGINT)
         FROM game_results WHERE user_id = $1 GROUP BY ruleset ORDER BY ruleset",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|row| RulesetRecord {
        ruleset: row.get(0),
        played: u32::try_from(int(row, 1)).unwrap_or(0),
        won: u32::try_from(int(row, 2)).unwrap_or(0),
    })
    .collect();
    let best = sqlx::query(
        "SELECT best_word, best_score, game_id, best_turn FROM game_results
         WHERE user_id = $1 AND best_score IS NOT NULL ORDER BY best_score DESC, ended_at LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?
    .map(|row| BestPlay {
        word: row.get(0),
        score: i32::try_from(int(&row, 1)).unwrap_or(0),
        game_id: row.get(2),
        turn: u32::try_from(int(&row, 3)).unwrap_or(0),
    });
    let recent = sqlx::query(
        "SELECT r.game_id, u.name, r.opponent_bot, r.ruleset, r.dictionary, r.result, r.score,
                r.opponent_score, r.ended_at, h.rank_before, h.rank_after
         FROM game_results r
         LEFT JOIN users u ON u.id = r.opponent_user
         LEFT JOIN rank_history h ON h.game_id = r.game_id AND h.user_id = r.user_id
         WHERE r.user_id = $1 ORDER BY r.ended_at DESC, r.game_id LIMIT 20",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|row| RecentGame {
        game_id: row.get(0),
        opponent: match (
            row.get::<Option<String>, _>(1),
            row.get::<Option<String>, _>(2),
        ) {
            (Some(name), _) => Opponent::Player(name),
            (None, Some(level)) => Opponent::Bot(level),
            (None, None) => Opponent::Unknown,
        },
        ruleset: row.get(3),
        dictionary: row.get(4),
        result: row.get(5),
        score: i32::try_from(int(row, 6)).unwrap_or(0),
        opponent_score: i32::try_from(int(row, 7)).unwrap_or(0),
        rank_change: row
            .get::<Option<i64>, _>(9)
            .zip(row.get::<Option<i64>, _>(10))
            .map(|(before, after)| (after - before) as i32),
        ended_at: int(row, 8),
    })
    .collect();
    let daily_streak = super::daily::streak(db, user_id, super::daily::today()).await?;
    Ok(Some(Profile {
        daily_streak,
        user_id,
        name: user.get(1),
        guest: int(&user, 2) != 0,
        joined: int(&user, 3),
        ranks: lines,
        totals,
        rulesets,
        best,
        recent,
    }))
}

/// `user`'s record against `other` over their finished games.
pub async fn head_to_head(db: &Database, user: i64, other: i64) -> Result<HeadToHead, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT result, COUNT(*) FROM game_results WHERE user_id = $1 AND opponent_user = $2
         GROUP BY result",
    )
    .bind(user)
    .bind(other)
    .fetch_all(&db.pool)
    .await?;
    let mut record = HeadToHead::default();
    for row in &rows {
        let count = u32::try_from(int(row, 1)).unwrap_or(0);
        match row.get::<String, _>(0).as_str() {
            "win" => record.wins = count,
            "draw" => record.draws = count,
            _ => record.losses = count,
        }
    }
    Ok(record)
}
