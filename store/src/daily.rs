//! The Daily Challenge in the database: each day's puzzle per dictionary (pinned to the version
//! active at its first start), one attempt per player (the primary key), the day's standings and
//! the players' streaks. An attempt is an ordinary one-seat game (opponent `daily`), so commits,
//! replay, crash safety and what a view may show are those of every game. Every function takes
//! the day it is about, so tests can move the clock.

use dictionaries::{DictionaryId, DictionaryRef};
use domain::{DailyCard, DailyResult, DailyState, OpponentKind, Phase, ReviewTurn, Streak};
use rules::{daily::Day, GameConfig, GameState, Status};
use sqlx::AnyConnection;

use crate::{
    accounts::User,
    db::{now_ms, Database},
    ended::{GameEnded, Reacting},
    games,
    library::versions,
    rows::Json,
    StoreError,
};

/// Today, as the server's clock has it.
pub fn today() -> Day {
    Day::of_unix_ms(now_ms())
}

/// A day's puzzle in one dictionary, as every attempt at it plays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The day.
    pub day: Day,
    /// The dictionary version it is played with: the active one when its first attempt started.
    pub version: DictionaryRef,
    /// The key its tiles are drawn from (`None` for a day before keys, drawn from the date).
    pub key: Option<DayKey>,
}

impl Puzzle {
    /// The bag's seed: the key's first eight bytes.
    pub fn seed(&self) -> u64 {
        match &self.key {
            Some(key) => key.seed(),
            None => rules::daily::dated_seed(self.day, &self.version.to_string()),
        }
    }

    /// The game an attempt plays.
    pub fn config(&self) -> GameConfig {
        let version = self.version.to_string();
        rules::daily::config(self.seed(), &version, self.version.id.language())
    }
}

/// The 32 bytes a day's puzzle is drawn from: an HMAC-SHA256 of the day and the dictionary
/// version under the installation's secret, so nobody outside can compute it in advance. Its
/// SHA-256 may be shown while the day runs; the key once it is over, to check against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayKey(pub [u8; 32]);

impl DayKey {
    /// The key of `day`'s puzzle with `version` under `secret`.
    fn derive(secret: &str, day: Day, version: &str) -> DayKey {
        use hmac::{Hmac, Mac};
        let mut mac = <Hmac<sha2::Sha256> as Mac>::new_from_slice(secret.as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(format!("alfakraft daily|{day}|{version}").as_bytes());
        DayKey(mac.finalize().into_bytes().into())
    }

    /// The bag's seed: the first eight bytes, little-endian.
    pub fn seed(&self) -> u64 {
        u64::from_le_bytes(self.0[..8].try_into().expect("eight bytes"))
    }

    /// The key in hex, as stored and as revealed.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The key from its hex.
    pub fn parse(hex: &str) -> Option<DayKey> {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
            .collect::<Option<_>>()?;
        Some(DayKey(bytes.try_into().ok()?))
    }

    /// SHA-256 of the key, hex: what the standings show while the day runs.
    pub fn commitment(&self) -> String {
        dictionaries::wordlist::sha256(&self.0)
    }
}

/// The secret day keys are made under: created at first start (see [`make_secret`]).
async fn secret(db: &Database) -> Result<String, StoreError> {
    let secret: Option<String> =
        sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'daily_secret'")
            .fetch_optional(&db.pool)
            .await?;
    secret.ok_or_else(|| StoreError::Data("no daily_secret in app_meta".into()))
}

/// Creates this installation's secret for the Daily Challenge unless it has one: 244 random
/// bits, kept in the database so every instance draws the same puzzles.
pub(crate) async fn make_secret(db: &Database) -> Result<(), sqlx::Error> {
    let secret = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    sqlx::query(
        "INSERT INTO app_meta (key, value) VALUES ('daily_secret', $1) ON CONFLICT (key) DO NOTHING",
    )
    .bind(secret)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A puzzle as stored.
#[derive(sqlx::FromRow)]
struct PuzzleRow {
    day: i64,
    version: String,
    day_key: Option<String>,
}

impl TryFrom<PuzzleRow> for Puzzle {
    type Error = StoreError;

    fn try_from(row: PuzzleRow) -> Result<Puzzle, StoreError> {
        let version = DictionaryRef::parse(&row.version)
            .ok_or_else(|| StoreError::Data(format!("version {}", row.version)))?;
        let key = match row.day_key {
            Some(hex) => Some(
                DayKey::parse(&hex).ok_or_else(|| StoreError::Data(format!("day key {hex}")))?,
            ),
            None => None,
        };
        Ok(Puzzle {
            day: Day(row.day),
            version,
            key,
        })
    }
}

/// The puzzle of `day` in `dictionary`: as its first attempt pinned it (the version active then,
/// and its key), the same for everyone after.
pub async fn puzzle(
    db: &Database,
    day: Day,
    dictionary: DictionaryId,
) -> Result<Puzzle, StoreError> {
    let active = versions::active_ref(db, dictionary).await?.to_string();
    let key = DayKey::derive(&secret(db).await?, day, &active);
    sqlx::query(
        "INSERT INTO daily_puzzles (day, dictionary, version, day_key) VALUES ($1, $2, $3, $4)
         ON CONFLICT (day, dictionary) DO NOTHING",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .bind(&active)
    .bind(key.hex())
    .execute(&db.pool)
    .await?;
    let row: PuzzleRow = sqlx::query_as(
        "SELECT day, version, day_key FROM daily_puzzles WHERE day = $1 AND dictionary = $2",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .fetch_one(&db.pool)
    .await?;
    row.try_into()
}

/// What a day's standings may say of its puzzle's key: its hash while the day runs, the key
/// itself (with its hash, to check) once it is over; nothing for a day without a puzzle yet, or
/// one from before keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Commitment {
    /// The day runs: the SHA-256 of its key.
    Hash(String),
    /// The day is over: the key, in hex, and its SHA-256.
    Revealed {
        /// The key.
        key: String,
        /// Its SHA-256, as shown during the day.
        hash: String,
        /// The bag's seed drawn from it.
        seed: u64,
    },
}

/// The commitment to the puzzle of `day` in `dictionary`, as of `today`.
pub async fn commitment(
    db: &Database,
    day: Day,
    dictionary: DictionaryId,
    today: Day,
) -> Result<Option<Commitment>, StoreError> {
    let row: Option<PuzzleRow> = sqlx::query_as(
        "SELECT day, version, day_key FROM daily_puzzles WHERE day = $1 AND dictionary = $2",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .fetch_optional(&db.pool)
    .await?;
    let Some(key) = row.map(Puzzle::try_from).transpose()?.and_then(|p| p.key) else {
        return Ok(None);
    };
    Ok(Some(match day < today {
        true => Commitment::Revealed {
            key: key.hex(),
            hash: key.commitment(),
            seed: key.seed(),
        },
        false => Commitment::Hash(key.commitment()),
    }))
}

/// The player's attempt at the puzzle of `day` in `dictionary`: the one they started, or a new
/// one. Two starts at once (a double click, two instances) make one attempt: the key refuses the
/// second, which then finds the first.
pub async fn start(
    db: &Database,
    user: &User,
    dictionary: DictionaryId,
    day: Day,
) -> Result<String, StoreError> {
    if let Some(id) = attempt_of(db, user.id, dictionary, day).await? {
        return Ok(id);
    }
    crate::moderation::check_may_play(db, user.id).await?;
    let config = puzzle(db, day, dictionary).await?.config();
    let (_writer, mut tx) = db.begin_write().await?;
    let id = games::insert(&mut tx, &config, Phase::Playing, OpponentKind::Daily, false).await?;
    sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES ($1, 0, $2)")
        .bind(&id)
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    let inserted = sqlx::query(
        "INSERT INTO daily_attempts (day, dictionary, user_id, game_id, started_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .bind(user.id)
    .bind(&id)
    .bind(now_ms())
    .execute(&mut *tx)
    .await;
    match inserted {
        Ok(_) => {
            tx.commit().await?;
            Ok(id)
        }
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            tx.rollback().await?;
            attempt_of(db, user.id, dictionary, day)
                .await?
                .ok_or_else(|| StoreError::Data("the attempt vanished".into()))
        }
        Err(e) => Err(e.into()),
    }
}

async fn attempt_of(
    db: &Database,
    user: i64,
    dictionary: DictionaryId,
    day: Day,
) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT game_id FROM daily_attempts WHERE day = $1 AND dictionary = $2 AND user_id = $3",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .bind(user)
    .fetch_optional(&db.pool)
    .await?)
}

/// Records the end of an attempt, inside the transaction that records the end of its game (a
/// [`crate::ended::Reaction`]; any other game is none of its business).
pub fn on_game_end<'a>(conn: &'a mut AnyConnection, ended: &'a GameEnded<'a>) -> Reacting<'a> {
    Box::pin(async move {
        match ended.opponent {
            OpponentKind::Daily => finished(conn, ended.game_id, ended.state).await,
            _ => Ok(()),
        }
    })
}

/// Records the end of attempt `game_id`, which `state` ended.
async fn finished(
    conn: &mut AnyConnection,
    game_id: &str,
    state: &GameState,
) -> Result<(), sqlx::Error> {
    let Status::Over(outcome) = state.status() else {
        return Ok(());
    };
    sqlx::query(
        "UPDATE daily_attempts SET score = $2, finished_at = $3
         WHERE game_id = $1 AND finished_at IS NULL",
    )
    .bind(game_id)
    .bind(i64::from(
        outcome.final_scores.first().copied().unwrap_or(0),
    ))
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A player's attempt at a day's puzzle, with its game's version (the turns taken).
#[derive(sqlx::FromRow)]
struct Attempt {
    dictionary: String,
    game_id: String,
    score: Option<i32>,
    version: i64,
}

/// The player's state in each dictionary's puzzle of `day`.
pub async fn cards(
    db: &Database,
    user: Option<i64>,
    day: Day,
) -> Result<Vec<DailyCard>, StoreError> {
    let rows: Vec<Attempt> = match user {
        Some(user) => {
            sqlx::query_as(
                "SELECT a.dictionary, a.game_id, a.score, g.version FROM daily_attempts a
                 JOIN games g ON g.id = a.game_id WHERE a.day = $1 AND a.user_id = $2",
            )
            .bind(day.0)
            .bind(user)
            .fetch_all(&db.pool)
            .await?
        }
        None => Vec::new(),
    };
    let mut cards = Vec::new();
    for dictionary in DictionaryId::ALL {
        let row = rows.iter().find(|r| r.dictionary == dictionary.as_str());
        let state = match row {
            None => DailyState::NotStarted,
            Some(row) => {
                let game_id = row.game_id.clone();
                match row.score {
                    None => DailyState::InProgress {
                        game_id,
                        turns: u32::try_from(row.version).unwrap_or(0),
                    },
                    Some(score) => {
                        let (place, players) = place(db, day, dictionary, &game_id).await?;
                        DailyState::Done {
                            game_id,
                            score,
                            place,
                            players,
                        }
                    }
                }
            }
        };
        cards.push(DailyCard { dictionary, state });
    }
    Ok(cards)
}

/// The finished attempts ahead of one, and all of them.
#[derive(sqlx::FromRow)]
struct Place {
    above: i64,
    finished: i64,
}

/// A finished attempt's place among the day's finished attempts by accounts (higher score
/// first, ties to the earlier finish), and how many finished: guests play the Daily, but a
/// visitor can be any number of guests, so only accounts are ranked (a guest's attempt is placed
/// among them without counting in anyone else's place).
async fn place(
    db: &Database,
    day: Day,
    dictionary: DictionaryId,
    game_id: &str,
) -> Result<(u32, u32), StoreError> {
    let place: Place = sqlx::query_as(
        "SELECT
            (SELECT COUNT(*) FROM daily_attempts o JOIN users ou ON ou.id = o.user_id
               WHERE o.day = a.day AND o.dictionary = a.dictionary
               AND o.finished_at IS NOT NULL AND (ou.guest = 0 OR o.user_id = a.user_id)
               AND (o.score > a.score OR (o.score = a.score AND (o.finished_at < a.finished_at
                    OR (o.finished_at = a.finished_at AND o.user_id < a.user_id))))) AS above,
            (SELECT COUNT(*) FROM daily_attempts o JOIN users ou ON ou.id = o.user_id
               WHERE o.day = a.day AND o.dictionary = a.dictionary
               AND o.finished_at IS NOT NULL AND (ou.guest = 0 OR o.user_id = a.user_id))
               AS finished
         FROM daily_attempts a WHERE a.game_id = $1 AND a.day = $2 AND a.dictionary = $3",
    )
    .bind(game_id)
    .bind(day.0)
    .bind(dictionary.as_str())
    .fetch_one(&db.pool)
    .await?;
    Ok((
        u32::try_from(place.above).unwrap_or(0) + 1,
        u32::try_from(place.finished).unwrap_or(0),
    ))
}

/// One line of a day's standings.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Standing {
    /// Place, from 1.
    #[sqlx(skip)]
    pub place: u32,
    /// The player.
    pub name: String,
    /// Their total.
    pub score: i32,
    /// Their attempt.
    pub game_id: String,
}

/// The best `limit` finished attempts by accounts of `day` in `dictionary` (guests are not
/// ranked).
pub async fn standings(
    db: &Database,
    day: Day,
    dictionary: DictionaryId,
    limit: u32,
) -> Result<Vec<Standing>, StoreError> {
    let rows: Vec<Standing> = sqlx::query_as(
        "SELECT u.name, a.score, a.game_id FROM daily_attempts a JOIN users u ON u.id = a.user_id
         WHERE a.day = $1 AND a.dictionary = $2 AND a.finished_at IS NOT NULL AND u.guest = 0
         ORDER BY a.score DESC, a.finished_at, a.user_id LIMIT $3",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .bind(i64::from(limit))
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(i, standing)| Standing {
            place: i as u32 + 1,
            ..standing
        })
        .collect())
}

/// A finished attempt as its end card reads it.
#[derive(sqlx::FromRow)]
struct Finished {
    day: i64,
    dictionary: String,
    score: i32,
    review: Option<Json<Vec<ReviewTurn>>>,
    bot_score: Option<i32>,
}

/// The result of a finished attempt, for its end card; `None` for any other game.
pub async fn result(db: &Database, game_id: &str) -> Result<Option<DailyResult>, StoreError> {
    let Some(row) = sqlx::query_as::<_, Finished>(
        "SELECT a.day, a.dictionary, a.score, a.review, p.bot_score FROM daily_attempts a
         JOIN daily_puzzles p ON p.day = a.day AND p.dictionary = a.dictionary
         WHERE a.game_id = $1 AND a.finished_at IS NOT NULL",
    )
    .bind(game_id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let day = Day(row.day);
    let dictionary = DictionaryId::parse(&row.dictionary)
        .ok_or_else(|| StoreError::Data("a daily attempt's dictionary".into()))?;
    let (place, players) = place(db, day, dictionary, game_id).await?;
    let best_today = standings(db, day, dictionary, 1)
        .await?
        .first()
        .map_or(0, |s| s.score);
    Ok(Some(DailyResult {
        day: day.to_string(),
        dictionary,
        score: row.score,
        place,
        players,
        best_today,
        bot_score: row.bot_score,
        review: row.review.map(|review| review.0),
    }))
}

/// The day an attempt belongs to, if `game_id` is one.
pub async fn day_of(db: &Database, game_id: &str) -> Result<Option<Day>, StoreError> {
    Ok(
        sqlx::query_scalar::<_, i64>("SELECT day FROM daily_attempts WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&db.pool)
            .await?
            .map(Day),
    )
}

/// The player's streak as of `today`: days in a row with a finished attempt, up to today (or
/// yesterday, while today's is still to play), and the longest run ever.
pub async fn streak(db: &Database, user: i64, today: Day) -> Result<Streak, StoreError> {
    let days: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT day FROM daily_attempts
         WHERE user_id = $1 AND finished_at IS NOT NULL AND day <= $2 ORDER BY day",
    )
    .bind(user)
    .bind(today.0)
    .fetch_all(&db.pool)
    .await?;
    let (mut best, mut run, mut last) = (0, 0, None::<i64>);
    for day in &days {
        run = if last == Some(day - 1) { run + 1 } else { 1 };
        best = best.max(run);
        last = Some(*day);
    }
    let current = match last {
        Some(day) if day == today.0 || day == today.previous().0 => run,
        _ => 0,
    };
    Ok(Streak { current, best })
}

/// Puzzles still without the bot's total, recent ones first.
pub async fn puzzles_without_bot_score(db: &Database) -> Result<Vec<Puzzle>, StoreError> {
    let rows: Vec<PuzzleRow> = sqlx::query_as(
        "SELECT day, version, day_key FROM daily_puzzles WHERE bot_score IS NULL
         ORDER BY day DESC LIMIT 20",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter().map(Puzzle::try_from).collect()
}

/// Stores the bot's total on a puzzle, once: a second instance's answer changes nothing.
pub async fn set_bot_score(
    db: &Database,
    day: Day,
    version: &str,
    score: i32,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE daily_puzzles SET bot_score = $3 WHERE day = $1 AND version = $2 AND bot_score IS NULL",
    )
    .bind(day.0)
    .bind(version)
    .bind(i64::from(score))
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Finished attempts still without their review: game ids, oldest first.
pub async fn attempts_without_review(db: &Database) -> Result<Vec<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT game_id FROM daily_attempts WHERE finished_at IS NOT NULL AND review IS NULL
         ORDER BY finished_at LIMIT 50",
    )
    .fetch_all(&db.pool)
    .await?)
}

/// Stores an attempt's review (once) and tells its open page.
pub async fn set_review(
    db: &Database,
    game_id: &str,
    review: &[ReviewTurn],
) -> Result<(), StoreError> {
    let json = serde_json::to_string(review).map_err(|e| StoreError::Data(e.to_string()))?;
    let done =
        sqlx::query("UPDATE daily_attempts SET review = $2 WHERE game_id = $1 AND review IS NULL")
            .bind(game_id)
            .bind(json)
            .execute(&db.pool)
            .await?;
    if done.rows_affected() == 1 {
        games::tell_players(db, game_id).await;
    }
    Ok(())
}

/// `user`'s line in the standings of `day` in `dictionary`, once they finished.
pub async fn standing_of(
    db: &Database,
    day: Day,
    dictionary: DictionaryId,
    user: &User,
) -> Result<Option<Standing>, StoreError> {
    let Some(game_id) = attempt_of(db, user.id, dictionary, day).await? else {
        return Ok(None);
    };
    let Some(score) =
        sqlx::query_scalar::<_, Option<i32>>("SELECT score FROM daily_attempts WHERE game_id = $1")
            .bind(&game_id)
            .fetch_one(&db.pool)
            .await?
    else {
        return Ok(None);
    };
    let (place, _) = place(db, day, dictionary, &game_id).await?;
    Ok(Some(Standing {
        place,
        name: user.name.clone(),
        score,
        game_id,
    }))
}

/// The Expert bot's total on the puzzle of `day` in `dictionary`, once computed.
pub async fn bot_score(
    db: &Database,
    day: Day,
    dictionary: DictionaryId,
) -> Result<Option<i32>, StoreError> {
    Ok(sqlx::query_scalar::<_, Option<i32>>(
        "SELECT bot_score FROM daily_puzzles WHERE day = $1 AND dictionary = $2",
    )
    .bind(day.0)
    .bind(dictionary.as_str())
    .fetch_optional(&db.pool)
    .await?
    .flatten())
}

/// Forgets `user`'s Daily Challenge attempts (see [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM daily_attempts WHERE user_id = $1"],
    )
    .await
}
