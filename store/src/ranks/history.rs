//! A rated game's rows in `rank_history`, written when a game is rated and again when the
//! recomputation rebuilds the history.

use dictionaries::DictionaryId;
use sqlx::AnyConnection;

/// One player's row of a rated game in `rank_history`.
pub(super) struct HistoryRow<'a> {
    pub(super) game_id: &'a str,
    pub(super) user: i64,
    pub(super) dictionary: DictionaryId,
    pub(super) opponent: i64,
    /// `win`, `draw` or `loss`.
    pub(super) result: &'a str,
    pub(super) before: i32,
    pub(super) after: i32,
    pub(super) at: i64,
    /// The player's rated games in the dictionary before this one.
    pub(super) games_before: u32,
}

impl HistoryRow<'_> {
    /// Writes it (when a game is rated, and again when `recompute` rebuilds the history).
    pub(super) async fn insert(&self, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO rank_history (game_id, user_id, dictionary, opponent, result,
                 rank_before, rank_after, at, games_before)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(self.game_id)
        .bind(self.user)
        .bind(self.dictionary.as_str())
        .bind(self.opponent)
        .bind(self.result)
        .bind(i64::from(self.before))
        .bind(i64::from(self.after))
        .bind(self.at)
        .bind(i64::from(self.games_before))
        .execute(&mut *conn)
        .await?;
        Ok(())
    }
}
