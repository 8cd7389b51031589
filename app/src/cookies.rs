//! The few cookies the server reads before rendering a page (the language, whether the browser
//! has the bundle's stylesheet and script) and sets on its response.

/// The value of cookie `name` in a request's headers.
pub fn get<'h>(headers: &'h http::HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value)
}

/// Sets cookie `name` for a year on the response being rendered (site-wide, first-party only,
/// out of scripts' reach).
pub fn set(name: &str, value: &str) {
    use leptos::prelude::use_context;
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        let cookie = format!("{name}={value}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly");
        if let Ok(value) = http::HeaderValue::from_str(&cookie) {
            response.append_header(http::header::SET_COOKIE, value);
        }
    }
}

/// The value of cookie `name` in the request being rendered, if any.
pub fn of_request(name: &str) -> Option<String> {
    use leptos::prelude::use_context;
    let parts = use_context::<http::request::Parts>()?;
    get(&parts.headers, name).map(str::to_string)
}
