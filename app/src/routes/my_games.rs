//! The caller's games, as a list on the start page: challenges waiting for an answer, then the
//! games with opponents, ruleset, scores, whose turn, unread chat and, near a deadline, the time
//! left; and the friends the caller follows, online ones first. It follows the live stream, so
//! moves, challenges and messages show without a reload.

use leptos::prelude::*;

use crate::tr;
use crate::{
    api::{
        friends::{answer_challenge, friends, ChallengeCard, FriendCard},
        play::my_games,
        GameCard, LastPlay, LastTurn, Phase, SeatHolder,
    },
    i18n::{format_name, ruleset_name, seat_label, Language, Texts},
    routes::player::Holder,
};

fn status(texts: Texts, card: &GameCard) -> String {
    match card.phase {
        Phase::Waiting => tr!(texts, my_games.waiting).into(),
        Phase::Ready => tr!(texts, my_games.ready).into(),
        Phase::Cancelled => tr!(texts, my_games.called_off).into(),
        // One seat of the caller's: won, drawn or lost; pass-and-play (all seats theirs): over.
        Phase::Over => match card.my_seats.as_slice() {
            [seat] => match domain::GameResult::of(&card.winners, *seat) {
                domain::GameResult::Won => tr!(texts, my_games.won).into(),
                domain::GameResult::Drawn => tr!(texts, my_games.drawn).into(),
                domain::GameResult::Lost => tr!(texts, my_games.lost).into(),
            },
            _ => tr!(texts, my_games.finished).into(),
        },
        Phase::Playing if card.my_turn => tr!(texts, my_games.your_turn).into(),
        Phase::Playing => tr!(
            texts,
            my_games.their_turn,
            name = seat_label(texts, &card.seats, card.to_move)
        ),
    }
}

/// The last turn of a game that has begun, in words: "Bob played QUIZ for 42".
fn last_play(texts: Texts, card: &GameCard) -> Option<String> {
    let LastPlay { seat, turn } = card.last.as_ref()?;
    let who = seat_label(texts, &card.seats, *seat);
    Some(match turn {
        LastTurn::Played { word, points } => {
            tr!(
                texts,
                history.played,
                who,
                words = word.clone(),
                total = *points
            )
        }
        LastTurn::Passed => tr!(texts, history.passed, who),
        LastTurn::Exchanged => tr!(texts, my_games.exchanged, who),
        LastTurn::Other => return None,
    })
}

/// What the start page lists for a player: their games and their friends (with the challenges
/// waiting for them), both following the live stream.
#[derive(Clone, Copy)]
pub struct Lists {
    /// The caller's games, in the list's order.
    pub games: crate::loaded::Loaded<Vec<GameCard>>,
    friends: crate::loaded::Loaded<Result<crate::api::friends::FriendsPage, crate::api::Refusal>>,
}

impl Lists {
    /// Loads both lists with the page and refetches them on every live change.
    pub fn load() -> Lists {
        let games = crate::loaded::load(|| (), |_| my_games());
        let friends = crate::loaded::load(|| (), |_| friends());
        crate::live::follow(
            "/api/live".into(),
            move || {
                games.refetch();
                friends.refetch();
            },
            |_| {},
            || {},
        );
        Lists { games, friends }
    }

    /// Whether the caller has any game to list (false while loading and for a visitor).
    pub fn has_games(self) -> bool {
        self.games
            .get()
            .and_then(Result::ok)
            .is_some_and(|games| !games.is_empty())
    }
}

/// The challenges waiting for the caller.
#[component]
pub fn WaitingChallenges(lists: Lists) -> impl IntoView {
    let friends = lists.friends;
    view! {
        <Transition fallback=|| ()>
            {move || friends.get().and_then(Result::ok).and_then(Result::ok).map(|f| view! {
                <Challenges challenges=f.challenges on_answer=move || friends.refetch() />
            })}
        </Transition>
    }
}

/// The friends the caller follows.
#[component]
pub fn Following(lists: Lists) -> impl IntoView {
    view! {
        <Transition fallback=|| ()>
            {move || lists.friends.get().and_then(Result::ok).and_then(Result::ok).map(|f| view! {
                <FriendsPanel friends=f.following />
            })}
        </Transition>
    }
}

/// The games list's heading, with the button that opens the New Game form above the list.
#[component]
pub fn GamesHead(lists: Lists, form_open: RwSignal<bool>) -> impl IntoView {
    let open = move |_| form_open.update(|open| *open = !*open);
    view! {
        <Transition fallback=|| ()>
            {move || lists.has_games().then(|| view! {
                <div class="games-head">
                    <h1 id="my-games-title">{crate::t!(my_games.title)}</h1>
                    <button type="button" class="primary" data-testid="new-game-open" aria-controls="new-game"
                        aria-expanded=move || form_open.get().to_string() on:click=open>
                        {move || if form_open.get() { crate::t!(my_games.close_form)() } else { crate::t!(my_games.new_game)() }}
                    </button>
                </div>
            })}
        </Transition>
    }
}

/// The list; nothing when the visitor has no games.
#[component]
pub fn MyGames(lists: Lists) -> impl IntoView {
    let games = lists.games;
    let language = Language::expect();
    view! {
        <Transition fallback=|| ()>
            {move || games.get().and_then(Result::ok).filter(|g| !g.is_empty()).map(|games| { let texts = language.get(); view! {
                <section class="my-games" aria-labelledby="my-games-title">
                    <ul class="game-list" data-testid="my-games">
                        {games.into_iter().map(|card| view! { <GameItem card texts /> }).collect_view()}
                    </ul>
                </section>
            }})}
        </Transition>
    }
}

/// One game of the list: the players with their scores, what is played, the last turn, and its
/// status (unread chat, time left).
#[component]
fn GameItem(card: GameCard, texts: Texts) -> impl IntoView {
    let players = card.seats.iter().zip(&card.scores).enumerate()
        .map(|(i, (seat, score))| {
            // Others' presence: a dot, green when they have the game open.
            let dot = card.online.get(i).copied().flatten()
                .filter(|_| !card.my_seats.contains(&(i as u8)))
                .map(|on| view! { <span role="img" class=if on { "presence online" } else { "presence" }
                    title=if on { tr!(texts, game.online) } else { tr!(texts, game.away) } aria-label=if on { tr!(texts, game.online) } else { tr!(texts, game.away) }></span> });
            view! { {(i > 0).then_some(" · ")}{dot}<Holder holder=seat.clone() />{format!(" {score}")} }
        })
        .collect_view();
    let class = if card.my_turn {
        "card row my-turn"
    } else {
        "card row"
    };
    view! {
        // The whole card opens the game (the link stretches over it); the
        // names above it open their profiles.
        <li class=class data-game=card.id.clone()>
            <div class="card-body">
                <strong class="card-players">{players}</strong><br />
                <a class="card-link" href=format!("/game/{}", card.id)>
                    <span class="muted">{ruleset_name(texts, &card.variant)}" · "
                        {crate::i18n::dictionary_name(texts, card.dictionary)}" · "{format_name(texts, card.format)}
                        {(!card.rated && card.seats.len() == 2 && card.seats.iter().all(|s| matches!(s, SeatHolder::Player { .. }))).then(|| format!(" · {}", tr!(texts, my_games.unrated)))}</span>
                </a>
                {last_play(texts, &card).map(|last| view! { <br /><span class="muted last-play" data-testid="last-play">{last}</span> })}
            </div>
            <span class="status">{status(texts, &card)}
                {(card.unread > 0).then(|| view! {
                    " " <span class="unread" data-testid="unread">{tr!(texts, chat.unread, count = card.unread)}</span>
                })}
                {card.time_left_ms.map(|left_ms| view! {
                    " " <crate::live::Clock left_ms blitz=card.format == rules::game::Format::Blitz />
                })}
            </span>
        </li>
    }
}

/// Challenges waiting for the caller's answer: accept (the game opens) or decline.
#[component]
fn Challenges(
    challenges: Vec<ChallengeCard>,
    on_answer: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let answering = Action::new(move |(game, accept): &(String, bool)| {
        let (game, accept) = (game.clone(), *accept);
        async move { (accept, answer_challenge(game, accept).await) }
    });
    let said = RwSignal::new(None::<String>);
    let language = Language::expect();
    Effect::new(move |_| match answering.value().get() {
        Some((true, Ok(Ok(game)))) => {
            leptos_router::hooks::use_navigate()(&format!("/game/{game}"), Default::default())
        }
        Some((_, Ok(Err(why)))) => {
            said.set(Some(crate::i18n::refusal(language.get_untracked(), &why)));
            on_answer();
        }
        Some(_) => on_answer(),
        None => {}
    });
    (!challenges.is_empty()).then(|| view! {
        <section class="card challenges" data-testid="challenges" aria-labelledby="challenges-title">
            <h2 id="challenges-title">{crate::t!(friends.challenges)}</h2>
            <ul class="game-list">
                {challenges.into_iter().map(|c| {
                    let (accept, decline) = (c.game.id.clone(), c.game.id.clone());
                    let id = c.game.id.clone();
                    view! {
                        <li class="card row" data-challenge=id>
                            <span>{move || { let texts = language.get(); tr!(texts, friends.challenged_by, name = c.from.clone(),
                                game = challenge_terms(texts, &c.game)) }}</span>
                            <span class="actions">
                                <button class="primary" on:click=move |_| { answering.dispatch((accept.clone(), true)); }>{crate::t!(friends.accept)}</button>
                                <button on:click=move |_| { answering.dispatch((decline.clone(), false)); }>{crate::t!(friends.decline)}</button>
                            </span>
                        </li>
                    }
                }).collect_view()}
            </ul>
            {move || said.get().map(|said| view! { <crate::alert::Alert text=said /> })}
        </section>
    })
}

/// What a challenge offers: "Alfa Kraft · English · Casual · rated".
fn challenge_terms(texts: Texts, game: &GameCard) -> String {
    let rated = match game.rated {
        true => tr!(texts, my_games.rated),
        false => tr!(texts, my_games.unrated),
    };
    format!(
        "{} · {} · {} · {rated}",
        ruleset_name(texts, &game.variant),
        crate::i18n::dictionary_name(texts, game.dictionary),
        format_name(texts, game.format)
    )
}

/// The friends the caller follows, online ones first, each with a Challenge link; and the way to
/// the Friends page.
#[component]
fn FriendsPanel(friends: Vec<FriendCard>) -> impl IntoView {
    (!friends.is_empty()).then(|| view! {
        <section class="card friends-panel" aria-labelledby="friends-title">
            <h2 id="friends-title"><a href="/friends">{crate::t!(friends.title)}</a></h2>
            <ul class="friend-list">
                {friends.into_iter().take(8).map(|f| view! { <Friend friend=f /> }).collect_view()}
            </ul>
        </section>
    })
}

/// A friend: presence, name (their profile), rank, and Challenge.
#[component]
pub fn Friend(friend: FriendCard) -> impl IntoView {
    let language = Language::expect();
    let online = friend.online;
    let challenge = format!("/?friend={}#new-game-title", friend.name);
    view! {
        <li class="friend" data-friend=friend.name.clone()>
            <span role="img" class=if online { "presence online" } else { "presence" }
                aria-label=move || if online { tr!(language.get(), game.online) } else { tr!(language.get(), game.away) }></span>
            " "<a href=crate::api::profile_path(&friend.name)>{friend.name.clone()}</a>
            " "<span class="muted">{format!("({})", friend.rank)}</span>
            " "<a class="button small" href=challenge>{crate::t!(friends.challenge)}</a>
        </li>
    }
}
