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
//!
//! A game page starts its own, smaller bundle (the game's route alone: [`crate::GameApp`]), and
//! so does a device game's page ([`crate::DeviceApp`]); every other page the app's. Which one a page gets is [`crate::Bundle::for_path`].

use leptos::prelude::*;
use std::sync::Arc;

/// The stylesheet, as a file (the pages the server renders alone link to it).
pub const CSS: &str = "/pkg/alfakraft.css";

impl crate::Bundle {
    /// The wasm module it hydrates with.
    pub fn wasm(self) -> &'static str {
        match self {
            crate::Bundle::App => "/pkg/alfakraft_bg.wasm",
            crate::Bundle::Game => "/pkg/game_bg.wasm",
            crate::Bundle::Device => "/pkg/device_bg.wasm",
        }
    }

    /// Its start-up module, as a file.
    pub fn boot(self) -> &'static str {
        match self {
            crate::Bundle::App => "/pkg/boot.js",
            crate::Bundle::Game => "/pkg/game-boot.js",
            crate::Bundle::Device => "/pkg/device-boot.js",
        }
    }
}
/// The cookie that says which build's stylesheet and script the browser was sent inline.
pub const COOKIE: &str = "bundle";

/// The stylesheet and the start-up script, as the build wrote them.
#[derive(Clone, Debug)]
pub struct Inline {
    /// The minified stylesheet.
    pub css: Arc<str>,
    /// The app's start-up module: wasm-bindgen's glue and the call that hydrates the page.
    pub boot: Arc<str>,
    /// The game page's start-up module.
    pub game_boot: Arc<str>,
    /// The device game page's start-up module.
    pub device_boot: Arc<str>,
    /// Names this build of the two, for [`COOKIE`].
    pub version: Arc<str>,
}

impl Inline {
    /// The start-up module of `bundle`, as the build wrote it.
    pub fn boot_of(&self, bundle: crate::Bundle) -> &str {
        match bundle {
            crate::Bundle::App => &self.boot,
            crate::Bundle::Game => &self.game_boot,
            crate::Bundle::Device => &self.device_boot,
        }
    }
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
    let bundle = use_context::<http::request::Parts>().map_or(crate::Bundle::App, |parts| {
        crate::Bundle::for_path(parts.uri.path())
    });
    // The cookie names the build, so a browser that was sent one bundle's script inline and opens
    // the other's page fetches that script as a file (4 KB, beside the module).
    let cached = crate::cookies::of_request(COOKIE).as_deref() == Some(&*inline.version);
    if !cached {
        crate::cookies::set(COOKIE, &inline.version);
    }
    let (wasm, boot) = (bundle.wasm(), bundle.boot());
    preload_header(wasm);
    let script = inline.boot_of(bundle);
    view! {
        <link rel="preload" href=wasm r#as="fetch" r#type="application/wasm" crossorigin="" />
        {if cached {
            view! {
                <link rel="stylesheet" href=CSS />
                <script type="module" nonce=nonce src=boot></script>
            }
            .into_any()
        } else {
            view! {
                <style nonce=nonce.clone() inner_html=inline.css.to_string()></style>
                <script type="module" nonce=nonce inner_html=script.to_string()></script>
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
fn preload_header(wasm: &str) {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        let link =
            format!(r#"<{wasm}>; rel=preload; as=fetch; type="application/wasm"; crossorigin"#);
        if let Ok(value) = http::HeaderValue::from_str(&link) {
            response.append_header(http::header::LINK, value);
        }
    }
}
