//! The end of a game: who won and why, and each player's numbers side by side.

use leptos::prelude::*;
use rules::{
    game::{EndReason, Status, TurnEvent},
    PlayerView,
};

use super::table::Table;
use crate::api::{
    play::rematch as rematch_move, HeadToHead, NewGame, Opponent, RematchCard, RematchMove,
    RematchState, SeatHolder,
};
use crate::i18n::seat_label;
use crate::routes::player::Holder;
use crate::tr;

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
                    n.best_word = Some((rules::case::upper_str(&w.word), w.points));
                }
                if n.longest_word
                    .as_ref()
                    .is_none_or(|longest| w.word.chars().count() > longest.chars().count())
                {
                    n.longest_word = Some(rules::case::upper_str(&w.word));
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
    /// Whether the caller follows the other player (between two people).
    follows: Option<bool>,
    /// The caller's next game waiting on them.
    next_game: Signal<Option<String>>,
) -> impl IntoView {
    let Status::Over(outcome) = &view.status else {
        return ().into_any();
    };
    // The card is built again when the language changes (its parent follows it).
    let texts = table.language.get_untracked();
    let name = |seat| seat_label(texts, &seats, seat);
    let headline = match outcome.winners.as_slice() {
        [w] if *w == view.seat => tr!(texts, summary.you_won).to_string(),
        [w] => tr!(texts, summary.won, name = name(*w)),
        _ => tr!(texts, summary.draw).to_string(),
    };
    let reason = match outcome.reason {
        EndReason::WentOut(s) => tr!(texts, summary.went_out, name = name(s)),
        EndReason::Passes => tr!(texts, summary.passes).into(),
        EndReason::Resigned(s) => tr!(texts, summary.resigned, name = name(s)),
        EndReason::TimedOut(s) => tr!(texts, summary.timed_out, name = name(s)),
        EndReason::Strikes(s) => tr!(texts, summary.strikes, name = name(s)),
        EndReason::TurnLimit => tr!(texts, summary.turn_limit, turns = rules::daily::TURNS),
    };
    let numbers = numbers(&view);
    // Between two people: a rematch.
    let people = seats
        .iter()
        .filter(|s| matches!(s, SeatHolder::Player { .. }))
        .count();
    let opponent = name(1 - view.seat.min(1));
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
    view! {
        <section class="card summary" data-testid="summary" aria-labelledby="summary-title">
            <h2 id="summary-title">{headline}</h2>
            <p class="muted">{tr!(texts, summary.over_because, reason)}</p>
            <NumbersTable view=view.clone() seats=seats.clone() outcome=outcome.clone() numbers rank_changes texts />
            {head_to_head.filter(|h| !h.is_empty()).map(|record| view! {
                <p class="muted" data-testid="head-to-head">{tr!(texts, summary.head_to_head, name = opponent_name.clone(), record = tr!(texts, summary.record, wins = record.wins, draws = record.draws, losses = record.losses))}</p>
            })}
            {rematch_view}
            {follows.zip(other_player(&seats, view.seat)).map(|(follows, name)| follow_view(texts, follows, name))}
            <div class="actions">
                <super::next::NextGame next=next_game />
                {again.map(|new| view! { <PlayAgain new /> })}
                <button type="button" on:click=move |_| on_explore.run(())>{tr!(texts, summary.explore)}</button>
                <a class="button" href="/">{tr!(texts, summary.new_game)}</a>
            </div>
        </section>
    }.into_any()
}

/// The players' numbers, one row per number with its label, one column per player: a value
/// shares its label's row on every screen (on a phone the label heads its row, above the values).
#[component]
fn NumbersTable(
    view: PlayerView,
    seats: Vec<SeatHolder>,
    outcome: rules::game::Outcome,
    numbers: Vec<Numbers>,
    rank_changes: Vec<Option<i32>>,
    texts: crate::i18n::Texts,
) -> impl IntoView {
    let seat_count = numbers.len();
    let seat_ids = move || (0..seat_count).map(|seat| seat as u8);
    // One row: its label, then each seat's value.
    let row = move |class: &'static str, label: &'static str, value: &dyn Fn(u8) -> String| {
        view! {
            <tr class=class>
                <th scope="row">{label}</th>
                {seat_ids().map(|seat| view! { <td data-seat=seat>{value(seat)}</td> }).collect_view()}
            </tr>
        }
    };
    let final_score = |seat: u8| {
        outcome
            .final_scores
            .get(usize::from(seat))
            .copied()
            .unwrap_or(0)
            .to_string()
    };
    let made: Vec<Option<String>> = seat_ids()
        .map(|seat| final_made(texts, &view, &outcome, seat))
        .collect();
    let made_row = made.iter().any(Option::is_some).then(|| view! {
        <tr class="final-made">
            <th scope="row">{tr!(texts, summary.made_of)}</th>
            {made.iter().enumerate().map(|(seat, made)| view! {
                <td class="muted" data-testid=format!("final-made-{seat}")>{made.clone().unwrap_or_default()}</td>
            }).collect_view()}
        </tr>
    });
    let ranked = rank_changes.iter().any(Option::is_some);
    let rank_row = ranked.then(|| view! {
        <tr>
            <th scope="row">{tr!(texts, summary.rank)}</th>
            {seat_ids().map(|seat| {
                let change = rank_changes.get(usize::from(seat)).copied().flatten();
                view! { <td class="rank-change" data-testid=format!("rank-change-{seat}")>{change.map(|c| format!("{c:+}")).unwrap_or_else(|| "—".into())}</td> }
            }).collect_view()}
        </tr>
    });
    let economy = view.rules().economy;
    let n = |seat: u8| numbers.get(usize::from(seat)).cloned().unwrap_or_default();
    view! {
        <table class="summary-table" data-testid="summary-table" style=format!("--players: {seat_count}")>
            <thead>
                <tr>
                    <td></td>
                    {seat_ids().map(|seat| view! {
                        <th scope="col" class="who"><Holder holder=seats.get(usize::from(seat)).cloned().unwrap_or(SeatHolder::Open) /></th>
                    }).collect_view()}
                </tr>
            </thead>
            <tbody>
                {row("score", tr!(texts, summary.final_score), &final_score)}
                {made_row}
                {rank_row}
                {row("", tr!(texts, summary.best_word), &|seat| n(seat).best_word.map(|(w, p)| format!("{w} ({p})")).unwrap_or_else(|| "—".into()))}
                {row("", tr!(texts, summary.longest_word), &|seat| n(seat).longest_word.unwrap_or_else(|| "—".into()))}
                {row("", tr!(texts, summary.words_played), &|seat| n(seat).words.to_string())}
                {row("", tr!(texts, summary.turns_played), &|seat| n(seat).turns.to_string())}
                {row("", tr!(texts, summary.tiles_placed), &|seat| n(seat).tiles.to_string())}
                {economy.then(|| row("", tr!(texts, summary.coins), &|seat| view.coins.get(usize::from(seat)).copied().unwrap_or(0).to_string()))}
            </tbody>
        </table>
    }
}

/// The other person's name, in a game between two.
fn other_player(seats: &[SeatHolder], me: rules::Seat) -> Option<String> {
    seats
        .iter()
        .enumerate()
        .find_map(|(seat, holder)| match holder {
            SeatHolder::Player { name, .. } if seat != usize::from(me) => Some(name.clone()),
            _ => None,
        })
}

/// Follow the other player: a plain form, which comes back to this page.
fn follow_view(texts: crate::i18n::Texts, follows: bool, name: String) -> impl IntoView {
    match follows {
        true => view! { <p class="muted" data-testid="following">{tr!(texts, summary.following, name)}</p> }.into_any(),
        false => view! {
            <form method="post" action="/api/friends/follow" class="inline">
                <input type="hidden" name="name" value=name.clone() />
                <button type="submit" data-testid="follow-opponent">{tr!(texts, summary.follow, name)}</button>
            </form>
        }.into_any(),
    }
}

/// How a seat's final score is made, when it is more than its plays: "301 from plays, +29
/// from coins" (the tiles left and the coins are counted only at the end).
fn final_made(
    texts: crate::i18n::Texts,
    view: &PlayerView,
    outcome: &rules::game::Outcome,
    seat: rules::Seat,
) -> Option<String> {
    let index = usize::from(seat);
    let played = view.scores.get(index).copied()?;
    let coins = match view.rules().economy {
        true => view.coins.get(index).copied().unwrap_or(0),
        false => 0,
    };
    let leftovers = outcome.final_scores.get(index).copied()? - played - coins;
    (leftovers != 0 || coins != 0).then(|| {
        let leftovers = match leftovers {
            0 => String::new(),
            points => tr!(texts, summary.leftovers, points = format!("{points:+}")),
        };
        let coins = match coins {
            0 => String::new(),
            coins => tr!(texts, summary.from_coins, coins),
        };
        tr!(texts, summary.final_made, played, leftovers, coins)
    })
}

/// Starts the same game against the same bot, on this device, and goes there.
#[component]
fn PlayAgain(new: NewGame) -> impl IntoView {
    view! {
        <a class="button primary" href=crate::routes::new_game::device_game_path(&new) data-testid="play-again">
            {crate::t!(summary.play_again)}
        </a>
    }
}

/// The new game of an accepted rematch.
pub(super) fn accepted_game(rematch: &RematchCard) -> Option<String> {
    match rematch.state {
        RematchState::Accepted => rematch.new_game_id.clone(),
        _ => None,
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
    let act =
        crate::acting::acting(move |answer: &RematchMove| rematch_move(game_id.clone(), *answer));
    let texts = table.language.get_untracked();
    Effect::new(move |_| match act.value() {
        Some(Ok(Ok(page))) => table.receive(page),
        Some(Ok(Err(refusal))) => table.message.set(Some(crate::i18n::answer_text(
            table.language.get_untracked(),
            Ok(refusal),
        ))),
        Some(Err(error)) => table.message.set(Some(crate::i18n::answer_text(
            table.language.get_untracked(),
            Err(error),
        ))),
        None => {}
    });
    let button = move |label: &'static str, answer: RematchMove, primary: bool| {
        view! {
            <button type="button" class=if primary { "primary" } else { "" } disabled=move || act.pending().get()
                on:click=move |_| {
                    table.accepting_rematch.set(answer == RematchMove::Accept);
                    act.dispatch(answer);
                }>{label}</button>
        }
    };
    let body = match rematch {
        None => view! { {button(tr!(texts, rematch.offer), RematchMove::Offer, true)} }.into_any(),
        Some(RematchCard { state: RematchState::Open, offered_by_me: true, .. }) => view! {
            <p>{tr!(texts, rematch.offered, name = opponent.clone())}</p>
            {button(tr!(texts, rematch.withdraw), RematchMove::Cancel, false)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Open, .. }) => view! {
            <p>{tr!(texts, rematch.offers, name = opponent.clone())}" "{if i_move_first {
                tr!(texts, rematch.you_first).to_string()
            } else {
                tr!(texts, rematch.they_first, name = opponent.clone())
            }}</p>
            {button(tr!(texts, rematch.accept), RematchMove::Accept, true)}
            {button(tr!(texts, rematch.decline), RematchMove::Decline, false)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Accepted, new_game_id, .. }) => view! {
            <a class="button" href=format!("/game/{}", new_game_id.unwrap_or_default())>{tr!(texts, rematch.go)}</a>
        }.into_any(),
        Some(RematchCard { state: RematchState::Declined, .. }) => view! { <p>{tr!(texts, rematch.declined)}</p> }.into_any(),
        Some(RematchCard { state: RematchState::Cancelled, offered_by_me: true, .. }) => view! {
            <p>{tr!(texts, rematch.you_withdrew)}</p>
            {button(tr!(texts, rematch.offer_again), RematchMove::Offer, true)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Cancelled, .. }) => view! {
            <p>{tr!(texts, rematch.they_withdrew, name = opponent.clone())}</p>
            {button(tr!(texts, rematch.offer), RematchMove::Offer, true)}
        }.into_any(),
        Some(RematchCard { state: RematchState::Expired, .. }) => view! { <p>{tr!(texts, rematch.expired)}</p> }.into_any(),
    };
    view! { <div class="rematch actions" data-testid="rematch">{body}</div> }
}
