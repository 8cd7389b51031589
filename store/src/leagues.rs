//! Leagues: Casual play in seasons. A league is a ruleset and a dictionary. A season takes
//! registrations until it starts ([`register`]); then [`start`] puts its players in divisions of
//! 8 to 16 and makes every division's round robin, each pair playing two games, one each to
//! start, all at once (one transaction a division). Those are games like any other (rated, with chat, push and history); the
//! reaction to a league game's end ([`on_game_end`]) adds it to both players' standings in the
//! transaction that records the end, so each game counts once. When a season's last game is over,
//! [`finish`] places each division by wins then spread, sends the top quarter up and the bottom
//! quarter down, and opens the next season. A player who stops playing loses their games on the
//! clock, once their time bank ([`draw_banks`]: three days a season) is spent: nothing is
//! forfeited by hand.
//!
//! Divisions (decision): players whom the last season placed come first, by the division it
//! sent them to, then by rank in the league's dictionary; new players follow, by rank.

use dictionaries::DictionaryId;
use domain::{OpponentKind, Phase, Refusal};
use rules::{
    game::{EndReason, Format, Status},
    GameConfig, Variant,
};
use sqlx::AnyConnection;

use crate::{
    accounts::User,
    db::{now_ms, Database},
    ended::{GameEnded, Reacting},
    games,
    library::versions,
    results,
    rows::Json,
    rows::{word_column, Word},
    seating, StoreError,
};

/// The most players in a division.
pub const DIVISION_MAX: usize = 16;
/// The fewest players in a division, when there are that many in the season.
pub const DIVISION_MIN: usize = 8;
/// How long a new season takes registrations.
pub const REGISTRATION_MS: i64 = 3 * 86_400_000;

/// Where a season is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeasonStatus {
    /// Taking registrations.
    Registration,
    /// Its games are under way.
    Playing,
    /// Every game is over; places are final.
    Over,
}

word_column!(SeasonStatus {
    Registration => "registration",
    Playing => "playing",
    Over => "over",
});

/// Where a player goes when a season is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Movement {
    /// Up a division (the top quarter, below the top division).
    Up,
    /// Down a division (the bottom quarter, above the last division).
    Down,
    /// The same division.
    Stay,
}

word_column!(Movement {
    Up => "up",
    Down => "down",
    Stay => "stay",
});

/// A season as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
struct SeasonRow {
    id: String,
    league_id: String,
    number: i64,
    status: SeasonStatus,
    starts_at: i64,
    variant: Json<Variant>,
    dictionary: String,
}

/// A season of a league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Season {
    /// Its id.
    pub id: String,
    /// Its league's id.
    pub league_id: String,
    /// 1 for the league's first.
    pub number: i64,
    /// Where it is.
    pub status: SeasonStatus,
    /// When registration closes and play begins, unix ms.
    pub starts_at: i64,
    /// The league's ruleset.
    pub variant: Variant,
    /// The league's dictionary.
    pub dictionary: DictionaryId,
}

impl TryFrom<SeasonRow> for Season {
    type Error = StoreError;

    fn try_from(row: SeasonRow) -> Result<Season, StoreError> {
        Ok(Season {
            status: row.status,
            dictionary: DictionaryId::parse(&row.dictionary)
                .ok_or_else(|| StoreError::Data(format!("dictionary {}", row.dictionary)))?,
            id: row.id,
            league_id: row.league_id,
            number: row.number,
            starts_at: row.starts_at,
            variant: row.variant.0,
        })
    }
}

const SEASON_COLUMNS: &str =
    "s.id, s.league_id, s.number, s.status, s.starts_at, l.variant, l.dictionary";

/// Season `id`.
pub async fn season(db: &Database, id: &str) -> Result<Season, StoreError> {
    let mut conn = db.pool.acquire().await?;
    season_on(&mut conn, id).await
}

async fn season_on(conn: &mut AnyConnection, id: &str) -> Result<Season, StoreError> {
    let row: Option<SeasonRow> = sqlx::query_as(&format!(
        "SELECT {SEASON_COLUMNS} FROM league_seasons s JOIN leagues l ON l.id = s.league_id
         WHERE s.id = $1"
    ))
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    row.ok_or_else(|| Refusal::Invalid("there is no such season".into()).into())
        .and_then(Season::try_from)
}

/// Creates a league of `variant` in `dictionary`, with its first season open for registration
/// until `starts_at`; returns the league's id.
pub async fn create(
    db: &Database,
    name: &str,
    variant: Variant,
    dictionary: DictionaryId,
    starts_at: i64,
) -> Result<String, StoreError> {
    seating::playable(variant, dictionary)?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 60 {
        return Err(Refusal::Invalid("a league's name is 1 to 60 letters".into()).into());
    }
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (_writer, mut tx) = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO leagues (id, name, variant, dictionary, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(name)
    .bind(serde_json::to_string(&variant).map_err(|e| StoreError::Data(e.to_string()))?)
    .bind(dictionary.as_str())
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    open_season(&mut tx, &id, 1, starts_at).await?;
    tx.commit().await?;
    Ok(id)
}

/// Opens season `number` of `league` for registration until `starts_at`; returns its id.
async fn open_season(
    conn: &mut AnyConnection,
    league: &str,
    number: i64,
    starts_at: i64,
) -> Result<String, sqlx::Error> {
    let id = uuid::Uuid::new_v4().simple().to_string();
    sqlx::query(
        "INSERT INTO league_seasons (id, league_id, number, status, starts_at)
         VALUES ($1, $2, $3, 'registration', $4)",
    )
    .bind(&id)
    .bind(league)
    .bind(number)
    .bind(starts_at)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// Registers `user` for season `season`, while it takes registrations. Registering twice is
/// registering once.
pub async fn register(db: &Database, season: &str, user: &User) -> Result<(), StoreError> {
    if user.guest {
        return Err(Refusal::AccountNeeded.into());
    }
    let (_writer, mut tx) = db.begin_write().await?;
    let this = season_on(&mut tx, season).await?;
    if this.status != SeasonStatus::Registration {
        return Err(Refusal::Invalid("this season has begun: register for the next".into()).into());
    }
    // Where the last season of this league sent them, if it placed them.
    let tier: Option<i64> = sqlx::query_scalar(
        "SELECT e.division + CASE e.movement WHEN 'up' THEN -1 WHEN 'down' THEN 1 ELSE 0 END
         FROM league_entries e JOIN league_seasons s ON s.id = e.season_id
         WHERE s.league_id = $1 AND s.number = $2 AND e.user_id = $3 AND e.movement IS NOT NULL",
    )
    .bind(&this.league_id)
    .bind(this.number - 1)
    .bind(user.id)
    .fetch_optional(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO league_entries (season_id, user_id, tier) VALUES ($1, $2, $3)
         ON CONFLICT (season_id, user_id) DO NOTHING",
    )
    .bind(season)
    .bind(user.id)
    .bind(tier.map(|t| t.max(1)))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Takes `user`'s registration back, while the season takes registrations.
pub async fn unregister(db: &Database, season: &str, user: i64) -> Result<(), StoreError> {
    let (_writer, mut tx) = db.begin_write().await?;
    if season_on(&mut tx, season).await?.status != SeasonStatus::Registration {
        return Err(Refusal::Invalid("this season has begun".into()).into());
    }
    sqlx::query("DELETE FROM league_entries WHERE season_id = $1 AND user_id = $2")
        .bind(season)
        .bind(user)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// How many divisions `players` make: about 12 each, none over [`DIVISION_MAX`], none under
/// [`DIVISION_MIN`] while there are that many players.
pub fn division_count(players: usize) -> usize {
    let most = players.div_ceil(DIVISION_MAX).max(1);
    let fewest = (players / DIVISION_MIN).max(1);
    ((players + 6) / 12).clamp(most, fewest.max(most))
}

/// A registered player, as the divisions are made.
#[derive(sqlx::FromRow)]
struct Registered {
    user_id: i64,
    tier: Option<i64>,
    rank: i64,
}

/// Starts season `season`: its players in divisions, then every division's games, one
/// transaction a division. A season with fewer than two players is over at once, and the next
/// opens. Returns the games made.
pub async fn start(db: &Database, season: &str) -> Result<Vec<String>, StoreError> {
    let (writer, mut tx) = db.begin_write().await?;
    let this = season_on(&mut tx, season).await?;
    if this.status != SeasonStatus::Registration {
        return Ok(Vec::new());
    }
    let mut players: Vec<Registered> = sqlx::query_as(
        "SELECT e.user_id, e.tier, COALESCE(r.rank, 1200) AS rank
         FROM league_entries e LEFT JOIN ranks r ON r.user_id = e.user_id AND r.dictionary = $2
         WHERE e.season_id = $1",
    )
    .bind(season)
    .bind(this.dictionary.as_str())
    .fetch_all(&mut *tx)
    .await?;
    if players.len() < 2 {
        close(&mut tx, &this).await?;
        tx.commit().await?;
        return Ok(Vec::new());
    }
    players.sort_by_key(|p| (p.tier.unwrap_or(i64::MAX), -p.rank, p.user_id));
    let count = division_count(players.len());
    let mut rest = &players[..];
    for division in 1..=count {
        // Sizes as even as they go, the larger ones on top.
        let size = rest.len().div_ceil(count + 1 - division);
        let (members, after) = rest.split_at(size);
        rest = after;
        for member in members {
            sqlx::query(
                "UPDATE league_entries SET division = $3 WHERE season_id = $1 AND user_id = $2",
            )
            .bind(season)
            .bind(member.user_id)
            .bind(division as i64)
            .execute(&mut *tx)
            .await?;
        }
    }
    sqlx::query("UPDATE league_seasons SET status = 'playing', divisions = $2 WHERE id = $1")
        .bind(season)
        .bind(count as i64)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    // Each division takes the write lock in turn, so this one lets it go first.
    drop(writer);
    make_games(db, season).await
}

/// Makes the games of each division of `season` not made yet, in a transaction of its own (a
/// season of thousands in one would hold the write lock for a minute); a division is claimed by
/// its row in `league_divisions` inside that transaction, so no two instances make it twice, and
/// a start cut short is finished by the next look ([`advance`]). Returns the games made.
async fn make_games(db: &Database, season: &str) -> Result<Vec<String>, StoreError> {
    let this = self::season(db, season).await?;
    // The games take the dictionary version active now, as every new game does.
    let dictionary = versions::active_ref(db, this.dictionary).await?.to_string();
    let divisions: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT division FROM league_entries e
         WHERE e.season_id = $1 AND e.division IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM league_divisions d WHERE d.season_id = $1 AND d.division = e.division)
         ORDER BY division",
    )
    .bind(season)
    .fetch_all(&db.pool)
    .await?;
    let mut made = Vec::new();
    for division in divisions {
        let (_writer, mut tx) = db.begin_write().await?;
        let claimed = sqlx::query(
            "INSERT INTO league_divisions (season_id, division) VALUES ($1, $2)
             ON CONFLICT (season_id, division) DO NOTHING",
        )
        .bind(season)
        .bind(division)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            continue;
        }
        let members: Vec<i64> = sqlx::query_scalar(
            "SELECT user_id FROM league_entries WHERE season_id = $1 AND division = $2
             ORDER BY user_id",
        )
        .bind(season)
        .bind(division)
        .fetch_all(&mut *tx)
        .await?;
        let mut ids = Vec::new();
        for (i, first) in members.iter().enumerate() {
            for second in &members[i + 1..] {
                for (home, away) in [(*first, *second), (*second, *first)] {
                    let config = GameConfig {
                        variant: this.variant,
                        dictionary: dictionary.clone(),
                        seed: seating::random_seed(db),
                        players: 2,
                        first_seat: 0,
                        format: Format::Casual,
                    };
                    ids.push(pairing(&mut tx, season, division, &config, home, away).await?);
                }
            }
        }
        tx.commit().await?;
        made.extend(ids);
    }
    for id in &made {
        games::tell_players(db, id).await;
    }
    Ok(made)
}

/// One game of a division, `home` to start and `away`; its id.
async fn pairing(
    conn: &mut AnyConnection,
    season: &str,
    division: i64,
    config: &GameConfig,
    home: i64,
    away: i64,
) -> Result<String, StoreError> {
    let id = games::insert(conn, config, Phase::Playing, OpponentKind::League, true).await?;
    games::seat_pair(conn, &id, config, home, away).await?;
    sqlx::query("INSERT INTO league_games (game_id, season_id, division) VALUES ($1, $2, $3)")
        .bind(&id)
        .bind(season)
        .bind(division)
        .execute(&mut *conn)
        .await?;
    Ok(id)
}

/// How many of `season`'s divisions have no games yet (a start cut short).
async fn unmade(db: &Database, season: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COALESCE(s.divisions, 0)
             - (SELECT COUNT(*) FROM league_divisions d WHERE d.season_id = s.id)
         FROM league_seasons s WHERE s.id = $1",
    )
    .bind(season)
    .fetch_one(&db.pool)
    .await
}

/// The reaction to a game's end: a league game adds to both players' standings, inside the
/// transaction that records the end.
pub fn on_game_end<'a>(conn: &'a mut AnyConnection, ended: &'a GameEnded<'a>) -> Reacting<'a> {
    Box::pin(count_ended(conn, ended))
}

async fn count_ended(conn: &mut AnyConnection, ended: &GameEnded<'_>) -> Result<(), sqlx::Error> {
    if ended.opponent != OpponentKind::League {
        return Ok(());
    }
    let Status::Over(outcome) = ended.state.status() else {
        return Ok(());
    };
    for seat in ended.seats {
        let (Some(user), Some(number)) = (seat.user, seat.number()) else {
            continue;
        };
        let Some(facts) = results::facts(ended.state, number) else {
            continue;
        };
        let timed_out = matches!(outcome.reason, EndReason::TimedOut(s) if s == number);
        sqlx::query(
            "UPDATE league_entries SET played = played + 1,
                 wins = wins + $3, draws = draws + $4, losses = losses + $5,
                 spread = spread + $6, bingos = bingos + $7,
                 high_game = CASE WHEN high_game < $8 THEN $8 ELSE high_game END,
                 time_outs = time_outs + $9
             WHERE user_id = $2
               AND season_id = (SELECT season_id FROM league_games WHERE game_id = $1)",
        )
        .bind(ended.game_id)
        .bind(user)
        .bind(i64::from(facts.result == "win"))
        .bind(i64::from(facts.result == "draw"))
        .bind(i64::from(facts.result == "loss"))
        .bind(i64::from(facts.score - facts.opponent_score))
        .bind(i64::from(facts.bingos))
        .bind(i64::from(facts.score))
        .bind(i64::from(timed_out))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A player's line in a division's standings.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Standing {
    /// The player.
    pub user_id: i64,
    /// Their name.
    pub name: String,
    /// Their division, 1 the top (none before play begins).
    pub division: Option<i64>,
    /// Games finished.
    pub played: i64,
    /// Games won.
    pub wins: i64,
    /// Games drawn.
    pub draws: i64,
    /// Games lost.
    pub losses: i64,
    /// Points scored minus points conceded, over the finished games.
    pub spread: i64,
    /// Plays that used a whole hand.
    pub bingos: i64,
    /// The best final score.
    pub high_game: i64,
    /// Games lost on the clock.
    pub time_outs: i64,
    /// Place in the division, once the season is over.
    pub place: Option<i64>,
    /// Where they go, once the season is over.
    pub movement: Option<Movement>,
}

/// Season `season`'s standings: every player by division, then wins (a draw half a win), then
/// spread.
pub async fn standings(db: &Database, season: &str) -> Result<Vec<Standing>, sqlx::Error> {
    let mut conn = db.pool.acquire().await?;
    standings_on(&mut conn, season).await
}

async fn standings_on(
    conn: &mut AnyConnection,
    season: &str,
) -> Result<Vec<Standing>, sqlx::Error> {
    sqlx::query_as(
        "SELECT e.user_id, u.name, e.division, e.played, e.wins, e.draws, e.losses, e.spread,
                e.bingos, e.high_game, e.time_outs, e.place, e.movement
         FROM league_entries e JOIN users u ON u.id = e.user_id
         WHERE e.season_id = $1
         ORDER BY e.division, 2 * e.wins + e.draws DESC, e.spread DESC, e.high_game DESC, u.name",
    )
    .bind(season)
    .fetch_all(&mut *conn)
    .await
}

/// How many of a division of `size` go up and down: a quarter each.
pub fn movers(size: usize) -> usize {
    size / 4
}

/// Finishes season `season` if every game of it is over: places, who goes up and down, and the
/// next season open for registration. Returns the next season's id when it finished it.
pub async fn finish(db: &Database, season: &str) -> Result<Option<String>, StoreError> {
    // A look without the write lock first: a season under way is looked at every few seconds.
    if unmade(db, season).await? > 0 || open_games(&db.pool, season).await? > 0 {
        return Ok(None);
    }
    let (_writer, mut tx) = db.begin_write().await?;
    let this = season_on(&mut tx, season).await?;
    if this.status != SeasonStatus::Playing {
        return Ok(None);
    }
    if open_games(&mut *tx, season).await? > 0 {
        return Ok(None);
    }
    let standings = standings_on(&mut tx, season).await?;
    let divisions = standings
        .iter()
        .filter_map(|s| s.division)
        .max()
        .unwrap_or(0);
    for division in 1..=divisions {
        let members: Vec<&Standing> = standings
            .iter()
            .filter(|s| s.division == Some(division))
            .collect();
        let moving = movers(members.len());
        for (index, member) in members.iter().enumerate() {
            let movement = if division > 1 && index < moving {
                Movement::Up
            } else if division < divisions && index >= members.len() - moving {
                Movement::Down
            } else {
                Movement::Stay
            };
            sqlx::query(
                "UPDATE league_entries SET place = $3, movement = $4
                 WHERE season_id = $1 AND user_id = $2",
            )
            .bind(season)
            .bind(member.user_id)
            .bind(index as i64 + 1)
            .bind(movement.word())
            .execute(&mut *tx)
            .await?;
        }
    }
    let next = close(&mut tx, &this).await?;
    tx.commit().await?;
    Ok(Some(next))
}

/// How many of `season`'s games are still under way.
async fn open_games<'c, E>(on: E, season: &str) -> Result<i64, sqlx::Error>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM league_games lg JOIN games g ON g.id = lg.game_id
         WHERE lg.season_id = $1 AND g.status = 'playing'",
    )
    .bind(season)
    .fetch_one(on)
    .await
}

/// Marks `season` over and opens the next; returns the next one's id.
async fn close(conn: &mut AnyConnection, season: &Season) -> Result<String, sqlx::Error> {
    let now = now_ms();
    sqlx::query("UPDATE league_seasons SET status = 'over', ended_at = $2 WHERE id = $1")
        .bind(&season.id)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    open_season(
        conn,
        &season.league_id,
        season.number + 1,
        now + REGISTRATION_MS,
    )
    .await
}

/// A league as its pages show it, with its latest season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueCard {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its latest season.
    pub season: Season,
    /// Players in the latest season.
    pub players: i64,
    /// Whether the viewer is one of them.
    pub entered: bool,
}

/// A league's latest season, as read for its card.
#[derive(sqlx::FromRow)]
struct CardRow {
    name: String,
    players: i64,
    entered: i64,
    #[sqlx(flatten)]
    season: SeasonRow,
}

/// Every league (or only `league`), with its latest season, by name; `viewer` sees whether they
/// are in it.
pub async fn cards(
    db: &Database,
    league: Option<&str>,
    viewer: Option<i64>,
) -> Result<Vec<LeagueCard>, StoreError> {
    let rows: Vec<CardRow> = sqlx::query_as(&format!(
        "SELECT l.name, {SEASON_COLUMNS},
                (SELECT COUNT(*) FROM league_entries e WHERE e.season_id = s.id) AS players,
                (SELECT COUNT(*) FROM league_entries e WHERE e.season_id = s.id AND e.user_id = $1)
                    AS entered
         FROM leagues l JOIN league_seasons s ON s.league_id = l.id
         WHERE s.number = (SELECT MAX(number) FROM league_seasons t WHERE t.league_id = l.id)
           AND ($2 = '' OR l.id = $2)
         ORDER BY l.name, l.id"
    ))
    .bind(viewer.unwrap_or(0))
    .bind(league.unwrap_or(""))
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(LeagueCard {
                id: row.season.league_id.clone(),
                name: row.name,
                players: row.players,
                entered: row.entered > 0,
                season: Season::try_from(row.season)?,
            })
        })
        .collect()
}

/// The season before `season` in its league, if any.
pub async fn previous(db: &Database, season: &Season) -> Result<Option<Season>, StoreError> {
    let row: Option<SeasonRow> = sqlx::query_as(&format!(
        "SELECT {SEASON_COLUMNS} FROM league_seasons s JOIN leagues l ON l.id = s.league_id
         WHERE s.league_id = $1 AND s.number = $2"
    ))
    .bind(&season.league_id)
    .bind(season.number - 1)
    .fetch_optional(&db.pool)
    .await?;
    row.map(Season::try_from).transpose()
}

/// A league game of a player's, as their league page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueGame {
    /// The game.
    pub game_id: String,
    /// The other player's name.
    pub opponent: String,
    /// Whether it is the player's turn.
    pub my_turn: bool,
    /// Whether it is over.
    pub over: bool,
}

/// [`LeagueGame`] as read: SQL's truth values are 0 and 1 in SQLite.
#[derive(sqlx::FromRow)]
struct LeagueGameRow {
    game_id: String,
    opponent: String,
    my_turn: i64,
    over: i64,
}

/// `user`'s games in `season`: those waiting for them first, then the others, then the
/// finished ones.
pub async fn games_of(
    db: &Database,
    season: &str,
    user: i64,
) -> Result<Vec<LeagueGame>, sqlx::Error> {
    let rows: Vec<LeagueGameRow> = sqlx::query_as(
        "SELECT g.id AS game_id, u.name AS opponent,
                CASE WHEN g.status = 'playing' AND g.to_move = mine.seat THEN 1 ELSE 0 END AS my_turn,
                CASE WHEN g.status = 'over' THEN 1 ELSE 0 END AS over
         FROM league_games lg JOIN games g ON g.id = lg.game_id
         JOIN game_seats mine ON mine.game_id = g.id AND mine.user_id = $2
         JOIN game_seats other ON other.game_id = g.id AND other.seat <> mine.seat
         JOIN users u ON u.id = other.user_id
         WHERE lg.season_id = $1
         ORDER BY over, my_turn DESC, u.name, g.id",
    )
    .bind(season)
    .bind(user)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| LeagueGame {
            game_id: row.game_id,
            opponent: row.opponent,
            my_turn: row.my_turn != 0,
            over: row.over != 0,
        })
        .collect())
}

/// Starts the seasons whose registration has closed and finishes those whose games are all
/// over; returns how many it moved on. Every instance's league task runs it: each step checks
/// the season's status inside its transaction, so one instance takes each.
pub async fn advance(db: &Database) -> Result<usize, StoreError> {
    let due: Vec<(String, String)> = sqlx::query_as(
        "SELECT id, status FROM league_seasons
         WHERE (status = 'registration' AND starts_at <= $1) OR status = 'playing'
         ORDER BY starts_at LIMIT 100",
    )
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    let mut moved = 0;
    for (id, status) in due {
        let done = match status.as_str() {
            "registration" => !start(db, &id).await?.is_empty(),
            _ if unmade(db, &id).await? > 0 => !make_games(db, &id).await?.is_empty(),
            _ => finish(db, &id).await?.is_some(),
        };
        if done {
            db.publish(crate::bus::Change::Standings { id }).await;
        }
        moved += usize::from(done);
    }
    Ok(moved)
}

/// A day: what a time bank gives a turn at a time.
const DAY_MS: i64 = 86_400_000;

/// A league game whose turn is out of time while its player has days in the bank.
#[derive(sqlx::FromRow)]
struct Overdue {
    game_id: String,
    deadline_at: i64,
    season_id: String,
    user_id: i64,
}

/// Draws on the time banks: each league turn whose deadline has passed, while its player has days
/// left in the season's bank, gets a day more and the bank a day less. The clock task runs it
/// before it applies time-outs, so a turn is lost on the clock only once the bank is empty. Both
/// writes are conditional, in one transaction: a day is drawn once however many instances look.
/// Returns the games given a day.
pub async fn draw_banks(db: &Database) -> Result<Vec<String>, sqlx::Error> {
    let overdue: Vec<Overdue> = sqlx::query_as(
        "SELECT g.id AS game_id, g.deadline_at, e.season_id, e.user_id FROM games g
         JOIN league_games lg ON lg.game_id = g.id
         JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
         JOIN league_entries e ON e.season_id = lg.season_id AND e.user_id = s.user_id
         WHERE g.opponent = 'league' AND g.status = 'playing' AND g.deadline_at <= $1
           AND e.bank_days > 0
         ORDER BY g.deadline_at LIMIT 100",
    )
    .bind(now_ms())
    .fetch_all(&db.pool)
    .await?;
    if overdue.is_empty() {
        return Ok(Vec::new());
    }
    let (_writer, mut tx) = db.begin_write().await?;
    let mut given = Vec::new();
    for turn in overdue {
        let drawn = sqlx::query(
            "UPDATE league_entries SET bank_days = bank_days - 1
             WHERE season_id = $1 AND user_id = $2 AND bank_days > 0",
        )
        .bind(&turn.season_id)
        .bind(turn.user_id)
        .execute(&mut *tx)
        .await?;
        if drawn.rows_affected() == 0 {
            continue;
        }
        let moved = sqlx::query(
            "UPDATE games SET deadline_at = deadline_at + $3
             WHERE id = $1 AND deadline_at = $2 AND status = 'playing'",
        )
        .bind(&turn.game_id)
        .bind(turn.deadline_at)
        .bind(DAY_MS)
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() == 0 {
            // The turn moved on meanwhile: the day goes back.
            sqlx::query(
                "UPDATE league_entries SET bank_days = bank_days + 1
                 WHERE season_id = $1 AND user_id = $2",
            )
            .bind(&turn.season_id)
            .bind(turn.user_id)
            .execute(&mut *tx)
            .await?;
            continue;
        }
        given.push(turn.game_id);
    }
    tx.commit().await?;
    for id in &given {
        games::tell_players(db, id).await;
    }
    Ok(given)
}

/// Days left in `user`'s time bank in `season`.
pub async fn bank_days(db: &Database, season: &str, user: i64) -> Result<i64, sqlx::Error> {
    let days: Option<i64> = sqlx::query_scalar(
        "SELECT bank_days FROM league_entries WHERE season_id = $1 AND user_id = $2",
    )
    .bind(season)
    .bind(user)
    .fetch_optional(&db.pool)
    .await?;
    Ok(days.unwrap_or(0))
}

/// Forgets a closing account's registrations for seasons not yet begun (their games and
/// standings in seasons under way stay, as every game does).
pub(crate) async fn forget(conn: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    crate::db::forget_user(
        conn,
        user,
        &["DELETE FROM league_entries WHERE user_id = $1
           AND season_id IN (SELECT id FROM league_seasons WHERE status = 'registration')"],
    )
    .await
}
