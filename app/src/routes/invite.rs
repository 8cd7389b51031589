//! The invite page, `/invite/<token>`: who invites, to what, and Accept or Decline. A visitor
//! without an account signs up first and comes back here.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::{
    api::{
        format_name,
        play::{answer_invite, invite},
        ruleset_name, Refusal,
    },
    routes::player::PlayerLink,
    session::CurrentUser,
};

/// The invite page.
#[component]
pub fn InvitePage() -> impl IntoView {
    // Read the route's parameters once, here: the answer action runs outside the route's context.
    let params = use_params_map();
    let token = move || params.with(|p| p.get("token")).unwrap_or_default();
    let card = crate::loaded::load(token, invite);
    let user = CurrentUser::expect();
    let answer = Action::new(move |accept: &bool| answer_invite(token(), *accept));
    // Accepted: straight into the game, where it is the player's move.
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(Ok(Some(id)))) = answer.value().get() {
            navigate(&format!("/game/{id}"), Default::default());
        }
    });
    let here = move || format!("/invite/{}", token());
    view! {
        <main class="page narrow">
            <h1>"An invitation to play"</h1>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || card.get().map(|card| match card {
                    Err(error) => view! { <p class="error" role="alert">{format!("The server could not be reached: {error}")}</p> }.into_any(),
                    Ok(Err(refusal)) => view! { <p class="error" role="alert" data-testid="invite-closed">{refusal.to_string()}</p> }.into_any(),
                    Ok(Ok(card)) => {
                        let open = card.open;
                        view! {
                            <section class="card" data-testid="invite">
                                <p class="lead"><strong><PlayerLink name=card.from.clone() rank=card.from_rank /></strong>" invites you to a game."</p>
                                <dl class="facts">
                                    <dt>"Ruleset"</dt><dd>{ruleset_name(&card.variant)}</dd>
                                    <dt>"Dictionary"</dt><dd>{card.dictionary.name()}</dd>
                                    <dt>"Format"</dt><dd>{format_name(card.format)}</dd>
                                    <dt>"Rated"</dt><dd data-testid="invite-rated">{if card.rated { "Yes: the result moves both ranks" } else { "No" }}</dd>
                                </dl>
                                {move || match (open, answer.value().get(), user.get()) {
                                    (false, _, _) => view! { <p class="error" data-testid="invite-closed">{Refusal::InviteClosed.to_string()}</p> }.into_any(),
                                    (_, Some(Ok(Ok(Some(_id)))), _) => view! {
                                        <p class="ok" role="status" data-testid="invite-answer">"You accepted: you move first. Opening the game…"</p>
                                    }.into_any(),
                                    (_, Some(Ok(Ok(None))), _) => view! {
                                        <p role="status" data-testid="invite-answer">"You declined. The game is called off."</p>
                                    }.into_any(),
                                    (_, answered, me) => {
                                        let message = match answered {
                                            Some(Ok(Err(refusal))) => Some(refusal.to_string()),
                                            Some(Err(error)) => Some(format!("The server could not be reached: {error}")),
                                            _ => None,
                                        };
                                        let signed_up = me.as_ref().is_some_and(|m| !m.guest);
                                        view! {
                                            {(!signed_up).then(|| view! {
                                                <p>"To accept, "
                                                    <a href=format!("/signup?next={}", here())>"create an account"</a>
                                                    " or "<a href=format!("/signin?next={}", here())>"sign in"</a>"."
                                                </p>
                                            })}
                                            <div class="actions">
                                                <button class="primary" disabled=move || !signed_up || answer.pending().get()
                                                    on:click=move |_| { answer.dispatch(true); }>"Accept"</button>
                                                <button disabled=move || answer.pending().get()
                                                    on:click=move |_| { answer.dispatch(false); }>"Decline"</button>
                                            </div>
                                            {message.map(|m| view! { <p class="error" role="alert">{m}</p> })}
                                        }.into_any()
                                    }
                                }}
                            </section>
                        }.into_any()
                    }
                })}
            </Transition>
        </main>
    }
}
