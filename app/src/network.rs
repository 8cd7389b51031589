//! What the browser knows of its network.

/// Whether the browser knows it has no network (on the server: never).
pub fn offline() -> bool {
    #[cfg(feature = "hydrate")]
    return web_sys::window().is_some_and(|w| !w.navigator().on_line());
    #[cfg(not(feature = "hydrate"))]
    false
}
