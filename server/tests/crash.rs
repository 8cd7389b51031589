//! A server killed (SIGKILL) while players commit moves restarts with every game consistent: each
//! stored log replays, its sequence has no gap, and the game row agrees with the fold.

mod support;

use std::{
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use serde_json::{json, Value};
use server::client::ApiClient;
use store::games;
use support::load::{check_consistent, Load};

fn kill_mid_commit(database_url: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut child, base) = support::spawn_server(dir.path(), database_url);
    let (ids, acknowledged) = runtime.block_on(async {
        let load = Load::start(&base, 8);
        // Let commits flow, then kill the server without warning while they do.
        load.until(100).await;
        child.kill().unwrap();
        child.wait().unwrap();
        load.stop().await
    });
    assert!(!ids.is_empty());
    let (mut restarted, base) = support::spawn_server(dir.path(), database_url);
    let url = database_url
        .map(str::to_string)
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("alfakraft.db").display()));
    runtime.block_on(async {
        let mut client = ApiClient::new(&base);
        let (status, _) = client.get("/healthz").await.unwrap();
        assert_eq!(status, 200, "the restarted server is healthy");
        let db = store::connect(&url).await.unwrap();
        let actions = check_consistent(&db, &ids).await;
        let acknowledged = acknowledged as usize;
        eprintln!(
            "{} games, {actions} actions stored, {acknowledged} acknowledged before the kill",
            ids.len()
        );
        // Every acknowledged commit is stored; at most one in flight per player may have been
        // stored without its answer arriving.
        assert!(
            actions >= acknowledged,
            "{actions} stored < {acknowledged} acknowledged"
        );
        assert!(
            actions <= acknowledged + 8,
            "{actions} stored, {acknowledged} acknowledged"
        );
    });
    restarted.kill().unwrap();
    restarted.wait().unwrap();
}

#[test]
fn a_server_killed_mid_commit_on_sqlite_restarts_consistent() {
    kill_mid_commit(None);
}

#[test]
fn a_server_killed_mid_commit_on_postgres_restarts_consistent() {
    match std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        Ok(url) => kill_mid_commit(Some(&url)),
        Err(_) if std::env::var_os("CI").is_some() => panic!("CI must test Postgres"),
        Err(_) => eprintln!("ALFAKRAFT_TEST_POSTGRES_URL is not set: Postgres skipped"),
    }
}

/// A Postgres database of the test's own when CI has Postgres (a publish changes what every new
/// game there gets, and a rank recomputation reads every rated game), else `None` for SQLite.
fn own_database_urls() -> Vec<Option<String>> {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut urls = vec![None];
    if let Some(url) = runtime.block_on(support::own_postgres()) {
        urls.push(Some(url));
    }
    urls
}

/// Signs a new player up; the client keeps the session.
async fn signed_up(base: &str, prefix: &str) -> Option<(ApiClient, String)> {
    let mut client = ApiClient::new(base);
    let name = support::unique_name(prefix);
    let (200, _) = client
        .form(
            "/api/account/sign-up",
            &[("name", &name), ("password", "a good password")],
        )
        .await
        .ok()?
    else {
        return None;
    };
    Some((client, name))
}

/// Two friends play rated games that end at once by resignation, each end rating the game in the
/// transaction that records it, until the server goes away; the ids of the games begun, and of
/// those whose resignation was acknowledged.
async fn rated_pair(base: String, rated: Arc<AtomicU64>) -> (Vec<String>, Vec<String>) {
    let (mut begun, mut acknowledged) = (Vec::new(), Vec::new());
    let (Some((mut ann, _)), Some((mut bob, _))) =
        (signed_up(&base, "ann").await, signed_up(&base, "bob").await)
    else {
        return (begun, acknowledged);
    };
    loop {
        let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
            "opponent": "Invite" } });
        let Ok((200, body)) = ann.json("/api/games/create", &new).await else {
            break;
        };
        let created: Value = serde_json::from_str(&body).unwrap();
        let id = created["Ok"]["id"].as_str().unwrap().to_string();
        let token = created["Ok"]["invite_path"].as_str().unwrap()[8..].to_string();
        let answer = json!({ "token": token, "accept": true });
        let Ok((200, _)) = bob.json("/api/invites/answer", &answer).await else {
            break;
        };
        begun.push(id.clone());
        let (client, _) = if begun.len() % 2 == 0 {
            (&mut ann, 0)
        } else {
            (&mut bob, 1)
        };
        match client.json("/api/games/resign", &json!({ "id": id })).await {
            Ok((200, body)) if body.contains("\"Ok\"") => {
                acknowledged.push(id);
                rated.fetch_add(1, Ordering::Relaxed);
            }
            _ => break,
        }
    }
    (begun, acknowledged)
}

/// A server killed while games end and are rated restarts with every rating whole: each
/// finished game has both players' history rows, an unfinished one none, each stored rank is
/// its history's last, and `recompute-ranks` rebuilds exactly the stored ranks.
fn kill_mid_rating(database_url: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut child, base) = support::spawn_server(dir.path(), database_url);
    let rated = Arc::new(AtomicU64::new(0));
    let (begun, acknowledged): (Vec<String>, Vec<String>) = runtime.block_on(async {
        let pairs: Vec<_> = (0..6)
            .map(|_| tokio::spawn(rated_pair(base.clone(), rated.clone())))
            .collect();
        let started = std::time::Instant::now();
        while rated.load(Ordering::Relaxed) < 60 {
            // A pair that stopped before the kill stopped on an error: nothing more will come.
            assert!(
                pairs.iter().all(|pair| !pair.is_finished()),
                "a pair of players stopped before the kill, after {} rated games",
                rated.load(Ordering::Relaxed)
            );
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "stuck: {} games rated in 120 s",
                rated.load(Ordering::Relaxed)
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let (mut begun, mut acknowledged) = (Vec::new(), Vec::new());
        for pair in pairs {
            let (b, a) = pair.await.unwrap();
            begun.extend(b);
            acknowledged.extend(a);
        }
        (begun, acknowledged)
    });
    let (mut restarted, _) = support::spawn_server(dir.path(), database_url);
    let url = database_url
        .map(str::to_string)
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("alfakraft.db").display()));
    runtime.block_on(async {
        let db = store::connect(&url).await.unwrap();
        let mut finished = 0;
        for id in &begun {
            let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
                .bind(id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
            let rows: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM rank_history WHERE game_id = $1")
                    .bind(id)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap();
            let over = status == "over";
            assert_eq!(
                rows,
                if over { 2 } else { 0 },
                "{id} ({status}): rated whole or not at all"
            );
            finished += usize::from(over);
            if acknowledged.contains(id) {
                assert!(over, "{id}: an acknowledged resignation is kept");
            }
        }
        // Each stored rank is the last of its history, and counts its games.
        #[derive(sqlx::FromRow)]
        struct Stored {
            user_id: i64,
            rank: i64,
            games: i64,
        }
        let ranks: Vec<Stored> =
            sqlx::query_as("SELECT user_id, rank, games FROM ranks WHERE dictionary = 'en'")
                .fetch_all(&db.pool)
                .await
                .unwrap();
        for Stored {
            user_id: user,
            rank,
            games,
        } in &ranks
        {
            let history: Vec<i64> = sqlx::query_scalar(
                "SELECT rank_after FROM rank_history WHERE user_id = $1 AND dictionary = 'en'
                 ORDER BY games_before",
            )
            .bind(user)
            .fetch_all(&db.pool)
            .await
            .unwrap();
            assert_eq!(history.len() as i64, *games, "user {user}: games counted");
            assert_eq!(
                history.last().copied().unwrap_or(1200),
                *rank,
                "user {user}"
            );
        }
        eprintln!(
            "{} games begun, {finished} rated, {} acknowledged before the kill",
            begun.len(),
            acknowledged.len()
        );
    });
    restarted.kill().unwrap();
    restarted.wait().unwrap();
    // The rebuild from the games' logs finds every stored rank as it is.
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_alfakraft"))
        .args(["--log", "warn", "--data-dir"])
        .arg(dir.path())
        .arg("--dictionaries-dir")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dictionaries"))
        .envs(database_url.map(|url| ("DATABASE_URL", url)))
        .args(["recompute-ranks", "--check"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{said}");
    assert!(said.contains(", 0 differed"), "{said}");
}

#[test]
fn a_server_killed_while_games_are_rated_restarts_with_whole_ratings() {
    for url in own_database_urls() {
        kill_mid_rating(url.as_deref());
    }
}

/// Posts a form; once more on a new connection if the first failed (a keep-alive connection left
/// idle is closed by the server's head deadline), so only a server that is gone fails it.
async fn posted(
    client: &mut ApiClient,
    path: &str,
    fields: &[(&str, &str)],
) -> Result<(u16, String), server::client::ClientError> {
    match client.form(path, fields).await {
        Err(_) => client.form(path, fields).await,
        answer => answer,
    }
}

/// Makes `version` of English the active one; whether the server said so.
async fn activate(admin: &mut ApiClient, version: u64, reason: &str) -> Result<bool, ()> {
    let version = version.to_string();
    let fields = [
        ("dictionary", "en"),
        ("version", version.as_str()),
        ("reason", reason),
        ("confirm", "true"),
    ];
    match posted(admin, "/api/admin/activate", &fields).await {
        Ok((200, body)) => Ok(body.contains("\"Ok\"")),
        _ => Err(()),
    }
}

/// An admin adds a word to English and publishes the draft, over and over, until the server goes
/// away; the drafts whose making was acknowledged.
async fn publisher(
    mut admin: ApiClient,
    latest: Arc<AtomicU64>,
    activations: Arc<AtomicU64>,
) -> Vec<u64> {
    let mut drafts = Vec::new();
    for n in 0.. {
        let word = format!("zzcrash{}", "x".repeat(n % 8 + 1));
        let fields = [
            ("dictionary", "en"),
            ("add", word.as_str()),
            ("remove", ""),
            ("reason", "crash test"),
        ];
        let body = match posted(&mut admin, "/api/admin/edit", &fields).await {
            Ok((200, body)) => body,
            Ok((status, body)) => panic!("edit: {status} {body}"),
            Err(_) => break,
        };
        let answer: Value = serde_json::from_str(&body).unwrap();
        let version = answer["Ok"]["version"]
            .as_u64()
            .unwrap_or_else(|| panic!("a draft, not {body}"));
        drafts.push(version);
        match activate(&mut admin, version, "publish").await {
            Ok(true) => {
                activations.fetch_add(1, Ordering::Relaxed);
                latest.store(version, Ordering::Relaxed);
            }
            Ok(false) => {}
            Err(()) => break,
        }
    }
    drafts
}

/// Another admin flips English between version 1 and the latest published one.
async fn flipper(mut admin: ApiClient, latest: Arc<AtomicU64>, activations: Arc<AtomicU64>) {
    for n in 0u64.. {
        let version = if n % 2 == 0 {
            1
        } else {
            latest.load(Ordering::Relaxed)
        };
        match activate(&mut admin, version, "flip").await {
            Ok(true) => {
                activations.fetch_add(1, Ordering::Relaxed);
            }
            Ok(false) => {}
            Err(()) => break,
        }
    }
}

/// A server killed while admins make and publish dictionary versions restarts with every
/// version whole (its FST hashes to its stored hash), every acknowledged draft and activation
/// kept, the audit log's last activation naming the active version, and new games getting it.
fn kill_mid_publish(database_url: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut child, base) = support::spawn_server(dir.path(), database_url);
    let url = database_url
        .map(str::to_string)
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("alfakraft.db").display()));
    let latest = Arc::new(AtomicU64::new(1));
    let activations = Arc::new(AtomicU64::new(0));
    let drafts = runtime.block_on(async {
        let db = store::connect(&url).await.unwrap();
        let (publishing, name) = signed_up(&base, "admin").await.unwrap();
        assert!(store::accounts::make_admin(&db, &name).await.unwrap());
        let (flipping, name) = signed_up(&base, "admin").await.unwrap();
        assert!(store::accounts::make_admin(&db, &name).await.unwrap());
        let publishing = tokio::spawn(publisher(publishing, latest.clone(), activations.clone()));
        let flipping = tokio::spawn(flipper(flipping, latest.clone(), activations.clone()));
        let started = std::time::Instant::now();
        while latest.load(Ordering::Relaxed) < 4 || activations.load(Ordering::Relaxed) < 60 {
            // A client that stopped before the kill says why.
            if publishing.is_finished() || flipping.is_finished() {
                flipping.abort();
                panic!("a client stopped before the kill: {:?}", publishing.await);
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "stuck: en@{} published, {} activations",
                latest.load(Ordering::Relaxed),
                activations.load(Ordering::Relaxed)
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        child.kill().unwrap();
        child.wait().unwrap();
        flipping.await.unwrap();
        publishing.await.unwrap()
    });
    let (mut restarted, base) = support::spawn_server(dir.path(), database_url);
    runtime.block_on(async {
        let db = store::connect(&url).await.unwrap();
        #[derive(sqlx::FromRow)]
        struct Version {
            version: i64,
            fst: Vec<u8>,
            sha256: String,
            published_at: Option<i64>,
        }
        let versions: Vec<Version> = sqlx::query_as(
            "SELECT version, fst, sha256, published_at FROM dictionary_versions
             WHERE dictionary = 'en' ORDER BY version",
        )
        .fetch_all(&db.pool)
        .await
        .unwrap();
        for Version {
            version,
            fst,
            sha256,
            ..
        } in &versions
        {
            assert_eq!(
                &dictionaries::wordlist::sha256(fst),
                sha256,
                "en@{version} is whole"
            );
        }
        for draft in &drafts {
            assert!(
                versions.iter().any(|v| v.version as u64 == *draft),
                "the acknowledged draft en@{draft} is kept"
            );
        }
        let active: i64 =
            sqlx::query_scalar("SELECT version FROM dictionary_active WHERE dictionary = 'en'")
                .fetch_one(&db.pool)
                .await
                .unwrap();
        let published = versions
            .iter()
            .find(|v| v.version == active)
            .map(|v| v.published_at);
        assert!(
            matches!(published, Some(Some(_))),
            "en@{active} is a published version"
        );
        let audited: Vec<i64> = sqlx::query_scalar(
            "SELECT version FROM dictionary_audit
             WHERE dictionary = 'en' AND action IN ('publish', 'rollback') ORDER BY id",
        )
        .fetch_all(&db.pool)
        .await
        .unwrap();
        assert_eq!(
            audited.last(),
            Some(&active),
            "the last activation is the active version"
        );
        let acknowledged = activations.load(Ordering::Relaxed) as usize;
        assert!(
            (acknowledged..=acknowledged + 2).contains(&audited.len()),
            "{} activations logged, {acknowledged} acknowledged",
            audited.len()
        );
        // The restarted server gives a new game the active version.
        let (mut player, _) = signed_up(&base, "eve").await.unwrap();
        let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
            "opponent": { "PassAndPlay": { "players": 2 } } } });
        let (_, body) = player.json("/api/games/create", &new).await.unwrap();
        let created: Value = serde_json::from_str(&body).unwrap();
        let id = created["Ok"]["id"].as_str().expect("a game");
        let state = games::load(&db, id, &rules::lexicon::AcceptAll)
            .await
            .unwrap();
        assert_eq!(state.config().dictionary, format!("en@{active}"));
        eprintln!(
            "{} versions, {} drafts acknowledged, {} activations logged ({acknowledged} \
             acknowledged), en@{active} active after the restart",
            versions.len(),
            drafts.len(),
            audited.len()
        );
    });
    restarted.kill().unwrap();
    restarted.wait().unwrap();
}

#[test]
fn a_server_killed_while_dictionaries_are_published_restarts_with_whole_versions() {
    for url in own_database_urls() {
        kill_mid_publish(url.as_deref());
    }
}
