//! Two-factor sign-in against real databases (SQLite and Postgres), through the server functions
//! as a page calls them: setting it up, sign-in asking for the code, a code used once, a
//! recovery code in its place once, turning it off, and admins the operator requires it of sent
//! to set it up.

mod support;

use serde_json::{json, Value};
use store::accounts::{self, security, two_factor};
use support::{
    browser::{each_database, ok, refusal, runtime, server_with, Browser, Server},
    unique_name,
};

const PASSWORD: &str = "a good password";

/// Signs in `name` from a fresh browser, with `code` if given: the answer.
async fn sign_in(server: &Server, name: &str, code: Option<&str>) -> (Browser, Value) {
    let mut browser = Browser::new(server);
    let mut fields = vec![("name", name), ("password", PASSWORD)];
    fields.extend(code.map(|code| ("code", code)));
    let answer = browser.post_form("/api/account/sign-in", &fields).await;
    (browser, answer)
}

/// The secret settings show while setting up.
async fn pending_secret(server: &Server, name: &str) -> String {
    let user = accounts::by_name(&server.db, name).await.unwrap().unwrap();
    match two_factor::state(&server.db, &user).await.unwrap() {
        two_factor::State::SettingUp(setup) => setup.secret,
        other => panic!("a secret being set up, not {other:?}"),
    }
}

/// Sets up two-factor sign-in for the signed-in `browser`'s `name`: its secret.
async fn set_up(server: &Server, browser: &mut Browser, name: &str) -> String {
    ok(&browser
        .post_form("/api/account/two-factor-begin", &[])
        .await);
    let secret = pending_secret(server, name).await;
    let (status, page) = browser.get("/settings").await;
    assert_eq!(status, 200);
    assert!(page.contains(&secret) && page.contains("<svg"), "{page}");
    let wrong = browser
        .post_form(
            "/api/account/two-factor-confirm",
            &[("code", &wrong_code(&secret))],
        )
        .await;
    assert_eq!(refusal(&wrong)["Account"], "WrongSecondFactor");
    let code = two_factor::code_in(&secret, 0).unwrap();
    ok(&browser
        .post_form("/api/account/two-factor-confirm", &[("code", &code)])
        .await);
    secret
}

/// Waits, if need be, for a fresh 30-second step: the tests compare the step a code was made in
/// with the step the server checks it in, so none may start in a step's last seconds.
async fn steady() {
    let second = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        % 30.0;
    if second > 18.0 {
        tokio::time::sleep(std::time::Duration::from_secs_f64(30.2 - second)).await;
    }
}

/// A six-digit code right for no time step near now.
fn wrong_code(secret: &str) -> String {
    let near: Vec<String> = (-2..=2)
        .map(|steps| two_factor::code_in(secret, steps).unwrap())
        .collect();
    (0..)
        .map(|n| format!("{:06}", n * 7919 % 1_000_000))
        .find(|code| !near.contains(code))
        .unwrap()
}

/// The code the app shows 30 seconds from now, which sign-in accepts for a clock running a
/// step behind: setting up used the current step, and a code works once.
fn next_code(secret: &str) -> String {
    two_factor::code_in(secret, 1).unwrap()
}

#[test]
fn sign_in_asks_for_the_code_which_works_once_and_a_recovery_code_stands_in_once() {
    each_database(async |db_name, server| {
        let name = unique_name("tfa");
        let mut browser = Browser::new(&server);
        browser.sign_up(&name).await;
        steady().await;
        let secret = set_up(&server, &mut browser, &name).await;
        let (_, page) = browser.get("/settings").await;
        assert!(page.contains("two-factor-on"), "{db_name}");

        // The password alone is not enough, and does not count as a failed sign-in.
        let (mut stranger, answer) = sign_in(&server, &name, None).await;
        assert_eq!(refusal(&answer)["Account"], "CodeNeeded", "{db_name}");
        assert_eq!(
            stranger.call("/api/account/me", json!({})).await,
            Value::Null
        );
        let (_, answer) = sign_in(&server, &name, Some(&wrong_code(&secret))).await;
        assert_eq!(
            refusal(&answer)["Account"],
            "WrongSecondFactor",
            "{db_name}"
        );
        // The code confirming the setup was used.
        let used = two_factor::code_in(&secret, 0).unwrap();
        let (_, answer) = sign_in(&server, &name, Some(&used)).await;
        assert_eq!(
            refusal(&answer)["Account"],
            "WrongSecondFactor",
            "{db_name}"
        );
        // A wrong password with the right code is still wrong.
        let mut other = Browser::new(&server);
        let code = next_code(&secret);
        let answer = other
            .post_form(
                "/api/account/sign-in",
                &[
                    ("name", &name),
                    ("password", "not the password"),
                    ("code", &code),
                ],
            )
            .await;
        assert_eq!(refusal(&answer)["Account"], "WrongCredentials", "{db_name}");

        let (mut signed_in, answer) = sign_in(&server, &name, Some(&code)).await;
        assert_eq!(ok(&answer)["name"], name.as_str(), "{db_name}");
        assert_eq!(
            signed_in.call("/api/account/me", json!({})).await["name"],
            name.as_str()
        );
        // The same code a second time is refused: it was used.
        let (_, answer) = sign_in(&server, &name, Some(&code)).await;
        assert_eq!(
            refusal(&answer)["Account"],
            "WrongSecondFactor",
            "{db_name}"
        );

        // A recovery code in the code's place, once.
        let user = accounts::by_name(&server.db, &name).await.unwrap().unwrap();
        let confirmed = support::confirmed(&server.db, &user, PASSWORD).await;
        let codes = security::new_recovery_codes(&server.db, &confirmed)
            .await
            .unwrap();
        let (_, answer) = sign_in(&server, &name, Some(&codes[3])).await;
        ok(&answer);
        let (_, answer) = sign_in(&server, &name, Some(&codes[3])).await;
        assert_eq!(
            refusal(&answer)["Account"],
            "WrongSecondFactor",
            "{db_name}"
        );
        assert_eq!(
            security::recovery_codes_left(&server.db, user.id)
                .await
                .unwrap(),
            9
        );

        // Off again with the password; then the password alone signs in.
        let wrong = signed_in
            .post_form("/api/account/two-factor-off", &[("password", "not it")])
            .await;
        assert_eq!(refusal(&wrong)["Account"], "WrongPassword");
        ok(&signed_in
            .post_form("/api/account/two-factor-off", &[("password", PASSWORD)])
            .await);
        let (_, answer) = sign_in(&server, &name, None).await;
        ok(&answer);
    });
}

#[test]
fn admins_required_to_use_a_second_factor_are_sent_to_set_it_up() {
    runtime().block_on(async {
        for (db_name, db, _dir) in support::databases().await {
            let server =
                server_with(&db, |state| state.services.admins_need_two_factor = true).await;
            admin_sent_to_set_up(db_name, server).await;
        }
    });
}

/// An admin without a second factor, where the operator requires one: refused until set up.
async fn admin_sent_to_set_up(db_name: &str, server: Server) {
    let name = unique_name("tfadmin");
    let mut admin = Browser::new(&server);
    admin.sign_up(&name).await;
    assert!(accounts::make_admin(&server.db, &name).await.unwrap());
    // Every admin page and request sends them to set it up first.
    for page in ["/admin", "/admin/moderation"] {
        let (status, _) = admin.get(page).await;
        assert_eq!(status, 303, "{db_name}: {page}");
        assert_eq!(admin.location.as_deref(), Some("/settings#two-factor"));
    }
    let answer = admin.call("/api/admin/overview", json!({})).await;
    assert_eq!(
        refusal(&answer)["Account"],
        "SecondFactorRequired",
        "{db_name}"
    );
    let (_, settings) = admin.get("/settings").await;
    assert!(settings.contains("two-factor-required"), "{db_name}");
    steady().await;
    let secret = set_up(&server, &mut admin, &name).await;
    // The session that turned it on never passed it (a stolen one could turn it on too): it
    // stays refused until it signs in again with the code.
    let (status, _) = admin.get("/admin").await;
    assert_eq!(status, 303, "{db_name}: set up, not signed in with it");
    let answer = admin.call("/api/admin/overview", json!({})).await;
    assert_eq!(refusal(&answer)["Account"], "SecondFactorRequired");
    let (_, settings) = admin.get("/settings").await;
    assert!(settings.contains("two-factor-required"), "{db_name}");
    let (_, answer) = sign_in(&server, &name, None).await;
    assert_eq!(refusal(&answer)["Account"], "CodeNeeded", "{db_name}");
    let (mut signed_in, answer) = sign_in(&server, &name, Some(&next_code(&secret))).await;
    ok(&answer);
    let (status, _) = signed_in.get("/admin").await;
    assert_eq!(status, 200, "{db_name}");
    ok(&signed_in.call("/api/admin/overview", json!({})).await);
    let (_, settings) = signed_in.get("/settings").await;
    assert!(!settings.contains("two-factor-required"), "{db_name}");
}

#[test]
fn a_reset_never_signs_in_past_the_second_factor() {
    each_database(async |db_name, server| {
        let name = unique_name("tfr");
        let mut browser = Browser::new(&server);
        browser.sign_up(&name).await;
        // New codes need the password: a stolen session could reset the password with them.
        let (status, _) = browser
            .post_form_page("/settings/recovery-codes", &[("password", "not it")])
            .await;
        assert_eq!(status, 303, "{db_name}");
        assert!(
            browser
                .location
                .as_deref()
                .unwrap_or("")
                .contains("WrongPassword"),
            "{db_name}: {:?}",
            browser.location
        );
        let user = accounts::by_name(&server.db, &name).await.unwrap().unwrap();
        assert_eq!(
            security::recovery_codes_left(&server.db, user.id)
                .await
                .unwrap(),
            0
        );
        let (status, page) = browser
            .post_form_page("/settings/recovery-codes", &[("password", PASSWORD)])
            .await;
        assert_eq!(status, 200, "{db_name}");
        let codes: Vec<String> = page
            .split("<code>")
            .skip(1)
            .filter_map(|rest| rest.split("</code>").next().map(str::to_string))
            .collect();
        assert_eq!(codes.len(), security::RECOVERY_CODES, "{db_name}: {page}");
        steady().await;
        let secret = set_up(&server, &mut browser, &name).await;

        // A recovery code sets the password, but signs no one in: the second factor is asked.
        let mut stranger = Browser::new(&server);
        let fields = [
            ("name", name.as_str()),
            ("code", codes[0].as_str()),
            ("password", "a brand new password"),
        ];
        let answer = stranger.post_form("/api/account/recover", &fields).await;
        assert_eq!(refusal(&answer)["Account"], "PasswordSet", "{db_name}");
        assert_eq!(
            stranger.call("/api/account/me", json!({})).await,
            Value::Null
        );
        let fields = [
            ("name", name.as_str()),
            ("password", "a brand new password"),
        ];
        let answer = stranger.post_form("/api/account/sign-in", &fields).await;
        assert_eq!(refusal(&answer)["Account"], "CodeNeeded", "{db_name}");
        let code = next_code(&secret);
        let fields = [
            ("name", name.as_str()),
            ("password", "a brand new password"),
            ("code", code.as_str()),
        ];
        ok(&stranger.post_form("/api/account/sign-in", &fields).await);
        assert!(stranger.call("/api/account/me", json!({})).await["name"] == name.as_str());
    });
}

#[test]
fn wrong_current_passwords_slow_down_like_failed_sign_ins() {
    each_database(async |db_name, server| {
        let name = unique_name("tfw");
        let mut browser = Browser::new(&server);
        browser.sign_up(&name).await;
        // A stolen session guessing the password through every form that asks for it.
        let mut slowed = 0;
        for round in 0..10 {
            for (path, field) in [
                ("/api/account/password", "current"),
                ("/api/account/close", "password"),
                ("/api/account/two-factor-off", "password"),
                ("/api/account/recovery-codes", "password"),
            ] {
                let mut fields = vec![(field, format!("guess {round}"))];
                if field == "current" {
                    fields.push(("new", "a new password".into()));
                }
                let fields: Vec<(&str, &str)> =
                    fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let answer = browser.post_form(path, &fields).await;
                match refusal(&answer) {
                    r if r["Account"] == "WrongPassword" => {}
                    r if r["SlowDown"].is_object() => slowed += 1,
                    r => panic!("{db_name}: {path}: {r}"),
                }
            }
        }
        // Twenty free for a name (these requests come from no address), then each failure
        // doubles the wait from a second: only a run lasting over half a minute could have
        // more than 25 of the 40 guesses heard.
        assert!(slowed >= 15, "{db_name}: only {slowed} of 40 slowed");
        let counted: i64 =
            sqlx::query_scalar("SELECT failures FROM sign_in_failures WHERE key = $1")
                .bind(format!("name:{name}"))
                .fetch_one(&server.db.pool)
                .await
                .unwrap();
        assert!(counted > 20, "{db_name}: {counted} failures counted");
    });
}
