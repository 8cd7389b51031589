//! Light, dark, or the system's choice: a switch in the top bar, remembered in a cookie that a
//! tiny script in every page's head reads before anything paints (so no page flashes the other
//! theme, and the server-rendered pages follow it too).

use leptos::prelude::*;

/// Sets the root's `data-theme` from the `theme` cookie; inlined in the head of every page.
pub const SCRIPT: &str = "try{var t=(document.cookie.match(/(?:^|; )theme=(light|dark)/)||[])[1];if(t)document.documentElement.dataset.theme=t}catch(e){}";

/// The three choices, in the order the switch cycles through them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }

    fn label(self, texts: crate::i18n::Texts) -> &'static str {
        match self {
            Theme::System => crate::tr!(texts, nav.theme_auto),
            Theme::Light => crate::tr!(texts, nav.theme_light),
            Theme::Dark => crate::tr!(texts, nav.theme_dark),
        }
    }

    #[cfg(feature = "hydrate")]
    fn apply(self) {
        use wasm_bindgen::JsCast;
        let document = document();
        let (value, age) = match self {
            Theme::System => ("", 0),
            Theme::Light => ("light", 31_536_000),
            Theme::Dark => ("dark", 31_536_000),
        };
        if let Some(root) = document.document_element() {
            let _ = if value.is_empty() {
                root.remove_attribute("data-theme")
            } else {
                root.set_attribute("data-theme", value)
            };
        }
        if let Ok(html) = document.dyn_into::<web_sys::HtmlDocument>() {
            let _ = html.set_cookie(&format!(
                "theme={value}; path=/; max-age={age}; samesite=lax"
            ));
        }
    }

    #[cfg(feature = "hydrate")]
    fn current() -> Theme {
        match document()
            .document_element()
            .and_then(|root| root.get_attribute("data-theme"))
            .as_deref()
        {
            Some("light") => Theme::Light,
            Some("dark") => Theme::Dark,
            _ => Theme::System,
        }
    }
}

/// The switch.
#[component]
pub fn ThemeSwitch() -> impl IntoView {
    let theme = RwSignal::new(Theme::System);
    let language = crate::i18n::Language::expect();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| theme.set(Theme::current()));
    let press = move |_| {
        let next = theme.get_untracked().next();
        #[cfg(feature = "hydrate")]
        next.apply();
        theme.set(next);
    };
    view! {
        <button type="button" class="link theme-switch" data-testid="theme"
            aria-label=move || {
                let texts = language.get();
                crate::tr!(texts, nav.theme, theme = theme.get().label(texts))
            }
            on:click=press>
            {move || theme.get().label(language.get())}
        </button>
    }
}
