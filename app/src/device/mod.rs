//! Games played on this device: against a bot, or pass-and-play. A device game runs in the
//! browser with no request to the server (the rules here, the bot in a worker), is kept on the
//! device after every action ([`shelf`]), and a bot game is sent to the player's account, where
//! the server replays it before keeping it: while it goes on as a copy (not lost with the
//! device, and playable on another), once over as a game of the account's. A bot gives no clock, so a device
//! game has none.
//!
//! The page that plays one is [`crate::routes::game::device`]; it shows the game with the game
//! page's own regions, from a [`GamePage`] made here as the server would make it.

#[cfg(feature = "hydrate")]
pub mod bots;
#[cfg(feature = "hydrate")]
pub mod shelf;

use dictionaries::DictionaryInfo;
use rules::{game::Format, Action, GameConfig, GameState, Lexicon, Seat, Status, Variant};
use serde::{Deserialize, Serialize};

use crate::api::{
    device::{AccountCopy, DeviceGame},
    play::GamePage,
    GameCard, NewGame, Opponent, Phase, SeatHolder,
};

/// A game kept on the device: enough to replay it (the rules are deterministic from the seed),
/// and whether the account has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// The device's name for it, random (and what the account keeps it under).
    pub key: String,
    pub variant: Variant,
    /// The dictionary version, e.g. `en@3`: the game keeps it to its end.
    pub dictionary: String,
    /// Where that version's words are fetched (content-hashed; the service worker keeps them).
    pub dictionary_url: String,
    /// Chosen on the device: the bag and the board follow from it.
    pub seed: u64,
    pub players: Players,
    /// Every action so far, in order.
    pub actions: Vec<Action>,
    /// When it started and last changed, unix ms.
    pub started_at: i64,
    pub updated_at: i64,
    /// Scores by seat as the last action left them (the final ones once over), whose turn it
    /// is, and whether it is over: what a list shows without replaying.
    pub scores: Vec<i32>,
    pub to_move: Seat,
    pub over: bool,
    /// Once the account keeps it: its id there.
    pub sent: Option<String>,
    /// How many of its actions the account's copy has, while it goes on: a page opened again
    /// sends it only if this device played on since.
    #[serde(default)]
    pub copied: usize,
}

/// Who plays a device game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Players {
    /// The player in seat 0, a bot in seat 1.
    Bot {
        /// The bot's level, by name.
        level: String,
        /// Its displayed rank.
        rank: i32,
        /// What the player is called here.
        name: String,
    },
    /// Everyone at this device, by the names given.
    Local { names: Vec<String> },
}

/// The bot's seat in a device bot game; the player moves first, from seat 0.
pub const BOT_SEAT: Seat = 1;

impl Saved {
    /// A new game as `new` describes it (a bot or pass-and-play), with the dictionary `info`;
    /// `names` gives a seat its default name. `None` for anything else, or what the rules do
    /// not play (the address a game is started from can be written by anyone).
    pub fn new(
        new: &NewGame,
        info: &DictionaryInfo,
        names: impl Fn(Seat) -> String,
    ) -> Option<Saved> {
        let rules = rules::RuleSet::new(new.variant);
        if !crate::api::fits(new.variant, new.dictionary) || info.id != new.dictionary {
            return None;
        }
        let players = match &new.opponent {
            Opponent::PassAndPlay { players, names }
                if !(rules.min_players..=rules.max_players).contains(players)
                    || names.len() > usize::from(*players)
                    || domain::overlong_local_name(names).is_some() =>
            {
                return None;
            }
            Opponent::Bot { level } => Players::Bot {
                rank: crate::routes::new_game::bot_rank(level)?,
                level: level.clone(),
                name: names(0),
            },
            Opponent::PassAndPlay {
                players,
                names: given,
            } => Players::Local {
                names: (0..*players)
                    .map(|seat| domain::local_name(given, seat).unwrap_or_else(|| names(seat)))
                    .collect(),
            },
            _ => return None,
        };
        let now = now_ms();
        Some(Saved {
            key: random_key(),
            variant: new.variant,
            dictionary: dictionaries::DictionaryRef {
                id: info.id,
                version: info.version,
            }
            .to_string(),
            dictionary_url: info.url.clone(),
            seed: random_u64(),
            players,
            actions: Vec::new(),
            started_at: now,
            updated_at: now,
            scores: Vec::new(),
            to_move: 0,
            over: false,
            sent: None,
            copied: 0,
        })
    }

    /// The game's rules setup.
    pub fn config(&self) -> GameConfig {
        GameConfig {
            variant: self.variant,
            dictionary: self.dictionary.clone(),
            seed: self.seed,
            players: match &self.players {
                Players::Bot { .. } => 2,
                Players::Local { names } => u8::try_from(names.len()).unwrap_or(2),
            },
            first_seat: 0,
            // No clock: nobody is waited on.
            format: Format::Casual,
        }
    }

    /// The game as its actions leave it, or the first that does not replay.
    pub fn replay<L: Lexicon + ?Sized>(&self, lexicon: &L) -> Result<GameState, String> {
        let mut state = GameState::new(self.config());
        for (index, action) in self.actions.iter().enumerate() {
            state
                .apply(action, lexicon)
                .map_err(|error| format!("action {}: {error}", index + 1))?;
        }
        Ok(state)
    }

    /// Takes note of what `state` (this game's, replayed) shows in a list.
    pub fn note(&mut self, state: &GameState) {
        let summary = domain::GameSummary::of(state);
        self.scores = summary.scores;
        self.to_move = summary.to_move;
        self.over = matches!(state.status(), Status::Over(_));
    }

    /// The bot's level, when it is the bot's turn in a game going on.
    pub fn bot_to_move(&self, state: &GameState) -> Option<&str> {
        match &self.players {
            Players::Bot { level, .. }
                if state.to_move() == BOT_SEAT && *state.status() == Status::Playing =>
            {
                Some(level)
            }
            _ => None,
        }
    }

    /// The seed of the bot's turn now: its own, never the game's (which draws the tiles).
    pub fn bot_seed(&self, state: &GameState) -> u64 {
        self.key.bytes().fold(u64::from(state.version()), |h, b| {
            h.rotate_left(5) ^ u64::from(b)
        })
    }

    /// Who sits in each seat, as the pages name them.
    pub fn seats(&self) -> Vec<SeatHolder> {
        match &self.players {
            Players::Bot { level, rank, name } => vec![
                SeatHolder::Local { name: name.clone() },
                SeatHolder::Bot {
                    level: level.clone(),
                    rank: *rank,
                },
            ],
            Players::Local { names } => names
                .iter()
                .map(|name| SeatHolder::Local { name: name.clone() })
                .collect(),
        }
    }

    /// The seats the person at this device plays.
    fn my_seats(&self, players: u8) -> Vec<Seat> {
        match self.players {
            Players::Bot { .. } => vec![0],
            Players::Local { .. } => (0..players).collect(),
        }
    }

    /// The game as its page shows it, from `state` (this game's, replayed).
    pub fn page(&self, state: &GameState) -> GamePage {
        let summary = domain::GameSummary::of(state);
        let players = state.config().players;
        let my_seats = self.my_seats(players);
        let phase = match state.status() {
            Status::Over(_) => Phase::Over,
            Status::Playing => Phase::Playing,
        };
        let seats = self.seats();
        // Pass-and-play shows the hand of the seat to move.
        let seat = match my_seats.contains(&state.to_move()) {
            true => state.to_move(),
            false => my_seats[0],
        };
        let card = GameCard {
            id: format!("{}{}", crate::api::DEVICE_GAME_ID, self.key),
            variant: self.variant,
            dictionary: dictionaries::DictionaryRef::parse(&self.dictionary)
                .map_or(dictionaries::DictionaryId::English, |at| at.id),
            format: Format::Casual,
            my_turn: phase == Phase::Playing && my_seats.contains(&summary.to_move),
            my_seats,
            seats,
            rated: false,
            scores: summary.scores,
            to_move: summary.to_move,
            last: summary.last,
            winners: summary.winners,
            phase,
            updated_at: self.updated_at,
            time_left_ms: None,
            online: vec![None; usize::from(players)],
            ready: vec![false; usize::from(players)],
            starts_in_ms: None,
            unread: 0,
        };
        GamePage {
            card,
            view: state.view(seat),
            dictionary_url: self.dictionary_url.clone(),
            invite_path: None,
            rematch: None,
            rank_changes: Vec::new(),
            head_to_head: None,
            follows_opponent: None,
            daily: None,
            vacation_until: None,
            nudge: None,
            chat: None,
        }
    }

    /// What the account keeps of a bot game, going on or over (a pass-and-play game stays here).
    pub fn record(&self) -> Option<DeviceGame> {
        let Players::Bot { level, .. } = &self.players else {
            return None;
        };
        Some(DeviceGame {
            key: self.key.clone(),
            variant: self.variant,
            dictionary: self.dictionary.clone(),
            seed: self.seed,
            first_seat: 0,
            bot_seat: BOT_SEAT,
            level: level.clone(),
            actions: self.actions.clone(),
            scores: self.scores.clone(),
            rated: false,
        })
    }

    /// Whether the account is yet to get this game as its own: a bot game over and not sent.
    pub fn unsent(&self) -> bool {
        self.over && self.sent.is_none() && matches!(self.players, Players::Bot { .. })
    }

    /// A game going on on another of the player's devices, from the copy their account keeps,
    /// to go on with here (`name` for the player's seat); `None` for a copy this release cannot
    /// play (a bot level it lacks).
    pub fn of_copy(copy: AccountCopy, name: String) -> Option<Saved> {
        let AccountCopy {
            copy,
            dictionary_url,
        } = copy;
        let game = copy.game;
        let copied = game.actions.len();
        if game.first_seat != 0 || game.bot_seat != BOT_SEAT {
            return None;
        }
        Some(Saved {
            key: game.key,
            variant: game.variant,
            dictionary: game.dictionary,
            dictionary_url,
            seed: game.seed,
            players: Players::Bot {
                rank: crate::routes::new_game::bot_rank(&game.level)?,
                level: game.level,
                name,
            },
            actions: game.actions,
            started_at: copy.updated_at,
            updated_at: copy.updated_at,
            scores: game.scores,
            to_move: 0,
            over: false,
            sent: None,
            copied,
        })
    }
}

/// Sends a bot game to the player's account: what the account made of it, or `None` when it
/// cannot be sent now (no network, no account). A finished game is kept on the device as sent
/// (the account then has it as its own).
#[cfg(feature = "hydrate")]
pub async fn send(mut saved: Saved) -> Option<crate::api::device::DeviceKept> {
    let record = saved.record()?;
    let kept = crate::api::device::record_device_game(record)
        .await
        .ok()?
        .ok()?;
    if let crate::api::device::DeviceKept::Game(id) = &kept {
        saved.sent = Some(id.clone());
        // Unkept, it is sent again later and the account answers the same id.
        let _ = shelf::save(&saved).await;
    }
    Some(kept)
}

/// Now, unix ms.
pub fn now_ms() -> i64 {
    #[cfg(feature = "hydrate")]
    return js_sys::Date::now() as i64;
    #[cfg(not(feature = "hydrate"))]
    0
}

fn random_u64() -> u64 {
    #[cfg(feature = "hydrate")]
    return (0..4).fold(0u64, |n, _| {
        (n << 16) | (js_sys::Math::random() * 65536.0) as u64
    });
    #[cfg(not(feature = "hydrate"))]
    0
}

/// 32 hex digits.
fn random_key() -> String {
    format!("{:016x}{:016x}", random_u64(), random_u64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dictionaries::DictionaryId;
    use rules::lexicon::AcceptAll;

    fn info() -> DictionaryInfo {
        DictionaryInfo {
            id: DictionaryId::English,
            name: "English".into(),
            url: "/dict/en.0123456789abcdef.fst".into(),
            version: 3,
            word_count: 0,
            fst_bytes: 0,
            alphabet: String::new(),
            source: String::new(),
            source_version: String::new(),
            licence: String::new(),
            attribution: String::new(),
            licences: Vec::new(),
        }
    }

    fn bot_game() -> NewGame {
        NewGame {
            variant: Variant::Classic,
            dictionary: DictionaryId::English,
            format: Format::Blitz,
            opponent: Opponent::Bot {
                level: "expert".into(),
            },
            rated: true,
        }
    }

    #[test]
    fn a_device_bot_game_has_no_clock_is_unrated_and_is_recorded_as_it_goes() {
        let mut saved = Saved::new(&bot_game(), &info(), |seat| format!("P{seat}")).unwrap();
        // Whatever the form said: no clock, never rated, the version the list named.
        assert_eq!(saved.config().format, Format::Casual);
        assert_eq!(saved.dictionary, "en@3");
        let mut state = saved.replay(&AcceptAll).unwrap();
        let page = saved.page(&state);
        assert_eq!(page.card.time_left_ms, None);
        assert!(!page.card.rated);
        // Classic draws who starts.
        let mine = state.to_move() == 0;
        assert_eq!(page.card.my_turn, mine);
        assert_eq!(page.view.seat, 0);
        assert_eq!(
            page.card.seats[1],
            SeatHolder::Bot {
                level: "expert".into(),
                rank: 1390
            }
        );
        assert_eq!(saved.bot_to_move(&state), (!mine).then_some("expert"));
        assert!(page.card.on_device());
        // Going on, the account keeps a copy; the device has nothing unsent yet.
        let copy = saved
            .record()
            .expect("a bot game going on is sent as a copy");
        assert!(copy.actions.is_empty());
        assert!(!saved.unsent());

        let pass = Action::Pass {
            seat: state.to_move(),
        };
        state.apply(&pass, &AcceptAll).unwrap();
        saved.actions.push(pass);
        assert_eq!(saved.bot_to_move(&state), mine.then_some("expert"));
        // The bot's own seed changes with each turn, and is not the game's.
        assert_ne!(saved.bot_seed(&state), saved.seed);

        let resign = Action::Resign { seat: 0 };
        state.apply(&resign, &AcceptAll).unwrap();
        saved.actions.push(resign);
        saved.note(&state);
        let record = saved.record().expect("a finished bot game is sent");
        assert!(saved.unsent());
        assert!(!record.rated);
        assert_eq!((record.bot_seat, record.first_seat), (BOT_SEAT, 0));
        assert_eq!(record.actions.len(), 2);
        let Status::Over(outcome) = state.status() else {
            panic!("resigned");
        };
        assert_eq!(record.scores, outcome.final_scores);
        // Replayed from what is kept, the same game.
        assert_eq!(saved.replay(&AcceptAll).unwrap().view(0), state.view(0));
    }

    #[test]
    fn a_copy_from_the_account_goes_on_as_the_same_game() {
        let mut saved = Saved::new(&bot_game(), &info(), |_| "Ann".into()).unwrap();
        let mut state = saved.replay(&AcceptAll).unwrap();
        let pass = Action::Pass {
            seat: state.to_move(),
        };
        state.apply(&pass, &AcceptAll).unwrap();
        saved.actions.push(pass);
        saved.note(&state);
        let copy = AccountCopy {
            copy: domain::DeviceCopy {
                game: saved.record().unwrap(),
                updated_at: 7,
            },
            dictionary_url: saved.dictionary_url.clone(),
        };
        let mut here = Saved::of_copy(copy.clone(), "Ann".into()).unwrap();
        here.note(&here.replay(&AcceptAll).unwrap());
        assert_eq!(
            (here.key.as_str(), here.seed),
            (saved.key.as_str(), saved.seed)
        );
        assert_eq!(here.players, saved.players);
        assert_eq!((here.to_move, &here.scores), (saved.to_move, &saved.scores));
        assert_eq!(here.replay(&AcceptAll).unwrap().view(0), state.view(0));
        // The account has every action of it: opened here, it is not sent back unchanged.
        assert_eq!((saved.copied, here.copied), (0, 1));
        // A level this release lacks is no game here.
        let mut unknown = copy;
        unknown.copy.game.level = "grandmaster".into();
        assert_eq!(Saved::of_copy(unknown, "Ann".into()), None);
    }

    #[test]
    fn pass_and_play_names_every_seat_and_stays_on_the_device() {
        let new = NewGame {
            opponent: Opponent::PassAndPlay {
                players: 3,
                names: vec!["  Mia ".into(), String::new()],
            },
            ..bot_game()
        };
        let saved = Saved::new(&new, &info(), |seat| format!("Player {}", seat + 1)).unwrap();
        // What the rules do not play is no game, whatever an address says.
        for players in [0, 1, 5, 200] {
            let odd = NewGame {
                opponent: Opponent::PassAndPlay {
                    players,
                    names: Vec::new(),
                },
                ..bot_game()
            };
            assert_eq!(
                Saved::new(&odd, &info(), |_| String::new()),
                None,
                "{players}"
            );
        }
        let long_name = NewGame {
            opponent: Opponent::PassAndPlay {
                players: 2,
                names: vec!["x".repeat(500)],
            },
            ..bot_game()
        };
        assert_eq!(Saved::new(&long_name, &info(), |_| String::new()), None);
        let swedish_classic = NewGame {
            dictionary: DictionaryId::Swedish,
            ..bot_game()
        };
        assert_eq!(
            Saved::new(&swedish_classic, &info(), |_| String::new()),
            None
        );
        let no_such_bot = NewGame {
            opponent: Opponent::Bot {
                level: "grandmaster".into(),
            },
            ..bot_game()
        };
        assert_eq!(Saved::new(&no_such_bot, &info(), |_| String::new()), None);
        let state = saved.replay(&AcceptAll).unwrap();
        let page = saved.page(&state);
        let names: Vec<String> = page.card.seats.iter().map(SeatHolder::label).collect();
        assert_eq!(names, ["Mia", "Player 2", "Player 3"]);
        assert_eq!(page.card.my_seats, [0, 1, 2]);
        assert_eq!(saved.record(), None);
        // Nothing else is a device game.
        let invite = NewGame {
            opponent: Opponent::Invite,
            ..bot_game()
        };
        assert_eq!(Saved::new(&invite, &info(), |_| String::new()), None);
    }
}
