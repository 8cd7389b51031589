//! The end of a game: who won and why, and each player's numbers side by side.

use leptos::prelude::*;
use rules::{
    game::{EndReason, Status, TurnEvent},
    PlayerView,
};

use super::table::Table;
use crate::api::{
    play::{create_game, rematch as rematch_move},
    seat_label, HeadToHead, NewGame, Opponent, RematchCard, RematchMove, RematchState, SeatHolder,
};
use crate::routes::player::Holder;

/// One player's numbers, from the public history.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Numbers {
    /// Highest-scoring word and its points.
    pub best_word: Option<(String, i32)>,
    /// Longest word.
    pub longest_word: Option<String>,
    /// Words formed.
    pub words: usize,
    /// Turns taken.
    pub turns: usize,
    /// Tiles placed.
    pub tiles: usize,
}

/// Every seat's numbers.
pub fn numbers(view: &PlayerView) -> Vec<Numbers> {
    let mut all = vec![Numbers::default(); view.scores.len()];
    for turn in &view.history {
        let Some(n) = all.get_mut(usize::from(turn.seat)) else {
            continue;
        };
        n.turns += 1;
        if let TurnEvent::Play { words, tiles, .. } = &turn.event {
            n.words += words.len();
            n.tiles += tiles.len();
            for w in words {
                if n.best_word.as_ref().is_none_or(|(_, p)| w.points > *p) {
                    n.best_word = Some((w.word.to_uppercase(), w.points));
                }
                if n.longest_word
                    .as_ref()
                    .is_none_or(|l| w.word.chars().count() > l.chars().count())
                {
                    n.longest_word = Some(w.word.to_uppercase());
                }
            }
        }
    }
    all
}

/// The summary card, once the game is over.
#[component]
pub fn Summary(
    view: PlayerView,
    seats: Vec<SeatHolder>,
    /// The game's id.
    game_id: String,
    /// The rematch, if offered.
    rematch: Option<RematchCard>,
    /// The page's state, to take the answers.
    table: Table,
    /// Dismisses the card to look around the finished board.
    on_explore: Callback<()>,
    /// A rated game's rank change by seat.
    rank_changes: Vec<Option<i32>>,
    /// The caller's record against the other player.
    head_to_head: Option<HeadToHead>,
) -> impl IntoView {
    let Status::Over(outcome) = &view.status else {
        return ().into_any();
    };
    let headline = match outcome.winners.as_slice() {
        [] => "A draw".to_string(),
        [w] if *w == view.seat => "You won".to_string(),
        [w] => format!("{} won", seat_label(&seats, *w)),
        _ => "A draw".to_string(),
    };
    let reason = match outcome.reason {
        EndReason::WentOut(s) => format!("{} went out", seat_label(&seats, s)),
        EndReason::Passes => "the pass limit was reached".into(),
        EndReason::Resigned(s) => format!("{} resigned", seat_label(&seats, s)),
        EndReason::TimedOut(s) => format!("{} ran out of time", seat_label(&seats, s)),
        EndReason::Strikes(s) => format!("{} was away three times", seat_label(&seats, s)),
        EndReason::TurnLimit => format!("all {} turns are played", rules::daily::TURNS),
    };
    let numbers = numbers(&view);
    let players = numbers.len();
    // Between two people: a rematch.
    let people = seats
        .iter()
        .filter(|s| matches!(s, SeatHolder::Player { .. }))
        .count();
    let opponent = seat_label(&seats, 1 - view.seat.min(1));
    let opponent_name = opponent.clone();
    // Whoever moved second moves first in the rematch.
    let i_move_first = view
        .history
        .first()
        .is_some_and(|first| first.seat != view.seat);
    let rematch_view = (people == 2 && seats.len() == 2)
        .then(|| view! { <Rematch game_id rematch opponent table i_move_first /> });
    // Against a bot: the same game again, a click away.
    let again = seats.iter().find_map(|s| match s {
        SeatHolder::Bot { level, .. } => Some(NewGame {
            variant: view.variant,
            dictionary: dictionaries::DictionaryRef::parse(&view.dictionary)?.id,
            format: view.format,
            opponent: Opponent::Bot {
                level: level.clone(),
            },
            rated: false,
        }),
        _ => None,
    });
    let economy = view.rules().economy;
    view! {
        <section class="card summary" data-testid="summary" aria-labelledby="summary-title">
            <h2 id="summary-title">{headline}</h2>
            <p class="muted">{format!("The game is over: {reason}.")}</p>
            <div class="summary-grid" style=format!("--players: {players}")>
                {numbers.into_iter().enumerate().map(|(seat, n)| {
                    let seat = seat as u8;
                    view! {
                        <dl class="player-numbers">
                            <dt class="who"><Holder holder=seats.get(usize::from(seat)).cloned().unwrap_or(SeatHolder::Open) /></dt>
                            <dd class="score">{outcome.final_scores.get(usize::from(seat)).copied().unwrap_or(0)}</dd>
                            {rank_changes.get(usize::from(seat)).copied().flatten().map(|change| view! {
                                <dt>"Rank"</dt><dd class="rank-change" data-testid=format!("rank-change-{seat}")>{format!("{change:+}")}</dd>
                            })}
                            <dt>"Best word"</dt><dd>{n.best_word.map(|(w, p)| format!("{w} ({p})")).unwrap_or_else(|| "—".into())}</dd>
                            <dt>"Longest word"</dt><dd>{n.longest_word.unwrap_or_else(|| "—".into())}</dd>
                            <dt>"Words played"</dt><dd>{n.words}</dd>
                            <dt>"Turns played"</dt><dd>{n.turns}</dd>
                            <dt>"Tiles placed"</dt><dd>{n.tiles}</dd>
                            {economy.then(|| view! { <dt>"Coins"</dt><dd>{view.coins.get(usize::from(seat)).copied().unwrap_or(0)}</dd> })}
                        </dl>
                    }
                }).collect_view()}
            </div>
            {head_to_head.filter(|h| !h.is_empty()).map(|record| view! {
                <p class="muted" data-testid="head-to-head">{format!("You against {opponent_name}: {record}")}</p>
            })}
            {rematch_view}
            <div class="actions">
                {again.map(|new| view! { <PlayAgain new /> })}
                <button type="button" on:click=move |_| on_explore.run(())>"Explore board"</button>
                <a class="button" href="/">"New game"</a>
            </div>
        </section>
    }.into_any()
}

/// Starts the same game against the same bot and goes there.
#[component]
fn PlayAgain(new: NewGame) -> impl IntoView {
    let create = Action::new(|new: &NewGame| create_game(new.clone()));
    Effect::new(move |_| {
        if let Some(Ok(Ok(created))) = create.value().get() {
            leptos_router::hooks::use_navigate()(
                &format!("/game/{}", created.id),
                Default::default(),
            );
        }
    });
    view! {
        <button class="primary" type="button" disabled=move || create.pending().get()
            on:click=move |_| { create.dispatch(new.clone()); }>"Play again"</button>
        {move || match create.value().get() {
            Some(Ok(Err(refusal))) => Some(refusal.to_string()),
            Some(Err(error)) => Some(format!("The server could not be reached: {error}")),
            _ => None,
        }.map(|m| view! { <p class="error" role="alert">{m}</p> })}
    }
}

/// Offer, withdraw, accept or decline a rematch.
#[component]
fn Rematch(
    game_id: String,
    rematch: Option<RematchCard>,
    opponent: String,
    table: Table,
    /// Whether the caller would move first in the rematch (they moved second in this game).
    i_move_first: bool,
) -> impl IntoView {
    let act = Action::new(move |answer: &RematchMove| rematch_move(game_id.clone(), *answer));
    Effect::new(move |_| match act.value().get() {
        Some(Ok(Ok(page))) => table.receive(page),
        Some(Ok(Err(refusal))) => table.message.set(Some(refusal.to_string())),
        Some(Err(error)) => table
            .message
            .set(Some(format!("The server could not be reached: {error}"))),
        None => {}
    });
    let button = move |label: &'static str, answer: RematchMove, primary: bool| {
        view! {
            <button type="button" class=if primary { "primary" } else { "" } disabled=move || act.pending().get()
                on:click=move |_| { act.dispatch(answer); }>{label}</button>
        }
    };
    let body = match rematch {
        None => view! { {button("Offer a rematch", RematchMove::Offer, true)} }.into_any(),
        Some(RematchCard { state: RematchState::Open, offered_by_me: true, .. }) => view! {
            <p>{format!("Rematch offered to {opponent}: waiting for an answer.")}</p>
            {button("Withdraw the offer", RematchMove::Cancel, false)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Open, .. }) => view! {
            <p>{format!("{opponent} offers a rematch. {}", if i_move_first {
                "You would move first.".to_string()
            } else {
                format!("{opponent} would move first.")
            })}</p>
            {button("Accept", RematchMove::Accept, true)}
            {button("Decline", RematchMove::Decline, false)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Accepted, new_game_id, .. }) => view! {
            <a class="button" href=format!("/game/{}", new_game_id.unwrap_or_default())>"Go to the rematch"</a>
        }.into_any(),
        Some(RematchCard { state: RematchState::Declined, .. }) => view! { <p>"The rematch was declined."</p> }.into_any(),
        Some(RematchCard { state: RematchState::Cancelled, offered_by_me: true, .. }) => view! {
            <p>"You withdrew your rematch offer."</p>
            {button("Offer again", RematchMove::Offer, true)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Cancelled, .. }) => view! {
            <p>{format!("{opponent} withdrew the rematch offer.")}</p>
            {button("Offer a rematch", RematchMove::Offer, true)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Expired, .. }) => view! { <p>"The rematch offer expired."</p> }.into_any(),
    };
    view! { <div class="rematch actions" data-testid="rematch">{body}</div> }
}
