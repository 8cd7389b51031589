//! The end card of a Daily Challenge: the total, the place among today's players, the best total
//! so far and the Expert bot's on the same puzzle, the share text, and the turn-by-turn review
//! beside the engine's best play (both filled in by the server a few seconds after the end).

use leptos::prelude::*;

use crate::api::DailyResult;

/// The card.
#[component]
pub fn DailySummary(
    /// The result.
    daily: DailyResult,
    /// Dismisses the card to look around the finished board.
    on_explore: Callback<()>,
) -> impl IntoView {
    let share = daily.share_text();
    let standings = format!("/daily/{}", daily.dictionary.as_str());
    let bot = match daily.bot_score {
        Some(score) => format!("The Expert bot made {score} on the same puzzle."),
        None => "The Expert bot is still playing this puzzle.".to_string(),
    };
    view! {
        <section class="card summary" data-testid="daily-summary" aria-labelledby="daily-summary-title">
            <h2 id="daily-summary-title">{format!("Daily Challenge: {} points", daily.score)}</h2>
            <p class="lead" data-testid="daily-place">{format!(
                "#{} of {} today · the best so far: {}",
                daily.place, daily.players, daily.best_today
            )}</p>
            <p data-testid="daily-bot">{bot}</p>
            <div class="share">
                <input type="text" readonly data-testid="daily-share" aria-label="Your result, to share" prop:value=share.clone() />
                <crate::clipboard::CopyButton text=share.clone() />
                <crate::clipboard::ShareButton text=share />
            </div>
            <h3>"Your turns beside the best play"</h3>
            {match daily.review {
                None => view! { <p class="muted" data-testid="daily-review-pending">"The review is being made…"</p> }.into_any(),
                Some(turns) => view! {
                    <ol class="review" data-testid="daily-review">
                        {turns.into_iter().map(|t| view! {
                            <li>
                                <span>{t.played}</span>
                                <span class="muted">{match t.best {
                                    Some((word, points)) if points > t.points => format!(" · best: {word} for {points}"),
                                    Some(_) => " · the best play".to_string(),
                                    None => " · no play was possible".to_string(),
                                }}</span>
                            </li>
                        }).collect_view()}
                    </ol>
                }.into_any(),
            }}
            <div class="actions">
                <a class="button" href=standings rel="external">"Today's standings"</a>
                <button type="button" on:click=move |_| on_explore.run(())>"Explore board"</button>
                <a class="button" href="/">"Home"</a>
            </div>
        </section>
    }
}
