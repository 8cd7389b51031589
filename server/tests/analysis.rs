//! Analysis and export of a finished game, over HTTP on SQLite and Postgres: only finished games,
//! only the caller's own racks, the server's analysis equal to the engine's on those turns and
//! counted per player, and GCG/CGP downloads that say nothing of another player's rack.

mod support;

use support::browser::view_of;

use rules::{
    analysis::{Turn, TurnAnalysis},
    notation::{read_game, RecordedMove},
};
use serde_json::json;
use store::limits::ANALYSES_PER_HOUR;
use support::{
    a_play,
    browser::{each_database, friend_game_rated, ok, refusal, Browser},
    unique_name,
};

/// Plays `turns` turns, each by whoever is to move, with a legal play from their own view.
async fn play_turns(players: &mut [&mut Browser; 2], id: &str, turns: usize) {
    for _ in 0..turns {
        for player in players.iter_mut() {
            let page = player.page(id).await;
            if ok(&page)["card"]["my_turn"] == json!(true) {
                let view = view_of(&page);
                let answer = player
                    .act(id, u64::from(view.version), &a_play(&view))
                    .await;
                ok(&answer);
                break;
            }
        }
    }
}

/// `html` with what depends on the moment it was rendered taken out: the script nonce, and how
/// the parts of the page that were not ready when its top was sent came (inline, or after it in a
/// template with the script that moves it into place, its placeholder's markers left behind).
fn streamed_alike(html: &str) -> String {
    /// `text` without every piece from `start` through the next `end`.
    fn cut(text: &str, start: &str, end: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(start) {
            out.push_str(&rest[..at]);
            rest = &rest[at + start.len()..];
            rest = rest.find(end).map_or("", |e| &rest[e + end.len()..]);
        }
        out + rest
    }
    let html = cut(html, " nonce=\"", "\"");
    let html = cut(&html, "<script>(function() { let id = ", "</script>");
    let html = cut(&html, "<template id=", ">").replace("</template>", "");
    cut(&html, "<!--", "-->").replace("<!>", "")
}

#[test]
fn a_finished_game_is_analysed_and_exported_from_its_readers_own_racks_only() {
    each_database(async |db_name, server| {
        let (mut ann, mut bob, mut carol) = (
            Browser::new(&server),
            Browser::new(&server),
            Browser::new(&server),
        );
        let ann_name = unique_name("ann");
        ann.sign_up(&ann_name).await;
        bob.sign_up(&unique_name("bob")).await;
        carol.sign_up(&unique_name("carol")).await;
        let id = friend_game_rated(&mut ann, &mut bob, false).await;
        play_turns(&mut [&mut ann, &mut bob], &id, 6).await;

        // Before the end: nothing to analyse or download.
        let early = ann.call("/api/analysis/turns", json!({ "id": id })).await;
        assert_eq!(refusal(&early), &json!("NotOver"), "{db_name}");
        assert_eq!(ann.get(&format!("/game/{id}/gcg")).await.0, 404);
        // Regression: a stranger was told "not over" of a game under way and "no such game" of
        // a made-up id, which told them which games exist. Both are no game to them now, and
        // the game page, 404 either way, is the same page.
        let made_up = "0123456789abcdef0123456789abcdef";
        for path in ["/api/analysis/turns", "/api/analysis/run"] {
            for game in [id.as_str(), made_up] {
                let answer = carol.call(path, json!({ "id": game })).await;
                assert_eq!(refusal(&answer), &json!("NoSuchGame"), "{db_name}: {path}");
            }
        }
        let (mut dave, mut erin) = (Browser::new(&server), Browser::new(&server));
        dave.sign_up(&unique_name("dave")).await;
        erin.sign_up(&unique_name("erin")).await;
        let (real, real_page) = dave.get(&format!("/game/{id}")).await;
        let (fake, fake_page) = erin.get(&format!("/game/{made_up}")).await;
        assert_eq!((real, fake), (404, 404), "{db_name}");
        assert_eq!(
            streamed_alike(&real_page).len(),
            streamed_alike(&fake_page).len(),
            "{db_name}: a stranger's page of a real game is as long as of a made-up one"
        );

        let resigned = ann.call("/api/games/resign", json!({ "id": id })).await;
        ok(&resigned);
        let view = view_of(&ann.page(&id).await);
        let ann_seat = view.seat;

        // Someone else's game is no game at all to them.
        let forged = carol.call("/api/analysis/turns", json!({ "id": id })).await;
        assert_eq!(refusal(&forged), &json!("NoSuchGame"), "{db_name}");
        let forged = carol.call("/api/analysis/run", json!({ "id": id })).await;
        assert_eq!(refusal(&forged), &json!("NoSuchGame"), "{db_name}");

        // Ann's turns: hers alone, each with a rack that holds what she played.
        let input = ann.call("/api/analysis/turns", json!({ "id": id })).await;
        let turns: Vec<Turn> = serde_json::from_value(ok(&input)["turns"].clone()).unwrap();
        let hers = view
            .history
            .iter()
            .filter(|r| {
                r.seat == ann_seat
                    && matches!(
                        RecordedMove::of(&r.event),
                        RecordedMove::Place(_) | RecordedMove::Pass
                    )
            })
            .count();
        assert_eq!(turns.len(), hers, "{db_name}: {turns:?}");
        assert!(turns.len() >= 3);
        assert!(turns.iter().all(|t| t.seat == ann_seat));
        for turn in &turns {
            assert_eq!(turn.rack.len(), 7, "a full rack early in the game");
        }

        // The server's analysis is the engine's on those very turns.
        let analysed = ann.call("/api/analysis/run", json!({ "id": id })).await;
        let analysed: Vec<TurnAnalysis> = serde_json::from_value(ok(&analysed).clone()).unwrap();
        let rules = view.rules();
        let mut analyser = engine::analysis::Analyser::new(support::load::trie(), &rules);
        let expected: Vec<TurnAnalysis> = turns.iter().map(|t| analyser.turn(t)).collect();
        assert_eq!(analysed, expected, "{db_name}");
        assert!(analysed
            .iter()
            .all(|t| !t.best.is_empty() && t.best.len() <= 5));

        // The game record: every turn, Ann's racks in full, Bob's only as he played them.
        let (status, gcg) = ann.get(&format!("/game/{id}/gcg")).await;
        assert_eq!(status, 200, "{gcg}");
        let read = read_game(&gcg, rules.tiles).unwrap();
        assert_eq!(read.len(), view.history.len(), "{gcg}");
        for (line, record) in gcg
            .lines()
            .filter(|l| l.starts_with(">p"))
            .zip(&view.history)
        {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let RecordedMove::Place(placed) = RecordedMove::of(&record.event) {
                let rack = fields[1];
                if record.seat == ann_seat {
                    assert_eq!(rack.chars().count(), 7, "{line}");
                } else {
                    assert_eq!(rack.chars().count(), placed.len(), "{line}");
                }
            }
        }
        // A visitor gets the record with no rack beyond the plays.
        let mut visitor = Browser::new(&server);
        let (status, public) = visitor.get(&format!("/game/{id}/gcg")).await;
        assert_eq!(status, 200);
        assert_ne!(public, gcg, "the visitor sees fewer racks");
        assert_eq!(read_game(&public, rules.tiles).unwrap(), read);

        // A position: the board after turn 2, with the rack of the player to move only for them.
        let (status, cgp) = visitor.get(&format!("/game/{id}/turn/2/cgp")).await;
        assert_eq!(status, 200, "{cgp}");
        let position = rules::notation::Position::parse(cgp.trim(), &rules).unwrap();
        assert!(position.racks.iter().all(Vec::is_empty), "{cgp}");
        let to_move_after_2 = view.history[2].seat;
        let mover = if to_move_after_2 == ann_seat {
            &mut ann
        } else {
            &mut bob
        };
        let (_, own) = mover.get(&format!("/game/{id}/turn/2/cgp")).await;
        let position = rules::notation::Position::parse(own.trim(), &rules).unwrap();
        assert_eq!(position.racks[0].len(), 7, "{own}");
        assert_eq!(visitor.get(&format!("/game/{id}/turn/99/cgp")).await.0, 404);
        assert_eq!(visitor.get(&format!("/game/{id}/turn/x/cgp")).await.0, 404);
        assert_eq!(visitor.get("/game/nosuchgame/gcg").await.0, 404);

        // The server analyses a few games an hour per player; then it says when to come back.
        for _ in 1..ANALYSES_PER_HOUR {
            ok(&ann.call("/api/analysis/run", json!({ "id": id })).await);
        }
        let limited = ann.call("/api/analysis/run", json!({ "id": id })).await;
        assert!(
            refusal(&limited)["AnalysesUsedUp"]["minutes"]
                .as_u64()
                .unwrap()
                >= 59,
            "{limited}"
        );
        // The browser's analysis is not counted.
        ok(&ann.call("/api/analysis/turns", json!({ "id": id })).await);
    });
}
