//! The page for addresses that lead nowhere.

use leptos::prelude::*;

/// Shown for any path no route matches; the server answers it with status 404.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <main class="page">
            <h1>{crate::t!(nav.not_found)}</h1>
            <p><a href="/">{crate::t!(nav.back_home)}</a></p>
        </main>
    }
}
