//! The wasm entry point. `wasm-bindgen` exports `hydrate`, which the server's page calls on load.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
