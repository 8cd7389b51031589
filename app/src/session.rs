//! Who is signed in, for every page: one resource, fetched with the page and refreshed after
//! signing in, up or out.

use leptos::prelude::*;

use crate::api::{account::who_am_i, Me};

/// The signed-in player as the pages know it.
#[derive(Clone, Copy)]
pub struct CurrentUser {
    me: crate::loaded::Loaded<Option<Me>>,
    changes: RwSignal<u32>,
}

impl CurrentUser {
    /// Makes the current user available to every component below.
    pub fn provide() -> CurrentUser {
        let changes = RwSignal::new(0);
        let user = CurrentUser {
            me: crate::loaded::load(move || changes.get(), |_| who_am_i()),
            changes,
        };
        provide_context(user);
        user
    }

    /// The one provided by the app.
    pub fn expect() -> CurrentUser {
        expect_context::<CurrentUser>()
    }

    /// The player, once known (`None` while loading or when nobody is signed in).
    pub fn get(&self) -> Option<Me> {
        self.me.get().and_then(Result::ok).flatten()
    }

    /// Fetches it again (after a sign-in, sign-up or sign-out).
    pub fn refresh(&self) {
        self.changes.update(|n| *n += 1);
    }
}

/// The bar at the top of every page: home, who is signed in, and the menu (the lobby, the
/// leaderboard, the rules, the language, the theme, signing out). A wide screen shows the menu's
/// entries in the bar; a phone keeps the bar to one row and opens them from one button.
#[component]
pub fn TopBar() -> impl IntoView {
    let user = CurrentUser::expect();
    let sign_out = crate::acting::acting(|_: &()| crate::api::account::sign_out());
    // Effects run only in the browser: this marks the page hydrated (the browser tests wait for it).
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    Effect::new(move |_| {
        if sign_out.value().is_some() {
            user.refresh();
        }
    });
    let open = RwSignal::new(false);
    // Going to another page closes the menu.
    let location = leptos_router::hooks::use_location();
    Effect::new(move |_| {
        location.pathname.track();
        open.set(false);
    });
    view! {
        <nav class="top-bar" class:menu-open=open aria-label="Main" data-hydrated=move || hydrated.get().to_string()>
            <a class="brand" href="/">{crate::APP_NAME}</a>
            <div class="menu" id="main-menu">
                <a href="/lobby">{crate::t!(nav.lobby)}</a>
                // Server-rendered outside the app: full page loads.
                <a href="/leaderboard" rel="external">{crate::t!(nav.leaderboard)}</a>
                <a href="/leagues" rel="external">{crate::t!(nav.leagues)}</a>
                <a href="/tournaments" rel="external">{crate::t!(nav.tournaments)}</a>
                <a href="/help" rel="external">{crate::t!(nav.rules)}</a>
                <span class="spacer"></span>
                <crate::i18n::LanguageMenu />
                <crate::theme::ThemeSwitch />
                // Shown by /app.js only while the browser offers installing (see the manifest).
                <button type="button" class="link" data-install hidden>{crate::t!(nav.install)}</button>
                <Transition fallback=|| ()>
                    {move || user.get().filter(|me| !me.guest).map(|me| view! {
                        // The panel is rendered on the server outside the app: a full page load.
                        <a href="/friends" rel="external" data-testid="friends-link">{crate::t!(nav.friends)}</a>
                        <a href="/settings" rel="external">{crate::t!(nav.settings)}</a>
                        {me.admin.then(|| view! { <a href="/admin" rel="external" data-testid="admin-link">{crate::t!(nav.admin)}</a> })}
                        <button class="link sign-out" on:click=move |_| { open.set(false); sign_out.dispatch(()); }>
                            {crate::t!(nav.sign_out)}
                        </button>
                    })}
                </Transition>
            </div>
            <span class="account">
                <Transition fallback=|| ()>
                    {move || match user.get() {
                        Some(me) if !me.guest => {
                            let profile = crate::api::profile_path(&me.name);
                            view! { <a class="who" data-testid="who" href=profile rel="external">{me.name}</a> }.into_any()
                        }
                        Some(_) => view! {
                            <span class="who" data-testid="who">{crate::t!(nav.guest)}</span>
                            // A phone's bar has room for the short words only.
                            <a href="/signup" class="button keep-games" title=crate::t!(nav.keep_games)>
                                <span class="long">{crate::t!(nav.keep_games)}</span><span class="short">{crate::t!(nav.sign_up)}</span>
                            </a>
                        }.into_any(),
                        None => view! {
                            <a href="/signin">{crate::t!(nav.sign_in)}</a>
                            <a class="button" href="/signup">{crate::t!(nav.sign_up)}</a>
                        }.into_any(),
                    }}
                </Transition>
            </span>
            <button type="button" class="menu-button" aria-controls="main-menu" aria-expanded=move || open.get().to_string()
                aria-label=crate::t!(nav.menu) data-testid="menu" on:click=move |_| open.update(|o| *o = !*o)>"☰"</button>
        </nav>
        <StandingBanner />
    }
}

/// A mute or suspension in force: what was done, why and until when, on every page.
#[component]
fn StandingBanner() -> impl IntoView {
    let user = CurrentUser::expect();
    let language = crate::i18n::Language::expect();
    // The page is rendered with the moment in UTC (the server does not know the reader's time
    // zone); once hydrated it reads in the reader's own time.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    view! {
        <Transition fallback=|| ()>
            {move || user.get().and_then(|me| me.standing).map(|standing| {
                let texts = language.get();
                let written = if hydrated.get() { crate::i18n::local_moment } else { crate::i18n::moment };
                view! {
                    <p class="standing" role="status" data-testid="standing">
                        {crate::i18n::sanctioned_at(texts, !standing.suspended, standing.until, written)}" "
                        {crate::tr!(texts, social.standing_reason, reason = standing.reason)}
                    </p>
                }
            })}
        </Transition>
    }
}
