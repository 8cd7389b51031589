//! Statistics: a player's totals per ruleset and dictionary (games, wins, scores, spread,
//! bingos, best play and game, exchanges, time-outs), added to by the reaction that records a
//! game's results ([`crate::results::record`]), once per game and player. A statistics page
//! reads one row a line, the months of the last two years from the results, and the totals of
//! the players near the player's rank to say where the player stands among them.

use std::collections::BTreeMap;

use dictionaries::DictionaryId;
use sqlx::AnyConnection;

use crate::{db::Database, StoreError};

/// How far from the player's rank, either way, a player counts as near it.
pub const RANK_BAND: i64 = 100;

/// Games a player near the rank needs in a line to be compared with.
pub const PEER_GAMES: i64 = 5;

/// How many months the chart goes back.
const MONTHS: i64 = 24;

/// One player's totals in one ruleset and dictionary.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Totals {
    /// The stored ruleset key (`alfakraft`, …).
    pub ruleset: String,
    /// The dictionary's key (`en`, …).
    pub dictionary: String,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    /// Final scores added up.
    pub points: i64,
    /// The opponents' final scores added up.
    pub opponent_points: i64,
    pub bingos: i64,
    /// Turns spent exchanging.
    pub exchanges: i64,
    /// Games lost on time.
    pub timeouts: i64,
    /// The highest scoring play.
    pub best_play: i64,
    /// The highest final score.
    pub best_game: i64,
}

impl Totals {
    /// The share of games won, a draw counting half, in percent.
    pub fn win_rate(&self) -> f64 {
        self.per_game(2 * self.wins + self.draws) * 50.0
    }

    pub fn average_score(&self) -> f64 {
        self.per_game(self.points)
    }

    /// The average margin: the player's final score less the opponent's.
    pub fn average_spread(&self) -> f64 {
        self.per_game(self.points - self.opponent_points)
    }

    pub fn bingos_per_game(&self) -> f64 {
        self.per_game(self.bingos)
    }

    fn per_game(&self, total: i64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            total as f64 / self.games as f64
        }
    }
}

/// One player's part of a finished game, as the totals count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Game {
    pub won: bool,
    pub drawn: bool,
    pub score: i32,
    pub opponent_score: i32,
    pub bingos: i32,
    pub exchanges: i32,
    pub timed_out: bool,
    /// The points of the player's best play (0 without one).
    pub best_play: i32,
}

/// Adds one finished `game` to `user`'s totals in `ruleset` and `dictionary`, on `conn` inside
/// the transaction that records the game's results (which makes sure it runs once).
pub(crate) async fn add(
    conn: &mut AnyConnection,
    user: i64,
    ruleset: &str,
    dictionary: &str,
    game: &Game,
) -> Result<(), sqlx::Error> {
    // Neither GREATEST (Postgres) nor two-argument MAX (SQLite) is in both: CASE is.
    sqlx::query(
        "INSERT INTO player_statistics (user_id, ruleset, dictionary, games, wins, draws, points,
             opponent_points, bingos, exchanges, timeouts, best_play, best_game)
         VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $6)
         ON CONFLICT (user_id, ruleset, dictionary) DO UPDATE SET
             games = player_statistics.games + 1,
             wins = player_statistics.wins + excluded.wins,
             draws = player_statistics.draws + excluded.draws,
             points = player_statistics.points + excluded.points,
             opponent_points = player_statistics.opponent_points + excluded.opponent_points,
             bingos = player_statistics.bingos + excluded.bingos,
             exchanges = player_statistics.exchanges + excluded.exchanges,
             timeouts = player_statistics.timeouts + excluded.timeouts,
             best_play = CASE WHEN excluded.best_play > player_statistics.best_play
                 THEN excluded.best_play ELSE player_statistics.best_play END,
             best_game = CASE WHEN excluded.best_game > player_statistics.best_game
                 THEN excluded.best_game ELSE player_statistics.best_game END",
    )
    .bind(user)
    .bind(ruleset)
    .bind(dictionary)
    .bind(i64::from(game.won))
    .bind(i64::from(game.drawn))
    .bind(i64::from(game.score))
    .bind(i64::from(game.opponent_score))
    .bind(i64::from(game.bingos))
    .bind(i64::from(game.exchanges))
    .bind(i64::from(game.timed_out))
    .bind(i64::from(game.best_play))
    .execute(conn)
    .await?;
    Ok(())
}

/// Where a player stands among the players near their rank, each figure a percentile: the share
/// of those players below it, ties counting half.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The player's rank in the line's dictionary.
    pub rank: i64,
    /// The players compared with.
    pub players: u32,
    pub win_rate: u8,
    pub average_score: u8,
    pub average_spread: u8,
    pub bingos_per_game: u8,
}

/// A calendar month's games in one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    pub year: i64,
    pub month: u32,
    pub games: u32,
    /// The month's average final score, rounded.
    pub average_score: i32,
}

/// One line of a player's statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub totals: Totals,
    /// Among the players near the player's rank in this dictionary, when the player has a rank
    /// and there are such players with games in the line.
    pub standing: Option<Standing>,
    /// The months of the last two years with games, oldest first.
    pub months: Vec<Month>,
}

/// `user`'s statistics, the busiest line first.
pub async fn of(db: &Database, user: i64) -> Result<Vec<Line>, StoreError> {
    let lines: Vec<Totals> = sqlx::query_as(
        "SELECT ruleset, dictionary, games, wins, draws, points, opponent_points, bingos,
                exchanges, timeouts, best_play, best_game
         FROM player_statistics WHERE user_id = $1 ORDER BY games DESC, ruleset, dictionary",
    )
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    let mut months = months(db, user).await?;
    let mut out = Vec::with_capacity(lines.len());
    for totals in lines {
        let standing = standing(db, user, &totals).await?;
        let months = months
            .remove(&(totals.ruleset.clone(), totals.dictionary.clone()))
            .unwrap_or_default();
        out.push(Line {
            totals,
            standing,
            months,
        });
    }
    Ok(out)
}

#[derive(sqlx::FromRow)]
struct Ended {
    ruleset: String,
    dictionary: String,
    score: i64,
    ended_at: i64,
}

/// A line: its ruleset and dictionary keys.
type LineKey = (String, String);

/// A month's games and their final scores added up.
type MonthSum = (u32, i64);

/// The last two years' games by line and calendar month (UTC).
async fn months(db: &Database, user: i64) -> Result<BTreeMap<LineKey, Vec<Month>>, StoreError> {
    let since = crate::db::now_ms() - MONTHS * 31 * 86_400_000;
    let rows: Vec<Ended> = sqlx::query_as(
        "SELECT ruleset, dictionary, score, ended_at FROM game_results
         WHERE user_id = $1 AND ended_at >= $2 ORDER BY ended_at",
    )
    .bind(user)
    .bind(since)
    .fetch_all(&db.pool)
    .await?;
    // Games and points by line, then by (year, month).
    let mut sums: BTreeMap<LineKey, BTreeMap<(i64, u32), MonthSum>> = BTreeMap::new();
    for row in rows {
        let (year, month, _) = rules::daily::Day::of_unix_ms(row.ended_at).civil();
        let sum = sums
            .entry((row.ruleset, row.dictionary))
            .or_default()
            .entry((year, month))
            .or_default();
        sum.0 += 1;
        sum.1 += row.score;
    }
    Ok(sums
        .into_iter()
        .map(|(line, by_month)| {
            let months = by_month
                .into_iter()
                .map(|((year, month), (games, points))| Month {
                    year,
                    month,
                    games,
                    average_score: (points as f64 / f64::from(games)).round() as i32,
                })
                .collect();
            (line, months)
        })
        .collect())
}

/// Where `user` stands in `line` among the players within [`RANK_BAND`] of their rank in its
/// dictionary with [`PEER_GAMES`] games or more in it.
async fn standing(db: &Database, user: i64, line: &Totals) -> Result<Option<Standing>, StoreError> {
    let Some(dictionary) = DictionaryId::parse(&line.dictionary) else {
        return Ok(None);
    };
    let rank: Option<i64> =
        sqlx::query_scalar("SELECT rank FROM ranks WHERE user_id = $1 AND dictionary = $2")
            .bind(user)
            .bind(dictionary.as_str())
            .fetch_optional(&db.pool)
            .await?;
    let Some(rank) = rank else {
        return Ok(None);
    };
    let peers: Vec<Totals> = sqlx::query_as(
        "SELECT s.ruleset, s.dictionary, s.games, s.wins, s.draws, s.points, s.opponent_points,
                s.bingos, s.exchanges, s.timeouts, s.best_play, s.best_game
         FROM player_statistics s
         JOIN ranks r ON r.user_id = s.user_id AND r.dictionary = s.dictionary
         WHERE s.ruleset = $1 AND s.dictionary = $2 AND s.games >= $3 AND s.user_id <> $4
           AND r.rank BETWEEN $5 AND $6",
    )
    .bind(&line.ruleset)
    .bind(dictionary.as_str())
    .bind(PEER_GAMES)
    .bind(user)
    .bind(rank - RANK_BAND)
    .bind(rank + RANK_BAND)
    .fetch_all(&db.pool)
    .await?;
    Ok(standing_among(line, rank, &peers))
}

/// Where `line`, of a player ranked `rank`, stands among `peers`; `None` without peers.
pub fn standing_among(line: &Totals, rank: i64, peers: &[Totals]) -> Option<Standing> {
    if peers.is_empty() {
        return None;
    }
    let percentile = |figure: fn(&Totals) -> f64| {
        let own = figure(line);
        let twice_below: usize = peers
            .iter()
            .map(|p| match figure(p).total_cmp(&own) {
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 0,
            })
            .sum();
        (50 * twice_below / peers.len()) as u8
    };
    Some(Standing {
        rank,
        players: peers.len() as u32,
        win_rate: percentile(Totals::win_rate),
        average_score: percentile(Totals::average_score),
        average_spread: percentile(Totals::average_spread),
        bingos_per_game: percentile(Totals::bingos_per_game),
    })
}

/// Forgets `user`'s totals (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM player_statistics WHERE user_id = $1"],
    )
    .await
}
