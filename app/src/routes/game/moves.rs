//! Beside the board, what a tile tracker wants: every turn with its words, points and the mover's
//! running total (tapping one opens that turn in the history), and the tiles still unseen.

use leptos::prelude::*;
use rules::{
    game::{Status, TurnEvent, TurnRecord},
    HandTile, PlayerView,
};

use crate::api::SeatHolder;
use crate::i18n::{seat_label, Language, Texts};
use crate::tr;

/// A turn in a few words for the list: the words played, or what happened instead.
fn what(texts: Texts, turn: &TurnRecord) -> String {
    match &turn.event {
        TurnEvent::Play { words, dice, .. } => {
            let words = words
                .iter()
                .map(|w| rules::case::upper_str(&w.word))
                .collect::<Vec<_>>()
                .join(", ");
            // The Dice's roll, which the preview could only say was coming.
            match super::history::rolled(texts, dice) {
                Some(rolled) => format!("{words} {rolled}"),
                None => words,
            }
        }
        TurnEvent::Pass { auto: true, .. } => tr!(texts, moves.auto_pass).into(),
        TurnEvent::Pass { .. } => tr!(texts, moves.pass).into(),
        TurnEvent::Exchange { count } => tr!(texts, moves.exchanged, tiles = count),
        TurnEvent::Swap { count } => tr!(texts, moves.swapped, tiles = count),
        TurnEvent::Challenge {
            withdrawn: true, ..
        } => tr!(texts, moves.challenge_won).into(),
        TurnEvent::Challenge {
            withdrawn: false, ..
        } => tr!(texts, moves.challenge_failed).into(),
        TurnEvent::TurnMissed => tr!(texts, moves.turn_missed).into(),
        TurnEvent::Skipped => tr!(texts, moves.skipped).into(),
        TurnEvent::Resign => tr!(texts, moves.resigned).into(),
        TurnEvent::TimedOut => tr!(texts, moves.timed_out).into(),
    }
}

/// The list of moves.
#[component]
pub fn MoveList(
    view: Signal<Option<PlayerView>>,
    seats: Signal<Vec<SeatHolder>>,
    open: RwSignal<bool>,
    turn: RwSignal<usize>,
) -> impl IntoView {
    let language = Language::expect();
    move || {
        let view = view.get()?;
        if view.history.is_empty() {
            return None;
        }
        let texts = language.get();
        let seats = seats.get();
        let mut before = vec![0; view.scores.len()];
        let rows = view
            .history
            .iter()
            .enumerate()
            .map(|(index, record)| {
                let seat = usize::from(record.seat);
                let total = record.scores.get(seat).copied().unwrap_or(0);
                let gained = total - before.get(seat).copied().unwrap_or(0);
                before.clone_from(&record.scores);
                view! {
                    <li>
                        <button type="button" data-testid=format!("move-{}", index + 1)
                            on:click=move |_| { turn.set(index); open.set(true); }>
                            <span class="n">{index + 1}</span>
                            <span class="who">{seat_label(texts, &seats, record.seat)}</span>
                            <span class="what">{what(texts, record)}</span>
                            <span class="points">{(gained != 0).then(|| format!("{gained:+}"))}</span>
                            <span class="total">{total}</span>
                        </button>
                    </li>
                }
            })
            .collect_view();
        Some(view! {
            <section class="move-list card" data-testid="move-list" aria-label=tr!(texts, moves.title)>
                <h2>{tr!(texts, moves.title)}</h2>
                <ol>{rows}</ol>
            </section>
        })
    }
}

/// How a tile is written in the unseen list.
fn tile_text(tile: HandTile, view: &PlayerView) -> String {
    match tile {
        HandTile::Letter(letter) => view.rules().tiles.char_of(letter).to_string(),
        HandTile::Blank => "?".into(),
        HandTile::Arrow => "→".into(),
        HandTile::Stop => "■".into(),
    }
}

/// The unseen tiles: how many, and which.
#[component]
pub fn Unseen(view: Signal<Option<PlayerView>>) -> impl IntoView {
    let language = Language::expect();
    move || {
        let view = view.get()?;
        let texts = language.get();
        if !matches!(view.status, Status::Playing) {
            return None;
        }
        let count: u32 = view.unseen.iter().map(|(_, n)| u32::from(*n)).sum();
        let hands = count.saturating_sub(view.bag_size);
        let tiles = view
            .unseen
            .iter()
            .map(|(tile, n)| {
                let text = tile_text(*tile, &view);
                // A count, written as one ("×2"): a small number beside a letter reads as its
                // points.
                view! { <li><span class="letter">{text}</span><span class="count">{format!("×{n}")}</span></li> }
            })
            .collect_view();
        Some(view! {
            <details class="unseen card" data-testid="unseen">
                <summary>
                    {tr!(texts, moves.unseen)}" "<span data-testid="unseen-count">{count}</span>
                    <span class="muted">" "{tr!(texts, moves.unseen_where, bag = view.bag_size, hands)}</span>
                </summary>
                <ul class="unseen-tiles">{tiles}</ul>
            </details>
        })
    }
}
