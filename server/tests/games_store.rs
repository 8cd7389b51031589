//! The game store against real databases: a SQLite file always, and the Postgres server named by
//! `ALFAKRAFT_TEST_POSTGRES_URL` (`scripts/test.sh` starts one; CI must have it).

use rules::{Action, Format, GameConfig, Language, RuleError, Variant, WordList};
use sqlx::Executor;
use store::{
    db::Database,
    games::{self, GameError},
};
use support::databases;

mod support;

fn config(seed: u64) -> GameConfig {
    GameConfig {
        variant: Variant::Feud {
            language: Language::English,
            random_board: false,
        },
        dictionary: "en".into(),
        seed,
        players: 2,
        first_seat: 0,
        format: Format::Casual,
    }
}

fn words() -> WordList {
    WordList::new(["aa"])
}

async fn action_count(db: &Database, id: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM game_actions WHERE game_id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_commit_appends_and_the_log_replays_to_the_same_state() {
    for (name, db, _dir) in databases().await {
        let id = games::create(&db, &config(1)).await.unwrap();
        let state = games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words())
            .await
            .unwrap();
        assert_eq!(state.version(), 1, "{name}");
        let loaded = games::load(&db, &id, &words()).await.unwrap();
        assert_eq!(loaded, state, "{name}");
        assert_eq!(action_count(&db, &id).await, 1, "{name}");
    }
}

/// Awaits commits of one move racing each other: exactly one commits, and every other is told
/// the game moved on to `version`.
async fn exactly_one_committed<T>(
    name: &str,
    attempts: Vec<tokio::task::JoinHandle<Result<T, GameError>>>,
    version: u32,
) {
    let mut committed = 0;
    for attempt in attempts {
        match attempt.await.unwrap() {
            Ok(_) => committed += 1,
            Err(GameError::MovedOn { current }) => assert_eq!(current, version, "{name}"),
            Err(other) => panic!("{name}: {other}"),
        }
    }
    assert_eq!(committed, 1, "{name}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_concurrent_commits_of_the_same_move_leave_exactly_one() {
    for (name, db, _dir) in databases().await {
        let id = games::create(&db, &config(2)).await.unwrap();
        let attempts: Vec<_> = (0..6)
            .map(|_| {
                let (db, id) = (db.clone(), id.clone());
                tokio::spawn(async move {
                    games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words()).await
                })
            })
            .collect();
        exactly_one_committed(name, attempts, 1).await;
        assert_eq!(action_count(&db, &id).await, 1, "{name}");
        assert_eq!(
            games::load(&db, &id, &words()).await.unwrap().version(),
            1,
            "{name}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stale_or_forged_action_is_refused_and_changes_nothing() {
    for (name, db, _dir) in databases().await {
        let id = games::create(&db, &config(3)).await.unwrap();
        games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words())
            .await
            .unwrap();
        let before = games::load(&db, &id, &words()).await.unwrap();
        // The seat whose turn it is not, a seat that does not exist, and an old version.
        let refused = [
            (1, Action::Pass { seat: 0 }),
            (1, Action::Pass { seat: 7 }),
            (0, Action::Pass { seat: 1 }),
        ];
        for (version, action) in refused {
            let error = games::commit(&db, &id, version, &action, &words())
                .await
                .unwrap_err();
            assert!(
                matches!(
                    error,
                    GameError::Rules(RuleError::NotYourTurn | RuleError::NoSuchSeat(_))
                        | GameError::MovedOn { current: 1 }
                ),
                "{name}: {error}"
            );
        }
        assert_eq!(
            games::load(&db, &id, &words()).await.unwrap(),
            before,
            "{name}"
        );
        assert_eq!(action_count(&db, &id).await, 1, "{name}");
        assert!(
            matches!(
                games::load(&db, "no-such-game", &words()).await,
                Err(GameError::NotFound)
            ),
            "{name}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_commit_cut_off_midway_leaves_the_game_as_it_was() {
    for (name, db, _dir) in databases().await {
        let id = games::create(&db, &config(4)).await.unwrap();
        {
            // What a crash between the insert and the commit leaves: a transaction never committed.
            use sqlx::Executor;
            let mut conn = db.pool.acquire().await.unwrap();
            conn.execute("BEGIN").await.unwrap();
            sqlx::query(
                "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, 0, $2, 0)",
            )
            .bind(&id)
            .bind(serde_json::to_string(&Action::Pass { seat: 0 }).unwrap())
            .execute(&mut *conn)
            .await
            .unwrap();
            conn.close_on_drop();
        }
        let state = games::load(&db, &id, &words()).await.unwrap();
        assert_eq!(state.version(), 0, "{name}");
        assert_eq!(action_count(&db, &id).await, 0, "{name}");
        games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words())
            .await
            .unwrap();
    }
}

/// Polls `commit` `polls` times, sleeping a moment between polls, then drops it unfinished if it
/// has not finished: what hyper does to a request's future when its client goes away.
async fn abandon_after(commit: impl std::future::Future, polls: usize) -> bool {
    let mut commit = std::pin::pin!(commit);
    for _ in 0..polls {
        let done =
            std::future::poll_fn(|cx| std::task::Poll::Ready(commit.as_mut().poll(cx).is_ready()))
                .await;
        if done {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_micros(200)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn commits_abandoned_half_way_leave_no_connection_inside_a_transaction() {
    for (name, db, _dir) in databases().await {
        // How far a commit gets in a poll depends on the machine's speed, so attempts go on
        // until enough were cut off (a fast machine finishes more of them) rather than for a
        // fixed count.
        let (mut abandoned, mut attempts) = (0, 0);
        while abandoned < 40 && attempts < 2_000 {
            let attempt = attempts;
            attempts += 1;
            let id = games::create(&db, &config(100 + attempt)).await.unwrap();
            let (pass, words) = (Action::Pass { seat: 0 }, words());
            // Cut off at every step of the commit in turn: before, inside and after the
            // transaction.
            let commit = games::commit(&db, &id, 0, &pass, &words);
            if !abandon_after(commit, 1 + attempt as usize % 12).await {
                abandoned += 1;
            }
        }
        assert!(
            abandoned >= 40,
            "{name}: only {abandoned} of {attempts} commits were cut off"
        );
        // Every connection the pool holds can still begin a write: a connection left inside a
        // transaction would refuse `BEGIN` ("within a transaction") or hold SQLite's write lock.
        let ids: Vec<String> = {
            let mut ids = Vec::new();
            for seed in 0..24 {
                ids.push(games::create(&db, &config(500 + seed)).await.unwrap());
            }
            ids
        };
        let commits: Vec<_> = ids
            .iter()
            .map(|id| {
                let (db, id) = (db.clone(), id.clone());
                tokio::spawn(async move {
                    games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words()).await
                })
            })
            .collect();
        for commit in commits {
            commit
                .await
                .unwrap()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        eprintln!("{name}: {abandoned} of {attempts} commits abandoned half-way");
    }
}

/// Begins a write the way a move's commit does, writes nothing and commits.
async fn empty_commit(db: &Database) -> Result<(), sqlx::Error> {
    let mut write = db.raw_write().await?;
    write
        .conn()
        .execute(store::db::RawWrite::begin(db.backend))
        .await?;
    write.commit().await
}

/// A write transaction (`begin_write`, as a new game or a sign-up takes) and a crowd of move
/// commits (`raw_write`) take SQLite's writer lock and a pooled connection in the same order.
/// When commits took the connection first, a pool full of commits waiting for the writer lock
/// starved the transaction that held it of a connection: every write on the server stalled
/// until the pool's 30 s timeout (seen under load, beside new games against bots).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_write_transaction_queued_among_commits_never_deadlocks_the_pool() {
    let settle = || tokio::time::sleep(std::time::Duration::from_millis(200));
    for (name, db, _dir) in databases().await {
        let connections = db.pool.options().get_max_connections() as usize;
        // One commit holds the writer lock while the others line up.
        let mut first = db.raw_write().await.unwrap();
        first
            .conn()
            .execute(store::db::RawWrite::begin(db.backend))
            .await
            .unwrap();
        // A write transaction queues first...
        let transaction = tokio::spawn({
            let db = db.clone();
            async move { db.begin_write().await?.1.commit().await }
        });
        settle().await;
        // ...then commits enough to take every connection left, and one more.
        let commits: Vec<_> = (0..connections)
            .map(|_| {
                let db = db.clone();
                tokio::spawn(async move { empty_commit(&db).await })
            })
            .collect();
        settle().await;
        first.commit().await.unwrap();
        let everyone = async {
            transaction.await.unwrap()?;
            for commit in commits {
                commit.await.unwrap()?;
            }
            Ok::<_, sqlx::Error>(())
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), everyone)
            .await
            .unwrap_or_else(|_| panic!("{name}: the writes deadlocked"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Another instance's move, written behind this one's back: the log's next place and the row's
/// version, as a commit writes them.
async fn written_elsewhere(db: &Database, id: &str, seq: u32, action: &Action) {
    sqlx::query(
        "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES ($1, $2, $3, 0)",
    )
    .bind(id)
    .bind(i64::from(seq))
    .bind(serde_json::to_string(action).unwrap())
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE games SET version = $2, to_move = 0 WHERE id = $1")
        .bind(id)
        .bind(i64::from(seq + 1))
        .execute(&db.pool)
        .await
        .unwrap();
}

/// What a page read of the game before its move, with no one to tell.
fn seen(row: &store::games::GameRow) -> games::Seen<'_> {
    games::Seen {
        row,
        audience: store::bus::Audience {
            users: Vec::new(),
            lobby: false,
        },
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_move_judged_on_a_row_read_before_another_write_is_not_written_over_it() {
    for (name, db, _dir) in databases().await {
        let id = games::create(&db, &config(9)).await.unwrap();
        games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words())
            .await
            .unwrap();
        // The page read the game at version 1 (and this instance keeps that state); then another
        // instance's move came first.
        let row = store::games::row(&db, &id).await.unwrap();
        assert_eq!(row.version, 1, "{name}");
        written_elsewhere(&db, &id, 1, &Action::Pass { seat: 1 }).await;
        // Seat 1's pass, which the state at version 1 accepts: only the row's version stops it.
        let late = Action::Pass { seat: 1 };
        let error = games::commit_telling(&db, &id, 1, &late, &words(), Some(seen(&row)))
            .await
            .unwrap_err();
        assert!(
            matches!(error, GameError::MovedOn { current: 2 }),
            "{name}: {error}"
        );
        assert_eq!(action_count(&db, &id).await, 2, "{name}");
        let state = games::load(&db, &id, &words()).await.unwrap();
        assert_eq!((state.version(), state.history().len()), (2, 2), "{name}");
        // Read again, the next move is judged on the game as it now is, and written.
        let row = store::games::row(&db, &id).await.unwrap();
        let pass = Action::Pass { seat: 0 };
        let state = games::commit_telling(&db, &id, 2, &pass, &words(), Some(seen(&row)))
            .await
            .unwrap();
        assert_eq!(state.state.version(), 3, "{name}");
        assert_eq!(action_count(&db, &id).await, 3, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_lock_free_commits_of_the_same_move_leave_exactly_one() {
    for (name, db, _dir) in databases().await {
        let id = games::create(&db, &config(10)).await.unwrap();
        // Version 1, kept in memory: every attempt below is judged without a lock and races to
        // its guarded write.
        games::commit(&db, &id, 0, &Action::Pass { seat: 0 }, &words())
            .await
            .unwrap();
        let row = store::games::row(&db, &id).await.unwrap();
        let attempts: Vec<_> = (0..6)
            .map(|_| {
                let (db, id, row) = (db.clone(), id.clone(), row.clone());
                tokio::spawn(async move {
                    let pass = Action::Pass { seat: 1 };
                    games::commit_telling(&db, &id, 1, &pass, &words(), Some(seen(&row))).await
                })
            })
            .collect();
        exactly_one_committed(name, attempts, 2).await;
        assert_eq!(action_count(&db, &id).await, 2, "{name}");
        let state = games::load(&db, &id, &words()).await.unwrap();
        assert_eq!(state.version(), 2, "{name}");
    }
}
