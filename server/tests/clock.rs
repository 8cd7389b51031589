//! Clocks: stored deadlines, applied exactly once (also after a restart, and with two instances
//! on one Postgres); Blitz time-outs pass, strike only a player who was away, and three strikes
//! forfeit; a move after the deadline is refused.

mod support;

use support::player;

use std::time::Duration;

use app::api::{NewGame, Opponent, Phase, Refusal};
use dictionaries::DictionaryId;
use rules::{
    game::{EndReason, Format},
    Action, GameState, Status, Variant,
};
use store::{accounts::User, clocks, db::Database, games, presence, seating, Services};

use store::db;

/// A friend game between two new players, under way (the joiner, `b`, in seat 1; who moves
/// first is the rules' to say: Classic draws for it).
async fn friend_game(db: &Database, variant: Variant, format: Format) -> (String, User, User) {
    let (a, b) = (player(db).await, player(db).await);
    let id = game_between(db, &a, &b, variant, format).await;
    (id, a, b)
}

/// [`friend_game`] between `a` and `b`; its id.
async fn game_between(
    db: &Database,
    a: &User,
    b: &User,
    variant: Variant,
    format: Format,
) -> String {
    let new = NewGame {
        variant,
        dictionary: DictionaryId::English,
        format,
        opponent: Opponent::Invite,
        rated: true,
    };
    let created = seating::create(db, a, &new).await.unwrap();
    seating::join(db, b, &created.id, created.invite_token.as_deref())
        .await
        .unwrap();
    if format == Format::Blitz {
        // Friends start Blitz from the Ready lobby: both ready, and the countdown skipped.
        for seat in [0, 1] {
            clocks::set_ready(db, &created.id, seat, true)
                .await
                .unwrap();
        }
        skip_countdown(db, &created.id).await;
        assert!(clocks::start_due(db).await.unwrap().contains(&created.id));
    }
    created.id
}

async fn skip_countdown(db: &Database, id: &str) {
    sqlx::query("UPDATE games SET starts_at = $2 WHERE id = $1 AND starts_at IS NOT NULL")
        .bind(id)
        .bind(db::now_ms() - 1)
        .execute(&db.pool)
        .await
        .unwrap();
}

async fn phase(db: &Database, id: &str) -> Phase {
    games::row(db, id).await.unwrap().phase
}

async fn deadline(db: &Database, id: &str) -> Option<i64> {
    sqlx::query_scalar("SELECT deadline_at FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// Moves the game's deadline into the past, as if its time had run out.
async fn run_out(db: &Database, id: &str) {
    sqlx::query("UPDATE games SET deadline_at = $2 WHERE id = $1")
        .bind(id)
        .bind(db::now_ms() - 1)
        .execute(&db.pool)
        .await
        .unwrap();
}

fn reason(state: &GameState) -> Option<EndReason> {
    match state.status() {
        Status::Over(outcome) => Some(outcome.reason),
        Status::Playing => None,
    }
}

async fn state(db: &Database, id: &str) -> GameState {
    let lexicon = support::catalog()
        .get(DictionaryId::English)
        .unwrap()
        .lexicon
        .clone();
    games::load(db, id, &*lexicon).await.unwrap()
}

/// Runs the game's clock out and sweeps until the time-out is applied; returns it as logged.
async fn time_out_now(services: &Services, id: &str) -> Action {
    let db = &services.db;
    let before = time_outs(db, id).await.len();
    run_out(db, id).await;
    for _ in 0..100 {
        clocks::expire_due(services).await.unwrap();
        let logged = time_outs(db, id).await;
        if logged.len() > before {
            assert_eq!(logged.len(), before + 1, "one time-out per deadline");
            return logged[before].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the time-out was not applied");
}

/// The rank history rows a game wrote (two once it is rated).
async fn rated_rows(db: &Database, id: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM rank_history WHERE game_id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// The time-outs in a game's stored log.
async fn time_outs(db: &Database, id: &str) -> Vec<Action> {
    sqlx::query_scalar::<_, String>(
        "SELECT action FROM game_actions WHERE game_id = $1 ORDER BY seq",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await
    .unwrap()
    .iter()
    .map(|action| serde_json::from_str::<Action>(action).unwrap())
    .filter(|a| matches!(a, Action::TimedOut { .. }))
    .collect()
}

#[tokio::test]
async fn a_casual_deadline_runs_out_once_and_loses() {
    for (name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let (id, _a, _b) = friend_game(&db, Variant::Classic, Format::Casual).await;
        let due = deadline(&db, &id).await.expect("a friend game has a clock");
        let week = 7 * 24 * 3_600_000;
        assert!((due - db::now_ms() - week).abs() < 60_000, "{name}: 7 days");
        // Not due yet: nothing happens.
        clocks::expire_due(&services).await.unwrap();
        assert!(time_outs(&db, &id).await.is_empty(), "{name}");
        let to_move = state(&db, &id).await.to_move();
        let applied = time_out_now(&services, &id).await;
        assert_eq!(
            applied,
            Action::TimedOut {
                seat: to_move,
                away: true
            },
            "{name}"
        );
        // Once: a second sweep finds nothing to do.
        clocks::expire_due(&services).await.unwrap();
        let state = state(&db, &id).await;
        assert_eq!(reason(&state), Some(EndReason::TimedOut(to_move)), "{name}");
        assert_eq!(time_outs(&db, &id).await.len(), 1, "{name}");
        assert_eq!(
            rated_rows(&db, &id).await,
            2,
            "{name}: a time-out is rated, once"
        );
        assert_eq!(
            deadline(&db, &id).await,
            None,
            "{name}: no clock after the end"
        );
    }
}

#[tokio::test]
async fn feud_gives_72_hours_and_a_move_after_the_deadline_is_refused() {
    for (name, db, _dir) in support::own_databases().await {
        let variant = Variant::Feud {
            language: rules::Language::English,
            random_board: false,
        };
        let (id, _, _) = friend_game(&db, variant, Format::Casual).await;
        let due = deadline(&db, &id).await.unwrap();
        assert!(
            (due - db::now_ms() - 72 * 3_600_000).abs() < 60_000,
            "{name}"
        );
        run_out(&db, &id).await;
        let seat = state(&db, &id).await.to_move();
        let lexicon = support::catalog()
            .get(DictionaryId::English)
            .unwrap()
            .lexicon
            .clone();
        let late = games::commit(&db, &id, 0, &Action::Pass { seat }, &*lexicon).await;
        assert!(
            matches!(late, Err(games::GameError::TimeUp)),
            "{name}: {late:?}"
        );
        // Resigning is still open to them.
        games::commit(&db, &id, 0, &Action::Resign { seat }, &*lexicon)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn the_clock_restarts_when_the_turn_passes_not_when_the_swap_power_is_used() {
    for (name, db, _dir) in support::own_databases().await {
        let variant = Variant::AlfaKraft {
            language: rules::Language::English,
        };
        let (id, _, _) = friend_game(&db, variant, Format::Casual).await;
        let lexicon = support::catalog()
            .get(DictionaryId::English)
            .unwrap()
            .lexicon
            .clone();
        // A deadline the commits below could not have set.
        let marked = db::now_ms() + 1_000_000;
        sqlx::query("UPDATE games SET deadline_at = $2 WHERE id = $1")
            .bind(&id)
            .bind(marked)
            .execute(&db.pool)
            .await
            .unwrap();
        let seat = state(&db, &id).await.to_move();
        let buy = Action::Buy {
            seat,
            power: rules::Power::Swap,
        };
        games::commit(&db, &id, 0, &buy, &*lexicon).await.unwrap();
        let tile = state(&db, &id).await.view(seat).hand[0];
        let swap = Action::UseSwap {
            seat,
            tiles: vec![tile],
        };
        games::commit(&db, &id, 1, &swap, &*lexicon).await.unwrap();
        assert_eq!(
            deadline(&db, &id).await,
            Some(marked),
            "{name}: buying and swapping leave the turn's clock alone"
        );
        games::commit(&db, &id, 2, &Action::Pass { seat }, &*lexicon)
            .await
            .unwrap();
        let due = deadline(&db, &id).await.unwrap();
        assert!(
            (due - db::now_ms() - 7 * 24 * 3_600_000).abs() < 60_000,
            "{name}: the next turn gets its own 7 days"
        );
    }
}

#[tokio::test]
async fn blitz_times_out_as_a_pass_and_strikes_only_the_absent() {
    for (name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        // Classic: six scoreless turns end it, so three strikes come first.
        let (id, a, b) = friend_game(&db, Variant::Classic, Format::Blitz).await;
        let due = deadline(&db, &id).await.unwrap();
        assert!(
            (due - db::now_ms() - 120_000).abs() < 10_000,
            "{name}: 120 s"
        );
        let user_of = |seat: u8| if seat == 1 { b.id } else { a.id };
        let first = state(&db, &id).await.to_move();
        let present = user_of(1 - first);
        presence::open(&db, present).await.unwrap();
        // The absent player times out three times; the present one in between, with no strike.
        let mut expected_strikes = [0u8; 2];
        for turn in 0..5 {
            let before = state(&db, &id).await;
            let seat = before.to_move();
            let applied = time_out_now(&services, &id).await;
            let away = user_of(seat) != present;
            assert_eq!(
                applied,
                Action::TimedOut { seat, away },
                "{name}: turn {turn}"
            );
            if away {
                expected_strikes[usize::from(seat)] += 1;
            }
            let after = state(&db, &id).await;
            assert_eq!(
                after.strikes(),
                &expected_strikes[..],
                "{name}: turn {turn}"
            );
            if turn < 4 {
                assert_eq!(*after.status(), Status::Playing, "{name}: turn {turn}");
                assert_ne!(after.to_move(), seat, "{name}: a time-out passes the turn");
            }
        }
        let end = state(&db, &id).await;
        assert_eq!(
            reason(&end),
            Some(EndReason::Strikes(first)),
            "{name}: three strikes forfeit"
        );
        assert_eq!(
            rated_rows(&db, &id).await,
            2,
            "{name}: a forfeit is rated, once"
        );
        presence::close(&db, present, std::time::Duration::ZERO)
            .await
            .unwrap();
        assert!(!presence::online(&db, present).await.unwrap(), "{name}");
    }
}

#[tokio::test]
async fn one_blitz_match_at_a_time() {
    for (name, db, _dir) in support::own_databases().await {
        let (_id, a, _b) = friend_game(&db, Variant::Classic, Format::Blitz).await;
        let new = NewGame {
            variant: Variant::Classic,
            dictionary: DictionaryId::English,
            format: Format::Blitz,
            opponent: Opponent::Bot {
                level: "beginner".into(),
            },
            rated: false,
        };
        let second = seating::create(&db, &a, &new).await;
        assert!(
            matches!(second, Err(store::StoreError::Refused(Refusal::BlitzBusy))),
            "{name}: {second:?}"
        );
        // Casual games are not limited by it.
        let casual = NewGame {
            format: Format::Casual,
            ..new
        };
        seating::create(&db, &a, &casual).await.unwrap();
    }
}

#[tokio::test]
async fn a_friend_blitz_match_starts_from_the_ready_lobby() {
    for (name, db, _dir) in support::own_databases().await {
        let (a, b) = (player(&db).await, player(&db).await);
        let new = NewGame {
            variant: Variant::Classic,
            dictionary: DictionaryId::English,
            format: Format::Blitz,
            opponent: Opponent::Invite,
            rated: true,
        };
        let created = seating::create(&db, &a, &new).await.unwrap();
        let id = created.id.clone();
        seating::join(&db, &b, &id, created.invite_token.as_deref())
            .await
            .unwrap();
        assert_eq!(phase(&db, &id).await, Phase::Ready, "{name}");
        assert_eq!(deadline(&db, &id).await, None, "{name}: no clock yet");
        let lexicon = support::catalog()
            .get(DictionaryId::English)
            .unwrap()
            .lexicon
            .clone();
        let early = games::commit(&db, &id, 0, &Action::Pass { seat: 1 }, &*lexicon).await;
        assert!(matches!(early, Err(games::GameError::NotStarted)), "{name}");
        let flags = |db: Database, id: String| async move {
            let row = games::row(&db, &id).await.unwrap();
            let seats = seating::seats(&db, &id).await.unwrap();
            (
                seats.iter().map(|s| s.ready).collect::<Vec<_>>(),
                row.starts_at,
            )
        };

        // One ready: no countdown. Both: a 3 s countdown.
        clocks::set_ready(&db, &id, 0, true).await.unwrap();
        assert_eq!(
            flags(db.clone(), id.clone()).await,
            (vec![true, false], None)
        );
        clocks::set_ready(&db, &id, 1, true).await.unwrap();
        let (ready, starts_at) = flags(db.clone(), id.clone()).await;
        assert_eq!(ready, vec![true, true], "{name}");
        let wait = starts_at.expect("counting down") - db::now_ms();
        assert!((2_000..=3_000).contains(&wait), "{name}: {wait} ms");
        // Not yet due: nothing starts.
        assert!(!clocks::start_due(&db).await.unwrap().contains(&id));

        // Un-readying stops it and clears both flags; so does leaving.
        clocks::set_ready(&db, &id, 1, false).await.unwrap();
        assert_eq!(
            flags(db.clone(), id.clone()).await,
            (vec![false, false], None)
        );
        for seat in [0, 1] {
            clocks::set_ready(&db, &id, seat, true).await.unwrap();
        }
        clocks::stop_countdown(&db, &id).await.unwrap();
        assert_eq!(
            flags(db.clone(), id.clone()).await,
            (vec![false, false], None)
        );

        // Ready again, and the countdown runs out: the match starts once, with a 120 s clock.
        for seat in [0, 1] {
            clocks::set_ready(&db, &id, seat, true).await.unwrap();
        }
        skip_countdown(&db, &id).await;
        assert!(
            clocks::start_due(&db).await.unwrap().contains(&id),
            "{name}"
        );
        assert!(
            !clocks::start_due(&db).await.unwrap().contains(&id),
            "{name}: once"
        );
        assert_eq!(phase(&db, &id).await, Phase::Playing, "{name}");
        let due = deadline(&db, &id).await.unwrap();
        assert!((due - db::now_ms() - 120_000).abs() < 10_000, "{name}");
        let refused = clocks::set_ready(&db, &id, 0, false).await;
        assert!(refused.is_err(), "{name}: no Ready once started");
    }
}

/// Games whose deadline passed while no server ran, for `restart_*` tests.
async fn overdue_games(db: &Database, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..n {
        let (id, _, _) = friend_game(db, Variant::Classic, Format::Casual).await;
        run_out(db, &id).await;
        ids.push(id);
    }
    ids
}

async fn wait_until_over(db: &Database, ids: &[String]) {
    for _ in 0..150 {
        let mut over = 0;
        for id in ids {
            let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
                .bind(id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
            over += usize::from(status == "over");
        }
        if over == ids.len() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the time-outs were not applied within 15 s");
}

#[tokio::test]
async fn a_deadline_that_passed_while_the_server_was_down_applies_once_on_restart() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("alfakraft.db").display());
    let db = store::connect(&url).await.unwrap();
    let ids = overdue_games(&db, 3).await;
    for round in 0..2 {
        let (mut server, _) = support::spawn_server(dir.path(), None);
        wait_until_over(&db, &ids).await;
        // Let the clock sweep a few more times: it must not apply anything again.
        tokio::time::sleep(Duration::from_millis(2500)).await;
        server.kill().unwrap();
        server.wait().unwrap();
        for id in &ids {
            assert_eq!(time_outs(&db, id).await.len(), 1, "round {round}");
        }
    }
}

#[tokio::test]
async fn two_instances_on_one_postgres_apply_each_time_out_once() {
    let Some(url) = support::own_postgres().await else {
        return;
    };
    let db = store::connect(&url).await.unwrap();
    let ids = overdue_games(&db, 20).await;
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let mut servers: Vec<_> = dirs
        .iter()
        .map(|d| support::spawn_server(d.path(), Some(&url)).0)
        .collect();
    wait_until_over(&db, &ids).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    for server in &mut servers {
        server.kill().unwrap();
        server.wait().unwrap();
    }
    for id in &ids {
        assert_eq!(time_outs(&db, id).await.len(), 1, "game {id}");
        assert_eq!(rated_rows(&db, id).await, 2, "game {id}: rated once");
    }
}

#[tokio::test]
async fn a_turn_running_out_is_warned_once_on_each_channel_its_player_chose() {
    use store::deadlines::{self, Channel};
    for (name, db, _dir) in support::own_databases().await {
        let (id, a, b) = friend_game(&db, Variant::Classic, Format::Casual).await;
        // Whoever the rules put first (Classic draws for it) is the player to warn.
        let seat = state(&db, &id).await.to_move();
        let b = if seat == 0 { a } else { b };
        let listed = async |channel| {
            deadlines::due(&db, channel)
                .await
                .unwrap()
                .into_iter()
                .filter(|due| due.game_id == id)
                .map(|due| (due.user_id, due.seat))
                .collect::<Vec<_>>()
        };
        // The player to move wants deadline mail and has a device; a day in, five hours are left.
        sqlx::query("UPDATE users SET email = $2, mail_deadlines = 1 WHERE id = $1")
            .bind(b.id)
            .bind(format!("{}@example.org", b.name))
            .execute(&db.pool)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at)
             VALUES ($1, $2, 'k', 'a', 0)",
        )
        .bind(b.id)
        .bind(format!("https://fcm.googleapis.com/fcm/send/{}", b.name))
        .execute(&db.pool)
        .await
        .unwrap();
        let set_clock = async |left_ms: i64, started_ms_ago: i64| {
            let now = db::now_ms();
            sqlx::query("UPDATE games SET deadline_at = $2, updated_at = $3 WHERE id = $1")
                .bind(&id)
                .bind(now + left_ms)
                .bind(now - started_ms_ago)
                .execute(&db.pool)
                .await
                .unwrap();
        };
        // Two days left: nothing yet.
        set_clock(48 * 3_600_000, 0).await;
        assert!(listed(Channel::Mail).await.is_empty(), "{name}");
        // A turn of an hour (a Blitz-length turn) is never warned of.
        set_clock(30 * 60_000, 30 * 60_000).await;
        assert!(listed(Channel::Push).await.is_empty(), "{name}");
        // A minute under five hours: four whole hours, however fast the lines below run (at
        // exactly five, a read within the same millisecond found five).
        set_clock(5 * 3_600_000 - 60_000, 6 * 86_400_000).await;
        let player = vec![(b.id, i64::from(seat))];
        assert_eq!(listed(Channel::Mail).await, player, "{name}");
        assert_eq!(listed(Channel::Push).await, player, "{name}");
        let due = deadlines::due(&db, Channel::Mail).await.unwrap();
        let due = due.iter().find(|due| due.game_id == id).unwrap();
        assert_eq!(
            due.email.as_deref(),
            Some(&*format!("{}@example.org", b.name))
        );
        assert_eq!(due.hours_left(), 4, "{name}");
        // Claimed once per channel, however often it is tried; each channel on its own.
        let mut conn = db.pool.acquire().await.unwrap();
        assert!(deadlines::claim(&mut conn, due, Channel::Mail)
            .await
            .unwrap());
        assert!(!deadlines::claim(&mut conn, due, Channel::Mail)
            .await
            .unwrap());
        assert!(listed(Channel::Mail).await.is_empty(), "{name}");
        assert_eq!(listed(Channel::Push).await, player, "{name}");
        assert!(deadlines::claim(&mut conn, due, Channel::Push)
            .await
            .unwrap());
        assert!(listed(Channel::Push).await.is_empty(), "{name}");
        // Without the deadline kind on, no push warning is due on the next turn either.
        sqlx::query("UPDATE users SET push_kinds = 0, mail_deadlines = 0 WHERE id = $1")
            .bind(b.id)
            .execute(&db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE games SET version = version + 1 WHERE id = $1")
            .bind(&id)
            .execute(&db.pool)
            .await
            .unwrap();
        assert!(listed(Channel::Push).await.is_empty(), "{name}");
        assert!(listed(Channel::Mail).await.is_empty(), "{name}");
    }
}

/// The player of `a` and `b` whose turn it is in game `id`, then the other.
async fn mover_and_waiter(db: &Database, id: &str, a: User, b: User) -> (User, User) {
    match state(db, id).await.to_move() {
        0 => (a, b),
        _ => (b, a),
    }
}

#[tokio::test]
async fn a_vacation_pauses_every_casual_clock_and_an_early_end_resumes_it() {
    use store::vacations::{self, DAYS_A_YEAR, DAY_MS};
    const WEEK: i64 = 7 * DAY_MS;
    for (name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let lexicon = support::catalog()
            .get(DictionaryId::English)
            .unwrap()
            .lexicon
            .clone();
        // `v` is to move in `theirs`, waits in `waits`, and plays a Blitz match.
        let (theirs, a, b) = friend_game(&db, Variant::Classic, Format::Casual).await;
        let (v, _) = mover_and_waiter(&db, &theirs, a, b).await;
        let opponent = player(&db).await;
        let waits = game_between(&db, &v, &opponent, Variant::Classic, Format::Casual).await;
        let first = state(&db, &waits).await.to_move();
        if seating::my_seats(&db, &waits, v.id)
            .await
            .unwrap()
            .contains(&first)
        {
            // `v` moves first there: a pass makes the turn the opponent's.
            games::commit(&db, &waits, 0, &Action::Pass { seat: first }, &*lexicon)
                .await
                .unwrap();
        }
        let blitz =
            game_between(&db, &v, &player(&db).await, Variant::Classic, Format::Blitz).await;
        let blitz_due = deadline(&db, &blitz).await;
        let before = deadline(&db, &theirs).await.unwrap();

        let days = 3;
        let standing = vacations::start(&db, v.id, days).await.unwrap();
        let until = standing.until.expect("on vacation");
        assert_eq!(standing.days_left, DAYS_A_YEAR - days, "{name}");
        assert_eq!(
            deadline(&db, &theirs).await,
            Some(before + days * DAY_MS),
            "{name}: paused"
        );
        assert_eq!(
            deadline(&db, &blitz).await,
            blitz_due,
            "{name}: Blitz is not paused"
        );
        // Refused: a second vacation under way, and days not theirs.
        assert!(vacations::start(&db, v.id, 1).await.is_err(), "{name}");

        // The turn passes to `v` during the vacation: their clock starts when it ends.
        let opponent = state(&db, &waits).await.to_move();
        let version = state(&db, &waits).await.version();
        games::commit(
            &db,
            &waits,
            version,
            &Action::Pass { seat: opponent },
            &*lexicon,
        )
        .await
        .unwrap();
        assert_eq!(
            vacations::pause_due(&db).await.unwrap(),
            vec![waits.clone()],
            "{name}"
        );
        assert_eq!(deadline(&db, &waits).await, Some(until + WEEK), "{name}");
        // Once: the next looks change nothing, and nothing times out.
        assert!(
            vacations::pause_due(&db).await.unwrap().is_empty(),
            "{name}"
        );
        clocks::expire_due(&services).await.unwrap();
        assert_eq!(deadline(&db, &waits).await, Some(until + WEEK), "{name}");
        assert_eq!(phase(&db, &theirs).await, Phase::Playing, "{name}");

        // An early end gives back the time left: each clock runs on from now.
        let standing = vacations::end(&db, v.id).await.unwrap();
        let now = db::now_ms();
        assert_eq!(standing.until, None, "{name}");
        assert_eq!(standing.days_left, DAYS_A_YEAR - 1, "{name}: one day begun");
        let resumed = deadline(&db, &theirs).await.unwrap();
        assert!(
            (resumed - before).abs() < 60_000,
            "{name}: {resumed} vs {before}"
        );
        let resumed = deadline(&db, &waits).await.unwrap();
        assert!((resumed - (now + WEEK)).abs() < 60_000, "{name}");
        assert!(
            vacations::pause_due(&db).await.unwrap().is_empty(),
            "{name}"
        );
        assert!(
            vacations::end(&db, v.id).await.is_err(),
            "{name}: not on vacation"
        );
        // The days are counted over any 365: what is left, no more, and at least one.
        assert!(
            vacations::start(&db, v.id, DAYS_A_YEAR).await.is_err(),
            "{name}"
        );
        assert!(vacations::start(&db, v.id, 0).await.is_err(), "{name}");
        let standing = vacations::start(&db, v.id, DAYS_A_YEAR - 1).await.unwrap();
        assert_eq!(standing.days_left, 0, "{name}");
    }
}

#[tokio::test]
async fn a_nudge_goes_once_a_day_to_a_player_who_kept_the_other_waiting_a_day() {
    use store::nudges::{self, Nudging};
    for (name, db, _dir) in support::own_databases().await {
        let (id, a, b) = friend_game(&db, Variant::Classic, Format::Casual).await;
        let (mover, waiter) = mover_and_waiter(&db, &id, a, b).await;
        let email = format!("{}@example.org", mover.name);
        sqlx::query("UPDATE users SET email = $2, mail_deadlines = 1 WHERE id = $1")
            .bind(mover.id)
            .bind(&email)
            .execute(&db.pool)
            .await
            .unwrap();
        // The player to move has a device subscribed: a nudge reaches it as a push notice too.
        let endpoint = format!("https://fcm.googleapis.com/fcm/send/{}", mover.name);
        store::push::subscribe(
            &db,
            mover.id,
            &endpoint,
            &"B".repeat(87),
            &"A".repeat(22),
            &[],
        )
        .await
        .unwrap();
        // The nudges queued for it (the game's setup may queue other notices, on tasks of their
        // own, after the subscription).
        let pushed = async || -> Vec<domain::Notice> {
            let notices: Vec<String> = sqlx::query_scalar(
                "SELECT o.notice FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
                 WHERE s.user_id = $1",
            )
            .bind(mover.id)
            .fetch_all(&db.pool)
            .await
            .unwrap();
            notices
                .iter()
                .map(|n| serde_json::from_str(n).unwrap())
                .filter(|n| matches!(n, domain::Notice::Nudge { .. }))
                .collect()
        };
        let letter = |n: &nudges::Nudged| (format!("nudged by {}", n.nudger), "move".to_string());
        let letters = async || -> i64 {
            sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE recipient = $1")
                .bind(&email)
                .fetch_one(&db.pool)
                .await
                .unwrap()
        };
        let waited = async |ms: i64| {
            sqlx::query("UPDATE games SET updated_at = updated_at - $2, nudged_at = nudged_at - $2 WHERE id = $1")
                .bind(&id)
                .bind(ms)
                .execute(&db.pool)
                .await
                .unwrap();
        };
        // Not before a day; never by the player to move, nor by a stranger.
        let from = nudges::nudging(&db, &id, waiter.id).await.unwrap();
        assert!(
            matches!(from, Nudging::From(at) if at > db::now_ms()),
            "{name}: {from:?}"
        );
        assert!(
            nudges::nudge(&db, &id, waiter.id, letter).await.is_err(),
            "{name}"
        );
        assert_eq!(
            nudges::nudging(&db, &id, mover.id).await.unwrap(),
            Nudging::Never,
            "{name}"
        );
        let stranger = player(&db).await;
        assert_eq!(
            nudges::nudging(&db, &id, stranger.id).await.unwrap(),
            Nudging::Never,
            "{name}"
        );
        assert!(
            nudges::nudge(&db, &id, stranger.id, letter).await.is_err(),
            "{name}"
        );

        // A day on, two nudges at once: one goes, with one letter.
        waited(25 * 3_600_000).await;
        let (first, second) = tokio::join!(
            nudges::nudge(&db, &id, waiter.id, letter),
            nudges::nudge(&db, &id, waiter.id, letter)
        );
        assert_eq!(
            first.is_ok() as u8 + second.is_ok() as u8,
            1,
            "{name}: {first:?} {second:?}"
        );
        assert_eq!(letters().await, 1, "{name}");
        let subject: String = sqlx::query_scalar("SELECT subject FROM outbox WHERE recipient = $1")
            .bind(&email)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(subject, format!("nudged by {}", waiter.name), "{name}");
        // The notice is queued on a task of its own: it comes within moments, once.
        let mut notices = pushed().await;
        for _ in 0..100 {
            if !notices.is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            notices = pushed().await;
        }
        assert_eq!(notices.len(), 1, "{name}: {notices:?}");
        assert_eq!(
            notices[0],
            domain::Notice::Nudge {
                game: id.clone(),
                from: waiter.name.clone()
            },
            "{name}"
        );
        assert!(
            nudges::nudge(&db, &id, waiter.id, letter).await.is_err(),
            "{name}: once a day"
        );
        // The next day, again; not while the player to move is on vacation.
        waited(25 * 3_600_000).await;
        store::vacations::start(&db, mover.id, 2).await.unwrap();
        assert_eq!(
            nudges::nudging(&db, &id, waiter.id).await.unwrap(),
            Nudging::Never,
            "{name}"
        );
        store::vacations::end(&db, mover.id).await.unwrap();
        waited(25 * 3_600_000).await;
        nudges::nudge(&db, &id, waiter.id, letter).await.unwrap();
        assert_eq!(letters().await, 2, "{name}");
    }
}
