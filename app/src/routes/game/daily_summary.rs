//! The end card of a Daily Challenge: the total, the place among today's players, the best total
//! so far and the Expert bot's on the same puzzle, the share text, and the turn-by-turn review
//! beside the engine's best play (both filled in by the server a few seconds after the end).

use leptos::prelude::*;

use crate::api::{DailyResult, ReviewPlay};
use crate::tr;

/// What a player shares of their result: "Alfa Kraft Daily 2026-12-01 · English · 212 pts · #3 of
/// 40".
pub fn share_text(texts: crate::i18n::Texts, daily: &DailyResult) -> String {
    tr!(
        texts,
        daily_card.share_text,
        day = daily.day,
        dictionary = crate::i18n::dictionary_name(texts, daily.dictionary),
        score = daily.score,
        place = daily.place,
        players = daily.players
    )
}

/// The card.
#[component]
pub fn DailySummary(
    /// The result.
    daily: DailyResult,
    /// Dismisses the card to look around the finished board.
    on_explore: Callback<()>,
    /// The site's origin, for the link shared with the result: empty until hydrated.
    origin: RwSignal<String>,
) -> impl IntoView {
    // Built again when the language changes (its parent follows it).
    let texts = crate::i18n::Language::expect().get_untracked();
    let share = {
        let text = share_text(texts, &daily);
        Signal::derive(move || match origin.get().as_str() {
            "" => text.clone(),
            origin => format!("{text} {origin}/"),
        })
    };
    let standings = format!("/daily/{}", daily.dictionary.as_str());
    let bot = match daily.bot_score {
        Some(score) => tr!(texts, daily_card.bot_made, score),
        None => tr!(texts, daily_card.bot_playing).to_string(),
    };
    view! {
        <section class="card summary" data-testid="daily-summary" aria-labelledby="daily-summary-title">
            <h2 id="daily-summary-title">{tr!(texts, daily_card.title, score = daily.score)}</h2>
            <p class="lead" data-testid="daily-place">{tr!(
                texts, daily_card.place, place = daily.place, players = daily.players, best = daily.best_today
            )}</p>
            <p data-testid="daily-bot">{bot}</p>
            <div class="share">
                <input type="text" readonly data-testid="daily-share" aria-label=tr!(texts, daily_card.share) prop:value=share />
                <crate::clipboard::CopyButton text=share />
                <crate::clipboard::ShareButton text=share />
            </div>
            <h3>{tr!(texts, daily_card.review)}</h3>
            {match daily.review {
                None => view! { <p class="muted" data-testid="daily-review-pending">{tr!(texts, daily_card.review_pending)}</p> }.into_any(),
                Some(turns) => view! {
                    <ol class="review" data-testid="daily-review">
                        {turns.into_iter().map(|t| view! {
                            <li>
                                <span>{match &t.did {
                                    Some(ReviewPlay::Word(word)) => tr!(texts, daily_card.played_word, word, points = t.points),
                                    Some(ReviewPlay::Passed) => tr!(texts, daily_card.passed).into(),
                                    Some(ReviewPlay::Exchanged(tiles)) => tr!(texts, daily_card.exchanged, tiles),
                                    Some(ReviewPlay::TurnLost) => tr!(texts, daily_card.turn_lost).into(),
                                    Some(ReviewPlay::Stopped) => tr!(texts, daily_card.stopped).into(),
                                    None => t.played.clone(),
                                }}</span>
                                <span class="muted">{match t.best {
                                    Some((word, points)) if points > t.points => format!(" · {}", tr!(texts, daily_card.best, word, points)),
                                    Some(_) => format!(" · {}", tr!(texts, daily_card.was_best)),
                                    None => format!(" · {}", tr!(texts, daily_card.no_play)),
                                }}</span>
                            </li>
                        }).collect_view()}
                    </ol>
                }.into_any(),
            }}
            <div class="actions">
                <a class="button" href=standings rel="external">{tr!(texts, daily_card.standings)}</a>
                <button type="button" on:click=move |_| on_explore.run(())>{tr!(texts, summary.explore)}</button>
                <a class="button" href="/">{tr!(texts, daily_card.home)}</a>
            </div>
        </section>
    }
}
