//! `/settings`, rendered on the server: chat on or off, and the players the caller blocked, each
//! with Unblock. The forms post to the server functions, which send the browser back here.

use leptos::prelude::*;

use super::plain;
use crate::api::profile_path;
use crate::i18n::Texts;
use crate::tr;

/// The page for `viewer`: `chat_off` as they set it, `blocked` the names they blocked.
pub fn page(
    texts: Texts,
    viewer: &str,
    admin: bool,
    chat_off: bool,
    blocked: Vec<String>,
    said: Option<String>,
) -> String {
    let main = view! {
        <main class="page settings" data-testid="settings">
            <h1>{tr!(texts, settings.title)}</h1>
            {said.map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            <section class="card" aria-labelledby="chat-title">
                <h2 id="chat-title">{tr!(texts, chat.title)}</h2>
                <p>{if chat_off { tr!(texts, settings.chat_is_off) } else { tr!(texts, settings.chat_is_on) }}</p>
                <form method="post" action="/api/chat/setting">
                    <input type="hidden" name="off" value=(!chat_off).to_string() />
                    <button type="submit" data-testid="chat-setting">{if chat_off { tr!(texts, settings.chat_on) } else { tr!(texts, settings.chat_off) }}</button>
                </form>
            </section>
            <section class="card" aria-labelledby="blocked-title">
                <h2 id="blocked-title">{tr!(texts, settings.blocked)}</h2>
                {if blocked.is_empty() {
                    view! { <p class="muted">{tr!(texts, settings.none_blocked)}</p> }.into_any()
                } else {
                    view! {
                        <ul class="friend-list" data-testid="blocked">
                            {blocked.into_iter().map(|name| view! {
                                <li><a href=profile_path(&name)>{name.clone()}</a>
                                    <form method="post" action="/api/blocks/unblock" class="inline">
                                        <input type="hidden" name="name" value=name />
                                        <button type="submit" class="small">{tr!(texts, friends.unblock)}</button>
                                    </form>
                                </li>
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }}
            </section>
        </main>
    };
    plain::document(texts, tr!(texts, settings.title), Some(viewer), admin, main)
}
