//! What a stranger must not be able to do to the server: make accounts without end from one
//! address. Against the real binary, so requests carry their client address.

use serde_json::{json, Value};
use server::client::ApiClient;

mod support;

fn answer(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_accounts_from_one_address_are_limited() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, base) =
        support::spawn_server_with(dir.path(), None, &[("ALFAKRAFT_ACCOUNTS_PER_HOUR", "3")]);
    // Two sign-ups and a guest (a visitor starting a game) use up the address's three.
    for name in ["ann_limit", "bob_limit"] {
        let (status, body) = ApiClient::new(&base)
            .form(
                "/api/account/sign-up",
                &[("name", name), ("password", "a good password")],
            )
            .await
            .unwrap();
        assert_eq!(status, 200, "{body}");
        assert!(answer(&body).get("Ok").is_some(), "{body}");
    }
    let new_game = json!({ "new": { "variant": "Classic", "dictionary": "en", "format": "Casual",
        "opponent": { "Bot": { "level": "beginner" } } } });
    let mut visitor = ApiClient::new(&base);
    let (_, body) = visitor.json("/api/games/create", &new_game).await.unwrap();
    assert!(answer(&body).get("Ok").is_some(), "{body}");
    // The same visitor, now a guest, makes no new account with a second game.
    let (_, body) = visitor.json("/api/games/create", &new_game).await.unwrap();
    assert!(answer(&body).get("Ok").is_some(), "{body}");
    // A fourth account, of either kind, is refused with the wait.
    let (_, body) = ApiClient::new(&base)
        .form(
            "/api/account/sign-up",
            &[("name", "cid_limit"), ("password", "a good password")],
        )
        .await
        .unwrap();
    assert!(
        answer(&body)["Err"]["TooManyAccounts"]["minutes"]
            .as_u64()
            .is_some(),
        "{body}"
    );
    let (_, body) = ApiClient::new(&base)
        .json("/api/games/create", &new_game)
        .await
        .unwrap();
    assert!(
        answer(&body)["Err"]["TooManyAccounts"].is_object(),
        "{body}"
    );
    // Signing in to an existing account is not a new one.
    let (_, body) = ApiClient::new(&base)
        .form(
            "/api/account/sign-in",
            &[("name", "ann_limit"), ("password", "a good password")],
        )
        .await
        .unwrap();
    assert!(answer(&body).get("Ok").is_some(), "{body}");
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Every server function, found in the registry (a new one is covered without a word here),
/// gets each kind of malformed request: none is answered with a 500 or the decoder's internals,
/// each is refused with 400 (413 for a body over the limit), and nothing is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_to_every_server_function_are_400_not_500() {
    for (name, db, _dir) in support::databases().await {
        malformed_requests_on(name, &db).await;
    }
}

/// Every server function the registry lists, with every bad shape of body, on `db`.
async fn malformed_requests_on(db_name: &str, db: &store::db::Database) {
    use support::browser::{server, Browser};
    let app = server(db).await;
    let mut player = Browser::new(&app);
    player.sign_up(&support::unique_name("mallory")).await;
    let endpoints: Vec<(&str, String)> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, method)| (path, method.to_string()))
        .collect();
    assert!(
        endpoints.len() >= 20,
        "the registry lists the server functions: {endpoints:?}"
    );
    let json = ("content-type", "application/json");
    let form = ("content-type", "application/x-www-form-urlencoded");
    let shapes: Vec<(&str, Vec<u8>, (&str, &str))> = vec![
        ("truncated JSON", b"{\"id\": \"ab".to_vec(), json),
        ("null", b"null".to_vec(), json),
        ("wrong types", br#"{"id": 5, "expected_version": "x", "new": 7, "name": [], "password": {}}"#.to_vec(), json),
        ("out of range", br#"{"id": "x", "expected_version": -1, "action": {"Pass": {"seat": 256}}}"#.to_vec(), json),
        ("out of range, high", br#"{"id": "x", "expected_version": 4294967296}"#.to_vec(), json),
        ("unknown variant", br#"{"id": "x", "expected_version": 0, "action": {"Fly": {}}, "new": {"variant": "Chess"}}"#.to_vec(), json),
        ("invalid UTF-8", vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}'], json),
        ("invalid UTF-8 in a form", b"name=%ff%fe&password=%c3".to_vec(), form),
        ("a form of the wrong shape", b"expected_version=many&&=".to_vec(), form),
        // Regression: the decoder quotes an unknown variant whole, and an answer over 64 KB
        // was taken for a server failure (500).
        ("values 66,000 characters long", long_values(), json),
        ("a form of values 60,000 characters long", long_form(60_000), form),
        ("a form of values of a megabyte", long_form(1 << 20), form),
        ("values of a megabyte", every_field(&json!("y".repeat(1 << 20))), json),
        ("NUL characters", every_field(&json!("a\u{0}b\u{0}")), json),
        ("NUL bytes in a form", b"name=a%00b&password=%00&text=%00&id=%00".to_vec(), form),
        ("nested 100,000 deep", every_field(&json!("x")).iter().copied().chain(nested(100_000)).collect(), json),
        ("fields nested 100,000 deep", nested_field(100_000), json),
    ];
    for (path, method) in &endpoints {
        if method != "POST" {
            continue;
        }
        let mut refused = 0;
        for (what, body, content_type) in &shapes {
            let (status, answer) = player.raw(path, body.clone(), &[*content_type]).await;
            assert!(status < 500, "{db_name}: {path}, {what}: {status} {answer}");
            for internal in [
                "Deserialization|",
                "Args|",
                "expected struct",
                "ServerError|",
            ] {
                assert!(!answer.contains(internal), "{path}, {what}: {answer}");
            }
            if status == 400 {
                assert!(
                    answer.starts_with("bad request: "),
                    "{path}, {what}: {answer}"
                );
                refused += 1;
            }
        }
        assert!(
            refused > 0,
            "{path}: some malformed request is refused with 400"
        );
        let huge = vec![b' '; 20 * 1024 * 1024];
        let (status, _) = player.raw(path, huge, &[json]).await;
        assert_eq!(status, 413, "{path}: a 20 MB body");
    }
    // The value the function cannot read is named, however long it is.
    for path in [
        "/api/account/language",
        "/api/reports/file",
        "/api/daily/start",
    ] {
        let (status, answer) = player.raw(path, long_values(), &[json]).await;
        assert_eq!(status, 400, "{path}: {answer}");
        assert!(
            answer.starts_with("bad request: unknown variant") && answer.len() < 400,
            "{path}: {answer}"
        );
    }
}

/// The fields the server functions take, by name.
const FIELDS: &[&str] = &[
    "id",
    "game",
    "name",
    "password",
    "current",
    "new",
    "code",
    "text",
    "reason",
    "address",
    "who",
    "token",
    "endpoint",
    "p256dh",
    "auth",
    "handle",
    "word",
    "dictionary",
    "language",
    "message",
    "version",
    "expected_version",
    "action",
    "opponent",
    "accept",
    "off",
];

/// A JSON object with `value` in every field a server function takes.
fn every_field(value: &Value) -> Vec<u8> {
    let fields: serde_json::Map<String, Value> = FIELDS
        .iter()
        .map(|field| (field.to_string(), value.clone()))
        .collect();
    Value::Object(fields).to_string().into_bytes()
}

/// A form whose text fields (a name, a password, a message, a reason) are each `length`
/// characters long.
fn long_form(length: usize) -> Vec<u8> {
    let value = "z".repeat(length);
    let pairs: Vec<(&str, &str)> = ["name", "password", "text", "reason"]
        .iter()
        .map(|f| (*f, value.as_str()))
        .collect();
    serde_urlencoded::to_string(pairs).unwrap().into_bytes()
}

/// `depth` arrays, one inside the next: trailing garbage after an object, or a body whole.
fn nested(depth: usize) -> Vec<u8> {
    let mut body = "[".repeat(depth);
    body.push_str(&"]".repeat(depth));
    body.into_bytes()
}

/// Every field a server function takes holding `depth` nested arrays.
fn nested_field(depth: usize) -> Vec<u8> {
    let deep = String::from_utf8(nested(depth)).unwrap();
    let fields: Vec<String> = FIELDS.iter().map(|f| format!("\"{f}\":{deep}")).collect();
    format!("{{{}}}", fields.join(",")).into_bytes()
}

/// A JSON body whose text fields (a language, a report's kind, a dictionary) are each 66,000
/// characters long: 198 KB, under the body limit.
fn long_values() -> Vec<u8> {
    let long = "x".repeat(66_000);
    json!({ "language": long, "kind": long, "dictionary": long, "game": "g", "word": "ab" })
        .to_string()
        .into_bytes()
}

/// Every field of a new game is checked: nonsense is refused with its reason, never created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_with_nonsense_in_it_is_refused() {
    use support::browser::{server, Browser};
    for (name, db, _dir) in support::databases().await {
        let app = server(&db).await;
        let mut ann = Browser::new(&app);
        ann.sign_up(&support::unique_name("ann")).await;
        let create = |variant: Value, dictionary: &str, opponent: Value| json!({ "new": { "variant": variant, "dictionary": dictionary, "format": "Casual", "opponent": opponent } });
        let local = |players: u8| json!({ "PassAndPlay": { "players": players } });
        for (what, args) in [
            (
                "a hand of 0",
                create(
                    json!({ "Alfapet": { "hand_size": 0, "special_tiles": false } }),
                    "sv",
                    local(2),
                ),
            ),
            (
                "a hand of 255",
                create(
                    json!({ "Alfapet": { "hand_size": 255, "special_tiles": true } }),
                    "sv",
                    local(2),
                ),
            ),
            ("one seat", create(json!("Classic"), "en", local(1))),
            ("five seats", create(json!("Classic"), "en", local(5))),
            (
                "Feud for two only",
                create(
                    json!({ "Feud": { "language": "English", "random_board": false } }),
                    "en",
                    local(3),
                ),
            ),
            (
                "Swedish tiles, English words",
                create(
                    json!({ "AlfaKraft": { "language": "Swedish" } }),
                    "en",
                    local(2),
                ),
            ),
            (
                "Classic in Danish",
                create(json!("Classic"), "da", local(2)),
            ),
            (
                "a bot that does not exist",
                create(
                    json!("Classic"),
                    "en",
                    json!({ "Bot": { "level": "grandmaster" } }),
                ),
            ),
            (
                "the Daily Challenge",
                create(
                    json!({ "Daily": { "language": "English" } }),
                    "en",
                    local(2),
                ),
            ),
        ] {
            let answer = ann.call("/api/games/create", args).await;
            assert!(
                answer["Err"]["Invalid"].is_string(),
                "{name}, {what}: {answer}"
            );
        }
        for (what, args) in [
            (
                "an unknown dictionary",
                create(json!("Classic"), "xx", local(2)),
            ),
            ("an unknown ruleset", create(json!("Chess"), "en", local(2))),
        ] {
            let (status, answer) = ann.raw("/api/games/create", args.to_string(), &[]).await;
            assert_eq!(status, 400, "{name}, {what}: {answer}");
        }
        assert_eq!(
            ann.call("/api/games/mine", json!({})).await,
            json!([]),
            "{name}: nothing made"
        );
    }
}

/// Reads from `stream` until the server closes it, for at most `within`; whether it closed.
async fn closed_within(stream: &mut tokio::net::TcpStream, within: std::time::Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buffer = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

/// The server's `host:port` in `base`.
fn address_of(base: &str) -> String {
    base.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_that_never_ends_is_cut_off_after_the_head_timeout() {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let (mut child, base) =
        support::spawn_server_with(dir.path(), None, &[("ALFAKRAFT_HEAD_TIMEOUT_SECS", "1")]);
    // A head that never ends (slowloris) is cut off after its second.
    let mut slow = tokio::net::TcpStream::connect(address_of(&base))
        .await
        .unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    assert!(closed_within(&mut slow, std::time::Duration::from_secs(5)).await);
    assert!(started.elapsed() >= std::time::Duration::from_millis(900));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_piled_up_from_one_address_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    // The head timeout is far longer than the test, so no idle connection is closed for being
    // idle: what closes the fifth can only be the cap (a loaded machine once stalled a 1 s
    // timeout's worth and let the idle ones expire first).
    let (mut child, base) = support::spawn_server_with(
        dir.path(),
        None,
        &[
            ("ALFAKRAFT_HEAD_TIMEOUT_SECS", "60"),
            ("ALFAKRAFT_CONNECTIONS_PER_ADDRESS", "4"),
        ],
    );
    let address = address_of(&base);
    let connect = || tokio::net::TcpStream::connect(address.clone());
    // Four idle connections from one address are all it may hold: a fifth is closed at once.
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(connect().await.unwrap());
    }
    let mut fifth = connect().await.unwrap();
    assert!(closed_within(&mut fifth, std::time::Duration::from_secs(10)).await);
    // The four are still open.
    for stream in &mut idle {
        assert!(!closed_within(stream, std::time::Duration::from_millis(50)).await);
    }
    // Once they are gone, the address is served again (as soon as the server has seen them go).
    drop(idle);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match ApiClient::new(&base).get("/healthz").await {
            Ok((200, _)) => break,
            answer if std::time::Instant::now() > deadline => {
                panic!("not served again after the idle connections closed: {answer:?}")
            }
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
}
