//! The wasm entry point. `wasm-bindgen` exports `hydrate`, which the server's page calls on load.
//!
//! Built three times: as the app's bundle (every other page: `app::PagesApp`), with the `game`
//! feature as the game page's own, smaller bundle (`app::GameApp`: the game's route alone), and
//! with the `device` feature as the device game page's (`app::DeviceApp`). `app::Bundle` says
//! which page gets which.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    #[cfg(not(any(feature = "game", feature = "device")))]
    leptos::mount::hydrate_body(app::PagesApp);
    #[cfg(feature = "game")]
    leptos::mount::hydrate_body(app::GameApp);
    #[cfg(all(feature = "device", not(feature = "game")))]
    leptos::mount::hydrate_body(app::DeviceApp);
}
