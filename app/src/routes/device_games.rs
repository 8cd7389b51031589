//! The games kept on this device, on the start page above the account's: those going on, and
//! those over but not yet in the account; then the bot games going on on the player's other
//! devices, whose copies the account keeps (opened here, they go on here). Read from the device
//! once the page runs in the browser. Opening the page online also sends the account what it
//! lacks (finished bot games, and the latest of those going on), and keeps the dictionaries'
//! list for a game started offline.

use leptos::prelude::*;

use crate::device::Saved;
use crate::i18n::{ruleset_name, seat_label, Language, Texts};
use crate::tr;

/// The most games the list shows.
#[cfg(feature = "hydrate")]
const SHOWN: usize = 10;

/// The list; nothing when this device keeps no game.
#[component]
pub fn DeviceGames() -> impl IntoView {
    let games = RwSignal::new(Vec::<Listed>::new());
    read_and_send(games);
    let language = Language::expect();
    view! {
        <Show when=move || games.with(|g| !g.is_empty())>
            <section class="my-games device-games" aria-labelledby="device-games-title" data-testid="device-games">
                <h2 id="device-games-title">{crate::t!(device.on_this_device)}</h2>
                <ul class="game-list">
                    {move || { let texts = language.get(); games.get().into_iter().map(|listed| item(listed, texts)).collect_view() }}
                </ul>
            </section>
        </Show>
    }
}

/// A game in the list, and where it is kept.
#[derive(Debug, Clone, PartialEq)]
struct Listed {
    saved: Saved,
    /// Only in the account (going on on another device).
    elsewhere: bool,
}

/// One game: who plays with their scores, the ruleset, and whose turn it is.
fn item(Listed { saved, elsewhere }: Listed, texts: Texts) -> impl IntoView {
    let seats = saved.seats();
    let players = seats
        .iter()
        .enumerate()
        .map(|(seat, _)| {
            let score = saved.scores.get(seat).copied().unwrap_or(0);
            format!("{} {score}", seat_label(texts, &seats, seat as u8))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let mine = !saved.over
        && !elsewhere
        && match saved.players {
            crate::device::Players::Bot { .. } => saved.to_move != crate::device::BOT_SEAT,
            crate::device::Players::Local { .. } => true,
        };
    let status = match (saved.over, mine) {
        _ if elsewhere => tr!(texts, device.elsewhere).to_string(),
        (true, _) => tr!(texts, device.over).to_string(),
        (false, true) => tr!(texts, device.your_turn).to_string(),
        (false, false) => tr!(
            texts,
            my_games.their_turn,
            name = seat_label(texts, &seats, saved.to_move)
        ),
    };
    view! {
        <li class="card row" class:my-turn=mine data-device-game=saved.key.clone() data-elsewhere=elsewhere.then_some("")>
            <div class="card-body">
                <strong class="card-players">{players}</strong><br />
                <a class="card-link" href=format!("/device/{}", saved.key)>
                    <span class="muted">{ruleset_name(texts, &saved.variant)}{(!elsewhere).then(|| format!(" · {}", tr!(texts, device.on_device)))}</span>
                </a>
                {saved.unsent().then(|| view! {
                    <br /><span class="muted">{tr!(texts, device.unsent)}</span>
                })}
            </div>
            <span class="status">{status}</span>
        </li>
    }
}

/// Reads the device's games into `games` (newest first, those going on before those over), then,
/// for a signed-up player online, sends the account what it lacks and adds the games going on
/// on their other devices.
fn read_and_send(games: RwSignal<Vec<Listed>>) {
    #[cfg(feature = "hydrate")]
    {
        let user = crate::session::CurrentUser::expect();
        let lexicons = crate::dictionary::Lexicons::expect();
        Effect::new(move |_| {
            if let Some(Ok(infos)) = lexicons.infos().get() {
                leptos::task::spawn_local(async move {
                    // Only for starting offline later: the page works without it.
                    let _ = crate::device::shelf::keep_dictionaries(&infos).await;
                });
            }
        });
        Effect::new(move |_| {
            let me = user.get().filter(|me| !me.guest);
            leptos::task::spawn_local(async move {
                let Ok(mut here) = crate::device::shelf::all().await else {
                    return;
                };
                forget_old(&mut here).await;
                games.set(listed(&here, Vec::new()));
                let Some(me) = me.filter(|_| !crate::network::offline()) else {
                    return;
                };
                for saved in here.iter_mut() {
                    // Over: the account's own once sent. Going on: its latest copy.
                    if saved.unsent() || (!saved.over && saved.record().is_some()) {
                        if let Some(crate::api::device::DeviceKept::Game(id)) =
                            crate::device::send(saved.clone()).await
                        {
                            saved.sent = Some(id);
                        }
                    }
                }
                let elsewhere = match crate::api::device::device_copies().await {
                    Ok(Ok(copies)) => copies
                        .into_iter()
                        .filter(|copy| here.iter().all(|saved| saved.key != copy.copy.game.key))
                        .filter_map(|copy| Saved::of_copy(copy, me.name.clone()))
                        .collect(),
                    _ => Vec::new(),
                };
                games.set(listed(&here, elsewhere));
            });
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = games;
}

/// What the list shows of the games `here` and those only in the account (`elsewhere`): those
/// going on first, newest first; a game the account keeps as its own is listed there instead.
#[cfg(feature = "hydrate")]
fn listed(here: &[Saved], elsewhere: Vec<Saved>) -> Vec<Listed> {
    let mut all: Vec<Listed> = here
        .iter()
        .filter(|saved| saved.sent.is_none())
        .map(|saved| Listed {
            saved: saved.clone(),
            elsewhere: false,
        })
        .chain(elsewhere.into_iter().map(|saved| Listed {
            saved,
            elsewhere: true,
        }))
        .collect();
    all.sort_by_key(|listed| (listed.saved.over, -listed.saved.updated_at));
    all.truncate(SHOWN);
    all
}

/// Forgets, on this device, the games the account has kept as its own for a week: their page
/// here is no longer needed, and the device's storage is not the account's.
#[cfg(feature = "hydrate")]
async fn forget_old(here: &mut Vec<Saved>) {
    const WEEK_MS: i64 = 7 * 86_400_000;
    let now = crate::device::now_ms();
    let mut kept = Vec::with_capacity(here.len());
    for saved in here.drain(..) {
        if saved.sent.is_some() && now - saved.updated_at > WEEK_MS {
            let _ = crate::device::shelf::discard(&saved.key).await;
        } else {
            kept.push(saved);
        }
    }
    *here = kept;
}
