//! The page for addresses that lead nowhere.

use leptos::prelude::*;

/// Makes the server answer the page being rendered with status 404 (nothing in the browser).
pub fn answer_not_found() {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
}

/// Shown for any path no route matches; the server answers it with status 404.
#[component]
pub fn NotFound() -> impl IntoView {
    answer_not_found();
    view! {
        <main class="page">
            <h1>{crate::t!(nav.not_found)}</h1>
            <p><a href="/">{crate::t!(nav.back_home)}</a></p>
        </main>
    }
}

/// What the game page's bundle shows for an address it has no page for (a link from the game to
/// the lobby, say): a full load of that address, which the app's bundle then serves.
#[component]
pub fn LoadWhole() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    {
        let location = leptos_router::hooks::use_location();
        Effect::new(move |_| {
            let (search, hash) = (location.search.get(), location.hash.get());
            let mut target = location.pathname.get();
            if !search.is_empty() {
                target = format!("{target}?{}", search.trim_start_matches('?'));
            }
            if !hash.is_empty() {
                target = format!("{target}#{}", hash.trim_start_matches('#'));
            }
            let here = window().location();
            let now = format!(
                "{}{}{}",
                here.pathname().unwrap_or_default(),
                here.search().unwrap_or_default(),
                here.hash().unwrap_or_default()
            );
            // The router may already have put the address into the history: load it in place.
            let _ = if now == target {
                here.reload()
            } else {
                here.assign(&target)
            };
        });
    }
    view! { <main class="page" aria-busy="true"></main> }
}
