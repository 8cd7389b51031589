//! Tournaments through the real commit path, on both databases: a Swiss of nine over four rounds
//! (check-in, no repeated pairing, one bye a round, standings by wins then spread equal to a
//! recount), and a round robin with a withdrawal.

mod support;

use std::collections::{HashMap, HashSet};

use dictionaries::DictionaryId;
use rules::{game::Format, Status, Variant};
use store::{
    accounts::{self, User},
    db::{self, Database},
    tournaments::{self, NewTournament, Pairing, TournamentStatus},
};

fn new(pairing: Pairing, rounds: i64, private: bool, starts_at: i64) -> NewTournament {
    NewTournament {
        name: "Friday Blitz".into(),
        variant: Variant::Classic,
        dictionary: DictionaryId::English,
        format: Format::Blitz,
        pairing,
        rounds,
        private,
        starts_at,
    }
}

/// Sets when tournament `id` starts.
async fn starts_at(db: &Database, id: &str, at: i64) {
    sqlx::query("UPDATE tournaments SET starts_at = $2 WHERE id = $1")
        .bind(id)
        .bind(at)
        .execute(&db.pool)
        .await
        .unwrap();
}

/// Ends the break before the next round and lets the tournament move on.
async fn next_round(db: &Database, id: &str) {
    // The sweep times the break once the round's games are over ...
    tournaments::advance(db).await.unwrap();
    let break_at: Option<i64> =
        sqlx::query_scalar("SELECT next_round_at FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert!(break_at.is_some(), "the round's break is timed");
    // ... and the next round begins when it is over.
    sqlx::query("UPDATE tournaments SET next_round_at = $2 WHERE id = $1")
        .bind(id)
        .bind(db::now_ms() - 1)
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(tournaments::advance(db).await.unwrap(), 1);
}

/// Round `round`'s pairings: (home, away).
async fn round_of(db: &Database, id: &str, round: i64) -> Vec<(i64, Option<i64>, Option<String>)> {
    sqlx::query_as(
        "SELECT home, away, game_id FROM tournament_pairings
         WHERE tournament_id = $1 AND round = $2",
    )
    .bind(id)
    .bind(round)
    .fetch_all(&db.pool)
    .await
    .unwrap()
}

/// Won, drawn, lost and spread, recounted from the games and byes.
#[derive(Debug, Default, PartialEq, Eq)]
struct Line {
    wins: i64,
    draws: i64,
    losses: i64,
    spread: i64,
}

/// Plays round `round`'s games to their end; the recount gains them and the byes.
async fn play_round(
    db: &Database,
    id: &str,
    round: i64,
    lines: &mut HashMap<i64, Line>,
) -> Vec<(i64, Option<i64>, Option<String>)> {
    let pairs = round_of(db, id, round).await;
    for (home, away, game) in &pairs {
        let Some(game) = game else {
            let line = lines.entry(*home).or_default();
            line.wins += 1;
            line.spread += tournaments::BYE_SPREAD;
            continue;
        };
        // The pairing's first player starts, whatever the ruleset's draw would say.
        let seats: Vec<i64> =
            sqlx::query_scalar("SELECT user_id FROM game_seats WHERE game_id = $1 ORDER BY seat")
                .bind(game)
                .fetch_all(&db.pool)
                .await
                .unwrap();
        let to_move: i64 = sqlx::query_scalar("SELECT to_move FROM games WHERE id = $1")
            .bind(game)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(seats[to_move as usize], *home);
        assert!(seats.contains(&away.unwrap()));
        let state = support::play_out(db, game).await;
        assert!(matches!(state.status(), Status::Over(_)));
        for (seat, user) in seats.into_iter().enumerate() {
            let facts = store::results::facts(&state, seat as u8).unwrap();
            let line = lines.entry(user).or_default();
            line.wins += i64::from(facts.result == "win");
            line.draws += i64::from(facts.result == "draw");
            line.losses += i64::from(facts.result == "loss");
            line.spread += i64::from(facts.score - facts.opponent_score);
        }
    }
    pairs
}

#[tokio::test]
async fn a_swiss_of_nine_plays_four_rounds_without_repeats() {
    for (name, db, _dir) in support::own_databases().await {
        let maker = support::player(&db).await;
        // Only an admin makes a public tournament; anyone a private one.
        let later = db::now_ms() + 2 * 3_600_000;
        assert!(
            tournaments::create(&db, new(Pairing::Swiss, 4, false, later), &maker)
                .await
                .is_err(),
            "{name}"
        );
        assert!(
            tournaments::create(&db, new(Pairing::Swiss, 12, true, later), &maker)
                .await
                .is_err(),
            "{name}: too many rounds"
        );
        let id = tournaments::create(&db, new(Pairing::Swiss, 4, true, later), &maker)
            .await
            .unwrap();
        let guest = accounts::create_guest(&db).await.unwrap();
        assert!(
            tournaments::enter(&db, &id, &guest).await.is_err(),
            "{name}"
        );
        let mut players: Vec<User> = Vec::new();
        for _ in 0..10 {
            let player = support::player(&db).await;
            tournaments::enter(&db, &id, &player).await.unwrap();
            players.push(player);
        }
        // Check-in opens half an hour before the start; the tenth player never checks in.
        assert!(
            tournaments::check_in(&db, &id, players[0].id)
                .await
                .is_err(),
            "{name}: too early"
        );
        starts_at(&db, &id, db::now_ms() + 10 * 60_000).await;
        for player in &players[..9] {
            tournaments::check_in(&db, &id, player.id).await.unwrap();
        }
        assert_eq!(tournaments::advance(&db).await.unwrap(), 0, "{name}");
        starts_at(&db, &id, db::now_ms() - 1).await;
        assert_eq!(tournaments::advance(&db).await.unwrap(), 1, "{name}");
        // A second look (another instance's) moves nothing.
        assert_eq!(tournaments::advance(&db).await.unwrap(), 0, "{name}");
        let standings = tournaments::standings(&db, &id).await.unwrap();
        assert_eq!(standings.len(), 9, "{name}: the unchecked are dropped");
        assert!(standings.iter().all(|s| s.user_id != players[9].id));

        let mut met: HashSet<(i64, i64)> = HashSet::new();
        let mut byes: HashSet<i64> = HashSet::new();
        let mut lines: HashMap<i64, Line> = HashMap::new();
        for round in 1..=4 {
            let before = tournaments::standings(&db, &id).await.unwrap();
            let pairs = play_round(&db, &id, round, &mut lines).await;
            assert_eq!(
                pairs.len(),
                5,
                "{name}: four games and a bye in round {round}"
            );
            let mut seen = HashSet::new();
            for (home, away, _) in &pairs {
                assert!(seen.insert(*home), "{name}: {home} twice in round {round}");
                match away {
                    Some(away) => {
                        assert!(seen.insert(*away));
                        let pair = (*home.min(away), *home.max(away));
                        assert!(met.insert(pair), "{name}: {pair:?} again in round {round}");
                    }
                    None => {
                        assert!(byes.insert(*home), "{name}: a second bye for {home}");
                        // The bye goes to the lowest placed who had none: no one placed
                        // strictly lower is without one.
                        let key = |s: &tournaments::Standing| (2 * s.wins + s.draws, s.spread);
                        // (Its own bye is in their line already.)
                        let (points, spread) =
                            key(before.iter().find(|s| s.user_id == *home).unwrap());
                        let mine = (points - 2, spread - tournaments::BYE_SPREAD);
                        let lower_without = before
                            .iter()
                            .filter(|s| key(s) < mine && !byes.contains(&s.user_id))
                            .count();
                        assert_eq!(lower_without, 0, "{name}: round {round}'s bye");
                    }
                }
            }
            assert_eq!(seen.len(), 9, "{name}");
            next_round(&db, &id).await;
        }
        let this = tournaments::tournament(&db, &id).await.unwrap();
        assert_eq!(this.status, TournamentStatus::Over, "{name}");
        assert_eq!(this.round, 4, "{name}");
        // The standings are the recount, ordered by wins (a draw half) then spread.
        let standings = tournaments::standings(&db, &id).await.unwrap();
        for s in &standings {
            let line = Line {
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                spread: s.spread,
            };
            assert_eq!(line, lines[&s.user_id], "{name}: {}", s.name);
            assert_eq!(s.byes, i64::from(byes.contains(&s.user_id)));
        }
        let keys: Vec<(i64, i64)> = standings
            .iter()
            .map(|s| (2 * s.wins + s.draws, s.spread))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(keys, sorted, "{name}");
        // Rated, as every game between people is.
        let rated: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rank_history h JOIN tournament_pairings p ON p.game_id = h.game_id
             WHERE p.tournament_id = $1",
        )
        .bind(&id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(rated, 2 * 16, "{name}");
    }
}

#[tokio::test]
async fn a_withdrawal_leaves_byes_in_a_round_robin() {
    for (name, db, _dir) in support::own_databases().await {
        let admin = support::player(&db).await;
        accounts::make_admin(&db, &admin.name).await.unwrap();
        let admin = accounts::by_name(&db, &admin.name).await.unwrap().unwrap();
        let soon = db::now_ms() + 60_000;
        let id = tournaments::create(&db, new(Pairing::RoundRobin, 0, false, soon), &admin)
            .await
            .unwrap();
        let mut players = Vec::new();
        for _ in 0..5 {
            let player = support::player(&db).await;
            // Within the check-in window an entry is checked in.
            tournaments::enter(&db, &id, &player).await.unwrap();
            players.push(player.id);
        }
        // Withdrawing before the start takes the entry back.
        tournaments::withdraw(&db, &id, players[4]).await.unwrap();
        tournaments::enter(&db, &id, &support::player(&db).await)
            .await
            .unwrap();
        starts_at(&db, &id, db::now_ms() - 1).await;
        assert_eq!(tournaments::advance(&db).await.unwrap(), 1, "{name}");
        let this = tournaments::tournament(&db, &id).await.unwrap();
        assert_eq!(this.rounds, 5, "{name}: five players, five rounds");
        // No late entry into a round robin.
        assert!(tournaments::enter(&db, &id, &support::player(&db).await)
            .await
            .is_err());
        let mut lines = HashMap::new();
        let first = play_round(&db, &id, 1, &mut lines).await;
        assert_eq!(first.iter().filter(|p| p.2.is_none()).count(), 1, "{name}");
        // A player withdraws after round 1: paired no more, their opponents get byes.
        let gone = players[0];
        tournaments::withdraw(&db, &id, gone).await.unwrap();
        let mut met: HashSet<(i64, i64)> = HashSet::new();
        for (home, away, _) in &first {
            if let Some(away) = away {
                met.insert((*home.min(away), *home.max(away)));
            }
        }
        for round in 2..=5 {
            next_round(&db, &id).await;
            let pairs = play_round(&db, &id, round, &mut lines).await;
            for (home, away, _) in &pairs {
                assert_ne!(*home, gone, "{name}: round {round}");
                assert_ne!(*away, Some(gone), "{name}: round {round}");
                if let Some(away) = away {
                    let pair = (*home.min(away), *home.max(away));
                    assert!(met.insert(pair), "{name}: {pair:?} again");
                }
            }
        }
        next_round(&db, &id).await;
        let this = tournaments::tournament(&db, &id).await.unwrap();
        assert_eq!(this.status, TournamentStatus::Over, "{name}");
        // The four who stayed met each other once each.
        assert_eq!(
            met.iter().filter(|(a, b)| *a != gone && *b != gone).count(),
            6,
            "{name}"
        );
        let standings = tournaments::standings(&db, &id).await.unwrap();
        let withdrawn = standings.iter().find(|s| s.user_id == gone).unwrap();
        assert!(withdrawn.withdrawn.0 && withdrawn.played <= 1, "{name}");
        for s in standings.iter().filter(|s| s.user_id != gone) {
            // Four rounds against the others, one bye of their own, one left by the withdrawal.
            assert_eq!(s.played + s.byes, 5, "{name}: {}", s.name);
            assert_eq!(
                (s.wins, s.spread),
                (lines[&s.user_id].wins, lines[&s.user_id].spread)
            );
        }
        // Over: no more withdrawing.
        assert!(tournaments::withdraw(&db, &id, players[1]).await.is_err());
    }
}
