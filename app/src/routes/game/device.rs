//! `/device/<key>`: a game played on this device, against a bot or pass-and-play, with the game
//! page's own regions (head, board, dock) over a state the page keeps itself: each action is
//! applied by the rules here and kept on the device before the page shows it, and the bot's turns
//! come from its worker. No request goes to the server while it is played; a finished bot game
//! is then sent to the player's account. `/device/new?game=…` makes a game and goes on to its
//! own address.
//!
//! The server renders only the loading line (it has no such game); everything else happens once
//! the page runs in the browser, so the service worker can serve one copy of this page for every
//! device game when there is no network.

use std::sync::Arc;

use dictionaries::FstLexicon;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use rules::{Action as Move, GameState};

use super::{
    board, dock, finger, head, history, moves, preview,
    screen::{Answer, Screen},
    table::Table,
    BoardRegion,
};
use crate::api::Refusal;
use crate::device::Saved;
use crate::t;

/// A game being played here: what is kept, and the state it replays to.
struct Playing {
    saved: Saved,
    state: GameState,
    words: Arc<FstLexicon>,
}

/// Where opening the game stands.
// The server renders the loading line only.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
#[derive(Debug, Clone, PartialEq, Eq)]
enum Opening {
    Loading,
    /// This device has no game by that key.
    Missing,
    Failed(String),
    Open,
}

/// The bot's turn, as the page tells it.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq)]
enum Thinking {
    Idle,
    Now,
    /// It moved after this many milliseconds.
    Took(f64),
}

/// The device game page.
#[component]
pub fn DevicePage() -> impl IntoView {
    let params = use_params_map();
    let key = move || params.with(|p| p.get("key")).unwrap_or_default();
    let opening = RwSignal::new(Opening::Loading);
    let game = StoredValue::new(None::<Playing>);
    let shown = RwSignal::new(None::<crate::api::play::GamePage>);
    let table = Table::new(shown.into());
    let thinking = RwSignal::new(Thinking::Idle);
    let kept = RwSignal::new(None::<String>);
    let acting = crate::acting::acting(move |action: &Move| act(game, action.clone()));
    let resigning = crate::acting::acting(move |_: &()| {
        let seat = table
            .page
            .with_untracked(|p| p.as_ref().map_or(0, |p| p.view.seat));
        act(game, Move::Resign { seat })
    });
    let screen = Screen::new(table, acting, resigning, preview::judgement(table));
    let take = super::receiving(table);
    super::take_answers(screen, take);
    // Another game on the same page (Play again): nothing of this one's bot or account stays.
    Effect::new(move |_| {
        key();
        thinking.set(Thinking::Idle);
        kept.set(None);
    });
    super::keep_the_hand_order(table, key);
    super::zoom_while_placing(screen);
    super::explore_zoomed_on_the_words(screen);
    super::news_in_view(table);
    open(key, game, table, opening);
    bot_turns(game, table, thinking);
    send_to_account(game, table, kept);
    view! {
        <leptos_meta::Title text=crate::APP_NAME />
        <main class="game-page device-page"
            on:pointermove=move |ev| finger::follow(table, &ev)
            on:pointerup=move |_| finger::lift(table)
            on:pointercancel=move |_| finger::cancel(table)>
            <finger::FingerTile table />
            {move || match opening.get() {
                Opening::Loading => view! { <p class="page">{t!(game.loading)}</p> }.into_any(),
                Opening::Missing => view! {
                    <section class="card page">
                        <p role="alert">{t!(device.missing)}</p>
                        <a class="button primary" href="/">{t!(summary.new_game)}</a>
                    </section>
                }.into_any(),
                Opening::Failed(why) => view! {
                    <section class="card page">
                        <p class="error" role="alert">{why}</p>
                        <a class="button" href="/">{t!(summary.new_game)}</a>
                    </section>
                }.into_any(),
                Opening::Open => view! {
                    <div class="table-screen">
                        <head::Head screen take />
                        <BoardRegion screen />
                        <dock::Dock screen game_id=super::game_id(table) />
                    </div>
                    <DeviceFoot screen thinking kept game_key=Signal::derive(key) />
                    <super::rack::BlankPicker table />
                }.into_any(),
            }}
        </main>
    }
}

/// Below the screen: the bot's think time, where the account keeps the game, the move list and
/// history, the legend, and leaving the game for good.
#[component]
fn DeviceFoot(
    screen: Screen,
    thinking: RwSignal<Thinking>,
    kept: RwSignal<Option<String>>,
    game_key: Signal<String>,
) -> impl IntoView {
    let table = screen.table;
    let view_signal = Signal::derive(move || table.view());
    let seats = table.seats();
    let layout = Signal::derive(move || {
        table
            .page
            .with(|p| p.as_ref().map(|p| p.view.board.clone()))
    });
    let (open, turn) = (screen.history_open, screen.history_turn);
    let language = crate::i18n::Language::expect();
    view! {
        <div class="table-foot">
            <p class="muted bot-thinking" role="status" data-testid="bot-thinking">
                {move || match thinking.get() {
                    Thinking::Idle => String::new(),
                    Thinking::Now => crate::tr!(language.get(), device.thinking).to_string(),
                    Thinking::Took(ms) => crate::tr!(language.get(), device.thought, seconds = format!("{:.2}", ms / 1000.0)),
                }}
            </p>
            {move || kept.get().map(|id| view! {
                <p class="muted" data-testid="device-kept">{t!(device.kept)}" "<a href=format!("/game/{id}")>{t!(device.see_it)}</a></p>
            })}
            <moves::Unseen view=view_signal />
            <moves::MoveList view=view_signal seats open turn />
            <history::History view=view_signal seats open turn game=super::game_id(table) />
            <board::Legend board=layout />
            <Discard game_key kept />
            {move || table.page.with(|page| page.as_ref().map(|page| head::title(page, language.get(), false)))}
        </div>
    }
}

/// Leaves a game for good (it is kept on this device otherwise): one tap, confirmed. The
/// account's copy of a bot game goes too. A game the account keeps as its own is not left here.
#[component]
fn Discard(game_key: Signal<String>, kept: RwSignal<Option<String>>) -> impl IntoView {
    let asked = RwSignal::new(false);
    let user = crate::session::CurrentUser::expect();
    let discard = move |_| {
        let key = game_key.get_untracked();
        let member = untrack(|| user.get()).is_some_and(|me| !me.guest);
        #[cfg(feature = "hydrate")]
        leptos::task::spawn_local(async move {
            // Gone or not, the player asked to leave it; offline the copy stays in the
            // account, where the games list shows it.
            let _ = crate::device::shelf::discard(&key).await;
            if member {
                let _ = crate::api::device::discard_device_game(key).await;
            }
            leptos_router::hooks::use_navigate()("/", Default::default());
        });
        #[cfg(not(feature = "hydrate"))]
        let _ = (key, member);
    };
    view! {
        <Show when=move || kept.with(Option::is_none)>
            <div class="discard">
                <Show when=move || asked.get()
                    fallback=move || view! { <button type="button" data-testid="discard" on:click=move |_| asked.set(true)>{t!(device.discard)}</button> }>
                    <p role="alert">{t!(device.discard_question)}</p>
                    <button type="button" class="danger" data-testid="discard-confirm" on:click=discard>{t!(device.discard_confirm)}</button>
                    <button type="button" on:click=move |_| asked.set(false)>{t!(device.keep_playing)}</button>
                </Show>
            </div>
        </Show>
    }
}

/// Applies the player's action here and keeps the game: the page's answer, as a server's would
/// be (a refusal by the rules says why).
fn act(
    game: StoredValue<Option<Playing>>,
    action: Move,
) -> impl std::future::Future<Output = Answer> + Send {
    let applied = apply(game, &[action]);
    async move {
        match applied {
            Ok((saved, page)) => {
                keep(saved).await;
                Ok(Ok(page))
            }
            Err(refusal) => Ok(Err(refusal)),
        }
    }
}

/// Applies `actions` in turn to the game; the game kept and its page, or the refusal of the
/// first that does not apply (nothing of them is then applied).
fn apply(
    game: StoredValue<Option<Playing>>,
    actions: &[Move],
) -> Result<(Saved, crate::api::play::GamePage), Refusal> {
    game.try_update_value(|game| {
        let game = game.as_mut().ok_or(Refusal::NoSuchGame)?;
        let mut state = game.state.clone();
        for action in actions {
            state.apply(action, &*game.words).map_err(Refusal::Rules)?;
        }
        game.saved.note(&state);
        game.saved.updated_at = crate::device::now_ms();
        game.state = state;
        game.saved.actions.extend_from_slice(actions);
        Ok((game.saved.clone(), game.saved.page(&game.state)))
    })
    .unwrap_or(Err(Refusal::NoSuchGame))
}

/// Keeps `saved` on the device. A failure (the storage full, or refused in a private window)
/// leaves the game playable in this page; the game just cannot be restored.
async fn keep(saved: Saved) {
    #[cfg(feature = "hydrate")]
    {
        let kept = send_wrapper::SendWrapper::new(async move {
            if let Err(error) = crate::device::shelf::save(&saved).await {
                leptos::logging::warn!("the game could not be kept on this device: {error}");
            }
        });
        kept.await;
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = saved;
}

/// Opens the game the address names: made first for `/device/new?game=…`, then read from the
/// device, its words fetched (the service worker has them once used) and its actions replayed.
fn open(
    key: impl Fn() -> String + Send + Sync + 'static,
    game: StoredValue<Option<Playing>>,
    table: Table,
    opening: RwSignal<Opening>,
) {
    #[cfg(feature = "hydrate")]
    {
        let lexicons = crate::dictionary::Lexicons::expect();
        let query = leptos_router::hooks::use_query_map();
        let user = crate::session::CurrentUser::expect();
        let language = crate::i18n::Language::expect();
        let navigate = leptos_router::hooks::use_navigate();
        Effect::new(move |_| {
            let key = key();
            let asked = query.with_untracked(|q| q.get("game"));
            let (navigate, me) = (navigate.clone(), untrack(|| user.get()));
            let texts = language.get_untracked();
            if key.is_empty() || game.with_value(|g| g.as_ref().is_some_and(|g| g.saved.key == key))
            {
                return;
            }
            opening.set(Opening::Loading);
            leptos::task::spawn_local(async move {
                if key == "new" {
                    let name = |seat: rules::Seat| match (seat, &me) {
                        (0, Some(me)) if !me.guest => me.name.clone(),
                        (0, _) => crate::tr!(texts, new_game.you).to_string(),
                        (seat, _) => crate::tr!(texts, new_game.player, seat = seat + 1),
                    };
                    match made(asked, name).await {
                        Ok(key) => navigate(
                            &format!("/device/{key}"),
                            leptos_router::NavigateOptions {
                                replace: true,
                                ..Default::default()
                            },
                        ),
                        Err(why) => opening.set(Opening::Failed(why)),
                    }
                    return;
                }
                let saved = match crate::device::shelf::load(&key).await {
                    Ok(Some(saved)) => saved,
                    Ok(None) => match from_account(&key, me.as_ref(), lexicons).await {
                        Some(saved) => saved,
                        None => return opening.set(Opening::Missing),
                    },
                    Err(why) => return opening.set(Opening::Failed(why)),
                };
                let words = match lexicons.words(&saved.dictionary_url).await {
                    Ok(words) => words,
                    Err(why) => {
                        let why = crate::tr!(texts, device.no_words, why);
                        return opening.set(Opening::Failed(why));
                    }
                };
                match saved.replay(&*words) {
                    Ok(state) => {
                        table.receive(saved.page(&state));
                        game.set_value(Some(Playing {
                            saved,
                            state,
                            words,
                        }));
                        opening.set(Opening::Open);
                    }
                    Err(why) => opening.set(Opening::Failed(why)),
                }
            });
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (key, game, table, opening);
}

/// The game `key` going on on another of the player's devices, from the copy their account
/// keeps, kept here to go on with; `None` for a visitor, offline, or a key the account lacks.
#[cfg(feature = "hydrate")]
async fn from_account(
    key: &str,
    me: Option<&crate::api::Me>,
    lexicons: crate::dictionary::Lexicons,
) -> Option<Saved> {
    let me = me.filter(|me| !me.guest)?;
    let copy = crate::api::device::device_copies()
        .await
        .ok()?
        .ok()?
        .into_iter()
        .find(|copy| copy.copy.game.key == key)?;
    let mut saved = Saved::of_copy(copy, me.name.clone())?;
    let words = lexicons.words(&saved.dictionary_url).await.ok()?;
    saved.note(&saved.replay(&*words).ok()?);
    crate::device::shelf::save(&saved).await.ok()?;
    Some(saved)
}

/// Makes the game `asked` describes (a [`crate::routes::new_game::device_game_path`]'s) and keeps it: its key.
#[cfg(feature = "hydrate")]
async fn made(
    asked: Option<String>,
    name: impl Fn(rules::Seat) -> String,
) -> Result<String, String> {
    use crate::device::shelf;
    let new = asked
        .as_deref()
        .and_then(crate::routes::new_game::device_game_of)
        .ok_or("this address names no game to start")?;
    // The server's list, kept for when there is no network; else the one kept last.
    let infos = match crate::dictionary::dictionary_list(false).await {
        Ok(infos) => {
            let _ = shelf::keep_dictionaries(&infos).await;
            infos
        }
        Err(_) => shelf::dictionaries().await?.unwrap_or_default(),
    };
    let info = infos.iter().find(|i| i.id == new.dictionary).ok_or(
        "the dictionaries are not known on this device yet: open the app once with a network",
    )?;
    let saved = Saved::new(&new, info, name)
        .ok_or("a game on this device is against a bot, or pass-and-play")?;
    shelf::save(&saved).await?;
    Ok(saved.key)
}

/// Plays the bot's turns: whenever the page shows the bot to move, its worker decides, and its
/// actions are applied and kept as the player's are.
fn bot_turns(game: StoredValue<Option<Playing>>, table: Table, thinking: RwSignal<Thinking>) {
    // Asked again when the bot's move no longer applies (the player bought a power meanwhile),
    // a few times: a bot whose move never applies would be a bug to report, not to loop on.
    #[cfg(feature = "hydrate")]
    let again = RwSignal::new(0u32);
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        table.page.track();
        again.track();
        if thinking.get_untracked() == Thinking::Now {
            return;
        }
        let Some((variant, url, level, seed, view)) = game.with_value(|g| {
            let g = g.as_ref()?;
            let level = g.saved.bot_to_move(&g.state)?.to_string();
            let view = g.state.view(crate::device::BOT_SEAT);
            Some((
                g.saved.variant,
                g.saved.dictionary_url.clone(),
                level,
                g.saved.bot_seed(&g.state),
                view,
            ))
        }) else {
            return;
        };
        thinking.set(Thinking::Now);
        leptos::task::spawn_local(async move {
            match crate::device::bots::play(variant, &url, &level, seed, &view).await {
                Ok(played) => match apply(game, &played.actions) {
                    Ok((saved, page)) => {
                        keep(saved).await;
                        thinking.set(Thinking::Took(played.ms));
                        table.receive(page);
                    }
                    Err(refusal) => {
                        thinking.set(Thinking::Idle);
                        if again.get_untracked() < 3 {
                            again.update(|n| *n += 1);
                        } else {
                            table
                                .message
                                .set(Some(format!("the bot's move: {refusal}")));
                        }
                    }
                },
                Err(why) => {
                    thinking.set(Thinking::Idle);
                    table.message.set(Some(why));
                }
            }
        });
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = (game, table, thinking);
}

/// Sends a bot game to the signed-up player's account after every change: going on, the account
/// keeps a copy; over, it keeps the game (once: it answers the same id again), and the page says
/// where. Offline, or before the page knows who is signed in (a copy of it kept for offline use
/// may be older than the sign-in), nothing is sent; the games list sends what is over when the
/// player is back, and the account refuses a visitor's.
fn send_to_account(
    game: StoredValue<Option<Playing>>,
    table: Table,
    kept: RwSignal<Option<String>>,
) {
    #[cfg(feature = "hydrate")]
    {
        let user = crate::session::CurrentUser::expect();
        Effect::new(move |_| {
            table.page.track();
            let member = user.get().is_some_and(|me| !me.guest);
            let Some(saved) = game.with_value(|g| {
                g.as_ref()
                    .map(|g| g.saved.clone())
                    .filter(|saved| saved.record().is_some())
            }) else {
                return;
            };
            if let Some(id) = &saved.sent {
                kept.set(Some(id.clone()));
                return;
            }
            let copied = !saved.over && saved.copied >= saved.actions.len();
            if !member || copied || crate::network::offline() {
                return;
            }
            let actions = saved.actions.len();
            leptos::task::spawn_local(async move {
                match crate::device::send(saved).await {
                    Some(crate::api::device::DeviceKept::Game(id)) => {
                        game.update_value(|g| {
                            if let Some(g) = g.as_mut() {
                                g.saved.sent = Some(id.clone());
                            }
                        });
                        kept.set(Some(id));
                    }
                    Some(crate::api::device::DeviceKept::Copy) => {
                        // Kept with the game's latest actions (the page's own, not the ones
                        // sent), so a later action is never undone by this.
                        let latest = game.try_update_value(|g| {
                            let g = g.as_mut()?;
                            g.saved.copied = g.saved.copied.max(actions);
                            Some(g.saved.clone())
                        });
                        if let Some(Some(saved)) = latest {
                            keep(saved).await;
                        }
                    }
                    None => {}
                }
            });
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (game, table, kept);
}
