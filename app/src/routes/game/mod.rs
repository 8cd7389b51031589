//! The game page, `/game/<id>`: scores, the last play, the board with the move being built, the
//! live preview, the hand, and the actions (play, pass, exchange, challenge, resign). A live
//! stream tells the page when the game changed (the other player moved, the clock ran out, a
//! rematch was offered) and who is online; the page then asks for the game again.

mod analysis;
pub(crate) mod board;
pub mod daily_summary;
mod finger;
pub(crate) mod history;
mod moves;
mod notify;
pub(crate) mod powers;
mod preview;
mod rack;
mod report;
mod summary;
mod table;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use rules::{game::Status, ruleset::EndAfter, Action as Move, HandTile, Seat};

use crate::api::{
    play::{act, game, resign, GamePage},
    Phase, Refusal,
};
use crate::i18n::{format_name, ruleset_name, Language, Words};
use crate::tr;
use table::Table;

/// What the confirmation line asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Confirm {
    Pass,
    Challenge,
    Resign,
}

/// A refusal, or a failure to reach the server, in the page's language.
pub(crate) fn answer_text(l: Words, refusal: Result<Refusal, ServerFnError>) -> String {
    match refusal {
        Ok(refusal) => crate::i18n::refusal(l, &refusal),
        Err(error) => tr!(l, refusal.unreachable, error),
    }
}

/// The game page.
#[component]
pub fn GamePage() -> impl IntoView {
    // Read the route's parameters once, here: timers and actions run outside the route's context.
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id")).unwrap_or_default();
    // Read before the page is sent, so that a game that is not there (or not the reader's)
    // answers 404 like any other address that leads nowhere.
    let loaded = crate::loaded::load_first(id, game);
    let language = Language::expect();
    let initial = Signal::derive(move || loaded.get().and_then(Result::ok).and_then(Result::ok));
    let table = Table::new(initial);
    let game_id = Signal::derive(move || {
        table
            .page
            .with(|p| p.as_ref().map(|p| p.card.id.clone()).unwrap_or_default())
    });
    // The hand's order: restored once the page runs in the browser, saved whenever it changes.
    Effect::new(move |restored: Option<bool>| {
        let loaded = table.page.with(|p| p.is_some());
        if loaded && restored != Some(true) {
            table.restore_order();
            return true;
        }
        restored.unwrap_or(false)
    });
    Effect::new(move |_| {
        table.order.track();
        table.save_order();
    });
    // The same page component shows the next game after "Play again": start it afresh.
    Effect::new(move |previous: Option<String>| {
        let id = id();
        if previous.is_some_and(|p| p != id) {
            table.forget();
        }
        id
    });

    // Every answer that carries the game goes through here.
    let take = move |answer: Result<Result<GamePage, Refusal>, ServerFnError>| match answer {
        Ok(Ok(page)) => {
            table.message.set(None);
            table.receive(page);
        }
        Ok(Err(refusal)) => table
            .message
            .set(Some(answer_text(language.get_untracked(), Ok(refusal)))),
        Err(error) => table
            .message
            .set(Some(answer_text(language.get_untracked(), Err(error)))),
    };
    let acting = crate::acting::acting(move |action: &Move| {
        let (id, action) = (id(), action.clone());
        let version = table
            .page
            .with_untracked(|p| p.as_ref().map_or(0, |p| p.view.version));
        async move { act(id, version, action).await }
    });
    let resigning = crate::acting::acting(move |_: &()| resign(id()));
    // Buying and selling, at any time (the server applies them to the game as it then is).
    let trade = Callback::new(move |action: Move| {
        acting.dispatch(action);
    });
    Effect::new(move |_| {
        if let Some(answer) = acting.value() {
            take(answer);
        }
    });
    Effect::new(move |_| {
        if let Some(answer) = resigning.value() {
            take(answer);
        }
    });
    let presence = RwSignal::new(crate::live::Presence::new());
    follow_game(table, id, presence, take);

    let busy = move || acting.pending().get() || resigning.pending().get();
    let judgement = preview::judgement(table);
    let confirm = RwSignal::new(None::<Confirm>);
    let history_open = RwSignal::new(false);
    // The turn the history shows (past the end: the last).
    let history_turn = RwSignal::new(usize::MAX);
    // Pass-and-play: the hand stays hidden until the player to move taps.
    let shown_seat = RwSignal::new(None::<Seat>);
    // On a shared device, the hand and the power bar of the player to move stay hidden until
    // that player taps.
    let covered = Memo::new(move |_| {
        table.page.with(|page| {
            page.as_ref().is_some_and(|page| {
                page.card.my_seats.len() > 1
                    && page.card.phase == Phase::Playing
                    && shown_seat.get() != Some(page.view.seat)
            })
        })
    });
    // After the end: the result card dismissed, the board zoomed to look around (1 = fits).
    let exploring = RwSignal::new(None::<u8>);
    // The site's origin, for whole links: known in the browser only, so set after hydration.
    let origin = RwSignal::new(String::new());
    Effect::new(move |_| origin.set(crate::routes::new_game::window_origin()));

    let play = move || {
        let Some(view) = table.view() else { return };
        let nothing = table.staged.with_untracked(|s| s.is_empty())
            && table.powers.with_untracked(|p| p.is_empty());
        if !table.my_turn() || nothing {
            return;
        }
        acting.dispatch(Move::Play {
            seat: view.seat,
            placement: table.placement(),
        });
    };
    // The turn coming back while the tab is hidden: a system notification, if allowed.
    Effect::new(move |was_mine: Option<bool>| {
        let (mine, title, id) = table.page.with(|p| {
            p.as_ref()
                .map_or((false, String::new(), String::new()), |p| {
                    let title = format!(
                        "{} · {}",
                        ruleset_name(language.get_untracked(), &p.card.variant),
                        crate::i18n::dictionary_name(language.get_untracked(), p.card.dictionary)
                    );
                    (
                        p.card.my_turn && p.card.phase == Phase::Playing,
                        title,
                        p.card.id.clone(),
                    )
                })
        });
        if mine && was_mine == Some(false) {
            notify::your_turn(tr!(language.get_untracked(), game.notification), title, id);
        }
        mine
    });
    // Placing a move (a tile held by a tap, or on the board): on a phone the board zooms to
    // cells of 40 px and more (CSS), centred where the move is; Play or Recall zooms out. A drag
    // does not zoom when it starts: the board would move under the finger, and the tile would
    // land on whatever cell slid beneath it. It zooms once the tile is down.
    let placing = Memo::new(move |_| {
        table.selected.with(Option::is_some) || table.staged.with(|s| !s.is_empty())
    });
    let playing = Memo::new(move |_| {
        table.page.with(|p| {
            p.as_ref()
                .is_some_and(|p| matches!(p.view.status, Status::Playing))
        })
    });
    let board_frame = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |was: Option<bool>| {
        let now = placing.get();
        if now && was == Some(false) {
            let focus = table
                .staged
                .with_untracked(|s| s.last().map(|s| s.pos))
                .or_else(|| table.view().map(|v| v.board.start()));
            if let (Some(frame), Some(pos)) = (board_frame.get_untracked(), focus) {
                centre_on(&frame, pos);
            }
        }
        now
    });
    let view_signal = Signal::derive(move || table.view());
    let seats = Signal::derive(move || {
        table
            .page
            .with(|p| p.as_ref().map(|p| p.card.seats.clone()).unwrap_or_default())
    });

    // The tab says whose turn it is, so a player in another tab sees their turn come.
    let tab_title = move || {
        let state = table
            .page
            .with(|p| p.as_ref().map(|p| (p.card.my_turn, p.card.phase)));
        let l = language.get();
        let app = crate::APP_NAME;
        match state {
            Some((true, _)) => tr!(l, game.tab_your_turn, app),
            Some((_, Phase::Over)) => tr!(l, game.tab_over, app),
            Some(_) => tr!(l, game.tab_waiting, app),
            None => app.to_string(),
        }
    };
    view! {
        <leptos_meta::Title text=tab_title />
        <main class="game-page"
            on:pointermove=move |ev| finger::follow(table, &ev)
            on:pointerup=move |_| finger::lift(table)
            on:pointercancel=move |_| finger::cancel(table)>
            <finger::FingerTile table />
            // Everything waits for the game inside one Transition, so the page the server renders
            // and the page the browser hydrates are built from the same data.
            <Transition fallback=|| view! { <p class="page">{crate::t!(game.loading)}</p> }>
            {move || loaded.get().map(|loaded| match loaded {
                Ok(Err(refusal)) => {
                    if refusal == Refusal::NoSuchGame {
                        crate::routes::not_found::answer_not_found();
                    }
                    view! { <p class="error page" role="alert">{crate::i18n::worded(move |l| crate::i18n::refusal(l, &refusal))}</p> }.into_any()
                }
                Err(error) => view! { <p class="error page" role="alert">{answer_text(language.get(), Err(error))}</p> }.into_any(),
                Ok(Ok(_)) => view! {
                // Three regions: in one column on a phone (head, board, foot), and on a wide screen
                // the board on the left with head and foot beside it, so the hand is in view.
                {view! { <div class="table-head">
                {move || table.page.get().map(|page| {
                    let l = language.get();
                    let card = page.card.clone();
                    let view = page.view.clone();
                    let title = match card.variant {
                        // A Daily Challenge counts its turns instead of a clock.
                        rules::Variant::Daily { .. } => format!("{} · {} · {}", ruleset_name(l, &card.variant), crate::i18n::dictionary_name(l, card.dictionary),
                            tr!(l, game.turn_of, turn = (view.history.len() + 1).min(usize::from(rules::daily::TURNS)), turns = rules::daily::TURNS)),
                        _ => format!("{} · {} · {}", ruleset_name(l, &card.variant), crate::i18n::dictionary_name(l, card.dictionary), format_name(l, card.format)),
                    };
                    let local = card.my_seats.len() > 1;
                    view! {
                        <header class="scoreboard" data-testid="scoreboard">
                            {card.seats.iter().enumerate().map(|(seat, holder)| {
                                let seat = seat as Seat;
                                let to_move = card.phase == Phase::Playing && card.to_move == seat;
                                let mine = card.my_seats.contains(&seat);
                                let class = format!("player{}{}", if to_move { " to-move" } else { "" }, if mine { " me" } else { "" });
                                let strikes = view.strikes.get(usize::from(seat)).copied().unwrap_or(0);
                                let economy = view.rules().economy;
                                let clock = to_move.then_some(card.time_left_ms).flatten();
                                let blitz = card.format == rules::game::Format::Blitz;
                                // The page's own presence until the live stream reports.
                                let listed = card.online.get(usize::from(seat)).copied().flatten();
                                let online = move || presence.with(|p| if p.is_empty() { listed } else { p.get(usize::from(seat)).copied().flatten() });
                                view! {
                                    <div class=class data-seat=seat>
                                        <span class="name">
                                            {move || online().map(|on| view! {
                                                <span role="img" class=if on { "presence online" } else { "presence away" } data-testid=format!("presence-{seat}")
                                                    title=if on { crate::t!(game.online)() } else { crate::t!(game.away)() } aria-label=if on { crate::t!(game.online)() } else { crate::t!(game.away)() }></span>
                                            })}
                                            <crate::routes::player::Holder holder=holder.clone() />
                                            {economy.then(|| {
                                                let coins = view.coins.get(usize::from(seat)).copied().unwrap_or(0);
                                                let change = move || table.coin_change.with(|c| c.get(usize::from(seat)).copied().unwrap_or(0));
                                                view! {
                                                    <small class="coins" data-testid=format!("coins-{seat}")>{crate::i18n::coins(l, coins)}
                                                        {move || (change() != 0).then(|| format!(" ({:+})", change()))}
                                                    </small>
                                                }
                                            })}
                                        </span>
                                        <span class="score" data-testid=format!("score-{seat}")>{card.scores.get(usize::from(seat)).copied().unwrap_or(0)}</span>
                                        {clock.map(|left_ms| view! { <crate::live::Clock left_ms blitz /> })}
                                        {(blitz && strikes > 0).then(|| view! {
                                            <span class="strikes" title=tr!(l, game.strikes_title)>{tr!(l, game.strikes, strikes)}</span>
                                        })}
                                    </div>
                                }.into_any()
                            }).collect_view()}
                            <div class="bag" title=tr!(l, game.bag_title)>{tr!(l, game.bag, tiles = view.bag_size)}</div>
                        </header>
                        <p class="game-title muted">{title}" · "
                            // The rules are a server-rendered page outside the app.
                            <a href=format!("/help#{}", crate::routes::help::anchor(&card.variant)) rel="external" data-testid="rules-link">{tr!(l, game.rules)}</a>
                        </p>
                        <p class="turn" data-testid="turn" role="status">{match card.phase {
                            Phase::Waiting => tr!(l, game.waiting_for_opponent).to_string(),
                            Phase::Ready => tr!(l, game.blitz_ready).to_string(),
                            Phase::Cancelled => tr!(l, game.called_off).to_string(),
                            Phase::Over => tr!(l, game.over).to_string(),
                            Phase::Playing if card.my_turn && local => tr!(l, game.to_move, name = crate::i18n::seat_label(l, &card.seats, card.to_move)),
                            Phase::Playing if card.my_turn => tr!(l, game.your_turn).to_string(),
                            Phase::Playing => tr!(l, game.waiting_for, name = crate::i18n::seat_label(l, &card.seats, card.to_move)),
                        }}</p>
                        {(card.phase == Phase::Ready).then(|| view! { <ReadyLobby card=card.clone() take /> })}
                        {page.invite_path.clone().map(|path| view! {
                            <div class="invite-link share">
                                <span>{tr!(l, game.invite_link)}" "<a href=path.clone() data-testid="invite-path">{let path = path.clone(); move || format!("{}{path}", origin.get())}</a></span>
                                <crate::clipboard::CopyButton text=Signal::derive({ let path = path.clone(); move || format!("{}{path}", origin.get()) }) />
                                <crate::clipboard::ShareButton text=Signal::derive({ let path = path.clone(); move || format!("{}{path}", origin.get()) }) />
                            </div>
                        })}
                        {match (matches!(view.status, Status::Over(_)), exploring.get(), page.daily.clone()) {
                            (false, _, _) => ().into_any(),
                            (true, None, Some(daily)) => view! {
                                <daily_summary::DailySummary daily on_explore=Callback::new(move |_| exploring.set(Some(1))) />
                            }.into_any(),
                            (true, None, None) => view! {
                                <summary::Summary view=view.clone() seats=card.seats.clone() game_id=card.id.clone() rematch=page.rematch.clone() table
                                    rank_changes=page.rank_changes.clone() head_to_head=page.head_to_head
                                    on_explore=Callback::new(move |_| exploring.set(Some(1))) />
                            }.into_any(),
                            (true, Some(zoom), _) => view! {
                                <div class="explore-bar" data-testid="explore">
                                    <span>{tr!(l, game.finished_board)}</span>
                                    <button type="button" aria-label=tr!(l, game.zoom_out) disabled={zoom <= 1} on:click=move |_| exploring.set(Some(zoom - 1))>"−"</button>
                                    <button type="button" aria-label=tr!(l, game.zoom_in) disabled={zoom >= 3} on:click=move |_| exploring.set(Some(zoom + 1))>"+"</button>
                                    <button type="button" on:click=move |_| exploring.set(None)>{tr!(l, game.back_to_result)}</button>
                                </div>
                            }.into_any(),
                        }}
                    }
                })}
            <history::LastPlay view=view_signal seats open=history_open turn=history_turn />
            </div> }.into_any()}
            {view! { <div class="table-board">
            <powers::ShopAndSell table trade />
            <div class="board-frame" class:exploring=move || exploring.get().is_some()
                class:placing=placing node_ref=board_frame
                style=move || format!("--zoom: {}", exploring.get().unwrap_or(1))>
                <board::LiveBoard table on_enter=move |_| play() />
            </div>
            <board::Legend board=Signal::derive(move || table.page.with(|p| p.as_ref().map(|p| p.view.board.clone()))) />
            </div> }.into_any()}
            // The move being built and the hand: kept at the bottom of a phone's screen.
            {view! { <div class="table-dock" data-testid="dock">
            // Once the game is over there is no move to preview or power to use.
            <Show when=move || playing.get()>
                <preview::Preview judgement game=game_id />
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
                    let seat = page.view.seat;
                    view! {
                        <div class="handover card" data-testid="handover">
                            <p>{let name = name.clone(); crate::i18n::worded(move |l| tr!(l, game.hand_over, name = name.clone()))}</p>
                            <button class="primary" type="button" on:click=move |_| shown_seat.set(Some(seat))>{crate::i18n::worded(move |l| tr!(l, game.show_my_tiles, name = name.clone()))}</button>
                        </div>
                    }.into_any()
                } else {
                    view! { <rack::Rack table /> }.into_any()
                })
            }}
            <Controls table judgement busy=Signal::derive(busy) confirm acting resigning play=Callback::new(move |_| play()) />
            <p class="error" role="alert" data-testid="message">{move || table.message.get()}</p>
            </div> }.into_any()}
            {view! { <div class="table-foot">
            // A turn to be told of: a game going on, with someone else to move in between.
            <Show when=move || playing.get() && seats.with(|s| s.len() > 1)>
                <notify::NotifyButton />
            </Show>
            <moves::Unseen view=view_signal />
            <moves::MoveList view=view_signal seats open=history_open turn=history_turn />
            <history::History view=view_signal seats open=history_open turn=history_turn game=game_id />
            <analysis::Analysis view=view_signal seats game=game_id open=history_open turn=history_turn />
            </div> }.into_any()}
            <rack::BlankPicker table />
                }.into_any(),
            })}
            </Transition>
        </main>
    }.into_any()
}

/// Scrolls the zoomed board so that `pos` is in the middle of its frame.
fn centre_on(frame: &leptos::web_sys::HtmlDivElement, pos: rules::Pos) {
    #[cfg(feature = "hydrate")]
    {
        let Some(cell) = frame
            .query_selector(&format!("[data-cell=\"{},{}\"]", pos.row, pos.col))
            .ok()
            .flatten()
        else {
            return;
        };
        // After the zoom's style applies: measured before, the cell is still small.
        let frame = frame.clone();
        // No frame (the page is going away): nothing to centre.
        let _ = request_animation_frame(move || {
            use wasm_bindgen::JsCast;
            let Ok(cell) = cell.dyn_into::<leptos::web_sys::HtmlElement>() else {
                return;
            };
            // Not zoomed (a wide screen): nothing to do.
            if frame.scroll_width() <= frame.client_width() {
                return;
            }
            let left = cell.offset_left() - (frame.client_width() - cell.offset_width()) / 2;
            let top = cell.offset_top() - (frame.client_height() - cell.offset_height()) / 2;
            frame.set_scroll_left(left.max(0));
            frame.set_scroll_top(top.max(0));
            // The zoomed board fills the screen above the docked hand.
            frame.scroll_into_view_with_bool(true);
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (frame, pos);
}

/// A friend Blitz match before it starts: who is ready, the caller's Ready button, and the
/// countdown once both are.
#[component]
fn ReadyLobby(
    card: crate::api::GameCard,
    take: impl Fn(Result<Result<GamePage, Refusal>, ServerFnError>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let id = card.id.clone();
    let pressing =
        crate::acting::acting(move |ready: &bool| crate::api::play::ready(id.clone(), *ready));
    Effect::new(move |_| {
        if let Some(answer) = pressing.value() {
            take(answer);
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

/// The action buttons.
#[component]
fn Controls(
    table: Table,
    judgement: Memo<preview::Judgement>,
    busy: Signal<bool>,
    confirm: RwSignal<Option<Confirm>>,
    acting: crate::acting::Acting<Move, Result<Result<GamePage, Refusal>, ServerFnError>>,
    resigning: crate::acting::Acting<(), Result<Result<GamePage, Refusal>, ServerFnError>>,
    play: Callback<()>,
) -> impl IntoView {
    let language = Language::expect();
    move || {
        let view = table.view()?;
        let l = language.get();
        // Not before a Ready lobby's match has started.
        let started = table
            .page
            .with(|p| p.as_ref().is_some_and(|p| p.card.phase == Phase::Playing));
        let playing = started && matches!(view.status, Status::Playing);
        let my_turn = table.my_turn();
        let seat = view.seat;
        let rules = view.rules();
        let passes_left = match rules.end_after {
            EndAfter::ConsecutivePasses(n) | EndAfter::ScorelessTurns(n) => {
                n.saturating_sub(view.consecutive_passes)
            }
            EndAfter::PassesPerPlayer(n) => {
                (n * view.scores.len() as u8).saturating_sub(view.consecutive_passes)
            }
            // Passing only uses up one of the turns; it never ends the game early.
            EndAfter::Turns(_) => u8::MAX,
        };
        let can_exchange = !matches!(rules.swap, rules::ruleset::SwapRule::Never);
        let exchanging = table.exchanging.get();
        // Tiles, or powers alone ("play only powers").
        let has_staged = !table.staged.get().is_empty() || !table.powers.get().is_empty();
        // Without an exchange, tiles are chosen only for the Swap power (Alfa Kraft).
        let swapping = !can_exchange;
        if !playing {
            return None;
        }
        Some(view! {
            <div class="controls">
                {match (exchanging, confirm.get()) {
                    (Some(chosen), _) => view! {
                        <span>{if swapping { tr!(l, controls.tap_to_swap) } else { tr!(l, controls.tap_to_exchange) }}</span>
                        <button class="primary" type="button" disabled={let none = chosen.is_empty(); move || busy.get() || none}
                            on:click={
                                let chosen = chosen.clone();
                                move |_| {
                                    let tiles: Vec<HandTile> = chosen.iter().filter_map(|s| table.hand_tile(*s)).collect();
                                    table.exchanging.set(None);
                                    acting.dispatch(if swapping { Move::UseSwap { seat, tiles } } else { Move::Exchange { seat, tiles } });
                                }
                            }>{if swapping { tr!(l, controls.swap_n, tiles = chosen.len()) } else { tr!(l, controls.exchange_n, tiles = chosen.len()) }}</button>
                        <button type="button" on:click=move |_| table.exchanging.set(None)>{tr!(l, controls.cancel)}</button>
                    }.into_any(),
                    (None, Some(Confirm::Pass)) => view! {
                        <span class="warning">{match passes_left {
                            0 | 1 => tr!(l, controls.pass_ends).to_string(),
                            u8::MAX => tr!(l, controls.pass_uses_turn).to_string(),
                            n => tr!(l, controls.pass_left, passes = n),
                        }}</span>
                        <button class="primary" type="button" data-testid="confirm-pass" on:click=move |_| { confirm.set(None); acting.dispatch(Move::Pass { seat }); }>{tr!(l, controls.pass)}</button>
                        <button type="button" on:click=move |_| confirm.set(None)>{tr!(l, controls.cancel)}</button>
                    }.into_any(),
                    (None, Some(Confirm::Challenge)) => view! {
                        <span class="warning">{tr!(l, controls.challenge_confirm)}</span>
                        <button class="primary" type="button" data-testid="confirm-challenge" on:click=move |_| { confirm.set(None); acting.dispatch(Move::Challenge { seat }); }>{tr!(l, controls.challenge)}</button>
                        <button type="button" on:click=move |_| confirm.set(None)>{tr!(l, controls.cancel)}</button>
                    }.into_any(),
                    (None, Some(Confirm::Resign)) => view! {
                        <span class="warning">{tr!(l, controls.resign_confirm)}</span>
                        <button class="primary danger" type="button" on:click=move |_| { confirm.set(None); resigning.dispatch(()); }>{tr!(l, controls.resign)}</button>
                        <button type="button" on:click=move |_| confirm.set(None)>{tr!(l, controls.cancel)}</button>
                    }.into_any(),
                    (None, None) => view! {
                        // Not while the rules refuse the placement: the preview already says why.
                        <button class="primary" type="button" data-testid="play"
                            disabled=move || busy.get() || !my_turn || !has_staged || matches!(judgement.get(), preview::Judgement::Refused(_))
                            on:click=move |_| play.run(())>{tr!(l, controls.play)}</button>
                        <button type="button" disabled=move || !has_staged on:click=move |_| table.recall()>{tr!(l, controls.recall)}</button>
                        <button type="button" on:click=move |_| table.shuffle()>{tr!(l, controls.shuffle)}</button>
                        <button type="button" disabled=move || busy.get() || !my_turn
                            on:click=move |_| confirm.set(Some(Confirm::Pass))>{tr!(l, controls.pass)}</button>
                        {can_exchange.then(|| view! {
                            <button type="button" disabled=move || busy.get() || !my_turn
                                on:click=move |_| { table.recall(); table.exchanging.set(Some(Vec::new())); }>{tr!(l, controls.exchange)}</button>
                        })}
                        {view.can_challenge.then(|| view! {
                            <button type="button" data-testid="challenge" disabled=move || busy.get()
                                on:click=move |_| confirm.set(Some(Confirm::Challenge))>{tr!(l, controls.challenge)}</button>
                        })}
                        <button type="button" class="danger" disabled=move || busy.get() on:click=move |_| confirm.set(Some(Confirm::Resign))>{tr!(l, controls.resign)}</button>
                    }.into_any(),
                }}
            </div>
        })
    }
}

/// Follows the game live: when it changes, asks for it again and takes the answer if it differs
/// from what the page shows; keeps the players' presence current. Follows the new game when the
/// page moves on to another (after Play again).
fn follow_game(
    table: Table,
    id: impl Fn() -> String + Copy + Send + Sync + 'static,
    presence: RwSignal<crate::live::Presence>,
    take: impl Fn(Result<Result<GamePage, Refusal>, ServerFnError>) + Copy + Send + Sync + 'static,
) {
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let game_id = id();
        let in_flight = RwSignal::new(false);
        let again = RwSignal::new(false);
        let refresh = move || {
            if in_flight.get_untracked() {
                // Asked while an answer is on its way: ask once more after it.
                again.set(true);
                return;
            }
            in_flight.set(true);
            leptos::task::spawn_local(async move {
                loop {
                    again.set(false);
                    // A refused refresh (a blip) is not worth a message; the next change retries.
                    if let Ok(Ok(page)) = game(id()).await {
                        if table.page.with_untracked(|p| p.as_ref() != Some(&page)) {
                            take(Ok(Ok(page)));
                        }
                    }
                    if !again.get_untracked() {
                        break;
                    }
                }
                in_flight.set(false);
            });
        };
        crate::live::follow(format!("/api/live?game={game_id}"), refresh, move |p| {
            presence.set(p)
        });
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = (table, id, presence, take);
}
