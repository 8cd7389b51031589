//! A refusal or failure, shown where the player is looking: a form's answer often lands below the
//! fold on a phone (under a Start button at the screen's foot), so the line scrolls itself into
//! view when it appears or changes, and is announced (`role="alert"`).

use leptos::prelude::*;

/// The line, in `class="error"`.
#[component]
pub fn Alert(
    /// What to say.
    #[prop(into)]
    text: Signal<String>,
    /// The line's `data-testid`, for the tests.
    #[prop(optional)]
    testid: Option<&'static str>,
) -> impl IntoView {
    let line = NodeRef::<leptos::html::P>::new();
    Effect::new(move |_| {
        text.track();
        #[cfg(feature = "hydrate")]
        if let Some(line) = line.get() {
            reveal(&line);
        }
    });
    view! { <p class="error" role="alert" data-testid=testid node_ref=line>{text}</p> }
}

/// Scrolls `element` into view when any of it is outside the window, no further than needed.
#[cfg(feature = "hydrate")]
fn reveal(element: &leptos::web_sys::Element) {
    let rect = element.get_bounding_client_rect();
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(f64::MAX);
    if rect.top() < 0.0 {
        element.scroll_into_view_with_bool(true);
    } else if rect.bottom() > height {
        element.scroll_into_view_with_bool(false);
    }
}
