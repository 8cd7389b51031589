//! The last-play strip and the play history: a slider and arrows through the board after each
//! turn, with that turn's score details. The move being built stays on the live board.

use leptos::prelude::*;
use rules::{
    game::{TurnEvent, TurnRecord},
    PlayerView,
};

use super::{board::StillBoard, report::ReportButton};
use crate::api::SeatHolder;
use crate::i18n::{Language, Texts};
use crate::tr;
use dictionaries::versions::ReportKind;

/// A turn in words: "ann played QUIZ for 42", "bob passed".
pub fn describe(texts: Texts, turn: &TurnRecord, seats: &[SeatHolder]) -> String {
    let who = match seats.get(usize::from(turn.seat)) {
        Some(SeatHolder::Player { name, .. } | SeatHolder::Local { name }) => name.clone(),
        Some(SeatHolder::Bot { level, .. }) => {
            tr!(
                texts,
                history.the_bot,
                level = crate::i18n::bot_level(texts, level)
            )
        }
        _ => tr!(texts, history.seat, seat = turn.seat + 1),
    };
    match &turn.event {
        TurnEvent::Play {
            words, total, dice, ..
        } => {
            let words: Vec<String> = words
                .iter()
                .map(|w| rules::case::upper_str(&w.word))
                .collect();
            let words = words.join(", ");
            let played = tr!(texts, history.played, who, words, total);
            match rolled(texts, dice) {
                Some(rolled) => format!("{played} {rolled}"),
                None => played,
            }
        }
        TurnEvent::Pass { auto: true, .. } => tr!(texts, history.auto_pass, who),
        TurnEvent::Pass { .. } => tr!(texts, history.passed, who),
        TurnEvent::Exchange { count } => tr!(texts, history.exchanged, who, tiles = count),
        TurnEvent::Swap { count } => tr!(texts, history.swapped, who, tiles = count),
        TurnEvent::Challenge {
            withdrawn: true, ..
        } => tr!(texts, history.challenge_won, who),
        TurnEvent::Challenge {
            withdrawn: false, ..
        } => tr!(texts, history.challenge_failed, who),
        TurnEvent::TurnMissed => tr!(texts, history.turn_missed, who),
        TurnEvent::Skipped => tr!(texts, history.skipped, who),
        TurnEvent::Resign => tr!(texts, history.resigned, who),
        TurnEvent::TimedOut => tr!(texts, history.timed_out, who),
    }
}

/// What the Dice rolled in a play, if it used any: "(🎲 rolled 3)".
pub(super) fn rolled(texts: Texts, dice: &[(rules::Pos, u8)]) -> Option<String> {
    let rolls = dice.iter().map(|(_, roll)| roll.to_string());
    let rolls = rolls.collect::<Vec<_>>().join(", ");
    (!dice.is_empty()).then(|| tr!(texts, history.rolled, rolls))
}

/// The strip above the board: the last turn; tapping it opens the history.
#[component]
pub fn LastPlay(
    view: Signal<Option<PlayerView>>,
    seats: Signal<Vec<SeatHolder>>,
    open: RwSignal<bool>,
    turn: RwSignal<usize>,
) -> impl IntoView {
    let language = Language::expect();
    move || {
        let view = view.get()?;
        let seats = seats.get();
        let last = view.history.last()?;
        let texts = language.get();
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
                tr!(
                    texts,
                    history.challenger_loses,
                    play = describe(texts, challenge, &seats)
                )
            }
            _ => describe(texts, last, &seats),
        };
        Some(view! {
            <button type="button" class="last-play" data-testid="last-play" on:click=move |_| { turn.set(usize::MAX); open.set(true); }
                aria-label=tr!(texts, history.show)>
                {text}
                <span class="muted">" · "{tr!(texts, history.history_link)}</span>
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
    let language = Language::expect();
    // A new turn revealed while the history is open closes it (the rules' words): the player is
    // brought back to the game as it now stands.
    let turns = Memo::new(move |_| view.with(|v| v.as_ref().map_or(0, |v| v.history.len())));
    Effect::new(move |before: Option<usize>| {
        let now = turns.get();
        if before.is_some_and(|before| now > before) {
            open.set(false);
        }
        now
    });
    move || {
        if !open.get() {
            return None;
        }
        let view = view.get()?;
        let texts = language.get();
        let boards = view.boards_after_each_turn();
        let count = boards.len();
        if count == 0 {
            return None;
        }
        let tiles = view.rules().tiles;
        let over = matches!(view.status, rules::Status::Over(_));
        let at = move || index.get().min(count - 1);
        let history = view.history.clone();
        let history2 = history.clone();
        Some(view! {
            <div class="sheet history" role="dialog" aria-modal="true" aria-label=tr!(texts, history.play_history) data-testid="history">
                <header class="sheet-head">
                    <h2>{tr!(texts, history.title)}</h2>
                    <button type="button" on:click=move |_| open.set(false)>{tr!(texts, history.close)}</button>
                </header>
                <div class="history-controls">
                    <button type="button" aria-label=tr!(texts, history.earlier) on:click=move |_| index.set(at().saturating_sub(1))>"◀"</button>
                    <input type="range" min="1" max=count.to_string() aria-label=tr!(texts, history.turn)
                        prop:value=move || (at() + 1).to_string()
                        on:input=move |ev| index.set(event_target_value(&ev).parse::<usize>().unwrap_or(1).saturating_sub(1)) />
                    <button type="button" aria-label=tr!(texts, history.later) on:click=move |_| index.set((at() + 1).min(count - 1))>"▶"</button>
                    <span data-testid="history-turn">{move || tr!(texts, history.turn_of, turn = at() + 1, turns = count)}</span>
                </div>
                <p class="history-detail">{move || describe(texts, &history[at()], &seats.get())}</p>
                {move || {
                    let turn = &history2[at()];
                    let highlight = match &turn.event {
                        TurnEvent::Play { tiles, .. } => tiles.iter().map(|t| t.pos).collect(),
                        _ => Vec::new(),
                    };
                    let scores = turn.scores.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" – ");
                    // The words a play made with their points, each with a way to say the
                    // dictionary was wrong to take it; then the bonuses on top.
                    let (words, bonuses) = match &turn.event {
                        TurnEvent::Play { words, bonuses, .. } => (words.iter().map(|w| (w.word.clone(), w.points)).collect(), bonuses.clone()),
                        _ => (Vec::new(), Vec::new()),
                    };
                    view! {
                        <ul class="history-words" data-testid="history-words">
                            {words.into_iter().map(|(word, points)| view! {
                                <li>
                                    <strong>{rules::case::upper_str(&word)}</strong>
                                    <span class="points">{tr!(texts, history.word_points, points)}</span>
                                    <ReportButton game word kind=ReportKind::Wrong />
                                </li>
                            }).collect_view()}
                            {bonuses.into_iter().map(|bonus| view! {
                                <li class="bonus"><span>{super::preview::bonus_name(texts, bonus)}</span>
                                    <span class="points">{format!("+{}", bonus.points())}</span></li>
                            }).collect_view()}
                        </ul>
                        <p class="muted">{tr!(texts, history.scores_after)}" "{scores}</p>
                        <StillBoard board=boards[at()].clone() tiles highlight />
                    }
                }}
                // A finished game's positions go to other tools (CGP: the board, and the rack of
                // the player to move when it is the reader's own): a quiet link, below the board.
                {over.then(|| view! {
                    <a class="cgp-link" href=move || format!("/game/{}/turn/{}/cgp", game.get(), at() + 1)
                        download rel="external" data-testid="download-cgp">{tr!(texts, analysis.download_cgp)}</a>
                })}
            </div>
        })
    }
}
