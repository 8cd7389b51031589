//! The caller's games, as a list on the start page: opponents, ruleset, scores, whose turn and,
//! near a deadline, the time left. It follows the live stream, so moves show without a reload.

use leptos::prelude::*;

use crate::tr;
use crate::{
    api::{play::my_games, GameCard, Phase, SeatHolder},
    i18n::{format_name, ruleset_name, seat_label, Language, Texts},
    routes::player::Holder,
};

fn status(texts: Texts, card: &GameCard) -> String {
    match card.phase {
        Phase::Waiting => tr!(texts, my_games.waiting).into(),
        Phase::Ready => tr!(texts, my_games.ready).into(),
        Phase::Cancelled => tr!(texts, my_games.called_off).into(),
        Phase::Over => tr!(texts, my_games.finished).into(),
        Phase::Playing if card.my_turn => tr!(texts, my_games.your_turn).into(),
        Phase::Playing => tr!(
            texts,
            my_games.their_turn,
            name = seat_label(texts, &card.seats, card.to_move)
        ),
    }
}

/// The list; nothing when the visitor has no games.
#[component]
pub fn MyGames() -> impl IntoView {
    let games = crate::loaded::load(|| (), |_| my_games());
    let language = Language::expect();
    crate::live::follow("/api/live".into(), move || games.refetch(), |_| {});
    view! {
        <Transition fallback=|| ()>
            {move || games.get().and_then(Result::ok).filter(|g| !g.is_empty()).map(|games| { let texts = language.get(); view! {
                <section class="my-games" aria-labelledby="my-games-title">
                    <h2 id="my-games-title">{tr!(texts, my_games.title)}</h2>
                    <ul class="game-list" data-testid="my-games">
                        {games.into_iter().map(|card| {
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
                            let class = if card.my_turn { "card row my-turn" } else { "card row" };
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
                                    </div>
                                    <span class="status">{status(texts, &card)}
                                        {card.time_left_ms.map(|left_ms| view! {
                                            " " <crate::live::Clock left_ms blitz=card.format == rules::game::Format::Blitz />
                                        })}
                                    </span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
            }})}
        </Transition>
    }
}
