//! Data a page loads on the server and hands to the browser inside the rendered HTML, in the
//! page's own wire form ([`Rendered`]: postcard, read by the same code as server functions'
//! answers, so each type has one reader in the bundle).

use crate::wire::Rendered;
use leptos::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

/// A resource whose first value comes with the page.
pub type Loaded<T> = Resource<T, Rendered>;

/// Loads `fetcher(source())` on the server while rendering, hands the value to the browser with
/// the page, and loads again in the browser whenever `source` changes.
#[track_caller]
pub fn load<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Loaded<T>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: PartialEq + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}
