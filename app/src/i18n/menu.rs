//! The language menu in the top bar, and switching.

use leptos::prelude::*;

use super::{Lang, Language, Texts};

/// Switches the page to `lang`: asks the server for its words (the same request remembers the
/// choice in a cookie and, for an account, in the account), then swaps them in. Until they
/// arrive the page stays as it was.
pub fn switch(language: Language, lang: Lang) {
    leptos::task::spawn_local(async move {
        if let Ok(texts) = crate::api::account::set_language(lang).await {
            language.show(Texts::received(lang, texts));
        }
    });
}

/// A menu of the four languages, each in its own name.
#[component]
pub fn LanguageMenu() -> impl IntoView {
    let language = Language::expect();
    let choose = move |ev: leptos::ev::Event| {
        if let Some(lang) = Lang::parse(&event_target_value(&ev)) {
            switch(language, lang);
        }
    };
    view! {
        <select class="language" data-testid="language" aria-label=crate::t!(nav.language)
            on:change=choose>
            {Lang::ALL
                .into_iter()
                .map(|lang| {
                    view! {
                        <option value=lang.code()
                            selected=move || language.get().lang() == lang>
                            {lang.native_name()}
                        </option>
                    }
                })
                .collect_view()}
        </select>
    }
}
