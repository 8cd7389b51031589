//! A Copy button for text a player shares (an invite link, a Daily Challenge result).

use leptos::prelude::*;

/// Copies `text` to the clipboard (in the browser; nothing on the server).
fn copy(text: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = text;
}

/// A button that copies `text` and says so.
#[component]
pub fn CopyButton(
    /// What it copies.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    view! {
        <button type="button" data-testid="copy" on:click=move |_| { copy(&text.get_untracked()); copied.set(true); }>
            {move || if copied.get() { "Copied" } else { "Copy" }}
        </button>
    }
}
