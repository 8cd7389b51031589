//! Data a page loads on the server and hands to the browser inside the rendered HTML, in the
//! page's own wire form (postcard, read by the same code as server functions' answers, so each
//! type has one reader in the bundle).
//!
//! Every page's data is one resource type underneath ([`Erased`]): Leptos compiles its resource
//! machinery (the async derived value, its futures, storage and hydration) once per value type,
//! and the bundle every player downloads paid for that eight times over (issue 18). The typed
//! [`Loaded`] on top only reads its value back out.

use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use serde::{de::DeserializeOwned, Serialize};

use crate::wire::{from_bytes, to_bytes, WireError};

/// A server function's answer, as a page's data.
type Answer<T> = Result<T, ServerFnError>;

/// A page's data of some type: the postcard bytes it came in (inside the page) and the value
/// they hold, read once, the first time a view asks.
#[derive(Clone)]
pub struct Erased {
    bytes: Option<Arc<[u8]>>,
    value: Arc<OnceLock<Arc<dyn Any + Send + Sync>>>,
}

impl Erased {
    /// A value the fetcher produced. The server also keeps its bytes, to write into the page.
    fn fetched<V: Serialize + Send + Sync + 'static>(value: V) -> Erased {
        #[cfg(feature = "ssr")]
        let bytes = to_bytes(&value).ok().map(Arc::from);
        #[cfg(not(feature = "ssr"))]
        let bytes = None;
        Erased {
            bytes,
            value: Arc::new(OnceLock::from(Arc::new(value) as Arc<dyn Any + Send + Sync>)),
        }
    }

    /// The answer inside, read from the page's bytes if nobody has yet.
    fn read<T: DeserializeOwned + Clone + Send + Sync + 'static>(&self) -> Answer<T> {
        let value = self.value.get_or_init(|| {
            let bytes = self.bytes.as_deref().unwrap_or_default();
            let answer: Answer<T> = from_bytes(bytes)
                .unwrap_or_else(|e| Err(ServerFnError::Deserialization(e.to_string())));
            Arc::new(answer)
        });
        value
            .downcast_ref::<Answer<T>>()
            .cloned()
            .unwrap_or_else(|| {
                // Only if one resource were read as two types, which `Loaded<T>` rules out.
                Err(ServerFnError::Deserialization(
                    "a page's data read as another type".into(),
                ))
            })
    }
}

/// How [`Erased`] travels inside the page: its bytes as they are.
pub struct Raw;

impl Encoder<Erased> for Raw {
    type Error = WireError;
    type Encoded = Vec<u8>;

    fn encode(value: &Erased) -> Result<Vec<u8>, WireError> {
        Ok(value.bytes.as_deref().unwrap_or_default().to_vec())
    }
}

impl Decoder<Erased> for Raw {
    type Error = WireError;
    type Encoded = [u8];

    fn decode(bytes: &[u8]) -> Result<Erased, WireError> {
        Ok(Erased {
            bytes: Some(Arc::from(bytes)),
            value: Arc::default(),
        })
    }
}

/// What a resource's source is, as bytes: one source type for all of them.
type Key = Vec<u8>;
type Fetch = Pin<Box<dyn Future<Output = Erased> + Send>>;

/// A server function's answer that comes with the page and is fetched again in the browser when
/// its source changes.
pub struct Loaded<T> {
    raw: Resource<Erased, Raw>,
    answer: PhantomData<fn() -> T>,
}

impl<T> Clone for Loaded<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Loaded<T> {}

impl<T: DeserializeOwned + Clone + Send + Sync + 'static> Loaded<T> {
    /// The answer, once there is one (tracked: a view reading it follows refetches, and a
    /// `Suspense` or `Transition` around it waits for it).
    pub fn get(&self) -> Option<Answer<T>> {
        self.raw.get().map(|erased| erased.read())
    }
}

impl<T> Loaded<T> {
    /// Fetches it again.
    pub fn refetch(&self) {
        self.raw.refetch();
    }
}

/// Loads `fetcher(source())` on the server while rendering, hands the answer to the browser with
/// the page, and loads again in the browser whenever `source` changes.
#[track_caller]
pub fn load<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Loaded<T>
where
    T: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
    S: Serialize + DeserializeOwned + 'static,
    Fut: Future<Output = Answer<T>> + Send + 'static,
{
    load_with(source, fetcher, false)
}

/// [`load`], but the server sends nothing of the page until the answer is in: the page's status
/// can then depend on it (a game that is not there answers 404).
#[track_caller]
pub fn load_first<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Loaded<T>
where
    T: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
    S: Serialize + DeserializeOwned + 'static,
    Fut: Future<Output = Answer<T>> + Send + 'static,
{
    load_with(source, fetcher, true)
}

#[track_caller]
fn load_with<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
    blocking: bool,
) -> Loaded<T>
where
    T: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
    S: Serialize + DeserializeOwned + 'static,
    Fut: Future<Output = Answer<T>> + Send + 'static,
{
    let key = Box::new(move || to_bytes(&source()).unwrap_or_default());
    let fetch = Box::new(move |key: Key| -> Fetch {
        let answer = from_bytes::<S>(&key).map(&fetcher);
        Box::pin(async move {
            Erased::fetched(match answer {
                Ok(answer) => answer.await,
                Err(e) => Err::<T, _>(ServerFnError::Serialization(e.to_string())),
            })
        })
    });
    Loaded {
        raw: erased(key, fetch, blocking),
        answer: PhantomData,
    }
}

/// The one resource type behind every [`Loaded`].
#[track_caller]
fn erased(
    key: Box<dyn Fn() -> Key + Send + Sync>,
    fetch: Box<dyn Fn(Key) -> Fetch + Send + Sync>,
    blocking: bool,
) -> Resource<Erased, Raw> {
    Resource::new_with_options(key, fetch, blocking)
}
