//! Closing an account against real databases (SQLite and Postgres): the password first, games
//! in play resigned, the games kept for the opponent with "deleted player" in the seat, and
//! nothing else of the account left in any table.

mod support;

use support::player;

use app::api::{NewGame, Opponent, Phase, Refusal};
use dictionaries::DictionaryId;
use domain::AccountProblem;
use rules::{game::Format, Action, Variant};
use store::{
    accounts::{self, security, security::Confirmed, User},
    chat, closing,
    db::{self, Backend, Database},
    friends, games, limits, profiles,
    profiles::Opponent as Against,
    seating, Services, StoreError,
};

/// `a` challenges `b` to a rated Classic game, which `b` accepts: its id.
async fn game_between(db: &Database, a: &User, b: &User) -> String {
    let new = NewGame {
        variant: Variant::Classic,
        dictionary: DictionaryId::English,
        format: Format::Casual,
        opponent: Opponent::Friend {
            name: b.name.clone(),
        },
        rated: true,
    };
    let created = seating::create(db, a, &new).await.unwrap();
    seating::answer_challenge(db, b, &created.id, true)
        .await
        .unwrap();
    created.id
}

async fn resign(services: &Services, game: &str, seat: u8) {
    let row = games::row(&services.db, game).await.unwrap();
    let lexicon = services.game_lexicon(&row.config).await.unwrap();
    games::commit(
        &services.db,
        game,
        row.version,
        &Action::Resign { seat },
        &*lexicon,
    )
    .await
    .unwrap();
}

/// Every table of the database, with its columns.
async fn tables(db: &Database) -> Vec<(String, Vec<String>)> {
    let names: Vec<String> = match db.backend {
        Backend::Sqlite => sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table'
             AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%' ORDER BY name",
        ),
        Backend::Postgres => sqlx::query_scalar(
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
             AND table_name NOT LIKE '_sqlx%' ORDER BY table_name",
        ),
    }
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let mut all = Vec::new();
    for table in names {
        let columns: Vec<String> = match db.backend {
            Backend::Sqlite => sqlx::query_scalar("SELECT name FROM pragma_table_info($1)"),
            Backend::Postgres => sqlx::query_scalar(
                "SELECT CAST(column_name AS TEXT) FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1",
            ),
        }
        .bind(&table)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        all.push((table, columns));
    }
    all
}

/// The columns that point at a user: every foreign key to `users`, and the sessions' own.
async fn user_columns(db: &Database) -> Vec<(String, String)> {
    let mut columns: Vec<(String, String)> = match db.backend {
        Backend::Sqlite => {
            let mut found = Vec::new();
            for (table, _) in tables(db).await {
                let from: Vec<String> = sqlx::query_scalar(
                    "SELECT \"from\" FROM pragma_foreign_key_list($1) WHERE \"table\" = 'users'",
                )
                .bind(&table)
                .fetch_all(&db.pool)
                .await
                .unwrap();
                found.extend(from.into_iter().map(|c| (table.clone(), c)));
            }
            found
        }
        Backend::Postgres => {
            #[derive(sqlx::FromRow)]
            struct Pointing {
                table_name: String,
                column_name: String,
            }
            let rows: Vec<Pointing> = sqlx::query_as(
                "SELECT CAST(c.conrelid::regclass AS TEXT) AS table_name,
                        CAST(a.attname AS TEXT) AS column_name
                 FROM pg_constraint c JOIN pg_attribute a
                   ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                 WHERE c.contype = 'f' AND c.confrelid = CAST('users' AS regclass)",
            )
            .fetch_all(&db.pool)
            .await
            .unwrap();
            rows.into_iter()
                .map(|row| (row.table_name, row.column_name))
                .collect()
        }
    };
    columns.push(("sessions".into(), "user_id".into()));
    columns.sort();
    columns.dedup();
    columns
}

/// What the games need of a closed account: their seats, and the opponents' own results and
/// rank histories, which name whom they played.
const KEPT: &[(&str, &str)] = &[
    ("game_results", "opponent_user"),
    ("game_seats", "user_id"),
    ("rank_history", "opponent"),
];

/// Every other kind of row a player leaves behind: reports both ways, decided by an admin (the
/// log of the decision on Ann's report of Bob points at her report), a sanction on her, a
/// block, a challenge waiting for an answer, a notice naming her queued for Bob's device, and a
/// link mailed to an address she is adding.
async fn leave_everything_behind(services: &Services, ann: &User, bob: &User, key: &Confirmed) {
    use store::moderation::{self, SanctionKind, Verdict};
    let db = &services.db;
    let admin = player(db).await;
    accounts::make_admin(db, &admin.name).await.unwrap();
    let admin = accounts::by_name(db, &admin.name).await.unwrap().unwrap();
    moderation::report(db, ann, &bob.name, None, "spam")
        .await
        .unwrap();
    moderation::report(db, bob, &ann.name, None, "rude")
        .await
        .unwrap();
    for report in moderation::queue(db).await.unwrap() {
        let verdict = match report.reported.0 == bob.id {
            true => Verdict::Sanction(SanctionKind::Mute, Some(db::now_ms() + 3_600_000)),
            false => Verdict::Dismiss,
        };
        let about = report.reported.0;
        moderation::decide(db, &admin, about, Some(report.id), verdict, "seen")
            .await
            .unwrap();
    }
    let muted = Verdict::Sanction(SanctionKind::Mute, None);
    moderation::decide(db, &admin, ann.id, None, muted, "later")
        .await
        .unwrap();
    let carl = player(db).await;
    store::blocks::block(db, ann, &carl.name).await.unwrap();
    let challenge = NewGame {
        variant: Variant::Classic,
        dictionary: DictionaryId::English,
        format: Format::Casual,
        opponent: Opponent::Friend {
            name: bob.name.clone(),
        },
        rated: false,
    };
    seating::create(db, ann, &challenge).await.unwrap();
    let endpoint = format!("https://fcm.googleapis.com/fcm/send/{}", bob.name);
    let (p256dh, auth) = ("B".repeat(87), "A".repeat(22));
    store::push::subscribe(db, bob.id, &endpoint, &p256dh, &auth, &[])
        .await
        .unwrap();
    let notice = domain::Notice::Challenged {
        from: ann.name.clone(),
    };
    store::push::notify(db, bob.id, &notice).await.unwrap();
    // The challenge's own notice is queued by a task of its own: wait for it too.
    for _ in 0..200 {
        let queued: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM push_outbox o JOIN push_subscriptions s
             ON s.id = o.subscription_id WHERE s.user_id = $1",
        )
        .bind(bob.id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        if queued == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // A bot game going on on Ann's phone, copied to her account.
    let dictionary = store::library::versions::active_ref(db, DictionaryId::English)
        .await
        .unwrap()
        .to_string();
    let on_her_phone = domain::DeviceGame {
        key: "phone-game".into(),
        variant: Variant::Classic,
        dictionary,
        seed: 5,
        first_seat: 0,
        bot_seat: 1,
        level: "Beginner".into(),
        actions: Vec::new(),
        scores: vec![0, 0],
        rated: false,
    };
    let kept = seating::device::record(db, ann, &on_her_phone, support::load::lexicon()).await;
    assert_eq!(kept.unwrap(), domain::DeviceKept::Copy);
    store::mail::set_address(
        db,
        key,
        &format!("{}@example.org", ann.name),
        |token| format!("https://example.org/email/verify?token={token}"),
        |link| ("Confirm".into(), link.into()),
    )
    .await
    .unwrap();
}

/// Every row of every table, as text, sorted: what a failed close must leave as it found.
async fn snapshot(db: &Database) -> Vec<(String, Vec<String>)> {
    let mut all = Vec::new();
    for (table, columns) in tables(db).await {
        // SQLite's quote() writes blobs as hex literals; Postgres writes bytea as hex anyway.
        let row = columns
            .iter()
            .map(|c| match db.backend {
                Backend::Sqlite => format!("quote(\"{c}\")"),
                Backend::Postgres => format!("COALESCE(CAST(\"{c}\" AS TEXT), '~')"),
            })
            .collect::<Vec<_>>()
            .join(" || '|' || ");
        let mut rows: Vec<String> = sqlx::query_scalar(&format!("SELECT {row} FROM \"{table}\""))
            .fetch_all(&db.pool)
            .await
            .unwrap();
        rows.sort();
        all.push((table, rows));
    }
    all
}

/// Makes every delete from `push_subscriptions` fail: late in the closing transaction, after
/// the resignations and most of the erasing.
async fn fail_half_way(db: &Database, on: bool) {
    let statements: &[&str] = match (db.backend, on) {
        (Backend::Sqlite, true) => &[
            "CREATE TRIGGER fail_half_way BEFORE DELETE ON push_subscriptions
              BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
        ],
        (Backend::Sqlite, false) => &["DROP TRIGGER fail_half_way"],
        (Backend::Postgres, true) => &[
            "CREATE FUNCTION fail_half_way() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
            "CREATE TRIGGER fail_half_way BEFORE DELETE ON push_subscriptions
             FOR EACH ROW EXECUTE FUNCTION fail_half_way()",
        ],
        (Backend::Postgres, false) => &[
            "DROP TRIGGER fail_half_way ON push_subscriptions",
            "DROP FUNCTION fail_half_way()",
        ],
    };
    for sql in statements {
        sqlx::query(sql).execute(&db.pool).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_that_fails_half_way_changes_nothing() {
    // Databases of their own: the injected failure is a trigger.
    for (db_name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let (ann, bob) = (player(&db).await, player(&db).await);
        let playing = game_between(&db, &bob, &ann).await;
        let confirmed = support::confirmed(&db, &ann, "a good password").await;
        security::new_recovery_codes(&db, &confirmed).await.unwrap();
        friends::follow(&db, &bob, &ann.name).await.unwrap();
        chat::send(&db, &playing, &ann, "hello").await.unwrap();
        let endpoint = format!("https://fcm.googleapis.com/fcm/send/{}", ann.name);
        let (p256dh, auth) = ("B".repeat(87), "A".repeat(22));
        store::push::subscribe(&db, ann.id, &endpoint, &p256dh, &auth, &[])
            .await
            .unwrap();
        leave_everything_behind(&services, &ann, &bob, &confirmed).await;
        // Read once, so the game's state is in memory as the commit keeps it.
        let before_game = games::row(&db, &playing).await.unwrap();
        let before = snapshot(&db).await;

        fail_half_way(&db, true).await;
        let failed = closing::close(&services, &confirmed).await;
        assert!(
            matches!(
                failed,
                Err(StoreError::Refused(Refusal::Account(
                    AccountProblem::NotClosed
                )))
            ),
            "{db_name}: {failed:?}"
        );
        fail_half_way(&db, false).await;
        let after = snapshot(&db).await;
        for ((table, was), (_, is)) in before.iter().zip(&after) {
            assert_eq!(was, is, "{db_name}: {table} changed");
        }
        assert_eq!(before.len(), after.len());
        // The game goes on where it was: Bob, whose turn it may be, can still move, and the
        // account signs in as before.
        let row = games::row(&db, &playing).await.unwrap();
        assert_eq!(row.phase, Phase::Playing, "{db_name}");
        assert_eq!(row.version, before_game.version, "{db_name}");
        let lexicon = services.game_lexicon(&row.config).await.unwrap();
        let state = games::load(&db, &playing, &*lexicon).await.unwrap();
        let to_move = state.to_move();
        games::commit(
            &db,
            &playing,
            row.version,
            &Action::Pass { seat: to_move },
            &*lexicon,
        )
        .await
        .unwrap();
        accounts::sign_in(&db, &ann.name, "a good password")
            .await
            .unwrap();

        // Once the fault is gone, the same close goes through.
        closing::close(&services, &confirmed).await.unwrap();
        assert_eq!(games::row(&db, &playing).await.unwrap().phase, Phase::Over);
        assert!(accounts::by_name(&db, &ann.name).await.unwrap().is_none());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_whose_password_changed_meanwhile_is_refused() {
    for (db_name, db, _dir) in support::databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let ann = player(&db).await;
        let confirmed = support::confirmed(&db, &ann, "a good password").await;
        // Another session changes the password between the check and the close.
        let other = support::confirmed(&db, &ann, "a good password").await;
        security::change_password(&db, &other, "another password", None)
            .await
            .unwrap();
        let refused = closing::close(&services, &confirmed).await;
        assert!(
            matches!(
                refused,
                Err(StoreError::Refused(Refusal::Account(
                    AccountProblem::WrongPassword
                )))
            ),
            "{db_name}: {refused:?}"
        );
        assert!(accounts::by_name(&db, &ann.name).await.unwrap().is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_account_leaves_its_games_and_nothing_else() {
    // Databases of its own: a recomputation rewrites every rank in its database.
    for (db_name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let (ann, bob) = (player(&db).await, player(&db).await);
        // A rated game Bob resigned: ranks, rank history and results for both.
        let finished = game_between(&db, &ann, &bob).await;
        chat::send(&db, &finished, &ann, "good game").await.unwrap();
        resign(&services, &finished, 1).await;
        // A bot game she resigned: results of hers alone, which a restart's backfill would
        // otherwise write again.
        let against_bot = NewGame {
            variant: Variant::Classic,
            dictionary: DictionaryId::English,
            format: Format::Casual,
            opponent: Opponent::Bot {
                level: "beginner".into(),
            },
            rated: false,
        };
        let bot_game = seating::create(&db, &ann, &against_bot).await.unwrap().id;
        resign(&services, &bot_game, 0).await;
        // A game in play, and everything else an account gathers.
        let playing = game_between(&db, &bob, &ann).await;
        friends::follow(&db, &ann, &bob.name).await.unwrap();
        friends::follow(&db, &bob, &ann.name).await.unwrap();
        let confirmed = support::confirmed(&db, &ann, "a good password").await;
        security::new_recovery_codes(&db, &confirmed).await.unwrap();
        let endpoint = format!("https://fcm.googleapis.com/fcm/send/{}", ann.name);
        let (p256dh, auth) = ("B".repeat(87), "A".repeat(22));
        store::push::subscribe(&db, ann.id, &endpoint, &p256dh, &auth, &[])
            .await
            .unwrap();
        limits::sign_ins::fail(&db, &ann.name, Some("192.0.2.7"))
            .await
            .unwrap();
        leave_everything_behind(&services, &ann, &bob, &confirmed).await;

        closing::close(&services, &confirmed).await.unwrap();

        // The game in play was resigned: Bob won it.
        let row = games::row(&db, &playing).await.unwrap();
        assert_eq!(row.phase, Phase::Over, "{db_name}");
        // The opponent's games show a deleted player, and so do their record and export.
        let seats = seating::seats(&db, &finished).await.unwrap();
        assert!(seats[0].closed && !seats[1].closed, "{db_name}");
        assert_eq!(seats[0].plain_name(), "deleted player");
        let export = store::exports::of(&services, &bob)
            .await
            .unwrap()
            .to_string();
        assert!(export.contains("deleted player"), "{db_name}");
        assert!(!export.contains(&ann.name), "{db_name}: {export}");
        let profile = profiles::of(&db, &bob.name).await.unwrap().unwrap();
        assert!(
            profile
                .recent
                .iter()
                .all(|g| g.opponent == Against::Deleted),
            "{db_name}: {:?}",
            profile.recent
        );
        let recent = friends::recent_opponents(&db, bob.id).await.unwrap();
        assert!(recent
            .iter()
            .all(|f| f.name != ann.name && !f.name.starts_with("deleted-")));
        // A restart's backfill of results and a recomputation of every rank give the closed
        // account nothing back.
        store::results::backfill(&services).await.unwrap();
        store::ranks::recompute(&services, true).await.unwrap();
        let ranks: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ranks WHERE user_id = $1")
            .bind(ann.id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(ranks, 0, "{db_name}");
        // The name is gone and free: no profile, no sign-in, and anyone may take it.
        assert!(profiles::of(&db, &ann.name).await.unwrap().is_none());
        assert!(accounts::sign_in(&db, &ann.name, "a good password")
            .await
            .is_err());

        // Every table: no column pointing at a user holds Ann's id but what the games need,
        // and no column anywhere holds her name.
        for (table, column) in user_columns(&db).await {
            let count: i64 = sqlx::query_scalar(&format!(
                "SELECT COUNT(*) FROM \"{table}\" WHERE \"{column}\" = $1"
            ))
            .bind(ann.id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
            let kept = KEPT.contains(&(table.as_str(), column.as_str()))
                || (table == "users" && column == "id");
            assert!(
                kept || count == 0,
                "{db_name}: {table}.{column} holds {count}"
            );
        }
        let name_like = format!("%{}%", ann.name);
        for (table, columns) in tables(&db).await {
            for column in columns {
                let count: i64 = sqlx::query_scalar(&format!(
                    "SELECT COUNT(*) FROM \"{table}\" WHERE CAST(\"{column}\" AS TEXT) LIKE $1"
                ))
                .bind(&name_like)
                .fetch_one(&db.pool)
                .await
                .unwrap();
                assert_eq!(count, 0, "{db_name}: {table}.{column} holds the name");
            }
        }
        #[derive(sqlx::FromRow)]
        struct Closed {
            password_hash: String,
            closed_at: Option<i64>,
        }
        let closed: Closed =
            sqlx::query_as("SELECT password_hash, closed_at FROM users WHERE id = $1")
                .bind(ann.id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        assert!(
            closed.password_hash.is_empty() && closed.closed_at.is_some(),
            "{db_name}"
        );
        let again = accounts::sign_up(&db, &ann.name, "another password")
            .await
            .unwrap();
        assert_ne!(again.id, ann.id, "{db_name}");
    }
}
