//! Analysis of a finished game, on the game page: each of the player's turns beside the engine's
//! best moves for the rack they held, the points left on the table, and each player's totals.
//!
//! It runs in the browser: a Web Worker loads the engine's own wasm module (`/pkg/analysis.js`,
//! never part of this page's bundle) only when the player asks, and reports after every turn.
//! A device too slow for that can ask the server instead, a few times an hour. Either way only
//! the player's own racks are analysed: the server sends no other.

use leptos::{
    either::{Either, EitherOf5},
    prelude::*,
};
use rules::{
    analysis::{summarise, TurnAnalysis},
    PlayerView,
};

use crate::api::{analysis as api, Refusal, SeatHolder};
use crate::i18n::{seat_label, Language};
use crate::tr;

/// Where the analysis stands.
#[derive(Debug, Clone, PartialEq)]
enum Progress {
    /// Not asked for.
    Idle,
    /// Fetching the turns, the engine and the words.
    Starting,
    /// This many turns of so many done (the worker says so).
    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    Running(usize, usize),
    /// Done, by the browser (`false`) or by the server (`true`).
    Done(Vec<TurnAnalysis>, bool),
    /// Failed: what to say.
    Failed(String),
}

/// The Analyse button, the downloads, and the analysis once asked for.
#[component]
pub fn Analysis(
    view: Signal<Option<PlayerView>>,
    seats: Signal<Vec<SeatHolder>>,
    game: Signal<String>,
    /// Opens the history at a turn (from 0).
    open: RwSignal<bool>,
    turn: RwSignal<usize>,
) -> impl IntoView {
    let language = Language::expect();
    let progress = RwSignal::new(Progress::Idle);
    let refused = move |answer: Result<Refusal, ServerFnError>| {
        progress.set(Progress::Failed(crate::i18n::answer_text(
            language.get_untracked(),
            answer,
        )));
    };
    let in_browser = move |_| {
        progress.set(Progress::Starting);
        run_in_worker(game.get_untracked(), progress, refused);
    };
    let on_server = move |_| {
        progress.set(Progress::Starting);
        let id = game.get_untracked();
        leptos::task::spawn_local(async move {
            match api::analyse_on_server(id).await {
                Ok(Ok(turns)) => progress.set(Progress::Done(turns, true)),
                Ok(Err(refusal)) => refused(Ok(refusal)),
                Err(error) => refused(Err(error)),
            }
        });
    };
    move || {
        let view = view.get()?;
        if !matches!(view.status, rules::Status::Over(_)) {
            return None;
        }
        let texts = language.get();
        let id = game.get();
        let busy = matches!(progress.get(), Progress::Starting | Progress::Running(..));
        // Static types rather than `into_any`, which would compile an async hydration path for
        // each of them into the page's bundle.
        let body = match progress.get() {
            Progress::Idle => EitherOf5::A(()),
            Progress::Starting => {
                EitherOf5::B(view! { <progress data-testid="analysis-progress"></progress> })
            }
            Progress::Running(done, of) => EitherOf5::C(view! {
                <progress data-testid="analysis-progress" max=of.to_string() value=done.to_string()></progress>
                <p class="muted">{tr!(texts, analysis.progress, done, of)}</p>
            }),
            Progress::Failed(message) => {
                EitherOf5::D(view! { <p class="error" role="alert">{message}</p> })
            }
            Progress::Done(turns, by_server) => EitherOf5::E(view! {
                <Results turns by_server players=view.scores.len() seats=seats.get() open turn />
            }),
        };
        Some(view! {
            <section class="analysis card" data-testid="analysis" aria-labelledby="analysis-title">
                <h2 id="analysis-title">{tr!(texts, analysis.title)}</h2>
                <div class="actions">
                    <button type="button" class="primary" data-testid="analyse" disabled=busy on:click=in_browser>{tr!(texts, analysis.analyse)}</button>
                    <button type="button" data-testid="analyse-on-server" disabled=busy on:click=on_server>{tr!(texts, analysis.on_server)}</button>
                    <a class="button" href=format!("/game/{id}/gcg") download data-testid="download-gcg" rel="external">{tr!(texts, analysis.download_gcg)}</a>
                </div>
                {body}
            </section>
        })
    }
}

/// The totals and each turn.
#[component]
fn Results(
    turns: Vec<TurnAnalysis>,
    by_server: bool,
    players: usize,
    seats: Vec<SeatHolder>,
    open: RwSignal<bool>,
    turn: RwSignal<usize>,
) -> impl IntoView {
    let texts = Language::expect().get_untracked();
    let totals = summarise(&turns, u8::try_from(players).unwrap_or(u8::MAX));
    let number = |tenths: i32| crate::i18n::tenths(texts, tenths);
    view! {
        <p class="muted" data-testid="analysis-source">{if by_server { tr!(texts, analysis.by_server) } else { tr!(texts, analysis.by_browser) }}</p>
        <ul class="analysis-totals">
            {totals.iter().enumerate().filter(|(_, t)| t.turns > 0).map(|(seat, t)| view! {
                <li data-testid=format!("analysis-total-{seat}")>
                    <strong>{seat_label(texts, &seats, seat as u8)}</strong>": "
                    {tr!(texts, analysis.totals, missed = t.missed, finds = t.best_finds, turns = t.turns)}
                    {t.top_find.map(|(turn, points)| view! { " "{tr!(texts, analysis.top_find, turn, points)} })}
                </li>
            }).collect_view()}
        </ul>
        <ol class="analysis-turns">
            {turns.into_iter().map(|t| {
                let index = usize::from(t.turn).saturating_sub(1);
                let found = t.best_find() && t.score > 0;
                let played = if t.played == "-" { tr!(texts, analysis.passed).to_string() } else if t.played.starts_with('-') { tr!(texts, analysis.exchanged, count = &t.played[1..]) } else { t.played.clone() };
                view! {
                    <li data-testid="analysis-turn" class:best-find=found>
                        <button type="button" class="link" on:click=move |_| { turn.set(index); open.set(true); }>
                            {tr!(texts, analysis.turn, n = t.turn)}
                        </button>
                        " "<span class="played">{played}" "{tr!(texts, analysis.points, points = t.score)}</span>
                        {(t.missed > 0).then(|| view! { " "<span class="missed">{tr!(texts, analysis.missed, points = t.missed)}</span> })}
                        {if t.best.is_empty() {
                            // A rack with no word to make anywhere on that board.
                            Either::Left(view! { <p class="muted" data-testid="no-move">{tr!(texts, analysis.no_move)}</p> })
                        } else {
                            Either::Right(view! {
                                <table class="candidates">
                                    <thead><tr><th>{tr!(texts, analysis.move_header)}</th><th>{tr!(texts, analysis.score_header)}</th><th>{tr!(texts, analysis.equity_header)}</th></tr></thead>
                                    <tbody>
                                        {t.best.iter().map(|c| view! {
                                            <tr><td class="notation">{c.notation.clone()}</td><td>{c.score}</td><td>{number(c.equity_tenths)}</td></tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            })
                        }}
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

/// Starts the worker on game `id` and reports into `progress` (a refusal through `refused`).
#[cfg(feature = "hydrate")]
fn run_in_worker(
    id: String,
    progress: RwSignal<Progress>,
    refused: impl Fn(Result<Refusal, ServerFnError>) + Copy + 'static,
) {
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    let fail = move |what: String| progress.set(Progress::Failed(what));
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = match web_sys::Worker::new_with_options("/analysis-worker.js", &options) {
        Ok(worker) => worker,
        Err(error) => return fail(crate::js_error::text(&error)),
    };
    let field = |data: &JsValue, name: &str| {
        js_sys::Reflect::get(data, &name.into())
            .ok()
            .filter(|v| !v.is_undefined())
    };
    let handle = worker.clone();
    let asked = id.clone();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let data = e.data();
            if let Some(pair) = field(&data, "progress") {
                let pair = js_sys::Array::from(&pair);
                let at = |i| pair.get(i).as_f64().unwrap_or(0.0) as usize;
                progress.set(Progress::Running(at(0), at(1)));
                return;
            }
            handle.terminate();
            if let Some(results) = field(&data, "results") {
                // Postcard, as the server's answers: one reader for the type in the bundle.
                let bytes = js_sys::Uint8Array::new(&results).to_vec();
                match crate::wire::from_bytes::<Vec<TurnAnalysis>>(&bytes) {
                    Ok(turns) => progress.set(Progress::Done(turns, false)),
                    Err(error) => fail(error.to_string()),
                }
            } else if field(&data, "refused").is_some() {
                // The server refused the worker the turns. The worker reads JSON, which this
                // bundle has no reader for: ask again from here for the refusal to show.
                let id = asked.clone();
                leptos::task::spawn_local(async move {
                    match api::analysis_turns(id).await {
                        Ok(Err(refusal)) => refused(Ok(refusal)),
                        Err(error) => refused(Err(error)),
                        // Allowed in the meantime (the game just ended): try again.
                        Ok(Ok(_)) => progress.set(Progress::Idle),
                    }
                });
            } else {
                fail(
                    field(&data, "error")
                        .and_then(|e| e.as_string())
                        .unwrap_or_default(),
                );
            }
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker answers until it is terminated; the closure lives as long (one per analysis).
    on_message.forget();
    if let Err(error) = worker.post_message(&JsValue::from_str(&id)) {
        fail(crate::js_error::text(&error));
    }
}

#[cfg(not(feature = "hydrate"))]
fn run_in_worker(
    _: String,
    _: RwSignal<Progress>,
    _: impl Fn(Result<Refusal, ServerFnError>) + Copy + 'static,
) {
}
