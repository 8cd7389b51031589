//! The shell of the pages rendered on the server only (the admin panel, profiles, leaderboards,
//! a finished game's board): plain HTML with the app's stylesheet and top bar, no hydration and
//! nothing added to the wasm bundle every player downloads.

use leptos::prelude::*;

use crate::api::profile_path;

/// A unix-ms instant as `2026-12-01 14:05 UTC`: the same on the server and in the browser, so the
/// hydrated page matches the rendered one.
pub fn utc(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000);
    let (days, minute_of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02} {:02}:{:02} UTC",
        minute_of_day / 60,
        minute_of_day % 60
    )
}

/// A whole document around `main`, with the top bar for `viewer` (signed in, or not).
pub fn document(
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
                <a href="/lobby">"Lobby"</a>
                <a href="/leaderboard">"Leaderboard"</a>
                <span class="spacer"></span>
                {admin.then(|| view! { <a href="/admin" data-testid="admin-link">"Admin"</a> })}
                {match viewer {
                    Some(name) => {
                        let href = profile_path(&name);
                        view! { <a class="who" data-testid="who" href=href>{name}</a> }.into_any()
                    }
                    None => view! { <a href="/signin">"Sign in"</a> }.into_any(),
                }}
            </nav>
            {main}
        }
        .to_html()
    });
    html(title, &body)
}

/// The HTML around a rendered body.
pub fn html(title: &str, body: &str) -> String {
    let title = format!("{title} · {}", crate::APP_NAME)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"icon\" type=\"image/svg+xml\" href=\"/favicon.svg\">\
         <link rel=\"stylesheet\" href=\"/pkg/alfakraft.css\"></head><body>{body}</body></html>"
    )
}
