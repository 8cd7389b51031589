//! A move's summary for lists is worked out once per commit: written with the move, handed to
//! the move's reactions (push notices) and to the mover's page. A test of its own, in a process
//! of its own, so no other test's summaries are counted with it.

mod support;

use std::sync::atomic::Ordering;

use rules::Action;
use support::browser::{each_database, friend_game_rated, ok, view_of, Browser};

#[test]
fn a_commit_makes_one_summary() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
        ann.sign_up(&support::unique_name("sum")).await;
        bob.sign_up(&support::unique_name("sum")).await;
        let id = friend_game_rated(&mut ann, &mut bob, false).await;
        // Passes until the game ends on them: moves that go on and the one that ends it.
        let mut moves = 0;
        loop {
            let page = ann.page(&id).await;
            if ok(&page)["card"]["phase"] == "Over" {
                break;
            }
            let view = view_of(&page);
            let (mover, seat) = match view.to_move == view.seat {
                true => (&mut ann, view.seat),
                false => (&mut bob, view.to_move),
            };
            let version = u64::from(view.version);
            let before = domain::SUMMARIES_MADE.load(Ordering::SeqCst);
            ok(&mover.act(&id, version, &Action::Pass { seat }).await);
            let made = domain::SUMMARIES_MADE.load(Ordering::SeqCst) - before;
            assert_eq!(made, 1, "{db_name}: summaries made by one move's request");
            moves += 1;
        }
        assert!(moves >= 2, "{db_name}: {moves} moves");
    });
}
