//! The wasm entry point. `wasm-bindgen` exports `hydrate`, which the server's page calls on load.
//!
//! Built twice: as the app's bundle (every page), and with the `game` feature as the game page's
//! own, smaller bundle (`app::GameApp`: the game's route alone). `app::Bundle` says which page
//! gets which.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    #[cfg(not(feature = "game"))]
    leptos::mount::hydrate_body(app::App);
    #[cfg(feature = "game")]
    leptos::mount::hydrate_body(app::GameApp);
}
