//! Web Push through the real binary to a push service on loopback (`support/push_service.py`,
//! Python's `cryptography`, written apart from the server's crates), on SQLite and Postgres. The
//! service holds the subscription's private key: it checks each push's VAPID signature against
//! the server's public key and decrypts the payload (RFC 8291). A "your turn" notice carries the
//! opponent's play and score and opens the game; quiet hours hold a notice; a 410 removes the
//! subscription; an endpoint that is not a push service's is refused.

mod support;

use std::time::Duration;

use serde_json::{json, Value};
use server::client::ApiClient;
use support::loopback::{self, each_database_url as each_database, signed_up, Loopback};

/// The push service and the subscription it made (a browser's keys).
struct PushService {
    service: Loopback,
    port: u16,
    p256dh: String,
    auth: String,
}

fn start_push_service() -> PushService {
    let service = loopback::start("push_service.py", "cryptography", "json");
    let made: Value = serde_json::from_str(&service.first_line).expect("the subscription");
    PushService {
        port: made["port"].as_u64().unwrap() as u16,
        p256dh: made["p256dh"].as_str().unwrap().to_string(),
        auth: made["auth"].as_str().unwrap().to_string(),
        service,
    }
}

impl PushService {
    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The pushes received so far, in order.
    fn received(&self) -> Vec<Value> {
        let read = self.service.received();
        read.iter()
            .map(|text| serde_json::from_str(text).unwrap())
            .collect()
    }

    async fn wait_for(&self, count: usize) -> Vec<Value> {
        let read = self.service.wait_for(count).await;
        read.iter()
            .map(|text| serde_json::from_str(text).unwrap())
            .collect()
    }
}

async fn call(client: &mut ApiClient, path: &str, args: Value) -> Value {
    let (status, body) = client.json(path, &args).await.unwrap();
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// `client`'s move in `game`: a real play from the engine when `play`, else a pass.
async fn moves(client: &mut ApiClient, game: &str, play: bool) {
    let page = call(client, "/api/games/get", json!({ "id": game })).await;
    let page = &page["Ok"];
    let view: rules::PlayerView = serde_json::from_value(page["view"].clone()).unwrap();
    let action = match play {
        true => support::a_play(&view),
        false => rules::Action::Pass { seat: view.seat },
    };
    let args = json!({ "id": game, "expected_version": view.version, "action": action });
    let answer = call(client, "/api/games/act", args).await;
    assert!(answer.get("Ok").is_some(), "{answer}");
}

async fn count(db: &store::db::Database, sql: &str, user: &str) -> i64 {
    sqlx::query_scalar(sql)
        .bind(user)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

#[test]
fn a_turn_is_pushed_encrypted_and_signed_held_in_quiet_hours_and_a_410_ends_it() {
    each_database(|database_url| {
        let service = start_push_service();
        let dir = tempfile::tempdir().unwrap();
        let origin = service.origin();
        let env = [("ALFAKRAFT_TEST_PUSH_ORIGIN", origin.as_str())];
        let (_server, base) = support::spawn_server_with(dir.path(), database_url, &env);
        let url = database_url.map_or_else(
            || format!("sqlite://{}", dir.path().join("alfakraft.db").display()),
            str::to_string,
        );
        tokio::runtime::Runtime::new().unwrap().block_on(async {
            let db = store::connect(&url).await.unwrap();
            let (ann_name, bob_name) = (support::unique_name("pua"), support::unique_name("pub"));
            let mut ann = signed_up(&base, &ann_name).await;
            let mut bob = signed_up(&base, &bob_name).await;
            let key = call(&mut ann, "/api/push/key", json!({})).await;
            let key = key["Ok"].as_str().unwrap().to_string();
            assert_eq!(key.len(), 87, "a P-256 point, base64url");

            // Only a push service's address is taken.
            for endpoint in [
                "https://example.org/push".to_string(),
                format!("http://127.0.0.1:{}/push", service.port + 1),
                "http://169.254.169.254/latest".to_string(),
            ] {
                let refused = call(
                    &mut ann,
                    "/api/push/subscribe",
                    json!({
                    "endpoint": endpoint, "p256dh": service.p256dh, "auth": service.auth }),
                )
                .await;
                assert!(
                    refused["Err"]["Invalid"].is_string(),
                    "{endpoint}: {refused}"
                );
            }
            let endpoint = format!("{origin}/push/{ann_name}");
            let subscription = json!({
                "endpoint": endpoint, "p256dh": service.p256dh, "auth": service.auth });
            let kept = call(&mut ann, "/api/push/subscribe", subscription).await;
            assert!(kept.get("Ok").is_some(), "{kept}");

            // Bob's invite, which Ann accepts and opens; then Bob plays a word.
            let created = call(
                &mut bob,
                "/api/games/create",
                json!({ "new": {
                "variant": "Classic", "dictionary": "en", "format": "Casual",
                "opponent": "Invite" } }),
            )
            .await;
            let game = created["Ok"]["id"].as_str().unwrap().to_string();
            let invite = created["Ok"]["invite_path"].as_str().unwrap();
            let token = invite.strip_prefix("/invite/").unwrap();
            let answered = call(
                &mut ann,
                "/api/invites/answer",
                json!({ "token": token, "accept": true }),
            )
            .await;
            assert!(answered.get("Ok").is_some(), "{answered}");
            // Whoever moves first, Bob's play then makes it Ann's turn.
            let page = call(&mut ann, "/api/games/get", json!({ "id": game })).await;
            if page["Ok"]["view"]["to_move"] == page["Ok"]["view"]["seat"] {
                moves(&mut ann, &game, false).await;
            }
            let moved = std::time::Instant::now();
            moves(&mut bob, &game, true).await;

            let pushed = service.wait_for(1).await;
            eprintln!(
                "push: a turn reached the push service {} ms after the move",
                moved.elapsed().as_millis()
            );
            let push = &pushed[0];
            assert!(push.get("error").is_none(), "{push}");
            assert_eq!(
                push["vapid_key"],
                key.as_str(),
                "signed with the server's key"
            );
            assert_eq!(push["claims"]["aud"], origin.as_str());
            assert_eq!(push["path"], format!("/push/{ann_name}").as_str());
            let payload = &push["payload"];
            assert_eq!(payload["title"], "Your turn");
            assert_eq!(payload["url"], format!("/game/{game}").as_str());
            let body = payload["body"].as_str().unwrap();
            let played = says_played(body, &bob_name);
            assert!(played, "{body}");

            // Quiet hours from this hour for two: the next notice waits for their end.
            let hour = (store::db::now_ms() / 3_600_000) % 24;
            let quiet = [
                ("turn", "on"),
                ("quiet_from", &hour.to_string()),
                ("quiet_to", &((hour + 2) % 24).to_string()),
                ("offset", "0"),
            ];
            let (status, chose) = ann.form("/api/push/choose", &quiet).await.unwrap();
            assert!(status == 200 && chose.contains("Ok"), "{chose}");
            moves(&mut ann, &game, false).await;
            moves(&mut bob, &game, false).await;
            tokio::time::sleep(Duration::from_secs(3)).await;
            assert_eq!(service.received().len(), 1, "held in quiet hours");
            let held = count(
                &db,
                "SELECT COUNT(*) FROM push_outbox o JOIN push_subscriptions s
                ON s.id = o.subscription_id WHERE s.endpoint LIKE '%' || $1",
                &ann_name,
            )
            .await;
            assert_eq!(held, 1);

            // The device is gone: the push service answers 410, and the subscription goes.
            std::fs::write(service.service.folder.path().join("answer"), "410").unwrap();
            sqlx::query("UPDATE push_outbox SET next_at = 0")
                .execute(&db.pool)
                .await
                .unwrap();
            let subscribed =
                "SELECT COUNT(*) FROM push_subscriptions WHERE endpoint LIKE '%' || $1";
            for _ in 0..100 {
                if count(&db, subscribed, &ann_name).await == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            assert_eq!(count(&db, subscribed, &ann_name).await, 0, "removed on 410");
            let queued = "SELECT COUNT(*) FROM push_outbox WHERE notice LIKE '%' || $1 || '%'";
            assert_eq!(count(&db, queued, &game).await, 0);
        });
    });
}

/// Whether `body` says `name` played a word for some points: "NAME played WORD for N."
fn says_played(body: &str, name: &str) -> bool {
    let Some(rest) = body.strip_prefix(&format!("{name} played ")) else {
        return false;
    };
    let Some((word, points)) = rest.split_once(" for ") else {
        return false;
    };
    !word.is_empty()
        && word.chars().all(|c| c.is_uppercase())
        && points
            .trim_end_matches('.')
            .parse::<i32>()
            .is_ok_and(|p| p > 0)
}
