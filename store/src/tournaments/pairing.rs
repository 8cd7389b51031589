//! Who plays whom in a round: Swiss by score with no repeats and a bye for an odd count, or a
//! round robin's fixed schedule. Pure: the store reads the standings and past pairings, and
//! writes what these return.

use std::collections::HashSet;

/// A player as a Swiss round is paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// The player.
    pub user: i64,
    /// Half-points: 2 a win, 1 a draw.
    pub points: i64,
    /// Their spread so far.
    pub spread: i64,
    /// Their rank in the tournament's dictionary: the tiebreak before any game.
    pub rank: i64,
    /// Whether they have had a bye.
    pub had_bye: bool,
}

/// A pairing: `home` starts; `away` is none for a bye.
pub type Pair = (i64, Option<i64>);

/// How many steps the search for pairings without repeats may take before it gives up and
/// allows them: more than any field of hundreds needs, so a round is never slow to make.
const SEARCH_STEPS: u32 = 200_000;

/// The next Swiss round of `entrants` (those still playing), given the pairs that have met
/// (`met`, each pair in both orders). Players are ranked by points, spread, then rank; the bye
/// goes to the lowest ranked who has not had one; then each player, from the top, meets the
/// highest ranked player left whom they have not met, the search backing up when that leaves
/// someone without an opponent. When no pairing avoids repeats (a field smaller than its
/// rounds), repeats are allowed. The higher ranked player of a pair starts when they have
/// started less often (`started` counts games each started).
pub fn swiss(
    entrants: &[Entrant],
    met: &HashSet<(i64, i64)>,
    started: &dyn Fn(i64) -> i64,
) -> Vec<Pair> {
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by_key(|e| (-e.points, -e.spread, -e.rank, e.user));
    let users: Vec<i64> = order.iter().map(|e| e.user).collect();
    // The bye's candidates, lowest first: those without one, then (everyone has had one) anyone.
    let candidates: Vec<Option<usize>> = if users.len().is_multiple_of(2) {
        vec![None]
    } else {
        let mut without: Vec<usize> = (0..users.len())
            .rev()
            .filter(|&i| !order[i].had_bye)
            .collect();
        if without.is_empty() {
            without = (0..users.len()).rev().collect();
        }
        without.into_iter().map(Some).collect()
    };
    let mut steps = 0;
    for avoid_repeats in [true, false] {
        for bye in &candidates {
            let mut used = vec![false; users.len()];
            if let Some(b) = bye {
                used[*b] = true;
            }
            let mut pairs = Vec::new();
            let can_meet =
                |a: usize, b: usize| !avoid_repeats || !met.contains(&(users[a], users[b]));
            if search(&mut used, &mut pairs, &can_meet, &mut steps) {
                let mut round: Vec<Pair> = pairs
                    .into_iter()
                    .map(|(a, b)| {
                        let (a, b) = (users[a], users[b]);
                        if started(b) < started(a) {
                            (b, Some(a))
                        } else {
                            (a, Some(b))
                        }
                    })
                    .collect();
                if let Some(b) = bye {
                    round.push((users[*b], None));
                }
                return round;
            }
        }
    }
    // Unreachable: with repeats allowed every even set pairs.
    Vec::new()
}

/// Pairs every unused place, the first unused with the earliest partner `can_meet` allows,
/// backing up on a dead end; false when none works or the steps ran out.
fn search(
    used: &mut [bool],
    pairs: &mut Vec<(usize, usize)>,
    can_meet: &dyn Fn(usize, usize) -> bool,
    steps: &mut u32,
) -> bool {
    let Some(first) = used.iter().position(|u| !u) else {
        return true;
    };
    used[first] = true;
    for second in first + 1..used.len() {
        if used[second] || !can_meet(first, second) {
            continue;
        }
        *steps += 1;
        if *steps > SEARCH_STEPS {
            break;
        }
        used[second] = true;
        pairs.push((first, second));
        if search(used, pairs, can_meet, steps) {
            return true;
        }
        pairs.pop();
        used[second] = false;
    }
    used[first] = false;
    false
}

/// How many rounds a round robin of `players` takes: one fewer than the players, made even.
pub fn round_robin_rounds(players: usize) -> usize {
    (players + players % 2).saturating_sub(1)
}

/// Round `round` (from 1) of a round robin of `players` numbered from 0, by the circle method:
/// the last place stays, the others turn one place a round, so every pair meets once over
/// [`round_robin_rounds`]. With an odd count the missing place is the bye. Who starts
/// alternates.
pub fn round_robin(players: usize, round: usize) -> Vec<(usize, Option<usize>)> {
    let places = players + players % 2;
    if places < 2 || round == 0 || round > places - 1 {
        return Vec::new();
    }
    let turning = places - 1;
    let at = |i: usize| {
        if i == 0 {
            places - 1
        } else {
            (round - 1 + i - 1) % turning
        }
    };
    let real = |p: usize| (p < players).then_some(p);
    (0..places / 2)
        .filter_map(|i| {
            let (a, b) = (at(i), at(places - 1 - i));
            let (a, b) = if (round + i).is_multiple_of(2) {
                (a, b)
            } else {
                (b, a)
            };
            match (real(a), real(b)) {
                (Some(a), b) => Some((a, b)),
                (None, Some(b)) => Some((b, None)),
                (None, None) => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(user: i64, points: i64) -> Entrant {
        Entrant {
            user,
            points,
            spread: 0,
            rank: 1500 - user,
            had_bye: false,
        }
    }

    #[test]
    fn a_round_robin_meets_everyone_once() {
        for players in 2..=11 {
            let mut met = HashSet::new();
            let rounds = round_robin_rounds(players);
            for round in 1..=rounds {
                let pairs = round_robin(players, round);
                let mut seen = HashSet::new();
                for (a, b) in pairs {
                    assert!(seen.insert(a), "{players}: {a} twice in round {round}");
                    if let Some(b) = b {
                        assert!(seen.insert(b));
                        assert!(met.insert((a.min(b), a.max(b))), "{players}: {a}-{b} again");
                    }
                }
                assert_eq!(seen.len(), players);
            }
            assert_eq!(met.len(), players * (players - 1) / 2);
        }
    }

    #[test]
    fn swiss_pairs_by_score_with_one_bye() {
        let field: Vec<Entrant> = (1..=5).map(|u| entrant(u, 10 - u)).collect();
        let round = swiss(&field, &HashSet::new(), &|_| 0);
        assert_eq!(round, vec![(1, Some(2)), (3, Some(4)), (5, None)]);
    }

    #[test]
    fn swiss_avoids_repeats_by_backing_up() {
        // 1 has met 2, so 1 meets 3; then 2 and 4.
        let field: Vec<Entrant> = (1..=4).map(|u| entrant(u, 0)).collect();
        let met = HashSet::from([(1, 2), (2, 1)]);
        let round = swiss(&field, &met, &|_| 0);
        assert_eq!(round, vec![(1, Some(3)), (2, Some(4))]);
        // 1 has met 2 and 3, 2 has met 4: only 1-4 and 2-3 are left.
        let met = HashSet::from([(1, 2), (2, 1), (1, 3), (3, 1), (2, 4), (4, 2)]);
        let round = swiss(&field, &met, &|_| 0);
        assert_eq!(round, vec![(1, Some(4)), (2, Some(3))]);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_without_one() {
        let mut field: Vec<Entrant> = (1..=3).map(|u| entrant(u, 0)).collect();
        field[2].had_bye = true;
        let round = swiss(&field, &HashSet::new(), &|_| 0);
        assert_eq!(round.last(), Some(&(2, None)));
    }

    #[test]
    fn repeats_only_when_nothing_else_pairs() {
        let field: Vec<Entrant> = (1..=2).map(|u| entrant(u, 0)).collect();
        let met = HashSet::from([(1, 2), (2, 1)]);
        assert_eq!(swiss(&field, &met, &|_| 0), vec![(1, Some(2))]);
    }
}
