//! Dictionaries in the pages: their list (a server function), and in the browser their FSTs,
//! each fetched at most once per page load and shared by every component that needs it.

use std::{collections::HashMap, sync::Arc};

use crate::wire::Wire;
use dictionaries::{DictionaryId, DictionaryInfo, FstLexicon};
use leptos::prelude::*;

/// Every dictionary with its content-hashed URL; with `with_licences`, the licence texts too.
// The macro's generated argument struct has fields that cannot carry doc comments.
#[server(output = Wire, endpoint = "dictionaries")]
pub async fn dictionary_list(with_licences: bool) -> Result<Vec<DictionaryInfo>, ServerFnError> {
    let services = crate::api::server::services()?;
    services
        .library
        .infos(with_licences)
        .await
        .map_err(crate::api::server::failed)
}

/// Where a dictionary stands in this page.
#[derive(Clone, Debug)]
pub enum LexiconState {
    /// Not asked for yet, or being fetched.
    Loading,
    /// Ready for the rules.
    Ready(Arc<FstLexicon>),
    /// The fetch failed.
    Failed(String),
}

/// The page's dictionaries: the list from the server and the FSTs fetched so far, keyed by their
/// content-hashed URL, so a game on an older version and a new game on the active one each get
/// their own words.
#[derive(Clone, Copy)]
pub struct Lexicons {
    infos: crate::loaded::Loaded<Vec<DictionaryInfo>>,
    loaded: RwSignal<HashMap<String, LexiconState>>,
}

impl Lexicons {
    /// Makes the page's dictionaries available to every component below.
    pub fn provide() -> Lexicons {
        let lexicons = Lexicons {
            infos: crate::loaded::load(|| (), |_| dictionary_list(false)),
            loaded: RwSignal::new(HashMap::new()),
        };
        provide_context(lexicons);
        lexicons
    }

    /// The page's dictionaries, as provided by the app.
    pub fn expect() -> Lexicons {
        expect_context::<Lexicons>()
    }

    /// The list from the server.
    pub fn infos(self) -> crate::loaded::Loaded<Vec<DictionaryInfo>> {
        self.infos
    }

    /// The state of the active version of `id` (what a new game gets).
    pub fn state(self, id: DictionaryId) -> LexiconState {
        // Tracked: if the list has not arrived yet, the caller runs again when it does.
        let Some(Ok(infos)) = self.infos.get() else {
            return LexiconState::Loading;
        };
        match infos.iter().find(|i| i.id == id) {
            Some(info) => self.at(&info.url),
            None => LexiconState::Failed(format!("no dictionary {}", id.as_str())),
        }
    }

    /// The state of the version served at `url` (a game's own); asking starts the fetch (in the
    /// browser; on the server the answer stays `Loading`).
    pub fn at(self, url: &str) -> LexiconState {
        if let Some(state) = self.loaded.with(|loaded| loaded.get(url).cloned()) {
            return state;
        }
        #[cfg(feature = "hydrate")]
        self.fetch(url.to_string());
        LexiconState::Loading
    }

    /// The words served at `url`, fetched unless this page has them already.
    #[cfg(feature = "hydrate")]
    pub async fn words(self, url: &str) -> Result<Arc<FstLexicon>, String> {
        if let Some(LexiconState::Ready(words)) = self
            .loaded
            .with_untracked(|loaded| loaded.get(url).cloned())
        {
            return Ok(words);
        }
        let bytes = fetch_bytes(url).await?;
        let words =
            Arc::new(FstLexicon::from_bytes(bytes).map_err(|e| format!("not a dictionary: {e}"))?);
        self.loaded.update(|loaded| {
            loaded.insert(url.to_string(), LexiconState::Ready(words.clone()));
        });
        Ok(words)
    }

    #[cfg(feature = "hydrate")]
    fn fetch(self, url: String) {
        // Mark it first: a second caller in the same tick must not fetch again.
        self.loaded.update_untracked(|loaded| {
            loaded.insert(url.clone(), LexiconState::Loading);
        });
        leptos::task::spawn_local(async move {
            let state = match fetch_bytes(&url).await.and_then(|bytes| {
                FstLexicon::from_bytes(bytes).map_err(|e| format!("not a dictionary: {e}"))
            }) {
                Ok(lexicon) => LexiconState::Ready(Arc::new(lexicon)),
                Err(error) => LexiconState::Failed(error),
            };
            self.loaded.update(|loaded| {
                loaded.insert(url, state);
            });
        });
    }
}

#[cfg(feature = "hydrate")]
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| crate::js_error::text(&e))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(
        response
            .array_buffer()
            .map_err(|e| crate::js_error::text(&e))?,
    )
    .await
    .map_err(|e| crate::js_error::text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
