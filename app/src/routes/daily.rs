//! The Daily Challenge on the start page: today's puzzle in each dictionary, with the player's
//! state in it (not started, turn 4 of 10, or done with score and place) and their streak. The
//! attempt is played on the game page; the day's standings are at `/daily/<dictionary>`.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::api::{
    daily::{daily_today, start_daily},
    DailyCard, DailyState, Streak,
};

fn card(card: DailyCard, start: Action<dictionaries::DictionaryId, ()>) -> impl IntoView {
    let dictionary = card.dictionary;
    let board = format!("/daily/{}", dictionary.as_str());
    let (state, action) = match card.state {
        DailyState::NotStarted => (
            "Not started".to_string(),
            view! {
                <button class="primary" data-testid=format!("daily-start-{}", dictionary.as_str())
                    on:click=move |_| { start.dispatch(dictionary); }>"Play"</button>
            }
            .into_any(),
        ),
        DailyState::InProgress { game_id, turns } => (
            format!(
                "Turn {} of {}",
                (turns + 1).min(u32::from(rules::daily::TURNS)),
                rules::daily::TURNS
            ),
            view! { <a class="button" href=format!("/game/{game_id}")>"Resume"</a> }.into_any(),
        ),
        DailyState::Done {
            game_id,
            score,
            place,
            players,
        } => (
            format!("Done: {score} points, #{place} of {players}"),
            view! { <a class="button" href=format!("/game/{game_id}")>"See it"</a> }.into_any(),
        ),
    };
    view! {
        <li class="card row" data-testid=format!("daily-{}", dictionary.as_str())>
            <span><strong>{dictionary.name()}</strong><br /><span class="muted">{state}</span></span>
            <span class="actions">
                <a href=board rel="external">"Standings"</a>
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
    let start = Action::new(move |dictionary: &dictionaries::DictionaryId| {
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
            {move || today.get().and_then(Result::ok).map(|home| view! {
                <section class="daily" aria-labelledby="daily-title" data-testid="daily">
                    <h2 id="daily-title">"Daily Challenge · "{home.day.clone()}</h2>
                    <p class="muted">
                        {format!("The same puzzle for everyone today: {} turns, no powers, the most points wins.", rules::daily::TURNS)}
                        {(home.streak.best > 0).then(|| format!(
                            " Your streak: {} in a row (best {}).",
                            Streak::days(home.streak.current),
                            Streak::days(home.streak.best)
                        ))}
                    </p>
                    <ul class="game-list">
                        {home.cards.into_iter().map(|c| card(c, start)).collect_view()}
                    </ul>
                </section>
            })}
        </Transition>
    }
}
