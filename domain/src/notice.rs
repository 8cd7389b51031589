//! Notifications sent to a player's devices by Web Push: what each says, as data the server words
//! in the player's language when it sends it, and the kinds a player turns on or off.

use serde::{Deserialize, Serialize};

/// A kind of notification, each switched on or off by the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PushKind {
    /// It is your turn.
    Turn,
    /// A friend's challenge, or an invite accepted.
    Challenge,
    /// A rematch offered.
    Rematch,
    /// A day left on a Casual move.
    Deadline,
    /// A game over.
    Over,
}

impl PushKind {
    /// Every kind, in the order settings list them.
    pub const ALL: [PushKind; 5] = [
        PushKind::Turn,
        PushKind::Challenge,
        PushKind::Rematch,
        PushKind::Deadline,
        PushKind::Over,
    ];

    /// The form field and stored bit of this kind.
    pub fn word(self) -> &'static str {
        match self {
            PushKind::Turn => "turn",
            PushKind::Challenge => "challenge",
            PushKind::Rematch => "rematch",
            PushKind::Deadline => "deadline",
            PushKind::Over => "over",
        }
    }

    fn bit(self) -> i64 {
        1 << PushKind::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }

    /// `kinds` as stored: one bit each.
    pub fn bits(kinds: &[PushKind]) -> i64 {
        kinds.iter().fold(0, |bits, kind| bits | kind.bit())
    }

    /// The kinds stored as `bits`.
    pub fn from_bits(bits: i64) -> Vec<PushKind> {
        PushKind::ALL
            .into_iter()
            .filter(|kind| bits & kind.bit() != 0)
            .collect()
    }
}

/// What the last turn was, for "your turn" notices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LastTurn {
    /// A play: its main word and the points it scored.
    Played {
        /// The first word formed, upper case.
        word: String,
        /// The turn's points.
        points: i32,
    },
    /// A pass.
    Passed,
    /// An exchange.
    Exchanged,
    /// Anything else (a challenge, a missed turn).
    Other,
}

impl LastTurn {
    /// The turn `event` that scored `points`.
    pub fn of(event: &rules::game::TurnEvent, points: i32) -> LastTurn {
        use rules::game::TurnEvent;
        match event {
            TurnEvent::Play { words, .. } => LastTurn::Played {
                word: words
                    .first()
                    .map(|w| w.word.to_uppercase())
                    .unwrap_or_default(),
                points,
            },
            TurnEvent::Pass { .. } => LastTurn::Passed,
            TurnEvent::Exchange { .. } => LastTurn::Exchanged,
            _ => LastTurn::Other,
        }
    }
}

/// How a finished game went for one seat: the one rule for results, ranks, notices and lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// They won.
    Won,
    /// A draw.
    Drawn,
    /// They lost.
    Lost,
}

impl GameResult {
    /// `seat`'s result in a game these seats won (two or more winners share a draw).
    pub fn of(winners: &[rules::Seat], seat: rules::Seat) -> GameResult {
        match (winners.contains(&seat), winners.len()) {
            (true, 1) => GameResult::Won,
            (true, _) => GameResult::Drawn,
            (false, _) => GameResult::Lost,
        }
    }

    /// As results and ranks store it.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Won => "win",
            GameResult::Drawn => "draw",
            GameResult::Lost => "loss",
        }
    }
}

/// One notification, before it is worded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Notice {
    /// It is your turn in `game`; `opponent` just moved.
    YourTurn {
        /// The game's id.
        game: String,
        /// Who moved.
        opponent: String,
        /// What they did.
        last: LastTurn,
    },
    /// `from` challenges you.
    Challenged {
        /// The challenger.
        from: String,
    },
    /// `by` accepted your invite or challenge: `game` begins.
    Accepted {
        /// The game's id.
        game: String,
        /// Who accepted.
        by: String,
    },
    /// `from` offers a rematch of `game`.
    Rematch {
        /// The finished game's id.
        game: String,
        /// Who offers.
        from: String,
    },
    /// About `hours` are left for your move in `game`.
    Deadline {
        /// The game's id.
        game: String,
        /// Hours left.
        hours: i64,
    },
    /// `from`, waiting in `game` for over a day, asks you to move.
    Nudge {
        /// The game's id.
        game: String,
        /// Who nudged.
        from: String,
    },
    /// `game` is over.
    GameOver {
        /// The game's id.
        game: String,
        /// How it went for you.
        result: GameResult,
        /// Your final score.
        score: i32,
        /// The best other final score.
        other: i32,
    },
}

impl Notice {
    /// Its kind, which the player may have turned off.
    pub fn kind(&self) -> PushKind {
        match self {
            Notice::YourTurn { .. } | Notice::Nudge { .. } => PushKind::Turn,
            Notice::Challenged { .. } | Notice::Accepted { .. } => PushKind::Challenge,
            Notice::Rematch { .. } => PushKind::Rematch,
            Notice::Deadline { .. } => PushKind::Deadline,
            Notice::GameOver { .. } => PushKind::Over,
        }
    }

    /// The page a tap on it opens.
    pub fn path(&self) -> String {
        match self {
            Notice::YourTurn { game, .. }
            | Notice::Accepted { game, .. }
            | Notice::Rematch { game, .. }
            | Notice::Deadline { game, .. }
            | Notice::Nudge { game, .. }
            | Notice::GameOver { game, .. } => format!("/game/{game}"),
            Notice::Challenged { .. } => "/".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_bits() {
        for kinds in [
            vec![],
            vec![PushKind::Turn],
            vec![PushKind::Challenge, PushKind::Over],
            PushKind::ALL.to_vec(),
        ] {
            assert_eq!(PushKind::from_bits(PushKind::bits(&kinds)), kinds);
        }
        assert_eq!(PushKind::bits(&PushKind::ALL), 31);
    }
}
