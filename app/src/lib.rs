//! The Alfa Kraft web app: pages, components and server functions.
//!
//! Built twice from the same source: with `ssr` into the server, which renders every page, and with
//! `hydrate` into the browser bundle, which takes the rendered page over. Server-only code sits
//! behind `ssr`, so the bundle never carries it.
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
pub mod alert;
pub mod api;
#[cfg(feature = "ssr")]
pub mod assets;
pub mod clipboard;
#[cfg(feature = "ssr")]
pub mod cookies;
pub mod device;
pub mod dictionary;
pub mod i18n;
#[cfg(feature = "hydrate")]
pub mod js_error;
pub mod live;
pub mod loaded;
pub mod network;
pub mod routes;
pub mod session;
pub mod theme;
pub mod wire;

/// The name the product goes by in titles and headings.
pub const APP_NAME: &str = "Alfa Kraft";

/// The browser's colour around an installed app's window (the tiles' yellow, as in the
/// manifest).
pub const THEME_COLOR: &str = "#f2c14e";

/// The HTML document around the app, rendered on the server only.
#[cfg(feature = "ssr")]
pub fn shell(options: LeptosOptions) -> impl IntoView {
    use leptos_meta::MetaTags;
    let texts = i18n::requested();
    view! {
        <!DOCTYPE html>
        <html lang=texts.lang().code()>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <AutoReload options=options.clone() />
                <assets::BundleHead options />
                <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
                <link rel="manifest" href="/manifest.webmanifest" />
                <meta name="theme-color" content=THEME_COLOR />
                <script inner_html=theme::SCRIPT></script>
                // The installable app (its service worker, offline, the install offer), and push
                // notifications on this device once the player asks for them.
                <script src="/app.js" defer></script>
                <script src="/push.js" defer></script>
                // The page's words, for the browser to hydrate with (see `i18n`).
                <script id=i18n::TEXTS_ID type="text/plain" inner_html=i18n::page_texts(texts)></script>
                <MetaTags />
            </head>
            <body data-offline-text=tr!(texts, nav.offline_banner) data-offline-short=tr!(texts, nav.offline_short)>
                <App />
            </body>
        </html>
    }
}

/// The root component: metadata, the stylesheet and the routes. The server renders every page
/// with it.
#[component]
pub fn App() -> impl IntoView {
    pages(routes::game::device::DevicePage)
}

/// The root the app's bundle hydrates every page with but the game's and the device game's: the
/// same as [`App`], but a device game's address loads whole, with its own bundle ([`DeviceApp`]),
/// so the rules' game state and the device's storage stay out of the bundle every other page
/// starts with.
#[component]
pub fn PagesApp() -> impl IntoView {
    pages(routes::not_found::LoadWhole)
}

/// Every page's route, with `device` at a device game's address.
fn pages<V: IntoView + 'static>(device: fn() -> V) -> impl IntoView {
    frame(move || {
        view! {
            <Routes fallback=routes::not_found::NotFound>
                <Route path=StaticSegment("") view=routes::home::HomePage />
                <Route path=StaticSegment("signin") view=routes::account::SignInPage />
                <Route path=StaticSegment("signup") view=routes::account::SignUpPage />
                <Route path=StaticSegment("lobby") view=routes::lobby::LobbyPage />
                <Route path=(StaticSegment("game"), ParamSegment("id")) view=routes::game::GamePage />
                <Route path=(StaticSegment("device"), ParamSegment("key")) view=device />
                <Route
                    path=(StaticSegment("invite"), ParamSegment("token"))
                    view=routes::invite::InvitePage
                />
                <Route
                    path=(StaticSegment("about"), StaticSegment("dictionaries"))
                    view=routes::about_dictionaries::AboutDictionaries
                />
            </Routes>
        }
    })
}

/// The root the game page's own bundle hydrates with: the same frame as [`App`] around the game's
/// route alone, so it renders a game page exactly as the server did, without the other pages'
/// code (a smaller module on the page players open most, often from a phone). Any other address
/// the page goes to is loaded whole, with the app's bundle.
#[component]
pub fn GameApp() -> impl IntoView {
    frame(|| {
        view! {
            <Routes fallback=routes::not_found::LoadWhole>
                <Route path=(StaticSegment("game"), ParamSegment("id")) view=routes::game::GamePage />
            </Routes>
        }
    })
}

/// The root the device game page's own bundle hydrates with, as [`GameApp`] does the game's.
#[component]
pub fn DeviceApp() -> impl IntoView {
    frame(|| {
        view! {
            <Routes fallback=routes::not_found::LoadWhole>
                <Route path=(StaticSegment("device"), ParamSegment("key")) view=routes::game::device::DevicePage />
            </Routes>
        }
    })
}

/// Every page's frame: what its components read (the language, the dictionaries, the player, the
/// live connection), the metadata, and the top bar and the live banner above `routes`, which
/// are made inside the router.
fn frame<R: IntoView + 'static>(routes: impl FnOnce() -> R + Send + 'static) -> impl IntoView {
    provide_meta_context();
    i18n::Language::provide();
    dictionary::Lexicons::provide();
    session::CurrentUser::provide();
    live::Connection::provide();
    view! {
        <Title text=APP_NAME />
        <Meta name="description" content=DESCRIPTION />
        <Router>
            <session::TopBar />
            <live::ConnectionBanner />
            {routes()}
        </Router>
    }
}

const DESCRIPTION: &str =
    "Crossword word games in the browser: Alfa Kraft, Classic, Feud, Alfapet and Long words.";

/// Which bundle hydrates the page at `path`: the game page's own, or the app's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bundle {
    /// Every page but the game's and the device game's ([`PagesApp`]).
    App,
    /// `/game/{id}` ([`GameApp`]).
    Game,
    /// `/device/{key}` ([`DeviceApp`]).
    Device,
}

impl Bundle {
    /// The bundle for a request's path: the game's for `/game/{id}` and the device game's for
    /// `/device/{key}`, whatever their query.
    pub fn for_path(path: &str) -> Bundle {
        let one_segment =
            |rest: Option<&str>| rest.is_some_and(|r| !r.is_empty() && !r.contains('/'));
        if one_segment(path.strip_prefix("/game/")) {
            Bundle::Game
        } else if one_segment(path.strip_prefix("/device/")) {
            Bundle::Device
        } else {
            Bundle::App
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Bundle;

    #[test]
    fn game_pages_get_their_own_bundles_and_every_other_page_the_app_s() {
        assert_eq!(
            Bundle::for_path("/game/0123456789abcdef0123456789abcdef"),
            Bundle::Game
        );
        assert_eq!(Bundle::for_path("/device/new"), Bundle::Device);
        assert_eq!(
            Bundle::for_path("/device/0123456789abcdef0123456789abcdef"),
            Bundle::Device
        );
        for path in [
            "/device/",
            "/device/a/b",
            "/",
            "/lobby",
            "/game/",
            "/game",
            "/game/a/b",
            "/games/x",
            "/help",
        ] {
            assert_eq!(Bundle::for_path(path), Bundle::App, "{path}");
        }
    }
}
