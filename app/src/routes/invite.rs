//! The invite page, `/invite/<token>`: who invites, to what, and Accept or Decline. A visitor
//! without an account signs up first and comes back here.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::tr;
use crate::{
    api::{
        play::{answer_invite, invite},
        Refusal,
    },
    i18n::answer_text,
    i18n::{format_name, ruleset_name, Language},
    routes::player::PlayerLink,
    session::CurrentUser,
    t,
};

/// The invite page.
#[component]
pub fn InvitePage() -> impl IntoView {
    // Read the route's parameters once, here: the answer action runs outside the route's context.
    let params = use_params_map();
    let token = move || params.with(|p| p.get("token")).unwrap_or_default();
    let card = crate::loaded::load(token, invite);
    let user = CurrentUser::expect();
    let answer = crate::acting::acting(move |accept: &bool| answer_invite(token(), *accept));
    // Accepted: straight into the game, where it is the player's move.
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(Ok(Some(id)))) = answer.value() {
            navigate(&format!("/game/{id}"), Default::default());
        }
    });
    let here = move || format!("/invite/{}", token());
    let language = Language::expect();
    view! {
        <main class="page narrow">
            <h1>{t!(invite.title)}</h1>
            <Transition fallback=|| view! { <p>{t!(lobby.loading)}</p> }>
                {move || card.get().map(|card| { let texts = language.get(); match card {
                    Err(error) => view! { <crate::alert::Alert text=answer_text(texts, Err(error)) /> }.into_any(),
                    Ok(Err(refusal)) => view! { <crate::alert::Alert text=answer_text(texts, Ok(refusal)) testid="invite-closed" /> }.into_any(),
                    Ok(Ok(card)) => {
                        let open = card.open;
                        view! {
                            <section class="card" data-testid="invite">
                                <p class="lead"><strong><PlayerLink name=card.from.clone() rank=card.from_rank /></strong>" "{tr!(texts, invite.invites_you)}</p>
                                <dl class="facts">
                                    <dt>{tr!(texts, new_game.ruleset)}</dt><dd>{ruleset_name(texts, &card.variant)}</dd>
                                    <dt>{tr!(texts, home.dictionary)}</dt><dd>{crate::i18n::dictionary_name(texts, card.dictionary)}</dd>
                                    <dt>{tr!(texts, new_game.format)}</dt><dd>{format_name(texts, card.format)}</dd>
                                    <dt>{tr!(texts, invite.rated)}</dt><dd data-testid="invite-rated">{if card.rated { tr!(texts, invite.rated_yes) } else { tr!(texts, invite.rated_no) }}</dd>
                                </dl>
                                {move || match (open, answer.value(), user.get()) {
                                    (false, _, _) => view! { <p class="error" data-testid="invite-closed">{answer_text(texts, Ok(Refusal::InviteClosed))}</p> }.into_any(),
                                    (_, Some(Ok(Ok(Some(_id)))), _) => view! {
                                        <p class="ok" role="status" data-testid="invite-answer">{tr!(texts, invite.accepted)}</p>
                                    }.into_any(),
                                    (_, Some(Ok(Ok(None))), _) => view! {
                                        <p role="status" data-testid="invite-answer">{tr!(texts, invite.declined)}</p>
                                    }.into_any(),
                                    (_, answered, me) => {
                                        let message = match answered {
                                            Some(Ok(Err(refusal))) => Some(answer_text(texts, Ok(refusal))),
                                            Some(Err(error)) => Some(answer_text(texts, Err(error))),
                                            _ => None,
                                        };
                                        let signed_up = me.as_ref().is_some_and(|m| !m.guest);
                                        view! {
                                            {(!signed_up).then(|| view! {
                                                <p>{tr!(texts, invite.to_accept)}" "
                                                    <a href=format!("/signup?next={}", here())>{tr!(texts, invite.create_account)}</a>
                                                    " "{tr!(texts, invite.or)}" "<a href=format!("/signin?next={}", here())>{tr!(texts, invite.sign_in)}</a>"."
                                                </p>
                                            })}
                                            <div class="actions">
                                                <button class="primary" disabled=move || !signed_up || answer.pending().get()
                                                    on:click=move |_| { answer.dispatch(true); }>{tr!(texts, rematch.accept)}</button>
                                                <button disabled=move || answer.pending().get()
                                                    on:click=move |_| { answer.dispatch(false); }>{tr!(texts, rematch.decline)}</button>
                                            </div>
                                            {message.map(|m| view! { <crate::alert::Alert text=m /> })}
                                        }.into_any()
                                    }
                                }}
                            </section>
                        }.into_any()
                    }
                }})}
            </Transition>
        </main>
    }
}
