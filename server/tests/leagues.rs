//! Leagues through the real commit path: a season from registration to promotion, its
//! standings equal to a recount from the games, and the next season's divisions made by it.

mod support;

use std::collections::HashMap;

use dictionaries::DictionaryId;
use rules::{game::EndReason, Status, Variant};
use store::{
    accounts::User,
    clocks, db,
    leagues::{self, Movement, Standing},
    Services,
};

/// What a player's standing line should say, recounted from their finished games.
#[derive(Debug, Default, PartialEq, Eq)]
struct Recount {
    played: i64,
    wins: i64,
    draws: i64,
    losses: i64,
    spread: i64,
    high_game: i64,
    time_outs: i64,
}

impl Recount {
    fn of(standing: &Standing) -> Recount {
        Recount {
            played: standing.played,
            wins: standing.wins,
            draws: standing.draws,
            losses: standing.losses,
            spread: standing.spread,
            high_game: standing.high_game,
            time_outs: standing.time_outs,
        }
    }
}

#[tokio::test]
async fn a_season_of_three_divisions_runs_from_registration_to_promotion() {
    assert_eq!(leagues::division_count(30), 3);
    assert_eq!(leagues::division_count(16), 1);
    assert_eq!(leagues::division_count(17), 2);
    assert_eq!(leagues::division_count(5), 1);
    for (name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let league = leagues::create(
            &db,
            "Classic Casual",
            Variant::Classic,
            DictionaryId::English,
            db::now_ms() + 60_000,
        )
        .await
        .unwrap();
        let season: String =
            sqlx::query_scalar("SELECT id FROM league_seasons WHERE league_id = $1")
                .bind(&league)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        let mut players: Vec<User> = Vec::new();
        for _ in 0..30 {
            let player = support::player(&db).await;
            leagues::register(&db, &season, &player).await.unwrap();
            players.push(player);
        }
        // Twice is once; a guest cannot; nothing starts before registration closes.
        leagues::register(&db, &season, &players[0]).await.unwrap();
        assert_eq!(
            leagues::standings(&db, &season).await.unwrap().len(),
            30,
            "{name}"
        );
        assert_eq!(leagues::advance(&db).await.unwrap(), 0, "{name}");
        sqlx::query("UPDATE league_seasons SET starts_at = $2 WHERE id = $1")
            .bind(&season)
            .bind(db::now_ms() - 1)
            .execute(&db.pool)
            .await
            .unwrap();
        assert_eq!(leagues::advance(&db).await.unwrap(), 1, "{name}");
        let late = support::player(&db).await;
        assert!(
            leagues::register(&db, &season, &late).await.is_err(),
            "{name}: begun"
        );
        let ids: Vec<String> =
            sqlx::query_scalar("SELECT game_id FROM league_games WHERE season_id = $1")
                .bind(&season)
                .fetch_all(&db.pool)
                .await
                .unwrap();
        assert_eq!(
            ids.len(),
            3 * 10 * 9,
            "{name}: every pair twice, in each of 3 divisions"
        );
        let start = leagues::standings(&db, &season).await.unwrap();
        let division_of: HashMap<i64, i64> = start
            .iter()
            .map(|s| (s.user_id, s.division.unwrap()))
            .collect();
        for division in 1..=3 {
            assert_eq!(
                division_of.values().filter(|d| **d == division).count(),
                10,
                "{name}"
            );
        }

        let mine = leagues::games_of(&db, &season, players[0].id)
            .await
            .unwrap();
        assert_eq!(mine.len(), 18, "{name}: a player's games");
        assert!(mine.iter().all(|g| !g.over), "{name}");
        // One game of each pair each to start, whatever the ruleset's draw would say.
        assert_eq!(mine.iter().filter(|g| g.my_turn).count(), 9, "{name}");
        // One player stops playing in their first game: their time bank gives the turn a day
        // three times (one day each look, however many look), then they lose it on the clock.
        let abandoned = &ids[0];
        let idle: i64 = sqlx::query_scalar(
            "SELECT s.user_id FROM game_seats s JOIN games g ON g.id = s.game_id AND s.seat = g.to_move
             WHERE g.id = $1",
        )
        .bind(abandoned)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        let overdue = async || {
            sqlx::query("UPDATE games SET deadline_at = $2 WHERE id = $1")
                .bind(abandoned)
                .bind(db::now_ms() - 1)
                .execute(&db.pool)
                .await
                .unwrap();
        };
        for left in (0..3).rev() {
            overdue().await;
            let before: i64 = sqlx::query_scalar("SELECT deadline_at FROM games WHERE id = $1")
                .bind(abandoned)
                .fetch_one(&db.pool)
                .await
                .unwrap();
            assert_eq!(
                leagues::draw_banks(&db).await.unwrap(),
                std::slice::from_ref(abandoned),
                "{name}"
            );
            assert!(
                leagues::draw_banks(&db).await.unwrap().is_empty(),
                "{name}: once"
            );
            let after: i64 = sqlx::query_scalar("SELECT deadline_at FROM games WHERE id = $1")
                .bind(abandoned)
                .fetch_one(&db.pool)
                .await
                .unwrap();
            assert_eq!(after - before, 86_400_000, "{name}: a day more");
            assert_eq!(
                leagues::bank_days(&db, &season, idle).await.unwrap(),
                left,
                "{name}"
            );
            assert!(
                clocks::expire_due(&services).await.unwrap().is_empty(),
                "{name}"
            );
        }
        overdue().await;
        assert!(
            leagues::draw_banks(&db).await.unwrap().is_empty(),
            "{name}: spent"
        );
        assert_eq!(
            clocks::expire_due(&services).await.unwrap().len(),
            1,
            "{name}"
        );
        // Every other game is played to its end by bots, through the ordinary commit.
        let mut recount: HashMap<i64, Recount> = HashMap::new();
        for id in &ids {
            let seats = support::seated(&db, id).await;
            assert_eq!(
                division_of[&seats[0]], division_of[&seats[1]],
                "{name}: within a division"
            );
            let state = support::play_out(&db, id).await;
            let Status::Over(outcome) = state.status() else {
                panic!("{name}: game {id} did not end");
            };
            for (seat, user) in seats.iter().enumerate() {
                let facts = store::results::facts(&state, seat as u8).unwrap();
                let line = recount.entry(*user).or_default();
                line.played += 1;
                line.wins += i64::from(facts.result == "win");
                line.draws += i64::from(facts.result == "draw");
                line.losses += i64::from(facts.result == "loss");
                line.spread += i64::from(facts.score - facts.opponent_score);
                line.high_game = line.high_game.max(i64::from(facts.score));
                line.time_outs += i64::from(
                    matches!(outcome.reason, EndReason::TimedOut(s) if usize::from(s) == seat),
                );
            }
            if id != abandoned {
                // Not finished before every game is over.
                let last = ids.last() == Some(id);
                assert_eq!(
                    leagues::finish(&db, &season).await.unwrap().is_some(),
                    last,
                    "{name}"
                );
            }
        }
        let end = leagues::standings(&db, &season).await.unwrap();
        let mine = leagues::games_of(&db, &season, players[0].id)
            .await
            .unwrap();
        assert!(mine.iter().all(|g| g.over && !g.my_turn), "{name}");
        for line in &end {
            assert_eq!(
                Recount::of(line),
                recount[&line.user_id],
                "{name}: {}",
                line.name
            );
            assert_eq!(line.played, 18, "{name}");
        }
        assert_eq!(end.iter().map(|l| l.time_outs).sum::<i64>(), 1, "{name}");
        // Each division in order of wins then spread; the top two of 2 and 3 go up, the bottom
        // two of 1 and 2 go down.
        for division in 1..=3 {
            let lines: Vec<&Standing> = end
                .iter()
                .filter(|l| l.division == Some(division))
                .collect();
            let places: Vec<i64> = lines.iter().map(|l| l.place.unwrap()).collect();
            assert_eq!(places, (1..=10).collect::<Vec<_>>(), "{name}");
            for pair in lines.windows(2) {
                let key = |l: &Standing| (2 * l.wins + l.draws, l.spread);
                assert!(key(pair[0]) >= key(pair[1]), "{name}: {pair:?}");
            }
            let moves: Vec<Movement> = lines.iter().map(|l| l.movement.unwrap()).collect();
            let up = if division > 1 { 2 } else { 0 };
            let down = if division < 3 { 2 } else { 0 };
            let expected: Vec<Movement> = (0..10)
                .map(|i| match i {
                    i if i < up => Movement::Up,
                    i if i >= 10 - down => Movement::Down,
                    _ => Movement::Stay,
                })
                .collect();
            assert_eq!(moves, expected, "{name}: division {division}");
        }

        // The next season is open; its divisions follow the movements.
        let next: String = sqlx::query_scalar(
            "SELECT id FROM league_seasons WHERE league_id = $1 AND number = 2 AND status = 'registration'",
        )
        .bind(&league)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        for player in &players {
            leagues::register(&db, &next, player).await.unwrap();
        }
        leagues::start(&db, &next).await.unwrap();
        let after = leagues::standings(&db, &next).await.unwrap();
        for line in &end {
            let sent = line.division.unwrap()
                + match line.movement {
                    Some(Movement::Up) => -1,
                    Some(Movement::Down) => 1,
                    _ => 0,
                };
            let now = after.iter().find(|l| l.user_id == line.user_id).unwrap();
            assert_eq!(now.division, Some(sent), "{name}: {}", line.name);
        }
    }
}
