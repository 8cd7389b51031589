//! "Your turn" as a system notification while the tab is hidden, once the player has allowed
//! notifications from the game page.

use leptos::prelude::*;

/// Whether the browser can notify and the player has not yet answered the question.
#[cfg(feature = "hydrate")]
fn may_ask() -> bool {
    web_sys::Notification::permission() == web_sys::NotificationPermission::Default
}

/// Notifies "Your turn" for `game` (the title says which game) if the tab is hidden and
/// notifications are allowed.
pub fn your_turn(heading: &str, title: String, game: String) {
    #[cfg(feature = "hydrate")]
    {
        if !document().hidden()
            || web_sys::Notification::permission() != web_sys::NotificationPermission::Granted
        {
            return;
        }
        let options = web_sys::NotificationOptions::new();
        options.set_body(&title);
        // One notification per game: a newer one replaces it.
        options.set_tag(&game);
        let _ = web_sys::Notification::new_with_options(heading, &options);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (heading, title, game);
}

/// A button that asks for permission, shown only while the question is open.
#[component]
pub fn NotifyButton() -> impl IntoView {
    let open = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| open.set(may_ask()));
    let ask = move |_| {
        #[cfg(feature = "hydrate")]
        if let Ok(asking) = web_sys::Notification::request_permission() {
            leptos::task::spawn_local(async move {
                let _ = wasm_bindgen_futures::JsFuture::from(asking).await;
                open.set(may_ask());
            });
        }
    };
    move || {
        open.get().then(|| {
            view! {
                // `/push.js` also subscribes this device to push notifications on the click.
                <button type="button" class="link notify" data-testid="notify" data-push-on="" on:click=ask>
                    {crate::t!(game.notify_me)}
                </button>
            }
        })
    }
}
