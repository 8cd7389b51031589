//! The game page, `/game/<id>`: scores, the last play, the board with the move being built, the
//! live preview, the hand, and the actions (play, pass, exchange, challenge, resign). A live
//! stream tells the page when the game changed (the other player moved, the clock ran out, a
//! rematch was offered) and who is online; the page then asks for the game again.
//!
//! The page has three regions: the head ([`head`]: scoreboard, turn, result), the board, and the
//! dock ([`dock`]: preview, power bar, hand, buttons), with the history and analysis below. They
//! share one [`screen::Screen`].

mod analysis;
pub(crate) mod board;
mod chat;
pub mod daily_summary;
pub mod device;
mod dock;
mod finger;
mod head;
pub(crate) mod history;
mod moves;
mod next;
mod notify;
pub(crate) mod powers;
mod preview;
mod rack;
mod report;
mod screen;
mod summary;
mod table;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use rules::Action as Move;

use crate::api::{
    play::{act, game, resign},
    Phase, Refusal,
};
use crate::i18n::{answer_text, dictionary_name, ruleset_name, Language};
use crate::tr;
use screen::{Answer, Screen};
use table::Table;

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
    let screen = screen_of(table, id);
    keep_the_hand_order(table, id);
    notify_turn(table);
    zoom_while_placing(screen);
    explore_zoomed_on_the_words(screen);
    news_in_view(table);
    open_accepted_rematch(table);
    let take = receiving(table);
    take_answers(screen, take);
    follow_game(table, id, screen.presence, screen.chat, take);
    // The chat comes with a loaded page; a move's answer leaves it out, and the chat stays, unless
    // the page moved on to another game (Play again, a rematch).
    Effect::new(move |shown: Option<String>| {
        let (id, chat) = table.page.with(|p| {
            p.as_ref()
                .map(|p| (p.card.id.clone(), p.chat.clone()))
                .unwrap_or_default()
        });
        if chat.is_some() || shown.as_ref() != Some(&id) {
            screen.chat.set(chat);
        }
        id
    });
    Effect::new(move |_| screen.origin.set(crate::clipboard::window_origin()));
    view! {
        <leptos_meta::Title text=move || tab_title(table, language) />
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
                    view! { <p class="error page" role="alert">{crate::i18n::worded(move |texts| crate::i18n::refusal(texts, &refusal))}</p> }.into_any()
                }
                Err(error) => view! { <p class="error page" role="alert">{answer_text(language.get(), Err(error))}</p> }.into_any(),
                // On a phone the screen (head, board, dock) fills the window, the board taking
                // what the rest leaves, and the foot is below it; on a wide screen the board is
                // on the left with the rest beside it.
                Ok(Ok(_)) => view! {
                    <div class="table-screen">
                        <head::Head screen take />
                        <BoardRegion screen />
                        <dock::Dock screen game_id=game_id(table) />
                    </div>
                    <Foot screen />
                    <rack::BlankPicker table />
                }.into_any(),
            })}
            </Transition>
        </main>
    }.into_any()
}

/// The page's shared state, with its two actions: moves and the resignation.
fn screen_of(table: Table, id: impl Fn() -> String + Copy + Send + Sync + 'static) -> Screen {
    let acting = crate::acting::acting(move |action: &Move| {
        let (id, action) = (id(), action.clone());
        let version = table
            .page
            .with_untracked(|p| p.as_ref().map_or(0, |p| p.view.version));
        async move { act(id, version, action).await }
    });
    let resigning = crate::acting::acting(move |_: &()| resign(id()));
    Screen::new(table, acting, resigning, preview::judgement(table))
}

/// Takes every answer that carries the game: a new game, or the refusal said in the page's
/// language.
fn receiving(table: Table) -> Callback<Answer> {
    let language = Language::expect();
    Callback::new(move |answer: Answer| match answer {
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
    })
}

/// Hands every answer to a move or a resignation to `take`.
fn take_answers(screen: Screen, take: Callback<Answer>) {
    Effect::new(move |_| {
        if let Some(answer) = screen.acting.value() {
            take.run(answer);
        }
    });
    Effect::new(move |_| {
        if let Some(answer) = screen.resigning.value() {
            take.run(answer);
        }
    });
}

/// The game's id, as the page last received it.
fn game_id(table: Table) -> Signal<String> {
    Signal::derive(move || {
        table
            .page
            .with(|p| p.as_ref().map(|p| p.card.id.clone()).unwrap_or_default())
    })
}

/// The hand's order: restored once the page runs in the browser, saved whenever it changes.
/// The same page component shows the next game after "Play again": it starts afresh.
fn keep_the_hand_order(table: Table, id: impl Fn() -> String + Send + Sync + 'static) {
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
    Effect::new(move |previous: Option<String>| {
        let id = id();
        if previous.is_some_and(|p| p != id) {
            table.forget();
        }
        id
    });
}

/// The turn coming back while the tab is hidden: a system notification, if allowed.
fn notify_turn(table: Table) {
    let language = Language::expect();
    Effect::new(move |was_mine: Option<bool>| {
        let (mine, title, id) = table.page.with(|p| {
            p.as_ref()
                .map_or((false, String::new(), String::new()), |p| {
                    let texts = language.get_untracked();
                    let title = format!(
                        "{} · {}",
                        ruleset_name(texts, &p.card.variant),
                        dictionary_name(texts, p.card.dictionary)
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
}

/// Placing a move (a tile held by a tap, or on the board), or a cell tapped: on a phone the board
/// zooms to cells of 40 px and more (CSS), centred where the move is (or the cell); Play, Recall
/// or the zoom-out button zooms out. A drag does not
/// zoom when it starts: the board would move under the finger, and the tile would land on
/// whatever cell slid beneath it. It zooms once the tile is down.
fn zoom_while_placing(screen: Screen) {
    let table = screen.table;
    Effect::new(move |was: Option<bool>| {
        let now = screen.placing.get();
        if now && was == Some(false) {
            let focus = table
                .staged
                .with_untracked(|s| s.last().map(|s| s.pos))
                .or_else(|| table.focus.get_untracked())
                .or_else(|| table.view().map(|v| v.board.start()));
            if let (Some(frame), Some(pos)) = (screen.board_frame.get_untracked(), focus) {
                centre_on(&frame, pos);
            }
        }
        now
    });
}

/// Exploring a finished game on a phone opens the board zoomed in on the middle of the words.
fn explore_zoomed_on_the_words(screen: Screen) {
    let table = screen.table;
    // Whether exploring, alone: the zoom set below does not run this again (a run again would
    // cancel the frame the centring waits for: an effect owns its timers).
    let explored = Memo::new(move |_| screen.exploring.with(Option::is_some));
    Effect::new(move |was: Option<bool>| {
        let now = explored.get();
        if now && was == Some(false) && on_a_phone() {
            screen.exploring.set(Some(2));
            let middle = table.view().and_then(|view| {
                let tiles: Vec<rules::Pos> = view
                    .board
                    .cells()
                    .filter(|(_, square)| matches!(square, rules::board::Square::Tile(_)))
                    .map(|(pos, _)| pos)
                    .collect();
                let (rows, cols) = tiles
                    .iter()
                    .fold(((u8::MAX, 0), (u8::MAX, 0)), |(r, c), p| {
                        (
                            (r.0.min(p.row), r.1.max(p.row)),
                            (c.0.min(p.col), c.1.max(p.col)),
                        )
                    });
                (!tiles.is_empty()).then(|| rules::Pos {
                    row: (rows.0 + rows.1) / 2,
                    col: (cols.0 + cols.1) / 2,
                })
            });
            if let (Some(frame), Some(pos)) = (screen.board_frame.get_untracked(), middle) {
                // Once the zoom set just now is drawn (no frame: the page is going away).
                let _ = request_animation_frame(move || centre_on(&frame, pos));
            }
        }
        now
    });
}

/// Whether the page has its phone layout (the same query as the stylesheet's).
fn on_a_phone() -> bool {
    #[cfg(feature = "hydrate")]
    {
        let query = "not ((min-width: 64rem) or ((orientation: landscape) and (min-width: 36rem)))";
        window()
            .match_media(query)
            .ok()
            .flatten()
            .is_some_and(|list| list.matches())
    }
    #[cfg(not(feature = "hydrate"))]
    false
}

/// A rematch accepted on this page opens at once, whichever tells the page first that it is
/// accepted: the answer to Accept, or the live stream (which re-renders the end card and drops
/// the answer).
fn open_accepted_rematch(table: Table) {
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        let accepted = table.page.with(|p| {
            p.as_ref()
                .and_then(|p| p.rematch.as_ref())
                .and_then(summary::accepted_game)
        });
        if let Some(id) = accepted.filter(|_| table.accepting_rematch.get_untracked()) {
            table.accepting_rematch.set(false);
            navigate(&format!("/game/{id}"), Default::default());
        }
    });
}

/// A turn played (by anyone) or the game's end: the page goes back to its top, where the scores,
/// the last play and the end card are, and on a phone the whole board and the hand.
fn news_in_view(table: Table) {
    Effect::new(move |was: Option<Option<(usize, bool)>>| {
        let now = table.page.with(|p| {
            p.as_ref()
                .map(|p| (p.view.history.len(), p.card.phase == Phase::Over))
        });
        if let (Some(Some(was)), Some(now)) = (was, now) {
            if was != now {
                #[cfg(feature = "hydrate")]
                window().scroll_to_with_x_and_y(0.0, 0.0);
            }
        }
        now
    });
}

/// The tab says whose turn it is, so a player in another tab sees their turn come.
fn tab_title(table: Table, language: Language) -> String {
    let state = table
        .page
        .with(|p| p.as_ref().map(|p| (p.card.my_turn, p.card.phase)));
    let texts = language.get();
    let app = crate::APP_NAME;
    match state {
        Some((true, _)) => tr!(texts, game.tab_your_turn, app),
        Some((_, Phase::Over)) => tr!(texts, game.tab_over, app),
        Some(_) => tr!(texts, game.tab_waiting, app),
        None => app.to_string(),
    }
}

/// The board region: the shop and the sell area above the board.
#[component]
fn BoardRegion(screen: Screen) -> impl IntoView {
    let table = screen.table;
    let exploring = screen.exploring;
    // Buying and selling, at any time (the server applies them to the game as it then is).
    let trade = Callback::new(move |action: Move| {
        screen.acting.dispatch(action);
    });
    view! {
        <div class="table-board">
            <powers::ShopAndSell table trade />
            <div class="board-frame" class:exploring=move || exploring.get().is_some()
                class:placing=screen.placing node_ref=screen.board_frame
                style=move || format!("--zoom: {}", exploring.get().unwrap_or(1))>
                <board::LiveBoard table on_enter=move |_| screen.play() />
            </div>
            // Zoomed by a tap alone (Recall zooms a move out): the way back to the whole board.
            <Show when=move || table.focus.with(Option::is_some) && table.staged.with(Vec::is_empty) && table.selected.with(Option::is_none)>
                <button type="button" class="zoom-out" data-testid="zoom-out" aria-label=crate::t!(game.zoom_out)
                    on:click=move |_| table.focus.set(None)>"⤡"</button>
            </Show>
        </div>
    }
}

/// Below the rest: the turn notice, the unseen tiles, the move list, the history and analysis,
/// the board's legend (and on a phone the game's title).
#[component]
fn Foot(screen: Screen) -> impl IntoView {
    let table = screen.table;
    let view_signal = Signal::derive(move || table.view());
    let layout = Signal::derive(move || {
        table
            .page
            .with(|p| p.as_ref().map(|p| p.view.board.clone()))
    });
    let language = Language::expect();
    let seats = table.seats();
    let (open, turn) = (screen.history_open, screen.history_turn);
    let game = game_id(table);
    view! {
        <div class="table-foot">
            // A turn to be told of: a game going on, with someone else to move in between.
            <Show when=move || screen.playing.get() && seats.with(|s| s.len() > 1)>
                <notify::NotifyButton />
            </Show>
            <chat::Chat game shown=screen.chat />
            <moves::Unseen view=view_signal />
            <moves::MoveList view=view_signal seats open turn />
            <history::History view=view_signal seats open turn game />
            <analysis::Analysis view=view_signal seats game open turn />
            <board::Legend board=layout />
            {move || table.page.with(|page| page.as_ref().map(|page| head::title(page, language.get(), false)))}
        </div>
    }
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
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (frame, pos);
}

/// Follows the game live: when it changes, asks for it again and takes the answer if it differs
/// from what the page shows; keeps the players' presence current. Follows the new game when the
/// page moves on to another (after Play again).
fn follow_game(
    table: Table,
    id: impl Fn() -> String + Copy + Send + Sync + 'static,
    presence: RwSignal<crate::live::Presence>,
    chat: RwSignal<Option<crate::api::chat::ChatView>>,
    take: Callback<Answer>,
) {
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let game_id = id();
        let stream = format!("/api/live?game={game_id}");
        let chat_of = game_id.clone();
        let in_flight = RwSignal::new(false);
        let again = RwSignal::new(false);
        let refresh = move || {
            if in_flight.get_untracked() {
                // Asked while an answer is on its way: ask once more after it.
                again.set(true);
                return;
            }
            in_flight.set(true);
            let game_id = game_id.clone();
            leptos::task::spawn_local(async move {
                loop {
                    again.set(false);
                    // A refused refresh (a blip) is not worth a message; the next change retries.
                    let answer = game(game_id.clone()).await;
                    // The page moved on to another game while this one was asked for (an accepted
                    // rematch): this follower and its state are gone, and its answer is stale.
                    if again.is_disposed() {
                        return;
                    }
                    if let Ok(Ok(page)) = answer {
                        if table.page.with_untracked(|p| p.as_ref() != Some(&page)) {
                            take.run(Ok(Ok(page)));
                        }
                    }
                    if !again.get_untracked() {
                        break;
                    }
                }
                in_flight.set(false);
            });
        };
        crate::live::follow(
            stream,
            refresh,
            move |p| presence.set(p),
            move || chat::refresh(chat_of.clone(), chat),
        );
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = (table, id, presence, take, chat);
}
