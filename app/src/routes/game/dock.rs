//! The bottom of the game page on a phone (beside the board on a wide screen): the move's
//! preview, the power bar, the hand (or, on a shared device, the handover that covers it), the
//! action buttons and the last refusal.

use leptos::prelude::*;
use rules::{game::Status, ruleset::EndAfter, Action as Move, HandTile, PlayerView};

use super::{
    powers, preview, rack,
    screen::{Confirm, Screen},
};
use crate::{
    api::Phase,
    i18n::{Language, Texts},
    tr,
};

/// The dock region.
#[component]
pub(super) fn Dock(screen: Screen, game_id: Signal<String>) -> impl IntoView {
    let language = Language::expect();
    let table = screen.table;
    let playing = screen.playing;
    let covered = screen.covered;
    view! {
        <div class="table-dock" data-testid="dock">
            // Once the game is over there is no move to preview or power to use.
            <Show when=move || playing.get()>
                <preview::Preview judgement=screen.judgement game=game_id />
                <powers::PowerBar table covered />
            </Show>
            {move || {
                let page = table.page.get()?;
                // Once the game is over the hand has nothing left to do.
                if !matches!(page.view.status, Status::Playing) {
                    return None;
                }
                Some(if covered.get() {
                    let name = crate::i18n::seat_label(language.get(), &page.card.seats, page.view.seat);
                    handover(screen, name, page.view.seat).into_any()
                } else {
                    view! { <rack::Rack table /> }.into_any()
                })
            }}
            <Controls screen />
            <p class="error" role="alert" data-testid="message">{move || table.message.get()}</p>
        </div>
    }
}

/// Pass-and-play: the hand of the player to move stays covered until they tap.
fn handover(screen: Screen, name: String, seat: rules::Seat) -> impl IntoView {
    let shown_seat = screen.shown_seat;
    view! {
        <div class="handover card" data-testid="handover">
            <p>{let name = name.clone(); crate::i18n::worded(move |texts| tr!(texts, game.hand_over, name = name.clone()))}</p>
            <button class="primary" type="button" on:click=move |_| shown_seat.set(Some(seat))>{crate::i18n::worded(move |texts| tr!(texts, game.show_my_tiles, name = name.clone()))}</button>
        </div>
    }
}

/// The action buttons, or the confirmation line one of them asked for.
#[component]
fn Controls(screen: Screen) -> impl IntoView {
    let language = Language::expect();
    let table = screen.table;
    move || {
        let view = table.view()?;
        // Not before a Ready lobby's match has started.
        let started = table
            .page
            .with(|p| p.as_ref().is_some_and(|p| p.card.phase == Phase::Playing));
        if !(started && matches!(view.status, Status::Playing)) {
            return None;
        }
        let texts = language.get();
        let line = match (table.exchanging.get(), screen.confirm.get()) {
            (Some(chosen), _) => choosing(screen, &view, chosen, texts).into_any(),
            (None, Some(asked)) => confirming(screen, &view, asked, texts).into_any(),
            (None, None) => buttons(screen, &view, texts).into_any(),
        };
        Some(view! { <div class="controls">{line}</div> })
    }
}

/// Choosing tiles to exchange (or, in Alfa Kraft, to swap with the Swap power).
fn choosing(screen: Screen, view: &PlayerView, chosen: Vec<usize>, texts: Texts) -> impl IntoView {
    let (table, acting) = (screen.table, screen.acting);
    let seat = view.seat;
    // Without an exchange, tiles are chosen only for the Swap power (Alfa Kraft).
    let swapping = matches!(view.rules().swap, rules::ruleset::SwapRule::Never);
    let none = chosen.is_empty();
    let count = chosen.len();
    let send = move |_| {
        let tiles: Vec<HandTile> = chosen.iter().filter_map(|s| table.hand_tile(*s)).collect();
        table.exchanging.set(None);
        acting.dispatch(if swapping {
            Move::UseSwap { seat, tiles }
        } else {
            Move::Exchange { seat, tiles }
        });
    };
    view! {
        <span>{if swapping { tr!(texts, controls.tap_to_swap) } else { tr!(texts, controls.tap_to_exchange) }}</span>
        <button class="primary" type="button" disabled=move || screen.busy() || none on:click=send>
            {if swapping { tr!(texts, controls.swap_n, tiles = count) } else { tr!(texts, controls.exchange_n, tiles = count) }}
        </button>
        <button type="button" on:click=move |_| table.exchanging.set(None)>{tr!(texts, controls.cancel)}</button>
    }
}

/// Asks again before a pass, a challenge or a resignation.
fn confirming(screen: Screen, view: &PlayerView, asked: Confirm, texts: Texts) -> impl IntoView {
    let (confirm, acting, resigning) = (screen.confirm, screen.acting, screen.resigning);
    let seat = view.seat;
    let (question, button, class, testid) = match asked {
        Confirm::Pass => (
            match passes_left(view) {
                0 | 1 => tr!(texts, controls.pass_ends).to_string(),
                // The rules' own warning: after this pass the other side's pass ends the game.
                2 => tr!(texts, controls.pass_two).to_string(),
                u8::MAX => tr!(texts, controls.pass_uses_turn).to_string(),
                n => tr!(texts, controls.pass_left, passes = n),
            },
            tr!(texts, controls.pass),
            "primary",
            Some("confirm-pass"),
        ),
        Confirm::Challenge => (
            tr!(texts, controls.challenge_confirm).to_string(),
            tr!(texts, controls.challenge),
            "primary",
            Some("confirm-challenge"),
        ),
        Confirm::Resign => (
            tr!(texts, controls.resign_confirm).to_string(),
            tr!(texts, controls.resign),
            "primary danger",
            None,
        ),
    };
    let answer = move |_| {
        confirm.set(None);
        match asked {
            Confirm::Pass => acting.dispatch(Move::Pass { seat }),
            Confirm::Challenge => acting.dispatch(Move::Challenge { seat }),
            Confirm::Resign => resigning.dispatch(()),
        };
    };
    view! {
        <span class="warning">{question}</span>
        <button class=class type="button" data-testid=testid on:click=answer>{button}</button>
        <button type="button" on:click=move |_| confirm.set(None)>{tr!(texts, controls.cancel)}</button>
    }
}

/// Passes left before the game ends (`u8::MAX`: passing only uses up one of a fixed number of
/// turns, and never ends the game early).
fn passes_left(view: &PlayerView) -> u8 {
    match view.rules().end_after {
        EndAfter::ConsecutivePasses(n) | EndAfter::ScorelessTurns(n) => {
            n.saturating_sub(view.consecutive_passes)
        }
        EndAfter::PassesPerPlayer(n) => {
            (n * view.scores.len() as u8).saturating_sub(view.consecutive_passes)
        }
        EndAfter::Turns(_) => u8::MAX,
    }
}

/// Play, Recall (or Shuffle), Pass, Exchange, Challenge and Resign.
fn buttons(screen: Screen, view: &PlayerView, texts: Texts) -> impl IntoView {
    let (table, confirm, judgement) = (screen.table, screen.confirm, screen.judgement);
    let my_turn = table.my_turn();
    let can_exchange = !matches!(view.rules().swap, rules::ruleset::SwapRule::Never);
    // Tiles, or powers alone ("play only powers").
    let has_staged = !table.staged.get().is_empty() || !table.powers.get().is_empty();
    let busy = move || screen.busy();
    view! {
        // Not while the rules refuse the placement: the preview already says why.
        <button class="primary" type="button" data-testid="play"
            disabled=move || busy() || !my_turn || !has_staged || matches!(judgement.get(), preview::Judgement::Refused(_))
            on:click=move |_| screen.play()>{tr!(texts, controls.play)}</button>
        // One place for both, as in the apps players know: tiles out, Recall; none, Shuffle.
        {if has_staged {
            view! { <button type="button" on:click=move |_| table.recall()>{tr!(texts, controls.recall)}</button> }
        } else {
            view! { <button type="button" on:click=move |_| table.shuffle()>{tr!(texts, controls.shuffle)}</button> }
        }}
        <button type="button" disabled=move || busy() || !my_turn
            on:click=move |_| confirm.set(Some(Confirm::Pass))>{tr!(texts, controls.pass)}</button>
        {can_exchange.then(|| view! {
            <button type="button" disabled=move || busy() || !my_turn
                on:click=move |_| { table.recall(); table.exchanging.set(Some(Vec::new())); }>{tr!(texts, controls.exchange)}</button>
        })}
        {view.can_challenge.then(|| view! {
            <button type="button" data-testid="challenge" disabled=busy
                on:click=move |_| confirm.set(Some(Confirm::Challenge))>{tr!(texts, controls.challenge)}</button>
        })}
        <button type="button" class="danger" disabled=busy on:click=move |_| confirm.set(Some(Confirm::Resign))>{tr!(texts, controls.resign)}</button>
    }
}
