//! The social layer against real databases (SQLite and Postgres): follows, challenges, chat,
//! blocks on every way two players meet, chat turned off, reports and the admins' sanctions.

mod support;

use support::player;

use app::api::{NewGame, Opponent, Phase, Refusal};
use dictionaries::DictionaryId;
use domain::{SocialProblem, CHAT_BURST, CHAT_MAX_CHARS};
use rules::{game::Format, Variant};
use store::{
    accounts::{self, User},
    blocks, chat,
    db::Database,
    friends, games,
    moderation::{self, ModerationAction, SanctionKind, Verdict},
    seating::{self, rematch},
    StoreError,
};

fn new_game(opponent: Opponent) -> NewGame {
    NewGame {
        variant: Variant::Classic,
        dictionary: DictionaryId::English,
        format: Format::Casual,
        opponent,
        rated: false,
    }
}

fn refusal<T: std::fmt::Debug>(result: Result<T, StoreError>) -> Refusal {
    match result {
        Err(StoreError::Refused(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// `a` challenges `b` by name.
async fn challenge(db: &Database, a: &User, b: &User) -> Result<seating::Created, StoreError> {
    let name = b.name.clone();
    seating::create(db, a, &new_game(Opponent::Friend { name })).await
}

/// `a` challenges `b` by name; `b` accepts. Answers the game under way.
async fn challenged(db: &Database, a: &User, b: &User) -> String {
    let created = challenge(db, a, b).await.unwrap();
    let waiting = friends::challenges(db, b.id).await.unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].from.1, a.name);
    seating::answer_challenge(db, b, &created.id, true)
        .await
        .unwrap();
    assert_eq!(
        games::row(db, &created.id).await.unwrap().phase,
        Phase::Playing
    );
    created.id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follows_challenges_and_chat() {
    for (name, db, _dir) in support::databases().await {
        let (ann, bob, eve) = (player(&db).await, player(&db).await, player(&db).await);
        friends::follow(&db, &ann, &bob.name).await.unwrap();
        friends::follow(&db, &ann, &bob.name).await.unwrap();
        let (following, _) = friends::following(&db, ann.id).await.unwrap();
        assert_eq!(
            following.iter().map(|f| &f.name).collect::<Vec<_>>(),
            [&bob.name],
            "{name}"
        );
        assert_eq!(
            refusal(friends::follow(&db, &ann, &ann.name).await),
            Refusal::Social(SocialProblem::Yourself)
        );
        assert!(matches!(
            refusal(friends::follow(&db, &ann, "nobody-at-all").await),
            Refusal::Social(SocialProblem::NoSuchPlayer(_))
        ));

        // Only the one challenged may answer; a stranger is told the invite is closed.
        let created = challenge(&db, &ann, &bob).await.unwrap();
        assert_eq!(
            refusal(seating::answer_challenge(&db, &eve, &created.id, true).await),
            Refusal::InviteClosed
        );
        let token = created.invite_token.clone().unwrap();
        assert_eq!(
            refusal(seating::join(&db, &eve, &created.id, Some(&token)).await),
            Refusal::InviteClosed,
            "{name}"
        );
        seating::answer_challenge(&db, &bob, &created.id, false)
            .await
            .unwrap();
        assert_eq!(
            games::row(&db, &created.id).await.unwrap().phase,
            Phase::Cancelled
        );
        assert!(friends::challenges(&db, bob.id).await.unwrap().is_empty());

        let game = challenged(&db, &ann, &bob).await;
        let recent = friends::recent_opponents(&db, bob.id).await.unwrap();
        assert!(
            recent.iter().any(|f| f.name == ann.name && !f.followed),
            "{name}"
        );

        // Chat: for the players only; bounded; unread until seen.
        chat::send(&db, &game, &ann, "  good luck  ").await.unwrap();
        let chat::Room::Open { lines, silenced } = chat::room(&db, &game, bob.id).await.unwrap()
        else {
            panic!("{name}: no chat")
        };
        assert_eq!(
            (lines.len(), lines[0].body.as_str(), silenced),
            (1, "good luck", None)
        );
        assert_eq!(
            refusal(chat::room(&db, &game, eve.id).await),
            Refusal::NoSuchGame
        );
        assert_eq!(
            refusal(chat::send(&db, &game, &eve, "hi").await),
            Refusal::NoSuchGame
        );
        let too_long = "\u{1f600}".repeat(CHAT_MAX_CHARS + 1);
        for bad in [
            "",
            "   ",
            "\u{200b}\u{feff}\u{2060}",
            "\u{202e}\u{2066}",
            &too_long,
        ] {
            assert_eq!(
                refusal(chat::send(&db, &game, &bob, bad).await),
                Refusal::Social(SocialProblem::BadMessage)
            );
        }
        chat::send(&db, &game, &bob, &"é".repeat(CHAT_MAX_CHARS))
            .await
            .unwrap();
        assert_eq!(
            chat::unread(&db, ann.id).await.unwrap().get(&game),
            Some(&1),
            "{name}"
        );
        // What reorders the text around it is kept out of what is stored.
        chat::send(&db, &game, &bob, "gg \u{202e}olleh\u{2069}")
            .await
            .unwrap();
        let chat::Room::Open { lines, .. } = chat::room(&db, &game, ann.id).await.unwrap() else {
            panic!("{name}: no chat")
        };
        assert_eq!(lines.last().unwrap().body, "gg olleh", "{name}");
        chat::mark_seen(&db, &game, ann.id).await.unwrap();
        assert_eq!(chat::unread(&db, ann.id).await.unwrap().get(&game), None);
        for _ in 1..CHAT_BURST {
            chat::send(&db, &game, &ann, "hello").await.unwrap();
        }
        assert_eq!(
            refusal(chat::send(&db, &game, &ann, "one too many").await),
            Refusal::Social(SocialProblem::TooFast),
            "{name}"
        );

        // A bot game has no chat.
        let bot = seating::create(
            &db,
            &ann,
            &new_game(Opponent::Bot {
                level: "casual".into(),
            }),
        )
        .await
        .unwrap();
        assert_eq!(
            chat::room(&db, &bot.id, ann.id).await.unwrap(),
            chat::Room::Closed
        );
        assert_eq!(
            refusal(chat::send(&db, &bot.id, &ann, "hi").await),
            Refusal::Social(SocialProblem::NoChat)
        );

        // Chat off: no one writes in their games, and they see none.
        chat::set_chat_off(&db, bob.id, true).await.unwrap();
        assert_eq!(
            chat::room(&db, &game, ann.id).await.unwrap(),
            chat::Room::Off { by_reader: false }
        );
        assert_eq!(
            chat::room(&db, &game, bob.id).await.unwrap(),
            chat::Room::Off { by_reader: true }
        );
        assert!(chat::unread(&db, bob.id).await.unwrap().is_empty());
        chat::set_chat_off(&db, bob.id, false).await.unwrap();
    }
}

/// Every way two players meet, refused once one blocked the other, whichever way round; the
/// blocked player is told what anyone is told when a way is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_holds_on_every_path() {
    for (name, db, _dir) in support::databases().await {
        let (ann, bob) = (player(&db).await, player(&db).await);
        // Before the block: a game with chat, a finished game to rematch, a pending challenge,
        // an invite link, a lobby game, and follows both ways.
        let game = challenged(&db, &ann, &bob).await;
        let over = challenged(&db, &ann, &bob).await;
        let playing = games::row(&db, &over).await.unwrap();
        sqlx::query("UPDATE games SET status = 'over' WHERE id = $1")
            .bind(&playing.id)
            .execute(&db.pool)
            .await
            .unwrap();
        chat::send(&db, &game, &ann, "before").await.unwrap();
        let pending = challenge(&db, &ann, &bob).await.unwrap();
        let link = seating::create(&db, &ann, &new_game(Opponent::Invite))
            .await
            .unwrap();
        let lobby = seating::create(&db, &ann, &new_game(Opponent::Lobby))
            .await
            .unwrap();
        friends::follow(&db, &ann, &bob.name).await.unwrap();
        friends::follow(&db, &bob, &ann.name).await.unwrap();

        blocks::block(&db, &bob, &ann.name).await.unwrap();
        assert!(blocks::between(&db, ann.id, bob.id).await.unwrap());

        // Challenge, both ways; the pending one is called off. Ann, blocked, hears what a name
        // that is nobody's gets; Bob, who blocked her, that she cannot be reached.
        let unreachable =
            |who: &User| Refusal::Social(SocialProblem::Unreachable(who.name.clone()));
        let nobody = |typed: &str| Refusal::Social(SocialProblem::NoSuchPlayer(typed.into()));
        assert_eq!(
            refusal(challenge(&db, &ann, &bob).await),
            nobody(&bob.name),
            "{name}"
        );
        let made_up = NewGame {
            opponent: Opponent::Friend {
                name: "No_Such_One".into(),
            },
            ..new_game(Opponent::Lobby)
        };
        assert_eq!(
            refusal(seating::create(&db, &ann, &made_up).await),
            nobody("No_Such_One")
        );
        let typed = NewGame {
            opponent: Opponent::Friend {
                name: format!(" {} ", bob.name.to_uppercase()),
            },
            ..new_game(Opponent::Lobby)
        };
        assert_eq!(
            refusal(seating::create(&db, &ann, &typed).await),
            nobody(&bob.name.to_uppercase()),
            "{name}: the name as typed, as for a made-up one"
        );
        assert_eq!(refusal(challenge(&db, &bob, &ann).await), unreachable(&ann));
        assert_eq!(
            games::row(&db, &pending.id).await.unwrap().phase,
            Phase::Cancelled
        );
        assert!(friends::challenges(&db, bob.id).await.unwrap().is_empty());
        // Invite link.
        assert_eq!(
            refusal(seating::join(&db, &bob, &link.id, link.invite_token.as_deref()).await),
            Refusal::InviteClosed
        );
        // Lobby: hidden, and not joinable.
        let seen: Vec<String> = seating::lobby(&db, Some(bob.id))
            .await
            .unwrap()
            .into_iter()
            .map(|g| g.game.id)
            .collect();
        assert!(!seen.contains(&lobby.id), "{name}");
        assert!(seating::lobby(&db, None)
            .await
            .unwrap()
            .iter()
            .any(|g| g.game.id == lobby.id));
        assert_eq!(
            refusal(seating::join(&db, &bob, &lobby.id, None).await),
            Refusal::NoSuchGame
        );
        // Follow: ended both ways, and refused both ways.
        assert!(friends::following(&db, ann.id).await.unwrap().0.is_empty());
        assert!(friends::following(&db, bob.id).await.unwrap().0.is_empty());
        assert_eq!(
            refusal(friends::follow(&db, &ann, &bob.name).await),
            nobody(&bob.name)
        );
        assert_eq!(
            refusal(friends::follow(&db, &ann, "no_such_one").await),
            nobody("no_such_one")
        );
        assert_eq!(
            refusal(friends::follow(&db, &bob, &ann.name).await),
            unreachable(&ann)
        );
        // Rematch.
        assert_eq!(
            refusal(rematch::offer(&db, &ann, &over).await),
            Refusal::RematchClosed
        );
        // Chat: what Ann writes is hidden from Bob, not from Ann; Bob's unread does not count it.
        chat::send(&db, &game, &ann, "after").await.unwrap();
        let bodies = |room: chat::Room| match room {
            chat::Room::Open { lines, .. } => lines.into_iter().map(|l| l.body).collect::<Vec<_>>(),
            chat::Room::Closed | chat::Room::Off { .. } => panic!("closed"),
        };
        assert!(
            bodies(chat::room(&db, &game, bob.id).await.unwrap()).is_empty(),
            "{name}"
        );
        assert_eq!(
            bodies(chat::room(&db, &game, ann.id).await.unwrap()),
            ["before", "after"]
        );
        assert!(chat::unread(&db, bob.id).await.unwrap().is_empty());
        // A player not involved still meets both.
        let eve = player(&db).await;
        friends::follow(&db, &eve, &ann.name).await.unwrap();
        seating::join(&db, &eve, &lobby.id, None).await.unwrap();

        // Unblocked: the ways open again. The follows the block removed stay removed, and what
        // Ann wrote while blocked stays hidden from Bob for good; what she writes now he sees.
        blocks::unblock(&db, &bob, &ann.name).await.unwrap();
        assert!(!friends::follows(&db, bob.id, ann.id).await.unwrap());
        assert!(!friends::follows(&db, ann.id, bob.id).await.unwrap());
        friends::follow(&db, &ann, &bob.name).await.unwrap();
        assert_eq!(
            bodies(chat::room(&db, &game, bob.id).await.unwrap()),
            ["before"]
        );
        chat::send(&db, &game, &ann, "later").await.unwrap();
        assert_eq!(
            bodies(chat::room(&db, &game, bob.id).await.unwrap()),
            ["before", "later"]
        );
        assert_eq!(
            bodies(chat::room(&db, &game, ann.id).await.unwrap()),
            ["before", "after", "later"]
        );
        assert_eq!(
            chat::unread(&db, bob.id).await.unwrap().get(&game).copied(),
            Some(2),
            "{name}: Bob has not read \"before\" nor \"later\"; \"after\" is not his to read"
        );
        assert!(blocks::blocked_by(&db, bob.id).await.unwrap().is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_mutes_and_suspensions() {
    for (name, db, _dir) in support::databases().await {
        let (ann, bob, eve) = (player(&db).await, player(&db).await, player(&db).await);
        accounts::make_admin(&db, &eve.name).await.unwrap();
        let admin = accounts::by_id(&db, eve.id).await.unwrap().unwrap();
        let game = challenged(&db, &ann, &bob).await;
        for text in ["one", "rude", "three"] {
            chat::send(&db, &game, &bob, text).await.unwrap();
        }
        let chat::Room::Open { lines, .. } = chat::room(&db, &game, ann.id).await.unwrap() else {
            panic!()
        };
        let rude = lines.iter().find(|l| l.body == "rude").unwrap().id;
        assert_eq!(
            refusal(moderation::report(&db, &ann, "", Some(rude), "  ").await),
            Refusal::Social(SocialProblem::ReasonNeeded)
        );
        // A message is reported by someone who could read it, and names its author.
        assert!(matches!(
            refusal(moderation::report(&db, &eve, "", Some(rude), "rude").await),
            Refusal::Invalid(_)
        ));
        moderation::report(&db, &ann, "", Some(rude), "rude words")
            .await
            .unwrap();
        let queue = moderation::queue(&db).await.unwrap();
        let report = queue.iter().find(|r| r.reported.0 == bob.id).unwrap();
        let context: Vec<&str> = report.context.iter().map(|l| l.body.as_str()).collect();
        assert_eq!(context, ["one", "rude", "three"], "{name}");

        // A mute: no chat; the report is closed; the log has it.
        let hour = store::db::now_ms() + 3_600_000;
        moderation::decide(
            &db,
            &admin,
            bob.id,
            Some(report.id),
            Verdict::Sanction(SanctionKind::Mute, Some(hour)),
            "rude",
        )
        .await
        .unwrap();
        assert_eq!(
            refusal(chat::send(&db, &game, &bob, "hi").await),
            Refusal::Social(SocialProblem::Muted(Some(hour)))
        );
        assert!(matches!(
            chat::room(&db, &game, bob.id).await.unwrap(),
            chat::Room::Open {
                silenced: Some(_),
                ..
            }
        ));
        assert!(moderation::queue(&db)
            .await
            .unwrap()
            .iter()
            .all(|r| r.id != report.id));
        // The same report is not decided twice.
        assert!(moderation::decide(
            &db,
            &admin,
            bob.id,
            Some(report.id),
            Verdict::Dismiss,
            "again"
        )
        .await
        .is_err());

        // A suspension: no new game, no seat, no chat; the running game goes on.
        moderation::decide(
            &db,
            &admin,
            bob.id,
            None,
            Verdict::Sanction(SanctionKind::Suspend, None),
            "again",
        )
        .await
        .unwrap();
        assert_eq!(
            refusal(
                seating::create(
                    &db,
                    &bob,
                    &new_game(Opponent::Bot {
                        level: "casual".into()
                    })
                )
                .await
            ),
            Refusal::Social(SocialProblem::Suspended(None))
        );
        let lobby = seating::create(&db, &ann, &new_game(Opponent::Lobby))
            .await
            .unwrap();
        assert_eq!(
            refusal(seating::join(&db, &bob, &lobby.id, None).await),
            Refusal::Social(SocialProblem::Suspended(None))
        );
        assert_eq!(games::row(&db, &game).await.unwrap().phase, Phase::Playing);

        // Lifted, both: Bob plays and chats again.
        for (_, sanction) in moderation::sanctioned(&db)
            .await
            .unwrap()
            .into_iter()
            .filter(|(n, _)| *n == bob.name)
        {
            moderation::lift(&db, &admin, sanction.id, "served")
                .await
                .unwrap();
        }
        chat::send(&db, &game, &bob, "sorry").await.unwrap();
        let history = moderation::history(&db, bob.id).await.unwrap();
        let actions: Vec<ModerationAction> = history.decisions.iter().map(|d| d.action).collect();
        use ModerationAction::{Lift, Mute, Suspend};
        assert_eq!(actions, [Lift, Lift, Suspend, Mute], "{name}");
        // A word the log does not know is an error, never read as some other action.
        sqlx::query("UPDATE moderation_log SET action = 'ban' WHERE user_id = $1")
            .bind(bob.id)
            .execute(&db.pool)
            .await
            .unwrap();
        assert!(moderation::history(&db, bob.id).await.is_err(), "{name}");
        let unlift = "UPDATE sanctions SET kind = 'ban', lifted_at = NULL, until = NULL
             WHERE user_id = $1";
        sqlx::query(unlift)
            .bind(bob.id)
            .execute(&db.pool)
            .await
            .unwrap();
        assert!(moderation::standing(&db, bob.id).await.is_err(), "{name}");
        // As it was, for the admin panels of other tests on this database.
        for restore in [
            "UPDATE sanctions SET kind = 'mute', lifted_at = 1 WHERE user_id = $1",
            "UPDATE moderation_log SET action = 'lift' WHERE user_id = $1",
        ] {
            sqlx::query(restore)
                .bind(bob.id)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        assert_eq!(history.reports, 1);
        assert!(history.standing.is_empty());
    }
}

/// Sends `count` requests of one player at once: what each answers.
async fn at_once<T, F>(count: usize, each: impl Fn(usize) -> F) -> Vec<Result<T, StoreError>>
where
    F: std::future::Future<Output = Result<T, StoreError>>,
{
    futures_util::future::join_all((0..count).map(each)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn caps_hold_under_requests_made_at_once() {
    for (name, db, _dir) in support::databases().await {
        let (ann, bob) = (player(&db).await, player(&db).await);
        let game = challenged(&db, &ann, &bob).await;
        // 50 messages at once: exactly the burst is kept, the rest told to slow down.
        let sent = at_once(50, |i| {
            let (db, game, ann) = (&db, &game, &ann);
            async move { chat::send(db, game, ann, &format!("hello {i}")).await }
        })
        .await;
        let kept = sent.iter().filter(|r| r.is_ok()).count();
        assert_eq!(kept as i64, CHAT_BURST, "{name}: {sent:?}");
        assert!(sent
            .into_iter()
            .filter(Result::is_err)
            .all(|r| refusal(r) == Refusal::Social(SocialProblem::TooFast)));
        let stored: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM chat_messages WHERE author = $1")
                .bind(ann.id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        assert_eq!(stored, CHAT_BURST, "{name}");

        // 300 reports at once: the cap is what waits for an admin.
        let other = player(&db).await;
        let filed = at_once(300, |_| {
            moderation::report(&db, &bob, &other.name, None, "spam")
        })
        .await;
        assert_eq!(
            filed.iter().filter(|r| r.is_ok()).count() as i64,
            moderation::MAX_OPEN_REPORTS,
            "{name}"
        );
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM player_reports WHERE reporter = $1 AND status = 'open'",
        )
        .bind(bob.id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(open, moderation::MAX_OPEN_REPORTS, "{name}");

        // 100 devices at once: notifications go to the cap's worth, no more.
        let key = |bytes: usize| "A".repeat((bytes * 4).div_ceil(3));
        let (p256dh, auth) = (key(65), key(16));
        let subscribed = at_once(100, |i| {
            let endpoint = format!("https://fcm.googleapis.com/fcm/send/device{i}");
            let (p256dh, auth, db) = (p256dh.clone(), auth.clone(), &db);
            async move { store::push::subscribe(db, ann.id, &endpoint, &p256dh, &auth, &[]).await }
        })
        .await;
        assert_eq!(
            subscribed.iter().filter(|r| r.is_ok()).count() as i64,
            store::push::MAX_DEVICES,
            "{name}: {:?}",
            subscribed.iter().find(|r| r.is_err())
        );
        let devices: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1")
                .bind(ann.id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        assert_eq!(devices, store::push::MAX_DEVICES, "{name}");
        // A device already subscribed may subscribe again at the cap (a new key, say).
        let known: String =
            sqlx::query_scalar("SELECT endpoint FROM push_subscriptions WHERE user_id = $1")
                .bind(ann.id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        store::push::subscribe(&db, ann.id, &known, &p256dh, &auth, &[])
            .await
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
}

#[test]
fn a_page_never_repeats_words_from_its_address() {
    support::browser::each_database(async |name, server| {
        let mut ann = support::browser::Browser::new(&server);
        ann.sign_up(&support::unique_name("addr")).await;
        let said = |refusal: serde_json::Value| {
            format!("/settings?refused={}", urlencoding(&refusal.to_string()))
        };
        // A sentence with a link, as an attacker would send someone: not shown, only "refused".
        let (status, page) = ann
            .get(&said(
                serde_json::json!({ "Invalid": "Your account is at risk: visit evil.example" }),
            ))
            .await;
        assert_eq!(status, 200, "{name}");
        assert!(!page.contains("evil.example"), "{name}");
        assert!(page.contains("That could not be done."), "{name}");
        let (_, page) = ann
            .get(&said(serde_json::json!({ "Social": { "NoSuchPlayer": "x <a href=//evil.example>y</a>" } })))
            .await;
        assert!(!page.contains("evil.example"), "{name}");
        // What the server itself sends back is said in full.
        let (_, page) = ann
            .get(&said(
                serde_json::json!({ "Social": { "NoSuchPlayer": "bob_1" } }),
            ))
            .await;
        assert!(page.contains("There is no player called bob_1"), "{name}");
    });
}

/// Percent-encodes `text` for an address's query.
fn urlencoding(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) => char::from(b).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}
