//! The caller's games, as a list on the start page: opponents, ruleset, scores, whose turn and,
//! near a deadline, the time left. It follows the live stream, so moves show without a reload.

use leptos::prelude::*;

use crate::{
    api::{format_name, play::my_games, ruleset_name, GameCard, Phase, SeatHolder},
    routes::player::Holder,
};

fn status(card: &GameCard) -> String {
    match card.phase {
        Phase::Waiting => "Waiting for an opponent".into(),
        Phase::Ready => "Ready lobby".into(),
        Phase::Cancelled => "Called off".into(),
        Phase::Over => "Finished".into(),
        Phase::Playing if card.my_turn => "Your turn".into(),
        Phase::Playing => format!(
            "{}'s turn",
            card.seats
                .get(usize::from(card.to_move))
                .map(SeatHolder::name)
                .unwrap_or_default()
        ),
    }
}

/// The list; nothing when the visitor has no games.
#[component]
pub fn MyGames() -> impl IntoView {
    let games = crate::loaded::load(|| (), |_| my_games());
    crate::live::follow("/api/live".into(), move || games.refetch(), |_| {});
    view! {
        <Transition fallback=|| ()>
            {move || games.get().and_then(Result::ok).filter(|g| !g.is_empty()).map(|games| view! {
                <section class="my-games" aria-labelledby="my-games-title">
                    <h2 id="my-games-title">"Your games"</h2>
                    <ul class="game-list" data-testid="my-games">
                        {games.into_iter().map(|card| {
                            let players = card.seats.iter().zip(&card.scores).enumerate()
                                .map(|(i, (seat, score))| {
                                    // Others' presence: a dot, green when they have the game open.
                                    let dot = card.online.get(i).copied().flatten()
                                        .filter(|_| !card.my_seats.contains(&(i as u8)))
                                        .map(|on| view! { <span role="img" class=if on { "presence online" } else { "presence" }
                                            title=if on { "online" } else { "away" } aria-label=if on { "online" } else { "away" }></span> });
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
                                            <span class="muted">{ruleset_name(&card.variant)}" · "
                                                {card.dictionary.name()}" · "{format_name(card.format)}
                                                {(!card.rated && card.seats.len() == 2 && card.seats.iter().all(|s| matches!(s, SeatHolder::Player { .. }))).then_some(" · unrated")}</span>
                                        </a>
                                    </div>
                                    <span class="status">{status(&card)}
                                        {card.time_left_ms.map(|left_ms| view! {
                                            " " <crate::live::Clock left_ms blitz=card.format == rules::game::Format::Blitz />
                                        })}
                                    </span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
            })}
        </Transition>
    }
}
