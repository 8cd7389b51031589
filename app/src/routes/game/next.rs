//! Next game: one tap from a game to the game waiting longest on the player (as Lichess and
//! Wordfeud offer it), after a move and at the end card.

use leptos::prelude::*;

/// The caller's next game waiting on them, asked again each time this game's turn changes
/// hands; none while it is their turn here.
pub(super) fn next_game(table: super::table::Table) -> Signal<Option<String>> {
    let asking =
        crate::acting::acting(|current: &String| crate::api::play::next_game(current.clone()));
    let waiting_here = Memo::new(move |_| {
        table.page.with(|p| {
            p.as_ref()
                .map(|p| (p.card.id.clone(), p.card.my_turn, p.card.phase))
        })
    });
    Effect::new(move |_| {
        if let Some((id, false, _)) = waiting_here.get() {
            asking.dispatch(id);
        }
    });
    Signal::derive(move || {
        let mine_here = waiting_here.with(|w| w.as_ref().is_some_and(|(_, mine, _)| *mine));
        asking
            .value()
            .and_then(Result::ok)
            .flatten()
            .filter(|_| !mine_here)
    })
}

/// Next game: one tap to the game waiting longest on the player.
#[component]
pub(super) fn NextGame(next: Signal<Option<String>>) -> impl IntoView {
    move || {
        next.get().map(|id| {
            view! {
                <a class="button next-game" data-testid="next-game" href=format!("/game/{id}")
                    title=crate::t!(game.next_game_title)>{crate::t!(game.next_game)}</a>
            }
        })
    }
}
