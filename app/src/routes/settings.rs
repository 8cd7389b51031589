//! `/settings`, rendered on the server: chat on or off, the players the caller blocked (each with
//! Unblock), the password, the sessions signed in (each with Sign out) and recovery codes. The
//! forms post to the server functions, which send the browser back here; new recovery codes are
//! shown once, on a page of their own ([`codes`]). `/reset` ([`reset`]) sets a new password with
//! a recovery code.

use leptos::prelude::*;

use super::plain;
use crate::api::{account::SessionCard, profile_path};
use crate::i18n::Texts;
use crate::tr;

/// What the settings page shows.
pub struct Settings {
    /// Chat turned off.
    pub chat_off: bool,
    /// The names the viewer blocked.
    pub blocked: Vec<String>,
    /// The viewer's sessions, this one first.
    pub sessions: Vec<SessionCard>,
    /// Unused recovery codes.
    pub codes_left: i64,
}

/// The page for `viewer`.
pub fn page(
    texts: Texts,
    viewer: &str,
    admin: bool,
    settings: Settings,
    said: Option<String>,
) -> String {
    let Settings {
        chat_off,
        blocked,
        sessions,
        codes_left,
    } = settings;
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
            <Security texts sessions codes_left />
        </main>
    };
    plain::document(texts, tr!(texts, settings.title), Some(viewer), admin, main)
}

/// The password, the sessions and the recovery codes.
#[component]
fn Security(texts: Texts, sessions: Vec<SessionCard>, codes_left: i64) -> impl IntoView {
    view! {
        <section class="card" aria-labelledby="password-title">
            <h2 id="password-title">{tr!(texts, settings.password)}</h2>
            <form method="post" action="/api/account/password" class="form">
                <label>{tr!(texts, settings.current_password)}
                    <input type="password" name="current" required autocomplete="current-password" />
                </label>
                <label>{tr!(texts, settings.new_password)}
                    <input type="password" name="new" required minlength="8" maxlength="200" autocomplete="new-password" />
                </label>
                <button type="submit" data-testid="change-password">{tr!(texts, settings.change_password)}</button>
            </form>
        </section>
        <section class="card" aria-labelledby="sessions-title">
            <h2 id="sessions-title">{tr!(texts, settings.sessions)}</h2>
            <ul class="friend-list" data-testid="sessions">
                {sessions.into_iter().map(|s| view! {
                    <li data-current=s.current.to_string()>
                        {s.device.unwrap_or_else(|| tr!(texts, settings.unknown_device).into())}
                        " "<span class="muted">{s.seen_day.map(|day| tr!(texts, settings.last_seen, day = rules::daily::Day::of_unix_ms(day * 86_400_000).to_string()))}</span>
                        {match s.current {
                            true => view! { " " <strong>{tr!(texts, settings.this_device)}</strong> }.into_any(),
                            false => view! {
                                <form method="post" action="/api/account/sign-out-sessions" class="inline">
                                    <input type="hidden" name="handle" value=s.handle />
                                    <button type="submit" class="small">{tr!(texts, nav.sign_out)}</button>
                                </form>
                            }.into_any(),
                        }}
                    </li>
                }).collect_view()}
            </ul>
            <form method="post" action="/api/account/sign-out-sessions">
                <input type="hidden" name="handle" value="" />
                <button type="submit" data-testid="sign-out-others">{tr!(texts, settings.sign_out_others)}</button>
            </form>
        </section>
        <section class="card" aria-labelledby="codes-title">
            <h2 id="codes-title">{tr!(texts, settings.recovery_codes)}</h2>
            <p>{tr!(texts, settings.codes_about)}</p>
            <p class="muted" data-testid="codes-left">{tr!(texts, settings.codes_left, count = codes_left)}</p>
            <form method="post" action="/settings/recovery-codes">
                <button type="submit" data-testid="new-codes">{tr!(texts, settings.new_codes)}</button>
            </form>
        </section>
        <section class="card" aria-labelledby="data-title">
            <h2 id="data-title">{tr!(texts, settings.your_data)}</h2>
            <p>{tr!(texts, settings.export_about)}</p>
            <p><a class="button" href="/settings/export" download data-testid="export">{tr!(texts, settings.export)}</a></p>
        </section>
    }
}

/// New recovery codes, shown this once.
pub fn codes(texts: Texts, viewer: &str, admin: bool, codes: Vec<String>) -> String {
    let main = view! {
        <main class="page narrow" data-testid="recovery-codes">
            <h1>{tr!(texts, settings.recovery_codes)}</h1>
            <p>{tr!(texts, settings.codes_once)}</p>
            <ol class="codes">{codes.into_iter().map(|code| view! { <li><code>{code}</code></li> }).collect_view()}</ol>
            <p><a href="/settings">{tr!(texts, settings.title)}</a></p>
        </main>
    };
    plain::document(
        texts,
        tr!(texts, settings.recovery_codes),
        Some(viewer),
        admin,
        main,
    )
}

/// `/reset`: a new password with a recovery code; `refused` says why the last try failed.
pub fn reset(texts: Texts, refused: Option<String>, name: Option<String>) -> String {
    let main = view! {
        <main class="page narrow" data-testid="reset">
            <h1>{tr!(texts, settings.reset_title)}</h1>
            <p>{tr!(texts, settings.reset_about)}</p>
            {refused.map(|why| view! { <p class="error" role="alert">{why}</p> })}
            <form method="post" action="/api/account/recover" class="form">
                <label>{tr!(texts, account.name)}
                    <input name="name" required autocomplete="username" value=name.unwrap_or_default() />
                </label>
                <label>{tr!(texts, settings.recovery_code)}
                    <input name="code" required autocomplete="off" />
                </label>
                <label>{tr!(texts, settings.new_password)}
                    <input type="password" name="password" required minlength="8" maxlength="200" autocomplete="new-password" />
                </label>
                <button type="submit" class="primary">{tr!(texts, settings.reset)}</button>
            </form>
        </main>
    };
    plain::document(texts, tr!(texts, settings.reset_title), None, false, main)
}
