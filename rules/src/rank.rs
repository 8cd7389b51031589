//! Rank: Elo per dictionary (docs/rules.md §2). Everyone starts at 1200; K is 40 for a player's first
//! 30 rated games and 20 after; a draw counts ½. Only standard PvP matches are rated.

/// The rank a new player starts with.
pub const STARTING_RANK: i32 = 1200;

/// The result of a rated game for one player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GameResult {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

impl GameResult {
    fn score(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }
}

/// A player's new rank after a rated game against `opponent`, given how many rated games they had
/// played before this one. Rounded to the nearest whole point.
pub fn updated_rank(rank: i32, opponent: i32, result: GameResult, games_before: u32) -> i32 {
    let k = if games_before < 30 { 40.0 } else { 20.0 };
    let expected = 1.0 / (1.0 + 10f64.powf(f64::from(opponent - rank) / 400.0));
    rank + (k * (result.score() - expected)).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_ranks_move_by_half_of_k() {
        assert_eq!(updated_rank(1200, 1200, GameResult::Win, 0), 1220);
        assert_eq!(updated_rank(1200, 1200, GameResult::Loss, 0), 1180);
        assert_eq!(updated_rank(1200, 1200, GameResult::Win, 30), 1210);
        assert_eq!(updated_rank(1200, 1200, GameResult::Draw, 5), 1200);
    }

    #[test]
    fn upsets_move_ranks_further() {
        // Expected score of 1200 against 1600 is 1/11: a win gains 40·10/11 ≈ 36.
        assert_eq!(updated_rank(1200, 1600, GameResult::Win, 0), 1236);
        assert_eq!(updated_rank(1600, 1200, GameResult::Win, 0), 1604);
    }
}
