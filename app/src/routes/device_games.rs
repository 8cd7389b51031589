//! The games kept on this device, on the start page above the account's: those going on, and
//! those over but not yet in the account. Read from the device once the page runs in the
//! browser (the server knows nothing of them). Opening the page online also sends any finished
//! bot game the account lacks, and keeps the dictionaries' list for a game started offline.

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
    let games = RwSignal::new(Vec::<Saved>::new());
    read_and_send(games);
    let language = Language::expect();
    view! {
        <Show when=move || games.with(|g| !g.is_empty())>
            <section class="my-games device-games" aria-labelledby="device-games-title" data-testid="device-games">
                <h2 id="device-games-title">{crate::t!(device.on_this_device)}</h2>
                <ul class="game-list">
                    {move || { let texts = language.get(); games.get().into_iter().map(|saved| item(saved, texts)).collect_view() }}
                </ul>
            </section>
        </Show>
    }
}

/// One game: who plays with their scores, the ruleset, and whose turn it is.
fn item(saved: Saved, texts: Texts) -> impl IntoView {
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
        && match saved.players {
            crate::device::Players::Bot { .. } => saved.to_move != crate::device::BOT_SEAT,
            crate::device::Players::Local { .. } => true,
        };
    let status = match (saved.over, mine) {
        (true, _) => tr!(texts, device.over).to_string(),
        (false, true) => tr!(texts, device.your_turn).to_string(),
        (false, false) => tr!(
            texts,
            my_games.their_turn,
            name = seat_label(texts, &seats, saved.to_move)
        ),
    };
    view! {
        <li class="card row" class:my-turn=mine data-device-game=saved.key.clone()>
            <div class="card-body">
                <strong class="card-players">{players}</strong><br />
                <a class="card-link" href=format!("/device/{}", saved.key)>
                    <span class="muted">{ruleset_name(texts, &saved.variant)}" · "{tr!(texts, device.on_device)}</span>
                </a>
                {(saved.over && saved.sent.is_none() && saved.record().is_some()).then(|| view! {
                    <br /><span class="muted">{tr!(texts, device.unsent)}</span>
                })}
            </div>
            <span class="status">{status}</span>
        </li>
    }
}

/// Reads the device's games into `games` (newest first, those going on before those over), and
/// sends the finished bot games the account lacks.
fn read_and_send(games: RwSignal<Vec<Saved>>) {
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
            let member = user.get().is_some_and(|me| !me.guest);
            leptos::task::spawn_local(async move {
                let Ok(mut all) = crate::device::shelf::all().await else {
                    return;
                };
                if member {
                    for saved in all.iter_mut() {
                        if saved.sent.is_none() && saved.record().is_some() {
                            saved.sent = crate::device::send(saved.clone()).await;
                        }
                    }
                }
                // A game the account keeps is listed there.
                all.retain(|saved| saved.sent.is_none());
                all.sort_by_key(|saved| (saved.over, -saved.updated_at));
                all.truncate(SHOWN);
                games.set(all);
            });
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = games;
}
