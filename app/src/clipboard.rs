//! Copy and Share buttons for what a player passes on (an invite link, a Daily Challenge result).

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
            {move || if copied.get() { crate::t!(share.copied)() } else { crate::t!(share.copy)() }}
        </button>
    }
}

/// Whether the browser has a share sheet (phones do; most desktop browsers do not).
fn can_share() -> bool {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window().is_some_and(|w| {
            js_sys::Reflect::has(&w.navigator(), &wasm_bindgen::JsValue::from_str("share"))
                .unwrap_or(false)
        })
    }
    #[cfg(not(feature = "hydrate"))]
    false
}

/// Opens the browser's share sheet with `text`: a link at its end goes as the link, the rest as
/// text.
fn share(text: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let data = web_sys::ShareData::new();
        data.set_title(crate::APP_NAME);
        let (words, last) = text.rsplit_once(' ').unwrap_or(("", text));
        let (words, link) = match last.starts_with("http://") || last.starts_with("https://") {
            true => (words, Some(last)),
            false => (text, None),
        };
        if let Some(link) = link {
            data.set_url(link);
        }
        if !words.is_empty() {
            data.set_text(words);
        }
        // A player closing the sheet rejects the promise: nothing to do then.
        let _ = window.navigator().share_with_data(&data);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = text;
}

/// A button that opens the browser's share sheet (messages, mail, chat apps) with `text`,
/// shown only where the browser has one; the Copy button beside it works everywhere.
#[component]
pub fn ShareButton(
    /// What it shares.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    // Known only in the browser, after hydration, so the server's page and the first render agree.
    let shown = RwSignal::new(false);
    Effect::new(move |_| shown.set(can_share()));
    move || {
        shown.get().then(|| {
            view! {
                <button type="button" data-testid="share" on:click=move |_| share(&text.get_untracked())>
                    {crate::t!(share.share)}
                </button>
            }
        })
    }
}

/// The page's origin (`http://host:port`), for links to copy; empty on the server.
pub fn window_origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new()
    }
}
