//! What a failed browser call says, in words: the bundle is built without `Debug` output
//! (`scripts/build.sh`), so `{:?}` of a `JsValue` would be empty.

use wasm_bindgen::{JsCast, JsValue};

/// The message of a JavaScript error or rejection: an `Error`'s message, a thrown string, or
/// else the value as JavaScript writes it.
pub fn text(error: &JsValue) -> String {
    if let Some(error) = error.dyn_ref::<js_sys::Error>() {
        return error.message().into();
    }
    error.as_string().unwrap_or_else(|| {
        js_sys::JSON::stringify(error).map_or_else(|_| "unknown error".into(), String::from)
    })
}
