//! Games against a bot played on the player's device, sent to their account while they go on
//! and once over. The record is the ruleset, the dictionary version, the seed and the actions;
//! the server replays it under the rules and keeps it only if every action replays and the
//! scores are the ones the device showed. Over, it is then a finished, unrated bot game like any
//! other: in the player's list, with its history, analysis, GCG and the player's results. Going
//! on, the account keeps the latest copy (`device_copies`), so the game is not lost with the
//! device and can go on on another of the player's; the copy goes when the game ends. Nothing
//! of a refused record is stored.

use dictionaries::DictionaryRef;
use domain::{
    DeviceCopy, DeviceGame, DeviceKept, OpponentKind, Phase, Refusal, DEVICE_COPIES,
    DEVICE_GAME_ACTIONS,
};
use rules::{GameConfig, GameState, Lexicon, RuleSet, Status};

use crate::{
    accounts::User,
    db::{now_ms, Database},
    ended::GameEnded,
    games::{self, GameError},
    StoreError,
};

/// The longest key a device may name its game by.
const KEY_MAX: usize = 64;

/// Keeps `game`, played by `owner` on their device with `lexicon` (the version it names): over,
/// as a game of theirs (its id; a game this owner sent before under the same key is not stored
/// again); going on, as its copy.
pub async fn record<L: Lexicon + ?Sized>(
    db: &Database,
    owner: &User,
    game: &DeviceGame,
    lexicon: &L,
) -> Result<DeviceKept, StoreError> {
    let (config, state) = replay(game, lexicon)?;
    let key = format!("{}:{}", owner.id, game.key);
    if let Some(id) = stored(db, &key).await? {
        // Over already: a copy sent late changes nothing.
        return Ok(DeviceKept::Game(id));
    }
    if *state.status() == Status::Playing {
        keep_copy(db, owner, game).await?;
        return Ok(DeviceKept::Copy);
    }
    match write(db, owner, game, &key, &config, &state).await {
        Ok(id) => {
            games::tell_players(db, &id).await;
            Ok(DeviceKept::Game(id))
        }
        // The same game sent twice at once: the other send stored it.
        Err(StoreError::Database(sqlx::Error::Database(e))) if e.is_unique_violation() => {
            stored(db, &key)
                .await?
                .map(DeviceKept::Game)
                .ok_or_else(|| StoreError::Data(e.to_string()))
        }
        Err(error) => Err(error),
    }
}

/// Keeps `game` (going on, replayed) as `owner`'s copy of it, unless the copy kept has more
/// actions: sends can arrive out of order, and the later game is the longer one.
async fn keep_copy(db: &Database, owner: &User, game: &DeviceGame) -> Result<(), StoreError> {
    let record = serde_json::to_string(game).map_err(GameError::from)?;
    let (_writer, mut tx) = db.begin_write().await?;
    let (kept, known): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COUNT(CASE WHEN device_key = $2 THEN 1 END)
         FROM device_copies WHERE user_id = $1",
    )
    .bind(owner.id)
    .bind(&game.key)
    .fetch_one(&mut *tx)
    .await?;
    if known == 0 && kept >= DEVICE_COPIES as i64 {
        return Err(Refusal::Invalid(format!(
            "your account keeps at most {DEVICE_COPIES} games going on on your devices: \
             finish or discard one first"
        ))
        .into());
    }
    sqlx::query(
        "INSERT INTO device_copies (user_id, device_key, record, actions, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id, device_key) DO UPDATE
         SET record = excluded.record, actions = excluded.actions, updated_at = excluded.updated_at
         WHERE device_copies.actions <= excluded.actions",
    )
    .bind(owner.id)
    .bind(&game.key)
    .bind(record)
    .bind(game.actions.len() as i64)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The games going on on `owner`'s devices, as last sent, newest first.
pub async fn copies(db: &Database, owner: &User) -> Result<Vec<DeviceCopy>, StoreError> {
    let rows: Vec<CopyRow> = sqlx::query_as(
        "SELECT record, updated_at FROM device_copies WHERE user_id = $1
         ORDER BY updated_at DESC, device_key",
    )
    .bind(owner.id)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter().map(CopyRow::copy).collect()
}

/// Forgets `owner`'s copy of the game their device calls `key` (discarded there).
pub async fn discard(db: &Database, owner: &User, key: &str) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    forget_copy(&mut tx, owner, key).await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes `owner`'s copy of the game kept under `key`, if there is one.
async fn forget_copy(
    conn: &mut sqlx::AnyConnection,
    owner: &User,
    key: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM device_copies WHERE user_id = $1 AND device_key = $2")
        .bind(owner.id)
        .bind(key)
        .execute(conn)
        .await?;
    Ok(())
}

/// Forgets every copy a closing account keeps.
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM device_copies WHERE user_id = $1"],
    )
    .await
}

/// A copy as stored.
#[derive(sqlx::FromRow)]
struct CopyRow {
    record: String,
    updated_at: i64,
}

impl CopyRow {
    fn copy(self) -> Result<DeviceCopy, StoreError> {
        Ok(DeviceCopy {
            game: serde_json::from_str(&self.record).map_err(GameError::from)?,
            updated_at: self.updated_at,
        })
    }
}

/// The game's writes, in one transaction: its row, its log, its seats, and the player's results.
async fn write(
    db: &Database,
    owner: &User,
    game: &DeviceGame,
    key: &str,
    config: &GameConfig,
    state: &GameState,
) -> Result<String, StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let id = games::insert(&mut tx, config, Phase::Over, OpponentKind::Bot, false).await?;
    let now = now_ms();
    sqlx::query(
        "UPDATE games SET version = $2, to_move = $3, summary = $4, device_key = $5 WHERE id = $1",
    )
    .bind(&id)
    .bind(i64::from(state.version()))
    .bind(i32::from(state.to_move()))
    .bind(serde_json::to_string(&domain::GameSummary::of(state)).map_err(GameError::from)?)
    .bind(key)
    .execute(&mut *tx)
    .await?;
    for (seq, action) in game.actions.iter().enumerate() {
        sqlx::query(
            "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&id)
        .bind(seq as i64)
        .bind(serde_json::to_string(action).map_err(GameError::from)?)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    for seat in 0..config.players {
        let (user, bot) = match seat == game.bot_seat {
            true => (None, Some(game.level.as_str())),
            false => (Some(owner.id), None),
        };
        sqlx::query("INSERT INTO game_seats (game_id, seat, user_id, bot) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(i64::from(seat))
            .bind(user)
            .bind(bot)
            .execute(&mut *tx)
            .await?;
    }
    // The player's results, as for a game that ended on the server (a bot game moves no rank).
    let seats = games::ended_seats(&mut tx, &id).await?;
    let ended = GameEnded {
        game_id: &id,
        state,
        seats: &seats,
        rated: false,
        opponent: OpponentKind::Bot,
        at: now,
    };
    for react in db.on_game_end {
        react(&mut tx, &ended).await?;
    }
    // Over, it is the account's game: the copy kept while it went on goes.
    forget_copy(&mut tx, owner, &game.key).await?;
    tx.commit().await?;
    Ok(id)
}

/// The game `game` describes, replayed: its config and the state its actions leave, or why it is
/// refused.
fn replay<L: Lexicon + ?Sized>(
    game: &DeviceGame,
    lexicon: &L,
) -> Result<(GameConfig, GameState), StoreError> {
    let refuse = |why: String| -> StoreError { Refusal::Invalid(why).into() };
    if game.rated {
        return Err(refuse("a game against a bot is never rated".into()));
    }
    if game.key.is_empty()
        || game.key.len() > KEY_MAX
        || !game
            .key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Err(refuse(format!(
            "a device game's key is 1 to {KEY_MAX} letters, digits and dashes"
        )));
    }
    if engine::bot::Level::parse(&game.level).is_none() {
        return Err(refuse(format!(
            "there is no bot level called {}",
            game.level
        )));
    }
    if game.actions.len() > DEVICE_GAME_ACTIONS {
        return Err(refuse(format!(
            "a game of more than {DEVICE_GAME_ACTIONS} actions is not one that was played"
        )));
    }
    let dictionary = DictionaryRef::parse(&game.dictionary)
        .ok_or_else(|| refuse(format!("there is no dictionary {}", game.dictionary)))?;
    super::playable(game.variant, dictionary.id)?;
    let rules = RuleSet::new(game.variant);
    if !(rules.min_players..=rules.max_players).contains(&2)
        || game.bot_seat > 1
        || game.first_seat > 1
    {
        return Err(refuse(
            "a bot game has two seats, numbered 0 and 1, and this ruleset is not played so".into(),
        ));
    }
    let config = GameConfig {
        variant: game.variant,
        dictionary: dictionary.to_string(),
        seed: game.seed,
        players: 2,
        first_seat: game.first_seat,
        format: rules::game::Format::Casual,
    };
    let mut state = GameState::new(config.clone());
    for (index, action) in game.actions.iter().enumerate() {
        state
            .apply(action, lexicon)
            .map_err(|error| refuse(format!("action {} does not replay: {error}", index + 1)))?;
    }
    let scores = match state.status() {
        Status::Over(outcome) => outcome.final_scores.clone(),
        Status::Playing => domain::GameSummary::of(&state).scores,
    };
    if scores != game.scores {
        return Err(refuse(format!(
            "the scores sent ({:?}) are not the ones the moves make ({scores:?})",
            game.scores
        )));
    }
    Ok((config, state))
}

/// The game `owner` stored under `key` before, if any.
async fn stored(db: &Database, key: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM games WHERE device_key = $1")
        .bind(key)
        .fetch_optional(&db.pool)
        .await
}
