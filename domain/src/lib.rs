//! The words the pages and the store share: why a request is refused ([`Refusal`]), where a game
//! stands ([`Phase`]), what the New Game form asks for ([`NewGame`]), a rank as shown beside a
//! name ([`ShownRank`]), what a list of games shows of one ([`GameSummary`]), the Daily
//! Challenge's cards, and the interface's languages ([`Lang`]).
//! The store returns them and the pages show them; this crate sits below both, so neither
//! imports from the other, and it compiles into the browser's bundle as well as the server.
#![deny(missing_docs)]

use dictionaries::DictionaryId;
use rules::{game::Format, RuleError, Variant};
use serde::{Deserialize, Serialize};

mod notice;
mod summary;
pub use notice::{GameResult, LastTurn, Notice, PushKind};
#[cfg(feature = "count-summaries")]
pub use summary::MADE as SUMMARIES_MADE;
pub use summary::{GameSummary, LastPlay};

/// Why a request was refused. The messages are written for players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Refusal {
    /// This needs an account, or at least a guest session.
    #[error("sign in or sign up first")]
    SignInFirst,
    /// Guests play bots and pass-and-play; friends and the lobby need an account.
    #[error("sign up to play friends and the lobby; guests play bots and pass-and-play")]
    AccountNeeded,
    /// No game has that id, or it is not one of yours (which of the two is not said).
    #[error("there is no such game")]
    NoSuchGame,
    /// The seat acted for is not the caller's.
    #[error("that seat is not yours")]
    NotYourSeat,
    /// Someone acted first: reload and try again.
    #[error("the game moved on: reload it (now at version {current})")]
    MovedOn {
        /// The game's version now.
        current: u32,
    },
    /// The game is waiting for a second player, or was called off.
    #[error("the game has not started")]
    NotStarted,
    /// The player's time for this turn ran out.
    #[error("your time for this turn is up")]
    TimeUp,
    /// One Blitz match at a time.
    #[error("you already have a Blitz match under way: finish it first")]
    BlitzBusy,
    /// The rules refuse the action.
    #[error("{0}")]
    Rules(RuleError),
    /// The active-game limit.
    #[error("you have {0} active games, the most allowed: finish or resign one first")]
    TooManyGames(u32),
    /// The request is malformed: says what is wrong.
    #[error("{0}")]
    Invalid(String),
    /// The invite link is unknown, expired, or already answered.
    #[error("this invite is no longer open")]
    InviteClosed,
    /// The rematch offer is no longer open (answered, withdrawn or expired), or one exists already.
    #[error("that rematch offer is no longer open")]
    RematchClosed,
    /// One does not join one's own game.
    #[error("this is your own game: send the link to a friend")]
    OwnGame,
    /// Too many failed sign-ins.
    #[error("too many failed attempts: try again in {minutes} min")]
    SlowDown {
        /// Minutes to wait, rounded up.
        minutes: u64,
    },
    /// Too many new accounts (sign-ups and guests) from one address within the hour.
    #[error("too many new accounts from your address: try again in {minutes} min")]
    TooManyAccounts {
        /// Minutes to wait, rounded up.
        minutes: u64,
    },
    /// Only admins may do this.
    #[error("this is for admins only")]
    AdminsOnly,
    /// Sign-up or sign-in refused: a taken name, a short password, wrong credentials.
    #[error("{0}")]
    Account(AccountProblem),
    /// Too many of the player's word reports wait for an admin.
    #[error("you have {open} reports waiting for an admin: wait until some are decided")]
    TooManyReports {
        /// Reports waiting.
        open: u32,
    },
    /// An admin's change to a dictionary refused.
    #[error("{0}")]
    Dictionary(DictionaryProblem),
    /// Analysis and export wait for the game's end (and a Daily Challenge's, for its day's).
    #[error("this opens once the game is over (a Daily Challenge's, once its day is over)")]
    NotOver,
    /// Following, blocking, challenging, chat and reports refused.
    #[error("{0}")]
    Social(SocialProblem),
    /// The player asked the server for its hourly share of analyses.
    #[error("the server has analysed enough of your games this hour: try again in {minutes} min, or analyse in the browser")]
    AnalysesUsedUp {
        /// Minutes to wait, rounded up.
        minutes: u64,
    },
}

/// Why a social action was refused. A block is never named: the blocked player hears what anyone
/// would hear when the other cannot be reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum SocialProblem {
    /// No account has that name (or it is a guest's).
    #[error("there is no player called {0}")]
    NoSuchPlayer(String),
    /// One does not follow, block, challenge or report oneself.
    #[error("that is you")]
    Yourself,
    /// The other player cannot be challenged, invited or followed by the caller right now.
    #[error("{0} cannot be reached right now")]
    Unreachable(String),
    /// Chat is off in this game: a bot or pass-and-play game, or a player turned it off.
    #[error("there is no chat in this game")]
    NoChat,
    /// A message empty, or longer than [`CHAT_MAX_CHARS`].
    #[error("a message is 1 to {CHAT_MAX_CHARS} characters")]
    BadMessage,
    /// More than [`CHAT_BURST`] messages within [`CHAT_WINDOW_SECS`] seconds.
    #[error("you are writing too fast: wait a few seconds")]
    TooFast,
    /// A report needs its reason.
    #[error("say why you report this")]
    ReasonNeeded,
    /// The caller is muted until then (unix ms; `None` for good).
    #[error("you are muted")]
    Muted(Option<i64>),
    /// The caller is suspended until then (unix ms; `None` for good).
    #[error("your account is suspended")]
    Suspended(Option<i64>),
    /// Too many of the player's reports of players wait for an admin.
    #[error("you have reports waiting for an admin")]
    TooManyReports,
}

/// The longest chat message, in characters.
pub const CHAT_MAX_CHARS: usize = 300;
/// The most chat messages a player may send within [`CHAT_WINDOW_SECS`].
pub const CHAT_BURST: i64 = 5;
/// The window of the chat rate limit, in seconds.
pub const CHAT_WINDOW_SECS: i64 = 10;

/// Why an admin's change to a dictionary was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum DictionaryProblem {
    /// Every change names its reason, for the audit log.
    #[error("say why: the reason goes into the audit log")]
    ReasonNeeded,
    /// An edit with no word to add or remove.
    #[error("name at least one word to add or remove")]
    NothingToEdit,
    /// A version with warnings is published only when the admin confirms them.
    #[error("confirm first: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    ConfirmWarnings(Vec<dictionaries::versions::Warning>),
    /// The version is the active one already (a form sent twice).
    #[error("{0} is already active")]
    AlreadyActive(String),
    /// The reports of a word were decided already (a form sent twice).
    #[error("no open report of '{0}'")]
    NoOpenReport(String),
}

/// Why a sign-up or sign-in was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AccountProblem {
    /// The name breaks the rules for names.
    #[error("a name has 3 to 20 letters, digits or underscores")]
    BadName,
    /// The password is too short or too long.
    #[error("a password has 8 to 200 characters")]
    BadPassword,
    /// Someone has the name already.
    #[error("that name is taken")]
    NameTaken,
    /// Wrong name or password; which one is not said.
    #[error("wrong name or password")]
    WrongCredentials,
    /// Wrong name or recovery code (or one used already); which one is not said.
    #[error("that name and recovery code do not match")]
    WrongCode,
    /// The password was right; the account asks for a code from its authenticator app too.
    #[error("enter the code from your authenticator app")]
    CodeNeeded,
    /// The authenticator code (or recovery code) is wrong, or was used already.
    #[error("that code is not right; codes change every 30 seconds")]
    WrongSecondFactor,
    /// A link sent by mail was used already or has expired.
    #[error("that link has expired or was used already: ask for a new one")]
    LinkExpired,
    /// The operator requires admins to sign in with a second factor, and this one has none yet.
    #[error("admins must set up two-factor sign-in first, in Settings")]
    SecondFactorRequired,
    /// A signed-in player's current password, asked again before a change, is wrong.
    #[error("that is not your current password")]
    WrongPassword,
    /// Closing the account failed on the server's side; nothing was changed.
    #[error("your account could not be closed, and nothing was changed: try again")]
    NotClosed,
    /// A reset set the new password, but the account signs in with a second factor too: the
    /// player signs in with both.
    #[error("your new password is set: sign in with it and your authenticator code")]
    PasswordSet,
    /// The account has had its hour's worth of letters (address links).
    #[error("that is enough letters for this hour: try again later")]
    TooManyLetters,
}

/// What one person writes for others to read (a pass-and-play name, an admin's reason), made
/// plain: control characters and the Unicode characters that reorder text around them (the
/// bidirectional embeddings, overrides, isolates and marks, U+061C, U+200E/F, U+202A–E,
/// U+2066–9) become spaces, and runs of white space one space, so no text can turn the words
/// shown beside it around.
pub fn plain_text(text: &str) -> String {
    let reorders = |c: char| {
        matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
    };
    text.replace(|c: char| c.is_control() || reorders(c), " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `next` (where a form sends the player after it, `?next=`) is an address on this site: a
/// path from its root, not `//host` nor `/\host` (browsers read both as another site) and
/// nothing a header could not carry.
pub fn is_local_path(next: &str) -> bool {
    next.starts_with('/')
        && !next.starts_with("//")
        && !next.contains('\\')
        && !next.chars().any(char::is_control)
}

impl Refusal {
    /// A sign-in or sign-up refusal as a word for an address (`?refused=`): a form posted before
    /// the page has its script is sent back to its page, which shows the reason from it. `None`
    /// for refusals those forms never give.
    pub fn as_address_word(&self) -> Option<String> {
        Some(match self {
            Refusal::Account(AccountProblem::BadName) => "bad-name".into(),
            Refusal::Account(AccountProblem::BadPassword) => "bad-password".into(),
            Refusal::Account(AccountProblem::NameTaken) => "name-taken".into(),
            Refusal::Account(AccountProblem::WrongCredentials) => "wrong".into(),
            Refusal::Account(AccountProblem::WrongCode) => "wrong-code".into(),
            Refusal::Account(AccountProblem::CodeNeeded) => "code-needed".into(),
            Refusal::Account(AccountProblem::WrongSecondFactor) => "wrong-second".into(),
            Refusal::Account(AccountProblem::LinkExpired) => "link-expired".into(),
            Refusal::Account(AccountProblem::PasswordSet) => "password-set".into(),
            Refusal::SlowDown { minutes } => format!("slow-{minutes}"),
            Refusal::TooManyAccounts { minutes } => format!("accounts-{minutes}"),
            _ => return None,
        })
    }

    /// The refusal [`Refusal::as_address_word`] wrote, if `word` is one.
    pub fn from_address_word(word: &str) -> Option<Refusal> {
        let minutes = |rest: &str| {
            rest.parse::<u64>()
                .ok()
                .filter(|m| (1..=24 * 60).contains(m))
        };
        Some(match word {
            "bad-name" => Refusal::Account(AccountProblem::BadName),
            "bad-password" => Refusal::Account(AccountProblem::BadPassword),
            "name-taken" => Refusal::Account(AccountProblem::NameTaken),
            "wrong" => Refusal::Account(AccountProblem::WrongCredentials),
            "wrong-code" => Refusal::Account(AccountProblem::WrongCode),
            "code-needed" => Refusal::Account(AccountProblem::CodeNeeded),
            "wrong-second" => Refusal::Account(AccountProblem::WrongSecondFactor),
            "link-expired" => Refusal::Account(AccountProblem::LinkExpired),
            "password-set" => Refusal::Account(AccountProblem::PasswordSet),
            _ => {
                if let Some(rest) = word.strip_prefix("slow-") {
                    Refusal::SlowDown {
                        minutes: minutes(rest)?,
                    }
                } else {
                    Refusal::TooManyAccounts {
                        minutes: minutes(word.strip_prefix("accounts-")?)?,
                    }
                }
            }
        })
    }
}

/// The most games a player may have waiting or in play at once, league games aside.
pub const MAX_ACTIVE_GAMES: u32 = 20;

/// How long an invite link stays open (Casual).
pub const INVITE_TTL_MS: i64 = 7 * 24 * 3600 * 1000;
/// How long a Blitz invite link stays open.
pub const BLITZ_INVITE_TTL_MS: i64 = 10 * 60 * 1000;

/// How long a rematch offer stays open.
pub const REMATCH_TTL_MS: i64 = 7 * 24 * 3600 * 1000;

/// One of the interface's languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English, the reference.
    #[default]
    En,
    /// Swedish.
    Sv,
    /// Danish.
    Da,
    /// Norwegian Bokmål.
    Nb,
}

impl Lang {
    /// All of them, in the menu's order (and the tables').
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Sv, Lang::Da, Lang::Nb];

    /// The language's code, as in `<html lang>` and the cookie.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Sv => "sv",
            Lang::Da => "da",
            Lang::Nb => "nb",
        }
    }

    /// The language for a code (`sv`), if it is one of ours.
    pub fn parse(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language's name in itself, for the menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Sv => "Svenska",
            Lang::Da => "Dansk",
            Lang::Nb => "Norsk bokmål",
        }
    }
}

/// Where a rematch offer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RematchState {
    /// Waiting for an answer.
    Open,
    /// Accepted: the new game exists.
    Accepted,
    /// Declined, for good.
    Declined,
    /// Withdrawn by the one who offered (who may offer again).
    Cancelled,
    /// Not answered within seven days.
    Expired,
}

/// A rematch as a finished game's page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchCard {
    /// Whether the caller offered it.
    pub offered_by_me: bool,
    /// Where it stands.
    pub state: RematchState,
    /// The new game, once accepted.
    pub new_game_id: Option<String>,
}

/// What a player does about a rematch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RematchMove {
    /// Offer one.
    Offer,
    /// Withdraw one's offer.
    Cancel,
    /// Accept the other's offer.
    Accept,
    /// Decline the other's offer, for good.
    Decline,
}

/// Who the other seats are, chosen at creation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opponent {
    /// A bot of this engine level (`beginner`, `casual`, `club`, `expert`).
    Bot {
        /// The level's name.
        level: String,
    },
    /// A friend who opens an invite link.
    Invite,
    /// Whoever joins from the open lobby.
    Lobby,
    /// A challenge to one player, by name: it waits in their games list for them to accept.
    Friend {
        /// Their name.
        name: String,
    },
    /// Everyone on this device, taking turns.
    PassAndPlay {
        /// Seats, 2 up to the ruleset's most.
        players: u8,
        /// Each seat's name, in seat order; a missing or blank one becomes "Player 2" and so
        /// on (the first, the owner's name).
        #[serde(default)]
        names: Vec<String>,
    },
}

/// The longest name a pass-and-play seat may have.
pub const LOCAL_NAME_MAX: usize = 20;

/// The name given to pass-and-play seat `seat` among `names`, made plain ([`plain_text`]);
/// `None` when none was given (the seat then has a default name).
pub fn local_name(names: &[String], seat: rules::Seat) -> Option<String> {
    names
        .get(usize::from(seat))
        .map(|name| plain_text(name))
        .filter(|name| !name.is_empty())
}

/// The first of `names` longer than [`LOCAL_NAME_MAX`] letters once made plain, if any: what a
/// new pass-and-play game refuses, on the server as on the device.
pub fn overlong_local_name(names: &[String]) -> Option<&str> {
    names
        .iter()
        .find(|name| plain_text(name).chars().count() > LOCAL_NAME_MAX)
        .map(String::as_str)
}

impl Opponent {
    /// The kind of game this choice makes.
    pub fn kind(&self) -> OpponentKind {
        match self {
            Opponent::Bot { .. } => OpponentKind::Bot,
            // A challenge is an invite addressed to one player: once answered, it plays as one.
            Opponent::Invite | Opponent::Friend { .. } => OpponentKind::Invite,
            Opponent::Lobby => OpponentKind::Lobby,
            Opponent::PassAndPlay { .. } => OpponentKind::Local,
        }
    }
}

/// Who a game is against, as stored with it: what decides its clock, whether it may be rated,
/// who hears of its changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpponentKind {
    /// A bot.
    Bot,
    /// A friend who opened an invite link.
    Invite,
    /// Whoever joined from the open lobby.
    Lobby,
    /// The two players of a finished game, again.
    Rematch,
    /// Pass-and-play on one device.
    Local,
    /// A Daily Challenge attempt, alone.
    Daily,
    /// Two players of a league's division, paired by its season.
    League,
    /// Two players of a tournament's round, paired by it.
    Tournament,
}

impl OpponentKind {
    /// Every kind.
    pub const ALL: [OpponentKind; 8] = [
        OpponentKind::Bot,
        OpponentKind::Invite,
        OpponentKind::Lobby,
        OpponentKind::Rematch,
        OpponentKind::Local,
        OpponentKind::Daily,
        OpponentKind::League,
        OpponentKind::Tournament,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            OpponentKind::Bot => "bot",
            OpponentKind::Invite => "invite",
            OpponentKind::Lobby => "lobby",
            OpponentKind::Rematch => "rematch",
            OpponentKind::Local => "local",
            OpponentKind::Daily => "daily",
            OpponentKind::League => "league",
            OpponentKind::Tournament => "tournament",
        }
    }

    /// From the stored name.
    pub fn parse(text: &str) -> Option<OpponentKind> {
        OpponentKind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// Whether a game of this kind is between people: the kinds that may be rated.
    pub fn between_people(self) -> bool {
        matches!(
            self,
            OpponentKind::Invite
                | OpponentKind::Lobby
                | OpponentKind::Rematch
                | OpponentKind::League
                | OpponentKind::Tournament
        )
    }

    /// Whether a clock runs: pass-and-play is played on one device at the table's own pace, and
    /// a Daily Challenge at the player's.
    pub fn has_clock(self) -> bool {
        !matches!(self, OpponentKind::Local | OpponentKind::Daily)
    }
}

/// What the New Game form sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewGame {
    /// Ruleset and options.
    pub variant: Variant,
    /// Dictionary.
    pub dictionary: DictionaryId,
    /// Casual or Blitz.
    pub format: Format,
    /// The other seats.
    pub opponent: Opponent,
    /// Whether a game against a person moves ranks (the default); bot and pass-and-play games
    /// never do.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
}

fn rated_by_default() -> bool {
    true
}

/// A game against a bot played on the player's device, as the device sends it to their account
/// (while it goes on, and once it is over): everything the server needs to replay it under the
/// rules, and what the device showed, which the replay must match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceGame {
    /// The device's own name for the game (a UUID), so that sending it again stores it once.
    pub key: String,
    /// Ruleset and options.
    pub variant: Variant,
    /// The dictionary version it was played with, e.g. `en@3`.
    pub dictionary: String,
    /// The seed the device chose: bag, draws and board follow from it.
    pub seed: u64,
    /// Who played first where the ruleset lets the creator decide.
    pub first_seat: rules::Seat,
    /// The bot's seat (the other is the player's).
    pub bot_seat: rules::Seat,
    /// The bot's level.
    pub level: String,
    /// Every action, in order.
    pub actions: Vec<rules::Action>,
    /// The scores as the device showed them after the last action, by seat: the final ones
    /// (tiles left and coins counted) once the game is over.
    pub scores: Vec<i32>,
    /// Whether it claims to be rated: a game against a bot never is.
    #[serde(default)]
    pub rated: bool,
}

/// What the account made of a device game sent to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeviceKept {
    /// Over: a game of the account's like any other, under this id.
    Game(String),
    /// Going on: a copy the account keeps until it ends, so it is not lost with the device.
    Copy,
}

/// A device game going on, as the player's account keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceCopy {
    /// The game as last sent.
    pub game: DeviceGame,
    /// When the device last sent it, unix ms.
    pub updated_at: i64,
}

/// The most device games going on that an account keeps copies of.
pub const DEVICE_COPIES: usize = 20;

/// The most actions a device game may carry: far past any real game (a hundred turns of Alfa
/// Kraft with a purchase and a sale in each), so memory stays bounded whatever is sent.
pub const DEVICE_GAME_ACTIONS: usize = 1_000;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Waiting for a friend or a lobby player to join.
    Waiting,
    /// A friend Blitz match with both players seated, waiting for both to press Ready.
    Ready,
    /// Under way.
    Playing,
    /// Finished.
    Over,
    /// Called off before it began (declined, expired or withdrawn).
    Cancelled,
}

impl Phase {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Ready => "ready",
            Phase::Playing => "playing",
            Phase::Over => "over",
            Phase::Cancelled => "cancelled",
        }
    }

    /// From the stored name.
    pub fn parse(text: &str) -> Option<Phase> {
        [
            Phase::Waiting,
            Phase::Ready,
            Phase::Playing,
            Phase::Over,
            Phase::Cancelled,
        ]
        .into_iter()
        .find(|p| p.as_str() == text)
    }
}

/// Whether a ruleset can be played with a dictionary: the tile set must be of its language. The
/// New Game form offers only these; the server refuses anything else.
pub fn fits(variant: Variant, dictionary: DictionaryId) -> bool {
    use rules::Language;
    match variant {
        Variant::AlfaKraft { language } | Variant::Feud { language, .. } => {
            language == dictionary.language()
        }
        Variant::Classic | Variant::LongWords { .. } => dictionary == DictionaryId::English,
        Variant::Daily { language } => language == dictionary.language(),
        Variant::Alfapet { .. } => dictionary.language() == Language::Swedish,
    }
}

/// A player's rank in one dictionary as shown beside their name: `1240`, or `1240?` while it
/// rests on fewer than [`PROVISIONAL_GAMES`] rated games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRank {
    /// The Elo rank.
    pub rank: i32,
    /// Fewer than [`PROVISIONAL_GAMES`] rated games so far.
    pub provisional: bool,
}

/// Rated games in a dictionary before a rank stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 10;

impl ShownRank {
    /// The rank after `games` rated games.
    pub fn new(rank: i32, games: u32) -> ShownRank {
        ShownRank {
            rank,
            provisional: games < PROVISIONAL_GAMES,
        }
    }
}

impl std::fmt::Display for ShownRank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            self.rank,
            if self.provisional { "?" } else { "" }
        )
    }
}

/// One player's record against another: finished games won, drawn and lost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// Games the player won against the other.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the player lost.
    pub losses: u32,
}

impl HeadToHead {
    /// No game between them yet.
    pub fn is_empty(&self) -> bool {
        self.wins + self.draws + self.losses == 0
    }
}

impl std::fmt::Display for HeadToHead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} won · {} drawn · {} lost",
            self.wins, self.draws, self.losses
        )
    }
}

/// The path of a player's profile page (names are lower-case letters, digits and `_`, safe in a
/// path as they are).
pub fn profile_path(name: &str) -> String {
    format!("/u/{name}")
}

/// Where a player stands in one dictionary's Daily Challenge of the day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DailyState {
    /// Not started yet.
    NotStarted,
    /// Started: the game to resume and the turns taken.
    InProgress {
        /// The attempt's game.
        game_id: String,
        /// Turns taken of [`rules::daily::TURNS`].
        turns: u32,
    },
    /// Finished.
    Done {
        /// The attempt's game.
        game_id: String,
        /// The total.
        score: i32,
        /// Place among the day's finished attempts.
        place: u32,
        /// Finished attempts that day.
        players: u32,
    },
}

/// One dictionary's Daily Challenge as the home page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyCard {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The player's state in it.
    pub state: DailyState,
}

/// Days in a row with a finished Daily Challenge (in any dictionary).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Streak {
    /// Up to today, or to yesterday while today's is still to play.
    pub current: u32,
    /// The longest ever.
    pub best: u32,
}

/// Today's Daily Challenges for the home page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyHome {
    /// The day, `YYYY-MM-DD` (UTC).
    pub day: String,
    /// One card per dictionary.
    pub cards: Vec<DailyCard>,
    /// The player's streak (none for a visitor).
    pub streak: Streak,
}

/// One of the player's turns in a finished Daily Challenge, beside the engine's best play on the
/// same board with the same rack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewTurn {
    /// What the player did.
    #[serde(default)]
    pub did: Option<ReviewPlay>,
    /// What the player did, in English words: reviews stored before `did` existed have only
    /// this. Always written (empty when unused): the page reads reviews as postcard, which has no
    /// missing fields.
    #[serde(default)]
    pub played: String,
    /// The points it made.
    pub points: i32,
    /// The engine's best-scoring play there: its main word and points (`None`: no play at all).
    pub best: Option<(String, i32)>,
}

/// A reviewed turn's move, for the end card to word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReviewPlay {
    /// A play: its main word.
    Word(String),
    /// A pass.
    Passed,
    /// An exchange of this many tiles.
    Exchanged(u32),
    /// An invalid word that cost the turn.
    TurnLost,
    /// The player stopped (resigned).
    Stopped,
}

/// A finished Daily Challenge as its end card shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyResult {
    /// The day, `YYYY-MM-DD`.
    pub day: String,
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The player's total.
    pub score: i32,
    /// Their place among the day's finished attempts (ties: the earlier finish first).
    pub place: u32,
    /// Finished attempts that day so far.
    pub players: u32,
    /// The best total so far that day.
    pub best_today: i32,
    /// The Expert bot's total on the same puzzle, once computed.
    pub bot_score: Option<i32>,
    /// The turn-by-turn review, once computed.
    pub review: Option<Vec<ReviewTurn>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a pass-and-play name with a right-to-left override was shown raw and turned
    /// the text beside it around.
    #[test]
    fn plain_text_drops_what_reorders_or_controls_text() {
        assert_eq!(
            plain_text("  Ann\u{202e}elle \u{2066}x\u{2069}\n\tB "),
            "Ann elle x B"
        );
        assert_eq!(plain_text("Åsa Öberg"), "Åsa Öberg");
        assert_eq!(plain_text("\u{200f}\u{061c}"), "");
    }

    #[test]
    fn pass_and_play_names_are_measured_as_they_will_be_shown() {
        let names = ["  Mia  ".to_string(), " ".into(), "x".repeat(21)];
        assert_eq!(local_name(&names, 0).as_deref(), Some("Mia"));
        assert_eq!((local_name(&names, 1), local_name(&names, 7)), (None, None));
        assert_eq!(overlong_local_name(&names[..2]), None);
        assert_eq!(overlong_local_name(&names), Some(names[2].as_str()));
        let padded = [format!("   {}   ", "y".repeat(20))];
        assert_eq!(overlong_local_name(&padded), None);
    }

    #[test]
    fn the_refusals_of_the_account_forms_round_trip_through_an_address() {
        for refusal in [
            Refusal::Account(AccountProblem::BadName),
            Refusal::Account(AccountProblem::BadPassword),
            Refusal::Account(AccountProblem::NameTaken),
            Refusal::Account(AccountProblem::WrongCredentials),
            Refusal::Account(AccountProblem::WrongCode),
            Refusal::Account(AccountProblem::CodeNeeded),
            Refusal::Account(AccountProblem::WrongSecondFactor),
            Refusal::Account(AccountProblem::LinkExpired),
            Refusal::SlowDown { minutes: 15 },
            Refusal::TooManyAccounts { minutes: 1 },
        ] {
            let word = refusal
                .as_address_word()
                .expect("an account form's refusal");
            assert_eq!(Refusal::from_address_word(&word), Some(refusal), "{word}");
        }
        assert!(is_local_path("/help") && is_local_path("/game/ab?x=1"));
        for elsewhere in [
            "",
            "help",
            "//evil.example",
            "/\\evil.example",
            "https://evil.example",
            "/a\r\nb",
        ] {
            assert!(!is_local_path(elsewhere), "{elsewhere}");
        }
        // Other refusals stay out of addresses, and nonsense read from one shows nothing.
        assert_eq!(Refusal::NoSuchGame.as_address_word(), None);
        for word in [
            "",
            "slow-",
            "slow-0",
            "slow-x",
            "accounts--1",
            "slow-99999",
            "<b>",
        ] {
            assert_eq!(Refusal::from_address_word(word), None, "{word}");
        }
    }
}
