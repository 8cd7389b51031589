//! What the database suites share: the databases they run against, the real binary, and a browser.
#![allow(dead_code)]

pub mod browser;
pub mod fuzz;
pub mod load;
pub mod loopback;

use store::db::Database;

/// Every database the suite runs against: a fresh SQLite file always, and the Postgres server named
/// by `ALFAKRAFT_TEST_POSTGRES_URL` (required under CI). Tests keep to their own rows (random ids,
/// unique names), so they can share the Postgres database.
pub async fn databases() -> Vec<(&'static str, Database, Option<tempfile::TempDir>)> {
    let mut all = vec![sqlite().await];
    match std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        Ok(url) => all.push((
            "postgres",
            store::connect(&url).await.expect("connect to Postgres"),
            None,
        )),
        Err(_) if std::env::var_os("CI").is_some() => {
            panic!("CI must test Postgres: set ALFAKRAFT_TEST_POSTGRES_URL")
        }
        Err(_) => eprintln!("ALFAKRAFT_TEST_POSTGRES_URL is not set: Postgres skipped in this run"),
    }
    all
}

/// Another connection pool on `db`'s database, standing for a second instance: its own pool on
/// the test Postgres; on SQLite the file is one instance's, so the same pool.
pub async fn second_instance(db: &Database) -> Database {
    match db.backend {
        store::db::Backend::Postgres => {
            store::connect(&std::env::var("ALFAKRAFT_TEST_POSTGRES_URL").unwrap())
                .await
                .unwrap()
        }
        store::db::Backend::Sqlite => db.clone(),
    }
}

/// A fresh SQLite file in a temporary folder (kept as long as the folder lives).
async fn sqlite() -> (&'static str, Database, Option<tempfile::TempDir>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    ("sqlite", store::connect(&url).await.unwrap(), Some(dir))
}

/// A name no other test run uses.
pub fn unique_name(prefix: &str) -> String {
    format!(
        "{prefix}_{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

/// The real binary, started on a free port with `data_dir` (and `database_url`, else SQLite in
/// the data folder); returns the process and its base URL once it listens.
pub fn spawn_server(
    data_dir: &std::path::Path,
    database_url: Option<&str>,
) -> (ServerProcess, String) {
    spawn_server_with(data_dir, database_url, &[])
}

/// A running server process, killed when dropped: a test that fails half-way leaves no server
/// behind (one would hold the test run's output open, and CI would wait for it).
pub struct ServerProcess(std::process::Child);

impl From<std::process::Child> for ServerProcess {
    fn from(child: std::process::Child) -> ServerProcess {
        ServerProcess(child)
    }
}

impl std::ops::Deref for ServerProcess {
    type Target = std::process::Child;

    fn deref(&self) -> &std::process::Child {
        &self.0
    }
}

impl std::ops::DerefMut for ServerProcess {
    fn deref_mut(&mut self) -> &mut std::process::Child {
        &mut self.0
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// [`spawn_server`] with settings in its environment.
pub fn spawn_server_with(
    data_dir: &std::path::Path,
    database_url: Option<&str>,
    env: &[(&str, &str)],
) -> (ServerProcess, String) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_alfakraft"));
    command
        .args(["--addr", "127.0.0.1:0", "--log", "warn"])
        .arg("--data-dir")
        .arg(data_dir)
        .arg("--dictionaries-dir")
        .arg(root.join("dictionaries"))
        .arg("--site-root")
        .arg(data_dir)
        .env_remove("DATABASE_URL")
        .stdout(std::process::Stdio::piped());
    if let Some(url) = database_url {
        command.env("DATABASE_URL", url);
    }
    command.envs(env.iter().copied());
    let mut child = command.spawn().expect("start the server");
    let url = url_of(&mut child);
    (ServerProcess(child), url)
}

/// Reads a server's output (piped) up to the line with its URL; keeps draining it after, so the
/// server never blocks on a full pipe.
pub fn url_of(child: &mut std::process::Child) -> String {
    use std::io::BufRead;
    let stdout = child.stdout.take().expect("the server's output is piped");
    let mut lines = std::io::BufReader::new(stdout).lines();
    let url = loop {
        let line = lines
            .next()
            .expect("the server printed its URL")
            .expect("read the server's output");
        if let Some(url) = line.strip_prefix("Alfa Kraft is running at ") {
            break url.trim().to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    url
}

/// A new, empty Postgres database on the test server, for tests that must not see (or be seen
/// by) the servers other tests start: a clock running in any of those would apply this test's
/// time-outs. Returns its URL, or `None` when Postgres is not configured (outside CI).
pub async fn own_postgres() -> Option<String> {
    let url = match std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        Ok(url) => url,
        Err(_) if std::env::var_os("CI").is_some() => {
            panic!("CI must test Postgres: set ALFAKRAFT_TEST_POSTGRES_URL")
        }
        Err(_) => return None,
    };
    let name = unique_name("alfakraft_t").to_lowercase();
    let main = store::connect(&url).await.expect("connect to Postgres");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&main.pool)
        .await
        .expect("create a test database");
    let base = url.rsplit_once('/').map_or(url.as_str(), |(base, _)| base);
    Some(format!("{base}/{name}"))
}

/// A fresh SQLite file and, when configured, a Postgres database of the test's own.
pub async fn own_databases() -> Vec<(&'static str, Database, Option<tempfile::TempDir>)> {
    let mut all = vec![sqlite().await];
    if let Some(url) = own_postgres().await {
        all.push(("postgres", store::connect(&url).await.unwrap(), None));
    }
    all
}

/// The shipped dictionaries, loaded once per test binary.
pub fn catalog() -> std::sync::Arc<dictionaries::catalog::Catalog> {
    static CATALOG: std::sync::OnceLock<std::sync::Arc<dictionaries::catalog::Catalog>> =
        std::sync::OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dictionaries");
            std::sync::Arc::new(
                dictionaries::catalog::Catalog::load(&dir).expect("the shipped dictionaries load"),
            )
        })
        .clone()
}

/// The dictionary library of one instance on `db` (importing the shipped lists on first use).
pub async fn library(db: &Database) -> std::sync::Arc<store::library::Library> {
    store::library::Library::open(db.clone(), catalog())
        .await
        .expect("open the dictionary library")
}

/// A legal play for the seat to move, from the engine on that seat's own view.
pub fn a_play(view: &rules::PlayerView) -> rules::Action {
    static TRIE: std::sync::OnceLock<engine::trie::Trie> = std::sync::OnceLock::new();
    let rules = view.rules();
    let trie = TRIE.get_or_init(|| {
        let words = catalog()
            .get(dictionaries::DictionaryId::English)
            .unwrap()
            .lexicon
            .words();
        engine::trie::Trie::new(words.iter().map(String::as_str), rules.tiles)
    });
    let mut bot = engine::bot::Bot::new(engine::bot::Level::Beginner, trie, &rules, 7);
    bot.decide(view)
}

/// `user`'s password confirmed, as a change to the account's keys asks first.
#[allow(dead_code)]
pub async fn confirmed(
    db: &Database,
    user: &store::accounts::User,
    password: &str,
) -> store::accounts::security::Confirmed {
    store::accounts::security::confirm_password(db, user, password, None)
        .await
        .expect("the right password")
}

/// A new player with a unique name and the tests' password.
#[allow(dead_code)]
pub async fn player(db: &Database) -> store::accounts::User {
    store::accounts::sign_up(db, &unique_name("p"), "a good password")
        .await
        .unwrap()
}

/// The users seated in game `id`, in seat order.
#[allow(dead_code)]
pub async fn seated(db: &Database, id: &str) -> Vec<i64> {
    sqlx::query_scalar("SELECT user_id FROM game_seats WHERE game_id = $1 ORDER BY seat")
        .bind(id)
        .fetch_all(&db.pool)
        .await
        .unwrap()
}

/// Plays game `id` to its end with the Beginner bot's moves for both seats; returns the end.
#[allow(dead_code)]
pub async fn play_out(db: &Database, id: &str) -> rules::GameState {
    let lexicon = load::lexicon();
    let mut state = store::games::load(db, id, lexicon).await.unwrap();
    for turn in 0..400u64 {
        if *state.status() != rules::Status::Playing {
            break;
        }
        let view = state.view(state.to_move());
        let rules = view.rules();
        let action =
            engine::bot::Bot::new(engine::bot::Level::Beginner, load::trie(), &rules, turn)
                .decide(&view);
        state = store::games::commit(db, id, state.version(), &action, lexicon)
            .await
            .unwrap();
    }
    state
}
