//! The words of a push notification, in the reader's language: a title and a line.

use domain::{GameResult, LastTurn, Notice};

use super::Texts;
use crate::tr;

/// `notice`'s title and body.
pub fn words(texts: Texts, notice: &Notice) -> (String, String) {
    match notice {
        Notice::YourTurn { opponent, last, .. } => {
            let body = match last {
                LastTurn::Played { word, points } => {
                    tr!(
                        texts,
                        notice.played,
                        name = opponent.clone(),
                        word = word.clone(),
                        points
                    )
                }
                LastTurn::Passed => tr!(texts, notice.passed, name = opponent.clone()),
                LastTurn::Exchanged => tr!(texts, notice.exchanged, name = opponent.clone()),
                LastTurn::Other => tr!(texts, notice.moved, name = opponent.clone()),
            };
            (tr!(texts, notice.your_turn).to_string(), body)
        }
        Notice::Challenged { from } => (
            tr!(texts, notice.challenged_title).to_string(),
            tr!(texts, notice.challenged, name = from.clone()),
        ),
        Notice::Accepted { by, .. } => (
            tr!(texts, notice.accepted_title).to_string(),
            tr!(texts, notice.accepted, name = by.clone()),
        ),
        Notice::Rematch { from, .. } => (
            tr!(texts, notice.rematch_title).to_string(),
            tr!(texts, notice.rematch, name = from.clone()),
        ),
        Notice::Deadline { hours, .. } => (
            tr!(texts, notice.deadline_title).to_string(),
            tr!(texts, notice.deadline, hours),
        ),
        Notice::Nudge { from, .. } => (
            tr!(texts, notice.nudge_title).to_string(),
            tr!(texts, notice.nudge, name = from.clone()),
        ),
        Notice::GameOver {
            result,
            score,
            other,
            ..
        } => {
            let title = match result {
                GameResult::Won => tr!(texts, notice.won),
                GameResult::Drawn => tr!(texts, notice.drawn),
                GameResult::Lost => tr!(texts, notice.lost),
            };
            (
                title.to_string(),
                tr!(texts, notice.final_score, score, other),
            )
        }
    }
}
