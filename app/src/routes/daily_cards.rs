//! The Daily Challenge on the start page: today's puzzle in each dictionary, with the player's
//! state in it (not started, turn 4 of 10, or done with score and place) and their streak. The
//! attempt is played on the game page; the day's standings are at `/daily/<dictionary>`.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::api::{
    daily::{daily_today, start_daily},
    DailyCard, DailyState,
};
use crate::i18n::{Language, Texts};
use crate::tr;

fn card(
    texts: Texts,
    card: DailyCard,
    start: crate::acting::Acting<dictionaries::DictionaryId, ()>,
) -> impl IntoView {
    let dictionary = card.dictionary;
    let board = format!("/daily/{}", dictionary.as_str());
    let (state, action) = match card.state {
        DailyState::NotStarted => (
            tr!(texts, daily.not_started).to_string(),
            view! {
                <button class="primary" data-testid=format!("daily-start-{}", dictionary.as_str())
                    on:click=move |_| { start.dispatch(dictionary); }>{tr!(texts, controls.play)}</button>
            }
            .into_any(),
        ),
        DailyState::InProgress { game_id, turns } => (
            tr!(
                texts,
                history.turn_of,
                turn = (turns + 1).min(u32::from(rules::daily::TURNS)),
                turns = rules::daily::TURNS
            ),
            view! { <a class="button" href=format!("/game/{game_id}")>{tr!(texts, daily.resume)}</a> }.into_any(),
        ),
        DailyState::Done {
            game_id,
            score,
            place,
            players,
        } => (
            tr!(texts, daily.done, score, place, players),
            view! { <a class="button" href=format!("/game/{game_id}")>{tr!(texts, daily.see_it)}</a> }.into_any(),
        ),
    };
    view! {
        <li class="card row" data-testid=format!("daily-{}", dictionary.as_str())>
            <span><strong>{crate::i18n::dictionary_name(texts, dictionary)}</strong><br /><span class="muted">{state}</span></span>
            <span class="actions">
                <a href=board rel="external">{tr!(texts, daily.standings)}</a>
                {action}
            </span>
        </li>
    }
}

/// Today's challenges.
#[component]
pub fn DailyChallenges() -> impl IntoView {
    let today = crate::loaded::load(|| (), |_| daily_today());
    let user = crate::session::CurrentUser::expect();
    let language = Language::expect();
    let start = crate::acting::acting(move |dictionary: &dictionaries::DictionaryId| {
        let dictionary = *dictionary;
        async move {
            if let Ok(Ok(game_id)) = start_daily(dictionary).await {
                // A visitor has just become a guest: the top bar says so.
                user.refresh();
                use_navigate()(&format!("/game/{game_id}"), Default::default());
            }
        }
    });
    view! {
        <Transition fallback=|| ()>
            {move || today.get().and_then(Result::ok).map(|home| { let texts = language.get(); view! {
                <section class="daily" aria-labelledby="daily-title" data-testid="daily">
                    <h2 id="daily-title">{tr!(texts, ruleset.daily)}" · "{home.day.clone()}</h2>
                    <p class="muted">
                        {tr!(texts, daily.intro, turns = rules::daily::TURNS)}
                        {(home.streak.best > 0).then(|| format!(
                            " {}",
                            tr!(texts, daily.streak, current = crate::i18n::days(texts, home.streak.current), best = crate::i18n::days(texts, home.streak.best))
                        ))}
                    </p>
                    <ul class="game-list">
                        {home.cards.into_iter().map(|c| card(texts, c, start)).collect_view()}
                    </ul>
                </section>
            }})}
        </Transition>
    }
}
