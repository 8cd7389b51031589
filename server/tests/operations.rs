//! What an operator relies on, tried on the real binary: copied alone into an empty folder it
//! serves the site and plays; `/metrics` counts what happened and shows itself only to whom it
//! should; a backup taken under load restores whole; SIGTERM drains and exits within 10 s.

mod support;

use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{json, Value};
use server::client::ApiClient;

use support::load::{check_consistent, trie, Load};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Runs `alfakraft ARGS` on the SQLite database in `data_dir` to the end; success and output.
fn run_command(data_dir: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_alfakraft"))
        .args(["--log", "warn", "--data-dir"])
        .arg(data_dir)
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// Signs up a new player and plays one pass-and-play Classic move; the game's id.
async fn play_one_move(client: &mut ApiClient) -> String {
    let name = support::unique_name("ops");
    let (status, body) = client
        .form(
            "/api/account/sign-up",
            &[("name", &name), ("password", "a good password")],
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let new = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "PassAndPlay": { "players": 2 } } } });
    let (_, body) = client.json("/api/games/create", &new).await.unwrap();
    let id = serde_json::from_str::<Value>(&body).unwrap()["Ok"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a game: {body}"))
        .to_string();
    let (_, body) = client
        .json("/api/games/get", &json!({ "id": id }))
        .await
        .unwrap();
    let page: Value = serde_json::from_str(&body).unwrap();
    let view: rules::PlayerView = serde_json::from_value(page["Ok"]["view"].clone()).unwrap();
    let action =
        engine::bot::Bot::new(engine::bot::Level::Beginner, trie(), &view.rules(), 1).decide(&view);
    let args = json!({ "id": id, "expected_version": view.version, "action": action });
    let (status, body) = client.json("/api/games/act", &args).await.unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.starts_with("{\"Ok\""), "the move is played: {body}");
    id
}

#[test]
fn the_binary_alone_in_an_empty_folder_serves_the_site_and_plays() {
    let folder = tempfile::tempdir().unwrap();
    let binary = folder.path().join("alfakraft");
    std::fs::copy(env!("CARGO_BIN_EXE_alfakraft"), &binary).unwrap();
    // Nothing from this machine's settings either: as on a server it was copied to.
    let mut child = support::ServerProcess::from(
        Command::new(&binary)
            .args(["--addr", "127.0.0.1:0"])
            .current_dir(folder.path())
            .env_clear()
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let base = support::url_of(&mut child);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    runtime().block_on(async {
        let mut client = ApiClient::new(&base);
        let (status, page) = client.get("/").await.unwrap();
        assert_eq!(status, 200);
        // The start-up script and the stylesheet come inside the page, the module beside it.
        assert!(
            page.contains("/pkg/alfakraft_bg.wasm")
                && page.contains("<style")
                && !page.contains("/pkg/alfakraft.js"),
            "the page loads the bundle"
        );
        let (_, headers, _) = client
            .get_with("/", &[("accept-encoding", "gzip, br")])
            .await
            .unwrap();
        assert_eq!(
            headers["content-encoding"], "br",
            "pages are sent brotli too"
        );
        // The module's preload is in the headers too, so the browser asks for it before it has
        // parsed the page.
        assert_eq!(
            headers["link"],
            r#"</pkg/alfakraft_bg.wasm>; rel=preload; as=fetch; type="application/wasm"; crossorigin"#
        );
        // The first page set the cookie that says the browser has the stylesheet and the
        // script: since then pages link to them, which its cache answers. A cookie naming
        // another build gets them inline again.
        assert!(
            client.cookie().is_some_and(|c| c.contains("bundle=")),
            "{:?}",
            client.cookie()
        );
        let (_, linked) = client.get("/").await.unwrap();
        assert!(
            linked.contains(r#"href="/pkg/alfakraft.css""#)
                && linked.contains(r#"src="/pkg/boot.js""#)
                && !linked.contains("<style"),
            "{linked}"
        );
        let (_, _, inline) = client
            .get_with("/", &[("cookie", "bundle=0123456789abcdef")])
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&inline).contains("<style"));
        let (status, headers, _) = client
            .get_with("/pkg/boot.js", &[("accept-encoding", "gzip, br")])
            .await
            .unwrap();
        assert_eq!(status, 200);
        assert_eq!(headers["content-encoding"], "br");
        // The bundle, brotli-compressed as built, and as it is for a client without brotli.
        let wasm = "/pkg/alfakraft_bg.wasm";
        let built =
            |suffix: &str| std::fs::read(root.join(format!("target/site{wasm}{suffix}"))).unwrap();
        let (status, headers, body) = client
            .get_with(wasm, &[("accept-encoding", "gzip, br")])
            .await
            .unwrap();
        assert_eq!(status, 200);
        assert_eq!(headers["content-encoding"], "br");
        assert_eq!(headers["content-type"], "application/wasm");
        assert_eq!(body, built(".br"));
        let etag = headers["etag"].to_str().unwrap().to_string();
        let (status, _, _) = client
            .get_with(
                wasm,
                &[("accept-encoding", "gzip, br"), ("if-none-match", &etag)],
            )
            .await
            .unwrap();
        assert_eq!(status, 304, "an unchanged bundle is not sent again");
        let (_, headers, body) = client.get_with(wasm, &[]).await.unwrap();
        assert!(headers.get("content-encoding").is_none());
        assert_eq!(body, built(""));
        let (_, headers, _) = client
            .get_with("/pkg/alfakraft.css", &[("accept-encoding", "gzip")])
            .await
            .unwrap();
        assert_eq!(headers["content-encoding"], "gzip");
        // The dictionaries are inside too, under their hashed names.
        let catalog = dictionaries::catalog::Catalog::load(&root.join("dictionaries")).unwrap();
        for dictionary in &catalog.dictionaries {
            let (status, _, body) = client.get_with(&dictionary.url, &[]).await.unwrap();
            assert_eq!(status, 200, "{}", dictionary.url);
            assert_eq!(body.as_ref(), dictionary.lexicon.as_bytes());
        }
        // No file outside the site, and a made-up path is the app's 404 page.
        for path in [
            "/../Cargo.toml",
            "/pkg/../../alfakraft",
            "/data/alfakraft.db",
        ] {
            let (status, _) = client.get(path).await.unwrap();
            assert_eq!(status, 404, "{path}");
        }
        let (status, _) = client.get("/healthz").await.unwrap();
        assert_eq!(status, 200);
        play_one_move(&mut client).await;
    });
    assert!(
        folder.path().join("data/alfakraft.db").is_file(),
        "the database is made in ./data"
    );
    let size = std::fs::metadata(&binary).unwrap().len();
    eprintln!("the binary: {size} bytes");
}

/// The value of the sample `name` (with its labels, exactly as exported) in a scrape.
fn sample(scrape: &str, name: &str) -> Option<f64> {
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn metrics_count_moves_and_show_only_to_the_operator() {
    let dir = tempfile::tempdir().unwrap();
    let metrics_port = free_port();
    let metrics_addr = format!("127.0.0.1:{metrics_port}");
    let (_server, base) = support::spawn_server_with(
        dir.path(),
        None,
        &[
            ("ALFAKRAFT_METRICS_TOKEN", "s3cret-token"),
            ("ALFAKRAFT_METRICS_ADDR", &metrics_addr),
        ],
    );
    runtime().block_on(async {
        let mut client = ApiClient::new(&base);
        for _ in 0..3 {
            play_one_move(&mut client).await;
        }
        // A wrong password: one failure.
        let mut stranger = ApiClient::new(&base);
        stranger
            .form(
                "/api/account/sign-in",
                &[("name", "nobody-here"), ("password", "wrong")],
            )
            .await
            .unwrap();
        for auth in [None, Some("Bearer wrong"), Some("s3cret-token")] {
            let headers: Vec<(&str, &str)> =
                auth.map(|a| ("authorization", a)).into_iter().collect();
            let (status, _, _) = client.get_with("/metrics", &headers).await.unwrap();
            assert_eq!(status, 401, "{auth:?}");
        }
        let (status, headers, body) = client
            .get_with("/metrics", &[("authorization", "Bearer s3cret-token")])
            .await
            .unwrap();
        assert_eq!(status, 200);
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"));
        let scrape = String::from_utf8(body.to_vec()).unwrap();
        let at_least = |name: &str, least: f64| {
            let value = sample(&scrape, name).unwrap_or_else(|| panic!("{name} in\n{scrape}"));
            assert!(value >= least, "{name} = {value} < {least}");
        };
        at_least("alfakraft_commits_total{ruleset=\"Classic\"}", 3.0);
        at_least("alfakraft_commit_seconds_count", 3.0);
        at_least(
            "alfakraft_http_requests_total{route=\"/api/games/act\",status=\"200\"}",
            3.0,
        );
        at_least(
            "alfakraft_http_requests_total{route=\"/api/account/sign-up\",status=\"200\"}",
            3.0,
        );
        at_least("alfakraft_sign_in_failures_total", 1.0);
        at_least("alfakraft_games_in_progress", 3.0);
        at_least("alfakraft_db_connections", 1.0);
        assert!(scrape.contains("alfakraft_commit_seconds_bucket{le=\"0.005\"}"));
        // The separate address serves the same figures, to the token too.
        let mut metrics = ApiClient::new(&format!("http://{metrics_addr}"));
        let (status, _, _) = metrics.get_with("/metrics", &[]).await.unwrap();
        assert_eq!(status, 401);
        let (status, _, body) = metrics
            .get_with("/metrics", &[("authorization", "Bearer s3cret-token")])
            .await
            .unwrap();
        assert_eq!(status, 200);
        let scrape = String::from_utf8(body.to_vec()).unwrap();
        assert!(sample(&scrape, "alfakraft_commits_total{ruleset=\"Classic\"}").unwrap() >= 3.0);
    });
    // A server not told to export has no /metrics at all.
    let other = tempfile::tempdir().unwrap();
    let (_plain, base) = support::spawn_server(other.path(), None);
    runtime().block_on(async {
        let (status, _) = ApiClient::new(&base).get("/metrics").await.unwrap();
        assert_eq!(status, 404);
    });
}

#[test]
fn a_backup_taken_under_load_restores_and_every_game_in_it_replays() {
    let live = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let backup = elsewhere.path().join("backup.db");
    let (mut server, base) = support::spawn_server(live.path(), None);
    let runtime = runtime();
    let (acknowledged_before, ids, acknowledged) = runtime.block_on(async {
        let load = Load::start(&base, 6);
        load.until(100).await;
        let before = load.acknowledged();
        let path = backup.to_string_lossy().into_owned();
        let (ok, said) = tokio::task::spawn_blocking({
            let live = live.path().to_path_buf();
            move || run_command(&live, &["backup", &path])
        })
        .await
        .unwrap();
        assert!(ok, "{said}");
        // It holds password hashes and sessions: its owner's alone (regression: it was 0644).
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&backup).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the backup's mode is {mode:o}");
        let after = load.acknowledged();
        assert!(after > before, "the players went on committing meanwhile");
        // A second backup to the same file is refused, not overwritten.
        let (ok, said) = run_command(live.path(), &["backup", &backup.to_string_lossy()]);
        assert!(!ok && said.contains("exists"), "{said}");
        load.until(after + 50).await;
        let (ids, acknowledged) = load.stop().await;
        (before, ids, acknowledged)
    });
    // A restore under a running server is refused.
    let (ok, said) = run_command(live.path(), &["restore", &backup.to_string_lossy()]);
    assert!(!ok && said.contains("stop it first"), "{said}");
    server.kill().unwrap();
    server.wait().unwrap();
    drop(server);

    // Into an empty folder, and over the live database once its server has stopped.
    let fresh = tempfile::tempdir().unwrap();
    for target in [fresh.path(), live.path()] {
        let (ok, said) = run_command(target, &["restore", &backup.to_string_lossy()]);
        assert!(ok && said.contains("restored"), "{said}");
        let url = format!("sqlite://{}", target.join("alfakraft.db").display());
        runtime.block_on(async {
            let db = store::connect(&url).await.unwrap();
            let restored: Vec<String> = sqlx::query_scalar("SELECT id FROM games")
                .fetch_all(&db.pool)
                .await
                .unwrap();
            assert!(restored.iter().all(|id| ids.contains(id)));
            let actions = check_consistent(&db, &restored).await;
            eprintln!(
                "backup: {} games, {actions} actions; {acknowledged_before} acknowledged before it began, {} in all",
                restored.len(),
                acknowledged
            );
            assert!(actions as u64 >= acknowledged_before, "every move acknowledged before the backup is in it");
            assert!((actions as u64) < acknowledged, "the copy is of a moment, not the end");
            db.pool.close().await;
        });
    }
    let kept = std::fs::read_dir(live.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("alfakraft.db.before-restore-")
        });
    assert!(kept, "the replaced database is kept beside it");
    let (ok, said) = run_command(fresh.path(), &["restore", "/no/such/backup.db"]);
    assert!(!ok && said.contains("does not exist"), "{said}");
    let not_sqlite = elsewhere.path().join("notes.txt");
    std::fs::write(&not_sqlite, "not a database").unwrap();
    let (ok, said) = run_command(fresh.path(), &["restore", &not_sqlite.to_string_lossy()]);
    assert!(!ok && said.contains("not an Alfa Kraft backup"), "{said}");
}

/// Opens the live stream of `client`'s session on a raw connection; the connection, once the
/// stream's first bytes have come.
async fn open_stream(base: &str, cookie: &str) -> tokio::net::TcpStream {
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    let request = format!(
        "GET /api/live?lobby=true HTTP/1.1\r\nhost: {host}\r\ncookie: {cookie}\r\naccept: text/event-stream\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut first = [0; 512];
    let n = stream.read(&mut first).await.unwrap();
    assert!(
        String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"),
        "the stream opens"
    );
    stream
}

#[test]
fn sigterm_ends_streams_finishes_commits_and_exits_within_ten_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, base) = support::spawn_server(dir.path(), None);
    let runtime = runtime();
    runtime.block_on(async {
        let mut watcher = ApiClient::new(&base);
        watcher
            .form(
                "/api/account/sign-up",
                &[
                    ("name", &support::unique_name("watch")),
                    ("password", "a good password"),
                ],
            )
            .await
            .unwrap();
        let mut stream = open_stream(&base, watcher.cookie().unwrap()).await;
        let load = Load::start(&base, 6);
        load.until(60).await;
        let asked = Instant::now();
        let pid = server.id().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        // The stream ends (the browser reconnects, elsewhere if there is an elsewhere).
        let mut rest = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest))
            .await
            .expect("the live stream ends")
            .ok();
        let status = tokio::task::spawn_blocking(move || server.wait().unwrap())
            .await
            .unwrap();
        let took = asked.elapsed();
        eprintln!("SIGTERM to exit: {} ms", took.as_millis());
        assert!(took < Duration::from_secs(10), "exited in {took:?}");
        assert!(status.success(), "a clean exit: {status}");
        let (ids, acknowledged) = load.stop().await;
        let url = format!("sqlite://{}", dir.path().join("alfakraft.db").display());
        let db = store::connect(&url).await.unwrap();
        let actions = check_consistent(&db, &ids).await;
        eprintln!("{actions} actions stored, {acknowledged} acknowledged");
        assert!(
            actions as u64 >= acknowledged,
            "no acknowledged move is lost"
        );
        db.pool.close().await;
    });
}

#[test]
fn a_players_moves_on_a_quiet_game_are_committed_lock_free_on_each_database() {
    let mut databases = vec![None];
    match std::env::var("ALFAKRAFT_TEST_POSTGRES_URL") {
        Ok(url) => databases.push(Some(url)),
        Err(_) if std::env::var_os("CI").is_some() => panic!("CI must test Postgres"),
        Err(_) => {}
    }
    for url in databases {
        let dir = tempfile::tempdir().unwrap();
        let (_server, base) = support::spawn_server_with(
            dir.path(),
            url.as_deref(),
            &[("ALFAKRAFT_METRICS_TOKEN", "s3cret-token")],
        );
        runtime().block_on(async {
            let mut client = ApiClient::new(&base);
            // Each game is opened (its page keeps its state in memory), then moved in.
            for _ in 0..3 {
                play_one_move(&mut client).await;
            }
            let (_, _, body) = client
                .get_with("/metrics", &[("authorization", "Bearer s3cret-token")])
                .await
                .unwrap();
            let scrape = String::from_utf8(body.to_vec()).unwrap();
            assert_eq!(
                sample(&scrape, "alfakraft_commits_lock_free_total"),
                Some(3.0),
                "{url:?}: {scrape}"
            );
        });
    }
}
