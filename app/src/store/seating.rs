//! Who sits where: creating a game with its seats (a bot, an invite link, an open lobby seat or
//! pass-and-play), joining one, the active-game limit, invite links and the list of a player's games.

use std::collections::HashMap;

use rules::{game::Format, GameConfig, RuleSet, Seat};
use sqlx::{any::AnyRow, Row};

use super::{
    accounts::User,
    db::{now_ms, Database},
    games, StoreError,
};
use crate::domain::{
    NewGame, Opponent, Phase, Refusal, BLITZ_INVITE_TTL_MS, INVITE_TTL_MS, MAX_ACTIVE_GAMES,
};

/// A seat as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    /// Seat number.
    pub seat: Seat,
    /// The person in it, with their name.
    pub user: Option<(i64, String)>,
    /// The bot in it: its level's name.
    pub bot: Option<String>,
    /// In a Ready lobby: whether they pressed Ready.
    pub ready: bool,
    /// Pass-and-play: the seat's own name.
    pub local_name: Option<String>,
}

/// A game's row without its log.
#[derive(Debug, Clone)]
pub struct GameRow {
    /// Id.
    pub id: String,
    /// Config, with the secret seed: never send it.
    pub config: GameConfig,
    /// Stored phase.
    pub phase: Phase,
    /// `bot`, `invite`, `lobby` or `local`.
    pub opponent: String,
    /// Last change, unix ms.
    pub updated_at: i64,
    /// When the player to move runs out of time, unix ms; `None` when no clock runs.
    pub deadline_at: Option<i64>,
    /// In a Ready lobby, once both are ready: when the match starts, unix ms.
    pub starts_at: Option<i64>,
    /// Whether its end moves the players' ranks.
    pub rated: bool,
    /// Actions in its log: the version a page shows and a move is judged against.
    pub version: u32,
}

/// A freshly created game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    /// Its id.
    pub id: String,
    /// For an invite game, the link's token.
    pub invite_token: Option<String>,
}

/// A new game's secret seed: random, unless `ALFAKRAFT_FIXED_SEED` is set, which gives every new
/// game the same deal. That is for tests that need a known deal (a browser test that earns a
/// reward); the server warns at start when it is set, and it must never be set in production.
pub(crate) fn random_seed() -> u64 {
    if let Some(seed) = fixed_seed() {
        return seed;
    }
    let bytes = uuid::Uuid::new_v4().into_bytes();
    u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default())
}

/// The seed every new game gets, when `ALFAKRAFT_FIXED_SEED` is set (tests only).
pub fn fixed_seed() -> Option<u64> {
    std::env::var("ALFAKRAFT_FIXED_SEED").ok()?.parse().ok()
}

fn random_token() -> String {
    // Two v4 UUIDs: 244 random bits, far past guessing.
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Games the user has waiting or in play.
pub async fn active_count(db: &Database, user_id: i64) -> Result<u32, StoreError> {
    let count: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT g.id) FROM games g JOIN game_seats s ON s.game_id = g.id
         WHERE s.user_id = $1 AND g.status IN ('waiting', 'ready', 'playing')",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

pub(crate) async fn check_room(db: &Database, user_id: i64) -> Result<(), StoreError> {
    if active_count(db, user_id).await? >= MAX_ACTIVE_GAMES {
        return Err(Refusal::TooManyGames(MAX_ACTIVE_GAMES).into());
    }
    Ok(())
}

/// Creates a game for `owner`. Against a bot the owner moves first; an invite or lobby game waits
/// for its second player, who will move first (RULES.md: the joining player starts).
pub async fn create(db: &Database, owner: &User, new: &NewGame) -> Result<Created, StoreError> {
    if matches!(new.variant, rules::Variant::Daily { .. }) {
        return Err(Refusal::Invalid(
            "the Daily Challenge is started from its own card on the start page".into(),
        )
        .into());
    }
    if let rules::Variant::Alfapet { hand_size, .. } = new.variant {
        if !(6..=8).contains(&hand_size) {
            return Err(Refusal::Invalid(format!(
                "Alfapet is played with hands of 6, 7 or 8 tiles, not {hand_size}"
            ))
            .into());
        }
    }
    if !crate::domain::fits(new.variant, new.dictionary) {
        return Err(Refusal::Invalid(format!(
            "this ruleset is not played with the {} dictionary",
            new.dictionary.name()
        ))
        .into());
    }
    let rules = RuleSet::new(new.variant);
    let players = match &new.opponent {
        Opponent::Bot { level } => {
            if engine::bot::Level::parse(level).is_none() {
                return Err(
                    Refusal::Invalid(format!("there is no bot level called {level}")).into(),
                );
            }
            2
        }
        Opponent::PassAndPlay { players, names } => {
            if let Some(long) = names
                .iter()
                .find(|n| n.trim().chars().count() > crate::domain::LOCAL_NAME_MAX)
            {
                return Err(Refusal::Invalid(format!(
                    "the name {long:?} is longer than {} letters",
                    crate::domain::LOCAL_NAME_MAX
                ))
                .into());
            }
            if !(rules.min_players..=rules.max_players).contains(players) {
                return Err(Refusal::Invalid(format!(
                    "this ruleset is for {} to {} players",
                    rules.min_players, rules.max_players
                ))
                .into());
            }
            *players
        }
        Opponent::Invite | Opponent::Lobby if owner.guest => {
            return Err(Refusal::AccountNeeded.into())
        }
        Opponent::Invite | Opponent::Lobby => 2,
    };
    check_room(db, owner.id).await?;
    if new.format == Format::Blitz && !matches!(new.opponent, Opponent::PassAndPlay { .. }) {
        super::clock::check_one_blitz(db, owner.id).await?;
    }
    let waits = matches!(new.opponent, Opponent::Invite | Opponent::Lobby);
    let config = GameConfig {
        variant: new.variant,
        // The version active now: the game keeps it to its end, whatever is published meanwhile.
        dictionary: super::versions::active_ref(db, new.dictionary)
            .await?
            .to_string(),
        seed: random_seed(),
        players,
        // The owner sits in seat 0; a joining player takes seat 1 and starts.
        first_seat: if waits { 1 } else { 0 },
        format: new.format,
    };
    let status = if waits { "waiting" } else { "playing" };
    let (_writer, mut tx) = db.begin_write().await?;
    let id = games::insert(&mut tx, &config, status, new.opponent.kind(), new.rated).await?;
    for seat in 0..players {
        let (user, bot) = match &new.opponent {
            _ if seat == 0 => (Some(owner.id), None),
            Opponent::Bot { level } => (None, Some(level.as_str())),
            Opponent::PassAndPlay { .. } => (Some(owner.id), None),
            Opponent::Invite | Opponent::Lobby => (None, None),
        };
        let local_name = match &new.opponent {
            Opponent::PassAndPlay { names, .. } => Some(local_name(names, seat, &owner.name)),
            _ => None,
        };
        sqlx::query(
            "INSERT INTO game_seats (game_id, seat, user_id, bot, local_name) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(i64::from(seat))
        .bind(user)
        .bind(bot)
        .bind(local_name)
        .execute(&mut *tx)
        .await?;
    }
    let invite_token = if new.opponent == Opponent::Invite {
        let token = random_token();
        let ttl = match new.format {
            Format::Blitz => BLITZ_INVITE_TTL_MS,
            Format::Casual => INVITE_TTL_MS,
        };
        sqlx::query(
            "INSERT INTO invites (token, game_id, expires_at, state) VALUES ($1, $2, $3, 'open')",
        )
        .bind(&token)
        .bind(&id)
        .bind(now_ms() + ttl)
        .execute(&mut *tx)
        .await?;
        Some(token)
    } else {
        None
    };
    tx.commit().await?;
    Ok(Created { id, invite_token })
}

fn game_row(row: &AnyRow) -> Result<GameRow, StoreError> {
    let config: String = row.try_get("config")?;
    let phase: String = row.try_get("status")?;
    let opponent: String = row.try_get("opponent")?;
    Ok(GameRow {
        id: row.try_get("id")?,
        config: serde_json::from_str(&config).map_err(|e| StoreError::Data(e.to_string()))?,
        phase: Phase::parse(&phase).ok_or_else(|| StoreError::Data(format!("status {phase}")))?,
        opponent: opponent.clone(),
        updated_at: row.try_get("updated_at")?,
        deadline_at: row.try_get("deadline_at")?,
        starts_at: row.try_get("starts_at")?,
        rated: super::ranks::is_rated(&opponent, row.try_get::<i64, _>("rated")? != 0),
        version: u32::try_from(row.try_get::<i64, _>("version")?).unwrap_or(0),
    })
}

/// A game's row.
pub async fn game(db: &Database, id: &str) -> Result<GameRow, StoreError> {
    let row = sqlx::query(
        "SELECT id, config, status, opponent, updated_at, deadline_at, starts_at, rated, version FROM games
         WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(Refusal::NoSuchGame)?;
    game_row(&row)
}

/// A game at its table: the row, who sits where, and the seated players' ranks, read together
/// because a page and a move need all three and each query is a round trip to the database's
/// thread.
#[derive(Debug)]
pub struct Table {
    /// The game's row.
    pub game: GameRow,
    /// Its seats, in order.
    pub seats: Vec<SeatRow>,
    /// The seated players' ranks, in every dictionary they have one in.
    pub ranks: super::ranks::Ranks,
}

/// Game `id` at its table, in one query.
pub async fn table(db: &Database, id: &str) -> Result<Table, StoreError> {
    // The seat columns first, in `seat_row`'s order; the game's are read by name. A seated player
    // has a row per dictionary they are ranked in (at most one per dictionary), anyone else one.
    let rows = sqlx::query(
        "SELECT s.seat, s.user_id, u.name, s.bot, s.ready, s.game_id, s.local_name,
                g.id, g.config, g.status, g.opponent, g.updated_at, g.deadline_at, g.starts_at, g.rated, g.version,
                r.dictionary, r.rank, r.games
         FROM games g JOIN game_seats s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id
         LEFT JOIN ranks r ON r.user_id = s.user_id
         WHERE g.id = $1 ORDER BY s.seat",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await?;
    let game = game_row(rows.first().ok_or(Refusal::NoSuchGame)?)?;
    let mut seats: Vec<SeatRow> = Vec::new();
    let mut ranks = super::ranks::Ranks::default();
    for row in &rows {
        let seat = seat_row(row)?;
        if let (Some((user, _)), Some(dictionary)) =
            (&seat.user, row.try_get::<Option<String>, _>("dictionary")?)
        {
            ranks.add(
                *user,
                &dictionary,
                row.try_get("rank")?,
                row.try_get("games")?,
            );
        }
        if seats.last().is_none_or(|last| last.seat != seat.seat) {
            seats.push(seat);
        }
    }
    Ok(Table { game, seats, ranks })
}

/// A pass-and-play seat's name: the one given, without control characters and with its spaces
/// tidied, else the owner's for the first seat and "Player 2" and so on for the others.
fn local_name(names: &[String], seat: Seat, owner: &str) -> String {
    let given = names
        .get(usize::from(seat))
        .map(|n| n.replace(char::is_control, " "))
        .map(|n| n.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|n| !n.is_empty());
    given.unwrap_or_else(|| match seat {
        0 => owner.to_string(),
        n => format!("Player {}", n + 1),
    })
}

/// A game's seats in order.
pub async fn seats(db: &Database, game_id: &str) -> Result<Vec<SeatRow>, StoreError> {
    Ok(seats_of(db, &[game_id])
        .await?
        .remove(game_id)
        .unwrap_or_default())
}

/// The seats of several games in one query, by game id (a list page needs them all).
pub async fn seats_of(
    db: &Database,
    game_ids: &[&str],
) -> Result<HashMap<String, Vec<SeatRow>>, StoreError> {
    let mut by_game: HashMap<String, Vec<SeatRow>> = HashMap::new();
    if game_ids.is_empty() {
        return Ok(by_game);
    }
    let sql = format!(
        "SELECT s.seat, s.user_id, u.name, s.bot, s.ready, s.game_id, s.local_name FROM game_seats s
         LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id IN ({}) ORDER BY s.game_id, s.seat",
        super::db::placeholders(1, game_ids.len())
    );
    let mut query = sqlx::query(&sql);
    for id in game_ids {
        query = query.bind(*id);
    }
    for row in query.fetch_all(&db.pool).await? {
        by_game
            .entry(row.try_get(5)?)
            .or_default()
            .push(seat_row(&row)?);
    }
    Ok(by_game)
}

/// A seat from a row of seat, user id, name, bot, ready, game id and local name.
fn seat_row(row: &AnyRow) -> Result<SeatRow, StoreError> {
    let user: Option<i64> = row.try_get(1)?;
    let name: Option<String> = row.try_get(2)?;
    Ok(SeatRow {
        seat: Seat::try_from(row.try_get::<i64, _>(0)?).unwrap_or(Seat::MAX),
        user: user.zip(name),
        bot: row.try_get(3)?,
        ready: row.try_get::<i64, _>(4)? != 0,
        local_name: row.try_get(6)?,
    })
}

/// The user's seats in a game; refused as "no such game" when they have none, so a stranger
/// cannot even learn that the game exists.
pub async fn my_seats(db: &Database, game_id: &str, user_id: i64) -> Result<Vec<Seat>, StoreError> {
    mine(&seats(db, game_id).await?, user_id)
}

/// The seats among `seats` that `user_id` holds; refused as no such game when none.
pub fn mine(seats: &[SeatRow], user_id: i64) -> Result<Vec<Seat>, StoreError> {
    let mine: Vec<Seat> = seats
        .iter()
        .filter(|s| s.user.as_ref().is_some_and(|(id, _)| *id == user_id))
        .map(|s| s.seat)
        .collect();
    if mine.is_empty() {
        return Err(Refusal::NoSuchGame.into());
    }
    Ok(mine)
}

/// The user's games: every waiting or playing one, then the 20 most recently finished.
pub async fn my_games(db: &Database, user_id: i64) -> Result<Vec<GameRow>, StoreError> {
    let select = "SELECT DISTINCT g.id, g.config, g.status, g.opponent, g.updated_at, g.deadline_at, g.starts_at, g.rated, g.version
         FROM games g
         JOIN game_seats s ON s.game_id = g.id WHERE s.user_id = $1";
    let active = sqlx::query(&format!(
        "{select} AND g.status IN ('waiting', 'ready', 'playing') ORDER BY g.updated_at DESC"
    ))
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    let finished = sqlx::query(&format!(
        "{select} AND g.status IN ('over', 'cancelled') ORDER BY g.updated_at DESC LIMIT 20"
    ))
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    active.iter().chain(&finished).map(game_row).collect()
}

/// Open lobby games, newest first, with the name of the player waiting in each.
pub async fn lobby(db: &Database) -> Result<Vec<(GameRow, i64, String)>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.id, g.config, g.status, g.opponent, g.updated_at, g.deadline_at, g.starts_at, g.rated, g.version,
         u.id AS owner, u.name
         FROM games g
         JOIN game_seats s ON s.game_id = g.id AND s.seat = 0 JOIN users u ON u.id = s.user_id
         WHERE g.status = 'waiting' AND g.opponent = 'lobby' ORDER BY g.updated_at DESC LIMIT 100",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| Ok((game_row(row)?, row.try_get("owner")?, row.try_get("name")?)))
        .collect()
}

/// An invite link as stored: its game, owner (id and name), expiry and whether it is still open.
pub async fn invite(
    db: &Database,
    token: &str,
) -> Result<(GameRow, (i64, String), i64, bool), StoreError> {
    let row = sqlx::query(
        "SELECT g.id, g.config, g.status, g.opponent, g.updated_at, g.deadline_at, g.starts_at, g.rated, g.version,
         u.id AS owner, u.name,
         i.expires_at,
         i.state
         FROM invites i JOIN games g ON g.id = i.game_id
         JOIN game_seats s ON s.game_id = g.id AND s.seat = 0 JOIN users u ON u.id = s.user_id
         WHERE i.token = $1",
    )
    .bind(token)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(Refusal::InviteClosed)?;
    let game = game_row(&row)?;
    let expires_at: i64 = row.try_get("expires_at")?;
    let state: String = row.try_get("state")?;
    let open = state == "open" && expires_at > now_ms() && game.phase == Phase::Waiting;
    Ok((
        game,
        (row.try_get("owner")?, row.try_get("name")?),
        expires_at,
        open,
    ))
}

/// Takes seat 1 of a waiting game: through an invite `token`, or from the lobby without one.
/// Exactly one of two racing joiners gets the seat; the game then starts with them to move (a
/// friend Blitz match first goes to the Ready lobby).
pub async fn join(
    db: &Database,
    user: &User,
    game_id: &str,
    token: Option<&str>,
) -> Result<(), StoreError> {
    let game = game(db, game_id).await?;
    let owner = seats(db, game_id).await?.into_iter().find(|s| s.seat == 0);
    if owner
        .and_then(|s| s.user)
        .is_some_and(|(id, _)| id == user.id)
    {
        return Err(Refusal::OwnGame.into());
    }
    match token {
        Some(_) if game.opponent != "invite" => return Err(Refusal::InviteClosed.into()),
        None if game.opponent != "lobby" => return Err(Refusal::NoSuchGame.into()),
        _ => {}
    }
    if user.guest {
        return Err(Refusal::AccountNeeded.into());
    }
    if game.phase != Phase::Waiting {
        return Err(match token {
            Some(_) => Refusal::InviteClosed,
            None => Refusal::NotStarted,
        }
        .into());
    }
    check_room(db, user.id).await?;
    if game.config.format == Format::Blitz {
        super::clock::check_one_blitz(db, user.id).await?;
    }
    let now = now_ms();
    let (_writer, mut tx) = db.begin_write().await?;
    if let Some(token) = token {
        let answered = sqlx::query(
            "UPDATE invites SET state = 'accepted' WHERE token = $1 AND game_id = $2
             AND state = 'open' AND expires_at > $3",
        )
        .bind(token)
        .bind(game_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if answered.rows_affected() != 1 {
            return Err(Refusal::InviteClosed.into());
        }
    }
    let seated = sqlx::query(
        "UPDATE game_seats SET user_id = $1 WHERE game_id = $2 AND seat = 1 AND user_id IS NULL",
    )
    .bind(user.id)
    .bind(game_id)
    .execute(&mut *tx)
    .await?;
    // Friends start a Blitz match together, from the Ready lobby; anything else starts now.
    let ready_lobby = game.config.format == Format::Blitz && game.opponent == "invite";
    let (status, deadline) = match ready_lobby {
        true => ("ready", None),
        false => (
            "playing",
            super::clock::deadline(&game.config, &game.opponent, now),
        ),
    };
    let started = sqlx::query(
        "UPDATE games SET status = $4, updated_at = $2, deadline_at = $3
         WHERE id = $1 AND status = 'waiting'",
    )
    .bind(game_id)
    .bind(now)
    .bind(deadline)
    .bind(status)
    .execute(&mut *tx)
    .await?;
    if seated.rows_affected() != 1 || started.rows_affected() != 1 {
        // Someone else took the seat first; the transaction is dropped, so nothing changed.
        return Err(match token {
            Some(_) => Refusal::InviteClosed,
            None => Refusal::NotStarted,
        }
        .into());
    }
    tx.commit().await?;
    db.game_changed(game_id).await;
    Ok(())
}

/// Declines an invite: the link closes and the waiting game is called off.
pub async fn decline(db: &Database, token: &str) -> Result<(), StoreError> {
    let (game, _, _, open) = invite(db, token).await?;
    if !open {
        return Err(Refusal::InviteClosed.into());
    }
    let (_writer, mut tx) = db.begin_write().await?;
    let answered =
        sqlx::query("UPDATE invites SET state = 'declined' WHERE token = $1 AND state = 'open'")
            .bind(token)
            .execute(&mut *tx)
            .await?;
    if answered.rows_affected() != 1 {
        return Err(Refusal::InviteClosed.into());
    }
    cancel_waiting(&mut tx, &game.id).await?;
    tx.commit().await?;
    db.game_changed(&game.id).await;
    Ok(())
}

async fn cancel_waiting(conn: &mut sqlx::AnyConnection, game_id: &str) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET status = 'cancelled', updated_at = $2
         WHERE id = $1 AND status IN ('waiting', 'ready')",
    )
    .bind(game_id)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected())
}

/// Withdraws a waiting game its owner no longer wants, or a Ready lobby either player leaves for
/// good.
pub async fn withdraw(db: &Database, game_id: &str) -> Result<bool, StoreError> {
    let mut conn = db.pool.acquire().await?;
    Ok(cancel_waiting(&mut conn, game_id).await? == 1)
}

/// Calls off waiting invite games whose link expired; returns how many.
pub async fn expire_invites(db: &Database) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET status = 'cancelled', updated_at = $1 WHERE status = 'waiting'
         AND id IN (SELECT game_id FROM invites WHERE state = 'open' AND expires_at <= $1)",
    )
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected())
}

/// Games in play where a bot is to move: (game id, bot level). Read from the stored `to_move`,
/// which every commit keeps current.
pub async fn bot_turns(db: &Database) -> Result<Vec<(String, String)>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.id, s.bot FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         WHERE g.status = 'playing' AND s.bot IS NOT NULL ORDER BY g.updated_at",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
        .collect()
}

/// The open invite token of a waiting game, for its owner to share again.
pub async fn open_invite_token(db: &Database, game_id: &str) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT token FROM invites WHERE game_id = $1 AND state = 'open' AND expires_at > $2",
    )
    .bind(game_id)
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await?)
}
