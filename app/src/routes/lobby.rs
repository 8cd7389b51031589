//! The open lobby: games waiting for a second player; joining one starts it with the joiner to move.

use leptos::prelude::*;

use crate::{
    api::{
        format_name,
        play::{join_lobby_game, lobby},
        ruleset_name,
    },
    routes::player::PlayerLink,
    session::CurrentUser,
};

/// The lobby page.
#[component]
pub fn LobbyPage() -> impl IntoView {
    let join = Action::new(|id: &String| join_lobby_game(id.clone()));
    // Joined: straight into the game, where it is the player's move.
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(Ok(id))) = join.value().get() {
            navigate(&format!("/game/{id}"), Default::default());
        }
    });
    let games = crate::loaded::load(move || join.version().get(), |_| lobby());
    // Games opened or taken elsewhere appear and go without a reload.
    crate::live::follow(
        "/api/live?lobby=true".into(),
        move || games.refetch(),
        |_| {},
    );
    let user = CurrentUser::expect();
    view! {
        <main class="page">
            <h1>"Open lobby"</h1>
            <p class="hint">"Games waiting for an opponent. Join one and you move first."</p>
            {move || join.value().get().map(|answer| match answer {
                Ok(Ok(_)) => view! { <p class="ok" role="status">"You joined: you move first. Opening the game…"</p> }.into_any(),
                Ok(Err(refusal)) => view! { <p class="error" role="alert">{refusal.to_string()}</p> }.into_any(),
                Err(error) => view! { <p class="error" role="alert">{format!("The server could not be reached: {error}")}</p> }.into_any(),
            })}
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || games.get().map(|games| match games {
                    Err(error) => view! { <p class="error">{format!("The server could not be reached: {error}")}</p> }.into_any(),
                    Ok(games) if games.is_empty() => view! { <p data-testid="lobby-empty">"Nobody is waiting right now."</p> }.into_any(),
                    Ok(games) => view! {
                        <ul class="game-list" data-testid="lobby">
                            {games.into_iter().map(|game| {
                                let id = game.id.clone();
                                let mine = user.get().is_some_and(|me| me.name == game.from);
                                view! {
                                    <li class="card row">
                                        <span><strong><PlayerLink name=game.from.clone() rank=game.from_rank /></strong>" · "{ruleset_name(&game.variant)}" · "
                                            {game.dictionary.name()}" · "{format_name(game.format)}
                                            {(!game.rated).then_some(" · unrated")}</span>
                                        {if mine {
                                            view! { <span class="muted">"Your game"</span> }.into_any()
                                        } else {
                                            view! { <button class="primary" on:click=move |_| { join.dispatch(id.clone()); }>"Join"</button> }.into_any()
                                        }}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                })}
            </Transition>
        </main>
    }
}
