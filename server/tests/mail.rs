//! E-mail through the real binary to a real SMTP server on loopback (Python's aiosmtpd, which
//! the test setup installs), on SQLite and on Postgres: an address verified by its link; a reset
//! link that works once, and not once expired; the same answer whether or not an account exists;
//! the cap on links per hour; the deadline warning and the daily digest; and no e-mail feature
//! at all when no SMTP server is configured.

mod support;

use std::{path::Path, time::Duration};

use serde_json::{json, Value};
use server::client::ApiClient;
use support::loopback::{self, each_database_url as each_database, signed_up, Loopback};

/// The SMTP server: a message per file (envelope, From, Subject, the body decoded).
fn start_sink() -> Loopback {
    loopback::start("smtp_sink.py", "aiosmtpd", "eml")
}

/// The real binary on `dir` (or `database_url`), mailing through `sink`: the process and its
/// base URL.
fn mailing_server(
    sink: &Loopback,
    dir: &Path,
    database_url: Option<&str>,
) -> (support::ServerProcess, String) {
    let smtp = format!("smtp://127.0.0.1:{}", port(sink));
    support::spawn_server_with(dir, database_url, &[("ALFAKRAFT_SMTP_URL", smtp.as_str())])
}

/// Its port.
fn port(sink: &Loopback) -> u16 {
    sink.first_line
        .trim()
        .parse()
        .expect("the SMTP server's port")
}

/// The first link to this site in `message`, as a path.
fn link_in(message: &str, base: &str) -> String {
    let start = message.find(base).expect("a link to the site") + base.len();
    message[start..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

async fn form(client: &mut ApiClient, path: &str, fields: &[(&str, &str)]) -> Value {
    let (status, body) = client.form(path, fields).await.unwrap();
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// The database the server at `dir` (or `database_url`) uses, for what a test must arrange
/// behind its back (a link's expiry, a deadline near).
async fn database(dir: &Path, database_url: Option<&str>) -> store::db::Database {
    let url = database_url.map_or_else(
        || format!("sqlite://{}", dir.join("alfakraft.db").display()),
        str::to_string,
    );
    store::connect(&url).await.unwrap()
}

#[test]
fn an_address_is_verified_by_its_link_and_a_reset_link_works_once() {
    each_database(|database_url| {
        let (sink, dir) = (start_sink(), tempfile::tempdir().unwrap());
        let (_server, base) = mailing_server(&sink, dir.path(), database_url);
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let name = support::unique_name("mel");
            let address = format!("{name}@example.org");
            let mut ann = signed_up(&base, &name).await;
            let (_, settings) = ann.get("/settings").await.unwrap();
            assert!(
                settings.contains("data-testid=\"mail\""),
                "settings offer e-mail"
            );
            for bad in [
                "not an address",
                "a@b",
                "a..b@example.org",
                "a@-x.org",
                "a\"b@x.org",
            ] {
                let fields = [("address", bad), ("password", "a good password")];
                let refused = form(&mut ann, "/api/mail/address", &fields).await;
                assert!(refused["Err"]["Invalid"].is_string(), "{bad}: {refused}");
            }
            // A session alone adds no address: it could reset the password through it.
            let fields = [
                ("address", address.as_str()),
                ("password", "not my password"),
            ];
            let refused = form(&mut ann, "/api/mail/address", &fields).await;
            assert_eq!(refused["Err"]["Account"], "WrongPassword", "{refused}");
            let fields = [
                ("address", address.as_str()),
                ("password", "a good password"),
            ];
            form(&mut ann, "/api/mail/address", &fields).await;
            let mail = sink.wait_for(1).await;
            assert!(
                mail[0].starts_with(&format!("To: {address}\n")),
                "{}",
                mail[0]
            );
            assert!(mail[0].contains("Subject: Confirm your e-mail address"));
            let verify = link_in(&mail[0], &base);
            assert!(verify.starts_with("/email/verify?token="), "{verify}");
            let (status, _) = ann.get(&verify).await.unwrap();
            assert_eq!(status, 303);
            let (_, settings) = ann.get("/settings").await.unwrap();
            assert!(
                settings.contains(&format!("{address} (confirmed)")),
                "{settings}"
            );
            // A link works once.
            let (_, _) = ann.get(&verify).await.unwrap();
            let db = database(dir.path(), database_url).await;
            let kept: Option<String> =
                sqlx::query_scalar("SELECT email FROM users WHERE name = $1")
                    .bind(&name)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap();
            assert_eq!(kept.as_deref(), Some(address.as_str()));

            // A reset link: asked for by name, and for a name that does not exist, the same
            // answer; only the real account gets mail.
            let mut stranger = ApiClient::new(&base);
            let asked = form(&mut stranger, "/api/mail/forgot", &[("who", &name)]).await;
            let nobody = form(
                &mut stranger,
                "/api/mail/forgot",
                &[("who", "nobody_at_all")],
            )
            .await;
            assert_eq!(asked, nobody);
            let mail = sink.wait_for(2).await;
            assert!(
                mail[1].contains("Subject: A new password for Alfa Kraft"),
                "{}",
                mail[1]
            );
            let reset = link_in(&mail[1], &base);
            let token = reset.strip_prefix("/reset?token=").expect("a reset link");
            let (status, page) = stranger.get(&reset).await.unwrap();
            assert_eq!(status, 200);
            assert!(
                page.contains("reset-by-link"),
                "the link asks for a new password"
            );
            let fields = [("token", token), ("password", "a brand new password")];
            let answer = form(&mut stranger, "/api/mail/reset", &fields).await;
            assert_eq!(answer["Ok"]["name"], name.as_str(), "{answer}");
            // Signed in here, signed out elsewhere, and the new password works.
            let (_, me) = stranger.json("/api/account/me", &json!({})).await.unwrap();
            assert!(me.contains(&name));
            let (_, me) = ann.json("/api/account/me", &json!({})).await.unwrap();
            assert_eq!(me, "null", "every other session signed out");
            let again = form(&mut stranger, "/api/mail/reset", &fields).await;
            assert_eq!(again["Err"]["Account"], "LinkExpired", "once only: {again}");
            let (_, page) = stranger.get(&reset).await.unwrap();
            assert!(!page.contains("reset-by-link") && page.contains("expired"));
            let mut fresh = ApiClient::new(&base);
            let signed_in = form(
                &mut fresh,
                "/api/account/sign-in",
                &[("name", &name), ("password", "a brand new password")],
            )
            .await;
            assert!(signed_in.get("Ok").is_some(), "{signed_in}");

            // An expired link is refused; and three links an hour at most.
            form(&mut stranger, "/api/mail/forgot", &[("who", &address)]).await;
            let mail = sink.wait_for(3).await;
            let late = link_in(&mail[2], &base);
            sqlx::query(
                "UPDATE mail_tokens SET expires_at = 0 WHERE purpose = 'reset' AND used_at IS NULL",
            )
            .execute(&db.pool)
            .await
            .unwrap();
            let late_token = late.strip_prefix("/reset?token=").unwrap();
            let fields = [("token", late_token), ("password", "yet another password")];
            let expired = form(&mut stranger, "/api/mail/reset", &fields).await;
            assert_eq!(expired["Err"]["Account"], "LinkExpired", "{expired}");
            for _ in 0..3 {
                form(&mut stranger, "/api/mail/forgot", &[("who", &name)]).await;
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
            assert_eq!(
                sink.received().len(),
                4,
                "the third link this hour is the last"
            );
            let outbox: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
                .fetch_one(&db.pool)
                .await
                .unwrap();
            assert_eq!(outbox, 0, "sent mail leaves the outbox");
        });
    });
}

#[test]
fn the_deadline_warning_and_the_digest_go_to_those_who_asked() {
    each_database(|database_url| {
        let (sink, dir) = (start_sink(), tempfile::tempdir().unwrap());
        let (server, base) = mailing_server(&sink, dir.path(), database_url);
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (name, game) = runtime.block_on(async {
            let name = support::unique_name("dig");
            let mut ann = signed_up(&base, &name).await;
            let mut bob = signed_up(&base, &support::unique_name("dib")).await;
            let address = format!("{name}@example.org");
            let fields = [
                ("address", address.as_str()),
                ("password", "a good password"),
            ];
            form(&mut ann, "/api/mail/address", &fields).await;
            let mail = sink.wait_for(1).await;
            ann.get(&link_in(&mail[0], &base)).await.unwrap();
            let chosen = [("digest", "on"), ("deadlines", "on")];
            form(&mut ann, "/api/mail/choose", &chosen).await;
            // Bob's invite game, which Ann joins; if Bob is to move, his pass makes it Ann's turn.
            let (_, created) = bob
                .json(
                    "/api/games/create",
                    &json!({ "new": {
                    "variant": "Classic", "dictionary": "en", "format": "Casual",
                    "opponent": "Invite" } }),
                )
                .await
                .unwrap();
            let created: Value = serde_json::from_str(&created).unwrap();
            let invite = created["Ok"]["invite_path"].as_str().unwrap().to_string();
            let token = invite.strip_prefix("/invite/").unwrap();
            let (_, answered) = ann
                .json(
                    "/api/invites/answer",
                    &json!({ "token": token, "accept": true }),
                )
                .await
                .unwrap();
            let game = created["Ok"]["id"].as_str().unwrap().to_string();
            assert!(answered.contains("Ok"), "{answered}");
            let db = database(dir.path(), database_url).await;
            #[derive(sqlx::FromRow)]
            struct ToMove {
                to_move: i64,
                version: i64,
                name: String,
            }
            let ToMove {
                to_move,
                version,
                name: mover,
            } = sqlx::query_as(
                "SELECT g.to_move, g.version, u.name FROM games g
                 JOIN game_seats s ON s.game_id = g.id AND s.seat = g.to_move
                 JOIN users u ON u.id = s.user_id WHERE g.id = $1",
            )
            .bind(&game)
            .fetch_one(&db.pool)
            .await
            .unwrap();
            if mover != name {
                let pass = json!({ "id": game, "expected_version": version,
                    "action": { "Pass": { "seat": to_move } } });
                let (_, passed) = bob.json("/api/games/act", &pass).await.unwrap();
                assert!(passed.contains("Ok"), "{passed}");
            }
            // A day later, with under a day left on Ann's turn.
            let now = store::db::now_ms();
            sqlx::query("UPDATE games SET deadline_at = $2, updated_at = $3 WHERE id = $1")
                .bind(&game)
                .bind(now + 5 * 3_600_000)
                .bind(now - 6 * 86_400_000)
                .execute(&db.pool)
                .await
                .unwrap();
            (name, game)
        });
        // The reminders are written as the mail task starts, and each minute after.
        drop(server);
        let (_server, base) = mailing_server(&sink, dir.path(), database_url);
        runtime.block_on(async {
            let mail = sink.wait_for(3).await;
            let (deadline, digest) = match mail[1].contains("hours left") {
                true => (&mail[1], &mail[2]),
                false => (&mail[2], &mail[1]),
            };
            assert!(
                deadline.contains("Subject: Your move: about 4 hours left"),
                "{deadline}"
            );
            assert!(deadline.contains(&format!("{base}/game/{game}")));
            assert!(
                digest.contains("Subject: 1 game waiting for your move"),
                "{digest}"
            );
            assert!(digest.contains(&format!("{name}, these games")));
            assert!(digest.contains(&format!("{base}/game/{game}")));
            // Once each: a minute's sweep later nothing more comes.
            tokio::time::sleep(Duration::from_secs(3)).await;
            assert_eq!(sink.received().len(), 3);
        });
    });
}

#[test]
fn without_an_smtp_server_no_page_offers_e_mail() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, base) = support::spawn_server(dir.path(), None);
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let mut ann = signed_up(&base, &support::unique_name("nom")).await;
        let (_, settings) = ann.get("/settings").await.unwrap();
        assert!(!settings.contains("data-testid=\"mail\""));
        let (_, reset) = ann.get("/reset").await.unwrap();
        assert!(!reset.contains("reset-by-mail"));
        let fields = [
            ("address", "a@example.org"),
            ("password", "a good password"),
        ];
        let refused = form(&mut ann, "/api/mail/address", &fields).await;
        assert!(refused["Err"].is_object(), "{refused}");
        let refused = form(&mut ann, "/api/mail/forgot", &[("who", "anyone")]).await;
        assert!(refused["Err"].is_object(), "{refused}");
    });
}

#[test]
fn no_account_makes_the_server_mail_strangers_and_a_new_password_ends_every_link() {
    each_database(|database_url| {
        let (sink, dir) = (start_sink(), tempfile::tempdir().unwrap());
        let (_server, base) = mailing_server(&sink, dir.path(), database_url);
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let name = support::unique_name("cap");
            let mut ann = signed_up(&base, &name).await;
            // Three addresses an hour, then a clear refusal, and no fourth letter.
            for n in 0..4 {
                let address = format!("stranger{n}@example.org");
                let fields = [
                    ("address", address.as_str()),
                    ("password", "a good password"),
                ];
                let answer = form(&mut ann, "/api/mail/address", &fields).await;
                match n {
                    0..=2 => assert_eq!(answer["Ok"], Value::Null, "{answer}"),
                    _ => assert_eq!(answer["Err"]["Account"], "TooManyLetters", "{answer}"),
                }
            }
            let mail = sink.wait_for(3).await;
            // The last address's link verifies it; the earlier ones no longer do.
            let last = mail.iter().find(|m| m.contains("To: stranger2@")).unwrap();
            let first = mail.iter().find(|m| m.contains("To: stranger0@")).unwrap();
            let (_, _) = ann.get(&link_in(first, &base)).await.unwrap();
            let db = database(dir.path(), database_url).await;
            let email = || async {
                sqlx::query_scalar::<_, Option<String>>("SELECT email FROM users WHERE name = $1")
                    .bind(&name)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap()
            };
            assert_eq!(email().await, None, "an earlier link ended");
            ann.get(&link_in(last, &base)).await.unwrap();
            assert_eq!(email().await.as_deref(), Some("stranger2@example.org"));

            // A letter the mailer cannot write (put in the outbox behind the checks' back) is
            // dropped, and the letters after it go out at once.
            sqlx::query(
                "INSERT INTO outbox (recipient, subject, body, attempts, next_at, created_at)
                 VALUES ('not an address@@', 'x', 'x', 0, 0, 0)",
            )
            .execute(&db.pool)
            .await
            .unwrap();
            // Two reset links; the first one used ends the second.
            let mut stranger = ApiClient::new(&base);
            for _ in 0..2 {
                form(&mut stranger, "/api/mail/forgot", &[("who", &name)]).await;
            }
            let mail = sink.wait_for(5).await;
            let tokens: Vec<String> = mail[3..]
                .iter()
                .map(|m| {
                    link_in(m, &base)
                        .strip_prefix("/reset?token=")
                        .unwrap()
                        .to_string()
                })
                .collect();
            let outbox: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
                .fetch_one(&db.pool)
                .await
                .unwrap();
            assert_eq!(outbox, 0, "the unwritable letter left the outbox");
            let fields = [
                ("token", tokens[0].as_str()),
                ("password", "a brand new password"),
            ];
            let answer = form(&mut stranger, "/api/mail/reset", &fields).await;
            assert_eq!(answer["Ok"]["name"], name.as_str(), "{answer}");
            let fields = [
                ("token", tokens[1].as_str()),
                ("password", "the thief's password"),
            ];
            let answer = form(&mut stranger, "/api/mail/reset", &fields).await;
            assert_eq!(answer["Err"]["Account"], "LinkExpired", "{answer}");
        });
    });
}
