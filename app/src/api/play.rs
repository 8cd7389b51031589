//! Games: create, list, view, act, resign; invite links and the open lobby. Every answer about a
//! game is built from the caller's own `PlayerView`, so no other hand, the bag order or the seed
//! can reach them.

use crate::wire::Wire;
use dictionaries::DictionaryId;
use leptos::{prelude::*, server_fn::codec::Json};
use rules::{game::Format, Action, PlayerView, Variant};
use serde::{Deserialize, Serialize};

use super::{GameCard, InviteCard, NewGame, Refusal, RematchCard, RematchMove};

/// The dictionary a stored game names (English for a name no longer known, which only a
/// tampered database could hold: the config was checked at creation).
#[cfg(feature = "ssr")]
pub fn dictionary_of(config: &rules::GameConfig) -> DictionaryId {
    dictionaries::DictionaryRef::parse(&config.dictionary).map_or(DictionaryId::English, |at| at.id)
}

/// A game as its page shows it to the caller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePage {
    /// Seats, scores, phase.
    pub card: GameCard,
    /// The caller's view: in pass-and-play, that of the seat to move.
    pub view: PlayerView,
    /// Where the browser fetches this game's dictionary version (content-hashed, immutable).
    pub dictionary_url: String,
    /// While the game waits for a friend: the invite link's path, for its owner to share.
    pub invite_path: Option<String>,
    /// After a finished game between two players: the rematch, if one was offered.
    pub rematch: Option<RematchCard>,
    /// After a rated game: each seat's rank change.
    pub rank_changes: Vec<Option<i32>>,
    /// After a game between two players: the caller's record against the other.
    pub head_to_head: Option<super::HeadToHead>,
    /// After a game between two players: whether the caller follows the other.
    pub follows_opponent: Option<bool>,
    /// After a Daily Challenge: the result, place, bot's total and review.
    pub daily: Option<super::DailyResult>,
    /// While the player to move is on vacation: when it ends, unix ms (their clock is paused).
    pub vacation_until: Option<i64>,
    /// Whether the caller may nudge the player to move: `None` when they may not in this game
    /// (not their opponent's Casual turn, or a bot's, or theirs is paused).
    pub nudge: Option<NudgeOffer>,
    /// The game's chat, when it has one; sent with the page when it is loaded (`games/get`),
    /// not with every move's answer (`None` there: the page keeps the chat it has).
    pub chat: Option<super::chat::ChatView>,
}

/// When the caller may nudge the player to move, as the server saw it when it sent the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NudgeOffer {
    /// At once.
    Now,
    /// From then on, unix ms: a day after the turn began, or after the last nudge.
    From(i64),
}

/// A game just made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCreated {
    /// Its id.
    pub id: String,
    /// For an invite game: the link to send, `/invite/<token>`.
    pub invite_path: Option<String>,
}

/// A game waiting in the open lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyCard {
    /// The game's id, to join it.
    pub id: String,
    /// Who is waiting.
    pub from: String,
    /// Their rank in the game's dictionary.
    pub from_rank: super::ShownRank,
    /// Whether the game is rated.
    pub rated: bool,
    pub variant: Variant,
    pub dictionary: DictionaryId,
    pub format: Format,
    /// Since when, unix ms.
    pub since: i64,
}

/// Server side: building cards and pages from the store.
#[cfg(feature = "ssr")]
pub mod server {
    use dictionaries::DictionaryId;
    use rules::{GameState, Seat};

    pub use super::dictionary_of;
    use crate::api::{GameCard, GameSummary, Phase, Refusal, SeatHolder};
    use store::{
        games,
        games::GameRow,
        ranks::{self, Ranks},
        seating::{self, SeatRow},
        Services, StoreError,
    };

    use super::GamePage;

    /// The game's state at `row`'s version: as kept in memory, or its log replayed with its
    /// dictionary version.
    pub async fn state(services: &Services, row: &GameRow) -> Result<GameState, StoreError> {
        if let Some(state) = services.db.states.get(&row.id, row.version) {
            return Ok(state);
        }
        let lexicon = services.game_lexicon(&row.config).await?;
        Ok(games::load(&services.db, &row.id, &*lexicon).await?)
    }

    /// Who sits in each seat, players with their rank in `dictionary`.
    pub fn holders(seats: &[SeatRow], ranks: &Ranks, dictionary: DictionaryId) -> Vec<SeatHolder> {
        seats
            .iter()
            .map(|s| match (&s.user, &s.bot) {
                // Pass-and-play: the seats are the owner's, by the names given on the device.
                _ if s.local_name.is_some() => SeatHolder::Local {
                    name: s.local_name.clone().unwrap_or_default(),
                },
                (Some(_), _) if s.closed => SeatHolder::Deleted,
                (Some((id, name)), _) => SeatHolder::Player {
                    name: name.clone(),
                    rank: ranks.of(*id, dictionary),
                },
                (None, Some(level)) => SeatHolder::Bot {
                    level: level.clone(),
                    rank: engine::bot::Level::parse(level).map_or(0, |level| level.rank()),
                },
                (None, None) => SeatHolder::Open,
            })
            .collect()
    }

    /// A game's card for `user_id`; `online` holds who among its players has a live page open,
    /// `ranks` their ranks.
    pub fn card(
        row: &GameRow,
        seats: &[SeatRow],
        summary: GameSummary,
        user_id: i64,
        online: &std::collections::HashSet<i64>,
        ranks: &Ranks,
    ) -> GameCard {
        let dictionary = dictionary_of(&row.config);
        let my_seats: Vec<Seat> = seats
            .iter()
            .filter(|s| s.user.as_ref().is_some_and(|(id, _)| *id == user_id))
            .map(|s| s.seat)
            .collect();
        let holders = holders(seats, ranks, dictionary);
        GameCard {
            id: row.id.clone(),
            variant: row.config.variant,
            dictionary,
            format: row.config.format,
            seats: holders,
            rated: row.rated,
            my_turn: row.phase == Phase::Playing && my_seats.contains(&summary.to_move),
            my_seats,
            scores: summary.scores,
            to_move: summary.to_move,
            last: summary.last,
            winners: summary.winners,
            phase: row.phase,
            updated_at: row.updated_at,
            time_left_ms: match row.phase {
                Phase::Playing => row.deadline_at.map(|d| (d - store::db::now_ms()).max(0)),
                _ => None,
            },
            online: seats
                .iter()
                .map(|s| s.user.as_ref().map(|(id, _)| online.contains(id)))
                .collect(),
            ready: seats.iter().map(|s| s.ready).collect(),
            starts_in_ms: match row.phase {
                Phase::Ready => row.starts_at.map(|t| (t - store::db::now_ms()).max(0)),
                _ => None,
            },
            unread: 0,
        }
    }

    /// Commits an action that needs no particular version (resigning, buying, selling) to the
    /// game as it is, retrying when a move or a purchase came first.
    pub async fn commit_anytime(
        services: &Services,
        id: &str,
        lexicon: &dictionaries::FstLexicon,
        action: impl Fn(&GameState) -> rules::Action,
    ) -> Result<GameState, StoreError> {
        let mut tries = 0;
        loop {
            let state = games::load(&services.db, id, lexicon).await?;
            match games::commit(&services.db, id, state.version(), &action(&state), lexicon).await {
                Err(games::GameError::MovedOn { .. }) if tries < 5 => tries += 1,
                done => return Ok(done?),
            }
        }
    }

    /// The vacation of the player to move and when the caller may nudge them, in a Casual game under
    /// way (no other game has either).
    async fn waiting(
        services: &store::Services,
        row: &store::games::GameRow,
        seats: &[store::seating::SeatRow],
        to_move: rules::Seat,
        user_id: i64,
    ) -> Result<(Option<i64>, Option<super::NudgeOffer>), store::StoreError> {
        use store::nudges::{self, Nudging};
        if row.phase != Phase::Playing || row.config.format != rules::game::Format::Casual {
            return Ok((None, None));
        }
        let vacation_until = match seats
            .iter()
            .find(|s| s.seat == to_move)
            .and_then(|s| s.user.as_ref())
        {
            Some((user, _)) => store::vacations::until_of(&services.db, &[*user])
                .await?
                .get(user)
                .copied(),
            None => None,
        };
        let nudge = match nudges::nudging(&services.db, &row.id, user_id).await? {
            Nudging::From(at) if at <= store::db::now_ms() => Some(super::NudgeOffer::Now),
            Nudging::From(at) => Some(super::NudgeOffer::From(at)),
            Nudging::Never => None,
        };
        Ok((vacation_until, nudge))
    }

    /// The page for `user_id`, who must hold a seat.
    pub async fn page(
        services: &Services,
        game_id: &str,
        user_id: i64,
    ) -> Result<GamePage, StoreError> {
        page_of_table(
            services,
            seating::table(&services.db, game_id).await?,
            user_id,
        )
        .await
    }

    /// [`page`], from the game's table read already.
    pub async fn page_of_table(
        services: &Services,
        table: seating::Table,
        user_id: i64,
    ) -> Result<GamePage, StoreError> {
        let state = state(services, &table.game).await?;
        let summary = GameSummary::of(&state);
        page_of_seated(services, table, &state, summary, user_id).await
    }

    /// The page for `user_id` from a state and its summary in hand (just committed: no second
    /// replay, no second summary).
    pub async fn page_of_seated(
        services: &Services,
        table: seating::Table,
        state: &GameState,
        summary: GameSummary,
        user_id: i64,
    ) -> Result<GamePage, StoreError> {
        let seating::Table {
            game: row,
            seats,
            ranks,
            mut online,
        } = table;
        let game_id = row.id.as_str();
        let people = store::seating::people(&seats);
        let others: Vec<i64> = people.iter().copied().filter(|p| *p != user_id).collect();
        // The player asking is here, whatever the table said a moment ago.
        online.insert(user_id);
        let card = card(&row, &seats, summary, user_id, &online, &ranks);
        // In pass-and-play the device shows the hand of the seat to move.
        let seat = if card.my_seats.contains(&state.to_move()) {
            state.to_move()
        } else {
            *card.my_seats.first().ok_or(Refusal::NoSuchGame)?
        };
        let invite_path = match row.phase {
            Phase::Waiting if row.opponent == domain::OpponentKind::Invite => {
                seating::open_invite_token(&services.db, game_id)
                    .await?
                    .map(|token| format!("/invite/{token}"))
            }
            _ => None,
        };
        let rematch = match row.phase {
            Phase::Over => store::seating::rematch::of(&services.db, game_id)
                .await?
                .map(|r| crate::api::RematchCard {
                    offered_by_me: r.offered_by == user_id,
                    state: r.state,
                    new_game_id: r.new_game_id,
                }),
            _ => None,
        };
        let (rank_changes, head_to_head) = match row.phase {
            Phase::Over => {
                let changes = ranks::changes(&services.db, game_id).await?;
                let head_to_head = match (&people[..], &others[..]) {
                    ([_, _], [other]) => Some((
                        store::profiles::head_to_head(&services.db, user_id, *other).await?,
                        store::friends::follows(&services.db, user_id, *other).await?,
                    )),
                    _ => None,
                };
                let by_seat = seats
                    .iter()
                    .map(|s| {
                        let (before, after) = changes.get(&s.user.as_ref()?.0)?;
                        Some(after - before)
                    })
                    .collect();
                (by_seat, head_to_head)
            }
            _ => (Vec::new(), None),
        };
        let daily = match (row.phase, row.opponent) {
            (Phase::Over, domain::OpponentKind::Daily) => {
                store::daily::result(&services.db, game_id).await?
            }
            _ => None,
        };
        let dictionary_url = services
            .library
            .named(&row.config.dictionary)
            .await?
            .url
            .clone();
        let (vacation_until, nudge) =
            waiting(services, &row, &seats, state.to_move(), user_id).await?;
        Ok(GamePage {
            vacation_until,
            nudge,
            card,
            view: state.view(seat),
            dictionary_url,
            invite_path,
            rematch,
            rank_changes,
            head_to_head: head_to_head.as_ref().map(|(record, _)| *record),
            follows_opponent: head_to_head.map(|(_, follows)| follows),
            daily,
            chat: None,
        })
    }
}

/// Starts a game. A visitor without an account becomes a guest and may play bots and
/// pass-and-play at once.
#[server(input = Json, output = Wire, endpoint = "games/create")]
pub async fn create_game(new: NewGame) -> Result<Result<GameCreated, Refusal>, ServerFnError> {
    use super::server::{answer, services, user_or_guest};
    let services = services()?;
    let user = match user_or_guest(&services).await? {
        Ok(user) => user,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let created = store::seating::create(&services.db, &user, &new).await;
    if let Ok(game) = &created {
        // The creator's other open pages (the game list beside the form) learn of it at once.
        store::games::tell_players(&services.db, &game.id).await;
        if matches!(new.opponent, super::Opponent::Bot { .. }) {
            services.db.bot_wakeup.notify_one();
        }
    }
    // A challenge waits in the friend's games list: there is no link to send.
    let link = !matches!(new.opponent, super::Opponent::Friend { .. });
    answer(created.map(|c| {
        GameCreated {
            id: c.id,
            invite_path: c
                .invite_token
                .filter(|_| link)
                .map(|t| format!("/invite/{t}")),
        }
    }))
}

/// The caller's games: every waiting or playing one, then recent finished ones. Empty without a
/// session.
#[server(input = Json, output = Wire, endpoint = "games/mine")]
pub async fn my_games() -> Result<Vec<GameCard>, ServerFnError> {
    use super::server::{current_user, failed, services, session};
    use store::seating;
    let services = services()?;
    let Some(user) = current_user(&services, &session().await?).await? else {
        return Ok(Vec::new());
    };
    let listed = seating::my_games(&services, user.id)
        .await
        .map_err(failed)?;
    // Four queries for the whole list (seats, presence, ranks, unread), not some per game.
    let ids: Vec<&str> = listed.iter().map(|l| l.game.id.as_str()).collect();
    let mut seats = seating::seats_of(&services.db, &ids)
        .await
        .map_err(failed)?;
    let people: Vec<i64> = seats
        .values()
        .flat_map(|s| store::seating::people(s))
        .collect();
    let online = store::presence::online_among(&services.db, &people)
        .await
        .map_err(failed)?;
    let ranks = store::ranks::of_players(&services.db, &people)
        .await
        .map_err(failed)?;
    let unread = store::chat::unread(&services.db, user.id)
        .await
        .map_err(failed)?;
    let mut cards = Vec::with_capacity(listed.len());
    for seating::Listed { game, summary } in listed {
        let seats = seats.remove(&game.id).unwrap_or_default();
        let mut card = server::card(&game, &seats, summary, user.id, &online, &ranks);
        card.unread = unread.get(&game.id).copied().unwrap_or(0);
        cards.push(card);
    }
    // Stable: each group keeps the store's order, the most recently changed first.
    cards.sort_by_key(GameCard::list_group);
    Ok(cards)
}

/// The caller's game waiting longest on them, other than `current` (the page they are on): where
/// Next game goes. None for a visitor, or when nothing waits on them.
#[server(input = Json, output = Wire, endpoint = "games/next")]
pub async fn next_game(current: String) -> Result<Option<String>, ServerFnError> {
    use super::server::{current_user, failed, services, session};
    let services = services()?;
    let Some(user) = current_user(&services, &session().await?).await? else {
        return Ok(None);
    };
    store::seating::next_turn(&services.db, user.id, &current)
        .await
        .map_err(failed)
}

/// One of the caller's games. Anyone else's answers "no such game".
#[server(input = Json, output = Wire, endpoint = "games/get")]
pub async fn game(id: String) -> Result<Result<GamePage, Refusal>, ServerFnError> {
    super::server::as_player(async |services, user| {
        // The game's table is read once, for the chat and the page.
        let table = store::seating::table(&services.db, &id).await?;
        let chat = super::chat::server::view_at(&services, &table, user.id).await?;
        let mut page = server::page_of_table(&services, table, user.id).await?;
        page.chat = chat;
        Ok(page)
    })
    .await
}

/// Acts in a game, if it is still at `expected_version`: the server re-validates with the rules
/// and commits, or refuses and changes nothing.
#[server(input = Json, output = Wire, endpoint = "games/act")]
pub async fn act(
    id: String,
    expected_version: u32,
    action: Action,
) -> Result<Result<GamePage, Refusal>, ServerFnError> {
    use store::{games, seating};
    super::server::as_player(async |services, user| {
        // Read once: who may act, what the move is judged against, and the page's seats and
        // ranks after (a commit moves no one, and only a game's end moves ranks).
        let seating::Table {
            game: mut row,
            seats,
            mut ranks,
            online,
        } = seating::table(&services.db, &id).await?;
        let mine = seating::mine(&seats, user.id)?;
        if matches!(action, Action::TimedOut { .. }) {
            return Err(Refusal::Invalid("only the clock times a player out".into()).into());
        }
        if !mine.contains(&action.seat()) {
            return Err(Refusal::NotYourSeat.into());
        }
        let lexicon = services.game_lexicon(&row.config).await?;
        let (state, summary) = match action {
            // Buying and selling do not depend on the position: applied to the game as it is.
            Action::Buy { .. } | Action::Sell { .. } => {
                let state =
                    server::commit_anytime(&services, &id, &lexicon, |_| action.clone()).await?;
                // The row again: the clock may have moved meanwhile.
                row = games::row(&services.db, &id).await?;
                let summary = domain::GameSummary::of(&state);
                (state, summary)
            }
            _ => {
                let seen = games::Seen {
                    row: &row,
                    audience: store::bus::Audience {
                        users: store::seating::people(&seats),
                        lobby: row.opponent == domain::OpponentKind::Lobby,
                    },
                };
                let committed = games::commit_telling(
                    &services.db,
                    &id,
                    expected_version,
                    &action,
                    &*lexicon,
                    Some(seen),
                )
                .await?;
                // The row as the commit wrote it: no second read.
                row = committed.written(&row);
                (committed.state, committed.summary)
            }
        };
        if row.phase == crate::api::Phase::Over {
            ranks = store::ranks::of_players(&services.db, &store::seating::people(&seats)).await?;
        }
        let table = seating::Table {
            game: row,
            seats,
            ranks,
            online,
        };
        server::page_of_seated(&services, table, &state, summary, user.id).await
    })
    .await
}

/// Resigns (for the seat to move, in pass-and-play); a waiting game is withdrawn instead.
#[server(input = Json, output = Wire, endpoint = "games/resign")]
pub async fn resign(id: String) -> Result<Result<GamePage, Refusal>, ServerFnError> {
    use crate::api::Phase;
    use store::{games, seating};
    super::server::as_player(async |services, user| {
        let mine = seating::my_seats(&services.db, &id, user.id).await?;
        let row = games::row(&services.db, &id).await?;
        // Before the first move: the owner withdraws a waiting game; either player calls off a
        // Ready lobby.
        if row.phase == Phase::Ready || (row.phase == Phase::Waiting && mine.contains(&0)) {
            seating::withdraw(&services.db, &id).await?;
            store::games::tell_players(&services.db, &id).await;
        }
        if matches!(row.phase, Phase::Waiting | Phase::Ready) {
            return server::page(&services, &id, user.id).await;
        }
        let lexicon = services.game_lexicon(&row.config).await?;
        server::commit_anytime(&services, &id, &lexicon, |state| Action::Resign {
            seat: if mine.contains(&state.to_move()) {
                state.to_move()
            } else {
                mine[0]
            },
        })
        .await?;
        server::page(&services, &id, user.id).await
    })
    .await
}

/// In a friend Blitz match's Ready lobby: ready (or not). When both are ready the match starts
/// 3 seconds later; un-readying stops the countdown and clears both flags.
#[server(input = Json, output = Wire, endpoint = "games/ready")]
pub async fn ready(id: String, ready: bool) -> Result<Result<GamePage, Refusal>, ServerFnError> {
    use store::{clocks, seating};
    super::server::as_player(async |services, user| {
        let mine = seating::my_seats(&services.db, &id, user.id).await?;
        clocks::set_ready(&services.db, &id, mine[0], ready).await?;
        server::page(&services, &id, user.id).await
    })
    .await
}

/// What an invite link offers, to anyone holding it.
#[server(input = Json, output = Wire, endpoint = "invites/get")]
pub async fn invite(token: String) -> Result<Result<InviteCard, Refusal>, ServerFnError> {
    use super::server::{answer, services};
    use store::seating;
    let services = services()?;
    answer(
        async {
            let seating::Invite {
                game,
                owner,
                expires_at,
                open,
                ..
            } = seating::invite(&services.db, &token).await?;
            let dictionary = dictionary_of(&game.config);
            let ranks = store::ranks::of_players(&services.db, &[owner.id]).await?;
            Ok(InviteCard {
                from: owner.name,
                from_rank: ranks.of(owner.id, dictionary),
                rated: game.rated,
                variant: game.config.variant,
                dictionary,
                format: game.config.format,
                expires_at,
                open,
            })
        }
        .await,
    )
}

/// Accepts (returning the game's id; the caller then moves first) or declines an invite.
#[server(input = Json, output = Wire, endpoint = "invites/answer")]
pub async fn answer_invite(
    token: String,
    accept: bool,
) -> Result<Result<Option<String>, Refusal>, ServerFnError> {
    use super::server::{answer, services};
    use store::seating;
    if !accept {
        let services = services()?;
        return answer(seating::decline(&services.db, &token).await.map(|()| None));
    }
    super::server::as_player(async |services, user| {
        let game = seating::invite(&services.db, &token).await?.game;
        seating::join(&services.db, &user, &game.id, Some(&token)).await?;
        Ok(Some(game.id))
    })
    .await
}

/// Games waiting in the open lobby.
#[server(input = Json, output = Wire, endpoint = "lobby/list")]
pub async fn lobby() -> Result<Vec<LobbyCard>, ServerFnError> {
    use super::server::{current_user, failed, services, session};
    let services = services()?;
    // Games of players who blocked the caller, or whom they blocked, are not shown to them.
    let viewer = current_user(&services, &session().await?).await?;
    let games = store::seating::lobby(&services.db, viewer.map(|u| u.id))
        .await
        .map_err(failed)?;
    let owners: Vec<i64> = games.iter().map(|g| g.owner.id).collect();
    let ranks = store::ranks::of_players(&services.db, &owners)
        .await
        .map_err(failed)?;
    Ok(games
        .into_iter()
        .map(|store::seating::LobbyGame { game, owner }| LobbyCard {
            id: game.id,
            from_rank: ranks.of(owner.id, dictionary_of(&game.config)),
            from: owner.name,
            rated: game.rated,
            variant: game.config.variant,
            dictionary: dictionary_of(&game.config),
            format: game.config.format,
            since: game.updated_at,
        })
        .collect())
}

/// Joins a lobby game; the caller moves first.
#[server(input = Json, output = Wire, endpoint = "lobby/join")]
pub async fn join_lobby_game(id: String) -> Result<Result<String, Refusal>, ServerFnError> {
    super::server::as_player(async |services, user| {
        store::seating::join(&services.db, &user, &id, None).await?;
        Ok(id)
    })
    .await
}

/// Offers, withdraws, accepts or declines a rematch of a finished game between two players.
#[server(input = Json, output = Wire, endpoint = "games/rematch")]
pub async fn rematch(
    id: String,
    answer: RematchMove,
) -> Result<Result<GamePage, Refusal>, ServerFnError> {
    use store::seating::rematch;
    super::server::as_player(async |services, user| {
        match answer {
            RematchMove::Offer => rematch::offer(&services.db, &user, &id).await?,
            RematchMove::Cancel => rematch::cancel(&services.db, &user, &id).await?,
            RematchMove::Decline => rematch::decline(&services.db, &user, &id).await?,
            RematchMove::Accept => {
                rematch::accept(&services.db, &user, &id).await?;
            }
        }
        store::games::tell_players(&services.db, &id).await;
        server::page(&services, &id, user.id).await
    })
    .await
}
