//! `/leaderboard?d=<dictionary>`: the top 100 qualifying players of a dictionary by rank, and the
//! viewer's own place wherever it is. Rendered on the server.

use dictionaries::DictionaryId;
use leptos::prelude::*;

use super::{plain, profile::Viewer};
use crate::{
    domain::profile_path,
    store::ranks::{Qualifying, Standing},
};

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
    let me = viewer.name.clone().unwrap_or_default();
    let listed = top.iter().any(|s| s.name == me);
    let main = view! {
        <main class="page leaderboard">
            <h1>"Leaderboard"</h1>
            <nav class="tabs" aria-label="Dictionary">
                {DictionaryId::ALL.into_iter().map(|d| view! {
                    <a href=format!("/leaderboard?d={}", d.as_str())
                        aria-current=(d == dictionary).then_some("page")>{d.name()}</a>
                }).collect_view()}
            </nav>
            <p class="muted">{format!(
                "Players with at least {} rated games in this dictionary and one in the last {} days.",
                qualifying.min_games, qualifying.active_days
            )}</p>
            {if top.is_empty() {
                view! { <p data-testid="leaderboard-empty">"Nobody qualifies yet."</p> }.into_any()
            } else {
                let me = me.clone();
                view! {
                    <div class="table-scroll"><table class="standings" data-testid="leaderboard">
                        <thead><tr><th>"#"</th><th>"Player"</th><th>"Rank"</th><th>"Rated games"</th></tr></thead>
                        <tbody>{top.into_iter().map(|s| { let mine = s.name == me; row(s, mine) }).collect_view()}</tbody>
                    </table></div>
                }.into_any()
            }}
            {match (own, viewer.name.is_some()) {
                (Some(own), _) if !listed => view! {
                    <p>"Your place:"</p>
                    <table class="standings" data-testid="own-place"><tbody>{row(own, true)}</tbody></table>
                }.into_any(),
                (None, true) => view! {
                    <p class="muted" data-testid="own-place">"You are not on this board yet: play rated games in this dictionary."</p>
                }.into_any(),
                _ => ().into_any(),
            }}
        </main>
    };
    plain::document(
        &format!("Leaderboard · {}", dictionary.name()),
        viewer.name.as_deref(),
        viewer.admin,
        main,
    )
}
