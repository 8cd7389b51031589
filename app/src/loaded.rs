//! Data a page loads on the server and hands to the browser inside the rendered HTML.
//!
//! Leptos' default resource codec reads that JSON with `serde_json::from_str`, while server
//! functions read their responses with `serde_json::from_slice`: every type loaded both ways was
//! compiled into the browser bundle twice, once per reader. [`Json`] reads the page's copy the
//! way server functions do, so each type has one reader.

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use serde::{de::DeserializeOwned, Serialize};

/// JSON, read as bytes.
pub struct Json;

impl<T: Serialize> Encoder<T> for Json {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for Json {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, serde_json::Error> {
        serde_json::from_slice(text.as_bytes())
    }
}

/// A resource whose first value comes with the page.
pub type Loaded<T> = Resource<T, Json>;

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
