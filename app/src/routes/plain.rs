//! The shell of the pages rendered on the server only (the admin panel, profiles, leaderboards,
//! daily standings, a finished game's board, and their 404): plain HTML with the app's stylesheet and top bar, no hydration and
//! nothing added to the wasm bundle every player downloads.

use leptos::prelude::*;

use crate::api::profile_path;
use crate::i18n::{Language, Texts};
use crate::tr;

/// Builds a page's view with `texts` as the language of the components in it.
pub fn speaking<V>(texts: Texts, view: impl FnOnce() -> V) -> V {
    Owner::new().with(|| {
        Language::provide_fixed(texts);
        view()
    })
}

/// What became of a plain form post, in `texts`; nothing for an address that says nothing
/// readable. Anyone can write an address: a refusal that carries text of its own (a sentence, a
/// link) is not repeated, only said to be one, so a page never shows words from its address.
pub fn said(texts: Texts, said: &crate::api::Said) -> Option<String> {
    if let Some(refused) = &said.refused {
        let words: serde_json::Value = serde_json::from_str(refused).ok()?;
        if !only_names(&words) {
            return Some(tr!(texts, social.refused).to_string());
        }
        let refusal: crate::api::Refusal = serde_json::from_value(words).ok()?;
        return Some(crate::i18n::refusal(texts, &refusal));
    }
    said.done.then(|| tr!(texts, social.done).to_string())
}

/// Whether every text in a refusal is a name (a player's, a word, a variant's): letters, digits
/// and `_`, 40 at most, as a page may repeat them.
fn only_names(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::String(text) => {
            text.chars().count() <= 40 && text.chars().all(|c| c.is_alphanumeric() || c == '_')
        }
        serde_json::Value::Array(items) => items.iter().all(only_names),
        serde_json::Value::Object(fields) => fields.iter().all(|(key, field)| {
            only_names(&serde_json::Value::String(key.clone())) && only_names(field)
        }),
        _ => true,
    }
}

/// A unix-ms instant as `2026-12-01 14:05 UTC`.
pub use crate::i18n::moment as utc;

/// "Page not found" (the server answers it with 404), in `texts`.
pub fn not_found(texts: Texts) -> String {
    let body = Owner::new().with(|| {
        view! {
            <main class="page">
                <h1>{tr!(texts, nav.not_found)}</h1>
                <p><a href="/">{tr!(texts, nav.back_home)}</a></p>
            </main>
        }
        .to_html()
    });
    html(texts, tr!(texts, nav.not_found), &body)
}

/// A whole document around `main`, in `texts`, with the top bar for `viewer` (signed in, or
/// not).
pub fn document(
    texts: Texts,
    title: &str,
    viewer: Option<&str>,
    admin: bool,
    main: impl IntoView + 'static,
) -> String {
    let viewer = viewer.map(str::to_string);
    let body = Owner::new().with(move || {
        view! {
            <nav class="top-bar" aria-label="Main">
                <a class="brand" href="/">{crate::APP_NAME}</a>
                // Without scripts the menu button is a check box: on a phone the menu opens
                // under the bar as on the app's pages (the style shows it while checked).
                <input type="checkbox" id="menu-toggle" class="menu-toggle" aria-controls="main-menu"
                    aria-label=tr!(texts, nav.menu) data-testid="menu" />
                <div class="menu" id="main-menu">
                    <a href="/lobby">{tr!(texts, nav.lobby)}</a>
                    <a href="/leaderboard">{tr!(texts, nav.leaderboard)}</a>
                    <a href="/leagues">{tr!(texts, nav.leagues)}</a>
                    <a href="/tournaments">{tr!(texts, nav.tournaments)}</a>
                    <a href="/help">{tr!(texts, nav.rules)}</a>
                    <span class="spacer"></span>
                    {viewer.is_some().then(|| view! {
                        <a href="/friends">{tr!(texts, nav.friends)}</a>
                        <a href="/settings">{tr!(texts, nav.settings)}</a>
                    })}
                    {admin.then(|| view! { <a href="/admin" data-testid="admin-link">{tr!(texts, nav.admin)}</a> })}
                    {admin.then(|| view! { <a href="/admin/moderation" data-testid="moderation-link">{tr!(texts, nav.moderation)}</a> })}
                    <button type="button" class="link" data-install hidden>{tr!(texts, nav.install)}</button>
                    {viewer.is_some().then(|| view! {
                        <form method="post" action="/api/account/sign-out-form" class="sign-out">
                            <button type="submit" class="link" data-testid="sign-out">{tr!(texts, nav.sign_out)}</button>
                        </form>
                    })}
                </div>
                <span class="account">
                    {match viewer {
                        Some(name) => {
                            let href = profile_path(&name);
                            view! { <a class="who" data-testid="who" href=href>{name}</a> }.into_any()
                        }
                        None => view! { <a href="/signin">{tr!(texts, nav.sign_in)}</a> }.into_any(),
                    }}
                </span>
                <label for="menu-toggle" class="menu-button" aria-hidden="true">"☰"</label>
            </nav>
            {main}
        }
        .to_html()
    });
    html(texts, title, &body)
}

/// Moments are written `2026-12-01 14:05 UTC` ([`utc`]); once the page is read, the browser
/// rewrites each into the reader's own time, in the page's language (`localTimes`, which a page
/// that replaces a part of itself calls again). Without scripts they stay in UTC, which they say.
const LOCAL_TIMES: &str = "window.localTimes=function(root){\
var re=/(\\d{4}-\\d\\d-\\d\\d) (\\d\\d:\\d\\d) UTC/g,lang=document.documentElement.lang;\
var w=document.createTreeWalker(root,NodeFilter.SHOW_TEXT),n;\
while((n=w.nextNode())){if(n.data.indexOf(' UTC')<0)continue;\
n.data=n.data.replace(re,function(m,d,t){var at=new Date(d+'T'+t+':00Z');\
return isNaN(at)?m:at.toLocaleString(lang,{dateStyle:'medium',timeStyle:'short'})})}};\
document.addEventListener('DOMContentLoaded',function(){localTimes(document.body)})";

/// `text` for an attribute's value or an element's text.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page the service worker shows for a page it cannot fetch while the device is offline
/// (kept when the worker is installed, in the language of that moment).
pub fn offline(texts: Texts) -> String {
    let body = Owner::new().with(|| {
        view! {
            <main class="page offline-page">
                <h1>{tr!(texts, nav.offline_title)}</h1>
                <p>{tr!(texts, nav.offline_body)}</p>
                <p><a class="button" href="/" onclick="location.reload(); return false">{tr!(texts, nav.try_again)}</a></p>
            </main>
        }
        .to_html()
    });
    html(texts, tr!(texts, nav.offline_title), &body)
}

/// The HTML around a rendered body.
pub fn html(texts: Texts, title: &str, body: &str) -> String {
    let title = escaped(&format!("{title} · {}", crate::APP_NAME));
    format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"icon\" type=\"image/svg+xml\" href=\"/favicon.svg\">\
         <link rel=\"manifest\" href=\"/manifest.webmanifest\">\
         <meta name=\"theme-color\" content=\"{theme_color}\">\
         <script>{theme}</script><script>{local_times}</script><script src=\"/app.js\" defer></script>\
         <link rel=\"stylesheet\" href=\"/pkg/alfakraft.css\"></head>\
         <body data-offline-text=\"{offline}\">{body}</body></html>",
        theme = crate::theme::SCRIPT,
        theme_color = crate::THEME_COLOR,
        local_times = LOCAL_TIMES,
        lang = texts.lang().code(),
        offline = escaped(tr!(texts, nav.offline_banner)),
    )
}
