//! `/daily/<dictionary>?day=YYYY-MM-DD`: a day's Daily Challenge standings (top 100, the
//! viewer's own line), the Expert bot's total, and yesterday's winning board. Rendered on the
//! server.

use dictionaries::DictionaryId;
use leptos::prelude::*;
use rules::daily::Day;

use super::{plain, profile::Viewer};
use crate::tr;
use domain::profile_path;
use store::daily::{Commitment, Standing};

/// What the page shows.
pub struct DailyBoard {
    /// The dictionary.
    pub dictionary: DictionaryId,
    /// The day shown.
    pub day: Day,
    pub today: Day,
    /// The best attempts.
    pub top: Vec<Standing>,
    /// The viewer's own line.
    pub own: Option<Standing>,
    /// The bot's total.
    pub bot_score: Option<i32>,
    /// The winning attempt of the day before, with its last turn (for its final board).
    pub yesterday: Option<(Standing, usize)>,
    /// What the page may say of the puzzle's key: its hash today, the key once the day is over.
    pub commitment: Option<Commitment>,
}

fn row(standing: Standing, me: bool) -> impl IntoView {
    let href = profile_path(&standing.name);
    let testid = format!("daily-standing-{}", standing.name);
    view! {
        <tr class=if me { "me" } else { "" } data-testid=testid>
            <td>{standing.place}</td>
            <td><a href=href>{standing.name}</a></td>
            <td>{standing.score}</td>
        </tr>
    }
}

/// The page.
pub fn page(board: DailyBoard, viewer: Viewer) -> String {
    let DailyBoard {
        dictionary,
        day,
        today,
        top,
        own,
        bot_score,
        yesterday,
        commitment,
    } = board;
    let texts = viewer.texts;
    let me = viewer.name.clone().unwrap_or_default();
    let listed = top.iter().any(|s| s.name == me);
    let link = move |d: Day| format!("/daily/{}?day={d}", dictionary.as_str());
    let main = view! {
        <main class="page leaderboard">
            <h1>{tr!(texts, daily_board.title, dictionary = crate::i18n::dictionary_name(texts, dictionary), day)}</h1>
            <nav class="tabs" aria-label=tr!(texts, leaderboard.dictionary)>
                {DictionaryId::ALL.into_iter().map(|d| view! {
                    <a href=format!("/daily/{}?day={day}", d.as_str()) aria-current=(d == dictionary).then_some("page")>{crate::i18n::dictionary_name(texts, d)}</a>
                }).collect_view()}
            </nav>
            <nav class="actions" aria-label=tr!(texts, daily_board.day)>
                <a class="button" href=link(day.previous())>{tr!(texts, daily_board.before)}</a>
                {(day < today).then(|| view! { <a class="button" href=link(day.next())>{tr!(texts, daily_board.after)}</a> })}
            </nav>
            <p data-testid="daily-bot-score">{match bot_score {
                Some(score) => tr!(texts, daily_board.bot_made, score),
                None => tr!(texts, daily_board.bot_not_yet).to_string(),
            }}</p>
            {if top.is_empty() {
                view! { <p data-testid="daily-board-empty">{tr!(texts, daily_board.empty)}</p> }.into_any()
            } else {
                let me = me.clone();
                view! {
                    <div class="table-scroll"><table class="standings" data-testid="daily-board">
                        <thead><tr><th>"#"</th><th>{tr!(texts, leaderboard.player)}</th><th>{tr!(texts, daily_board.points)}</th></tr></thead>
                        <tbody>{top.into_iter().map(|s| { let mine = s.name == me; row(s, mine) }).collect_view()}</tbody>
                    </table></div>
                }.into_any()
            }}
            {own.filter(|_| !listed).map(|own| view! {
                <p>{tr!(texts, leaderboard.your_place)}</p>
                <table class="standings" data-testid="daily-own-place"><tbody>{row(own, true)}</tbody></table>
            })}
            <p class="muted">{tr!(texts, daily_board.guests_unranked)}</p>
            {commitment.map(|commitment| view! {
                <p class="muted commitment" data-testid="daily-commitment">{match commitment {
                    Commitment::Hash(hash) => tr!(texts, daily_board.fixed_in_advance, hash),
                    Commitment::Revealed { key, hash, seed } => tr!(texts, daily_board.key_revealed, key, hash, seed),
                }}</p>
            })}
            {yesterday.map(|(winner, turns)| view! {
                <p data-testid="daily-yesterday">
                    {tr!(texts, daily_board.yesterday, name = winner.name, score = winner.score)}" "
                    <a href=format!("/game/{}/turn/{turns}", winner.game_id)>{tr!(texts, daily_board.final_board)}</a>
                </p>
            })}
        </main>
    };
    plain::document(
        texts,
        &tr!(
            texts,
            daily_board.title_in,
            dictionary = crate::i18n::dictionary_name(texts, dictionary)
        ),
        viewer.name.as_deref(),
        viewer.admin,
        main,
    )
}
