//! Who sits where: creating a game with its seats (a bot, an invite link, an open lobby seat or
//! pass-and-play), joining one, the active-game and one-Blitz limits, invite links, the list of a
//! player's games, rematches ([`rematch`]), and games played on a device sent to the account
//! ([`device`]).

pub mod device;
pub mod rematch;

use std::collections::HashMap;

use domain::{
    GameSummary, NewGame, Opponent, OpponentKind, Phase, Refusal, BLITZ_INVITE_TTL_MS,
    INVITE_TTL_MS, LOCAL_NAME_MAX, MAX_ACTIVE_GAMES,
};
use rules::{game::Format, GameConfig, RuleSet, Seat};

use crate::{
    accounts::User,
    blocks::{self, Contact},
    bus::Change,
    db::{now_ms, placeholders, Database},
    games::{self, GameRecord, GameRow, GAME_COLUMNS},
    library::versions,
    moderation, push,
    ranks::Ranks,
    rows::Json,
    rows::{word_column, Word},
    services::Services,
    StoreError,
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
    /// The person in it closed their account: `user` keeps their id (the game's record stays
    /// whole) with a placeholder name; pages name them "deleted player".
    pub closed: bool,
    /// The person in it turned chat off (read with the seat, so a game's chat needs no second
    /// look at its players).
    pub chat_off: bool,
}

/// A freshly created game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    /// Its id.
    pub id: String,
    /// For an invite game, the link's token.
    pub invite_token: Option<String>,
}

/// A new game's secret seed: random, unless the database was given a fixed one, which gives
/// every new game the same deal. That is for tests that need a known deal (a browser test that
/// earns a reward); the server warns at start when it is set, and it must never be set in
/// production.
pub(crate) fn random_seed(db: &Database) -> u64 {
    if let Some(seed) = db.fixed_seed {
        return seed;
    }
    let bytes = uuid::Uuid::new_v4().into_bytes();
    u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default())
}

fn random_token() -> String {
    // Two v4 UUIDs: 244 random bits, far past guessing.
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Games the user has waiting or in play, but for league and tournament games: a season makes a
/// division's games all at once (up to 30 a player), and a tournament its rounds, neither of which
/// may shut the player out of any other game.
pub async fn active_count(db: &Database, user_id: i64) -> Result<u32, StoreError> {
    let count: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT g.id) FROM games g JOIN game_seats s ON s.game_id = g.id
         WHERE s.user_id = $1 AND g.status IN ('waiting', 'ready', 'playing')
           AND g.opponent NOT IN ('league', 'tournament')",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

/// Refuses a new game or a seat to a suspended player, or to one with [`MAX_ACTIVE_GAMES`]
/// waiting or in play.
pub(crate) async fn check_room(db: &Database, user_id: i64) -> Result<(), StoreError> {
    moderation::check_may_play(db, user_id).await?;
    if active_count(db, user_id).await? >= MAX_ACTIVE_GAMES {
        return Err(Refusal::TooManyGames(MAX_ACTIVE_GAMES).into());
    }
    Ok(())
}

/// Refuses a ruleset one cannot start a game of (the Daily Challenge starts from its own card),
/// options out of their range, or a dictionary the ruleset is not played with.
pub(crate) fn playable(
    variant: rules::Variant,
    dictionary: dictionaries::DictionaryId,
) -> Result<(), StoreError> {
    if matches!(variant, rules::Variant::Daily { .. }) {
        return Err(Refusal::Invalid(
            "the Daily Challenge is started from its own card on the start page".into(),
        )
        .into());
    }
    if let rules::Variant::Alfapet { hand_size, .. } = variant {
        if !(6..=8).contains(&hand_size) {
            return Err(Refusal::Invalid(format!(
                "Alfapet is played with hands of 6, 7 or 8 tiles, not {hand_size}"
            ))
            .into());
        }
    }
    if !domain::fits(variant, dictionary) {
        return Err(Refusal::Invalid(format!(
            "this ruleset is not played with the {} dictionary",
            dictionary.name()
        ))
        .into());
    }
    Ok(())
}

/// Creates a game for `owner`. Against a bot the owner moves first; an invite or lobby game waits
/// for its second player, who will move first (docs/rules.md: the joining player starts).
pub async fn create(db: &Database, owner: &User, new: &NewGame) -> Result<Created, StoreError> {
    playable(new.variant, new.dictionary)?;
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
            if let Some(long) = domain::overlong_local_name(names) {
                return Err(Refusal::Invalid(format!(
                    "the name {long:?} is longer than {LOCAL_NAME_MAX} letters"
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
        Opponent::Invite | Opponent::Lobby | Opponent::Friend { .. } if owner.guest => {
            return Err(Refusal::AccountNeeded.into())
        }
        Opponent::Invite | Opponent::Lobby | Opponent::Friend { .. } => 2,
    };
    let invitee = match &new.opponent {
        Opponent::Friend { name } => {
            let friend = blocks::other(db, owner, name).await?;
            blocks::check(db, owner.id, friend.id, Contact::Challenge(name)).await?;
            Some(friend.id)
        }
        _ => None,
    };
    check_room(db, owner.id).await?;
    if new.format == Format::Blitz && !matches!(new.opponent, Opponent::PassAndPlay { .. }) {
        check_one_blitz(db, owner.id).await?;
    }
    let waits = matches!(
        new.opponent,
        Opponent::Invite | Opponent::Lobby | Opponent::Friend { .. }
    );
    let config = GameConfig {
        variant: new.variant,
        // The version active now: the game keeps it to its end, whatever is published meanwhile.
        dictionary: versions::active_ref(db, new.dictionary).await?.to_string(),
        seed: random_seed(db),
        players,
        // The owner sits in seat 0; a joining player takes seat 1 and starts.
        first_seat: if waits { 1 } else { 0 },
        format: new.format,
    };
    let phase = if waits {
        Phase::Waiting
    } else {
        Phase::Playing
    };
    let (_writer, mut tx) = db.begin_write().await?;
    let id = games::insert(&mut tx, &config, phase, new.opponent.kind(), new.rated).await?;
    for seat in 0..players {
        let (user, bot) = match &new.opponent {
            _ if seat == 0 => (Some(owner.id), None),
            Opponent::Bot { level } => (None, Some(level.as_str())),
            Opponent::PassAndPlay { .. } => (Some(owner.id), None),
            Opponent::Invite | Opponent::Lobby | Opponent::Friend { .. } => (None, None),
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
    let invite_token = if new.opponent.kind() == OpponentKind::Invite {
        let token = random_token();
        let ttl = match new.format {
            Format::Blitz => BLITZ_INVITE_TTL_MS,
            Format::Casual => INVITE_TTL_MS,
        };
        sqlx::query(
            "INSERT INTO invites (token, game_id, expires_at, state, invitee)
             VALUES ($1, $2, $3, 'open', $4)",
        )
        .bind(&token)
        .bind(&id)
        .bind(now_ms() + ttl)
        .bind(invitee)
        .execute(&mut *tx)
        .await?;
        Some(token)
    } else {
        None
    };
    tx.commit().await?;
    if let Some(friend) = invitee {
        let from = owner.name.clone();
        push::notify_later(db, friend, domain::Notice::Challenged { from });
        // The challenge appears in the friend's games list at once.
        db.publish(Change::Game {
            id: id.clone(),
            users: vec![owner.id, friend],
        })
        .await;
    }
    Ok(Created { id, invite_token })
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
    pub ranks: Ranks,
    /// The seated people with a live page open now ([`crate::presence`]), read with the rest.
    pub online: std::collections::HashSet<i64>,
}

/// A row of [`table`]'s query: the game, one seat, and one of its player's ranks.
#[derive(sqlx::FromRow)]
struct TableRow {
    #[sqlx(flatten)]
    game: GameRecord,
    #[sqlx(flatten)]
    seat: SeatRecord,
    rank_dictionary: Option<String>,
    rank: Option<i32>,
    rank_games: Option<i64>,
    online: i64,
}

/// Game `id` at its table, in one query.
pub async fn table(db: &Database, id: &str) -> Result<Table, StoreError> {
    // A seated player has a row per dictionary they are ranked in (at most one per dictionary),
    // anyone else one.
    let rows: Vec<TableRow> = sqlx::query_as(&format!(
        "SELECT {GAME_COLUMNS}, {SEAT_COLUMNS},
                r.dictionary AS rank_dictionary, r.rank, r.games AS rank_games,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM presence p
                    WHERE p.user_id = s.user_id AND p.seen_at > $2) THEN 1 ELSE 0 END AS BIGINT)
                    AS online
         FROM games g JOIN game_seats s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id
         LEFT JOIN ranks r ON r.user_id = s.user_id
         WHERE g.id = $1 ORDER BY s.seat"
    ))
    .bind(id)
    .bind(now_ms() - crate::presence::PRESENCE_FRESH_MS)
    .fetch_all(&db.pool)
    .await?;
    let mut rows = rows.into_iter();
    let first = rows.next().ok_or(Refusal::NoSuchGame)?;
    let mut seats: Vec<SeatRow> = Vec::new();
    let mut ranks = Ranks::default();
    let mut online = std::collections::HashSet::new();
    let mut game = None;
    for row in std::iter::once(first).chain(rows) {
        let seat = SeatRow::from(row.seat);
        if let (Some((user, _)), 1) = (&seat.user, row.online) {
            online.insert(*user);
        }
        if let (Some((user, _)), Some(dictionary), Some(rank), Some(games)) =
            (&seat.user, &row.rank_dictionary, row.rank, row.rank_games)
        {
            ranks.add(*user, dictionary, rank, games);
        }
        if seats.last().is_none_or(|last| last.seat != seat.seat) {
            seats.push(seat);
        }
        if game.is_none() {
            game = Some(GameRow::try_from(row.game)?);
        }
    }
    let game = game.ok_or(Refusal::NoSuchGame)?;
    Ok(Table {
        game,
        seats,
        ranks,
        online,
    })
}

/// A pass-and-play seat's name: the one given, made plain (no control or reordering
/// characters, its spaces tidied), else the owner's for the first seat and "Player 2" and so on
/// for the others.
fn local_name(names: &[String], seat: Seat, owner: &str) -> String {
    domain::local_name(names, seat).unwrap_or_else(|| match seat {
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

/// The columns of [`SeatRecord`], from `game_seats s` joined with `users u`.
const SEAT_COLUMNS: &str =
    "s.seat, s.user_id, u.name, s.bot, s.ready, s.game_id, s.local_name, u.closed_at, u.chat_off";

/// A seat as read ([`SEAT_COLUMNS`]).
#[derive(sqlx::FromRow)]
struct SeatRecord {
    seat: i64,
    user_id: Option<i64>,
    name: Option<String>,
    bot: Option<String>,
    ready: i64,
    game_id: String,
    local_name: Option<String>,
    closed_at: Option<i64>,
    chat_off: Option<i64>,
}

/// The people in a game's seats, in seat order (a pass-and-play owner once per seat): who hears
/// of it, whose ranks and presence its pages show. The one answer to "who is in this game".
pub fn people(seats: &[SeatRow]) -> Vec<i64> {
    seats.iter().filter_map(SeatRow::person).collect()
}

impl SeatRow {
    /// The person in the seat, if one is (not a bot, not an open seat).
    pub fn person(&self) -> Option<i64> {
        self.user.as_ref().map(|(id, _)| *id)
    }

    /// The seat's name in records and exports, where no page's language applies: the person,
    /// the pass-and-play name, `expert bot`, `deleted player` or `open seat`.
    pub fn plain_name(&self) -> String {
        match (&self.user, &self.bot, &self.local_name) {
            (_, _, Some(local)) => local.clone(),
            (Some(_), _, _) if self.closed => "deleted player".into(),
            (Some((_, name)), _, _) => name.clone(),
            (None, Some(level), _) => format!("{level} bot"),
            (None, None, None) => "open seat".into(),
        }
    }
}

impl From<SeatRecord> for SeatRow {
    fn from(record: SeatRecord) -> SeatRow {
        SeatRow {
            seat: Seat::try_from(record.seat).unwrap_or(Seat::MAX),
            user: record.user_id.zip(record.name),
            bot: record.bot,
            ready: record.ready != 0,
            local_name: record.local_name,
            closed: record.closed_at.is_some(),
            chat_off: record.chat_off.is_some_and(|off| off != 0),
        }
    }
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
        "SELECT {SEAT_COLUMNS} FROM game_seats s LEFT JOIN users u ON u.id = s.user_id
         WHERE s.game_id IN ({}) ORDER BY s.game_id, s.seat",
        placeholders(1, game_ids.len())
    );
    let mut query = sqlx::query_as::<_, SeatRecord>(&sql);
    for id in game_ids {
        query = query.bind(*id);
    }
    for record in query.fetch_all(&db.pool).await? {
        by_game
            .entry(record.game_id.clone())
            .or_default()
            .push(SeatRow::from(record));
    }
    Ok(by_game)
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

/// A game in a player's list, and what the list shows of it.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The game.
    pub game: GameRow,
    /// Its scores, whose turn, last play and winners.
    pub summary: GameSummary,
}

/// A game of a player's list as read.
#[derive(sqlx::FromRow)]
struct ListedRecord {
    #[sqlx(flatten)]
    game: GameRecord,
    summary: Option<Json<GameSummary>>,
}

/// The user's games: every waiting or playing one, then the 20 most recently finished; each with
/// its summary as stored (worked out from its log only for a game stored before summaries were).
pub async fn my_games(services: &Services, user_id: i64) -> Result<Vec<Listed>, StoreError> {
    let mut listed = Vec::new();
    for record in my_records(&services.db, user_id).await? {
        let game = GameRow::try_from(record.game)?;
        let summary = match record.summary {
            Some(summary) => summary.0,
            None => games::summaries::summary_of(services, &game).await?,
        };
        listed.push(Listed { game, summary });
    }
    Ok(listed)
}

/// The games of [`my_games`] as read.
async fn my_records(db: &Database, user_id: i64) -> Result<Vec<ListedRecord>, StoreError> {
    let select = format!(
        "SELECT DISTINCT {GAME_COLUMNS}, g.summary FROM games g
         JOIN game_seats s ON s.game_id = g.id WHERE s.user_id = $1"
    );
    let active: Vec<ListedRecord> = sqlx::query_as(&format!(
        "{select} AND g.status IN ('waiting', 'ready', 'playing') ORDER BY g.updated_at DESC"
    ))
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    let finished: Vec<ListedRecord> = sqlx::query_as(&format!(
        "{select} AND g.status IN ('over', 'cancelled') ORDER BY g.updated_at DESC LIMIT 20"
    ))
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(active.into_iter().chain(finished).collect())
}

/// Refuses a second Blitz match: a player has one under way (waiting or playing) at a time.
/// Pass-and-play does not count.
pub async fn check_one_blitz(db: &Database, user_id: i64) -> Result<(), StoreError> {
    let games = my_records(db, user_id).await?.into_iter();
    let rows: Vec<GameRow> = games
        .map(|r| GameRow::try_from(r.game))
        .collect::<Result<_, _>>()?;
    let busy = rows.iter().any(|g| {
        matches!(g.phase, Phase::Waiting | Phase::Ready | Phase::Playing)
            && g.config.format == Format::Blitz
            && g.opponent != OpponentKind::Local
    });
    if busy {
        return Err(Refusal::BlitzBusy.into());
    }
    Ok(())
}

/// A game's owner: the player in seat 0.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Owner {
    /// Their user id.
    #[sqlx(rename = "owner")]
    pub id: i64,
    /// Their name.
    pub name: String,
}

/// An open lobby game and the player waiting in it.
#[derive(Debug, Clone)]
pub struct LobbyGame {
    /// The game.
    pub game: GameRow,
    /// Who waits.
    pub owner: Owner,
}

/// A lobby game as read.
#[derive(sqlx::FromRow)]
struct LobbyRow {
    #[sqlx(flatten)]
    game: GameRecord,
    #[sqlx(flatten)]
    owner: Owner,
}

/// Open lobby games, newest first, with the player waiting in each; without the games of
/// players who blocked `viewer` or whom `viewer` blocked.
pub async fn lobby(db: &Database, viewer: Option<i64>) -> Result<Vec<LobbyGame>, StoreError> {
    let rows: Vec<LobbyRow> = sqlx::query_as(&format!(
        "SELECT {GAME_COLUMNS}, u.id AS owner, u.name
         FROM games g
         JOIN game_seats s ON s.game_id = g.id AND s.seat = 0 JOIN users u ON u.id = s.user_id
         WHERE g.status = 'waiting' AND g.opponent = 'lobby' AND {}
         ORDER BY g.updated_at DESC LIMIT 100",
        blocks::hidden_from("$1", "u.id")
    ))
    .bind(viewer.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(LobbyGame {
                game: row.game.try_into()?,
                owner: row.owner,
            })
        })
        .collect()
}

/// An invite link as stored.
#[derive(Debug, Clone)]
pub struct Invite {
    /// Its game.
    pub game: GameRow,
    /// Who invites.
    pub owner: Owner,
    /// Until when it can be accepted, unix ms.
    pub expires_at: i64,
    /// Whether it can still be answered: not answered, not expired, its game still waiting.
    pub open: bool,
    /// A challenge: the one player who may answer it.
    pub invitee: Option<i64>,
}

/// An invite as read.
#[derive(sqlx::FromRow)]
struct InviteRow {
    #[sqlx(flatten)]
    game: GameRecord,
    #[sqlx(flatten)]
    owner: Owner,
    expires_at: i64,
    state: InviteState,
    invitee: Option<i64>,
}

/// Where an invite link stands, as the table keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InviteState {
    Open,
    Accepted,
    Declined,
}

word_column!(InviteState {
    Open => "open",
    Accepted => "accepted",
    Declined => "declined",
});

/// The invite link with this token.
pub async fn invite(db: &Database, token: &str) -> Result<Invite, StoreError> {
    let row: InviteRow = sqlx::query_as(&format!(
        "SELECT {GAME_COLUMNS}, u.id AS owner, u.name, i.expires_at, i.state, i.invitee
         FROM invites i JOIN games g ON g.id = i.game_id
         JOIN game_seats s ON s.game_id = g.id AND s.seat = 0 JOIN users u ON u.id = s.user_id
         WHERE i.token = $1"
    ))
    .bind(token)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(Refusal::InviteClosed)?;
    let game = GameRow::try_from(row.game)?;
    let open =
        row.state == InviteState::Open && row.expires_at > now_ms() && game.phase == Phase::Waiting;
    Ok(Invite {
        game,
        owner: row.owner,
        expires_at: row.expires_at,
        open,
        invitee: row.invitee,
    })
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
    let game = games::row(db, game_id).await?;
    let owner = seats(db, game_id)
        .await?
        .into_iter()
        .find(|s| s.seat == 0)
        .and_then(|s| s.user);
    if owner.as_ref().is_some_and(|(id, _)| *id == user.id) {
        return Err(Refusal::OwnGame.into());
    }
    match token {
        Some(_) if game.opponent != OpponentKind::Invite => {
            return Err(Refusal::InviteClosed.into())
        }
        None if game.opponent != OpponentKind::Lobby => return Err(Refusal::NoSuchGame.into()),
        _ => {}
    }
    if user.guest {
        return Err(Refusal::AccountNeeded.into());
    }
    if let Some((owner, _)) = owner {
        let contact = match token {
            Some(_) => Contact::Invite,
            None => Contact::Lobby,
        };
        blocks::check(db, user.id, owner, contact).await?;
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
        check_one_blitz(db, user.id).await?;
    }
    let now = now_ms();
    let (_writer, mut tx) = db.begin_write().await?;
    if let Some(token) = token {
        // A challenge is answered by the one it was sent to.
        let answered = sqlx::query(
            "UPDATE invites SET state = 'accepted' WHERE token = $1 AND game_id = $2
             AND state = 'open' AND expires_at > $3 AND (invitee IS NULL OR invitee = $4)",
        )
        .bind(token)
        .bind(game_id)
        .bind(now)
        .bind(user.id)
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
    let ready_lobby = game.config.format == Format::Blitz && game.opponent == OpponentKind::Invite;
    let (phase, deadline) = match ready_lobby {
        true => (Phase::Ready, None),
        false => (
            Phase::Playing,
            games::deadline(&game.config, game.opponent, now),
        ),
    };
    let started = sqlx::query(
        "UPDATE games SET status = $4, updated_at = $2, deadline_at = $3
         WHERE id = $1 AND status = 'waiting'",
    )
    .bind(game_id)
    .bind(now)
    .bind(deadline)
    .bind(phase.as_str())
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
    games::tell_players(db, game_id).await;
    if let Some((owner, _)) = owner {
        let (game, by) = (game_id.to_string(), user.name.clone());
        push::notify_later(db, owner, domain::Notice::Accepted { game, by });
    }
    Ok(())
}

/// Declines an invite: the link closes and the waiting game is called off.
pub async fn decline(db: &Database, token: &str) -> Result<(), StoreError> {
    let Invite {
        game,
        open,
        invitee,
        ..
    } = invite(db, token).await?;
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
    games::tell_players(db, &game.id).await;
    if let Some(friend) = invitee {
        // The challenge leaves the friend's games list.
        db.publish(Change::Game {
            id: game.id.clone(),
            users: vec![friend],
        })
        .await;
    }
    Ok(())
}

/// `user` answers the challenge of waiting game `game_id`: accepts it (they take the seat and
/// the game starts) or declines it (it is called off). Only the player challenged may answer.
pub async fn answer_challenge(
    db: &Database,
    user: &User,
    game_id: &str,
    accept: bool,
) -> Result<(), StoreError> {
    let token: String = sqlx::query_scalar(
        "SELECT token FROM invites WHERE game_id = $1 AND invitee = $2 AND state = 'open'",
    )
    .bind(game_id)
    .bind(user.id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(Refusal::InviteClosed)?;
    match accept {
        true => join(db, user, game_id, Some(&token)).await,
        false => decline(db, &token).await,
    }
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

/// A game in play where a bot is to move.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BotTurn {
    /// The game.
    #[sqlx(rename = "id")]
    pub game_id: String,
    /// The bot's level.
    #[sqlx(rename = "bot")]
    pub level: String,
}

/// The move's reaction that wakes the bots' task when a bot may be to move: after a move in a
/// bot game that goes on, or in a game the committer did not say the kind of.
pub fn wake_bots<'a>(
    db: &'a Database,
    made: &'a crate::moved::MoveMade<'a>,
) -> crate::moved::Reacting<'a> {
    let goes_on = *made.state.status() == rules::Status::Playing;
    if goes_on && made.opponent.is_none_or(|kind| kind == OpponentKind::Bot) {
        db.bot_wakeup.notify_one();
    }
    Box::pin(std::future::ready(()))
}

/// Games in play where a bot is to move, read from the stored `to_move`, which every commit
/// keeps current.
pub async fn bot_turns(db: &Database) -> Result<Vec<BotTurn>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT g.id, s.bot FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         WHERE g.status = 'playing' AND s.bot IS NOT NULL ORDER BY g.updated_at",
    )
    .fetch_all(&db.pool)
    .await?)
}

/// The game waiting longest on `user_id` other than `except`: a game in play against a person
/// or a bot where their seat is to move (pass-and-play and the Daily Challenge always are, so
/// they are left out). What a player's Next game goes to.
pub async fn next_turn(
    db: &Database,
    user_id: i64,
    except: &str,
) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT g.id FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         WHERE s.user_id = $1 AND g.status = $2 AND g.id <> $3 AND g.opponent NOT IN ($4, $5)
         ORDER BY g.updated_at LIMIT 1",
    )
    .bind(user_id)
    .bind(Phase::Playing.as_str())
    .bind(except)
    .bind(OpponentKind::Local.as_str())
    .bind(OpponentKind::Daily.as_str())
    .fetch_optional(&db.pool)
    .await?)
}

/// The open invite token of a waiting game, for its owner to share again (a challenge has
/// none to share: it waits in the friend's games list).
pub async fn open_invite_token(db: &Database, game_id: &str) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT token FROM invites WHERE game_id = $1 AND state = 'open' AND expires_at > $2
         AND invitee IS NULL",
    )
    .bind(game_id)
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await?)
}

/// Calls off the games still waiting for a second player (lobby, invite, challenge, Ready
/// lobby) that are `user`'s or addressed to them, and withdraws their open rematch offers (see
/// [`crate::closing`]).
pub(crate) async fn forget(conn: &mut sqlx::AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET status = $2, updated_at = $3 WHERE status IN ($4, $5) AND (
             id IN (SELECT game_id FROM game_seats WHERE user_id = $1)
             OR id IN (SELECT game_id FROM invites WHERE invitee = $1 AND state = $6))",
    )
    .bind(user)
    .bind(Phase::Cancelled.as_str())
    .bind(crate::db::now_ms())
    .bind(Phase::Waiting.as_str())
    .bind(Phase::Ready.as_str())
    .bind(InviteState::Open.word())
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE invites SET invitee = NULL WHERE invitee = $1")
        .bind(user)
        .execute(&mut *conn)
        .await?;
    rematch::forget(conn, user).await?;
    device::forget(conn, user).await
}
