//! The top of the game page: the scoreboard, the game's title, whose turn it is, the Ready
//! lobby or the invite link before a match, the result card after it, and the last play.

use leptos::prelude::*;
use rules::{game::Status, PlayerView, Seat};

use super::{
    daily_summary, history, next,
    screen::{Answer, Screen},
    summary,
};
use crate::{
    api::{
        play::{GamePage, NudgeOffer},
        GameCard, Phase,
    },
    i18n::{dictionary_name, format_name, ruleset_name, Language, Texts},
    tr,
};

/// The head region, redrawn with each game the page receives.
#[component]
pub(super) fn Head(screen: Screen, take: Callback<Answer>) -> impl IntoView {
    let language = Language::expect();
    let table = screen.table;
    let view_signal = Signal::derive(move || table.view());
    let seats = table.seats();
    let next = next::next_game(table);
    // Moments are rendered in UTC (the server does not know the reader's time zone) and read in
    // the reader's own time once the page is hydrated.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    view! {
        <div class="table-head">
            {move || table.page.get().map(|page| {
                let texts = language.get();
                let card = page.card.clone();
                view! {
                    {scoreboard(screen, &page, texts)}
                    {title(&page, texts, true)}
                    {turn(&card, texts)}
                    {vacation(&page, texts, hydrated)}
                    {page.nudge.map(|offer| view! { <Nudge id=card.id.clone() offer name=crate::i18n::seat_label(texts, &card.seats, card.to_move) hydrated /> })}
                    // Once it is over, the result card offers it.
                    {(card.phase != Phase::Over).then(|| view! { <next::NextGame next /> })}
                    {first_draw(&page, texts)}
                    {(card.phase == Phase::Ready).then(|| view! { <ReadyLobby card=card.clone() take /> })}
                    {page.invite_path.clone().map(|path| invite_link(screen, path, texts))}
                    {end_of_game(screen, &page, texts, next)}
                }
            })}
            <history::LastPlay view=view_signal seats open=screen.history_open turn=screen.history_turn />
        </div>
    }
}

/// Each seat's name, presence, coins, score and clock, and the bag.
fn scoreboard(screen: Screen, page: &GamePage, texts: Texts) -> impl IntoView {
    let card = &page.card;
    let view = &page.view;
    view! {
        <header class="scoreboard" data-testid="scoreboard">
            {card.seats.iter().enumerate().map(|(seat, holder)| {
                seat_score(screen, card, view, seat as Seat, holder.clone(), texts)
            }).collect_view()}
            <div class="bag" title=tr!(texts, game.bag_title)>{tr!(texts, game.bag, tiles = view.bag_size)}</div>
        </header>
    }
}

/// One seat on the scoreboard.
fn seat_score(
    screen: Screen,
    card: &GameCard,
    view: &PlayerView,
    seat: Seat,
    holder: crate::api::SeatHolder,
    texts: Texts,
) -> AnyView {
    let index = usize::from(seat);
    let to_move = card.phase == Phase::Playing && card.to_move == seat;
    let mine = card.my_seats.contains(&seat);
    let class = format!(
        "player{}{}",
        if to_move { " to-move" } else { "" },
        if mine { " me" } else { "" }
    );
    let strikes = view.strikes.get(index).copied().unwrap_or(0);
    let clock = to_move.then_some(card.time_left_ms).flatten();
    let blitz = card.format == rules::game::Format::Blitz;
    // The page's own presence until the live stream reports.
    let listed = card.online.get(index).copied().flatten();
    let presence = screen.presence;
    let online = move || {
        presence.with(|p| {
            if p.is_empty() {
                listed
            } else {
                p.get(index).copied().flatten()
            }
        })
    };
    // Once the game is over, the final score: the end card's, with the tiles left and coins.
    let score = match &view.status {
        rules::game::Status::Over(outcome) => outcome.final_scores.get(index).copied(),
        rules::game::Status::Playing => card.scores.get(index).copied(),
    }
    .unwrap_or(0);
    let coins = view.rules().economy.then(|| {
        let coins = view.coins.get(index).copied().unwrap_or(0);
        let coin_change = screen.table.coin_change;
        let change = move || coin_change.with(|c| c.get(index).copied().unwrap_or(0));
        view! {
            <small class="coins" data-testid=format!("coins-{seat}")>{crate::i18n::coins(texts, coins)}
                {move || (change() != 0).then(|| format!(" ({:+})", change()))}
            </small>
        }
    });
    view! {
        <div class=class data-seat=seat>
            <span class="name">
                {move || online().map(|on| view! {
                    <span role="img" class=if on { "presence online" } else { "presence away" } data-testid=format!("presence-{seat}")
                        title=if on { crate::t!(game.online)() } else { crate::t!(game.away)() } aria-label=if on { crate::t!(game.online)() } else { crate::t!(game.away)() }></span>
                })}
                <crate::routes::player::Holder holder />
                {coins}
            </span>
            <span class="score" data-testid=format!("score-{seat}")>{score}</span>
            {clock.map(|left_ms| view! { <crate::live::Clock left_ms blitz /> })}
            {(blitz && strikes > 0).then(|| view! {
                <span class="strikes" title=tr!(texts, game.strikes_title)>{tr!(texts, game.strikes, strikes)}</span>
            })}
        </div>
    }
    .into_any()
}

/// The ruleset, dictionary and format (a Daily Challenge counts its turns instead of a clock),
/// with a link to the ruleset's rules: in the head (`on_top`) on a wide screen, in the foot on
/// a phone, where the screen has no row to spare.
pub(super) fn title(page: &GamePage, texts: Texts, on_top: bool) -> impl IntoView {
    let card = &page.card;
    let third = match card.variant {
        rules::Variant::Daily { .. } => tr!(
            texts,
            game.turn_of,
            turn = (page.view.history.len() + 1).min(usize::from(rules::daily::TURNS)),
            turns = rules::daily::TURNS
        ),
        _ if card.on_device() => tr!(texts, device.no_clock).to_string(),
        _ => format_name(texts, card.format).to_string(),
    };
    let title = format!(
        "{} · {} · {}",
        ruleset_name(texts, &card.variant),
        dictionary_name(texts, card.dictionary),
        third
    );
    view! {
        <p class=if on_top { "game-title muted on-top" } else { "game-title muted below" }>{title}" · "
            // The rules are a server-rendered page outside the app.
            <a href=format!("/help#{}", crate::routes::help::anchor(&card.variant)) rel="external" data-testid=on_top.then_some("rules-link")>{tr!(texts, game.rules)}</a>
        </p>
    }
}

/// Whose turn it is, or where the game stands.
fn turn(card: &GameCard, texts: Texts) -> impl IntoView {
    let local = card.my_seats.len() > 1;
    let seat_label = || crate::i18n::seat_label(texts, &card.seats, card.to_move);
    let text = match card.phase {
        Phase::Waiting => tr!(texts, game.waiting_for_opponent).to_string(),
        Phase::Ready => tr!(texts, game.blitz_ready).to_string(),
        Phase::Cancelled => tr!(texts, game.called_off).to_string(),
        Phase::Over => tr!(texts, game.over).to_string(),
        Phase::Playing if card.my_turn && local => tr!(texts, game.to_move, name = seat_label()),
        Phase::Playing if card.my_turn => tr!(texts, game.your_turn).to_string(),
        Phase::Playing => tr!(texts, game.waiting_for, name = seat_label()),
    };
    view! { <p class="turn" data-testid="turn" role="status">{text}</p> }
}

/// A moment as the page writes it: in UTC until `hydrated`, then in the reader's own time.
fn written(ms: i64, hydrated: bool) -> String {
    if hydrated {
        crate::i18n::local_moment(ms)
    } else {
        crate::i18n::moment(ms)
    }
}

/// While the player to move is on vacation: until when their clock is paused.
fn vacation(page: &GamePage, texts: Texts, hydrated: RwSignal<bool>) -> Option<impl IntoView> {
    let until = page.vacation_until?;
    let name = crate::i18n::seat_label(texts, &page.card.seats, page.card.to_move);
    let text = move || {
        let until = written(until, hydrated.get());
        tr!(texts, game.on_vacation, name = name.clone(), until)
    };
    Some(view! { <p class="vacation muted" data-testid="vacation">{text}</p> })
}

/// The button that nudges the player to move (`name`), who has kept the caller waiting a day,
/// once a day; before then, when it will be offered.
#[component]
fn Nudge(id: String, offer: NudgeOffer, name: String, hydrated: RwSignal<bool>) -> impl IntoView {
    let language = Language::expect();
    let nudging = crate::acting::acting(move |id: &String| crate::api::waiting::nudge(id.clone()));
    move || {
        let texts = language.get();
        match (nudging.value(), offer) {
            (Some(Ok(Ok(()))), _) => view! { <p class="nudge muted" role="status" data-testid="nudged">{tr!(texts, game.nudged)}</p> }.into_any(),
            (Some(Ok(Err(why))), _) => view! { <p class="nudge error" role="alert">{crate::i18n::refusal(texts, &why)}</p> }.into_any(),
            (_, NudgeOffer::From(from)) => view! {
                <p class="nudge muted" data-testid="nudge-from">{tr!(texts, game.nudge_from, when = written(from, hydrated.get()))}</p>
            }
            .into_any(),
            (_, NudgeOffer::Now) => {
                let id = id.clone();
                view! {
                    <p class="nudge">
                        <button type="button" class="small" data-testid="nudge" title=tr!(texts, game.nudge_title, name = name.clone())
                            disabled=move || nudging.pending().get() on:click=move |_| nudging.dispatch(id.clone())>
                            {tr!(texts, game.nudge)}
                        </button>
                    </p>
                }
                .into_any()
            }
        }
    }
}

/// Where a draw of tiles decided who starts (Classic, Alfapet), who drew it: said through the
/// first play, so that a bot moving first is no surprise.
fn first_draw(page: &GamePage, texts: Texts) -> Option<impl IntoView> {
    use rules::ruleset::FirstPlayer;
    let (card, view) = (&page.card, &page.view);
    if card.phase != Phase::Playing || view.history.len() > 1 {
        return None;
    }
    let first = view.history.first().map_or(card.to_move, |turn| turn.seat);
    let name = crate::i18n::seat_label(texts, &card.seats, first);
    let text = match view.rules().first_player {
        FirstPlayer::Given => return None,
        FirstPlayer::ClosestToA => tr!(texts, game.drawn_closest_to_a, name),
        FirstPlayer::HighestValue => tr!(texts, game.drawn_highest, name),
    };
    Some(view! { <p class="first-draw muted" data-testid="first-draw">{text}</p> })
}

/// A waiting game's invite link, for its owner to copy or share again.
fn invite_link(screen: Screen, path: String, texts: Texts) -> impl IntoView {
    let origin = screen.origin;
    let link = {
        let path = path.clone();
        move || format!("{}{path}", origin.get())
    };
    view! {
        <div class="invite-link share">
            <span>{tr!(texts, game.invite_link)}" "<a href=path.clone() data-testid="invite-path">{link.clone()}</a></span>
            <crate::clipboard::CopyButton text=Signal::derive(link.clone()) />
            <crate::clipboard::ShareButton text=Signal::derive(link) />
        </div>
    }
}

/// After the end: the result card (a Daily Challenge's own), or the explore bar once it is
/// dismissed to look around the finished board.
fn end_of_game(
    screen: Screen,
    page: &GamePage,
    texts: Texts,
    next: Signal<Option<String>>,
) -> AnyView {
    let exploring = screen.exploring;
    let explore = Callback::new(move |_| exploring.set(Some(1)));
    let over = matches!(page.view.status, Status::Over(_));
    match (over, exploring.get(), page.daily.clone()) {
        (false, _, _) => ().into_any(),
        (true, None, Some(daily)) => view! {
            <daily_summary::DailySummary daily on_explore=explore origin=screen.origin />
        }
        .into_any(),
        (true, None, None) => view! {
            <summary::Summary view=page.view.clone() seats=page.card.seats.clone() game_id=page.card.id.clone() rematch=page.rematch.clone() table=screen.table
                rank_changes=page.rank_changes.clone() head_to_head=page.head_to_head follows=page.follows_opponent
                on_explore=explore next_game=next />
        }
        .into_any(),
        (true, Some(zoom), _) => view! {
            <div class="explore-bar" data-testid="explore">
                <span>{tr!(texts, game.finished_board)}</span>
                <button type="button" aria-label=tr!(texts, game.zoom_out) disabled={zoom <= 1} on:click=move |_| exploring.set(Some(zoom - 1))>"−"</button>
                <button type="button" aria-label=tr!(texts, game.zoom_in) disabled={zoom >= 3} on:click=move |_| exploring.set(Some(zoom + 1))>"+"</button>
                <button type="button" on:click=move |_| exploring.set(None)>{tr!(texts, game.back_to_result)}</button>
            </div>
        }
        .into_any(),
    }
}

/// A friend Blitz match before it starts: who is ready, the caller's Ready button, and the
/// countdown once both are.
#[component]
fn ReadyLobby(card: GameCard, take: Callback<Answer>) -> impl IntoView {
    let id = card.id.clone();
    let pressing =
        crate::acting::acting(move |ready: &bool| crate::api::play::ready(id.clone(), *ready));
    Effect::new(move |_| {
        if let Some(answer) = pressing.value() {
            take.run(answer);
        }
    });
    let me = card.my_seats.first().copied().unwrap_or(0);
    let i_am_ready = card.ready.get(usize::from(me)).copied().unwrap_or(false);
    view! {
        <section class="card ready-lobby" data-testid="ready-lobby">
            <ul>
                {card.seats.iter().enumerate().map(|(seat, holder)| {
                    let ready = card.ready.get(seat).copied().unwrap_or(false);
                    view! { <li data-testid=format!("ready-{seat}")><crate::routes::player::Holder holder=holder.clone() />": "{if ready { crate::t!(game.ready_yes) } else { crate::t!(game.ready_no) }}</li> }
                }).collect_view()}
            </ul>
            {card.starts_in_ms.map(|left_ms| view! {
                <p class="countdown">{crate::t!(game.starting_in)}" "<crate::live::Clock left_ms blitz=true /></p>
            })}
            <button type="button" class:primary=!i_am_ready data-testid="ready" disabled=move || pressing.pending().get()
                on:click=move |_| { pressing.dispatch(!i_am_ready); }>
                {if i_am_ready { crate::t!(game.not_ready) } else { crate::t!(game.ready) }}
            </button>
        </section>
    }
}
