//! Tournaments: Blitz (or Casual, for small groups) played in rounds that begin together. An
//! admin makes a public one; any player may make a private one, entered by its link. Players
//! enter ([`enter`]) and, in the half hour before the start, check in ([`check_in`]); at the
//! start those who did not are dropped and round 1 is paired, Swiss or round robin
//! ([`pairing`]). A round's games are made in the transaction that moves the round on, all at
//! once, and its players are told at once. The reaction to a tournament game's end
//! ([`on_game_end`]) adds it to the standings in the transaction that records it; once a round's
//! games are all over, the next begins after a short break ([`ROUND_BREAK_MS`]), and after the
//! last the tournament is over. Standings are by wins (a draw half) then spread.
//!
//! Decisions: a bye is a win with a spread of +50, as word-game tournaments score it; a player
//! who withdraws is paired no more (a game under way stays theirs to finish), and in a round
//! robin their later opponents have a bye instead; a late entry (Swiss only, before the last
//! round) plays from the next round and scores nothing for the rounds missed.

pub mod pairing;

use std::collections::{HashMap, HashSet};

use dictionaries::DictionaryId;
use domain::{OpponentKind, Phase, Refusal};
use rules::{
    game::{Format, Status},
    GameConfig, Variant,
};
use sqlx::AnyConnection;

use crate::{
    accounts::{Role, User},
    bus::Change,
    db::{now_ms, Database},
    ended::{GameEnded, Reacting},
    games,
    library::versions,
    moved::MoveMade,
    results,
    rows::Json,
    rows::{word_column, Word},
    seating, StoreError,
};

/// How long before the start players may check in.
pub const CHECK_IN_MS: i64 = 30 * 60_000;
/// The break between a round's last game and the next round.
pub const ROUND_BREAK_MS: i64 = 30_000;
/// A bye's spread.
pub const BYE_SPREAD: i64 = 50;
/// The most rounds of a Swiss.
pub const MOST_ROUNDS: i64 = 11;
/// How far ahead a tournament may be set to start.
const FURTHEST_START_MS: i64 = 30 * 86_400_000;

/// Where a tournament is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentStatus {
    /// Taking entries (and, in its last half hour, check-ins).
    Entry,
    /// Its rounds are under way.
    Playing,
    /// Its last round is over, or too few checked in.
    Over,
}

word_column!(TournamentStatus {
    Entry => "entry",
    Playing => "playing",
    Over => "over",
});

/// How a tournament pairs its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// By score, no repeats, a bye for an odd count.
    Swiss,
    /// Everyone meets everyone once.
    RoundRobin,
}

word_column!(Pairing {
    Swiss => "swiss",
    RoundRobin => "round_robin",
});

/// What a new tournament is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTournament {
    /// Its name, 1 to 60 letters.
    pub name: String,
    /// Its ruleset.
    pub variant: Variant,
    /// Its dictionary.
    pub dictionary: DictionaryId,
    /// Blitz or Casual.
    pub format: Format,
    /// Swiss or round robin.
    pub pairing: Pairing,
    /// A Swiss's rounds (a round robin's follow from its players).
    pub rounds: i64,
    /// Listed nowhere: entered by its link.
    pub private: bool,
    /// When check-in closes and round 1 begins, unix ms.
    pub starts_at: i64,
}

/// A tournament as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
struct TournamentRow {
    id: String,
    name: String,
    variant: Json<Variant>,
    dictionary: String,
    format: String,
    pairing: Pairing,
    rounds: i64,
    private: i64,
    created_by: i64,
    status: TournamentStatus,
    starts_at: i64,
    round: i64,
    next_round_at: Option<i64>,
}

/// A tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    /// Its id: its link.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its ruleset.
    pub variant: Variant,
    /// Its dictionary.
    pub dictionary: DictionaryId,
    /// Blitz or Casual.
    pub format: Format,
    /// Swiss or round robin.
    pub pairing: Pairing,
    /// How many rounds (a round robin's, once it has begun).
    pub rounds: i64,
    /// Entered by its link only.
    pub private: bool,
    /// Who made it.
    pub created_by: i64,
    /// Where it is.
    pub status: TournamentStatus,
    /// When round 1 begins, unix ms.
    pub starts_at: i64,
    /// The round under way, or the last played (0 before the first).
    pub round: i64,
    /// When the next round begins, once the current one is over.
    pub next_round_at: Option<i64>,
}

impl Tournament {
    /// Whether check-in is open at `now`.
    pub fn check_in_open(&self, now: i64) -> bool {
        self.status == TournamentStatus::Entry && now >= self.starts_at - CHECK_IN_MS
    }
}

/// A format's stored word.
fn format_word(format: Format) -> &'static str {
    match format {
        Format::Blitz => "blitz",
        Format::Casual => "casual",
    }
}

impl TryFrom<TournamentRow> for Tournament {
    type Error = StoreError;

    fn try_from(row: TournamentRow) -> Result<Tournament, StoreError> {
        let format = match row.format.as_str() {
            "blitz" => Format::Blitz,
            "casual" => Format::Casual,
            other => return Err(StoreError::Data(format!("format {other}"))),
        };
        Ok(Tournament {
            dictionary: DictionaryId::parse(&row.dictionary)
                .ok_or_else(|| StoreError::Data(format!("dictionary {}", row.dictionary)))?,
            format,
            id: row.id,
            name: row.name,
            variant: row.variant.0,
            pairing: row.pairing,
            rounds: row.rounds,
            private: row.private != 0,
            created_by: row.created_by,
            status: row.status,
            starts_at: row.starts_at,
            round: row.round,
            next_round_at: row.next_round_at,
        })
    }
}

const COLUMNS: &str = "id, name, variant, dictionary, format, pairing, rounds, private, \
                       created_by, status, starts_at, round, next_round_at";

/// Tournament `id`.
pub async fn tournament(db: &Database, id: &str) -> Result<Tournament, StoreError> {
    let mut conn = db.pool.acquire().await?;
    tournament_on(&mut conn, id).await
}

async fn tournament_on(conn: &mut AnyConnection, id: &str) -> Result<Tournament, StoreError> {
    let row: Option<TournamentRow> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    row.ok_or_else(|| Refusal::Invalid("there is no such tournament".into()).into())
        .and_then(Tournament::try_from)
}

/// Makes a tournament as `by` asks; returns its id. Only an admin makes a public one.
pub async fn create(db: &Database, new: NewTournament, by: &User) -> Result<String, StoreError> {
    let refuse = |why: &str| Err(StoreError::from(Refusal::Invalid(why.into())));
    if by.guest {
        return Err(Refusal::AccountNeeded.into());
    }
    if !new.private && by.role != Role::Admin {
        return refuse("only an admin makes a public tournament: make it private and share it");
    }
    seating::playable(new.variant, new.dictionary)?;
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 60 {
        return refuse("a tournament's name is 1 to 60 letters");
    }
    if new.pairing == Pairing::Swiss && !(1..=MOST_ROUNDS).contains(&new.rounds) {
        return refuse("a Swiss has 1 to 11 rounds");
    }
    let now = now_ms();
    if !(now..=now + FURTHEST_START_MS).contains(&new.starts_at) {
        return refuse("a tournament starts within 30 days");
    }
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO tournaments (id, name, variant, dictionary, format, pairing, rounds, private,
             created_by, status, starts_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'entry', $10, $11)",
    )
    .bind(&id)
    .bind(name)
    .bind(serde_json::to_string(&new.variant).map_err(|e| StoreError::Data(e.to_string()))?)
    .bind(new.dictionary.as_str())
    .bind(format_word(new.format))
    .bind(new.pairing.word())
    .bind(if new.pairing == Pairing::Swiss {
        new.rounds
    } else {
        0
    })
    .bind(i64::from(new.private))
    .bind(by.id)
    .bind(new.starts_at)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Enters `user` in tournament `id`: before the start (checked in at once when check-in is
/// open), or, in a Swiss before its last round, late. Entering twice is entering once.
pub async fn enter(db: &Database, id: &str, user: &User) -> Result<(), StoreError> {
    if user.guest {
        return Err(Refusal::AccountNeeded.into());
    }
    let (_writer, mut tx) = db.begin_write().await?;
    let this = tournament_on(&mut tx, id).await?;
    let now = now_ms();
    let (checked_in, joined_round) = match this.status {
        TournamentStatus::Entry => (this.check_in_open(now), 1),
        TournamentStatus::Playing if this.pairing == Pairing::Swiss && this.round < this.rounds => {
            (true, this.round + 1)
        }
        _ => return Err(Refusal::Invalid("this tournament takes no more entries".into()).into()),
    };
    sqlx::query(
        "INSERT INTO tournament_players (tournament_id, user_id, checked_in, joined_round)
         VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, user_id) DO NOTHING",
    )
    .bind(id)
    .bind(user.id)
    .bind(i64::from(checked_in))
    .bind(joined_round)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    db.publish(Change::Standings { id: id.into() }).await;
    Ok(())
}

/// Checks `user` in, in the half hour before the start.
pub async fn check_in(db: &Database, id: &str, user: i64) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let this = tournament_on(&mut tx, id).await?;
    if !this.check_in_open(now_ms()) {
        let why = match this.status {
            TournamentStatus::Entry => "check-in opens half an hour before the start",
            _ => "this tournament has begun",
        };
        return Err(Refusal::Invalid(why.into()).into());
    }
    let done = sqlx::query(
        "UPDATE tournament_players SET checked_in = 1 WHERE tournament_id = $1 AND user_id = $2",
    )
    .bind(id)
    .bind(user)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Refusal::Invalid("enter the tournament first".into()).into());
    }
    tx.commit().await?;
    db.publish(Change::Standings { id: id.into() }).await;
    Ok(())
}

/// Takes `user` out: before the start their entry goes; after it they are paired no more.
pub async fn withdraw(db: &Database, id: &str, user: i64) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let sql = match tournament_on(&mut tx, id).await?.status {
        TournamentStatus::Entry => {
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2"
        }
        TournamentStatus::Playing => {
            "UPDATE tournament_players SET withdrawn = 1 WHERE tournament_id = $1 AND user_id = $2"
        }
        TournamentStatus::Over => {
            return Err(Refusal::Invalid("this tournament is over".into()).into())
        }
    };
    sqlx::query(sql)
        .bind(id)
        .bind(user)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    db.publish(Change::Standings { id: id.into() }).await;
    Ok(())
}

/// Starts the tournaments whose start has come, begins the rounds whose break is over, and
/// times the break of rounds whose games are all over; returns how many moved on. Every
/// instance's task runs it: each step claims its tournament with a conditional update inside
/// its transaction, so one instance takes each.
pub async fn advance(db: &Database) -> Result<usize, StoreError> {
    let now = now_ms();
    // A round whose games are all over: its break begins (a sweep rather than the reaction to
    // the last game's end, which could miss a round whose last two games end at once).
    let (writer, mut tx) = db.begin_write().await?;
    let breaks: Vec<String> = sqlx::query_scalar(
        "UPDATE tournaments SET next_round_at = $1
         WHERE status = 'playing' AND next_round_at IS NULL AND NOT EXISTS (
             SELECT 1 FROM tournament_pairings p JOIN games g ON g.id = p.game_id
             WHERE p.tournament_id = tournaments.id AND p.round = tournaments.round
               AND g.status <> 'over')
         RETURNING id",
    )
    .bind(now + ROUND_BREAK_MS)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    drop(writer);
    for id in breaks {
        // The pages count the break down.
        db.publish(Change::Standings { id }).await;
    }
    let due: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM tournaments
         WHERE (status = 'entry' AND starts_at <= $1) OR (status = 'playing' AND next_round_at <= $1)
         ORDER BY starts_at LIMIT 100",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut moved = 0;
    for id in due {
        if let Some(games) = step(db, &id, now).await? {
            for game in &games {
                games::tell_players(db, game).await;
            }
            db.publish(Change::Standings { id }).await;
            moved += 1;
        }
    }
    Ok(moved)
}

/// Moves tournament `id` on if it is due at `now` and no other instance took it: starts it,
/// begins its next round or ends it. Returns the games made, or `None` when nothing was due.
async fn step(db: &Database, id: &str, now: i64) -> Result<Option<Vec<String>>, StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    let mut this = tournament_on(&mut tx, id).await?;
    let last = this.status == TournamentStatus::Playing && this.round >= this.rounds;
    let claim = match this.status {
        TournamentStatus::Entry => {
            "UPDATE tournaments SET status = 'playing'
             WHERE id = $1 AND status = 'entry' AND round = $2 AND starts_at <= $3"
        }
        TournamentStatus::Playing if last => {
            "UPDATE tournaments SET status = 'over', next_round_at = NULL
             WHERE id = $1 AND status = 'playing' AND round = $2 AND next_round_at <= $3"
        }
        TournamentStatus::Playing => {
            "UPDATE tournaments SET round = round + 1, next_round_at = NULL
             WHERE id = $1 AND status = 'playing' AND round = $2 AND next_round_at <= $3"
        }
        TournamentStatus::Over => return Ok(None),
    };
    let claimed = sqlx::query(claim)
        .bind(id)
        .bind(this.round)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    if claimed.rows_affected() == 0 {
        return Ok(None);
    }
    if this.status == TournamentStatus::Entry {
        this.rounds = seat_checked_in(&mut tx, &this).await?;
    }
    this.round += 1;
    let games = if last {
        Vec::new()
    } else if this.rounds == 0 {
        // Fewer than two checked in: over before it began.
        sqlx::query("UPDATE tournaments SET status = 'over' WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        Vec::new()
    } else {
        begin_round(db, &mut tx, &this).await?
    };
    tx.commit().await?;
    Ok(Some(games))
}

/// At the start: drops those who did not check in, numbers the rest by rank (a round robin's
/// schedule) and sets round 1 to begin now. Returns the rounds to play: none with fewer than
/// two players.
async fn seat_checked_in(conn: &mut AnyConnection, this: &Tournament) -> Result<i64, sqlx::Error> {
    sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND checked_in = 0")
        .bind(&this.id)
        .execute(&mut *conn)
        .await?;
    let players: Vec<i64> = sqlx::query_scalar(
        "SELECT p.user_id FROM tournament_players p
         LEFT JOIN ranks r ON r.user_id = p.user_id AND r.dictionary = $2
         WHERE p.tournament_id = $1 ORDER BY COALESCE(r.rank, 1200) DESC, p.user_id",
    )
    .bind(&this.id)
    .bind(this.dictionary.as_str())
    .fetch_all(&mut *conn)
    .await?;
    for (number, user) in players.iter().enumerate() {
        sqlx::query(
            "UPDATE tournament_players SET number = $3 WHERE tournament_id = $1 AND user_id = $2",
        )
        .bind(&this.id)
        .bind(user)
        .bind(number as i64)
        .execute(&mut *conn)
        .await?;
    }
    let rounds = match (players.len(), this.pairing) {
        (0..=1, _) => 0,
        (_, Pairing::Swiss) => this.rounds,
        (n, Pairing::RoundRobin) => pairing::round_robin_rounds(n) as i64,
    };
    sqlx::query(
        "UPDATE tournaments SET rounds = $2, round = 1, next_round_at = NULL WHERE id = $1",
    )
    .bind(&this.id)
    .bind(rounds)
    .execute(&mut *conn)
    .await?;
    Ok(rounds)
}

/// A player as a round is paired.
#[derive(sqlx::FromRow)]
struct Active {
    user_id: i64,
    number: Option<i64>,
    withdrawn: i64,
    joined_round: i64,
    wins: i64,
    draws: i64,
    spread: i64,
    byes: i64,
    rank: i64,
}

/// Pairs round `this.round` and makes its games, all inside the caller's transaction; a round
/// of byes only has its break begin at once. Returns the games made.
async fn begin_round(
    db: &Database,
    conn: &mut AnyConnection,
    this: &Tournament,
) -> Result<Vec<String>, StoreError> {
    let players: Vec<Active> = sqlx::query_as(
        "SELECT p.user_id, p.number, p.withdrawn, p.joined_round, p.wins, p.draws, p.spread,
                p.byes, COALESCE(r.rank, 1200) AS rank
         FROM tournament_players p
         LEFT JOIN ranks r ON r.user_id = p.user_id AND r.dictionary = $2
         WHERE p.tournament_id = $1",
    )
    .bind(&this.id)
    .bind(this.dictionary.as_str())
    .fetch_all(&mut *conn)
    .await?;
    let playing = |p: &&Active| p.withdrawn == 0 && p.joined_round <= this.round;
    let pairs: Vec<pairing::Pair> = match this.pairing {
        Pairing::Swiss => {
            let past: Vec<(i64, Option<i64>)> = sqlx::query_as(
                "SELECT home, away FROM tournament_pairings WHERE tournament_id = $1",
            )
            .bind(&this.id)
            .fetch_all(&mut *conn)
            .await?;
            let mut met = HashSet::new();
            let mut started: HashMap<i64, i64> = HashMap::new();
            for (home, away) in past {
                if let Some(away) = away {
                    met.insert((home, away));
                    met.insert((away, home));
                    *started.entry(home).or_default() += 1;
                }
            }
            let entrants: Vec<pairing::Entrant> = players
                .iter()
                .filter(playing)
                .map(|p| pairing::Entrant {
                    user: p.user_id,
                    points: 2 * p.wins + p.draws,
                    spread: p.spread,
                    rank: p.rank,
                    had_bye: p.byes > 0,
                })
                .collect();
            pairing::swiss(&entrants, &met, &|u| started.get(&u).copied().unwrap_or(0))
        }
        Pairing::RoundRobin => {
            let by_number: HashMap<i64, &Active> = players
                .iter()
                .filter_map(|p| Some((p.number?, p)))
                .collect();
            let round = usize::try_from(this.round).unwrap_or(0);
            pairing::round_robin(by_number.len(), round)
                .into_iter()
                .filter_map(|(a, b)| {
                    let home = by_number.get(&(a as i64)).filter(|p| playing(p))?;
                    // A withdrawn opponent leaves a bye.
                    let away = b
                        .and_then(|b| by_number.get(&(b as i64)))
                        .filter(|p| playing(p))
                        .map(|p| p.user_id);
                    Some((home.user_id, away))
                })
                .collect()
        }
    };
    let dictionary = versions::active_ref(db, this.dictionary).await?.to_string();
    let mut made = Vec::new();
    for (home, away) in pairs {
        let game = match away {
            None => {
                sqlx::query(
                    "UPDATE tournament_players SET wins = wins + 1, byes = byes + 1,
                         spread = spread + $3
                     WHERE tournament_id = $1 AND user_id = $2",
                )
                .bind(&this.id)
                .bind(home)
                .bind(BYE_SPREAD)
                .execute(&mut *conn)
                .await?;
                None
            }
            Some(away) => {
                let config = GameConfig {
                    variant: this.variant,
                    dictionary: dictionary.clone(),
                    seed: seating::random_seed(db),
                    players: 2,
                    first_seat: 0,
                    format: this.format,
                };
                let id = games::insert(
                    conn,
                    &config,
                    Phase::Playing,
                    OpponentKind::Tournament,
                    true,
                )
                .await?;
                games::seat_pair(conn, &id, &config, home, away).await?;
                made.push(id.clone());
                Some(id)
            }
        };
        sqlx::query(
            "INSERT INTO tournament_pairings (tournament_id, round, home, away, game_id)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&this.id)
        .bind(this.round)
        .bind(home)
        .bind(away)
        .bind(game)
        .execute(&mut *conn)
        .await?;
    }
    if made.is_empty() {
        sqlx::query("UPDATE tournaments SET next_round_at = $2 WHERE id = $1")
            .bind(&this.id)
            .bind(now_ms() + ROUND_BREAK_MS)
            .execute(&mut *conn)
            .await?;
    }
    Ok(made)
}

/// The reaction to a game's end: a tournament game adds to both players' standings, inside the
/// transaction that records the end.
pub fn on_game_end<'a>(conn: &'a mut AnyConnection, ended: &'a GameEnded<'a>) -> Reacting<'a> {
    Box::pin(count_ended(conn, ended))
}

async fn count_ended(conn: &mut AnyConnection, ended: &GameEnded<'_>) -> Result<(), sqlx::Error> {
    if ended.opponent != OpponentKind::Tournament {
        return Ok(());
    }
    for seat in ended.seats {
        let (Some(user), Some(number)) = (seat.user, seat.number()) else {
            continue;
        };
        let Some(facts) = results::facts(ended.state, number) else {
            continue;
        };
        sqlx::query(
            "UPDATE tournament_players SET played = played + 1,
                 wins = wins + $3, draws = draws + $4, losses = losses + $5,
                 spread = spread + $6
             WHERE user_id = $2
               AND tournament_id = (SELECT tournament_id FROM tournament_pairings WHERE game_id = $1)",
        )
        .bind(ended.game_id)
        .bind(user)
        .bind(i64::from(facts.result == "win"))
        .bind(i64::from(facts.result == "draw"))
        .bind(i64::from(facts.result == "loss"))
        .bind(i64::from(facts.score - facts.opponent_score))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The move reaction that tells a league's or tournament's open pages their standings changed
/// when one of its games ends.
pub fn on_move<'a>(db: &'a Database, made: &'a MoveMade<'a>) -> crate::moved::Reacting<'a> {
    Box::pin(async move {
        let competing = matches!(
            made.opponent,
            None | Some(OpponentKind::League | OpponentKind::Tournament)
        );
        if !competing || !matches!(made.state.status(), Status::Over(_)) {
            return;
        }
        let ids: Result<Vec<String>, _> = sqlx::query_scalar(
            "SELECT tournament_id FROM tournament_pairings WHERE game_id = $1
             UNION ALL SELECT season_id FROM league_games WHERE game_id = $1",
        )
        .bind(made.game_id)
        .fetch_all(&db.pool)
        .await;
        match ids {
            Ok(ids) => {
                for id in ids {
                    db.publish(Change::Standings { id }).await;
                }
            }
            Err(error) => tracing::warn!(%error, "could not read a game's competition"),
        }
    })
}

/// A player's line in a tournament's standings.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Standing {
    /// The player.
    pub user_id: i64,
    /// Their name.
    pub name: String,
    /// Games finished.
    pub played: i64,
    /// Wins, byes among them.
    pub wins: i64,
    /// Draws.
    pub draws: i64,
    /// Losses.
    pub losses: i64,
    /// Points for less points against.
    pub spread: i64,
    /// Byes.
    pub byes: i64,
    /// Checked in (before the start).
    #[sqlx(try_from = "i64")]
    pub checked_in: Flag,
    /// Withdrawn.
    #[sqlx(try_from = "i64")]
    pub withdrawn: Flag,
}

/// A stored truth value: SQL's are 0 and 1 in SQLite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flag(pub bool);

impl From<i64> for Flag {
    fn from(value: i64) -> Flag {
        Flag(value != 0)
    }
}

/// Tournament `id`'s players, by wins (a draw half) then spread, then name.
pub async fn standings(db: &Database, id: &str) -> Result<Vec<Standing>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.user_id, u.name, p.played, p.wins, p.draws, p.losses, p.spread, p.byes,
                p.checked_in, p.withdrawn
         FROM tournament_players p JOIN users u ON u.id = p.user_id
         WHERE p.tournament_id = $1
         ORDER BY 2 * p.wins + p.draws DESC, p.spread DESC, u.name",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await
}

/// A pairing of a round, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Board {
    /// Its round.
    pub round: i64,
    /// Who starts.
    pub home: i64,
    /// Their name.
    pub home_name: String,
    /// The other player (none for a bye).
    pub away: Option<i64>,
    /// Their name.
    pub away_name: Option<String>,
    /// The game (none for a bye).
    pub game_id: Option<String>,
    /// Whether the game is over.
    #[sqlx(try_from = "i64")]
    pub over: Flag,
    /// Who won it, when it is over and was not drawn.
    pub winner: Option<i64>,
    /// The starter's final score, once it is over.
    pub home_score: Option<i64>,
    /// The other's.
    pub away_score: Option<i64>,
}

/// Tournament `id`'s pairings, latest round first.
pub async fn boards(db: &Database, id: &str) -> Result<Vec<Board>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.round, p.home, h.name AS home_name, p.away, a.name AS away_name, p.game_id,
                CASE WHEN g.status = 'over' THEN 1 ELSE 0 END AS over,
                (SELECT r.user_id FROM game_results r
                 WHERE r.game_id = p.game_id AND r.result = 'win') AS winner,
                (SELECT r.score FROM game_results r
                 WHERE r.game_id = p.game_id AND r.user_id = p.home) AS home_score,
                (SELECT r.score FROM game_results r
                 WHERE r.game_id = p.game_id AND r.user_id = p.away) AS away_score
         FROM tournament_pairings p JOIN users h ON h.id = p.home
         LEFT JOIN users a ON a.id = p.away LEFT JOIN games g ON g.id = p.game_id
         WHERE p.tournament_id = $1
         ORDER BY p.round DESC, h.name",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await
}

/// A tournament as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentCard {
    /// The tournament.
    pub tournament: Tournament,
    /// Its players.
    pub players: i64,
    /// Whether the viewer is one of them.
    pub entered: bool,
}

#[derive(sqlx::FromRow)]
struct CardRow {
    players: i64,
    entered: i64,
    #[sqlx(flatten)]
    tournament: TournamentRow,
}

/// The tournaments not over long (public ones, and private ones `viewer` made or entered),
/// soonest first; or only tournament `only`, whoever may see it by its link.
pub async fn cards(
    db: &Database,
    only: Option<&str>,
    viewer: Option<i64>,
) -> Result<Vec<TournamentCard>, StoreError> {
    let rows: Vec<CardRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS},
            (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) AS players,
            (SELECT COUNT(*) FROM tournament_players p
             WHERE p.tournament_id = t.id AND p.user_id = $1) AS entered
         FROM tournaments t
         WHERE CASE WHEN $2 = '' THEN
                 (t.private = 0 OR t.created_by = $1 OR EXISTS (SELECT 1 FROM tournament_players p
                     WHERE p.tournament_id = t.id AND p.user_id = $1))
                 AND (t.status <> 'over' OR t.starts_at > $3)
               ELSE t.id = $2 END
         ORDER BY CASE t.status WHEN 'playing' THEN 0 WHEN 'entry' THEN 1 ELSE 2 END,
                  t.starts_at, t.id
         LIMIT 100",
        COLUMNS = COLUMNS.replace("id, ", "t.id, ")
    ))
    .bind(viewer.unwrap_or(0))
    .bind(only.unwrap_or(""))
    .bind(now_ms() - 7 * 86_400_000)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(TournamentCard {
                players: row.players,
                entered: row.entered > 0,
                tournament: Tournament::try_from(row.tournament)?,
            })
        })
        .collect()
}

/// Forgets a closing account's entries in tournaments not yet begun (their games and lines in
/// tournaments under way stay, as every game does).
pub(crate) async fn forget(conn: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM tournament_players WHERE user_id = $1
           AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'entry')"],
    )
    .await
}
