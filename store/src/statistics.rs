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

/// The players ranked nearest (within [`RANK_BAND`]) that a player is compared with, at most:
/// enough for a percentile, and a page's cost that does not grow with the crowd at a rank.
pub const NEAREST: i64 = 500;

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
    /// Turns the engine has looked at.
    pub analysed_turns: i64,
    /// Their points short of the engine's best moves.
    pub missed: i64,
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

    /// The points a turn fell short of the engine's best move, on average; `None` before the
    /// engine has looked at a turn.
    pub fn missed_per_turn(&self) -> Option<f64> {
        (self.analysed_turns > 0).then(|| self.missed as f64 / self.analysed_turns as f64)
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
    /// Fewer points missed is ahead; among the players the engine has looked at, when both the
    /// player and one of them have analysed turns.
    pub missed_per_turn: Option<u8>,
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
                exchanges, timeouts, best_play, best_game, analysed_turns, missed
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

/// A day's games in one line.
#[derive(sqlx::FromRow)]
struct Day {
    ruleset: String,
    dictionary: String,
    day: i64,
    games: i64,
    points: i64,
}

/// A line: its ruleset and dictionary keys.
type LineKey = (String, String);

/// A month's games and their final scores added up.
type MonthSum = (u32, i64);

/// The last two years' games by line and calendar month (UTC).
async fn months(db: &Database, user: i64) -> Result<BTreeMap<LineKey, Vec<Month>>, StoreError> {
    let since = crate::db::now_ms() - MONTHS * 31 * 86_400_000;
    // Summed by day in the database (a busy player's thousands of games are a few hundred
    // days), by calendar month here: the two databases name months differently.
    let rows: Vec<Day> = sqlx::query_as(
        "SELECT ruleset, dictionary, ended_at / 86400000 AS day, COUNT(*) AS games,
                CAST(SUM(score) AS BIGINT) AS points
         FROM game_results WHERE user_id = $1 AND ended_at >= $2
         GROUP BY ruleset, dictionary, ended_at / 86400000",
    )
    .bind(user)
    .bind(since)
    .fetch_all(&db.pool)
    .await?;
    // Games and points by line, then by (year, month).
    let mut sums: BTreeMap<LineKey, BTreeMap<(i64, u32), MonthSum>> = BTreeMap::new();
    for row in rows {
        let (year, month, _) = rules::daily::Day(row.day).civil();
        let sum = sums
            .entry((row.ruleset, row.dictionary))
            .or_default()
            .entry((year, month))
            .or_default();
        sum.0 += row.games as u32;
        sum.1 += row.points;
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

/// Where `user` stands in `line` among the [`NEAREST`] players ranked nearest theirs in its
/// dictionary (within [`RANK_BAND`]), of those with [`PEER_GAMES`] games or more in the line.
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
    // Each figure is a ratio: theirs (n / d) against the player's (N / D) compares as n·D
    // against N·d, exactly, in whole numbers. Counted in the database: a band can hold
    // thousands of players.
    let behind: Behind = sqlx::query_as(
        "SELECT COUNT(*) AS players,
            CAST(SUM(CASE WHEN (2 * s.wins + s.draws) * $7 < $8 * s.games THEN 2
                          WHEN (2 * s.wins + s.draws) * $7 = $8 * s.games THEN 1 ELSE 0 END)
                 AS BIGINT) AS win_rate,
            CAST(SUM(CASE WHEN s.points * $7 < $9 * s.games THEN 2
                          WHEN s.points * $7 = $9 * s.games THEN 1 ELSE 0 END)
                 AS BIGINT) AS average_score,
            CAST(SUM(CASE WHEN (s.points - s.opponent_points) * $7 < $10 * s.games THEN 2
                          WHEN (s.points - s.opponent_points) * $7 = $10 * s.games THEN 1
                          ELSE 0 END) AS BIGINT) AS average_spread,
            CAST(SUM(CASE WHEN s.bingos * $7 < $11 * s.games THEN 2
                          WHEN s.bingos * $7 = $11 * s.games THEN 1 ELSE 0 END)
                 AS BIGINT) AS bingos_per_game,
            CAST(SUM(CASE WHEN s.analysed_turns > 0 THEN 1 ELSE 0 END) AS BIGINT) AS analysed,
            CAST(SUM(CASE WHEN s.analysed_turns = 0 THEN 0
                          WHEN s.missed * $12 > $13 * s.analysed_turns THEN 2
                          WHEN s.missed * $12 = $13 * s.analysed_turns THEN 1 ELSE 0 END)
                 AS BIGINT) AS missed_per_turn
         FROM (SELECT user_id FROM ranks
               WHERE dictionary = $2 AND rank BETWEEN $5 - $6 AND $5 + $6 AND user_id <> $4
               ORDER BY ABS(rank - $5), user_id LIMIT $14) r
         JOIN player_statistics s ON s.user_id = r.user_id
         WHERE s.ruleset = $1 AND s.dictionary = $2 AND s.games >= $3",
    )
    .bind(&line.ruleset)
    .bind(dictionary.as_str())
    .bind(PEER_GAMES)
    .bind(user)
    .bind(rank)
    .bind(RANK_BAND)
    .bind(line.games.max(1))
    .bind(2 * line.wins + line.draws)
    .bind(line.points)
    .bind(line.points - line.opponent_points)
    .bind(line.bingos)
    .bind(line.analysed_turns.max(1))
    .bind(line.missed)
    .bind(NEAREST)
    .fetch_one(&db.pool)
    .await?;
    Ok(behind.standing(rank, line.analysed_turns > 0))
}

/// Of the players near a rank: how many, and for each figure twice the number behind the
/// player (a tie counting one).
#[derive(sqlx::FromRow)]
struct Behind {
    players: i64,
    win_rate: Option<i64>,
    average_score: Option<i64>,
    average_spread: Option<i64>,
    bingos_per_game: Option<i64>,
    /// The players the engine has looked at.
    analysed: Option<i64>,
    missed_per_turn: Option<i64>,
}

impl Behind {
    fn standing(&self, rank: i64, analysed: bool) -> Option<Standing> {
        let share = |twice: Option<i64>, of: i64| (50 * twice.unwrap_or(0) / of.max(1)) as u8;
        let looked_at = self.analysed.unwrap_or(0);
        (self.players > 0).then(|| Standing {
            rank,
            players: self.players as u32,
            win_rate: share(self.win_rate, self.players),
            average_score: share(self.average_score, self.players),
            average_spread: share(self.average_spread, self.players),
            bingos_per_game: share(self.bingos_per_game, self.players),
            missed_per_turn: (analysed && looked_at > 0)
                .then(|| share(self.missed_per_turn, looked_at)),
        })
    }
}

/// The finished games with a result the engine has not looked at yet, newest first.
pub async fn unanalysed(db: &Database, limit: i64) -> Result<Vec<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT game_id FROM game_results WHERE analysed_turns IS NULL
         GROUP BY game_id ORDER BY MAX(ended_at) DESC, game_id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.pool)
    .await?)
}

/// What the engine found of one player's turns in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValues {
    pub user: i64,
    /// Turns it looked at.
    pub turns: i64,
    /// Their points short of its best moves.
    pub missed: i64,
}

/// Records the engine's look at game `game_id` for each player in `values` (every other result
/// of the game as none: no turn looked at), and adds it to their totals: once, whichever
/// instance gets there first, as each result is claimed by a conditional update.
pub async fn record_move_values(
    db: &Database,
    game_id: &str,
    values: &[MoveValues],
) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let users: Vec<i64> = sqlx::query_scalar(
        "SELECT user_id FROM game_results WHERE game_id = $1 AND analysed_turns IS NULL",
    )
    .bind(game_id)
    .fetch_all(&mut *tx)
    .await?;
    for user in users {
        let found = values.iter().find(|v| v.user == user);
        let (turns, missed) = found.map_or((0, 0), |v| (v.turns, v.missed));
        let claimed = sqlx::query(
            "UPDATE game_results SET analysed_turns = $3, missed = $4
             WHERE game_id = $1 AND user_id = $2 AND analysed_turns IS NULL",
        )
        .bind(game_id)
        .bind(user)
        .bind(turns)
        .bind(missed)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 1 && turns > 0 {
            sqlx::query(
                "UPDATE player_statistics SET analysed_turns = analysed_turns + $2,
                     missed = missed + $3
                 WHERE user_id = $1 AND (ruleset, dictionary) =
                     (SELECT ruleset, dictionary FROM game_results WHERE game_id = $4 AND user_id = $1)",
            )
            .bind(user)
            .bind(turns)
            .bind(missed)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        }
    }
    tx.commit().await?;
    Ok(())
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
