//! Accounts against real databases: argon2id hashes, unique names, sign-in that does not say
//! which half was wrong, and the admin role.

use domain::AccountProblem;
use store::{
    accounts::{self, AccountError, Role},
    limits::sign_ins as throttle,
};
use support::{databases, unique_name};

mod support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_then_sign_in_and_only_with_the_right_password() {
    for (db_name, db, _dir) in databases().await {
        let name = unique_name("ann");
        let user = accounts::sign_up(&db, &name.to_uppercase(), "correct horse")
            .await
            .unwrap();
        assert_eq!(
            (user.name.as_str(), user.role),
            (name.as_str(), Role::Player),
            "{db_name}"
        );
        let signed_in = accounts::sign_in(&db, &name, "correct horse")
            .await
            .unwrap();
        assert_eq!(signed_in, user, "{db_name}");
        for (who, password) in [
            (name.as_str(), "wrong horse"),
            ("nobody_here", "correct horse"),
            ("x", "correct horse"),
        ] {
            assert!(
                matches!(
                    accounts::sign_in(&db, who, password).await,
                    Err(AccountError::Refused(AccountProblem::WrongCredentials))
                ),
                "{db_name}: {who}"
            );
        }
        assert!(
            matches!(
                accounts::sign_up(&db, &name, "another one").await,
                Err(AccountError::Refused(AccountProblem::NameTaken))
            ),
            "{db_name}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwords_are_stored_as_argon2id_with_the_stated_parameters() {
    for (db_name, db, _dir) in databases().await {
        let name = unique_name("bo");
        accounts::sign_up(&db, &name, "a long passphrase")
            .await
            .unwrap();
        let stored: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE name = $1")
            .bind(&name)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert!(
            stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{db_name}: {stored}"
        );
        assert!(!stored.contains("a long passphrase"));
    }
}

#[tokio::test]
async fn bad_names_and_passwords_are_refused_with_a_reason() {
    for (_, db, _dir) in databases().await {
        for name in ["ab", "has space", "émile", "a_name_that_is_far_too_long"] {
            assert!(
                matches!(
                    accounts::sign_up(&db, name, "long enough").await,
                    Err(AccountError::Refused(AccountProblem::BadName))
                ),
                "{name}"
            );
        }
        assert!(matches!(
            accounts::sign_up(&db, &unique_name("c"), "short").await,
            Err(AccountError::Refused(AccountProblem::BadPassword))
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_admin_is_made_by_name() {
    for (db_name, db, _dir) in databases().await {
        let name = unique_name("admin");
        accounts::sign_up(&db, &name, "administrator")
            .await
            .unwrap();
        assert!(accounts::make_admin(&db, &name).await.unwrap(), "{db_name}");
        assert_eq!(
            accounts::sign_in(&db, &name, "administrator")
                .await
                .unwrap()
                .role,
            Role::Admin,
            "{db_name}"
        );
        assert!(
            !accounts::make_admin(&db, "no_such_user").await.unwrap(),
            "{db_name}"
        );
    }
}

/// The sign-in throttle (issue 17, point 3): a guesser slows down fast, the owner elsewhere is
/// not held up by it and waits half a minute at most when many addresses guess, a success clears
/// the name, and every count is shared by the instances on one database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_failures_slow_a_guesser_everywhere_without_locking_the_owner_out() {
    for (db_name, db, _dir) in databases().await {
        let other = support::second_instance(&db).await;
        let name = unique_name("ann");
        let guesser = "203.0.113.9";
        for _ in 0..5 {
            assert_eq!(
                throttle::check(&db, &name, Some(guesser)).await.unwrap(),
                None
            );
            throttle::fail(&db, &name, Some(guesser)).await.unwrap();
        }
        // The sixth failure from that address makes the next try wait a second (then 2, 4 …),
        // on this instance and on the other.
        throttle::fail(&other, &name.to_uppercase(), Some(guesser))
            .await
            .unwrap();
        for instance in [&db, &other] {
            let wait = throttle::check(instance, &name, Some(guesser))
                .await
                .unwrap()
                .expect("the guesser waits");
            assert!(
                wait <= std::time::Duration::from_secs(1) && !wait.is_zero(),
                "{db_name}: {wait:?}"
            );
        }
        // The owner, from another address, is not held up by those six.
        let owner = "198.51.100.7";
        assert_eq!(
            throttle::check(&other, &name, Some(owner)).await.unwrap(),
            None,
            "{db_name}"
        );
        // Many addresses guessing, half of them through each instance: the name alone slows,
        // for half a minute at most.
        for i in 0..40 {
            let instance = if i % 2 == 0 { &db } else { &other };
            throttle::fail(instance, &name, Some(&format!("10.0.0.{i}")))
                .await
                .unwrap();
        }
        let wait = throttle::check(&other, &name, Some(owner))
            .await
            .unwrap()
            .expect("a short wait for everyone");
        assert!(
            wait <= std::time::Duration::from_secs(30),
            "{db_name}: {wait:?}"
        );
        // A success clears the name, for every instance; the guesser's address keeps its count.
        throttle::succeed(&other, &name, Some(owner)).await.unwrap();
        assert_eq!(
            throttle::check(&db, &name, Some(owner)).await.unwrap(),
            None,
            "{db_name}"
        );
        assert!(
            throttle::check(&db, &name, Some(guesser))
                .await
                .unwrap()
                .is_some(),
            "{db_name}: the guesser's pair still waits"
        );
    }
}

/// A session of `user` saved by the session store, with its device and day; its id.
async fn session_of(db: &store::db::Database, user: i64, device: &str, day: i64) -> String {
    use tower_sessions::{
        cookie::time::{Duration, OffsetDateTime},
        session::{Id, Record},
        SessionStore,
    };
    let mut data = std::collections::HashMap::new();
    data.insert("user_id".to_string(), serde_json::json!(user));
    data.insert("device".to_string(), serde_json::json!(device));
    data.insert("seen_day".to_string(), serde_json::json!(day));
    let record = Record {
        id: Id::default(),
        data,
        expiry_date: OffsetDateTime::now_utc() + Duration::days(1),
    };
    accounts::sessions::DbSessionStore::new(db.clone())
        .save(&record)
        .await
        .unwrap();
    record.id.to_string()
}

/// Changing the password needs the current one and signs out every other session; the list of
/// sessions names their devices and signs one out by its handle, never by its id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_password_signs_out_every_other_session() {
    use store::accounts::security;
    for (db_name, db, _dir) in databases().await {
        let name = unique_name("ann");
        let ann = accounts::sign_up(&db, &name, "correct horse")
            .await
            .unwrap();
        let phone = session_of(&db, ann.id, "Chrome on Android", 20_400).await;
        let laptop = session_of(&db, ann.id, "Firefox on Linux", 20_401).await;
        let tablet = session_of(&db, ann.id, "Safari on iPad", 20_399).await;
        let listed = security::sessions(&db, ann.id, Some(&laptop))
            .await
            .unwrap();
        let devices: Vec<_> = listed
            .iter()
            .map(|s| (s.device.as_deref().unwrap(), s.current))
            .collect();
        assert_eq!(
            devices,
            [
                ("Firefox on Linux", true),
                ("Chrome on Android", false),
                ("Safari on iPad", false)
            ],
            "{db_name}"
        );
        assert!(
            listed
                .iter()
                .all(|s| s.handle.len() == 16 && s.handle != phone),
            "{db_name}"
        );
        assert!(!security::sign_out_session(&db, ann.id, "0123456789abcdef")
            .await
            .unwrap());
        assert!(
            security::sign_out_session(&db, ann.id, &security::handle_of(&tablet))
                .await
                .unwrap()
        );
        assert_eq!(
            security::sessions(&db, ann.id, None).await.unwrap().len(),
            2,
            "{db_name}"
        );

        assert!(
            matches!(
                security::confirm_password(&db, &ann, "wrong horse", None).await,
                Err(AccountError::Refused(AccountProblem::WrongPassword))
            ),
            "{db_name}"
        );
        let confirmed = support::confirmed(&db, &ann, "correct horse").await;
        assert!(
            matches!(
                security::change_password(&db, &confirmed, "short", Some(&laptop)).await,
                Err(AccountError::Refused(AccountProblem::BadPassword))
            ),
            "{db_name}"
        );
        security::change_password(&db, &confirmed, "a new horse", Some(&laptop))
            .await
            .unwrap();
        assert!(
            accounts::sign_in(&db, &name, "correct horse")
                .await
                .is_err(),
            "{db_name}"
        );
        accounts::sign_in(&db, &name, "a new horse").await.unwrap();
        let left: Vec<_> = security::sessions(&db, ann.id, Some(&laptop))
            .await
            .unwrap();
        assert_eq!(left.len(), 1, "{db_name}: only the session that changed it");
        assert!(left[0].current);
    }
}

/// A recovery code sets a new password once; a wrong code or name is the same refusal; new codes
/// replace the old.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recovery_code_resets_the_password_once() {
    use store::accounts::security;
    for (db_name, db, _dir) in databases().await {
        let name = unique_name("bo");
        let bo = accounts::sign_up(&db, &name, "correct horse")
            .await
            .unwrap();
        session_of(&db, bo.id, "Chrome on Android", 20_400).await;
        let confirmed = support::confirmed(&db, &bo, "correct horse").await;
        let codes = security::new_recovery_codes(&db, &confirmed).await.unwrap();
        assert_eq!(codes.len(), security::RECOVERY_CODES);
        assert!(
            codes
                .iter()
                .all(|c| c.len() == 11 && c.as_bytes()[5] == b'-'),
            "{codes:?}"
        );
        let wrong = |r: Result<accounts::User, AccountError>| {
            matches!(r, Err(AccountError::Refused(AccountProblem::WrongCode)))
        };
        assert!(
            wrong(security::recover(&db, &name, "aaaaa-aaaaa", "a new horse").await),
            "{db_name}"
        );
        assert!(wrong(
            security::recover(&db, "nobody_here", &codes[0], "a new horse").await
        ));
        // Typed in capitals without the dash: the same code.
        let typed = codes[0].replace('-', " ").to_uppercase();
        assert_eq!(
            security::recover(&db, &name, &typed, "a new horse")
                .await
                .unwrap()
                .id,
            bo.id
        );
        accounts::sign_in(&db, &name, "a new horse").await.unwrap();
        assert!(
            security::sessions(&db, bo.id, None)
                .await
                .unwrap()
                .is_empty(),
            "{db_name}: signed out"
        );
        assert!(
            wrong(security::recover(&db, &name, &codes[0], "another horse").await),
            "{db_name}: once"
        );
        assert_eq!(security::recovery_codes_left(&db, bo.id).await.unwrap(), 9);
        let confirmed = support::confirmed(&db, &bo, "a new horse").await;
        security::new_recovery_codes(&db, &confirmed).await.unwrap();
        assert!(
            wrong(security::recover(&db, &name, &codes[1], "another horse").await),
            "{db_name}: replaced"
        );
    }
}
