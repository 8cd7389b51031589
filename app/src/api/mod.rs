//! The server functions, which are the app's API, and the types they exchange. The same types
//! compile into the browser bundle; the bodies of the functions run on the server only.
//!
//! Every function answers `Ok(Ok(value))`, `Ok(Err(refusal))` when the request was understood
//! and refused (a rule, a missing sign-in, a stale version: the page shows the message), or
//! `Err(ServerFnError)` when the server itself failed.

pub mod account;
pub mod admin;
pub mod analysis;
pub mod blocks;
pub mod chat;
pub mod daily;
pub mod device;
pub mod friends;
pub mod leagues;
pub mod mail;
pub mod moderation;
pub mod play;
pub mod push;
pub mod reports;
pub mod tournaments;
pub mod waiting;

use dictionaries::DictionaryId;
use rules::{game::Format, Seat, Variant};
use serde::{Deserialize, Serialize};

pub use domain::{
    fits, profile_path, DailyCard, DailyHome, DailyResult, DailyState, GameSummary, HeadToHead,
    LastPlay, LastTurn, NewGame, Opponent, Phase, Refusal, RematchCard, RematchMove, RematchState,
    ReviewPlay, ReviewTurn, ShownRank, Streak, BLITZ_INVITE_TTL_MS, INVITE_TTL_MS,
    MAX_ACTIVE_GAMES, REMATCH_TTL_MS,
};

/// Who sits in a seat, as anyone at the table may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatHolder {
    /// A person.
    Player {
        /// Their name.
        name: String,
        /// Their rank in the game's dictionary.
        rank: ShownRank,
    },
    /// A bot.
    Bot {
        /// Its level's name.
        level: String,
        /// Its displayed rank.
        rank: i32,
    },
    /// Nobody yet.
    Open,
    /// A person who has since closed their account.
    Deleted,
    /// A seat of a pass-and-play game, by the name given on the device (no account behind it).
    Local {
        /// The name.
        name: String,
    },
}

impl SeatHolder {
    /// How cards and pages name the seat: the player or the bot with its rank (`ann (1240?)`,
    /// `casual bot (950)`), or "waiting…".
    pub fn label(&self) -> String {
        match self {
            SeatHolder::Player { name, rank } => format!("{name} ({rank})"),
            other => other.name(),
        }
    }

    /// How sentences name the seat: the player's name alone, the bot with its rank, or
    /// "waiting…".
    pub fn name(&self) -> String {
        match self {
            SeatHolder::Player { name, .. } => name.clone(),
            SeatHolder::Bot { level, rank } => format!("{level} bot ({rank})"),
            SeatHolder::Open => "waiting…".into(),
            SeatHolder::Deleted => "deleted player".into(),
            SeatHolder::Local { name } => name.clone(),
        }
    }
}

/// One game as the game list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCard {
    /// The game's id.
    pub id: String,
    pub variant: Variant,
    pub dictionary: DictionaryId,
    pub format: Format,
    /// Every seat in turn order.
    pub seats: Vec<SeatHolder>,
    /// The caller's seats (all of them in pass-and-play).
    pub my_seats: Vec<Seat>,
    /// Scores by seat.
    pub scores: Vec<i32>,
    /// Whose turn it is.
    pub to_move: Seat,
    /// The last turn taken, if any.
    pub last: Option<LastPlay>,
    /// Who won, once the game is over (several on a draw).
    pub winners: Vec<Seat>,
    /// Where the game stands.
    pub phase: Phase,
    /// Whether the caller is to move.
    pub my_turn: bool,
    /// Last change, unix ms.
    pub updated_at: i64,
    /// The time the player to move had left when this card was made, in ms; `None` when no clock
    /// runs. Sent as a span, not a moment, so a browser's wrong clock does not matter.
    pub time_left_ms: Option<i64>,
    /// Which seats have a live page open (`None` for a bot or an open seat).
    pub online: Vec<Option<bool>>,
    /// In the Ready lobby: which seats pressed Ready.
    pub ready: Vec<bool>,
    /// In the Ready lobby, once both are ready: the time until the match starts, in ms.
    pub starts_in_ms: Option<i64>,
    /// Whether its end moves the players' ranks.
    pub rated: bool,
    /// Chat messages the caller has not seen.
    pub unread: u32,
}

/// Where a game stands in its player's list: the lists show games waiting on the player first,
/// then those waiting on someone else, then finished ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ListGroup {
    /// The player is to move.
    MyTurn,
    /// Under way or about to be, on someone else.
    Waiting,
    /// Over or called off.
    Finished,
}

impl GameCard {
    /// The card's group in its player's list.
    pub fn list_group(&self) -> ListGroup {
        match self.phase {
            Phase::Over | Phase::Cancelled => ListGroup::Finished,
            _ if self.my_turn => ListGroup::MyTurn,
            _ => ListGroup::Waiting,
        }
    }

    /// Whether the game is played on this device (its page keeps it, with no clock).
    pub fn on_device(&self) -> bool {
        self.id.starts_with(DEVICE_GAME_ID)
    }
}

/// What a device game's card id starts with (the key follows).
pub const DEVICE_GAME_ID: &str = "device-";

/// An invite as its link shows it, to anyone holding the link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InviteCard {
    /// Who invites.
    pub from: String,
    /// Their rank in the game's dictionary.
    pub from_rank: ShownRank,
    /// Whether the game is rated.
    pub rated: bool,
    pub variant: Variant,
    pub dictionary: DictionaryId,
    pub format: Format,
    /// Until when it can be accepted, unix ms.
    pub expires_at: i64,
    /// Whether it can still be answered.
    pub open: bool,
}

/// The signed-in player (or guest) as the pages see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    pub name: String,
    /// A guest, who may sign up to keep their games.
    pub guest: bool,
    /// May manage dictionaries.
    pub admin: bool,
    /// The interface language the account chose (sent when signing in, so the page can switch).
    pub language: Option<crate::i18n::Lang>,
    /// A mute or suspension in force, which the pages show.
    pub standing: Option<Standing>,
}

/// What became of a plain form post, as its page's address carries it back (`?done=true` or
/// `?refused=<the refusal as JSON>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    /// It was done.
    #[serde(default)]
    pub done: bool,
    /// It was refused: the refusal, as JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// A sanction in force on the signed-in player, as they are told of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Suspended (no new games, no chat), not only muted (no chat).
    pub suspended: bool,
    /// Until when, unix ms; `None` for good.
    pub until: Option<i64>,
    /// The admins' reason.
    pub reason: String,
}

/// Server-side plumbing shared by the server functions.
#[cfg(feature = "ssr")]
pub(crate) mod server {
    use leptos::prelude::{use_context, ServerFnError};
    use tower_sessions::Session;

    use super::{Me, Refusal};
    use store::{
        accounts::{self, Role, User},
        Services, StoreError,
    };

    use store::accounts::sessions::USER_KEY;

    pub fn services() -> Result<Services, ServerFnError> {
        use_context::<Services>().ok_or_else(|| ServerFnError::new("the server is not set up"))
    }

    pub async fn session() -> Result<Session, ServerFnError> {
        leptos_axum::extract::<Session>()
            .await
            .map_err(|e| ServerFnError::new(format!("no session: {e}")))
    }

    /// The caller's address, when the server knows it (for the sign-in limit).
    pub fn client_addr() -> Option<String> {
        let parts = use_context::<http::request::Parts>()?;
        parts
            .extensions
            .get::<store::limits::ClientAddr>()
            .map(|a| a.0.to_string())
    }

    /// Confirms that `password` is the signed-in `user`'s, behind the sign-in backoff for their
    /// name and the caller's address: what a change to the account's keys asks first.
    pub async fn confirm_password(
        services: &Services,
        user: &User,
        password: &str,
    ) -> Result<accounts::security::Confirmed, StoreError> {
        let address = client_addr();
        let confirmed =
            accounts::security::confirm_password(&services.db, user, password, address.as_deref());
        Ok(confirmed.await?)
    }

    /// After a password reset (by recovery code or mailed link): this browser is signed in,
    /// unless the account signs in with a second factor too, which a reset never passes: then
    /// the answer says the password is set, and the player signs in with it and their code.
    pub async fn sign_in_after_reset(
        services: &Services,
        user: &User,
    ) -> Result<Result<super::Me, Refusal>, ServerFnError> {
        if accounts::two_factor::enabled(&services.db, user.id)
            .await
            .map_err(failed)?
        {
            return Ok(Err(Refusal::Account(domain::AccountProblem::PasswordSet)));
        }
        remember(&session().await?, user).await?;
        Ok(Ok(me(user)))
    }

    /// Turns a store result into a server function's answer: refusals go to the player, failures
    /// are logged and reported without their details.
    pub fn answer<T>(result: Result<T, StoreError>) -> Result<Result<T, Refusal>, ServerFnError> {
        match result {
            Ok(value) => Ok(Ok(value)),
            Err(StoreError::Refused(refusal)) => Ok(Err(refusal)),
            Err(error) => {
                tracing::error!(%error, "server function failed");
                Err(ServerFnError::new("the server failed; please try again"))
            }
        }
    }

    /// Maps any store error into the "failed" branch, for plumbing that cannot be refused.
    pub fn failed(error: impl std::fmt::Display) -> ServerFnError {
        tracing::error!(%error, "server function failed");
        ServerFnError::new("the server failed; please try again")
    }

    pub fn me(user: &User) -> Me {
        Me {
            name: user.name.clone(),
            guest: user.guest,
            language: None,
            admin: user.role == Role::Admin,
            standing: None,
        }
    }

    /// The most severe sanction in force on `user`, for [`Me::standing`].
    pub async fn standing(
        services: &Services,
        user: &User,
    ) -> Result<Option<super::Standing>, ServerFnError> {
        use store::moderation::SanctionKind;
        let sanctions = store::moderation::standing(&services.db, user.id)
            .await
            .map_err(failed)?;
        Ok(sanctions.into_iter().next().map(|s| super::Standing {
            suspended: s.kind == SanctionKind::Suspend,
            until: s.until,
            reason: s.reason,
        }))
    }

    /// The user this session belongs to, if any.
    pub async fn current_user(
        services: &Services,
        session: &Session,
    ) -> Result<Option<User>, ServerFnError> {
        store::accounts::sessions::user_of(&services.db, session)
            .await
            .map_err(failed)
    }

    /// Runs `body` for the signed-in user and answers with its result; without a user, the
    /// answer is "sign in first".
    pub async fn as_player<T, F, Fut>(body: F) -> Result<Result<T, Refusal>, ServerFnError>
    where
        F: FnOnce(Services, User) -> Fut,
        Fut: std::future::Future<Output = Result<T, StoreError>>,
    {
        let services = services()?;
        let session = session().await?;
        let Some(user) = current_user(&services, &session).await? else {
            return Ok(Err(Refusal::SignInFirst));
        };
        answer(body(services, user).await)
    }

    /// Runs `body` for a signed-up player: a guest is asked to sign up (friends, blocks, chat
    /// settings and reports are for accounts with a name others can find).
    pub async fn as_member<T, F, Fut>(body: F) -> Result<Result<T, Refusal>, ServerFnError>
    where
        F: FnOnce(Services, User) -> Fut,
        Fut: std::future::Future<Output = Result<T, StoreError>>,
    {
        as_player(async |services, user| {
            if user.guest {
                return Err(Refusal::AccountNeeded.into());
            }
            body(services, user).await
        })
        .await
    }

    /// Runs `body` for a signed-up player ([`as_member`]) from a form, which a page without
    /// scripts may post plainly: such a post is sent back to its page ([`back_to_page`]).
    pub async fn as_member_form<T, F, Fut>(body: F) -> Result<Result<T, Refusal>, ServerFnError>
    where
        F: FnOnce(Services, User) -> Fut,
        Fut: std::future::Future<Output = Result<T, StoreError>>,
    {
        let answer = as_member(body).await?;
        back_to_page(&answer);
        Ok(answer)
    }

    /// Sends a plain form post (from a page without scripts: a profile, `/friends`, `/settings`)
    /// back to its page, saying what became of it: `?done=1`, or `?refused=` with the refusal as
    /// JSON, which the page words in its reader's language (a page never shows text taken from
    /// its address). Does nothing for the page's own requests.
    pub fn back_to_page<T>(answer: &Result<T, Refusal>) {
        back_to_section(answer, None);
    }

    /// [`back_to_page`], scrolled to the page's element with id `section` when there is one (a
    /// form far down a long page, whose answer is shown where it was).
    pub fn back_to_section<T>(answer: &Result<T, Refusal>, section: Option<&str>) {
        if !crate::wire::accepts("text/html") {
            return;
        }
        let Some(parts) = use_context::<http::request::Parts>() else {
            return;
        };
        // Back to the page the form is on, when it is a page of this site; else the start page.
        let host = parts
            .headers
            .get(http::header::HOST)
            .and_then(|h| h.to_str().ok());
        let page = parts
            .headers
            .get(http::header::REFERER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<http::Uri>().ok())
            .filter(|uri| uri.authority().map(|a| a.as_str()) == host)
            .map(|uri| uri.path().to_string())
            .filter(|path| domain::is_local_path(path))
            .unwrap_or_else(|| "/".into());
        let said = match answer {
            Ok(_) => super::Said {
                done: true,
                refused: None,
            },
            Err(refusal) => super::Said {
                done: false,
                refused: serde_json::to_string(refusal).ok(),
            },
        };
        let query = serde_qs::to_string(&said).unwrap_or_default();
        let fragment = section.map(|id| format!("#{id}")).unwrap_or_default();
        leptos_axum::redirect(&format!("{page}?{query}{fragment}"), false);
    }

    /// Runs `body` for a signed-in admin; anyone else is refused.
    pub async fn as_admin<T, F, Fut>(body: F) -> Result<Result<T, Refusal>, ServerFnError>
    where
        F: FnOnce(Services, User) -> Fut,
        Fut: std::future::Future<Output = Result<T, StoreError>>,
    {
        let session = session().await?;
        as_player(async move |services, user| {
            if user.role != Role::Admin {
                return Err(Refusal::AdminsOnly.into());
            }
            if services.admins_need_two_factor
                && !accounts::two_factor::passed_second_factor(&services.db, &session, user.id)
                    .await?
            {
                return Err(Refusal::Account(domain::AccountProblem::SecondFactorRequired).into());
            }
            body(services, user).await
        })
        .await
    }

    /// The user, or a new guest put into the session: how a visitor plays a bot at once.
    pub async fn user_or_guest(
        services: &Services,
    ) -> Result<Result<User, Refusal>, ServerFnError> {
        let session = session().await?;
        if let Some(user) = current_user(services, &session).await? {
            return Ok(Ok(user));
        }
        if let Err(refusal) = new_account_allowed(services) {
            return Ok(Err(refusal));
        }
        let guest = accounts::create_guest(&services.db).await.map_err(failed)?;
        remember(&session, &guest).await?;
        Ok(Ok(guest))
    }

    /// Counts a new account (sign-up or guest) against the caller's address, or refuses it
    /// when the address has made its hour's worth. Without an address (tests calling the
    /// router directly) there is nothing to count.
    pub fn new_account_allowed(services: &Services) -> Result<(), Refusal> {
        let Some(address) = client_addr() else {
            return Ok(());
        };
        let key = format!("addr:{address}");
        if let Some(wait) = services.new_accounts.check(&[&key]) {
            metrics::counter!("alfakraft_rate_limited_total", "limit" => "new_accounts")
                .increment(1);
            return Err(Refusal::TooManyAccounts {
                minutes: wait.as_secs().div_ceil(60).max(1),
            });
        }
        services.new_accounts.record(&[&key]);
        Ok(())
    }

    /// Puts `user` into the session under a fresh session id (no fixation).
    pub async fn remember(session: &Session, user: &User) -> Result<(), ServerFnError> {
        session.cycle_id().await.map_err(failed)?;
        // The device, for the player's list of sessions.
        let agent = use_context::<http::request::Parts>().and_then(|parts| {
            let agent = parts.headers.get(http::header::USER_AGENT)?.to_str().ok()?;
            Some(store::accounts::security::device_of(agent))
        });
        if let Some(device) = agent {
            session
                .insert(store::accounts::sessions::DEVICE_KEY, device)
                .await
                .map_err(failed)?;
        }
        session.insert(USER_KEY, user.id).await.map_err(failed)
    }

    /// Empties the session.
    pub async fn forget(session: &Session) -> Result<(), ServerFnError> {
        session.flush().await.map_err(failed)
    }
}
