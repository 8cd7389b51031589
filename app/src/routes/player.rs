//! A player's name as every page shows it: a link to their profile, with their rank beside it.
//! Profiles are rendered on the server outside the app, so the link is a full page load.

use leptos::prelude::*;

use crate::api::{profile_path, SeatHolder, ShownRank};

/// A name linking to the profile, and the rank when known (`ann 1240?`).
#[component]
pub fn PlayerLink(
    /// The player's name.
    name: String,
    /// Their rank, when the page knows it.
    #[prop(optional)]
    rank: Option<ShownRank>,
) -> impl IntoView {
    let href = profile_path(&name);
    view! {
        <a class="player-link" href=href rel="external">{name}</a>
        {rank.map(|rank| view! { " " <small class="rank" title=crate::t!(player.rank_title)>{rank.to_string()}</small> })}
    }
}

/// Whoever holds a seat: a player's link and rank, or the bot or open seat as text.
#[component]
pub fn Holder(
    /// The seat's holder.
    holder: SeatHolder,
) -> impl IntoView {
    match holder {
        SeatHolder::Player { name, rank } => view! { <PlayerLink name rank /> }.into_any(),
        other => crate::i18n::worded(move |texts| crate::i18n::seat_name(texts, &other)).into_any(),
    }
}
