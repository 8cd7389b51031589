//! `/leaderboard?d=<dictionary>`: the top 100 qualifying players of a dictionary by rank, and the
//! viewer's own place wherever it is. Rendered on the server.

use dictionaries::DictionaryId;
use leptos::prelude::*;

use super::{plain, profile::Viewer};
use crate::tr;
use domain::profile_path;
use store::ranks::{Qualifying, Standing};

fn row(standing: Standing, me: bool) -> impl IntoView {
    let href = profile_path(&standing.name);
    let testid = format!("standing-{}", standing.name);
    view! {
        <tr class=if me { "me" } else { "" } data-testid=testid>
            <td>{standing.place}</td>
            <td><a href=href>{standing.name}</a></td>
            <td>{standing.rank}</td>
            <td>{standing.games}</td>
        </tr>
    }
}

/// The page for `dictionary`: its `top` players and the viewer's `own` line.
pub fn page(
    dictionary: DictionaryId,
    top: Vec<Standing>,
    own: Option<Standing>,
    qualifying: Qualifying,
    viewer: Viewer,
) -> String {
    let texts = viewer.texts;
    let me = viewer.name.clone().unwrap_or_default();
    let listed = top.iter().any(|s| s.name == me);
    let main = view! {
        <main class="page leaderboard">
            <h1>{tr!(texts, leaderboard.title)}</h1>
            <nav class="tabs" aria-label=tr!(texts, leaderboard.dictionary)>
                {DictionaryId::ALL.into_iter().map(|d| view! {
                    <a href=format!("/leaderboard?d={}", d.as_str())
                        aria-current=(d == dictionary).then_some("page")>{crate::i18n::dictionary_name(texts, d)}</a>
                }).collect_view()}
            </nav>
            <p class="muted">{tr!(
                texts, leaderboard.qualifying, games = qualifying.min_games, days = qualifying.active_days
            )}</p>
            {if top.is_empty() {
                view! { <p data-testid="leaderboard-empty">{tr!(texts, leaderboard.empty)}</p> }.into_any()
            } else {
                let me = me.clone();
                view! {
                    <div class="table-scroll"><table class="standings" data-testid="leaderboard">
                        <thead><tr><th>"#"</th><th>{tr!(texts, leaderboard.player)}</th><th>{tr!(texts, leaderboard.rank)}</th><th>{tr!(texts, leaderboard.rated_games)}</th></tr></thead>
                        <tbody>{top.into_iter().map(|s| { let mine = s.name == me; row(s, mine) }).collect_view()}</tbody>
                    </table></div>
                }.into_any()
            }}
            {match (own, viewer.name.is_some()) {
                (Some(own), _) if !listed => view! {
                    <p>{tr!(texts, leaderboard.your_place)}</p>
                    <table class="standings" data-testid="own-place"><tbody>{row(own, true)}</tbody></table>
                }.into_any(),
                (None, true) => view! {
                    <p class="muted" data-testid="own-place">{tr!(texts, leaderboard.not_yet)}</p>
                }.into_any(),
                _ => ().into_any(),
            }}
        </main>
    };
    plain::document(
        texts,
        &tr!(
            texts,
            leaderboard.title_in,
            dictionary = crate::i18n::dictionary_name(texts, dictionary)
        ),
        viewer.name.as_deref(),
        viewer.admin,
        main,
    )
}
