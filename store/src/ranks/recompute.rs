//! `alfakraft recompute-ranks`: every rank rebuilt from the finished games themselves. Each rated
//! game's log is replayed for its result, and the games are rated again in the order they were
//! first rated: a player's games are rated one after the other (their rank rows are locked), and
//! the history keeps how many each player had before, so each game is replayed once both its
//! players have reached that count. The rebuilt ranks must equal the stored ones; when they do
//! not, the rebuild is what stands.

use std::collections::{BTreeMap, HashMap};

use super::{game_result, HistoryRow};
use crate::{db::now_ms, ended::result_of, games, rows::Json, Services, StoreError};
use dictionaries::{DictionaryId, DictionaryRef};
use rules::{
    game::Status,
    rank::{updated_rank, STARTING_RANK},
    GameConfig,
};

/// A rated game to replay.
struct Rated {
    id: String,
    dictionary: DictionaryId,
    players: [i64; 2],
    /// Each player's rated games before this one, as first rated (`None`: never rated).
    games_before: [Option<i64>; 2],
    ended_at: i64,
    /// Win, draw or loss of each player, from the replayed log.
    results: [&'static str; 2],
}

/// What a recomputation found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recomputed {
    /// Rated games replayed.
    pub games: usize,
    /// Players with a rank.
    pub players: usize,
    /// Ranks that differed from the stored ones: (name, dictionary, stored, rebuilt).
    pub differences: Vec<(String, DictionaryId, i32, i32)>,
    /// Whether the rebuilt ranks were written.
    pub written: bool,
}

/// Rebuilds every rank from the finished rated games and compares it with the stored ranks;
/// `write` replaces the stored ranks and history with the rebuild.
pub async fn recompute(services: &Services, write: bool) -> Result<Recomputed, StoreError> {
    let db = &services.db;
    let games = rated_games(services).await?;
    // Each player's games in the order they were rated.
    let mut queues: HashMap<(i64, DictionaryId), Vec<usize>> = HashMap::new();
    for (index, game) in games.iter().enumerate() {
        for player in game.players {
            queues
                .entry((player, game.dictionary))
                .or_default()
                .push(index);
        }
    }
    let position = |game: &Rated, player: i64| {
        let seat = usize::from(game.players[1] == player);
        (
            game.games_before[seat].unwrap_or(i64::MAX),
            game.ended_at,
            game.id.clone(),
        )
    };
    for ((player, _), queue) in queues.iter_mut() {
        queue.sort_by_key(|&i| position(&games[i], *player));
    }
    let order = replay_order(&games, &queues);
    // Rate them again.
    let mut ranks: HashMap<(i64, DictionaryId), (i32, u32)> = HashMap::new();
    let mut history = Vec::with_capacity(games.len() * 2);
    for &index in &order {
        let game = &games[index];
        let before = game.players.map(|p| {
            *ranks
                .get(&(p, game.dictionary))
                .unwrap_or(&(STARTING_RANK, 0))
        });
        for seat in 0..2 {
            let (rank, played) = before[seat];
            let after = updated_rank(
                rank,
                before[1 - seat].0,
                game_result(game.results[seat]),
                played,
            );
            ranks.insert((game.players[seat], game.dictionary), (after, played + 1));
            history.push((index, seat, rank, after, played));
        }
    }
    let stored = stored_ranks(services).await?;
    let mut differences = Vec::new();
    let keys: std::collections::BTreeSet<_> = stored.keys().chain(ranks.keys()).copied().collect();
    for key in keys {
        let was = stored.get(&key).map(|(rank, _, _)| *rank);
        let now = ranks.get(&key).map(|(rank, _)| *rank);
        if was.unwrap_or(STARTING_RANK) != now.unwrap_or(STARTING_RANK) {
            let name = stored
                .get(&key)
                .map(|(_, _, n)| n.clone())
                .unwrap_or_default();
            differences.push((
                name,
                key.1,
                was.unwrap_or(STARTING_RANK),
                now.unwrap_or(STARTING_RANK),
            ));
        }
    }
    if write {
        let (_writer, mut tx) = db.begin_write().await?;
        sqlx::query("DELETE FROM rank_history")
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE ranks SET rank = $1, games = 0")
            .bind(i64::from(STARTING_RANK))
            .execute(&mut *tx)
            .await?;
        for (index, seat, before, after, played) in &history {
            let game = &games[*index];
            let row = HistoryRow {
                game_id: &game.id,
                user: game.players[*seat],
                dictionary: game.dictionary,
                opponent: game.players[1 - seat],
                result: game.results[*seat],
                before: *before,
                after: *after,
                at: game.ended_at,
                games_before: *played,
            };
            row.insert(&mut tx).await?;
        }
        for ((user, dictionary), (rank, played)) in &ranks {
            sqlx::query(
                "INSERT INTO ranks (user_id, dictionary, rank, games, updated_at)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (user_id, dictionary) DO UPDATE SET rank = $3, games = $4",
            )
            .bind(user)
            .bind(dictionary.as_str())
            .bind(i64::from(*rank))
            .bind(i64::from(*played))
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        // A closed account keeps no rank and no history; its games still count for the others.
        for table in ["rank_history", "ranks"] {
            sqlx::query(&format!(
                "DELETE FROM {table} WHERE user_id IN (SELECT id FROM users WHERE closed_at IS NOT NULL)"
            ))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
    }
    Ok(Recomputed {
        games: order.len(),
        players: ranks.len(),
        differences,
        written: write,
    })
}

/// The order to rate the games in: a game goes once it is next in both its players' queues.
/// Stored history always allows that; should it not (a tampered or partial history), the
/// earliest-ended game left goes next.
fn replay_order(games: &[Rated], queues: &HashMap<(i64, DictionaryId), Vec<usize>>) -> Vec<usize> {
    let mut next: HashMap<(i64, DictionaryId), usize> = HashMap::new();
    let mut done = vec![false; games.len()];
    let mut order = Vec::with_capacity(games.len());
    let head = |next: &HashMap<(i64, DictionaryId), usize>, done: &[bool], key| {
        let queue: &Vec<usize> = &queues[&key];
        queue[*next.get(&key).unwrap_or(&0)..]
            .iter()
            .copied()
            .find(|&i| !done[i])
    };
    let ready = |next: &HashMap<_, _>, done: &[bool], index: usize| {
        let game = &games[index];
        !done[index]
            && game
                .players
                .iter()
                .all(|&p| head(next, done, (p, game.dictionary)) == Some(index))
    };
    let mut stack: Vec<usize> = (0..games.len())
        .filter(|&i| ready(&next, &done, i))
        .collect();
    let mut by_end: Vec<usize> = (0..games.len()).collect();
    by_end.sort_by_key(|&i| (games[i].ended_at, games[i].id.clone()));
    let mut fallback = by_end.into_iter();
    while order.len() < games.len() {
        let index = match stack.pop() {
            Some(index) if !done[index] => index,
            Some(_) => continue,
            None => match fallback.find(|&i| !done[i]) {
                Some(index) => index,
                None => break,
            },
        };
        done[index] = true;
        order.push(index);
        let game = &games[index];
        for player in game.players {
            let key = (player, game.dictionary);
            let queue = &queues[&key];
            let at = next.entry(key).or_insert(0);
            while *at < queue.len() && done[queue[*at]] {
                *at += 1;
            }
            if let Some(candidate) = head(&next, &done, key) {
                if ready(&next, &done, candidate) {
                    stack.push(candidate);
                }
            }
        }
    }
    order
}

/// A seat of a finished rated game, with the history's count of its player's games before it.
#[derive(sqlx::FromRow)]
struct RatedSeat {
    id: String,
    config: Json<GameConfig>,
    updated_at: i64,
    user_id: Option<i64>,
    games_before: Option<i64>,
}

/// Every finished rated game between two people, with each player's result from its replayed
/// log.
async fn rated_games(services: &Services) -> Result<Vec<Rated>, StoreError> {
    let db = &services.db;
    let rows: Vec<RatedSeat> = sqlx::query_as(
        "SELECT g.id, g.config, g.updated_at, s.seat, s.user_id, h.games_before
         FROM games g JOIN game_seats s ON s.game_id = g.id
         LEFT JOIN rank_history h ON h.game_id = g.id AND h.user_id = s.user_id
         WHERE g.status = 'over' AND g.rated = 1 AND g.opponent IN ('invite', 'lobby', 'rematch')
         ORDER BY g.id, s.seat",
    )
    .fetch_all(&db.pool)
    .await?;
    // Game id → config, end, and each seat's (user, games before).
    type Seats = Vec<(Option<i64>, Option<i64>)>;
    let mut found: BTreeMap<String, (GameConfig, i64, Seats)> = BTreeMap::new();
    for row in rows {
        let entry = found
            .entry(row.id)
            .or_insert_with(|| (row.config.0, row.updated_at, Vec::new()));
        entry.2.push((row.user_id, row.games_before));
    }
    let mut games = Vec::new();
    let ids: Vec<&String> = found.keys().collect();
    for chunk in ids.chunks(500) {
        let chunk: Vec<&str> = chunk.iter().map(|s| s.as_str()).collect();
        let logs = games::logs(db, &chunk).await?;
        for id in chunk {
            let (config, ended_at, seats) = &found[id];
            let [(Some(first), first_before), (Some(second), second_before)] = seats[..] else {
                continue;
            };
            let Some(dictionary) = DictionaryRef::parse(&config.dictionary).map(|at| at.id) else {
                continue;
            };
            if first == second {
                continue;
            }
            let lexicon = services.game_lexicon(config).await?;
            let actions = logs.get(id).map(Vec::as_slice).unwrap_or_default();
            let state = games::replay(config.clone(), actions, &*lexicon)?;
            let Status::Over(outcome) = state.status() else {
                continue;
            };
            games.push(Rated {
                id: id.to_string(),
                dictionary,
                players: [first, second],
                games_before: [first_before, second_before],
                ended_at: *ended_at,
                results: [
                    result_of(&outcome.winners, 0),
                    result_of(&outcome.winners, 1),
                ],
            });
        }
    }
    Ok(games)
}

/// A stored rank with its player's name.
#[derive(sqlx::FromRow)]
struct NamedRank {
    user_id: i64,
    dictionary: String,
    rank: i32,
    games: i64,
    name: String,
}

/// The stored ranks: (user, dictionary) → (rank, games, name).
async fn stored_ranks(
    services: &Services,
) -> Result<HashMap<(i64, DictionaryId), (i32, u32, String)>, StoreError> {
    let rows: Vec<NamedRank> = sqlx::query_as(
        "SELECT r.user_id, r.dictionary, r.rank, r.games, u.name FROM ranks r
         JOIN users u ON u.id = r.user_id WHERE r.games > 0",
    )
    .fetch_all(&services.db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let dictionary = DictionaryId::parse(&row.dictionary)?;
            Some((
                (row.user_id, dictionary),
                (row.rank, u32::try_from(row.games).ok()?, row.name),
            ))
        })
        .collect())
}
