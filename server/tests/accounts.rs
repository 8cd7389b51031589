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
