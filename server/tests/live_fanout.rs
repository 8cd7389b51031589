//! A change reaches only the live pages it concerns, on SQLite and on Postgres (where it travels
//! as a NOTIFY to every instance's listener first): a move wakes its own players' pages and none
//! of hundreds of others open on other games; a player's presence wakes only the pages that show
//! it. Each page counts its wake-ups (`Follower::woken`). A player's pages on one instance share
//! one presence row, which a reload does not rewrite.

mod support;

use support::player;

use std::time::Duration;

use app::api::{NewGame, Opponent};
use dictionaries::DictionaryId;
use rules::{game::Format, Action, Variant};
use store::{
    bus::{Follower, Interest},
    db::Database,
    games, presence, seating, Services,
};

/// Pages open on other games: each the page of a user of its own, showing another's presence.
const WATCHERS: i64 = 300;

/// Waits until `page` has woken `times` times (a change on Postgres arrives by NOTIFY).
async fn woken(page: &Follower, times: u64) {
    for _ in 0..100 {
        if page.woken() >= times {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the page woke {} times, not {times}", page.woken());
}

/// Waits until every change published so far has reached this instance's pages. On Postgres a
/// change arrives by NOTIFY, after its publisher has gone on (the challenge and its acceptance
/// could wake pages opened after them); notifications arrive in the order they were published,
/// so once a change published now has arrived, the earlier ones have.
async fn settle(db: &store::db::Database) {
    let marker = -3_000_000 - i64::from(std::process::id());
    let page = db.live.follow(Interest {
        user: marker,
        presence_of: vec![],
        lobby: false,
        standings: None,
    });
    db.publish(store::bus::Change::Game {
        id: "settle".into(),
        users: vec![marker],
    })
    .await;
    woken(&page, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_wakes_only_the_pages_it_concerns() {
    for (db_name, db, _dir) in support::databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let (ann, bob) = (player(&db).await, player(&db).await);
        let new = NewGame {
            variant: Variant::Classic,
            dictionary: DictionaryId::English,
            format: Format::Casual,
            opponent: Opponent::Friend {
                name: bob.name.clone(),
            },
            rated: false,
        };
        let game = seating::create(&db, &ann, &new).await.unwrap().id;
        seating::answer_challenge(&db, &bob, &game, true)
            .await
            .unwrap();
        settle(&db).await;
        // Ids far from any real user's, so no other test's change concerns them.
        let watchers: Vec<Follower> = (0..WATCHERS)
            .map(|i| {
                db.live.follow(Interest {
                    user: -1_000_000 - i,
                    presence_of: vec![-2_000_000 - i],
                    lobby: false,
                    standings: None,
                })
            })
            .collect();
        let ann_page = db.live.follow(Interest {
            user: ann.id,
            presence_of: vec![bob.id],
            lobby: false,
            standings: None,
        });
        let bob_page = db.live.follow(Interest {
            user: bob.id,
            presence_of: vec![ann.id],
            lobby: false,
            standings: None,
        });

        // A move: both players' pages wake, once; no other page does.
        let row = games::row(&db, &game).await.unwrap();
        let lexicon = services.game_lexicon(&row.config).await.unwrap();
        let seat = games::load(&db, &game, &*lexicon).await.unwrap().to_move();
        games::commit(&db, &game, row.version, &Action::Pass { seat }, &*lexicon)
            .await
            .unwrap();
        woken(&ann_page, 1).await;
        woken(&bob_page, 1).await;
        // Bob comes online: only the page that shows his presence hears it.
        presence::open(&db, bob.id).await.unwrap();
        woken(&ann_page, 2).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!((ann_page.woken(), bob_page.woken()), (2, 1), "{db_name}");
        let others: u64 = watchers.iter().map(Follower::woken).sum();
        assert_eq!(
            others, 0,
            "{db_name}: {others} wake-ups of pages on other games"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_falls_behind_is_told_to_ask_again() {
    let bus = store::bus::Bus::default();
    let mut page = bus.follow(Interest {
        user: 7,
        ..Interest::default()
    });
    for _ in 0..200 {
        bus.send_here(store::bus::Change::Game {
            id: "g".into(),
            users: vec![7],
        });
    }
    let first = page.recv().await;
    assert_eq!(first, Some(store::bus::Change::Resync));
    assert_eq!(page.woken(), 200);
}

/// When each of `user`'s rows in the presence table was written (or last refreshed).
async fn rows_of(db: &Database, user: i64) -> Vec<i64> {
    sqlx::query_scalar("SELECT seen_at FROM presence WHERE user_id = $1")
        .bind(user)
        .fetch_all(&db.pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_pages_share_one_row_and_a_reload_writes_nothing() {
    for (db_name, db, _dir) in support::databases().await {
        let ann = player(&db).await;
        let watcher = db.live.follow(Interest {
            user: -3_000_000,
            presence_of: vec![ann.id],
            lobby: false,
            standings: None,
        });
        // Two pages open: one row, one change told.
        presence::open(&db, ann.id).await.unwrap();
        presence::open(&db, ann.id).await.unwrap();
        let first = rows_of(&db, ann.id).await;
        assert_eq!(first.len(), 1, "{db_name}");
        woken(&watcher, 1).await;
        // One closes: she is still here, nothing written.
        presence::close(&db, ann.id, Duration::ZERO).await.unwrap();
        assert!(presence::online(&db, ann.id).await.unwrap(), "{db_name}");
        // The other reloads: its stream closes, and the next opens within the grace.
        let closing = tokio::spawn({
            let db = db.clone();
            async move { presence::close(&db, ann.id, Duration::from_millis(500)).await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        presence::open(&db, ann.id).await.unwrap();
        closing.await.unwrap().unwrap();
        assert_eq!(
            rows_of(&db, ann.id).await,
            first,
            "{db_name}: the row was not rewritten"
        );
        assert!(presence::online(&db, ann.id).await.unwrap(), "{db_name}");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(watcher.woken(), 1, "{db_name}: no change told");
        // The last page closes for good: the row goes, and the page showing her hears it.
        presence::close(&db, ann.id, Duration::ZERO).await.unwrap();
        assert_eq!(rows_of(&db, ann.id).await, Vec::<i64>::new(), "{db_name}");
        assert!(!presence::online(&db, ann.id).await.unwrap(), "{db_name}");
        woken(&watcher, 2).await;
    }
}
