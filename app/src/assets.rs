//! What a page's head carries to style itself and start the browser bundle.
//!
//! On a slow phone link the page is interactive once the wasm module is in, and every byte that
//! shares the link with it delays that. The module can be asked for only once the page's first
//! bytes have arrived, and its own answer then takes a round trip, during which the link is idle.
//! So the stylesheet and the start-up script (wasm-bindgen's glue, minified) come inside the
//! page, over that otherwise idle link, instead of as two more files beside the module: about
//! 12 KB that no longer compete with it. The module is named first in the head, so the browser
//! asks for it as soon as the first bytes arrive.
//!
//! That is for a browser that does not have them yet. Once it has (the [`COOKIE`] names the
//! build it was sent), pages link to the two files instead, which its cache answers, so later
//! full loads are not 12 KB heavier. The server reads both texts once (`scripts/build.sh` writes
//! them) and provides them as [`Inline`]; without them (a server built before the bundle) the
//! page links to the files.
//!
//! The module's preload is also sent as a `Link` header, which the browser acts on before it
//! has parsed anything.

use leptos::prelude::*;
use std::sync::Arc;

/// The module every page hydrates with.
pub const WASM: &str = "/pkg/alfakraft_bg.wasm";
/// The stylesheet, as a file (the pages the server renders alone link to it).
pub const CSS: &str = "/pkg/alfakraft.css";
/// The start-up module, as a file.
pub const BOOT: &str = "/pkg/boot.js";
/// The cookie that says which build's stylesheet and script the browser was sent inline.
pub const COOKIE: &str = "bundle";

/// The stylesheet and the start-up script, as the build wrote them.
#[derive(Clone, Debug)]
pub struct Inline {
    /// The minified stylesheet.
    pub css: Arc<str>,
    /// The start-up module: wasm-bindgen's glue and the call that hydrates the page.
    pub boot: Arc<str>,
    /// Names this build of the two, for [`COOKIE`].
    pub version: Arc<str>,
}

/// The head's part that loads the bundle: inline when the server has the texts, else links.
#[component]
pub fn BundleHead(
    /// Where the bundle is, for the links.
    options: LeptosOptions,
) -> impl IntoView {
    let nonce = leptos::nonce::use_nonce();
    let Some(inline) = use_context::<Inline>() else {
        return view! {
            <HydrationScripts options />
            <link rel="stylesheet" href=CSS />
        }
        .into_any();
    };
    let cached = crate::cookies::of_request(COOKIE).as_deref() == Some(&*inline.version);
    if !cached {
        crate::cookies::set(COOKIE, &inline.version);
    }
    preload_header();
    view! {
        <link rel="preload" href=WASM r#as="fetch" r#type="application/wasm" crossorigin="" />
        {if cached {
            view! {
                <link rel="stylesheet" href=CSS />
                <script type="module" nonce=nonce src=BOOT></script>
            }
            .into_any()
        } else {
            view! {
                <style nonce=nonce.clone() inner_html=inline.css.to_string()></style>
                <script type="module" nonce=nonce inner_html=inline.boot.to_string()></script>
            }
            .into_any()
        }}
    }
    .into_any()
}

/// The module's preload as a `Link` header too: a browser reads the response's headers when it
/// commits the navigation, before it parses the head (about 20 ms sooner in Chromium on the slow
/// link), and the module's request is what the page waits for. The head's link stays for
/// whatever ignores the header; the browser fetches the module once.
fn preload_header() {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        let link =
            format!(r#"<{WASM}>; rel=preload; as=fetch; type="application/wasm"; crossorigin"#);
        if let Ok(value) = http::HeaderValue::from_str(&link) {
            response.append_header(http::header::LINK, value);
        }
    }
}
