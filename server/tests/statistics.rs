//! Statistics through the real commit path: a league's games played to their ends by bots (one
//! lost on time), then every player's statistics, profile totals and standing among players
//! near their rank equal a recount from the games' logs.

mod support;

use std::collections::HashMap;

use dictionaries::DictionaryId;
use rules::{game::TurnEvent, Status, Variant};
use store::{
    accounts::User,
    clocks,
    db::{self, Database},
    games, leagues, profiles,
    statistics::{self, Totals, PEER_GAMES, RANK_BAND},
    Services,
};

/// A line of statistics recounted by hand from finished games' logs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Recount {
    games: i64,
    wins: i64,
    draws: i64,
    points: i64,
    opponent_points: i64,
    bingos: i64,
    exchanges: i64,
    timeouts: i64,
    best_play: i64,
    best_game: Option<i64>,
    analysed_turns: i64,
    missed: i64,
}

impl Recount {
    fn of(totals: &Totals) -> Recount {
        Recount {
            games: totals.games,
            wins: totals.wins,
            draws: totals.draws,
            points: totals.points,
            opponent_points: totals.opponent_points,
            bingos: totals.bingos,
            exchanges: totals.exchanges,
            timeouts: totals.timeouts,
            best_play: totals.best_play,
            best_game: Some(totals.best_game),
            analysed_turns: totals.analysed_turns,
            missed: totals.missed,
        }
    }
}

/// Recounts seat `seat`'s part of a finished game from its history, not from the results' facts.
fn recount(line: &mut Recount, state: &rules::GameState, seat: usize) {
    let Status::Over(outcome) = state.status() else {
        panic!("not over");
    };
    let score = i64::from(outcome.final_scores[seat]);
    let other = i64::from(outcome.final_scores[1 - seat]);
    line.games += 1;
    line.wins += i64::from(outcome.winners.len() == 1 && usize::from(outcome.winners[0]) == seat);
    line.draws += i64::from(outcome.winners.len() > 1);
    line.points += score;
    line.opponent_points += other;
    line.best_game = Some(line.best_game.map_or(score, |best| best.max(score)));
    line.timeouts += i64::from(matches!(
        outcome.reason,
        rules::game::EndReason::TimedOut(s) | rules::game::EndReason::Strikes(s) if usize::from(s) == seat
    ));
    let history = state.history();
    for (index, turn) in history.iter().enumerate() {
        if usize::from(turn.seat) != seat {
            continue;
        }
        match &turn.event {
            TurnEvent::Exchange { .. } => line.exchanges += 1,
            TurnEvent::Play { bonuses, total, .. } => {
                let withdrawn = matches!(
                    history.get(index + 1).map(|t| &t.event),
                    Some(TurnEvent::Challenge {
                        withdrawn: true,
                        ..
                    })
                );
                if !withdrawn {
                    line.bingos += i64::from(
                        bonuses
                            .iter()
                            .any(|b| matches!(b, rules::play::Bonus::Bingo(_))),
                    );
                    line.best_play = line.best_play.max(i64::from(*total));
                }
            }
            _ => {}
        }
    }
}

/// A league of `count` players whose round robin has begun: its games' ids.
async fn league_games(db: &Database, players: &[User]) -> Vec<String> {
    let league = leagues::create(
        db,
        &support::unique_name("stats"),
        Variant::Classic,
        DictionaryId::English,
        db::now_ms() + 60_000,
    )
    .await
    .unwrap();
    let season: String = sqlx::query_scalar("SELECT id FROM league_seasons WHERE league_id = $1")
        .bind(&league)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    for player in players {
        leagues::register(db, &season, player).await.unwrap();
    }
    sqlx::query("UPDATE league_seasons SET starts_at = $2 WHERE id = $1")
        .bind(&season)
        .bind(db::now_ms() - 1)
        .execute(&db.pool)
        .await
        .unwrap();
    leagues::advance(db).await.unwrap();
    sqlx::query_scalar("SELECT game_id FROM league_games WHERE season_id = $1 ORDER BY game_id")
        .bind(&season)
        .fetch_all(&db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn statistics_equal_a_recount_from_the_logs_and_compare_players_near_the_rank() {
    for (name, db, _dir) in support::own_databases().await {
        let services = Services::new(db.clone(), support::library(&db).await);
        let mut players = Vec::new();
        for _ in 0..6 {
            players.push(support::player(&db).await);
        }
        let ids = league_games(&db, &players).await;
        assert_eq!(ids.len(), 30, "{name}: every pair twice");
        // The first game is lost on time; the rest are played to their ends.
        sqlx::query("UPDATE games SET deadline_at = $2 WHERE id = $1")
            .bind(&ids[0])
            .bind(db::now_ms() - 1)
            .execute(&db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE league_entries SET bank_days = 0")
            .execute(&db.pool)
            .await
            .unwrap();
        assert_eq!(
            clocks::expire_due(&services).await.unwrap().len(),
            1,
            "{name}"
        );
        let lexicon = support::load::lexicon();
        let mut expected: HashMap<i64, Recount> = HashMap::new();
        for id in &ids {
            let state = match id == &ids[0] {
                true => games::load(&db, id, lexicon).await.unwrap(),
                false => support::play_out(&db, id).await,
            };
            for (seat, user) in support::seated(&db, id).await.iter().enumerate() {
                recount(expected.entry(*user).or_default(), &state, seat);
            }
        }
        assert_eq!(
            expected.values().map(|l| l.timeouts).sum::<i64>(),
            1,
            "{name}: one lost on time"
        );
        // The engine looks at every game's turns in the background, a few a round, once.
        let mut rounds = 0;
        while server::workers::move_values::step(&services, &services.tries)
            .await
            .unwrap()
            > 0
        {
            rounds += 1;
        }
        assert_eq!(rounds, 30_usize.div_ceil(4), "{name}");
        let rules = rules::RuleSet::new(Variant::Classic);
        let trie = engine::trie::Trie::new(lexicon.words().iter().map(String::as_str), rules.tiles);
        let mut analyser = engine::analysis::Analyser::new(&trie, &rules);
        for id in &ids {
            let config = games::row(&db, id).await.unwrap().config;
            let actions = games::logs(&db, &[id.as_str()])
                .await
                .unwrap()
                .remove(id)
                .unwrap();
            for (seat, user) in support::seated(&db, id).await.iter().enumerate() {
                let turns =
                    rules::analysis::turns_of(config.clone(), &actions, &[seat as u8], lexicon)
                        .unwrap();
                let line = expected.get_mut(user).unwrap();
                line.analysed_turns += turns.len() as i64;
                line.missed += turns
                    .iter()
                    .map(|t| i64::from(analyser.turn(t).missed))
                    .sum::<i64>();
            }
        }
        assert!(
            expected.values().all(|l| l.analysed_turns > 0),
            "{name}: every player's turns looked at"
        );
        // Two groups of three, far apart: each player is compared with the other two of theirs.
        for (i, player) in players.iter().enumerate() {
            sqlx::query("UPDATE ranks SET rank = $3 WHERE user_id = $1 AND dictionary = $2")
                .bind(player.id)
                .bind("en")
                .bind(if i < 3 {
                    1150 + 20 * i as i64
                } else {
                    1600 + 20 * i as i64
                })
                .execute(&db.pool)
                .await
                .unwrap();
        }
        let ranks: HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(
            "SELECT user_id, rank FROM ranks WHERE dictionary = 'en'",
        )
        .fetch_all(&db.pool)
        .await
        .unwrap()
        .into_iter()
        .collect();
        for player in &players {
            let lines = statistics::of(&db, player.id).await.unwrap();
            assert_eq!(lines.len(), 1, "{name}: one ruleset and dictionary");
            let line = &lines[0];
            assert_eq!(
                (
                    line.totals.ruleset.as_str(),
                    line.totals.dictionary.as_str()
                ),
                ("classic", "en"),
                "{name}"
            );
            let want = &expected[&player.id];
            assert_eq!(Recount::of(&line.totals), *want, "{name}: {}", player.name);
            // The profile's totals are the same sums.
            let profile = profiles::of(&db, &player.name).await.unwrap().unwrap();
            assert_eq!(i64::from(profile.totals.played), want.games, "{name}");
            assert_eq!(i64::from(profile.totals.won), want.wins, "{name}");
            assert_eq!(profile.totals.points, want.points, "{name}");
            assert_eq!(i64::from(profile.totals.bingos), want.bingos, "{name}");
            // All ended this month: one point, its average the line's.
            assert_eq!(line.months.len(), 1, "{name}");
            assert_eq!(i64::from(line.months[0].games), want.games, "{name}");
            assert_eq!(
                f64::from(line.months[0].average_score),
                (want.points as f64 / want.games as f64).round(),
                "{name}"
            );
            // Compared with the others ranked near, each with ten games here.
            let rank = ranks[&player.id];
            let near: Vec<i64> = players
                .iter()
                .filter(|p| p.id != player.id && (ranks[&p.id] - rank).abs() <= RANK_BAND)
                .map(|p| p.id)
                .collect();
            assert!(expected[&player.id].games >= PEER_GAMES, "{name}");
            assert_eq!(near.len(), 2, "{name}");
            match &line.standing {
                None => panic!("{name}: no standing"),
                Some(standing) => {
                    assert_eq!(standing.players as usize, near.len(), "{name}");
                    assert_eq!(standing.rank, rank, "{name}");
                    let share = |figure: fn(&Recount) -> f64| {
                        let own = figure(want);
                        let twice: usize = near
                            .iter()
                            .map(|id| {
                                let theirs = figure(&expected[id]);
                                if theirs < own {
                                    2
                                } else if theirs == own {
                                    1
                                } else {
                                    0
                                }
                            })
                            .sum();
                        (50 * twice / near.len()) as u8
                    };
                    let average = |r: &Recount| r.points as f64 / r.games as f64;
                    assert_eq!(standing.average_score, share(average), "{name}");
                    let rate = |r: &Recount| (2 * r.wins + r.draws) as f64 / r.games as f64;
                    assert_eq!(standing.win_rate, share(rate), "{name}");
                    // Fewer points missed is ahead: the share ahead of the negated figure.
                    let missed = |r: &Recount| -(r.missed as f64 / r.analysed_turns as f64);
                    assert_eq!(standing.missed_per_turn, Some(share(missed)), "{name}");
                }
            }
        }
        // Recording a game's results again adds nothing.
        let state = games::load(&db, &ids[1], lexicon).await.unwrap();
        let mut conn = db.pool.acquire().await.unwrap();
        let seats = games::ended_seats(&mut conn, &ids[1]).await.unwrap();
        store::results::record(&mut conn, &ids[1], &seats, &state, db::now_ms())
            .await
            .unwrap();
        drop(conn);
        statistics::record_move_values(
            &db,
            &ids[1],
            &[statistics::MoveValues {
                user: players[0].id,
                turns: 5,
                missed: 50,
            }],
        )
        .await
        .unwrap();
        let again = statistics::of(&db, players[0].id).await.unwrap();
        assert_eq!(
            Recount::of(&again[0].totals),
            expected[&players[0].id],
            "{name}: counted once, looked at once"
        );
    }
}

#[tokio::test]
async fn a_guest_signing_in_brings_their_statistics_to_the_account() {
    for (name, db, _dir) in support::own_databases().await {
        let guest = store::accounts::create_guest(&db).await.unwrap();
        let user = support::player(&db).await;
        let line =
            "INSERT INTO player_statistics (user_id, ruleset, dictionary, games, wins, draws,
                        points, opponent_points, bingos, exchanges, timeouts, best_play, best_game,
                        analysed_turns, missed)
                    VALUES ($1, $2, 'en', $3, 1, 0, $4, 300, 2, 1, 0, $5, $6, 10, 40)";
        for (who, ruleset, games, points, best_play, best_game) in [
            (guest.id, "classic", 2, 700, 90, 400),
            (guest.id, "feud", 1, 350, 40, 350),
            (user.id, "classic", 3, 1000, 60, 450),
        ] {
            sqlx::query(line)
                .bind(who)
                .bind(ruleset)
                .bind(games)
                .bind(points)
                .bind(best_play)
                .bind(best_game)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        store::accounts::adopt_guest(&db, &guest, &user)
            .await
            .unwrap();
        let lines = statistics::of(&db, user.id).await.unwrap();
        let summed: Vec<(String, i64, i64, i64, i64, i64, i64)> = lines
            .iter()
            .map(|l| {
                let t = &l.totals;
                (
                    t.ruleset.clone(),
                    t.games,
                    t.points,
                    t.best_play,
                    t.best_game,
                    t.analysed_turns,
                    t.missed,
                )
            })
            .collect();
        assert_eq!(
            summed,
            vec![
                ("classic".into(), 5, 1700, 90, 450, 20, 80),
                ("feud".into(), 1, 350, 40, 350, 10, 40),
            ],
            "{name}"
        );
        let left: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM player_statistics WHERE user_id = $1")
                .bind(guest.id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        assert_eq!(left, 0, "{name}: the guest is gone");
    }
}
