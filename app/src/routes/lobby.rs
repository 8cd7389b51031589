//! The open lobby: games waiting for a second player; joining one starts it with the joiner to move.

use leptos::prelude::*;

use crate::tr;
use crate::{
    api::play::{join_lobby_game, lobby},
    i18n::answer_text,
    i18n::{format_name, ruleset_name, Language},
    routes::player::PlayerLink,
    session::CurrentUser,
    t,
};

/// The lobby page.
#[component]
pub fn LobbyPage() -> impl IntoView {
    let join = crate::acting::acting(|id: &String| join_lobby_game(id.clone()));
    // Joined: straight into the game, where it is the player's move.
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(Ok(id))) = join.value() {
            navigate(&format!("/game/{id}"), Default::default());
        }
    });
    let games = crate::loaded::load(move || join.version().get(), |_| lobby());
    // Games opened or taken elsewhere appear and go without a reload.
    crate::live::follow(
        "/api/live?lobby=true".into(),
        move || games.refetch(),
        |_| {},
        || {},
    );
    let user = CurrentUser::expect();
    let language = Language::expect();
    view! {
        <main class="page">
            <h1>{t!(lobby.title)}</h1>
            <p class="hint">{t!(lobby.hint)}</p>
            {move || join.value().map(|answer| match answer {
                Ok(Ok(_)) => view! { <p class="ok" role="status">{t!(lobby.joined)}</p> }.into_any(),
                Ok(Err(refusal)) => view! { <crate::alert::Alert text=answer_text(language.get(), Ok(refusal)) /> }.into_any(),
                Err(error) => view! { <crate::alert::Alert text=answer_text(language.get(), Err(error)) /> }.into_any(),
            })}
            <Transition fallback=|| view! { <p>{t!(lobby.loading)}</p> }>
                {move || games.get().map(|games| { let texts = language.get(); match games {
                    Err(error) => view! { <p class="error">{answer_text(texts, Err(error))}</p> }.into_any(),
                    Ok(games) if games.is_empty() => view! { <p data-testid="lobby-empty">{tr!(texts, lobby.empty)}</p> }.into_any(),
                    Ok(games) => view! {
                        <ul class="game-list" data-testid="lobby">
                            {games.into_iter().map(|game| {
                                let id = game.id.clone();
                                let mine = user.get().is_some_and(|me| me.name == game.from);
                                view! {
                                    <li class="card row">
                                        <span><strong><PlayerLink name=game.from.clone() rank=game.from_rank /></strong>" · "{ruleset_name(texts, &game.variant)}" · "
                                            {crate::i18n::dictionary_name(texts, game.dictionary)}" · "{format_name(texts, game.format)}
                                            {(!game.rated).then(|| format!(" · {}", tr!(texts, my_games.unrated)))}</span>
                                        {if mine {
                                            view! { <span class="muted">{tr!(texts, lobby.yours)}</span> }.into_any()
                                        } else {
                                            view! { <button class="primary" on:click=move |_| { join.dispatch(id.clone()); }>{tr!(texts, lobby.join)}</button> }.into_any()
                                        }}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                }})}
            </Transition>
        </main>
    }
}
