//! Load generator: many concurrent bot-less games against a running server, through the same
//! server functions a browser calls, answered as a page gets them (postcard; JSON, as scripts
//! get them, with `--json`). Each simulated player signs up, starts pass-and-play Classic games
//! and plays both seats with the engine's beginner moves; a finished game is replaced by a new
//! one. Prints one JSON line: commits per second and commit latency percentiles.
//!
//! `cargo run --release -p server --bin loadgen -- --url http://127.0.0.1:3000 --players 32 --seconds 20`

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use app::api::{play::GamePage, Phase, Refusal};
use clap::Parser;
use http_body_util::BodyExt;
use rules::{PlayerView, RuleSet, Variant};
use serde_json::{json, Value};
use server::client::ApiClient;

/// Settings.
#[derive(Debug, Parser)]
#[command(about = "Concurrent bot-less games against a running Alfa Kraft server")]
struct Args {
    /// The server.
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    url: String,
    /// Simulated players, each with one game in play at a time.
    #[arg(long, default_value_t = 32)]
    players: usize,
    /// How long to run.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// A label for the output (e.g. the database).
    #[arg(long, default_value = "")]
    label: String,
    /// Before the load: render a game page (a game 10 turns in) and fetch the game list (20 such
    /// games) this many times each, and report the server's times.
    #[arg(long, default_value_t = 50)]
    page_renders: usize,
    /// Games against the Master bot kept going beside the load (their player answers each bot
    /// move at once), so the server's bot worker thinks all along: the commits measured are the
    /// other players'.
    #[arg(long, default_value_t = 0)]
    master_games: usize,
    /// The Master games' players open games (against the Beginner) and follow them, but never
    /// answer: the same pages and live streams with no bot thinking (the control for
    /// `--master-games`).
    #[arg(long)]
    masters_idle: bool,
    /// Games against the Master bot played on the players' devices instead: each is played out
    /// before the run (the device's part: no request), and its record sent to the account once
    /// during it (`games/device`, the whole of the server's part), spread over the run.
    #[arg(long, default_value_t = 0)]
    device_games: usize,
    /// Ask for game pages in JSON, as scripts do, instead of postcard, as the browser's pages do.
    #[arg(long)]
    json: bool,
    /// Live streams held open for the whole run beside the load, each on a pass-and-play game of
    /// a guest of its own: pages open elsewhere, which the players' commits should not cost.
    #[arg(long, default_value_t = 0)]
    watchers: usize,
    /// The server's process id (once per instance): the CPU time it spends per commit is read
    /// over the run, and its resident memory at the end, with every stream still open.
    #[arg(long)]
    server_pid: Vec<u32>,
    /// The Postgres server's main process (the postmaster): the CPU time it and its backends
    /// spend per commit is read over the run.
    #[arg(long)]
    postgres_pid: Option<u32>,
    /// The Postgres database the servers use: its transactions (statements, each its own
    /// transaction but a game's end) are counted over the run. The count is read 11 s after the
    /// load stops, once every backend has reported (Postgres flushes its counters when a
    /// connection has been idle for 10 s).
    #[arg(long)]
    database_url: Option<String>,
    /// The English FST the moves are found with.
    #[arg(long, default_value = "dictionaries/fst/en.fst")]
    dictionary: std::path::PathBuf,
}

#[derive(Default)]
struct Tally {
    commits: Vec<Duration>,
    refused: u64,
    failed: u64,
    games: u64,
}

/// What the load generator reads of a game page: whether the game goes on, and the player's
/// view.
struct Page {
    playing: bool,
    view: PlayerView,
}

/// A game page in JSON, read straight into these types (a `serde_json::Value` first cost the
/// generator as much CPU as the server spent on the commit, on the same two cores).
#[derive(serde::Deserialize)]
struct JsonAnswer {
    #[serde(rename = "Ok")]
    ok: Option<JsonPage>,
}

#[derive(serde::Deserialize)]
struct JsonPage {
    card: JsonCard,
    view: PlayerView,
}

#[derive(serde::Deserialize)]
struct JsonCard {
    phase: String,
}

/// Calls the server function at `path`, which answers with a game page: postcard as the page
/// asks for it, or JSON. `Ok(None)` is a refusal; `Err` a call that failed or an answer that
/// does not read.
async fn game_page(
    client: &mut ApiClient,
    path: &str,
    args: &Value,
    json: bool,
) -> Result<Option<Page>, ()> {
    if json {
        let Ok((200, body)) = client.json(path, args).await else {
            return Err(());
        };
        let answer = serde_json::from_str::<JsonAnswer>(&body).map_err(|_| ())?;
        return Ok(answer.ok.map(|page| Page {
            playing: page.card.phase == "Playing",
            view: page.view,
        }));
    }
    let Ok((200, body)) = client.as_page(path, args).await else {
        return Err(());
    };
    let answer: Result<GamePage, Refusal> = app::wire::from_bytes(&body).map_err(|_| ())?;
    Ok(answer.ok().map(|page| Page {
        playing: page.card.phase == Phase::Playing,
        view: page.view,
    }))
}

#[derive(serde::Deserialize)]
struct Created {
    #[serde(rename = "Ok")]
    ok: Option<CreatedGame>,
}

#[derive(serde::Deserialize)]
struct CreatedGame {
    id: String,
}

/// The English dictionary's version now active, as a device game names it (`en@1`).
async fn dictionary_version(base: &str) -> String {
    let mut client = ApiClient::new(base);
    let version = match client
        .form("/api/dictionaries", &[("with_licences", "false")])
        .await
    {
        Ok((200, body)) => serde_json::from_str::<Value>(&body).ok().and_then(|list| {
            list.as_array()?
                .iter()
                .find(|d| d["id"] == "English" || d["id"] == "en")
                .and_then(|d| d["version"].as_u64())
        }),
        _ => None,
    };
    format!("en@{}", version.unwrap_or(1))
}

/// A client signed up as a new player whose name starts with `prefix` (a random tail keeps
/// runs against one database apart), or `None` when the server refused.
async fn signed_up(base: &str, prefix: &str) -> Option<ApiClient> {
    let mut client = ApiClient::new(base);
    let tail = &uuid::Uuid::new_v4().simple().to_string()[..8];
    let name = format!("{prefix}_{tail}");
    let answer = client
        .form(
            "/api/account/sign-up",
            &[("name", &name), ("password", "load test password")],
        )
        .await;
    matches!(answer, Ok((200, _))).then_some(client)
}

async fn player(
    base: String,
    trie: Arc<engine::trie::Trie>,
    until: Instant,
    id: usize,
    json: bool,
) -> Tally {
    let mut tally = Tally::default();
    let Some(mut client) = signed_up(&base, &format!("load_{id}")).await else {
        tally.failed += 1;
        return tally;
    };
    // One bot for every move of every game: its generator keeps the board between moves.
    let rules = RuleSet::new(Variant::Classic);
    let mut bot = engine::bot::Bot::new(engine::bot::Level::Beginner, &trie, &rules, id as u64);
    let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "PassAndPlay": { "players": 2 } } } });
    'games: while Instant::now() < until {
        let Ok((200, body)) = client.json("/api/games/create", &new).await else {
            tally.failed += 1;
            break;
        };
        let Some(game) = serde_json::from_str::<Created>(&body)
            .ok()
            .and_then(|c| c.ok)
            .map(|c| c.id)
        else {
            tally.failed += 1;
            break;
        };
        tally.games += 1;
        let mut page =
            match game_page(&mut client, "/api/games/get", &json!({ "id": game }), json).await {
                Ok(Some(page)) => page,
                _ => break,
            };
        while Instant::now() < until {
            if !page.playing {
                continue 'games;
            }
            let action = bot.decide(&page.view);
            let args =
                json!({ "id": game, "expected_version": page.view.version, "action": action });
            let started = Instant::now();
            match game_page(&mut client, "/api/games/act", &args, json).await {
                // The answer is the new page: no extra round trip.
                Ok(Some(next)) => {
                    tally.commits.push(started.elapsed());
                    page = next;
                }
                Ok(None) => {
                    tally.refused += 1;
                    continue 'games;
                }
                Err(()) => {
                    tally.failed += 1;
                    break 'games;
                }
            }
        }
    }
    tally
}

/// A game played out on a device by two Beginner bots (which bot chose the moves is nothing to
/// the server: it replays whatever it is sent), recorded as a game against the Master: what the
/// device sends once it is over.
fn played_on_a_device(trie: &engine::trie::Trie, dictionary: &str, seed: u64) -> Value {
    let rules = RuleSet::new(Variant::Classic);
    let config = rules::GameConfig {
        variant: Variant::Classic,
        dictionary: dictionary.to_string(),
        seed,
        players: 2,
        first_seat: 0,
        format: rules::game::Format::Casual,
    };
    let mut state = rules::GameState::new(config);
    let mut actions = Vec::new();
    while *state.status() == rules::Status::Playing && actions.len() < 400 {
        let mut bot = engine::bot::Bot::new(
            engine::bot::Level::Beginner,
            trie,
            &rules,
            seed ^ actions.len() as u64,
        );
        for action in bot.decide_turn(&state.view(state.to_move())) {
            // The bot plays the trie's words, which are the dictionary's.
            if state.apply(&action, &rules::lexicon::AcceptAll).is_err() {
                break;
            }
            actions.push(action);
        }
    }
    let scores = match state.status() {
        rules::Status::Over(outcome) => outcome.final_scores.clone(),
        rules::Status::Playing => Vec::new(),
    };
    json!({ "game": { "key": uuid::Uuid::new_v4().to_string(), "variant": "Classic",
        "dictionary": dictionary, "seed": seed, "first_seat": 0, "bot_seat": 1, "level": "Master",
        "actions": actions, "scores": scores } })
}

/// A player of a device game: sends its record at `at`; whether the account kept it.
async fn device_game(mut client: ApiClient, record: Value, at: Instant) -> bool {
    tokio::time::sleep_until(at.into()).await;
    matches!(client.json("/api/games/device", &record).await, Ok((200, body)) if body.contains("\"Ok\""))
}

/// A player of a game against the Master bot: answers every bot move with a beginner's move
/// until `until`, starting a new game when one ends. Returns the bot moves it saw.
async fn master_game(
    base: String,
    trie: Arc<engine::trie::Trie>,
    until: Instant,
    id: usize,
    idle: bool,
    json: bool,
) -> u64 {
    let Some(mut client) = signed_up(&base, &format!("master_{id}")).await else {
        return 0;
    };
    let rules = RuleSet::new(Variant::Classic);
    let mut bot = engine::bot::Bot::new(engine::bot::Level::Beginner, &trie, &rules, id as u64);
    // An idle player's game is against the Beginner, whose first move (when it has one) is
    // found at once: no search runs beside the load.
    let level = if idle { "beginner" } else { "master" };
    let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "Bot": { "level": level } } } });
    let mut bot_moves = 0;
    'games: while Instant::now() < until {
        let Ok((200, body)) = client.json("/api/games/create", &new).await else {
            return bot_moves;
        };
        let Some(game) = serde_json::from_str::<Created>(&body)
            .ok()
            .and_then(|c| c.ok)
        else {
            return bot_moves;
        };
        // The game's live stream, as its page would hold open: a move is fetched when the
        // stream says the game changed, not by polling (which would load the server more than
        // the 20 pages of the measurement do).
        let Ok(mut live) = client.stream(&format!("/api/live?game={}", game.id)).await else {
            return bot_moves;
        };
        let mut last_version = None;
        while Instant::now() < until {
            let Ok(Some(page)) = game_page(
                &mut client,
                "/api/games/get",
                &json!({ "id": game.id }),
                json,
            )
            .await
            else {
                return bot_moves;
            };
            if !page.playing {
                continue 'games;
            }
            if page.view.seat != page.view.to_move || idle {
                // The bot is thinking (or the player stays away): wait for the stream's next
                // event (or a heartbeat).
                let left = until.saturating_duration_since(Instant::now());
                match tokio::time::timeout(left, live.frame()).await {
                    Ok(Some(Ok(_))) => continue,
                    Ok(_) => return bot_moves, // the stream ended
                    Err(_) => break 'games,    // time is up
                }
            }
            if last_version.is_some_and(|v| v != page.view.version) {
                bot_moves += 1;
            }
            let action = bot.decide(&page.view);
            let args =
                json!({ "id": game.id, "expected_version": page.view.version, "action": action });
            let _ = client.json("/api/games/act", &args).await;
            last_version = Some(page.view.version + 1);
        }
    }
    bot_moves
}

/// Opens `count` live streams, each a new guest's pass-and-play game's, some at a time; each is
/// read (heartbeats and all) by a task of its own until `until`. Returns how many opened.
async fn watchers(base: &str, count: usize, until: Instant) -> usize {
    use futures_util::StreamExt;
    let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "PassAndPlay": { "players": 2 } } } });
    let open = |base: String, new: Value| async move {
        let mut client = ApiClient::new(&base);
        let Ok((200, body)) = client.json("/api/games/create", &new).await else {
            return false;
        };
        let Some(game) = serde_json::from_str::<Created>(&body)
            .ok()
            .and_then(|c| c.ok)
        else {
            return false;
        };
        let Ok(mut live) = client.stream(&format!("/api/live?game={}", game.id)).await else {
            return false;
        };
        tokio::spawn(async move {
            let left = until.saturating_duration_since(Instant::now());
            let _ = tokio::time::timeout(left, async {
                while let Some(Ok(_)) = live.frame().await {}
            })
            .await;
        });
        true
    };
    futures_util::stream::iter(0..count)
        .map(|_| open(base.to_string(), new.clone()))
        .buffer_unordered(32)
        .filter(|opened| std::future::ready(*opened))
        .count()
        .await
}

/// The resident memory of processes `pids` together, in MB (Linux).
fn rss_mb(pids: &[u32]) -> Option<f64> {
    let mut kb = 0.0;
    for pid in pids {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        kb += line.split_whitespace().nth(1)?.parse::<f64>().ok()?;
    }
    (!pids.is_empty()).then_some((kb / 1024.0 * 10.0).round() / 10.0)
}

/// A process's parent and CPU times in clock ticks (user, system, and its reaped children's
/// user and system), from `/proc/<pid>/stat`.
fn stat(pid: &str) -> Option<(u32, [u64; 4])> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse().ok());
    Some((
        fields.get(1)?.parse().ok()?,
        [tick(11)?, tick(12)?, tick(13)?, tick(14)?],
    ))
}

/// Transactions committed or rolled back in the database at `url` so far, and the bytes written
/// to its write-ahead log; `conn` is the connection that asks (kept open: its own asking counts
/// once per reading).
async fn transactions(
    url: Option<&str>,
    conn: &mut Option<sqlx::AnyConnection>,
) -> Option<(i64, i64)> {
    use sqlx::Connection;
    if conn.is_none() {
        sqlx::any::install_default_drivers();
        *conn = Some(sqlx::AnyConnection::connect(url?).await.ok()?);
    }
    sqlx::query_as(
        "SELECT xact_commit + xact_rollback,
                CAST(pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS BIGINT)
         FROM pg_stat_database WHERE datname = current_database()",
    )
    .fetch_one(conn.as_mut()?)
    .await
    .ok()
}

/// Linux reports CPU times in ticks of 1/100 s (USER_HZ, 100 on every common build).
const TICK_MS: f64 = 10.0;

/// CPU time used so far by processes `pids`, in ms.
fn cpu_ms(pids: &[u32]) -> f64 {
    pids.iter()
        .filter_map(|pid| stat(&pid.to_string()))
        .map(|(_, [user, system, ..])| (user + system) as f64 * TICK_MS)
        .sum()
}

/// CPU time used so far by process `root` and its children, live or gone (a Postgres
/// postmaster and its backends), in ms.
fn tree_cpu_ms(root: u32) -> f64 {
    let Some((_, [user, system, children_user, children_system])) = stat(&root.to_string()) else {
        return 0.0;
    };
    let live: u64 = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| stat(entry.file_name().to_str()?))
        .filter(|(parent, _)| *parent == root)
        .map(|(_, [user, system, ..])| user + system)
        .sum();
    (user + system + children_user + children_system + live) as f64 * TICK_MS
}

/// Games the idle measurements' player has, each 10 turns in: a full game list.
const LIST_GAMES: u64 = 20;

/// What [`idle_timings`] measured: the times of each kind of request, and the server's CPU time
/// and answer size for a game fetched as its page fetches it after a live update.
#[derive(Default)]
struct Idle {
    pages: Vec<Duration>,
    lists: Vec<Duration>,
    /// The start page of the player with the games, rendered whole.
    homes: Vec<Duration>,
    home_bytes: usize,
    fetch_cpu_ms: f64,
    fetch_postgres_cpu_ms: Option<f64>,
    fetch_bytes: usize,
    list_cpu_ms: f64,
}

/// On an otherwise idle server, one at a time: `renders` GETs of a game page 10 turns in, as
/// many fetches of the game list of a player with [`LIST_GAMES`] such games, and as many
/// fetches of the game as the page makes them when a live update says it changed.
async fn idle_timings(
    base: &str,
    trie: &engine::trie::Trie,
    renders: usize,
    servers: &[u32],
    postgres: Option<u32>,
) -> Idle {
    let Some(mut client) = signed_up(base, "render").await else {
        return Idle::default();
    };
    let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "PassAndPlay": { "players": 2 } } } });
    let mut games = Vec::new();
    for g in 0..LIST_GAMES {
        let Ok((200, body)) = client.json("/api/games/create", &new).await else {
            break;
        };
        let created: Value = serde_json::from_str(&body).unwrap_or_default();
        let game = created["Ok"]["id"].as_str().unwrap_or_default().to_string();
        for turn in 0..10u64 {
            let Ok((200, body)) = client.json("/api/games/get", &json!({ "id": game })).await
            else {
                break;
            };
            let page: Value = serde_json::from_str(&body).unwrap_or_default();
            let Ok(view) = serde_json::from_value::<PlayerView>(page["Ok"]["view"].clone()) else {
                break;
            };
            let rules = view.rules();
            let action =
                engine::bot::Bot::new(engine::bot::Level::Beginner, trie, &rules, g + turn)
                    .decide(&view);
            let args = json!({ "id": game, "expected_version": view.version, "action": action });
            let _ = client.json("/api/games/act", &args).await;
        }
        games.push(game);
    }
    let Some(game) = games.first() else {
        return Idle::default();
    };
    let mut idle = Idle::default();
    for _ in 0..renders {
        let started = Instant::now();
        if let Ok((200, _)) = client.get(&format!("/game/{game}")).await {
            idle.pages.push(started.elapsed());
        }
    }
    let cpu = cpu_ms(servers);
    for _ in 0..renders {
        let started = Instant::now();
        if let Ok((200, _)) = client.json("/api/games/mine", &json!({})).await {
            idle.lists.push(started.elapsed());
        }
    }
    idle.list_cpu_ms = (cpu_ms(servers) - cpu) / renders.max(1) as f64;
    for _ in 0..renders {
        let started = Instant::now();
        if let Ok((200, body)) = client.get("/").await {
            idle.homes.push(started.elapsed());
            idle.home_bytes = body.len();
        }
    }
    let (cpu, postgres_cpu) = (cpu_ms(servers), postgres.map(tree_cpu_ms));
    for _ in 0..renders {
        if let Ok((200, body)) = client
            .as_page("/api/games/get", &json!({ "id": game }))
            .await
        {
            idle.fetch_bytes = body.len();
        }
    }
    idle.fetch_cpu_ms = (cpu_ms(servers) - cpu) / renders.max(1) as f64;
    idle.fetch_postgres_cpu_ms = postgres
        .zip(postgres_cpu)
        .map(|(pid, before)| (tree_cpu_ms(pid) - before) / renders.max(1) as f64);
    idle.pages.sort();
    idle.lists.sort();
    idle.homes.sort();
    idle
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index].as_secs_f64() * 1e3
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let lexicon = dictionaries::FstLexicon::read(&args.dictionary).expect("read the English FST");
    let rules = RuleSet::new(Variant::Classic);
    let trie = Arc::new(engine::trie::Trie::new(
        lexicon.words().iter().map(String::as_str),
        rules.tiles,
    ));
    let idle = idle_timings(
        &args.url,
        &trie,
        args.page_renders,
        &args.server_pid,
        args.postgres_pid,
    )
    .await;
    let (renders, lists) = (&idle.pages, &idle.lists);
    // The watchers are held until the run and its memory reading are over.
    let held = Instant::now() + Duration::from_secs(args.seconds + 120);
    let watching = watchers(&args.url, args.watchers, held).await;
    // The device games: played out and their players signed up before the run.
    let mut devices = Vec::new();
    for id in 0..args.device_games {
        let dictionary = dictionary_version(&args.url).await;
        let record = played_on_a_device(&trie, &dictionary, 9_000 + id as u64);
        if let Some(client) = signed_up(&args.url, &format!("device_{id}")).await {
            devices.push((client, record));
        }
    }
    let started = Instant::now();
    let spread = Duration::from_secs(args.seconds) / (args.device_games as u32 + 1);
    let devices: Vec<_> = devices
        .into_iter()
        .enumerate()
        .map(|(n, (client, record))| {
            tokio::spawn(device_game(
                client,
                record,
                started + spread * (n as u32 + 1),
            ))
        })
        .collect();
    let cpu = (cpu_ms(&args.server_pid), args.postgres_pid.map(tree_cpu_ms));
    let mut counter = None;
    let transactions_before = transactions(args.database_url.as_deref(), &mut counter).await;
    let until = started + Duration::from_secs(args.seconds);
    let masters: Vec<_> = (0..args.master_games)
        .map(|id| {
            tokio::spawn(master_game(
                args.url.clone(),
                trie.clone(),
                until,
                id,
                args.masters_idle,
                args.json,
            ))
        })
        .collect();
    let players: Vec<_> = (0..args.players)
        .map(|id| tokio::spawn(player(args.url.clone(), trie.clone(), until, id, args.json)))
        .collect();
    let mut all = Tally::default();
    for player in players {
        let tally = player.await.expect("a player task");
        all.commits.extend(tally.commits);
        all.refused += tally.refused;
        all.failed += tally.failed;
        all.games += tally.games;
    }
    let mut master_moves = 0;
    for master in masters {
        master_moves += master.await.expect("a Master game's task");
    }
    let mut device_records = 0;
    for device in devices {
        device_records += usize::from(device.await.expect("a device game's task"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    let per_commit = |ms: f64| (ms / all.commits.len().max(1) as f64 * 1000.0).round() / 1000.0;
    let server_cpu = per_commit(cpu_ms(&args.server_pid) - cpu.0);
    let postgres_cpu = args
        .postgres_pid
        .zip(cpu.1)
        .map(|(pid, before)| per_commit(tree_cpu_ms(pid) - before));
    let rss = rss_mb(&args.server_pid);
    let (mut transactions_per_commit, mut wal_bytes_per_commit) = (None, None);
    if let Some((transactions_then, wal_then)) = transactions_before {
        tokio::time::sleep(Duration::from_secs(11)).await;
        if let Some((transactions_now, wal_now)) = transactions(None, &mut counter).await {
            let commits = all.commits.len().max(1) as f64;
            // Less the reading's own transaction.
            let per = (transactions_now - transactions_then - 1) as f64 / commits;
            transactions_per_commit = Some((per * 100.0).round() / 100.0);
            wal_bytes_per_commit = Some(((wal_now - wal_then) as f64 / commits).round());
        }
    }
    all.commits.sort();
    let commits_per_s = ((all.commits.len() as f64 / elapsed) * 10.0).round() / 10.0;
    let p99 = (percentile(&all.commits, 0.99) * 100.0).round() / 100.0;
    println!(
        "{}",
        json!({
            "label": args.label,
            "players": args.players,
            "seconds": (elapsed * 10.0).round() / 10.0,
            "games": all.games,
            "commits": all.commits.len(),
            "commits_per_s": commits_per_s,
            "commit_p50_ms": (percentile(&all.commits, 0.50) * 100.0).round() / 100.0,
            "commit_p99_ms": p99,
            "watchers": watching,
            "server_rss_mb": rss,
            "refused": all.refused,
            "page_renders": renders.len(),
            "game_page_render_p50_ms": (percentile(renders, 0.50) * 100.0).round() / 100.0,
            "game_page_render_p99_ms": (percentile(renders, 0.99) * 100.0).round() / 100.0,
            "game_list_games": LIST_GAMES,
            "game_list_p50_ms": (percentile(lists, 0.50) * 100.0).round() / 100.0,
            "game_list_p99_ms": (percentile(lists, 0.99) * 100.0).round() / 100.0,
            "game_list_server_cpu_ms": (idle.list_cpu_ms * 100.0).round() / 100.0,
            "start_page_render_p50_ms": (percentile(&idle.homes, 0.50) * 100.0).round() / 100.0,
            "start_page_render_p99_ms": (percentile(&idle.homes, 0.99) * 100.0).round() / 100.0,
            "start_page_bytes": idle.home_bytes,
            "game_fetch_server_cpu_ms": (idle.fetch_cpu_ms * 100.0).round() / 100.0,
            "game_fetch_bytes": idle.fetch_bytes,
            "instances": args.server_pid.len(),
            "server_cpu_ms_per_commit": server_cpu,
            "transactions_per_commit": transactions_per_commit,
            "wal_bytes_per_commit": wal_bytes_per_commit,
            "game_fetch_postgres_cpu_ms": idle.fetch_postgres_cpu_ms.map(|ms| (ms * 100.0).round() / 100.0),
            "postgres_cpu_ms_per_commit": postgres_cpu,
            "failed": all.failed,
            "master_games": args.master_games,
            "masters_idle": args.masters_idle,
            "master_moves": master_moves,
            "device_games": args.device_games,
            "device_records_kept": device_records,
            "answers": if args.json { "json" } else { "postcard" },
        })
    );
    // One plain line to compare runs by: `sqlite: commits/s 2514 p99 7.9 ms rss 40 MB`.
    let rss = rss.map_or_else(|| "?".to_string(), |mb| format!("{mb:.0}"));
    println!(
        "{}: commits/s {commits_per_s:.0} p99 {p99:.1} ms rss {rss} MB",
        args.label
    );
}
