//! The browser's end of `/api/live`: an `EventSource` that calls back when something the page
//! shows changed, and on every opening (changes may have been missed before it opened or while
//! it was down).
//! The browser reconnects by itself after a dropped connection. On the server this does nothing.

use leptos::prelude::*;

/// Which seats have a live page open: `Some(true)` online, `Some(false)` away, `None` for a bot or
/// an open seat.
pub type Presence = Vec<Option<bool>>;

/// Whether the live stream is cut off (it retries by itself): every page says so, and says
/// nothing once it is back.
#[derive(Clone, Copy)]
pub struct Connection(RwSignal<bool>);

impl Connection {
    /// Made once, by the app.
    pub fn provide() {
        provide_context(Connection(RwSignal::new(false)));
    }
}

/// "Connection lost — retrying…" while the live stream is down.
#[component]
pub fn ConnectionBanner() -> impl IntoView {
    let lost = use_context::<Connection>();
    move || {
        lost.filter(|c| c.0.get()).map(|_| {
            view! {
                <p class="connection-lost" role="status" data-testid="connection-lost">
                    {crate::t!(nav.connection_lost)}
                </p>
            }
        })
    }
}

/// Follows `url` for as long as the calling owner (component or effect) lives: `on_change` when
/// what the page shows changed, `on_presence` with who is online, `on_chat` when a message was
/// written in the followed game.
pub fn follow(
    url: String,
    on_change: impl Fn() + Clone + 'static,
    on_presence: impl Fn(Presence) + 'static,
    on_chat: impl Fn() + 'static,
) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::{closure::Closure, JsCast};
        let Ok(source) = web_sys::EventSource::new(&url) else {
            return;
        };
        let lost = use_context::<Connection>().map(|c| c.0);
        let back = move || {
            if lost.is_some_and(|lost| lost.get_untracked()) {
                lost.inspect(|lost| lost.set(false));
            }
        };
        let changed = Closure::<dyn Fn(web_sys::Event)>::new({
            let on_change = on_change.clone();
            move |_| {
                back();
                on_change()
            }
        });
        // Every opening catches up, the first too: a change committed after the page fetched
        // its data and before the stream opened reaches the page by no other way.
        let opened = Closure::<dyn Fn(web_sys::Event)>::new(move |_| {
            back();
            on_change()
        });
        let presence =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                back();
                if let Some(data) = e.data().as_string() {
                    on_presence(parse_presence(&data));
                }
            });
        let chatted = Closure::<dyn Fn(web_sys::Event)>::new(move |_| on_chat());
        // The browser retries by itself; until then the page says the connection is lost. A
        // stream the server declined (a visitor: nothing to follow) is closed, not lost.
        let failed = Closure::<dyn Fn(web_sys::Event)>::new({
            let source = source.clone();
            move |_| {
                if source.ready_state() == web_sys::EventSource::CONNECTING {
                    lost.inspect(|lost| lost.set(true));
                }
            }
        });
        for (name, callback) in [
            ("game", changed.as_ref()),
            ("open", opened.as_ref()),
            ("presence", presence.as_ref()),
            ("chat", chatted.as_ref()),
            ("error", failed.as_ref()),
        ] {
            let _ = source.add_event_listener_with_callback(name, callback.unchecked_ref());
        }
        let kept = StoredValue::new_local((source, changed, opened, presence, chatted, failed));
        on_cleanup(move || kept.with_value(|(source, ..)| source.close()));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (url, on_change, on_presence, on_chat);
}

/// `[true,false,null]` → `[Some(true), Some(false), None]`.
pub fn parse_presence(data: &str) -> Presence {
    data.trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| match s.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
        .collect()
}

/// A turn's time left, ticking down each second in the browser. Casual deadlines show only in
/// their last 24 hours (docs/rules.md); a Blitz clock always shows. Renders nothing otherwise.
#[component]
pub fn Clock(
    /// Time left when the page was received, ms.
    left_ms: i64,
    /// Blitz: always shown, as minutes and seconds.
    blitz: bool,
) -> impl IntoView {
    let elapsed = RwSignal::new(0_i64);
    let language = crate::i18n::Language::expect();
    #[cfg(feature = "hydrate")]
    {
        let start = js_sys::Date::now();
        if let Ok(handle) = set_interval(
            move || elapsed.set((js_sys::Date::now() - start) as i64),
            std::time::Duration::from_millis(if blitz { 250 } else { 1000 }),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    move || {
        let left = (left_ms - elapsed.get()).max(0);
        let text = clock_text(left, blitz)?;
        let class = if left <= 20_000 {
            "clock urgent"
        } else {
            "clock"
        };
        // A Casual clock's digits, said in words for whoever reads the page aloud.
        let spoken = (!blitz).then(|| {
            let secs = left / 1000;
            crate::tr!(
                language.get(),
                clock.hours,
                h = secs / 3600,
                m = secs % 3600 / 60
            )
        });
        Some(
            view! { <span class=class data-testid="clock" role="timer" aria-label=spoken.clone() title=spoken>{text}</span> },
        )
    }
}

/// How a clock reads: `1:05` for Blitz; `05:12:44`, ticking, inside a Casual deadline's last day
/// (the rules' own words); `None` before that. The same for every language.
pub fn clock_text(left_ms: i64, blitz: bool) -> Option<String> {
    const DAY_MS: i64 = 24 * 3_600_000;
    if blitz {
        // Rounded up, as clocks do: "0:00" only when the time is really gone.
        let secs = (left_ms + 999) / 1000;
        return Some(format!("{}:{:02}", secs / 60, secs % 60));
    }
    if left_ms >= DAY_MS {
        return None;
    }
    let secs = left_ms.max(0) / 1000;
    Some(format!(
        "{:02}:{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presence_parses() {
        assert_eq!(
            parse_presence("[true,false,null]"),
            vec![Some(true), Some(false), None]
        );
        assert_eq!(parse_presence("[]"), Vec::<Option<bool>>::new());
    }

    #[test]
    fn casual_clock_counts_down_in_the_last_day() {
        assert_eq!(clock_text(7 * 24 * 3_600_000, false), None);
        assert_eq!(clock_text(24 * 3_600_000, false), None);
        assert_eq!(
            clock_text(24 * 3_600_000 - 1, false).as_deref(),
            Some("23:59:59")
        );
        assert_eq!(
            clock_text(5 * 3_600_000 + 12 * 60_000 + 44_000, false).as_deref(),
            Some("05:12:44")
        );
        assert_eq!(clock_text(12_000, false).as_deref(), Some("00:00:12"));
        assert_eq!(clock_text(0, false).as_deref(), Some("00:00:00"));
    }

    #[test]
    fn blitz_clock_shows_minutes_and_seconds() {
        assert_eq!(clock_text(120_000, true).as_deref(), Some("2:00"));
        assert_eq!(clock_text(65_001, true).as_deref(), Some("1:06"));
        assert_eq!(clock_text(0, true).as_deref(), Some("0:00"));
    }
}
