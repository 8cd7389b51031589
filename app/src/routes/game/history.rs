//! The last-play strip and the play history: a slider and arrows through the board after each
//! turn, with that turn's score details. The move being built stays on the live board.

use leptos::prelude::*;
use rules::{
    game::{TurnEvent, TurnRecord},
    PlayerView,
};

use super::{board::StillBoard, report::ReportButton};
use crate::api::SeatHolder;
use dictionaries::versions::ReportKind;

/// A turn in words: "ann played QUIZ for 42", "bob passed".
pub fn describe(turn: &TurnRecord, seats: &[SeatHolder]) -> String {
    let who = match seats.get(usize::from(turn.seat)) {
        Some(SeatHolder::Player { name, .. }) => name.clone(),
        Some(SeatHolder::Bot { level, .. }) => format!("the {level} bot"),
        _ => format!("seat {}", turn.seat + 1),
    };
    match &turn.event {
        TurnEvent::Play {
            words, total, dice, ..
        } => {
            let words: Vec<String> = words.iter().map(|w| w.word.to_uppercase()).collect();
            let rolls: Vec<String> = dice.iter().map(|(_, roll)| roll.to_string()).collect();
            let rolled = if rolls.is_empty() {
                String::new()
            } else {
                format!(" (🎲 rolled {})", rolls.join(", "))
            };
            format!("{who} played {} for {total}{rolled}", words.join(", "))
        }
        TurnEvent::Pass { auto: true, .. } => format!("{who} ran out of time: passed"),
        TurnEvent::Pass { .. } => format!("{who} passed"),
        TurnEvent::Exchange { count } => format!("{who} exchanged {count} tiles"),
        TurnEvent::Swap { count } => format!("{who} swapped {count} tiles"),
        TurnEvent::Challenge {
            withdrawn: true, ..
        } => format!("{who} challenged: the play is withdrawn"),
        TurnEvent::Challenge {
            withdrawn: false, ..
        } => format!("{who} challenged: the play stands"),
        TurnEvent::TurnMissed => format!("{who} played an invalid word and lost the turn"),
        TurnEvent::Skipped => format!("{who} lost this turn to a failed challenge"),
        TurnEvent::Resign => format!("{who} resigned"),
        TurnEvent::TimedOut => format!("{who} ran out of time"),
    }
}

/// The strip above the board: the last turn; tapping it opens the history.
#[component]
pub fn LastPlay(
    view: Signal<Option<PlayerView>>,
    seats: Signal<Vec<SeatHolder>>,
    open: RwSignal<bool>,
    turn: RwSignal<usize>,
) -> impl IntoView {
    move || {
        let view = view.get()?;
        let seats = seats.get();
        let last = view.history.last()?;
        // A failed challenge costs the challenger the turn: say both, not only the lost turn.
        let text = match (view.history.iter().rev().nth(1), &last.event) {
            (
                Some(
                    challenge @ TurnRecord {
                        event:
                            TurnEvent::Challenge {
                                withdrawn: false, ..
                            },
                        ..
                    },
                ),
                TurnEvent::Skipped,
            ) => {
                format!(
                    "{}, so the challenger loses this turn",
                    describe(challenge, &seats)
                )
            }
            _ => describe(last, &seats),
        };
        Some(view! {
            <button type="button" class="last-play" data-testid="last-play" on:click=move |_| { turn.set(usize::MAX); open.set(true); }
                aria-label="Show the play history">
                {text}
                <span class="muted">" · history"</span>
            </button>
        })
    }
}

/// The history panel (full screen on phones).
#[component]
pub fn History(
    view: Signal<Option<PlayerView>>,
    seats: Signal<Vec<SeatHolder>>,
    open: RwSignal<bool>,
    turn: RwSignal<usize>,
    game: Signal<String>,
) -> impl IntoView {
    let index = turn;
    move || {
        if !open.get() {
            return None;
        }
        let view = view.get()?;
        let boards = view.boards_after_each_turn();
        let count = boards.len();
        if count == 0 {
            return None;
        }
        let tiles = view.rules().tiles;
        let at = move || index.get().min(count - 1);
        let history = view.history.clone();
        let history2 = history.clone();
        Some(view! {
            <div class="sheet history" role="dialog" aria-modal="true" aria-label="Play history" data-testid="history">
                <header class="sheet-head">
                    <h2>"History"</h2>
                    <button type="button" on:click=move |_| open.set(false)>"Close"</button>
                </header>
                <div class="history-controls">
                    <button type="button" aria-label="Earlier turn" on:click=move |_| index.set(at().saturating_sub(1))>"◀"</button>
                    <input type="range" min="1" max=count.to_string() aria-label="Turn"
                        prop:value=move || (at() + 1).to_string()
                        on:input=move |ev| index.set(event_target_value(&ev).parse::<usize>().unwrap_or(1).saturating_sub(1)) />
                    <button type="button" aria-label="Later turn" on:click=move |_| index.set((at() + 1).min(count - 1))>"▶"</button>
                    <span data-testid="history-turn">{move || format!("Turn {} of {count}", at() + 1)}</span>
                </div>
                <p class="history-detail">{move || describe(&history[at()], &seats.get())}</p>
                {move || {
                    let turn = &history2[at()];
                    let highlight = match &turn.event {
                        TurnEvent::Play { tiles, .. } => tiles.iter().map(|t| t.pos).collect(),
                        _ => Vec::new(),
                    };
                    let scores = turn.scores.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" – ");
                    // The words a play made, each with a way to say the dictionary was wrong to take it.
                    let words = match &turn.event {
                        TurnEvent::Play { words, .. } => words.iter().map(|w| w.word.clone()).collect(),
                        _ => Vec::new(),
                    };
                    view! {
                        <ul class="history-words">
                            {words.into_iter().map(|word| view! {
                                <li><strong>{word.to_uppercase()}</strong>" "<ReportButton game word kind=ReportKind::Wrong /></li>
                            }).collect_view()}
                        </ul>
                        <p class="muted">"Scores after it: "{scores}</p>
                        <StillBoard board=boards[at()].clone() tiles highlight />
                    }
                }}
            </div>
        })
    }
}
