//! The Alfa Kraft web app: pages, components and server functions.
//!
//! Built twice from the same source: with `ssr` into the server, which renders every page, and with
//! `hydrate` into the browser bundle, which takes the rendered page over. Server-only code sits
//! behind `ssr`, so the bundle never carries it.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The game page's nested views make deep types; hydrating them in the wasm build needs more
// than the default depth.
#![recursion_limit = "256"]

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Meta, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    ParamSegment, StaticSegment,
};

pub mod acting;
pub mod api;
#[cfg(feature = "ssr")]
pub mod assets;
pub mod clipboard;
#[cfg(feature = "ssr")]
pub mod cookies;
pub mod dictionary;
pub mod domain;
pub mod i18n;
#[cfg(feature = "hydrate")]
pub mod js_error;
pub mod live;
pub mod loaded;
pub mod routes;
pub mod session;
#[cfg(feature = "ssr")]
pub mod store;
pub mod theme;
pub mod wire;

/// The name the product goes by in titles and headings.
pub const APP_NAME: &str = "Alfa Kraft";

/// The HTML document around the app, rendered on the server only.
#[cfg(feature = "ssr")]
pub fn shell(options: LeptosOptions) -> impl IntoView {
    use leptos_meta::MetaTags;
    let words = i18n::requested();
    view! {
        <!DOCTYPE html>
        <html lang=words.lang().code()>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <AutoReload options=options.clone() />
                <assets::BundleHead options />
                <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
                <script inner_html=theme::SCRIPT></script>
                // The page's words, for the browser to hydrate with (see `i18n`).
                <script id=i18n::WORDS_ID type="text/plain" inner_html=i18n::page_words(words)></script>
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// The root component: metadata, the stylesheet and the routes.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    i18n::Language::provide();
    dictionary::Lexicons::provide();
    session::CurrentUser::provide();
    live::Connection::provide();
    view! {
        <Title text=APP_NAME />
        <Meta name="description" content="Crossword word games in the browser: Alfa Kraft, Classic, Feud, Alfapet and Long words." />
        <Router>
            <session::TopBar />
            <live::ConnectionBanner />
            <Routes fallback=routes::not_found::NotFound>
                <Route path=StaticSegment("") view=routes::home::HomePage />
                <Route path=StaticSegment("signin") view=routes::account::SignInPage />
                <Route path=StaticSegment("signup") view=routes::account::SignUpPage />
                <Route path=StaticSegment("lobby") view=routes::lobby::LobbyPage />
                <Route path=(StaticSegment("game"), ParamSegment("id")) view=routes::game::GamePage />
                <Route
                    path=(StaticSegment("invite"), ParamSegment("token"))
                    view=routes::invite::InvitePage
                />
                <Route
                    path=(StaticSegment("about"), StaticSegment("dictionaries"))
                    view=routes::about_dictionaries::AboutDictionaries
                />
            </Routes>
        </Router>
    }
}
